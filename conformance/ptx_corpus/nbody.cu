// One N-body step's accelerations: body i sums softened inverse-square pulls
// of all n bodies (float4: position and mass) with rsqrtf, tiling the bodies
// through shared memory one block at a time.
extern "C" __global__ void nbody(const float4* bodies, float3* accel, int n, float softening) {
  extern __shared__ float4 tile[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 me = i < n ? bodies[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  float3 a = make_float3(0.0f, 0.0f, 0.0f);
  for (int start = 0; start < n; start += blockDim.x) {
    int j = start + threadIdx.x;
    tile[threadIdx.x] = j < n ? bodies[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    __syncthreads();
    for (int k = 0; k < blockDim.x; ++k) {
      float4 other = tile[k];
      float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
      float inv = rsqrtf(dx * dx + dy * dy + dz * dz + softening);
      float s = other.w * inv * inv * inv;
      a.x += dx * s;
      a.y += dy * s;
      a.z += dz * s;
    }
    __syncthreads();
  }
  if (i < n) accel[i] = a;
}
