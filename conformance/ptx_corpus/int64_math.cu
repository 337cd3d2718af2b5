// 64-bit integer arithmetic: multiply, high half, signed and unsigned
// division and remainder, shifts, rotates, bit counts and a 64-bit hash.
extern "C" __global__ void int64_math(const long long* a, const long long* b,
                                      unsigned long long* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long x = a[i], y = b[i];
  unsigned long long ux = (unsigned long long)x, uy = (unsigned long long)y;
  unsigned long long* o = out + 8 * i;
  o[0] = (unsigned long long)(x * y + (x >> 7));
  o[1] = __umul64hi(ux, uy) ^ (unsigned long long)__mul64hi(x, y);
  o[2] = y != 0 ? (unsigned long long)(x / y) : 0ull;
  o[3] = y != 0 ? (unsigned long long)(x % y) : 0ull;
  o[4] = uy != 0 ? ux / uy + ux % uy : 0ull;
  o[5] = (ux << (uy & 63)) | (ux >> ((64 - (uy & 63)) & 63));
  o[6] = (unsigned long long)__popcll(ux) * 1000 + (unsigned long long)__clzll(x | 1) * 10 +
         (unsigned long long)(x < y);
  unsigned long long h = ux ^ 0xcbf29ce484222325ull;
  for (int r = 0; r < 4; ++r) h = (h ^ (h >> 29)) * 0x100000001b3ull + uy;
  o[7] = h;
}
