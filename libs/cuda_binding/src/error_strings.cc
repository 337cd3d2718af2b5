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
//
// The descriptions are the strings NVIDIA's driver returns from
// cuGetErrorString, character for character (capitals, the full stop after
// CUDA_ERROR_UNSUPPORTED_PTX_VERSION and the spelling "occured" included), so
// a program that prints or compares them sees what it sees on NVIDIA's
// driver. Two codes share a text there as here (CUDA_ERROR_INVALID_IMAGE and
// CUDA_ERROR_INVALID_SOURCE). The texts of CUDA_ERROR_CDP_NOT_SUPPORTED and
// CUDA_ERROR_CDP_VERSION_MISMATCH come from a single published table of the
// driver's strings and could not be checked against a second one.
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
    SH_RESULT_TEXT(CUDA_ERROR_INVALID_VALUE, "invalid argument")
    SH_RESULT_TEXT(CUDA_ERROR_OUT_OF_MEMORY, "out of memory")
    SH_RESULT_TEXT(CUDA_ERROR_NOT_INITIALIZED, "initialization error")
    SH_RESULT_TEXT(CUDA_ERROR_DEINITIALIZED, "driver shutting down")
    SH_RESULT_TEXT(CUDA_ERROR_PROFILER_DISABLED,
                   "profiler disabled while using external profiling tool")
    SH_RESULT_TEXT(CUDA_ERROR_PROFILER_NOT_INITIALIZED,
                   "profiler not initialized: call cudaProfilerInitialize()")
    SH_RESULT_TEXT(CUDA_ERROR_PROFILER_ALREADY_STARTED, "profiler already started")
    SH_RESULT_TEXT(CUDA_ERROR_PROFILER_ALREADY_STOPPED, "profiler already stopped")
    SH_RESULT_TEXT(CUDA_ERROR_STUB_LIBRARY, "CUDA driver is a stub library")
    SH_RESULT_TEXT(CUDA_ERROR_DEVICE_UNAVAILABLE,
                   "CUDA-capable device(s) is/are busy or unavailable")
    SH_RESULT_TEXT(CUDA_ERROR_NO_DEVICE, "no CUDA-capable device is detected")
    SH_RESULT_TEXT(CUDA_ERROR_INVALID_DEVICE, "invalid device ordinal")
    SH_RESULT_TEXT(CUDA_ERROR_DEVICE_NOT_LICENSED, "device doesn't have valid Grid license")
    SH_RESULT_TEXT(CUDA_ERROR_INVALID_IMAGE, "device kernel image is invalid")
    SH_RESULT_TEXT(CUDA_ERROR_INVALID_CONTEXT, "invalid device context")
    SH_RESULT_TEXT(CUDA_ERROR_CONTEXT_ALREADY_CURRENT, "context already current")
    SH_RESULT_TEXT(CUDA_ERROR_MAP_FAILED, "mapping of buffer object failed")
    SH_RESULT_TEXT(CUDA_ERROR_UNMAP_FAILED, "unmapping of buffer object failed")
    SH_RESULT_TEXT(CUDA_ERROR_ARRAY_IS_MAPPED, "array is mapped")
    SH_RESULT_TEXT(CUDA_ERROR_ALREADY_MAPPED, "resource already mapped")
    SH_RESULT_TEXT(CUDA_ERROR_NO_BINARY_FOR_GPU,
                   "no kernel image is available for execution on the device")
    SH_RESULT_TEXT(CUDA_ERROR_ALREADY_ACQUIRED, "resource already acquired")
    SH_RESULT_TEXT(CUDA_ERROR_NOT_MAPPED, "resource not mapped")
    SH_RESULT_TEXT(CUDA_ERROR_NOT_MAPPED_AS_ARRAY, "resource not mapped as array")
    SH_RESULT_TEXT(CUDA_ERROR_NOT_MAPPED_AS_POINTER, "resource not mapped as pointer")
    SH_RESULT_TEXT(CUDA_ERROR_ECC_UNCORRECTABLE, "uncorrectable ECC error encountered")
    SH_RESULT_TEXT(CUDA_ERROR_UNSUPPORTED_LIMIT, "limit is not supported on this architecture")
    SH_RESULT_TEXT(CUDA_ERROR_CONTEXT_ALREADY_IN_USE,
                   "exclusive-thread device already in use by a different thread")
    SH_RESULT_TEXT(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED,
                   "peer access is not supported between these two devices")
    SH_RESULT_TEXT(CUDA_ERROR_INVALID_PTX, "a PTX JIT compilation failed")
    SH_RESULT_TEXT(CUDA_ERROR_INVALID_GRAPHICS_CONTEXT, "invalid OpenGL or DirectX context")
    SH_RESULT_TEXT(CUDA_ERROR_NVLINK_UNCORRECTABLE,
                   "uncorrectable NVLink error detected during the execution")
    SH_RESULT_TEXT(CUDA_ERROR_JIT_COMPILER_NOT_FOUND, "PTX JIT compiler library not found")
    SH_RESULT_TEXT(CUDA_ERROR_UNSUPPORTED_PTX_VERSION,
                   "the provided PTX was compiled with an unsupported toolchain.")
    SH_RESULT_TEXT(CUDA_ERROR_JIT_COMPILATION_DISABLED, "PTX JIT compilation was disabled")
    SH_RESULT_TEXT(CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY,
                   "the provided execution affinity is not supported")
    SH_RESULT_TEXT(CUDA_ERROR_INVALID_SOURCE, "device kernel image is invalid")
    SH_RESULT_TEXT(CUDA_ERROR_FILE_NOT_FOUND, "file not found")
    SH_RESULT_TEXT(CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND, "shared object symbol not found")
    SH_RESULT_TEXT(CUDA_ERROR_SHARED_OBJECT_INIT_FAILED, "shared object initialization failed")
    SH_RESULT_TEXT(CUDA_ERROR_OPERATING_SYSTEM,
                   "OS call failed or operation not supported on this OS")
    SH_RESULT_TEXT(CUDA_ERROR_INVALID_HANDLE, "invalid resource handle")
    SH_RESULT_TEXT(CUDA_ERROR_ILLEGAL_STATE,
                   "the operation cannot be performed in the present state")
    SH_RESULT_TEXT(CUDA_ERROR_NOT_FOUND, "named symbol not found")
    SH_RESULT_TEXT(CUDA_ERROR_NOT_READY, "device not ready")
    SH_RESULT_TEXT(CUDA_ERROR_ILLEGAL_ADDRESS, "an illegal memory access was encountered")
    SH_RESULT_TEXT(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "too many resources requested for launch")
    SH_RESULT_TEXT(CUDA_ERROR_LAUNCH_TIMEOUT, "the launch timed out and was terminated")
    SH_RESULT_TEXT(CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING,
                   "launch uses incompatible texturing mode")
    SH_RESULT_TEXT(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, "peer access is already enabled")
    SH_RESULT_TEXT(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, "peer access has not been enabled")
    SH_RESULT_TEXT(CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE,
                   "cannot set while device is active in this process")
    SH_RESULT_TEXT(CUDA_ERROR_CONTEXT_IS_DESTROYED, "context is destroyed")
    SH_RESULT_TEXT(CUDA_ERROR_ASSERT, "device-side assert triggered")
    SH_RESULT_TEXT(CUDA_ERROR_TOO_MANY_PEERS, "peer mapping resources exhausted")
    SH_RESULT_TEXT(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
                   "part or all of the requested memory range is already mapped")
    SH_RESULT_TEXT(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED,
                   "pointer does not correspond to a registered memory region")
    SH_RESULT_TEXT(CUDA_ERROR_HARDWARE_STACK_ERROR, "hardware stack error")
    SH_RESULT_TEXT(CUDA_ERROR_ILLEGAL_INSTRUCTION, "an illegal instruction was encountered")
    SH_RESULT_TEXT(CUDA_ERROR_MISALIGNED_ADDRESS, "misaligned address")
    SH_RESULT_TEXT(CUDA_ERROR_INVALID_ADDRESS_SPACE,
                   "operation not supported on global/shared address space")
    SH_RESULT_TEXT(CUDA_ERROR_INVALID_PC, "invalid program counter")
    SH_RESULT_TEXT(CUDA_ERROR_LAUNCH_FAILED, "unspecified launch failure")
    SH_RESULT_TEXT(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, "too many blocks in cooperative launch")
    SH_RESULT_TEXT(CUDA_ERROR_NOT_PERMITTED, "operation not permitted")
    SH_RESULT_TEXT(CUDA_ERROR_NOT_SUPPORTED, "operation not supported")
    SH_RESULT_TEXT(CUDA_ERROR_SYSTEM_NOT_READY, "system not yet initialized")
    SH_RESULT_TEXT(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH,
                   "system has unsupported display driver / cuda driver combination")
    SH_RESULT_TEXT(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE,
                   "forward compatibility was attempted on non supported HW")
    SH_RESULT_TEXT(CUDA_ERROR_MPS_CONNECTION_FAILED,
                   "MPS client failed to connect to the MPS control daemon or the MPS server")
    SH_RESULT_TEXT(CUDA_ERROR_MPS_RPC_FAILURE,
                   "the remote procedural call between the MPS server and the MPS client failed")
    SH_RESULT_TEXT(CUDA_ERROR_MPS_SERVER_NOT_READY,
                   "MPS server is not ready to accept new MPS client requests")
    SH_RESULT_TEXT(CUDA_ERROR_MPS_MAX_CLIENTS_REACHED,
                   "the hardware resources required to create MPS client have been exhausted")
    SH_RESULT_TEXT(
        CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED,
        "the hardware resources required to support device connections have been exhausted")
    SH_RESULT_TEXT(CUDA_ERROR_MPS_CLIENT_TERMINATED,
                   "the MPS client has been terminated by the server")
    SH_RESULT_TEXT(CUDA_ERROR_CDP_NOT_SUPPORTED,
                   "is using CUDA Dynamic Parallelism, but the current configuration, like MPS, "
                   "does not support it")
    SH_RESULT_TEXT(CUDA_ERROR_CDP_VERSION_MISMATCH,
                   "unsupported interaction between different versions of CUDA Dynamic Parallelism")
    SH_RESULT_TEXT(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
                   "operation not permitted when stream is capturing")
    SH_RESULT_TEXT(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
                   "operation failed due to a previous error during capture")
    SH_RESULT_TEXT(CUDA_ERROR_STREAM_CAPTURE_MERGE,
                   "operation would result in a merge of separate capture sequences")
    SH_RESULT_TEXT(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED,
                   "capture was not ended in the same stream as it began")
    SH_RESULT_TEXT(CUDA_ERROR_STREAM_CAPTURE_UNJOINED, "capturing stream has unjoined work")
    SH_RESULT_TEXT(CUDA_ERROR_STREAM_CAPTURE_ISOLATION,
                   "dependency created on uncaptured work in another stream")
    SH_RESULT_TEXT(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT,
                   "operation would make the legacy stream depend on a capturing blocking stream")
    SH_RESULT_TEXT(CUDA_ERROR_CAPTURED_EVENT,
                   "operation not permitted on an event last recorded in a capturing stream")
    SH_RESULT_TEXT(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD,
                   "attempt to terminate a thread-local capture sequence from another thread")
    SH_RESULT_TEXT(CUDA_ERROR_TIMEOUT, "wait operation timed out")
    SH_RESULT_TEXT(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE,
                   "the graph update was not performed because it included changes which violated "
                   "constraints specific to instantiated graph update")
    SH_RESULT_TEXT(CUDA_ERROR_EXTERNAL_DEVICE,
                   "an async error has occured in external entity outside of CUDA")
    SH_RESULT_TEXT(CUDA_ERROR_INVALID_CLUSTER_SIZE,
                   "a kernel launch error has occurred due to cluster misconfiguration")
    SH_RESULT_TEXT(CUDA_ERROR_UNKNOWN, "unknown error")
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
