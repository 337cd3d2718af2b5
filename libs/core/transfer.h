// Copies and fills (cuMemcpy*, cuMemsetD*): validation, direction inference
// and CUDA's synchronisation rules; the backend stream records the work.
#ifndef STREAMHAL_CORE_TRANSFER_H_
#define STREAMHAL_CORE_TRANSFER_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"

namespace streamhal {

// Whether a call is the synchronous form (cuMemcpyHtoD) or the async one
// (cuMemcpyHtoDAsync) on `stream`.
enum class Sync { kBlocking, kAsync };

// Direction of a copy. kDefault infers it from the pointers (cuMemcpy,
// hipMemcpyDefault), which requires unified addressing.
enum class CopyKind { kHostToHost, kHostToDevice, kDeviceToHost, kDeviceToDevice, kDefault };

// dst/src are device addresses or host pointers as `kind` says.
absl::Status Memcpy(uint64_t dst, uint64_t src, size_t bytes, CopyKind kind, uint64_t stream,
                    Sync sync);

// Fills `count` elements of `element_size` (1, 2, 4) bytes at `dst` with the
// low bytes of `value`. `dst` must be aligned to `element_size`.
absl::Status Memset(uint64_t dst, uint32_t value, unsigned element_size, size_t count,
                    uint64_t stream, Sync sync);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_TRANSFER_H_
