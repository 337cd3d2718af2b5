// A compute-bound kernel: each thread runs `iterations` steps of a linear
// congruential generator and stores the result. llvmpipe stops any one
// invocation's loops after 65,535 iterations in all, so keep it below that.
#version 460
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Uints { uint v[]; };
layout(push_constant) uniform Params { Uints out_; uint iterations; } p;
void main() {
  const uint id = gl_GlobalInvocationID.x;
  uint x = id;
  for (uint i = 0; i < p.iterations; ++i) x = x * 1664525u + 1013904223u;
  p.out_.v[id] = x;
}
