// The one mapping from core error codes to hipError_t, and HIP's per-thread
// last error.
#ifndef STREAMHAL_HIP_BINDING_RESULT_H_
#define STREAMHAL_HIP_BINDING_RESULT_H_

#include <hip/hip_runtime_api.h>

#include "absl/status/status.h"
#include "core/status.h"

namespace streamhal::hip {

hipError_t ToHipError(ErrorCode code);

// Maps a core status to hipError_t, logs an error's message at info level
// and records it as this thread's last error (HIP: every call that fails
// sets the value hipGetLastError returns).
hipError_t ToHipError(const absl::Status& status);

// HIP's per-thread last error: hipGetLastError returns and clears it,
// hipPeekAtLastError only returns it.
hipError_t TakeLastError();
hipError_t PeekLastError();
// hipExtGetLastError: the result of the latest call that went through
// ToHipError, success included; returns it and resets it to hipSuccess.
hipError_t TakeLastResult();

}  // namespace streamhal::hip

#endif  // STREAMHAL_HIP_BINDING_RESULT_H_
