// out[i] = value for i < n.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
STREAMHAL_DECLARE_PTR(uint);
layout(push_constant) uniform Params { uint_ptr out_; uint value; uint n; } p;
void main() {
  const uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.out_.v[i] = p.value;
}
