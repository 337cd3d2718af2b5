// Entry-point lookup: cuGetProcAddress (from the table generated from
// entry_points.tsv) and cuGetExportTable.
#include <cuda.h>

#include <cstddef>

#include "core/entry_points.h"
#include "driver_version.h"

namespace streamhal::cuda {
// Generated (cuda_entry_points.cc).
extern const StreamhalEntryPoint kEntryPoints[];
extern const size_t kEntryPointCount;
}  // namespace streamhal::cuda

extern "C" {

CUresult cuGetProcAddress(const char* symbol, void** pfn, int cudaVersion, cuuint64_t flags,
                          CUdriverProcAddressQueryResult* symbolStatus) {
  if (symbol == nullptr || pfn == nullptr) return CUDA_ERROR_INVALID_VALUE;
  // One of the three modes; CUDA: a version newer than the driver's is
  // invalid (cuDriverGetVersion reports kDriverVersion).
  if (flags != CU_GET_PROC_ADDRESS_DEFAULT && flags != CU_GET_PROC_ADDRESS_LEGACY_STREAM &&
      flags != CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  if (cudaVersion > streamhal::cuda::kDriverVersion) return CUDA_ERROR_INVALID_VALUE;
  // The default is the legacy stream: per-thread is a compile-time choice of
  // the caller, which only the runtime API's headers see.
  const streamhal::EntryPointLookup found = streamhal::LookUpEntryPoint(
      streamhal::cuda::kEntryPoints, streamhal::cuda::kEntryPointCount, symbol, cudaVersion,
      flags == CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM);
  CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  if (found.status == streamhal::EntryPointStatus::kFound) {
    status = CU_GET_PROC_ADDRESS_SUCCESS;
  } else if (found.status == streamhal::EntryPointStatus::kVersionNotSufficient) {
    status = CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
  }
  *pfn = reinterpret_cast<void*>(found.fn);
  if (symbolStatus != nullptr) *symbolStatus = status;
  return found.fn != nullptr ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

CUresult cuGetExportTable(const void** ppExportTable, const CUuuid* pExportTableId) {
  if (ppExportTable == nullptr || pExportTableId == nullptr) return CUDA_ERROR_INVALID_VALUE;
  // The tables are private interfaces of NVIDIA's runtime libraries; there
  // is none here to offer.
  *ppExportTable = nullptr;
  return CUDA_ERROR_NOT_SUPPORTED;
}

}  // extern "C"
