// A device as the APIs see it: an ordinal (CUdevice / hipDevice_t) over a
// backend device, plus the state of its primary context.
#ifndef STREAMHAL_CORE_DEVICE_H_
#define STREAMHAL_CORE_DEVICE_H_

#include <atomic>
#include <memory>

#include "absl/base/thread_annotations.h"
#include "core/backend.h"
#include "core/mutex.h"

namespace streamhal {

class Context;
class MemPool;

class Device {
 public:
  Device(int ordinal, std::unique_ptr<BackendDevice> backend);
  ~Device();

  int ordinal() const { return ordinal_; }
  const DeviceProperties& properties() const { return backend_->properties(); }
  BackendDevice* backend() const { return backend_.get(); }

  // The primary context (CUDA: one per device, reference counted, shared
  // with the runtime API). Managed by context.cc.
  struct PrimaryState {
    Mutex mutex;
    Context* context ABSL_GUARDED_BY(mutex) = nullptr;
    int refcount ABSL_GUARDED_BY(mutex) = 0;
    unsigned flags ABSL_GUARDED_BY(mutex) = 0;
    // Whether the runtime API (hipSetDevice and friends) holds its one
    // reference.
    bool runtime_retained ABSL_GUARDED_BY(mutex) = false;
  };
  PrimaryState& primary() { return primary_; }

  // The device's current memory pool as core/mem_pool.cc last looked it up,
  // or null when it must look again: what every cuMemAllocAsync and
  // cuMemFreeAsync reads, one load from the device.
  std::atomic<MemPool*>& current_pool_hint() { return current_pool_hint_; }

 private:
  const int ordinal_;
  const std::unique_ptr<BackendDevice> backend_;
  PrimaryState primary_;
  std::atomic<MemPool*> current_pool_hint_{nullptr};
};

}  // namespace streamhal

#endif  // STREAMHAL_CORE_DEVICE_H_
