#include "core/stream_attributes.h"

#include <algorithm>

#include "core/context.h"
#include "core/status.h"
#include "core/stream.h"

namespace streamhal {
namespace {

absl::Status ValidateWindow(const StreamAttributeValue& value) {
  const auto valid_property = [](int property) { return property >= 0 && property <= 2; };
  if (!(value.hit_ratio >= 0.0f && value.hit_ratio <= 1.0f) ||
      !valid_property(value.hit_property) || !valid_property(value.miss_property)) {
    return Error(ErrorCode::kInvalidValue,
                 "cuStreamSetAttribute: access policy window with an invalid hit ratio or "
                 "property");
  }
  // CUDA: num_bytes may not exceed CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_
  // WINDOW_SIZE, which is 0 here (no persisting L2 cache).
  if (value.window_bytes > 0) {
    return Error(ErrorCode::kInvalidValue, "cuStreamSetAttribute: an access policy window of ",
                 value.window_bytes, " bytes exceeds the device's maximum window size of 0");
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status StreamGetAttribute(uint64_t handle, int id, StreamAttributeValue* value) {
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(handle));
  if (value == nullptr) return Error(ErrorCode::kInvalidValue, "cuStreamGetAttribute: null");
  StreamAttributeValue out;
  MutexLock lock(&stream->attributes_mutex());
  const StreamAttributes& kept = stream->attributes();
  switch (id) {
    case kStreamAttributeAccessPolicyWindow:
      out = kept.window;
      break;
    case kStreamAttributeSynchronizationPolicy:
      out.value = kept.sync_policy;
      break;
    case kStreamAttributePriority:
      out.value = stream->priority();
      break;
    case kStreamAttributeMemSyncDomainMap:
      out.domain_default = kept.domain_default;
      out.domain_remote = kept.domain_remote;
      break;
    case kStreamAttributeMemSyncDomain:
      out.value = kept.mem_sync_domain;
      break;
    default:
      return Error(ErrorCode::kInvalidValue, "cuStreamGetAttribute: attribute ", id,
                   " is not a stream attribute");
  }
  *value = out;
  return absl::OkStatus();
}

absl::Status StreamSetAttribute(uint64_t handle, int id, const StreamAttributeValue* value) {
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(handle));
  if (value == nullptr) return Error(ErrorCode::kInvalidValue, "cuStreamSetAttribute: null");
  switch (id) {
    case kStreamAttributeAccessPolicyWindow: {
      SH_RETURN_IF_ERROR(ValidateWindow(*value));
      MutexLock lock(&stream->attributes_mutex());
      StreamAttributeValue& window = stream->attributes().window;
      window = StreamAttributeValue{};
      window.window_base = value->window_base;
      window.hit_ratio = value->hit_ratio;
      window.hit_property = value->hit_property;
      window.miss_property = value->miss_property;
      return absl::OkStatus();
    }
    case kStreamAttributeSynchronizationPolicy: {
      // CUsynchronizationPolicy: AUTO 1, SPIN 2, YIELD 3, BLOCKING_SYNC 4.
      if (value->value < 1 || value->value > 4) {
        return Error(ErrorCode::kInvalidValue, "cuStreamSetAttribute: unknown synchronization ",
                     "policy ", value->value);
      }
      MutexLock lock(&stream->attributes_mutex());
      stream->attributes().sync_policy = value->value;
      return absl::OkStatus();
    }
    case kStreamAttributePriority: {
      // As at creation, CUDA clamps a priority outside the range.
      int least = 0, greatest = 0;
      SH_RETURN_IF_ERROR(GetStreamPriorityRange(&least, &greatest));
      stream->set_priority(std::clamp(value->value, greatest, least));
      return absl::OkStatus();
    }
    case kStreamAttributeMemSyncDomainMap: {
      // CUlaunchMemSyncDomain has two domains: default 0, remote 1.
      if (value->domain_default > 1 || value->domain_remote > 1) {
        return Error(ErrorCode::kInvalidValue,
                     "cuStreamSetAttribute: a memory synchronization domain map names a domain "
                     "other than 0 and 1");
      }
      MutexLock lock(&stream->attributes_mutex());
      stream->attributes().domain_default = value->domain_default;
      stream->attributes().domain_remote = value->domain_remote;
      return absl::OkStatus();
    }
    case kStreamAttributeMemSyncDomain: {
      if (value->value < 0 || value->value > 1) {
        return Error(ErrorCode::kInvalidValue,
                     "cuStreamSetAttribute: unknown memory synchronization domain ", value->value);
      }
      MutexLock lock(&stream->attributes_mutex());
      stream->attributes().mem_sync_domain = value->value;
      return absl::OkStatus();
    }
    default:
      return Error(ErrorCode::kInvalidValue, "cuStreamSetAttribute: attribute ", id,
                   " is not a stream attribute");
  }
}

absl::Status StreamCopyAttributes(uint64_t dst_handle, uint64_t src_handle) {
  SH_ASSIGN_OR_RETURN(Stream * dst, ResolveStream(dst_handle));
  SH_ASSIGN_OR_RETURN(Stream * src, ResolveStream(src_handle));
  if (dst->context() != src->context()) {
    return Error(ErrorCode::kInvalidHandle,
                 "cuStreamCopyAttributes: the streams belong to different contexts");
  }
  if (dst == src) return absl::OkStatus();
  StreamAttributes copy;
  {
    MutexLock lock(&src->attributes_mutex());
    copy = src->attributes();
  }
  MutexLock lock(&dst->attributes_mutex());
  dst->attributes() = copy;
  return absl::OkStatus();
}

}  // namespace streamhal
