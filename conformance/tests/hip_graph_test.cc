// Rows: Graph (explicit graphs through HIP: hipGraph* building, queries,
// instantiation, launch, exec updates). Stream capture is not covered here.
#include <hip/hip_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

// --- Host node functions -------------------------------------------------------

void Count(void* data) { static_cast<std::atomic<int>*>(data)->fetch_add(1); }
void CountTen(void* data) { static_cast<std::atomic<int>*>(data)->fetch_add(10); }

// Host nodes that write their name into a shared trace, in the order they run.
struct Trace {
  std::mutex mutex;
  std::string order;
};
struct Mark {
  Trace* trace;
  char name;
};
void Append(void* data) {
  auto* mark = static_cast<Mark*>(data);
  std::lock_guard<std::mutex> lock(mark->trace->mutex);
  mark->trace->order += mark->name;
}

hipHostNodeParams HostParams(hipHostFn_t fn, void* data) {
  hipHostNodeParams params{};
  params.fn = fn;
  params.userData = data;
  return params;
}

class HipGraphConformance : public DriverTest {
 protected:
  void SetUp() override {
    DriverTest::SetUp();
    if (HasFatalFailure()) return;
    scale_offset_ = LoadHipKernel(kScaleOffsetGlsl, "scale_offset", &scale_offset_module_);
    ASSERT_NE(scale_offset_, nullptr);
    vector_add_ = LoadHipKernel(kVectorAddGlsl, "vector_add", &vector_add_module_);
    ASSERT_NE(vector_add_, nullptr);
    ASSERT_HIP(hipSuccess, hipStreamCreate(&stream_));
  }
  void TearDown() override {
    if (stream_ != nullptr) {
      EXPECT_HIP(hipSuccess, hipStreamDestroy(stream_));
    }
    DriverTest::TearDown();
  }

  // The parameters of scale_offset(data, scale, offset, n) on `n` floats in
  // blocks of 64 (kernelParams are read when the node is set).
  hipKernelNodeParams ScaleOffset(void*& data, float& scale, float& offset, unsigned& n) {
    args_[0] = &data;
    args_[1] = &scale;
    args_[2] = &offset;
    args_[3] = &n;
    hipKernelNodeParams params{};
    params.func = scale_offset_;
    params.gridDim = dim3((n + 63) / 64);
    params.blockDim = dim3(64);
    params.kernelParams = args_;
    return params;
  }

  // Adds scale_offset over `n` floats at `data`.
  hipGraphNode_t AddScaleOffset(hipGraph_t graph, const std::vector<hipGraphNode_t>& dependencies,
                                void* data, float scale, float offset, unsigned n) {
    const hipKernelNodeParams params = ScaleOffset(data, scale, offset, n);
    hipGraphNode_t node = nullptr;
    EXPECT_HIP(hipSuccess, hipGraphAddKernelNode(&node, graph, dependencies.data(),
                                                 dependencies.size(), &params));
    return node;
  }

  hipGraphNode_t AddHost(hipGraph_t graph, const std::vector<hipGraphNode_t>& dependencies,
                         hipHostFn_t fn, void* data) {
    const hipHostNodeParams params = HostParams(fn, data);
    hipGraphNode_t node = nullptr;
    EXPECT_HIP(hipSuccess, hipGraphAddHostNode(&node, graph, dependencies.data(),
                                               dependencies.size(), &params));
    return node;
  }

  // 32-bit fill of `n` floats with `value`.
  hipGraphNode_t AddFill(hipGraph_t graph, const std::vector<hipGraphNode_t>& dependencies,
                         void* data, float value, size_t n) {
    hipMemsetParams params{};
    params.dst = data;
    params.elementSize = 4;
    std::memcpy(&params.value, &value, 4);
    params.width = n;
    params.height = 1;
    hipGraphNode_t node = nullptr;
    EXPECT_HIP(hipSuccess, hipGraphAddMemsetNode(&node, graph, dependencies.data(),
                                                 dependencies.size(), &params));
    return node;
  }

  std::vector<float> Download(const void* data, size_t n) {
    std::vector<float> values(n, -1.0f);
    EXPECT_HIP(hipSuccess,
               hipMemcpy(values.data(), data, n * sizeof(float), hipMemcpyDeviceToHost));
    return values;
  }

  hipGraphExec_t Instantiate(hipGraph_t graph) {
    hipGraphExec_t exec = nullptr;
    EXPECT_HIP(hipSuccess, hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
    return exec;
  }

  // Launches `exec` on the test's stream and waits for it.
  void Run(hipGraphExec_t exec) {
    ASSERT_HIP(hipSuccess, hipGraphLaunch(exec, stream_));
    ASSERT_HIP(hipSuccess, hipStreamSynchronize(stream_));
  }

  hipModule_t scale_offset_module_ = nullptr;
  hipFunction_t scale_offset_ = nullptr;
  hipModule_t vector_add_module_ = nullptr;
  hipFunction_t vector_add_ = nullptr;
  hipStream_t stream_ = nullptr;

 private:
  void* args_[4] = {};
};

// --- Execution of device work ---------------------------------------------------

TEST_F(HipGraphConformance, KernelNodesRunInDependencyOrder) {
  constexpr unsigned kN = 300;
  void *a = nullptr, *b = nullptr, *c = nullptr, *host = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&a, kN * sizeof(float)));
  ASSERT_HIP(hipSuccess, hipMalloc(&b, kN * sizeof(float)));
  ASSERT_HIP(hipSuccess, hipMalloc(&c, kN * sizeof(float)));
  ASSERT_HIP(hipSuccess, hipHostMalloc(&host, kN * sizeof(float), hipHostMallocDefault));
  hipGraph_t graph = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&graph, 0));
  // a = 1 -> a = a * 2 + 1 (3); b = 2 -> b = b * 10 (20); c = a + b (23);
  // every other order gives another value.
  hipGraphNode_t fill_a = AddFill(graph, {}, a, 1.0f, kN);
  hipGraphNode_t fill_b = AddFill(graph, {}, b, 2.0f, kN);
  hipGraphNode_t scale_a = AddScaleOffset(graph, {fill_a}, a, 2.0f, 1.0f, kN);
  hipGraphNode_t scale_b = AddScaleOffset(graph, {fill_b}, b, 10.0f, 0.0f, kN);
  void* args_c[4];
  unsigned n = kN;
  args_c[0] = &a;
  args_c[1] = &b;
  args_c[2] = &c;
  args_c[3] = &n;
  hipKernelNodeParams add{};
  add.func = vector_add_;
  add.gridDim = dim3((kN + 63) / 64);
  add.blockDim = dim3(64);
  add.kernelParams = args_c;
  const hipGraphNode_t both[] = {scale_a, scale_b};
  hipGraphNode_t sum = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphAddKernelNode(&sum, graph, both, 2, &add));
  hipGraphNode_t back = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphAddMemcpyNode1D(&back, graph, &sum, 1, host, c, kN * sizeof(float),
                                                 hipMemcpyDeviceToHost));
  hipGraphExec_t exec = Instantiate(graph);
  ASSERT_NE(exec, nullptr);
  Run(exec);
  const float* result = static_cast<const float*>(host);
  EXPECT_EQ(std::vector<float>(result, result + kN), std::vector<float>(kN, 23.0f));
  EXPECT_EQ(Download(a, kN), std::vector<float>(kN, 3.0f));
  EXPECT_EQ(Download(b, kN), std::vector<float>(kN, 20.0f));
  ASSERT_HIP(hipSuccess, hipGraphExecDestroy(exec));
  ASSERT_HIP(hipSuccess, hipGraphDestroy(graph));
  ASSERT_HIP(hipSuccess, hipHostFree(host));
  for (void* p : {a, b, c}) ASSERT_HIP(hipSuccess, hipFree(p));
}

TEST_F(HipGraphConformance, AKernelGraphRelaunchedAHundredTimesIsExact) {
  constexpr unsigned kN = 256;
  void* data = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&data, kN * sizeof(float)));
  ASSERT_HIP(hipSuccess, hipMemset(data, 0, kN * sizeof(float)));
  hipGraph_t graph = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&graph, 0));
  AddScaleOffset(graph, {}, data, 1.0f, 1.0f, kN);
  hipGraphExec_t exec = Instantiate(graph);
  ASSERT_NE(exec, nullptr);
  // No waits between launches: each one orders after the one before.
  for (int i = 0; i < 100; ++i) ASSERT_HIP(hipSuccess, hipGraphLaunch(exec, stream_));
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(stream_));
  EXPECT_EQ(Download(data, kN), std::vector<float>(kN, 100.0f));
  // The null stream works too.
  ASSERT_HIP(hipSuccess, hipGraphLaunch(exec, nullptr));
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(nullptr));
  EXPECT_EQ(Download(data, kN), std::vector<float>(kN, 101.0f));
  ASSERT_HIP(hipSuccess, hipGraphExecDestroy(exec));
  ASSERT_HIP(hipSuccess, hipGraphDestroy(graph));
  ASSERT_HIP(hipSuccess, hipFree(data));
}

TEST_F(HipGraphConformance, MemcpyNodesCopyBetweenDeviceAndPinnedMemory) {
  constexpr size_t kBytes = 4096;
  uint8_t *pinned_in = nullptr, *pinned_out = nullptr;
  ASSERT_HIP(hipSuccess, hipHostMalloc(&pinned_in, kBytes, hipHostMallocDefault));
  ASSERT_HIP(hipSuccess, hipHostMalloc(&pinned_out, kBytes, hipHostMallocDefault));
  for (size_t i = 0; i < kBytes; ++i) pinned_in[i] = static_cast<uint8_t>(i * 7 + 3);
  std::memset(pinned_out, 0, kBytes);
  void *a = nullptr, *b = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&a, kBytes));
  ASSERT_HIP(hipSuccess, hipMalloc(&b, kBytes));
  hipGraph_t graph = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&graph, 0));
  hipGraphNode_t up = nullptr, across = nullptr, down = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphAddMemcpyNode1D(&up, graph, nullptr, 0, a, pinned_in, kBytes,
                                                 hipMemcpyHostToDevice));
  ASSERT_HIP(hipSuccess, hipGraphAddMemcpyNode1D(&across, graph, &up, 1, b, a, kBytes,
                                                 hipMemcpyDeviceToDevice));
  // hipMemcpyDefault: the direction comes from the pointers.
  ASSERT_HIP(hipSuccess, hipGraphAddMemcpyNode1D(&down, graph, &across, 1, pinned_out, b, kBytes,
                                                 hipMemcpyDefault));
  hipGraphExec_t exec = Instantiate(graph);
  ASSERT_NE(exec, nullptr);
  Run(exec);
  EXPECT_EQ(std::memcmp(pinned_in, pinned_out, kBytes), 0);
  ASSERT_HIP(hipSuccess, hipGraphExecDestroy(exec));
  ASSERT_HIP(hipSuccess, hipGraphDestroy(graph));
  ASSERT_HIP(hipSuccess, hipFree(a));
  ASSERT_HIP(hipSuccess, hipFree(b));
  ASSERT_HIP(hipSuccess, hipHostFree(pinned_in));
  ASSERT_HIP(hipSuccess, hipHostFree(pinned_out));
}

TEST_F(HipGraphConformance, ThreeDimensionalMemcpyNodesCopyABoxBetweenPitchedVolumes) {
  // Source and destination volumes: rows of kPitch bytes, kRows rows a
  // slice, kSlices slices; the box is 10 bytes x 3 rows x 2 slices.
  constexpr size_t kPitch = 64, kRows = 8, kSlices = 4, kBytes = kPitch * kRows * kSlices;
  constexpr size_t kWidth = 10, kHeight = 3, kDepth = 2;
  std::vector<uint8_t> pattern(kBytes);
  for (size_t i = 0; i < kBytes; ++i) pattern[i] = static_cast<uint8_t>(i * 13 + 5);
  void *src = nullptr, *dst = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&src, kBytes));
  ASSERT_HIP(hipSuccess, hipMalloc(&dst, kBytes));
  ASSERT_HIP(hipSuccess, hipMemcpy(src, pattern.data(), kBytes, hipMemcpyHostToDevice));
  ASSERT_HIP(hipSuccess, hipMemset(dst, 0, kBytes));
  // A pinned volume with other pitch and height receives the same box.
  constexpr size_t kHostPitch = 32, kHostRows = 6, kHostBytes = kHostPitch * kHostRows * kDepth;
  uint8_t* pinned = nullptr;
  ASSERT_HIP(hipSuccess, hipHostMalloc(&pinned, kHostBytes, hipHostMallocDefault));
  std::memset(pinned, 0, kHostBytes);

  hipMemcpy3DParms to_device{};
  to_device.srcPtr = make_hipPitchedPtr(src, kPitch, kPitch, kRows);
  to_device.srcPos = make_hipPos(4, 2, 1);
  to_device.dstPtr = make_hipPitchedPtr(dst, kPitch, kPitch, kRows);
  to_device.dstPos = make_hipPos(1, 5, 2);
  to_device.extent = make_hipExtent(kWidth, kHeight, kDepth);
  to_device.kind = hipMemcpyDeviceToDevice;
  hipMemcpy3DParms to_host = to_device;
  to_host.dstPtr = make_hipPitchedPtr(pinned, kHostPitch, kHostPitch, kHostRows);
  to_host.dstPos = make_hipPos(0, 0, 0);
  to_host.kind = hipMemcpyDeviceToHost;
  hipGraph_t graph = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&graph, 0));
  hipGraphNode_t node = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphAddMemcpyNode(&node, graph, nullptr, 0, &to_device));
  ASSERT_HIP(hipSuccess, hipGraphAddMemcpyNode(&node, graph, nullptr, 0, &to_host));
  hipGraphExec_t exec = Instantiate(graph);
  ASSERT_NE(exec, nullptr);
  Run(exec);

  std::vector<uint8_t> expected(kBytes, 0), expected_host(kHostBytes, 0);
  for (size_t z = 0; z < kDepth; ++z) {
    for (size_t y = 0; y < kHeight; ++y) {
      for (size_t x = 0; x < kWidth; ++x) {
        const uint8_t value = pattern[((1 + z) * kRows + 2 + y) * kPitch + 4 + x];
        expected[((2 + z) * kRows + 5 + y) * kPitch + 1 + x] = value;
        expected_host[(z * kHostRows + y) * kHostPitch + x] = value;
      }
    }
  }
  std::vector<uint8_t> back(kBytes, 0xff);
  ASSERT_HIP(hipSuccess, hipMemcpy(back.data(), dst, kBytes, hipMemcpyDeviceToHost));
  EXPECT_EQ(back, expected);
  EXPECT_EQ(std::vector<uint8_t>(pinned, pinned + kHostBytes), expected_host);
  ASSERT_HIP(hipSuccess, hipGraphExecDestroy(exec));
  ASSERT_HIP(hipSuccess, hipGraphDestroy(graph));
  ASSERT_HIP(hipSuccess, hipFree(src));
  ASSERT_HIP(hipSuccess, hipFree(dst));
  ASSERT_HIP(hipSuccess, hipHostFree(pinned));
}

// Copies from and to pageable memory run on the stream at launch (they are
// steps of their own, not recorded device work).
TEST_F(HipGraphConformance, MemcpyNodesCopyFromAndToPageableMemory) {
  constexpr size_t kN = 1024, kBytes = kN * sizeof(float);
  const std::vector<float> in = Iota(kN, 0.5f);
  std::vector<float> out(kN, -1.0f), out_default(kN, -1.0f), out_later(kN, -1.0f);
  void* dev = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&dev, kBytes));
  hipGraph_t graph = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&graph, 0));
  hipGraphNode_t up = nullptr, down = nullptr, down_default = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphAddMemcpyNode1D(&up, graph, nullptr, 0, dev, in.data(), kBytes,
                                                 hipMemcpyHostToDevice));
  ASSERT_HIP(hipSuccess, hipGraphAddMemcpyNode1D(&down, graph, &up, 1, out.data(), dev, kBytes,
                                                 hipMemcpyDeviceToHost));
  ASSERT_HIP(hipSuccess, hipGraphAddMemcpyNode1D(&down_default, graph, &up, 1, out_default.data(),
                                                 dev, kBytes, hipMemcpyDefault));
  hipGraphExec_t exec = Instantiate(graph);
  ASSERT_NE(exec, nullptr);
  Run(exec);
  EXPECT_EQ(out, in);
  EXPECT_EQ(out_default, in);

  // An exec update sends the next launch's copy elsewhere; the graph's node
  // keeps its parameters.
  ASSERT_HIP(hipSuccess, hipGraphExecMemcpyNodeSetParams1D(exec, down, out_later.data(), dev,
                                                           kBytes, hipMemcpyDeviceToHost));
  Run(exec);
  EXPECT_EQ(out_later, in);
  hipMemcpy3DParms params{};
  ASSERT_HIP(hipSuccess, hipGraphMemcpyNodeGetParams(down, &params));
  EXPECT_EQ(params.dstPtr.ptr, out.data());
  // The same through a 3-D description: the second half into the first half.
  std::vector<float> halves(kN, -1.0f);
  params.srcPos = make_hipPos(kBytes / 2, 0, 0);
  params.dstPtr = make_hipPitchedPtr(halves.data(), kBytes, kBytes, 1);
  params.extent = make_hipExtent(kBytes / 2, 1, 1);
  ASSERT_HIP(hipSuccess, hipGraphExecMemcpyNodeSetParams(exec, down, &params));
  Run(exec);
  EXPECT_EQ(std::vector<float>(halves.begin(), halves.begin() + kN / 2),
            std::vector<float>(in.begin() + kN / 2, in.end()));
  EXPECT_EQ(std::vector<float>(halves.begin() + kN / 2, halves.end()),
            std::vector<float>(kN / 2, -1.0f));
  // A copy cannot move between pageable and page-locked memory in an exec.
  void* pinned = nullptr;
  ASSERT_HIP(hipSuccess, hipHostMalloc(&pinned, kBytes, hipHostMallocDefault));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphExecMemcpyNodeSetParams1D(
                                       exec, down, pinned, dev, kBytes, hipMemcpyDeviceToHost));
  ASSERT_HIP(hipSuccess, hipGraphExecDestroy(exec));
  ASSERT_HIP(hipSuccess, hipGraphDestroy(graph));
  ASSERT_HIP(hipSuccess, hipFree(dev));
  ASSERT_HIP(hipSuccess, hipHostFree(pinned));
}

TEST_F(HipGraphConformance, MemsetNodesFillRowsOfOneTwoAndFourByteElements) {
  constexpr size_t kPitch = 64, kRows = 4, kBytes = kPitch * kRows * 3;
  uint8_t* dev = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&dev, kBytes));
  ASSERT_HIP(hipSuccess, hipMemset(dev, 0, kBytes));
  hipGraph_t graph = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&graph, 0));
  // Region r (256 bytes each) gets rows of elements of size 1, 2 and 4.
  const unsigned sizes[] = {1, 2, 4};
  const unsigned values[] = {0xab, 0x1234, 0xdeadbeef};
  const size_t widths[] = {10, 5, 3};
  hipGraphNode_t nodes[3] = {};
  for (int r = 0; r < 3; ++r) {
    hipMemsetParams params{};
    params.dst = dev + r * kPitch * kRows + 4;
    params.elementSize = sizes[r];
    params.value = values[r];
    params.width = widths[r];
    params.height = kRows;
    params.pitch = kPitch;
    ASSERT_HIP(hipSuccess, hipGraphAddMemsetNode(&nodes[r], graph, nullptr, 0, &params));
  }
  hipGraphExec_t exec = Instantiate(graph);
  ASSERT_NE(exec, nullptr);
  Run(exec);
  auto expected_for = [&](unsigned four_byte_value) {
    std::vector<uint8_t> expected(kBytes, 0);
    for (int r = 0; r < 3; ++r) {
      const unsigned value = r == 2 ? four_byte_value : values[r];
      for (size_t y = 0; y < kRows; ++y) {
        uint8_t* row = expected.data() + r * kPitch * kRows + y * kPitch + 4;
        for (size_t x = 0; x < widths[r]; ++x) std::memcpy(row + x * sizes[r], &value, sizes[r]);
      }
    }
    return expected;
  };
  std::vector<uint8_t> back(kBytes);
  ASSERT_HIP(hipSuccess, hipMemcpy(back.data(), dev, kBytes, hipMemcpyDeviceToHost));
  EXPECT_EQ(back, expected_for(0xdeadbeef));
  // An exec update changes the next launch only, not the graph's node.
  hipMemsetParams changed{};
  ASSERT_HIP(hipSuccess, hipGraphMemsetNodeGetParams(nodes[2], &changed));
  changed.value = 0x01020304;
  ASSERT_HIP(hipSuccess, hipGraphExecMemsetNodeSetParams(exec, nodes[2], &changed));
  Run(exec);
  ASSERT_HIP(hipSuccess, hipMemcpy(back.data(), dev, kBytes, hipMemcpyDeviceToHost));
  EXPECT_EQ(back, expected_for(0x01020304));
  hipMemsetParams kept{};
  ASSERT_HIP(hipSuccess, hipGraphMemsetNodeGetParams(nodes[2], &kept));
  EXPECT_EQ(kept.value, 0xdeadbeefu);
  ASSERT_HIP(hipSuccess, hipGraphExecDestroy(exec));
  ASSERT_HIP(hipSuccess, hipGraphDestroy(graph));
  ASSERT_HIP(hipSuccess, hipFree(dev));
}

TEST_F(HipGraphConformance, ExecKernelSetParamsTakesEffectOnTheNextLaunchOnly) {
  constexpr unsigned kN = 128;
  void* data = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&data, kN * sizeof(float)));
  ASSERT_HIP(hipSuccess, hipMemset(data, 0, kN * sizeof(float)));
  hipGraph_t graph = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&graph, 0));
  hipGraphNode_t node = AddScaleOffset(graph, {}, data, 1.0f, 1.0f, kN);
  hipGraphExec_t exec = Instantiate(graph);
  ASSERT_NE(exec, nullptr);
  ASSERT_HIP(hipSuccess, hipGraphLaunch(exec, stream_));
  // Set between two launches with no wait: the first launch keeps +1.
  void* ptr = data;
  float scale = 1.0f, offset = 10.0f;
  unsigned n = kN;
  hipKernelNodeParams params = ScaleOffset(ptr, scale, offset, n);
  ASSERT_HIP(hipSuccess, hipGraphExecKernelNodeSetParams(exec, node, &params));
  ASSERT_HIP(hipSuccess, hipGraphLaunch(exec, stream_));
  offset = 100.0f;
  ASSERT_HIP(hipSuccess, hipGraphExecKernelNodeSetParams(exec, node, &params));
  ASSERT_HIP(hipSuccess, hipGraphLaunch(exec, stream_));
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(stream_));
  EXPECT_EQ(Download(data, kN), std::vector<float>(kN, 111.0f));
  // The graph's node still adds 1.
  hipKernelNodeParams kept{};
  ASSERT_HIP(hipSuccess, hipGraphKernelNodeGetParams(node, &kept));
  ASSERT_NE(kept.kernelParams, nullptr);
  EXPECT_EQ(*static_cast<float*>(kept.kernelParams[2]), 1.0f);
  ASSERT_HIP(hipSuccess, hipGraphExecDestroy(exec));
  ASSERT_HIP(hipSuccess, hipGraphDestroy(graph));
  ASSERT_HIP(hipSuccess, hipFree(data));
}

TEST_F(HipGraphConformance, ExecUpdateTakesAKernelNodesNewParameters) {
  constexpr unsigned kN = 64;
  void* data = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&data, kN * sizeof(float)));
  ASSERT_HIP(hipSuccess, hipMemset(data, 0, kN * sizeof(float)));
  hipGraph_t graph = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&graph, 0));
  hipGraphNode_t node = AddScaleOffset(graph, {}, data, 1.0f, 1.0f, kN);
  hipGraphExec_t exec = Instantiate(graph);
  ASSERT_NE(exec, nullptr);
  Run(exec);
  void* ptr = data;
  float scale = 2.0f, offset = 5.0f;
  unsigned n = kN;
  hipKernelNodeParams params = ScaleOffset(ptr, scale, offset, n);
  ASSERT_HIP(hipSuccess, hipGraphKernelNodeSetParams(node, &params));
  hipGraphNode_t error_node = reinterpret_cast<hipGraphNode_t>(1);
  hipGraphExecUpdateResult result = hipGraphExecUpdateError;
  ASSERT_HIP(hipSuccess, hipGraphExecUpdate(exec, graph, &error_node, &result));
  EXPECT_EQ(result, hipGraphExecUpdateSuccess);
  EXPECT_EQ(error_node, nullptr);
  Run(exec);
  EXPECT_EQ(Download(data, kN), std::vector<float>(kN, 7.0f));  // (0 + 1) * 2 + 5
  ASSERT_HIP(hipSuccess, hipGraphExecDestroy(exec));
  ASSERT_HIP(hipSuccess, hipGraphDestroy(graph));
  ASSERT_HIP(hipSuccess, hipFree(data));
}

TEST_F(HipGraphConformance, DisabledNodesDoNotRunUntilEnabled) {
  constexpr unsigned kN = 64;
  void *data = nullptr, *filled = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&data, kN * sizeof(float)));
  ASSERT_HIP(hipSuccess, hipMalloc(&filled, kN * sizeof(float)));
  ASSERT_HIP(hipSuccess, hipMemset(data, 0, kN * sizeof(float)));
  ASSERT_HIP(hipSuccess, hipMemset(filled, 0, kN * sizeof(float)));
  hipGraph_t graph = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&graph, 0));
  hipGraphNode_t kernel = AddScaleOffset(graph, {}, data, 1.0f, 1.0f, kN);
  hipGraphNode_t fill = AddFill(graph, {}, filled, 4.0f, kN);
  hipGraphExec_t exec = Instantiate(graph);
  ASSERT_NE(exec, nullptr);
  unsigned enabled = 7;
  ASSERT_HIP(hipSuccess, hipGraphNodeGetEnabled(exec, kernel, &enabled));
  EXPECT_EQ(enabled, 1u);
  ASSERT_HIP(hipSuccess, hipGraphNodeSetEnabled(exec, kernel, 0));
  ASSERT_HIP(hipSuccess, hipGraphNodeSetEnabled(exec, fill, 0));
  ASSERT_HIP(hipSuccess, hipGraphNodeGetEnabled(exec, kernel, &enabled));
  EXPECT_EQ(enabled, 0u);
  Run(exec);
  EXPECT_EQ(Download(data, kN), std::vector<float>(kN, 0.0f));
  EXPECT_EQ(Download(filled, kN), std::vector<float>(kN, 0.0f));
  ASSERT_HIP(hipSuccess, hipGraphNodeSetEnabled(exec, kernel, 1));
  Run(exec);
  EXPECT_EQ(Download(data, kN), std::vector<float>(kN, 1.0f));
  EXPECT_EQ(Download(filled, kN), std::vector<float>(kN, 0.0f));
  ASSERT_HIP(hipSuccess, hipGraphNodeSetEnabled(exec, fill, 1));
  Run(exec);
  EXPECT_EQ(Download(data, kN), std::vector<float>(kN, 2.0f));
  EXPECT_EQ(Download(filled, kN), std::vector<float>(kN, 4.0f));
  ASSERT_HIP(hipSuccess, hipGraphExecDestroy(exec));
  ASSERT_HIP(hipSuccess, hipGraphDestroy(graph));
  ASSERT_HIP(hipSuccess, hipFree(data));
  ASSERT_HIP(hipSuccess, hipFree(filled));
}

// --- Host, child graph and event nodes ------------------------------------------------

TEST_F(HipGraphConformance, HostNodesRunInDependencyOrderAtEveryLaunch) {
  Trace trace;
  Mark a{&trace, 'a'}, b{&trace, 'b'}, c{&trace, 'c'}, d{&trace, 'd'};
  hipGraph_t graph = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&graph, 0));
  // d is added first but depends on b and c, which depend on a.
  hipGraphNode_t node_a = AddHost(graph, {}, Append, &a);
  hipGraphNode_t node_b = AddHost(graph, {node_a}, Append, &b);
  hipGraphNode_t node_c = AddHost(graph, {node_a}, Append, &c);
  AddHost(graph, {node_b, node_c}, Append, &d);
  hipGraphExec_t exec = Instantiate(graph);
  ASSERT_NE(exec, nullptr);
  for (int i = 0; i < 100; ++i) ASSERT_HIP(hipSuccess, hipGraphLaunch(exec, stream_));
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(stream_));
  ASSERT_EQ(trace.order.size(), 400u);
  for (size_t i = 0; i < 400; i += 4) {
    const std::string run = trace.order.substr(i, 4);
    EXPECT_TRUE(run == "abcd" || run == "acbd") << run;
  }
  ASSERT_HIP(hipSuccess, hipGraphExecDestroy(exec));
  ASSERT_HIP(hipSuccess, hipGraphDestroy(graph));
}

TEST_F(HipGraphConformance, ExecHostNodeSetParamsTakesEffectOnTheNextLaunchOnly) {
  std::atomic<int> count{0};
  hipGraph_t graph = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&graph, 0));
  hipGraphNode_t node = AddHost(graph, {}, Count, &count);
  hipGraphExec_t exec = Instantiate(graph);
  ASSERT_NE(exec, nullptr);
  ASSERT_HIP(hipSuccess, hipGraphLaunch(exec, stream_));
  const hipHostNodeParams ten = HostParams(CountTen, &count);
  ASSERT_HIP(hipSuccess, hipGraphExecHostNodeSetParams(exec, node, &ten));
  ASSERT_HIP(hipSuccess, hipGraphLaunch(exec, stream_));
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(stream_));
  EXPECT_EQ(count.load(), 11);
  hipHostNodeParams kept{};
  ASSERT_HIP(hipSuccess, hipGraphHostNodeGetParams(node, &kept));
  EXPECT_EQ(kept.fn, &Count);
  EXPECT_EQ(kept.userData, &count);
  ASSERT_HIP(hipSuccess, hipGraphExecDestroy(exec));
  ASSERT_HIP(hipSuccess, hipGraphDestroy(graph));
}

TEST_F(HipGraphConformance, ChildGraphRunsBetweenItsDependenciesAndItsDependents) {
  Trace trace;
  Mark a{&trace, 'a'}, b{&trace, 'b'}, x{&trace, 'x'}, y{&trace, 'y'}, z{&trace, 'z'};
  hipGraph_t child = nullptr, parent = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&child, 0));
  ASSERT_HIP(hipSuccess, hipGraphCreate(&parent, 0));
  hipGraphNode_t child_x = AddHost(child, {}, Append, &x);
  AddHost(child, {child_x}, Append, &y);
  hipGraphNode_t first = AddHost(parent, {}, Append, &a);
  hipGraphNode_t embedded = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphAddChildGraphNode(&embedded, parent, &first, 1, child));
  AddHost(parent, {embedded}, Append, &b);
  // The node holds a copy: changing the original child afterwards changes
  // nothing in the parent.
  AddHost(child, {}, Append, &z);
  hipGraph_t held = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphChildGraphNodeGetGraph(embedded, &held));
  ASSERT_NE(held, nullptr);
  EXPECT_NE(held, child);
  size_t count = 0;
  ASSERT_HIP(hipSuccess, hipGraphGetNodes(held, nullptr, &count));
  EXPECT_EQ(count, 2u);
  // The node's graph belongs to the node.
  EXPECT_HIP(hipErrorInvalidValue, hipGraphDestroy(held));
  hipGraphNodeType type = hipGraphNodeTypeCount;
  ASSERT_HIP(hipSuccess, hipGraphNodeGetType(embedded, &type));
  EXPECT_EQ(type, hipGraphNodeTypeGraph);

  hipGraphExec_t exec = Instantiate(parent);
  ASSERT_NE(exec, nullptr);
  Run(exec);
  EXPECT_EQ(trace.order, "axyb");

  // An exec takes a child of the same shape with other parameters; the
  // graph that has another shape is refused.
  hipGraph_t same_shape = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&same_shape, 0));
  hipGraphNode_t same_first = AddHost(same_shape, {}, Append, &z);
  AddHost(same_shape, {same_first}, Append, &z);
  ASSERT_HIP(hipSuccess, hipGraphExecChildGraphNodeSetParams(exec, embedded, same_shape));
  trace.order.clear();
  Run(exec);
  EXPECT_EQ(trace.order, "azzb");
  EXPECT_HIP(hipErrorInvalidValue, hipGraphExecChildGraphNodeSetParams(exec, embedded, child));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphExecChildGraphNodeSetParams(exec, first, same_shape));
  ASSERT_HIP(hipSuccess, hipGraphExecDestroy(exec));
  for (hipGraph_t graph : {child, parent, same_shape}) {
    ASSERT_HIP(hipSuccess, hipGraphDestroy(graph));
  }
}

struct Flag {
  std::atomic<bool> set{false};
  std::atomic<bool> seen{false};
};
void SlowSet(void* data) {
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  static_cast<Flag*>(data)->set = true;
}
void See(void* data) {
  auto* flag = static_cast<Flag*>(data);
  flag->seen = flag->set.load();
}
void Set(void* data) { static_cast<Flag*>(data)->set = true; }

TEST_F(HipGraphConformance, EventWaitNodeWaitsForWorkOnAnotherStream) {
  hipStream_t other = nullptr;
  ASSERT_HIP(hipSuccess, hipStreamCreateWithFlags(&other, hipStreamNonBlocking));
  hipEvent_t event = nullptr;
  ASSERT_HIP(hipSuccess, hipEventCreate(&event));
  Flag flag;
  hipGraph_t graph = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&graph, 0));
  hipGraphNode_t wait = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphAddEventWaitNode(&wait, graph, nullptr, 0, event));
  AddHost(graph, {wait}, See, &flag);
  hipGraphExec_t exec = Instantiate(graph);
  ASSERT_NE(exec, nullptr);
  ASSERT_HIP(hipSuccess, hipLaunchHostFunc(other, SlowSet, &flag));
  ASSERT_HIP(hipSuccess, hipEventRecord(event, other));
  Run(exec);
  EXPECT_TRUE(flag.seen.load());
  hipEvent_t got = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphEventWaitNodeGetEvent(wait, &got));
  EXPECT_EQ(got, event);

  // The exec's node waits for another event from now on; the graph's node
  // keeps its own until it is set.
  hipEvent_t later = nullptr;
  ASSERT_HIP(hipSuccess, hipEventCreate(&later));
  ASSERT_HIP(hipSuccess, hipGraphExecEventWaitNodeSetEvent(exec, wait, later));
  flag.set = false;
  flag.seen = false;
  ASSERT_HIP(hipSuccess, hipLaunchHostFunc(other, SlowSet, &flag));
  ASSERT_HIP(hipSuccess, hipEventRecord(later, other));
  Run(exec);
  EXPECT_TRUE(flag.seen.load());
  ASSERT_HIP(hipSuccess, hipGraphEventWaitNodeGetEvent(wait, &got));
  EXPECT_EQ(got, event);
  ASSERT_HIP(hipSuccess, hipGraphEventWaitNodeSetEvent(wait, later));
  ASSERT_HIP(hipSuccess, hipGraphEventWaitNodeGetEvent(wait, &got));
  EXPECT_EQ(got, later);
  EXPECT_HIP(hipErrorInvalidHandle, hipGraphEventWaitNodeSetEvent(wait, nullptr));
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(other));
  ASSERT_HIP(hipSuccess, hipGraphExecDestroy(exec));
  ASSERT_HIP(hipSuccess, hipGraphDestroy(graph));
  ASSERT_HIP(hipSuccess, hipEventDestroy(event));
  ASSERT_HIP(hipSuccess, hipEventDestroy(later));
  ASSERT_HIP(hipSuccess, hipStreamDestroy(other));
}

TEST_F(HipGraphConformance, EventRecordNodeRecordsItsEventAfterItsDependencies) {
  hipEvent_t first = nullptr, second = nullptr;
  ASSERT_HIP(hipSuccess, hipEventCreate(&first));
  ASSERT_HIP(hipSuccess, hipEventCreate(&second));
  Flag flag;
  hipGraph_t graph = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&graph, 0));
  hipGraphNode_t host = AddHost(graph, {}, Set, &flag);
  hipGraphNode_t record = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphAddEventRecordNode(&record, graph, &host, 1, first));
  hipGraphExec_t exec = Instantiate(graph);
  ASSERT_NE(exec, nullptr);
  ASSERT_HIP(hipSuccess, hipGraphLaunch(exec, stream_));
  ASSERT_HIP(hipSuccess, hipEventSynchronize(first));
  EXPECT_TRUE(flag.set.load());
  // The exec's node now records `second`; the graph's keeps `first`.
  ASSERT_HIP(hipSuccess, hipGraphExecEventRecordNodeSetEvent(exec, record, second));
  Run(exec);
  float ms = -1.0f;
  ASSERT_HIP(hipSuccess, hipEventElapsedTime(&ms, first, second));
  EXPECT_GE(ms, 0.0f);
  hipEvent_t got = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphEventRecordNodeGetEvent(record, &got));
  EXPECT_EQ(got, first);
  ASSERT_HIP(hipSuccess, hipGraphEventRecordNodeSetEvent(record, second));
  ASSERT_HIP(hipSuccess, hipGraphEventRecordNodeGetEvent(record, &got));
  EXPECT_EQ(got, second);
  // Wrong node kinds and events.
  EXPECT_HIP(hipErrorInvalidValue, hipGraphEventWaitNodeGetEvent(record, &got));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphEventRecordNodeGetEvent(host, &got));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphEventRecordNodeGetEvent(record, nullptr));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphExecEventWaitNodeSetEvent(exec, record, first));
  EXPECT_HIP(hipErrorInvalidHandle, hipGraphEventRecordNodeSetEvent(record, nullptr));
  hipGraphNode_t bad = nullptr;
  EXPECT_HIP(hipErrorInvalidHandle, hipGraphAddEventRecordNode(&bad, graph, nullptr, 0, nullptr));
  ASSERT_HIP(hipSuccess, hipGraphExecDestroy(exec));
  ASSERT_HIP(hipSuccess, hipGraphDestroy(graph));
  ASSERT_HIP(hipSuccess, hipEventDestroy(first));
  ASSERT_HIP(hipSuccess, hipEventDestroy(second));
}

// --- Exec updates -------------------------------------------------------------------------

TEST_F(HipGraphConformance, ExecUpdateFromACloneWithNewParametersSucceeds) {
  std::atomic<int> count{0};
  hipGraph_t graph = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&graph, 0));
  hipGraphNode_t first = AddHost(graph, {}, Count, &count);
  AddHost(graph, {first}, Count, &count);
  hipGraphExec_t exec = Instantiate(graph);
  ASSERT_NE(exec, nullptr);
  hipGraph_t clone = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphClone(&clone, graph));
  hipGraphNode_t cloned_first = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphNodeFindInClone(&cloned_first, first, clone));
  const hipHostNodeParams ten = HostParams(CountTen, &count);
  ASSERT_HIP(hipSuccess, hipGraphHostNodeSetParams(cloned_first, &ten));
  hipGraphNode_t error_node = reinterpret_cast<hipGraphNode_t>(1);
  hipGraphExecUpdateResult result = hipGraphExecUpdateError;
  ASSERT_HIP(hipSuccess, hipGraphExecUpdate(exec, clone, &error_node, &result));
  EXPECT_EQ(result, hipGraphExecUpdateSuccess);
  EXPECT_EQ(error_node, nullptr);
  Run(exec);
  EXPECT_EQ(count.load(), 11);
  // The updated exec names nodes by the clone's handles too.
  const hipHostNodeParams one = HostParams(Count, &count);
  ASSERT_HIP(hipSuccess, hipGraphExecHostNodeSetParams(exec, cloned_first, &one));
  Run(exec);
  EXPECT_EQ(count.load(), 13);
  // The result pointer is required; the node pointer is not.
  EXPECT_HIP(hipErrorInvalidValue, hipGraphExecUpdate(exec, clone, &error_node, nullptr));
  ASSERT_HIP(hipSuccess, hipGraphExecUpdate(exec, clone, nullptr, &result));
  ASSERT_HIP(hipSuccess, hipGraphExecDestroy(exec));
  ASSERT_HIP(hipSuccess, hipGraphDestroy(graph));
  ASSERT_HIP(hipSuccess, hipGraphDestroy(clone));
}

TEST_F(HipGraphConformance, ExecUpdateRefusesAChangedTopology) {
  std::atomic<int> count{0};
  hipEvent_t event = nullptr;
  ASSERT_HIP(hipSuccess, hipEventCreate(&event));
  hipGraph_t graph = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&graph, 0));
  hipGraphNode_t host = AddHost(graph, {}, Count, &count);
  hipGraphNode_t record = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphAddEventRecordNode(&record, graph, nullptr, 0, event));
  hipGraphExec_t exec = Instantiate(graph);
  ASSERT_NE(exec, nullptr);

  // A new edge.
  hipGraph_t edged = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphClone(&edged, graph));
  hipGraphNode_t edged_host = nullptr, edged_record = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphNodeFindInClone(&edged_host, host, edged));
  ASSERT_HIP(hipSuccess, hipGraphNodeFindInClone(&edged_record, record, edged));
  ASSERT_HIP(hipSuccess, hipGraphAddDependencies(edged, &edged_host, &edged_record, 1));
  hipGraphNode_t error_node = nullptr;
  hipGraphExecUpdateResult result = hipGraphExecUpdateSuccess;
  EXPECT_HIP(hipErrorGraphExecUpdateFailure, hipGraphExecUpdate(exec, edged, &error_node, &result));
  EXPECT_EQ(result, hipGraphExecUpdateErrorTopologyChanged);
  EXPECT_EQ(error_node, edged_record);

  // One node more.
  hipGraph_t bigger = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphClone(&bigger, graph));
  AddHost(bigger, {}, Count, &count);
  result = hipGraphExecUpdateSuccess;
  EXPECT_HIP(hipErrorGraphExecUpdateFailure,
             hipGraphExecUpdate(exec, bigger, &error_node, &result));
  EXPECT_EQ(result, hipGraphExecUpdateErrorTopologyChanged);

  // The same number of nodes in other kinds.
  hipGraph_t swapped = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&swapped, 0));
  hipGraphNode_t swapped_record = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphAddEventRecordNode(&swapped_record, swapped, nullptr, 0, event));
  AddHost(swapped, {}, Count, &count);
  result = hipGraphExecUpdateSuccess;
  EXPECT_HIP(hipErrorGraphExecUpdateFailure,
             hipGraphExecUpdate(exec, swapped, &error_node, &result));
  EXPECT_EQ(result, hipGraphExecUpdateErrorNodeTypeChanged);
  EXPECT_EQ(error_node, swapped_record);

  // A refused update leaves the exec as it was.
  Run(exec);
  EXPECT_EQ(count.load(), 1);
  ASSERT_HIP(hipSuccess, hipGraphExecDestroy(exec));
  for (hipGraph_t g : {graph, edged, bigger, swapped}) ASSERT_HIP(hipSuccess, hipGraphDestroy(g));
  ASSERT_HIP(hipSuccess, hipEventDestroy(event));
}

TEST_F(HipGraphConformance, OnlyKernelMemcpyAndMemsetNodesCanBeDisabled) {
  std::atomic<int> count{0};
  hipGraph_t graph = nullptr, other = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&graph, 0));
  ASSERT_HIP(hipSuccess, hipGraphCreate(&other, 0));
  hipGraphNode_t host = AddHost(graph, {}, Count, &count);
  hipGraphNode_t foreign = AddHost(other, {}, Count, &count);
  hipGraphExec_t exec = Instantiate(graph);
  ASSERT_NE(exec, nullptr);
  EXPECT_HIP(hipErrorInvalidValue, hipGraphNodeSetEnabled(exec, host, 0));
  unsigned enabled = 0;
  ASSERT_HIP(hipSuccess, hipGraphNodeGetEnabled(exec, host, &enabled));
  EXPECT_EQ(enabled, 1u);
  EXPECT_HIP(hipErrorInvalidValue, hipGraphNodeGetEnabled(exec, host, nullptr));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphNodeGetEnabled(exec, foreign, &enabled));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphNodeGetEnabled(nullptr, host, &enabled));
  Run(exec);
  EXPECT_EQ(count.load(), 1);
  ASSERT_HIP(hipSuccess, hipGraphExecDestroy(exec));
  ASSERT_HIP(hipSuccess, hipGraphDestroy(graph));
  ASSERT_HIP(hipSuccess, hipGraphDestroy(other));
}

// --- Instantiation ---------------------------------------------------------------------------

TEST_F(HipGraphConformance, InstantiateFlagsAndParamsAreKeptAndChecked) {
  std::atomic<int> count{0};
  hipGraph_t graph = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&graph, 0));
  AddHost(graph, {}, Count, &count);
  hipGraphExec_t plain = nullptr, auto_free = nullptr, uploaded = nullptr, bad = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphInstantiateWithFlags(&plain, graph, 0));
  ASSERT_HIP(hipSuccess, hipGraphInstantiateWithFlags(&auto_free, graph,
                                                      hipGraphInstantiateFlagAutoFreeOnLaunch));
  unsigned long long flags = 99;
  ASSERT_HIP(hipSuccess, hipGraphExecGetFlags(plain, &flags));
  EXPECT_EQ(flags, 0u);
  ASSERT_HIP(hipSuccess, hipGraphExecGetFlags(auto_free, &flags));
  EXPECT_EQ(flags, static_cast<unsigned long long>(hipGraphInstantiateFlagAutoFreeOnLaunch));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphExecGetFlags(plain, nullptr));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphInstantiateWithFlags(&bad, graph, 0x100));
  EXPECT_HIP(hipErrorInvalidValue,
             hipGraphInstantiateWithFlags(&bad, graph, hipGraphInstantiateFlagDeviceLaunch));
  EXPECT_EQ(bad, nullptr);

  hipGraphInstantiateParams params{};
  params.flags = hipGraphInstantiateFlagUpload;
  params.uploadStream = stream_;
  params.result_out = hipGraphInstantiateError;
  params.errNode_out = reinterpret_cast<hipGraphNode_t>(1);
  ASSERT_HIP(hipSuccess, hipGraphInstantiateWithParams(&uploaded, graph, &params));
  EXPECT_EQ(params.result_out, hipGraphInstantiateSuccess);
  EXPECT_EQ(params.errNode_out, nullptr);
  ASSERT_HIP(hipSuccess, hipGraphExecGetFlags(uploaded, &flags));
  EXPECT_EQ(flags, static_cast<unsigned long long>(hipGraphInstantiateFlagUpload));
  params.flags = hipGraphInstantiateFlagDeviceLaunch;
  EXPECT_HIP(hipErrorInvalidValue, hipGraphInstantiateWithParams(&bad, graph, &params));
  EXPECT_EQ(params.result_out, hipGraphInstantiateNodeOperationNotSupported);
  EXPECT_HIP(hipErrorInvalidValue, hipGraphInstantiateWithParams(&bad, graph, nullptr));

  ASSERT_HIP(hipSuccess, hipGraphUpload(plain, stream_));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphUpload(nullptr, stream_));
  for (hipGraphExec_t exec : {plain, auto_free, uploaded}) Run(exec);
  EXPECT_EQ(count.load(), 3);
  for (hipGraphExec_t exec : {plain, auto_free, uploaded}) {
    ASSERT_HIP(hipSuccess, hipGraphExecDestroy(exec));
  }
  ASSERT_HIP(hipSuccess, hipGraphDestroy(graph));
}

TEST_F(HipGraphConformance, ACycleFailsInstantiationNamingANodeOfIt) {
  std::atomic<int> count{0};
  hipGraph_t graph = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&graph, 0));
  hipGraphNode_t a = AddHost(graph, {}, Count, &count);
  hipGraphNode_t b = AddHost(graph, {a}, Count, &count);
  hipGraphNode_t c = AddHost(graph, {b}, Count, &count);
  ASSERT_HIP(hipSuccess, hipGraphAddDependencies(graph, &c, &a, 1));
  auto in_cycle = [&](hipGraphNode_t node) { return node == a || node == b || node == c; };

  hipGraphExec_t exec = nullptr;
  hipGraphNode_t error_node = nullptr;
  char log[256];
  std::memset(log, 'x', sizeof(log));
  EXPECT_HIP(hipErrorInvalidValue,
             hipGraphInstantiate(&exec, graph, &error_node, log, sizeof(log)));
  EXPECT_EQ(exec, nullptr);
  EXPECT_TRUE(in_cycle(error_node));
  const std::string message(log);
  EXPECT_NE(message.find("cycle"), std::string::npos) << message;
  // A short buffer gets the start of the message, NUL-terminated.
  char small[8];
  std::memset(small, 'x', sizeof(small));
  EXPECT_HIP(hipErrorInvalidValue,
             hipGraphInstantiate(&exec, graph, nullptr, small, sizeof(small)));
  EXPECT_EQ(std::string(small), message.substr(0, 7));

  hipGraphInstantiateParams params{};
  EXPECT_HIP(hipErrorInvalidValue, hipGraphInstantiateWithParams(&exec, graph, &params));
  EXPECT_EQ(params.result_out, hipGraphInstantiateInvalidStructure);
  EXPECT_TRUE(in_cycle(params.errNode_out));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphInstantiateWithFlags(&exec, graph, 0));

  // Without the back edge the same graph instantiates and runs.
  ASSERT_HIP(hipSuccess, hipGraphRemoveDependencies(graph, &c, &a, 1));
  error_node = a;
  ASSERT_HIP(hipSuccess, hipGraphInstantiate(&exec, graph, &error_node, log, sizeof(log)));
  EXPECT_EQ(error_node, nullptr);
  EXPECT_STREQ(log, "");
  Run(exec);
  EXPECT_EQ(count.load(), 3);
  ASSERT_HIP(hipSuccess, hipGraphExecDestroy(exec));
  ASSERT_HIP(hipSuccess, hipGraphDestroy(graph));
}

// --- Building and querying --------------------------------------------------------------------

TEST_F(HipGraphConformance, NodeQueriesReportNodesEdgesAndTypes) {
  std::atomic<int> count{0};
  hipEvent_t event = nullptr;
  ASSERT_HIP(hipSuccess, hipEventCreate(&event));
  hipGraph_t graph = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&graph, 0));
  hipGraphNode_t a = nullptr, c = nullptr, d = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphAddEmptyNode(&a, graph, nullptr, 0));
  hipGraphNode_t b = AddHost(graph, {a}, Count, &count);
  ASSERT_HIP(hipSuccess, hipGraphAddEventRecordNode(&c, graph, &a, 1, event));
  const hipGraphNode_t bc[] = {b, c};
  ASSERT_HIP(hipSuccess, hipGraphAddEmptyNode(&d, graph, bc, 2));
  using Nodes = std::vector<hipGraphNode_t>;
  const hipGraphNode_t garbage = reinterpret_cast<hipGraphNode_t>(0x5a5a);

  // Nodes: the count alone, all of them, fewer, and a longer array.
  size_t count_out = 0;
  ASSERT_HIP(hipSuccess, hipGraphGetNodes(graph, nullptr, &count_out));
  EXPECT_EQ(count_out, 4u);
  Nodes nodes(4);
  ASSERT_HIP(hipSuccess, hipGraphGetNodes(graph, nodes.data(), &count_out));
  EXPECT_EQ(nodes, (Nodes{a, b, c, d}));
  Nodes two(2, garbage);
  count_out = 2;
  ASSERT_HIP(hipSuccess, hipGraphGetNodes(graph, two.data(), &count_out));
  EXPECT_EQ(count_out, 2u);
  EXPECT_EQ(two, (Nodes{a, b}));
  Nodes six(6, garbage);
  count_out = 6;
  ASSERT_HIP(hipSuccess, hipGraphGetNodes(graph, six.data(), &count_out));
  EXPECT_EQ(count_out, 4u);
  EXPECT_EQ(six, (Nodes{a, b, c, d, nullptr, nullptr}));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphGetNodes(graph, nodes.data(), nullptr));

  // Roots and edges.
  ASSERT_HIP(hipSuccess, hipGraphGetRootNodes(graph, nullptr, &count_out));
  EXPECT_EQ(count_out, 1u);
  Nodes roots(3, garbage);
  count_out = 3;
  ASSERT_HIP(hipSuccess, hipGraphGetRootNodes(graph, roots.data(), &count_out));
  EXPECT_EQ(count_out, 1u);
  EXPECT_EQ(roots, (Nodes{a, nullptr, nullptr}));
  ASSERT_HIP(hipSuccess, hipGraphGetEdges(graph, nullptr, nullptr, &count_out));
  EXPECT_EQ(count_out, 4u);
  Nodes from(4), to(4);
  ASSERT_HIP(hipSuccess, hipGraphGetEdges(graph, from.data(), to.data(), &count_out));
  EXPECT_EQ(from, (Nodes{a, a, b, c}));
  EXPECT_EQ(to, (Nodes{b, c, d, d}));
  Nodes one_from(1), one_to(1);
  count_out = 1;
  ASSERT_HIP(hipSuccess, hipGraphGetEdges(graph, one_from.data(), one_to.data(), &count_out));
  EXPECT_EQ(count_out, 1u);
  EXPECT_EQ(one_from[0], a);
  EXPECT_EQ(one_to[0], b);
  EXPECT_HIP(hipErrorInvalidValue, hipGraphGetEdges(graph, from.data(), nullptr, &count_out));

  // One node's edges.
  ASSERT_HIP(hipSuccess, hipGraphNodeGetDependencies(d, nullptr, &count_out));
  EXPECT_EQ(count_out, 2u);
  Nodes dependencies(2);
  ASSERT_HIP(hipSuccess, hipGraphNodeGetDependencies(d, dependencies.data(), &count_out));
  EXPECT_EQ(dependencies, (Nodes{b, c}));
  Nodes dependents(3, garbage);
  count_out = 3;
  ASSERT_HIP(hipSuccess, hipGraphNodeGetDependentNodes(a, dependents.data(), &count_out));
  EXPECT_EQ(count_out, 2u);
  EXPECT_EQ(dependents, (Nodes{b, c, nullptr}));
  ASSERT_HIP(hipSuccess, hipGraphNodeGetDependentNodes(d, nullptr, &count_out));
  EXPECT_EQ(count_out, 0u);

  // Types.
  const std::pair<hipGraphNode_t, hipGraphNodeType> types[] = {{a, hipGraphNodeTypeEmpty},
                                                               {b, hipGraphNodeTypeHost},
                                                               {c, hipGraphNodeTypeEventRecord},
                                                               {d, hipGraphNodeTypeEmpty}};
  for (const auto& [node, expected] : types) {
    hipGraphNodeType type = hipGraphNodeTypeCount;
    ASSERT_HIP(hipSuccess, hipGraphNodeGetType(node, &type));
    EXPECT_EQ(type, expected);
  }
  EXPECT_HIP(hipErrorInvalidValue, hipGraphNodeGetType(a, nullptr));

  // Edges come and go.
  ASSERT_HIP(hipSuccess, hipGraphRemoveDependencies(graph, &a, &b, 1));
  ASSERT_HIP(hipSuccess, hipGraphGetRootNodes(graph, nullptr, &count_out));
  EXPECT_EQ(count_out, 2u);
  EXPECT_HIP(hipErrorInvalidValue, hipGraphRemoveDependencies(graph, &a, &b, 1));
  ASSERT_HIP(hipSuccess, hipGraphAddDependencies(graph, &a, &b, 1));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddDependencies(graph, &a, &b, 1));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddDependencies(graph, &a, &a, 1));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddDependencies(graph, nullptr, &a, 1));

  // Destroying a node takes its edges.
  ASSERT_HIP(hipSuccess, hipGraphDestroyNode(c));
  ASSERT_HIP(hipSuccess, hipGraphGetNodes(graph, nullptr, &count_out));
  EXPECT_EQ(count_out, 3u);
  count_out = dependencies.size();
  ASSERT_HIP(hipSuccess, hipGraphNodeGetDependencies(d, dependencies.data(), &count_out));
  EXPECT_EQ(count_out, 1u);
  EXPECT_EQ(dependencies[0], b);
  hipGraphNodeType type;
  EXPECT_HIP(hipErrorInvalidValue, hipGraphNodeGetType(c, &type));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphDestroyNode(c));
  ASSERT_HIP(hipSuccess, hipGraphDestroy(graph));
  ASSERT_HIP(hipSuccess, hipEventDestroy(event));
}

TEST_F(HipGraphConformance, CloneCopiesNodesAndEdgesAndFindsEachCopy) {
  std::atomic<int> count{0};
  hipGraph_t graph = nullptr, child = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&graph, 0));
  ASSERT_HIP(hipSuccess, hipGraphCreate(&child, 0));
  AddHost(child, {}, Count, &count);
  hipGraphNode_t a = AddHost(graph, {}, Count, &count);
  hipGraphNode_t b = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphAddChildGraphNode(&b, graph, &a, 1, child));
  hipGraph_t clone = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphClone(&clone, graph));
  ASSERT_NE(clone, graph);
  hipGraphNode_t a2 = nullptr, b2 = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphNodeFindInClone(&a2, a, clone));
  ASSERT_HIP(hipSuccess, hipGraphNodeFindInClone(&b2, b, clone));
  EXPECT_NE(a2, a);
  EXPECT_NE(b2, b);
  hipGraphNodeType type = hipGraphNodeTypeCount;
  ASSERT_HIP(hipSuccess, hipGraphNodeGetType(b2, &type));
  EXPECT_EQ(type, hipGraphNodeTypeGraph);
  size_t count_out = 1;
  hipGraphNode_t dependency = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphNodeGetDependencies(b2, &dependency, &count_out));
  EXPECT_EQ(dependency, a2);
  hipHostNodeParams params{};
  ASSERT_HIP(hipSuccess, hipGraphHostNodeGetParams(a2, &params));
  EXPECT_EQ(params.fn, &Count);
  // The clone is a graph of its own.
  AddHost(clone, {}, Count, &count);
  ASSERT_HIP(hipSuccess, hipGraphGetNodes(graph, nullptr, &count_out));
  EXPECT_EQ(count_out, 2u);
  // Nodes that are not copies, and bad handles.
  hipGraphNode_t found = nullptr;
  EXPECT_HIP(hipErrorInvalidValue, hipGraphNodeFindInClone(&found, a2, clone));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphNodeFindInClone(&found, a, graph));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphNodeFindInClone(&found, nullptr, clone));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphNodeFindInClone(nullptr, a, clone));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphClone(nullptr, graph));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphClone(&clone, nullptr));
  // The clone runs.
  hipGraphExec_t exec = Instantiate(clone);
  ASSERT_NE(exec, nullptr);
  Run(exec);
  EXPECT_EQ(count.load(), 3);
  ASSERT_HIP(hipSuccess, hipGraphExecDestroy(exec));
  for (hipGraph_t g : {graph, child, clone}) ASSERT_HIP(hipSuccess, hipGraphDestroy(g));
}

TEST_F(HipGraphConformance, NodeParametersReadBackAsTheyWereSet) {
  hipGraph_t graph = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&graph, 0));
  void* dev = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&dev, 4096));

  // Kernel: function, dimensions and the argument values.
  hipGraphNode_t kernel = AddScaleOffset(graph, {}, dev, 3.0f, 4.0f, 128);
  hipKernelNodeParams k{};
  ASSERT_HIP(hipSuccess, hipGraphKernelNodeGetParams(kernel, &k));
  EXPECT_EQ(k.func, static_cast<void*>(scale_offset_));
  EXPECT_EQ(k.gridDim.x, 2u);
  EXPECT_EQ(k.gridDim.y, 1u);
  EXPECT_EQ(k.blockDim.x, 64u);
  EXPECT_EQ(k.sharedMemBytes, 0u);
  EXPECT_EQ(k.extra, nullptr);
  ASSERT_NE(k.kernelParams, nullptr);
  EXPECT_EQ(*static_cast<void**>(k.kernelParams[0]), dev);
  EXPECT_EQ(*static_cast<float*>(k.kernelParams[1]), 3.0f);
  EXPECT_EQ(*static_cast<float*>(k.kernelParams[2]), 4.0f);
  EXPECT_EQ(*static_cast<unsigned*>(k.kernelParams[3]), 128u);
  void* ptr = dev;
  float scale = 5.0f, offset = 6.0f;
  unsigned n = 256;
  hipKernelNodeParams changed = ScaleOffset(ptr, scale, offset, n);
  ASSERT_HIP(hipSuccess, hipGraphKernelNodeSetParams(kernel, &changed));
  ASSERT_HIP(hipSuccess, hipGraphKernelNodeGetParams(kernel, &k));
  EXPECT_EQ(k.gridDim.x, 4u);
  EXPECT_EQ(*static_cast<float*>(k.kernelParams[1]), 5.0f);

  // Memcpy: a 3-D description comes back with its kind.
  std::vector<uint8_t> host(4096);
  hipMemcpy3DParms copy{};
  copy.srcPtr = make_hipPitchedPtr(dev, 64, 64, 16);
  copy.srcPos = make_hipPos(8, 1, 0);
  copy.dstPtr = make_hipPitchedPtr(host.data(), 128, 128, 8);
  copy.dstPos = make_hipPos(2, 3, 0);
  copy.extent = make_hipExtent(16, 4, 1);
  copy.kind = hipMemcpyDeviceToHost;
  hipGraphNode_t memcpy_node = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphAddMemcpyNode(&memcpy_node, graph, nullptr, 0, &copy));
  hipMemcpy3DParms back{};
  ASSERT_HIP(hipSuccess, hipGraphMemcpyNodeGetParams(memcpy_node, &back));
  EXPECT_EQ(back.srcArray, nullptr);
  EXPECT_EQ(back.dstArray, nullptr);
  EXPECT_EQ(back.srcPtr.ptr, dev);
  EXPECT_EQ(back.srcPtr.pitch, 64u);
  EXPECT_EQ(back.srcPtr.ysize, 16u);
  EXPECT_EQ(back.srcPos.x, 8u);
  EXPECT_EQ(back.srcPos.y, 1u);
  EXPECT_EQ(back.dstPtr.ptr, host.data());
  EXPECT_EQ(back.dstPtr.pitch, 128u);
  EXPECT_EQ(back.dstPos.x, 2u);
  EXPECT_EQ(back.dstPos.y, 3u);
  EXPECT_EQ(back.extent.width, 16u);
  EXPECT_EQ(back.extent.height, 4u);
  EXPECT_EQ(back.extent.depth, 1u);
  EXPECT_EQ(back.kind, hipMemcpyDeviceToHost);
  ASSERT_HIP(hipSuccess,
             hipGraphMemcpyNodeSetParams1D(memcpy_node, dev, host.data(), 100, hipMemcpyDefault));
  ASSERT_HIP(hipSuccess, hipGraphMemcpyNodeGetParams(memcpy_node, &back));
  EXPECT_EQ(back.dstPtr.ptr, dev);
  EXPECT_EQ(back.srcPtr.ptr, host.data());
  EXPECT_EQ(back.extent.width, 100u);
  EXPECT_EQ(back.kind, hipMemcpyDefault);
  copy.kind = hipMemcpyHostToDevice;
  std::swap(copy.srcPtr, copy.dstPtr);
  std::swap(copy.srcPos, copy.dstPos);
  ASSERT_HIP(hipSuccess, hipGraphMemcpyNodeSetParams(memcpy_node, &copy));
  ASSERT_HIP(hipSuccess, hipGraphMemcpyNodeGetParams(memcpy_node, &back));
  EXPECT_EQ(back.kind, hipMemcpyHostToDevice);
  EXPECT_EQ(back.dstPtr.ptr, dev);

  // Memset.
  hipMemsetParams fill{};
  fill.dst = dev;
  fill.elementSize = 2;
  fill.value = 0xbeef;
  fill.width = 8;
  fill.height = 2;
  fill.pitch = 32;
  hipGraphNode_t memset_node = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphAddMemsetNode(&memset_node, graph, nullptr, 0, &fill));
  hipMemsetParams fill_back{};
  ASSERT_HIP(hipSuccess, hipGraphMemsetNodeGetParams(memset_node, &fill_back));
  EXPECT_EQ(fill_back.dst, dev);
  EXPECT_EQ(fill_back.elementSize, 2u);
  EXPECT_EQ(fill_back.value, 0xbeefu);
  EXPECT_EQ(fill_back.width, 8u);
  EXPECT_EQ(fill_back.height, 2u);
  EXPECT_EQ(fill_back.pitch, 32u);
  fill.value = 7;
  ASSERT_HIP(hipSuccess, hipGraphMemsetNodeSetParams(memset_node, &fill));
  ASSERT_HIP(hipSuccess, hipGraphMemsetNodeGetParams(memset_node, &fill_back));
  EXPECT_EQ(fill_back.value, 7u);

  // Host.
  std::atomic<int> count{0};
  hipGraphNode_t host_node = AddHost(graph, {}, Count, &count);
  const hipHostNodeParams ten = HostParams(CountTen, &count);
  ASSERT_HIP(hipSuccess, hipGraphHostNodeSetParams(host_node, &ten));
  hipHostNodeParams host_back{};
  ASSERT_HIP(hipSuccess, hipGraphHostNodeGetParams(host_node, &host_back));
  EXPECT_EQ(host_back.fn, &CountTen);
  EXPECT_EQ(host_back.userData, &count);

  // Each getter takes only its own kind of node, and an output.
  EXPECT_HIP(hipErrorInvalidValue, hipGraphKernelNodeGetParams(memset_node, &k));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphMemcpyNodeGetParams(kernel, &back));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphMemsetNodeGetParams(host_node, &fill_back));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphHostNodeGetParams(memcpy_node, &host_back));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphKernelNodeGetParams(kernel, nullptr));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphMemsetNodeSetParams(kernel, &fill));
  ASSERT_HIP(hipSuccess, hipGraphDestroy(graph));
  ASSERT_HIP(hipSuccess, hipFree(dev));
}

TEST_F(HipGraphConformance, NodeParametersAreCheckedWhenTheNodeIsAdded) {
  hipGraph_t graph = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&graph, 0));
  void* dev = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&dev, 1024));
  hipGraphNode_t node = nullptr;

  // Kernels: as hipModuleLaunchKernel checks its launches.
  void* ptr = dev;
  float scale = 1.0f, offset = 1.0f;
  unsigned n = 256;
  hipKernelNodeParams kernel = ScaleOffset(ptr, scale, offset, n);
  kernel.blockDim = dim3(0);
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddKernelNode(&node, graph, nullptr, 0, &kernel));
  kernel = ScaleOffset(ptr, scale, offset, n);
  kernel.kernelParams = nullptr;
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddKernelNode(&node, graph, nullptr, 0, &kernel));
  kernel = ScaleOffset(ptr, scale, offset, n);
  kernel.func = nullptr;
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddKernelNode(&node, graph, nullptr, 0, &kernel));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddKernelNode(&node, graph, nullptr, 0, nullptr));
  // A function of an unloaded module (the code hipModuleLaunchKernel gives).
  hipModule_t module = nullptr;
  hipFunction_t unloaded = LoadHipKernel(kScaleOffsetGlsl, "scale_offset", &module);
  ASSERT_HIP(hipSuccess, hipModuleUnload(module));
  kernel = ScaleOffset(ptr, scale, offset, n);
  kernel.func = unloaded;
  EXPECT_HIP(hipErrorInvalidHandle, hipGraphAddKernelNode(&node, graph, nullptr, 0, &kernel));

  // Copies.
  std::vector<uint8_t> host(1024);
  EXPECT_HIP(hipErrorInvalidValue,
             hipGraphAddMemcpyNode1D(&node, graph, nullptr, 0, dev, host.data(), 2048,
                                     hipMemcpyHostToDevice));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddMemcpyNode1D(&node, graph, nullptr, 0, dev,
                                                           host.data(), 0, hipMemcpyHostToDevice));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddMemcpyNode1D(&node, graph, nullptr, 0, dev, nullptr,
                                                           16, hipMemcpyHostToDevice));
  EXPECT_HIP(hipErrorInvalidMemcpyDirection,
             hipGraphAddMemcpyNode1D(&node, graph, nullptr, 0, dev, host.data(), 16,
                                     static_cast<hipMemcpyKind>(7)));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddMemcpyNode(&node, graph, nullptr, 0, nullptr));
  hipMemcpy3DParms copy{};
  copy.srcArray = reinterpret_cast<hipArray_t>(0x1000);
  copy.dstPtr = make_hipPitchedPtr(dev, 16, 16, 1);
  copy.extent = make_hipExtent(16, 1, 1);
  copy.kind = hipMemcpyDeviceToDevice;
  // A handle that names no array is an invalid value; a live array end is
  // not supported in graph nodes yet.
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddMemcpyNode(&node, graph, nullptr, 0, &copy));
  HIP_ARRAY_DESCRIPTOR array_desc = {16, 0, HIP_AD_FORMAT_UNSIGNED_INT8, 1};
  hipArray_t array = nullptr;
  ASSERT_HIP(hipSuccess, hipArrayCreate(&array, &array_desc));
  copy.srcArray = array;
  EXPECT_HIP(hipErrorNotSupported, hipGraphAddMemcpyNode(&node, graph, nullptr, 0, &copy));
  EXPECT_HIP(hipSuccess, hipArrayDestroy(array));
  // Rows that do not fit their pitch.
  copy = hipMemcpy3DParms{};
  copy.srcPtr = make_hipPitchedPtr(dev, 8, 8, 4);
  copy.dstPtr = make_hipPitchedPtr(host.data(), 16, 16, 4);
  copy.extent = make_hipExtent(16, 2, 1);
  copy.kind = hipMemcpyDeviceToHost;
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddMemcpyNode(&node, graph, nullptr, 0, &copy));

  // Fills.
  hipMemsetParams fill{};
  fill.dst = dev;
  fill.elementSize = 3;
  fill.width = 4;
  fill.height = 1;
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddMemsetNode(&node, graph, nullptr, 0, &fill));
  fill.elementSize = 4;
  fill.width = 1024;  // 4096 bytes into a 1024-byte allocation
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddMemsetNode(&node, graph, nullptr, 0, &fill));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddMemsetNode(&node, graph, nullptr, 0, nullptr));

  // Hosts.
  const hipHostNodeParams no_function = HostParams(nullptr, nullptr);
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddHostNode(&node, graph, nullptr, 0, &no_function));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddHostNode(&node, graph, nullptr, 0, nullptr));

  // Nothing was added.
  size_t count = 9;
  ASSERT_HIP(hipSuccess, hipGraphGetNodes(graph, nullptr, &count));
  EXPECT_EQ(count, 0u);
  ASSERT_HIP(hipSuccess, hipGraphDestroy(graph));
  ASSERT_HIP(hipSuccess, hipFree(dev));
}

TEST_F(HipGraphConformance, DebugDotPrintWritesAFileNamingTheKernel) {
  std::atomic<int> count{0};
  hipGraph_t graph = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&graph, 0));
  void* dev = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&dev, 1024));
  hipGraphNode_t kernel = AddScaleOffset(graph, {}, dev, 1.0f, 2.0f, 256);
  AddHost(graph, {kernel}, Count, &count);
  const std::string path = WriteTempFile("hip_graph.dot", std::string());
  ASSERT_HIP(hipSuccess, hipGraphDebugDotPrint(graph, path.c_str(), hipGraphDebugDotFlagsVerbose));
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  const std::string dot = text.str();
  EXPECT_EQ(dot.rfind("digraph", 0), 0u) << dot;
  EXPECT_NE(dot.find("scale_offset"), std::string::npos) << dot;
  EXPECT_NE(dot.find("host"), std::string::npos) << dot;
  EXPECT_NE(dot.find("->"), std::string::npos) << dot;
  std::remove(path.c_str());
  EXPECT_HIP(hipErrorInvalidValue, hipGraphDebugDotPrint(graph, nullptr, 0));
  ASSERT_HIP(hipSuccess, hipGraphDestroy(graph));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphDebugDotPrint(graph, path.c_str(), 0));
  ASSERT_HIP(hipSuccess, hipFree(dev));
}

// --- Bad handles -------------------------------------------------------------------------------

TEST_F(HipGraphConformance, NullDestroyedAndForeignHandlesAreInvalidValue) {
  std::atomic<int> count{0};
  hipGraph_t graph = nullptr, other = nullptr, scratch = nullptr;
  EXPECT_HIP(hipErrorInvalidValue, hipGraphCreate(nullptr, 0));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphCreate(&scratch, 1));
  ASSERT_HIP(hipSuccess, hipGraphCreate(&graph, 0));
  ASSERT_HIP(hipSuccess, hipGraphCreate(&other, 0));
  hipGraphNode_t node = nullptr, mine = nullptr, foreign = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphAddEmptyNode(&mine, graph, nullptr, 0));
  ASSERT_HIP(hipSuccess, hipGraphAddEmptyNode(&foreign, other, nullptr, 0));

  // Graphs.
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddEmptyNode(&node, nullptr, nullptr, 0));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddEmptyNode(nullptr, graph, nullptr, 0));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphDestroy(nullptr));
  size_t count_out = 0;
  EXPECT_HIP(hipErrorInvalidValue, hipGraphGetNodes(nullptr, nullptr, &count_out));
  // Dependencies: null with a count, another graph's node, a node twice.
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddEmptyNode(&node, graph, nullptr, 1));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddEmptyNode(&node, graph, &foreign, 1));
  const hipGraphNode_t twice[] = {mine, mine};
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddEmptyNode(&node, graph, twice, 2));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddDependencies(graph, &mine, &foreign, 1));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddDependencies(other, &mine, &foreign, 1));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddChildGraphNode(&node, graph, nullptr, 0, graph));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddChildGraphNode(&node, graph, nullptr, 0, nullptr));

  // Destroyed nodes and graphs.
  ASSERT_HIP(hipSuccess, hipGraphDestroyNode(mine));
  hipGraphNodeType type;
  EXPECT_HIP(hipErrorInvalidValue, hipGraphNodeGetType(mine, &type));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphDestroyNode(mine));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddEmptyNode(&node, graph, &mine, 1));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphNodeGetDependencies(mine, nullptr, &count_out));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphDestroyNode(nullptr));
  ASSERT_HIP(hipSuccess, hipGraphDestroy(other));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphDestroy(other));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphGetNodes(other, nullptr, &count_out));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddEmptyNode(&node, other, nullptr, 0));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphNodeGetType(foreign, &type));  // went with its graph

  // Execs.
  hipGraphNode_t host = AddHost(graph, {}, Count, &count);
  hipGraphExec_t exec = nullptr;
  EXPECT_HIP(hipErrorInvalidValue, hipGraphInstantiate(nullptr, graph, nullptr, nullptr, 0));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphInstantiate(&exec, nullptr, nullptr, nullptr, 0));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphInstantiate(&exec, other, nullptr, nullptr, 0));
  exec = Instantiate(graph);
  ASSERT_NE(exec, nullptr);
  const hipHostNodeParams params = HostParams(Count, &count);
  hipGraph_t third = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&third, 0));
  hipGraphNode_t stranger = AddHost(third, {}, Count, &count);
  EXPECT_HIP(hipErrorInvalidValue, hipGraphExecHostNodeSetParams(exec, stranger, &params));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphExecHostNodeSetParams(exec, nullptr, &params));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphExecHostNodeSetParams(nullptr, host, &params));
  ASSERT_HIP(hipSuccess, hipGraphExecDestroy(exec));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphExecDestroy(exec));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphLaunch(exec, stream_));
  EXPECT_HIP(hipErrorInvalidValue, hipGraphLaunch(nullptr, stream_));
  unsigned long long flags = 0;
  EXPECT_HIP(hipErrorInvalidValue, hipGraphExecGetFlags(exec, &flags));
  hipGraphExecUpdateResult result;
  EXPECT_HIP(hipErrorInvalidValue, hipGraphExecUpdate(exec, graph, nullptr, &result));
  EXPECT_EQ(result, hipGraphExecUpdateError);

  // The process keeps working: a new graph instantiates and runs.
  hipGraphExec_t fresh = Instantiate(third);
  ASSERT_NE(fresh, nullptr);
  Run(fresh);
  EXPECT_EQ(count.load(), 1);
  ASSERT_HIP(hipSuccess, hipGraphExecDestroy(fresh));
  ASSERT_HIP(hipSuccess, hipGraphDestroy(graph));
  ASSERT_HIP(hipSuccess, hipGraphDestroy(third));
}

// Memory alloc/free nodes need stream-ordered allocation (hipMallocAsync),
// which streamhal does not have yet.
TEST_F(HipGraphConformance, MemAllocAndFreeNodesBracketTheWorkThatUsesTheMemory) {
  constexpr unsigned kCount = 512;
  hipGraph_t graph = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&graph, 0));
  hipMemAllocNodeParams alloc{};
  alloc.poolProps.allocType = hipMemAllocationTypePinned;
  alloc.poolProps.location = {hipMemLocationTypeDevice, 0};
  alloc.bytesize = kCount * sizeof(float);
  hipGraphNode_t alloc_node = nullptr, kernel = nullptr, copy = nullptr, free_node = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphAddMemAllocNode(&alloc_node, graph, nullptr, 0, &alloc));
  ASSERT_NE(alloc.dptr, nullptr);
  hipMemAllocNodeParams read{};
  ASSERT_HIP(hipSuccess, hipGraphMemAllocNodeGetParams(alloc_node, &read));
  EXPECT_EQ(read.dptr, alloc.dptr);
  EXPECT_EQ(read.bytesize, alloc.bytesize);
  // data = data * 0 + 4, then copied to the host.
  void* data = alloc.dptr;
  float scale = 0.0f, offset = 4.0f;
  unsigned n = kCount;
  hipKernelNodeParams params = ScaleOffset(data, scale, offset, n);
  ASSERT_HIP(hipSuccess, hipGraphAddKernelNode(&kernel, graph, &alloc_node, 1, &params));
  std::vector<float> host(kCount, 0.0f);
  ASSERT_HIP(hipSuccess, hipGraphAddMemcpyNode1D(&copy, graph, &kernel, 1, host.data(), data,
                                                 kCount * sizeof(float), hipMemcpyDeviceToHost));
  ASSERT_HIP(hipSuccess, hipGraphAddMemFreeNode(&free_node, graph, &copy, 1, data));
  void* freed = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphMemFreeNodeGetParams(free_node, &freed));
  EXPECT_EQ(freed, data);
  EXPECT_HIP(hipErrorInvalidValue, hipGraphAddMemFreeNode(&free_node, graph, nullptr, 0, data));
  EXPECT_HIP(hipErrorInvalidValue,
             hipGraphAddMemAllocNode(&alloc_node, graph, nullptr, 0, nullptr));
  hipGraphExec_t exec = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  ASSERT_HIP(hipSuccess, hipGraphLaunch(exec, stream_));
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(stream_));
  for (float value : host) ASSERT_EQ(value, 4.0f);
  EXPECT_HIP(hipErrorInvalidValue, hipFree(data));
  EXPECT_HIP(hipSuccess, hipGraphExecDestroy(exec));
  EXPECT_HIP(hipSuccess, hipGraphDestroy(graph));
}

// The driver-style node forms (hipDrvGraph*): HIP_MEMCPY3D copies, fills and
// frees in a graph, read back and changed before and after instantiation.
TEST_F(HipGraphConformance, DriverFormNodesCopyFillAndFree) {
  constexpr size_t kCount = 256, kBytes = kCount * sizeof(float);
  hipCtx_t ctx = nullptr;
  ASSERT_HIP(hipSuccess, hipDevicePrimaryCtxRetain(&ctx, 0));
  float* dev = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&dev, kBytes));
  std::vector<float> in(kCount), out(kCount, -1.0f);
  for (size_t i = 0; i < kCount; ++i) in[i] = static_cast<float>(i) + 0.5f;
  hipGraph_t graph = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&graph, 0));
  // fill(dev, 7) -> copy in[0, half) to dev -> copy dev to out.
  hipMemsetParams fill{};
  fill.dst = dev;
  fill.elementSize = 4;
  const float seven = 7.0f;
  std::memcpy(&fill.value, &seven, 4);
  fill.width = kCount;
  fill.height = 1;
  hipGraphNode_t fill_node = nullptr, up_node = nullptr, down_node = nullptr;
  ASSERT_HIP(hipSuccess, hipDrvGraphAddMemsetNode(&fill_node, graph, nullptr, 0, &fill, ctx));
  HIP_MEMCPY3D up = {};
  up.srcMemoryType = hipMemoryTypeHost;
  up.srcHost = in.data();
  up.dstMemoryType = hipMemoryTypeDevice;
  up.dstDevice = dev;
  up.WidthInBytes = kBytes;
  up.Height = 1;
  up.Depth = 1;
  ASSERT_HIP(hipSuccess, hipDrvGraphAddMemcpyNode(&up_node, graph, &fill_node, 1, &up, ctx));
  HIP_MEMCPY3D down = {};
  down.srcMemoryType = hipMemoryTypeDevice;
  down.srcDevice = dev;
  down.dstMemoryType = hipMemoryTypeHost;
  down.dstHost = out.data();
  down.WidthInBytes = kBytes;
  down.Height = 1;
  down.Depth = 1;
  ASSERT_HIP(hipSuccess, hipDrvGraphAddMemcpyNode(&down_node, graph, &up_node, 1, &down, ctx));
  // The upload shrinks to the first half before instantiation.
  HIP_MEMCPY3D half = up;
  half.WidthInBytes = kBytes / 2;
  ASSERT_HIP(hipSuccess, hipDrvGraphMemcpyNodeSetParams(up_node, &half));
  HIP_MEMCPY3D read = {};
  ASSERT_HIP(hipSuccess, hipDrvGraphMemcpyNodeGetParams(up_node, &read));
  EXPECT_EQ(read.srcMemoryType, hipMemoryTypeHost);
  EXPECT_EQ(read.srcHost, in.data());
  EXPECT_EQ(read.dstMemoryType, hipMemoryTypeDevice);
  EXPECT_EQ(read.dstDevice, static_cast<void*>(dev));
  EXPECT_EQ(read.WidthInBytes, kBytes / 2);
  EXPECT_EQ(read.Height, 1u);
  EXPECT_EQ(read.Depth, 1u);
  hipGraphExec_t exec = Instantiate(graph);
  ASSERT_NE(exec, nullptr);
  Run(exec);
  for (size_t i = 0; i < kCount; ++i) {
    ASSERT_EQ(out[i], i < kCount / 2 ? in[i] : 7.0f) << i;
  }
  // Exec updates: a new fill value and the whole upload from another buffer.
  std::vector<float> in2(kCount);
  for (size_t i = 0; i < kCount; ++i) in2[i] = -static_cast<float>(i);
  const float nine = 9.0f;
  std::memcpy(&fill.value, &nine, 4);
  ASSERT_HIP(hipSuccess, hipDrvGraphExecMemsetNodeSetParams(exec, fill_node, &fill, ctx));
  HIP_MEMCPY3D quarter = up;
  quarter.srcHost = in2.data();
  quarter.WidthInBytes = kBytes / 4;
  ASSERT_HIP(hipSuccess, hipDrvGraphExecMemcpyNodeSetParams(exec, up_node, &quarter, ctx));
  Run(exec);
  for (size_t i = 0; i < kCount; ++i) {
    ASSERT_EQ(out[i], i < kCount / 4 ? in2[i] : 9.0f) << i;
  }
  // The graph's own node kept what it had.
  ASSERT_HIP(hipSuccess, hipDrvGraphMemcpyNodeGetParams(up_node, &read));
  EXPECT_EQ(read.srcHost, in.data());

  // Bad arguments: a null context or descriptor is invalid, a destroyed
  // context too; the getter wants a memcpy node and an output.
  hipGraphNode_t node = nullptr;
  EXPECT_HIP(hipErrorInvalidValue,
             hipDrvGraphAddMemcpyNode(&node, graph, nullptr, 0, &up, nullptr));
  EXPECT_HIP(hipErrorInvalidValue,
             hipDrvGraphAddMemcpyNode(&node, graph, nullptr, 0, nullptr, ctx));
  EXPECT_HIP(hipErrorInvalidValue,
             hipDrvGraphAddMemsetNode(&node, graph, nullptr, 0, &fill, nullptr));
  EXPECT_HIP(hipErrorInvalidValue,
             hipDrvGraphAddMemsetNode(&node, graph, nullptr, 0, nullptr, ctx));
  EXPECT_HIP(hipErrorInvalidValue,
             hipDrvGraphExecMemcpyNodeSetParams(exec, up_node, &quarter, nullptr));
  EXPECT_HIP(hipErrorInvalidValue,
             hipDrvGraphExecMemsetNodeSetParams(exec, fill_node, &fill, nullptr));
  EXPECT_HIP(hipErrorInvalidValue, hipDrvGraphMemcpyNodeGetParams(up_node, nullptr));
  EXPECT_HIP(hipErrorInvalidValue, hipDrvGraphMemcpyNodeSetParams(up_node, nullptr));
  EXPECT_HIP(hipErrorInvalidValue, hipDrvGraphMemcpyNodeGetParams(fill_node, &read));
  hipCtx_t gone = nullptr;
  ASSERT_HIP(hipSuccess, hipCtxCreate(&gone, 0, 0));
  ASSERT_HIP(hipSuccess, hipCtxDestroy(gone));
  EXPECT_NE(hipSuccess, hipDrvGraphAddMemcpyNode(&node, graph, nullptr, 0, &up, gone));
  size_t count = 0;
  ASSERT_HIP(hipSuccess, hipGraphGetNodes(graph, nullptr, &count));
  EXPECT_EQ(count, 3u);

  // A free node of the driver form ends an allocation node's memory.
  hipMemAllocNodeParams alloc{};
  alloc.poolProps.allocType = hipMemAllocationTypePinned;
  alloc.poolProps.location = {hipMemLocationTypeDevice, 0};
  alloc.bytesize = kBytes;
  hipGraphNode_t alloc_node = nullptr, use_node = nullptr, free_node = nullptr;
  hipGraph_t scratch = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphCreate(&scratch, 0));
  ASSERT_HIP(hipSuccess, hipGraphAddMemAllocNode(&alloc_node, scratch, nullptr, 0, &alloc));
  HIP_MEMCPY3D through = up;
  through.dstDevice = alloc.dptr;
  through.WidthInBytes = kBytes;
  ASSERT_HIP(hipSuccess,
             hipDrvGraphAddMemcpyNode(&use_node, scratch, &alloc_node, 1, &through, ctx));
  HIP_MEMCPY3D back = down;
  back.srcDevice = alloc.dptr;
  hipGraphNode_t back_node = nullptr;
  ASSERT_HIP(hipSuccess, hipDrvGraphAddMemcpyNode(&back_node, scratch, &use_node, 1, &back, ctx));
  ASSERT_HIP(hipSuccess, hipDrvGraphAddMemFreeNode(&free_node, scratch, &back_node, 1, alloc.dptr));
  void* freed = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphMemFreeNodeGetParams(free_node, &freed));
  EXPECT_EQ(freed, alloc.dptr);
  EXPECT_HIP(hipErrorInvalidValue,
             hipDrvGraphAddMemFreeNode(&node, scratch, nullptr, 0, alloc.dptr));  // freed twice
  EXPECT_HIP(hipErrorInvalidValue, hipDrvGraphAddMemFreeNode(&node, scratch, nullptr, 0, nullptr));
  std::fill(out.begin(), out.end(), -1.0f);
  hipGraphExec_t scratch_exec = Instantiate(scratch);
  ASSERT_NE(scratch_exec, nullptr);
  Run(scratch_exec);
  EXPECT_EQ(out, in);

  EXPECT_HIP(hipSuccess, hipGraphExecDestroy(scratch_exec));
  EXPECT_HIP(hipSuccess, hipGraphDestroy(scratch));
  EXPECT_HIP(hipSuccess, hipGraphExecDestroy(exec));
  EXPECT_HIP(hipSuccess, hipGraphDestroy(graph));
  EXPECT_HIP(hipSuccess, hipFree(dev));
  EXPECT_HIP(hipSuccess, hipDevicePrimaryCtxRelease(0));
}

}  // namespace
}  // namespace streamhal::conformance
