/* Textures and surfaces (kernel ABI v2), in C: an image in a CUDA array is
 * sampled bilinearly through a texture object and resized into a second
 * array through a surface object; the result is checked against the same
 * interpolation on the host. Exits non-zero on any failure. */
#include <cuda.h>
#include <math.h>
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

enum { kSrcW = 24, kSrcH = 16, kDstW = 61, kDstH = 37 };

static CUarray MakeArray(unsigned width, unsigned height, unsigned flags) {
  CUDA_ARRAY3D_DESCRIPTOR desc;
  memset(&desc, 0, sizeof(desc));
  desc.Width = width;
  desc.Height = height;
  desc.Format = CU_AD_FORMAT_FLOAT;
  desc.NumChannels = 1;
  desc.Flags = flags;
  CUarray array;
  CHECK(cuArray3DCreate(&array, &desc));
  return array;
}

static void Copy(CUarray array, float* host, unsigned width, unsigned height, int to_array) {
  CUDA_MEMCPY2D c;
  memset(&c, 0, sizeof(c));
  if (to_array) {
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = host;
    c.srcPitch = width * sizeof(float);
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    c.dstArray = array;
  } else {
    c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    c.srcArray = array;
    c.dstMemoryType = CU_MEMORYTYPE_HOST;
    c.dstHost = host;
    c.dstPitch = width * sizeof(float);
  }
  c.WidthInBytes = width * sizeof(float);
  c.Height = height;
  CHECK(cuMemcpy2D(&c));
}

/* The host's bilinear sample at normalised (u, v), edges clamped. */
static float Sample(const float* image, float u, float v) {
  const float x = u * kSrcW - 0.5f, y = v * kSrcH - 0.5f;
  const int x0 = (int)floorf(x), y0 = (int)floorf(y);
  const float a = x - floorf(x), b = y - floorf(y);
  float value = 0.0f;
  for (int dy = 0; dy <= 1; ++dy) {
    for (int dx = 0; dx <= 1; ++dx) {
      int tx = x0 + dx, ty = y0 + dy;
      tx = tx < 0 ? 0 : tx >= kSrcW ? kSrcW - 1 : tx;
      ty = ty < 0 ? 0 : ty >= kSrcH ? kSrcH - 1 : ty;
      value += (dx ? a : 1 - a) * (dy ? b : 1 - b) * image[ty * kSrcW + tx];
    }
  }
  return value;
}

int main(int argc, char** argv) {
  const char* kernels = argc > 1 ? argv[1] : KERNELS_PATH;
  CHECK(cuInit(0));
  CUdevice device;
  CHECK(cuDeviceGet(&device, 0));
  CUcontext context;
  CHECK(cuCtxCreate(&context, 0, device));
  CUmodule module;
  CHECK(cuModuleLoad(&module, kernels));
  CUfunction resize;
  CHECK(cuModuleGetFunction(&resize, module, "texture_resize"));

  static float src[kSrcH * kSrcW], dst[kDstH * kDstW];
  for (int y = 0; y < kSrcH; ++y) {
    for (int x = 0; x < kSrcW; ++x) src[y * kSrcW + x] = (float)((x * x + 3 * y) % 17);
  }
  CUarray src_array = MakeArray(kSrcW, kSrcH, 0);
  CUarray dst_array = MakeArray(kDstW, kDstH, CUDA_ARRAY3D_SURFACE_LDST);
  Copy(src_array, src, kSrcW, kSrcH, 1);

  CUDA_RESOURCE_DESC resource;
  memset(&resource, 0, sizeof(resource));
  resource.resType = CU_RESOURCE_TYPE_ARRAY;
  resource.res.array.hArray = src_array;
  CUDA_TEXTURE_DESC sampler;
  memset(&sampler, 0, sizeof(sampler));
  sampler.addressMode[0] = sampler.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
  sampler.filterMode = CU_TR_FILTER_MODE_LINEAR;
  sampler.flags = CU_TRSF_NORMALIZED_COORDINATES;
  CUtexObject texture;
  CHECK(cuTexObjectCreate(&texture, &resource, &sampler, NULL));
  resource.res.array.hArray = dst_array;
  CUsurfObject surface;
  CHECK(cuSurfObjectCreate(&surface, &resource));

  unsigned width = kDstW, height = kDstH;
  void* args[] = {&texture, &surface, &width, &height};
  CHECK(cuLaunchKernel(resize, (kDstW + 15) / 16, (kDstH + 15) / 16, 1, 16, 16, 1, 0, NULL, args,
                       NULL));
  Copy(dst_array, dst, kDstW, kDstH, 0);

  int errors = 0;
  for (int y = 0; y < kDstH; ++y) {
    for (int x = 0; x < kDstW; ++x) {
      const float want = Sample(src, (x + 0.5f) / kDstW, (y + 0.5f) / kDstH);
      if (fabsf(dst[y * kDstW + x] - want) > 1e-3f) {
        if (++errors <= 5) {
          fprintf(stderr, "(%d, %d): %f, want %f\n", x, y, dst[y * kDstW + x], want);
        }
      }
    }
  }
  printf("texture_resize: %dx%d -> %dx%d, %d errors\n", kSrcW, kSrcH, kDstW, kDstH, errors);
  CHECK(cuTexObjectDestroy(texture));
  CHECK(cuSurfObjectDestroy(surface));
  CHECK(cuArrayDestroy(src_array));
  CHECK(cuArrayDestroy(dst_array));
  CHECK(cuModuleUnload(module));
  CHECK(cuCtxDestroy(context));
  printf(errors == 0 ? "PASSED\n" : "FAILED\n");
  return errors == 0 ? 0 : 1;
}
