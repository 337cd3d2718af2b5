// Kernels and kernel images for the conformance tests of memory, copies,
// modules and launches: GLSL sources that follow kernel ABI v1
// (docs/kernel-abi.md), images built from them in process (SPIR-V, ELF code
// objects, fat binaries), and small helpers for device buffers.
#ifndef STREAMHAL_CONFORMANCE_TESTS_CONFORMANCE_KERNELS_H_
#define STREAMHAL_CONFORMANCE_TESTS_CONFORMANCE_KERNELS_H_

#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "conformance_util.h"

namespace streamhal::conformance {

// --- GLSL sources (NUL-terminated, so cuModuleLoadData takes them) ---------
// Each names its kernel with #define STREAMHAL_KERNEL_NAME.

// vector_add(float* a, float* b, float* c, uint n): c[i] = a[i] + b[i].
extern const char kVectorAddGlsl[];
// scale_offset(float* data, float scale, float offset, uint n):
// data[i] = data[i] * scale + offset. Parameters at offsets 0, 8, 12, 16.
extern const char kScaleOffsetGlsl[];
// block_sum(float* src, float* dst, uint n): dst[blockIdx.x] is the sum of
// the block's elements, reduced in dynamic shared memory (blockDim.x * 4
// bytes, a power-of-two block).
extern const char kBlockSumGlsl[];
// block_index(uint* out): out[blockIdx.x] = blockIdx.x + 1 (thread 0 of each
// block).
extern const char kBlockIndexGlsl[];
// param_sum(float* out, float values[256]): out[0] = sum of values. 1032
// bytes of parameters: beyond every device's push-constant limit.
extern const char kParamSumGlsl[];
inline constexpr int kParamSumValues = 256;
// scaled_table(float* out, float factor): out[i] = table[i] * factor for
// i < 16, where `table` (16 floats) and `counter` (uint, incremented by
// every thread) are module globals (cuModuleGetGlobal).
extern const char kGlobalsGlsl[];
inline constexpr int kGlobalsTableSize = 16;
// reverse64(float* data): a fixed 64-thread block (literal workgroup size)
// that reverses each 64-element chunk through 256 bytes of static shared
// memory.
extern const char kReverse64Glsl[];
// sample_lod(tex, float* coords, float* out, uint n): out[i] = the float
// texture tex2DLod samples at the (u, v, level) triple coords[3i..3i+2].
extern const char kSampleLodGlsl[];
// GLSL that does not compile.
extern const char kBrokenGlsl[];

// SPIR-V assembly with linkage (Vulkan's GLSL has no way to export a
// function), for the linker: kLinkWeightLibrarySpvasm exports
// `int link_weight(int x, int y)` (x * 7 - y) and has no kernel;
// kLinkWeightKernelSpvasm's kernel spirv_link_call(int n, int* data) sets
// data[i] = link_weight(data[i], i), calling the function it imports.
extern const char kLinkWeightLibrarySpvasm[];
extern const char kLinkWeightKernelSpvasm[];

// --- Images built in process -------------------------------------------------

// SPIR-V compiled with core's glslang front end; the entry point is `name`.
std::vector<uint32_t> CompileToSpirv(const char* source, const char* name);
// SPIR-V assembled with SPIRV-Tools (SPIR-V 1.5).
std::vector<uint32_t> AssembleSpirv(const char* text);
// Raw SPIR-V as bytes (a .spv file).
std::vector<uint8_t> SpirvBytes(const std::vector<uint32_t>& words);
// An ELF code object with one .spirv section per module.
std::vector<uint8_t> ElfImage(const std::vector<std::vector<uint32_t>>& modules);
// A clang offload bundle: an empty host entry and one SPIR-V entry holding
// `payload` under the bundle id streamhal looks for.
std::vector<uint8_t> FatBinaryImage(const std::vector<uint8_t>& payload);
// A bundle with only a host entry and an entry for another GPU.
std::vector<uint8_t> FatBinaryWithoutSpirv();

// Writes `bytes` to a new file in the test temporary directory; returns its
// path.
std::string WriteTempFile(const std::string& name, const std::vector<uint8_t>& bytes);
std::string WriteTempFile(const std::string& name, const std::string& text);

// --- Modules and memory --------------------------------------------------------

// Loads an image with cuModuleLoadData / hipModuleLoadData and looks up
// `name`; a failure is a test failure and gives null handles.
CUfunction LoadCudaKernel(const void* image, const char* name, CUmodule* module);
hipFunction_t LoadHipKernel(const void* image, const char* name, hipModule_t* module);

// Device addresses in either API's spelling.
inline void* AsHipPointer(CUdeviceptr pointer) {
  return reinterpret_cast<void*>(static_cast<uintptr_t>(pointer));
}
inline CUdeviceptr AsCudaPointer(const void* pointer) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(pointer));
}

// cuMemAlloc + cuMemcpyHtoD of `values` (0 on failure, with a test failure).
template <typename T>
CUdeviceptr CudaUpload(const std::vector<T>& values) {
  CUdeviceptr pointer = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemAlloc(&pointer, values.size() * sizeof(T)));
  if (pointer == 0) return 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyHtoD(pointer, values.data(), values.size() * sizeof(T)));
  return pointer;
}

// cuMemcpyDtoH of `count` elements (the test fails if the copy does).
template <typename T>
std::vector<T> CudaDownload(CUdeviceptr pointer, size_t count) {
  std::vector<T> values(count);
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoH(values.data(), pointer, count * sizeof(T)));
  return values;
}

// Runs vector_add on `n` elements through one API (allocations, copies,
// launch with kernelParams, copy back) and checks c = a + b.
void ExpectCudaVectorAdd(CUfunction function, uint32_t n);
void ExpectHipVectorAdd(hipFunction_t function, uint32_t n);

// Values 0, 1, 2, ... scaled by `scale`.
std::vector<float> Iota(size_t count, float scale = 1.0f);

// A device limit (cuDeviceGetAttribute on device 0).
int DeviceAttribute(CUdevice_attribute attribute);

// Every test here runs in a fresh driver with a new context current, once
// the driver has shown that it hands out usable device addresses.
class ContextTest : public DriverTest {
 protected:
  void SetUp() override;

  CUcontext context() const { return context_; }

 private:
  CUcontext context_ = nullptr;
};

}  // namespace streamhal::conformance

#endif  // STREAMHAL_CONFORMANCE_TESTS_CONFORMANCE_KERNELS_H_
