// Events (cuEvent*).
#include <cuda.h>

#include "core/event.h"
#include "core/handle.h"
#include "result.h"

using streamhal::HandleOut;
using streamhal::HandleValue;
using streamhal::cuda::ToCUresult;

extern "C" {

CUresult cuEventCreate(CUevent* event, unsigned int flags) {
  return ToCUresult(streamhal::EventCreate(HandleOut(event), flags));
}

CUresult cuEventRecord(CUevent event, CUstream stream) {
  return ToCUresult(streamhal::EventRecord(HandleValue(event), HandleValue(stream)));
}

CUresult cuEventQuery(CUevent event) { return ToCUresult(streamhal::EventQuery(HandleValue(event))); }

CUresult cuEventSynchronize(CUevent event) {
  return ToCUresult(streamhal::EventSynchronize(HandleValue(event)));
}

CUresult cuEventDestroy(CUevent event) {
  return ToCUresult(streamhal::EventDestroy(HandleValue(event)));
}

CUresult cuEventElapsedTime(float* milliseconds, CUevent start, CUevent end) {
  return ToCUresult(
      streamhal::EventElapsedTime(milliseconds, HandleValue(start), HandleValue(end)));
}

// CUDA 12.8's form (cuEventElapsedTime in CUDA 13.0): the same call.
CUresult cuEventElapsedTime_v2(float* milliseconds, CUevent start, CUevent end) {
  return cuEventElapsedTime(milliseconds, start, end);
}

CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags) {
  static_assert(CU_EVENT_RECORD_EXTERNAL == streamhal::kEventRecordExternal);
  return ToCUresult(
      streamhal::EventRecordWithFlags(HandleValue(hEvent), HandleValue(hStream), flags));
}

}  // extern "C"
