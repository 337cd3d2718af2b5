// y[i] = a * x[i] + y[i] for i < n: the kernel of the consumer examples.
// Compiled ahead of time (streamhal_add_kernels, or glslangValidator in the
// Makefile) or handed to cuModuleLoad/hipModuleLoad as source, which compiles
// it at load time. Either way its entry point is "saxpy", after the file name.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"

STREAMHAL_DECLARE_PTR(float);
layout(push_constant) uniform Params {
  float_ptr x;
  float_ptr y;
  float a;
  uint n;
} p;

void main() {
  const uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.y.v[i] = p.a * p.x.v[i] + p.y.v[i];
}
