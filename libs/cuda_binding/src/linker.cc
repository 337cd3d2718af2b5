// The JIT linker (cuLinkCreate, cuLinkAddData, cuLinkAddFile,
// cuLinkComplete, cuLinkDestroy); core/linker.h has the rules.
#include "core/linker.h"

#include <cuda.h>

#include "core/handle.h"
#include "result.h"

using streamhal::HandleOut;
using streamhal::HandleValue;
using streamhal::cuda::ToCUresult;

static_assert(sizeof(CUjit_option) == sizeof(int), "CUjit_option is an int-sized enum");
static_assert(sizeof(CUjitInputType) == sizeof(int), "CUjitInputType is an int-sized enum");

extern "C" {

CUresult cuLinkCreate(unsigned int num_options, CUjit_option* options, void** option_values,
                      CUlinkState* state_out) {
  // The ids are read as ints (core checks them), never as CUjit_option.
  return ToCUresult(streamhal::LinkCreate(HandleOut(state_out), num_options,
                                          reinterpret_cast<const int*>(options), option_values,
                                          CU_JIT_NUM_OPTIONS, streamhal::Api::kCuda));
}

CUresult cuLinkAddData(CUlinkState state, CUjitInputType type, void* data, size_t size,
                       const char* name, unsigned int num_options, CUjit_option* options,
                       void** option_values) {
  int type_value = 0;
  __builtin_memcpy(&type_value, &type, sizeof(type_value));  // any int, checked by core
  return ToCUresult(streamhal::LinkAddData(HandleValue(state), type_value, data, size, name,
                                           num_options, reinterpret_cast<const int*>(options),
                                           option_values, CU_JIT_NUM_OPTIONS));
}

CUresult cuLinkAddFile(CUlinkState state, CUjitInputType type, const char* path,
                       unsigned int num_options, CUjit_option* options, void** option_values) {
  int type_value = 0;
  __builtin_memcpy(&type_value, &type, sizeof(type_value));
  return ToCUresult(streamhal::LinkAddFile(HandleValue(state), type_value, path, num_options,
                                           reinterpret_cast<const int*>(options), option_values,
                                           CU_JIT_NUM_OPTIONS));
}

CUresult cuLinkComplete(CUlinkState state, void** cubin_out, size_t* size_out) {
  return ToCUresult(streamhal::LinkComplete(HandleValue(state), cubin_out, size_out));
}

CUresult cuLinkDestroy(CUlinkState state) {
  return ToCUresult(streamhal::LinkDestroy(HandleValue(state)));
}

}  // extern "C"
