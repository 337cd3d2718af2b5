#include "core/fatbin_compression.h"

#include <zstd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "gtest/gtest.h"

namespace streamhal {
namespace {

absl::StatusOr<std::string> Lz4(const std::vector<uint8_t>& block, size_t size) {
  return DecompressLz4Block(absl::MakeConstSpan(block), size);
}

TEST(Lz4BlockTest, LiteralsAndOverlappingMatches) {
  // "ab", then a match of 6 at offset 2 ("ababab"), then the literals "Z".
  const std::vector<uint8_t> block = {0x22, 'a', 'b', 2, 0, 0x10, 'Z'};
  absl::StatusOr<std::string> out = Lz4(block, 9);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(*out, "ababababZ");
  // A run: one literal repeated by a match at offset 1.
  const std::vector<uint8_t> run = {0x1f, 'x', 1, 0, 255, 1, 0x00};
  out = Lz4(run, 1 + 15 + 4 + 255 + 1);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(*out, std::string(1 + 15 + 4 + 255 + 1, 'x'));
}

TEST(Lz4BlockTest, LongLiteralRunsUseExtraLengthBytes) {
  std::vector<uint8_t> block = {0xf0, 255, 10};  // 15 + 255 + 10 literals
  std::string want;
  for (int i = 0; i < 15 + 255 + 10; ++i) want.push_back(static_cast<char>('a' + i % 26));
  block.insert(block.end(), want.begin(), want.end());
  absl::StatusOr<std::string> out = Lz4(block, want.size());
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(*out, want);
}

TEST(Lz4BlockTest, MalformedBlocksAreInvalidImage) {
  const struct {
    const char* what;
    std::vector<uint8_t> block;
    size_t size;
  } cases[] = {
      {"offset 0", {0x10, 'a', 0, 0, 0x00}, 6},
      {"offset before the output", {0x10, 'a', 2, 0, 0x00}, 6},
      {"truncated offset", {0x10, 'a', 1}, 6},
      {"literals past the block", {0x50, 'a', 'b'}, 5},
      {"literal length bytes run out", {0xf0, 255}, 400},
      {"expands past the size", {0x30, 'a', 'b', 'c'}, 2},
      {"expands short of the size", {0x30, 'a', 'b', 'c'}, 4},
      {"match past the size", {0x1f, 'x', 1, 0, 200, 0x00}, 30},
      {"empty", {}, 1},
  };
  for (const auto& c : cases) {
    absl::StatusOr<std::string> out = Lz4(c.block, c.size);
    EXPECT_EQ(ErrorCodeOf(out.status()), ErrorCode::kInvalidImage) << c.what;
  }
}

TEST(ZstdFrameTest, ExpandsAFrameOfTheGivenSize) {
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "ld.global.f32 %f1, [%rd" + std::to_string(i % 7) + "];\n";
  std::vector<uint8_t> frame(ZSTD_compressBound(text.size()));
  const size_t n = ZSTD_compress(frame.data(), frame.size(), text.data(), text.size(), 3);
  ASSERT_EQ(ZSTD_isError(n), 0u);
  frame.resize(n);
  absl::StatusOr<std::string> out = DecompressZstdFrame(absl::MakeConstSpan(frame), text.size());
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(*out, text);
  // Another size than the frame's, a cut frame, garbage.
  EXPECT_EQ(ErrorCodeOf(DecompressZstdFrame(absl::MakeConstSpan(frame), text.size() + 1).status()),
            ErrorCode::kInvalidImage);
  EXPECT_EQ(
      ErrorCodeOf(
          DecompressZstdFrame(absl::MakeConstSpan(frame.data(), n / 2), text.size()).status()),
      ErrorCode::kInvalidImage);
  const std::vector<uint8_t> garbage(64, 0x5a);
  EXPECT_EQ(ErrorCodeOf(DecompressZstdFrame(absl::MakeConstSpan(garbage), 10).status()),
            ErrorCode::kInvalidImage);
}

}  // namespace
}  // namespace streamhal
