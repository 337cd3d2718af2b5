// Declares the factor link_scale.cu defines: only a link resolves it
// (compiled with -rdc=true; loaded alone it is an unresolved extern).
extern __device__ int link_factor;

// data[i] += 100 * link_factor.
extern "C" __global__ void link_offset(int n, int* data) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 100 * link_factor;
}

// Sets the factor that link_scale.cu's kernel reads.
extern "C" __global__ void link_set_factor(int factor) {
  if (blockIdx.x == 0 && threadIdx.x == 0) link_factor = factor;
}
