// Stream attributes (cuStreamGetAttribute, cuStreamSetAttribute,
// cuStreamCopyAttributes): the launch attributes CUDA documents as valid for
// streams, kept per stream and reported back as set. None changes how the
// work runs on a Vulkan device (no persisting L2 cache, one queue, fences
// that cover all memory), and each is accepted only with values that are
// valid for CUDA too.
#ifndef STREAMHAL_CORE_STREAM_ATTRIBUTES_H_
#define STREAMHAL_CORE_STREAM_ATTRIBUTES_H_

#include <cstdint>

#include "absl/status/status.h"

namespace streamhal {

// One attribute's value, read by the binding from CUDA's union according to
// the id (CUlaunchAttributeID values); fields the id does not use are 0.
struct StreamAttributeValue {
  // CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW.
  uint64_t window_base = 0;
  uint64_t window_bytes = 0;
  float hit_ratio = 0.0f;
  int hit_property = 0;
  int miss_property = 0;
  // SYNCHRONIZATION_POLICY, PRIORITY or MEM_SYNC_DOMAIN.
  int value = 0;
  // MEM_SYNC_DOMAIN_MAP.
  uint8_t domain_default = 0;
  uint8_t domain_remote = 0;
};

// What a stream keeps (the priority is the stream's own).
struct StreamAttributes {
  StreamAttributeValue window;
  int sync_policy = 1;  // CU_SYNC_POLICY_AUTO
  int mem_sync_domain = 0;
  uint8_t domain_default = 0;
  uint8_t domain_remote = 1;  // CUDA's default map: remote work in the remote domain
};

// Ids of the attributes valid for streams (CUlaunchAttributeID).
inline constexpr int kStreamAttributeAccessPolicyWindow = 1;
inline constexpr int kStreamAttributeSynchronizationPolicy = 3;
inline constexpr int kStreamAttributePriority = 8;
inline constexpr int kStreamAttributeMemSyncDomainMap = 9;
inline constexpr int kStreamAttributeMemSyncDomain = 10;

// `value` null or an id not valid for streams: kInvalidValue.
absl::Status StreamGetAttribute(uint64_t stream, int id, StreamAttributeValue* value);
absl::Status StreamSetAttribute(uint64_t stream, int id, const StreamAttributeValue* value);
// Copies the kept attributes from `src` to `dst` (the priority is the
// stream's own, set at creation or with cuStreamSetAttribute); both must
// belong to one context (kInvalidHandle otherwise).
absl::Status StreamCopyAttributes(uint64_t dst, uint64_t src);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_STREAM_ATTRIBUTES_H_
