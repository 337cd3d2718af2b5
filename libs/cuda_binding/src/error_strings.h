// Spelling and NVIDIA's description of every CUresult enumerator; the data
// behind cuGetErrorName and cuGetErrorString.
#ifndef STREAMHAL_CUDA_BINDING_SRC_ERROR_STRINGS_H_
#define STREAMHAL_CUDA_BINDING_SRC_ERROR_STRINGS_H_

#include <cuda.h>

namespace streamhal::cuda {

// `r` is an int: cuGetErrorName's caller may pass any number (see
// core/c_enum.h).

// The enumerator's spelling, e.g. "CUDA_ERROR_INVALID_VALUE". Returns nullptr
// when `r` is not a CUresult enumerator (CUDA: cuGetErrorName then reports
// CUDA_ERROR_INVALID_VALUE).
const char* ResultName(int r);

// The description NVIDIA's cuGetErrorString gives, e.g. "invalid argument"
// for CUDA_ERROR_INVALID_VALUE. Returns nullptr when `r` is not a CUresult
// enumerator (cuGetErrorString then reports CUDA_ERROR_INVALID_VALUE).
const char* ResultString(int r);

}  // namespace streamhal::cuda

#endif  // STREAMHAL_CUDA_BINDING_SRC_ERROR_STRINGS_H_
