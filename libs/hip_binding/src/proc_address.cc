// hipGetProcAddress, from the table generated from the HIP headers
// (hip_entry_points.c; libs/cuda_binding/gen_entry_points.py).
#include <hip/hip_runtime_api.h>

#include <cstddef>

#include "core/entry_points.h"
#include "core/status.h"
#include "result.h"

extern "C" {
extern const StreamhalEntryPoint kStreamhalHipEntryPoints[];
extern const size_t kStreamhalHipEntryPointCount;
}

using streamhal::ErrorCode;
using streamhal::hip::ToHipError;

extern "C" {

// As AMD's: every exported function answers under its plain name whatever
// the version asked for; an unknown name is hipErrorInvalidValue with
// HIP_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND. There are no _spt variants, so the
// per-thread flag finds the plain functions too.
hipError_t hipGetProcAddress(const char* symbol, void** pfn, int hipVersion, uint64_t flags,
                             hipDriverProcAddressQueryResult* symbolStatus) {
  (void)hipVersion;
  if (symbol == nullptr || symbol[0] == '\0' || pfn == nullptr) {
    return ToHipError(streamhal::Error(ErrorCode::kInvalidValue,
                                       "hipGetProcAddress: symbol or pfn is null or empty"));
  }
  if (flags != HIP_GET_PROC_ADDRESS_DEFAULT && flags != HIP_GET_PROC_ADDRESS_LEGACY_STREAM &&
      flags != HIP_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) {
    return ToHipError(streamhal::Error(ErrorCode::kInvalidValue, "hipGetProcAddress: flags ", flags,
                                       " are not a HIP_GET_PROC_ADDRESS_* mode"));
  }
  const streamhal::EntryPointLookup found =
      streamhal::LookUpEntryPoint(kStreamhalHipEntryPoints, kStreamhalHipEntryPointCount, symbol,
                                  /*version=*/0, /*per_thread=*/false);
  *pfn = reinterpret_cast<void*>(found.fn);
  if (found.fn == nullptr) {
    if (symbolStatus != nullptr) *symbolStatus = HIP_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    return ToHipError(
        streamhal::Error(ErrorCode::kInvalidValue, "hipGetProcAddress: no function ", symbol));
  }
  if (symbolStatus != nullptr) *symbolStatus = HIP_GET_PROC_ADDRESS_SUCCESS;
  return hipSuccess;
}

}  // extern "C"
