// A kernel taking structs by value (one holding a pointer, one of mixed
// scalars with padding) and passing one to a __noinline__ device function.
struct Affine {
  float scale;
  float offset;
  int clamp_lo, clamp_hi;
};
struct Buffers {
  const float* in;
  int* out;
  int n;
  char tag;
  double bias;
};

__device__ __noinline__ int apply(Affine f, float x) {
  int v = (int)(x * f.scale + f.offset);
  return v < f.clamp_lo ? f.clamp_lo : (v > f.clamp_hi ? f.clamp_hi : v);
}

extern "C" __global__ void struct_param(Buffers b, Affine f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= b.n) return;
  b.out[i] = apply(f, b.in[i]) + b.tag + (int)b.bias;
}
