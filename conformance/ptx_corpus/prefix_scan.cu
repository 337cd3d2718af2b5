// Inclusive prefix sum of each block's 256 elements (Hillis-Steele, double
// buffered in shared memory) and the block's total in sums[blockIdx.x].
#define BLOCK 256
extern "C" __global__ void prefix_scan(const int* in, int* out, int* sums, int n) {
  __shared__ int buf[2][BLOCK];
  int t = threadIdx.x;
  int i = blockIdx.x * BLOCK + t;
  int from = 0;
  buf[0][t] = i < n ? in[i] : 0;
  __syncthreads();
  for (int offset = 1; offset < BLOCK; offset <<= 1) {
    int v = buf[from][t];
    if (t >= offset) v += buf[from][t - offset];
    buf[1 - from][t] = v;
    from = 1 - from;
    __syncthreads();
  }
  if (i < n) out[i] = buf[from][t];
  if (t == BLOCK - 1) sums[blockIdx.x] = buf[from][t];
}
