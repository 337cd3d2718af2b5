/* Entry points called the way a C program calls them: where cuda.h or
 * hip_runtime_api.h declares an enum parameter, C passes any int (a C enum is
 * an int), including numbers outside the enum. C++ cannot do that without
 * undefined behaviour, so the conformance tests make such calls through these
 * wrappers, compiled as C (c_callers.c). Each takes the enum argument as an
 * int and passes it on unchanged. */
#ifndef STREAMHAL_CONFORMANCE_TESTS_C_CALLERS_H_
#define STREAMHAL_CONFORMANCE_TESTS_C_CALLERS_H_

#include <cuda.h>
#include <hip/hip_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

CUresult CCallCuFuncGetAttribute(int* value, int attribute, CUfunction function);
CUresult CCallCuFuncSetAttribute(CUfunction function, int attribute, int value);
CUresult CCallCuDeviceGetAttribute(int* value, int attribute, CUdevice device);
CUresult CCallCuDeviceGetP2PAttribute(int* value, int attribute, CUdevice src, CUdevice dst);
CUresult CCallCuCtxGetLimit(size_t* value, int limit);
CUresult CCallCuCtxSetLimit(int limit, size_t value);
CUresult CCallCuCtxSetCacheConfig(int config);
CUresult CCallCuCtxSetSharedMemConfig(int config);
CUresult CCallCuGetErrorName(int error, const char** name);
CUresult CCallCuGetErrorString(int error, const char** text);
/* `options` is an array of ints passed as the CUjit_option array. */
CUresult CCallCuModuleLoadDataEx(CUmodule* module, const void* image, unsigned num_options,
                                 int* options, void** values);

hipError_t CCallHipFuncGetAttribute(int* value, int attribute, hipFunction_t function);
hipError_t CCallHipFuncSetAttribute(const void* function, int attribute, int value);
hipError_t CCallHipDeviceGetAttribute(int* value, int attribute, int device);
hipError_t CCallHipDeviceGetP2PAttribute(int* value, int attribute, int src, int dst);
hipError_t CCallHipDeviceGetLimit(size_t* value, int limit);
hipError_t CCallHipDeviceSetLimit(int limit, size_t value);
hipError_t CCallHipCtxSetCacheConfig(int config);
hipError_t CCallHipCtxSetSharedMemConfig(int config);
const char* CCallHipGetErrorName(int error);
const char* CCallHipGetErrorString(int error);
hipError_t CCallHipDrvGetErrorName(int error, const char** name);
hipError_t CCallHipDrvGetErrorString(int error, const char** text);
hipError_t CCallHipMemcpy(void* dst, const void* src, size_t bytes, int kind);
hipError_t CCallHipMemcpyAsync(void* dst, const void* src, size_t bytes, int kind,
                               hipStream_t stream);
hipError_t CCallHipMemcpyWithStream(void* dst, const void* src, size_t bytes, int kind,
                                    hipStream_t stream);
/* `options` is an array of ints passed as the hipJitOption array. */
hipError_t CCallHipModuleLoadDataEx(hipModule_t* module, const void* image, unsigned num_options,
                                    int* options, void** values);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif  /* STREAMHAL_CONFORMANCE_TESTS_C_CALLERS_H_ */
