// Kernel image formats (design decision 6): what cuModuleLoad, cuModuleLoadData
// and their HIP twins accept, and how each is turned into SPIR-V modules.
//
//   raw SPIR-V     a .spv file. It carries no length, so it is accepted only
//                  where the size is known (cuModuleLoad), never from a bare
//                  pointer.
//   ELF code object  a 64-bit little-endian ELF file whose e_machine is
//                  EM_NONE (there is no ELF machine number for SPIR-V). Every
//                  section named ".spirv" or ".spirv.<anything>" holds one
//                  whole SPIR-V module; other sections are ignored. Its size
//                  follows from its headers (the end of the furthest section
//                  or header table), so it may be loaded from a pointer.
//   fat binary     a clang offload bundle: "__CLANG_OFFLOAD_BUNDLE__", an
//                  entry count, then per entry offset, size, id length and id
//                  (integers little-endian 64-bit, offsets from the bundle
//                  start). Its size is the end of its furthest entry. The entry
//                  used is the one whose id is kBundleTargetId, else the first
//                  whose triple's architecture is spirv64 (`<kind>-spirv64-...`);
//                  `host-*` entries are ignored. The entry holds an ELF code
//                  object or raw SPIR-V (the entry's size delimits it). No
//                  fitting entry gives ErrorCode::kNoBinaryForGpu.
//   HIP fat-binary wrapper  HIP's __hipFatBinaryWrapper { uint32 magic
//                  0x48495046 ("HIPF"), uint32 version 1, const void* binary,
//                  void* unused } whose binary points at a fat binary. It holds
//                  a host pointer, so it is accepted from memory only.
//   NVIDIA fat binary  what nvcc -fatbin writes (docs/ptx.md has the layout):
//                  a header (magic 0xBA55ED50, version 1, header size, size
//                  of the entries), then entries of kind PTX or ELF (SASS).
//                  The PTX entry of the newest arch <= kNvFatBinaryMaxArch is
//                  translated like PTX text; SASS alone is
//                  ErrorCode::kNoBinaryForGpu. Compressed entries (nvcc's
//                  default: zstd, or LZ4) are decompressed first
//                  (fatbin_compression.h).
//   NVIDIA fat-binary wrapper  __fatBinC_Wrapper_t { int32 magic
//                  0x466243b1, int32 version 1, const void* data, void*
//                  filename_or_fatbins }, as executables embed: data points at
//                  an NVIDIA fat binary. From memory only.
//   GLSL source    compute shader text, NUL-terminated when given as a pointer;
//                  compiled with glslang (glsl_compiler.h). A compile error is
//                  ErrorCode::kInvalidPtx, as CUDA reports a bad PTX.
//   PTX text       what nvcc -ptx writes: after whitespace and `//` comment
//                  lines, a `.version` directive. NUL-terminated when given as
//                  a pointer; translated to one SPIR-V module by libs/ptx
//                  (docs/ptx.md). A syntax error or a construct the
//                  translator does not cover is ErrorCode::kInvalidPtx, whose
//                  message (and the JIT error log) names the PTX line.
//
// Anything malformed or truncated is ErrorCode::kInvalidImage. With a known
// size nothing outside [data, data + size) is read. Without one, only the
// bytes the headers claim are read, and every claim is bounded (kMaxImageBytes
// for binaries, kMaxGlslBytes for source); headers are read in order and
// reading stops at the first byte that does not fit the format (an ELF class,
// data or version byte, a count or offset over its bound, a bundle id byte
// that is not printable), so a short buffer that merely starts with a magic
// is not read past that byte.
#ifndef STREAMHAL_CORE_CODE_OBJECT_H_
#define STREAMHAL_CORE_CODE_OBJECT_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "core/glsl_compiler.h"

namespace streamhal {

enum class ImageFormat {
  kSpirv,
  kElf,
  kFatBinary,
  kHipFatBinaryWrapper,
  kGlsl,
  kPtx,
  kNvFatBinary,
  kNvFatBinaryWrapper,
};

// "spirv", "elf", "fatbin", "hip-fatbin-wrapper", "glsl", "ptx", "nv-fatbin",
// "nv-fatbin-wrapper".
std::string_view ImageFormatName(ImageFormat format);

// Our bundle entry id: offload kind, then the triple spirv64-unknown-vulkan1.2.
inline constexpr std::string_view kBundleTargetId = "hipv4-spirv64-unknown-vulkan1.2";
// The empty host entry clang puts in every bundle; streamhal-pack writes it too.
inline constexpr std::string_view kBundleHostId = "host-x86_64-unknown-linux-gnu";
inline constexpr std::string_view kBundleMagic = "__CLANG_OFFLOAD_BUNDLE__";
// Sections named exactly this, or this plus ".<anything>", hold SPIR-V.
inline constexpr std::string_view kSpirvSectionName = ".spirv";
inline constexpr uint32_t kHipFatBinaryMagic = 0x48495046;  // "HIPF"
inline constexpr uint32_t kHipFatBinaryVersion = 1;
inline constexpr uint32_t kNvFatBinaryMagic = 0xBA55ED50;
inline constexpr uint32_t kNvFatBinaryWrapperMagic = 0x466243b1;
// The newest PTX ISA target a fat binary's PTX entry may name: every device
// reports compute capability 8.0 (docs/ptx.md).
inline constexpr uint32_t kNvFatBinaryMaxArch = 80;

// Bounds on what a header may claim when no size is known.
inline constexpr size_t kMaxImageBytes = size_t{1} << 30;
inline constexpr size_t kMaxGlslBytes = size_t{64} << 20;
inline constexpr uint64_t kMaxBundleEntries = 4096;
inline constexpr uint64_t kMaxBundleIdBytes = 4096;

// Layout of HIP's __hipFatBinaryWrapper (what hipcc places in .hipFatBinSegment).
struct HipFatBinaryWrapper {
  uint32_t magic;
  uint32_t version;
  const void* binary;
  void* unused;
};

// Tells the format from the first bytes. `size` empty means the image came as
// a bare pointer; then bytes are read one at a time and reading stops at the
// first mismatch, so a short NUL-terminated string is never overrun.
// Does not validate beyond the magic; raw SPIR-V is reported as kSpirv even
// without a size (ParseImage rejects it).
absl::StatusOr<ImageFormat> DetectImageFormat(const void* data, std::optional<size_t> size);

// The number of bytes the image occupies as its headers describe it (GLSL:
// up to and including the NUL). With a size, fails unless the claimed extent
// fits in it. This is exactly the byte range a size-less ParseImage reads
// (for a HIP wrapper: the wrapper struct itself).
absl::StatusOr<size_t> ImageExtent(const void* data, std::optional<size_t> size);

struct LoadedImage {
  std::vector<std::vector<uint32_t>> spirv_modules;  // each a whole module
  ImageFormat format = ImageFormat::kSpirv;
  std::string info_log;              // GLSL only: the compiler's info log
  double compile_wall_time_ms = 0;   // GLSL and PTX: compile/translation time
  bool from_ptx_cache = false;       // PTX: the SPIR-V came from the disk cache
};

// Parses an image of any format into SPIR-V modules (in host word order; the
// words are checked for a SPIR-V header and a well-formed instruction stream,
// not validated further). `size` empty = from a pointer (cuModuleLoadData).
// A GLSL compile error's log also goes to *error_log_out when given.
// PTX goes through the on-disk translation cache (ptx/cache.h, configured by
// CUDA_CACHE_*), keyed with `ptx_device`, the identity of the device the
// module is for; an error of the cache is a miss.
absl::StatusOr<LoadedImage> ParseImage(const void* data, std::optional<size_t> size,
                                       const GlslOptions& glsl,
                                       std::string* error_log_out = nullptr,
                                       std::string_view ptx_device = {});

// The PTX text an image holds: the text itself (up to its NUL or `size`), or
// the chosen PTX entry of an NVIDIA fat binary or of the fat binary a wrapper
// points at, with the errors ParseImage gives for them. Other formats are
// ErrorCode::kInvalidImage. The view points into the image, or into
// *storage when the entry was compressed (fatbin_compression.h).
absl::StatusOr<std::string_view> PtxTextOf(const void* data, std::optional<size_t> size,
                                           ImageFormat format, std::string* storage);

// Reads a kernel file whole. A path that cannot be opened or read, or that
// is not a regular file (a directory, a FIFO), is ErrorCode::kFileNotFound;
// a file above kMaxImageBytes is ErrorCode::kInvalidImage.
absl::StatusOr<std::vector<uint8_t>> ReadImageFile(const std::string& path);

// Reads a file and parses it with its size known. A file that cannot be
// opened or read is ErrorCode::kFileNotFound.
absl::StatusOr<LoadedImage> ParseImageFile(const std::string& path, const GlslOptions& glsl,
                                           std::string* error_log_out = nullptr);

// Writers for streamhal-pack and tests. An ELF code object with one ".spirv"
// section per module (".spirv" for a single module, ".spirv.<i>" for several).
std::vector<uint8_t> WriteElfCodeObject(const std::vector<std::vector<uint32_t>>& modules);
// A clang offload bundle with the given (id, payload) entries, in order.
std::vector<uint8_t> WriteFatBinary(
    const std::vector<std::pair<std::string, std::vector<uint8_t>>>& entries);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_CODE_OBJECT_H_
