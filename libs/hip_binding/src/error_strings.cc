#include "hip_binding/src/error_strings.h"

#include "core/c_enum.h"

namespace streamhal::hip {
namespace {

struct ErrorText {
  const char* name;
  const char* description;
};

// One switch without a default: -Wswitch (part of -Wall, an error here) names
// any enumerator this table forgets. Deprecated spellings share their value
// with a current enumerator, so they are covered by that case.
constexpr ErrorText Lookup(int e) {
  // Only a number in the enumerators' range is a hipError_t value; the
  // switch is on the enum so -Wswitch still sees every enumerator.
  if (!EnumInRange(e, hipSuccess, hipErrorTbd)) return {nullptr, nullptr};
  switch (static_cast<hipError_t>(e)) {
    case hipSuccess:
      return {"hipSuccess", "no error"};
    case hipErrorInvalidValue:
      return {"hipErrorInvalidValue", "an argument is null or outside its accepted range"};
    case hipErrorOutOfMemory:
      return {"hipErrorOutOfMemory", "the device or host ran out of memory for the request"};
    case hipErrorNotInitialized:
      return {"hipErrorNotInitialized", "the runtime has not been initialized with hipInit"};
    case hipErrorDeinitialized:
      return {"hipErrorDeinitialized", "the runtime is shutting down or has been shut down"};
    case hipErrorProfilerDisabled:
      return {"hipErrorProfilerDisabled", "profiling is disabled for this process"};
    case hipErrorProfilerNotInitialized:
      return {"hipErrorProfilerNotInitialized", "the profiler has not been initialized"};
    case hipErrorProfilerAlreadyStarted:
      return {"hipErrorProfilerAlreadyStarted", "profiling was already started"};
    case hipErrorProfilerAlreadyStopped:
      return {"hipErrorProfilerAlreadyStopped", "profiling was already stopped"};
    case hipErrorInvalidConfiguration:
      return {"hipErrorInvalidConfiguration",
              "the launch configuration (grid, block or shared memory) is not valid"};
    case hipErrorInvalidPitchValue:
      return {"hipErrorInvalidPitchValue", "the pitch argument is not valid"};
    case hipErrorInvalidSymbol:
      return {"hipErrorInvalidSymbol", "the symbol does not name a device variable"};
    case hipErrorInvalidDevicePointer:
      return {"hipErrorInvalidDevicePointer", "the pointer is not a valid device pointer"};
    case hipErrorInvalidMemcpyDirection:
      return {"hipErrorInvalidMemcpyDirection",
              "the copy direction does not match the pointers or is not a known kind"};
    case hipErrorInsufficientDriver:
      return {"hipErrorInsufficientDriver", "the installed driver is too old for this runtime"};
    case hipErrorMissingConfiguration:
      return {"hipErrorMissingConfiguration", "a launch was requested without a configuration"};
    case hipErrorPriorLaunchFailure:
      return {"hipErrorPriorLaunchFailure", "an earlier kernel launch failed"};
    case hipErrorInvalidDeviceFunction:
      return {"hipErrorInvalidDeviceFunction", "the function is not a kernel for this device"};
    case hipErrorNoDevice:
      return {"hipErrorNoDevice", "no usable device was found"};
    case hipErrorInvalidDevice:
      return {"hipErrorInvalidDevice", "the device ordinal does not name a device"};
    case hipErrorInvalidImage:
      return {"hipErrorInvalidImage", "the kernel image is malformed or of an unknown format"};
    case hipErrorInvalidContext:
      return {"hipErrorInvalidContext", "there is no current context or the context is invalid"};
    case hipErrorContextAlreadyCurrent:
      return {"hipErrorContextAlreadyCurrent", "the context is already current to this thread"};
    case hipErrorMapFailed:
      return {"hipErrorMapFailed", "mapping the memory failed"};
    case hipErrorUnmapFailed:
      return {"hipErrorUnmapFailed", "unmapping the memory failed"};
    case hipErrorArrayIsMapped:
      return {"hipErrorArrayIsMapped", "the array is mapped and cannot be destroyed"};
    case hipErrorAlreadyMapped:
      return {"hipErrorAlreadyMapped", "the resource is already mapped"};
    case hipErrorNoBinaryForGpu:
      return {"hipErrorNoBinaryForGpu", "the image holds no code object for this device"};
    case hipErrorAlreadyAcquired:
      return {"hipErrorAlreadyAcquired", "the resource has already been acquired"};
    case hipErrorNotMapped:
      return {"hipErrorNotMapped", "the resource is not mapped"};
    case hipErrorNotMappedAsArray:
      return {"hipErrorNotMappedAsArray", "the resource is not mapped as an array"};
    case hipErrorNotMappedAsPointer:
      return {"hipErrorNotMappedAsPointer", "the resource is not mapped as a pointer"};
    case hipErrorECCNotCorrectable:
      return {"hipErrorECCNotCorrectable", "an uncorrectable memory error was detected"};
    case hipErrorUnsupportedLimit:
      return {"hipErrorUnsupportedLimit", "the limit is not supported by this device"};
    case hipErrorContextAlreadyInUse:
      return {"hipErrorContextAlreadyInUse", "the context is already in use by another thread"};
    case hipErrorPeerAccessUnsupported:
      return {"hipErrorPeerAccessUnsupported", "peer access between these devices is impossible"};
    case hipErrorInvalidKernelFile:
      return {"hipErrorInvalidKernelFile", "the kernel source or file failed to compile"};
    case hipErrorInvalidGraphicsContext:
      return {"hipErrorInvalidGraphicsContext", "the graphics context is not valid"};
    case hipErrorInvalidSource:
      return {"hipErrorInvalidSource", "the kernel source is not valid"};
    case hipErrorFileNotFound:
      return {"hipErrorFileNotFound", "the file could not be opened"};
    case hipErrorSharedObjectSymbolNotFound:
      return {"hipErrorSharedObjectSymbolNotFound", "a symbol the code object needs is missing"};
    case hipErrorSharedObjectInitFailed:
      return {"hipErrorSharedObjectInitFailed", "initializing the code object failed"};
    case hipErrorOperatingSystem:
      return {"hipErrorOperatingSystem", "an operating system call failed"};
    case hipErrorInvalidHandle:
      return {"hipErrorInvalidHandle", "the handle is null, destroyed or of the wrong kind"};
    case hipErrorIllegalState:
      return {"hipErrorIllegalState", "the operation is not allowed in the current state"};
    case hipErrorNotFound:
      return {"hipErrorNotFound", "the named symbol or object was not found"};
    case hipErrorNotReady:
      return {"hipErrorNotReady", "the queued work has not finished yet"};
    case hipErrorIllegalAddress:
      return {"hipErrorIllegalAddress", "a kernel accessed an invalid address"};
    case hipErrorLaunchOutOfResources:
      return {"hipErrorLaunchOutOfResources",
              "the launch needs more resources than the device has"};
    case hipErrorLaunchTimeOut:
      return {"hipErrorLaunchTimeOut", "the kernel ran past the time limit"};
    case hipErrorPeerAccessAlreadyEnabled:
      return {"hipErrorPeerAccessAlreadyEnabled", "peer access is already enabled"};
    case hipErrorPeerAccessNotEnabled:
      return {"hipErrorPeerAccessNotEnabled", "peer access has not been enabled"};
    case hipErrorSetOnActiveProcess:
      return {"hipErrorSetOnActiveProcess", "the setting cannot change once the device is in use"};
    case hipErrorContextIsDestroyed:
      return {"hipErrorContextIsDestroyed", "the context has been destroyed"};
    case hipErrorAssert:
      return {"hipErrorAssert", "a kernel assertion failed"};
    case hipErrorHostMemoryAlreadyRegistered:
      return {"hipErrorHostMemoryAlreadyRegistered", "the host range is already registered"};
    case hipErrorHostMemoryNotRegistered:
      return {"hipErrorHostMemoryNotRegistered", "the host range is not registered"};
    case hipErrorLaunchFailure:
      return {"hipErrorLaunchFailure", "the kernel failed while executing"};
    case hipErrorCooperativeLaunchTooLarge:
      return {"hipErrorCooperativeLaunchTooLarge",
              "the cooperative grid is larger than can be resident at once"};
    case hipErrorNotSupported:
      return {"hipErrorNotSupported", "the operation is not supported"};
    case hipErrorStreamCaptureUnsupported:
      return {"hipErrorStreamCaptureUnsupported", "the operation is not allowed while capturing"};
    case hipErrorStreamCaptureInvalidated:
      return {"hipErrorStreamCaptureInvalidated",
              "the capture was invalidated by an earlier error"};
    case hipErrorStreamCaptureMerge:
      return {"hipErrorStreamCaptureMerge", "the operation would merge two separate captures"};
    case hipErrorStreamCaptureUnmatched:
      return {"hipErrorStreamCaptureUnmatched", "the capture was not begun on this stream"};
    case hipErrorStreamCaptureUnjoined:
      return {"hipErrorStreamCaptureUnjoined",
              "the capture forked into a stream that was not joined back"};
    case hipErrorStreamCaptureIsolation:
      return {"hipErrorStreamCaptureIsolation",
              "the dependency would cross the boundary of the capture"};
    case hipErrorStreamCaptureImplicit:
      return {"hipErrorStreamCaptureImplicit",
              "the operation would depend implicitly on a capturing stream"};
    case hipErrorCapturedEvent:
      return {"hipErrorCapturedEvent", "the event was last recorded in a capturing stream"};
    case hipErrorStreamCaptureWrongThread:
      return {"hipErrorStreamCaptureWrongThread",
              "the capture must be ended by the thread that began it"};
    case hipErrorGraphExecUpdateFailure:
      return {"hipErrorGraphExecUpdateFailure",
              "the executable graph cannot take the requested update"};
    case hipErrorUnknown:
      return {"hipErrorUnknown", "an unknown error occurred"};
    case hipErrorRuntimeMemory:
      return {"hipErrorRuntimeMemory", "a memory call of the underlying runtime failed"};
    case hipErrorRuntimeOther:
      return {"hipErrorRuntimeOther", "a call of the underlying runtime failed"};
    case hipErrorTbd:
      return {"hipErrorTbd", "end-of-range marker; no call returns it"};
  }
  // Numbers inside the range that no enumerator names land here.
  return {nullptr, nullptr};
}

}  // namespace

const char* ErrorName(int e) { return Lookup(e).name; }

const char* ErrorString(int e) { return Lookup(e).description; }

}  // namespace streamhal::hip
