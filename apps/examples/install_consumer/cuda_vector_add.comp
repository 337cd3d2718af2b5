// c[i] = a[i] + b[i] for i < n (cuda_checks.c, launched with kernelParams).
#version 460
#extension GL_GOOGLE_include_directive : require
#define STREAMHAL_NO_DUNDER_NAMES  // syncthreads() below; no glslang warnings
#include "streamhal/kernel.glsl"

STREAMHAL_DECLARE_PTR(float);
layout(push_constant) uniform Params {
  float_ptr a;
  float_ptr b;
  float_ptr c;
  uint n;
} p;

void main() {
  const uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.c.v[i] = p.a.v[i] + p.b.v[i];
}
