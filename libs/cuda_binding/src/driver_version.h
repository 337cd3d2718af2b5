// The CUDA version this driver reports (cuDriverGetVersion) and up to which
// cuGetProcAddress answers: CUDA 13.0, whose default forms (cuCtxCreate_v4,
// cuMemAdvise_v2, ...) are exported beside the CUDA 12 ones. It does not
// depend on the API generation cuda.h presents to the binding's own sources
// (CUDA_VERSION, 12000 there).
#ifndef STREAMHAL_CUDA_BINDING_DRIVER_VERSION_H_
#define STREAMHAL_CUDA_BINDING_DRIVER_VERSION_H_

namespace streamhal::cuda {

inline constexpr int kDriverVersion = 13000;

}  // namespace streamhal::cuda

#endif  // STREAMHAL_CUDA_BINDING_DRIVER_VERSION_H_
