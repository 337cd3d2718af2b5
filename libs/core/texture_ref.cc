#include "core/texture_ref.h"

#include <cmath>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "core/array.h"
#include "core/context.h"
#include "core/device.h"
#include "core/memory.h"
#include "core/module.h"
#include "core/status.h"

namespace streamhal {
namespace {

// Where each reference's API storage is, so that HIP's textureReference
// pointers find their reference (and a stale pointer finds none).
struct StorageRegistry {
  Mutex mutex;
  absl::flat_hash_map<const void*, uint64_t> handles ABSL_GUARDED_BY(mutex);
};

StorageRegistry& Registry() {
  static StorageRegistry* registry = new StorageRegistry;
  return *registry;
}

absl::StatusOr<TextureRef*> ResolveRef(uint64_t handle, const char* api) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  HandleState state;
  TextureRef* ref = LookupAs<TextureRef>(handle, &state);
  if (ref == nullptr) {
    return Error(
        ErrorCode::kInvalidHandle, api, ": hTexRef 0x", absl::Hex(handle),
        HandleProblem(state, " is not a texture reference", " was destroyed (with its module)"));
  }
  return ref;
}

absl::StatusOr<SurfaceRef*> ResolveSurfaceRef(uint64_t handle, const char* api) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  HandleState state;
  SurfaceRef* ref = LookupAs<SurfaceRef>(handle, &state);
  if (ref == nullptr) {
    return Error(
        ErrorCode::kInvalidHandle, api, ": hSurfRef 0x", absl::Hex(handle),
        HandleProblem(state, " is not a surface reference", " was destroyed (with its module)"));
  }
  return ref;
}

absl::Status CheckFilter(uint32_t mode, const char* api) {
  if (mode > kFilterLinear) {
    return Error(ErrorCode::kInvalidValue, api, ": filter mode ", mode, " is not point or linear");
  }
  return absl::OkStatus();
}

absl::Status CheckFinite(float value, const char* api, const char* what) {
  if (std::isnan(value)) return Error(ErrorCode::kInvalidValue, api, ": ", what, " is NaN");
  return absl::OkStatus();
}

// A Set call that only changes how the reference samples.
template <typename F>
absl::Status Change(uint64_t handle, const char* api, F change) {
  SH_ASSIGN_OR_RETURN(TextureRef * ref, ResolveRef(handle, api));
  ref->Update([&](TextureRef::State& state) { change(state.texture); });
  return absl::OkStatus();
}

template <typename F>
absl::Status Read(uint64_t handle, const char* api, F read) {
  SH_ASSIGN_OR_RETURN(TextureRef * ref, ResolveRef(handle, api));
  return read(ref->state());
}

bool BoundToMemory(const TextureRef::State& state) {
  return state.bound && (state.resource.type == ResourceType::kLinear ||
                         state.resource.type == ResourceType::kPitch2D);
}

// A getter of one value of the sampling state that needs no checks beyond
// a non-null output.
template <typename T, typename F>
absl::Status GetValue(T* out, uint64_t handle, const char* api, F value) {
  return Read(handle, api, [&](const TextureRef::State& state) -> absl::Status {
    if (out == nullptr) return Error(ErrorCode::kInvalidValue, api, ": output is null");
    *out = value(state);
    return absl::OkStatus();
  });
}

}  // namespace

TextureRef::TextureRef(Context* context, Module* module, std::string name)
    : Object(kKind), context_(context), module_(module), name_(std::move(name)) {
  StorageRegistry& registry = Registry();
  MutexLock lock(&registry.mutex);
  registry.handles[api_storage_] = handle();
}

TextureRef::~TextureRef() {
  StorageRegistry& registry = Registry();
  MutexLock lock(&registry.mutex);
  registry.handles.erase(api_storage_);
}

TextureRef::State TextureRef::state() const {
  MutexLock lock(&mutex_);
  return state_;
}

absl::StatusOr<std::shared_ptr<TextureObject>> TextureRef::Snapshot() {
  MutexLock lock(&mutex_);
  if (snapshot_ != nullptr) return snapshot_;
  if (!state_.bound) {
    return Error(ErrorCode::kInvalidValue, "launch: texture reference '", name_,
                 "' is bound to nothing (cuTexRefSetArray, cuTexRefSetAddress, ...)");
  }
  ResourceDesc resource = state_.resource;
  if (resource.type == ResourceType::kLinear) {
    // cuTexRefSetFormat may come before or after cuTexRefSetAddress.
    resource.format = state_.format;
    resource.channels = state_.channels;
    const uint32_t element = ArrayElementBytes(resource.format, resource.channels);
    if (element == 0) {
      return Error(ErrorCode::kInvalidValue, "launch: texture reference '", name_,
                   "' is bound to memory but has no format (cuTexRefSetFormat)");
    }
    // CUDA counts whole texels of the range.
    resource.size_bytes -= resource.size_bytes % element;
  }
  SH_ASSIGN_OR_RETURN(
      std::unique_ptr<TextureObject> object,
      MakeTextureObject(context_, resource, state_.texture, nullptr, "launch (texture reference)"));
  snapshot_ = std::move(object);
  return snapshot_;
}

uint64_t SurfaceRef::array() const {
  MutexLock lock(&mutex_);
  return array_;
}

void SurfaceRef::set_array(uint64_t array) {
  MutexLock lock(&mutex_);
  array_ = array;
  snapshot_.reset();
}

absl::StatusOr<std::shared_ptr<SurfaceObject>> SurfaceRef::Snapshot() {
  MutexLock lock(&mutex_);
  if (snapshot_ != nullptr) return snapshot_;
  if (array_ == 0) {
    return Error(ErrorCode::kInvalidValue, "launch: surface reference '", name_,
                 "' is bound to no array (cuSurfRefSetArray)");
  }
  ResourceDesc resource;
  resource.type = ResourceType::kArray;
  resource.array = array_;
  SH_ASSIGN_OR_RETURN(std::unique_ptr<SurfaceObject> object,
                      MakeSurfaceObject(context_, resource, "launch (surface reference)"));
  snapshot_ = std::move(object);
  return snapshot_;
}

absl::StatusOr<void*> TexRefApiStorage(uint64_t handle) {
  SH_ASSIGN_OR_RETURN(TextureRef * ref, ResolveRef(handle, "texture reference"));
  return ref->api_storage();
}

uint64_t TexRefOfApiStorage(const void* storage) {
  uint64_t handle = 0;
  {
    StorageRegistry& registry = Registry();
    MutexLock lock(&registry.mutex);
    auto it = registry.handles.find(storage);
    if (it == registry.handles.end()) return 0;
    handle = it->second;
  }
  // Still live: the registry entry goes before the handle is retired.
  return LookupAs<TextureRef>(handle) != nullptr ? handle : 0;
}

absl::Status TexRefCreate(uint64_t* out) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (out == nullptr) return Error(ErrorCode::kInvalidValue, "cuTexRefCreate: pTexRef is null");
  auto ref = std::make_unique<TextureRef>(context, nullptr, std::string());
  *out = ref->handle();
  context->Adopt(std::move(ref));
  return absl::OkStatus();
}

absl::Status TexRefDestroy(uint64_t handle) {
  SH_ASSIGN_OR_RETURN(TextureRef * ref, ResolveRef(handle, "cuTexRefDestroy"));
  if (ref->module() != nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuTexRefDestroy: '", ref->name(),
                 "' belongs to its module, which destroys it");
  }
  ref->context()->Destroy(ref);
  return absl::OkStatus();
}

absl::Status TexRefSetArray(uint64_t handle, uint64_t array, uint32_t flags) {
  constexpr const char* kApi = "cuTexRefSetArray";
  SH_ASSIGN_OR_RETURN(TextureRef * ref, ResolveRef(handle, kApi));
  if ((flags & ~kTexRefOverrideFormat) != 0) {
    return Error(ErrorCode::kInvalidValue, kApi, ": Flags 0x", absl::Hex(flags),
                 " is not CU_TRSA_OVERRIDE_FORMAT");
  }
  ResourceDesc resource;
  resource.type = ResourceType::kArray;
  resource.array = array;
  SH_RETURN_IF_ERROR(ValidateTextureResource(ref->context(), resource, kApi));
  const ArrayDescriptor desc = LookupAs<Array>(array)->desc();
  ref->Update([&](TextureRef::State& state) {
    state.bound = true;
    state.resource = resource;
    state.format = desc.format;
    state.channels = desc.channels;
    state.byte_offset = 0;
  });
  return absl::OkStatus();
}

absl::Status TexRefSetMipmappedArray(uint64_t handle, uint64_t mipmapped_array, uint32_t flags) {
  constexpr const char* kApi = "cuTexRefSetMipmappedArray";
  SH_ASSIGN_OR_RETURN(TextureRef * ref, ResolveRef(handle, kApi));
  if ((flags & ~kTexRefOverrideFormat) != 0) {
    return Error(ErrorCode::kInvalidValue, kApi, ": Flags 0x", absl::Hex(flags),
                 " is not CU_TRSA_OVERRIDE_FORMAT");
  }
  ResourceDesc resource;
  resource.type = ResourceType::kMipmappedArray;
  resource.mipmapped_array = mipmapped_array;
  SH_RETURN_IF_ERROR(ValidateTextureResource(ref->context(), resource, kApi));
  ref->Update([&](TextureRef::State& state) {
    state.bound = true;
    state.resource = resource;
    state.byte_offset = 0;
  });
  return absl::OkStatus();
}

absl::Status TexRefSetAddress(uint64_t* byte_offset, uint64_t handle, uint64_t address,
                              uint64_t bytes) {
  constexpr const char* kApi = "cuTexRefSetAddress";
  SH_ASSIGN_OR_RETURN(TextureRef * ref, ResolveRef(handle, kApi));
  if (address == 0 || bytes == 0) {
    return Error(ErrorCode::kInvalidValue, kApi, ": dptr 0x", absl::Hex(address), " and bytes ",
                 bytes, " bind no memory");
  }
  const int alignment = ref->context()->device()->properties().texture_alignment;
  const uint64_t offset = alignment > 0 ? address % static_cast<uint64_t>(alignment) : 0;
  ResourceDesc resource;
  resource.type = ResourceType::kLinear;
  resource.address = address - offset;
  resource.size_bytes = bytes + offset;
  SH_RETURN_IF_ERROR(ResolveDeviceRange(resource.address, resource.size_bytes, kApi).status());
  ref->Update([&](TextureRef::State& state) {
    state.bound = true;
    state.resource = resource;
    state.byte_offset = offset;
  });
  if (byte_offset != nullptr) *byte_offset = offset;
  return absl::OkStatus();
}

absl::Status TexRefSetAddress2D(uint64_t handle, uint64_t width, uint64_t height, uint32_t format,
                                uint32_t channels, uint64_t address, uint64_t pitch) {
  constexpr const char* kApi = "cuTexRefSetAddress2D";
  SH_ASSIGN_OR_RETURN(TextureRef * ref, ResolveRef(handle, kApi));
  ResourceDesc resource;
  resource.type = ResourceType::kPitch2D;
  resource.address = address;
  resource.format = format;
  resource.channels = channels;
  resource.width = width;
  resource.height = height;
  resource.pitch = pitch;
  SH_RETURN_IF_ERROR(ValidateTextureResource(ref->context(), resource, kApi));
  ref->Update([&](TextureRef::State& state) {
    state.bound = true;
    state.resource = resource;
    state.format = format;
    state.channels = channels;
    state.byte_offset = 0;
  });
  return absl::OkStatus();
}

absl::Status TexRefSetFormat(uint64_t handle, uint32_t format, int channels) {
  constexpr const char* kApi = "cuTexRefSetFormat";
  SH_ASSIGN_OR_RETURN(TextureRef * ref, ResolveRef(handle, kApi));
  if (channels <= 0 || ArrayElementBytes(format, static_cast<uint32_t>(channels)) == 0) {
    return Error(ErrorCode::kInvalidValue, kApi, ": format 0x", absl::Hex(format), " with ",
                 channels, " components is no texel format");
  }
  ref->Update([&](TextureRef::State& state) {
    state.format = format;
    state.channels = static_cast<uint32_t>(channels);
    // A pitched binding reads the format it was bound with (CUDA: the format
    // cannot change after cuTexRefSetAddress2D); the rest read this one.
    if (state.bound && state.resource.type == ResourceType::kPitch2D) {
      state.format = state.resource.format;
      state.channels = state.resource.channels;
    }
  });
  return absl::OkStatus();
}

absl::Status TexRefSetAddressMode(uint64_t handle, int dim, uint32_t mode) {
  constexpr const char* kApi = "cuTexRefSetAddressMode";
  if (dim < 0 || dim > 2) {
    SH_RETURN_IF_ERROR(ResolveRef(handle, kApi).status());
    return Error(ErrorCode::kInvalidValue, kApi, ": dim ", dim, " is not 0, 1 or 2");
  }
  if (mode > kAddressBorder) {
    SH_RETURN_IF_ERROR(ResolveRef(handle, kApi).status());
    return Error(ErrorCode::kInvalidValue, kApi, ": address mode ", mode,
                 " is not wrap, clamp, mirror or border");
  }
  return Change(handle, kApi, [&](TextureDesc& t) { t.address_mode[dim] = mode; });
}

absl::Status TexRefSetFilterMode(uint64_t handle, uint32_t mode) {
  constexpr const char* kApi = "cuTexRefSetFilterMode";
  SH_RETURN_IF_ERROR(ResolveRef(handle, kApi).status());
  SH_RETURN_IF_ERROR(CheckFilter(mode, kApi));
  return Change(handle, kApi, [&](TextureDesc& t) { t.filter_mode = mode; });
}

absl::Status TexRefSetMipmapFilterMode(uint64_t handle, uint32_t mode) {
  constexpr const char* kApi = "cuTexRefSetMipmapFilterMode";
  SH_RETURN_IF_ERROR(ResolveRef(handle, kApi).status());
  SH_RETURN_IF_ERROR(CheckFilter(mode, kApi));
  return Change(handle, kApi, [&](TextureDesc& t) { t.mipmap_filter_mode = mode; });
}

absl::Status TexRefSetMipmapLevelBias(uint64_t handle, float bias) {
  constexpr const char* kApi = "cuTexRefSetMipmapLevelBias";
  SH_RETURN_IF_ERROR(ResolveRef(handle, kApi).status());
  SH_RETURN_IF_ERROR(CheckFinite(bias, kApi, "bias"));
  return Change(handle, kApi, [&](TextureDesc& t) { t.mipmap_level_bias = bias; });
}

absl::Status TexRefSetMipmapLevelClamp(uint64_t handle, float min_clamp, float max_clamp) {
  constexpr const char* kApi = "cuTexRefSetMipmapLevelClamp";
  SH_RETURN_IF_ERROR(ResolveRef(handle, kApi).status());
  SH_RETURN_IF_ERROR(CheckFinite(min_clamp, kApi, "minMipmapLevelClamp"));
  SH_RETURN_IF_ERROR(CheckFinite(max_clamp, kApi, "maxMipmapLevelClamp"));
  return Change(handle, kApi, [&](TextureDesc& t) {
    t.min_mipmap_level_clamp = min_clamp;
    t.max_mipmap_level_clamp = max_clamp;
  });
}

absl::Status TexRefSetMaxAnisotropy(uint64_t handle, uint32_t max_anisotropy) {
  return Change(handle, "cuTexRefSetMaxAnisotropy",
                [&](TextureDesc& t) { t.max_anisotropy = max_anisotropy; });
}

absl::Status TexRefSetBorderColor(uint64_t handle, const float* rgba) {
  constexpr const char* kApi = "cuTexRefSetBorderColor";
  SH_RETURN_IF_ERROR(ResolveRef(handle, kApi).status());
  if (rgba == nullptr) return Error(ErrorCode::kInvalidValue, kApi, ": pBorderColor is null");
  for (int i = 0; i < 4; ++i) SH_RETURN_IF_ERROR(CheckFinite(rgba[i], kApi, "pBorderColor"));
  return Change(handle, kApi, [&](TextureDesc& t) {
    for (int i = 0; i < 4; ++i) t.border_color[i] = rgba[i];
  });
}

absl::Status TexRefSetFlags(uint64_t handle, uint32_t flags) {
  constexpr const char* kApi = "cuTexRefSetFlags";
  SH_RETURN_IF_ERROR(ResolveRef(handle, kApi).status());
  if ((flags & ~kKnownTextureFlags) != 0) {
    return Error(ErrorCode::kInvalidValue, kApi, ": unknown flags 0x",
                 absl::Hex(flags & ~kKnownTextureFlags));
  }
  return Change(handle, kApi, [&](TextureDesc& t) { t.flags = flags; });
}

absl::Status TexRefUnbind(uint64_t handle) {
  SH_ASSIGN_OR_RETURN(TextureRef * ref, ResolveRef(handle, "hipUnbindTexture"));
  ref->Update([](TextureRef::State& state) {
    state.bound = false;
    state.resource = ResourceDesc();
    state.byte_offset = 0;
  });
  return absl::OkStatus();
}

absl::Status TexRefGetAddress(uint64_t* out, uint64_t handle) {
  constexpr const char* kApi = "cuTexRefGetAddress";
  return Read(handle, kApi, [&](const TextureRef::State& state) -> absl::Status {
    if (out == nullptr) return Error(ErrorCode::kInvalidValue, kApi, ": pdptr is null");
    if (!BoundToMemory(state)) {
      return Error(ErrorCode::kInvalidValue, kApi, ": the reference is not bound to memory");
    }
    *out = state.resource.address + state.byte_offset;
    return absl::OkStatus();
  });
}

absl::Status TexRefGetArray(uint64_t* out, uint64_t handle) {
  constexpr const char* kApi = "cuTexRefGetArray";
  return Read(handle, kApi, [&](const TextureRef::State& state) -> absl::Status {
    if (out == nullptr) return Error(ErrorCode::kInvalidValue, kApi, ": phArray is null");
    if (!state.bound || state.resource.type != ResourceType::kArray) {
      return Error(ErrorCode::kInvalidValue, kApi, ": the reference is not bound to an array");
    }
    *out = state.resource.array;
    return absl::OkStatus();
  });
}

absl::Status TexRefGetMipmappedArray(uint64_t* out, uint64_t handle) {
  constexpr const char* kApi = "cuTexRefGetMipmappedArray";
  return Read(handle, kApi, [&](const TextureRef::State& state) -> absl::Status {
    if (out == nullptr) {
      return Error(ErrorCode::kInvalidValue, kApi, ": phMipmappedArray is null");
    }
    if (!state.bound || state.resource.type != ResourceType::kMipmappedArray) {
      return Error(ErrorCode::kInvalidValue, kApi,
                   ": the reference is not bound to a mipmapped array");
    }
    *out = state.resource.mipmapped_array;
    return absl::OkStatus();
  });
}

absl::Status TexRefGetAddressMode(uint32_t* out, uint64_t handle, int dim) {
  constexpr const char* kApi = "cuTexRefGetAddressMode";
  return Read(handle, kApi, [&](const TextureRef::State& state) -> absl::Status {
    if (out == nullptr) return Error(ErrorCode::kInvalidValue, kApi, ": pam is null");
    if (dim < 0 || dim > 2) {
      return Error(ErrorCode::kInvalidValue, kApi, ": dim ", dim, " is not 0, 1 or 2");
    }
    *out = state.texture.address_mode[dim];
    return absl::OkStatus();
  });
}

absl::Status TexRefGetFilterMode(uint32_t* out, uint64_t handle) {
  return GetValue(out, handle, "cuTexRefGetFilterMode",
                  [](const TextureRef::State& s) { return s.texture.filter_mode; });
}

absl::Status TexRefGetMipmapFilterMode(uint32_t* out, uint64_t handle) {
  return GetValue(out, handle, "cuTexRefGetMipmapFilterMode",
                  [](const TextureRef::State& s) { return s.texture.mipmap_filter_mode; });
}

absl::Status TexRefGetMipmapLevelBias(float* out, uint64_t handle) {
  return GetValue(out, handle, "cuTexRefGetMipmapLevelBias",
                  [](const TextureRef::State& s) { return s.texture.mipmap_level_bias; });
}

absl::Status TexRefGetMipmapLevelClamp(float* min_clamp, float* max_clamp, uint64_t handle) {
  constexpr const char* kApi = "cuTexRefGetMipmapLevelClamp";
  return Read(handle, kApi, [&](const TextureRef::State& state) -> absl::Status {
    if (min_clamp == nullptr || max_clamp == nullptr) {
      return Error(ErrorCode::kInvalidValue, kApi, ": an output is null");
    }
    *min_clamp = state.texture.min_mipmap_level_clamp;
    *max_clamp = state.texture.max_mipmap_level_clamp;
    return absl::OkStatus();
  });
}

absl::Status TexRefGetMaxAnisotropy(int* out, uint64_t handle) {
  return GetValue(out, handle, "cuTexRefGetMaxAnisotropy", [](const TextureRef::State& s) {
    return static_cast<int>(s.texture.max_anisotropy);
  });
}

absl::Status TexRefGetBorderColor(float* rgba, uint64_t handle) {
  constexpr const char* kApi = "cuTexRefGetBorderColor";
  return Read(handle, kApi, [&](const TextureRef::State& state) -> absl::Status {
    if (rgba == nullptr) return Error(ErrorCode::kInvalidValue, kApi, ": pBorderColor is null");
    for (int i = 0; i < 4; ++i) rgba[i] = state.texture.border_color[i];
    return absl::OkStatus();
  });
}

absl::Status TexRefGetFlags(uint32_t* out, uint64_t handle) {
  return GetValue(out, handle, "cuTexRefGetFlags",
                  [](const TextureRef::State& s) { return s.texture.flags; });
}

absl::Status TexRefGetFormat(uint32_t* format, int* channels, uint64_t handle) {
  constexpr const char* kApi = "cuTexRefGetFormat";
  return Read(handle, kApi, [&](const TextureRef::State& state) -> absl::Status {
    if (format == nullptr && channels == nullptr) {
      return Error(ErrorCode::kInvalidValue, kApi, ": both outputs are null");
    }
    if (format != nullptr) *format = state.format;
    if (channels != nullptr) *channels = static_cast<int>(state.channels);
    return absl::OkStatus();
  });
}

absl::StatusOr<TextureRef::State> TexRefGetState(uint64_t handle) {
  SH_ASSIGN_OR_RETURN(TextureRef * ref, ResolveRef(handle, "texture reference"));
  return ref->state();
}

absl::Status TexRefGetByteOffset(uint64_t* out, uint64_t handle) {
  return GetValue(out, handle, "hipGetTextureAlignmentOffset",
                  [](const TextureRef::State& s) { return s.byte_offset; });
}

absl::Status ParamSetTexRef(uint64_t function_handle, int texunit, uint64_t texref) {
  constexpr const char* kApi = "cuParamSetTexRef";
  SH_RETURN_IF_ERROR(CurrentContext().status());
  SH_ASSIGN_OR_RETURN(Function * function, ResolveFunction(function_handle));
  SH_ASSIGN_OR_RETURN(TextureRef * ref, ResolveRef(texref, kApi));
  if (texunit != kParamTexRefDefault) {
    return Error(ErrorCode::kInvalidValue, kApi, ": texunit ", texunit,
                 " is not CU_PARAM_TR_DEFAULT");
  }
  if (ref->module() != function->module()) {
    return Error(ErrorCode::kInvalidValue, kApi,
                 ": the texture reference is not one of the function's module");
  }
  return absl::OkStatus();
}

absl::Status SurfRefSetArray(uint64_t handle, uint64_t array, uint32_t flags) {
  constexpr const char* kApi = "cuSurfRefSetArray";
  SH_ASSIGN_OR_RETURN(SurfaceRef * ref, ResolveSurfaceRef(handle, kApi));
  if (flags != 0) {
    return Error(ErrorCode::kInvalidValue, kApi, ": Flags 0x", absl::Hex(flags), " must be 0");
  }
  ResourceDesc resource;
  resource.type = ResourceType::kArray;
  resource.array = array;
  SH_RETURN_IF_ERROR(MakeSurfaceObject(ref->context(), resource, kApi).status());
  ref->set_array(array);
  return absl::OkStatus();
}

absl::Status SurfRefGetArray(uint64_t* out, uint64_t handle) {
  constexpr const char* kApi = "cuSurfRefGetArray";
  SH_ASSIGN_OR_RETURN(SurfaceRef * ref, ResolveSurfaceRef(handle, kApi));
  if (out == nullptr) return Error(ErrorCode::kInvalidValue, kApi, ": phArray is null");
  const uint64_t array = ref->array();
  if (array == 0) {
    return Error(ErrorCode::kInvalidValue, kApi, ": the reference is bound to no array");
  }
  *out = array;
  return absl::OkStatus();
}

}  // namespace streamhal
