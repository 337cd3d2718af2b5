// Linked with link_offset.cu by cuLink* (compiled with -rdc=true): defines
// the factor both inputs use.
__device__ int link_factor = 3;

// data[i] *= link_factor.
extern "C" __global__ void link_scale(int n, int* data) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= link_factor;
}
