// sums[blockIdx.x] = the sum of the block's elements of src[0, n), as 32-bit
// unsigned integers (exact), reduced in dynamic shared memory. blockDim.x must
// be a power of two and the launch must pass blockDim.x * 4 bytes of dynamic
// shared memory.
#version 460
#extension GL_GOOGLE_include_directive : require
#define STREAMHAL_NO_DUNDER_NAMES  // syncthreads() below; no glslang warnings
#include "streamhal/kernel.glsl"

STREAMHAL_DECLARE_PTR(uint);
STREAMHAL_DYNAMIC_SHARED(uint, 4, scratch);
layout(push_constant) uniform Params {
  uint_ptr src;
  uint_ptr sums;
  uint n;
} p;

void main() {
  const uint tid = threadIdx.x;
  const uint i = blockIdx.x * blockDim.x + tid;
  scratch[tid] = i < p.n ? p.src.v[i] : 0u;
  syncthreads();
  for (uint half_size = blockDim.x / 2; half_size > 0; half_size /= 2) {
    if (tid < half_size) scratch[tid] += scratch[tid + half_size];
    syncthreads();
  }
  if (tid == 0) p.sums.v[blockIdx.x] = scratch[0];
}
