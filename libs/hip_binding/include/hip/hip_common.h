/* Definitions every HIP header starts from, under AMD's names: the symbol
 * visibility macros and the __HIP_ARCH_HAS_* feature tests.
 *
 * streamhal compiles only host code (kernels are SPIR-V loaded through the
 * module API), so every device feature test reads 0, as it does in the host
 * pass of AMD's compiler. The platform macros (__HIP_PLATFORM_AMD__,
 * __HIP_PLATFORM_NVIDIA__) are neither defined nor read here: the headers mean
 * the same with either or neither. */
#ifndef STREAMHAL_HIP_HIP_COMMON_H_
#define STREAMHAL_HIP_HIP_COMMON_H_

#if defined(__GNUC__) || defined(__clang__)
#define HIP_PUBLIC_API __attribute__((visibility("default")))
#define HIP_INTERNAL_EXPORTED_API __attribute__((visibility("default")))
#else
#define HIP_PUBLIC_API
#define HIP_INTERNAL_EXPORTED_API
#endif

/* Device features as a host compilation sees them. */
#define __HIP_ARCH_HAS_GLOBAL_INT32_ATOMICS__ (0)
#define __HIP_ARCH_HAS_GLOBAL_FLOAT_ATOMIC_EXCH__ (0)
#define __HIP_ARCH_HAS_SHARED_INT32_ATOMICS__ (0)
#define __HIP_ARCH_HAS_SHARED_FLOAT_ATOMIC_EXCH__ (0)
#define __HIP_ARCH_HAS_FLOAT_ATOMIC_ADD__ (0)
#define __HIP_ARCH_HAS_GLOBAL_INT64_ATOMICS__ (0)
#define __HIP_ARCH_HAS_SHARED_INT64_ATOMICS__ (0)
#define __HIP_ARCH_HAS_DOUBLES__ (0)
#define __HIP_ARCH_HAS_WARP_VOTE__ (0)
#define __HIP_ARCH_HAS_WARP_BALLOT__ (0)
#define __HIP_ARCH_HAS_WARP_SHUFFLE__ (0)
#define __HIP_ARCH_HAS_WARP_FUNNEL_SHIFT__ (0)
#define __HIP_ARCH_HAS_THREAD_FENCE_SYSTEM__ (0)
#define __HIP_ARCH_HAS_SYNC_THREAD_EXT__ (0)
#define __HIP_ARCH_HAS_SURFACE_FUNCS__ (0)
#define __HIP_ARCH_HAS_3DGRID__ (0)
#define __HIP_ARCH_HAS_DYNAMIC_PARALLEL__ (0)

#endif /* STREAMHAL_HIP_HIP_COMMON_H_ */
