/*
 * The built-in types of CUDA host code that driver-API programs include:
 * here, the vector types and dim3 of vector_types.h.
 *
 * NVIDIA's builtin_types.h also pulls in the runtime API's types
 * (cudaError_t, cudaChannelFormatDesc, ...); streamhal implements the
 * driver API only, so this header holds no runtime types. Types only; usable
 * from C and C++.
 */
#ifndef STREAMHAL_CUDA_BUILTIN_TYPES_H_
#define STREAMHAL_CUDA_BUILTIN_TYPES_H_

#include "vector_types.h"

#endif /* STREAMHAL_CUDA_BUILTIN_TYPES_H_ */
