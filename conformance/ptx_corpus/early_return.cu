// Early return and branches on signed/unsigned/float compares, selects,
// conversions and 64-bit math.
extern "C" __global__ void early_return(const int* in, int* out, double* wide, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = in[i];
  if (v < 0) {
    out[i] = -v;
    return;
  }
  float f = (float)v * 0.5f;
  long long w = (long long)v * 1000003LL;
  int r = (v % 7 == 0) ? (int)(f + 1.0f) : (v / 3) - (v & 1);
  out[i] = max(r, min(v, 100)) ^ (v << 2) | (int)(w >> 20);
  wide[i] = (double)f * 2.0 + (double)(unsigned)v;
}
