#include "cuda_binding/src/error_strings.h"

#include "core/c_enum.h"

namespace streamhal::cuda {
namespace {

struct ResultText {
  const char* name;
  const char* description;
};

// One case per enumerator and no default label: -Wswitch (an error in this
// build) rejects a CUresult enumerator added to cuda.h without an entry here.
// The name is the stringized enumerator, so it cannot drift from cuda.h.
const ResultText* Find(int r) {
  // Only a number in the enumerators' range is a CUresult value; the switch
  // is on the enum so -Wswitch still sees every enumerator.
  if (!EnumInRange(r, CUDA_SUCCESS, CUDA_ERROR_UNKNOWN)) return nullptr;
  switch (static_cast<CUresult>(r)) {
#define SH_RESULT_TEXT(code, text)                  \
  case code: {                                      \
    static constexpr ResultText kText{#code, text}; \
    return &kText;                                  \
  }
    SH_RESULT_TEXT(CUDA_SUCCESS, "no error")
    SH_RESULT_TEXT(CUDA_ERROR_INVALID_VALUE, "invalid argument value")
    SH_RESULT_TEXT(CUDA_ERROR_OUT_OF_MEMORY, "out of device or host memory")
    SH_RESULT_TEXT(CUDA_ERROR_NOT_INITIALIZED, "driver not initialized; call cuInit first")
    SH_RESULT_TEXT(CUDA_ERROR_DEINITIALIZED, "driver is shutting down or was deinitialized")
    SH_RESULT_TEXT(CUDA_ERROR_PROFILER_DISABLED, "profiler is disabled for this run")
    SH_RESULT_TEXT(CUDA_ERROR_PROFILER_NOT_INITIALIZED, "profiler not initialized (deprecated)")
    SH_RESULT_TEXT(CUDA_ERROR_PROFILER_ALREADY_STARTED, "profiler already started (deprecated)")
    SH_RESULT_TEXT(CUDA_ERROR_PROFILER_ALREADY_STOPPED, "profiler already stopped (deprecated)")
    SH_RESULT_TEXT(CUDA_ERROR_STUB_LIBRARY, "a stub library was loaded instead of a working driver")
    SH_RESULT_TEXT(CUDA_ERROR_DEVICE_UNAVAILABLE, "device is busy or unavailable")
    SH_RESULT_TEXT(CUDA_ERROR_NO_DEVICE, "no usable device found")
    SH_RESULT_TEXT(CUDA_ERROR_INVALID_DEVICE, "invalid device ordinal")
    SH_RESULT_TEXT(CUDA_ERROR_DEVICE_NOT_LICENSED, "device is not licensed for this operation")
    SH_RESULT_TEXT(CUDA_ERROR_INVALID_IMAGE, "invalid or malformed kernel image")
    SH_RESULT_TEXT(CUDA_ERROR_INVALID_CONTEXT, "invalid context, or no context is current")
    SH_RESULT_TEXT(CUDA_ERROR_CONTEXT_ALREADY_CURRENT, "context already current (deprecated)")
    SH_RESULT_TEXT(CUDA_ERROR_MAP_FAILED, "mapping failed")
    SH_RESULT_TEXT(CUDA_ERROR_UNMAP_FAILED, "unmapping failed")
    SH_RESULT_TEXT(CUDA_ERROR_ARRAY_IS_MAPPED, "array is mapped and cannot be destroyed")
    SH_RESULT_TEXT(CUDA_ERROR_ALREADY_MAPPED, "resource already mapped")
    SH_RESULT_TEXT(CUDA_ERROR_NO_BINARY_FOR_GPU, "no kernel image suitable for this device")
    SH_RESULT_TEXT(CUDA_ERROR_ALREADY_ACQUIRED, "resource already acquired")
    SH_RESULT_TEXT(CUDA_ERROR_NOT_MAPPED, "resource not mapped")
    SH_RESULT_TEXT(CUDA_ERROR_NOT_MAPPED_AS_ARRAY, "mapped resource is not available as an array")
    SH_RESULT_TEXT(CUDA_ERROR_NOT_MAPPED_AS_POINTER,
                   "mapped resource is not available as a pointer")
    SH_RESULT_TEXT(CUDA_ERROR_ECC_UNCORRECTABLE, "uncorrectable memory ECC error")
    SH_RESULT_TEXT(CUDA_ERROR_UNSUPPORTED_LIMIT, "limit not supported by this device")
    SH_RESULT_TEXT(CUDA_ERROR_CONTEXT_ALREADY_IN_USE, "context already in use by another thread")
    SH_RESULT_TEXT(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED,
                   "peer access not supported between these devices")
    SH_RESULT_TEXT(CUDA_ERROR_INVALID_PTX, "kernel source failed to compile for this device")
    SH_RESULT_TEXT(CUDA_ERROR_INVALID_GRAPHICS_CONTEXT, "invalid graphics interoperability context")
    SH_RESULT_TEXT(CUDA_ERROR_NVLINK_UNCORRECTABLE, "uncorrectable NVLink error")
    SH_RESULT_TEXT(CUDA_ERROR_JIT_COMPILER_NOT_FOUND, "just-in-time compiler not available")
    SH_RESULT_TEXT(CUDA_ERROR_UNSUPPORTED_PTX_VERSION, "unsupported PTX version in kernel source")
    SH_RESULT_TEXT(CUDA_ERROR_JIT_COMPILATION_DISABLED, "just-in-time compilation is disabled")
    SH_RESULT_TEXT(CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY, "execution affinity type not supported")
    SH_RESULT_TEXT(CUDA_ERROR_INVALID_SOURCE, "invalid kernel source")
    SH_RESULT_TEXT(CUDA_ERROR_FILE_NOT_FOUND, "file not found")
    SH_RESULT_TEXT(CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND,
                   "shared object symbol could not be resolved")
    SH_RESULT_TEXT(CUDA_ERROR_SHARED_OBJECT_INIT_FAILED, "shared object initialization failed")
    SH_RESULT_TEXT(CUDA_ERROR_OPERATING_SYSTEM, "operating system call failed")
    SH_RESULT_TEXT(CUDA_ERROR_INVALID_HANDLE, "invalid, destroyed or wrong kind of handle")
    SH_RESULT_TEXT(CUDA_ERROR_ILLEGAL_STATE, "operation not valid in the current state")
    SH_RESULT_TEXT(CUDA_ERROR_NOT_FOUND, "named symbol not found")
    SH_RESULT_TEXT(CUDA_ERROR_NOT_READY, "operation not yet complete")
    SH_RESULT_TEXT(CUDA_ERROR_ILLEGAL_ADDRESS, "kernel accessed an illegal memory address")
    SH_RESULT_TEXT(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES,
                   "launch requests more resources than are available")
    SH_RESULT_TEXT(CUDA_ERROR_LAUNCH_TIMEOUT, "kernel exceeded the execution time limit")
    SH_RESULT_TEXT(CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING,
                   "launch uses an incompatible texturing mode")
    SH_RESULT_TEXT(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, "peer access already enabled")
    SH_RESULT_TEXT(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, "peer access not enabled")
    SH_RESULT_TEXT(CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE, "primary context already active")
    SH_RESULT_TEXT(CUDA_ERROR_CONTEXT_IS_DESTROYED, "context has been destroyed")
    SH_RESULT_TEXT(CUDA_ERROR_ASSERT, "device-side assertion failed")
    SH_RESULT_TEXT(CUDA_ERROR_TOO_MANY_PEERS, "too many peer mappings")
    SH_RESULT_TEXT(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
                   "host memory range already registered")
    SH_RESULT_TEXT(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, "host memory range not registered")
    SH_RESULT_TEXT(CUDA_ERROR_HARDWARE_STACK_ERROR, "kernel hit a hardware stack error")
    SH_RESULT_TEXT(CUDA_ERROR_ILLEGAL_INSTRUCTION, "kernel executed an illegal instruction")
    SH_RESULT_TEXT(CUDA_ERROR_MISALIGNED_ADDRESS, "kernel used a misaligned address")
    SH_RESULT_TEXT(CUDA_ERROR_INVALID_ADDRESS_SPACE,
                   "kernel used an address in the wrong address space")
    SH_RESULT_TEXT(CUDA_ERROR_INVALID_PC, "kernel program counter became invalid")
    SH_RESULT_TEXT(CUDA_ERROR_LAUNCH_FAILED, "kernel launch failed")
    SH_RESULT_TEXT(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
                   "cooperative launch has more blocks than can run at once")
    SH_RESULT_TEXT(CUDA_ERROR_NOT_PERMITTED, "operation not permitted")
    SH_RESULT_TEXT(CUDA_ERROR_NOT_SUPPORTED, "operation not supported on this device")
    SH_RESULT_TEXT(CUDA_ERROR_SYSTEM_NOT_READY, "system not ready")
    SH_RESULT_TEXT(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH,
                   "driver and kernel module versions do not match")
    SH_RESULT_TEXT(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE,
                   "forward compatibility not supported on this device")
    SH_RESULT_TEXT(CUDA_ERROR_MPS_CONNECTION_FAILED,
                   "could not connect to the multi-process service")
    SH_RESULT_TEXT(CUDA_ERROR_MPS_RPC_FAILURE, "remote call to the multi-process service failed")
    SH_RESULT_TEXT(CUDA_ERROR_MPS_SERVER_NOT_READY, "multi-process service server not ready")
    SH_RESULT_TEXT(CUDA_ERROR_MPS_MAX_CLIENTS_REACHED, "multi-process service client limit reached")
    SH_RESULT_TEXT(CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED,
                   "multi-process service connection limit reached")
    SH_RESULT_TEXT(CUDA_ERROR_MPS_CLIENT_TERMINATED, "multi-process service client was terminated")
    SH_RESULT_TEXT(CUDA_ERROR_CDP_NOT_SUPPORTED, "dynamic parallelism not supported")
    SH_RESULT_TEXT(CUDA_ERROR_CDP_VERSION_MISMATCH, "dynamic parallelism version mismatch")
    SH_RESULT_TEXT(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
                   "operation not permitted while a stream is capturing")
    SH_RESULT_TEXT(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
                   "stream capture was invalidated by an earlier error")
    SH_RESULT_TEXT(CUDA_ERROR_STREAM_CAPTURE_MERGE, "operation would merge two separate captures")
    SH_RESULT_TEXT(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED, "capture was not started in this stream")
    SH_RESULT_TEXT(CUDA_ERROR_STREAM_CAPTURE_UNJOINED,
                   "capture forked into a stream that was not joined back")
    SH_RESULT_TEXT(CUDA_ERROR_STREAM_CAPTURE_ISOLATION,
                   "dependency would cross the capture boundary")
    SH_RESULT_TEXT(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, "implicit dependency on a capturing stream")
    SH_RESULT_TEXT(CUDA_ERROR_CAPTURED_EVENT,
                   "operation not permitted on an event recorded in a capture")
    SH_RESULT_TEXT(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD,
                   "stream capture used from the wrong thread")
    SH_RESULT_TEXT(CUDA_ERROR_TIMEOUT, "wait timed out")
    SH_RESULT_TEXT(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE,
                   "executable graph cannot take these changes in place")
    SH_RESULT_TEXT(CUDA_ERROR_EXTERNAL_DEVICE, "asynchronous error in an external device")
    SH_RESULT_TEXT(CUDA_ERROR_INVALID_CLUSTER_SIZE, "invalid cluster size for this launch")
    SH_RESULT_TEXT(CUDA_ERROR_UNKNOWN, "unknown internal error")
#undef SH_RESULT_TEXT
  }
  return nullptr;
}

}  // namespace

const char* ResultName(int r) {
  const ResultText* text = Find(r);
  return text == nullptr ? nullptr : text->name;
}

const char* ResultString(int r) {
  const ResultText* text = Find(r);
  return text == nullptr ? nullptr : text->description;
}

}  // namespace streamhal::cuda
