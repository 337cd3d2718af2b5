// Inter-process memory and events (hipIpcGetMemHandle, hipIpcOpenMemHandle,
// hipIpcCloseMemHandle, hipIpcGetEventHandle, hipIpcOpenEventHandle);
// core/ipc.h has the rules. A HIP handle and a CUDA handle are the same 64
// bytes.
#include "core/ipc.h"

#include <hip/hip_runtime_api.h>

#include "call.h"
#include "core/handle.h"

using streamhal::HandleOut;
using streamhal::HandleValue;
using streamhal::hip::RuntimeCall;

static_assert(sizeof(hipIpcMemHandle_t) == streamhal::kIpcHandleSize, "HIP_IPC_HANDLE_SIZE");
static_assert(sizeof(hipIpcEventHandle_t) == streamhal::kIpcHandleSize, "HIP_IPC_HANDLE_SIZE");
static_assert(hipIpcMemLazyEnablePeerAccess == streamhal::kIpcMemLazyEnablePeerAccess);

namespace {

uint64_t Address(const void* pointer) {
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(pointer));
}

}  // namespace

extern "C" {

hipError_t hipIpcGetMemHandle(hipIpcMemHandle_t* handle, void* dev_ptr) {
  return RuntimeCall([&] { return streamhal::IpcGetMemHandle(handle, Address(dev_ptr)); });
}

hipError_t hipIpcOpenMemHandle(void** dev_ptr, hipIpcMemHandle_t handle, unsigned int flags) {
  return RuntimeCall([&] {
    uint64_t value = 0;
    absl::Status status =
        streamhal::IpcOpenMemHandle(dev_ptr != nullptr ? &value : nullptr, handle.reserved, flags);
    if (status.ok()) *dev_ptr = reinterpret_cast<void*>(static_cast<uintptr_t>(value));
    return status;
  });
}

hipError_t hipIpcCloseMemHandle(void* dev_ptr) {
  return RuntimeCall([&] { return streamhal::IpcCloseMemHandle(Address(dev_ptr)); });
}

hipError_t hipIpcGetEventHandle(hipIpcEventHandle_t* handle, hipEvent_t event) {
  return RuntimeCall([&] { return streamhal::IpcGetEventHandle(handle, HandleValue(event)); });
}

hipError_t hipIpcOpenEventHandle(hipEvent_t* event, hipIpcEventHandle_t handle) {
  return RuntimeCall(
      [&] { return streamhal::IpcOpenEventHandle(HandleOut(event), handle.reserved); });
}

}  // extern "C"
