// Resizes an image: each thread samples the source texture (bilinear,
// normalised coordinates) at its output pixel's centre and writes the value
// through the destination surface (kernel ABI v2: texture and surface
// parameters, docs/kernel-abi.md).
#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"

layout(set = 2, binding = 0) uniform sampler2D src;        // parameter 0
layout(set = 2, binding = 1, r32f) uniform image2D dst;    // parameter 1
layout(push_constant) uniform Params {
  uint64_t src;  // CUtexObject
  uint64_t dst;  // CUsurfObject
  uint width;    // of dst
  uint height;
} p;

void main() {
  const uint x = blockIdx.x * blockDim.x + threadIdx.x;
  const uint y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= p.width || y >= p.height) return;
  const float u = (float(x) + 0.5) / float(p.width);
  const float v = (float(y) + 0.5) / float(p.height);
  surf2Dwrite(tex2D(src, u, v), dst, x, y);
}
