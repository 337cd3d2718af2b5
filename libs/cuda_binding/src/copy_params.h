// CUDA's copy descriptors (CUDA_MEMCPY2D, CUDA_MEMCPY3D) to core's
// Copy3DParams and back: shared by the copies (transfer.cc) and memcpy graph
// nodes (graph.cc).
#ifndef STREAMHAL_CUDA_BINDING_COPY_PARAMS_H_
#define STREAMHAL_CUDA_BINDING_COPY_PARAMS_H_

#include <cuda.h>

#include "absl/status/statusor.h"
#include "core/graph.h"

namespace streamhal::cuda {

// Null descriptors, and LOD or reserved members that are not 0 (CUDA: they
// must be), are kInvalidValue; everything else is core's to check.
absl::StatusOr<Copy3DParams> ToCopy(const CUDA_MEMCPY3D* p);
absl::StatusOr<Copy3DParams> ToCopy(const CUDA_MEMCPY2D* p);
void FromCopy(const Copy3DParams& copy, CUDA_MEMCPY3D* p);

}  // namespace streamhal::cuda

#endif  // STREAMHAL_CUDA_BINDING_COPY_PARAMS_H_
