// Context management (hipCtx*, hipDevicePrimaryCtx*, hipDevice*Config).
// Deprecated in HIP but kept for driver-API ports; the objects are the CUDA
// binding's. Calls that read or change "the current context" work on the
// current device's primary context when none is current, as AMD's runtime
// does; creating, pushing and setting contexts are driver-style.
#include "core/context.h"

#include <hip/hip_runtime_api.h>

#include "call.h"
#include "core/c_enum.h"
#include "core/handle.h"

using streamhal::HandleOut;
using streamhal::HandleValue;
using streamhal::hip::Call;
using streamhal::hip::RuntimeCall;

extern "C" {

hipError_t hipCtxCreate(hipCtx_t* ctx, unsigned int flags, hipDevice_t device) {
  return Call([&] { return streamhal::CreateContext(HandleOut(ctx), flags, device); });
}

hipError_t hipCtxDestroy(hipCtx_t ctx) {
  return Call([&] { return streamhal::DestroyContext(HandleValue(ctx)); });
}

hipError_t hipCtxDetach(hipCtx_t ctx) {
  return Call([&] { return streamhal::DetachContext(HandleValue(ctx)); });
}

hipError_t hipCtxPushCurrent(hipCtx_t ctx) {
  return Call([&] { return streamhal::PushContext(HandleValue(ctx)); });
}

hipError_t hipCtxPopCurrent(hipCtx_t* ctx) {
  return Call([&] { return streamhal::PopContext(HandleOut(ctx)); });
}

hipError_t hipCtxSetCurrent(hipCtx_t ctx) {
  return Call([&] { return streamhal::SetCurrentContext(HandleValue(ctx)); });
}

hipError_t hipCtxGetCurrent(hipCtx_t* ctx) {
  return RuntimeCall([&] { return streamhal::GetCurrentContext(HandleOut(ctx)); });
}

hipError_t hipCtxGetDevice(hipDevice_t* device) {
  return RuntimeCall([&] { return streamhal::GetContextDevice(device); });
}

hipError_t hipCtxGetFlags(unsigned int* flags) {
  return RuntimeCall([&] { return streamhal::GetContextFlags(flags); });
}

hipError_t hipCtxGetApiVersion(hipCtx_t ctx, int* api_version) {
  return RuntimeCall([&] {
    return streamhal::GetContextApiVersion(HandleValue(ctx),
                                           reinterpret_cast<unsigned*>(api_version));
  });
}

hipError_t hipCtxSynchronize(void) {
  return RuntimeCall([] { return streamhal::SynchronizeCurrentContext(); });
}

hipError_t hipCtxGetCacheConfig(hipFuncCache_t* cache_config) {
  return RuntimeCall(
      [&] { return streamhal::GetContextCacheConfig(reinterpret_cast<int*>(cache_config)); });
}

hipError_t hipCtxSetCacheConfig(hipFuncCache_t cache_config) {
  const int config = streamhal::EnumArgument(cache_config);
  return RuntimeCall([&] { return streamhal::SetContextCacheConfig(config); });
}

hipError_t hipCtxGetSharedMemConfig(hipSharedMemConfig* config) {
  return RuntimeCall(
      [&] { return streamhal::GetContextSharedMemConfig(reinterpret_cast<int*>(config)); });
}

hipError_t hipCtxSetSharedMemConfig(hipSharedMemConfig config) {
  const int value = streamhal::EnumArgument(config);
  return RuntimeCall([&] { return streamhal::SetContextSharedMemConfig(value); });
}

hipError_t hipDeviceGetCacheConfig(hipFuncCache_t* cache_config) {
  return RuntimeCall(
      [&] { return streamhal::GetContextCacheConfig(reinterpret_cast<int*>(cache_config)); });
}

hipError_t hipDeviceSetCacheConfig(hipFuncCache_t cache_config) {
  const int config = streamhal::EnumArgument(cache_config);
  return RuntimeCall([&] { return streamhal::SetContextCacheConfig(config); });
}

hipError_t hipDeviceGetSharedMemConfig(hipSharedMemConfig* config) {
  return RuntimeCall(
      [&] { return streamhal::GetContextSharedMemConfig(reinterpret_cast<int*>(config)); });
}

hipError_t hipDeviceSetSharedMemConfig(hipSharedMemConfig config) {
  const int value = streamhal::EnumArgument(config);
  return RuntimeCall([&] { return streamhal::SetContextSharedMemConfig(value); });
}

hipError_t hipCtxEnablePeerAccess(hipCtx_t peer_ctx, unsigned int flags) {
  return RuntimeCall([&] { return streamhal::EnablePeerAccess(HandleValue(peer_ctx), flags); });
}

hipError_t hipCtxDisablePeerAccess(hipCtx_t peer_ctx) {
  return RuntimeCall([&] { return streamhal::DisablePeerAccess(HandleValue(peer_ctx)); });
}

hipError_t hipDevicePrimaryCtxRetain(hipCtx_t* pctx, hipDevice_t dev) {
  return Call([&] { return streamhal::RetainPrimaryContext(HandleOut(pctx), dev); });
}

hipError_t hipDevicePrimaryCtxRelease(hipDevice_t dev) {
  return Call([&] { return streamhal::ReleasePrimaryContext(dev); });
}

hipError_t hipDevicePrimaryCtxSetFlags(hipDevice_t dev, unsigned int flags) {
  return Call([&] { return streamhal::SetPrimaryContextFlags(dev, flags); });
}

hipError_t hipDevicePrimaryCtxGetState(hipDevice_t dev, unsigned int* flags, int* active) {
  return Call([&] { return streamhal::GetPrimaryContextState(dev, flags, active); });
}

hipError_t hipDevicePrimaryCtxReset(hipDevice_t dev) {
  return Call([&] { return streamhal::ResetPrimaryContext(dev); });
}

}  // extern "C"
