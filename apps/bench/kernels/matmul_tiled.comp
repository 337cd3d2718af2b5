// C = A * B with 16x16 tiles in shared memory: the hand-written twin of the
// PTX corpus's matmul_tiled.cu (row-major, M x K times K x N; blockDim 16x16).
#version 460
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Floats { float v[]; };
layout(push_constant) uniform Params { Floats a; Floats b; Floats c; int m; int n; int k; } p;
const int kTile = 16;
shared float ta[kTile][kTile];
shared float tb[kTile][kTile];
void main() {
  const int tx = int(gl_LocalInvocationID.x), ty = int(gl_LocalInvocationID.y);
  const int row = int(gl_WorkGroupID.y) * kTile + ty;
  const int col = int(gl_WorkGroupID.x) * kTile + tx;
  float sum = 0.0;
  for (int t = 0; t < (p.k + kTile - 1) / kTile; ++t) {
    const int ak = t * kTile + tx, bk = t * kTile + ty;
    ta[ty][tx] = (row < p.m && ak < p.k) ? p.a.v[row * p.k + ak] : 0.0;
    tb[ty][tx] = (bk < p.k && col < p.n) ? p.b.v[bk * p.n + col] : 0.0;
    barrier();
    for (int i = 0; i < kTile; ++i) sum += ta[ty][i] * tb[i][tx];
    barrier();
  }
  if (row < p.m && col < p.n) p.c.v[row * p.n + col] = sum;
}
