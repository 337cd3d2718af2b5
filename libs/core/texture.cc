#include "core/texture.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "core/array.h"
#include "core/context.h"
#include "core/device.h"
#include "core/memory.h"
#include "core/mipmapped_array.h"
#include "core/module.h"
#include "core/status.h"
#include "core/texture_ref.h"

namespace streamhal {
namespace {

// CUarray_format values whose texels are integers (unsigned 8/16/32, signed
// 8/16/32); the rest are half and float.
bool IsIntegerFormat(uint32_t format) { return format < 0x10; }
constexpr uint32_t kFormatUint8 = 0x01;

// The texel format of `resource` (format, channels) and, for arrays, the
// array; checks the memory of linear and pitched resources.
struct Texels {
  uint32_t format = 0;
  uint32_t channels = 0;
  Array* array = nullptr;
  MipmappedArray* mipmapped = nullptr;
};

absl::StatusOr<Texels> ValidateResource(Context* context, const ResourceDesc& r, const char* api) {
  if (r.flags != 0) {
    return Error(ErrorCode::kInvalidValue, api, ": pResDesc->flags must be 0, got 0x",
                 absl::Hex(r.flags));
  }
  Texels texels;
  const DeviceProperties& props = context->device()->properties();
  switch (r.type) {
    case ResourceType::kArray: {
      SH_ASSIGN_OR_RETURN(texels.array, ResolveArray(r.array, ErrorCode::kInvalidValue, api));
      if (texels.array->context()->device() != context->device()) {
        return Error(ErrorCode::kInvalidValue, api, ": the array belongs to another device");
      }
      texels.format = texels.array->desc().format;
      texels.channels = texels.array->desc().channels;
      return texels;
    }
    case ResourceType::kMipmappedArray: {
      SH_ASSIGN_OR_RETURN(texels.mipmapped,
                          ResolveMipmappedArray(r.mipmapped_array, ErrorCode::kInvalidValue, api));
      if (texels.mipmapped->context()->device() != context->device()) {
        return Error(ErrorCode::kInvalidValue, api,
                     ": the mipmapped array belongs to another device");
      }
      texels.format = texels.mipmapped->desc().format;
      texels.channels = texels.mipmapped->desc().channels;
      return texels;
    }
    case ResourceType::kLinear:
    case ResourceType::kPitch2D:
      break;
    default:
      return Error(ErrorCode::kInvalidValue, api, ": resource type ", static_cast<uint32_t>(r.type),
                   " is unknown");
  }
  const uint32_t element = ArrayElementBytes(r.format, r.channels);
  if (element == 0) {
    return Error(ErrorCode::kInvalidValue, api, ": format 0x", absl::Hex(r.format), " with ",
                 r.channels, " channels is no texel format (1, 2 or 4 channels of ",
                 "8/16/32-bit integers, half or float)");
  }
  if (r.address == 0) return Error(ErrorCode::kInvalidValue, api, ": devPtr is null");
  const uint64_t alignment = props.texture_alignment > 0 ? props.texture_alignment : 1;
  if (r.address % alignment != 0) {
    return Error(ErrorCode::kInvalidValue, api, ": devPtr 0x", absl::Hex(r.address),
                 " is not a multiple of the texture alignment (", alignment, ")");
  }
  uint64_t span = 0;
  if (r.type == ResourceType::kLinear) {
    if (r.size_bytes == 0 || r.size_bytes % element != 0) {
      return Error(ErrorCode::kInvalidValue, api, ": sizeInBytes ", r.size_bytes,
                   " is not a positive multiple of the ", element, "-byte element");
    }
    span = r.size_bytes;
  } else {
    if (r.width == 0 || r.height == 0) {
      return Error(ErrorCode::kInvalidValue, api, ": pitched extent ", r.width, " x ", r.height,
                   " is empty");
    }
    const uint64_t pitch_alignment =
        props.texture_pitch_alignment > 0 ? props.texture_pitch_alignment : 1;
    if (r.width > UINT32_MAX || r.height > UINT32_MAX || r.pitch / element < r.width ||
        r.pitch % pitch_alignment != 0) {
      return Error(ErrorCode::kInvalidValue, api, ": pitchInBytes ", r.pitch,
                   " must hold a row of ", r.width, " elements and be a multiple of ",
                   pitch_alignment);
    }
    // No overflow: pitch and height are checked above or fit 32 bits.
    if (r.pitch > UINT64_MAX / r.height) {
      return Error(ErrorCode::kInvalidValue, api, ": pitched region is larger than memory");
    }
    span = r.pitch * (r.height - 1) + r.width * element;
  }
  SH_RETURN_IF_ERROR(ResolveDeviceRange(r.address, span, api).status());
  texels.format = r.format;
  texels.channels = r.channels;
  return texels;
}

absl::Status ValidateTexture(const TextureDesc& t, const Texels& texels, const char* api) {
  for (int i = 0; i < 3; ++i) {
    if (t.address_mode[i] > kAddressBorder) {
      return Error(ErrorCode::kInvalidValue, api, ": addressMode[", i, "] ", t.address_mode[i],
                   " is not wrap, clamp, mirror or border");
    }
  }
  if (t.filter_mode > kFilterLinear || t.mipmap_filter_mode > kFilterLinear) {
    return Error(ErrorCode::kInvalidValue, api, ": filter mode ", t.filter_mode,
                 " / mipmap filter mode ", t.mipmap_filter_mode, " is not point or linear");
  }
  if ((t.flags & ~kKnownTextureFlags) != 0) {
    return Error(ErrorCode::kInvalidValue, api, ": unknown texture flags 0x",
                 absl::Hex(t.flags & ~kKnownTextureFlags));
  }
  for (float c : t.border_color) {
    if (std::isnan(c)) return Error(ErrorCode::kInvalidValue, api, ": borderColor is NaN");
  }
  if (std::isnan(t.mipmap_level_bias) || std::isnan(t.min_mipmap_level_clamp) ||
      std::isnan(t.max_mipmap_level_clamp)) {
    return Error(ErrorCode::kInvalidValue, api,
                 ": mipmapLevelBias, minMipmapLevelClamp or maxMipmapLevelClamp is NaN");
  }
  // Linear filtering of texels read as integers (CU_TRSF_READ_AS_INTEGER, or
  // 32-bit integers) is accepted, as NVIDIA's driver accepts it (ffmpeg's
  // bilinear scale_cuda and thumbnail_cuda set it): CUDA defines linear
  // filtering only for reads that return floats, and such reads sample the
  // nearest texel here (TextureBinding).
  if ((t.flags & kTexSrgb) != 0 && texels.format != kFormatUint8) {
    return Error(ErrorCode::kInvalidValue, api,
                 ": CU_TRSF_SRGB needs 8-bit unsigned texels (format 0x", absl::Hex(texels.format),
                 ")");
  }
  return absl::OkStatus();
}

absl::Status ValidateView(const ResourceViewDesc& v, const ResourceDesc& r, const Texels& texels,
                          const char* api) {
  // CUDA: a view applies to (mipmapped) arrays only.
  if (r.type != ResourceType::kArray && r.type != ResourceType::kMipmappedArray) {
    return Error(ErrorCode::kInvalidValue, api, ": a resource view needs an array resource");
  }
  const uint32_t levels = texels.mipmapped != nullptr ? texels.mipmapped->levels() : 1;
  if (v.first_mipmap_level > v.last_mipmap_level || v.last_mipmap_level >= levels) {
    return Error(ErrorCode::kInvalidValue, api, ": mipmap levels ", v.first_mipmap_level, "..",
                 v.last_mipmap_level, " of an array with ", levels);
  }
  // The view's first level is its level 0: the extent is that level's.
  const ArrayDescriptor d = texels.mipmapped != nullptr
                                ? texels.mipmapped->LevelDesc(v.first_mipmap_level)
                                : texels.array->desc();
  const uint32_t element = ArrayElementBytes(d.format, d.channels);
  if (v.format != 0) {
    const uint32_t bytes = ResourceViewElementBytes(v.format);
    if (bytes == 0 || bytes != element) {
      return Error(ErrorCode::kInvalidValue, api, ": view format 0x", absl::Hex(v.format),
                   " does not match the array's ", element, "-byte elements");
    }
  }
  const bool layered = (d.flags & (kArrayLayered | kArrayCubemap)) != 0;
  const uint64_t view_depth = layered ? 0 : d.depth;
  if (v.width != d.width || v.height != d.height || v.depth != view_depth) {
    return Error(ErrorCode::kInvalidValue, api, ": view extent ", v.width, " x ", v.height, " x ",
                 v.depth, " differs from the array's ", d.width, " x ", d.height, " x ",
                 view_depth);
  }
  const uint64_t layers = layered ? d.depth : 1;
  if (v.first_layer > v.last_layer || v.last_layer >= layers) {
    return Error(ErrorCode::kInvalidValue, api, ": layers ", v.first_layer, "..", v.last_layer,
                 " of an array with ", layers);
  }
  return absl::OkStatus();
}

template <typename T>
absl::StatusOr<T*> Resolve(uint64_t handle, const char* api, const char* kind) {
  HandleState state;
  T* object = LookupAs<T>(handle, &state);
  if (object == nullptr) {
    return Error(ErrorCode::kInvalidHandle, api, ": handle 0x", absl::Hex(handle),
                 HandleProblem(state, kind));
  }
  return object;
}

// The dimension an array presents: CUDA's shapes (height 0: 1-D, depth 0:
// 2-D; layered and cubemap arrays count layers in depth).
ViewDimension ArrayDimension(const ArrayDescriptor& d) {
  const bool layered = (d.flags & kArrayLayered) != 0;
  if ((d.flags & kArrayCubemap) != 0) {
    return layered ? ViewDimension::kCubeArray : ViewDimension::kCube;
  }
  if (d.height == 0) return layered ? ViewDimension::k1DArray : ViewDimension::k1D;
  if (d.depth == 0 || layered) return layered ? ViewDimension::k2DArray : ViewDimension::k2D;
  return ViewDimension::k3D;
}

const char* DimensionName(ViewDimension dimension) {
  switch (dimension) {
    case ViewDimension::k1D:
      return "1-D";
    case ViewDimension::k2D:
      return "2-D";
    case ViewDimension::k3D:
      return "3-D";
    case ViewDimension::kCube:
      return "cubemap";
    case ViewDimension::k1DArray:
      return "layered 1-D";
    case ViewDimension::k2DArray:
      return "layered 2-D";
    case ViewDimension::kCubeArray:
      return "layered cubemap";
    case ViewDimension::kBuffer:
      return "linear (tex1Dfetch)";
  }
  return "?";
}

const char* NumericName(TexelNumeric numeric) {
  switch (numeric) {
    case TexelNumeric::kFloat:
      return "float";
    case TexelNumeric::kSint:
      return "signed integer";
    case TexelNumeric::kUint:
      return "unsigned integer";
  }
  return "?";
}

// How the raw texels of `format` read: as floats (half, float), signed or
// unsigned integers.
TexelNumeric RawNumeric(uint32_t format) {
  if (!IsIntegerFormat(format)) return TexelNumeric::kFloat;
  return format >= 0x08 ? TexelNumeric::kSint : TexelNumeric::kUint;
}

// The layers a view shows: those a resource view names, else all.
void ViewLayers(const ArrayDescriptor& d, const std::optional<ResourceViewDesc>& view,
                BindingViewDesc* desc) {
  const bool layers = (d.flags & (kArrayLayered | kArrayCubemap)) != 0;
  desc->first_layer = 0;
  desc->layer_count = layers ? static_cast<uint32_t>(d.depth) : 1;
  if (layers && view.has_value()) {
    desc->first_layer = view->first_layer;
    desc->layer_count = view->last_layer - view->first_layer + 1;
  }
}

// The array a texture or surface object reads, alive, of `context`.
absl::StatusOr<Array*> BoundArray(const Function& function, Context* object_context,
                                  const ResourceDesc& resource, uint32_t param, bool texture) {
  const char* what = texture ? "texture" : "surface";
  if (object_context != function.module()->context()) {
    return Error(ErrorCode::kInvalidValue, "launch: the ", what, " object of parameter ", param,
                 " of '", function.info().name, "' belongs to another context");
  }
  if (resource.type != ResourceType::kArray) {
    return Error(ErrorCode::kNotSupported, "launch: parameter ", param, " of '",
                 function.info().name, "' is a texture over linear or pitched memory; ",
                 "kernels bind textures over arrays only (docs/kernel-abi.md)");
  }
  HandleState state;
  Array* array = LookupAs<Array>(resource.array, &state);
  if (array == nullptr) {
    return Error(ErrorCode::kInvalidValue, "launch: the array of the ", what,
                 " object of parameter ", param, " of '", function.info().name, "' was destroyed");
  }
  return array;
}

// The view and sampler of `texture` for a kernel that declares `declared`,
// over texels of `shape` (an array's descriptor, or the extent of pitched
// memory).
absl::StatusOr<BindingViewDesc> TextureBinding(const Function& function,
                                               const ResourceParamInfo& declared,
                                               const TextureObject& texture,
                                               const ArrayDescriptor& shape) {
  const uint32_t param = declared.binding;
  const std::string& name = function.info().name;
  BindingViewDesc desc;
  desc.kind = ResourceKind::kSampledImage;
  desc.dimension = ArrayDimension(shape);
  if (desc.dimension != declared.dimension) {
    return Error(ErrorCode::kInvalidValue, "launch: parameter ", param, " of '", name, "' is a ",
                 DimensionName(declared.dimension), " texture, but its resource is ",
                 DimensionName(desc.dimension));
  }
  const TextureDesc& t = texture.texture();
  const uint32_t format = shape.format;
  const bool as_integer = (t.flags & kTexReadAsInteger) != 0;
  // CUDA promotes 8- and 16-bit integers to normalised floats unless
  // CU_TRSF_READ_AS_INTEGER; 32-bit integers are always read as integers.
  desc.normalized = IsIntegerFormat(format) && !as_integer && ArrayElementBytes(format, 1) < 4;
  desc.srgb = (t.flags & kTexSrgb) != 0 && desc.normalized;
  desc.numeric = desc.normalized ? TexelNumeric::kFloat : RawNumeric(format);
  if (desc.numeric != declared.numeric) {
    return Error(ErrorCode::kInvalidValue, "launch: parameter ", param, " of '", name, "' samples ",
                 NumericName(declared.numeric), " texels; its texture object reads ",
                 NumericName(desc.numeric), "s");
  }
  if (texture.view().has_value() && texture.view()->format != 0 &&
      ResourceViewElementBytes(texture.view()->format) != 0) {
    // Views that reinterpret the texels' type are not offered yet.
    const uint32_t f = texture.view()->format - 1;
    static constexpr uint32_t kViewFormats[8] = {0x01, 0x08, 0x02, 0x09, 0x03, 0x0a, 0x10, 0x20};
    static constexpr uint32_t kChannels[3] = {1, 2, 4};
    if (kViewFormats[f / 3] != format || kChannels[f % 3] != shape.channels) {
      return Error(ErrorCode::kNotSupported, "launch: parameter ", param, " of '", name,
                   "': resource views that change the texel format are not supported yet");
    }
  }
  ViewLayers(shape, texture.view(), &desc);
  SamplerDesc& sampler = desc.sampler;
  const bool cube =
      desc.dimension == ViewDimension::kCube || desc.dimension == ViewDimension::kCubeArray;
  // Cubemaps are addressed by direction, always normalised.
  sampler.normalized_coordinates = cube || (t.flags & kTexNormalizedCoordinates) != 0;
  if (!sampler.normalized_coordinates && desc.dimension != ViewDimension::k1D &&
      desc.dimension != ViewDimension::k2D) {
    return Error(ErrorCode::kNotSupported, "launch: parameter ", param, " of '", name,
                 "': ", DimensionName(desc.dimension),
                 " textures need normalised coordinates (CU_TRSF_NORMALIZED_COORDINATES) here");
  }
  // Reads that return integers sample the nearest texel: CUDA filters only
  // reads that return floats, and Vulkan cannot filter integer formats.
  const bool filtered = desc.numeric == TexelNumeric::kFloat;
  sampler.linear = filtered && t.filter_mode == kFilterLinear;
  bool border = false;
  for (int i = 0; i < 3; ++i) {
    uint32_t mode = t.address_mode[i];
    // CUDA: wrap and mirror apply to normalised coordinates only; otherwise
    // the coordinate is clamped.
    if (!sampler.normalized_coordinates && (mode == kAddressWrap || mode == kAddressMirror)) {
      mode = kAddressClamp;
    }
    sampler.address[i] = static_cast<SamplerAddress>(mode);
    border = border || mode == kAddressBorder;
  }
  if (border) {
    const std::array<float, 4>& c = t.border_color;
    if (c == std::array<float, 4>{0, 0, 0, 0}) {
      sampler.border = BorderColor::kTransparentBlack;
    } else if (c == std::array<float, 4>{0, 0, 0, 1}) {
      sampler.border = BorderColor::kOpaqueBlack;
    } else if (c == std::array<float, 4>{1, 1, 1, 1}) {
      sampler.border = BorderColor::kOpaqueWhite;
    } else {
      // The backend refuses it (kNotSupported) where the device has no
      // custom border colours.
      sampler.border = BorderColor::kCustom;
      sampler.border_color = c;
    }
  }
  return desc;
}

// A texture over linear memory, as a texel buffer a kernel reads with
// tex1Dfetch (samplerBuffer): made for each launch, as the memory behind
// the address may be freed and reused between launches.
absl::StatusOr<std::shared_ptr<BackendResourceView>> LinearBinding(
    const Function& function, const ResourceParamInfo& declared, const TextureObject& texture) {
  const uint32_t param = declared.binding;
  const std::string& name = function.info().name;
  const ResourceDesc& r = texture.resource();
  if (declared.dimension != ViewDimension::kBuffer) {
    return Error(ErrorCode::kInvalidValue, "launch: parameter ", param, " of '", name, "' is a ",
                 DimensionName(declared.dimension),
                 " texture, but its object is over linear memory (a samplerBuffer reads it)");
  }
  const bool as_integer = (texture.texture().flags & kTexReadAsInteger) != 0;
  const bool normalized =
      IsIntegerFormat(r.format) && !as_integer && ArrayElementBytes(r.format, 1) < 4;
  const TexelNumeric numeric = normalized ? TexelNumeric::kFloat : RawNumeric(r.format);
  if (numeric != declared.numeric) {
    return Error(ErrorCode::kInvalidValue, "launch: parameter ", param, " of '", name, "' reads ",
                 NumericName(declared.numeric), " texels; its texture object reads ",
                 NumericName(numeric), "s");
  }
  absl::StatusOr<ResolvedPointer> memory = ResolveDeviceRange(r.address, r.size_bytes, "launch");
  if (!memory.ok() || memory->allocation == nullptr) {
    return Error(ErrorCode::kInvalidValue, "launch: the memory of the texture object of parameter ",
                 param, " of '", name, "' was freed");
  }
  return function.module()->context()->device()->backend()->CreateBufferView(
      memory->allocation->backend.get(), memory->offset, r.size_bytes,
      static_cast<ArrayFormat>(r.format), r.channels, normalized);
}

// A texture over pitched memory, sampled as a 2-D texture (sampler2D)
// from an image of the object's pool that the launch's dispatch fills from
// the memory first (staged_views.h). The memory is resolved at every
// launch, as it may be freed and reused between launches.
absl::StatusOr<std::shared_ptr<BackendResourceView>> PitchedBinding(
    const Function& function, const ResourceParamInfo& declared, TextureObject& texture) {
  const uint32_t param = declared.binding;
  const std::string& name = function.info().name;
  const ResourceDesc& r = texture.resource();
  ArrayDescriptor shape;
  shape.width = r.width;
  shape.height = r.height;
  shape.format = r.format;
  shape.channels = r.channels;
  SH_ASSIGN_OR_RETURN(BindingViewDesc desc, TextureBinding(function, declared, texture, shape));
  const uint32_t element = ArrayElementBytes(r.format, r.channels);
  // Vulkan copies whole texels: rows and the start must be texel-aligned
  // (the device's texture and pitch alignments normally see to it).
  if (r.pitch % element != 0 || r.address % element != 0) {
    return Error(ErrorCode::kNotSupported, "launch: parameter ", param, " of '", name,
                 "': pitched memory whose address or pitch is not a multiple of its ", element,
                 "-byte texels cannot be sampled here");
  }
  const uint64_t span = r.pitch * (r.height - 1) + r.width * element;
  absl::StatusOr<ResolvedPointer> memory = ResolveDeviceRange(r.address, span, "launch");
  if (!memory.ok() || memory->allocation == nullptr) {
    return Error(ErrorCode::kInvalidValue, "launch: the memory of the texture object of parameter ",
                 param, " of '", name, "' was freed");
  }
  ImageDesc image;
  image.format = static_cast<ArrayFormat>(r.format);
  image.channels = r.channels;
  image.width = r.width;
  image.height = r.height;
  std::shared_ptr<StagedViews> pool =
      texture.staged_views(function.module()->context()->device()->backend(), image, desc);
  ImageBufferSide source;
  source.range = BufferRange{memory->allocation->backend.get(), memory->offset};
  source.row_texels = r.pitch / element;
  return pool->Take(source);
}

// A texture over a mipmapped array: a view of the levels the resource view
// names (all without one) with a sampler that filters between them as
// CUDA_TEXTURE_DESC's mipmap fields say. Made once, as for arrays.
absl::StatusOr<std::shared_ptr<BackendResourceView>> MipmappedBinding(
    const Function& function, const ResourceParamInfo& declared, TextureObject& texture) {
  HandleState state;
  MipmappedArray* mipmapped = LookupAs<MipmappedArray>(texture.resource().mipmapped_array, &state);
  if (mipmapped == nullptr) {
    return Error(ErrorCode::kInvalidValue, "launch: the mipmapped array of the texture object of ",
                 "parameter ", declared.binding, " of '", function.info().name, "' was destroyed");
  }
  if (auto view = texture.bound_views().Find(declared.dimension, declared.numeric)) return view;
  // Vulkan samples several levels only with normalised coordinates.
  if ((texture.texture().flags & kTexNormalizedCoordinates) == 0) {
    return Error(ErrorCode::kNotSupported, "launch: parameter ", declared.binding, " of '",
                 function.info().name, "': mipmapped textures need normalised coordinates ",
                 "(CU_TRSF_NORMALIZED_COORDINATES) here");
  }
  uint32_t first = 0, last = mipmapped->levels() - 1;
  if (texture.view().has_value()) {
    first = texture.view()->first_mipmap_level;
    last = texture.view()->last_mipmap_level;
  }
  SH_ASSIGN_OR_RETURN(BindingViewDesc desc,
                      TextureBinding(function, declared, texture, mipmapped->LevelDesc(first)));
  desc.first_level = first;
  desc.level_count = last - first + 1;
  const TextureDesc& t = texture.texture();
  SamplerDesc& sampler = desc.sampler;
  sampler.mipmap_linear =
      desc.numeric == TexelNumeric::kFloat && t.mipmap_filter_mode == kFilterLinear;
  // CUDA: the clamps are relative to the view's first level, as Vulkan's
  // are to the view's base level.
  sampler.level_bias = t.mipmap_level_bias;
  sampler.min_level = t.min_mipmap_level_clamp;
  sampler.max_level = std::max(t.max_mipmap_level_clamp, t.min_mipmap_level_clamp);
  return texture.bound_views().Get(mipmapped->context()->device()->backend(),
                                   mipmapped->shared_image(), desc);
}

// A texture over anything but an array, of the launch's context.
absl::StatusOr<std::shared_ptr<BackendResourceView>> MemoryBinding(
    const Function& function, const ResourceParamInfo& declared, TextureObject& texture) {
  switch (texture.resource().type) {
    case ResourceType::kPitch2D:
      return PitchedBinding(function, declared, texture);
    case ResourceType::kMipmappedArray:
      return MipmappedBinding(function, declared, texture);
    default:
      return LinearBinding(function, declared, texture);
  }
}

// A texture over an array, which may be one level of a mipmapped array.
absl::StatusOr<BindingViewDesc> ArrayTextureBinding(const Function& function,
                                                    const ResourceParamInfo& declared,
                                                    const TextureObject& texture,
                                                    const Array& array) {
  SH_ASSIGN_OR_RETURN(BindingViewDesc desc,
                      TextureBinding(function, declared, texture, array.desc()));
  desc.first_level = array.level();
  return desc;
}

absl::StatusOr<BindingViewDesc> SurfaceBinding(const Function& function,
                                               const ResourceParamInfo& declared,
                                               const Array& array) {
  const uint32_t param = declared.binding;
  const std::string& name = function.info().name;
  BindingViewDesc desc;
  desc.kind = ResourceKind::kStorageImage;
  desc.dimension = ArrayDimension(array.desc());
  if (desc.dimension != declared.dimension) {
    return Error(ErrorCode::kInvalidValue, "launch: parameter ", param, " of '", name, "' is a ",
                 DimensionName(declared.dimension), " surface, but its array is ",
                 DimensionName(desc.dimension));
  }
  const ArrayDescriptor& d = array.desc();
  desc.numeric = RawNumeric(d.format);
  if (desc.numeric != declared.numeric) {
    return Error(ErrorCode::kInvalidValue, "launch: parameter ", param, " of '", name,
                 "' is a surface of ", NumericName(declared.numeric), "s; its array holds ",
                 NumericName(desc.numeric), "s");
  }
  if (declared.declares_format &&
      (declared.array_format != d.format || declared.channels != d.channels)) {
    return Error(ErrorCode::kInvalidValue, "launch: parameter ", param, " of '", name,
                 "' declares a texel format that is not its array's (format 0x",
                 absl::Hex(d.format), ", ", d.channels, " channels)");
  }
  ViewLayers(array.desc(), std::nullopt, &desc);
  desc.first_level = array.level();
  return desc;
}

absl::StatusOr<std::shared_ptr<BackendResourceView>> BindTexture(const Function& function,
                                                                 const ResourceParamInfo& declared,
                                                                 TextureObject& object) {
  if (object.context() == function.module()->context() &&
      object.resource().type != ResourceType::kArray) {
    return MemoryBinding(function, declared, object);
  }
  SH_ASSIGN_OR_RETURN(Array * array, BoundArray(function, object.context(), object.resource(),
                                                declared.binding, true));
  if (auto view = object.bound_views().Find(declared.dimension, declared.numeric)) return view;
  SH_ASSIGN_OR_RETURN(BindingViewDesc desc,
                      ArrayTextureBinding(function, declared, object, *array));
  return object.bound_views().Get(*array, desc);
}

absl::StatusOr<std::shared_ptr<BackendResourceView>> BindSurface(const Function& function,
                                                                 const ResourceParamInfo& declared,
                                                                 SurfaceObject& object) {
  SH_ASSIGN_OR_RETURN(Array * array, BoundArray(function, object.context(), object.resource(),
                                                declared.binding, false));
  if (auto view = object.bound_views().Find(declared.dimension, declared.numeric)) return view;
  SH_ASSIGN_OR_RETURN(BindingViewDesc desc, SurfaceBinding(function, declared, *array));
  return object.bound_views().Get(*array, desc);
}

// A kernel's texture or surface reference: what the module's reference of
// that name holds now.
absl::StatusOr<std::shared_ptr<BackendResourceView>> BindReference(
    const Function& function, const ResourceParamInfo& declared) {
  const Module& module = *function.module();
  if (declared.kind == ResourceKind::kStorageImage) {
    SurfaceRef* ref = module.FindSurfaceRef(declared.ref_name);
    if (ref == nullptr) {
      return Error(ErrorCode::kInvalidValue, "launch: '", function.info().name,
                   "' declares surface reference '", declared.ref_name,
                   "', which its module does not hold");
    }
    SH_ASSIGN_OR_RETURN(std::shared_ptr<SurfaceObject> object, ref->Snapshot());
    return BindSurface(function, declared, *object);
  }
  TextureRef* ref = module.FindTextureRef(declared.ref_name);
  if (ref == nullptr) {
    return Error(ErrorCode::kInvalidValue, "launch: '", function.info().name,
                 "' declares texture reference '", declared.ref_name,
                 "', which its module does not hold");
  }
  SH_ASSIGN_OR_RETURN(std::shared_ptr<TextureObject> object, ref->Snapshot());
  return BindTexture(function, declared, *object);
}

}  // namespace

std::shared_ptr<BackendResourceView> BoundViews::Find(ViewDimension dimension,
                                                      TexelNumeric numeric) {
  const Entry* first = first_.load(std::memory_order_acquire);
  if (first == nullptr) return nullptr;
  if (first->dimension == dimension && first->numeric == numeric) return first->view;
  MutexLock lock(&mutex_);
  for (const auto& entry : entries_) {
    if (entry->dimension == dimension && entry->numeric == numeric) return entry->view;
  }
  return nullptr;
}

absl::StatusOr<std::shared_ptr<BackendResourceView>> BoundViews::Get(const Array& array,
                                                                     const BindingViewDesc& desc) {
  return Get(array.context()->device()->backend(), array.shared_image(), desc);
}

absl::StatusOr<std::shared_ptr<BackendResourceView>> BoundViews::Get(
    BackendDevice* device, const std::shared_ptr<BackendImage>& image,
    const BindingViewDesc& desc) {
  MutexLock lock(&mutex_);
  for (const auto& entry : entries_) {
    if (entry->dimension == desc.dimension && entry->numeric == desc.numeric) return entry->view;
  }
  SH_ASSIGN_OR_RETURN(std::shared_ptr<BackendResourceView> view,
                      device->CreateResourceView(image, desc));
  entries_.push_back(std::make_unique<Entry>(Entry{desc.dimension, desc.numeric, view}));
  if (entries_.size() == 1) first_.store(entries_.front().get(), std::memory_order_release);
  return view;
}

std::shared_ptr<StagedViews> TextureObject::staged_views(BackendDevice* device,
                                                         const ImageDesc& image,
                                                         const BindingViewDesc& desc) {
  MutexLock lock(&staged_mutex_);
  if (staged_views_ == nullptr) staged_views_ = std::make_shared<StagedViews>(device, image, desc);
  return staged_views_;
}

absl::Status ResolveLaunchResources(const Function& function, const uint8_t* params,
                                    LaunchResources* out) {
  const KernelInfo& info = function.info();
  out->clear();
  for (const ResourceParamInfo& declared : info.resources) {
    if (!declared.ref_name.empty()) {
      SH_ASSIGN_OR_RETURN(std::shared_ptr<BackendResourceView> view,
                          BindReference(function, declared));
      out->push_back(std::move(view));
      continue;
    }
    uint64_t handle = 0;
    std::memcpy(&handle, params + info.params[declared.binding].offset, sizeof(handle));
    std::shared_ptr<BackendResourceView> view;
    if (declared.kind != ResourceKind::kStorageImage) {
      TextureObject* object = LookupAs<TextureObject>(handle);
      if (object == nullptr) {
        return Error(ErrorCode::kInvalidValue, "launch: parameter ", declared.binding, " of '",
                     info.name, "' (0x", absl::Hex(handle), ") is no live texture object");
      }
      SH_ASSIGN_OR_RETURN(view, BindTexture(function, declared, *object));
    } else {
      SurfaceObject* object = LookupAs<SurfaceObject>(handle);
      if (object == nullptr) {
        return Error(ErrorCode::kInvalidValue, "launch: parameter ", declared.binding, " of '",
                     info.name, "' (0x", absl::Hex(handle), ") is no live surface object");
      }
      SH_ASSIGN_OR_RETURN(view, BindSurface(function, declared, *object));
    }
    out->push_back(std::move(view));
  }
  return absl::OkStatus();
}

uint32_t ResourceViewElementBytes(uint32_t f) {
  // CU_RES_VIEW_FORMAT_*: 1/2/4 channels of u8, s8, u16, s16, u32, s32,
  // f16, f32, in that order from 0x01.
  if (f == 0 || f > 0x18) return 0;
  static constexpr uint32_t kChannelBytes[8] = {1, 1, 2, 2, 4, 4, 2, 4};
  static constexpr uint32_t kChannels[3] = {1, 2, 4};
  const uint32_t i = f - 1;
  return kChannelBytes[i / 3] * kChannels[i % 3];
}

absl::StatusOr<std::unique_ptr<TextureObject>> MakeTextureObject(Context* context,
                                                                 const ResourceDesc& resource,
                                                                 const TextureDesc& texture,
                                                                 const ResourceViewDesc* view,
                                                                 const char* api) {
  SH_ASSIGN_OR_RETURN(Texels texels, ValidateResource(context, resource, api));
  SH_RETURN_IF_ERROR(ValidateTexture(texture, texels, api));
  std::optional<ResourceViewDesc> kept_view;
  if (view != nullptr) {
    SH_RETURN_IF_ERROR(ValidateView(*view, resource, texels, api));
    kept_view = *view;
  }
  return std::make_unique<TextureObject>(context, resource, texture, kept_view);
}

absl::StatusOr<std::unique_ptr<SurfaceObject>> MakeSurfaceObject(Context* context,
                                                                 const ResourceDesc& resource,
                                                                 const char* api) {
  // CUDA: a surface is over an array created with CUDA_ARRAY3D_SURFACE_LDST.
  if (resource.type != ResourceType::kArray) {
    return Error(ErrorCode::kInvalidValue, api, ": resource type ",
                 static_cast<uint32_t>(resource.type), " is not CU_RESOURCE_TYPE_ARRAY");
  }
  SH_ASSIGN_OR_RETURN(Texels texels, ValidateResource(context, resource, api));
  if ((texels.array->desc().flags & kArraySurfaceLoadStore) == 0) {
    return Error(ErrorCode::kInvalidValue, api,
                 ": the array was not created with CUDA_ARRAY3D_SURFACE_LDST");
  }
  return std::make_unique<SurfaceObject>(context, resource);
}

absl::Status ValidateTextureResource(Context* context, const ResourceDesc& resource,
                                     const char* api) {
  return ValidateResource(context, resource, api).status();
}

absl::Status TexObjectCreate(uint64_t* out, const ResourceDesc* resource,
                             const TextureDesc* texture, const ResourceViewDesc* view) {
  constexpr const char* kApi = "cuTexObjectCreate";
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (out == nullptr) return Error(ErrorCode::kInvalidValue, kApi, ": pTexObject is null");
  if (resource == nullptr) return Error(ErrorCode::kInvalidValue, kApi, ": pResDesc is null");
  if (texture == nullptr) return Error(ErrorCode::kInvalidValue, kApi, ": pTexDesc is null");
  SH_ASSIGN_OR_RETURN(std::unique_ptr<TextureObject> object,
                      MakeTextureObject(context, *resource, *texture, view, kApi));
  *out = object->handle();
  context->Adopt(std::move(object));
  return absl::OkStatus();
}

absl::Status TexObjectDestroy(uint64_t handle) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  SH_ASSIGN_OR_RETURN(TextureObject * object, Resolve<TextureObject>(handle, "cuTexObjectDestroy",
                                                                     " is no texture object"));
  object->context()->Destroy(object);
  return absl::OkStatus();
}

absl::Status TexObjectGetResourceDesc(uint64_t handle, ResourceDesc* out) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (out == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuTexObjectGetResourceDesc: pResDesc is null");
  }
  SH_ASSIGN_OR_RETURN(
      TextureObject * object,
      Resolve<TextureObject>(handle, "cuTexObjectGetResourceDesc", " is no texture object"));
  *out = object->resource();
  return absl::OkStatus();
}

absl::Status TexObjectGetTextureDesc(uint64_t handle, TextureDesc* out) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (out == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuTexObjectGetTextureDesc: pTexDesc is null");
  }
  SH_ASSIGN_OR_RETURN(
      TextureObject * object,
      Resolve<TextureObject>(handle, "cuTexObjectGetTextureDesc", " is no texture object"));
  *out = object->texture();
  return absl::OkStatus();
}

absl::Status TexObjectGetResourceViewDesc(uint64_t handle, ResourceViewDesc* out) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (out == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuTexObjectGetResourceViewDesc: pResViewDesc is null");
  }
  SH_ASSIGN_OR_RETURN(
      TextureObject * object,
      Resolve<TextureObject>(handle, "cuTexObjectGetResourceViewDesc", " is no texture object"));
  if (!object->view().has_value()) {
    return Error(ErrorCode::kInvalidValue,
                 "cuTexObjectGetResourceViewDesc: the texture object has no resource view");
  }
  *out = *object->view();
  return absl::OkStatus();
}

absl::Status SurfObjectCreate(uint64_t* out, const ResourceDesc* resource) {
  constexpr const char* kApi = "cuSurfObjectCreate";
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (out == nullptr) return Error(ErrorCode::kInvalidValue, kApi, ": pSurfObject is null");
  if (resource == nullptr) return Error(ErrorCode::kInvalidValue, kApi, ": pResDesc is null");
  SH_ASSIGN_OR_RETURN(std::unique_ptr<SurfaceObject> object,
                      MakeSurfaceObject(context, *resource, kApi));
  *out = object->handle();
  context->Adopt(std::move(object));
  return absl::OkStatus();
}

absl::Status SurfObjectDestroy(uint64_t handle) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  SH_ASSIGN_OR_RETURN(SurfaceObject * object, Resolve<SurfaceObject>(handle, "cuSurfObjectDestroy",
                                                                     " is no surface object"));
  object->context()->Destroy(object);
  return absl::OkStatus();
}

absl::Status SurfObjectGetResourceDesc(uint64_t handle, ResourceDesc* out) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (out == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuSurfObjectGetResourceDesc: pResDesc is null");
  }
  SH_ASSIGN_OR_RETURN(
      SurfaceObject * object,
      Resolve<SurfaceObject>(handle, "cuSurfObjectGetResourceDesc", " is no surface object"));
  *out = object->resource();
  return absl::OkStatus();
}

}  // namespace streamhal
