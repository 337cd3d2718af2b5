#include "core/runtime.h"

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "core/backend_registry.h"
#include "core/context.h"
#include "core/device_visibility.h"
#include "core/library.h"
#include "core/log.h"
#include "core/mem_pool.h"
#include "core/mutex.h"
#include "core/status.h"
#include "core/virtual_memory.h"

namespace streamhal {
namespace {

struct Runtime {
  SharedMutex mutex;
  bool initialized ABSL_GUARDED_BY(mutex) = false;
  std::vector<std::unique_ptr<Backend>> backends ABSL_GUARDED_BY(mutex);
  std::vector<std::unique_ptr<Device>> devices ABSL_GUARDED_BY(mutex);
};

Runtime& GetRuntime() {
  static Runtime* runtime = new Runtime;  // leaked: no static destructor
  return *runtime;
}

// Mirrors Runtime::initialized for lock-free checks on hot paths.
std::atomic<bool> g_initialized{false};
std::atomic<uint64_t> g_epoch{0};

}  // namespace

absl::Status Init(unsigned flags) {
  if (flags != 0) {
    return Error(ErrorCode::kInvalidValue, "cuInit: flags must be 0, got ", flags);
  }
  Runtime& runtime = GetRuntime();
  MutexLock lock(&runtime.mutex);
  if (runtime.initialized) return absl::OkStatus();

  streamhal_register_builtin_backends();
  std::vector<std::unique_ptr<Backend>> backends;
  std::vector<std::unique_ptr<BackendDevice>> found;
  for (BackendFactory factory : RegisteredBackends()) {
    std::unique_ptr<Backend> backend = factory();
    if (backend == nullptr) continue;
    auto enumerated = backend->EnumerateDevices();
    if (!enumerated.ok()) {
      Log(LogLevel::kWarning, "backend ", backend->name(),
          " found no devices: ", enumerated.status().message());
      continue;
    }
    for (auto& backend_device : *enumerated) found.push_back(std::move(backend_device));
    backends.push_back(std::move(backend));
  }

  // CUDA_VISIBLE_DEVICES / HIP_VISIBLE_DEVICES pick and order the devices;
  // read per call so that a test (or cuHALDeinit and cuInit) sees a change.
  std::vector<int> order(found.size());
  for (size_t i = 0; i < found.size(); ++i) order[i] = static_cast<int>(i);
  const std::optional<VisibilitySetting> visibility = VisibilityFromEnvironment();
  if (visibility.has_value()) {
    std::vector<std::array<uint8_t, 16>> uuids;
    for (const auto& device : found) uuids.push_back(device->properties().uuid);
    order = VisibleDevices(visibility->spec, uuids);
  }
  std::vector<std::unique_ptr<Device>> devices;
  for (int index : order) {
    const int ordinal = static_cast<int>(devices.size());
    Log(LogLevel::kInfo, "device ", ordinal, ": ", found[index]->properties().name, " (",
        found[index]->properties().backend_name, " device ", index, ")");
    devices.push_back(std::make_unique<Device>(ordinal, std::move(found[index])));
  }
  if (devices.empty()) {
    if (visibility.has_value() && !found.empty()) {
      return Error(ErrorCode::kNoDevice, "cuInit: ", visibility->variable, "=\"", visibility->spec,
                   "\" leaves none of the ", found.size(), " devices visible");
    }
    return Error(ErrorCode::kNoDevice,
                 "cuInit: no usable device (is a backend linked and a Vulkan 1.2 driver with "
                 "bufferDeviceAddress, timelineSemaphore and shaderInt64 installed?)");
  }
  runtime.backends = std::move(backends);
  runtime.devices = std::move(devices);
  runtime.initialized = true;
  g_epoch.fetch_add(1, std::memory_order_acq_rel);
  g_initialized.store(true, std::memory_order_release);
  return absl::OkStatus();
}

absl::Status Deinit() {
  SH_RETURN_IF_ERROR(CheckInitialized());
  // Contexts first: they own work and memory on the devices.
  DestroyAllContexts();
  // Libraries after contexts: their modules went with the contexts.
  DestroyAllLibraries();
  DestroyAllMemPools();
  ReleaseAllVirtualMemory();
  Runtime& runtime = GetRuntime();
  MutexLock lock(&runtime.mutex);
  g_initialized.store(false, std::memory_order_release);
  runtime.initialized = false;
  runtime.devices.clear();
  runtime.backends.clear();
  return absl::OkStatus();
}

absl::Status EnsureInitialized() {
  if (IsInitialized()) return absl::OkStatus();
  return Init(0);
}

bool IsInitialized() { return g_initialized.load(std::memory_order_acquire); }

absl::Status CheckInitialized() {
  if (IsInitialized()) return absl::OkStatus();
  return Error(ErrorCode::kNotInitialized, "the driver is not initialised (call cuInit/hipInit)");
}

uint64_t InitEpoch() { return g_epoch.load(std::memory_order_acquire); }

absl::StatusOr<int> DeviceCount() {
  SH_RETURN_IF_ERROR(CheckInitialized());
  Runtime& runtime = GetRuntime();
  ReaderMutexLock lock(&runtime.mutex);
  return static_cast<int>(runtime.devices.size());
}

absl::StatusOr<Device*> GetDevice(int ordinal) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  Runtime& runtime = GetRuntime();
  ReaderMutexLock lock(&runtime.mutex);
  if (ordinal < 0 || ordinal >= static_cast<int>(runtime.devices.size())) {
    return Error(ErrorCode::kInvalidDevice, "device ordinal ", ordinal, " is out of range [0, ",
                 runtime.devices.size(), ")");
  }
  return runtime.devices[ordinal].get();
}

}  // namespace streamhal
