// Profiler control (cuProfilerStart, cuProfilerStop). No profiling tool
// attaches to streamhal, so there is nothing to start or stop: CUDA
// documents both as having no effect when collection is already in the
// state asked for, and as needing a current context (kInvalidContext).
#ifndef STREAMHAL_CORE_PROFILER_H_
#define STREAMHAL_CORE_PROFILER_H_

#include "absl/status/status.h"

namespace streamhal {

absl::Status ProfilerControl();

}  // namespace streamhal

#endif  // STREAMHAL_CORE_PROFILER_H_
