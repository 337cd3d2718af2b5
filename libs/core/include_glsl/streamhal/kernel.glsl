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

// Grid-wide barrier (CUDA's cooperative_groups grid.sync()) for kernels
// launched cooperatively (cuLaunchCooperativeKernel, kernel ABI v2): every
// block of the grid reaches grid_sync() before any block passes it, and
// memory writes made before it are visible to the whole grid after it. Call
// it from every thread of every block, in uniform control flow, as often as
// needed. It returns true when the grid passed; false when the launch was not
// cooperative (nothing waits then) or a block gave up waiting (below).
//
// The runtime zeroes four words for each cooperative launch and gives their
// address as specialization constants 4 (low bits) and 5 (high bits); other
// launches leave them 0. Words: arrivals of this round, the round
// (generation), and a gave-up flag. One thread of each block arrives for it
// and, unless it is the last, polls the generation; which thread polls
// rotates with the round, so that the polling of many rounds is spread over
// the block's threads (llvmpipe ends an invocation's loops after 65,535
// iterations in all). Polling is bounded (STREAMHAL_GRID_SYNC_POLLS polls of
// 128 reads): a block that runs out sets the gave-up flag, and every later
// grid_sync() of the launch returns false at once: a kernel fails, it never
// hangs. Data the grid shares through grid_sync() should be declared
// coherent.
#ifndef STREAMHAL_GRID_SYNC_POLLS
#define STREAMHAL_GRID_SYNC_POLLS 16000
#endif
layout(constant_id = 4) const uint kStreamhalGridBarrierLow = 0;
layout(constant_id = 5) const uint kStreamhalGridBarrierHigh = 0;
layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer streamhal_grid_barrier {
  uint arrived;
  uint generation;
  uint gave_up;
};

bool grid_is_valid() {
  return kStreamhalGridBarrierLow != 0u || kStreamhalGridBarrierHigh != 0u;
}

// Four reads of the round; a poll is 32 of these (128 reads, about 0.16 s
// for the default bound on lavapipe), so that the bound outlasts a loaded
// machine's scheduling delays while a poll counts one loop iteration.
#define STREAMHAL_GRID_POLL4                          \
  if (atomicAdd(b.generation, 0u) != seen) break; \
  if (atomicAdd(b.generation, 0u) != seen) break; \
  if (atomicAdd(b.generation, 0u) != seen) break; \
  if (atomicAdd(b.generation, 0u) != seen) break;
#define STREAMHAL_GRID_POLL16 \
  STREAMHAL_GRID_POLL4 STREAMHAL_GRID_POLL4 STREAMHAL_GRID_POLL4 STREAMHAL_GRID_POLL4

bool grid_sync() {
  if (!grid_is_valid()) return false;  // uniform: a specialization constant
  streamhal_grid_barrier b = streamhal_grid_barrier(
      packUint2x32(uvec2(kStreamhalGridBarrierLow, kStreamhalGridBarrierHigh)));
  // The block's writes are done, and every thread reads the round before
  // the block arrives: the round cannot change until then.
  memoryBarrier();
  barrier();
  uint seen = atomicAdd(b.generation, 0u);
  barrier();
  uint threads = gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z;
  if (gl_LocalInvocationIndex == seen % threads && atomicAdd(b.gave_up, 0u) == 0u) {
    uint blocks = gl_NumWorkGroups.x * gl_NumWorkGroups.y * gl_NumWorkGroups.z;
    if (atomicAdd(b.arrived, 1u) == blocks - 1u) {
      // The last block: reset the count before opening the next round.
      atomicExchange(b.arrived, 0u);
      memoryBarrier();
      atomicAdd(b.generation, 1u);
    } else {
      for (uint polls = 0u; polls < STREAMHAL_GRID_SYNC_POLLS; ++polls) {
        STREAMHAL_GRID_POLL16 STREAMHAL_GRID_POLL16 STREAMHAL_GRID_POLL16 STREAMHAL_GRID_POLL16
        STREAMHAL_GRID_POLL16 STREAMHAL_GRID_POLL16 STREAMHAL_GRID_POLL16 STREAMHAL_GRID_POLL16
        if (atomicAdd(b.gave_up, 0u) != 0u) break;
      }
      // Checked after the loop, not trusted from it: llvmpipe may end a loop
      // early (its iteration limit), which must read as giving up.
      if (atomicAdd(b.generation, 0u) == seen) atomicExchange(b.gave_up, 1u);
    }
  }
  memoryBarrier();
  barrier();
  return atomicAdd(b.gave_up, 0u) == 0u;
}
#undef STREAMHAL_GRID_POLL16
#undef STREAMHAL_GRID_POLL4

// Textures and surfaces (kernel ABI v2). A texture or surface parameter is
// two declarations with one index i: parameter i of the push-constant block
// is a uint64_t (the CUtexObject/CUsurfObject the host passes), and the
// descriptor at set 2, binding i is what the kernel reads:
//
//   layout(set = 2, binding = 0) uniform sampler2D tex;   // textures
//   layout(set = 2, binding = 1, r32f) uniform image2D surf;  // surfaces
//   layout(push_constant) uniform Params { uint64_t tex; uint64_t surf; ... } p;
//
// A texture over linear memory is a samplerBuffer (isamplerBuffer,
// usamplerBuffer), read with tex1Dfetch.
// A texture or surface reference (cuModuleGetTexRef, cuModuleGetSurfRef) is
// a binding of 1024 or more with no parameter, named by its variable:
//
//   layout(set = 2, binding = 1024) uniform sampler2D image_ref;
// Use isampler/usampler (iimage/uimage) for integer texels read as integers
// (CU_TRSF_READ_AS_INTEGER, 32-bit integers), sampler (image) otherwise.
// The helpers below take the sampler or image variable, not the handle.
// Coordinates are as CUDA's: texel units unless the texture object has
// normalised coordinates (the runtime sets the sampler accordingly), a
// texel's centre at i + 0.5. Surface coordinates are in elements (CUDA's
// surf*D functions take x in bytes; GLSL cannot know the element size).
#define tex1Dfetch(t, i) texelFetch(t, int(i))
#define tex1D(t, x) textureLod(t, float(x), 0.0)
#define tex2D(t, x, y) textureLod(t, vec2(x, y), 0.0)
#define tex3D(t, x, y, z) textureLod(t, vec3(x, y, z), 0.0)
#define tex1DLayered(t, x, layer) textureLod(t, vec2(x, float(layer)), 0.0)
#define tex2DLayered(t, x, y, layer) textureLod(t, vec3(x, y, float(layer)), 0.0)
#define texCubemap(t, x, y, z) textureLod(t, vec3(x, y, z), 0.0)
#define tex2Dgather(t, x, y, comp) textureGather(t, vec2(x, y), comp)
// Mipmapped textures: an explicit level (CUDA's tex*Lod; the plain forms
// above read level 0), or gradients that pick it (tex*Grad; CUDA's float2 /
// float4 gradients, of which the first 1, 2 or 3 components count). The
// texture object's level bias and clamps apply to both.
#define tex1DLod(t, x, level) textureLod(t, float(x), float(level))
#define tex2DLod(t, x, y, level) textureLod(t, vec2(x, y), float(level))
#define tex3DLod(t, x, y, z, level) textureLod(t, vec3(x, y, z), float(level))
#define tex1DLayeredLod(t, x, layer, level) textureLod(t, vec2(x, float(layer)), float(level))
#define tex2DLayeredLod(t, x, y, layer, level) \
  textureLod(t, vec3(x, y, float(layer)), float(level))
#define texCubemapLod(t, x, y, z, level) textureLod(t, vec3(x, y, z), float(level))
#define tex1DGrad(t, x, dx, dy) textureGrad(t, float(x), float(dx), float(dy))
#define tex2DGrad(t, x, y, dx, dy) textureGrad(t, vec2(x, y), vec2(dx), vec2(dy))
#define tex3DGrad(t, x, y, z, dx, dy) textureGrad(t, vec3(x, y, z), vec3(dx), vec3(dy))
#define surf1Dread(s, x) imageLoad(s, int(x))
#define surf2Dread(s, x, y) imageLoad(s, ivec2(x, y))
#define surf3Dread(s, x, y, z) imageLoad(s, ivec3(x, y, z))
#define surf2DLayeredread(s, x, y, layer) imageLoad(s, ivec3(x, y, layer))
#define surf1Dwrite(v, s, x) imageStore(s, int(x), v)
#define surf2Dwrite(v, s, x, y) imageStore(s, ivec2(x, y), v)
#define surf3Dwrite(v, s, x, y, z) imageStore(s, ivec3(x, y, z), v)
#define surf2DLayeredwrite(v, s, x, y, layer) imageStore(s, ivec3(x, y, layer), v)

#endif  // STREAMHAL_KERNEL_GLSL_
