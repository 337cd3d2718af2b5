#include "core/mipmapped_array.h"

#include <algorithm>
#include <utility>

#include "core/context.h"
#include "core/device.h"
#include "core/status.h"

namespace streamhal {

ArrayDescriptor MipmappedArray::LevelDesc(uint32_t level) const {
  ArrayDescriptor d = desc_;
  const auto halve = [level](uint64_t extent) {
    return extent == 0 ? 0 : std::max<uint64_t>(extent >> level, 1);
  };
  d.width = halve(d.width);
  d.height = halve(d.height);
  // Layers (and cubemap faces) keep their count.
  if ((d.flags & (kArrayLayered | kArrayCubemap)) == 0) d.depth = halve(d.depth);
  return d;
}

absl::StatusOr<uint64_t> MipmappedArray::Level(uint32_t level) {
  MutexLock lock(&mutex_);
  uint64_t& handle = level_arrays_[level];
  if (handle == 0) {
    auto array = std::make_unique<Array>(context_, LevelDesc(level), element_bytes_, image_, level,
                                         this->handle());
    handle = array->handle();
    context_->Adopt(std::move(array));
  }
  return handle;
}

void MipmappedArray::DestroyLevels() {
  MutexLock lock(&mutex_);
  for (uint64_t& handle : level_arrays_) {
    if (Array* array = LookupAs<Array>(handle)) context_->Destroy(array);
    handle = 0;
  }
}

uint32_t ClampMipmapLevels(const ArrayDescriptor& desc, uint32_t requested) {
  const bool layers = (desc.flags & (kArrayLayered | kArrayCubemap)) != 0;
  uint64_t largest = std::max(desc.width, desc.height);
  if (!layers) largest = std::max(largest, desc.depth);
  uint32_t most = 1;
  while (largest > 1) {
    largest >>= 1;
    ++most;
  }
  return std::clamp<uint32_t>(requested, 1, most);
}

absl::StatusOr<MipmappedArray*> ResolveMipmappedArray(uint64_t handle, ErrorCode code,
                                                      const char* what) {
  HandleState state;
  MipmappedArray* mipmapped = LookupAs<MipmappedArray>(handle, &state);
  if (mipmapped == nullptr) {
    return Error(code, what, ": mipmapped array handle 0x", absl::Hex(handle),
                 HandleProblem(state, " is not a mipmapped array", " was destroyed"));
  }
  return mipmapped;
}

absl::Status MipmappedArrayCreate(HandleOut out, const ArrayDescriptor* desc, uint32_t levels) {
  constexpr const char* kApi = "cuMipmappedArrayCreate";
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (out.is_null()) return Error(ErrorCode::kInvalidValue, kApi, ": pHandle is null");
  if (desc == nullptr) {
    return Error(ErrorCode::kInvalidValue, kApi, ": pMipmappedArrayDesc is null");
  }
  SH_RETURN_IF_ERROR(ValidateArrayShape(*desc, kApi));
  const uint32_t clamped = ClampMipmapLevels(*desc, levels);
  SH_ASSIGN_OR_RETURN(std::unique_ptr<BackendImage> image,
                      context->device()->backend()->CreateImage(ArrayImageDesc(*desc, clamped)));
  auto mipmapped = std::make_unique<MipmappedArray>(
      context, *desc, clamped, ArrayElementBytes(desc->format, desc->channels), std::move(image));
  out.Set(mipmapped->handle());
  context->Adopt(std::move(mipmapped));
  return absl::OkStatus();
}

absl::Status MipmappedArrayGetLevel(HandleOut out, uint64_t handle, uint32_t level) {
  constexpr const char* kApi = "cuMipmappedArrayGetLevel";
  SH_RETURN_IF_ERROR(CurrentContext().status());
  SH_ASSIGN_OR_RETURN(MipmappedArray * mipmapped,
                      ResolveMipmappedArray(handle, ErrorCode::kInvalidHandle, kApi));
  if (out.is_null()) return Error(ErrorCode::kInvalidValue, kApi, ": pLevelArray is null");
  if (level >= mipmapped->levels()) {
    return Error(ErrorCode::kInvalidValue, kApi, ": level ", level, " of a mipmapped array with ",
                 mipmapped->levels(), " levels");
  }
  SH_ASSIGN_OR_RETURN(uint64_t array, mipmapped->Level(level));
  out.Set(array);
  return absl::OkStatus();
}

absl::Status MipmappedArrayDestroy(uint64_t handle) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  SH_ASSIGN_OR_RETURN(
      MipmappedArray * mipmapped,
      ResolveMipmappedArray(handle, ErrorCode::kInvalidHandle, "cuMipmappedArrayDestroy"));
  // Pending copies name the image: let them finish first, as cuArrayDestroy
  // does.
  absl::Status status = mipmapped->context()->Synchronize();
  mipmapped->DestroyLevels();
  mipmapped->context()->Destroy(mipmapped);
  return status;
}

absl::Status MipmappedArrayGetDescriptor(uint64_t handle, ArrayDescriptor* out, uint32_t* levels) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  SH_ASSIGN_OR_RETURN(
      MipmappedArray * mipmapped,
      ResolveMipmappedArray(handle, ErrorCode::kInvalidHandle, "hipMipmappedArray query"));
  if (out != nullptr) *out = mipmapped->desc();
  if (levels != nullptr) *levels = mipmapped->levels();
  return absl::OkStatus();
}

}  // namespace streamhal
