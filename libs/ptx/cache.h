// On-disk cache of translated PTX (docs/ptx.md, "Translation cache"): the
// analogue of CUDA's compute cache. An entry holds the SPIR-V that
// TranslatePtx wrote for one PTX text on one device, so a second load skips
// parsing and emission. Every failure to read or write the cache is a miss:
// it changes how long a load takes, never what it gives.
#ifndef STREAMHAL_PTX_CACHE_H_
#define STREAMHAL_PTX_CACHE_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace streamhal::ptx {

// Bumped whenever the translator's output for some PTX changes in a way the
// sources' build id (below) would not show, e.g. a change of a library it
// depends on. Entries of another version are never read.
inline constexpr uint32_t kTranslatorVersion = 1;

// Where and whether to cache. CUDA's variables, read by FromEnvironment:
//   CUDA_CACHE_DISABLE  set to anything but "0": no reads and no writes;
//   CUDA_CACHE_PATH     the cache directory; default $XDG_CACHE_HOME/streamhal/ptx,
//                       else $HOME/.cache/streamhal/ptx (neither set: disabled);
//   CUDA_CACHE_MAXSIZE  bytes the directory's entries may take (default 1 GiB,
//                       at most 4 GiB, as CUDA); the least recently used go first.
struct CacheSettings {
  bool enabled = false;
  std::string directory;
  uint64_t max_bytes = uint64_t{1} << 30;

  static CacheSettings FromEnvironment();
};

// SHA-256 of `bytes` (FIPS 180-4): the cache key.
std::array<uint8_t, 32> Sha256(std::string_view bytes);

// The cache in one directory. `device` names the device the SPIR-V is for
// (driver UUID and version); it is part of the key with the PTX text, the
// translator version and the translator's build id. Thread-safe and safe
// across processes: a writer publishes a whole entry with rename(2).
class TranslationCache {
 public:
  explicit TranslationCache(CacheSettings settings);

  // The cached SPIR-V, or nothing when the cache is disabled, has no entry,
  // or the entry is unreadable, truncated or fails its checks.
  std::optional<std::vector<uint32_t>> Load(std::string_view ptx, std::string_view device) const;
  // Writes the entry (temporary file, then rename); false when the cache is
  // disabled or the directory cannot be written. Evicts the least recently
  // used entries beyond max_bytes.
  bool Store(std::string_view ptx, std::string_view device,
             const std::vector<uint32_t>& spirv) const;
  // The file that holds the entry for (ptx, device); empty when disabled.
  std::string EntryPath(std::string_view ptx, std::string_view device) const;

 private:
  void Evict() const;

  CacheSettings settings_;
};

struct CachedTranslation {
  std::vector<uint32_t> spirv;
  bool from_cache = false;
};

// TranslatePtx through the cache: a hit returns the stored SPIR-V; a miss
// translates and stores the result. Translation errors are not cached.
absl::StatusOr<CachedTranslation> TranslatePtxCached(std::string_view text, std::string_view device,
                                                     const CacheSettings& settings);

}  // namespace streamhal::ptx

#endif  // STREAMHAL_PTX_CACHE_H_
