// Linked with link_call_b.cu by cuLink* (compiled with -rdc=true): defines
// the device function the other input calls.
__device__ __noinline__ int link_weight(int x, int y) { return x * 7 - y; }

// data[i] = link_weight(data[i], i).
extern "C" __global__ void link_call_a(int n, int* data) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = link_weight(data[i], i);
}
