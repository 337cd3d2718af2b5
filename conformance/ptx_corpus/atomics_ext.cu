// Atomics beyond add/min/max: compare-and-swap (32 and 64 bits, global and
// shared), wrapping increment/decrement, float add in shared memory, and
// byte/short stores that share words with their neighbours.
extern "C" __global__ void atomics_ext(const unsigned* in, unsigned* cas32,
                                       unsigned long long* cas64, unsigned* counters, float* sums,
                                       unsigned char* bytes, short* shorts, int n) {
  __shared__ unsigned claim[64];
  __shared__ float fsum[4];
  if (threadIdx.x < 64) claim[threadIdx.x] = 0xffffffffu;
  if (threadIdx.x < 4) fsum[threadIdx.x] = 0.0f;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned v = in[i];
    // The first thread to reach each slot claims it (shared and global).
    atomicCAS(&claim[v & 63], 0xffffffffu, threadIdx.x);
    atomicCAS(&cas32[v & 255], 0u, v);
    atomicCAS(&cas64[v & 31], 0ull, ((unsigned long long)v << 32) | (unsigned)i);
    atomicInc(&counters[0], 9u);   // wraps to 0 after 9
    atomicDec(&counters[1], 12u);  // wraps to 12 after 0
    atomicAdd(&fsum[v & 3], (float)(v & 15));
    bytes[i] = (unsigned char)(v * 7);
    shorts[i] = (short)(v * 13 - 40000);
  }
  __syncthreads();
  if (threadIdx.x < 4) atomicAdd(&sums[threadIdx.x], fsum[threadIdx.x]);
  if (threadIdx.x < 64 && claim[threadIdx.x] != 0xffffffffu) atomicAdd(&counters[2], 1u);
}
