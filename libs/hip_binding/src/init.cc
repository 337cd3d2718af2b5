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

const char* hipGetErrorName(hipError_t error) {
  const char* name = streamhal::hip::ErrorName(streamhal::EnumArgument(error));
  return name != nullptr ? name : "hipErrorUnknown";
}

const char* hipGetErrorString(hipError_t error) {
  const char* text = streamhal::hip::ErrorString(streamhal::EnumArgument(error));
  return text != nullptr ? text : "unknown error";
}

hipError_t hipDrvGetErrorName(hipError_t error, const char** name) {
  if (name == nullptr) return hipErrorInvalidValue;
  *name = streamhal::hip::ErrorName(streamhal::EnumArgument(error));
  return *name != nullptr ? hipSuccess : hipErrorInvalidValue;
}

hipError_t hipDrvGetErrorString(hipError_t error, const char** text) {
  if (text == nullptr) return hipErrorInvalidValue;
  *text = streamhal::hip::ErrorString(streamhal::EnumArgument(error));
  return *text != nullptr ? hipSuccess : hipErrorInvalidValue;
}

hipError_t hipGetLastError(void) { return streamhal::hip::TakeLastError(); }

hipError_t hipPeekAtLastError(void) { return streamhal::hip::PeekLastError(); }

}  // extern "C"
