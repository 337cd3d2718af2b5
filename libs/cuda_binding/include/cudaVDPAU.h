/*
 * streamhal's CUDA/VDPAU interop header (the declarations of NVIDIA's
 * cudaVDPAU.h).
 *
 * streamhal registers no VDPAU surfaces: every function here is exported so
 * that programs and loaders that look the names up accept the library, and
 * each answers CUDA_ERROR_NOT_SUPPORTED.
 *
 * The VDPAU types are declared here unless vdpau.h came first, so this header
 * compiles without it.
 *
 * Declarations only; usable from C and C++.
 */
#ifndef CUDAVDPAU_H
#define CUDAVDPAU_H

#include <cuda.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if !defined(_VDPAU_H)
typedef uint32_t VdpDevice;
typedef uint32_t VdpFuncId;
typedef uint32_t VdpVideoSurface;
typedef uint32_t VdpOutputSurface;
typedef int VdpStatus;
typedef VdpStatus VdpGetProcAddress(VdpDevice device, VdpFuncId function_id,
                                    void** function_pointer);
#endif

/* VDPAU interop. */
CUresult CUDAAPI cuVDPAUGetDevice(CUdevice* pDevice, VdpDevice vdpDevice,
                                  VdpGetProcAddress* vdpGetProcAddress);
CUresult CUDAAPI cuVDPAUCtxCreate(CUcontext* pCtx, unsigned int flags, CUdevice device,
                                  VdpDevice vdpDevice, VdpGetProcAddress* vdpGetProcAddress);
CUresult CUDAAPI cuGraphicsVDPAURegisterVideoSurface(CUgraphicsResource* pCudaResource,
                                                     VdpVideoSurface vdpSurface,
                                                     unsigned int flags);
CUresult CUDAAPI cuGraphicsVDPAURegisterOutputSurface(CUgraphicsResource* pCudaResource,
                                                      VdpOutputSurface vdpSurface,
                                                      unsigned int flags);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CUDAVDPAU_H */
