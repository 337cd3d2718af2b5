// A per-thread array indexed at run time: nvcc keeps it in .local memory
// (__local_depot) and reaches it with ld.local/st.local.
extern "C" __global__ void local_array(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int stack[16];
  for (int k = 0; k < 16; ++k) stack[k] = in[i] * k + k;
  out[i] = stack[in[i] & 15] + stack[(in[i] >> 4) & 15];
}
