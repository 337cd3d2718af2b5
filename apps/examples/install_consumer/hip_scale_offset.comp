// data[i] = data[i] * scale + offset for i < n. hip_checks.cc passes the
// parameters as one packed buffer (hipModuleLaunchKernel's `extra`). The
// pointer comes last, so the block has padding before it: the host struct
// mirrors it with natural C alignment.
#version 460
#extension GL_GOOGLE_include_directive : require
#define STREAMHAL_NO_DUNDER_NAMES  // syncthreads() below; no glslang warnings
#include "streamhal/kernel.glsl"

STREAMHAL_DECLARE_PTR(float);
layout(push_constant) uniform Params {
  uint n;          // offset 0
  float scale;     // offset 4
  float offset;    // offset 8
  float_ptr data;  // offset 16
} p;

void main() {
  const uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.data.v[i] = p.data.v[i] * p.scale + p.offset;
}
