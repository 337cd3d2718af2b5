// Initialisation, version and error strings.
#include <cuda.h>

#include "core/c_enum.h"
#include "core/runtime.h"
#include "driver_version.h"
#include "error_strings.h"
#include "result.h"

using streamhal::cuda::ToCUresult;

extern "C" {

CUresult cuInit(unsigned int flags) { return ToCUresult(streamhal::Init(flags)); }

CUresult cuHALDeinit(void) { return ToCUresult(streamhal::Deinit()); }

CUresult cuDriverGetVersion(int* driver_version) {
  // Valid before cuInit, as in CUDA.
  if (driver_version == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *driver_version = streamhal::cuda::kDriverVersion;
  return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult error, const char** name) {
  if (name == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const char* text = streamhal::cuda::ResultName(streamhal::EnumArgument(error));
  *name = text;
  return text != nullptr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult error, const char** description) {
  if (description == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const char* text = streamhal::cuda::ResultString(streamhal::EnumArgument(error));
  *description = text;
  return text != nullptr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

}  // extern "C"
