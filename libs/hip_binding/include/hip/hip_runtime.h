/* Umbrella header for HIP host programs, including what AMD's
 * hip/hip_runtime.h includes: the C headers stdint.h, stdio.h, stdlib.h and
 * assert.h (and <thread> in C++), the runtime API, the vector, driver,
 * texture and library types, and the channel descriptors.
 *
 * Only the host API exists: streamhal kernels are SPIR-V compute shaders
 * loaded through the module API, so there is no device-language support
 * (__global__, threadIdx, <<<...>>>) here. */
#ifndef STREAMHAL_HIP_HIP_RUNTIME_H_
#define STREAMHAL_HIP_HIP_RUNTIME_H_

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef __cplusplus
#include <thread>
#endif

#include "hip/channel_descriptor.h"
#include "hip/driver_types.h"
#include "hip/hip_common.h"
#include "hip/hip_runtime_api.h"
#include "hip/hip_texture_types.h"
#include "hip/hip_vector_types.h"
#include "hip/hip_version.h"
#include "hip/library_types.h"

/* Host code names kernels and device variables by these; without a HIP
 * compiler they are the names themselves. */
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define HIP_SYMBOL(X) X

#endif /* STREAMHAL_HIP_HIP_RUNTIME_H_ */
