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

// hipJitInputType numbers its kinds as CUjitInputType and core do. The type
// is copied as an int, never loaded as the enumeration: a C caller may pass
// any value, which C++ cannot hold in it.

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
  int type_value = 0;
  __builtin_memcpy(&type_value, &type, sizeof(type_value));
  return RuntimeCall([&] {
    return streamhal::LinkAddData(HandleValue(state), type_value, data, size, name,
                                  num_options, reinterpret_cast<const int*>(options), option_values,
                                  hipJitOptionNumOptions);
  });
}

hipError_t hipLinkAddFile(hipLinkState_t state, hipJitInputType type, const char* path,
                          unsigned int num_options, hipJitOption* options, void** option_values) {
  int type_value = 0;
  __builtin_memcpy(&type_value, &type, sizeof(type_value));
  return RuntimeCall([&] {
    return streamhal::LinkAddFile(HandleValue(state), type_value, path, num_options,
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
