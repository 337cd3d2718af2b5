// Texture and surface references (cuModuleGetTexRef, cuTexRefSet*/Get*,
// cuModuleGetSurfRef, cuSurfRef*; HIP's hipModuleGetTexRef, hipTexRef*,
// hipBindTexture*): the legacy, module-scope way for kernels to sample and
// write, kept for code written before texture objects.
//
// A kernel declares a reference as a texture or surface at set 2 with a
// binding from kTextureRefBindingBase up, named by its variable
// (docs/kernel-abi.md):
//
//   layout(set = 2, binding = 1024) uniform sampler2D image_ref;
//
// Loading the module makes one reference per name its kernels declare;
// cuModuleGetTexRef returns it, and the reference goes with its module. A
// reference is mutable state: what it is bound to (an array, a mipmapped
// array, linear or pitched memory) and how it samples. Each launch of a
// kernel that declares it binds what the reference holds at that launch:
// the reference keeps an immutable texture object made from its state
// (remade after each change), and the launch binds that object exactly as
// it binds a texture parameter (core/texture.h), so both ways share every
// check and view. Changing the reference later does not affect launches
// already made.
//
// Checks (CUDA's documented codes): a null, destroyed or foreign handle is
// kInvalidHandle; null outputs, dimensions other than 0..2, modes and flags
// CUDA does not define, formats and channel counts no texel has, unaligned
// or unallocated memory: kInvalidValue; getting the address, array or
// mipmapped array of a reference bound to something else: kInvalidValue.
// Launching a kernel whose reference is bound to nothing is kInvalidValue.
#ifndef STREAMHAL_CORE_TEXTURE_REF_H_
#define STREAMHAL_CORE_TEXTURE_REF_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/handle.h"
#include "core/mutex.h"
#include "core/texture.h"

namespace streamhal {

class Context;
class Module;

// CU_TRSA_OVERRIDE_FORMAT (cuTexRefSetArray, cuTexRefSetMipmappedArray).
inline constexpr uint32_t kTexRefOverrideFormat = 0x01;
// CU_PARAM_TR_DEFAULT (cuParamSetTexRef).
inline constexpr int kParamTexRefDefault = -1;

// Room for the binding's own view of a reference: HIP hands out a pointer
// to a textureReference struct that programs read and write directly.
inline constexpr size_t kTextureRefApiBytes = 128;

class TextureRef : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kTexRef;

  // `module` is null for references made with cuTexRefCreate.
  TextureRef(Context* context, Module* module, std::string name);
  ~TextureRef() override;

  Context* context() const { return context_; }
  Module* module() const { return module_; }
  const std::string& name() const { return name_; }
  // Zeroed storage the API binding may keep its struct in; its address
  // finds the reference again (TexRefOfApiStorage).
  void* api_storage() { return api_storage_; }

  // The state, as the Set calls leave it.
  struct State {
    bool bound = false;
    ResourceDesc resource;  // valid when `bound`
    // CUarray_format and channel count: from cuTexRefSetFormat, or the
    // bound array's.
    uint32_t format = 0;
    uint32_t channels = 0;
    uint64_t byte_offset = 0;  // cuTexRefSetAddress's alignment offset
    TextureDesc texture;
  };
  State state() const;
  // Applies `change` to the state; the next launch remakes the object.
  template <typename F>
  void Update(F change) {
    MutexLock lock(&mutex_);
    change(state_);
    snapshot_.reset();
  }

  // The texture object a launch binds: made from the state on the first
  // launch after a change, kept until the next change.
  absl::StatusOr<std::shared_ptr<TextureObject>> Snapshot();

 private:
  Context* const context_;
  Module* const module_;
  const std::string name_;
  alignas(16) unsigned char api_storage_[kTextureRefApiBytes] = {};
  mutable Mutex mutex_;
  State state_ ABSL_GUARDED_BY(mutex_);
  std::shared_ptr<TextureObject> snapshot_ ABSL_GUARDED_BY(mutex_);
};

class SurfaceRef : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kSurfRef;

  SurfaceRef(Context* context, Module* module, std::string name)
      : Object(kKind), context_(context), module_(module), name_(std::move(name)) {}

  Context* context() const { return context_; }
  Module* module() const { return module_; }
  const std::string& name() const { return name_; }

  uint64_t array() const;
  void set_array(uint64_t array);
  // The surface object a launch binds (see TextureRef::Snapshot).
  absl::StatusOr<std::shared_ptr<SurfaceObject>> Snapshot();

 private:
  Context* const context_;
  Module* const module_;
  const std::string name_;
  mutable Mutex mutex_;
  uint64_t array_ ABSL_GUARDED_BY(mutex_) = 0;
  std::shared_ptr<SurfaceObject> snapshot_ ABSL_GUARDED_BY(mutex_);
};

// The api_storage() of the reference `texref` (kInvalidHandle if none).
absl::StatusOr<void*> TexRefApiStorage(uint64_t texref);
// The handle of the reference whose api_storage() is at `storage`, or 0.
uint64_t TexRefOfApiStorage(const void* storage);

// Entry points (cuModuleGetTexRef and cuModuleGetSurfRef are in
// core/module.h); `out` receives the handle.
absl::Status TexRefCreate(uint64_t* out);
// Only references made with TexRefCreate (a module's go with the module).
absl::Status TexRefDestroy(uint64_t texref);

absl::Status TexRefSetArray(uint64_t texref, uint64_t array, uint32_t flags);
absl::Status TexRefSetMipmappedArray(uint64_t texref, uint64_t mipmapped_array, uint32_t flags);
// `byte_offset` may be null. An address that is not a multiple of the
// texture alignment binds from the multiple below it and returns the
// difference there (CUDA's rule); bytes == 0 or a null address unbinds.
absl::Status TexRefSetAddress(uint64_t* byte_offset, uint64_t texref, uint64_t address,
                              uint64_t bytes);
// `width`, `height` in elements of `format` x `channels` (the
// CUDA_ARRAY_DESCRIPTOR); the address must be aligned.
absl::Status TexRefSetAddress2D(uint64_t texref, uint64_t width, uint64_t height, uint32_t format,
                                uint32_t channels, uint64_t address, uint64_t pitch);
absl::Status TexRefSetFormat(uint64_t texref, uint32_t format, int channels);
absl::Status TexRefSetAddressMode(uint64_t texref, int dim, uint32_t mode);
absl::Status TexRefSetFilterMode(uint64_t texref, uint32_t mode);
absl::Status TexRefSetMipmapFilterMode(uint64_t texref, uint32_t mode);
absl::Status TexRefSetMipmapLevelBias(uint64_t texref, float bias);
absl::Status TexRefSetMipmapLevelClamp(uint64_t texref, float min_clamp, float max_clamp);
absl::Status TexRefSetMaxAnisotropy(uint64_t texref, uint32_t max_anisotropy);
absl::Status TexRefSetBorderColor(uint64_t texref, const float* rgba);
absl::Status TexRefSetFlags(uint64_t texref, uint32_t flags);
// Forgets what the reference is bound to (hipUnbindTexture).
absl::Status TexRefUnbind(uint64_t texref);

absl::Status TexRefGetAddress(uint64_t* out, uint64_t texref);
absl::Status TexRefGetArray(uint64_t* out, uint64_t texref);
absl::Status TexRefGetMipmappedArray(uint64_t* out, uint64_t texref);
absl::Status TexRefGetAddressMode(uint32_t* out, uint64_t texref, int dim);
absl::Status TexRefGetFilterMode(uint32_t* out, uint64_t texref);
absl::Status TexRefGetMipmapFilterMode(uint32_t* out, uint64_t texref);
absl::Status TexRefGetMipmapLevelBias(float* out, uint64_t texref);
absl::Status TexRefGetMipmapLevelClamp(float* min_clamp, float* max_clamp, uint64_t texref);
absl::Status TexRefGetMaxAnisotropy(int* out, uint64_t texref);
absl::Status TexRefGetBorderColor(float* rgba, uint64_t texref);
absl::Status TexRefGetFlags(uint32_t* out, uint64_t texref);
// Either output may be null.
absl::Status TexRefGetFormat(uint32_t* format, int* channels, uint64_t texref);
// All of the reference's state (what HIP mirrors into its struct).
absl::StatusOr<TextureRef::State> TexRefGetState(uint64_t texref);
// The byte offset the last cuTexRefSetAddress returned (0 otherwise).
absl::Status TexRefGetByteOffset(uint64_t* out, uint64_t texref);

// cuParamSetTexRef: module references are bound by name at every launch,
// so this checks its arguments (texunit CU_PARAM_TR_DEFAULT, a reference of
// the function's module) and changes nothing.
absl::Status ParamSetTexRef(uint64_t function, int texunit, uint64_t texref);

absl::Status SurfRefSetArray(uint64_t surfref, uint64_t array, uint32_t flags);
absl::Status SurfRefGetArray(uint64_t* out, uint64_t surfref);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_TEXTURE_REF_H_
