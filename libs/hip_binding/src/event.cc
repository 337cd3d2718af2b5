// Events (hipEvent*).
#include "core/event.h"

#include <hip/hip_runtime_api.h>

#include "call.h"
#include "core/handle.h"

using streamhal::HandleOut;
using streamhal::HandleValue;
using streamhal::hip::RuntimeCall;

extern "C" {

hipError_t hipEventCreate(hipEvent_t* event) {
  return RuntimeCall([&] { return streamhal::EventCreate(HandleOut(event), 0); });
}

hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned flags) {
  return RuntimeCall(
      [&] { return streamhal::EventCreate(HandleOut(event), flags, streamhal::Api::kHip); });
}

hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream) {
  return RuntimeCall(
      [&] { return streamhal::EventRecord(HandleValue(event), HandleValue(stream)); });
}

hipError_t hipEventQuery(hipEvent_t event) {
  return RuntimeCall([&] { return streamhal::EventQuery(HandleValue(event)); });
}

hipError_t hipEventSynchronize(hipEvent_t event) {
  return RuntimeCall([&] { return streamhal::EventSynchronize(HandleValue(event)); });
}

hipError_t hipEventDestroy(hipEvent_t event) {
  return RuntimeCall([&] { return streamhal::EventDestroy(HandleValue(event)); });
}

hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop) {
  return RuntimeCall(
      [&] { return streamhal::EventElapsedTime(ms, HandleValue(start), HandleValue(stop)); });
}

}  // extern "C"
