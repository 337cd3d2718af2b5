// Streams (cuStream*, cuLaunchHostFunc).
#include <cuda.h>

#include "core/handle.h"
#include "core/stream.h"
#include "result.h"

using streamhal::HandleOut;
using streamhal::HandleValue;
using streamhal::cuda::ToCUresult;

extern "C" {

CUresult cuStreamCreate(CUstream* stream, unsigned int flags) {
  return ToCUresult(streamhal::StreamCreate(HandleOut(stream), flags, 0));
}

CUresult cuStreamCreateWithPriority(CUstream* stream, unsigned int flags, int priority) {
  return ToCUresult(streamhal::StreamCreate(HandleOut(stream), flags, priority));
}

CUresult cuStreamDestroy(CUstream stream) {
  return ToCUresult(streamhal::StreamDestroy(HandleValue(stream)));
}

CUresult cuStreamGetPriority(CUstream stream, int* priority) {
  return ToCUresult(streamhal::StreamGetPriority(HandleValue(stream), priority));
}

CUresult cuStreamGetFlags(CUstream stream, unsigned int* flags) {
  return ToCUresult(streamhal::StreamGetFlags(HandleValue(stream), flags));
}

CUresult cuStreamGetCtx(CUstream stream, CUcontext* pctx) {
  return ToCUresult(streamhal::StreamGetContext(HandleValue(stream), HandleOut(pctx)));
}

CUresult cuStreamWaitEvent(CUstream stream, CUevent event, unsigned int flags) {
  return ToCUresult(streamhal::StreamWaitEvent(HandleValue(stream), HandleValue(event), flags));
}

CUresult cuStreamQuery(CUstream stream) {
  return ToCUresult(streamhal::StreamQuery(HandleValue(stream)));
}

CUresult cuStreamSynchronize(CUstream stream) {
  return ToCUresult(streamhal::StreamSynchronize(HandleValue(stream)));
}

CUresult cuStreamCopyAttributes(CUstream dst, CUstream src) {
  return ToCUresult(streamhal::StreamCopyAttributes(HandleValue(dst), HandleValue(src)));
}

CUresult cuLaunchHostFunc(CUstream stream, CUhostFn fn, void* user_data) {
  return ToCUresult(streamhal::LaunchHostFunc(HandleValue(stream), fn, user_data));
}

CUresult cuStreamAddCallback(CUstream stream, CUstreamCallback callback, void* user_data,
                             unsigned int flags) {
  struct Call {
    CUstreamCallback callback;
    void* user_data;
  };
  auto* call = callback != nullptr ? new Call{callback, user_data} : nullptr;
  const CUresult result = ToCUresult(streamhal::StreamAddCallback(
      HandleValue(stream), flags,
      call == nullptr ? nullptr : +[](uint64_t handle, void* raw) {
        auto* c = static_cast<Call*>(raw);
        c->callback(streamhal::ToApiHandle<CUstream>(handle), CUDA_SUCCESS, c->user_data);
        delete c;
      },
      call));
  if (result != CUDA_SUCCESS) delete call;
  return result;
}

}  // extern "C"
