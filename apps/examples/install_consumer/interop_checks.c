/* The interop headers installed beside cuda.h (cudaGL.h, cudaEGL.h,
 * cudaVDPAU.h, cudaProfiler.h) compile without OpenGL, EGL or VDPAU headers,
 * and their functions link: the registration calls answer
 * CUDA_ERROR_NOT_SUPPORTED, the profiler calls succeed in a context. Prints
 * PASSED and exits 0 only if all hold. */
#include <cudaEGL.h>
#include <cudaGL.h>
#include <cudaProfiler.h>
#include <cudaVDPAU.h>
#include <stdio.h>

static int failures = 0;

static void Expect(const char* what, CUresult got, CUresult expected) {
  printf("%s %s: %d\n", got == expected ? "[ OK ]" : "[FAIL]", what, (int)got);
  if (got != expected) ++failures;
}

int main(void) {
  CUcontext context = NULL;
  CUgraphicsResource resource = NULL;
  unsigned int count = 0;
  CUdevice devices[1];
  Expect("cuInit", cuInit(0), CUDA_SUCCESS);
  Expect("cuCtxCreate", cuCtxCreate(&context, 0, 0), CUDA_SUCCESS);
  Expect("cuGraphicsGLRegisterBuffer", cuGraphicsGLRegisterBuffer(&resource, 1, 0),
         CUDA_ERROR_NOT_SUPPORTED);
  Expect("cuGLGetDevices", cuGLGetDevices(&count, devices, 1, CU_GL_DEVICE_LIST_ALL),
         CUDA_ERROR_NOT_SUPPORTED);
  Expect("cuGraphicsEGLRegisterImage", cuGraphicsEGLRegisterImage(&resource, NULL, 0),
         CUDA_ERROR_NOT_SUPPORTED);
  Expect("cuVDPAUGetDevice", cuVDPAUGetDevice(devices, 0, NULL), CUDA_ERROR_NOT_SUPPORTED);
  Expect("cuGraphicsUnregisterResource", cuGraphicsUnregisterResource(resource),
         CUDA_ERROR_INVALID_HANDLE);
  Expect("cuProfilerStart", cuProfilerStart(), CUDA_SUCCESS);
  Expect("cuProfilerStop", cuProfilerStop(), CUDA_SUCCESS);
  Expect("cuCtxDestroy", cuCtxDestroy(context), CUDA_SUCCESS);
  printf("%s\n", failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
