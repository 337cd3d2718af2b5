/* AMD's extensions to the HIP API, as AMD's hip/hip_ext.h declares them:
 * hipExtLaunchKernel here, and through hip/hip_runtime.h every other hipExt*
 * function (hipExtModuleLaunchKernel, hipExtMallocWithFlags,
 * hipExtStreamCreateWithCUMask, ...), which AMD declares in
 * hip/hip_runtime_api.h. Valid C and C++; AMD's header is C++ only. */
#ifndef STREAMHAL_HIP_HIP_EXT_H_
#define STREAMHAL_HIP_HIP_EXT_H_

#include "hip/hip_runtime.h"

#ifdef __cplusplus
#include <cstdint>
#include <tuple>

extern "C" {
#endif

/* Launches ---------------------------------------------------------------- */

/* Launches a kernel registered by its host-side symbol (see hipLaunchKernel),
 * recording startEvent and stopEvent (either may be null) around it. */
hipError_t hipExtLaunchKernel(const void* function_address, dim3 numBlocks, dim3 dimBlocks,
                              void** args, size_t sharedMemBytes, hipStream_t stream,
                              hipEvent_t startEvent, hipEvent_t stopEvent, int flags);

#ifdef __cplusplus
} /* extern "C" */

/* hipExtLaunchKernel with the kernel's arguments given as values: each is
 * converted to the type of its parameter, as a call would convert it. Errors
 * are reported through hipGetLastError. */
template <typename... Params, typename... Args>
inline void hipExtLaunchKernelGGL(void (*kernel)(Params...), const dim3& numBlocks,
                                  const dim3& dimBlocks, std::uint32_t sharedMemBytes,
                                  hipStream_t stream, hipEvent_t startEvent, hipEvent_t stopEvent,
                                  std::uint32_t flags, Args... args) {
  static_assert(sizeof...(Params) == sizeof...(Args),
                "hipExtLaunchKernelGGL: the arguments do not match the kernel's parameters");
  std::tuple<Params...> values{static_cast<Params>(args)...};
  std::apply(
      [&](auto&... value) {
        void* pointers[] = {static_cast<void*>(&value)..., nullptr};
        (void)hipExtLaunchKernel(reinterpret_cast<const void*>(kernel), numBlocks, dimBlocks,
                                 pointers, sharedMemBytes, stream, startEvent, stopEvent,
                                 static_cast<int>(flags));
      },
      values);
}

#endif /* __cplusplus */

#endif /* STREAMHAL_HIP_HIP_EXT_H_ */
