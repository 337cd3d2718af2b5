// Decompression of NVIDIA fat-binary entries. nvcc compresses the entries of
// the fat binaries it writes unless told not to (--no-compress,
// --compress-mode=none): CUDA 13's default (and its "size" and "balance"
// modes) is a zstd frame, entry flag 0x8000; the "speed" mode, and older
// nvcc, write an LZ4 block, flag 0x2000. Entries come from files and from
// memory a program hands over, so both decoders treat their input as
// untrusted: every length is checked, and the output never exceeds the size
// the entry header claims (itself bounded by the caller).
#ifndef STREAMHAL_CORE_FATBIN_COMPRESSION_H_
#define STREAMHAL_CORE_FATBIN_COMPRESSION_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace streamhal {

enum class FatbinCompression { kNone, kLz4, kZstd };

// An LZ4 block (LZ4's block format: sequences of a token, literals and a
// match of a 16-bit offset, the last sequence literals only) that expands to
// exactly `expanded_size` bytes. Anything else is ErrorCode::kInvalidImage.
absl::StatusOr<std::string> DecompressLz4Block(absl::Span<const uint8_t> block,
                                               size_t expanded_size);

// One zstd frame (RFC 8878) that states its content size and expands to
// exactly `expanded_size` bytes, through libzstd. Anything else is
// ErrorCode::kInvalidImage.
absl::StatusOr<std::string> DecompressZstdFrame(absl::Span<const uint8_t> frame,
                                                size_t expanded_size);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_FATBIN_COMPRESSION_H_
