// Names and descriptions of hipError_t values, for hipGetErrorName,
// hipGetErrorString and the hipDrvGetError* pair.
#ifndef STREAMHAL_HIP_BINDING_ERROR_STRINGS_H_
#define STREAMHAL_HIP_BINDING_ERROR_STRINGS_H_

#include "hip/hip_runtime_api.h"

namespace streamhal::hip {

// `e` is an int: the caller of hipGetErrorName may pass any number (see
// core/c_enum.h).

// The enumerator's spelling ("hipErrorInvalidValue"). A value shared by a
// deprecated spelling yields the current one (2 is "hipErrorOutOfMemory", not
// "hipErrorMemoryAllocation"). nullptr when `e` is not an enumerator; the
// binding decides what HIP reports then.
const char* ErrorName(int e);

// The description AMD's hipGetErrorString gives, e.g. "invalid argument" for
// hipErrorInvalidValue. nullptr when `e` is not an enumerator, and for
// hipErrorTbd, which AMD's runtime describes like an unknown code (the binding
// then reports kUnknownErrorString).
const char* ErrorString(int e);

// What AMD's runtime answers for a number it has no name or text for:
// hipGetErrorName and hipGetErrorString return these, and the hipDrvGetError*
// pair stores them and reports hipErrorInvalidValue.
inline constexpr const char kUnknownErrorName[] = "hipErrorUnknown";
inline constexpr const char kUnknownErrorString[] = "unknown error";

}  // namespace streamhal::hip

#endif  // STREAMHAL_HIP_BINDING_ERROR_STRINGS_H_
