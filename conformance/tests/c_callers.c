/* C callers of enum-taking entry points (see c_callers.h). In C an int
 * converts to an enum parameter implicitly and keeps its value. */
#include "c_callers.h"

CUresult CCallCuFuncGetAttribute(int* value, int attribute, CUfunction function) {
  return cuFuncGetAttribute(value, attribute, function);
}
CUresult CCallCuFuncSetAttribute(CUfunction function, int attribute, int value) {
  return cuFuncSetAttribute(function, attribute, value);
}
CUresult CCallCuDeviceGetAttribute(int* value, int attribute, CUdevice device) {
  return cuDeviceGetAttribute(value, attribute, device);
}
CUresult CCallCuDeviceGetP2PAttribute(int* value, int attribute, CUdevice src, CUdevice dst) {
  return cuDeviceGetP2PAttribute(value, attribute, src, dst);
}
CUresult CCallCuCtxGetLimit(size_t* value, int limit) { return cuCtxGetLimit(value, limit); }
CUresult CCallCuCtxSetLimit(int limit, size_t value) { return cuCtxSetLimit(limit, value); }
CUresult CCallCuCtxSetCacheConfig(int config) { return cuCtxSetCacheConfig(config); }
CUresult CCallCuCtxSetSharedMemConfig(int config) { return cuCtxSetSharedMemConfig(config); }
CUresult CCallCuGetErrorName(int error, const char** name) { return cuGetErrorName(error, name); }
CUresult CCallCuGetErrorString(int error, const char** text) {
  return cuGetErrorString(error, text);
}
CUresult CCallCuModuleLoadDataEx(CUmodule* module, const void* image, unsigned num_options,
                                 int* options, void** values) {
  return cuModuleLoadDataEx(module, image, num_options, (CUjit_option*)options, values);
}

hipError_t CCallHipFuncGetAttribute(int* value, int attribute, hipFunction_t function) {
  return hipFuncGetAttribute(value, attribute, function);
}
hipError_t CCallHipFuncSetAttribute(const void* function, int attribute, int value) {
  return hipFuncSetAttribute(function, attribute, value);
}
hipError_t CCallHipDeviceGetAttribute(int* value, int attribute, int device) {
  return hipDeviceGetAttribute(value, attribute, device);
}
hipError_t CCallHipDeviceGetP2PAttribute(int* value, int attribute, int src, int dst) {
  return hipDeviceGetP2PAttribute(value, attribute, src, dst);
}
hipError_t CCallHipDeviceGetLimit(size_t* value, int limit) {
  return hipDeviceGetLimit(value, limit);
}
hipError_t CCallHipDeviceSetLimit(int limit, size_t value) {
  return hipDeviceSetLimit(limit, value);
}
hipError_t CCallHipCtxSetCacheConfig(int config) { return hipCtxSetCacheConfig(config); }
hipError_t CCallHipCtxSetSharedMemConfig(int config) { return hipCtxSetSharedMemConfig(config); }
const char* CCallHipGetErrorName(int error) { return hipGetErrorName(error); }
const char* CCallHipGetErrorString(int error) { return hipGetErrorString(error); }
hipError_t CCallHipDrvGetErrorName(int error, const char** name) {
  return hipDrvGetErrorName(error, name);
}
hipError_t CCallHipDrvGetErrorString(int error, const char** text) {
  return hipDrvGetErrorString(error, text);
}
hipError_t CCallHipMemcpy(void* dst, const void* src, size_t bytes, int kind) {
  return hipMemcpy(dst, src, bytes, kind);
}
hipError_t CCallHipMemcpyAsync(void* dst, const void* src, size_t bytes, int kind,
                               hipStream_t stream) {
  return hipMemcpyAsync(dst, src, bytes, kind, stream);
}
hipError_t CCallHipMemcpyWithStream(void* dst, const void* src, size_t bytes, int kind,
                                    hipStream_t stream) {
  return hipMemcpyWithStream(dst, src, bytes, kind, stream);
}
hipError_t CCallHipModuleLoadDataEx(hipModule_t* module, const void* image, unsigned num_options,
                                    int* options, void** values) {
  return hipModuleLoadDataEx(module, image, num_options, (hipJitOption*)options, values);
}
