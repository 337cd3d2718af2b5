// Module management (cuModuleLoad*, cuModuleGetFunction, cuModuleGetGlobal)
// and function attributes.
#include <cuda.h>

#include "core/c_enum.h"
#include "core/handle.h"
#include "core/module.h"
#include "result.h"

using streamhal::HandleOut;
using streamhal::HandleValue;
using streamhal::cuda::ToCUresult;
using streamhal::cuda::WriteOut;


extern "C" {

CUresult cuModuleLoad(CUmodule* module, const char* fname) {
  return ToCUresult(streamhal::ModuleLoad(HandleOut(module), fname));
}

CUresult cuModuleLoadData(CUmodule* module, const void* image) {
  return ToCUresult(streamhal::ModuleLoadData(HandleOut(module), image, nullptr));
}

CUresult cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned int num_options,
                            CUjit_option* options, void** option_values) {
  static_assert(sizeof(CUjit_option) == sizeof(int), "CUjit_option is an int-sized enum");
  // The ids are read as ints (core checks them), never as CUjit_option.
  return ToCUresult(streamhal::ModuleLoadDataEx(HandleOut(module), image, num_options,
                                                reinterpret_cast<const int*>(options),
                                                option_values, CU_JIT_NUM_OPTIONS));
}

CUresult cuModuleLoadFatBinary(CUmodule* module, const void* fat_cubin) {
  return ToCUresult(streamhal::ModuleLoadFatBinary(HandleOut(module), fat_cubin));
}

CUresult cuModuleUnload(CUmodule module) {
  return ToCUresult(streamhal::ModuleUnload(HandleValue(module)));
}

CUresult cuModuleGetFunction(CUfunction* hfunc, CUmodule module, const char* name) {
  return ToCUresult(streamhal::ModuleGetFunction(HandleOut(hfunc), HandleValue(module), name));
}

CUresult cuModuleGetGlobal(CUdeviceptr* dptr, size_t* bytes, CUmodule module, const char* name) {
  uint64_t value = 0;
  return WriteOut(
      streamhal::ModuleGetGlobal(dptr ? &value : nullptr, bytes, HandleValue(module), name), dptr,
      value);
}

CUresult cuFuncGetAttribute(int* pi, CUfunction_attribute attrib, CUfunction hfunc) {
  return ToCUresult(
      streamhal::FuncGetAttribute(pi, streamhal::EnumArgument(attrib), HandleValue(hfunc)));
}

CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value) {
  return ToCUresult(
      streamhal::FuncSetAttribute(HandleValue(hfunc), streamhal::EnumArgument(attrib), value));
}

CUresult cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config) {
  return ToCUresult(
      streamhal::FuncSetCacheConfig(HandleValue(hfunc), streamhal::EnumArgument(config)));
}

CUresult cuFuncSetSharedMemConfig(CUfunction hfunc, CUsharedconfig config) {
  return ToCUresult(
      streamhal::FuncSetSharedMemConfig(HandleValue(hfunc), streamhal::EnumArgument(config)));
}

CUresult cuFuncGetName(const char** name, CUfunction hfunc) {
  return ToCUresult(streamhal::FuncGetName(name, HandleValue(hfunc)));
}

CUresult cuFuncGetModule(CUmodule* hmod, CUfunction hfunc) {
  return ToCUresult(streamhal::FuncGetModule(HandleOut(hmod), HandleValue(hfunc)));
}

CUresult cuFuncGetParamInfo(CUfunction func, size_t param_index, size_t* param_offset,
                            size_t* param_size) {
  return ToCUresult(
      streamhal::FuncGetParamInfo(HandleValue(func), param_index, param_offset, param_size));
}

CUresult cuModuleGetFunctionCount(unsigned int* count, CUmodule mod) {
  return ToCUresult(streamhal::ModuleGetFunctionCount(count, HandleValue(mod)));
}

CUresult cuModuleEnumerateFunctions(CUfunction* functions, unsigned int num_functions,
                                    CUmodule mod) {
  static_assert(sizeof(CUfunction) == sizeof(void*));
  return ToCUresult(streamhal::ModuleEnumerateFunctions(reinterpret_cast<void**>(functions),
                                                        num_functions, HandleValue(mod)));
}

CUresult cuFuncIsLoaded(CUfunctionLoadingState* state, CUfunction function) {
  static_assert(CU_FUNCTION_LOADING_STATE_LOADED == streamhal::kFunctionLoaded);
  static_assert(sizeof(CUfunctionLoadingState) == sizeof(int));
  int loaded = 0;
  const absl::Status status =
      streamhal::FuncIsLoaded(state != nullptr ? &loaded : nullptr, HandleValue(function));
  if (status.ok()) *state = static_cast<CUfunctionLoadingState>(loaded);
  return ToCUresult(status);
}

CUresult cuFuncLoad(CUfunction function) {
  return ToCUresult(streamhal::FuncLoad(HandleValue(function)));
}

}  // extern "C"
