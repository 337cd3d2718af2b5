// Float-to-integer conversions of values outside the destination range and
// NaN: PTX saturates them (NaN gives 0), where C++ leaves them undefined.
extern "C" __global__ void float_to_int(const float* f, const double* d, int* s32, unsigned* u32,
                                        long long* s64, unsigned long long* u64, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = f[i];
  double y = d[i];
  s32[2 * i] = (int)x;
  s32[2 * i + 1] = __float2int_rn(x) ^ (int)y;
  u32[2 * i] = (unsigned)x;
  u32[2 * i + 1] = (unsigned)y;
  s64[2 * i] = (long long)x;
  s64[2 * i + 1] = (long long)y;
  u64[2 * i] = (unsigned long long)x;
  u64[2 * i + 1] = (unsigned long long)y;
}
