// A grid-stride loop over unsigned ints: out[i] = in[i] * 3 + (i ^ 5).
extern "C" __global__ void grid_stride(const unsigned* in, unsigned* out, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i] = in[i] * 3u + (i ^ 5u);
  }
}
