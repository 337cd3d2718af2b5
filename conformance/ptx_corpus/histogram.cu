// 64-bin histogram of bytes (value % 64): per-block counts in shared memory,
// then added to the global bins; also accumulates a float total.
extern "C" __global__ void histogram(const unsigned char* data, int n, unsigned* bins,
                                     float* total) {
  __shared__ unsigned local[64];
  for (int b = threadIdx.x; b < 64; b += blockDim.x) local[b] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&local[data[i] % 64], 1u);
    atomicAdd(total, (float)data[i]);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < 64; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}
