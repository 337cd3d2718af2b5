// Per-block sum of 256 floats in shared memory: the hand-written twin of the
// PTX corpus's block_reduce.cu. blockDim.x must be 256.
#version 460
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Floats { float v[]; };
layout(push_constant) uniform Params { Floats in_; Floats partial; int n; } p;
shared float s[256];
void main() {
  const uint t = gl_LocalInvocationID.x;
  const uint i = gl_WorkGroupID.x * gl_WorkGroupSize.x + t;
  s[t] = i < uint(p.n) ? p.in_.v[i] : 0.0;
  barrier();
  for (uint stride = gl_WorkGroupSize.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    barrier();
  }
  if (t == 0) p.partial.v[gl_WorkGroupID.x] = s[0];
}
