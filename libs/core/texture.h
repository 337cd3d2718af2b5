// Texture and surface objects (cuTexObjectCreate, cuSurfObjectCreate,
// hipCreateTextureObject, ...): validated descriptions of what a kernel
// samples or reads and writes. A CUtexObject/CUsurfObject (and HIP's
// hipTextureObject_t/hipSurfaceObject_t) is the 64-bit handle value of one
// of these objects.
//
// Core keeps the descriptors exactly as given (the Get calls return them)
// and checks them once, here, so both APIs reject the same input with the
// same code:
//  - null outputs and null descriptors, unknown resource types, non-zero
//    resource flags, address modes other than wrap/clamp/mirror/border,
//    filters other than point/linear, unknown texture flags, a NaN border
//    colour, level bias or level clamp: kInvalidValue;
//  - an array resource that is null, destroyed or not an array,
//    linear/pitched memory outside one device allocation, misaligned
//    (CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT / _PITCH_ALIGNMENT), or with a
//    format and channel count CUDA does not define: kInvalidValue (the
//    handle is a member of a descriptor, as for array copies);
//  - linear filtering of texels read as integers, and sRGB on anything but
//    8-bit unsigned texels: kInvalidValue;
//  - a surface over anything but an array created with
//    CUDA_ARRAY3D_SURFACE_LDST: kInvalidValue (CUDA's rule);
//  - a mipmapped-array resource that is null or destroyed: kInvalidValue;
//    a resource view's mipmap levels must exist, and its extent is that of
//    its first level (which becomes the view's level 0);
//  - a null or destroyed object handle: kInvalidHandle.
// Objects belong to the context current at creation and go with it.
#ifndef STREAMHAL_CORE_TEXTURE_H_
#define STREAMHAL_CORE_TEXTURE_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/backend.h"
#include "core/handle.h"
#include "core/mutex.h"
#include "core/staged_views.h"

namespace streamhal {

class Array;
class Context;
class Function;

// CUresourcetype (HIP's hipResourceType has the same values).
enum class ResourceType : uint32_t {
  kArray = 0,
  kMipmappedArray = 1,
  kLinear = 2,
  kPitch2D = 3,
};

// CUDA_RESOURCE_DESC in core terms; the members of the type not in use
// are 0. `format` is a CUarray_format value.
struct ResourceDesc {
  ResourceType type = ResourceType::kArray;
  uint64_t array = 0;            // kArray: the array handle
  uint64_t mipmapped_array = 0;  // kMipmappedArray
  uint64_t address = 0;          // kLinear, kPitch2D: device address
  uint32_t format = 0;           // kLinear, kPitch2D
  uint32_t channels = 0;         // kLinear, kPitch2D
  uint64_t size_bytes = 0;       // kLinear
  uint64_t width = 0;            // kPitch2D, in elements
  uint64_t height = 0;           // kPitch2D
  uint64_t pitch = 0;            // kPitch2D, in bytes
  uint32_t flags = 0;            // must be 0
};

// CUaddress_mode and CUfilter_mode values.
inline constexpr uint32_t kAddressWrap = 0;
inline constexpr uint32_t kAddressClamp = 1;
inline constexpr uint32_t kAddressMirror = 2;
inline constexpr uint32_t kAddressBorder = 3;
inline constexpr uint32_t kFilterPoint = 0;
inline constexpr uint32_t kFilterLinear = 1;

// CU_TRSF_* flags of CUDA_TEXTURE_DESC.
inline constexpr uint32_t kTexReadAsInteger = 0x01;
inline constexpr uint32_t kTexNormalizedCoordinates = 0x02;
inline constexpr uint32_t kTexSrgb = 0x10;
inline constexpr uint32_t kTexDisableTrilinearOptimization = 0x20;
inline constexpr uint32_t kTexSeamlessCubemap = 0x40;
inline constexpr uint32_t kKnownTextureFlags = kTexReadAsInteger | kTexNormalizedCoordinates |
                                               kTexSrgb | kTexDisableTrilinearOptimization |
                                               kTexSeamlessCubemap;

// CUDA_TEXTURE_DESC in core terms (HIP's runtime hipTextureDesc converts
// to it: readMode element type is kTexReadAsInteger for integer texels).
struct TextureDesc {
  std::array<uint32_t, 3> address_mode = {};
  uint32_t filter_mode = kFilterPoint;
  uint32_t flags = 0;
  uint32_t max_anisotropy = 0;
  uint32_t mipmap_filter_mode = kFilterPoint;
  float mipmap_level_bias = 0;
  float min_mipmap_level_clamp = 0;
  float max_mipmap_level_clamp = 0;
  std::array<float, 4> border_color = {};
};

// CUDA_RESOURCE_VIEW_DESC in core terms; `format` a CUresourceViewFormat.
struct ResourceViewDesc {
  uint32_t format = 0;
  uint64_t width = 0;
  uint64_t height = 0;
  uint64_t depth = 0;
  uint32_t first_mipmap_level = 0;
  uint32_t last_mipmap_level = 0;
  uint32_t first_layer = 0;
  uint32_t last_layer = 0;
};

// The views a texture or surface object has made for kernels to bind, one
// per way of binding it (a kernel's declared dimension and texel type).
// Made on the first launch that needs each; kept until the object goes.
class BoundViews {
 public:
  // The view made for a kernel that declares `dimension` and `numeric`, or
  // null when none was made yet (the launch fast path: an object and its
  // array never change, so what was checked once stays checked).
  std::shared_ptr<BackendResourceView> Find(ViewDimension dimension, TexelNumeric numeric);
  // The view `desc` describes of `array`'s image, made with the device's
  // backend on first use.
  absl::StatusOr<std::shared_ptr<BackendResourceView>> Get(const Array& array,
                                                           const BindingViewDesc& desc);
  // The same for `image` (a mipmapped array's), made on `device`.
  absl::StatusOr<std::shared_ptr<BackendResourceView>> Get(
      BackendDevice* device, const std::shared_ptr<BackendImage>& image,
      const BindingViewDesc& desc);

 private:
  struct Entry {
    ViewDimension dimension;
    TexelNumeric numeric;
    std::shared_ptr<BackendResourceView> view;
  };
  Mutex mutex_;
  // Entries never move or go before the object, so `first_` (the first
  // one made: objects are nearly always bound one way) is read without
  // the lock.
  absl::InlinedVector<std::unique_ptr<Entry>, 1> entries_ ABSL_GUARDED_BY(mutex_);
  std::atomic<const Entry*> first_{nullptr};
};

class TextureObject : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kTexObject;

  TextureObject(Context* context, const ResourceDesc& resource, const TextureDesc& texture,
                const std::optional<ResourceViewDesc>& view)
      : Object(kKind), context_(context), resource_(resource), texture_(texture), view_(view) {}

  Context* context() const { return context_; }
  const ResourceDesc& resource() const { return resource_; }
  const TextureDesc& texture() const { return texture_; }
  const std::optional<ResourceViewDesc>& view() const { return view_; }
  BoundViews& bound_views() { return bound_views_; }
  // Over pitched memory: the pool of images launches copy the memory into
  // (staged_views.h), made on the first launch with what it needs.
  std::shared_ptr<StagedViews> staged_views(BackendDevice* device, const ImageDesc& image,
                                            const BindingViewDesc& desc);

 private:
  Context* const context_;
  const ResourceDesc resource_;
  const TextureDesc texture_;
  const std::optional<ResourceViewDesc> view_;
  BoundViews bound_views_;
  Mutex staged_mutex_;
  std::shared_ptr<StagedViews> staged_views_ ABSL_GUARDED_BY(staged_mutex_);
};

class SurfaceObject : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kSurfObject;

  SurfaceObject(Context* context, const ResourceDesc& resource)
      : Object(kKind), context_(context), resource_(resource) {}

  Context* context() const { return context_; }
  const ResourceDesc& resource() const { return resource_; }
  BoundViews& bound_views() { return bound_views_; }

 private:
  Context* const context_;
  const ResourceDesc resource_;
  BoundViews bound_views_;
};

// A texture object as cuTexObjectCreate makes it, checked as it checks
// (errors name `api`), owned by the caller: texture references keep one
// per state (core/texture_ref.h). `view` may be null.
absl::StatusOr<std::unique_ptr<TextureObject>> MakeTextureObject(Context* context,
                                                                 const ResourceDesc& resource,
                                                                 const TextureDesc& texture,
                                                                 const ResourceViewDesc* view,
                                                                 const char* api);
absl::StatusOr<std::unique_ptr<SurfaceObject>> MakeSurfaceObject(Context* context,
                                                                 const ResourceDesc& resource,
                                                                 const char* api);
// The resource checks of MakeTextureObject alone.
absl::Status ValidateTextureResource(Context* context, const ResourceDesc& resource,
                                     const char* api);

// cuTexObjectCreate: `texture` is required, `view` optional (null: none).
// `out` receives the handle value.
absl::Status TexObjectCreate(uint64_t* out, const ResourceDesc* resource,
                             const TextureDesc* texture, const ResourceViewDesc* view);
absl::Status TexObjectDestroy(uint64_t texture);
absl::Status TexObjectGetResourceDesc(uint64_t texture, ResourceDesc* out);
absl::Status TexObjectGetTextureDesc(uint64_t texture, TextureDesc* out);
// kInvalidValue when the object was created without a view (CUDA's rule).
absl::Status TexObjectGetResourceViewDesc(uint64_t texture, ResourceViewDesc* out);

absl::Status SurfObjectCreate(uint64_t* out, const ResourceDesc* resource);
absl::Status SurfObjectDestroy(uint64_t surface);
absl::Status SurfObjectGetResourceDesc(uint64_t surface, ResourceDesc* out);

// The views one launch binds, one per texture or surface parameter of the
// kernel (KernelLayout::resources order).
using LaunchResources = absl::InlinedVector<std::shared_ptr<BackendResourceView>, 4>;

// For each texture or surface parameter of `function`, the object whose
// handle `params` (the launch's parameter block) holds there (for each
// texture or surface reference, what the module's reference holds), checked
// against what the kernel declares; its view goes to `out`. A handle that
// names no live object of the right kind (a surface for a texture, a
// destroyed texture, any other value), an object of another context, or
// one whose array was destroyed is kInvalidValue; a shape, texel type or
// sampler the kernel's declaration cannot read is kInvalidValue; what the
// device cannot bind (unnormalised coordinates on 3-D, layered or cubemap
// textures; border colours other than transparent or opaque black and
// opaque white without VK_EXT_custom_border_color) is kNotSupported.
// Textures over pitched memory bind an image of the object's pool that the
// dispatch fills from the memory first (staged_views.h).
absl::Status ResolveLaunchResources(const Function& function, const uint8_t* params,
                                    LaunchResources* out);

// Element bytes and channels of a CUresourceViewFormat (0 for NONE and the
// block-compressed formats, which no array here holds).
uint32_t ResourceViewElementBytes(uint32_t view_format);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_TEXTURE_H_
