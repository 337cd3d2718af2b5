#include "core/testing/fake_backend.h"

#include <atomic>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/backend_registry.h"

namespace streamhal::testing {
namespace {

std::atomic<int> g_device_count{1};
std::atomic<int> g_wait_idle_count{0};

class FakeDevice : public BackendDevice {
 public:
  explicit FakeDevice(int index) {
    properties_.name = absl::StrCat("fake device ", index);
    properties_.uuid[0] = static_cast<uint8_t>(index + 1);
    properties_.backend_name = "fake";
    properties_.total_memory = uint64_t{1} << 30;
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

}  // namespace streamhal::testing
