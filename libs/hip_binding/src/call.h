// HIP initialises lazily: every entry point may be the first call. These
// wrappers run the core's lazy initialisation (and, for runtime-style calls,
// bring up the current device's primary context) before the core call, and
// map the result.
#ifndef STREAMHAL_HIP_BINDING_CALL_H_
#define STREAMHAL_HIP_BINDING_CALL_H_

#include <hip/hip_runtime_api.h>

#include <cstdint>

#include "core/context.h"
#include "core/handle.h"
#include "core/registered_code.h"
#include "core/runtime.h"
#include "result.h"

namespace streamhal::hip {

// Driver-style call: lazy init, then `body`.
template <typename Body>
hipError_t Call(Body&& body) {
  absl::Status status = EnsureInitialized();
  if (status.ok()) status = body();
  return ToHipError(status);
}

// Runtime-style call: lazy init, make sure a context is current (the
// primary context of this thread's device when none is), then `body`.
template <typename Body>
hipError_t RuntimeCall(Body&& body) {
  absl::Status status = EnsureInitialized();
  if (status.ok()) status = RuntimeCurrentContext().status();
  if (status.ok()) status = body();
  return ToHipError(status);
}

// A kernel passed as `const void*` (hipFuncGetAttributes, hipFuncSetAttribute,
// the occupancy calculators): the host stub of a registered kernel (AMD's
// meaning), loaded into the current context, or a hipFunction_t from
// hipModuleGetFunction.
inline absl::StatusOr<uint64_t> KernelOf(const void* func) {
  if (IsRegisteredFunction(func)) return ResolveRegisteredFunction(func);
  return HandleValue(func);
}

// Device addresses travel as hipDeviceptr_t (void*) in HIP.
inline uint64_t Address(const void* pointer) { return reinterpret_cast<uintptr_t>(pointer); }
inline void* Pointer(uint64_t address) { return reinterpret_cast<void*>(static_cast<uintptr_t>(address)); }

// Stores the device address `value` in the caller's pointer output when
// `status` is OK. `value` is taken by reference: it is read after the core
// call has filled it.
inline absl::Status WriteOut(absl::Status status, void** out, const uint64_t& value) {
  if (status.ok() && out != nullptr) *out = Pointer(value);
  return status;
}

}  // namespace streamhal::hip

#endif  // STREAMHAL_HIP_BINDING_CALL_H_
