#include "core/code_object.h"

#include <elf.h>
#include <zstd.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/fatbin_compression.h"
#include "core/spirv_reflect.h"
#include "core/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace streamhal {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr uint32_t kSpirvMagic = 0x07230203;

// A structurally valid module (header, OpCapability Shader, OpNop): enough for
// the container formats, which check structure only. `tag` lands in the id
// bound so modules can be told apart.
std::vector<uint32_t> TinyModule(uint32_t tag) {
  return {kSpirvMagic, 0x00010500, 0, 100 + tag, 0, (2u << 16) | 17u, 1, (1u << 16) | 0u};
}

std::vector<uint8_t> Bytes(const std::vector<uint32_t>& words) {
  std::vector<uint8_t> out(words.size() * 4);
  std::memcpy(out.data(), words.data(), out.size());
  return out;
}

// A heap copy of exactly `n` bytes, so a sanitizer build catches any read past
// the end.
std::unique_ptr<uint8_t[]> ExactCopy(const std::vector<uint8_t>& bytes, size_t n) {
  auto copy = std::make_unique<uint8_t[]>(n == 0 ? 1 : n);
  if (n > 0) std::memcpy(copy.get(), bytes.data(), n);
  return copy;
}

std::vector<uint8_t> OurFatBinary(const std::vector<std::vector<uint32_t>>& modules) {
  return WriteFatBinary({{std::string(kBundleHostId), {}},
                         {std::string(kBundleTargetId), WriteElfCodeObject(modules)}});
}

ErrorCode CodeOf(const absl::StatusOr<LoadedImage>& result) {
  return ErrorCodeOf(result.status());
}

// ---- detection ----------------------------------------------------------------

TEST(DetectImageFormatTest, TellsEveryFormatApart) {
  const auto spirv = Bytes(TinyModule(0));
  const auto elf = WriteElfCodeObject({TinyModule(0)});
  const auto fatbin = OurFatBinary({TinyModule(0)});
  const HipFatBinaryWrapper wrapper{kHipFatBinaryMagic, 1, fatbin.data(), nullptr};
  const std::string glsl = "#version 460\nvoid main() {}\n";
  EXPECT_EQ(*DetectImageFormat(spirv.data(), spirv.size()), ImageFormat::kSpirv);
  EXPECT_EQ(*DetectImageFormat(spirv.data(), std::nullopt), ImageFormat::kSpirv);
  EXPECT_EQ(*DetectImageFormat(elf.data(), elf.size()), ImageFormat::kElf);
  EXPECT_EQ(*DetectImageFormat(elf.data(), std::nullopt), ImageFormat::kElf);
  EXPECT_EQ(*DetectImageFormat(fatbin.data(), std::nullopt), ImageFormat::kFatBinary);
  EXPECT_EQ(*DetectImageFormat(&wrapper, std::nullopt), ImageFormat::kHipFatBinaryWrapper);
  EXPECT_EQ(*DetectImageFormat(glsl.c_str(), std::nullopt), ImageFormat::kGlsl);
  EXPECT_EQ(*DetectImageFormat(glsl.data(), glsl.size()), ImageFormat::kGlsl);
}

TEST(DetectImageFormatTest, NullPointerIsInvalidValue) {
  EXPECT_EQ(ErrorCodeOf(DetectImageFormat(nullptr, std::nullopt).status()),
            ErrorCode::kInvalidValue);
  EXPECT_EQ(CodeOf(ParseImage(nullptr, 16, {})), ErrorCode::kInvalidValue);
}

TEST(DetectImageFormatTest, EmptyAndBinaryGarbageAreInvalidImage) {
  const uint8_t garbage[] = {0xfe, 0x01, 0x02, 0x03};
  EXPECT_EQ(ErrorCodeOf(DetectImageFormat(garbage, 0).status()), ErrorCode::kInvalidImage);
  EXPECT_EQ(ErrorCodeOf(DetectImageFormat(garbage, 4).status()), ErrorCode::kInvalidImage);
  EXPECT_EQ(ErrorCodeOf(DetectImageFormat("", std::nullopt).status()), ErrorCode::kInvalidImage);
}

TEST(DetectImageFormatTest, ShortTextIsNotReadPastItsNul) {
  // Prefixes of magics, each NUL-terminated in a buffer of exactly that size.
  for (const std::string text : {"_", "__CLANG", "FPI", "CCOB"}) {
    const std::vector<uint8_t> bytes(text.begin(), text.end() + 1);
    auto copy = ExactCopy(bytes, bytes.size());
    const auto format = DetectImageFormat(copy.get(), std::nullopt);
    ASSERT_TRUE(format.ok()) << text << ": " << format.status();
    EXPECT_EQ(*format, ImageFormat::kGlsl) << text;
    EXPECT_EQ(*ImageExtent(copy.get(), std::nullopt), bytes.size()) << text;
  }
}

TEST(DetectImageFormatTest, CompressedBundlesAreRejectedByName) {
  const uint8_t ccob[] = {'C', 'C', 'O', 'B', 0x02, 0x00, 0x01, 0x00};
  const auto result = ParseImage(ccob, sizeof(ccob), {});
  EXPECT_EQ(CodeOf(result), ErrorCode::kInvalidImage);
  EXPECT_THAT(std::string(result.status().message()), HasSubstr("CCOB"));
}

// ---- raw SPIR-V ---------------------------------------------------------------

TEST(SpirvImageTest, RoundTripsWithASize) {
  const auto bytes = Bytes(TinyModule(7));
  const auto image = ParseImage(bytes.data(), bytes.size(), {});
  ASSERT_TRUE(image.ok()) << image.status();
  EXPECT_EQ(image->format, ImageFormat::kSpirv);
  EXPECT_THAT(image->spirv_modules, ElementsAre(TinyModule(7)));
}

TEST(SpirvImageTest, WithoutASizeIsInvalidImageNamingCuModuleLoad) {
  const auto bytes = Bytes(TinyModule(0));
  const auto image = ParseImage(bytes.data(), std::nullopt, {});
  EXPECT_EQ(CodeOf(image), ErrorCode::kInvalidImage);
  EXPECT_THAT(std::string(image.status().message()), HasSubstr("cuModuleLoad"));
}

TEST(SpirvImageTest, BigEndianModulesComeOutInHostOrder) {
  std::vector<uint32_t> swapped = TinyModule(3);
  for (uint32_t& w : swapped) w = __builtin_bswap32(w);
  const auto bytes = Bytes(swapped);
  const auto image = ParseImage(bytes.data(), bytes.size(), {});
  ASSERT_TRUE(image.ok()) << image.status();
  EXPECT_THAT(image->spirv_modules, ElementsAre(TinyModule(3)));
}

TEST(SpirvImageTest, OverrunningInstructionIsInvalidImage) {
  std::vector<uint32_t> words = TinyModule(0);
  words[5] = (9u << 16) | 17u;  // claims 9 words, 3 remain
  const auto bytes = Bytes(words);
  EXPECT_EQ(CodeOf(ParseImage(bytes.data(), bytes.size(), {})), ErrorCode::kInvalidImage);
  words[5] = 17u;  // word count 0
  const auto zero = Bytes(words);
  EXPECT_EQ(CodeOf(ParseImage(zero.data(), zero.size(), {})), ErrorCode::kInvalidImage);
}

TEST(SpirvImageTest, TruncationNeverCrashes) {
  const auto bytes = Bytes(TinyModule(0));
  for (size_t n = 0; n < bytes.size(); ++n) {
    auto copy = ExactCopy(bytes, n);
    const auto image = ParseImage(copy.get(), n, {});
    // A cut at an instruction boundary leaves a shorter, well-formed module.
    if (n % 4 != 0 || n < 20 || n == 24) {
      EXPECT_EQ(CodeOf(image), ErrorCode::kInvalidImage) << n;
    }
  }
}

// ---- ELF code objects -------------------------------------------------------

TEST(ElfImageTest, RoundTripsOneModule) {
  const auto elf = WriteElfCodeObject({TinyModule(1)});
  for (const std::optional<size_t> size : {std::optional<size_t>(elf.size()),
                                           std::optional<size_t>()}) {
    const auto image = ParseImage(elf.data(), size, {});
    ASSERT_TRUE(image.ok()) << image.status();
    EXPECT_EQ(image->format, ImageFormat::kElf);
    EXPECT_THAT(image->spirv_modules, ElementsAre(TinyModule(1)));
  }
}

TEST(ElfImageTest, RoundTripsSeveralModulesInOrder) {
  const auto elf = WriteElfCodeObject({TinyModule(1), TinyModule(2), TinyModule(3)});
  auto copy = ExactCopy(elf, elf.size());
  const auto image = ParseImage(copy.get(), std::nullopt, {});
  ASSERT_TRUE(image.ok()) << image.status();
  EXPECT_THAT(image->spirv_modules, ElementsAre(TinyModule(1), TinyModule(2), TinyModule(3)));
}

TEST(ElfImageTest, ExtentIsTheWholeFile) {
  const auto elf = WriteElfCodeObject({TinyModule(1), TinyModule(2)});
  EXPECT_EQ(*ImageExtent(elf.data(), std::nullopt), elf.size());
  EXPECT_EQ(*ImageExtent(elf.data(), elf.size()), elf.size());
  // Trailing bytes past the extent (file padding) are ignored.
  std::vector<uint8_t> padded = elf;
  padded.resize(elf.size() + 13, 0xee);
  EXPECT_EQ(*ImageExtent(padded.data(), padded.size()), elf.size());
  EXPECT_TRUE(ParseImage(padded.data(), padded.size(), {}).ok());
}

TEST(ElfImageTest, ForeignMachineIsNoBinaryForGpu) {
  auto elf = WriteElfCodeObject({TinyModule(1)});
  const uint16_t amdgpu = 224;  // EM_AMDGPU
  std::memcpy(elf.data() + 18, &amdgpu, 2);  // e_machine
  EXPECT_EQ(CodeOf(ParseImage(elf.data(), elf.size(), {})), ErrorCode::kNoBinaryForGpu);
}

TEST(ElfImageTest, NoSpirvSectionIsInvalidImage) {
  const auto elf = WriteElfCodeObject({});
  const auto image = ParseImage(elf.data(), elf.size(), {});
  EXPECT_EQ(CodeOf(image), ErrorCode::kInvalidImage);
  EXPECT_THAT(std::string(image.status().message()), HasSubstr(".spirv"));
}

TEST(ElfImageTest, ThirtyTwoBitElfIsInvalidImage) {
  auto elf = WriteElfCodeObject({TinyModule(1)});
  elf[4] = 1;  // ELFCLASS32
  EXPECT_EQ(CodeOf(ParseImage(elf.data(), elf.size(), {})), ErrorCode::kInvalidImage);
}

TEST(ElfImageTest, HugeClaimWithoutASizeIsRejectedBeforeReading) {
  auto elf = WriteElfCodeObject({TinyModule(1)});
  const uint64_t far = uint64_t{1} << 40;
  std::memcpy(elf.data() + 40, &far, 8);  // e_shoff
  // Only the 64-byte header is valid memory here.
  auto header = ExactCopy(elf, 64);
  EXPECT_EQ(CodeOf(ParseImage(header.get(), std::nullopt, {})), ErrorCode::kInvalidImage);
  EXPECT_EQ(ErrorCodeOf(ImageExtent(header.get(), std::nullopt).status()),
            ErrorCode::kInvalidImage);
}

TEST(ElfImageTest, EveryTruncationIsInvalidImage) {
  const auto elf = WriteElfCodeObject({TinyModule(1), TinyModule(2)});
  for (size_t n = 0; n < elf.size(); ++n) {
    auto copy = ExactCopy(elf, n);
    EXPECT_EQ(CodeOf(ParseImage(copy.get(), n, {})), ErrorCode::kInvalidImage) << n;
    EXPECT_FALSE(ImageExtent(copy.get(), n).ok()) << n;
  }
}

// ---- fat binaries --------------------------------------------------------------

TEST(FatBinaryTest, RoundTripsWithAndWithoutASize) {
  const auto fatbin = OurFatBinary({TinyModule(1), TinyModule(2)});
  EXPECT_EQ(*ImageExtent(fatbin.data(), std::nullopt), fatbin.size());
  auto copy = ExactCopy(fatbin, fatbin.size());
  for (const std::optional<size_t> size : {std::optional<size_t>(fatbin.size()),
                                           std::optional<size_t>()}) {
    const auto image = ParseImage(copy.get(), size, {});
    ASSERT_TRUE(image.ok()) << image.status();
    EXPECT_EQ(image->format, ImageFormat::kFatBinary);
    EXPECT_THAT(image->spirv_modules, ElementsAre(TinyModule(1), TinyModule(2)));
  }
}

TEST(FatBinaryTest, EntryMayHoldRawSpirv) {
  const auto fatbin = WriteFatBinary({{std::string(kBundleTargetId), Bytes(TinyModule(4))}});
  const auto image = ParseImage(fatbin.data(), std::nullopt, {});
  ASSERT_TRUE(image.ok()) << image.status();
  EXPECT_THAT(image->spirv_modules, ElementsAre(TinyModule(4)));
}

TEST(FatBinaryTest, PrefersOurIdOverOtherSpirv64Entries) {
  const auto fatbin = WriteFatBinary({
      {"hip-spirv64-amd-amdhsa--amdgcnspirv", Bytes(TinyModule(1))},
      {std::string(kBundleTargetId), Bytes(TinyModule(2))},
  });
  const auto image = ParseImage(fatbin.data(), fatbin.size(), {});
  ASSERT_TRUE(image.ok()) << image.status();
  EXPECT_THAT(image->spirv_modules, ElementsAre(TinyModule(2)));
}

TEST(FatBinaryTest, AcceptsAnySpirv64Entry) {
  const auto fatbin = WriteFatBinary({
      {std::string(kBundleHostId), {}},
      {"hipv4-amdgcn-amd-amdhsa--gfx906", Bytes(TinyModule(9))},
      {"openmp-spirv64-unknown-unknown", Bytes(TinyModule(5))},
  });
  const auto image = ParseImage(fatbin.data(), fatbin.size(), {});
  ASSERT_TRUE(image.ok()) << image.status();
  EXPECT_THAT(image->spirv_modules, ElementsAre(TinyModule(5)));
}

TEST(FatBinaryTest, NoFittingEntryIsNoBinaryForGpu) {
  const auto fatbin = WriteFatBinary({
      {std::string(kBundleHostId), {}},
      {"hipv4-amdgcn-amd-amdhsa--gfx906", Bytes(TinyModule(9))},
      {"host-spirv64-unknown-linux", Bytes(TinyModule(9))},  // host kind never counts
  });
  const auto image = ParseImage(fatbin.data(), fatbin.size(), {});
  EXPECT_EQ(CodeOf(image), ErrorCode::kNoBinaryForGpu);
  EXPECT_THAT(std::string(image.status().message()), HasSubstr("gfx906"));
  const auto empty = WriteFatBinary({});
  EXPECT_EQ(CodeOf(ParseImage(empty.data(), empty.size(), {})), ErrorCode::kNoBinaryForGpu);
}

TEST(FatBinaryTest, EmptyTargetEntryIsInvalidImage) {
  const auto fatbin = WriteFatBinary({{std::string(kBundleTargetId), {}}});
  EXPECT_EQ(CodeOf(ParseImage(fatbin.data(), fatbin.size(), {})), ErrorCode::kInvalidImage);
}

TEST(FatBinaryTest, AbsurdEntryCountIsRejectedBeforeReading) {
  auto fatbin = OurFatBinary({TinyModule(1)});
  const uint64_t count = uint64_t{1} << 50;
  std::memcpy(fatbin.data() + 24, &count, 8);
  auto header = ExactCopy(fatbin, 32);
  EXPECT_EQ(CodeOf(ParseImage(header.get(), std::nullopt, {})), ErrorCode::kInvalidImage);
}

TEST(FatBinaryTest, EveryTruncationIsInvalidImage) {
  const auto fatbin = OurFatBinary({TinyModule(1), TinyModule(2)});
  for (size_t n = 0; n < fatbin.size(); ++n) {
    auto copy = ExactCopy(fatbin, n);
    EXPECT_EQ(CodeOf(ParseImage(copy.get(), n, {})), ErrorCode::kInvalidImage) << n;
    EXPECT_FALSE(ImageExtent(copy.get(), n).ok()) << n;
  }
}

// Flipping any single byte of a valid image gives a result or a clean error;
// run under a sanitizer this also shows nothing outside the image is read.
TEST(CorruptImageTest, FlippedBytesGiveAResultOrACleanError) {
  const auto fatbin = OurFatBinary({TinyModule(1), TinyModule(2)});
  const auto elf = WriteElfCodeObject({TinyModule(1), TinyModule(2)});
  for (const auto* original : {&fatbin, &elf}) {
    for (size_t i = 0; i < original->size(); ++i) {
      for (const uint8_t mask : {uint8_t{0xff}, uint8_t{0x80}, uint8_t{0x01}}) {
        std::vector<uint8_t> bytes = *original;
        bytes[i] ^= mask;
        auto copy = ExactCopy(bytes, bytes.size());
        const auto image = ParseImage(copy.get(), bytes.size(), {});
        const ErrorCode code = CodeOf(image);
        EXPECT_TRUE(code == ErrorCode::kOk || code == ErrorCode::kInvalidImage ||
                    code == ErrorCode::kNoBinaryForGpu || code == ErrorCode::kInvalidPtx)
            << "byte " << i << ": " << image.status();
        const auto extent = ImageExtent(copy.get(), bytes.size());
        if (extent.ok()) {
          EXPECT_LE(*extent, bytes.size());
        }
      }
    }
  }
}

TEST(CorruptImageTest, BinaryGarbageOfEveryLengthIsInvalidImage) {
  std::mt19937 rng(1234);
  for (size_t n = 0; n <= 300; ++n) {
    std::vector<uint8_t> bytes(n);
    for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
    if (n > 0) bytes[0] = 0xfe;  // no format starts so
    auto copy = ExactCopy(bytes, n);
    EXPECT_EQ(CodeOf(ParseImage(copy.get(), n, {})), ErrorCode::kInvalidImage) << n;
  }
}

// ---- HIP fat-binary wrapper -------------------------------------------------

TEST(HipWrapperTest, LayoutMatchesHip) {
  EXPECT_EQ(sizeof(HipFatBinaryWrapper), 24u);
  EXPECT_EQ(offsetof(HipFatBinaryWrapper, binary), 8u);
}

TEST(HipWrapperTest, LoadsTheBundleItPointsAt) {
  const auto fatbin = OurFatBinary({TinyModule(6)});
  const HipFatBinaryWrapper wrapper{kHipFatBinaryMagic, kHipFatBinaryVersion, fatbin.data(),
                                    nullptr};
  const auto image = ParseImage(&wrapper, std::nullopt, {});
  ASSERT_TRUE(image.ok()) << image.status();
  EXPECT_EQ(image->format, ImageFormat::kHipFatBinaryWrapper);
  EXPECT_THAT(image->spirv_modules, ElementsAre(TinyModule(6)));
}

TEST(HipWrapperTest, MalformedWrappersAreInvalidImage) {
  const auto fatbin = OurFatBinary({TinyModule(6)});
  const auto elf = WriteElfCodeObject({TinyModule(6)});
  const HipFatBinaryWrapper good{kHipFatBinaryMagic, 1, fatbin.data(), nullptr};
  // From a file (with a size) the pointer means nothing.
  EXPECT_EQ(CodeOf(ParseImage(&good, sizeof(good), {})), ErrorCode::kInvalidImage);
  const HipFatBinaryWrapper version2{kHipFatBinaryMagic, 2, fatbin.data(), nullptr};
  EXPECT_EQ(CodeOf(ParseImage(&version2, std::nullopt, {})), ErrorCode::kInvalidImage);
  const HipFatBinaryWrapper null_binary{kHipFatBinaryMagic, 1, nullptr, nullptr};
  EXPECT_EQ(CodeOf(ParseImage(&null_binary, std::nullopt, {})), ErrorCode::kInvalidImage);
  const HipFatBinaryWrapper not_a_bundle{kHipFatBinaryMagic, 1, elf.data(), nullptr};
  EXPECT_EQ(CodeOf(ParseImage(&not_a_bundle, std::nullopt, {})), ErrorCode::kInvalidImage);
}

// ---- images given without a size ------------------------------------------------

// cuModuleLoadData gets a pointer and no size, so a binary image is read only
// as far as its headers prove it extends. A short buffer that starts with a
// magic must be rejected at its first byte that is not what the magic claims,
// without a read past it: each buffer below lives on the heap with exactly its
// size, so the address sanitizer fails the test on any such read.
ErrorCode SizeLessParse(const std::vector<uint8_t>& bytes) {
  auto copy = ExactCopy(bytes, bytes.size());
  const ErrorCode parsed = CodeOf(ParseImage(copy.get(), std::nullopt, {}));
  const ErrorCode measured = ErrorCodeOf(ImageExtent(copy.get(), std::nullopt).status());
  EXPECT_EQ(parsed, measured);
  return parsed;
}

// The first `n` bytes of `bytes` with the last one replaced by `last`.
std::vector<uint8_t> PrefixEndingIn(const std::vector<uint8_t>& bytes, size_t n, uint8_t last) {
  std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
  prefix.back() = last;
  return prefix;
}

TEST(SizeLessImageTest, ShortBufferWithTheElfMagicIsReadOnlyToItsFirstWrongByte) {
  const auto elf = WriteElfCodeObject({TinyModule(1)});
  const std::vector<std::pair<std::string, std::vector<uint8_t>>> cases = {
      {"13 bytes of text after the magic",
       {0x7f, 'E', 'L', 'F', 'n', 'o', 't', '-', 'e', 'l', 'f', '!', 0}},
      {"ELFCLASS32", PrefixEndingIn(elf, EI_CLASS + 1, ELFCLASS32)},
      {"big-endian", PrefixEndingIn(elf, EI_DATA + 1, ELFDATA2MSB)},
      {"identification version 0", PrefixEndingIn(elf, EI_VERSION + 1, EV_NONE)},
      {"e_version 2", PrefixEndingIn(elf, offsetof(Elf64_Ehdr, e_version) + 1, 2)},
      {"e_shoff beyond 1 GiB", PrefixEndingIn(elf, offsetof(Elf64_Ehdr, e_shoff) + 4, 0x80)},
      {"e_ehsize of ELF32", PrefixEndingIn(elf, offsetof(Elf64_Ehdr, e_ehsize) + 1, 52)},
      {"e_shentsize of ELF32", PrefixEndingIn(elf, offsetof(Elf64_Ehdr, e_shentsize) + 1, 40)},
  };
  for (const auto& [what, bytes] : cases) {
    EXPECT_EQ(SizeLessParse(bytes), ErrorCode::kInvalidImage) << what;
  }
}

TEST(SizeLessImageTest, ShortBufferWithTheBundleMagicIsReadOnlyToItsFirstWrongByte) {
  const std::string magic(kBundleMagic);
  auto bundle_with = [&](std::vector<uint8_t> tail) {
    std::vector<uint8_t> bytes(magic.begin(), magic.end());
    bytes.insert(bytes.end(), tail.begin(), tail.end());
    return bytes;
  };
  const std::vector<uint8_t> one_entry = {1, 0, 0, 0, 0, 0, 0, 0};
  auto entry = [&](std::vector<uint8_t> fields) {
    std::vector<uint8_t> tail = one_entry;
    tail.insert(tail.end(), fields.begin(), fields.end());
    return bundle_with(tail);
  };
  const std::vector<uint8_t> zero8(8, 0);
  auto concat = [](std::vector<std::vector<uint8_t>> parts) {
    std::vector<uint8_t> out;
    for (const auto& part : parts) out.insert(out.end(), part.begin(), part.end());
    return out;
  };
  const std::vector<std::pair<std::string, std::vector<uint8_t>>> cases = {
      // Text after the magic: "xy" already counts more than 4096 entries.
      {"text entry count", bundle_with({'x', 'y'})},
      {"entry offset beyond 1 GiB", entry({0, 0, 0, 0x80})},
      {"entry size beyond 1 GiB", entry(concat({zero8, {0, 0, 0, 0x80}}))},
      {"id longer than 4096 bytes", entry(concat({zero8, zero8, {0, 0x20}}))},
      {"NUL inside the id", entry(concat({zero8, zero8, {4, 0, 0, 0, 0, 0, 0, 0}, {'a', 'b', 0}}))},
  };
  for (const auto& [what, bytes] : cases) {
    EXPECT_EQ(SizeLessParse(bytes), ErrorCode::kInvalidImage) << what;
  }
}

TEST(SizeLessImageTest, ShortHipWrapperIsReadOnlyToItsFirstWrongByte) {
  uint8_t magic[4];
  std::memcpy(magic, &kHipFatBinaryMagic, 4);
  const std::vector<uint8_t> version2 = {magic[0], magic[1], magic[2], magic[3], 2};
  EXPECT_EQ(SizeLessParse(version2), ErrorCode::kInvalidImage);
  const std::vector<uint8_t> high_version = {magic[0], magic[1], magic[2], magic[3], 1, 0, 0, 7};
  EXPECT_EQ(SizeLessParse(high_version), ErrorCode::kInvalidImage);
  // A wrapper around a buffer that is only a bundle's magic and text.
  const std::string text = std::string(kBundleMagic) + "xy";
  auto bundle = ExactCopy(std::vector<uint8_t>(text.begin(), text.end()), text.size());
  const HipFatBinaryWrapper wrapper{kHipFatBinaryMagic, 1, bundle.get(), nullptr};
  EXPECT_EQ(CodeOf(ParseImage(&wrapper, std::nullopt, {})), ErrorCode::kInvalidImage);
}

TEST(SizeLessImageTest, WellFormedImagesStillLoadFromExactBuffers) {
  const auto elf = WriteElfCodeObject({TinyModule(3)});
  const auto fatbin = OurFatBinary({TinyModule(4)});
  for (const auto* bytes : {&elf, &fatbin}) {
    auto copy = ExactCopy(*bytes, bytes->size());
    const auto image = ParseImage(copy.get(), std::nullopt, {});
    ASSERT_TRUE(image.ok()) << image.status();
    EXPECT_EQ(*ImageExtent(copy.get(), std::nullopt), bytes->size());
  }
}

// ---- GLSL -----------------------------------------------------------------------

constexpr char kKernel[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#define STREAMHAL_NO_DUNDER_NAMES
#include "streamhal/kernel.glsl"
STREAMHAL_DECLARE_PTR(uint);
layout(push_constant) uniform Params { uint_ptr out_; } p;
void main() { p.out_.v[blockIdx.x * blockDim.x + threadIdx.x] = 7; }
)";

class GlslImageTest : public testing::Test {
 protected:
  void SetUp() override {
    if (!GlslCompilerAvailable()) GTEST_SKIP() << "built without glslang";
  }
};

TEST_F(GlslImageTest, CompilesNulTerminatedSourceFromAPointer) {
  const auto image = ParseImage(kKernel, std::nullopt, {});
  ASSERT_TRUE(image.ok()) << image.status();
  EXPECT_EQ(image->format, ImageFormat::kGlsl);
  ASSERT_EQ(image->spirv_modules.size(), 1u);
  EXPECT_EQ(image->spirv_modules[0][0], kSpirvMagic);
  EXPECT_GT(image->compile_wall_time_ms, 0.0);
  EXPECT_EQ(*ImageExtent(kKernel, std::nullopt), sizeof(kKernel));
}

TEST_F(GlslImageTest, CompilesSourceWithASizeAndNoNul) {
  const std::string source = kKernel;
  const auto image = ParseImage(source.data(), source.size(), {});
  ASSERT_TRUE(image.ok()) << image.status();
  EXPECT_EQ(image->spirv_modules, ParseImage(kKernel, std::nullopt, {})->spirv_modules);
}

TEST_F(GlslImageTest, CompiledModulesSurviveBeingPacked) {
  const auto compiled = CompileGlsl(kKernel, {});
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  const auto fatbin = OurFatBinary({compiled->spirv, TinyModule(1)});
  const auto image = ParseImage(fatbin.data(), std::nullopt, {});
  ASSERT_TRUE(image.ok()) << image.status();
  EXPECT_THAT(image->spirv_modules, ElementsAre(compiled->spirv, TinyModule(1)));
}

TEST_F(GlslImageTest, CompileErrorIsInvalidPtxWithTheLog) {
  std::string error_log;
  const auto image = ParseImage("#version 460\nvoid main() { nope(); }\n", std::nullopt, {},
                                &error_log);
  EXPECT_EQ(CodeOf(image), ErrorCode::kInvalidPtx);
  EXPECT_THAT(error_log, HasSubstr("nope"));
}

TEST(GlslImageDetectTest, WithoutGlslangSourceIsNotSupported) {
  if (GlslCompilerAvailable()) GTEST_SKIP() << "built with glslang";
  EXPECT_EQ(CodeOf(ParseImage(kKernel, std::nullopt, {})), ErrorCode::kNotSupported);
}

TEST(GlslImageDetectTest, ControlBytesInSourceAreInvalidImage) {
  const char text[] = "#version 460\x01\nvoid main() {}\n";
  EXPECT_EQ(CodeOf(ParseImage(text, std::nullopt, {})), ErrorCode::kInvalidImage);
}

// ---- PTX --------------------------------------------------------------------------

constexpr char kPtx[] =
    "//\n// Generated by NVIDIA NVVM Compiler\n//\n\n.version 8.0\n.target sm_75\n"
    ".address_size 64\n\n.visible .entry k(.param .u64 p)\n{\n\tret;\n}\n";

TEST(PtxImageTest, NvccHeaderOrVersionDirectiveIsPtx) {
  EXPECT_EQ(*DetectImageFormat(kPtx, std::nullopt), ImageFormat::kPtx);
  EXPECT_EQ(*DetectImageFormat(kPtx, std::strlen(kPtx)), ImageFormat::kPtx);
  EXPECT_EQ(*DetectImageFormat(".version 7.0\n", std::nullopt), ImageFormat::kPtx);
  // GLSL starting with comments stays GLSL; a text cut inside ".version" too.
  EXPECT_EQ(*DetectImageFormat("// kernel\n#version 460\n", std::nullopt), ImageFormat::kGlsl);
  EXPECT_EQ(*DetectImageFormat(".vers", 5), ImageFormat::kGlsl);
}

TEST(PtxImageTest, PtxTranslatesToOneSpirvModule) {
  const auto image = ParseImage(kPtx, std::nullopt, {});
  ASSERT_TRUE(image.ok()) << image.status();
  EXPECT_EQ(image->format, ImageFormat::kPtx);
  ASSERT_EQ(image->spirv_modules.size(), 1u);
  const auto reflection = ReflectSpirv(image->spirv_modules[0]);
  ASSERT_TRUE(reflection.ok()) << reflection.status();
  ASSERT_EQ(reflection->kernels.size(), 1u);
  EXPECT_EQ(reflection->kernels[0].name, "k");
  EXPECT_TRUE(reflection->kernels[0].block_size_from_spec);
  ASSERT_EQ(reflection->kernels[0].params.size(), 1u);
  EXPECT_EQ(reflection->kernels[0].params[0].size, 8u);
}

TEST(PtxImageTest, UnsupportedPtxIsInvalidPtxWithTheLineInTheLog) {
  std::string error_log;
  const std::string text = std::string(".version 8.0\n.target sm_75\n.address_size 64\n") +
                           ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tsad.u32 %r0, %r1, %r1, %r1;\n}\n";
  EXPECT_EQ(CodeOf(ParseImage(text.c_str(), std::nullopt, {}, &error_log)), ErrorCode::kInvalidPtx);
  EXPECT_THAT(error_log, HasSubstr("ptx line 7"));
}

// ---- files ------------------------------------------------------------------------

std::string WriteTempFile(const std::string& name, const std::vector<uint8_t>& bytes) {
  const std::string path = testing::TempDir() + "/" + name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return path;
}

TEST(ParseImageFileTest, LoadsEachFileFormat) {
  const std::string spv = WriteTempFile("streamhal_code_object.spv", Bytes(TinyModule(1)));
  const std::string elf =
      WriteTempFile("streamhal_code_object.elf", WriteElfCodeObject({TinyModule(2)}));
  const std::string fatbin =
      WriteTempFile("streamhal_code_object.fatbin", OurFatBinary({TinyModule(3)}));
  EXPECT_THAT(ParseImageFile(spv, {})->spirv_modules, ElementsAre(TinyModule(1)));
  EXPECT_THAT(ParseImageFile(elf, {})->spirv_modules, ElementsAre(TinyModule(2)));
  EXPECT_THAT(ParseImageFile(fatbin, {})->spirv_modules, ElementsAre(TinyModule(3)));
  for (const std::string& path : {spv, elf, fatbin}) std::remove(path.c_str());
}

TEST(ParseImageFileTest, MissingFileIsFileNotFound) {
  const auto image = ParseImageFile(testing::TempDir() + "/streamhal_no_such_file.spv", {});
  EXPECT_EQ(CodeOf(image), ErrorCode::kFileNotFound);
  EXPECT_THAT(std::string(image.status().message()), HasSubstr("streamhal_no_such_file.spv"));
}

TEST(ParseImageFileTest, DirectoryIsFileNotFound) {
  EXPECT_EQ(CodeOf(ParseImageFile(testing::TempDir(), {})), ErrorCode::kFileNotFound);
}

TEST(ParseImageFileTest, EmptyFileIsInvalidImage) {
  const std::string path = WriteTempFile("streamhal_empty.spv", {});
  EXPECT_EQ(CodeOf(ParseImageFile(path, {})), ErrorCode::kInvalidImage);
  std::remove(path.c_str());
}

TEST(ParseImageFileTest, GlslFileErrorsNameTheFile) {
  if (!GlslCompilerAvailable()) GTEST_SKIP() << "built without glslang";
  const std::string source = "#version 460\nvoid main() { nope(); }\n";
  const std::string path =
      WriteTempFile("streamhal_broken.comp", std::vector<uint8_t>(source.begin(), source.end()));
  std::string error_log;
  EXPECT_EQ(CodeOf(ParseImageFile(path, {}, &error_log)), ErrorCode::kInvalidPtx);
  EXPECT_THAT(error_log, HasSubstr("streamhal_broken.comp:2"));
  std::remove(path.c_str());
}

// ---- NVIDIA fat binaries ----------------------------------------------------

// A fat binary as nvcc -fatbin lays it out (docs/ptx.md): one PTX entry of
// sm_75, optionally flagged compressed, after a SASS entry.
// An LZ4 block of literals only: valid LZ4, as an encoder that finds no
// match writes it.
std::vector<uint8_t> Lz4Literals(const std::vector<uint8_t>& data) {
  std::vector<uint8_t> block = {static_cast<uint8_t>(std::min<size_t>(data.size(), 15) << 4)};
  if (data.size() >= 15) {
    size_t rest = data.size() - 15;
    for (; rest >= 255; rest -= 255) block.push_back(255);
    block.push_back(static_cast<uint8_t>(rest));
  }
  block.insert(block.end(), data.begin(), data.end());
  return block;
}

std::vector<uint8_t> NvFatBinary(const std::string& ptx,
                                 FatbinCompression compression = FatbinCompression::kNone) {
  auto put = [](std::vector<uint8_t>& out, uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
  };
  std::vector<uint8_t> entries;
  auto entry = [&](uint16_t kind, std::vector<uint8_t> payload, uint64_t flags, uint64_t compressed,
                   uint64_t expanded) {
    const size_t header = kind == 1 ? 0x50 : 0x40;
    const size_t start = entries.size();
    payload.resize((payload.size() + 7) / 8 * 8, 0);  // padded, as nvcc pads
    put(entries, kind, 2);
    put(entries, 0x0101, 2);
    put(entries, header, 4);
    put(entries, payload.size(), 8);
    put(entries, compressed, 4);
    put(entries, 0x40, 4);
    put(entries, 0x00090000, 4);  // minor 0, major 9
    put(entries, 75, 4);          // arch
    put(entries, 0, 8);           // name offset and size
    put(entries, flags, 8);
    put(entries, 0, 8);
    put(entries, expanded, 8);
    entries.resize(start + header, 0);
    entries.insert(entries.end(), payload.begin(), payload.end());
  };
  entry(2, std::vector<uint8_t>(32, 0x7f), 0x11, 0, 0);
  std::vector<uint8_t> text(ptx.begin(), ptx.end());
  text.push_back(0);
  switch (compression) {
    case FatbinCompression::kNone:
      entry(1, text, 0x11, 0, 0);
      break;
    case FatbinCompression::kLz4: {
      const std::vector<uint8_t> block = Lz4Literals(text);
      entry(1, block, 0x2011, block.size(), text.size());
      break;
    }
    case FatbinCompression::kZstd: {
      std::vector<uint8_t> frame(ZSTD_compressBound(text.size()));
      frame.resize(ZSTD_compress(frame.data(), frame.size(), text.data(), text.size(), 3));
      entry(1, frame, 0x8011, frame.size(), text.size());
      break;
    }
  }
  std::vector<uint8_t> out;
  put(out, kNvFatBinaryMagic, 4);
  put(out, 1, 2);
  put(out, 16, 2);
  put(out, entries.size(), 8);
  out.insert(out.end(), entries.begin(), entries.end());
  return out;
}

TEST(NvFatBinaryTest, PtxEntryIsTranslated) {
  const std::vector<uint8_t> fat = NvFatBinary(kPtx);
  EXPECT_EQ(*DetectImageFormat(fat.data(), fat.size()), ImageFormat::kNvFatBinary);
  EXPECT_EQ(*ImageExtent(fat.data(), std::nullopt), fat.size());
  for (std::optional<size_t> size : {std::optional<size_t>(fat.size()), std::optional<size_t>()}) {
    const auto image = ParseImage(fat.data(), size, {});
    ASSERT_TRUE(image.ok()) << image.status();
    EXPECT_EQ(image->spirv_modules.size(), 1u);
  }
}

TEST(NvFatBinaryTest, CompressedPtxIsDecompressed) {
  for (FatbinCompression compression : {FatbinCompression::kLz4, FatbinCompression::kZstd}) {
    const std::vector<uint8_t> fat = NvFatBinary(kPtx, compression);
    std::string storage;
    absl::StatusOr<std::string_view> text =
        PtxTextOf(fat.data(), fat.size(), ImageFormat::kNvFatBinary, &storage);
    ASSERT_TRUE(text.ok()) << text.status();
    EXPECT_EQ(*text, kPtx);
    // Without a size it reads only what the headers claim.
    text = PtxTextOf(fat.data(), std::nullopt, ImageFormat::kNvFatBinary, &storage);
    ASSERT_TRUE(text.ok()) << text.status();
    EXPECT_EQ(*text, kPtx);
    const auto image = ParseImage(fat.data(), fat.size(), {});
    ASSERT_TRUE(image.ok()) << image.status();
    EXPECT_EQ(image->spirv_modules.size(), 1u);
    for (size_t n = 1; n < fat.size(); ++n) {
      ASSERT_FALSE(ParseImage(fat.data(), n, {}).ok()) << n;
    }
  }
}

TEST(NvFatBinaryTest, EveryTruncationIsInvalidImage) {
  const std::vector<uint8_t> fat = NvFatBinary(kPtx);
  for (size_t n = 1; n < fat.size(); ++n) {
    const auto image = ParseImage(fat.data(), n, {});
    ASSERT_FALSE(image.ok()) << n;
  }
}

TEST(NvFatBinaryTest, CorruptEntrySizesAreInvalidImage) {
  std::vector<uint8_t> fat = NvFatBinary(kPtx);
  std::vector<uint8_t> bad = fat;
  bad[16 + 8] = 0xff;  // the first entry's payload overruns the fat binary
  bad[16 + 15] = 0x7f;
  EXPECT_EQ(CodeOf(ParseImage(bad.data(), bad.size(), {})), ErrorCode::kInvalidImage);
  bad = fat;
  bad[16 + 4] = 8;  // entry header smaller than its fields
  EXPECT_EQ(CodeOf(ParseImage(bad.data(), bad.size(), {})), ErrorCode::kInvalidImage);
  bad = fat;
  bad[4] = 2;  // version
  EXPECT_EQ(CodeOf(ParseImage(bad.data(), bad.size(), {})), ErrorCode::kInvalidImage);
}

}  // namespace
}  // namespace streamhal
