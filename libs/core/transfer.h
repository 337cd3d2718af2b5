// Copies and fills (cuMemcpy*, cuMemsetD*): validation, direction inference
// and CUDA's synchronisation rules; the backend stream records the work.
#ifndef STREAMHAL_CORE_TRANSFER_H_
#define STREAMHAL_CORE_TRANSFER_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "core/graph.h"

namespace streamhal {

class Stream;

// Whether a call is the synchronous form (cuMemcpyHtoD) or the async one
// (cuMemcpyHtoDAsync) on `stream`.
enum class Sync { kBlocking, kAsync };

// Direction of a copy. kDefault infers it from the pointers (cuMemcpy,
// hipMemcpyDefault), which requires unified addressing.
enum class CopyKind { kHostToHost, kHostToDevice, kDeviceToHost, kDeviceToDevice, kDefault };

// dst/src are device addresses or host pointers as `kind` says.
absl::Status Memcpy(uint64_t dst, uint64_t src, size_t bytes, CopyKind kind, uint64_t stream,
                    Sync sync);

// cuMemcpyPeer(Async): copies `bytes` from `src`, memory of the device of
// context `src_context`, to `dst`, memory of the device of `dst_context`
// (kInvalidContext for a bad context; kInvalidValue when a pointer is not
// memory of its context's device). The synchronous form is serialised with
// the current context and both contexts; the async one is ordered in
// `stream` only. Between devices the bytes go through the host.
absl::Status MemcpyPeerContexts(uint64_t dst, uint64_t dst_context, uint64_t src,
                                uint64_t src_context, size_t bytes, uint64_t stream, Sync sync);
// hipMemcpyPeer(Async): the same with device ordinals (kInvalidDevice).
absl::Status MemcpyPeerDevices(uint64_t dst, int dst_device, uint64_t src, int src_device,
                               size_t bytes, uint64_t stream, Sync sync);

// Fills `count` elements of `element_size` (1, 2, 4) bytes at `dst` with the
// low bytes of `value`. `dst` must be aligned to `element_size`.
absl::Status Memset(uint64_t dst, uint32_t value, unsigned element_size, size_t count,
                    uint64_t stream, Sync sync);

// A 2-D or 3-D copy between linear memories as CUDA_MEMCPY3D describes it
// (cuMemcpy2D/3D, hipMemcpy2D/3D and their async forms; a 2-D copy is one
// slice). Unified ends are classified from the pointer, as cuMemcpy does.
// A copy with a zero extent succeeds and does nothing, like a 1-D copy of
// 0 bytes. A copy with an array end goes to ArrayCopy (array.h). In a
// capturing stream a linear copy becomes a memcpy node.
absl::Status Memcpy3D(const Copy3DParams& copy, uint64_t stream, Sync sync);

// cuMemcpy3DPeer(Async): Memcpy3D where each device end is memory of the
// device of its context (`dst_context`, `src_context`; ignored for host and
// array ends, as CUDA documents): kInvalidContext for a bad context of a
// device end, kInvalidValue when the memory is another device's. A copy
// whose device ends are not all on the current context's device is
// kNotSupported (only the 1-D peer copies cross devices).
absl::Status Memcpy3DPeer(const Copy3DParams& copy, uint64_t dst_context, uint64_t src_context,
                          uint64_t stream, Sync sync);

// Runs a copy that ValidateCopy3D accepted on `stream`, which does not
// capture (Memcpy3D, and graph launches for copies that touch pageable
// memory).
absl::Status RunCopy3D(Stream* stream, const Copy3DParams& copy, Sync sync);

// Fills `depth` slices, `slice_pitch` bytes apart, of `rows.height` rows of
// `rows.width` elements (cuMemsetD2D*, hipMemset2D/3D). A zero extent
// succeeds and does nothing. In a capturing stream the fill becomes memset
// nodes (one, or one per slice where slices are not back to back).
absl::Status Memset3D(const MemsetNodeParams& rows, uint64_t depth, uint64_t slice_pitch,
                      uint64_t stream, Sync sync);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_TRANSFER_H_
