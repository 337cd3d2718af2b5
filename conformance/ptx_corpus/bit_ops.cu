// Bit manipulation intrinsics: population count, leading zeros and bit
// reversal (32 and 64 bits), and byte permutes with a run-time selector.
extern "C" __global__ void bit_ops(const unsigned* in, const unsigned long long* in64,
                                   unsigned* out, unsigned long long* out64, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = in[i];
  unsigned long long w = in64[i];
  unsigned* o = out + i * 6;
  o[0] = __popc(x);
  o[1] = __clz(x);
  o[2] = __brev(x);
  o[3] = __byte_perm(x, x * 2654435761u, x >> 16);
  o[4] = __popcll(w);
  o[5] = __clzll(w);
  out64[i] = __brevll(w);
}
