// hipChannelFormatDesc as CUarray_format and channel count, and back
// (arrays and texture objects of the runtime API).
#ifndef STREAMHAL_HIP_BINDING_CHANNEL_FORMAT_H_
#define STREAMHAL_HIP_BINDING_CHANNEL_FORMAT_H_

#include <hip/hip_runtime_api.h>

#include "absl/status/status.h"
#include "core/array.h"

namespace streamhal::hip {

// Every present channel must have the same width; a width or kind that
// names no array format leaves format 0, which core rejects.
absl::Status FromChannelDesc(const hipChannelFormatDesc* desc, ArrayDescriptor* d);
hipChannelFormatDesc ToChannelDesc(const ArrayDescriptor& d);

}  // namespace streamhal::hip

#endif  // STREAMHAL_HIP_BINDING_CHANNEL_FORMAT_H_
