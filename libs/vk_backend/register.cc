// The composition point that links the Vulkan backend into a program. This
// object file is linked directly (not from an archive), so the linker keeps
// it and its definition replaces core's weak default. It only defines a
// function: nothing runs at static-initialisation time.
#include "core/backend_registry.h"
#include "vk_backend/instance.h"

extern "C" void streamhal_register_builtin_backends(void) {
  streamhal::RegisterBackend(&streamhal::vk::CreateVulkanBackend);
}
