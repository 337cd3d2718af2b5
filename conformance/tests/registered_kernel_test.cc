// Rows: kernels and variables registered by the host program (the hipcc
// path): __hipRegisterFatBinary, __hipRegisterFunction, __hipRegisterVar,
// __hipRegisterManagedVar, __hipUnregisterFatBinary; hipLaunchKernel and
// hipLaunchKernelGGL by host stub; hipGetFuncBySymbol; hipFuncGetAttributes,
// hipFuncSetAttribute, hipFuncSetCacheConfig and the occupancy calculators
// on host stubs; hipGetSymbolAddress, hipGetSymbolSize,
// hipMemcpyToSymbol(Async), hipMemcpyFromSymbol(Async), with their C++
// `const T&` overloads.
#include <cuda.h>
#include <hip/hip_runtime.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using RegisteredKernelConformance = ContextTest;

// Host stubs: only their addresses matter. Distinct bodies keep the linker
// from folding them into one address.
volatile int g_stub_calls = 0;
void vector_add(float*, const float*, float*, uint32_t) { g_stub_calls = g_stub_calls + 1; }
void scaled_table(float*, float) { g_stub_calls = g_stub_calls + 2; }
void NotAKernel() { g_stub_calls = g_stub_calls + 3; }

// Host shadows of the globals of kGlobalsGlsl.
float table[kGlobalsTableSize];
uint32_t counter;
uint64_t wrong_size_counter;

// A registration of one GLSL image, undone at the end of the scope.
class Registration {
 public:
  explicit Registration(const void* image) {
    wrapper_ = {0x48495046u, 1u, image, nullptr};
    modules_ = __hipRegisterFatBinary(&wrapper_);
  }
  ~Registration() { Unregister(); }
  void Unregister() {
    if (modules_ != nullptr) __hipUnregisterFatBinary(modules_);
    modules_ = nullptr;
  }
  void** modules() const { return modules_; }
  const void* wrapper() const { return &wrapper_; }
  void Function(const void* stub, const char* name) {
    __hipRegisterFunction(modules_, stub, const_cast<char*>(name), name, 0, nullptr, nullptr,
                          nullptr, nullptr, nullptr);
  }
  void Var(void* var, const char* name, size_t size) {
    __hipRegisterVar(modules_, var, const_cast<char*>(name), const_cast<char*>(name), 0, size, 0,
                     0);
  }

 private:
  struct {
    uint32_t magic;
    uint32_t version;
    const void* binary;
    void* unused;
  } wrapper_;
  void** modules_ = nullptr;
};

const void* Stub(void (*f)(float*, const float*, float*, uint32_t)) {
  return reinterpret_cast<const void*>(f);
}

struct VectorAddBuffers {
  static constexpr uint32_t kN = 1000;
  float* a = nullptr;
  float* b = nullptr;
  float* c = nullptr;
  VectorAddBuffers() {
    EXPECT_HIP(hipSuccess, hipMalloc(&a, kN * sizeof(float)));
    EXPECT_HIP(hipSuccess, hipMalloc(&b, kN * sizeof(float)));
    EXPECT_HIP(hipSuccess, hipMalloc(&c, kN * sizeof(float)));
    std::vector<float> x(kN), y(kN);
    for (uint32_t i = 0; i < kN; ++i) {
      x[i] = static_cast<float>(i);
      y[i] = static_cast<float>(2 * i) + 0.5f;
    }
    EXPECT_HIP(hipSuccess, hipMemcpy(a, x.data(), kN * sizeof(float), hipMemcpyHostToDevice));
    EXPECT_HIP(hipSuccess, hipMemcpy(b, y.data(), kN * sizeof(float), hipMemcpyHostToDevice));
    EXPECT_HIP(hipSuccess, hipMemset(c, 0, kN * sizeof(float)));
  }
  ~VectorAddBuffers() {
    (void)hipFree(a);
    (void)hipFree(b);
    (void)hipFree(c);
  }
  // True when c holds a + b for every element.
  bool Correct() const {
    std::vector<float> back(kN);
    EXPECT_HIP(hipSuccess, hipMemcpy(back.data(), c, kN * sizeof(float), hipMemcpyDeviceToHost));
    for (uint32_t i = 0; i < kN; ++i) {
      if (back[i] != static_cast<float>(3 * i) + 0.5f) return false;
    }
    return true;
  }
};

TEST_F(RegisteredKernelConformance, LaunchKernelRunsTheRegisteredKernel) {
  Registration registration(kVectorAddGlsl);
  ASSERT_NE(registration.modules(), nullptr);
  registration.Function(Stub(vector_add), "vector_add");
  VectorAddBuffers buffers;
  uint32_t n = VectorAddBuffers::kN;
  void* args[] = {&buffers.a, &buffers.b, &buffers.c, &n};
  ASSERT_HIP(hipSuccess,
             hipLaunchKernel(Stub(vector_add), dim3((n + 63) / 64), dim3(64), args, 0, nullptr));
  ASSERT_HIP(hipSuccess, hipDeviceSynchronize());
  EXPECT_TRUE(buffers.Correct());
}

TEST_F(RegisteredKernelConformance, LaunchKernelGGLTypeChecksAndLaunches) {
  Registration registration(kVectorAddGlsl);
  registration.Function(Stub(vector_add), "vector_add");
  VectorAddBuffers buffers;
  hipStream_t stream = nullptr;
  ASSERT_HIP(hipSuccess, hipStreamCreate(&stream));
  (void)hipGetLastError();
  // An int converts to the uint32_t parameter; float* to const float*.
  const int n = static_cast<int>(VectorAddBuffers::kN);
  hipLaunchKernelGGL(vector_add, dim3((n + 127) / 128), dim3(128), 0, stream, buffers.a, buffers.b,
                     buffers.c, n);
  EXPECT_HIP(hipSuccess, hipGetLastError());
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(stream));
  EXPECT_TRUE(buffers.Correct());
  // A launch error (a block over the device limit) is left for
  // hipGetLastError, as on AMD.
  hipLaunchKernelGGL(vector_add, dim3(1), dim3(100000), 0, stream, buffers.a, buffers.b, buffers.c,
                     n);
  EXPECT_HIP(hipErrorInvalidValue, hipGetLastError());
  EXPECT_HIP(hipSuccess, hipStreamDestroy(stream));
}

TEST_F(RegisteredKernelConformance, LaunchKernelRejectsPointersThatAreNotRegisteredStubs) {
  Registration registration(kVectorAddGlsl);
  registration.Function(Stub(vector_add), "vector_add");
  VectorAddBuffers buffers;
  uint32_t n = VectorAddBuffers::kN;
  void* args[] = {&buffers.a, &buffers.b, &buffers.c, &n};
  (void)hipGetLastError();
  EXPECT_HIP(hipErrorInvalidDeviceFunction,
             hipLaunchKernel(reinterpret_cast<const void*>(&NotAKernel), dim3(1), dim3(64), args, 0,
                             nullptr));
  EXPECT_HIP(hipErrorInvalidDeviceFunction, hipGetLastError());
  EXPECT_HIP(hipErrorInvalidDeviceFunction,
             hipLaunchKernel(nullptr, dim3(1), dim3(64), args, 0, nullptr));
  // A module function handle is not a host stub either.
  hipModule_t module = nullptr;
  hipFunction_t function = LoadHipKernel(kVectorAddGlsl, "vector_add", &module);
  EXPECT_HIP(hipErrorInvalidDeviceFunction,
             hipLaunchKernel(function, dim3(1), dim3(64), args, 0, nullptr));
  EXPECT_HIP(hipSuccess, hipModuleUnload(module));
  // Nothing was launched: the output is still zero.
  std::vector<float> back(n);
  ASSERT_HIP(hipSuccess,
             hipMemcpy(back.data(), buffers.c, n * sizeof(float), hipMemcpyDeviceToHost));
  for (float value : back) ASSERT_EQ(value, 0.0f);
  // Once unregistered, the stub is no kernel any more.
  registration.Unregister();
  EXPECT_HIP(hipErrorInvalidDeviceFunction,
             hipLaunchKernel(Stub(vector_add), dim3(1), dim3(64), args, 0, nullptr));
}

// Launches vector_add through its stub in the current context and checks
// the result.
void LaunchVectorAddAndCheck() {
  VectorAddBuffers buffers;
  uint32_t n = VectorAddBuffers::kN;
  void* args[] = {&buffers.a, &buffers.b, &buffers.c, &n};
  ASSERT_HIP(hipSuccess,
             hipLaunchKernel(Stub(vector_add), dim3((n + 63) / 64), dim3(64), args, 0, nullptr));
  ASSERT_HIP(hipSuccess, hipDeviceSynchronize());
  EXPECT_TRUE(buffers.Correct());
}

TEST_F(RegisteredKernelConformance, ImageIsLoadedIntoEachContextOnFirstUse) {
  Registration registration(kVectorAddGlsl);
  registration.Function(Stub(vector_add), "vector_add");
  LaunchVectorAddAndCheck();  // the test's own context
  // No context current: HIP runs on the primary context, a second load.
  ASSERT_CU(CUDA_SUCCESS, cuCtxSetCurrent(nullptr));
  LaunchVectorAddAndCheck();
  // Resetting the device destroys the primary context and its module; the
  // next use loads the image into the new primary context.
  ASSERT_HIP(hipSuccess, hipDeviceReset());
  LaunchVectorAddAndCheck();
  ASSERT_CU(CUDA_SUCCESS, cuCtxSetCurrent(context()));
  LaunchVectorAddAndCheck();
}

TEST_F(RegisteredKernelConformance, SameWrapperRegisteredTwiceCountsRegistrations) {
  Registration first(kVectorAddGlsl);
  first.Function(Stub(vector_add), "vector_add");
  // The same wrapper again: the same handle, one more count.
  void** again = __hipRegisterFatBinary(first.wrapper());
  EXPECT_EQ(again, first.modules());
  // Registering the same stub for the same kernel again changes nothing.
  first.Function(Stub(vector_add), "vector_add");
  LaunchVectorAddAndCheck();
  // One unregistration leaves it registered; the second removes it.
  first.Unregister();
  LaunchVectorAddAndCheck();
  __hipUnregisterFatBinary(again);
  uint32_t n = 1;
  void* args[] = {&n, &n, &n, &n};
  EXPECT_HIP(hipErrorInvalidDeviceFunction,
             hipLaunchKernel(Stub(vector_add), dim3(1), dim3(1), args, 0, nullptr));
}

TEST_F(RegisteredKernelConformance, AStubRegisteredByAnotherImageKeepsItsFirstKernel) {
  Registration first(kVectorAddGlsl);
  first.Function(Stub(vector_add), "vector_add");
  // Another image claiming the stub for a kernel of its own is refused; the
  // first binding stays.
  Registration second(kGlobalsGlsl);
  second.Function(Stub(vector_add), "scaled_table");
  LaunchVectorAddAndCheck();
  second.Unregister();
  LaunchVectorAddAndCheck();
}

TEST_F(RegisteredKernelConformance, GetFuncBySymbolGivesALaunchableFunction) {
  Registration registration(kVectorAddGlsl);
  registration.Function(Stub(vector_add), "vector_add");
  hipFunction_t function = nullptr;
  ASSERT_HIP(hipSuccess, hipGetFuncBySymbol(&function, Stub(vector_add)));
  ASSERT_NE(function, nullptr);
  hipFunction_t again = nullptr;
  ASSERT_HIP(hipSuccess, hipGetFuncBySymbol(&again, Stub(vector_add)));
  EXPECT_EQ(function, again);
  VectorAddBuffers buffers;
  uint32_t n = VectorAddBuffers::kN;
  void* args[] = {&buffers.a, &buffers.b, &buffers.c, &n};
  ASSERT_HIP(hipSuccess, hipModuleLaunchKernel(function, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr,
                                               args, nullptr));
  ASSERT_HIP(hipSuccess, hipDeviceSynchronize());
  EXPECT_TRUE(buffers.Correct());
  EXPECT_HIP(hipErrorInvalidValue, hipGetFuncBySymbol(nullptr, Stub(vector_add)));
  hipFunction_t none = nullptr;
  EXPECT_HIP(hipErrorInvalidDeviceFunction,
             hipGetFuncBySymbol(&none, reinterpret_cast<const void*>(&NotAKernel)));
  EXPECT_EQ(none, nullptr);
  EXPECT_HIP(hipErrorInvalidDeviceFunction, hipGetFuncBySymbol(&none, nullptr));
}

TEST_F(RegisteredKernelConformance, RegistrationOfAnUnknownKernelFailsAtFirstUse) {
  Registration registration(kVectorAddGlsl);
  registration.Function(Stub(vector_add), "no_such_kernel");
  hipFunction_t function = nullptr;
  EXPECT_HIP(hipErrorInvalidDeviceFunction, hipGetFuncBySymbol(&function, Stub(vector_add)));
  // A wrapper of the wrong version registers an image that cannot load.
  struct {
    uint32_t magic, version;
    const void* binary;
    void* unused;
  } bad = {0x48495046u, 7u, kVectorAddGlsl, nullptr};
  void** modules = __hipRegisterFatBinary(&bad);
  ASSERT_NE(modules, nullptr);
  __hipRegisterFunction(modules, reinterpret_cast<const void*>(&NotAKernel),
                        const_cast<char*>("vector_add"), "vector_add", 0, nullptr, nullptr, nullptr,
                        nullptr, nullptr);
  EXPECT_HIP(hipErrorInvalidImage,
             hipGetFuncBySymbol(&function, reinterpret_cast<const void*>(&NotAKernel)));
  __hipUnregisterFatBinary(modules);
}

TEST_F(RegisteredKernelConformance, FunctionAttributesTakeHostStubs) {
  Registration registration(kVectorAddGlsl);
  registration.Function(Stub(vector_add), "vector_add");
  hipFuncAttributes attributes{};
  ASSERT_HIP(hipSuccess, hipFuncGetAttributes(&attributes, Stub(vector_add)));
  hipFunction_t function = nullptr;
  ASSERT_HIP(hipSuccess, hipGetFuncBySymbol(&function, Stub(vector_add)));
  int max_threads = 0;
  ASSERT_HIP(hipSuccess,
             hipFuncGetAttribute(&max_threads, HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, function));
  EXPECT_EQ(attributes.maxThreadsPerBlock, max_threads);
  EXPECT_GT(attributes.maxThreadsPerBlock, 0);
  EXPECT_HIP(hipSuccess,
             hipFuncSetAttribute(Stub(vector_add), hipFuncAttributeMaxDynamicSharedMemorySize, 0));
  EXPECT_HIP(hipErrorInvalidValue,
             hipFuncSetAttribute(Stub(vector_add), hipFuncAttributeMaxDynamicSharedMemorySize, -1));
  EXPECT_HIP(hipSuccess, hipFuncSetCacheConfig(Stub(vector_add), hipFuncCachePreferShared));
  EXPECT_HIP(hipErrorInvalidValue,
             hipFuncSetCacheConfig(Stub(vector_add), static_cast<hipFuncCache_t>(4)));
  EXPECT_HIP(hipSuccess, hipFuncSetSharedMemConfig(Stub(vector_add), hipSharedMemBankSizeFourByte));
  EXPECT_HIP(hipErrorInvalidValue, hipFuncGetAttributes(nullptr, Stub(vector_add)));
  int blocks = 0, grid = 0, block = 0;
  EXPECT_HIP(hipSuccess,
             hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, Stub(vector_add), 64, 0));
  EXPECT_GT(blocks, 0);
  EXPECT_HIP(hipSuccess, hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
                             &blocks, Stub(vector_add), 64, 0, hipOccupancyDefault));
  EXPECT_HIP(hipSuccess, hipOccupancyMaxPotentialBlockSize(&grid, &block, Stub(vector_add), 0, 0));
  EXPECT_GT(grid, 0);
  EXPECT_GT(block, 0);
  // A host function that was never registered is not a kernel (nor a
  // hipFunction_t).
  EXPECT_HIP(hipErrorInvalidHandle,
             hipFuncGetAttributes(&attributes, reinterpret_cast<const void*>(&NotAKernel)));
}

TEST_F(RegisteredKernelConformance, SymbolsReachTheModuleGlobals) {
  Registration registration(kGlobalsGlsl);
  registration.Function(reinterpret_cast<const void*>(&scaled_table), "scaled_table");
  registration.Var(table, "table", sizeof(table));
  registration.Var(&counter, "counter", sizeof(counter));
  size_t size = 0;
  ASSERT_HIP(hipSuccess, hipGetSymbolSize(&size, table));  // the const T& overload
  EXPECT_EQ(size, sizeof(table));
  void* address = nullptr;
  ASSERT_HIP(hipSuccess, hipGetSymbolAddress(&address, HIP_SYMBOL(counter)));
  ASSERT_NE(address, nullptr);
  hipPointerAttribute_t attributes{};
  EXPECT_HIP(hipSuccess, hipPointerGetAttributes(&attributes, address));

  float values[kGlobalsTableSize];
  for (int i = 0; i < kGlobalsTableSize; ++i) values[i] = static_cast<float>(i) - 4.0f;
  ASSERT_HIP(hipSuccess, hipMemcpyToSymbol(table, values, sizeof(values)));
  // The last four entries again through the async form, at an offset.
  const float tail[4] = {100.0f, 101.0f, 102.0f, 103.0f};
  hipStream_t stream = nullptr;
  ASSERT_HIP(hipSuccess, hipStreamCreate(&stream));
  ASSERT_HIP(hipSuccess, hipMemcpyToSymbolAsync(table, tail, sizeof(tail),
                                                (kGlobalsTableSize - 4) * sizeof(float),
                                                hipMemcpyHostToDevice, stream));
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(stream));
  for (int i = 0; i < 4; ++i) values[kGlobalsTableSize - 4 + i] = tail[i];

  float* out = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&out, sizeof(values)));
  hipLaunchKernelGGL(scaled_table, dim3(1), dim3(32), 0, stream, out, 2.0f);
  ASSERT_HIP(hipSuccess, hipGetLastError());
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(stream));
  float back[kGlobalsTableSize] = {};
  ASSERT_HIP(hipSuccess, hipMemcpy(back, out, sizeof(back), hipMemcpyDeviceToHost));
  for (int i = 0; i < kGlobalsTableSize; ++i) EXPECT_EQ(back[i], values[i] * 2.0f) << i;

  // The kernel counted its 32 threads in the global.
  uint32_t count = 0;
  ASSERT_HIP(hipSuccess, hipMemcpyFromSymbol(&count, counter, sizeof(count)));
  EXPECT_EQ(count, 32u);
  float read_back[2] = {};
  ASSERT_HIP(hipSuccess, hipMemcpyFromSymbolAsync(read_back, table, sizeof(read_back),
                                                  sizeof(float), hipMemcpyDeviceToHost, stream));
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(stream));
  EXPECT_EQ(read_back[0], values[1]);
  EXPECT_EQ(read_back[1], values[2]);
  // Device to device, through the symbol's address.
  ASSERT_HIP(hipSuccess, hipMemcpyFromSymbol(out, HIP_SYMBOL(table), sizeof(float), 0,
                                             hipMemcpyDeviceToDevice));
  EXPECT_HIP(hipSuccess, hipFree(out));
  EXPECT_HIP(hipSuccess, hipStreamDestroy(stream));
}

TEST_F(RegisteredKernelConformance, SymbolCopiesRejectBadArgumentsAndChangeNothing) {
  Registration registration(kGlobalsGlsl);
  registration.Var(table, "table", sizeof(table));
  float values[kGlobalsTableSize];
  for (int i = 0; i < kGlobalsTableSize; ++i) values[i] = static_cast<float>(i + 1);
  ASSERT_HIP(hipSuccess, hipMemcpyToSymbol(table, values, sizeof(values)));
  const float junk[kGlobalsTableSize + 1] = {};
  // Past the end, at an offset past the end, the wrong direction.
  EXPECT_HIP(hipErrorInvalidValue, hipMemcpyToSymbol(table, junk, sizeof(junk)));
  EXPECT_HIP(hipErrorInvalidValue, hipMemcpyToSymbol(table, junk, sizeof(float), sizeof(table)));
  EXPECT_HIP(hipErrorInvalidValue,
             hipMemcpyFromSymbol(values, table, sizeof(float), sizeof(table) - 2));
  EXPECT_HIP(hipErrorInvalidMemcpyDirection,
             hipMemcpyToSymbol(table, junk, sizeof(float), 0, hipMemcpyDeviceToHost));
  EXPECT_HIP(hipErrorInvalidMemcpyDirection,
             hipMemcpyFromSymbol(values, table, sizeof(float), 0, hipMemcpyHostToDevice));
  // Unregistered symbols.
  int unknown = 0;
  void* address = nullptr;
  size_t size = 0;
  EXPECT_HIP(hipErrorInvalidSymbol, hipGetSymbolAddress(&address, unknown));
  EXPECT_HIP(hipErrorInvalidSymbol, hipGetSymbolSize(&size, unknown));
  EXPECT_HIP(hipErrorInvalidSymbol, hipMemcpyToSymbol(unknown, junk, sizeof(int)));
  EXPECT_HIP(hipErrorInvalidSymbol, hipMemcpyFromSymbol(&size, unknown, sizeof(int)));
  EXPECT_HIP(hipErrorInvalidSymbol,
             hipGetSymbolAddress(&address, static_cast<const void*>(nullptr)));
  EXPECT_HIP(hipErrorInvalidValue, hipGetSymbolAddress(nullptr, table));
  EXPECT_HIP(hipErrorInvalidValue, hipGetSymbolSize(nullptr, table));
  // The table is as it was.
  float back[kGlobalsTableSize] = {};
  ASSERT_HIP(hipSuccess, hipMemcpyFromSymbol(back, table, sizeof(back)));
  for (int i = 0; i < kGlobalsTableSize; ++i) EXPECT_EQ(back[i], values[i]);
}

// Memcpy nodes to and from a registered variable: a graph writes the table
// and reads part of it back; node and exec setters move the copies.
TEST_F(RegisteredKernelConformance, GraphMemcpyNodesReachSymbols) {
  Registration registration(kGlobalsGlsl);
  registration.Var(table, "table", sizeof(table));
  float values[kGlobalsTableSize];
  for (int i = 0; i < kGlobalsTableSize; ++i) values[i] = static_cast<float>(3 * i) + 0.25f;
  float back[4] = {};
  hipGraph_t graph = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&graph, 0));
  hipGraphNode_t to = nullptr, from = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphAddMemcpyNodeToSymbol(&to, graph, nullptr, 0, table, values,
                                                       sizeof(values), 0, hipMemcpyHostToDevice));
  ASSERT_HIP(hipSuccess,
             hipGraphAddMemcpyNodeFromSymbol(&from, graph, &to, 1, back, table, sizeof(back),
                                             2 * sizeof(float), hipMemcpyDeviceToHost));
  // Before instantiation the read moves to entries 4..7.
  ASSERT_HIP(hipSuccess,
             hipGraphMemcpyNodeSetParamsFromSymbol(from, back, table, sizeof(back),
                                                   4 * sizeof(float), hipMemcpyDeviceToHost));
  hipStream_t stream = nullptr;
  ASSERT_HIP(hipSuccess, hipStreamCreate(&stream));
  hipGraphExec_t exec = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  ASSERT_HIP(hipSuccess, hipGraphLaunch(exec, stream));
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(stream));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(back[i], values[4 + i]) << i;
  float whole[kGlobalsTableSize] = {};
  ASSERT_HIP(hipSuccess, hipMemcpyFromSymbol(whole, table, sizeof(whole)));
  for (int i = 0; i < kGlobalsTableSize; ++i) EXPECT_EQ(whole[i], values[i]) << i;

  // Exec setters: write four new values at entry 8, read entries 7..10.
  const float fresh[4] = {-1.0f, -2.0f, -3.0f, -4.0f};
  ASSERT_HIP(hipSuccess,
             hipGraphExecMemcpyNodeSetParamsToSymbol(exec, to, table, fresh, sizeof(fresh),
                                                     8 * sizeof(float), hipMemcpyHostToDevice));
  ASSERT_HIP(hipSuccess,
             hipGraphExecMemcpyNodeSetParamsFromSymbol(exec, from, back, table, sizeof(back),
                                                       7 * sizeof(float), hipMemcpyDefault));
  ASSERT_HIP(hipSuccess, hipGraphLaunch(exec, stream));
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(stream));
  EXPECT_EQ(back[0], values[7]);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(back[1 + i], fresh[i]) << i;
  // The node setter of the write: the graph's node changes, not the exec's.
  ASSERT_HIP(hipSuccess, hipGraphMemcpyNodeSetParamsToSymbol(to, table, values, sizeof(float), 0,
                                                             hipMemcpyHostToDevice));
  hipMemcpy3DParms read{};
  ASSERT_HIP(hipSuccess, hipGraphMemcpyNodeGetParams(to, &read));
  EXPECT_EQ(read.extent.width, sizeof(float));
  EXPECT_EQ(read.srcPtr.ptr, static_cast<void*>(values));

  // Bad arguments, as hipMemcpyToSymbol's: past the end, the wrong
  // direction, an unregistered symbol; nothing is added.
  hipGraphNode_t node = nullptr;
  const float junk[kGlobalsTableSize + 1] = {};
  EXPECT_HIP(hipErrorInvalidValue,
             hipGraphAddMemcpyNodeToSymbol(&node, graph, nullptr, 0, table, junk, sizeof(junk), 0,
                                           hipMemcpyHostToDevice));
  EXPECT_HIP(hipErrorInvalidValue,
             hipGraphAddMemcpyNodeFromSymbol(&node, graph, nullptr, 0, back, table, sizeof(float),
                                             sizeof(table), hipMemcpyDeviceToHost));
  EXPECT_HIP(hipErrorInvalidMemcpyDirection,
             hipGraphAddMemcpyNodeToSymbol(&node, graph, nullptr, 0, table, junk, sizeof(float), 0,
                                           hipMemcpyDeviceToHost));
  EXPECT_HIP(hipErrorInvalidMemcpyDirection,
             hipGraphMemcpyNodeSetParamsFromSymbol(from, back, table, sizeof(float), 0,
                                                   hipMemcpyHostToDevice));
  int unknown = 0;
  EXPECT_HIP(hipErrorInvalidSymbol,
             hipGraphAddMemcpyNodeToSymbol(&node, graph, nullptr, 0, &unknown, junk, sizeof(int), 0,
                                           hipMemcpyHostToDevice));
  EXPECT_HIP(hipErrorInvalidSymbol,
             hipGraphExecMemcpyNodeSetParamsToSymbol(exec, to, &unknown, junk, sizeof(int), 0,
                                                     hipMemcpyHostToDevice));
  EXPECT_HIP(hipErrorInvalidValue,
             hipGraphExecMemcpyNodeSetParamsFromSymbol(exec, from, back, table, sizeof(table), 4,
                                                       hipMemcpyDeviceToHost));
  size_t count = 0;
  ASSERT_HIP(hipSuccess, hipGraphGetNodes(graph, nullptr, &count));
  EXPECT_EQ(count, 2u);
  EXPECT_HIP(hipSuccess, hipGraphExecDestroy(exec));
  EXPECT_HIP(hipSuccess, hipGraphDestroy(graph));
  EXPECT_HIP(hipSuccess, hipStreamDestroy(stream));
}

TEST_F(RegisteredKernelConformance, VarWithAWrongSizeIsAnErrorThatLosesNothing) {
  Registration registration(kGlobalsGlsl);
  registration.Var(table, "table", sizeof(table));
  registration.Var(&wrong_size_counter, "counter", sizeof(wrong_size_counter));  // image: 4 bytes
  registration.Var(&counter, "no_such_global", sizeof(counter));
  size_t size = 0;
  EXPECT_HIP(hipErrorInvalidSymbol, hipGetSymbolSize(&size, wrong_size_counter));
  const uint64_t value = 7;
  EXPECT_HIP(hipErrorInvalidSymbol, hipMemcpyToSymbol(wrong_size_counter, &value, sizeof(value)));
  EXPECT_HIP(hipErrorInvalidSymbol, hipGetSymbolSize(&size, counter));
  // The rest of the image is usable.
  ASSERT_HIP(hipSuccess, hipGetSymbolSize(&size, table));
  EXPECT_EQ(size, sizeof(table));
}

TEST_F(RegisteredKernelConformance, ManagedVarIsAllocatedAndInitialised) {
  Registration registration(kGlobalsGlsl);
  registration.Var(table, "table", sizeof(table));
  static void* managed = nullptr;
  static const double kInit[2] = {1.5, -2.5};
  __hipRegisterManagedVar(registration.modules(), &managed, const_cast<double*>(kInit),
                          "managed_pair", sizeof(kInit), alignof(double));
  int supported = 0;
  ASSERT_HIP(hipSuccess, hipDeviceGetAttribute(&supported, hipDeviceAttributeManagedMemory, 0));
  if (!supported) GTEST_SKIP() << "no managed memory on this device";
  // The first use of the image allocates it.
  size_t size = 0;
  ASSERT_HIP(hipSuccess, hipGetSymbolSize(&size, table));
  ASSERT_NE(managed, nullptr);
  EXPECT_EQ(std::memcmp(managed, kInit, sizeof(kInit)), 0);
  hipPointerAttribute_t attributes{};
  ASSERT_HIP(hipSuccess, hipPointerGetAttributes(&attributes, managed));
  EXPECT_TRUE(attributes.isManaged);
}

}  // namespace
}  // namespace streamhal::conformance
