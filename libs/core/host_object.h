// Host objects and static archives with device code, as the JIT linker takes
// them (CU_JIT_INPUT_OBJECT, CU_JIT_INPUT_LIBRARY).
//
//   host object  a 64-bit little-endian ELF file (what `nvcc -c` writes). Its
//                device code is NVIDIA fat binaries in the section
//                ".nv_fatbin" (whole-program compilation) or "__nv_relfatbin"
//                (`nvcc -rdc=true -c`, relocatable device code). A section
//                may hold several fat binaries back to back (`ld -r` joins
//                objects that way), each 8-byte aligned, zero bytes between.
//   archive      a System V / GNU `ar` archive ("!<arch>\n", as `ar rcs` and
//                `nvcc -lib` write): 60-byte member headers, data padded to
//                an even offset; "/" and "/SYM64/" are symbol tables, "//"
//                the GNU long-name table that "/<offset>" names point into;
//                BSD "#1/<length>" names are read too. Thin archives (members
//                outside the file) are not accepted.
//
// The input is untrusted: every offset and size is checked against the
// buffer (no read outside [data, data + size)) and anything malformed is
// ErrorCode::kInvalidImage, naming what was wrong. The spans returned point
// into the input.
#ifndef STREAMHAL_CORE_HOST_OBJECT_H_
#define STREAMHAL_CORE_HOST_OBJECT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace streamhal {

using ByteSpan = absl::Span<const uint8_t>;

inline constexpr char kNvFatbinSection[] = ".nv_fatbin";
inline constexpr char kNvRelFatbinSection[] = "__nv_relfatbin";

// True when the bytes start with the ELF magic.
bool IsElfFile(ByteSpan bytes);
// True when the bytes start with an archive magic (regular or thin).
bool IsArchive(ByteSpan bytes);

// The NVIDIA fat binaries of a host object's device-code sections, in
// section order; empty when it has no such section. Each span is exactly one
// fat binary (header plus the entries its header counts). A fat binary's
// entries are not looked at here.
absl::StatusOr<std::vector<ByteSpan>> HostObjectFatBinaries(ByteSpan object);

struct ArchiveMember {
  std::string name;  // without GNU's trailing '/'
  ByteSpan data;
};

// The file members of an archive, in order; the symbol and long-name tables
// are not members.
absl::StatusOr<std::vector<ArchiveMember>> ReadArchive(ByteSpan archive);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_HOST_OBJECT_H_
