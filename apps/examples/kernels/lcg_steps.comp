// dst[i] = src[i] advanced `steps` times by a linear congruential generator
// (x -> x * 1664525 + 1013904223, mod 2^32) for i < n. Deterministic and
// exact, so the host can check it, and as slow as `steps` makes it. src and
// dst may be the same buffer.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"

STREAMHAL_DECLARE_PTR(uint);
layout(push_constant) uniform Params {
  uint_ptr src;
  uint_ptr dst;
  uint n;
  uint steps;
} p;

void main() {
  const uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n) return;
  uint x = p.src.v[i];
  for (uint k = 0; k < p.steps; ++k) x = x * 1664525u + 1013904223u;
  p.dst.v[i] = x;
}
