// Kernel image parsing. Every offset and length read from an image is checked
// against the image size, or against kMaxImageBytes when the image came as a
// bare pointer, before anything at that offset is read. A bare pointer's
// headers are read in file order, a byte at a time wherever a byte can show
// that the image is not what its magic claims, so a short buffer is read no
// further than its first such byte.
#include "core/code_object.h"

#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <memory>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/fatbin_compression.h"
#include "core/status.h"
#include "ptx/cache.h"
#include "ptx/translate.h"

namespace streamhal {

// Image headers are little-endian and are read with memcpy into host structs.
static_assert(std::endian::native == std::endian::little,
              "streamhal reads kernel images on little-endian hosts only");

namespace {

constexpr uint32_t kSpirvMagic = 0x07230203;
constexpr size_t kSpirvHeaderWords = 5;
constexpr std::string_view kElfMagic = "\x7f" "ELF";
constexpr std::string_view kCompressedBundleMagic = "CCOB";
constexpr size_t kBundleHeaderBytes = 24 + 8;       // magic, entry count
constexpr size_t kBundleEntryFixedBytes = 3 * 8;    // offset, size, id length

// Debian's Abseil has its own string_view, which StrCat needs.
absl::string_view Sv(std::string_view s) { return absl::string_view(s.data(), s.size()); }

uint32_t Bswap32(uint32_t w) { return __builtin_bswap32(w); }

absl::Status InvalidImage(std::string_view what) {
  return Error(ErrorCode::kInvalidImage, "invalid kernel image: ", Sv(what));
}

// Whether `c` may appear in GLSL source text (UTF-8 bytes allowed in comments).
bool IsTextByte(uint8_t c) {
  return c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || (c >= 0x20 && c != 0x7f);
}

// Compares the image's first bytes with `magic` one byte at a time and stops
// at the first mismatch, so a NUL-terminated string shorter than the magic is
// never read past its terminator.
bool StartsWith(const uint8_t* data, std::optional<size_t> size, std::string_view magic) {
  for (size_t i = 0; i < magic.size(); ++i) {
    if (size.has_value() && i >= *size) return false;
    if (data[i] != static_cast<uint8_t>(magic[i])) return false;
  }
  return true;
}

// Whether text starts like nvcc's PTX: whitespace and `//` comment lines,
// then ".version". Reads one byte at a time and stops at a NUL, the size or
// the first byte that decides, so it never reads past the text.
bool StartsLikePtx(const uint8_t* data, std::optional<size_t> size) {
  constexpr std::string_view kDirective = ".version";
  const size_t limit = size.has_value() ? *size : kMaxGlslBytes;
  size_t i = 0;
  while (i < limit && data[i] != 0) {
    const uint8_t c = data[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      ++i;
    } else if (c == '/' && i + 1 < limit && data[i + 1] == '/') {
      while (i < limit && data[i] != 0 && data[i] != '\n') ++i;
    } else {
      break;
    }
  }
  for (size_t k = 0; k < kDirective.size(); ++k, ++i) {
    if (i >= limit || data[i] != static_cast<uint8_t>(kDirective[k])) return false;
  }
  return true;
}

bool StartsWithWord(const uint8_t* data, std::optional<size_t> size, uint32_t word) {
  uint8_t bytes[4];
  std::memcpy(bytes, &word, 4);
  return StartsWith(data, size, std::string_view(reinterpret_cast<const char*>(bytes), 4));
}

// The bytes of an image whose size may be unknown. With a size, a range outside
// it is an error; without one, ranges are trusted up to kMaxImageBytes, which
// bounds what a corrupt header can make us read.
class ImageBytes {
 public:
  ImageBytes(const uint8_t* data, std::optional<size_t> size) : data_(data), size_(size) {}

  const uint8_t* data() const { return data_; }
  uint64_t limit() const { return size_.has_value() ? *size_ : kMaxImageBytes; }

  absl::Status Check(uint64_t offset, uint64_t length, std::string_view what) const {
    if (offset > limit() || length > limit() - offset) {
      return InvalidImage(absl::StrCat(
          Sv(what), " [", offset, ", +", length, ") lies outside ",
          size_.has_value() ? absl::StrCat("the image of ", *size_, " bytes")
                            : absl::StrCat("the ", kMaxImageBytes >> 20,
                                           " MiB bound on images given without a size")));
    }
    return absl::OkStatus();
  }

  template <typename T>
  absl::StatusOr<T> Load(uint64_t offset, std::string_view what) const {
    SH_RETURN_IF_ERROR(Check(offset, sizeof(T), what));
    T value;
    std::memcpy(&value, data_ + offset, sizeof(T));
    return value;
  }

  // The next reads serve images given without a size: they take one byte at
  // a time and stop at the first byte that disproves the header, so a short
  // buffer that merely starts with a magic is never read past that byte.

  // A field whose every byte is known (a version, a header size).
  template <typename T>
  absl::Status Expect(uint64_t offset, T expected, std::string_view what) const {
    static_assert(std::is_unsigned_v<T>);
    SH_RETURN_IF_ERROR(Check(offset, sizeof(T), what));
    for (size_t i = 0; i < sizeof(T); ++i) {
      if (data_[offset + i] != static_cast<uint8_t>(expected >> (8 * i))) {
        return InvalidImage(absl::StrCat(Sv(what), " is not ", uint64_t{expected}));
      }
    }
    return absl::OkStatus();
  }

  // A little-endian count or offset of at most `max`. Later bytes can only
  // make the value larger, so the value of the bytes read so far already
  // disproves the field once it exceeds `max`.
  template <typename T>
  absl::StatusOr<T> LoadAtMost(uint64_t offset, uint64_t max, std::string_view what) const {
    static_assert(std::is_unsigned_v<T> && sizeof(T) <= sizeof(uint64_t));
    SH_RETURN_IF_ERROR(Check(offset, sizeof(T), what));
    uint64_t value = 0;
    for (size_t i = 0; i < sizeof(T); ++i) {
      value |= uint64_t{data_[offset + i]} << (8 * i);
      if (value > max) {
        return InvalidImage(absl::StrCat(Sv(what), " is larger than ", max));
      }
    }
    return static_cast<T>(value);
  }

 private:
  const uint8_t* data_;
  std::optional<size_t> size_;
};

// ---- SPIR-V ----------------------------------------------------------------

// Copies a module out of `bytes`, converting big-endian modules to host order,
// and checks its header and that its instructions tile the words exactly.
absl::StatusOr<std::vector<uint32_t>> SpirvFromBytes(const uint8_t* bytes, size_t size,
                                                     std::string_view what) {
  if (size % 4 != 0) {
    return InvalidImage(absl::StrCat(Sv(what), ": SPIR-V size ", size, " is not a multiple of 4"));
  }
  if (size < kSpirvHeaderWords * 4) {
    return InvalidImage(absl::StrCat(Sv(what), ": ", size,
                                     " bytes is shorter than the 20-byte SPIR-V header"));
  }
  std::vector<uint32_t> words(size / 4);
  std::memcpy(words.data(), bytes, size);
  if (words[0] != kSpirvMagic) {
    if (Bswap32(words[0]) != kSpirvMagic) {
      return InvalidImage(absl::StrFormat("%s: not SPIR-V (magic 0x%08x)", what, words[0]));
    }
    for (uint32_t& w : words) w = Bswap32(w);
  }
  for (size_t i = kSpirvHeaderWords; i < words.size();) {
    const uint32_t word_count = words[i] >> 16;
    if (word_count == 0 || word_count > words.size() - i) {
      return InvalidImage(absl::StrCat(Sv(what), ": SPIR-V instruction at word ", i,
                                       " has word count ", word_count, " (module has ",
                                       words.size(), " words)"));
    }
    i += word_count;
  }
  return words;
}

// ---- ELF code objects --------------------------------------------------------

// Reads and checks the ELF header field by field, in file order (the magic
// was matched by DetectImageFormat): without a size, each field must hold
// before the next is read, so a short buffer that starts with "\x7fELF" is
// read only up to its first byte that is not a streamhal code object's.
absl::StatusOr<Elf64_Ehdr> ReadElfHeader(const ImageBytes& image) {
  Elf64_Ehdr ehdr{};
  SH_RETURN_IF_ERROR(image.Expect<uint8_t>(EI_CLASS, ELFCLASS64,
                                           "ELF class (code objects are 64-bit)"));
  SH_RETURN_IF_ERROR(image.Expect<uint8_t>(EI_DATA, ELFDATA2LSB,
                                           "ELF data encoding (code objects are little-endian)"));
  SH_RETURN_IF_ERROR(image.Expect<uint8_t>(EI_VERSION, EV_CURRENT, "ELF identification version"));
  // OS ABI, ABI version and padding: any value.
  SH_ASSIGN_OR_RETURN(const auto ident,
                      (image.Load<std::array<unsigned char, EI_NIDENT>>(0, "ELF identification")));
  std::memcpy(ehdr.e_ident, ident.data(), EI_NIDENT);
  SH_ASSIGN_OR_RETURN(ehdr.e_type, image.Load<Elf64_Half>(offsetof(Elf64_Ehdr, e_type), "e_type"));
  SH_ASSIGN_OR_RETURN(ehdr.e_machine,
                      image.Load<Elf64_Half>(offsetof(Elf64_Ehdr, e_machine), "e_machine"));
  SH_RETURN_IF_ERROR(
      image.Expect<Elf64_Word>(offsetof(Elf64_Ehdr, e_version), EV_CURRENT, "ELF version"));
  ehdr.e_version = EV_CURRENT;
  SH_ASSIGN_OR_RETURN(ehdr.e_entry,
                      image.Load<Elf64_Addr>(offsetof(Elf64_Ehdr, e_entry), "e_entry"));
  SH_ASSIGN_OR_RETURN(ehdr.e_phoff, image.LoadAtMost<Elf64_Off>(offsetof(Elf64_Ehdr, e_phoff),
                                                                kMaxImageBytes, "e_phoff"));
  SH_ASSIGN_OR_RETURN(ehdr.e_shoff, image.LoadAtMost<Elf64_Off>(offsetof(Elf64_Ehdr, e_shoff),
                                                                kMaxImageBytes, "e_shoff"));
  SH_ASSIGN_OR_RETURN(ehdr.e_flags,
                      image.Load<Elf64_Word>(offsetof(Elf64_Ehdr, e_flags), "e_flags"));
  SH_RETURN_IF_ERROR(image.Expect<Elf64_Half>(offsetof(Elf64_Ehdr, e_ehsize),
                                              sizeof(Elf64_Ehdr), "ELF header size"));
  ehdr.e_ehsize = sizeof(Elf64_Ehdr);
  SH_ASSIGN_OR_RETURN(ehdr.e_phentsize,
                      image.LoadAtMost<Elf64_Half>(offsetof(Elf64_Ehdr, e_phentsize),
                                                   sizeof(Elf64_Phdr), "e_phentsize"));
  SH_ASSIGN_OR_RETURN(ehdr.e_phnum,
                      image.Load<Elf64_Half>(offsetof(Elf64_Ehdr, e_phnum), "e_phnum"));
  SH_RETURN_IF_ERROR(image.Expect<Elf64_Half>(offsetof(Elf64_Ehdr, e_shentsize),
                                              sizeof(Elf64_Shdr), "ELF section header size"));
  ehdr.e_shentsize = sizeof(Elf64_Shdr);
  // Zero sections also covers extended section numbering, which code objects
  // never need.
  SH_ASSIGN_OR_RETURN(ehdr.e_shnum,
                      image.LoadAtMost<Elf64_Half>(offsetof(Elf64_Ehdr, e_shnum),
                                                   SHN_LORESERVE - 1, "ELF section count"));
  if (ehdr.e_shnum == 0) return InvalidImage("ELF code object has no section header table");
  SH_ASSIGN_OR_RETURN(ehdr.e_shstrndx,
                      image.LoadAtMost<Elf64_Half>(offsetof(Elf64_Ehdr, e_shstrndx),
                                                   ehdr.e_shnum - 1,
                                                   "ELF section name table index"));
  if (ehdr.e_shstrndx == SHN_UNDEF) return InvalidImage("ELF code object has no section names");
  return ehdr;
}

// Checks the ELF header and every header table and section against the image
// and returns the image's extent: the end of whatever lies furthest.
absl::StatusOr<uint64_t> ElfExtent(const ImageBytes& image) {
  SH_ASSIGN_OR_RETURN(const Elf64_Ehdr ehdr, ReadElfHeader(image));
  if (ehdr.e_shoff % 8 != 0) {
    return InvalidImage("ELF section header table is not 8-byte aligned");
  }
  const uint64_t table_bytes = uint64_t{ehdr.e_shnum} * sizeof(Elf64_Shdr);
  SH_RETURN_IF_ERROR(image.Check(ehdr.e_shoff, table_bytes, "ELF section header table"));
  uint64_t extent = std::max<uint64_t>(sizeof(Elf64_Ehdr), ehdr.e_shoff + table_bytes);
  if (ehdr.e_phnum != 0) {
    if (ehdr.e_phnum == PN_XNUM || ehdr.e_phentsize != sizeof(Elf64_Phdr) ||
        ehdr.e_phoff % 8 != 0) {
      return InvalidImage("ELF program header table is malformed");
    }
    const uint64_t ph_bytes = uint64_t{ehdr.e_phnum} * sizeof(Elf64_Phdr);
    SH_RETURN_IF_ERROR(image.Check(ehdr.e_phoff, ph_bytes, "ELF program header table"));
    extent = std::max(extent, ehdr.e_phoff + ph_bytes);
  }
  for (uint32_t i = 0; i < ehdr.e_shnum; ++i) {
    SH_ASSIGN_OR_RETURN(const Elf64_Shdr shdr,
                        image.Load<Elf64_Shdr>(ehdr.e_shoff + i * sizeof(Elf64_Shdr),
                                               "ELF section header"));
    if (shdr.sh_type == SHT_NULL || shdr.sh_type == SHT_NOBITS) continue;
    SH_RETURN_IF_ERROR(image.Check(shdr.sh_offset, shdr.sh_size,
                                   absl::StrCat("ELF section ", i, " contents")));
    extent = std::max(extent, shdr.sh_offset + shdr.sh_size);
  }
  return extent;
}

// elf_version must be called once before any other libelf function.
void EnsureLibelfInitialized() {
  static const unsigned version = elf_version(EV_CURRENT);
  (void)version;
}

struct ElfCloser {
  void operator()(Elf* elf) const { elf_end(elf); }
};

bool IsSpirvSectionName(std::string_view name) {
  if (name.substr(0, kSpirvSectionName.size()) != kSpirvSectionName) return false;
  return name.size() == kSpirvSectionName.size() || name[kSpirvSectionName.size()] == '.';
}

absl::Status ElfError(std::string_view what) {
  return InvalidImage(absl::StrCat(Sv(what), ": ", elf_errmsg(-1)));
}

absl::StatusOr<std::vector<std::vector<uint32_t>>> ParseElf(const uint8_t* data,
                                                            std::optional<size_t> size) {
  SH_ASSIGN_OR_RETURN(const uint64_t extent, ElfExtent(ImageBytes(data, size)));
  // libelf may write to the memory it is given, and reads its tables in place,
  // so it gets a private, 8-byte aligned copy of exactly the checked extent.
  std::vector<uint64_t> copy((extent + 7) / 8);
  std::memcpy(copy.data(), data, extent);
  EnsureLibelfInitialized();
  std::unique_ptr<Elf, ElfCloser> elf(elf_memory(reinterpret_cast<char*>(copy.data()), extent));
  if (elf == nullptr || elf_kind(elf.get()) != ELF_K_ELF) return ElfError("not an ELF image");
  const Elf64_Ehdr* ehdr = elf64_getehdr(elf.get());
  if (ehdr == nullptr) return ElfError("ELF header");
  if (ehdr->e_machine != EM_NONE) {
    return Error(ErrorCode::kNoBinaryForGpu, "ELF code object is for e_machine ",
                 ehdr->e_machine, "; streamhal code objects use EM_NONE with SPIR-V in ",
                 Sv(kSpirvSectionName), " sections");
  }
  size_t names_index = 0;
  if (elf_getshdrstrndx(elf.get(), &names_index) != 0) return ElfError("ELF section names");
  std::vector<std::vector<uint32_t>> modules;
  for (Elf_Scn* scn = elf_nextscn(elf.get(), nullptr); scn != nullptr;
       scn = elf_nextscn(elf.get(), scn)) {
    const Elf64_Shdr* shdr = elf64_getshdr(scn);
    if (shdr == nullptr) return ElfError("ELF section header");
    const char* name = elf_strptr(elf.get(), names_index, shdr->sh_name);
    if (name == nullptr) return ElfError("ELF section name");
    if (!IsSpirvSectionName(name)) continue;
    const std::string what = absl::StrCat("ELF section ", name);
    if (shdr->sh_type == SHT_NOBITS) return InvalidImage(absl::StrCat(what, " has no contents"));
    const Elf_Data* contents = elf_rawdata(scn, nullptr);
    if (contents == nullptr || contents->d_size != shdr->sh_size ||
        (contents->d_size != 0 && contents->d_buf == nullptr)) {
      return ElfError(what);
    }
    SH_ASSIGN_OR_RETURN(std::vector<uint32_t> words,
                        SpirvFromBytes(static_cast<const uint8_t*>(contents->d_buf),
                                       contents->d_size, what));
    modules.push_back(std::move(words));
  }
  if (modules.empty()) {
    return InvalidImage(absl::StrCat("ELF code object has no ", Sv(kSpirvSectionName), " section"));
  }
  return modules;
}

// ---- clang offload bundles -----------------------------------------------------

struct BundleEntry {
  uint64_t offset = 0;
  uint64_t size = 0;
  std::string id;
};

struct Bundle {
  uint64_t extent = 0;
  std::vector<BundleEntry> entries;
};

// Whether `c` may appear in a bundle entry id (a target triple with an
// optional target id such as "gfx906:xnack+": printable ASCII).
bool IsBundleIdByte(uint8_t c) { return c > 0x20 && c < 0x7f; }

// Reads the entry table in file order. Without a size, every count, offset
// and length is checked against its bound as its bytes are read, and the id
// one byte at a time, so reading stops at the first byte that is not a
// bundle's (DetectImageFormat matched the magic the same way).
absl::StatusOr<Bundle> ReadBundle(const ImageBytes& image) {
  SH_ASSIGN_OR_RETURN(const uint64_t count,
                      image.LoadAtMost<uint64_t>(kBundleMagic.size(), kMaxBundleEntries,
                                                 "bundle entry count"));
  Bundle bundle;
  uint64_t pos = kBundleHeaderBytes;
  for (uint64_t i = 0; i < count; ++i) {
    BundleEntry entry;
    SH_ASSIGN_OR_RETURN(entry.offset,
                        image.LoadAtMost<uint64_t>(pos, kMaxImageBytes, "bundle entry offset"));
    SH_ASSIGN_OR_RETURN(entry.size,
                        image.LoadAtMost<uint64_t>(pos + 8, kMaxImageBytes, "bundle entry size"));
    SH_ASSIGN_OR_RETURN(const uint64_t id_size,
                        image.LoadAtMost<uint64_t>(pos + 16, kMaxBundleIdBytes,
                                                   "bundle entry id length"));
    pos += kBundleEntryFixedBytes;
    SH_RETURN_IF_ERROR(image.Check(pos, id_size, "bundle entry id"));
    for (uint64_t j = 0; j < id_size; ++j) {
      if (!IsBundleIdByte(image.data()[pos + j])) {
        return InvalidImage(absl::StrFormat("bundle entry %d: id byte 0x%02x is not printable", i,
                                            image.data()[pos + j]));
      }
    }
    entry.id.assign(reinterpret_cast<const char*>(image.data() + pos), id_size);
    pos += id_size;
    if (entry.size != 0) {
      SH_RETURN_IF_ERROR(image.Check(entry.offset, entry.size,
                                     absl::StrCat("bundle entry '", entry.id, "'")));
      bundle.extent = std::max(bundle.extent, entry.offset + entry.size);
    }
    bundle.entries.push_back(std::move(entry));
  }
  bundle.extent = std::max(bundle.extent, pos);
  return bundle;
}

// Bundle ids are `<offload kind>-<arch>-<vendor>-<os>[-<env>[-<target id>]]`.
// Ours are any non-host entry whose architecture is spirv64.
bool IsSpirvBundleId(std::string_view id) {
  const size_t kind_end = id.find('-');
  if (kind_end == std::string_view::npos || id.substr(0, kind_end) == "host") return false;
  const std::string_view rest = id.substr(kind_end + 1);
  return rest.substr(0, rest.find('-')) == "spirv64";
}

absl::StatusOr<std::vector<std::vector<uint32_t>>> ParseBundle(const uint8_t* data,
                                                               std::optional<size_t> size) {
  SH_ASSIGN_OR_RETURN(const Bundle bundle, ReadBundle(ImageBytes(data, size)));
  const BundleEntry* chosen = nullptr;
  for (const BundleEntry& entry : bundle.entries) {
    if (entry.id == kBundleTargetId) {
      chosen = &entry;
      break;
    }
    if (chosen == nullptr && IsSpirvBundleId(entry.id)) chosen = &entry;
  }
  if (chosen == nullptr) {
    std::string ids;
    for (const BundleEntry& entry : bundle.entries) {
      absl::StrAppend(&ids, ids.empty() ? "" : ", ", "'", entry.id, "'");
    }
    return Error(ErrorCode::kNoBinaryForGpu, "fat binary has no SPIR-V entry (want '",
                 Sv(kBundleTargetId), "' or any '<kind>-spirv64-...'); it holds ",
                 ids.empty() ? "no entries" : ids);
  }
  const std::string what = absl::StrCat("bundle entry '", chosen->id, "'");
  if (chosen->size == 0) return InvalidImage(absl::StrCat(what, " is empty"));
  // ReadBundle checked the entry lies inside the image.
  const uint8_t* payload = data + chosen->offset;
  const size_t payload_size = chosen->size;
  if (StartsWith(payload, payload_size, kElfMagic)) return ParseElf(payload, payload_size);
  SH_ASSIGN_OR_RETURN(std::vector<uint32_t> words,
                      SpirvFromBytes(payload, payload_size, what));
  std::vector<std::vector<uint32_t>> modules;
  modules.push_back(std::move(words));
  return modules;
}

// The magic was matched by DetectImageFormat; the version is checked a byte
// at a time before the pointer after it is read. The unused field is not read.
absl::StatusOr<HipFatBinaryWrapper> ReadWrapper(const uint8_t* data, std::optional<size_t> size) {
  if (size.has_value()) {
    // The wrapper's payload is a host pointer, meaningless outside the process
    // that made it.
    return InvalidImage(
        "a HIP fat-binary wrapper holds a host pointer; it can only be loaded from memory");
  }
  const ImageBytes image(data, size);
  HipFatBinaryWrapper wrapper{};
  wrapper.magic = kHipFatBinaryMagic;
  SH_RETURN_IF_ERROR(image.Expect<uint32_t>(offsetof(HipFatBinaryWrapper, version),
                                            kHipFatBinaryVersion,
                                            "HIP fat-binary wrapper version"));
  wrapper.version = kHipFatBinaryVersion;
  SH_ASSIGN_OR_RETURN(wrapper.binary,
                      image.Load<const void*>(offsetof(HipFatBinaryWrapper, binary),
                                              "HIP fat-binary wrapper binary"));
  if (wrapper.binary == nullptr) return InvalidImage("HIP fat-binary wrapper has no binary");
  return wrapper;
}

// ---- NVIDIA fat binaries ---------------------------------------------------

struct NvFatBinary {
  uint64_t extent = 0;  // header + entries
  bool has_entries = false;
  // The chosen PTX entry's payload (its compressed bytes when compressed),
  // empty when none fits.
  uint64_t ptx_offset = 0, ptx_size = 0;
  FatbinCompression compression = FatbinCompression::kNone;
  uint64_t expanded_size = 0;  // of a compressed payload
};

// Entry flags: the payload is an LZ4 block, or a zstd frame.
constexpr uint64_t kNvFatBinaryLz4Flag = 0x2000;
constexpr uint64_t kNvFatBinaryZstdFlag = 0x8000;

absl::StatusOr<NvFatBinary> ReadNvFatBinary(const ImageBytes& image) {
  NvFatBinary fat;
  SH_RETURN_IF_ERROR(image.Expect<uint16_t>(4, 1, "fat binary version"));
  SH_ASSIGN_OR_RETURN(const uint16_t header_size,
                      image.LoadAtMost<uint16_t>(6, 4096, "fat binary header size"));
  if (header_size < 16) return InvalidImage("fat binary header size is below 16");
  SH_ASSIGN_OR_RETURN(const uint64_t body,
                      image.LoadAtMost<uint64_t>(8, kMaxImageBytes, "fat binary size"));
  fat.extent = header_size + body;
  SH_RETURN_IF_ERROR(image.Check(0, fat.extent, "fat binary"));
  uint32_t best_arch = 0;
  for (uint64_t pos = header_size; pos < fat.extent;) {
    if (fat.extent - pos < 16) return InvalidImage("fat binary entry header is truncated");
    SH_ASSIGN_OR_RETURN(const uint16_t kind, image.Load<uint16_t>(pos, "fat binary entry kind"));
    SH_ASSIGN_OR_RETURN(const uint32_t entry_header,
                        image.Load<uint32_t>(pos + 4, "fat binary entry header size"));
    SH_ASSIGN_OR_RETURN(const uint64_t payload,
                        image.Load<uint64_t>(pos + 8, "fat binary entry size"));
    if (entry_header < 0x40 || entry_header > fat.extent - pos ||
        payload > fat.extent - pos - entry_header) {
      return InvalidImage(absl::StrCat("fat binary entry at ", pos, " overruns the fat binary"));
    }
    SH_ASSIGN_OR_RETURN(const uint32_t arch, image.Load<uint32_t>(pos + 28, "entry arch"));
    SH_ASSIGN_OR_RETURN(const uint64_t flags, image.Load<uint64_t>(pos + 40, "entry flags"));
    fat.has_entries = true;
    if (kind == 1 && arch <= kNvFatBinaryMaxArch && (fat.ptx_size == 0 || arch > best_arch)) {
      best_arch = arch;
      fat.ptx_offset = pos + entry_header;
      fat.ptx_size = payload;
      fat.compression = FatbinCompression::kNone;
      if ((flags & (kNvFatBinaryLz4Flag | kNvFatBinaryZstdFlag)) != 0) {
        fat.compression = (flags & kNvFatBinaryZstdFlag) != 0 ? FatbinCompression::kZstd
                                                              : FatbinCompression::kLz4;
        // The compressed length (the payload is padded) and the expanded one.
        SH_ASSIGN_OR_RETURN(const uint32_t compressed,
                            image.Load<uint32_t>(pos + 16, "entry compressed size"));
        SH_ASSIGN_OR_RETURN(fat.expanded_size, image.Load<uint64_t>(pos + 56, "entry size"));
        if (compressed == 0 || compressed > payload) {
          return InvalidImage(absl::StrCat("fat binary entry at ", pos, ": compressed size ",
                                           compressed, " is not within its payload of ", payload));
        }
        if (fat.expanded_size == 0 || fat.expanded_size > kMaxImageBytes) {
          return InvalidImage(absl::StrCat("fat binary entry at ", pos, ": expanded size ",
                                           fat.expanded_size, " is 0 or above ", kMaxImageBytes));
        }
        fat.ptx_size = compressed;
      }
    }
    pos += entry_header + payload;
  }
  return fat;
}

// The PTX text of a fat binary's chosen entry (up to its NUL padding): in
// the image, or decompressed into *storage.
absl::StatusOr<std::string_view> NvFatBinaryPtx(const uint8_t* bytes, std::optional<size_t> size,
                                                std::string* storage) {
  SH_ASSIGN_OR_RETURN(const NvFatBinary fat, ReadNvFatBinary(ImageBytes(bytes, size)));
  if (fat.ptx_size == 0) {
    return Error(ErrorCode::kNoBinaryForGpu,
                 "the fat binary holds no PTX for compute capability <= 8.0 (SASS cannot run "
                 "on Vulkan)");
  }
  std::string_view text(reinterpret_cast<const char*>(bytes + fat.ptx_offset), fat.ptx_size);
  if (fat.compression != FatbinCompression::kNone) {
    const absl::Span<const uint8_t> payload(bytes + fat.ptx_offset, fat.ptx_size);
    SH_ASSIGN_OR_RETURN(*storage, fat.compression == FatbinCompression::kZstd
                                      ? DecompressZstdFrame(payload, fat.expanded_size)
                                      : DecompressLz4Block(payload, fat.expanded_size));
    text = *storage;
  }
  return text.substr(0, std::min(text.find('\0'), text.size()));
}

// The fat binary an NVIDIA wrapper points at.
absl::StatusOr<const uint8_t*> ReadNvWrapper(const uint8_t* data, std::optional<size_t> size) {
  if (size.has_value()) {
    return InvalidImage("an NVIDIA fat-binary wrapper holds a host pointer; load it from memory");
  }
  const ImageBytes image(data, size);
  SH_RETURN_IF_ERROR(image.Expect<uint32_t>(4, 1, "fat-binary wrapper version"));
  SH_ASSIGN_OR_RETURN(const void* fat, image.Load<const void*>(8, "fat-binary wrapper data"));
  if (fat == nullptr) return InvalidImage("the fat-binary wrapper has no data");
  return static_cast<const uint8_t*>(fat);
}

// ---- GLSL ------------------------------------------------------------------

// The source text: up to the NUL (required without a size), every byte text.
absl::StatusOr<std::string_view> GlslText(const uint8_t* data, std::optional<size_t> size) {
  const size_t limit = size.has_value() ? *size : kMaxGlslBytes;
  size_t length = 0;
  while (length < limit && data[length] != 0) {
    if (!IsTextByte(data[length])) {
      return InvalidImage(absl::StrFormat("byte 0x%02x at offset %d is neither text nor a "
                                          "known binary format",
                                          data[length], length));
    }
    ++length;
  }
  if (!size.has_value() && length == limit) {
    return InvalidImage(absl::StrCat("GLSL source given without a size has no NUL in its first ",
                                     kMaxGlslBytes >> 20, " MiB"));
  }
  if (length == 0) return InvalidImage("empty GLSL source");
  return std::string_view(reinterpret_cast<const char*>(data), length);
}

std::string Basename(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// ---- writers -------------------------------------------------------------------

template <typename T>
void Append(std::vector<uint8_t>& out, const T& value) {
  const auto* bytes = reinterpret_cast<const uint8_t*>(&value);
  out.insert(out.end(), bytes, bytes + sizeof(T));
}

void PadTo(std::vector<uint8_t>& out, size_t alignment) {
  out.resize((out.size() + alignment - 1) / alignment * alignment, 0);
}

}  // namespace

std::string_view ImageFormatName(ImageFormat format) {
  switch (format) {
    case ImageFormat::kSpirv:
      return "spirv";
    case ImageFormat::kElf:
      return "elf";
    case ImageFormat::kFatBinary:
      return "fatbin";
    case ImageFormat::kHipFatBinaryWrapper:
      return "hip-fatbin-wrapper";
    case ImageFormat::kGlsl:
      return "glsl";
    case ImageFormat::kPtx:
      return "ptx";
    case ImageFormat::kNvFatBinary:
      return "nv-fatbin";
    case ImageFormat::kNvFatBinaryWrapper:
      return "nv-fatbin-wrapper";
  }
  return "unknown";
}

absl::StatusOr<ImageFormat> DetectImageFormat(const void* data, std::optional<size_t> size) {
  if (data == nullptr) return Error(ErrorCode::kInvalidValue, "kernel image pointer is null");
  if (size.has_value() && *size == 0) return InvalidImage("the image is empty");
  const auto* bytes = static_cast<const uint8_t*>(data);
  if (StartsWith(bytes, size, kElfMagic)) return ImageFormat::kElf;
  if (StartsWith(bytes, size, kBundleMagic)) return ImageFormat::kFatBinary;
  if (StartsWithWord(bytes, size, kHipFatBinaryMagic)) return ImageFormat::kHipFatBinaryWrapper;
  if (StartsWithWord(bytes, size, kNvFatBinaryMagic)) return ImageFormat::kNvFatBinary;
  if (StartsWithWord(bytes, size, kNvFatBinaryWrapperMagic)) {
    return ImageFormat::kNvFatBinaryWrapper;
  }
  if (StartsWithWord(bytes, size, kSpirvMagic) ||
      StartsWithWord(bytes, size, Bswap32(kSpirvMagic))) {
    return ImageFormat::kSpirv;
  }
  // "CCOB" followed by a binary version field; "CCOB" followed by text is
  // source. Byte 4 exists: the four magic bytes matched, none is a NUL.
  if (StartsWith(bytes, size, kCompressedBundleMagic) &&
      (!size.has_value() || *size > kCompressedBundleMagic.size()) && bytes[4] != 0 &&
      !IsTextByte(bytes[4])) {
    return InvalidImage("compressed clang offload bundles (CCOB) are not supported");
  }
  // A file cut inside the bundle magic would otherwise pass for source text.
  if (size.has_value() && *size < kBundleMagic.size() &&
      std::memcmp(bytes, kBundleMagic.data(), *size) == 0) {
    return InvalidImage("truncated clang offload bundle");
  }
  // Source starts with ASCII; later bytes may be UTF-8 (in comments).
  if (bytes[0] < 0x80 && IsTextByte(bytes[0])) {
    return StartsLikePtx(bytes, size) ? ImageFormat::kPtx : ImageFormat::kGlsl;
  }
  return InvalidImage(absl::StrFormat(
      "unrecognised format (first byte 0x%02x); expected SPIR-V, an ELF code object, a clang "
      "offload bundle, a HIP fat-binary wrapper or GLSL source",
      bytes[0]));
}

absl::StatusOr<size_t> ImageExtent(const void* data, std::optional<size_t> size) {
  SH_ASSIGN_OR_RETURN(const ImageFormat format, DetectImageFormat(data, size));
  const auto* bytes = static_cast<const uint8_t*>(data);
  switch (format) {
    case ImageFormat::kSpirv:
      if (!size.has_value()) {
        return InvalidImage("raw SPIR-V carries no length; load .spv files with cuModuleLoad");
      }
      return *size;
    case ImageFormat::kElf: {
      SH_ASSIGN_OR_RETURN(const uint64_t extent, ElfExtent(ImageBytes(bytes, size)));
      return extent;
    }
    case ImageFormat::kFatBinary: {
      SH_ASSIGN_OR_RETURN(const Bundle bundle, ReadBundle(ImageBytes(bytes, size)));
      return bundle.extent;
    }
    case ImageFormat::kHipFatBinaryWrapper:
      SH_RETURN_IF_ERROR(ImageBytes(bytes, size).Check(0, sizeof(HipFatBinaryWrapper),
                                                       "HIP fat-binary wrapper"));
      if (!size.has_value()) SH_RETURN_IF_ERROR(ReadWrapper(bytes, size).status());
      return sizeof(HipFatBinaryWrapper);
    case ImageFormat::kNvFatBinary: {
      SH_ASSIGN_OR_RETURN(const NvFatBinary fat, ReadNvFatBinary(ImageBytes(bytes, size)));
      return fat.extent;
    }
    case ImageFormat::kNvFatBinaryWrapper:
      SH_RETURN_IF_ERROR(ImageBytes(bytes, size).Check(0, 24, "fat-binary wrapper"));
      if (!size.has_value()) SH_RETURN_IF_ERROR(ReadNvWrapper(bytes, size).status());
      return 24;
    case ImageFormat::kGlsl:
    case ImageFormat::kPtx: {
      SH_ASSIGN_OR_RETURN(const std::string_view text, GlslText(bytes, size));
      // Include the NUL when there is one.
      return size.has_value() && text.size() == *size ? text.size() : text.size() + 1;
    }
  }
  return InvalidImage("unknown format");
}

absl::StatusOr<std::string_view> PtxTextOf(const void* data, std::optional<size_t> size,
                                           ImageFormat format, std::string* storage) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  switch (format) {
    case ImageFormat::kPtx:
      return GlslText(bytes, size);
    case ImageFormat::kNvFatBinary:
      return NvFatBinaryPtx(bytes, size, storage);
    case ImageFormat::kNvFatBinaryWrapper: {
      SH_ASSIGN_OR_RETURN(const uint8_t* fat, ReadNvWrapper(bytes, size));
      if (!StartsWithWord(fat, std::nullopt, kNvFatBinaryMagic)) {
        return InvalidImage("the fat-binary wrapper's data is not an NVIDIA fat binary");
      }
      return NvFatBinaryPtx(fat, std::nullopt, storage);
    }
    default:
      return InvalidImage(absl::StrCat("a ", Sv(ImageFormatName(format)), " image holds no PTX"));
  }
}

absl::StatusOr<LoadedImage> ParseImage(const void* data, std::optional<size_t> size,
                                       const GlslOptions& glsl, std::string* error_log_out,
                                       std::string_view ptx_device) {
  SH_ASSIGN_OR_RETURN(const ImageFormat format, DetectImageFormat(data, size));
  const auto* bytes = static_cast<const uint8_t*>(data);
  LoadedImage image;
  image.format = format;
  switch (format) {
    case ImageFormat::kSpirv: {
      if (!size.has_value()) {
        return InvalidImage(
            "raw SPIR-V carries no length, so it cannot be loaded from a pointer; load the .spv "
            "file with cuModuleLoad/hipModuleLoad, or pack it into an ELF code object or fat "
            "binary with streamhal-pack");
      }
      SH_ASSIGN_OR_RETURN(std::vector<uint32_t> words, SpirvFromBytes(bytes, *size, "SPIR-V"));
      image.spirv_modules.push_back(std::move(words));
      break;
    }
    case ImageFormat::kElf: {
      SH_ASSIGN_OR_RETURN(image.spirv_modules, ParseElf(bytes, size));
      break;
    }
    case ImageFormat::kFatBinary: {
      SH_ASSIGN_OR_RETURN(image.spirv_modules, ParseBundle(bytes, size));
      break;
    }
    case ImageFormat::kHipFatBinaryWrapper: {
      SH_ASSIGN_OR_RETURN(const HipFatBinaryWrapper wrapper, ReadWrapper(bytes, size));
      const auto* binary = static_cast<const uint8_t*>(wrapper.binary);
      if (!StartsWith(binary, std::nullopt, kBundleMagic)) {
        return InvalidImage("the HIP fat-binary wrapper's binary is not a clang offload bundle");
      }
      SH_ASSIGN_OR_RETURN(image.spirv_modules, ParseBundle(binary, std::nullopt));
      break;
    }
    case ImageFormat::kGlsl: {
      SH_ASSIGN_OR_RETURN(const std::string_view text, GlslText(bytes, size));
      SH_ASSIGN_OR_RETURN(GlslResult compiled, CompileGlsl(text, glsl, error_log_out));
      image.spirv_modules.push_back(std::move(compiled.spirv));
      image.info_log = std::move(compiled.info_log);
      image.compile_wall_time_ms = compiled.wall_time_ms;
      break;
    }
    case ImageFormat::kPtx:
    case ImageFormat::kNvFatBinary:
    case ImageFormat::kNvFatBinaryWrapper: {
      std::string decompressed;
      SH_ASSIGN_OR_RETURN(const std::string_view text,
                          PtxTextOf(data, size, format, &decompressed));
      const auto start = std::chrono::steady_clock::now();
      absl::StatusOr<ptx::CachedTranslation> spirv =
          ptx::TranslatePtxCached(text, ptx_device, ptx::CacheSettings::FromEnvironment());
      image.compile_wall_time_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
      if (!spirv.ok()) {
        // CUDA: a PTX the JIT cannot compile is CUDA_ERROR_INVALID_PTX, with
        // the reason in the error log.
        const std::string log(spirv.status().message());
        if (error_log_out != nullptr) *error_log_out = log;
        return Error(ErrorCode::kInvalidPtx, "PTX translation failed: ", log);
      }
      image.from_ptx_cache = spirv->from_cache;
      image.spirv_modules.push_back(std::move(spirv->spirv));
      break;
    }
  }
  return image;
}

absl::StatusOr<std::vector<uint8_t>> ReadImageFile(const std::string& path) {
  // Non-blocking, so a FIFO is refused below instead of waiting for a writer.
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    return Error(ErrorCode::kFileNotFound, "cannot open kernel file '", path,
                 "': ", std::strerror(errno));
  }
  struct FdCloser {
    int fd;
    ~FdCloser() { close(fd); }
  } closer{fd};
  // A directory opens like a file but reading it fails (EISDIR); a FIFO or
  // device could block or never end. Only regular files are kernel files.
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    return Error(ErrorCode::kFileNotFound, "kernel file '", path, "' is not a regular file");
  }
  if (static_cast<uint64_t>(st.st_size) > kMaxImageBytes) {
    return InvalidImage(absl::StrCat("kernel file '", path, "' is larger than ",
                                     kMaxImageBytes >> 20, " MiB"));
  }
  std::vector<uint8_t> contents(static_cast<size_t>(st.st_size));
  size_t done = 0;
  while (done < contents.size()) {
    const ssize_t n = read(fd, contents.data() + done, contents.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      return Error(ErrorCode::kFileNotFound, "cannot read kernel file '", path, "': ",
                   n < 0 ? std::strerror(errno) : "file shrank while reading");
    }
    done += static_cast<size_t>(n);
  }
  return contents;
}

absl::StatusOr<LoadedImage> ParseImageFile(const std::string& path, const GlslOptions& glsl,
                                           std::string* error_log_out) {
  SH_ASSIGN_OR_RETURN(const std::vector<uint8_t> contents, ReadImageFile(path));
  GlslOptions file_glsl = glsl;
  if (file_glsl.source_name.empty()) file_glsl.source_name = Basename(path);
  // An empty file has no data pointer; give ParseImage a valid one so it
  // reports an empty image rather than a null pointer.
  static constexpr uint8_t kNoBytes[1] = {0};
  return ParseImage(contents.empty() ? kNoBytes : contents.data(), contents.size(), file_glsl,
                    error_log_out);
}

std::vector<uint8_t> WriteElfCodeObject(const std::vector<std::vector<uint32_t>>& modules) {
  // Layout: ELF header, module contents, section names, section header table.
  std::vector<uint8_t> out(sizeof(Elf64_Ehdr), 0);
  std::string names(1, '\0');  // index 0 is the empty name
  std::vector<Elf64_Shdr> headers(1);  // section 0 is the null section
  for (size_t i = 0; i < modules.size(); ++i) {
    PadTo(out, 8);
    Elf64_Shdr shdr{};
    shdr.sh_name = static_cast<Elf64_Word>(names.size());
    names += modules.size() == 1 ? std::string(kSpirvSectionName)
                                 : absl::StrCat(Sv(kSpirvSectionName), ".", i);
    names += '\0';
    shdr.sh_type = SHT_PROGBITS;
    shdr.sh_offset = out.size();
    shdr.sh_size = modules[i].size() * sizeof(uint32_t);
    shdr.sh_addralign = 4;
    const auto* words = reinterpret_cast<const uint8_t*>(modules[i].data());
    out.insert(out.end(), words, words + shdr.sh_size);
    headers.push_back(shdr);
  }
  Elf64_Shdr strtab{};
  strtab.sh_name = static_cast<Elf64_Word>(names.size());
  names += ".shstrtab";
  names += '\0';
  strtab.sh_type = SHT_STRTAB;
  strtab.sh_offset = out.size();
  strtab.sh_size = names.size();
  strtab.sh_addralign = 1;
  out.insert(out.end(), names.begin(), names.end());
  headers.push_back(strtab);
  PadTo(out, 8);

  Elf64_Ehdr ehdr{};
  std::memcpy(ehdr.e_ident, ELFMAG, SELFMAG);
  ehdr.e_ident[EI_CLASS] = ELFCLASS64;
  ehdr.e_ident[EI_DATA] = ELFDATA2LSB;
  ehdr.e_ident[EI_VERSION] = EV_CURRENT;
  ehdr.e_ident[EI_OSABI] = ELFOSABI_NONE;
  ehdr.e_type = ET_REL;
  ehdr.e_machine = EM_NONE;  // no ELF machine number exists for SPIR-V
  ehdr.e_version = EV_CURRENT;
  ehdr.e_shoff = out.size();
  ehdr.e_ehsize = sizeof(Elf64_Ehdr);
  ehdr.e_shentsize = sizeof(Elf64_Shdr);
  ehdr.e_shnum = static_cast<Elf64_Half>(headers.size());
  ehdr.e_shstrndx = static_cast<Elf64_Half>(headers.size() - 1);
  for (const Elf64_Shdr& shdr : headers) Append(out, shdr);
  std::memcpy(out.data(), &ehdr, sizeof(ehdr));
  return out;
}

std::vector<uint8_t> WriteFatBinary(
    const std::vector<std::pair<std::string, std::vector<uint8_t>>>& entries) {
  std::vector<uint8_t> out(kBundleMagic.begin(), kBundleMagic.end());
  Append(out, static_cast<uint64_t>(entries.size()));
  // Entry descriptors first (offsets patched below), then the payloads.
  std::vector<size_t> offset_fields;
  for (const auto& [id, payload] : entries) {
    offset_fields.push_back(out.size());
    Append(out, uint64_t{0});
    Append(out, static_cast<uint64_t>(payload.size()));
    Append(out, static_cast<uint64_t>(id.size()));
    out.insert(out.end(), id.begin(), id.end());
  }
  for (size_t i = 0; i < entries.size(); ++i) {
    PadTo(out, 8);
    const uint64_t offset = out.size();
    std::memcpy(out.data() + offset_fields[i], &offset, sizeof(offset));
    out.insert(out.end(), entries[i].second.begin(), entries[i].second.end());
  }
  return out;
}

}  // namespace streamhal
