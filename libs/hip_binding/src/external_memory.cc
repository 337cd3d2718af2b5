// Memory of other APIs (hipImportExternalMemory, hipExternalMemoryGetMappedBuffer,
// hipExternalMemoryGetMappedMipmappedArray, hipDestroyExternalMemory);
// core/external_memory.h has the rules.
#include "core/external_memory.h"

#include <hip/hip_runtime_api.h>

#include "call.h"
#include "channel_format.h"
#include "core/handle.h"
#include "core/status.h"

using streamhal::HandleOut;
using streamhal::HandleValue;
using streamhal::hip::FromChannelDesc;
using streamhal::hip::RuntimeCall;

extern "C" {

hipError_t hipImportExternalMemory(hipExternalMemory_t* ext_mem_out,
                                   const hipExternalMemoryHandleDesc* desc) {
  return RuntimeCall([&] {
    streamhal::ExternalMemoryDesc core;
    if (desc != nullptr) core = streamhal::ToExternalMemoryDesc(*desc);
    return streamhal::ImportExternalMemory(HandleOut(ext_mem_out),
                                           desc != nullptr ? &core : nullptr);
  });
}

hipError_t hipExternalMemoryGetMappedBuffer(void** dev_ptr, hipExternalMemory_t ext_mem,
                                            const hipExternalMemoryBufferDesc* desc) {
  return RuntimeCall([&] {
    if (desc == nullptr) {
      return streamhal::ExternalMemoryGetMappedBuffer(nullptr, HandleValue(ext_mem), 0, 0, 0);
    }
    uint64_t value = 0;
    absl::Status status = streamhal::ExternalMemoryGetMappedBuffer(
        dev_ptr != nullptr ? &value : nullptr, HandleValue(ext_mem), desc->offset, desc->size,
        desc->flags);
    if (status.ok()) *dev_ptr = reinterpret_cast<void*>(static_cast<uintptr_t>(value));
    return status;
  });
}

hipError_t hipExternalMemoryGetMappedMipmappedArray(
    hipMipmappedArray_t* mipmap, hipExternalMemory_t ext_mem,
    const hipExternalMemoryMipmappedArrayDesc* desc) {
  return RuntimeCall([&]() -> absl::Status {
    if (desc == nullptr) {
      return streamhal::ExternalMemoryGetMappedMipmappedArray(HandleOut(mipmap),
                                                              HandleValue(ext_mem), nullptr);
    }
    streamhal::ExternalMipmappedArrayDesc core;
    SH_RETURN_IF_ERROR(FromChannelDesc(&desc->formatDesc, &core.array));
    core.offset = desc->offset;
    core.array.width = desc->extent.width;
    core.array.height = desc->extent.height;
    core.array.depth = desc->extent.depth;
    core.array.flags = desc->flags;
    core.levels = desc->numLevels;
    return streamhal::ExternalMemoryGetMappedMipmappedArray(HandleOut(mipmap), HandleValue(ext_mem),
                                                            &core);
  });
}

hipError_t hipDestroyExternalMemory(hipExternalMemory_t ext_mem) {
  return RuntimeCall([&] { return streamhal::DestroyExternalMemory(HandleValue(ext_mem)); });
}

}  // extern "C"
