// Memory of other APIs (cuImportExternalMemory, cuExternalMemoryGetMappedBuffer,
// cuDestroyExternalMemory and the hip* twins): Vulkan interop.
//
// A program allocates memory with its own Vulkan device (exportable as
// VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, from the memory type
// streamhal uses for device memory: the first DEVICE_LOCAL type that backs
// storage buffers), exports it as a file descriptor and imports that here.
// Each mapped buffer is an import of its own (a duplicate of the
// descriptor), so several buffers of one memory, overlapping or not, each
// have their own device address range; cuMemFree frees one, and it outlives
// cuDestroyExternalMemory (CUDA: mapped buffers must still be freed).
//
// CUDA's rules: the descriptor belongs to streamhal once the import
// succeeds (on failure the caller keeps it); only OPAQUE_FD is a Linux
// Vulkan handle (the Windows, Direct3D and NvSci types are kNotSupported,
// DMA-BUF too until the backend imports it); flags other than
// CUDA_EXTERNAL_MEMORY_DEDICATED, a size of 0, a mapping outside the memory
// or non-zero buffer flags are kInvalidValue.
//
// A mapped mipmapped array is, like a mapped buffer, an import of its own:
// an image created for external memory with the parameters streamhal gives
// any array of that descriptor (docs/architecture.md, "Vulkan interop"),
// bound at the offset. As in CUDA, matching the exporter's image is the
// caller's part; what can be checked is: the shape, format and flags of
// cuMipmappedArrayCreate, 1 <= numLevels <= the full chain (not clamped),
// and an image that fits the memory at the offset with the alignment this
// device needs (kInvalidValue otherwise). cuMipmappedArrayDestroy frees it,
// before or after cuDestroyExternalMemory.
#ifndef STREAMHAL_CORE_EXTERNAL_MEMORY_H_
#define STREAMHAL_CORE_EXTERNAL_MEMORY_H_

#include <cstdint>

#include "absl/status/status.h"
#include "core/array.h"
#include "core/handle.h"

namespace streamhal {

// CUexternalMemoryHandleType values (HIP's hipExternalMemoryHandleType agrees).
inline constexpr int kExternalMemoryOpaqueFd = 1;
inline constexpr int kExternalMemoryDmaBufFd = 9;
inline constexpr unsigned kExternalMemoryDedicated = 0x1;

struct ExternalMemoryDesc {
  int type = 0;
  int fd = -1;
  uint64_t size = 0;
  unsigned flags = 0;
};

// CUDA_EXTERNAL_MEMORY_HANDLE_DESC or hipExternalMemoryHandleDesc (the same
// fields) in core terms. The type is read as an int: a C caller may pass any
// value, which the enumeration types of C++ cannot hold.
template <typename ApiDesc>
ExternalMemoryDesc ToExternalMemoryDesc(const ApiDesc& desc) {
  ExternalMemoryDesc core;
  static_assert(sizeof(desc.type) == sizeof(core.type), "an int-sized enumeration");
  __builtin_memcpy(&core.type, &desc.type, sizeof(core.type));
  core.fd = desc.handle.fd;
  core.size = desc.size;
  core.flags = desc.flags;
  return core;
}

absl::Status ImportExternalMemory(HandleOut out, const ExternalMemoryDesc* desc);
absl::Status ExternalMemoryGetMappedBuffer(uint64_t* dptr, uint64_t external, uint64_t offset,
                                           uint64_t size, unsigned flags);
// CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC (hipExternalMemoryMipmappedArrayDesc)
// in core terms.
struct ExternalMipmappedArrayDesc {
  uint64_t offset = 0;
  ArrayDescriptor array;
  uint32_t levels = 0;
};
absl::Status ExternalMemoryGetMappedMipmappedArray(HandleOut out, uint64_t external,
                                                   const ExternalMipmappedArrayDesc* desc);
absl::Status DestroyExternalMemory(uint64_t external);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_EXTERNAL_MEMORY_H_
