// Reverses each block's slice through dynamic shared memory (extern __shared__).
extern "C" __global__ void dyn_reverse(const int* in, int* out) {
  extern __shared__ int buf[];
  unsigned t = threadIdx.x;
  unsigned base = blockIdx.x * blockDim.x;
  buf[t] = in[base + t];
  __syncthreads();
  out[base + t] = buf[blockDim.x - 1 - t];
}
