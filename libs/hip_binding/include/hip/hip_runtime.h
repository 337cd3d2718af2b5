/* Umbrella header for HIP host programs. Only the host API exists: streamhal
 * kernels are SPIR-V compute shaders loaded through the module API, so there
 * is no device-language support (__global__, threadIdx, <<<...>>>) here. */
#ifndef STREAMHAL_HIP_HIP_RUNTIME_H_
#define STREAMHAL_HIP_HIP_RUNTIME_H_

#include "hip/hip_runtime_api.h"
#include "hip/hip_version.h"

#endif /* STREAMHAL_HIP_HIP_RUNTIME_H_ */
