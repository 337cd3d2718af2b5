// Mipmapped arrays (cuMipmappedArrayCreate, hipMipmappedArrayCreate,
// hipMallocMipmappedArray, ...): one image with several mip levels, each
// level reachable as an Array (cuMipmappedArrayGetLevel) that copies and
// surfaces use like any array, and the whole bound by texture objects
// with mipmap filtering.
//
// Lifetime (CUDA's rule): a level's array belongs to its mipmapped array.
// cuMipmappedArrayGetLevel makes it once and returns the same handle again;
// cuArrayDestroy refuses it; cuMipmappedArrayDestroy destroys the levels'
// handles with the mipmapped array, so a level handle used afterwards is a
// destroyed handle. Texture views share the image, so a launch that is
// still pending keeps what it samples.
#ifndef STREAMHAL_CORE_MIPMAPPED_ARRAY_H_
#define STREAMHAL_CORE_MIPMAPPED_ARRAY_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/array.h"
#include "core/backend.h"
#include "core/handle.h"
#include "core/mutex.h"

namespace streamhal {

class Context;

class MipmappedArray : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kMipmappedArray;

  MipmappedArray(Context* context, const ArrayDescriptor& desc, uint32_t levels,
                 uint32_t element_bytes, std::shared_ptr<BackendImage> image)
      : Object(kKind),
        context_(context),
        desc_(desc),
        levels_(levels),
        element_bytes_(element_bytes),
        image_(std::move(image)),
        level_arrays_(levels, 0) {}

  Context* context() const { return context_; }
  // Level 0's extent, as created.
  const ArrayDescriptor& desc() const { return desc_; }
  uint32_t levels() const { return levels_; }
  uint32_t element_bytes() const { return element_bytes_; }
  const std::shared_ptr<BackendImage>& shared_image() const { return image_; }

  // The extent of `level` (< levels()): each extent halved per level,
  // never below 1; layers and cubemap faces are not halved.
  ArrayDescriptor LevelDesc(uint32_t level) const;
  // The array of `level` (< levels()), made on first use and owned by the
  // context until this goes.
  absl::StatusOr<uint64_t> Level(uint32_t level);
  // Destroys the level arrays made so far (before this goes).
  void DestroyLevels();

 private:
  Context* const context_;
  const ArrayDescriptor desc_;
  const uint32_t levels_;
  const uint32_t element_bytes_;
  const std::shared_ptr<BackendImage> image_;
  Mutex mutex_;
  std::vector<uint64_t> level_arrays_ ABSL_GUARDED_BY(mutex_);  // 0: not made
};

// The number of levels a mipmapped array of `desc` gets when `requested`
// are asked for: CUDA clamps it to [1, 1 + floor(log2(max extent))]
// (layers not counted).
uint32_t ClampMipmapLevels(const ArrayDescriptor& desc, uint32_t requested);

// cuMipmappedArrayCreate: the shapes, formats and flags of cuArray3DCreate
// (kInvalidValue for bad ones and for what the device cannot hold);
// `levels` is clamped as CUDA documents.
absl::Status MipmappedArrayCreate(HandleOut out, const ArrayDescriptor* desc, uint32_t levels);
// cuMipmappedArrayGetLevel: kInvalidHandle for a null or destroyed
// mipmapped array, kInvalidValue for a null output or a level >= levels.
absl::Status MipmappedArrayGetLevel(HandleOut out, uint64_t mipmapped, uint32_t level);
// cuMipmappedArrayDestroy: waits for the context's work, then frees the
// image and destroys the level arrays (kInvalidHandle for a null or
// destroyed handle).
absl::Status MipmappedArrayDestroy(uint64_t mipmapped);
// Level 0's descriptor and the level count (hipMipmappedArray queries).
absl::Status MipmappedArrayGetDescriptor(uint64_t mipmapped, ArrayDescriptor* out,
                                         uint32_t* levels);

// The live mipmapped array `handle` names, or `code` naming `what`.
absl::StatusOr<MipmappedArray*> ResolveMipmappedArray(uint64_t handle, ErrorCode code,
                                                      const char* what);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_MIPMAPPED_ARRAY_H_
