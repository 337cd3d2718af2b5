// Rows: IPC memory (cuIpcGetMemHandle, cuIpcOpenMemHandle,
// cuIpcCloseMemHandle). A second process, the conformance program started
// as a child (conformance_util.h), opens what this one exported: it reads
// the data this process wrote, writes with its own kernel what this process
// then reads, opens the handle twice (one pointer, counted) and closes it.
// Handles of freed memory, of exited processes and forged ones do not open
// and leave no descriptor behind.
#include <cuda.h>
#include <hip/hip_runtime_api.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"
#include "core/diagnostics.h"

namespace streamhal::conformance {
namespace {

template <typename Handle>
std::string ToHex(const Handle& handle) {
  static const char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (char c : handle.reserved) {
    const auto byte = static_cast<unsigned char>(c);
    hex += kDigits[byte >> 4];
    hex += kDigits[byte & 15];
  }
  return hex;
}

template <typename Handle>
bool FromHex(const std::string& hex, Handle* handle) {
  if (hex.size() != 2 * sizeof(handle->reserved)) return false;
  for (size_t i = 0; i < sizeof(handle->reserved); ++i) {
    handle->reserved[i] = static_cast<char>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
  }
  return true;
}

// Sets every element of `data` to data * scale + offset with the
// scale_offset kernel of a module loaded in the current context.
bool ScaleOffset(CUfunction scale, CUdeviceptr data, uint32_t n, float factor, float offset) {
  void* params[] = {&data, &factor, &offset, &n};
  return cuLaunchKernel(scale, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr) ==
             CUDA_SUCCESS &&
         cuCtxSynchronize() == CUDA_SUCCESS;
}

// The child that opens exported memory: argv = {hex handle, n}. It expects
// n floats of 3, writes 7 over them (x * 2 + 1) and closes the handle.
int OpeningChild(int argc, char** argv) {
  CUipcMemHandle handle;
  if (argc != 2 || !FromHex(argv[0], &handle)) return 2;
  const uint32_t n = static_cast<uint32_t>(std::atoi(argv[1]));
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUmodule module = nullptr;
  CUfunction scale = nullptr;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&device, 0) != CUDA_SUCCESS ||
      cuCtxCreate(&context, 0, device) != CUDA_SUCCESS ||
      cuModuleLoadData(&module, kScaleOffsetGlsl) != CUDA_SUCCESS ||
      cuModuleGetFunction(&scale, module, "scale_offset") != CUDA_SUCCESS) {
    return 3;
  }
  CUdeviceptr data = 0, again = 0;
  // CUDA: the one flag there is must be given.
  if (cuIpcOpenMemHandle(&data, handle, 0) != CUDA_ERROR_INVALID_VALUE || data != 0) return 4;
  if (cuIpcOpenMemHandle(&data, handle, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS) != CUDA_SUCCESS) {
    return 5;
  }
  // Opened again by the same context: the same pointer, counted.
  if (cuIpcOpenMemHandle(&again, handle, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS) != CUDA_SUCCESS ||
      again != data) {
    return 6;
  }
  std::vector<float> seen(n);
  if (cuMemcpyDtoH(seen.data(), data, n * sizeof(float)) != CUDA_SUCCESS) return 7;
  for (float value : seen) {
    if (value != 3.0f) return 8;
  }
  // Memory of another process is not cuMemFree's to free.
  if (cuMemFree(data) != CUDA_ERROR_INVALID_VALUE) return 9;
  if (!ScaleOffset(scale, data, n, 2.0f, 1.0f)) return 10;
  // Two opens, two closes; a third is an error.
  if (cuIpcCloseMemHandle(data) != CUDA_SUCCESS) return 11;
  if (cuMemcpyDtoH(seen.data(), data, sizeof(float)) != CUDA_SUCCESS) return 12;  // still open
  if (cuIpcCloseMemHandle(data) != CUDA_SUCCESS) return 13;
  if (cuIpcCloseMemHandle(data) != CUDA_ERROR_INVALID_VALUE) return 14;
  if (cuMemcpyDtoH(seen.data(), data, sizeof(float)) != CUDA_ERROR_INVALID_VALUE) return 15;
  if (cuModuleUnload(module) != CUDA_SUCCESS || cuCtxDestroy(context) != CUDA_SUCCESS) return 16;
  return ValidationMessageCount() == 0 ? 0 : 17;
}
const ChildRegistration kOpeningChild("ipc-mem-open", OpeningChild);

// The child that must fail to open: argv = {hex handle}. Expects
// CUDA_ERROR_INVALID_HANDLE, no pointer, and no descriptor left open.
int RefusingChild(int argc, char** argv) {
  CUipcMemHandle handle;
  if (argc != 1 || !FromHex(argv[0], &handle)) return 2;
  CUdevice device = 0;
  CUcontext context = nullptr;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&device, 0) != CUDA_SUCCESS ||
      cuCtxCreate(&context, 0, device) != CUDA_SUCCESS) {
    return 3;
  }
  const int descriptors = OpenDescriptorCount();
  CUdeviceptr data = 0;
  const CUresult result = cuIpcOpenMemHandle(&data, handle, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
  if (result != CUDA_ERROR_INVALID_HANDLE) return 4;
  if (data != 0) return 5;
  if (OpenDescriptorCount() != descriptors) return 6;
  if (cuCtxDestroy(context) != CUDA_SUCCESS) return 7;
  return ValidationMessageCount() == 0 ? 0 : 8;
}
const ChildRegistration kRefusingChild("ipc-mem-refuse", RefusingChild);

// The child that waits on this process's event: argv = {data, flag, event
// handles, n}. The parent's record of the event is held back (its stream
// waits on a host word) until this child sets `flag`; the child sees the
// event pending, queues a copy of `data` behind it, signals, waits, and
// must read the parent's 5s. Then it writes 9s (x + 4), records the event
// itself and waits for its own record.
int EventChild(int argc, char** argv) {
  CUipcMemHandle data_handle, flag_handle;
  CUipcEventHandle event_handle;
  if (argc != 4 || !FromHex(argv[0], &data_handle) || !FromHex(argv[1], &flag_handle) ||
      !FromHex(argv[2], &event_handle)) {
    return 2;
  }
  const uint32_t n = static_cast<uint32_t>(std::atoi(argv[3]));
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUmodule module = nullptr;
  CUfunction scale = nullptr;
  CUstream stream = nullptr;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&device, 0) != CUDA_SUCCESS ||
      cuCtxCreate(&context, 0, device) != CUDA_SUCCESS ||
      cuModuleLoadData(&module, kScaleOffsetGlsl) != CUDA_SUCCESS ||
      cuModuleGetFunction(&scale, module, "scale_offset") != CUDA_SUCCESS ||
      cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS) {
    return 3;
  }
  CUdeviceptr data = 0, flag = 0;
  CUevent event = nullptr;
  if (cuIpcOpenMemHandle(&data, data_handle, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS) != CUDA_SUCCESS ||
      cuIpcOpenMemHandle(&flag, flag_handle, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS) != CUDA_SUCCESS ||
      cuIpcOpenEventHandle(&event, event_handle) != CUDA_SUCCESS) {
    return 4;
  }
  // The parent's record is still held back.
  if (cuEventQuery(event) != CUDA_ERROR_NOT_READY) return 5;
  // Only the exporter hands out the event's handle.
  CUipcEventHandle again;
  if (cuIpcGetEventHandle(&again, event) != CUDA_ERROR_INVALID_VALUE) return 6;
  // Pinned, so the copy is queued (a copy to pageable memory completes
  // before it returns, CUDA says, which would wait for the parent here).
  float* seen = nullptr;
  if (cuMemAllocHost(reinterpret_cast<void**>(&seen), n * sizeof(float)) != CUDA_SUCCESS) return 7;
  for (uint32_t i = 0; i < n; ++i) seen[i] = -1.0f;
  if (cuStreamWaitEvent(stream, event, 0) != CUDA_SUCCESS ||
      cuMemcpyDtoHAsync(seen, data, n * sizeof(float), stream) != CUDA_SUCCESS) {
    return 7;
  }
  if (cuMemsetD32(flag, 1, 1) != CUDA_SUCCESS) return 8;  // the parent may go on
  if (cuEventSynchronize(event) != CUDA_SUCCESS || cuEventQuery(event) != CUDA_SUCCESS ||
      cuStreamSynchronize(stream) != CUDA_SUCCESS) {
    return 9;
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (seen[i] != 5.0f) return 10;
  }
  if (cuMemFreeHost(seen) != CUDA_SUCCESS) return 10;
  // This process records the shared event; the parent waits for it.
  float factor = 1.0f, offset = 4.0f;
  uint32_t count = n;
  void* params[] = {&data, &factor, &offset, &count};
  if (cuLaunchKernel(scale, (n + 63) / 64, 1, 1, 64, 1, 1, 0, stream, params, nullptr) !=
          CUDA_SUCCESS ||
      cuEventRecord(event, stream) != CUDA_SUCCESS || cuEventSynchronize(event) != CUDA_SUCCESS) {
    return 11;
  }
  if (cuIpcCloseMemHandle(data) != CUDA_SUCCESS || cuIpcCloseMemHandle(flag) != CUDA_SUCCESS ||
      cuEventDestroy(event) != CUDA_SUCCESS || cuStreamDestroy(stream) != CUDA_SUCCESS ||
      cuModuleUnload(module) != CUDA_SUCCESS || cuCtxDestroy(context) != CUDA_SUCCESS) {
    return 12;
  }
  return ValidationMessageCount() == 0 ? 0 : 13;
}
const ChildRegistration kEventChild("ipc-event", EventChild);

// The HIP child: argv = {memory handle, event handle, n}. Through HIP's
// names only: waits for the parent's record, expects n bytes of 0x11, writes
// 0x22 over them and closes.
int HipChild(int argc, char** argv) {
  hipIpcMemHandle_t memory;
  hipIpcEventHandle_t event_handle;
  if (argc != 3 || !FromHex(argv[0], &memory) || !FromHex(argv[1], &event_handle)) return 2;
  const size_t n = static_cast<size_t>(std::atoi(argv[2]));
  void* data = nullptr;
  hipEvent_t event = nullptr;
  // HIP needs no explicit context: the runtime makes the primary one.
  if (hipIpcOpenMemHandle(&data, memory, 0) != hipErrorInvalidValue) return 3;
  if (hipIpcOpenMemHandle(&data, memory, hipIpcMemLazyEnablePeerAccess) != hipSuccess ||
      hipIpcOpenEventHandle(&event, event_handle) != hipSuccess) {
    return 4;
  }
  if (hipEventSynchronize(event) != hipSuccess) return 5;
  std::vector<unsigned char> seen(n);
  if (hipMemcpy(seen.data(), data, n, hipMemcpyDeviceToHost) != hipSuccess) return 6;
  for (unsigned char byte : seen) {
    if (byte != 0x11) return 7;
  }
  if (hipMemset(data, 0x22, n) != hipSuccess || hipDeviceSynchronize() != hipSuccess) return 8;
  if (hipIpcCloseMemHandle(data) != hipSuccess || hipEventDestroy(event) != hipSuccess) return 9;
  if (hipIpcCloseMemHandle(data) != hipErrorInvalidValue) return 10;
  return ValidationMessageCount() == 0 ? 0 : 11;
}
const ChildRegistration kHipChild("ipc-hip", HipChild);

class IpcConformance : public ContextTest {
 protected:
  void SetUp() override {
    ContextTest::SetUp();
    if (HasFatalFailure()) return;
    scale_ = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module_);
  }
  void TearDown() override {
    if (module_ != nullptr) {
      EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module_));
    }
    ContextTest::TearDown();
  }

  CUmodule module_ = nullptr;
  CUfunction scale_ = nullptr;
};

TEST_F(IpcConformance, AnotherProcessReadsAndWritesExportedMemory) {
  constexpr uint32_t kN = 1 << 16;
  CUdeviceptr data = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&data, kN * sizeof(float)));
  ASSERT_TRUE(ScaleOffset(scale_, data, kN, 0.0f, 3.0f));
  CUipcMemHandle handle{}, same{};
  ASSERT_CU(CUDA_SUCCESS, cuIpcGetMemHandle(&handle, data));
  // The handle of an allocation is the same each time.
  ASSERT_CU(CUDA_SUCCESS, cuIpcGetMemHandle(&same, data));
  EXPECT_EQ(std::memcmp(&handle, &same, sizeof(handle)), 0);
  EXPECT_EQ(SpawnChild("ipc-mem-open", {ToHex(handle), std::to_string(kN)}, {},
                       /*timeout_s=*/120),
            0);
  std::vector<float> back(kN);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(back.data(), data, kN * sizeof(float)));
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(back[i], 7.0f) << i;
  // The exporting process uses the pointer itself.
  CUdeviceptr opened = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT,
            cuIpcOpenMemHandle(&opened, handle, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
  EXPECT_EQ(opened, 0u);
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(data));
}

TEST_F(IpcConformance, FreedExitedAndForgedHandlesDoNotOpen) {
  CUdeviceptr data = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&data, 4096));
  CUipcMemHandle handle{};
  ASSERT_CU(CUDA_SUCCESS, cuIpcGetMemHandle(&handle, data));
  // Garbage bytes.
  CUipcMemHandle forged{};
  std::memset(forged.reserved, 0x5a, sizeof(forged.reserved));
  EXPECT_EQ(SpawnChild("ipc-mem-refuse", {ToHex(forged)}, {}, 120), 0);
  // A real handle with another process id (none lives there), and with a
  // descriptor that is not the exporter's table.
  CUipcMemHandle other_pid = handle;
  const uint32_t no_process = 0x3ffffff0;
  std::memcpy(other_pid.reserved + 4, &no_process, sizeof(no_process));
  EXPECT_EQ(SpawnChild("ipc-mem-refuse", {ToHex(other_pid)}, {}, 120), 0);
  CUipcMemHandle other_fd = handle;
  const int32_t stdin_fd = 0;
  std::memcpy(other_fd.reserved + 16, &stdin_fd, sizeof(stdin_fd));
  EXPECT_EQ(SpawnChild("ipc-mem-refuse", {ToHex(other_fd)}, {}, 120), 0);
  // Freed by the exporter: the handle no longer opens.
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(data));
  EXPECT_EQ(SpawnChild("ipc-mem-refuse", {ToHex(handle)}, {}, 120), 0);
  // A new allocation, perhaps at the same address, has a handle of its own.
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&data, 4096));
  CUipcMemHandle fresh{};
  ASSERT_CU(CUDA_SUCCESS, cuIpcGetMemHandle(&fresh, data));
  EXPECT_NE(std::memcmp(&handle, &fresh, sizeof(handle)), 0);
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(data));
}

TEST_F(IpcConformance, AnEventIsWaitedForAndRecordedAcrossProcesses) {
  constexpr uint32_t kN = 4096;
  CUevent event = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&event, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING));
  EXPECT_CU(CUDA_SUCCESS, cuEventQuery(event));  // never recorded
  CUdeviceptr data = 0, flag = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&data, kN * sizeof(float)));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&flag, sizeof(uint32_t)));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(flag, 0, 1));
  ASSERT_TRUE(ScaleOffset(scale_, data, kN, 0.0f, 1.0f));
  // The record is held back behind a host word until the child signals.
  uint32_t* gate = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(reinterpret_cast<void**>(&gate), sizeof(uint32_t)));
  *gate = 0;
  CUdeviceptr gate_device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemHostGetDevicePointer(&gate_device, gate, 0));
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  ASSERT_CU(CUDA_SUCCESS, cuStreamWaitValue32(stream, gate_device, 1, CU_STREAM_WAIT_VALUE_GEQ));
  float factor = 0.0f, offset = 5.0f;
  uint32_t n = kN;
  void* params[] = {&data, &factor, &offset, &n};
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(scale_, kN / 64, 1, 1, 64, 1, 1, 0, stream, params, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(event, stream));
  EXPECT_CU(CUDA_ERROR_NOT_READY, cuEventQuery(event));
  CUipcMemHandle data_handle{}, flag_handle{};
  CUipcEventHandle event_handle{};
  ASSERT_CU(CUDA_SUCCESS, cuIpcGetMemHandle(&data_handle, data));
  ASSERT_CU(CUDA_SUCCESS, cuIpcGetMemHandle(&flag_handle, flag));
  ASSERT_CU(CUDA_SUCCESS, cuIpcGetEventHandle(&event_handle, event));
  std::atomic<int> child_result{-2};
  std::thread child([&] {
    child_result = SpawnChild(
        "ipc-event",
        {ToHex(data_handle), ToHex(flag_handle), ToHex(event_handle), std::to_string(kN)}, {}, 120);
  });
  // Open the gate once the child has seen the record pending (or gave up).
  uint32_t signal = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (signal == 0 && child_result == -2 && std::chrono::steady_clock::now() < deadline) {
    ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&signal, flag, sizeof(signal)));
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  std::atomic_ref<uint32_t>(*gate).store(1, std::memory_order_release);
  child.join();
  EXPECT_EQ(child_result, 0);
  EXPECT_EQ(signal, 1u);
  // The newest record is the child's; its writes are visible after it.
  ASSERT_CU(CUDA_SUCCESS, cuEventSynchronize(event));
  EXPECT_CU(CUDA_SUCCESS, cuEventQuery(event));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  std::vector<float> back(kN);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(back.data(), data, kN * sizeof(float)));
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(back[i], 9.0f) << i;
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(gate));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(data));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(flag));
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(event));
}

TEST_F(IpcConformance, EventHandlesRefuseOrdinaryEventsAndForgeries) {
  CUevent plain = nullptr, shared = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&plain, CU_EVENT_DISABLE_TIMING));
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&shared, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING));
  // CUDA: interprocess events are untimed.
  CUevent timed = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuEventCreate(&timed, CU_EVENT_INTERPROCESS));
  CUipcEventHandle handle{};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuIpcGetEventHandle(&handle, plain));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuIpcGetEventHandle(nullptr, shared));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuIpcGetEventHandle(&handle, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuIpcGetEventHandle(&handle, shared));
  float ms = 0;
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(shared, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuEventSynchronize(shared));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&ms, shared, shared));
  CUevent opened = nullptr;
  // The exporter uses the event itself.
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuIpcOpenEventHandle(&opened, handle));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuIpcOpenEventHandle(nullptr, handle));
  CUipcEventHandle forged{};
  std::memset(forged.reserved, 0x33, sizeof(forged.reserved));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuIpcOpenEventHandle(&opened, forged));
  // A memory handle is no event handle.
  CUdeviceptr data = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&data, 256));
  CUipcMemHandle memory{};
  ASSERT_CU(CUDA_SUCCESS, cuIpcGetMemHandle(&memory, data));
  std::memcpy(forged.reserved, memory.reserved, sizeof(forged.reserved));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuIpcOpenEventHandle(&opened, forged));
  EXPECT_EQ(opened, nullptr);
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(data));
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(plain));
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(shared));
}

// One core: a handle is the same bytes through either API, and a HIP
// process opens what HIP exported.
TEST_F(IpcConformance, HipSharesMemoryAndEventsThroughTheSameHandles) {
  constexpr size_t kBytes = 1 << 16;
  void* data = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&data, kBytes));
  hipIpcMemHandle_t hip_handle{};
  ASSERT_HIP(hipSuccess, hipIpcGetMemHandle(&hip_handle, data));
  CUipcMemHandle cuda_handle{};
  ASSERT_CU(CUDA_SUCCESS, cuIpcGetMemHandle(&cuda_handle, AsCudaPointer(data)));
  EXPECT_EQ(std::memcmp(&hip_handle, &cuda_handle, sizeof(cuda_handle)), 0);
  hipEvent_t event = nullptr;
  EXPECT_HIP(hipErrorInvalidValue, hipEventCreateWithFlags(&event, hipEventInterprocess));
  ASSERT_HIP(hipSuccess,
             hipEventCreateWithFlags(&event, hipEventInterprocess | hipEventDisableTiming));
  ASSERT_HIP(hipSuccess, hipMemsetAsync(data, 0x11, kBytes, nullptr));
  ASSERT_HIP(hipSuccess, hipEventRecord(event, nullptr));
  hipIpcEventHandle_t event_handle{};
  ASSERT_HIP(hipSuccess, hipIpcGetEventHandle(&event_handle, event));
  EXPECT_EQ(SpawnChild("ipc-hip", {ToHex(hip_handle), ToHex(event_handle), std::to_string(kBytes)},
                       {}, 120),
            0);
  std::vector<unsigned char> back(kBytes);
  ASSERT_HIP(hipSuccess, hipMemcpy(back.data(), data, kBytes, hipMemcpyDeviceToHost));
  for (size_t i = 0; i < kBytes; ++i) ASSERT_EQ(back[i], 0x22) << i;
  void* opened = nullptr;
  EXPECT_HIP(hipErrorInvalidContext,
             hipIpcOpenMemHandle(&opened, hip_handle, hipIpcMemLazyEnablePeerAccess));
  EXPECT_HIP(hipErrorInvalidValue, hipIpcGetMemHandle(nullptr, data));
  EXPECT_HIP(hipErrorInvalidValue, hipIpcCloseMemHandle(data));
  EXPECT_HIP(hipSuccess, hipEventDestroy(event));
  EXPECT_HIP(hipSuccess, hipFree(data));
}

TEST_F(IpcConformance, BadArgumentsAreRejected) {
  CUdeviceptr data = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&data, 4096));
  CUipcMemHandle handle{};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuIpcGetMemHandle(nullptr, data));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuIpcGetMemHandle(&handle, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuIpcGetMemHandle(&handle, data + 256));  // not the start
  void* host = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(&host, 4096));
  EXPECT_CU(
      CUDA_ERROR_INVALID_VALUE,
      cuIpcGetMemHandle(&handle, static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(host))));
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(host));
  // Stream-ordered memory is shared through its pool, not cuIpcGetMemHandle.
  CUdeviceptr pooled = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocAsync(&pooled, 4096, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuIpcGetMemHandle(&handle, pooled));
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeAsync(pooled, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuIpcGetMemHandle(&handle, data));
  // Only what cuIpcOpenMemHandle returned is closed.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuIpcCloseMemHandle(data));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuIpcCloseMemHandle(0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuIpcOpenMemHandle(nullptr, handle, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(data));
  // Both need a current context.
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(nullptr));
  CUdeviceptr opened = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT,
            cuIpcOpenMemHandle(&opened, handle, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuIpcGetMemHandle(&handle, data));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuIpcCloseMemHandle(data));
  ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(context()));
}

}  // namespace
}  // namespace streamhal::conformance
