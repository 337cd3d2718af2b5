// redux.sync (compute_80 and up): integer sums, minima, maxima and bitwise
// reductions over each warp, half of whose lanes take part.
extern "C" __global__ void warp_redux(const int* in, int* out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = in[t];
  if ((threadIdx.x & 1) == 0) {
    const unsigned mask = 0x55555555u;
    out[t * 6 + 0] = __reduce_add_sync(mask, v);
    out[t * 6 + 1] = __reduce_min_sync(mask, v);
    out[t * 6 + 2] = __reduce_max_sync(mask, static_cast<unsigned>(v));
    out[t * 6 + 3] = __reduce_and_sync(mask, static_cast<unsigned>(v));
    out[t * 6 + 4] = __reduce_or_sync(mask, static_cast<unsigned>(v));
    out[t * 6 + 5] = __reduce_xor_sync(mask, static_cast<unsigned>(v));
  }
}
