// Initialisation, versions and errors.
#include <hip/hip_runtime_api.h>
#include <hip/hip_version.h>

#include "call.h"
#include "core/c_enum.h"
#include "core/runtime.h"
#include "error_strings.h"
#include "result.h"

using streamhal::hip::Call;
using streamhal::hip::ToHipError;

extern "C" {

hipError_t hipInit(unsigned int flags) { return ToHipError(streamhal::Init(flags)); }

hipError_t hipHALDeinit(void) { return ToHipError(streamhal::Deinit()); }

hipError_t hipDriverGetVersion(int* driver_version) {
  if (driver_version == nullptr) return ToHipError(streamhal::Error(
      streamhal::ErrorCode::kInvalidValue, "hipDriverGetVersion: driverVersion is null"));
  *driver_version = HIP_VERSION;
  return hipSuccess;
}

hipError_t hipRuntimeGetVersion(int* runtime_version) {
  if (runtime_version == nullptr) return ToHipError(streamhal::Error(
      streamhal::ErrorCode::kInvalidValue, "hipRuntimeGetVersion: runtimeVersion is null"));
  *runtime_version = HIP_VERSION;
  return hipSuccess;
}

// For a number with no name or text, AMD's runtime returns (or stores) its
// fixed unknown-code answers; the hipDrvGetError* pair then reports
// hipErrorInvalidValue.
const char* hipGetErrorName(hipError_t error) {
  const char* name = streamhal::hip::ErrorName(streamhal::EnumArgument(error));
  return name != nullptr ? name : streamhal::hip::kUnknownErrorName;
}

const char* hipGetErrorString(hipError_t error) {
  const char* text = streamhal::hip::ErrorString(streamhal::EnumArgument(error));
  return text != nullptr ? text : streamhal::hip::kUnknownErrorString;
}

hipError_t hipDrvGetErrorName(hipError_t error, const char** name) {
  if (name == nullptr) return hipErrorInvalidValue;
  const char* known = streamhal::hip::ErrorName(streamhal::EnumArgument(error));
  *name = known != nullptr ? known : streamhal::hip::kUnknownErrorName;
  return known != nullptr ? hipSuccess : hipErrorInvalidValue;
}

hipError_t hipDrvGetErrorString(hipError_t error, const char** text) {
  if (text == nullptr) return hipErrorInvalidValue;
  const char* known = streamhal::hip::ErrorString(streamhal::EnumArgument(error));
  *text = known != nullptr ? known : streamhal::hip::kUnknownErrorString;
  return known != nullptr ? hipSuccess : hipErrorInvalidValue;
}

hipError_t hipGetLastError(void) { return streamhal::hip::TakeLastError(); }

hipError_t hipPeekAtLastError(void) { return streamhal::hip::PeekLastError(); }

hipError_t hipExtGetLastError(void) { return streamhal::hip::TakeLastResult(); }

// No profiler is attached to a Vulkan device here; the markers succeed.
hipError_t hipProfilerStart(void) { return hipSuccess; }

hipError_t hipProfilerStop(void) { return hipSuccess; }

}  // extern "C"

// AMD's header declares its initialiser C++-only, in this namespace.
namespace hip_impl {

hipError_t hip_init() { return ToHipError(streamhal::Init(0)); }

}  // namespace hip_impl
