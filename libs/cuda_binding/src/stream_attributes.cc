// Stream attributes (cuStreamGetAttribute, cuStreamSetAttribute,
// cuStreamCopyAttributes): CUDA's attribute union converted to core's by id
// (core/stream_attributes.h).
#include "core/stream_attributes.h"

#include <cuda.h>

#include "core/c_enum.h"
#include "core/handle.h"
#include "result.h"

using streamhal::HandleValue;
using streamhal::StreamAttributeValue;
using streamhal::cuda::ToCUresult;

namespace {

static_assert(CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW ==
              streamhal::kStreamAttributeAccessPolicyWindow);
static_assert(CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY ==
              streamhal::kStreamAttributeSynchronizationPolicy);
static_assert(CU_LAUNCH_ATTRIBUTE_PRIORITY == streamhal::kStreamAttributePriority);
static_assert(CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP ==
              streamhal::kStreamAttributeMemSyncDomainMap);
static_assert(CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN == streamhal::kStreamAttributeMemSyncDomain);

// The union's members are read by id; enumerations as ints (a C caller may
// store any number there).
StreamAttributeValue FromUnion(int id, const CUstreamAttrValue& from) {
  StreamAttributeValue to;
  switch (id) {
    case streamhal::kStreamAttributeAccessPolicyWindow:
      to.window_base = HandleValue(from.accessPolicyWindow.base_ptr);
      to.window_bytes = from.accessPolicyWindow.num_bytes;
      to.hit_ratio = from.accessPolicyWindow.hitRatio;
      to.hit_property = streamhal::EnumArgument(from.accessPolicyWindow.hitProp);
      to.miss_property = streamhal::EnumArgument(from.accessPolicyWindow.missProp);
      break;
    case streamhal::kStreamAttributeMemSyncDomainMap:
      to.domain_default = from.memSyncDomainMap.default_;
      to.domain_remote = from.memSyncDomainMap.remote;
      break;
    default:
      // syncPolicy, priority and memSyncDomain are int-sized and share the
      // union's first bytes.
      to.value = from.priority;
      break;
  }
  return to;
}

void ToUnion(int id, const StreamAttributeValue& from, CUstreamAttrValue* to) {
  *to = CUstreamAttrValue{};
  switch (id) {
    case streamhal::kStreamAttributeAccessPolicyWindow:
      to->accessPolicyWindow.base_ptr = streamhal::ToApiHandle<void*>(from.window_base);
      to->accessPolicyWindow.num_bytes = from.window_bytes;
      to->accessPolicyWindow.hitRatio = from.hit_ratio;
      to->accessPolicyWindow.hitProp = static_cast<CUaccessProperty>(from.hit_property);
      to->accessPolicyWindow.missProp = static_cast<CUaccessProperty>(from.miss_property);
      break;
    case streamhal::kStreamAttributeMemSyncDomainMap:
      to->memSyncDomainMap.default_ = from.domain_default;
      to->memSyncDomainMap.remote = from.domain_remote;
      break;
    default:
      to->priority = from.value;
      break;
  }
}

}  // namespace

extern "C" {

CUresult cuStreamGetAttribute(CUstream hStream, CUstreamAttrID attr, CUstreamAttrValue* value_out) {
  const int id = streamhal::EnumArgument(attr);
  StreamAttributeValue value;
  const absl::Status status = streamhal::StreamGetAttribute(
      HandleValue(hStream), id, value_out != nullptr ? &value : nullptr);
  if (status.ok()) ToUnion(id, value, value_out);
  return ToCUresult(status);
}

CUresult cuStreamSetAttribute(CUstream hStream, CUstreamAttrID attr,
                              const CUstreamAttrValue* value) {
  const int id = streamhal::EnumArgument(attr);
  StreamAttributeValue converted;
  if (value != nullptr) converted = FromUnion(id, *value);
  return ToCUresult(streamhal::StreamSetAttribute(HandleValue(hStream), id,
                                                  value != nullptr ? &converted : nullptr));
}

CUresult cuStreamCopyAttributes(CUstream dst, CUstream src) {
  return ToCUresult(streamhal::StreamCopyAttributes(HandleValue(dst), HandleValue(src)));
}

}  // extern "C"
