// Library management (CUDA 12): cuLibrary*, cuKernel*, cuModuleGetLoadingMode.
#include "core/library.h"

#include <cuda.h>

#include "core/c_enum.h"
#include "core/handle.h"
#include "result.h"

using streamhal::HandleOut;
using streamhal::HandleValue;
using streamhal::cuda::ToCUresult;
using streamhal::cuda::WriteOut;

static_assert(sizeof(CUjit_option) == sizeof(int) && sizeof(CUlibraryOption) == sizeof(int),
              "option ids are read as ints (core checks them), never as enums");

extern "C" {

CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode* mode) {
  int value = 0;
  const absl::Status status = streamhal::GetModuleLoadingMode(mode ? &value : nullptr);
  return WriteOut(status, mode, static_cast<CUmoduleLoadingMode>(value));
}

CUresult cuLibraryLoadData(CUlibrary* library, const void* code, CUjit_option* jitOptions,
                           void** jitOptionsValues, unsigned int numJitOptions,
                           CUlibraryOption* libraryOptions, void** libraryOptionValues,
                           unsigned int numLibraryOptions) {
  return ToCUresult(streamhal::LibraryLoadData(
      HandleOut(library), code, numJitOptions, reinterpret_cast<const int*>(jitOptions),
      jitOptionsValues, CU_JIT_NUM_OPTIONS, numLibraryOptions,
      reinterpret_cast<const int*>(libraryOptions), libraryOptionValues));
}

CUresult cuLibraryLoadFromFile(CUlibrary* library, const char* fileName, CUjit_option* jitOptions,
                               void** jitOptionsValues, unsigned int numJitOptions,
                               CUlibraryOption* libraryOptions, void** libraryOptionValues,
                               unsigned int numLibraryOptions) {
  return ToCUresult(streamhal::LibraryLoadFromFile(
      HandleOut(library), fileName, numJitOptions, reinterpret_cast<const int*>(jitOptions),
      jitOptionsValues, CU_JIT_NUM_OPTIONS, numLibraryOptions,
      reinterpret_cast<const int*>(libraryOptions), libraryOptionValues));
}

CUresult cuLibraryUnload(CUlibrary library) {
  return ToCUresult(streamhal::LibraryUnload(HandleValue(library)));
}

CUresult cuLibraryGetKernel(CUkernel* pKernel, CUlibrary library, const char* name) {
  return ToCUresult(streamhal::LibraryGetKernel(HandleOut(pKernel), HandleValue(library), name));
}

CUresult cuLibraryGetKernelCount(unsigned int* count, CUlibrary lib) {
  return ToCUresult(streamhal::LibraryGetKernelCount(count, HandleValue(lib)));
}

CUresult cuLibraryEnumerateKernels(CUkernel* kernels, unsigned int numKernels, CUlibrary lib) {
  static_assert(sizeof(CUkernel) == sizeof(void*));
  return ToCUresult(streamhal::LibraryEnumerateKernels(reinterpret_cast<void**>(kernels),
                                                       numKernels, HandleValue(lib)));
}

CUresult cuLibraryGetModule(CUmodule* pMod, CUlibrary library) {
  return ToCUresult(streamhal::LibraryGetModule(HandleOut(pMod), HandleValue(library)));
}

CUresult cuLibraryGetGlobal(CUdeviceptr* dptr, size_t* bytes, CUlibrary library, const char* name) {
  uint64_t value = 0;
  return WriteOut(
      streamhal::LibraryGetGlobal(dptr ? &value : nullptr, bytes, HandleValue(library), name), dptr,
      value);
}

CUresult cuLibraryGetManaged(CUdeviceptr* dptr, size_t* bytes, CUlibrary library,
                             const char* name) {
  uint64_t value = 0;
  return WriteOut(
      streamhal::LibraryGetManaged(dptr ? &value : nullptr, bytes, HandleValue(library), name),
      dptr, value);
}

CUresult cuLibraryGetUnifiedFunction(void** fptr, CUlibrary library, const char* symbol) {
  return ToCUresult(streamhal::LibraryGetUnifiedFunction(fptr, HandleValue(library), symbol));
}

CUresult cuKernelGetFunction(CUfunction* pFunc, CUkernel kernel) {
  return ToCUresult(streamhal::KernelGetFunction(HandleOut(pFunc), HandleValue(kernel)));
}

CUresult cuKernelGetAttribute(int* pi, CUfunction_attribute attrib, CUkernel kernel, CUdevice dev) {
  return ToCUresult(
      streamhal::KernelGetAttribute(pi, streamhal::EnumArgument(attrib), HandleValue(kernel), dev));
}

CUresult cuKernelSetAttribute(CUfunction_attribute attrib, int val, CUkernel kernel, CUdevice dev) {
  return ToCUresult(streamhal::KernelSetAttribute(streamhal::EnumArgument(attrib), val,
                                                  HandleValue(kernel), dev));
}

CUresult cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice dev) {
  return ToCUresult(
      streamhal::KernelSetCacheConfig(HandleValue(kernel), streamhal::EnumArgument(config), dev));
}

CUresult cuKernelGetName(const char** name, CUkernel hfunc) {
  return ToCUresult(streamhal::KernelGetName(name, HandleValue(hfunc)));
}

CUresult cuKernelGetLibrary(CUlibrary* pLib, CUkernel kernel) {
  return ToCUresult(streamhal::KernelGetLibrary(HandleOut(pLib), HandleValue(kernel)));
}

CUresult cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex, size_t* paramOffset,
                              size_t* paramSize) {
  return ToCUresult(
      streamhal::KernelGetParamInfo(HandleValue(kernel), paramIndex, paramOffset, paramSize));
}

}  // extern "C"
