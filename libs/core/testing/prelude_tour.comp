// Uses every name the GLSL prelude (include_glsl/streamhal/kernel.glsl)
// defines. Compiled by ctest with glslangValidator, as streamhal_add_kernels
// does, and by glsl_compiler_test.cc with the runtime compiler: both must
// print no warning, since every user kernel includes the prelude.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
STREAMHAL_DECLARE_PTR(uint);
STREAMHAL_DECLARE_PTR_ALIGNED(uint64_t, 8);
STREAMHAL_DYNAMIC_SHARED(uint, 4, scratch);
layout(push_constant) uniform Params { uint_ptr out_; uint64_t_ptr wide; } p;
void main() {
  scratch[threadIdx.x % scratch.length()] = threadIdx.x;
  __syncthreads();
  __threadfence_block();
  __threadfence();
  syncthreads();
  threadfence_block();
  threadfence();
  const uint block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  p.out_.v[block * blockDim.x + threadIdx.x] = scratch[0];
  p.wide.v[0] = uint64_t(block);
}
