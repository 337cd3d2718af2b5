/*
 * streamhal's CUDA/OpenGL interop header (the declarations of NVIDIA's
 * cudaGL.h).
 *
 * streamhal registers no OpenGL objects: every function here is exported so
 * that programs and loaders that look the names up (ffmpeg's, for one) accept
 * the library, and each answers CUDA_ERROR_NOT_SUPPORTED. The Windows-only
 * WGL call is not declared.
 *
 * The OpenGL types are declared here unless an OpenGL header came first, so
 * this header compiles without OpenGL's.
 *
 * Declarations only; usable from C and C++.
 */
#ifndef CUDAGL_H
#define CUDAGL_H

#include <cuda.h>

#if !defined(__gl_h_) && !defined(__GL_H__) && !defined(__gl_gl_h_) && !defined(GL_VERSION_1_1)
typedef unsigned int GLuint;
typedef unsigned int GLenum;
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Which devices cuGLGetDevices lists. */
typedef enum CUGLDeviceList_enum {
  CU_GL_DEVICE_LIST_ALL = 0x01,
  CU_GL_DEVICE_LIST_CURRENT_FRAME = 0x02,
  CU_GL_DEVICE_LIST_NEXT_FRAME = 0x03
} CUGLDeviceList;

/* Flags of the deprecated cuGLSetBufferObjectMapFlags. */
typedef enum CUGLmap_flags_enum {
  CU_GL_MAP_RESOURCE_FLAGS_NONE = 0x00,
  CU_GL_MAP_RESOURCE_FLAGS_READ_ONLY = 0x01,
  CU_GL_MAP_RESOURCE_FLAGS_WRITE_DISCARD = 0x02
} CUGLmap_flags;

/* OpenGL interop. */
CUresult CUDAAPI cuGraphicsGLRegisterBuffer(CUgraphicsResource* pCudaResource, GLuint buffer,
                                            unsigned int Flags);
CUresult CUDAAPI cuGraphicsGLRegisterImage(CUgraphicsResource* pCudaResource, GLuint image,
                                           GLenum target, unsigned int Flags);
CUresult CUDAAPI cuGLGetDevices(unsigned int* pCudaDeviceCount, CUdevice* pCudaDevices,
                                unsigned int cudaDeviceCount, CUGLDeviceList deviceList);

/* OpenGL interop, deprecated. */
CUresult CUDAAPI cuGLCtxCreate(CUcontext* pCtx, unsigned int Flags, CUdevice device);
CUresult CUDAAPI cuGLInit(void);
CUresult CUDAAPI cuGLRegisterBufferObject(GLuint buffer);
CUresult CUDAAPI cuGLMapBufferObject(CUdeviceptr* dptr, size_t* size, GLuint buffer);
CUresult CUDAAPI cuGLUnmapBufferObject(GLuint buffer);
CUresult CUDAAPI cuGLUnregisterBufferObject(GLuint buffer);
CUresult CUDAAPI cuGLSetBufferObjectMapFlags(GLuint buffer, unsigned int Flags);
CUresult CUDAAPI cuGLMapBufferObjectAsync(CUdeviceptr* dptr, size_t* size, GLuint buffer,
                                          CUstream hStream);
CUresult CUDAAPI cuGLUnmapBufferObjectAsync(GLuint buffer, CUstream hStream);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CUDAGL_H */
