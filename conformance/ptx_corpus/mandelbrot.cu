// Escape-time Mandelbrot: iterations (up to max_iter) of z = z^2 + c for each
// pixel of a width x height grid over [x0, x0 + w) x [y0, y0 + h).
extern "C" __global__ void mandelbrot(int* counts, int width, int height, float x0, float y0,
                                      float w, float h, int max_iter) {
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= width || py >= height) return;
  float cr = x0 + w * px / width;
  float ci = y0 + h * py / height;
  float zr = 0.0f, zi = 0.0f;
  int it = 0;
  while (it < max_iter && zr * zr + zi * zi <= 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++it;
  }
  counts[py * width + px] = it;
}
