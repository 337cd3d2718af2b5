// Streams (cuStream*, cuLaunchHostFunc).
#include "core/stream.h"

#include <cuda.h>

#include <cstdint>

#include "core/c_enum.h"
#include "core/handle.h"
#include "result.h"

using streamhal::HandleOut;
using streamhal::HandleValue;
using streamhal::MemOpApi;
using streamhal::StreamMemOp;
using streamhal::cuda::ToCUresult;

namespace {

StreamMemOp ToCore(const CUstreamBatchMemOpParams& params) {
  StreamMemOp op;
  op.operation = streamhal::EnumArgument(params.operation);
  switch (op.operation) {
    case CU_STREAM_MEM_OP_WAIT_VALUE_32:
    case CU_STREAM_MEM_OP_WAIT_VALUE_64:
      op.address = params.waitValue.address;
      op.value = op.operation == CU_STREAM_MEM_OP_WAIT_VALUE_64 ? params.waitValue.value64
                                                                : params.waitValue.value;
      op.flags = params.waitValue.flags;
      break;
    case CU_STREAM_MEM_OP_WRITE_VALUE_32:
    case CU_STREAM_MEM_OP_WRITE_VALUE_64:
      op.address = params.writeValue.address;
      op.value = op.operation == CU_STREAM_MEM_OP_WRITE_VALUE_64 ? params.writeValue.value64
                                                                 : params.writeValue.value;
      op.flags = params.writeValue.flags;
      break;
    case CU_STREAM_MEM_OP_BARRIER:
      op.flags = params.memoryBarrier.flags;
      break;
    case CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES:
      op.flags = params.flushRemoteWrites.flags;
      break;
    default:
      break;
  }
  return op;
}

}  // namespace

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

CUresult cuStreamWaitValue32(CUstream stream, CUdeviceptr addr, cuuint32_t value,
                             unsigned int flags) {
  return ToCUresult(streamhal::StreamWaitValue(HandleValue(stream), addr, value, ~uint64_t{0},
                                               flags, 4, MemOpApi::kCuda));
}

CUresult cuStreamWaitValue64(CUstream stream, CUdeviceptr addr, cuuint64_t value,
                             unsigned int flags) {
  return ToCUresult(streamhal::StreamWaitValue(HandleValue(stream), addr, value, ~uint64_t{0},
                                               flags, 8, MemOpApi::kCuda));
}

CUresult cuStreamWriteValue32(CUstream stream, CUdeviceptr addr, cuuint32_t value,
                              unsigned int flags) {
  return ToCUresult(
      streamhal::StreamWriteValue(HandleValue(stream), addr, value, flags, 4, MemOpApi::kCuda));
}

CUresult cuStreamWriteValue64(CUstream stream, CUdeviceptr addr, cuuint64_t value,
                              unsigned int flags) {
  return ToCUresult(
      streamhal::StreamWriteValue(HandleValue(stream), addr, value, flags, 8, MemOpApi::kCuda));
}

CUresult cuStreamBatchMemOp(CUstream stream, unsigned int count,
                            CUstreamBatchMemOpParams* paramArray, unsigned int flags) {
  return ToCUresult(streamhal::StreamBatchMemOp(
      HandleValue(stream), count, paramArray,
      [&](unsigned index) { return ToCore(paramArray[index]); }, flags, MemOpApi::kCuda));
}

CUresult cuStreamGetId(CUstream hStream, unsigned long long* streamId) {
  return ToCUresult(streamhal::StreamGetId(HandleValue(hStream), streamId));
}

CUresult cuStreamGetDevice(CUstream hStream, CUdevice* device) {
  return ToCUresult(streamhal::StreamGetDevice(HandleValue(hStream), device));
}

}  // extern "C"
