// out[i] = x[i] + y[i] for i < n (hip_checks.cc, launched with kernelParams).
#version 460
#extension GL_GOOGLE_include_directive : require
#define STREAMHAL_NO_DUNDER_NAMES  // syncthreads() below; no glslang warnings
#include "streamhal/kernel.glsl"

STREAMHAL_DECLARE_PTR(float);
layout(push_constant) uniform Params {
  float_ptr x;
  float_ptr y;
  float_ptr out_;
  uint n;
} p;

void main() {
  const uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.out_.v[i] = p.x.v[i] + p.y.v[i];
}
