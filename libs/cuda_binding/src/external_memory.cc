// Memory of other APIs (cuImportExternalMemory, cuExternalMemoryGetMappedBuffer,
// cuExternalMemoryGetMappedMipmappedArray, cuDestroyExternalMemory);
// core/external_memory.h has the rules.
#include "core/external_memory.h"

#include <cuda.h>

#include "core/handle.h"
#include "result.h"

using streamhal::HandleOut;
using streamhal::HandleValue;
using streamhal::cuda::ToCUresult;
using streamhal::cuda::WriteOut;

extern "C" {

CUresult cuImportExternalMemory(CUexternalMemory* ext_mem_out,
                                const CUDA_EXTERNAL_MEMORY_HANDLE_DESC* desc) {
  streamhal::ExternalMemoryDesc core;
  if (desc != nullptr) core = streamhal::ToExternalMemoryDesc(*desc);
  return ToCUresult(
      streamhal::ImportExternalMemory(HandleOut(ext_mem_out), desc != nullptr ? &core : nullptr));
}

CUresult cuExternalMemoryGetMappedBuffer(CUdeviceptr* dev_ptr, CUexternalMemory ext_mem,
                                         const CUDA_EXTERNAL_MEMORY_BUFFER_DESC* desc) {
  uint64_t value = 0;
  if (desc == nullptr) {
    return ToCUresult(
        streamhal::ExternalMemoryGetMappedBuffer(nullptr, HandleValue(ext_mem), 0, 0, 0));
  }
  return WriteOut(streamhal::ExternalMemoryGetMappedBuffer(dev_ptr != nullptr ? &value : nullptr,
                                                           HandleValue(ext_mem), desc->offset,
                                                           desc->size, desc->flags),
                  dev_ptr, value);
}

CUresult cuExternalMemoryGetMappedMipmappedArray(
    CUmipmappedArray* mipmap, CUexternalMemory ext_mem,
    const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC* desc) {
  streamhal::ExternalMipmappedArrayDesc core;
  if (desc != nullptr) {
    core.offset = desc->offset;
    core.array.width = desc->arrayDesc.Width;
    core.array.height = desc->arrayDesc.Height;
    core.array.depth = desc->arrayDesc.Depth;
    core.array.format = static_cast<uint32_t>(desc->arrayDesc.Format);
    core.array.channels = desc->arrayDesc.NumChannels;
    core.array.flags = desc->arrayDesc.Flags;
    core.levels = desc->numLevels;
  }
  return ToCUresult(streamhal::ExternalMemoryGetMappedMipmappedArray(
      HandleOut(mipmap), HandleValue(ext_mem), desc != nullptr ? &core : nullptr));
}

CUresult cuDestroyExternalMemory(CUexternalMemory ext_mem) {
  return ToCUresult(streamhal::DestroyExternalMemory(HandleValue(ext_mem)));
}

}  // extern "C"
