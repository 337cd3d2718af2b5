/* In C an int converts to an enum parameter and keeps its value. */
#include "result_names.h"

#include <cuda.h>
#include <hip/hip_runtime_api.h>
#include <stddef.h>

const char* SweepCudaErrorName(int code) {
  const char* name = NULL;
  return cuGetErrorName(code, &name) == CUDA_SUCCESS ? name : NULL;
}

const char* SweepHipErrorName(int code) { return hipGetErrorName(code); }
