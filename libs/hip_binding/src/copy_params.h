// HIP's copy descriptors (hipMemcpy3DParms, hip_Memcpy2D, HIP_MEMCPY3D and
// the pitched-copy arguments of hipMemcpy2D) to core's Copy3DParams: shared
// by the copies (transfer.cc) and memcpy graph nodes (graph.cc).
#ifndef STREAMHAL_HIP_BINDING_COPY_PARAMS_H_
#define STREAMHAL_HIP_BINDING_COPY_PARAMS_H_

#include <hip/hip_runtime_api.h>

#include "absl/status/statusor.h"
#include "core/graph.h"

namespace streamhal::hip {

// Both ends' memory types for a hipMemcpyKind read as an int (C callers may
// pass any number): hipMemcpyDefault makes both unified, which core
// classifies from the pointers; other numbers are kInvalidMemcpyDirection.
absl::Status EndTypes(int kind, MemoryType* src, MemoryType* dst);
CopyEnd ToEnd(MemoryType type, const hipPitchedPtr& ptr, const hipPos& pos);

// Null descriptors are kInvalidValue; array ends are kNotSupported (arrays
// are not available yet); everything else is core's to check.
absl::StatusOr<Copy3DParams> ToCopy(const hipMemcpy3DParms* p);
absl::StatusOr<Copy3DParams> ToCopy(const hip_Memcpy2D* p);
absl::StatusOr<Copy3DParams> ToCopy(const HIP_MEMCPY3D* p);
// hipMemcpy2D's arguments.
absl::StatusOr<Copy3DParams> ToCopy2D(void* dst, size_t dpitch, const void* src, size_t spitch,
                                      size_t width, size_t height, int kind);

// A 1-D copy of `bytes` between a registered variable (`offset` bytes into
// it) and `memory`, as the memcpy nodes of hipGraphAddMemcpyNodeToSymbol and
// FromSymbol hold it; the same checks as hipMemcpyToSymbol/FromSymbol
// (registration.cc).
absl::StatusOr<Copy3DParams> ToSymbolCopy(const void* symbol, void* memory, size_t bytes,
                                          size_t offset, int kind, bool to_symbol);

}  // namespace streamhal::hip

#endif  // STREAMHAL_HIP_BINDING_COPY_PARAMS_H_
