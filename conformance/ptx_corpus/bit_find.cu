// Find-first-set (nvcc: brev, then bfind.shiftamt) on 32 and 64 bits, and a
// double-precision atomicAdd (atom.global.add.f64).
extern "C" __global__ void bit_find(const unsigned* in, const unsigned long long* in64, int* out,
                                    double* sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[2 * i] = __ffs(in[i]);
  out[2 * i + 1] = __ffsll(in64[i]);
  atomicAdd(sum + (i & 3), (double)in[i] * 0.25);
}
