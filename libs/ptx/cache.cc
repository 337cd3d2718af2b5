#include "ptx/cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "ptx/translate.h"
#include "ptx/translator_build_id.h"

namespace streamhal::ptx {
namespace {

// ---- SHA-256 ---------------------------------------------------------------

constexpr std::array<uint32_t, 64> kRoundConstants = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

uint32_t RotateRight(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

void Sha256Block(const uint8_t* block, std::array<uint32_t, 8>& h) {
  uint32_t w[64];
  for (int i = 0; i < 16; ++i) {
    w[i] = (uint32_t{block[4 * i]} << 24) | (uint32_t{block[4 * i + 1]} << 16) |
           (uint32_t{block[4 * i + 2]} << 8) | uint32_t{block[4 * i + 3]};
  }
  for (int i = 16; i < 64; ++i) {
    const uint32_t s0 = RotateRight(w[i - 15], 7) ^ RotateRight(w[i - 15], 18) ^ (w[i - 15] >> 3);
    const uint32_t s1 = RotateRight(w[i - 2], 17) ^ RotateRight(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
  for (int i = 0; i < 64; ++i) {
    const uint32_t s1 = RotateRight(e, 6) ^ RotateRight(e, 11) ^ RotateRight(e, 25);
    const uint32_t choice = (e & f) ^ (~e & g);
    const uint32_t t1 = k + s1 + choice + kRoundConstants[i] + w[i];
    const uint32_t s0 = RotateRight(a, 2) ^ RotateRight(a, 13) ^ RotateRight(a, 22);
    const uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
    const uint32_t t2 = s0 + majority;
    k = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  h[0] += a;
  h[1] += b;
  h[2] += c;
  h[3] += d;
  h[4] += e;
  h[5] += f;
  h[6] += g;
  h[7] += k;
}

std::string Hex(const std::array<uint8_t, 32>& digest) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(64);
  for (uint8_t byte : digest) {
    out.push_back(kDigits[byte >> 4]);
    out.push_back(kDigits[byte & 15]);
  }
  return out;
}

// ---- Entries ---------------------------------------------------------------

// An entry file: this header, then the SPIR-V words (host byte order; the
// magic tells a file of another byte order, which is then a miss).
struct EntryHeader {
  char magic[8];                // kMagic
  uint32_t format_version;      // kFormatVersion
  uint32_t translator_version;  // kTranslatorVersion
  uint8_t key[32];              // the entry's key (also its file name)
  uint64_t payload_bytes;       // SPIR-V bytes that follow
  uint64_t payload_checksum;    // Checksum() of those bytes
};
static_assert(sizeof(EntryHeader) == 64);

constexpr char kMagic[8] = {'S', 'H', 'P', 'T', 'X', 'C', '\x01', '\x02'};
constexpr uint32_t kFormatVersion = 1;
constexpr uint32_t kSpirvMagic = 0x07230203;
// Larger files are not entries this cache wrote (a guard before reading).
constexpr uint64_t kMaxEntryBytes = uint64_t{256} << 20;
constexpr uint64_t kMaxCacheBytes = uint64_t{4} << 30;  // CUDA's limit too
constexpr char kEntrySuffix[] = ".spvc";
constexpr size_t kEntrySuffixSize = sizeof(kEntrySuffix) - 1;

// Debian's Abseil has a string_view of its own.
absl::string_view Absl(std::string_view s) { return absl::string_view(s.data(), s.size()); }

// Detects damaged entries (torn writes, bit flips), not forgeries: the key
// is SHA-256 already, and hashing every hit's payload with it would cost a
// cache hit most of its time. 64-bit multiply-rotate rounds over 8-byte
// words (xxHash's round function), seeded with the length; a trailing
// partial word is zero-padded.
uint64_t Checksum(std::string_view bytes) {
  constexpr uint64_t kPrime1 = 0x9e3779b185ebca87ull, kPrime2 = 0xc2b2ae3d27d4eb4full;
  auto round = [](uint64_t h, uint64_t word) {
    h += word * kPrime2;
    h = (h << 31) | (h >> 33);
    return h * kPrime1;
  };
  uint64_t h = kPrime1 ^ bytes.size();
  size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, bytes.data() + i, 8);
    h = round(h, word);
  }
  if (i < bytes.size()) {
    uint64_t word = 0;
    std::memcpy(&word, bytes.data() + i, bytes.size() - i);
    h = round(h, word);
  }
  h ^= h >> 29;
  h *= kPrime2;
  return h ^ (h >> 32);
}

std::array<uint8_t, 32> Key(std::string_view ptx, std::string_view device) {
  // Lengths first, so no two (device, ptx) pairs share key material.
  const std::string material =
      absl::StrCat("streamhal ptx cache\n", kTranslatorVersion, "\n", STREAMHAL_PTX_BUILD_ID, "\n",
                   device.size(), ":", Absl(device), "\n", ptx.size(), ":", Absl(ptx));
  return Sha256(material);
}

bool ReadWhole(const std::string& path, std::string* out) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;
  struct stat st;
  bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
            static_cast<uint64_t>(st.st_size) <= kMaxEntryBytes;
  if (ok) {
    out->resize(static_cast<size_t>(st.st_size));
    size_t done = 0;
    while (done < out->size()) {
      const ssize_t n = read(fd, out->data() + done, out->size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    ok = done == out->size();
  }
  close(fd);
  return ok;
}

bool WriteAll(int fd, const void* data, size_t size) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  size_t done = 0;
  while (done < size) {
    const ssize_t n = write(fd, bytes + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// mkdir -p; true when `path` is a directory afterwards.
bool MakeDirectories(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) == 0) return S_ISDIR(st.st_mode);
  const size_t slash = path.find_last_of('/');
  if (slash != std::string::npos && slash > 0 && !MakeDirectories(path.substr(0, slash))) {
    return false;
  }
  // The cache holds one user's compiled kernels: keep it theirs.
  if (mkdir(path.c_str(), 0700) == 0) return true;
  return errno == EEXIST && stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string Getenv(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

}  // namespace

std::array<uint8_t, 32> Sha256(std::string_view bytes) {
  std::array<uint32_t, 8> h = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  size_t whole = bytes.size() / 64;
  for (size_t i = 0; i < whole; ++i) Sha256Block(data + 64 * i, h);
  // The tail, the 0x80 marker and the bit length (big-endian) in one or two
  // final blocks.
  uint8_t tail[128] = {};
  const size_t rest = bytes.size() % 64;
  if (rest != 0) std::memcpy(tail, data + 64 * whole, rest);
  tail[rest] = 0x80;
  const size_t tail_size = rest < 56 ? 64 : 128;
  const uint64_t bits = static_cast<uint64_t>(bytes.size()) * 8;
  for (int i = 0; i < 8; ++i) tail[tail_size - 1 - i] = static_cast<uint8_t>(bits >> (8 * i));
  for (size_t off = 0; off < tail_size; off += 64) Sha256Block(tail + off, h);
  std::array<uint8_t, 32> digest;
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 4; ++j) digest[4 * i + j] = static_cast<uint8_t>(h[i] >> (24 - 8 * j));
  }
  return digest;
}

CacheSettings CacheSettings::FromEnvironment() {
  CacheSettings settings;
  const std::string disable = Getenv("CUDA_CACHE_DISABLE");
  if (!disable.empty() && disable != "0") return settings;
  settings.directory = Getenv("CUDA_CACHE_PATH");
  if (settings.directory.empty()) {
    const std::string xdg = Getenv("XDG_CACHE_HOME");
    const std::string home = Getenv("HOME");
    // XDG base directories: a relative path is invalid and ignored.
    if (!xdg.empty() && xdg[0] == '/') {
      settings.directory = xdg + "/streamhal/ptx";
    } else if (!home.empty()) {
      settings.directory = home + "/.cache/streamhal/ptx";
    } else {
      return settings;
    }
  }
  uint64_t max_bytes = 0;
  if (absl::SimpleAtoi(Getenv("CUDA_CACHE_MAXSIZE"), &max_bytes)) {
    settings.max_bytes = std::min(max_bytes, kMaxCacheBytes);
  }
  settings.enabled = true;
  return settings;
}

TranslationCache::TranslationCache(CacheSettings settings) : settings_(std::move(settings)) {
  if (settings_.directory.empty()) settings_.enabled = false;
  while (settings_.directory.size() > 1 && settings_.directory.back() == '/') {
    settings_.directory.pop_back();
  }
}

std::string TranslationCache::EntryPath(std::string_view ptx, std::string_view device) const {
  if (!settings_.enabled) return "";
  return absl::StrCat(settings_.directory, "/", Hex(Key(ptx, device)), kEntrySuffix);
}

std::optional<std::vector<uint32_t>> TranslationCache::Load(std::string_view ptx,
                                                            std::string_view device) const {
  if (!settings_.enabled) return std::nullopt;
  const std::array<uint8_t, 32> key = Key(ptx, device);
  const std::string path = absl::StrCat(settings_.directory, "/", Hex(key), kEntrySuffix);
  std::string bytes;
  if (!ReadWhole(path, &bytes) || bytes.size() < sizeof(EntryHeader)) return std::nullopt;
  EntryHeader header;
  std::memcpy(&header, bytes.data(), sizeof(header));
  const std::string_view payload = std::string_view(bytes).substr(sizeof(header));
  if (std::memcmp(header.magic, kMagic, sizeof(kMagic)) != 0 ||
      header.format_version != kFormatVersion || header.translator_version != kTranslatorVersion ||
      std::memcmp(header.key, key.data(), key.size()) != 0 ||
      header.payload_bytes != payload.size() || payload.size() < 20 || payload.size() % 4 != 0 ||
      Checksum(payload) != header.payload_checksum) {
    return std::nullopt;
  }
  std::vector<uint32_t> words(payload.size() / 4);
  std::memcpy(words.data(), payload.data(), payload.size());
  if (words[0] != kSpirvMagic) return std::nullopt;
  // Recently used: eviction removes the entries with the oldest times.
  (void)utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
  return words;
}

bool TranslationCache::Store(std::string_view ptx, std::string_view device,
                             const std::vector<uint32_t>& spirv) const {
  if (!settings_.enabled || spirv.empty()) return false;
  const uint64_t payload_bytes = spirv.size() * sizeof(uint32_t);
  // CUDA: a binary larger than the cache is not cached.
  if (payload_bytes + sizeof(EntryHeader) > settings_.max_bytes || payload_bytes > kMaxEntryBytes) {
    return false;
  }
  if (!MakeDirectories(settings_.directory)) return false;
  const std::array<uint8_t, 32> key = Key(ptx, device);
  const std::string name = Hex(key);
  const std::string path = absl::StrCat(settings_.directory, "/", name, kEntrySuffix);

  EntryHeader header;
  std::memcpy(header.magic, kMagic, sizeof(kMagic));
  header.format_version = kFormatVersion;
  header.translator_version = kTranslatorVersion;
  std::memcpy(header.key, key.data(), key.size());
  header.payload_bytes = payload_bytes;
  const std::string_view payload(reinterpret_cast<const char*>(spirv.data()), payload_bytes);
  header.payload_checksum = Checksum(payload);

  // A name no other writer uses (process and a per-process counter), in the
  // same directory so rename(2) replaces the entry atomically: a reader sees
  // the old entry, no entry or the whole new one, never a part.
  static std::atomic<uint64_t> counter{0};
  const std::string temp = absl::StrCat(settings_.directory, "/.", name, ".", getpid(), ".",
                                        counter.fetch_add(1), ".tmp");
  const int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  bool ok = WriteAll(fd, &header, sizeof(header)) && WriteAll(fd, payload.data(), payload.size());
  ok = close(fd) == 0 && ok;
  if (ok) ok = rename(temp.c_str(), path.c_str()) == 0;
  if (!ok) {
    unlink(temp.c_str());
    return false;
  }
  Evict();
  return true;
}

void TranslationCache::Evict() const {
  DIR* dir = opendir(settings_.directory.c_str());
  if (dir == nullptr) return;
  struct Entry {
    std::string path;
    uint64_t bytes;
    struct timespec used;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  while (const struct dirent* item = readdir(dir)) {
    const std::string_view name = item->d_name;
    if (name.size() <= kEntrySuffixSize ||
        name.substr(name.size() - kEntrySuffixSize) != kEntrySuffix) {
      continue;
    }
    std::string path = absl::StrCat(settings_.directory, "/", Absl(name));
    struct stat st;
    if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    entries.push_back({std::move(path), static_cast<uint64_t>(st.st_size), st.st_mtim});
    total += static_cast<uint64_t>(st.st_size);
  }
  closedir(dir);
  if (total <= settings_.max_bytes) return;
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return std::pair(a.used.tv_sec, a.used.tv_nsec) < std::pair(b.used.tv_sec, b.used.tv_nsec);
  });
  for (const Entry& entry : entries) {
    if (total <= settings_.max_bytes) break;
    if (unlink(entry.path.c_str()) == 0) total -= entry.bytes;
  }
}

absl::StatusOr<CachedTranslation> TranslatePtxCached(std::string_view text, std::string_view device,
                                                     const CacheSettings& settings) {
  const TranslationCache cache(settings);
  CachedTranslation result;
  if (std::optional<std::vector<uint32_t>> hit = cache.Load(text, device)) {
    result.spirv = *std::move(hit);
    result.from_cache = true;
    return result;
  }
  absl::StatusOr<std::vector<uint32_t>> spirv = TranslatePtx(text);
  if (!spirv.ok()) return spirv.status();
  result.spirv = *std::move(spirv);
  (void)cache.Store(text, device, result.spirv);
  return result;
}

}  // namespace streamhal::ptx
