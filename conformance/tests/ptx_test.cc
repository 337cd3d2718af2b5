// Rows: loading PTX (cuModuleLoadData / cuModuleLoadDataEx / cuModuleLoad of
// what nvcc -ptx writes) and running its kernels. Each kernel of the corpus
// (conformance/ptx_corpus/*.cu, PTX checked in) runs on the device and is
// checked against the same computation on the host; PTX outside the covered
// subset is CUDA_ERROR_INVALID_PTX with the line in the JIT error log.
#include <cuda.h>
#include <hip/hip_runtime_api.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"
#include "ptx_corpus.h"

namespace streamhal::conformance {
namespace {

using PtxConformance = ContextTest;

CUfunction LoadPtx(const char* ptx, const char* name, CUmodule* module) {
  *module = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuModuleLoadData(module, ptx));
  CUfunction function = nullptr;
  if (*module != nullptr) {
    EXPECT_CU(CUDA_SUCCESS, cuModuleGetFunction(&function, *module, name));
  }
  return function;
}

void Launch(CUfunction f, unsigned grid, unsigned block, void** params, unsigned shared = 0) {
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(f, grid, 1, 1, block, 1, 1, shared, nullptr, params, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
}

TEST_F(PtxConformance, VectorAddRunsThroughBothApis) {
  CUmodule module = nullptr;
  ExpectCudaVectorAdd(LoadPtx(PtxVectorAdd(), "vector_add", &module), 1000);
  hipModule_t hip_module = nullptr;
  ASSERT_HIP(hipSuccess, hipModuleLoadData(&hip_module, PtxVectorAdd()));
  hipFunction_t hip_function = nullptr;
  ASSERT_HIP(hipSuccess, hipModuleGetFunction(&hip_function, hip_module, "vector_add"));
  ExpectHipVectorAdd(hip_function, 777);
  EXPECT_HIP(hipSuccess, hipModuleUnload(hip_module));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(PtxConformance, SaxpyTakesScalarsAndPointersInCudaLayout) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxSaxpy(), "saxpy", &module);
  ASSERT_NE(f, nullptr);
  int n = 1000;
  float a = 1.5f;
  const std::vector<float> x = Iota(n, 0.5f), y = Iota(n, 2.0f);
  CUdeviceptr dx = CudaUpload(x), dy = CudaUpload(y);
  void* params[] = {&n, &a, &dx, &dy};
  Launch(f, (n + 127) / 128, 128, params);
  const std::vector<float> out = CudaDownload<float>(dy, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], std::fma(a, x[i], y[i])) << i;
  // The same launch with the packed `extra` buffer (CUDA's offsets).
  struct {
    int n;
    float a;
    CUdeviceptr x, y;
  } packed = {n, 2.0f, dx, dy};
  size_t size = sizeof(packed);
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                   CU_LAUNCH_PARAM_END};
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, nullptr, extra));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  const std::vector<float> out2 = CudaDownload<float>(dy, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(out2[i], std::fma(2.0f, x[i], out[i])) << i;
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dx));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dy));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(PtxConformance, GridStrideLoopCoversEveryElement) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxGridStride(), "grid_stride", &module);
  ASSERT_NE(f, nullptr);
  unsigned n = 10007;
  std::vector<uint32_t> in(n);
  for (unsigned i = 0; i < n; ++i) in[i] = i * 2654435761u;
  CUdeviceptr din = CudaUpload(in), dout = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dout, n * 4));
  void* params[] = {&din, &dout, &n};
  Launch(f, 4, 64, params);  // about 40 iterations per thread
  const std::vector<uint32_t> out = CudaDownload<uint32_t>(dout, n);
  for (unsigned i = 0; i < n; ++i) ASSERT_EQ(out[i], in[i] * 3u + (i ^ 5u)) << i;
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(din));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dout));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(PtxConformance, BlockReductionUsesSharedMemoryAndBarriers) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxBlockReduce(), "block_reduce", &module);
  ASSERT_NE(f, nullptr);
  int shared_bytes = -1;
  ASSERT_CU(CUDA_SUCCESS,
            cuFuncGetAttribute(&shared_bytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
  EXPECT_EQ(shared_bytes, 1024);
  int n = 1000;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i % 17);  // exact sums
  const unsigned blocks = (n + 255) / 256;
  CUdeviceptr din = CudaUpload(in), dpartial = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dpartial, blocks * 4));
  void* params[] = {&din, &dpartial, &n};
  Launch(f, blocks, 256, params);
  const std::vector<float> partial = CudaDownload<float>(dpartial, blocks);
  for (unsigned b = 0; b < blocks; ++b) {
    float expected = 0;
    for (int i = static_cast<int>(b) * 256; i < std::min(n, static_cast<int>(b + 1) * 256); ++i) {
      expected += in[i];
    }
    EXPECT_EQ(partial[b], expected) << "block " << b;
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(din));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dpartial));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(PtxConformance, HistogramUsesSharedAndGlobalAtomics) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxHistogram(), "histogram", &module);
  ASSERT_NE(f, nullptr);
  int n = 5000;
  std::vector<uint8_t> data(n);
  for (int i = 0; i < n; ++i) data[i] = static_cast<uint8_t>((i * 37 + i / 7) & 0xff);
  CUdeviceptr ddata = CudaUpload(data), dbins = 0, dtotal = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dbins, 64 * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(dbins, 0, 64));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dtotal, 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(dtotal, 0, 1));
  void* params[] = {&ddata, &n, &dbins, &dtotal};
  Launch(f, (n + 127) / 128, 128, params);
  std::vector<uint32_t> expected(64, 0);
  float total = 0;
  for (uint8_t v : data) {
    ++expected[v % 64];
    total += v;
  }
  EXPECT_EQ(CudaDownload<uint32_t>(dbins, 64), expected);
  EXPECT_EQ(CudaDownload<float>(dtotal, 1)[0], total);  // integer sums below 2^24: exact
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(ddata));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dbins));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dtotal));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(PtxConformance, EarlyReturnsBranchesConversionsAnd64BitMath) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxEarlyReturn(), "early_return", &module);
  ASSERT_NE(f, nullptr);
  int n = 3000;
  const int count = n + 100;  // threads past n return at once
  std::vector<int32_t> in(count);
  for (int i = 0; i < count; ++i) in[i] = (i % 5 == 0 ? -1 : 1) * (i * 7919 % 100003);
  CUdeviceptr din = CudaUpload(in), dout = 0, dwide = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dout, count * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(dout, 0xdeadbeef, count));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dwide, count * 8));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(dwide, 0, count * 2));
  void* params[] = {&din, &dout, &dwide, &n};
  Launch(f, (count + 63) / 64, 64, params);
  const std::vector<int32_t> out = CudaDownload<int32_t>(dout, count);
  const std::vector<double> wide = CudaDownload<double>(dwide, count);
  for (int i = 0; i < count; ++i) {
    const int v = in[i];
    if (i >= n) {
      ASSERT_EQ(static_cast<uint32_t>(out[i]), 0xdeadbeefu) << i;
      continue;
    }
    if (v < 0) {
      ASSERT_EQ(out[i], -v) << i;
      ASSERT_EQ(wide[i], 0.0) << i;
      continue;
    }
    const float fv = static_cast<float>(v) * 0.5f;
    const long long w = static_cast<long long>(v) * 1000003LL;
    const int r = (v % 7 == 0) ? static_cast<int>(fv + 1.0f) : (v / 3) - (v & 1);
    const int expected = (std::max(r, std::min(v, 100)) ^ (v << 2)) | static_cast<int>(w >> 20);
    ASSERT_EQ(out[i], expected) << i << " v=" << v;
    ASSERT_EQ(wide[i],
              static_cast<double>(fv) * 2.0 + static_cast<double>(static_cast<unsigned>(v)))
        << i;
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(din));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dout));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dwide));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(PtxConformance, ExternSharedIsDynamicSharedMemory) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxDynShared(), "dyn_reverse", &module);
  ASSERT_NE(f, nullptr);
  constexpr unsigned kBlock = 64, kBlocks = 5;
  std::vector<int32_t> in(kBlock * kBlocks);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int32_t>(i * 3 + 1);
  CUdeviceptr din = CudaUpload(in), dout = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dout, in.size() * 4));
  void* params[] = {&din, &dout};
  Launch(f, kBlocks, kBlock, params, kBlock * 4);
  const std::vector<int32_t> out = CudaDownload<int32_t>(dout, in.size());
  for (unsigned b = 0; b < kBlocks; ++b) {
    for (unsigned t = 0; t < kBlock; ++t) {
      ASSERT_EQ(out[b * kBlock + t], in[b * kBlock + (kBlock - 1 - t)]) << b << "," << t;
    }
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(din));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dout));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(PtxConformance, LoadReadsPtxFiles) {
  char path[] = "/tmp/streamhal_ptx_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  const std::string text = PtxVectorAdd();
  ASSERT_EQ(write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  close(fd);
  const std::string ptx_path = std::string(path) + ".ptx";
  ASSERT_EQ(std::rename(path, ptx_path.c_str()), 0);
  CUmodule module = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuModuleLoad(&module, ptx_path.c_str()));
  CUfunction f = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuModuleGetFunction(&f, module, "vector_add"));
  ExpectCudaVectorAdd(f, 300);
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  std::remove(ptx_path.c_str());
}

constexpr char kUnsupportedPtx[] =
    "//\n// hand-written\n//\n\n.version 8.0\n.target sm_75\n.address_size 64\n\n"
    ".visible .entry k(.param .u64 p)\n{\n\t.reg .b32 %r<3>;\n\tsad.u32 %r1, %r2, %r2, "
    "%r2;\n\tret;\n}\n";

TEST_F(PtxConformance, UnsupportedInstructionIsInvalidPtxWithTheLineInTheLog) {
  char error_log[1024];
  std::memset(error_log, 'x', sizeof(error_log));
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {error_log, reinterpret_cast<void*>(sizeof(error_log))};
  CUmodule module = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_PTX,
            cuModuleLoadDataEx(&module, kUnsupportedPtx, 2, options, values));
  EXPECT_EQ(module, nullptr);
  ASSERT_NE(std::memchr(error_log, '\0', sizeof(error_log)), nullptr);
  EXPECT_NE(std::strstr(error_log, "ptx line 12"), nullptr) << error_log;
  EXPECT_NE(std::strstr(error_log, "sad"), nullptr) << error_log;
  EXPECT_EQ(reinterpret_cast<uintptr_t>(values[1]), std::strlen(error_log) + 1);
  hipModule_t hip_module = nullptr;
  EXPECT_HIP(hipErrorInvalidKernelFile, hipModuleLoadData(&hip_module, kUnsupportedPtx));
}

TEST_F(PtxConformance, MalformedPtxIsInvalidPtx) {
  constexpr char kBroken[] =
      ".version 8.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n\tmov.u32 %r1 "
      "1;\n}\n";
  CUmodule module = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_PTX, cuModuleLoadData(&module, kBroken));
  EXPECT_EQ(module, nullptr);
}

// The covered subset is documented in docs/ptx.md: recursive device
// functions (Vulkan has no call stack) and warp-level instructions are not
// translated and fail the load.
TEST_F(PtxConformance, PtxOutsideTheCoveredSubsetIsInvalidPtx) {
  ProvesLimitation();
  constexpr char kRecursion[] =
      ".version 8.0\n.target sm_75\n.address_size 64\n"
      ".visible .func f()\n{\n\tcall f, ();\n\tret;\n}\n"
      ".visible .entry k()\n{\n\tcall f;\n\tret;\n}\n";
  CUmodule module = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_PTX, cuModuleLoadData(&module, kRecursion));
  // A warp instruction in a device function (docs/ptx.md, "Warps").
  constexpr char kShuffle[] =
      ".version 8.0\n.target sm_75\n.address_size 64\n"
      ".func (.reg .b32 r) f(.reg .b32 a)\n{\n\tshfl.sync.down.b32 r, a, 1, 31, -1;\n\tret;\n}\n"
      ".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n"
      "\tcall.uni (%r1), f, (%r2);\n\tret;\n}\n";
  EXPECT_CU(CUDA_ERROR_INVALID_PTX, cuModuleLoadData(&module, kShuffle));
}

// Threads that branch past a loop must not run it: the structured form runs
// each block only when the thread's current block names it, the loop's
// header included (found through ffmpeg's chromakey_cuda, whose skipping
// threads stored through a pointer they never loaded).
TEST_F(PtxConformance, ThreadsThatBranchPastALoopDoNotRunIt) {
  const char* ptx = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry skip_loop(.param .u64 out, .param .u32 n)
{
 .reg .pred %p<3>; .reg .b32 %r<8>; .reg .b64 %rd<6>;
 ld.param.u64 %rd1, [out];
 ld.param.u32 %r2, [n];
 mov.u32 %r1, %tid.x;
 mul.wide.u32 %rd2, %r1, 4;
 add.s64 %rd3, %rd1, %rd2;
 setp.ge.u32 %p1, %r1, %r2;
 @%p1 bra DONE;
 and.b32 %r5, %r1, 3;
 add.u32 %r5, %r5, 1;
 mov.u32 %r3, 0;
LOOP:
 ld.global.u32 %r4, [%rd3];
 add.u32 %r4, %r4, 10;
 st.global.u32 [%rd3], %r4;
 add.u32 %r3, %r3, 1;
 setp.lt.u32 %p2, %r3, %r5;
 @%p2 bra LOOP;
 ld.global.u32 %r4, [%rd3];
 add.u32 %r4, %r4, 1;
 st.global.u32 [%rd3], %r4;
DONE:
 ret;
}
)";
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(ptx, "skip_loop", &module);
  ASSERT_NE(f, nullptr);
  constexpr unsigned kThreads = 64, kN = 37;
  const std::vector<uint32_t> zeros(kThreads, 0);
  CUdeviceptr dout = CudaUpload(zeros);
  unsigned n = kN;
  void* params[] = {&dout, &n};
  Launch(f, 1, kThreads, params);
  const std::vector<uint32_t> out = CudaDownload<uint32_t>(dout, kThreads);
  for (unsigned i = 0; i < kThreads; ++i) {
    EXPECT_EQ(out[i], i < kN ? 10 * (i % 4 + 1) + 1 : 0u) << "thread " << i;
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dout));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

// lavapipe compares 64-bit integers as unsigned even for OpSLessThan (found
// through early_return): the translator flips the sign bits instead.
TEST_F(PtxConformance, SignedSixtyFourBitComparesOrderNegativeValues) {
  const char* ptx = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry cmp64(.param .u64 in, .param .u64 out)
{
 .reg .pred %p<2>; .reg .b32 %r<6>; .reg .b64 %rd<10>;
 ld.param.u64 %rd1, [in];
 ld.param.u64 %rd3, [out];
 mov.u32 %r1, %tid.x;
 mul.wide.s32 %rd4, %r1, 4;
 add.s64 %rd5, %rd1, %rd4;
 ld.global.s32 %rd2, [%rd5];
 mov.u64 %rd9, 0;
 setp.lt.s64 %p1, %rd2, 0;
 selp.u32 %r2, 1, 0, %p1;
 setp.gt.s64 %p1, %rd9, %rd2;
 selp.u32 %r3, 2, 0, %p1;
 or.b32 %r2, %r2, %r3;
 setp.le.s64 %p1, %rd2, -1;
 selp.u32 %r3, 4, 0, %p1;
 or.b32 %r2, %r2, %r3;
 setp.ge.s64 %p1, %rd2, 6;
 selp.u32 %r3, 8, 0, %p1;
 or.b32 %r2, %r2, %r3;
 min.s64 %rd6, %rd2, 3;
 max.s64 %rd7, %rd6, -4;
 cvt.u32.u64 %r4, %rd7;
 shl.b32 %r4, %r4, 8;
 or.b32 %r2, %r2, %r4;
 add.s64 %rd8, %rd3, %rd4;
 st.global.u32 [%rd8], %r2;
 ret;
}
)";
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(ptx, "cmp64", &module);
  ASSERT_NE(f, nullptr);
  const std::vector<int32_t> in = {5, -5, -39595, 7, 0, -1, 3, 6};
  CUdeviceptr din = CudaUpload(in), dout = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dout, in.size() * 4));
  void* params[] = {&din, &dout};
  Launch(f, 1, static_cast<unsigned>(in.size()), params);
  const std::vector<uint32_t> out = CudaDownload<uint32_t>(dout, in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const int64_t v = in[i];
    const uint32_t flags = (v < 0 ? 1 : 0) | (0 > v ? 2 : 0) | (v <= -1 ? 4 : 0) | (v >= 6 ? 8 : 0);
    const int64_t clamped = std::max<int64_t>(std::min<int64_t>(v, 3), -4);
    EXPECT_EQ(out[i], flags | (static_cast<uint32_t>(clamped) << 8)) << v;
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(din));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dout));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(PtxConformance, ModuleVariablesAreGlobalsWithTheirInitialisers) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxModuleVars(), "module_vars", &module);
  ASSERT_NE(f, nullptr);
  // __constant__ data starts with its initialiser, __device__ data zeroed.
  CUdeviceptr coeffs = 0, offset_c = 0, lut = 0, calls = 0;
  size_t bytes = 0;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetGlobal(&coeffs, &bytes, module, "coeffs"));
  EXPECT_EQ(bytes, 16u);
  EXPECT_EQ(CudaDownload<float>(coeffs, 4), (std::vector<float>{0.5f, 1.5f, -2.0f, 4.0f}));
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetGlobal(&offset_c, &bytes, module, "offset_c"));
  EXPECT_EQ(bytes, 4u);
  EXPECT_EQ(CudaDownload<int32_t>(offset_c, 1)[0], 7);
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetGlobal(&lut, &bytes, module, "lut"));
  EXPECT_EQ(bytes, 64u);
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetGlobal(&calls, &bytes, module, "calls"));
  EXPECT_EQ(CudaDownload<uint32_t>(calls, 1)[0], 0u);
  EXPECT_CU(CUDA_ERROR_NOT_FOUND,
            cuModuleGetGlobal(&lut, &bytes, module, "__streamhal_globals_address"));
  // The host writes a table and a coefficient; the kernel reads them.
  std::vector<int32_t> table(16);
  for (int i = 0; i < 16; ++i) table[i] = i * i - 20;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(lut, table.data(), 64));
  const float c3 = 0.25f;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(coeffs + 12, &c3, 4));
  const std::vector<float> coeff = {0.5f, 1.5f, -2.0f, c3};
  int n = 1000;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i % 13) * 0.5f - 3.0f;
  CUdeviceptr din = CudaUpload(in), dout = 0, dpicked = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dout, n * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dpicked, n * 4));
  void* params[] = {&din, &dout, &dpicked, &n};
  Launch(f, (n + 127) / 128, 128, params);
  const std::vector<float> out = CudaDownload<float>(dout, n);
  const std::vector<int32_t> picked = CudaDownload<int32_t>(dpicked, n);
  for (int i = 0; i < n; ++i) {
    const float x = in[i];
    const float expected =
        std::fma(x, std::fma(x, std::fma(x, coeff[i & 3], coeff[2]), coeff[1]), coeff[0]);
    ASSERT_NEAR(out[i], expected, 1e-4f * (1.0f + std::fabs(expected))) << i;
    ASSERT_EQ(picked[i], table[i & 15] + 7) << i;
  }
  EXPECT_EQ(CudaDownload<uint32_t>(calls, 1)[0], static_cast<uint32_t>(n));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(din));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dout));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dpicked));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(PtxConformance, HipSeesModuleVariablesOfPtx) {
  hipModule_t module = nullptr;
  ASSERT_HIP(hipSuccess, hipModuleLoadData(&module, PtxModuleVars()));
  hipDeviceptr_t offset_c = nullptr;
  size_t bytes = 0;
  ASSERT_HIP(hipSuccess, hipModuleGetGlobal(&offset_c, &bytes, module, "offset_c"));
  EXPECT_EQ(bytes, 4u);
  int32_t value = 0;
  ASSERT_HIP(hipSuccess, hipMemcpyDtoH(&value, offset_c, 4));
  EXPECT_EQ(value, 7);
  EXPECT_HIP(hipErrorNotFound, hipModuleGetGlobal(&offset_c, &bytes, module, "missing"));
  EXPECT_HIP(hipSuccess, hipModuleUnload(module));
}

TEST_F(PtxConformance, LocalArrayIsPerThreadMemory) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxLocalArray(), "local_array", &module);
  ASSERT_NE(f, nullptr);
  int n = 700;
  std::vector<int32_t> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 2654435761u) >> 20;
  CUdeviceptr din = CudaUpload(in), dout = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dout, n * 4));
  void* params[] = {&din, &dout, &n};
  Launch(f, (n + 63) / 64, 64, params);
  const std::vector<int32_t> out = CudaDownload<int32_t>(dout, n);
  for (int i = 0; i < n; ++i) {
    const int v = in[i], a = v & 15, b = (v >> 4) & 15;
    ASSERT_EQ(out[i], (v * a + a) + (v * b + b)) << i;
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(din));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dout));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

// The corpus's __noinline__ device functions, as the host computes them.
int Mix(int a, unsigned b, float c, long long d) {
  return a * 3 + static_cast<int>(b >> 1) - static_cast<int>(c * 2.0f) + static_cast<int>(d % 1000);
}
float Poly(float x) { return x * x * 0.25f + 1.5f * x - 2.0f; }  // exact for x in 0..15
int Nested(int a, int b) {
  return Mix(a, b, Poly(static_cast<float>(b & 15)), static_cast<long long>(a) * b) + 1;
}

TEST_F(PtxConformance, DeviceFunctionsTakeArgumentsAndReturnValues) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxDeviceCalls(), "device_calls", &module);
  ASSERT_NE(f, nullptr);
  int n = 1000;
  std::vector<int32_t> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 37) % 2001 - 1000;
  CUdeviceptr din = CudaUpload(in), dout = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dout, 2 * n * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(dout, 0xdeadbeef, 2 * n));
  void* params[] = {&din, &dout, &n};
  Launch(f, (n + 127) / 128, 128, params);  // the last block's tail returns early
  const std::vector<int32_t> out = CudaDownload<int32_t>(dout, 2 * n);
  for (int i = 0; i < n; ++i) {
    const int v = in[i];
    // Odd and even inputs take different calls: divergent control flow.
    const int r = (v & 1) ? Nested(v, i) : Mix(v, i, 0.5f, -v);
    ASSERT_EQ(out[2 * i], r) << i;
    // make_pair returns a struct by value, use_pair takes one: v + 1 + 2.
    ASSERT_EQ(out[2 * i + 1], static_cast<int>((v + 3) * 0.5)) << i;
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(din));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dout));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(PtxConformance, DeviceFunctionWithBarriersReducesTheBlock) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxDeviceCalls(), "call_barrier", &module);
  ASSERT_NE(f, nullptr);
  // The function's __shared__ array (nvcc declares it inside the .func)
  // counts as the kernel's.
  int shared_bytes = -1;
  ASSERT_CU(CUDA_SUCCESS,
            cuFuncGetAttribute(&shared_bytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
  EXPECT_EQ(shared_bytes, 1024);
  const unsigned blocks = 4, block = 256;
  const int n = blocks * block;
  std::vector<int32_t> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 7) % 13 - 6;
  CUdeviceptr din = CudaUpload(in), dout = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dout, n * 4));
  void* params[] = {&din, &dout};
  Launch(f, blocks, block, params);
  const std::vector<int32_t> out = CudaDownload<int32_t>(dout, n);
  for (unsigned b = 0; b < blocks; ++b) {
    int sum = 0;
    for (unsigned t = 0; t < block; ++t) sum += in[b * block + t];
    for (unsigned t = 0; t < block; ++t) {
      const int i = static_cast<int>(b * block + t);
      ASSERT_EQ(out[i], in[i] * sum) << i;
    }
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(din));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dout));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

// The kernel makes its shared array's address generic and passes it; the
// function turns it back (cvta.to.shared) and reads the kernel's array.
TEST_F(PtxConformance, DeviceFunctionReadsTheKernelsSharedArrayThroughAPointer) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxDeviceCalls(), "call_shared_pointer", &module);
  ASSERT_NE(f, nullptr);
  const unsigned blocks = 5, block = 64;
  const int n = blocks * block;
  std::vector<int32_t> in(n);
  for (int i = 0; i < n; ++i) in[i] = i * i - 3 * i;
  CUdeviceptr din = CudaUpload(in), dout = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dout, n * 4));
  void* params[] = {&din, &dout};
  Launch(f, blocks, block, params);
  const std::vector<int32_t> out = CudaDownload<int32_t>(dout, n);
  for (int i = 0; i < n; ++i) {
    const int base = i / 64 * 64;
    int sum = 0;
    for (int k = 0; k < 4; ++k) sum += in[base + (i - base + k) % 64];
    ASSERT_EQ(out[i], sum) << i;
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(din));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dout));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

// PTX allows .reg parameters and returns (nvcc writes .param ones) and byte
// stores into a call's .param buffer.
TEST_F(PtxConformance, RegisterParametersAndByteArgumentsReachTheFunction) {
  constexpr char kPtx[] =
      ".version 8.0\n.target sm_75\n.address_size 64\n"
      ".func (.reg .b32 rv) add_byte(.reg .b32 a, .param .align 4 .b8 s[4])\n{\n"
      "\t.reg .b16 %rs<2>;\n\tld.param.u8 %rs1, [s+1];\n"
      "\tcvt.u32.u16 rv, %rs1;\n\tadd.s32 rv, rv, a;\n\tret;\n}\n"
      ".visible .entry reg_params(.param .u64 out)\n{\n"
      "\t.reg .b32 %r<4>;\n\t.reg .b16 %rs<2>;\n\t.reg .b64 %rd<4>;\n"
      "\tmov.u32 %r1, %tid.x;\n\tcvt.u16.u32 %rs1, %r1;\n\tadd.u16 %rs1, %rs1, 9;\n"
      "\t{\n\t.param .align 4 .b8 param0[4];\n\tst.param.b32 [param0], -1;\n"
      "\tst.param.b8 [param0+1], %rs1;\n\tcall (%r2), add_byte, (%r1, param0);\n\t}\n"
      "\tld.param.u64 %rd1, [out];\n\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
      "\tst.global.u32 [%rd3], %r2;\n\tret;\n}\n";
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(kPtx, "reg_params", &module);
  ASSERT_NE(f, nullptr);
  const int n = 64;
  CUdeviceptr dout = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dout, n * 4));
  void* params[] = {&dout};
  Launch(f, 1, n, params);
  const std::vector<int32_t> out = CudaDownload<int32_t>(dout, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], i + (i + 9)) << i;
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dout));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(PtxConformance, RecursiveDeviceFunctionIsInvalidPtxNamingTheCall) {
  constexpr char kRecursion[] =
      ".version 8.0\n.target sm_75\n.address_size 64\n"
      ".func (.param .b32 r) f(.param .b32 a)\n{\n"
      "\t{ .param .b32 p;\n\tst.param.b32 [p], 1;\n\t.param .b32 q;\n"
      "\tcall (q), f, (p);\n\t}\n\tret;\n}\n"
      ".visible .entry k()\n{\n\tcall f2;\n\tret;\n}\n"
      ".func f2()\n{\n\t{ .param .b32 p;\n\t.param .b32 q;\n\tcall (q), f, (p);\n\t}\n"
      "\tret;\n}\n";
  char error_log[256] = {};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {error_log, reinterpret_cast<void*>(sizeof(error_log))};
  CUmodule module = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_PTX, cuModuleLoadDataEx(&module, kRecursion, 2, options, values));
  EXPECT_EQ(module, nullptr);
  EXPECT_NE(std::strstr(error_log, "ptx line 9: unsupported recursion"), nullptr) << error_log;
}

// A deterministic spread of 32-bit values with the edge cases first.
std::vector<uint32_t> Mixed(size_t count, uint32_t seed) {
  std::vector<uint32_t> v = {0u, 1u, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x00ff00ffu};
  uint32_t x = seed;
  while (v.size() < count) {
    x = x * 1664525u + 1013904223u;
    v.push_back(x ^ (x >> 13));
  }
  v.resize(count);
  return v;
}

uint32_t Brev32(uint32_t x) {
  uint32_t r = 0;
  for (int b = 0; b < 32; ++b) r |= ((x >> b) & 1u) << (31 - b);
  return r;
}

int Clz64(uint64_t x) {
  int n = 0;
  for (int b = 63; b >= 0 && !((x >> b) & 1); --b) ++n;
  return n;
}

TEST_F(PtxConformance, BitIntrinsicsMatchTheHost) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxBitOps(), "bit_ops", &module);
  ASSERT_NE(f, nullptr);
  int n = 1000;
  const std::vector<uint32_t> in = Mixed(n, 7);
  std::vector<uint64_t> in64(n);
  for (int i = 0; i < n; ++i) in64[i] = (uint64_t{in[(i * 7) % n]} << 32 | in[i]) >> (i % 40);
  CUdeviceptr din = CudaUpload(in), din64 = CudaUpload(in64), dout = 0, dout64 = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dout, n * 6 * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dout64, n * 8));
  void* params[] = {&din, &din64, &dout, &dout64, &n};
  Launch(f, (n + 127) / 128, 128, params);
  const std::vector<uint32_t> out = CudaDownload<uint32_t>(dout, n * 6);
  const std::vector<uint64_t> out64 = CudaDownload<uint64_t>(dout64, n);
  for (int i = 0; i < n; ++i) {
    const uint32_t x = in[i], y = x * 2654435761u, s = x >> 16;
    const uint64_t w = in64[i];
    uint32_t perm = 0;  // CUDA: byte k is byte (s >> 4k) & 7 of {y, x}
    for (int k = 0; k < 4; ++k) {
      const uint64_t both = uint64_t{y} << 32 | x;
      perm |= static_cast<uint32_t>((both >> (((s >> (4 * k)) & 7) * 8)) & 0xff) << (8 * k);
    }
    const uint32_t* o = &out[i * 6];
    ASSERT_EQ(o[0], static_cast<uint32_t>(__builtin_popcount(x))) << i;
    ASSERT_EQ(o[1], static_cast<uint32_t>(x == 0 ? 32 : __builtin_clz(x))) << i;
    ASSERT_EQ(o[2], Brev32(x)) << i;
    ASSERT_EQ(o[3], perm) << i << " x=" << x;
    ASSERT_EQ(o[4], static_cast<uint32_t>(__builtin_popcountll(w))) << i;
    ASSERT_EQ(o[5], static_cast<uint32_t>(Clz64(w))) << i;
    ASSERT_EQ(out64[i], uint64_t{Brev32(static_cast<uint32_t>(w))} << 32 | Brev32(w >> 32)) << i;
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(din));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(din64));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dout));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dout64));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(PtxConformance, FindFirstSetAndDoubleAtomicAddMatchTheHost) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxBitFind(), "bit_find", &module);
  ASSERT_NE(f, nullptr);
  int n = 1000;
  const std::vector<uint32_t> in = Mixed(n, 5);
  std::vector<uint64_t> in64(n);
  for (int i = 0; i < n; ++i) in64[i] = (uint64_t{in[(i * 3) % n]} << 32 | in[i]) << (i % 50);
  CUdeviceptr din = CudaUpload(in), din64 = CudaUpload(in64), dout = 0, dsum = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dout, n * 8));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dsum, 4 * 8));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(dsum, 0, 8));
  void* params[] = {&din, &din64, &dout, &dsum, &n};
  Launch(f, (n + 127) / 128, 128, params);
  const std::vector<int32_t> out = CudaDownload<int32_t>(dout, n * 2);
  std::vector<double> sums(4, 0.0);
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(out[2 * i], __builtin_ffs(static_cast<int>(in[i]))) << i;
    ASSERT_EQ(out[2 * i + 1], __builtin_ffsll(static_cast<long long>(in64[i]))) << i;
    sums[i & 3] += static_cast<double>(in[i]) * 0.25;
  }
  EXPECT_EQ(CudaDownload<double>(dsum, 4), sums);  // multiples of 1/4 below 2^50: exact
  for (CUdeviceptr p : {din, din64, dout, dsum}) EXPECT_CU(CUDA_SUCCESS, cuMemFree(p));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

// bfind in every form: the most significant 1 (0 for negative signed
// values), 0xffffffff for none, and .shiftamt's distance from the msb.
TEST_F(PtxConformance, BitFindFollowsTheIsa) {
  const char* ptx = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry find(.param .u64 in, .param .u64 out)
{
 .reg .b32 %r<12>; .reg .b64 %rd<8>;
 ld.param.u64 %rd1, [in];
 ld.param.u64 %rd2, [out];
 mov.u32 %r1, %tid.x;
 mul.wide.u32 %rd3, %r1, 8;
 add.s64 %rd4, %rd1, %rd3;
 ld.global.u64 %rd5, [%rd4];
 cvt.u32.u64 %r2, %rd5;
 mul.wide.u32 %rd6, %r1, 32;
 add.s64 %rd7, %rd2, %rd6;
 bfind.u32 %r3, %r2;
 bfind.s32 %r4, %r2;
 bfind.shiftamt.u32 %r5, %r2;
 bfind.shiftamt.s32 %r6, %r2;
 bfind.u64 %r7, %rd5;
 bfind.s64 %r8, %rd5;
 bfind.shiftamt.u64 %r9, %rd5;
 bfind.shiftamt.s64 %r10, %rd5;
 st.global.v4.u32 [%rd7], {%r3, %r4, %r5, %r6};
 st.global.v4.u32 [%rd7+16], {%r7, %r8, %r9, %r10};
 ret;
}
)";
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(ptx, "find", &module);
  ASSERT_NE(f, nullptr);
  std::vector<uint64_t> in = {0,
                              1,
                              ~uint64_t{0},
                              uint64_t{1} << 63,
                              0x80000000u,
                              0xffffffffu,
                              12,
                              uint64_t{5} << 40,
                              ~uint64_t{0} << 20,
                              0x7fffffffffffffffull,
                              0xfffffffe00000000ull,
                              0x00000001fffffff0ull};
  const unsigned n = static_cast<unsigned>(in.size());
  CUdeviceptr din = CudaUpload(in), dout = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dout, n * 32));
  void* params[] = {&din, &dout};
  Launch(f, 1, n, params);
  const std::vector<uint32_t> out = CudaDownload<uint32_t>(dout, n * 8);
  // The ISA's definition: flip negative signed values, then the top 1 bit.
  auto isa = [](uint64_t a, int bits, bool is_signed, bool shiftamt) -> uint32_t {
    const int msb = bits - 1;
    if (bits == 32) a &= 0xffffffffu;
    if (is_signed && ((a >> msb) & 1)) a = ~a & (bits == 32 ? 0xffffffffu : ~uint64_t{0});
    uint32_t d = 0xffffffffu;
    for (int i = msb; i >= 0; --i) {
      if ((a >> i) & 1) {
        d = static_cast<uint32_t>(i);
        break;
      }
    }
    if (shiftamt && d != 0xffffffffu) d = msb - d;
    return d;
  };
  for (unsigned i = 0; i < n; ++i) {
    SCOPED_TRACE(testing::Message() << "a=" << in[i]);
    const uint32_t* o = &out[i * 8];
    EXPECT_EQ(o[0], isa(in[i], 32, false, false));
    EXPECT_EQ(o[1], isa(in[i], 32, true, false));
    EXPECT_EQ(o[2], isa(in[i], 32, false, true));
    EXPECT_EQ(o[3], isa(in[i], 32, true, true));
    EXPECT_EQ(o[4], isa(in[i], 64, false, false));
    EXPECT_EQ(o[5], isa(in[i], 64, true, false));
    EXPECT_EQ(o[6], isa(in[i], 64, false, true));
    EXPECT_EQ(o[7], isa(in[i], 64, true, true));
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(din));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dout));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

// The PTX ISA's definitions of bfe, bfi and prmt, bit by bit.
template <typename T>
T IsaBfe(T a, uint32_t b, uint32_t c, bool is_signed) {
  const uint32_t msb = sizeof(T) * 8 - 1, pos = b & 0xff, len = c & 0xff;
  const T sbit = (!is_signed || len == 0) ? 0 : (a >> std::min(pos + len - 1, msb)) & 1;
  T d = 0;
  for (uint32_t i = 0; i <= msb; ++i) {
    const T bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;
    d |= bit << i;
  }
  return d;
}

template <typename T>
T IsaBfi(T a, T b, uint32_t c, uint32_t d) {
  const uint32_t msb = sizeof(T) * 8 - 1, pos = c & 0xff, len = d & 0xff;
  T f = b;
  for (uint32_t i = 0; i < len && pos + i <= msb; ++i) {
    f = (f & ~(T{1} << (pos + i))) | (((a >> i) & 1) << (pos + i));
  }
  return f;
}

uint32_t IsaPrmt(uint32_t a, uint32_t b, uint32_t c) {
  const uint64_t both = uint64_t{b} << 32 | a;
  uint32_t d = 0;
  for (int k = 0; k < 4; ++k) {
    const uint32_t ctl = (c >> (4 * k)) & 0xf;
    uint32_t byte = (both >> ((ctl & 7) * 8)) & 0xff;
    if (ctl & 8) byte = (byte & 0x80) ? 0xff : 0;
    d |= byte << (8 * k);
  }
  return d;
}

int32_t SaturatedS32(int64_t v) {
  return static_cast<int32_t>(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX));
}

// bfe, bfi, prmt with sign replication and add/sub.sat.s32, which nvcc does
// not emit from plain C++, hand-written; field positions and lengths cover
// zero, the width's edge and the 8-bit masking of larger values.
TEST_F(PtxConformance, BitFieldsPermutesAndSaturationFollowTheIsa) {
  const char* ptx = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry bits(.param .u64 in, .param .u64 out)
{
 .reg .b32 %r<20>; .reg .b64 %rd<16>;
 ld.param.u64 %rd1, [in];
 ld.param.u64 %rd2, [out];
 mov.u32 %r1, %tid.x;
 mov.u32 %r2, %ctaid.x;
 mov.u32 %r3, %ntid.x;
 mad.lo.s32 %r4, %r2, %r3, %r1;
 mul.wide.u32 %rd3, %r4, 16;
 add.s64 %rd4, %rd1, %rd3;
 ld.global.v4.u32 {%r5, %r6, %r7, %r8}, [%rd4];
 mul.wide.u32 %rd5, %r4, 48;
 add.s64 %rd6, %rd2, %rd5;
 bfe.u32 %r9, %r5, %r7, %r8;
 bfe.s32 %r10, %r5, %r7, %r8;
 bfi.b32 %r11, %r5, %r6, %r7, %r8;
 prmt.b32 %r12, %r5, %r6, %r7;
 add.sat.s32 %r13, %r5, %r6;
 sub.sat.s32 %r14, %r5, %r6;
 st.global.v4.u32 [%rd6], {%r9, %r10, %r11, %r12};
 st.global.v2.u32 [%rd6+16], {%r13, %r14};
 mov.b64 %rd7, {%r6, %r5};
 mov.b64 %rd8, {%r5, %r6};
 bfe.u64 %rd9, %rd7, %r7, %r8;
 bfe.s64 %rd10, %rd7, %r7, %r8;
 bfi.b64 %rd11, %rd7, %rd8, %r7, %r8;
 st.global.u64 [%rd6+24], %rd9;
 st.global.u64 [%rd6+32], %rd10;
 st.global.u64 [%rd6+40], %rd11;
 ret;
}
)";
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(ptx, "bits", &module);
  ASSERT_NE(f, nullptr);
  const unsigned n = 1024;
  const std::vector<uint32_t> values = Mixed(2 * n, 11);
  std::vector<uint32_t> in(4 * n);
  for (unsigned i = 0; i < n; ++i) {
    in[4 * i] = values[i];
    in[4 * i + 1] = values[n + i];
    // pos: 0..69 plus, every fourth, multiples of 256 that the 8-bit masks
    // drop; len likewise, so fields reach and pass both widths' edges.
    in[4 * i + 2] = (i % 70) + (i % 4 == 0 ? 256 * (i % 3) : 0) + (values[i] & 0xf000);
    in[4 * i + 3] = ((i / 70) * 7 + i) % 70 + (i % 5 == 0 ? 512 : 0);
  }
  CUdeviceptr din = CudaUpload(in), dout = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dout, n * 48));
  void* params[] = {&din, &dout};
  Launch(f, n / 128, 128, params);
  const std::vector<uint32_t> out = CudaDownload<uint32_t>(dout, n * 12);
  for (unsigned i = 0; i < n; ++i) {
    const uint32_t a = in[4 * i], b = in[4 * i + 1], c = in[4 * i + 2], d = in[4 * i + 3];
    const uint64_t a64 = uint64_t{a} << 32 | b, b64 = uint64_t{b} << 32 | a;
    const uint32_t* o = &out[i * 12];
    auto u64 = [&](int k) { return uint64_t{o[k + 1]} << 32 | o[k]; };
    SCOPED_TRACE(testing::Message() << "a=" << a << " b=" << b << " c=" << c << " d=" << d);
    ASSERT_EQ(o[0], IsaBfe<uint32_t>(a, c, d, false));
    ASSERT_EQ(o[1], IsaBfe<uint32_t>(a, c, d, true));
    ASSERT_EQ(o[2], IsaBfi<uint32_t>(a, b, c, d));
    ASSERT_EQ(o[3], IsaPrmt(a, b, c));
    ASSERT_EQ(static_cast<int32_t>(o[4]),
              SaturatedS32(int64_t{static_cast<int32_t>(a)} + static_cast<int32_t>(b)));
    ASSERT_EQ(static_cast<int32_t>(o[5]),
              SaturatedS32(int64_t{static_cast<int32_t>(a)} - static_cast<int32_t>(b)));
    ASSERT_EQ(u64(6), IsaBfe<uint64_t>(a64, c, d, false));
    ASSERT_EQ(u64(8), IsaBfe<uint64_t>(a64, c, d, true));
    ASSERT_EQ(u64(10), IsaBfi<uint64_t>(a64, b64, c, d));
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(din));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dout));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(PtxConformance, CompareAndSwapWrappingCountersAndNarrowStores) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxAtomicsExt(), "atomics_ext", &module);
  ASSERT_NE(f, nullptr);
  int n = 997;  // the counters end neither at 0 nor at their bounds
  std::vector<uint32_t> in = Mixed(n, 3);
  for (uint32_t& v : in) v |= 0x100;  // never 0, the value the CAS expects
  CUdeviceptr din = CudaUpload(in), dcas32 = 0, dcas64 = 0, dcounters = 0, dsums = 0, dbytes = 0,
              dshorts = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dcas32, 256 * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(dcas32, 0, 256));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dcas64, 32 * 8));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(dcas64, 0, 64));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dcounters, 3 * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(dcounters, 0, 3));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dsums, 4 * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(dsums, 0, 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dbytes, n + 3));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD8(dbytes, 0xee, n + 3));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dshorts, n * 2 + 2));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD8(dshorts, 0xee, n * 2 + 2));
  void* params[] = {&din, &dcas32, &dcas64, &dcounters, &dsums, &dbytes, &dshorts, &n};
  const unsigned block = 128, blocks = (n + block - 1) / block;
  Launch(f, blocks, block, params);

  // Each CAS slot holds the value of one of the threads that aimed at it.
  const std::vector<uint32_t> cas32 = CudaDownload<uint32_t>(dcas32, 256);
  const std::vector<uint64_t> cas64 = CudaDownload<uint64_t>(dcas64, 32);
  for (unsigned s = 0; s < 256; ++s) {
    bool aimed = false, found = false;
    for (int i = 0; i < n; ++i) {
      if ((in[i] & 255) != s) continue;
      aimed = true;
      found = found || cas32[s] == in[i];
    }
    EXPECT_TRUE(aimed ? found : cas32[s] == 0) << "slot " << s << " holds " << cas32[s];
  }
  for (unsigned s = 0; s < 32; ++s) {
    // The winner's value and index, or 0 where no thread aimed.
    const int i = static_cast<int>(cas64[s] & 0xffffffffu);
    if (cas64[s] == 0) {
      for (uint32_t v : in) EXPECT_NE(v & 31, s);
      continue;
    }
    ASSERT_LT(i, n) << s;
    EXPECT_EQ(in[i] & 31, s);
    EXPECT_EQ(cas64[s] >> 32, in[i]) << s;
  }
  // atomicInc(9) n times from 0 wraps every 10; atomicDec(12) from 0 goes
  // 12, 11, ..., 0, 12, ... (every 13).
  const std::vector<uint32_t> counters = CudaDownload<uint32_t>(dcounters, 3);
  EXPECT_EQ(counters[0], static_cast<uint32_t>(n % 10));
  EXPECT_EQ(counters[1], static_cast<uint32_t>((13 - n % 13) % 13));
  // counters[2]: per block, the shared slots (v & 63) some thread claimed.
  uint32_t claimed = 0;
  for (unsigned b = 0; b < blocks; ++b) {
    uint64_t slots = 0;
    for (int i = b * block; i < std::min<int>(n, (b + 1) * block); ++i)
      slots |= 1ull << (in[i] & 63);
    claimed += __builtin_popcountll(slots);
  }
  EXPECT_EQ(counters[2], claimed);
  std::vector<float> sums(4, 0.0f);
  for (int i = 0; i < n; ++i) sums[in[i] & 3] += static_cast<float>(in[i] & 15);
  EXPECT_EQ(CudaDownload<float>(dsums, 4), sums);  // small integers: exact
  const std::vector<uint8_t> bytes = CudaDownload<uint8_t>(dbytes, n + 3);
  const std::vector<int16_t> shorts = CudaDownload<int16_t>(dshorts, n + 1);
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(bytes[i], static_cast<uint8_t>(in[i] * 7)) << i;
    ASSERT_EQ(shorts[i], static_cast<int16_t>(in[i] * 13 - 40000)) << i;
  }
  // Bytes past the last store keep their value.
  EXPECT_EQ(bytes[n], 0xee);
  EXPECT_EQ(static_cast<uint16_t>(shorts[n]), 0xeeee);
  for (CUdeviceptr p : {din, dcas32, dcas64, dcounters, dsums, dbytes, dshorts}) {
    EXPECT_CU(CUDA_SUCCESS, cuMemFree(p));
  }
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

// atom.inc/atom.dec from values above the bound and at 0 (PTX: inc gives
// old >= b ? 0 : old + 1; dec gives (old == 0 || old > b) ? b : old - 1).
TEST_F(PtxConformance, WrappingIncrementAndDecrementFollowTheIsa) {
  const char* ptx = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry wrap(.param .u64 words, .param .u64 bounds, .param .u64 olds)
{
 .reg .b32 %r<8>; .reg .b64 %rd<12>;
 ld.param.u64 %rd1, [words];
 ld.param.u64 %rd2, [bounds];
 ld.param.u64 %rd3, [olds];
 mov.u32 %r1, %tid.x;
 mul.wide.u32 %rd4, %r1, 8;
 add.s64 %rd5, %rd1, %rd4;
 add.s64 %rd6, %rd3, %rd4;
 mul.wide.u32 %rd7, %r1, 4;
 add.s64 %rd8, %rd2, %rd7;
 ld.global.u32 %r2, [%rd8];
 atom.global.inc.u32 %r3, [%rd5], %r2;
 atom.global.dec.u32 %r4, [%rd5+4], %r2;
 st.global.v2.u32 [%rd6], {%r3, %r4};
 ret;
}
)";
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(ptx, "wrap", &module);
  ASSERT_NE(f, nullptr);
  const std::vector<uint32_t> start = {0, 5, 9, 10, 11, 0xffffffffu, 3, 0, 7, 100};
  const std::vector<uint32_t> bounds = {9, 9, 9, 9, 9, 0xffffffffu, 0, 0, 7, 0xffffffffu};
  std::vector<uint32_t> words;
  for (uint32_t v : start) words.insert(words.end(), {v, v});
  CUdeviceptr dwords = CudaUpload(words), dbounds = CudaUpload(bounds), dolds = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dolds, words.size() * 4));
  void* params[] = {&dwords, &dbounds, &dolds};
  Launch(f, 1, static_cast<unsigned>(start.size()), params);
  const std::vector<uint32_t> after = CudaDownload<uint32_t>(dwords, words.size());
  const std::vector<uint32_t> olds = CudaDownload<uint32_t>(dolds, words.size());
  for (size_t i = 0; i < start.size(); ++i) {
    const uint32_t old = start[i], b = bounds[i];
    EXPECT_EQ(olds[2 * i], old) << i;
    EXPECT_EQ(olds[2 * i + 1], old) << i;
    EXPECT_EQ(after[2 * i], old >= b ? 0u : old + 1) << i;
    EXPECT_EQ(after[2 * i + 1], (old == 0 || old > b) ? b : old - 1) << i;
  }
  for (CUdeviceptr p : {dwords, dbounds, dolds}) EXPECT_CU(CUDA_SUCCESS, cuMemFree(p));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(PtxConformance, GenericPointersReachSharedAndGlobalMemory) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxGenericShared(), "generic_shared", &module);
  ASSERT_NE(f, nullptr);
  int n = 1000;
  const unsigned block = 128, blocks = (n + block - 1) / block, threads = blocks * block;
  std::vector<int32_t> in(n);
  for (int i = 0; i < n; ++i) in[i] = i * 7919 - 300000;
  CUdeviceptr din = CudaUpload(in), dout = 0, dscratch = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dout, n * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dscratch, threads * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(dscratch, 0, threads));
  void* params[] = {&din, &dout, &dscratch, &n};
  Launch(f, blocks, block, params);
  // The kernel's steps on the host, block by block.
  std::vector<uint32_t> scratch(threads, 0);
  std::vector<uint32_t> out(n);
  for (unsigned b = 0; b < blocks; ++b) {
    std::vector<uint32_t> tile(block), v(block);
    for (unsigned t = 0; t < block; ++t) {
      const unsigned i = b * block + t;
      tile[t] = v[t] = i < static_cast<unsigned>(n) ? static_cast<uint32_t>(in[i]) : 0;
    }
    for (unsigned t = 0; t < block; ++t) {
      const unsigned i = b * block + t;
      (t & 1 ? scratch[i] : tile[t ^ 2]) = v[t] * 3 + 1;
    }
    for (unsigned t = 0; t < block; ++t) {
      uint32_t& word = (t & 2) ? tile[t] : scratch[b * block + t];
      word = (word & 0xffffu) | (static_cast<uint32_t>(static_cast<uint16_t>(t - 100)) << 16);
    }
    for (unsigned t = 0; t < block; ++t) {
      const unsigned i = b * block + t;
      if (i < static_cast<unsigned>(n)) out[i] = tile[t] + (t & 1 ? scratch[i] : 0);
    }
  }
  EXPECT_EQ(CudaDownload<uint32_t>(dout, n), out);
  EXPECT_EQ(CudaDownload<uint32_t>(dscratch, threads), scratch);
  for (CUdeviceptr p : {din, dout, dscratch}) EXPECT_CU(CUDA_SUCCESS, cuMemFree(p));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

// PTX's float-to-integer conversion: truncate or round, then clamp to the
// destination's range; NaN gives 0.
template <typename I, typename F>
I SaturatingConvert(F x) {
  if (std::isnan(x)) return 0;
  const F limit = std::ldexp(F{1}, std::numeric_limits<I>::digits);
  if (x >= limit) return std::numeric_limits<I>::max();
  if (x < (std::numeric_limits<I>::is_signed ? -limit : F{0})) return std::numeric_limits<I>::min();
  return static_cast<I>(x);
}

TEST_F(PtxConformance, FloatToIntegerConversionsSaturateAndMapNanToZero) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxFloatToInt(), "float_to_int", &module);
  ASSERT_NE(f, nullptr);
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> fs = {std::nanf(""),  inf,           -inf,          3e9f,
                                 -3e9f,          2147483520.0f, 2147483648.0f, -2147483648.0f,
                                 -2147483904.0f, 4294967296.0f, 4294967040.0f, 1.5f,
                                 -1.5f,          2.5f,          -0.5f,         1e20f,
                                 -1e20f,         9.2233715e18f, 9.223372e18f,  1.8446743e19f,
                                 2e19f,          0.0f,          -0.0f,         123456.7f};
  std::vector<double> ds;
  for (float x : fs) ds.push_back(static_cast<double>(x) * 1.0000001);
  ds[5] = 2147483647.9;
  ds[6] = -2147483648.9;
  ds[7] = 4294967295.5;
  ds[8] = 9223372036854775807.0;
  int n = static_cast<int>(fs.size());
  CUdeviceptr df = CudaUpload(fs), dd = CudaUpload(ds), ds32 = 0, du32 = 0, ds64 = 0, du64 = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&ds32, n * 8));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&du32, n * 8));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&ds64, n * 16));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&du64, n * 16));
  void* params[] = {&df, &dd, &ds32, &du32, &ds64, &du64, &n};
  Launch(f, 1, 32, params);
  const std::vector<int32_t> s32 = CudaDownload<int32_t>(ds32, 2 * n);
  const std::vector<uint32_t> u32 = CudaDownload<uint32_t>(du32, 2 * n);
  const std::vector<int64_t> s64 = CudaDownload<int64_t>(ds64, 2 * n);
  const std::vector<uint64_t> u64 = CudaDownload<uint64_t>(du64, 2 * n);
  for (int i = 0; i < n; ++i) {
    const float x = fs[i];
    const double y = ds[i];
    SCOPED_TRACE(testing::Message() << "x=" << x << " y=" << y);
    EXPECT_EQ(s32[2 * i], SaturatingConvert<int32_t>(x));
    EXPECT_EQ(s32[2 * i + 1],
              SaturatingConvert<int32_t>(std::nearbyint(x)) ^ SaturatingConvert<int32_t>(y));
    EXPECT_EQ(u32[2 * i], SaturatingConvert<uint32_t>(x));
    EXPECT_EQ(u32[2 * i + 1], SaturatingConvert<uint32_t>(y));
    EXPECT_EQ(s64[2 * i], SaturatingConvert<int64_t>(x));
    EXPECT_EQ(s64[2 * i + 1], SaturatingConvert<int64_t>(y));
    EXPECT_EQ(u64[2 * i], SaturatingConvert<uint64_t>(x));
    EXPECT_EQ(u64[2 * i + 1], SaturatingConvert<uint64_t>(y));
  }
  for (CUdeviceptr p : {df, dd, ds32, du32, ds64, du64}) EXPECT_CU(CUDA_SUCCESS, cuMemFree(p));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

// Loads a fat binary of vector_add.cu from memory with cuModuleLoadData,
// cuModuleLoadFatBinary and hipModuleLoadData, and runs it.
void ExpectFatBinaryRunsVectorAdd(const std::vector<unsigned char>& fatbin) {
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&module, fatbin.data()));
  CUfunction f = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&f, module, "vector_add"));
  ExpectCudaVectorAdd(f, 500);
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadFatBinary(&module, fatbin.data()));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  hipModule_t hip_module = nullptr;
  ASSERT_HIP(hipSuccess, hipModuleLoadData(&hip_module, fatbin.data()));
  hipFunction_t hip_function = nullptr;
  ASSERT_HIP(hipSuccess, hipModuleGetFunction(&hip_function, hip_module, "vector_add"));
  ExpectHipVectorAdd(hip_function, 300);
  EXPECT_HIP(hipSuccess, hipModuleUnload(hip_module));
}

// NVIDIA fat binaries (nvcc -fatbin, checked in): the PTX entry is translated.
TEST_F(PtxConformance, FatBinaryRunsItsPtxEntryThroughBothApis) {
  ExpectFatBinaryRunsVectorAdd(FatbinVectorAdd());
}

TEST_F(PtxConformance, FatBinaryFilesLoadWithModuleLoad) {
  const std::vector<unsigned char> fatbin = FatbinVectorAdd();
  char path[] = "/tmp/streamhal_fatbin_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, fatbin.data(), fatbin.size()), static_cast<ssize_t>(fatbin.size()));
  close(fd);
  CUmodule module = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuModuleLoad(&module, path));
  CUfunction f = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuModuleGetFunction(&f, module, "vector_add"));
  ExpectCudaVectorAdd(f, 200);
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  // Cut short: the entries overrun the file.
  ASSERT_EQ(truncate(path, static_cast<off_t>(fatbin.size() - 100)), 0);
  EXPECT_CU(CUDA_ERROR_INVALID_IMAGE, cuModuleLoad(&module, path));
  std::remove(path);
}

TEST_F(PtxConformance, FatBinaryWrapperPointsAtTheFatBinary) {
  const std::vector<unsigned char> fatbin = FatbinVectorAdd();
  struct {
    int magic;
    int version;
    const void* data;
    void* filename_or_fatbins;
  } wrapper = {0x466243b1, 1, fatbin.data(), nullptr};
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadFatBinary(&module, &wrapper));
  CUfunction f = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&f, module, "vector_add"));
  ExpectCudaVectorAdd(f, 100);
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  wrapper.data = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_IMAGE, cuModuleLoadFatBinary(&module, &wrapper));
}

TEST_F(PtxConformance, SassOnlyFatBinaryIsNoBinaryForGpu) {
  const std::vector<unsigned char> fatbin = FatbinVectorAddSass();
  CUmodule module = nullptr;
  EXPECT_CU(CUDA_ERROR_NO_BINARY_FOR_GPU, cuModuleLoadData(&module, fatbin.data()));
  hipModule_t hip_module = nullptr;
  EXPECT_HIP(hipErrorNoBinaryForGpu, hipModuleLoadData(&hip_module, fatbin.data()));
}

// CUDA 13's nvcc compresses PTX entries (zstd) by default; there is no
// decompressor here, so such fat binaries are refused (docs/ptx.md).
void ExpectTiledMatmul(CUfunction f);

// nvcc compresses fat-binary entries by default (zstd since CUDA 13; LZ4 in
// its "speed" mode): the PTX is decompressed and runs, from memory and from
// files, through both APIs.
TEST_F(PtxConformance, CompressedFatBinariesRunTheirPtx) {
  ExpectFatBinaryRunsVectorAdd(FatbinVectorAddCompressed());
  ExpectFatBinaryRunsVectorAdd(FatbinVectorAddLz4());
  // PTX and SASS, both compressed for size: the PTX entry is picked.
  const std::vector<unsigned char> matmul = FatbinMatmulTiledCompressed();
  const std::string path = testing::TempDir() + "matmul_tiled_compressed.fatbin";
  {
    std::ofstream file(path, std::ios::binary);
    file.write(reinterpret_cast<const char*>(matmul.data()),
               static_cast<std::streamsize>(matmul.size()));
  }
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoad(&module, path.c_str()));
  CUfunction f = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&f, module, "matmul_tiled"));
  ExpectTiledMatmul(f);
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  std::remove(path.c_str());
}

// A compressed entry that does not expand to the size its header gives, or
// whose compressed size overruns its payload or cuts it short, is an invalid
// image; nothing
// is loaded and the next good load works.
TEST_F(PtxConformance, CorruptCompressedFatBinariesAreInvalidImage) {
  for (const std::vector<unsigned char>& good :
       {FatbinVectorAddCompressed(), FatbinVectorAddLz4()}) {
    uint16_t header = 0;
    std::memcpy(&header, good.data() + 6, 2);
    const size_t entry = header;
    std::vector<std::vector<unsigned char>> bad;
    bad.push_back(good);  // the expanded size, one more
    uint64_t expanded = 0;
    std::memcpy(&expanded, good.data() + entry + 56, 8);
    ++expanded;
    std::memcpy(bad.back().data() + entry + 56, &expanded, 8);
    bad.push_back(good);  // the compressed size, past the payload
    const uint32_t huge = 0x7fffffff;
    std::memcpy(bad.back().data() + entry + 16, &huge, 4);
    bad.push_back(good);  // the compressed size, cut short
    uint32_t compressed = 0;
    std::memcpy(&compressed, good.data() + entry + 16, 4);
    compressed -= 3;
    std::memcpy(bad.back().data() + entry + 16, &compressed, 4);
    for (const std::vector<unsigned char>& image : bad) {
      CUmodule module = nullptr;
      EXPECT_CU(CUDA_ERROR_INVALID_IMAGE, cuModuleLoadData(&module, image.data()));
      EXPECT_EQ(module, nullptr);
    }
    CUmodule module = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&module, good.data()));
    EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  }
}

void Launch2D(CUfunction f, unsigned gx, unsigned gy, unsigned bx, unsigned by, void** params,
              unsigned shared = 0) {
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(f, gx, gy, 1, bx, by, 1, shared, nullptr, params, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
}

// Runs matmul_tiled.cu's kernel and checks it against the host.
void ExpectTiledMatmul(CUfunction f) {
  int m = 70, n = 50, k = 45;  // not multiples of the 16-wide tile
  std::vector<float> a(m * k), b(k * n);
  for (int i = 0; i < m * k; ++i) a[i] = static_cast<float>(i % 7 - 3);
  for (int i = 0; i < k * n; ++i) b[i] = static_cast<float>(i % 5 - 2);
  CUdeviceptr da = CudaUpload(a), db = CudaUpload(b), dc = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dc, m * n * 4));
  void* params[] = {&da, &db, &dc, &m, &n, &k};
  Launch2D(f, (n + 15) / 16, (m + 15) / 16, 16, 16, params);
  const std::vector<float> c = CudaDownload<float>(dc, m * n);
  for (int r = 0; r < m; ++r) {
    for (int col = 0; col < n; ++col) {
      float expected = 0;  // small integers: every order of the sum is exact
      for (int i = 0; i < k; ++i) expected += a[r * k + i] * b[i * n + col];
      ASSERT_EQ(c[r * n + col], expected) << r << "," << col;
    }
  }
  for (CUdeviceptr p : {da, db, dc}) EXPECT_CU(CUDA_SUCCESS, cuMemFree(p));
}

TEST_F(PtxConformance, TiledMatrixMultiplyStagesTilesInSharedMemory) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxMatmulTiled(), "matmul_tiled", &module);
  ASSERT_NE(f, nullptr);
  ExpectTiledMatmul(f);
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(PtxConformance, TransposeThroughAPaddedSharedTile) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxTransposePadded(), "transpose_padded", &module);
  ASSERT_NE(f, nullptr);
  int shared_bytes = -1;
  ASSERT_CU(CUDA_SUCCESS,
            cuFuncGetAttribute(&shared_bytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
  EXPECT_EQ(shared_bytes, 32 * 33 * 4);
  int rows = 100, cols = 70;
  std::vector<float> in(rows * cols);
  for (int i = 0; i < rows * cols; ++i) in[i] = static_cast<float>(i);
  CUdeviceptr din = CudaUpload(in), dout = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dout, rows * cols * 4));
  void* params[] = {&din, &dout, &rows, &cols};
  Launch2D(f, (cols + 31) / 32, (rows + 31) / 32, 32, 8, params);
  const std::vector<float> out = CudaDownload<float>(dout, rows * cols);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) ASSERT_EQ(out[c * rows + r], in[r * cols + c]) << r << "," << c;
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(din));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dout));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(PtxConformance, PrefixScanOfEachBlockAndItsTotal) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxPrefixScan(), "prefix_scan", &module);
  ASSERT_NE(f, nullptr);
  int n = 1000;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 37) % 23 - 11;
  const int blocks = (n + 255) / 256;
  CUdeviceptr din = CudaUpload(in), dout = 0, dsums = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dout, n * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dsums, blocks * 4));
  void* params[] = {&din, &dout, &dsums, &n};
  Launch(f, blocks, 256, params);
  const std::vector<int> out = CudaDownload<int>(dout, n);
  const std::vector<int> sums = CudaDownload<int>(dsums, blocks);
  int running = 0;
  for (int i = 0; i < n; ++i) {
    if (i % 256 == 0) running = 0;
    running += in[i];
    ASSERT_EQ(out[i], running) << i;
    // The last block's total counts its zero padding too: the same sum.
    if (i % 256 == 255 || i == n - 1) {
      EXPECT_EQ(sums[i / 256], running) << "block " << i / 256;
    }
  }
  for (CUdeviceptr p : {din, dout, dsums}) EXPECT_CU(CUDA_SUCCESS, cuMemFree(p));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(PtxConformance, BitonicSortOrdersEachBlock) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxBitonicSort(), "bitonic_sort", &module);
  ASSERT_NE(f, nullptr);
  const int blocks = 4, n = blocks * 256;
  std::vector<uint32_t> keys(n);
  uint32_t x = 12345;
  for (int i = 0; i < n; ++i) keys[i] = (x = x * 1664525u + 1013904223u) >> 8;
  keys[7] = keys[9];  // duplicates sort too
  CUdeviceptr dkeys = CudaUpload(keys);
  void* params[] = {&dkeys};
  Launch(f, blocks, 256, params);
  const std::vector<uint32_t> out = CudaDownload<uint32_t>(dkeys, n);
  for (int b = 0; b < blocks; ++b) {
    std::vector<uint32_t> expected(keys.begin() + b * 256, keys.begin() + (b + 1) * 256);
    std::sort(expected.begin(), expected.end());
    for (int i = 0; i < 256; ++i) ASSERT_EQ(out[b * 256 + i], expected[i]) << b << ":" << i;
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dkeys));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(PtxConformance, MandelbrotEscapeCountsMatchTheHost) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxMandelbrot(), "mandelbrot", &module);
  ASSERT_NE(f, nullptr);
  int width = 96, height = 64, max_iter = 200;
  float x0 = -2.0f, y0 = -1.0f, w = 3.0f, h = 2.0f;
  CUdeviceptr dcounts = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dcounts, width * height * 4));
  void* params[] = {&dcounts, &width, &height, &x0, &y0, &w, &h, &max_iter};
  Launch2D(f, (width + 15) / 16, (height + 7) / 8, 16, 8, params);
  const std::vector<int> counts = CudaDownload<int>(dcounts, width * height);
  // The iteration is chaotic near the set's border, where one rounding
  // (nvcc contracts a multiply-add into fma) changes the count: all counts
  // in range, and nearly every pixel exactly the host's.
  int differ = 0, inside = 0;
  for (int py = 0; py < height; ++py) {
    for (int px = 0; px < width; ++px) {
      const float cr = x0 + w * px / width, ci = y0 + h * py / height;
      float zr = 0, zi = 0;
      int it = 0;
      while (it < max_iter && zr * zr + zi * zi <= 4.0f) {
        const float t = zr * zr - zi * zi + cr;
        zi = std::fma(zr + zr, zi, ci);
        zr = t;
        ++it;
      }
      const int got = counts[py * width + px];
      ASSERT_GE(got, 1);
      ASSERT_LE(got, max_iter);
      if (got != it) ++differ;
      if (got == max_iter) ++inside;
    }
  }
  EXPECT_LE(differ, width * height / 100);
  EXPECT_GT(inside, width * height / 10);  // the loop really ran to max_iter
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dcounts));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(PtxConformance, NBodyAccelerationsUseRsqrtAndSharedTiles) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxNbody(), "nbody", &module);
  ASSERT_NE(f, nullptr);
  int n = 300;
  float softening = 0.01f;
  std::vector<float> bodies(4 * n);
  for (int i = 0; i < n; ++i) {
    bodies[4 * i + 0] = std::sin(i * 0.7f) * 3.0f;
    bodies[4 * i + 1] = std::cos(i * 1.3f) * 2.0f;
    bodies[4 * i + 2] = static_cast<float>(i % 11) * 0.25f - 1.0f;
    bodies[4 * i + 3] = 0.5f + static_cast<float>(i % 3);
  }
  const unsigned block = 128;
  CUdeviceptr dbodies = CudaUpload(bodies), daccel = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&daccel, n * 12));
  void* params[] = {&dbodies, &daccel, &n, &softening};
  Launch(f, (n + block - 1) / block, block, params, block * 16);
  const std::vector<float> accel = CudaDownload<float>(daccel, 3 * n);
  for (int i = 0; i < n; ++i) {
    double a[3] = {0, 0, 0};
    for (int j = 0; j < n; ++j) {
      const double d[3] = {bodies[4 * j] - bodies[4 * i], bodies[4 * j + 1] - bodies[4 * i + 1],
                           bodies[4 * j + 2] - bodies[4 * i + 2]};
      const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + softening;
      const double s = bodies[4 * j + 3] / (r2 * std::sqrt(r2));
      for (int c = 0; c < 3; ++c) a[c] += d[c] * s;
    }
    const double norm = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    for (int c = 0; c < 3; ++c) {
      // rsqrt's error bound and float sums: relative to the vector's size.
      ASSERT_NEAR(accel[3 * i + c], a[c], 2e-3 * norm + 1e-3) << i << "." << c;
    }
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dbodies));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(daccel));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(PtxConformance, FivePointStencilKeepsTheBorder) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxStencil(), "stencil", &module);
  ASSERT_NE(f, nullptr);
  int width = 45, height = 30;
  std::vector<float> in(width * height);
  for (int i = 0; i < width * height; ++i) in[i] = static_cast<float>((i * 13) % 17);
  CUdeviceptr din = CudaUpload(in), dout = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dout, width * height * 4));
  void* params[] = {&din, &dout, &width, &height};
  Launch2D(f, (width + 15) / 16, (height + 15) / 16, 16, 16, params);
  const std::vector<float> out = CudaDownload<float>(dout, width * height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const int i = y * width + x;
      const bool border = x == 0 || y == 0 || x == width - 1 || y == height - 1;
      // Small integers times powers of two: exact in any order.
      const float expected =
          border ? in[i]
                 : 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - width] + in[i + width]);
      ASSERT_EQ(out[i], expected) << x << "," << y;
    }
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(din));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dout));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

// The high 64 bits of the 128-bit product, from 32-bit halves (ISO C++ has
// no 128-bit integer).
uint64_t UnsignedHigh64(uint64_t a, uint64_t b) {
  const uint64_t a_lo = a & 0xffffffffu, a_hi = a >> 32, b_lo = b & 0xffffffffu, b_hi = b >> 32;
  const uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi;
  const uint64_t middle = (lo_lo >> 32) + (hi_lo & 0xffffffffu) + lo_hi;
  return a_hi * b_hi + (hi_lo >> 32) + (middle >> 32);
}

TEST_F(PtxConformance, SixtyFourBitIntegerMath) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxInt64Math(), "int64_math", &module);
  ASSERT_NE(f, nullptr);
  const std::vector<int64_t> a = {0,
                                  1,
                                  -1,
                                  123456789012345LL,
                                  -987654321098765LL,
                                  std::numeric_limits<int64_t>::max(),
                                  std::numeric_limits<int64_t>::min(),
                                  0x0123456789abcdefLL,
                                  -7,
                                  1LL << 40};
  const std::vector<int64_t> b = {
      3, -2, 7, 0, 1000003, -12345678901LL, 5, 0x7edcba9876543210LL, 2, -(1LL << 33)};
  int n = static_cast<int>(a.size());
  CUdeviceptr da = CudaUpload(a), db = CudaUpload(b), dout = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dout, n * 64));
  void* params[] = {&da, &db, &dout, &n};
  Launch(f, 1, 32, params);
  const std::vector<uint64_t> out = CudaDownload<uint64_t>(dout, 8 * n);
  for (int i = 0; i < n; ++i) {
    const int64_t x = a[i], y = b[i];
    const uint64_t ux = static_cast<uint64_t>(x), uy = static_cast<uint64_t>(y);
    uint64_t e[8];
    e[0] = ux * uy + static_cast<uint64_t>(x >> 7);
    // __umul64hi and __mul64hi: the signed high half is the unsigned one
    // less each negative operand's partner.
    const uint64_t uhi = UnsignedHigh64(ux, uy);
    e[1] = uhi ^ (uhi - (x < 0 ? uy : 0) - (y < 0 ? ux : 0));
    e[2] = y != 0 ? static_cast<uint64_t>(x / y) : 0;
    e[3] = y != 0 ? static_cast<uint64_t>(x % y) : 0;
    e[4] = uy != 0 ? ux / uy + ux % uy : 0;
    e[5] = (ux << (uy & 63)) | (ux >> ((64 - (uy & 63)) & 63));
    e[6] = static_cast<uint64_t>(__builtin_popcountll(ux)) * 1000 +
           static_cast<uint64_t>(__builtin_clzll(ux | 1)) * 10 + (x < y ? 1 : 0);
    uint64_t hash = ux ^ 0xcbf29ce484222325ull;
    for (int r = 0; r < 4; ++r) hash = (hash ^ (hash >> 29)) * 0x100000001b3ull + uy;
    e[7] = hash;
    for (int j = 0; j < 8; ++j) EXPECT_EQ(out[8 * i + j], e[j]) << "input " << i << " result " << j;
  }
  for (CUdeviceptr p : {da, db, dout}) EXPECT_CU(CUDA_SUCCESS, cuMemFree(p));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(PtxConformance, SwitchWithEarlyReturnsAndFallThrough) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxSwitchReturns(), "switch_returns", &module);
  ASSERT_NE(f, nullptr);
  int n = 600;
  std::vector<int> ops(n), args(n), out(n, 12345);
  for (int i = 0; i < n; ++i) {
    ops[i] = (i * 7) % 12 - (i % 50 == 0 ? 20 : 0);  // every case, the default, negatives
    args[i] = (i * 31) % 101 - 50;
  }
  CUdeviceptr dops = CudaUpload(ops), dargs = CudaUpload(args), dout = CudaUpload(out);
  void* params[] = {&dops, &dargs, &dout, &n};
  Launch(f, (n + 63) / 64, 64, params);
  const std::vector<int> got = CudaDownload<int>(dout, n);
  for (int i = 0; i < n; ++i) {
    const int v = args[i];
    int expected = 12345, r = 0;
    bool done = false;
    switch (ops[i]) {
      case 0:
        r = v + 1;
        break;
      case 1:
        if (v < 0) {
          expected = -1;
          done = true;
        }
        r = v * 2;
        break;
      case 2:
        r = v - 3;
        [[fallthrough]];
      case 3:
        r += v * v;
        break;
      case 4:
        expected = v >> 1;
        done = true;
        break;
      case 7:
        r = v ^ 0x55;
        break;
      case 9:
        done = true;
        break;
      default:
        r = -v;
        break;
    }
    if (!done) expected = r * 10 + ops[i];
    ASSERT_EQ(got[i], expected) << "op " << ops[i] << " arg " << v;
  }
  for (CUdeviceptr p : {dops, dargs, dout}) EXPECT_CU(CUDA_SUCCESS, cuMemFree(p));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(PtxConformance, StructsByValueReachTheKernelAndADeviceFunction) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxStructParam(), "struct_param", &module);
  ASSERT_NE(f, nullptr);
  // The layouts of struct_param.cu's Buffers and Affine (CUDA's offsets).
  struct Affine {
    float scale, offset;
    int clamp_lo, clamp_hi;
  };
  struct Buffers {
    CUdeviceptr in, out;
    int n;
    char tag;
    double bias;
  };
  static_assert(sizeof(Buffers) == 32 && offsetof(Buffers, tag) == 20);
  const int n = 300;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i) * 0.75f - 100.0f;
  Buffers buffers = {CudaUpload(in), 0, n, 'A', 2.5};
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&buffers.out, n * 4));
  Affine affine = {1.5f, 3.25f, -60, 90};
  void* params[] = {&buffers, &affine};
  Launch(f, (n + 127) / 128, 128, params);
  const std::vector<int> out = CudaDownload<int>(buffers.out, n);
  for (int i = 0; i < n; ++i) {
    int v = static_cast<int>(std::fma(in[i], affine.scale, affine.offset));
    v = std::min(std::max(v, affine.clamp_lo), affine.clamp_hi);
    ASSERT_EQ(out[i], v + 'A' + 2) << i;
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(buffers.in));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(buffers.out));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

// The translation cache (docs/ptx.md): CUDA_CACHE_PATH names the directory,
// a second load of the same PTX reads the entry the first wrote, a damaged
// entry is translated again and rewritten, and CUDA_CACHE_DISABLE=1 neither
// reads nor writes. Every load gives a working module.
class PtxCacheConformance : public ContextTest {
 protected:
  void SetUp() override {
    ContextTest::SetUp();
    for (const char* name : {"CUDA_CACHE_PATH", "CUDA_CACHE_DISABLE"}) {
      const char* value = std::getenv(name);
      saved_.emplace_back(name, value == nullptr ? "" : value, value != nullptr);
    }
    std::string pattern = testing::TempDir() + "/streamhal_ptx_cache_XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    setenv("CUDA_CACHE_PATH", dir_.c_str(), 1);
    unsetenv("CUDA_CACHE_DISABLE");
  }
  void TearDown() override {
    for (const auto& [name, value, was_set] : saved_) {
      if (was_set) {
        setenv(name.c_str(), value.c_str(), 1);
      } else {
        unsetenv(name.c_str());
      }
    }
    std::error_code ignored;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ignored);
    ContextTest::TearDown();
  }
  std::vector<std::string> Entries() const {
    std::vector<std::string> files;
    std::error_code ignored;
    for (const auto& entry : std::filesystem::directory_iterator(dir_, ignored)) {
      files.push_back(entry.path().string());
    }
    return files;
  }
  void LoadAndRunVectorAdd() {
    CUmodule module = nullptr;
    ExpectCudaVectorAdd(LoadPtx(PtxVectorAdd(), "vector_add", &module), 500);
    EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  }

  std::string dir_;
  std::vector<std::tuple<std::string, std::string, bool>> saved_;
};

TEST_F(PtxCacheConformance, SecondLoadReadsTheEntryTheFirstWrote) {
  LoadAndRunVectorAdd();
  const std::vector<std::string> entries = Entries();
  ASSERT_EQ(entries.size(), 1u);
  const auto size = std::filesystem::file_size(entries[0]);
  EXPECT_GT(size, 64u);
  LoadAndRunVectorAdd();
  EXPECT_EQ(Entries(), entries);
  EXPECT_EQ(std::filesystem::file_size(entries[0]), size);
}

TEST_F(PtxCacheConformance, DamagedEntryIsTranslatedAgainAndRewritten) {
  LoadAndRunVectorAdd();
  const std::vector<std::string> entries = Entries();
  ASSERT_EQ(entries.size(), 1u);
  const auto size = std::filesystem::file_size(entries[0]);
  FILE* f = std::fopen(entries[0].c_str(), "wb");
  ASSERT_NE(f, nullptr);
  std::fputs("not a cache entry", f);
  std::fclose(f);
  LoadAndRunVectorAdd();
  EXPECT_EQ(std::filesystem::file_size(entries[0]), size);
}

TEST_F(PtxCacheConformance, CudaCacheDisableNeitherReadsNorWrites) {
  setenv("CUDA_CACHE_DISABLE", "1", 1);
  LoadAndRunVectorAdd();
  EXPECT_TRUE(Entries().empty());
}

TEST_F(PtxCacheConformance, UnusableCacheDirectoryStillLoads) {
  const std::string file = dir_ + "/file";
  FILE* f = std::fopen(file.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  std::fclose(f);
  setenv("CUDA_CACHE_PATH", (file + "/cache").c_str(), 1);
  LoadAndRunVectorAdd();
  LoadAndRunVectorAdd();
  EXPECT_EQ(std::filesystem::file_size(file), 0u);
}

}  // namespace
}  // namespace streamhal::conformance
