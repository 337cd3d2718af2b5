// Graphics interop resources (cuGraphicsMapResources and the other generic
// cuGraphics* calls). streamhal registers no OpenGL, EGL or VDPAU object
// (those registration calls answer kNotSupported), so no resource handle can
// be valid: each call checks its other arguments as CUDA documents and then
// reports the resource as an invalid handle, never touching it.
#ifndef STREAMHAL_CORE_GRAPHICS_RESOURCE_H_
#define STREAMHAL_CORE_GRAPHICS_RESOURCE_H_

#include <cstdint>

#include "absl/status/status.h"

namespace streamhal {

// cuGraphicsUnregisterResource, cuGraphicsResourceGetMappedPointer,
// cuGraphicsSubResourceGetMappedArray, cuGraphicsResourceGetMappedMipmappedArray:
// a current context, the output (null: kInvalidValue), then the resource
// (kInvalidHandle). `output_given` is false for calls without one.
absl::Status GraphicsResourceQuery(uint64_t resource, bool output_given, const char* api);
// cuGraphicsResourceSetMapFlags: flags beyond READ_ONLY / WRITE_DISCARD
// (values 0 to 2) are kInvalidValue; then the resource.
absl::Status GraphicsResourceSetMapFlags(uint64_t resource, unsigned flags);
// cuGraphicsMapResources / cuGraphicsUnmapResources: the stream, then
// `count` (0: kInvalidValue) resources (null: kInvalidValue), each of which
// is an invalid handle.
absl::Status GraphicsMapResources(unsigned count, const uint64_t* resources, uint64_t stream,
                                  const char* api);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_GRAPHICS_RESOURCE_H_
