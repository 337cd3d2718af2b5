// libFuzzer target for kernel image parsing (code_object.h). Each input is
// parsed twice:
//  * with its size known, as cuModuleLoad would: nothing outside the input
//    may be read, whatever it holds;
//  * without a size, as cuModuleLoadData would, from a heap copy of exactly
//    the bytes the headers claim (when that claim fits the input), so the
//    address sanitizer catches any read beyond the image's own extent.
// GLSL is detected and measured but not compiled: glslang is fuzzed upstream,
// and a compile per input would slow the search a hundredfold.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "core/code_object.h"
#include "core/status.h"

namespace {

using streamhal::ImageFormat;

// Runs the parser unless the input is GLSL, where only the extent is taken.
absl::StatusOr<streamhal::LoadedImage> Parse(const uint8_t* data, std::optional<size_t> size,
                                             ImageFormat format) {
  if (format == ImageFormat::kGlsl) {
    const auto extent = streamhal::ImageExtent(data, size);
    if (!extent.ok()) return extent.status();
    return streamhal::LoadedImage{};
  }
  return streamhal::ParseImage(data, size, {});
}

// The sized and size-less parses of one image must agree.
void CheckSame(const absl::StatusOr<streamhal::LoadedImage>& sized,
               const absl::StatusOr<streamhal::LoadedImage>& unsized) {
  if (streamhal::ErrorCodeOf(sized.status()) != streamhal::ErrorCodeOf(unsized.status())) abort();
  if (sized.ok() && sized->spirv_modules != unsized->spirv_modules) abort();
}

}  // namespace

// PTX inputs that translate would otherwise fill the user's translation
// cache (docs/ptx.md), one entry per input.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("CUDA_CACHE_DISABLE", "1", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Zero-length inputs may come with a null pointer; the API takes non-null.
  static const uint8_t kEmpty[1] = {0};
  if (size == 0) data = kEmpty;

  const auto format = streamhal::DetectImageFormat(data, size);
  const ImageFormat sized_format = format.ok() ? *format : ImageFormat::kSpirv;
  const auto sized = Parse(data, size, sized_format);

  // The same bytes NUL-terminated, as a size-less caller would pass text.
  std::vector<uint8_t> padded(data, data + size);
  padded.push_back(0);
  const auto padded_format = streamhal::DetectImageFormat(padded.data(), padded.size());
  if (!padded_format.ok() || *padded_format == ImageFormat::kSpirv) return 0;

  if (*padded_format == ImageFormat::kHipFatBinaryWrapper) {
    // The wrapper's pointer is made to point at a copy of the bytes after the
    // wrapper struct, which stand in for the bundle it wraps.
    constexpr size_t kWrapperBytes = sizeof(streamhal::HipFatBinaryWrapper);
    if (size < kWrapperBytes) return 0;
    const size_t rest = size - kWrapperBytes;
    const auto extent = streamhal::ImageExtent(data + kWrapperBytes, rest);
    if (!extent.ok()) return 0;
    auto bundle = std::make_unique<uint8_t[]>(*extent);
    std::memcpy(bundle.get(), data + kWrapperBytes, *extent);
    streamhal::HipFatBinaryWrapper wrapper;
    std::memcpy(&wrapper, data, kWrapperBytes);
    wrapper.binary = bundle.get();
    (void)streamhal::ParseImage(&wrapper, std::nullopt, {});
    return 0;
  }

  if (*padded_format == ImageFormat::kNvFatBinaryWrapper) {
    // Likewise for NVIDIA's wrapper { magic, version, data, unused }.
    constexpr size_t kWrapperBytes = 24;
    if (size < kWrapperBytes) return 0;
    const size_t rest = size - kWrapperBytes;
    const auto extent = streamhal::ImageExtent(data + kWrapperBytes, rest);
    if (!extent.ok()) return 0;
    auto fat = std::make_unique<uint8_t[]>(*extent);
    std::memcpy(fat.get(), data + kWrapperBytes, *extent);
    uint8_t wrapper[kWrapperBytes];
    std::memcpy(wrapper, data, kWrapperBytes);
    const void* pointer = fat.get();
    std::memcpy(wrapper + 8, &pointer, sizeof(pointer));
    (void)streamhal::ParseImage(wrapper, std::nullopt, {});
    return 0;
  }

  const auto extent = streamhal::ImageExtent(padded.data(), padded.size());
  if (!extent.ok()) return 0;
  // Exactly the claimed bytes on the heap: a read past them is a bug.
  auto exact = std::make_unique<uint8_t[]>(*extent);
  std::memcpy(exact.get(), padded.data(), *extent);
  const auto unsized_extent = streamhal::ImageExtent(exact.get(), std::nullopt);
  if (!unsized_extent.ok() || *unsized_extent != *extent) abort();
  const auto unsized = Parse(exact.get(), std::nullopt, *padded_format);
  // For binary formats the size is only a bound, so when the image fits in
  // the unpadded input both parses must agree.
  if (format.ok() && *format == *padded_format && *extent <= size &&
      (*format == ImageFormat::kElf || *format == ImageFormat::kFatBinary ||
       *format == ImageFormat::kNvFatBinary)) {
    CheckSame(sized, unsized);
  }
  return 0;
}
