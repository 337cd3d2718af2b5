// Context management (cuCtx*).
#include "core/context.h"

#include <cuda.h>

#include "core/c_enum.h"
#include "core/context_params.h"
#include "core/handle.h"
#include "result.h"

using streamhal::HandleOut;
using streamhal::HandleValue;
using streamhal::cuda::ToCUresult;

extern "C" {

CUresult cuCtxCreate(CUcontext* pctx, unsigned int flags, CUdevice dev) {
  return ToCUresult(streamhal::CreateContext(HandleOut(pctx), flags, dev));
}

namespace {

// Copies the execution affinity parameters a caller passes (none when the
// array is null or the count is not positive; core reports those cases).
void ReadExecAffinity(const CUexecAffinityParam* params, int count,
                      streamhal::ContextCreateParams* out) {
  out->has_exec_affinity = params != nullptr;
  out->exec_affinity_count = count;
  if (params == nullptr) return;
  for (int i = 0; i < count; ++i) {
    out->exec_affinity.push_back(
        {streamhal::EnumArgument(params[i].type), params[i].param.smCount.val});
  }
}

}  // namespace

CUresult cuCtxCreate_v3(CUcontext* pctx, CUexecAffinityParam* paramsArray, int numParams,
                        unsigned int flags, CUdevice dev) {
  streamhal::ContextCreateParams params;
  ReadExecAffinity(paramsArray, numParams, &params);
  return ToCUresult(
      streamhal::CreateContextWithParams(HandleOut(pctx), &params, flags, dev, "cuCtxCreate_v3"));
}

CUresult cuCtxCreate_v4(CUcontext* pctx, CUctxCreateParams* ctxCreateParams, unsigned int flags,
                        CUdevice dev) {
  if (ctxCreateParams == nullptr) {
    return ToCUresult(
        streamhal::CreateContextWithParams(HandleOut(pctx), nullptr, flags, dev, "cuCtxCreate_v4"));
  }
  streamhal::ContextCreateParams params;
  ReadExecAffinity(ctxCreateParams->execAffinityParams, ctxCreateParams->numExecAffinityParams,
                   &params);
  const CUctxCigParam* cig = ctxCreateParams->cigParams;
  params.has_cig = cig != nullptr;
  if (cig != nullptr) {
    params.cig_data_type = streamhal::EnumArgument(cig->sharedDataType);
    params.has_cig_data = cig->sharedData != nullptr;
  }
  return ToCUresult(
      streamhal::CreateContextWithParams(HandleOut(pctx), &params, flags, dev, "cuCtxCreate_v4"));
}

CUresult cuCtxDestroy(CUcontext ctx) {
  return ToCUresult(streamhal::DestroyContext(HandleValue(ctx)));
}

CUresult cuCtxPushCurrent(CUcontext ctx) {
  return ToCUresult(streamhal::PushContext(HandleValue(ctx)));
}

CUresult cuCtxPopCurrent(CUcontext* pctx) {
  return ToCUresult(streamhal::PopContext(HandleOut(pctx)));
}

CUresult cuCtxSetCurrent(CUcontext ctx) {
  return ToCUresult(streamhal::SetCurrentContext(HandleValue(ctx)));
}

CUresult cuCtxGetCurrent(CUcontext* pctx) {
  return ToCUresult(streamhal::GetCurrentContext(HandleOut(pctx)));
}

CUresult cuCtxGetDevice(CUdevice* device) {
  return ToCUresult(streamhal::GetContextDevice(device));
}

CUresult cuCtxGetFlags(unsigned int* flags) {
  return ToCUresult(streamhal::GetContextFlags(flags));
}

CUresult cuCtxSetFlags(unsigned int flags) {
  return ToCUresult(streamhal::SetContextFlags(flags));
}

CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int* version) {
  return ToCUresult(streamhal::GetContextApiVersion(HandleValue(ctx), version));
}

CUresult cuCtxGetStreamPriorityRange(int* least_priority, int* greatest_priority) {
  return ToCUresult(streamhal::GetStreamPriorityRange(least_priority, greatest_priority));
}

CUresult cuCtxSynchronize(void) { return ToCUresult(streamhal::SynchronizeCurrentContext()); }

CUresult cuCtxGetLimit(size_t* pvalue, CUlimit limit) {
  return ToCUresult(streamhal::GetContextLimit(pvalue, streamhal::EnumArgument(limit)));
}

CUresult cuCtxSetLimit(CUlimit limit, size_t value) {
  return ToCUresult(streamhal::SetContextLimit(streamhal::EnumArgument(limit), value));
}

CUresult cuCtxGetCacheConfig(CUfunc_cache* config) {
  return ToCUresult(streamhal::GetContextCacheConfig(reinterpret_cast<int*>(config)));
}

CUresult cuCtxSetCacheConfig(CUfunc_cache config) {
  return ToCUresult(streamhal::SetContextCacheConfig(streamhal::EnumArgument(config)));
}

CUresult cuCtxGetSharedMemConfig(CUsharedconfig* config) {
  return ToCUresult(streamhal::GetContextSharedMemConfig(reinterpret_cast<int*>(config)));
}

CUresult cuCtxSetSharedMemConfig(CUsharedconfig config) {
  return ToCUresult(streamhal::SetContextSharedMemConfig(streamhal::EnumArgument(config)));
}

CUresult cuCtxEnablePeerAccess(CUcontext peer_context, unsigned int flags) {
  return ToCUresult(streamhal::EnablePeerAccess(HandleValue(peer_context), flags));
}

CUresult cuCtxDisablePeerAccess(CUcontext peer_context) {
  return ToCUresult(streamhal::DisablePeerAccess(HandleValue(peer_context)));
}

CUresult cuCtxAttach(CUcontext* pctx, unsigned int flags) {
  return ToCUresult(streamhal::AttachContext(HandleOut(pctx), flags));
}

CUresult cuCtxDetach(CUcontext ctx) {
  return ToCUresult(streamhal::DetachContext(HandleValue(ctx)));
}

CUresult cuDevicePrimaryCtxRetain(CUcontext* pctx, CUdevice dev) {
  return ToCUresult(streamhal::RetainPrimaryContext(HandleOut(pctx), dev));
}

CUresult cuDevicePrimaryCtxRelease(CUdevice dev) {
  return ToCUresult(streamhal::ReleasePrimaryContext(dev));
}

CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags) {
  return ToCUresult(streamhal::SetPrimaryContextFlags(dev, flags));
}

CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int* flags, int* active) {
  return ToCUresult(streamhal::GetPrimaryContextState(dev, flags, active));
}

CUresult cuDevicePrimaryCtxReset(CUdevice dev) {
  return ToCUresult(streamhal::ResetPrimaryContext(dev));
}

CUresult cuCtxGetId(CUcontext ctx, unsigned long long* ctxId) {
  return ToCUresult(streamhal::GetContextId(HandleValue(ctx), ctxId));
}

CUresult cuCtxResetPersistingL2Cache(void) {
  return ToCUresult(streamhal::ResetPersistingL2Cache());
}

}  // extern "C"
