/* Umbrella header for HIP host programs, including what AMD's
 * hip/hip_runtime.h includes: the C headers stdint.h, stdio.h, stdlib.h and
 * assert.h (and <thread> in C++), the runtime API, the vector, driver,
 * texture and library types, and the channel descriptors.
 *
 * Only the host API exists: streamhal kernels are SPIR-V compute shaders,
 * so there is no device-language support (__global__, threadIdx, <<<...>>>)
 * here. Kernels are loaded through the module API, or registered at start-up
 * with typed host stubs (streamhal_add_kernels(... EMBED), streamhal-pack
 * --embed) and launched with hipLaunchKernel or hipLaunchKernelGGL. */
#ifndef STREAMHAL_HIP_HIP_RUNTIME_H_
#define STREAMHAL_HIP_HIP_RUNTIME_H_

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef __cplusplus
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
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

/* hipLaunchKernelGGL needs C++17 (fold expressions, std::apply). */
#if defined(__cplusplus) && __cplusplus >= 201703L && !defined(__HIP_DISABLE_CPP_FUNCTIONS__)
namespace streamhal_hip_detail {
/* hipLaunchKernelGGL(kernel, grid, block, sharedMemBytes, stream, args...):
 * `kernel` is a registered host stub (a function whose parameter list is the
 * kernel's); each argument must convert to its parameter's type, and is
 * passed as that type through hipLaunchKernel. As on AMD, the result is
 * left for hipGetLastError. */
template <typename... Params, typename... Args>
inline void LaunchKernelGGL(void (*kernel)(Params...), const dim3& grid, const dim3& block,
                            uint32_t shared_mem_bytes, hipStream_t stream, Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args),
                "hipLaunchKernelGGL: the number of arguments differs from the kernel's parameters");
  static_assert((std::is_convertible<Args&&, Params>::value && ... && true),
                "hipLaunchKernelGGL: an argument does not convert to its parameter's type");
  std::tuple<typename std::decay<Params>::type...> values(
      static_cast<Params>(std::forward<Args>(args))...);
  std::apply(
      [&](auto&... value) {
        void* pointers[sizeof...(Params) + 1] = {static_cast<void*>(&value)..., nullptr};
        (void)hipLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, pointers,
                              shared_mem_bytes, stream);
      },
      values);
}
}  // namespace streamhal_hip_detail

#define hipLaunchKernelGGL(kernelName, ...) \
  ::streamhal_hip_detail::LaunchKernelGGL((kernelName), __VA_ARGS__)
#endif

#endif /* STREAMHAL_HIP_HIP_RUNTIME_H_ */
