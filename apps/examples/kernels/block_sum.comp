// Per-block sum of src[0, n) in dynamic shared memory: dst[blockIdx.x] is
// the sum of the block's elements. blockDim.x must be a power of two and the
// launch must pass blockDim.x * 4 bytes of dynamic shared memory.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"

STREAMHAL_DECLARE_PTR(float);
STREAMHAL_DYNAMIC_SHARED(float, 4, partial);
layout(push_constant) uniform Params {
  float_ptr src;
  float_ptr dst;
  uint n;
} p;

void main() {
  const uint tid = threadIdx.x;
  const uint i = blockIdx.x * blockDim.x + tid;
  partial[tid] = i < p.n ? p.src.v[i] : 0.0;
  syncthreads();
  for (uint stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    syncthreads();
  }
  if (tid == 0) p.dst.v[blockIdx.x] = partial[0];
}
