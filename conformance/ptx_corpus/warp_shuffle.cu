// Broadcast and scan inside each warp: every lane reads lane `src` of its
// warp with __shfl_sync (shfl.idx), and an inclusive prefix sum built from
// butterfly (xor) exchanges; __syncwarp between the stages.
extern "C" __global__ void warp_broadcast(const int* in, int* out, int src) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = in[t];
  out[t] = __shfl_sync(0xffffffffu, v, src);
}

// Inclusive scan: at step k each lane adds the total of the 2^k lanes of its
// partner half (xor) when it is the upper half, tracking the half's sum.
extern "C" __global__ void warp_xor_scan(const int* in, int* out, int* warp_totals) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x % 32;
  int prefix = in[t];
  int total = prefix;
#pragma unroll
  for (int k = 1; k < 32; k <<= 1) {
    const int other = __shfl_xor_sync(0xffffffffu, total, k);
    if (lane & k) prefix += other;
    total += other;
  }
  __syncwarp();
  out[t] = prefix;
  if (lane == 31) warp_totals[t / 32] = total;
}

// Segmented shuffles through the c operand: width 8 (__shfl_up_sync with
// width 8 clamps at the segment start) and a width-4 broadcast of lane 1 of
// each segment.
extern "C" __global__ void warp_segments(const int* in, int* up, int* seg_bcast) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = in[t];
  up[t] = __shfl_up_sync(0xffffffffu, v, 3, 8);
  seg_bcast[t] = __shfl_sync(0xffffffffu, v, 1, 4);
}
