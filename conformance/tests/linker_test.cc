// Rows: the JIT linker (cuLinkCreate, cuLinkAddData, cuLinkAddFile,
// cuLinkComplete, cuLinkDestroy and the hipLink* twins). Relocatable PTX
// from nvcc (conformance/ptx_corpus/link_*.cu, -rdc=true), given as PTX or in
// host objects and a static library, links so that a kernel of one input uses
// a variable or calls a function another defines; SPIR-V inputs with linkage
// are joined; the image cuLinkComplete writes loads with cuModuleLoadData and
// its kernels run.
// Bad inputs give CUDA's codes and lose nothing: the state takes the next
// input and completes.
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"
#include "ptx_corpus.h"

namespace streamhal::conformance {
namespace {

using LinkerConformance = ContextTest;

// A link state whose error log a test reads (CU_JIT_ERROR_LOG_BUFFER). The
// option values live as long as the state: the driver writes the log's size
// back into them.
struct LinkWithErrorLog {
  char error_log[1024] = {};
  CUjit_option options[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[2] = {error_log, reinterpret_cast<void*>(sizeof(error_log))};
  CUlinkState state = nullptr;

  LinkWithErrorLog() = default;
  LinkWithErrorLog(const LinkWithErrorLog&) = delete;  // values point into it
  LinkWithErrorLog& operator=(const LinkWithErrorLog&) = delete;
  CUresult Create() { return cuLinkCreate(2, options, values, &state); }
};

// PTX text as cuLinkAddData takes it: the bytes with their NUL.
void AddPtx(CUlinkState state, const char* ptx, const char* name,
            CUresult expected = CUDA_SUCCESS) {
  EXPECT_CU(expected, cuLinkAddData(state, CU_JIT_INPUT_PTX, const_cast<char*>(ptx),
                                    std::strlen(ptx) + 1, name, 0, nullptr, nullptr));
}

CUfunction Function(CUmodule module, const char* name) {
  CUfunction f = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuModuleGetFunction(&f, module, name));
  return f;
}

void LaunchAndWait(CUfunction f, unsigned n, void** params) {
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(f, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
}

TEST_F(LinkerConformance, PtxInputsShareTheVariableOneDefinesAndTheOtherDeclares) {
  char info_log[1024] = {};
  char error_log[1024] = {};
  void* const kUnwritten = reinterpret_cast<void*>(~uintptr_t{0});
  CUjit_option options[] = {CU_JIT_WALL_TIME,
                            CU_JIT_INFO_LOG_BUFFER,
                            CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_LOG_VERBOSE};
  // CUDA keeps these arrays for the state's life and writes back into them.
  void* values[] = {kUnwritten,
                    info_log,
                    reinterpret_cast<void*>(sizeof(info_log)),
                    error_log,
                    reinterpret_cast<void*>(sizeof(error_log)),
                    reinterpret_cast<void*>(1)};
  CUlinkState state = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLinkCreate(6, options, values, &state));
  ASSERT_NE(state, nullptr);
  AddPtx(state, PtxLinkOffset(), "link_offset.ptx");
  AddPtx(state, PtxLinkScale(), "link_scale.ptx");
  void* image = nullptr;
  size_t size = 0;
  ASSERT_CU(CUDA_SUCCESS, cuLinkComplete(state, &image, &size));
  ASSERT_NE(image, nullptr);
  EXPECT_GT(size, 0u);
  EXPECT_NE(values[0], kUnwritten);  // the wall time, a float in the slot
  EXPECT_NE(std::strstr(info_log, "2 PTX"), nullptr) << info_log;
  EXPECT_EQ(reinterpret_cast<uintptr_t>(values[2]), std::strlen(info_log) + 1);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(values[4]), 1u);  // an empty error log: the NUL

  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&module, image));
  // The module holds its own copy: the state may go.
  EXPECT_CU(CUDA_SUCCESS, cuLinkDestroy(state));
  CUdeviceptr factor = 0;
  size_t factor_bytes = 0;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetGlobal(&factor, &factor_bytes, module, "link_factor"));
  EXPECT_EQ(factor_bytes, 4u);
  int value = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&value, factor, sizeof(value)));
  EXPECT_EQ(value, 3);  // link_scale's initialiser

  int n = 1000;
  std::vector<int> data(n);
  for (int i = 0; i < n; ++i) data[i] = i;
  CUdeviceptr d = CudaUpload(data);
  void* params[] = {&n, &d};
  LaunchAndWait(Function(module, "link_offset"), n, params);  // += 100 * 3, read through the extern
  LaunchAndWait(Function(module, "link_scale"), n, params);   // *= 3
  int new_factor = 7;
  void* set_params[] = {&new_factor};
  LaunchAndWait(Function(module, "link_set_factor"), 1, set_params);  // written through the extern
  LaunchAndWait(Function(module, "link_scale"), n, params);  // *= 7, read where it was defined
  const std::vector<int> out = CudaDownload<int>(d, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], (i + 300) * 3 * 7) << i;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&value, factor, sizeof(value)));
  EXPECT_EQ(value, 7);
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(LinkerConformance, PtxInputCallsTheDeviceFunctionAnotherDefines) {
  CUlinkState state = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLinkCreate(0, nullptr, nullptr, &state));
  AddPtx(state, PtxLinkCallB(), "link_call_b.ptx");
  AddPtx(state, PtxLinkCallA(), "link_call_a.ptx");
  void* image = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLinkComplete(state, &image, nullptr));
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&module, image));
  EXPECT_CU(CUDA_SUCCESS, cuLinkDestroy(state));
  int n = 1000;
  std::vector<int> data(n);
  for (int i = 0; i < n; ++i) data[i] = i - 500;
  CUdeviceptr d = CudaUpload(data);
  void* params[] = {&n, &d};
  LaunchAndWait(Function(module, "link_call_b"), n, params);  // calls through the extern
  LaunchAndWait(Function(module, "link_call_a"), n, params);  // calls where it is defined
  const std::vector<int> out = CudaDownload<int>(d, n);
  auto weight = [](int x, int y) { return x * 7 - y; };
  for (int i = 0; i < n; ++i) {
    int expected = data[i];
    if (expected & 1) expected = weight(expected + 1, 2 * i);
    ASSERT_EQ(out[i], weight(expected, i)) << i;
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(LinkerConformance, CallOfAnUndefinedDeviceFunctionIsInvalidImage) {
  LinkWithErrorLog link;
  ASSERT_CU(CUDA_SUCCESS, link.Create());
  CUlinkState state = link.state;
  const char* error_log = link.error_log;
  AddPtx(state, PtxLinkCallB(), "b.ptx");
  void* image = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_IMAGE, cuLinkComplete(state, &image, nullptr));
  EXPECT_NE(std::strstr(error_log, "undefined reference to '_Z11link_weightii' in 'b.ptx'"),
            nullptr)
      << error_log;
  EXPECT_CU(CUDA_SUCCESS, cuLinkDestroy(state));
  // Loaded alone, the call has no definition either.
  CUmodule module = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_PTX, cuModuleLoadData(&module, PtxLinkCallB()));
}

TEST_F(LinkerConformance, UnresolvedExternIsInvalidImageAndTheStateStillLinks) {
  LinkWithErrorLog link;
  ASSERT_CU(CUDA_SUCCESS, link.Create());
  CUlinkState state = link.state;
  const char* error_log = link.error_log;
  AddPtx(state, PtxLinkOffset(), "offset");
  void* image = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_IMAGE, cuLinkComplete(state, &image, nullptr));
  EXPECT_EQ(image, nullptr);
  EXPECT_NE(std::strstr(error_log, "undefined reference to 'link_factor' in 'offset'"), nullptr)
      << error_log;
  // The definition arrives; the same state completes.
  AddPtx(state, PtxLinkScale(), "scale");
  ASSERT_CU(CUDA_SUCCESS, cuLinkComplete(state, &image, nullptr));
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&module, image));
  EXPECT_NE(Function(module, "link_offset"), nullptr);
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_SUCCESS, cuLinkDestroy(state));
}

TEST_F(LinkerConformance, MalformedPtxIsInvalidPtxWhenAddedWithTheInputInTheLog) {
  char error_log[512] = {};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {error_log, reinterpret_cast<void*>(sizeof(error_log))};
  CUlinkState state = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLinkCreate(0, nullptr, nullptr, &state));
  constexpr char kBroken[] =
      ".version 8.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n\tmov.u32 %r1 "
      "1;\n}\n";
  EXPECT_CU(CUDA_ERROR_INVALID_PTX,
            cuLinkAddData(state, CU_JIT_INPUT_PTX, const_cast<char*>(kBroken), sizeof(kBroken),
                          "broken.ptx", 2, options, values));
  EXPECT_NE(std::strstr(error_log, "broken.ptx: ptx line 6"), nullptr) << error_log;
  // Nothing of the bad input stays: the good one links alone.
  AddPtx(state, PtxVectorAdd(), "vector_add.ptx");
  void* image = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLinkComplete(state, &image, nullptr));
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&module, image));
  ExpectCudaVectorAdd(Function(module, "vector_add"), 300);
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_SUCCESS, cuLinkDestroy(state));
}

TEST_F(LinkerConformance, CubinFatBinaryAndGlslInputsLinkBesidePtx) {
  CUlinkState state = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLinkCreate(0, nullptr, nullptr, &state));
  std::vector<uint8_t> elf = ElfImage({CompileToSpirv(kScaleOffsetGlsl, "scale_offset")});
  ASSERT_CU(CUDA_SUCCESS, cuLinkAddData(state, CU_JIT_INPUT_CUBIN, elf.data(), elf.size(),
                                        "scale_offset.elf", 0, nullptr, nullptr));
  std::vector<unsigned char> fatbin = FatbinVectorAdd();
  ASSERT_CU(CUDA_SUCCESS, cuLinkAddData(state, CU_JIT_INPUT_FATBINARY, fatbin.data(), fatbin.size(),
                                        "vector_add.fatbin", 0, nullptr, nullptr));
  // GLSL source is the JIT-source input, as PTX is.
  ASSERT_CU(CUDA_SUCCESS, cuLinkAddData(state, CU_JIT_INPUT_PTX, const_cast<char*>(kBlockIndexGlsl),
                                        std::strlen(kBlockIndexGlsl) + 1, "block_index.comp", 0,
                                        nullptr, nullptr));
  AddPtx(state, PtxLinkScale(), "link_scale.ptx");
  void* image = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLinkComplete(state, &image, nullptr));
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&module, image));
  unsigned count = 0;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunctionCount(&count, module));
  EXPECT_EQ(count, 4u);
  ExpectCudaVectorAdd(Function(module, "vector_add"), 500);
  // scale_offset(float* data, float scale, float offset, uint n).
  unsigned n = 256;
  const std::vector<float> in = Iota(n);
  CUdeviceptr d = CudaUpload(in);
  float scale = 2.0f, offset = 0.5f;
  void* params[] = {&d, &scale, &offset, &n};
  LaunchAndWait(Function(module, "scale_offset"), n, params);
  const std::vector<float> out = CudaDownload<float>(d, n);
  for (unsigned i = 0; i < n; ++i) ASSERT_EQ(out[i], in[i] * 2.0f + 0.5f) << i;
  // block_index(uint* out): out[b] = b + 1.
  CUdeviceptr blocks = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&blocks, 8 * sizeof(uint32_t)));
  void* block_params[] = {&blocks};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(Function(module, "block_index"), 8, 1, 1, 32, 1, 1, 0,
                                         nullptr, block_params, nullptr));
  const std::vector<uint32_t> indices = CudaDownload<uint32_t>(blocks, 8);
  for (uint32_t b = 0; b < 8; ++b) EXPECT_EQ(indices[b], b + 1) << b;
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(blocks));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_SUCCESS, cuLinkDestroy(state));
}

TEST_F(LinkerConformance, AKernelTwoInputsDefineIsInvalidImage) {
  CUlinkState state = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLinkCreate(0, nullptr, nullptr, &state));
  AddPtx(state, PtxVectorAdd(), "a.ptx");
  AddPtx(state, PtxVectorAdd(), "b.ptx");
  void* image = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_IMAGE, cuLinkComplete(state, &image, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuLinkDestroy(state));
  // The same name from a compiled input and from PTX.
  ASSERT_CU(CUDA_SUCCESS, cuLinkCreate(0, nullptr, nullptr, &state));
  ASSERT_CU(CUDA_SUCCESS,
            cuLinkAddData(state, CU_JIT_INPUT_PTX, const_cast<char*>(kVectorAddGlsl),
                          std::strlen(kVectorAddGlsl) + 1, "vector_add.comp", 0, nullptr, nullptr));
  AddPtx(state, PtxVectorAdd(), "vector_add.ptx");
  EXPECT_CU(CUDA_ERROR_INVALID_IMAGE, cuLinkComplete(state, &image, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuLinkDestroy(state));
}

TEST_F(LinkerConformance, AddFileReadsInputsFromFiles) {
  const std::string scale = WriteTempFile("link_scale.ptx", std::string(PtxLinkScale()));
  const std::string offset = WriteTempFile("link_offset.ptx", std::string(PtxLinkOffset()));
  CUlinkState state = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLinkCreate(0, nullptr, nullptr, &state));
  ASSERT_CU(CUDA_SUCCESS,
            cuLinkAddFile(state, CU_JIT_INPUT_PTX, scale.c_str(), 0, nullptr, nullptr));
  ASSERT_CU(CUDA_SUCCESS,
            cuLinkAddFile(state, CU_JIT_INPUT_PTX, offset.c_str(), 0, nullptr, nullptr));
  EXPECT_CU(
      CUDA_ERROR_FILE_NOT_FOUND,
      cuLinkAddFile(state, CU_JIT_INPUT_PTX, (scale + ".missing").c_str(), 0, nullptr, nullptr));
  void* image = nullptr;
  size_t size = 0;
  ASSERT_CU(CUDA_SUCCESS, cuLinkComplete(state, &image, &size));
  // The image is a file too: written out, cuModuleLoad takes it.
  const std::string path = WriteTempFile(
      "linked.cubin",
      std::vector<uint8_t>(static_cast<uint8_t*>(image), static_cast<uint8_t*>(image) + size));
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoad(&module, path.c_str()));
  EXPECT_NE(Function(module, "link_offset"), nullptr);
  EXPECT_NE(Function(module, "link_scale"), nullptr);
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_SUCCESS, cuLinkDestroy(state));
}

TEST_F(LinkerConformance, BadArgumentsAreRejectedAndChangeNothing) {
  CUlinkState state = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLinkCreate(0, nullptr, nullptr, nullptr));
  CUjit_option bad_option[] = {static_cast<CUjit_option>(999)};
  void* bad_value[] = {nullptr};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLinkCreate(1, bad_option, bad_value, &state));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLinkCreate(1, nullptr, nullptr, &state));
  EXPECT_EQ(state, nullptr);
  ASSERT_CU(CUDA_SUCCESS, cuLinkCreate(0, nullptr, nullptr, &state));

  char ptx[] = "x";
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuLinkAddData(nullptr, CU_JIT_INPUT_PTX, ptx, 2, "x", 0, nullptr, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLinkAddData(state, CU_JIT_INPUT_PTX, nullptr, 2, "x", 0, nullptr, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLinkAddData(state, CU_JIT_INPUT_PTX, ptx, 0, "x", 0, nullptr, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLinkAddData(state, static_cast<CUjitInputType>(42), ptx, 2,
                                                    "x", 0, nullptr, nullptr));
  // Data of another kind than the type says.
  const char* vector_add = PtxVectorAdd();
  EXPECT_CU(CUDA_ERROR_INVALID_IMAGE,
            cuLinkAddData(state, CU_JIT_INPUT_CUBIN, const_cast<char*>(vector_add),
                          std::strlen(vector_add) + 1, "ptx-as-cubin", 0, nullptr, nullptr));
  std::vector<uint8_t> elf = ElfImage({CompileToSpirv(kVectorAddGlsl, "vector_add")});
  EXPECT_CU(CUDA_ERROR_INVALID_PTX, cuLinkAddData(state, CU_JIT_INPUT_PTX, elf.data(), elf.size(),
                                                  "elf-as-ptx", 0, nullptr, nullptr));
  std::vector<uint8_t> garbage(64, 0xab);
  EXPECT_CU(CUDA_ERROR_INVALID_IMAGE,
            cuLinkAddData(state, CU_JIT_INPUT_CUBIN, garbage.data(), garbage.size(), "garbage", 0,
                          nullptr, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLinkAddFile(state, CU_JIT_INPUT_PTX, nullptr, 0, nullptr, nullptr));
  void* image = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLinkComplete(state, nullptr, nullptr));
  // Every input above was refused: there is nothing to link.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLinkComplete(state, &image, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLinkComplete(nullptr, &image, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuLinkDestroy(state));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLinkDestroy(state));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuLinkAddData(state, CU_JIT_INPUT_PTX, ptx, 2, "x", 0, nullptr, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLinkComplete(state, &image, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLinkDestroy(nullptr));
  // CUDA: a link targets the current context's device.
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuLinkCreate(0, nullptr, nullptr, &state));
}

// NVVM IR is LLVM bitcode for NVIDIA's link-time optimizer: there is no
// Vulkan path for it.
TEST_F(LinkerConformance, NvvmIsNotSupported) {
  ProvesNotSupported();
  CUlinkState state = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLinkCreate(0, nullptr, nullptr, &state));
  const std::string nvvm = WriteTempFile("kernel.nvvm", std::string("BC\xc0\xde"));
  char bytes[] = "BC\xc0\xde";
  EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuLinkAddData(state, CU_JIT_INPUT_NVVM, bytes, sizeof(bytes),
                                                    "kernel.nvvm", 0, nullptr, nullptr));
  EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED,
            cuLinkAddFile(state, CU_JIT_INPUT_NVVM, nvvm.c_str(), 0, nullptr, nullptr));
  // The state is unharmed.
  AddPtx(state, PtxVectorAdd(), "vector_add.ptx");
  void* image = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuLinkComplete(state, &image, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuLinkDestroy(state));
}

void AddBytes(CUlinkState state, CUjitInputType type, std::vector<unsigned char> bytes,
              const char* name, CUresult expected = CUDA_SUCCESS) {
  EXPECT_CU(expected,
            cuLinkAddData(state, type, bytes.data(), bytes.size(), name, 0, nullptr, nullptr));
}

// link_offset adds 100 * link_factor (3, defined by link_scale), link_scale
// multiplies by it.
void ExpectCudaScaleAndOffset(CUmodule module) {
  int n = 700;
  std::vector<int> data(n);
  for (int i = 0; i < n; ++i) data[i] = i;
  CUdeviceptr d = CudaUpload(data);
  void* params[] = {&n, &d};
  LaunchAndWait(Function(module, "link_offset"), n, params);
  LaunchAndWait(Function(module, "link_scale"), n, params);
  const std::vector<int> out = CudaDownload<int>(d, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], (i + 300) * 3) << i;
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d));
}

int LinkWeight(int x, int y) { return x * 7 - y; }

// link_call_b then link_call_a, both calling link_weight (link_call_a.cu).
void ExpectCudaLinkCalls(CUmodule module) {
  int n = 600;
  std::vector<int> data(n);
  for (int i = 0; i < n; ++i) data[i] = i - 300;
  CUdeviceptr d = CudaUpload(data);
  void* params[] = {&n, &d};
  LaunchAndWait(Function(module, "link_call_b"), n, params);
  LaunchAndWait(Function(module, "link_call_a"), n, params);
  const std::vector<int> out = CudaDownload<int>(d, n);
  for (int i = 0; i < n; ++i) {
    int expected = data[i];
    if (expected & 1) expected = LinkWeight(expected + 1, 2 * i);
    ASSERT_EQ(out[i], LinkWeight(expected, i)) << i;
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d));
}

TEST_F(LinkerConformance, HostObjectsLinkTheirDeviceCode) {
  CUlinkState state = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLinkCreate(0, nullptr, nullptr, &state));
  // nvcc -rdc=true -c: relocatable device code in __nv_relfatbin; the extern
  // link_factor of one object binds to the other's definition.
  AddBytes(state, CU_JIT_INPUT_OBJECT, ObjectLinkOffset(), "link_offset.o");
  AddBytes(state, CU_JIT_INPUT_OBJECT, ObjectLinkScale(), "link_scale.o");
  // nvcc -c: whole-program device code in .nv_fatbin.
  AddBytes(state, CU_JIT_INPUT_OBJECT, ObjectVectorAdd(), "vector_add.o");
  void* image = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLinkComplete(state, &image, nullptr));
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&module, image));
  EXPECT_CU(CUDA_SUCCESS, cuLinkDestroy(state));
  ExpectCudaScaleAndOffset(module);
  ExpectCudaVectorAdd(Function(module, "vector_add"), 333);
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(LinkerConformance, LibraryMembersWithDeviceCodeLink) {
  CUlinkState state = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLinkCreate(0, nullptr, nullptr, &state));
  // nvcc -lib of two relocatable objects (one calls the other's __device__
  // function) and a host-only member, which has nothing to add.
  AddBytes(state, CU_JIT_INPUT_LIBRARY, LibraryLinkCall(), "link_call.a");
  void* image = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLinkComplete(state, &image, nullptr));
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&module, image));
  EXPECT_CU(CUDA_SUCCESS, cuLinkDestroy(state));
  unsigned count = 0;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunctionCount(&count, module));
  EXPECT_EQ(count, 2u);
  ExpectCudaLinkCalls(module);
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(LinkerConformance, AddFileTakesHostObjectsAndLibraries) {
  const std::string scale = WriteTempFile("link_scale.o", ObjectLinkScale());
  const std::string offset = WriteTempFile("link_offset.o", ObjectLinkOffset());
  const std::string library = WriteTempFile("link_call.a", LibraryLinkCall());
  CUlinkState state = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLinkCreate(0, nullptr, nullptr, &state));
  ASSERT_CU(CUDA_SUCCESS,
            cuLinkAddFile(state, CU_JIT_INPUT_OBJECT, scale.c_str(), 0, nullptr, nullptr));
  ASSERT_CU(CUDA_SUCCESS,
            cuLinkAddFile(state, CU_JIT_INPUT_OBJECT, offset.c_str(), 0, nullptr, nullptr));
  ASSERT_CU(CUDA_SUCCESS,
            cuLinkAddFile(state, CU_JIT_INPUT_LIBRARY, library.c_str(), 0, nullptr, nullptr));
  void* image = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLinkComplete(state, &image, nullptr));
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&module, image));
  EXPECT_CU(CUDA_SUCCESS, cuLinkDestroy(state));
  ExpectCudaScaleAndOffset(module);
  ExpectCudaLinkCalls(module);
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(LinkerConformance, MalformedObjectsAndLibrariesAreInvalidImageAndChangeNothing) {
  LinkWithErrorLog link;
  ASSERT_CU(CUDA_SUCCESS, link.Create());
  CUlinkState state = link.state;
  const char* error_log = link.error_log;

  std::vector<unsigned char> object = ObjectLinkScale();
  const std::vector<unsigned char> truncated(object.begin(), object.begin() + object.size() / 2);
  AddBytes(state, CU_JIT_INPUT_OBJECT, truncated, "truncated.o", CUDA_ERROR_INVALID_IMAGE);
  EXPECT_NE(std::strstr(error_log, "truncated.o: host object:"), nullptr) << error_log;
  const std::string truncated_file = WriteTempFile("truncated.o", truncated);
  EXPECT_CU(CUDA_ERROR_INVALID_IMAGE,
            cuLinkAddFile(state, CU_JIT_INPUT_OBJECT, truncated_file.c_str(), 0, nullptr, nullptr));
  AddBytes(state, CU_JIT_INPUT_OBJECT, ObjectHostOnly(), "host_only.o", CUDA_ERROR_INVALID_IMAGE);
  EXPECT_NE(std::strstr(error_log, "host_only.o: the host object holds no device code"), nullptr)
      << error_log;
  // PTX is not a host object, nor is an object a library.
  const char* ptx = PtxVectorAdd();
  AddBytes(state, CU_JIT_INPUT_OBJECT, std::vector<unsigned char>(ptx, ptx + std::strlen(ptx) + 1),
           "ptx-as-object", CUDA_ERROR_INVALID_IMAGE);
  AddBytes(state, CU_JIT_INPUT_LIBRARY, ObjectLinkScale(), "object-as-library",
           CUDA_ERROR_INVALID_IMAGE);
  AddBytes(state, CU_JIT_INPUT_LIBRARY, std::vector<unsigned char>(64, 0xab), "garbage.a",
           CUDA_ERROR_INVALID_IMAGE);
  std::vector<unsigned char> library = LibraryLinkCall();
  library.resize(library.size() - 100);  // the last member runs past the end
  AddBytes(state, CU_JIT_INPUT_LIBRARY, library, "truncated.a", CUDA_ERROR_INVALID_IMAGE);
  EXPECT_NE(std::strstr(error_log, "truncated.a: archive:"), nullptr) << error_log;
  const std::string garbage_file = WriteTempFile("garbage.a", std::string(100, 'x'));
  EXPECT_CU(CUDA_ERROR_INVALID_IMAGE,
            cuLinkAddFile(state, CU_JIT_INPUT_LIBRARY, garbage_file.c_str(), 0, nullptr, nullptr));
  // A bad member would have failed the whole library: nothing of it stays,
  // and the state links what comes next.
  AddBytes(state, CU_JIT_INPUT_OBJECT, ObjectVectorAdd(), "vector_add.o");
  void* image = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLinkComplete(state, &image, nullptr));
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&module, image));
  unsigned count = 0;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunctionCount(&count, module));
  EXPECT_EQ(count, 1u);
  ExpectCudaVectorAdd(Function(module, "vector_add"), 257);
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_SUCCESS, cuLinkDestroy(state));
}

// SPIR-V given to the linker that declares the Linkage capability is joined
// with the other such inputs: an Import binds to another input's Export.
TEST_F(LinkerConformance, SpirvInputsWithLinkageAreJoined) {
  LinkWithErrorLog link;
  ASSERT_CU(CUDA_SUCCESS, link.Create());
  CUlinkState state = link.state;
  const char* error_log = link.error_log;
  std::vector<uint8_t> kernel = SpirvBytes(AssembleSpirv(kLinkWeightKernelSpvasm));
  std::vector<uint8_t> library = SpirvBytes(AssembleSpirv(kLinkWeightLibrarySpvasm));
  ASSERT_CU(CUDA_SUCCESS, cuLinkAddData(state, CU_JIT_INPUT_CUBIN, kernel.data(), kernel.size(),
                                        "kernel.spv", 0, nullptr, nullptr));
  // The import has no export yet.
  void* image = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_IMAGE, cuLinkComplete(state, &image, nullptr));
  EXPECT_NE(std::strstr(error_log, "link_weight"), nullptr) << error_log;
  ASSERT_CU(CUDA_SUCCESS, cuLinkAddData(state, CU_JIT_INPUT_CUBIN, library.data(), library.size(),
                                        "library.spv", 0, nullptr, nullptr));
  // A module without linkage stays a module of its own beside them.
  std::vector<uint8_t> elf = ElfImage({CompileToSpirv(kVectorAddGlsl, "vector_add")});
  ASSERT_CU(CUDA_SUCCESS, cuLinkAddData(state, CU_JIT_INPUT_CUBIN, elf.data(), elf.size(),
                                        "vector_add.elf", 0, nullptr, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuLinkComplete(state, &image, nullptr));
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&module, image));
  EXPECT_CU(CUDA_SUCCESS, cuLinkDestroy(state));
  int n = 500;
  std::vector<int> data(n);
  for (int i = 0; i < n; ++i) data[i] = 3 * i - 100;
  CUdeviceptr d = CudaUpload(data);
  void* params[] = {&n, &d};
  LaunchAndWait(Function(module, "spirv_link_call"), n, params);
  const std::vector<int> out = CudaDownload<int>(d, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], LinkWeight(data[i], i)) << i;
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d));
  ExpectCudaVectorAdd(Function(module, "vector_add"), 100);
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(LinkerConformance, HipLinksHostObjectsLibrariesAndSpirvWithLinkage) {
  hipLinkState_t state = nullptr;
  ASSERT_HIP(hipSuccess, hipLinkCreate(0, nullptr, nullptr, &state));
  std::vector<unsigned char> library = LibraryLinkCall();
  ASSERT_HIP(hipSuccess, hipLinkAddData(state, hipJitInputLibrary, library.data(), library.size(),
                                        "link_call.a", 0, nullptr, nullptr));
  std::vector<unsigned char> object = ObjectVectorAdd();
  ASSERT_HIP(hipSuccess, hipLinkAddData(state, hipJitInputObject, object.data(), object.size(),
                                        "vector_add.o", 0, nullptr, nullptr));
  std::vector<unsigned char> host_only = ObjectHostOnly();
  EXPECT_HIP(hipErrorInvalidImage,
             hipLinkAddData(state, hipJitInputObject, host_only.data(), host_only.size(),
                            "host_only.o", 0, nullptr, nullptr));
  std::vector<unsigned char> garbage(64, 0xab);
  EXPECT_HIP(hipErrorInvalidImage,
             hipLinkAddData(state, hipJitInputLibrary, garbage.data(), garbage.size(), "garbage.a",
                            0, nullptr, nullptr));
  std::vector<uint8_t> kernel = SpirvBytes(AssembleSpirv(kLinkWeightKernelSpvasm));
  std::vector<uint8_t> weight = SpirvBytes(AssembleSpirv(kLinkWeightLibrarySpvasm));
  ASSERT_HIP(hipSuccess, hipLinkAddData(state, hipJitInputSpirv, weight.data(), weight.size(),
                                        "library.spv", 0, nullptr, nullptr));
  ASSERT_HIP(hipSuccess, hipLinkAddData(state, hipJitInputSpirv, kernel.data(), kernel.size(),
                                        "kernel.spv", 0, nullptr, nullptr));
  void* image = nullptr;
  size_t size = 0;
  ASSERT_HIP(hipSuccess, hipLinkComplete(state, &image, &size));
  hipModule_t module = nullptr;
  ASSERT_HIP(hipSuccess, hipModuleLoadData(&module, image));
  EXPECT_HIP(hipSuccess, hipLinkDestroy(state));
  hipFunction_t f = nullptr;
  ASSERT_HIP(hipSuccess, hipModuleGetFunction(&f, module, "vector_add"));
  ExpectHipVectorAdd(f, 200);
  int n = 300;
  std::vector<int> data(n);
  for (int i = 0; i < n; ++i) data[i] = i + 1;
  hipDeviceptr_t d = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&d, n * sizeof(int)));
  ASSERT_HIP(hipSuccess, hipMemcpyHtoD(d, data.data(), n * sizeof(int)));
  void* params[] = {&n, &d};
  for (const char* name : {"link_call_a", "spirv_link_call"}) {
    ASSERT_HIP(hipSuccess, hipModuleGetFunction(&f, module, name));
    ASSERT_HIP(hipSuccess, hipModuleLaunchKernel(f, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr,
                                                 params, nullptr));
  }
  std::vector<int> out(n);
  ASSERT_HIP(hipSuccess, hipMemcpyDtoH(out.data(), d, n * sizeof(int)));
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], LinkWeight(LinkWeight(data[i], i), i)) << i;
  EXPECT_HIP(hipSuccess, hipFree(d));
  EXPECT_HIP(hipSuccess, hipModuleUnload(module));
}

TEST_F(LinkerConformance, HipLinksThroughTheSameLinker) {
  hipLinkState_t state = nullptr;
  ASSERT_HIP(hipSuccess, hipLinkCreate(0, nullptr, nullptr, &state));
  const char* ptx = PtxVectorAdd();
  ASSERT_HIP(hipSuccess,
             hipLinkAddData(state, hipJitInputPtx, const_cast<char*>(ptx), std::strlen(ptx) + 1,
                            "vector_add.ptx", 0, nullptr, nullptr));
  std::vector<uint8_t> spirv = SpirvBytes(CompileToSpirv(kScaleOffsetGlsl, "scale_offset"));
  ASSERT_HIP(hipSuccess, hipLinkAddData(state, hipJitInputSpirv, spirv.data(), spirv.size(),
                                        "scale_offset.spv", 0, nullptr, nullptr));
  EXPECT_HIP(hipErrorNotSupported, hipLinkAddData(state, hipJitInputLLVMBitcode, spirv.data(),
                                                  spirv.size(), "bitcode", 0, nullptr, nullptr));
  EXPECT_HIP(hipErrorInvalidValue,
             hipLinkAddData(state, static_cast<hipJitInputType>(77), spirv.data(), spirv.size(),
                            "unknown", 0, nullptr, nullptr));
  void* image = nullptr;
  size_t size = 0;
  ASSERT_HIP(hipSuccess, hipLinkComplete(state, &image, &size));
  hipModule_t module = nullptr;
  ASSERT_HIP(hipSuccess, hipModuleLoadData(&module, image));
  hipFunction_t f = nullptr;
  ASSERT_HIP(hipSuccess, hipModuleGetFunction(&f, module, "vector_add"));
  ExpectHipVectorAdd(f, 400);
  ASSERT_HIP(hipSuccess, hipModuleGetFunction(&f, module, "scale_offset"));
  EXPECT_HIP(hipSuccess, hipModuleUnload(module));
  EXPECT_HIP(hipSuccess, hipLinkDestroy(state));
  EXPECT_HIP(hipErrorInvalidHandle, hipLinkDestroy(state));
  EXPECT_HIP(hipErrorInvalidValue, hipLinkCreate(0, nullptr, nullptr, nullptr));
}

}  // namespace
}  // namespace streamhal::conformance
