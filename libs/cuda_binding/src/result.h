// The one mapping from core error codes to CUresult.
#ifndef STREAMHAL_CUDA_BINDING_RESULT_H_
#define STREAMHAL_CUDA_BINDING_RESULT_H_

#include <cuda.h>

#include "absl/status/status.h"
#include "core/status.h"

namespace streamhal::cuda {

CUresult ToCUresult(ErrorCode code);

// Maps a core status to CUresult and logs the message of an error at info
// level, so STREAMHAL_LOG_LEVEL=info shows why a call failed.
CUresult ToCUresult(const absl::Status& status);

}  // namespace streamhal::cuda

#endif  // STREAMHAL_CUDA_BINDING_RESULT_H_
