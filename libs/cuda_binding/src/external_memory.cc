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

CUresult cuExternalMemoryGetMappedMipmappedArray(CUmipmappedArray*, CUexternalMemory ext_mem,
                                                 const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC*) {
  return ToCUresult(streamhal::ExternalMemoryGetMappedMipmappedArray(HandleValue(ext_mem)));
}

CUresult cuDestroyExternalMemory(CUexternalMemory ext_mem) {
  return ToCUresult(streamhal::DestroyExternalMemory(HandleValue(ext_mem)));
}

}  // extern "C"
