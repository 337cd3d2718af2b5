// Explicit backend registration. Static libraries drop objects nobody
// references, so a backend is registered by a call, never by a static
// initializer: Init() calls streamhal_register_builtin_backends(), which a
// backend's composition object (linked as an object file through the
// streamhal::vulkan target) defines; core's weak default registers nothing.
#ifndef STREAMHAL_CORE_BACKEND_REGISTRY_H_
#define STREAMHAL_CORE_BACKEND_REGISTRY_H_

#include <memory>
#include <vector>

#include "core/backend.h"

namespace streamhal {

using BackendFactory = std::unique_ptr<Backend> (*)();

// Adds a backend factory. Registering the same factory twice is a no-op.
// Safe to call before Init() and from several threads.
void RegisterBackend(BackendFactory factory);

// Factories registered so far, in registration order.
std::vector<BackendFactory> RegisteredBackends();

// Removes every registered factory (tests use this to install fakes).
void ClearBackendsForTesting();

}  // namespace streamhal

extern "C" {
// Defined by a backend composition object (e.g. libs/vk_backend/register.cc).
void streamhal_register_builtin_backends(void);
}

#endif  // STREAMHAL_CORE_BACKEND_REGISTRY_H_
