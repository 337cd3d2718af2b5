// A plugin (a shared library loaded with dlopen) with kernels of its own,
// embedded and registered by streamhal_add_kernels(... EMBED): loading the
// library registers them, dlclose unregisters them. It links no streamhal
// library: the HIP entry points come from the program that loads it.
#include <hip/hip_runtime.h>

#include <vector>

#include "hip_registered_plugin_kernels.h"

// Runs axpy_bias over `n` elements and returns the number of wrong results
// (-1 when a call failed). `*stub` receives the kernel's host stub, so the
// program can check that it is no kernel any more after dlclose.
extern "C" __attribute__((visibility("default"))) int plugin_run(unsigned n, const void** stub) {
  *stub = reinterpret_cast<const void*>(&axpy_bias);
  std::vector<float> x(n), y(n, -1.0f);
  for (unsigned i = 0; i < n; ++i) x[i] = static_cast<float>(i % 1000);
  const float host_bias[4] = {0.25f, 0.5f, 0.75f, 1.0f};
  size_t bias_size = 0;
  if (hipGetSymbolSize(&bias_size, bias) != hipSuccess || bias_size != sizeof(host_bias)) return -1;
  if (hipMemcpyToSymbol(bias, host_bias, sizeof(host_bias)) != hipSuccess) return -1;
  float* dx = nullptr;
  float* dy = nullptr;
  if (hipMalloc(&dx, n * sizeof(float)) != hipSuccess) return -1;
  if (hipMalloc(&dy, n * sizeof(float)) != hipSuccess) return -1;
  if (hipMemcpy(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice) != hipSuccess) return -1;
  hipLaunchKernelGGL(axpy_bias, dim3((n + 255) / 256), dim3(256), 0, nullptr, 3.0f, dx, dy, n);
  if (hipGetLastError() != hipSuccess) return -1;
  if (hipMemcpy(y.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost) != hipSuccess) return -1;
  (void)hipFree(dx);
  (void)hipFree(dy);
  int errors = 0;
  for (unsigned i = 0; i < n; ++i) {
    if (y[i] != 3.0f * x[i] + host_bias[i % 4]) ++errors;
  }
  return errors;
}
