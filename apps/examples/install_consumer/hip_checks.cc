// A HIP module-API program in C++, built against an installed streamhal with
// find_package(streamhal) only. It includes nothing but <hip/hip_runtime.h>
// (and the C++ standard library) and runs its own GLSL kernels (hip_*.comp,
// packed into one ELF code object at build time), in the runtime-style flow
// with no explicit context (hipSetDevice, hipMalloc, hipMemcpy):
//   - a vector add launched with kernelParams, checked element by element;
//   - a packed `extra` launch on an interior pointer, the elements outside the
//     range checked untouched;
//   - per-block sums reduced in dynamic shared memory;
//   - the error cases, with the exact codes, and nothing written by them;
//   - a good launch afterwards, to show that the process keeps working.
// Prints one line per check, then PASSED, and exits 0 only if all hold.
#include <hip/hip_runtime.h>

#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

int checks = 0;
int failures = 0;

// Records one check and prints its line.
void Check(bool ok, const char* format, ...) {
  std::va_list args;
  va_start(args, format);
  std::printf("%s ", ok ? "[ OK ]" : "[FAIL]");
  std::vprintf(format, args);
  std::printf("\n");
  va_end(args);
  ++checks;
  if (!ok) ++failures;
}

// A check that a call returned exactly `expected`.
void CheckCode(const std::string& what, hipError_t got, hipError_t expected) {
  if (got == expected) {
    Check(true, "%s -> %s", what.c_str(), hipGetErrorName(got));
  } else {
    Check(false, "%s -> %s, expected %s", what.c_str(), hipGetErrorName(got),
          hipGetErrorName(expected));
  }
}

// Set-up steps that must work for the checks to mean anything.
#define REQUIRE(call)                                                                   \
  do {                                                                                  \
    hipError_t error_ = (call);                                                         \
    if (error_ != hipSuccess) {                                                         \
      std::fprintf(stderr, "%s:%d: %s failed: %s\nFAILED\n", __FILE__, __LINE__, #call, \
                   hipGetErrorName(error_));                                            \
      std::exit(1);                                                                     \
    }                                                                                   \
  } while (0)

// The packed parameters of hip_scale_offset: natural C++ alignment gives the
// offsets the kernel's push-constant block declares (0, 4, 8, then the pointer
// at 16 after 4 bytes of padding).
struct ScaleOffsetArgs {
  uint32_t n;
  float scale;
  float offset;
  float* data;
};
static_assert(sizeof(void*) == 8, "device pointers are 64-bit");
static_assert(offsetof(ScaleOffsetArgs, data) == 16, "layout of hip_scale_offset's block");

struct Kernels {
  hipFunction_t add = nullptr;
  hipFunction_t scale_offset = nullptr;
  hipFunction_t block_sum = nullptr;
};

// --- Vector add with kernelParams --------------------------------------------

void VectorAdd(hipFunction_t add, const char* label) {
  constexpr unsigned kN = 100000;
  constexpr unsigned kBlock = 128;
  constexpr size_t kBytes = kN * sizeof(float);
  std::vector<float> x(kN), y(kN), out(kN, -1.0f);
  for (unsigned i = 0; i < kN; ++i) {
    x[i] = 0.25f * static_cast<float>(i);
    y[i] = static_cast<float>(i % 1000);
  }
  void *dx = nullptr, *dy = nullptr, *dout = nullptr;
  REQUIRE(hipMalloc(&dx, kBytes));
  REQUIRE(hipMalloc(&dy, kBytes));
  REQUIRE(hipMalloc(&dout, kBytes));
  REQUIRE(hipMemcpy(dx, x.data(), kBytes, hipMemcpyHostToDevice));
  REQUIRE(hipMemcpy(dy, y.data(), kBytes, hipMemcpyHostToDevice));
  REQUIRE(hipMemcpy(dout, out.data(), kBytes, hipMemcpyHostToDevice));
  unsigned n = kN;
  void* params[] = {&dx, &dy, &dout, &n};
  const hipError_t launched = hipModuleLaunchKernel(add, (kN + kBlock - 1) / kBlock, 1, 1, kBlock,
                                                    1, 1, 0, nullptr, params, nullptr);
  int wrong = -1;
  if (launched == hipSuccess && hipDeviceSynchronize() == hipSuccess) {
    REQUIRE(hipMemcpy(out.data(), dout, kBytes, hipMemcpyDeviceToHost));
    wrong = 0;
    for (unsigned i = 0; i < kN; ++i) {
      if (out[i] != x[i] + y[i]) ++wrong;
    }
  }
  Check(wrong == 0, "%s: %u floats, kernelParams (%s), %d wrong", label, kN,
        hipGetErrorName(launched), wrong);
  REQUIRE(hipFree(dx));
  REQUIRE(hipFree(dy));
  REQUIRE(hipFree(dout));
}

// --- Packed `extra` on an interior pointer -----------------------------------

void ExtraOnInteriorPointer(hipFunction_t scale_offset) {
  constexpr int kTotal = 5000;
  constexpr int kSkipFront = 1234;
  constexpr int kSkipBack = 766;
  constexpr int kN = kTotal - kSkipFront - kSkipBack;
  constexpr unsigned kBlock = 256;
  std::vector<float> host(kTotal), result(kTotal);
  for (int i = 0; i < kTotal; ++i) host[i] = static_cast<float>(kTotal - i);
  void* base = nullptr;
  REQUIRE(hipMalloc(&base, kTotal * sizeof(float)));
  REQUIRE(hipMemcpyHtoD(base, host.data(), kTotal * sizeof(float)));

  ScaleOffsetArgs args{};
  args.n = kN;
  args.scale = -1.5f;
  args.offset = 4.0f;
  args.data = static_cast<float*>(base) + kSkipFront;  // device pointer arithmetic
  size_t args_size = sizeof(args);
  void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &args_size,
                   HIP_LAUNCH_PARAM_END};
  const hipError_t launched = hipModuleLaunchKernel(scale_offset, (kN + kBlock - 1) / kBlock, 1, 1,
                                                    kBlock, 1, 1, 0, nullptr, nullptr, extra);
  int inside_wrong = -1, outside_wrong = -1;
  if (launched == hipSuccess && hipDeviceSynchronize() == hipSuccess) {
    REQUIRE(hipMemcpyDtoH(result.data(), base, kTotal * sizeof(float)));
    inside_wrong = outside_wrong = 0;
    for (int i = 0; i < kTotal; ++i) {
      if (i >= kSkipFront && i < kSkipFront + kN) {
        if (result[i] != host[i] * -1.5f + 4.0f) ++inside_wrong;
      } else if (result[i] != host[i]) {
        ++outside_wrong;
      }
    }
  }
  Check(inside_wrong == 0, "extra on base+%d floats: [%d, %d) scaled (%s), %d wrong", kSkipFront,
        kSkipFront, kSkipFront + kN, hipGetErrorName(launched), inside_wrong);
  Check(outside_wrong == 0,
        "extra on base+%d floats: %d elements outside the range untouched, %d changed", kSkipFront,
        kSkipFront + kSkipBack, outside_wrong);
  REQUIRE(hipFree(base));
}

// --- Dynamic shared memory ---------------------------------------------------

void BlockSums(hipFunction_t block_sum, unsigned block) {
  constexpr unsigned kN = 50000;
  const unsigned blocks = (kN + block - 1) / block;
  std::vector<uint32_t> src(kN), sums(blocks);
  for (unsigned i = 0; i < kN; ++i) src[i] = (i * 2654435761u) >> 12;  // up to 2^20
  void *dsrc = nullptr, *dsums = nullptr;
  REQUIRE(hipMalloc(&dsrc, kN * sizeof(uint32_t)));
  REQUIRE(hipMalloc(&dsums, blocks * sizeof(uint32_t)));
  REQUIRE(hipMemcpyHtoD(dsrc, src.data(), kN * sizeof(uint32_t)));
  REQUIRE(hipMemset(dsums, 0xff, blocks * sizeof(uint32_t)));
  unsigned n = kN;
  void* params[] = {&dsrc, &dsums, &n};
  const unsigned shared_bytes = block * static_cast<unsigned>(sizeof(uint32_t));
  const hipError_t launched = hipModuleLaunchKernel(block_sum, blocks, 1, 1, block, 1, 1,
                                                    shared_bytes, nullptr, params, nullptr);
  int wrong = -1;
  if (launched == hipSuccess && hipDeviceSynchronize() == hipSuccess) {
    REQUIRE(hipMemcpyDtoH(sums.data(), dsums, blocks * sizeof(uint32_t)));
    wrong = 0;
    for (unsigned b = 0; b < blocks; ++b) {
      uint32_t expected = 0;
      for (unsigned i = b * block; i < (b + 1) * block && i < kN; ++i) expected += src[i];
      if (sums[b] != expected) ++wrong;
    }
  }
  Check(wrong == 0, "block sums: %u blocks of %u, sharedMemBytes %u (%s), %d wrong", blocks, block,
        shared_bytes, hipGetErrorName(launched), wrong);
  REQUIRE(hipFree(dsrc));
  REQUIRE(hipFree(dsums));
}

// --- Error cases -------------------------------------------------------------

void LaunchErrors(const Kernels& k) {
  // Every launch below is refused; the buffers they name must not change.
  constexpr unsigned kN = 64;
  std::vector<float> ones(kN, 1.0f);
  void* data = nullptr;
  REQUIRE(hipMalloc(&data, kN * sizeof(float)));
  REQUIRE(hipMemcpyHtoD(data, ones.data(), kN * sizeof(float)));
  ScaleOffsetArgs args{};
  args.n = kN;
  args.scale = 3.0f;
  args.offset = 1.0f;
  args.data = static_cast<float*>(data);
  void* params[] = {&args.n, &args.scale, &args.offset, &args.data};
  size_t args_size = sizeof(args);
  void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &args_size,
                   HIP_LAUNCH_PARAM_END};

  CheckCode("hipModuleLaunchKernel(nullptr function)",
            hipModuleLaunchKernel(nullptr, 1, 1, 1, kN, 1, 1, 0, nullptr, params, nullptr),
            hipErrorInvalidHandle);
  CheckCode("hipModuleLaunchKernel with both kernelParams and extra",
            hipModuleLaunchKernel(k.scale_offset, 1, 1, 1, kN, 1, 1, 0, nullptr, params, extra),
            hipErrorInvalidValue);
  CheckCode("hipModuleLaunchKernel with gridDimY 0",
            hipModuleLaunchKernel(k.scale_offset, 1, 0, 1, kN, 1, 1, 0, nullptr, params, nullptr),
            hipErrorInvalidValue);
  CheckCode("hipModuleLaunchKernel with blockDimX 0",
            hipModuleLaunchKernel(k.scale_offset, 1, 1, 1, 0, 1, 1, 0, nullptr, params, nullptr),
            hipErrorInvalidValue);

  int max_x = 0, max_y = 0, max_z = 0, max_threads = 0;
  REQUIRE(hipDeviceGetAttribute(&max_x, hipDeviceAttributeMaxBlockDimX, 0));
  REQUIRE(hipDeviceGetAttribute(&max_y, hipDeviceAttributeMaxBlockDimY, 0));
  REQUIRE(hipDeviceGetAttribute(&max_z, hipDeviceAttributeMaxBlockDimZ, 0));
  REQUIRE(hipDeviceGetAttribute(&max_threads, hipDeviceAttributeMaxThreadsPerBlock, 0));
  CheckCode("hipModuleLaunchKernel with blockDimZ " + std::to_string(max_z + 1) +
                " (device limit " + std::to_string(max_z) + ")",
            hipModuleLaunchKernel(k.scale_offset, 1, 1, 1, 1, 1, static_cast<unsigned>(max_z) + 1,
                                  0, nullptr, params, nullptr),
            hipErrorInvalidValue);
  // Each dimension within its limit, the product above the thread limit.
  const int y = max_threads / max_x + 1;
  const std::string too_many = "hipModuleLaunchKernel with block " + std::to_string(max_x) + "x" +
                               std::to_string(y) + " (thread limit " + std::to_string(max_threads) +
                               ")";
  if (y <= max_y) {
    CheckCode(too_many,
              hipModuleLaunchKernel(k.scale_offset, 1, 1, 1, static_cast<unsigned>(max_x),
                                    static_cast<unsigned>(y), 1, 0, nullptr, params, nullptr),
              hipErrorInvalidValue);
  } else {
    std::printf("[SKIP] %s: blockDimY %d is above its own limit %d\n", too_many.c_str(), y, max_y);
  }

  int shared_limit = 0;
  REQUIRE(hipFuncGetAttribute(&shared_limit, HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                              k.block_sum));
  void* sum = nullptr;
  REQUIRE(hipMalloc(&sum, sizeof(uint32_t)));
  REQUIRE(hipMemset(sum, 0, sizeof(uint32_t)));
  void* src = data;
  unsigned n = kN;
  void* sum_params[] = {&src, &sum, &n};
  CheckCode(
      "hipModuleLaunchKernel with sharedMemBytes " + std::to_string(shared_limit + 1) + " (limit " +
          std::to_string(shared_limit) + ")",
      hipModuleLaunchKernel(k.block_sum, 1, 1, 1, kN, 1, 1, static_cast<unsigned>(shared_limit) + 1,
                            nullptr, sum_params, nullptr),
      hipErrorInvalidValue);

  REQUIRE(hipDeviceSynchronize());
  std::vector<float> after(kN);
  uint32_t sum_after = 1;
  REQUIRE(hipMemcpyDtoH(after.data(), data, kN * sizeof(float)));
  REQUIRE(hipMemcpyDtoH(&sum_after, sum, sizeof(sum_after)));
  Check(after == ones && sum_after == 0, "the refused launches wrote nothing");
  REQUIRE(hipFree(data));
  REQUIRE(hipFree(sum));
}

void ModuleErrors() {
  hipModule_t module = nullptr;
  CheckCode("hipModuleLoad of a missing file", hipModuleLoad(&module, KERNELS_PATH ".no-such-file"),
            hipErrorFileNotFound);
  Check(module == nullptr, "hipModuleLoad of a missing file leaves the module null");

  const std::vector<unsigned char> garbage(256, 0xfe);
  module = nullptr;
  CheckCode("hipModuleLoadData of 256 garbage bytes", hipModuleLoadData(&module, garbage.data()),
            hipErrorInvalidImage);
  Check(module == nullptr, "hipModuleLoadData of garbage leaves the module null");
}

void MemoryErrors() {
  void* zero = reinterpret_cast<void*>(0x1000);
  CheckCode("hipMalloc of 0 bytes", hipMalloc(&zero, 0), hipSuccess);
  Check(zero == nullptr, "hipMalloc of 0 bytes gives a null pointer");
  CheckCode("hipFree(nullptr)", hipFree(zero), hipSuccess);

  constexpr size_t kBytes = 256;
  const std::vector<unsigned char> pattern(kBytes, 0x5a);
  std::vector<unsigned char> host(2 * kBytes, 0x11), back(kBytes);
  const std::vector<unsigned char> host_before = host;
  void* device = nullptr;
  REQUIRE(hipMalloc(&device, kBytes));
  REQUIRE(hipMemcpy(device, pattern.data(), kBytes, hipMemcpyHostToDevice));
  char* bytes = static_cast<char*>(device);
  CheckCode("hipMemcpyHtoD running 1 byte past the end",
            hipMemcpyHtoD(bytes + 1, host.data(), kBytes), hipErrorInvalidValue);
  CheckCode("hipMemcpy(hipMemcpyDefault) running 64 bytes past the end",
            hipMemcpy(bytes + 192, host.data(), 128, hipMemcpyDefault), hipErrorInvalidValue);
  REQUIRE(hipMemcpy(back.data(), device, kBytes, hipMemcpyDeviceToHost));
  Check(back == pattern, "the device bytes are unchanged");
  CheckCode("hipMemcpyDtoH reading past the end", hipMemcpyDtoH(host.data(), bytes + 128, 129),
            hipErrorInvalidValue);
  Check(host == host_before, "the host bytes are unchanged");

  // The live allocation is made first: a later one could reuse the freed range.
  void* freed = nullptr;
  REQUIRE(hipMalloc(&freed, 64));
  REQUIRE(hipFree(freed));
  CheckCode("hipMemcpyDtoH from a freed pointer", hipMemcpyDtoH(host.data(), freed, 64),
            hipErrorInvalidValue);
  CheckCode("hipMemcpyDtoD from a freed pointer", hipMemcpyDtoD(device, freed, 64),
            hipErrorInvalidValue);
  REQUIRE(hipMemcpy(back.data(), device, kBytes, hipMemcpyDeviceToHost));
  Check(host == host_before && back == pattern, "copies from the freed pointer wrote nothing");
  REQUIRE(hipFree(device));
}

}  // namespace

int main(int argc, char** argv) {
  const char* kernels = argc > 1 ? argv[1] : KERNELS_PATH;
  REQUIRE(hipSetDevice(0));
  hipDeviceProp_t props;
  REQUIRE(hipGetDeviceProperties(&props, 0));
  std::printf("hip_checks on device 0: %s\n", props.name);
  hipModule_t module = nullptr;
  REQUIRE(hipModuleLoad(&module, kernels));
  Kernels k;
  REQUIRE(hipModuleGetFunction(&k.add, module, "hip_vector_add"));
  REQUIRE(hipModuleGetFunction(&k.scale_offset, module, "hip_scale_offset"));
  REQUIRE(hipModuleGetFunction(&k.block_sum, module, "hip_block_sum"));

  VectorAdd(k.add, "vector add");
  ExtraOnInteriorPointer(k.scale_offset);
  BlockSums(k.block_sum, 64);
  BlockSums(k.block_sum, 512);
  LaunchErrors(k);
  ModuleErrors();
  MemoryErrors();
  // The process keeps working after the errors.
  VectorAdd(k.add, "vector add after the error cases");
  CheckCode("hipDeviceSynchronize after the error cases", hipDeviceSynchronize(), hipSuccess);

  REQUIRE(hipModuleUnload(module));
  std::printf("%d checks, %d failed\n%s\n", checks, failures, failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
