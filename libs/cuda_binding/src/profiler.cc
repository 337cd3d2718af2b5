// Profiler control (cudaProfiler.h): nothing profiles streamhal, so starting
// and stopping succeed in a context and change nothing (core/profiler.h).
#include "core/profiler.h"

#include <cudaProfiler.h>

#include "result.h"

using streamhal::cuda::ToCUresult;

extern "C" {

CUresult cuProfilerStart(void) { return ToCUresult(streamhal::ProfilerControl()); }

CUresult cuProfilerStop(void) { return ToCUresult(streamhal::ProfilerControl()); }

}  // extern "C"
