#include "core/testing/fake_backend.h"

#include <atomic>
#include <chrono>
#include <vector>
#include <cstdlib>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/backend_registry.h"
#include "core/status.h"

namespace streamhal::testing {
namespace {

std::atomic<int> g_device_count{1};
std::atomic<int> g_wait_idle_count{0};
std::atomic<int> g_stream_wait_count{0};
std::atomic<uint64_t> g_last_poll_ns{0};
std::atomic<bool> g_last_yield{false};

// Host memory posing as device memory: the device address is the host
// address, as on a CPU Vulkan driver.
class FakeAllocation : public BackendAllocation {
 public:
  FakeAllocation(void* memory, uint64_t size, bool owned) : owned_(owned) {
    device_address_ = reinterpret_cast<uintptr_t>(memory);
    size_ = size;
    host_pointer_ = memory;
  }
  ~FakeAllocation() override {
    if (owned_) std::free(host_pointer_);
  }

 private:
  const bool owned_;
};

uint8_t* At(BufferRange range) {
  return static_cast<uint8_t*>(range.allocation->host_pointer()) + range.offset;
}

// Executes every command at once; kernels cannot run here.
class FakeStream : public BackendStream {
 public:
  absl::Status RecordDispatch(const DispatchParams&) override {
    return Error(ErrorCode::kNotSupported, "the fake backend cannot run kernels");
  }
  absl::Status RecordCopy(BufferRange dst, BufferRange src, uint64_t size) override {
    std::memmove(At(dst), At(src), size);
    return absl::OkStatus();
  }
  absl::Status RecordFill(BufferRange dst, uint32_t pattern, uint32_t element_size,
                          uint64_t count) override {
    uint8_t* out = At(dst);
    for (uint64_t i = 0; i < count; ++i) std::memcpy(out + i * element_size, &pattern, element_size);
    return absl::OkStatus();
  }
  absl::Status RecordUpload(BufferRange dst, const void* src, uint64_t size) override {
    std::memcpy(At(dst), src, size);
    return absl::OkStatus();
  }
  absl::Status RecordDownload(void* dst, BufferRange src, uint64_t size) override {
    std::memcpy(dst, At(src), size);
    return absl::OkStatus();
  }
  // Commands already ran in order, so there is nothing to wait for, and a
  // host function can run at once.
  absl::Status RecordWait(BackendStream*, uint64_t) override { return absl::OkStatus(); }
  absl::Status RecordHostFunction(void (*fn)(void*), void* data) override {
    fn(data);
    return absl::OkStatus();
  }
  absl::StatusOr<uint64_t> RecordTimestamp() override {
    timestamps_.push_back(static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(
            std::chrono::steady_clock::now().time_since_epoch())
            .count()));
    return timestamps_.size() - 1;
  }
  absl::StatusOr<uint64_t> ReadTimestamp(uint64_t id) override { return timestamps_.at(id); }
  absl::StatusOr<uint64_t> Flush() override { return ++point_; }
  using BackendStream::Wait;
  absl::Status Wait(uint64_t, const WaitPolicy& policy) override {
    g_last_poll_ns.store(policy.poll_ns);
    g_last_yield.store(policy.yield);
    g_stream_wait_count.fetch_add(1);
    return absl::OkStatus();
  }
  absl::StatusOr<bool> IsComplete(uint64_t, Completion) override { return true; }

 private:
  uint64_t point_ = 0;
  std::vector<uint64_t> timestamps_;
};

class FakeModule : public BackendModule {};

class FakeKernel : public BackendKernel {
 public:
  int max_threads_per_block() const override { return 1024; }
};

class FakeDevice : public BackendDevice {
 public:
  explicit FakeDevice(int index) {
    properties_.name = absl::StrCat("fake device ", index);
    properties_.uuid[0] = static_cast<uint8_t>(index + 1);
    properties_.backend_name = "fake";
    properties_.total_memory = uint64_t{1} << 30;
    properties_.max_allocation_size = uint64_t{1} << 30;
    properties_.max_threads_per_block = 1024;
    properties_.max_block_dim = {1024, 1024, 64};
    properties_.max_grid_dim = {2147483647, 65535, 65535};
    properties_.max_dispatch_dim = {65535, 65535, 65535};
    properties_.shared_memory_per_block = 32768;
    properties_.max_push_constant_size = 128;
    properties_.warp_size = 32;
    properties_.multiprocessor_count = 1;
  }
  const DeviceProperties& properties() const override { return properties_; }
  absl::Status GetMemoryInfo(uint64_t* free_bytes, uint64_t* total_bytes) override {
    *free_bytes = properties_.total_memory;
    *total_bytes = properties_.total_memory;
    return absl::OkStatus();
  }
  absl::Status WaitIdle() override {
    g_wait_idle_count.fetch_add(1);
    return absl::OkStatus();
  }
  absl::StatusOr<std::unique_ptr<BackendAllocation>> Allocate(uint64_t size, MemoryKind) override {
    if (size > properties_.max_allocation_size) {
      return Error(ErrorCode::kOutOfMemory, "fake device: ", size, " bytes is too much");
    }
    void* memory = std::aligned_alloc(256, (size + 255) / 256 * 256);
    if (memory == nullptr) return Error(ErrorCode::kOutOfMemory, "fake device: out of memory");
    return std::make_unique<FakeAllocation>(memory, size, /*owned=*/true);
  }
  absl::StatusOr<std::unique_ptr<BackendAllocation>> RegisterHostMemory(void* pointer,
                                                                        uint64_t size) override {
    return std::make_unique<FakeAllocation>(pointer, size, /*owned=*/false);
  }
  absl::StatusOr<std::unique_ptr<BackendModule>> CreateModule(
      const std::vector<uint32_t>&) override {
    return std::make_unique<FakeModule>();
  }
  absl::StatusOr<std::unique_ptr<BackendKernel>> CreateKernel(BackendModule*,
                                                              const KernelLayout&) override {
    return std::make_unique<FakeKernel>();
  }
  absl::StatusOr<std::unique_ptr<BackendStream>> CreateStream() override {
    return std::make_unique<FakeStream>();
  }

 private:
  DeviceProperties properties_;
};

class FakeBackend : public Backend {
 public:
  const char* name() const override { return "fake"; }
  absl::StatusOr<std::vector<std::unique_ptr<BackendDevice>>> EnumerateDevices() override {
    std::vector<std::unique_ptr<BackendDevice>> devices;
    for (int i = 0; i < g_device_count.load(); ++i) {
      devices.push_back(std::make_unique<FakeDevice>(i));
    }
    return devices;
  }
};

std::unique_ptr<Backend> CreateFakeBackend() { return std::make_unique<FakeBackend>(); }

}  // namespace

void InstallFakeBackend(int device_count) {
  g_device_count.store(device_count);
  ClearBackendsForTesting();
  RegisterBackend(&CreateFakeBackend);
}

int FakeWaitIdleCount() { return g_wait_idle_count.load(); }
int FakeStreamWaitCount() { return g_stream_wait_count.load(); }
WaitPolicy FakeLastWaitPolicy() { return WaitPolicy{g_last_poll_ns.load(), g_last_yield.load()}; }

}  // namespace streamhal::testing
