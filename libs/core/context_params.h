// cuCtxCreate_v3/_v4's creation parameters (CUctxCreateParams): execution
// affinity and CUDA-in-graphics (CIG) requests. streamhal has neither kind
// of context, so a request for one is validated and then answered
// kNotSupported; no request at all is an ordinary cuCtxCreate.
#ifndef STREAMHAL_CORE_CONTEXT_PARAMS_H_
#define STREAMHAL_CORE_CONTEXT_PARAMS_H_

#include <vector>

#include "absl/status/status.h"
#include "core/handle.h"

namespace streamhal {

// CUexecAffinityType values.
inline constexpr int kExecAffinitySmCount = 0;
// CUcigDataType values.
inline constexpr int kCigDataD3d12CommandQueue = 1;
inline constexpr int kCigDataNvBlob = 2;

struct ExecAffinity {
  int type = 0;
  unsigned value = 0;  // CU_EXEC_AFFINITY_TYPE_SM_COUNT: the SM count
};

// CUctxCreateParams as core sees it: the binding copies what the pointers
// point at and says which pointers were null.
struct ContextCreateParams {
  bool has_exec_affinity = false;  // execAffinityParams is not null
  int exec_affinity_count = 0;     // numExecAffinityParams
  std::vector<ExecAffinity> exec_affinity;
  bool has_cig = false;  // cigParams is not null
  int cig_data_type = 0;
  bool has_cig_data = false;  // cigParams->sharedData is not null
};

// cuCtxCreate_v4 (params null: no parameters). `what` names the entry point
// in messages.
absl::Status CreateContextWithParams(HandleOut out, const ContextCreateParams* params,
                                     unsigned flags, int device, const char* what);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_CONTEXT_PARAMS_H_
