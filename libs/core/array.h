// CUDA arrays (cuArrayCreate, cuArray3DCreate, hipMallocArray, ...): opaque
// texel storage the backend keeps as an image, and the copies with an array
// end (cuMemcpyHtoA, cuMemcpy2D/3D with CU_MEMORYTYPE_ARRAY, ...).
#ifndef STREAMHAL_CORE_ARRAY_H_
#define STREAMHAL_CORE_ARRAY_H_

#include <cstdint>
#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/backend.h"
#include "core/graph.h"
#include "core/handle.h"
#include "core/transfer.h"

namespace streamhal {

class Context;
class Stream;

// CUDA_ARRAY3D_* flags (HIP's hipArray* flags have the same values).
inline constexpr unsigned kArrayLayered = 0x01;
inline constexpr unsigned kArraySurfaceLoadStore = 0x02;
inline constexpr unsigned kArrayCubemap = 0x04;
inline constexpr unsigned kArrayTextureGather = 0x08;
inline constexpr unsigned kArrayDepthTexture = 0x10;
inline constexpr unsigned kArrayColorAttachment = 0x20;
inline constexpr unsigned kArraySparse = 0x40;
inline constexpr unsigned kArrayDeferredMapping = 0x80;

// CUDA_ARRAY3D_DESCRIPTOR: `format` is a CUarray_format value. cuArrayCreate
// is the form with depth 0 and no flags.
struct ArrayDescriptor {
  uint64_t width = 0;
  uint64_t height = 0;
  uint64_t depth = 0;
  uint32_t format = 0;
  uint32_t channels = 0;
  uint32_t flags = 0;
};

class Array : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kArray;

  // `level` > 0 or `mipmapped` != 0: a level of a mipmapped array (the
  // handle `mipmapped`), sharing its image (mipmapped_array.h).
  Array(Context* context, const ArrayDescriptor& desc, uint32_t element_bytes,
        std::shared_ptr<BackendImage> image, uint32_t level = 0, uint64_t mipmapped = 0)
      : Object(kKind),
        context_(context),
        desc_(desc),
        element_bytes_(element_bytes),
        image_(std::move(image)),
        level_(level),
        mipmapped_(mipmapped) {}

  Context* context() const { return context_; }
  const ArrayDescriptor& desc() const { return desc_; }
  BackendImage* image() const { return image_.get(); }
  // Texture and surface views share the image, so a view a pending launch
  // binds outlives the array (docs/kernel-abi.md).
  const std::shared_ptr<BackendImage>& shared_image() const { return image_; }
  // Bytes of one element (format size times channels).
  uint32_t element_bytes() const { return element_bytes_; }
  // The array as copies see it: rows of `width` elements, `rows()` rows a
  // slice, `slices()` slices (the layers of a layered or cubemap array).
  uint64_t rows() const { return desc_.height == 0 ? 1 : desc_.height; }
  uint64_t slices() const { return desc_.depth == 0 ? 1 : desc_.depth; }
  // The mip level of the image this array is (0 for plain arrays), and the
  // handle of the mipmapped array it belongs to (0: none).
  uint32_t level() const { return level_; }
  uint64_t mipmapped_array() const { return mipmapped_; }

 private:
  Context* const context_;
  const ArrayDescriptor desc_;
  const uint32_t element_bytes_;
  const std::shared_ptr<BackendImage> image_;
  const uint32_t level_;
  const uint64_t mipmapped_;
};

// Bytes of one element of `format` with `channels` channels; 0 when CUDA
// does not define the combination.
uint32_t ArrayElementBytes(uint32_t format, uint32_t channels);

// cuArray3DCreate (and cuArrayCreate with `three_d` false: depth and flags
// are 0). Bad shapes, formats, channel counts and flags, and shapes or
// formats the device cannot hold, are kInvalidValue.
absl::Status ArrayCreate(HandleOut out, const ArrayDescriptor& desc, bool three_d);
// The checks of ArrayCreate (`api` names the call in messages) and the
// image that `desc` with `levels` mip levels describes.
absl::Status ValidateArrayShape(const ArrayDescriptor& desc, const char* api);
ImageDesc ArrayImageDesc(const ArrayDescriptor& desc, uint32_t levels);
// Waits for the context's work, then frees the array (kInvalidHandle for a
// null or destroyed one; kInvalidValue for a level of a mipmapped array,
// which goes with its mipmapped array).
absl::Status ArrayDestroy(uint64_t array);
absl::Status ArrayGetDescriptor(uint64_t array, ArrayDescriptor* out);

// The live array `handle` names, or `code` (kInvalidHandle, kInvalidValue)
// naming `what`.
absl::StatusOr<Array*> ResolveArray(uint64_t handle, ErrorCode code, const char* what);

// A copy with at least one array end (CopyEnd::address is the array
// handle; x is in bytes, y rows, z slices or layers), validated and run on
// `stream` as Memcpy3D runs linear copies.
absl::Status ArrayCopy(Stream* stream, const Copy3DParams& copy, Sync sync);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_ARRAY_H_
