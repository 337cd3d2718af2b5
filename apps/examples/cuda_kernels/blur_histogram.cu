// Kernels of apps/examples/cuda_ptx_blur.c, written as for NVIDIA's CUDA and
// shipped as what nvcc makes of them: blur_histogram.ptx (nvcc -ptx) and
// blur_histogram.fatbin (nvcc -fatbin, compressed as nvcc compresses by
// default). regenerate.sh remakes both; building and running never need nvcc.

#define TILE 16

// A 3x3 box blur of an 8-bit image, edges clamped. Each block stages its
// tile and a one-pixel apron in shared memory.
extern "C" __global__ void box_blur(const unsigned char* in, unsigned char* out, int width,
                                    int height) {
  __shared__ unsigned char tile[TILE + 2][TILE + 2];
  const int x0 = blockIdx.x * TILE - 1, y0 = blockIdx.y * TILE - 1;
  for (int i = threadIdx.y * TILE + threadIdx.x; i < (TILE + 2) * (TILE + 2); i += TILE * TILE) {
    const int tx = i % (TILE + 2), ty = i / (TILE + 2);
    const int x = min(max(x0 + tx, 0), width - 1), y = min(max(y0 + ty, 0), height - 1);
    tile[ty][tx] = in[y * width + x];
  }
  __syncthreads();
  const int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  if (x >= width || y >= height) return;
  unsigned sum = 0;
  for (int dy = 0; dy < 3; ++dy) {
    for (int dx = 0; dx < 3; ++dx) sum += tile[threadIdx.y + dy][threadIdx.x + dx];
  }
  out[y * width + x] = static_cast<unsigned char>((sum + 4) / 9);
}

// A 16-bin histogram (value / 16): per-block bins in shared memory, then one
// global atomic add per bin and block.
extern "C" __global__ void histogram16(const unsigned char* image, unsigned* bins, int n) {
  __shared__ unsigned local[16];
  if (threadIdx.x < 16) local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    atomicAdd(&local[image[i] >> 4], 1u);
  }
  __syncthreads();
  if (threadIdx.x < 16 && local[threadIdx.x] != 0)
    atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}
