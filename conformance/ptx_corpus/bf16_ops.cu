// bfloat16 (cuda_bf16.h): conversions from f32 (nearest even and toward
// zero), arithmetic, min/max, negation and absolute value, a bf16x2 fma, and
// comparisons. Compiled for compute_80 (bf16_ops.ptx: add, sub and mul
// become fma.rn.bf16, comparisons set.f32) and for compute_90
// (bf16_ops_sm90.ptx: add/sub/mul.bf16, setp.bf16, cvt.f32.bf16).
#include <cuda_bf16.h>

extern "C" __global__ void bf16_ops(const float* a, const float* b, const float* c,
                                    unsigned short* out, int* flags, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const __nv_bfloat16 x = __float2bfloat16(a[i]);
  const __nv_bfloat16 y = __float2bfloat16_rz(b[i]);
  const __nv_bfloat16 z = __float2bfloat16(c[i]);
  __nv_bfloat16 r[12];
  r[0] = x;
  r[1] = y;
  r[2] = __hadd(x, y);
  r[3] = __hsub(x, y);
  r[4] = __hmul(x, y);
  r[5] = __hfma(x, y, z);
  r[6] = __hmax(x, y);
  r[7] = __hmin(x, y);
  r[8] = __hneg(x);
  r[9] = __habs(y);
  const __nv_bfloat162 v = __floats2bfloat162_rn(a[i], b[i]);
  const __nv_bfloat162 w = __hfma2(v, v, __bfloat162bfloat162(z));
  r[10] = __low2bfloat16(w);
  r[11] = __high2bfloat16(w);
  for (int k = 0; k < 12; ++k) out[12 * i + k] = __bfloat16_as_ushort(r[k]);
  flags[i] = (__hlt(x, y) ? 1 : 0) | (__hge(x, z) ? 2 : 0) | (__heq(x, z) ? 4 : 0) |
             (static_cast<int>(__bfloat162float(x) * 4.0f) << 8);
}
