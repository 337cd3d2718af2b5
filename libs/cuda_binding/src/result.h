// The one mapping from core error codes to CUresult.
#ifndef STREAMHAL_CUDA_BINDING_RESULT_H_
#define STREAMHAL_CUDA_BINDING_RESULT_H_

#include <cuda.h>

#include "absl/status/status.h"
#include "core/status.h"

namespace streamhal::cuda {

CUresult ToCUresult(ErrorCode code);

// An error status as CUresult, its message logged at info level, so
// STREAMHAL_LOG_LEVEL=info shows why a call failed.
CUresult ErrorToCUresult(const absl::Status& status);

// Maps a core status to CUresult; inline so that a successful call, the
// common case on the fast paths, costs no further call.
inline CUresult ToCUresult(const absl::Status& status) {
  return status.ok() ? CUDA_SUCCESS : ErrorToCUresult(status);
}

// Maps `status` and, on success, stores `value` in the caller's output
// (core works in uint64_t; the API type may differ, e.g. CUdeviceptr).
// `value` is taken by reference: it is read after the core call has filled
// it (a by-value parameter could be evaluated before the call runs).
template <typename Api, typename Core>
CUresult WriteOut(const absl::Status& status, Api* out, const Core& value) {
  if (status.ok() && out != nullptr) *out = static_cast<Api>(value);
  return ToCUresult(status);
}

}  // namespace streamhal::cuda

#endif  // STREAMHAL_CUDA_BINDING_RESULT_H_
