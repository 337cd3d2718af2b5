// c[i] = a[i] + b[i]: the hand-written twin of the PTX corpus's vector_add
// (conformance/ptx_corpus/vector_add.cu), same parameters, for the
// translated-vs-GLSL kernel time figure.
#version 460
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Floats { float v[]; };
layout(push_constant) uniform Params { Floats a; Floats b; Floats c; int n; } p;
void main() {
  const int i = int(gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationID.x);
  if (i < p.n) p.c.v[i] = p.a.v[i] + p.b.v[i];
}
