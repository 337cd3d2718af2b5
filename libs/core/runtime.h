// Process-wide driver state: initialisation, the device list, deinit.
#ifndef STREAMHAL_CORE_RUNTIME_H_
#define STREAMHAL_CORE_RUNTIME_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "core/device.h"

namespace streamhal {

// Initialises the driver: registers the linked backends and enumerates their
// devices. `flags` must be 0 (CUDA: cuInit(Flags), "must be 0"). Idempotent.
// With no usable device, returns kNoDevice and stays uninitialised.
absl::Status Init(unsigned flags);

// Releases every object (contexts and what they own) and every device so
// that Init can run again. Handles issued before stay detectably invalid.
absl::Status Deinit();

// The runtime APIs (HIP, and the CUDA runtime) initialise lazily on the
// first call: Init(0) unless already initialised.
absl::Status EnsureInitialized();

bool IsInitialized();
absl::Status CheckInitialized();

// Changes every time Init succeeds; per-thread state tagged with an older
// epoch belongs to a previous initialisation.
uint64_t InitEpoch();

absl::StatusOr<int> DeviceCount();

// The device with this ordinal, or kInvalidDevice.
absl::StatusOr<Device*> GetDevice(int ordinal);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_RUNTIME_H_
