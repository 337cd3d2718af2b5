// Texture objects bound as kernel parameters (kernel ABI v2): tex2D of a
// float texture; a handle chosen between two parameters (as ffmpeg's yadif
// picks the previous or the next frame); a texture passed on to a
// __noinline__ device function; tex1Dfetch of linear memory; integer texels
// read as integers.
extern "C" __global__ void tex_sample(cudaTextureObject_t tex, const float* coords, float* out,
                                      int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = tex2D<float>(tex, coords[2 * i], coords[2 * i + 1]);
}

extern "C" __global__ void tex_choose(cudaTextureObject_t a, cudaTextureObject_t b,
                                      const int* which, const float* coords, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  cudaTextureObject_t t = which[i] != 0 ? b : a;
  out[i] = tex2D<float>(t, coords[2 * i], coords[2 * i + 1]);
}

__device__ __noinline__ float sample_at(cudaTextureObject_t t, float x, float y) {
  return tex2D<float>(t, x, y);
}

extern "C" __global__ void tex_through_call(cudaTextureObject_t tex, const float* coords,
                                            float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = sample_at(tex, coords[2 * i], coords[2 * i + 1]);
}

extern "C" __global__ void tex_fetch(cudaTextureObject_t tex, float* out, int first, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = tex1Dfetch<float>(tex, first + i);
}

extern "C" __global__ void tex_uint(cudaTextureObject_t tex, unsigned* out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  if (x >= width || y >= height) return;
  uint4 v = tex2D<uint4>(tex, x + 0.5f, y + 0.5f);
  out[y * width + x] = v.x | (v.y << 8) | (v.z << 16) | (v.w << 24);
}
