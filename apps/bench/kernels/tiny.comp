// The smallest useful kernel: one store through a device address.
#version 460
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Uints { uint v[]; };
layout(push_constant) uniform Params { Uints out_; uint value; } p;
void main() {
  if (gl_GlobalInvocationID.x == 0) p.out_.v[0] = p.value;
}
