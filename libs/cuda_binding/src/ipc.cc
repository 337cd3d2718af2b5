// Inter-process memory (cuIpcGetMemHandle, cuIpcOpenMemHandle,
// cuIpcCloseMemHandle); core/ipc.h has the rules.
#include "core/ipc.h"

#include <cuda.h>

#include "result.h"

using streamhal::cuda::ToCUresult;
using streamhal::cuda::WriteOut;

static_assert(sizeof(CUipcMemHandle) == streamhal::kIpcHandleSize, "CU_IPC_HANDLE_SIZE");
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

}  // extern "C"
