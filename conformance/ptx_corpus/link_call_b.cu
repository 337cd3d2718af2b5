// Calls a device function that link_call_a.cu defines: only a link resolves
// it (compiled with -rdc=true; loaded alone the call has no definition).
extern __device__ int link_weight(int x, int y);

// data[i] = link_weight(data[i] + 1, 2 * i) for odd data[i], else unchanged.
extern "C" __global__ void link_call_b(int n, int* data) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (data[i] & 1)) data[i] = link_weight(data[i] + 1, 2 * i);
}
