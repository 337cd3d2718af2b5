#include "core/context_params.h"

#include "core/context.h"
#include "core/status.h"

namespace streamhal {

absl::Status CreateContextWithParams(HandleOut out, const ContextCreateParams* params,
                                     unsigned flags, int device, const char* what) {
  if (params == nullptr) return CreateContext(out, flags, device);
  if (params->exec_affinity_count < 0) {
    return Error(ErrorCode::kInvalidValue, what, ": numExecAffinityParams is ",
                 params->exec_affinity_count);
  }
  if (params->exec_affinity_count > 0 && !params->has_exec_affinity) {
    return Error(ErrorCode::kInvalidValue, what, ": numExecAffinityParams is ",
                 params->exec_affinity_count, " but execAffinityParams is null");
  }
  const bool affinity = params->has_exec_affinity && params->exec_affinity_count > 0;
  // CUDA leaves both at once undefined; here it is a clean error.
  if (affinity && params->has_cig) {
    return Error(ErrorCode::kInvalidValue, what,
                 ": execution affinity and CIG parameters are mutually exclusive");
  }
  for (const ExecAffinity& entry : params->exec_affinity) {
    if (entry.type != kExecAffinitySmCount) {
      return Error(ErrorCode::kInvalidValue, what, ": unknown execution affinity type ",
                   entry.type);
    }
  }
  if (params->has_cig) {
    if (params->cig_data_type != kCigDataD3d12CommandQueue &&
        params->cig_data_type != kCigDataNvBlob) {
      return Error(ErrorCode::kInvalidValue, what, ": unknown CIG shared data type ",
                   params->cig_data_type);
    }
    if (!params->has_cig_data) {
      return Error(ErrorCode::kInvalidValue, what, ": cigParams->sharedData is null");
    }
    // CUDA: a CIG context on a device without CIG support is NOT_SUPPORTED.
    return Error(ErrorCode::kNotSupported, what,
                 ": CUDA-in-graphics contexts are not supported (streamhal shares no "
                 "graphics queue)");
  }
  if (affinity) {
    return Error(ErrorCode::kNotSupported, what,
                 ": execution affinity is not supported (a context uses the whole device)");
  }
  return CreateContext(out, flags, device);
}

}  // namespace streamhal
