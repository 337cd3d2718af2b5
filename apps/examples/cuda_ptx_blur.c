/* A CUDA driver API program whose kernels are CUDA C++ (cuda_kernels/
 * blur_histogram.cu), shipped as nvcc builds them: the PTX text, loaded with
 * cuModuleLoadData; the fat binary (compressed, as nvcc writes it by
 * default), loaded with cuModuleLoad; and the fat binary again through the
 * JIT linker (cuLinkAddFile, cuLinkComplete). Each module blurs an image
 * with a shared-memory tile and takes the histogram of the result with
 * shared and global atomics; both are checked against the host.
 * Usage: cuda_ptx_blur KERNEL.ptx KERNEL.fatbin. Prints PASSED. */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                \
  do {                                                                             \
    CUresult result_ = (call);                                                     \
    if (result_ != CUDA_SUCCESS) {                                                 \
      const char* name_ = "?";                                                     \
      cuGetErrorName(result_, &name_);                                             \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, name_); \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)

enum { kWidth = 203, kHeight = 131, kTile = 16 };

static char* ReadText(const char* path) {
  FILE* file = fopen(path, "rb");
  if (file == NULL) {
    fprintf(stderr, "cannot open %s\n", path);
    exit(1);
  }
  fseek(file, 0, SEEK_END);
  const long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  char* text = malloc((size_t)size + 1);
  if (fread(text, 1, (size_t)size, file) != (size_t)size) {
    fprintf(stderr, "cannot read %s\n", path);
    exit(1);
  }
  text[size] = '\0';
  fclose(file);
  return text;
}

static int Clamp(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

/* Runs both kernels of `module` and compares with the host; returns the
 * number of mismatches. */
static int Run(CUmodule module, const char* how) {
  const size_t n = (size_t)kWidth * kHeight;
  unsigned char* image = malloc(n);
  unsigned char* blurred = malloc(n);
  for (size_t i = 0; i < n; ++i) image[i] = (unsigned char)((i * 37 + (i / kWidth) * 11) & 255);
  CUfunction blur, histogram;
  CHECK(cuModuleGetFunction(&blur, module, "box_blur"));
  CHECK(cuModuleGetFunction(&histogram, module, "histogram16"));
  CUdeviceptr d_in, d_out, d_bins;
  CHECK(cuMemAlloc(&d_in, n));
  CHECK(cuMemAlloc(&d_out, n));
  CHECK(cuMemAlloc(&d_bins, 16 * sizeof(unsigned)));
  CHECK(cuMemcpyHtoD(d_in, image, n));
  CHECK(cuMemsetD32(d_bins, 0, 16));
  int width = kWidth, height = kHeight, count = (int)n;
  void* blur_args[] = {&d_in, &d_out, &width, &height};
  CHECK(cuLaunchKernel(blur, (kWidth + kTile - 1) / kTile, (kHeight + kTile - 1) / kTile, 1, kTile,
                       kTile, 1, 0, NULL, blur_args, NULL));
  void* histogram_args[] = {&d_out, &d_bins, &count};
  CHECK(cuLaunchKernel(histogram, 24, 1, 1, 128, 1, 1, 0, NULL, histogram_args, NULL));
  unsigned bins[16];
  CHECK(cuMemcpyDtoH(blurred, d_out, n));
  CHECK(cuMemcpyDtoH(bins, d_bins, sizeof(bins)));
  int errors = 0;
  unsigned want_bins[16] = {0};
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      unsigned sum = 0;
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          sum += image[Clamp(y + dy, 0, kHeight - 1) * kWidth + Clamp(x + dx, 0, kWidth - 1)];
        }
      }
      const unsigned char want = (unsigned char)((sum + 4) / 9);
      if (blurred[y * kWidth + x] != want && ++errors <= 5) {
        fprintf(stderr, "%s: blur (%d, %d) is %d, not %d\n", how, x, y, blurred[y * kWidth + x],
                want);
      }
      ++want_bins[want >> 4];
    }
  }
  for (int b = 0; b < 16; ++b) {
    if (bins[b] != want_bins[b] && ++errors <= 10) {
      fprintf(stderr, "%s: bin %d holds %u, not %u\n", how, b, bins[b], want_bins[b]);
    }
  }
  CHECK(cuMemFree(d_in));
  CHECK(cuMemFree(d_out));
  CHECK(cuMemFree(d_bins));
  free(image);
  free(blurred);
  printf("%s: %dx%d blur and histogram, %d errors\n", how, kWidth, kHeight, errors);
  return errors;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s KERNEL.ptx KERNEL.fatbin\n", argv[0]);
    return 2;
  }
  CHECK(cuInit(0));
  CUdevice device;
  CHECK(cuDeviceGet(&device, 0));
  CUcontext context;
  CHECK(cuCtxCreate(&context, 0, device));
  int errors = 0;

  char* ptx = ReadText(argv[1]);
  CUmodule module;
  CHECK(cuModuleLoadData(&module, ptx));
  errors += Run(module, "PTX text");
  CHECK(cuModuleUnload(module));
  free(ptx);

  CHECK(cuModuleLoad(&module, argv[2]));
  errors += Run(module, "fat binary");
  CHECK(cuModuleUnload(module));

  char log[4096] = {0};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {log, (void*)(size_t)sizeof(log)};
  CUlinkState link;
  CHECK(cuLinkCreate(2, options, values, &link));
  CHECK(cuLinkAddFile(link, CU_JIT_INPUT_FATBINARY, argv[2], 0, NULL, NULL));
  void* image = NULL;
  size_t image_size = 0;
  CHECK(cuLinkComplete(link, &image, &image_size));
  CHECK(cuModuleLoadData(&module, image));
  CHECK(cuLinkDestroy(link));
  errors += Run(module, "linked fat binary");
  CHECK(cuModuleUnload(module));

  CHECK(cuCtxDestroy(context));
  if (errors != 0) return 1;
  printf("PASSED\n");
  return 0;
}
