// data[i] = data[i] * scale + offset for i < n. cuda_checks.c passes the
// parameters as one packed buffer (cuLaunchKernel's `extra`), laid out as
// this block declares them.
#version 460
#extension GL_GOOGLE_include_directive : require
#define STREAMHAL_NO_DUNDER_NAMES  // syncthreads() below; no glslang warnings
#include "streamhal/kernel.glsl"

STREAMHAL_DECLARE_PTR(float);
layout(push_constant) uniform Params {
  float_ptr data;  // offset 0
  float scale;     // offset 8
  float offset;    // offset 12
  uint n;          // offset 16
} p;

void main() {
  const uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.data.v[i] = p.data.v[i] * p.scale + p.offset;
}
