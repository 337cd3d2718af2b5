// y[i] = a * x[i] + bias[i % 4] for i < n, where `bias` is a module global
// the host sets with hipMemcpyToSymbol.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"

STREAMHAL_DECLARE_PTR(float);
layout(set = 0, binding = 0, std430) buffer streamhal_globals {
  float bias[4];
} g;
layout(push_constant) uniform Params {
  float a;
  float_ptr x;
  float_ptr y;
  uint n;
} p;

void main() {
  const uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.y.v[i] = p.a * p.x.v[i] + g.bias[i % 4];
}
