#include "core/backend_registry.h"

#include <algorithm>

#include "core/mutex.h"

namespace streamhal {
namespace {

struct Registry {
  Mutex mutex;
  std::vector<BackendFactory> factories ABSL_GUARDED_BY(mutex);
};

Registry& GetRegistry() {
  static Registry* registry = new Registry;  // leaked: no static destructor
  return *registry;
}

}  // namespace

void RegisterBackend(BackendFactory factory) {
  Registry& registry = GetRegistry();
  MutexLock lock(&registry.mutex);
  if (std::find(registry.factories.begin(), registry.factories.end(), factory) ==
      registry.factories.end()) {
    registry.factories.push_back(factory);
  }
}

std::vector<BackendFactory> RegisteredBackends() {
  Registry& registry = GetRegistry();
  MutexLock lock(&registry.mutex);
  return registry.factories;
}

void ClearBackendsForTesting() {
  Registry& registry = GetRegistry();
  MutexLock lock(&registry.mutex);
  registry.factories.clear();
}

}  // namespace streamhal

// Weak default: a program that links no backend composition object still
// links, and Init() reports that there is no device.
extern "C" __attribute__((weak)) void streamhal_register_builtin_backends(void) {}
