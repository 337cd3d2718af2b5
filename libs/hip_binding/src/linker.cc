// The JIT linker (hipLinkCreate, hipLinkAddData, hipLinkAddFile,
// hipLinkComplete, hipLinkDestroy); core/linker.h has the rules.
#include "core/linker.h"

#include <hip/hip_runtime_api.h>

#include "call.h"
#include "core/handle.h"

using streamhal::HandleOut;
using streamhal::HandleValue;
using streamhal::hip::RuntimeCall;

static_assert(sizeof(hipJitOption) == sizeof(int), "hipJitOption is an int-sized enum");
static_assert(sizeof(hipJitInputType) == sizeof(int), "hipJitInputType is an int-sized enum");

namespace {

// hipJitInputType numbers its kinds as CUjitInputType and core do.
int InputTypeValue(hipJitInputType type) {
  int value = 0;
  __builtin_memcpy(&value, &type, sizeof(value));  // any int, checked by core
  return value;
}

}  // namespace

extern "C" {

hipError_t hipLinkCreate(unsigned int num_options, hipJitOption* options, void** option_values,
                         hipLinkState_t* state_out) {
  return RuntimeCall([&] {
    return streamhal::LinkCreate(HandleOut(state_out), num_options,
                                 reinterpret_cast<const int*>(options), option_values,
                                 hipJitOptionNumOptions, streamhal::Api::kHip);
  });
}

hipError_t hipLinkAddData(hipLinkState_t state, hipJitInputType type, void* data, size_t size,
                          const char* name, unsigned int num_options, hipJitOption* options,
                          void** option_values) {
  return RuntimeCall([&] {
    return streamhal::LinkAddData(HandleValue(state), InputTypeValue(type), data, size, name,
                                  num_options, reinterpret_cast<const int*>(options), option_values,
                                  hipJitOptionNumOptions);
  });
}

hipError_t hipLinkAddFile(hipLinkState_t state, hipJitInputType type, const char* path,
                          unsigned int num_options, hipJitOption* options, void** option_values) {
  return RuntimeCall([&] {
    return streamhal::LinkAddFile(HandleValue(state), InputTypeValue(type), path, num_options,
                                  reinterpret_cast<const int*>(options), option_values,
                                  hipJitOptionNumOptions);
  });
}

hipError_t hipLinkComplete(hipLinkState_t state, void** bin_out, size_t* size_out) {
  return RuntimeCall(
      [&] { return streamhal::LinkComplete(HandleValue(state), bin_out, size_out); });
}

hipError_t hipLinkDestroy(hipLinkState_t state) {
  return RuntimeCall([&] { return streamhal::LinkDestroy(HandleValue(state)); });
}

}  // extern "C"
