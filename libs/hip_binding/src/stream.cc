// Streams (hipStream*, hipLaunchHostFunc).
#include "core/stream.h"

#include <hip/hip_runtime_api.h>

#include <cstdint>

#include "call.h"
#include "core/c_enum.h"
#include "core/handle.h"

using streamhal::HandleOut;
using streamhal::HandleValue;
using streamhal::MemOpApi;
using streamhal::StreamMemOp;
using streamhal::hip::Address;
using streamhal::hip::RuntimeCall;

namespace {

StreamMemOp ToCore(const hipStreamBatchMemOpParams& params) {
  StreamMemOp op;
  op.operation = streamhal::EnumArgument(params.operation);
  switch (op.operation) {
    case hipStreamMemOpWaitValue32:
    case hipStreamMemOpWaitValue64:
      op.address = Address(params.waitValue.address);
      op.value = op.operation == hipStreamMemOpWaitValue64 ? params.waitValue.value64
                                                           : params.waitValue.value;
      op.flags = params.waitValue.flags;
      break;
    case hipStreamMemOpWriteValue32:
    case hipStreamMemOpWriteValue64:
      op.address = Address(params.writeValue.address);
      op.value = op.operation == hipStreamMemOpWriteValue64 ? params.writeValue.value64
                                                            : params.writeValue.value;
      op.flags = params.writeValue.flags;
      break;
    case hipStreamMemOpBarrier:
      op.flags = params.memoryBarrier.flags;
      break;
    case hipStreamMemOpFlushRemoteWrites:
      op.flags = params.flushRemoteWrites.flags;
      break;
    default:
      break;
  }
  return op;
}

}  // namespace

extern "C" {

hipError_t hipStreamCreate(hipStream_t* stream) {
  return RuntimeCall([&] { return streamhal::StreamCreate(HandleOut(stream), 0, 0); });
}

hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned int flags) {
  return RuntimeCall([&] { return streamhal::StreamCreate(HandleOut(stream), flags, 0); });
}

hipError_t hipStreamCreateWithPriority(hipStream_t* stream, unsigned int flags, int priority) {
  return RuntimeCall([&] { return streamhal::StreamCreate(HandleOut(stream), flags, priority); });
}

// A Vulkan queue cannot be limited to some compute units: the mask is kept
// and reported back, and the stream may run on every unit.
hipError_t hipExtStreamCreateWithCUMask(hipStream_t* stream, uint32_t cu_mask_size,
                                        const uint32_t* cu_mask) {
  return RuntimeCall(
      [&] { return streamhal::StreamCreateWithCuMask(HandleOut(stream), cu_mask_size, cu_mask); });
}

hipError_t hipExtStreamGetCUMask(hipStream_t stream, uint32_t cu_mask_size, uint32_t* cu_mask) {
  return RuntimeCall(
      [&] { return streamhal::StreamGetCuMask(HandleValue(stream), cu_mask_size, cu_mask); });
}

hipError_t hipStreamDestroy(hipStream_t stream) {
  return RuntimeCall([&] { return streamhal::StreamDestroy(HandleValue(stream)); });
}

hipError_t hipStreamQuery(hipStream_t stream) {
  return RuntimeCall([&] { return streamhal::StreamQuery(HandleValue(stream)); });
}

hipError_t hipStreamSynchronize(hipStream_t stream) {
  return RuntimeCall([&] { return streamhal::StreamSynchronize(HandleValue(stream)); });
}

hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags) {
  return RuntimeCall([&] {
    return streamhal::StreamWaitEvent(HandleValue(stream), HandleValue(event), flags);
  });
}

hipError_t hipStreamGetFlags(hipStream_t stream, unsigned int* flags) {
  return RuntimeCall([&] { return streamhal::StreamGetFlags(HandleValue(stream), flags); });
}

hipError_t hipStreamGetPriority(hipStream_t stream, int* priority) {
  return RuntimeCall([&] { return streamhal::StreamGetPriority(HandleValue(stream), priority); });
}

hipError_t hipStreamGetDevice(hipStream_t stream, hipDevice_t* device) {
  return RuntimeCall([&] { return streamhal::StreamGetDevice(HandleValue(stream), device); });
}

hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void* user_data) {
  return RuntimeCall([&] { return streamhal::LaunchHostFunc(HandleValue(stream), fn, user_data); });
}

hipError_t hipStreamAddCallback(hipStream_t stream, hipStreamCallback_t callback, void* user_data,
                                unsigned int flags) {
  struct Call {
    hipStreamCallback_t callback;
    void* user_data;
  };
  auto* call = callback != nullptr ? new Call{callback, user_data} : nullptr;
  const hipError_t result = RuntimeCall([&] {
    return streamhal::StreamAddCallback(
        HandleValue(stream), flags,
        call == nullptr ? nullptr : +[](uint64_t handle, void* raw) {
          auto* c = static_cast<Call*>(raw);
          c->callback(streamhal::ToApiHandle<hipStream_t>(handle), hipSuccess, c->user_data);
          delete c;
        },
        call);
  });
  if (result != hipSuccess) delete call;
  return result;
}

hipError_t hipStreamWaitValue32(hipStream_t stream, void* ptr, uint32_t value, unsigned int flags,
                                uint32_t mask) {
  return RuntimeCall([&] {
    return streamhal::StreamWaitValue(HandleValue(stream), Address(ptr), value, mask, flags, 4,
                                      MemOpApi::kHip);
  });
}

hipError_t hipStreamWaitValue64(hipStream_t stream, void* ptr, uint64_t value, unsigned int flags,
                                uint64_t mask) {
  return RuntimeCall([&] {
    return streamhal::StreamWaitValue(HandleValue(stream), Address(ptr), value, mask, flags, 8,
                                      MemOpApi::kHip);
  });
}

hipError_t hipStreamWriteValue32(hipStream_t stream, void* ptr, uint32_t value,
                                 unsigned int flags) {
  return RuntimeCall([&] {
    return streamhal::StreamWriteValue(HandleValue(stream), Address(ptr), value, flags, 4,
                                       MemOpApi::kHip);
  });
}

hipError_t hipStreamWriteValue64(hipStream_t stream, void* ptr, uint64_t value,
                                 unsigned int flags) {
  return RuntimeCall([&] {
    return streamhal::StreamWriteValue(HandleValue(stream), Address(ptr), value, flags, 8,
                                       MemOpApi::kHip);
  });
}

hipError_t hipStreamBatchMemOp(hipStream_t stream, unsigned int count,
                               hipStreamBatchMemOpParams* paramArray, unsigned int flags) {
  return RuntimeCall([&] {
    return streamhal::StreamBatchMemOp(
        HandleValue(stream), count, paramArray,
        [&](unsigned index) { return ToCore(paramArray[index]); }, flags, MemOpApi::kHip);
  });
}

}  // extern "C"
