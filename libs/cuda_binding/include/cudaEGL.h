/*
 * streamhal's CUDA/EGL interop header (the declarations of NVIDIA's
 * cudaEGL.h).
 *
 * streamhal connects to no EGL streams and registers no EGL images: every
 * function here is exported so that programs and loaders that look the names
 * up (ffmpeg's, for one) accept the library, and each answers
 * CUDA_ERROR_NOT_SUPPORTED.
 *
 * The EGL types are declared here unless EGL's headers came first, so this
 * header compiles without them.
 *
 * Declarations only; usable from C and C++.
 */
#ifndef CUDAEGL_H
#define CUDAEGL_H

#include <cuda.h>
#include <stdint.h>

#if !defined(__egl_h_)
typedef int32_t EGLint;
#endif
#if !defined(__eglext_h_)
typedef void* EGLImageKHR;
typedef void* EGLStreamKHR;
typedef void* EGLSyncKHR;
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Planes of a frame. */
#define MAX_PLANES 3

/* Whether a frame's planes are arrays or pitched memory. */
typedef enum CUeglFrameType_enum {
  CU_EGL_FRAME_TYPE_ARRAY = 0,
  CU_EGL_FRAME_TYPE_PITCH = 1
} CUeglFrameType;

/* Where an EGL stream's frames live. */
typedef enum CUeglResourceLocationFlags_enum {
  CU_EGL_RESOURCE_LOCATION_SYSMEM = 0x00,
  CU_EGL_RESOURCE_LOCATION_VIDMEM = 0x01
} CUeglResourceLocationFlags;

/* The color format of a frame. streamhal reads no frame; these are the
 * formats of CUDA 8, with their published values (later releases append
 * more). */
typedef enum CUeglColorFormat_enum {
  CU_EGL_COLOR_FORMAT_YUV420_PLANAR = 0x00,
  CU_EGL_COLOR_FORMAT_YUV420_SEMIPLANAR = 0x01,
  CU_EGL_COLOR_FORMAT_YUV422_PLANAR = 0x02,
  CU_EGL_COLOR_FORMAT_YUV422_SEMIPLANAR = 0x03,
  CU_EGL_COLOR_FORMAT_RGB = 0x04,
  CU_EGL_COLOR_FORMAT_BGR = 0x05,
  CU_EGL_COLOR_FORMAT_ARGB = 0x06,
  CU_EGL_COLOR_FORMAT_RGBA = 0x07,
  CU_EGL_COLOR_FORMAT_L = 0x08,
  CU_EGL_COLOR_FORMAT_R = 0x09,
  CU_EGL_COLOR_FORMAT_YUV444_PLANAR = 0x0A,
  CU_EGL_COLOR_FORMAT_YUV444_SEMIPLANAR = 0x0B,
  CU_EGL_COLOR_FORMAT_YUYV_422 = 0x0C,
  CU_EGL_COLOR_FORMAT_UYVY_422 = 0x0D
} CUeglColorFormat;

/* One frame of an EGL stream. */
typedef struct CUeglFrame_st {
  union {
    CUarray pArray[MAX_PLANES];
    void* pPitch[MAX_PLANES];
  } frame;
  unsigned int width;
  unsigned int height;
  unsigned int depth;
  unsigned int pitch;
  unsigned int planeCount;
  unsigned int numChannels;
  CUeglFrameType frameType;
  CUeglColorFormat eglColorFormat;
  CUarray_format cuFormat;
} CUeglFrame_v1;
typedef CUeglFrame_v1 CUeglFrame;

/* A connection to an EGL stream. */
typedef struct CUeglStreamConnection_st* CUeglStreamConnection;

/* EGL interop. */
CUresult CUDAAPI cuGraphicsEGLRegisterImage(CUgraphicsResource* pCudaResource, EGLImageKHR image,
                                            unsigned int flags);
CUresult CUDAAPI cuEGLStreamConsumerConnect(CUeglStreamConnection* conn, EGLStreamKHR stream);
CUresult CUDAAPI cuEGLStreamConsumerConnectWithFlags(CUeglStreamConnection* conn,
                                                     EGLStreamKHR stream, unsigned int flags);
CUresult CUDAAPI cuEGLStreamConsumerDisconnect(CUeglStreamConnection* conn);
CUresult CUDAAPI cuEGLStreamConsumerAcquireFrame(CUeglStreamConnection* conn,
                                                 CUgraphicsResource* pCudaResource,
                                                 CUstream* pStream, unsigned int timeout);
CUresult CUDAAPI cuEGLStreamConsumerReleaseFrame(CUeglStreamConnection* conn,
                                                 CUgraphicsResource pCudaResource,
                                                 CUstream* pStream);
CUresult CUDAAPI cuEGLStreamProducerConnect(CUeglStreamConnection* conn, EGLStreamKHR stream,
                                            EGLint width, EGLint height);
CUresult CUDAAPI cuEGLStreamProducerDisconnect(CUeglStreamConnection* conn);
CUresult CUDAAPI cuEGLStreamProducerPresentFrame(CUeglStreamConnection* conn, CUeglFrame eglframe,
                                                 CUstream* pStream);
CUresult CUDAAPI cuEGLStreamProducerReturnFrame(CUeglStreamConnection* conn, CUeglFrame* eglframe,
                                                CUstream* pStream);
CUresult CUDAAPI cuGraphicsResourceGetMappedEglFrame(CUeglFrame* eglFrame,
                                                     CUgraphicsResource resource,
                                                     unsigned int index, unsigned int mipLevel);
CUresult CUDAAPI cuEventCreateFromEGLSync(CUevent* phEvent, EGLSyncKHR eglSync, unsigned int flags);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CUDAEGL_H */
