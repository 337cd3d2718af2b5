// Block sum in two stages of warp shuffles: each warp reduces its 32 values
// with __shfl_down_sync, lane 0 of each warp stores the warp's sum, then warp
// 0 alone (`if (warp == 0)`) reduces the per-warp sums. One sum per block.
__device__ __forceinline__ float WarpSum(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

extern "C" __global__ void warp_reduce(const float* in, float* partial, int n) {
  __shared__ float warp_sums[32];
  const unsigned t = threadIdx.x;
  const unsigned i = blockIdx.x * blockDim.x + t;
  const unsigned lane = t % 32, warp = t / 32;
  float v = WarpSum(i < n ? in[i] : 0.0f);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warp_sums[lane] : 0.0f;
    v = WarpSum(v);
    if (lane == 0) partial[blockIdx.x] = v;
  }
}

// Integer variant whose shuffles sit in a loop with a per-warp trip count
// (warp w shuffles w + 1 times) and in a partial last warp: the sum of
// lanes [lane, lane + 2^k) for the largest 2^k <= w + 1, with the
// out-of-range predicate of shfl.down telling which lanes had no source.
extern "C" __global__ void warp_down_loop(const int* in, int* out, int* valid) {
  const unsigned t = threadIdx.x;
  const unsigned warp = t / 32;
  int v = in[t];
  int ok = 1;
  for (unsigned step = 1; step <= warp + 1; step <<= 1) {
    int other;
    int in_range;
    asm volatile(
        "{ .reg .pred p; shfl.sync.down.b32 %0|p, %2, %3, 0x1f, 0xffffffff; selp.s32 %1, 1, 0, p; }"
        : "=r"(other), "=r"(in_range)
        : "r"(v), "r"(step));
    // Written with inline PTX to read the predicate output, which
    // __shfl_down_sync hides.
    if (!in_range) ok = 0;
    v += in_range ? other : 0;
  }
  out[t] = v;
  valid[t] = ok;
}
