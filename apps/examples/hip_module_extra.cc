// HIP's module API with a packed argument buffer: hipModuleLoad,
// hipModuleGetFunction, and hipModuleLaunchKernel with `extra`
// (HIP_LAUNCH_PARAM_BUFFER_POINTER / SIZE / END), launched on an interior
// pointer of an allocation so that only the middle of the buffer changes.
#include <hip/hip_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define HIP_CHECK(call)                                                                  \
  do {                                                                                   \
    hipError_t error_ = (call);                                                          \
    if (error_ != hipSuccess) {                                                          \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,          \
                   hipGetErrorName(error_));                                             \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

namespace {

// Matches the kernel's push-constant block (offsets 0, 8, 12, 16).
struct alignas(8) ScaleOffsetArgs {
  void* data;
  float scale;
  float offset;
  uint32_t n;
};

}  // namespace

int main(int argc, char** argv) {
  const char* kernels = argc > 1 ? argv[1] : KERNELS_PATH;
  constexpr int kTotal = 4096;
  constexpr int kSkip = 1000;  // elements left untouched at each end
  constexpr int kN = kTotal - 2 * kSkip;

  HIP_CHECK(hipInit(0));
  hipDevice_t device;
  HIP_CHECK(hipDeviceGet(&device, 0));
  hipCtx_t context;
  HIP_CHECK(hipCtxCreate(&context, 0, device));
  hipModule_t module;
  HIP_CHECK(hipModuleLoad(&module, kernels));
  hipFunction_t function;
  HIP_CHECK(hipModuleGetFunction(&function, module, "scale_offset"));

  std::vector<float> host(kTotal);
  for (int i = 0; i < kTotal; ++i) host[i] = static_cast<float>(i);
  void* device_data = nullptr;
  HIP_CHECK(hipMalloc(&device_data, kTotal * sizeof(float)));
  HIP_CHECK(hipMemcpyHtoD(device_data, host.data(), kTotal * sizeof(float)));

  ScaleOffsetArgs args{static_cast<float*>(device_data) + kSkip, 2.0f, 0.5f, kN};
  size_t args_size = sizeof(args);
  void* config[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE,
                    &args_size, HIP_LAUNCH_PARAM_END};
  constexpr unsigned kBlock = 64;
  HIP_CHECK(hipModuleLaunchKernel(function, (kN + kBlock - 1) / kBlock, 1, 1, kBlock, 1, 1, 0,
                                  nullptr, nullptr, config));
  HIP_CHECK(hipCtxSynchronize());

  std::vector<float> result(kTotal);
  HIP_CHECK(hipMemcpyDtoH(result.data(), device_data, kTotal * sizeof(float)));
  int errors = 0;
  for (int i = 0; i < kTotal; ++i) {
    const bool inside = i >= kSkip && i < kSkip + kN;
    const float expected = inside ? host[i] * 2.0f + 0.5f : host[i];
    if (result[i] != expected) ++errors;
  }
  HIP_CHECK(hipFree(device_data));
  HIP_CHECK(hipModuleUnload(module));
  HIP_CHECK(hipCtxDestroy(context));
  std::printf("scale_offset on [%d, %d) of %d: %d errors\n%s\n", kSkip, kSkip + kN, kTotal, errors,
              errors == 0 ? "PASSED" : "FAILED");
  return errors == 0 ? 0 : 1;
}
