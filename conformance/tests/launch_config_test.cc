// Rows: launch configuration: cache and shared-memory configuration of
// contexts and functions (a fixed split on every device), cuLaunchKernelEx
// and its attributes, and the function queries (cuFuncGetName,
// cuFuncGetModule, cuFuncGetParamInfo, cuModuleGetFunctionCount,
// cuModuleEnumerateFunctions). Every accepted configuration is followed by
// a launch whose results are checked.
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "c_callers.h"
#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using LaunchConfigConformance = ContextTest;

// scale_offset over `n` floats 0, 1, 2, ...: data[i] = i * 2 + 1 once
// launched. Checks the result or that nothing ran.
class ScaleOffset {
 public:
  ScaleOffset() {
    function_ = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module_);
    data_ = CudaUpload(Iota(kCount));
    params_[0] = &data_;
    params_[1] = &scale_;
    params_[2] = &offset_;
    params_[3] = &n_;
  }
  CUfunction function() const { return function_; }
  CUmodule module() const { return module_; }
  void** params() { return params_; }
  void ExpectRan(bool ran) {
    ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
    const std::vector<float> values = CudaDownload<float>(data_, kCount);
    for (uint32_t i = 0; i < kCount; ++i) {
      ASSERT_EQ(values[i], ran ? i * 2.0f + 1.0f : static_cast<float>(i)) << "element " << i;
    }
  }

  static constexpr uint32_t kCount = 256;

 private:
  CUmodule module_ = nullptr;
  CUfunction function_ = nullptr;
  CUdeviceptr data_ = 0;
  float scale_ = 2.0f;
  float offset_ = 1.0f;
  uint32_t n_ = kCount;
  void* params_[4] = {};
};

CUlaunchConfig Config(CUlaunchAttribute* attributes, unsigned count) {
  CUlaunchConfig config;
  std::memset(&config, 0, sizeof(config));
  config.gridDimX = ScaleOffset::kCount / 64;
  config.gridDimY = 1;
  config.gridDimZ = 1;
  config.blockDimX = 64;
  config.blockDimY = 1;
  config.blockDimZ = 1;
  config.attrs = attributes;
  config.numAttrs = count;
  return config;
}

CUlaunchAttribute Attribute(CUlaunchAttributeID id) {
  CUlaunchAttribute attribute;
  std::memset(&attribute, 0, sizeof(attribute));
  attribute.id = id;
  return attribute;
}

// --- Cache and shared-memory configuration ---------------------------------------

TEST_F(LaunchConfigConformance, CacheConfigsAreAcceptedAndTheFixedSplitIsReported) {
  ScaleOffset launch;
  ASSERT_CU(CUDA_SUCCESS, cuCtxSetCacheConfig(CU_FUNC_CACHE_PREFER_SHARED));
  ASSERT_HIP(hipSuccess, hipCtxSetCacheConfig(hipFuncCachePreferL1));
  ASSERT_HIP(hipSuccess, hipDeviceSetCacheConfig(hipFuncCachePreferEqual));
  CUfunc_cache cuda_config = CU_FUNC_CACHE_PREFER_L1;
  hipFuncCache_t hip_config = hipFuncCachePreferL1;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetCacheConfig(&cuda_config));
  ASSERT_HIP(hipSuccess, hipCtxGetCacheConfig(&hip_config));
  EXPECT_EQ(cuda_config, CU_FUNC_CACHE_PREFER_NONE);
  EXPECT_EQ(hip_config, hipFuncCachePreferNone);
  for (CUfunc_cache config : {CU_FUNC_CACHE_PREFER_NONE, CU_FUNC_CACHE_PREFER_SHARED,
                              CU_FUNC_CACHE_PREFER_L1, CU_FUNC_CACHE_PREFER_EQUAL}) {
    EXPECT_CU(CUDA_SUCCESS, cuFuncSetCacheConfig(launch.function(), config));
  }
  EXPECT_HIP(hipSuccess, hipFuncSetCacheConfig(launch.function(), hipFuncCachePreferShared));
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(launch.function(), ScaleOffset::kCount / 64, 1, 1, 64, 1,
                                         1, 0, nullptr, launch.params(), nullptr));
  launch.ExpectRan(true);
}

TEST_F(LaunchConfigConformance, SharedMemConfigsAreAcceptedAndFourByteBanksReported) {
  ScaleOffset launch;
  ASSERT_CU(CUDA_SUCCESS, cuCtxSetSharedMemConfig(CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE));
  ASSERT_HIP(hipSuccess, hipDeviceSetSharedMemConfig(hipSharedMemBankSizeEightByte));
  CUsharedconfig cuda_config = CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE;
  hipSharedMemConfig hip_config = hipSharedMemBankSizeEightByte;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetSharedMemConfig(&cuda_config));
  ASSERT_HIP(hipSuccess, hipDeviceGetSharedMemConfig(&hip_config));
  EXPECT_EQ(cuda_config, CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE);
  EXPECT_EQ(hip_config, hipSharedMemBankSizeFourByte);
  for (CUsharedconfig config :
       {CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE, CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE,
        CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE}) {
    EXPECT_CU(CUDA_SUCCESS, cuFuncSetSharedMemConfig(launch.function(), config));
  }
  EXPECT_HIP(hipSuccess,
             hipFuncSetSharedMemConfig(launch.function(), hipSharedMemBankSizeEightByte));
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(launch.function(), ScaleOffset::kCount / 64, 1, 1, 64, 1,
                                         1, 0, nullptr, launch.params(), nullptr));
  launch.ExpectRan(true);
}

TEST_F(LaunchConfigConformance, FunctionConfigsRejectBadArguments) {
  ScaleOffset launch;
  CUfunction f = launch.function();
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuFuncSetCacheConfig(f, static_cast<CUfunc_cache>(4)),
              hipFuncSetCacheConfig(f, static_cast<hipFuncCache_t>(4)));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuFuncSetSharedMemConfig(f, static_cast<CUsharedconfig>(3)),
              hipFuncSetSharedMemConfig(f, static_cast<hipSharedMemConfig>(3)));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuFuncSetCacheConfig(nullptr, CU_FUNC_CACHE_PREFER_L1),
              hipFuncSetCacheConfig(nullptr, hipFuncCachePreferL1));
  ASSERT_CU(CUDA_SUCCESS, cuModuleUnload(launch.module()));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuFuncSetCacheConfig(f, CU_FUNC_CACHE_PREFER_L1),
              hipFuncSetCacheConfig(f, hipFuncCachePreferL1));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE,
              cuFuncSetSharedMemConfig(f, CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE),
              hipFuncSetSharedMemConfig(f, hipSharedMemBankSizeFourByte));
  // Read as ints, so a C caller's out-of-range value is invalid, not UB.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, CCallCuCtxSetCacheConfig(-1));
}

// --- cuLaunchKernelEx ----------------------------------------------------------------

TEST_F(LaunchConfigConformance, LaunchKernelExRunsWithEveryAcceptedAttribute) {
  ScaleOffset launch;
  std::vector<CUlaunchAttribute> attributes;
  attributes.push_back(Attribute(CU_LAUNCH_ATTRIBUTE_IGNORE));
  attributes.push_back(Attribute(CU_LAUNCH_ATTRIBUTE_COOPERATIVE));  // 0: an ordinary launch
  CUlaunchAttribute priority = Attribute(CU_LAUNCH_ATTRIBUTE_PRIORITY);
  priority.value.priority = -1;
  attributes.push_back(priority);
  CUlaunchAttribute serialization = Attribute(CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION);
  serialization.value.programmaticStreamSerializationAllowed = 1;
  attributes.push_back(serialization);
  CUlaunchAttribute cluster = Attribute(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION);
  cluster.value.clusterDim.x = cluster.value.clusterDim.y = cluster.value.clusterDim.z = 1;
  attributes.push_back(cluster);
  CUlaunchAttribute scheduling = Attribute(CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE);
  scheduling.value.clusterSchedulingPolicyPreference = CU_CLUSTER_SCHEDULING_POLICY_SPREAD;
  attributes.push_back(scheduling);
  CUlaunchAttribute domain = Attribute(CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN);
  domain.value.memSyncDomain = CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE;
  attributes.push_back(domain);
  CUlaunchAttribute domain_map = Attribute(CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP);
  domain_map.value.memSyncDomainMap.remote = 1;
  attributes.push_back(domain_map);
  CUlaunchAttribute window = Attribute(CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW);
  window.value.accessPolicyWindow.hitRatio = 0.5f;
  window.value.accessPolicyWindow.hitProp = CU_ACCESS_PROPERTY_PERSISTING;
  window.value.accessPolicyWindow.missProp = CU_ACCESS_PROPERTY_STREAMING;
  attributes.push_back(window);
  CUlaunchConfig config = Config(attributes.data(), static_cast<unsigned>(attributes.size()));
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernelEx(&config, launch.function(), launch.params(), nullptr));
  launch.ExpectRan(true);
}

TEST_F(LaunchConfigConformance, LaunchKernelExTakesPackedParametersAndStreams) {
  ScaleOffset launch;
  struct {
    uint64_t data;
    float scale;
    float offset;
    uint32_t n;
    uint32_t padding;
  } packed = {*static_cast<CUdeviceptr*>(launch.params()[0]), 2.0f, 1.0f, ScaleOffset::kCount, 0};
  size_t size = sizeof(packed);
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                   CU_LAUNCH_PARAM_END};
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUlaunchConfig config = Config(nullptr, 0);
  config.hStream = stream;
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernelEx(&config, launch.function(), nullptr, extra));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  launch.ExpectRan(true);
  ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
}

TEST_F(LaunchConfigConformance, LaunchKernelExRecordsTheProgrammaticEventAfterTheKernel) {
  ScaleOffset launch;
  CUevent event = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&event, CU_EVENT_DISABLE_TIMING));
  CUlaunchAttribute attribute = Attribute(CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT);
  attribute.value.programmaticEvent.event = event;
  attribute.value.programmaticEvent.triggerAtBlockStart = 1;
  CUlaunchConfig config = Config(&attribute, 1);
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernelEx(&config, launch.function(), launch.params(), nullptr));
  // Once the event has triggered, the kernel's writes are there.
  ASSERT_CU(CUDA_SUCCESS, cuEventSynchronize(event));
  EXPECT_CU(CUDA_SUCCESS, cuEventQuery(event));
  launch.ExpectRan(true);
  ASSERT_CU(CUDA_SUCCESS, cuEventDestroy(event));
}

TEST_F(LaunchConfigConformance, LaunchKernelExRejectsBadConfigurationsBeforeLaunching) {
  ScaleOffset launch;
  CUfunction f = launch.function();
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchKernelEx(nullptr, f, launch.params(), nullptr));
  CUlaunchConfig config = Config(nullptr, 1);  // attributes promised, none given
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchKernelEx(&config, f, launch.params(), nullptr));

  struct Case {
    const char* what;
    CUlaunchAttribute attribute;
    CUresult expected;
  };
  std::vector<Case> cases;
  CUlaunchAttribute a = Attribute(CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY);
  a.value.syncPolicy = CU_SYNC_POLICY_SPIN;
  cases.push_back({"synchronization policy (streams only)", a, CUDA_ERROR_INVALID_VALUE});
  a = Attribute(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION);
  a.value.clusterDim.x = 2;
  a.value.clusterDim.y = a.value.clusterDim.z = 1;
  cases.push_back({"cluster of two blocks", a, CUDA_ERROR_NOT_SUPPORTED});
  a.value.clusterDim.x = 0;
  cases.push_back({"cluster of zero blocks", a, CUDA_ERROR_INVALID_VALUE});
  a = Attribute(CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE);
  std::memset(&a.value, 0x7f, sizeof(int));
  cases.push_back({"unknown scheduling policy", a, CUDA_ERROR_INVALID_VALUE});
  a = Attribute(CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN);
  a.value.priority = 2;  // the int shared by every int-sized member
  cases.push_back({"unknown memory sync domain", a, CUDA_ERROR_INVALID_VALUE});
  a = Attribute(CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW);
  a.value.accessPolicyWindow.num_bytes = 4096;  // the device's maximum window is 0 bytes
  a.value.accessPolicyWindow.base_ptr = reinterpret_cast<void*>(1);
  cases.push_back({"access policy window larger than the device's", a, CUDA_ERROR_INVALID_VALUE});
  a.value.accessPolicyWindow.num_bytes = 0;
  a.value.accessPolicyWindow.hitRatio = 1.5f;
  cases.push_back({"hit ratio above 1", a, CUDA_ERROR_INVALID_VALUE});
  a = Attribute(CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT);
  cases.push_back({"programmatic event without an event", a, CUDA_ERROR_INVALID_HANDLE});
  a = Attribute(static_cast<CUlaunchAttributeID>(11));
  cases.push_back({"unknown attribute", a, CUDA_ERROR_INVALID_VALUE});
  for (Case& c : cases) {
    SCOPED_TRACE(c.what);
    // A valid attribute first: nothing is launched unless all are valid.
    CUlaunchAttribute both[2] = {Attribute(CU_LAUNCH_ATTRIBUTE_PRIORITY), c.attribute};
    config = Config(both, 2);
    EXPECT_CU(c.expected, cuLaunchKernelEx(&config, f, launch.params(), nullptr));
  }
  // The ordinary launch checks apply too.
  config = Config(nullptr, 0);
  config.blockDimX = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchKernelEx(&config, f, launch.params(), nullptr));
  config = Config(nullptr, 0);
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLaunchKernelEx(&config, nullptr, launch.params(), nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchKernelEx(&config, f, nullptr, nullptr));
  launch.ExpectRan(false);
}

// Clusters of more than one block and access policy windows are refused as
// the device reports: no cluster launch, no persisting L2 cache.
TEST_F(LaunchConfigConformance, LaunchKernelExRefusesClustersAndAccessPolicyWindows) {
  ProvesLimitation();
  ScaleOffset launch;
  EXPECT_EQ(DeviceAttribute(CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH), 0);
  EXPECT_EQ(DeviceAttribute(CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE), 0);
  CUlaunchAttribute cluster = Attribute(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION);
  cluster.value.clusterDim.x = 2;
  cluster.value.clusterDim.y = 1;
  cluster.value.clusterDim.z = 1;
  CUlaunchConfig config = Config(&cluster, 1);
  EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED,
            cuLaunchKernelEx(&config, launch.function(), launch.params(), nullptr));
  CUlaunchAttribute window = Attribute(CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW);
  window.value.accessPolicyWindow.num_bytes = 4096;
  config = Config(&window, 1);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLaunchKernelEx(&config, launch.function(), launch.params(), nullptr));
  launch.ExpectRan(false);
}

// --- Function and module queries -------------------------------------------------------

TEST_F(LaunchConfigConformance, FunctionsNameTheirModuleAndEntryPoint) {
  ScaleOffset launch;
  const char* name = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuFuncGetName(&name, launch.function()));
  EXPECT_STREQ(name, "scale_offset");
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuFuncGetModule(&module, launch.function()));
  EXPECT_EQ(module, launch.module());
  // The module found is the one that launches: look the kernel up again.
  CUfunction again = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&again, module, name));
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(again, ScaleOffset::kCount / 64, 1, 1, 64, 1, 1, 0,
                                         nullptr, launch.params(), nullptr));
  launch.ExpectRan(true);
}

TEST_F(LaunchConfigConformance, ParamInfoGivesTheOffsetsAPackedBufferUses) {
  ScaleOffset launch;
  const size_t expected_offsets[] = {0, 8, 12, 16};
  const size_t expected_sizes[] = {8, 4, 4, 4};
  std::vector<uint8_t> packed(20, 0);
  const void* values[] = {launch.params()[0], launch.params()[1], launch.params()[2],
                          launch.params()[3]};
  for (size_t i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    size_t offset = 99, size = 99;
    ASSERT_CU(CUDA_SUCCESS, cuFuncGetParamInfo(launch.function(), i, &offset, &size));
    EXPECT_EQ(offset, expected_offsets[i]);
    EXPECT_EQ(size, expected_sizes[i]);
    size_t offset_only = 99;
    EXPECT_CU(CUDA_SUCCESS, cuFuncGetParamInfo(launch.function(), i, &offset_only, nullptr));
    EXPECT_EQ(offset_only, offset);
    std::memcpy(packed.data() + offset, values[i], size);
  }
  size_t offset = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuFuncGetParamInfo(launch.function(), 4, &offset, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuFuncGetParamInfo(launch.function(), 0, nullptr, nullptr));
  // A buffer packed at those offsets launches the kernel.
  size_t size = packed.size();
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, packed.data(), CU_LAUNCH_PARAM_BUFFER_SIZE,
                   &size, CU_LAUNCH_PARAM_END};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(launch.function(), ScaleOffset::kCount / 64, 1, 1, 64, 1,
                                         1, 0, nullptr, nullptr, extra));
  launch.ExpectRan(true);
}

TEST_F(LaunchConfigConformance, ModulesEnumerateTheirKernels) {
  const std::vector<uint8_t> image = ElfImage({CompileToSpirv(kVectorAddGlsl, "vector_add"),
                                               CompileToSpirv(kScaleOffsetGlsl, "scale_offset")});
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&module, image.data()));
  unsigned count = 0;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunctionCount(&count, module));
  ASSERT_EQ(count, 2u);
  CUfunction functions[3] = {nullptr, nullptr, nullptr};
  ASSERT_CU(CUDA_SUCCESS, cuModuleEnumerateFunctions(functions, 3, module));
  EXPECT_EQ(functions[2], nullptr);
  std::vector<std::string> names;
  for (unsigned i = 0; i < count; ++i) {
    const char* name = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuFuncGetName(&name, functions[i]));
    names.push_back(name);
    CUfunction by_name = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&by_name, module, name));
    EXPECT_EQ(by_name, functions[i]);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"vector_add", "scale_offset"}));
  // Fewer slots than kernels: the first ones.
  CUfunction first = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleEnumerateFunctions(&first, 1, module));
  EXPECT_EQ(first, functions[0]);
  // The enumerated handle runs.
  ExpectCudaVectorAdd(functions[0], 1000);
}

TEST_F(LaunchConfigConformance, FunctionQueriesRejectBadArguments) {
  ScaleOffset launch;
  const char* name = nullptr;
  CUmodule module = nullptr;
  unsigned count = 0;
  CUfunction functions[1];
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuFuncGetName(nullptr, launch.function()));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuFuncGetModule(nullptr, launch.function()));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuModuleGetFunctionCount(nullptr, launch.module()));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuModuleEnumerateFunctions(nullptr, 1, launch.module()));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuModuleEnumerateFunctions(functions, 0, launch.module()));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuFuncGetName(&name, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuModuleGetFunctionCount(&count, nullptr));
  CUfunction f = launch.function();
  CUmodule m = launch.module();
  ASSERT_CU(CUDA_SUCCESS, cuModuleUnload(m));
  size_t offset = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuFuncGetName(&name, f));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuFuncGetModule(&module, f));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuFuncGetParamInfo(f, 0, &offset, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuModuleGetFunctionCount(&count, m));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuModuleEnumerateFunctions(functions, 1, m));
}

}  // namespace
}  // namespace streamhal::conformance
