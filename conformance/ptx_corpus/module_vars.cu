// Module-scope variables: a __constant__ table with an initialiser, a
// __device__ array the host fills through cuModuleGetGlobal, and a __device__
// counter the kernel updates atomically.
__constant__ float coeffs[4] = {0.5f, 1.5f, -2.0f, 4.0f};
__constant__ int offset_c = 7;
__device__ int lut[16];
__device__ unsigned int calls;

extern "C" __global__ void module_vars(const float* in, float* out, int* picked, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = in[i];
  out[i] = coeffs[0] + x * (coeffs[1] + x * (coeffs[2] + x * coeffs[i & 3]));
  picked[i] = lut[i & 15] + offset_c;
  atomicAdd(&calls, 1u);
}
