// streamhal kernel prelude (kernel ABI v1): CUDA-style names for GLSL compute
// kernels. Use it right after #version, before any declaration, because the
// #extension lines below must precede the kernel's own code:
//
//   #version 460
//   #extension GL_GOOGLE_include_directive : require
//   #include "streamhal/kernel.glsl"
//
// The same text is compiled into the library, so kernels loaded as GLSL source
// at run time (cuModuleLoadData) can include it without any file on disk; a
// build compiling with glslangValidator passes -I<this folder's parent>.
//
// Optional switches, #define them before the #include:
//   STREAMHAL_LITERAL_WORKGROUP_SIZE  the kernel declares its own literal
//       layout(local_size_x = ...) in; such a kernel accepts only launches of
//       exactly that block size.
//   STREAMHAL_NO_DUNDER_NAMES  skip the "__"-spelled CUDA names
//       (__syncthreads, ...); syncthreads() and the other plain spellings are
//       always available. Not needed to silence glslang: the prelude defines
//       the "__" names without a warning (see below).
//
// A kernel that uses GL_EXT_spirv_intrinsics enables it after the #include:
// the prelude turns that extension off again once its "__" names are defined.
#ifndef STREAMHAL_KERNEL_GLSL_
#define STREAMHAL_KERNEL_GLSL_

// Device pointers are 64-bit buffer device addresses (kernel ABI v1).
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

// Block dimensions are specialization constants 0, 1, 2, set per launch.
#ifndef STREAMHAL_LITERAL_WORKGROUP_SIZE
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
#endif

// CUDA's built-in index variables, as uvec3 (use .x, .y, .z).
#define threadIdx gl_LocalInvocationID
#define blockIdx gl_WorkGroupID
#define blockDim gl_WorkGroupSize
// A grid larger than the device's dispatch limits is launched in pieces; the
// runtime rewrites the kernel so that gl_WorkGroupID and gl_NumWorkGroups
// describe the whole grid (docs/kernel-abi.md, "Grids"): blockIdx and
// gridDim are exact.
#define gridDim gl_NumWorkGroups

// __syncthreads: every thread of the block reaches the barrier, and memory
// writes (shared and global) made before it are visible to the block after
// it.
void syncthreads() {
  groupMemoryBarrier();
  barrier();
}
// __threadfence_block / __threadfence order memory without a barrier.
void threadfence_block() { groupMemoryBarrier(); }
void threadfence() { memoryBarrier(); }

#ifndef STREAMHAL_NO_DUNDER_NAMES
// GLSL reserves names containing "__" and glslang warns at each #define of
// one, except while GL_EXT_spirv_intrinsics is on (whose headers define such
// names). The extension is on for these three lines only, so it adds no
// keywords to the kernel; its only trace in the module is an
// OpSourceExtension debug instruction. A glslang without the extension
// (older than 11.6) still compiles the names, with the warnings.
#ifdef GL_EXT_spirv_intrinsics
#extension GL_EXT_spirv_intrinsics : enable
#endif
#define __syncthreads() syncthreads()
#define __threadfence_block() threadfence_block()
#define __threadfence() threadfence()
#ifdef GL_EXT_spirv_intrinsics
#extension GL_EXT_spirv_intrinsics : disable
#endif
#endif

// Typed device pointers. STREAMHAL_DECLARE_PTR(float); declares float_ptr, a
// buffer reference whose member v is the pointed-to array:
//
//   STREAMHAL_DECLARE_PTR(float);
//   layout(push_constant) uniform Params { float_ptr x; uint n; } p;
//   ... p.x.v[i] ...
//
// The alignment promised to the compiler is 4 bytes, which is safe for every
// 4- and 8-byte type; use STREAMHAL_DECLARE_PTR_ALIGNED for smaller types.
#define STREAMHAL_DECLARE_PTR_ALIGNED(T, ALIGN)                       \
  layout(buffer_reference, std430, buffer_reference_align = ALIGN) \
      buffer T##_ptr {                                                \
    T v[];                                                            \
  }
#define STREAMHAL_DECLARE_PTR(T) STREAMHAL_DECLARE_PTR_ALIGNED(T, 4)

// Dynamic shared memory (CUDA's extern __shared__). Specialization constant 3
// is the launch's dynamic shared memory size in bytes (kernel ABI v1). The
// launcher sets it to the launch's byte count rounded up to a multiple of 16,
// and at least 16, so the array below is never empty for element types up to
// 16 bytes; the default of 16 keeps the module valid before specialisation.
layout(constant_id = 3) const uint kStreamhalDynamicSharedBytes = 16;

// STREAMHAL_DYNAMIC_SHARED(float, 4, smem); declares shared float
// smem[bytes / 4]: ELEM_BYTES is the size of one T, which GLSL cannot compute.
// Declare at most one dynamic shared array per kernel; like CUDA's
// extern __shared__ it is the block's whole dynamic allocation.
#define STREAMHAL_DYNAMIC_SHARED(T, ELEM_BYTES, NAME) \
  shared T NAME[kStreamhalDynamicSharedBytes / (ELEM_BYTES)]

#endif  // STREAMHAL_KERNEL_GLSL_
