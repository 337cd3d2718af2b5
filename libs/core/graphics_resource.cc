#include "core/graphics_resource.h"

#include "core/context.h"
#include "core/status.h"
#include "core/stream.h"

namespace streamhal {
namespace {

absl::Status NoSuchResource(uint64_t resource, const char* api) {
  return Error(ErrorCode::kInvalidHandle, api, ": graphics resource 0x", absl::Hex(resource),
               resource == 0 ? " is null"
                             : " is not a registered resource (streamhal registers none: OpenGL, "
                               "EGL and VDPAU interop are not supported)");
}

}  // namespace

absl::Status GraphicsResourceQuery(uint64_t resource, bool output_given, const char* api) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (!output_given) return Error(ErrorCode::kInvalidValue, api, ": an output pointer is null");
  return NoSuchResource(resource, api);
}

absl::Status GraphicsResourceSetMapFlags(uint64_t resource, unsigned flags) {
  constexpr const char* kApi = "cuGraphicsResourceSetMapFlags";
  SH_RETURN_IF_ERROR(CurrentContext().status());
  // CU_GRAPHICS_MAP_RESOURCE_FLAGS_NONE, _READ_ONLY, _WRITE_DISCARD.
  if (flags > 2)
    return Error(ErrorCode::kInvalidValue, kApi, ": unknown flags 0x", absl::Hex(flags));
  return NoSuchResource(resource, kApi);
}

absl::Status GraphicsMapResources(unsigned count, const uint64_t* resources, uint64_t stream,
                                  const char* api) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  SH_RETURN_IF_ERROR(ResolveStream(stream).status());
  if (count == 0 || resources == nullptr) {
    return Error(ErrorCode::kInvalidValue, api, ": ", count, " resources at ",
                 resources == nullptr ? "null" : "a pointer", "; give at least one");
  }
  return NoSuchResource(resources[0], api);
}

}  // namespace streamhal
