// Inter-process memory and events (cuIpcGetMemHandle, cuIpcOpenMemHandle,
// cuIpcCloseMemHandle, cuIpcGetEventHandle, cuIpcOpenEventHandle);
// core/ipc.h has the rules.
#include "core/ipc.h"

#include <cuda.h>

#include "core/handle.h"
#include "result.h"

using streamhal::HandleOut;
using streamhal::HandleValue;
using streamhal::cuda::ToCUresult;
using streamhal::cuda::WriteOut;

static_assert(sizeof(CUipcMemHandle) == streamhal::kIpcHandleSize, "CU_IPC_HANDLE_SIZE");
static_assert(sizeof(CUipcEventHandle) == streamhal::kIpcHandleSize, "CU_IPC_HANDLE_SIZE");
static_assert(CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS == streamhal::kIpcMemLazyEnablePeerAccess);

extern "C" {

CUresult cuIpcGetMemHandle(CUipcMemHandle* handle, CUdeviceptr dptr) {
  return ToCUresult(streamhal::IpcGetMemHandle(handle, dptr));
}

CUresult cuIpcOpenMemHandle(CUdeviceptr* dptr, CUipcMemHandle handle, unsigned int flags) {
  uint64_t value = 0;
  return WriteOut(
      streamhal::IpcOpenMemHandle(dptr != nullptr ? &value : nullptr, handle.reserved, flags), dptr,
      value);
}

CUresult cuIpcCloseMemHandle(CUdeviceptr dptr) {
  return ToCUresult(streamhal::IpcCloseMemHandle(dptr));
}

CUresult cuIpcGetEventHandle(CUipcEventHandle* handle, CUevent event) {
  return ToCUresult(streamhal::IpcGetEventHandle(handle, HandleValue(event)));
}

CUresult cuIpcOpenEventHandle(CUevent* event, CUipcEventHandle handle) {
  return ToCUresult(streamhal::IpcOpenEventHandle(HandleOut(event), handle.reserved));
}

}  // extern "C"
