/*
 * streamhal's CUDA profiler control header (the declarations of NVIDIA's
 * cudaProfiler.h).
 *
 * No profiling tool attaches to streamhal: cuProfilerStart and cuProfilerStop
 * succeed in a context and change nothing; cuProfilerInitialize (which CUDA
 * 12 removed from this header and its library still exports) answers
 * CUDA_ERROR_NOT_SUPPORTED.
 *
 * Declarations only; usable from C and C++.
 */
#ifndef CUDAPROFILER_H
#define CUDAPROFILER_H

#include <cuda.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Output format of the deprecated command-line profiler. */
typedef enum CUoutput_mode_enum { CU_OUT_KEY_VALUE_PAIR = 0x00, CU_OUT_CSV = 0x01 } CUoutput_mode;

/* Profiler control. */
CUresult CUDAAPI cuProfilerInitialize(const char* configFile, const char* outputFile,
                                      CUoutput_mode outputMode);
CUresult CUDAAPI cuProfilerStart(void);
CUresult CUDAAPI cuProfilerStop(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CUDAPROFILER_H */
