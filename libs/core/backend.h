// The interface a backend implements. Core validates every argument before
// calling into it, so implementations may assume valid inputs (Dawn's
// frontend/backend split). Nothing here names a graphics API.
#ifndef STREAMHAL_CORE_BACKEND_H_
#define STREAMHAL_CORE_BACKEND_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace streamhal {

// Everything the APIs report about a device, read from the real device by
// the backend. Values the device does not report are 0.
struct DeviceProperties {
  std::string name;
  std::array<uint8_t, 16> uuid = {};
  std::string backend_name;     // "vulkan"
  std::string driver_name;      // e.g. "llvmpipe"
  std::string driver_info;      // e.g. "Mesa 22.3.6 (LLVM 15.0.6)"
  uint32_t api_version = 0;     // backend API version (Vulkan: VK_MAKE_API_VERSION)
  uint32_t driver_version = 0;
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  bool integrated = false;      // shares memory with the host (iGPU, CPU)
  bool is_cpu = false;

  uint64_t total_memory = 0;           // bytes of device-local memory
  uint64_t max_allocation_size = 0;    // largest single allocation
  int max_threads_per_block = 0;
  std::array<int, 3> max_block_dim = {};
  std::array<int, 3> max_grid_dim = {};  // CUDA-visible grid limits (splitting allowed)
  std::array<uint32_t, 3> max_dispatch_dim = {};  // what one dispatch may cover
  int shared_memory_per_block = 0;
  int shared_memory_per_multiprocessor = 0;
  int max_push_constant_size = 0;      // bytes of kernel parameters passed directly
  int warp_size = 0;                   // subgroup size
  int multiprocessor_count = 0;
  int max_threads_per_multiprocessor = 0;
  int max_blocks_per_multiprocessor = 0;
  int registers_per_block = 0;
  int registers_per_multiprocessor = 0;
  int clock_rate_khz = 0;
  int memory_clock_rate_khz = 0;
  int memory_bus_width = 0;
  int l2_cache_size = 0;
  int total_constant_memory = 0;
  int texture_alignment = 0;
  int texture_pitch_alignment = 0;
  int64_t memory_pitch = 0;            // max pitch for pitched allocations
  uint64_t min_storage_buffer_offset_alignment = 0;
  uint64_t timestamp_period_ns = 0;    // 0: no device timestamps
  double timestamp_period = 0.0;       // nanoseconds per timestamp tick
  bool has_pci_info = false;
  int pci_domain_id = 0;
  int pci_bus_id = 0;
  int pci_device_id = 0;
  int pci_function = 0;
  int compute_capability_major = 0;    // what the APIs report; see docs
  int compute_capability_minor = 0;
  bool concurrent_kernels = true;
  bool unified_addressing = false;     // device and host address spaces disjoint
  bool can_map_host_memory = false;
  bool ecc_enabled = false;
  int async_engine_count = 0;
};

// One physical device as the backend sees it.
class BackendDevice {
 public:
  virtual ~BackendDevice() = default;

  virtual const DeviceProperties& properties() const = 0;

  // Free and total device memory in bytes, as the device reports them now.
  virtual absl::Status GetMemoryInfo(uint64_t* free_bytes, uint64_t* total_bytes) = 0;

  // Waits until every piece of work submitted to this device has finished.
  virtual absl::Status WaitIdle() = 0;
};

// A backend enumerates devices. Backends are registered explicitly (see
// RegisterBackend in backend_registry.h): static libraries drop
// self-registering objects.
class Backend {
 public:
  virtual ~Backend() = default;
  virtual const char* name() const = 0;
  // Devices this backend can run kernels on. A device that lacks a required
  // feature is skipped with a logged reason, not reported as an error.
  virtual absl::StatusOr<std::vector<std::unique_ptr<BackendDevice>>> EnumerateDevices() = 0;
};

}  // namespace streamhal

#endif  // STREAMHAL_CORE_BACKEND_H_
