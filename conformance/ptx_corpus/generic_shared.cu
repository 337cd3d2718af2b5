// Pointers that point at shared or global memory, chosen at run time: nvcc
// makes the shared address generic with cvta.shared and accesses both
// through generic ld/st (32-bit and 16-bit).
extern "C" __global__ void generic_shared(const int* in, int* out, int* scratch, int n) {
  __shared__ int tile[128];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  tile[t] = i < n ? in[i] : 0;
  __syncthreads();
  int v = tile[t];
  __syncthreads();
  // Even threads write a neighbour's shared slot, odd ones global scratch.
  volatile int* p = (t & 1) ? &scratch[i] : &tile[t ^ 2];
  *p = v * 3 + 1;
  __syncthreads();
  // The upper half of a word, in shared memory for threads with bit 1 set.
  short* h = (t & 2) ? (short*)&tile[t] : (short*)&scratch[i];
  h[1] = (short)(t - 100);
  __syncthreads();
  if (i < n) out[i] = tile[t] + (t & 1 ? p[0] : 0);
}
