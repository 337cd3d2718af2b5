#include "core/fatbin_compression.h"

#include <zstd.h>

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/status.h"

namespace streamhal {
namespace {

absl::Status Malformed(absl::string_view format, absl::string_view what) {
  return Error(ErrorCode::kInvalidImage, "fat binary entry: malformed ", format, " data: ", what);
}

}  // namespace

absl::StatusOr<std::string> DecompressLz4Block(absl::Span<const uint8_t> block,
                                               size_t expanded_size) {
  std::string out;
  // Each input byte expands to at most 255 or so: a header claiming more
  // cannot be met, so it does not decide the reservation.
  out.reserve(std::min(expanded_size, block.size() * 256));
  size_t in = 0;
  // A length: the token's 4 bits, then while 15 (or 255) more bytes follow.
  auto read_length = [&](size_t nibble, size_t* length) -> bool {
    *length = nibble;
    if (nibble != 15) return true;
    for (;;) {
      if (in >= block.size()) return false;
      const uint8_t more = block[in++];
      *length += more;
      if (*length > expanded_size) return false;
      if (more != 255) return true;
    }
  };
  while (in < block.size()) {
    const uint8_t token = block[in++];
    size_t literals = 0;
    if (!read_length(token >> 4, &literals)) return Malformed("LZ4", "a literal length overruns");
    if (literals > block.size() - in || literals > expanded_size - out.size()) {
      return Malformed("LZ4", "literals overrun the block or the expanded size");
    }
    out.append(reinterpret_cast<const char*>(block.data() + in), literals);
    in += literals;
    // The last sequence ends after its literals.
    if (in == block.size()) break;
    if (block.size() - in < 2) return Malformed("LZ4", "a match offset is truncated");
    const size_t offset = block[in] | (size_t{block[in + 1]} << 8);
    in += 2;
    if (offset == 0 || offset > out.size()) {
      return Malformed("LZ4", "a match refers before the start of the output");
    }
    size_t match = 0;
    if (!read_length(token & 15, &match)) return Malformed("LZ4", "a match length overruns");
    match += 4;  // LZ4's minimum match
    if (match > expanded_size - out.size()) {
      return Malformed("LZ4", "a match overruns the expanded size");
    }
    // Byte by byte: a match may overlap the bytes it produces.
    size_t from = out.size() - offset;
    for (size_t i = 0; i < match; ++i) out.push_back(out[from++]);
  }
  if (out.size() != expanded_size) {
    return Malformed("LZ4", absl::StrCat("expands to ", out.size(), " bytes, not the ",
                                         expanded_size, " its header gives"));
  }
  return out;
}

absl::StatusOr<std::string> DecompressZstdFrame(absl::Span<const uint8_t> frame,
                                                size_t expanded_size) {
  const unsigned long long content = ZSTD_getFrameContentSize(frame.data(), frame.size());
  if (content == ZSTD_CONTENTSIZE_ERROR) return Malformed("zstd", "not a zstd frame");
  // nvcc's frames state their size; the check keeps a header's claim from
  // sizing the output alone.
  if (content == ZSTD_CONTENTSIZE_UNKNOWN) return Malformed("zstd", "the frame gives no size");
  if (content != expanded_size) {
    return Malformed("zstd", absl::StrCat("the frame holds ", content, " bytes, not the ",
                                          expanded_size, " its header gives"));
  }
  std::string out(expanded_size, '\0');
  const size_t got = ZSTD_decompress(out.data(), out.size(), frame.data(), frame.size());
  if (ZSTD_isError(got) != 0) return Malformed("zstd", ZSTD_getErrorName(got));
  if (got != expanded_size) {
    return Malformed("zstd", absl::StrCat("expands to ", got, " bytes, not the ", expanded_size,
                                          " its header gives"));
  }
  return out;
}

}  // namespace streamhal
