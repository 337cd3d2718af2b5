#include "core/external_memory.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <memory>

#include "core/backend.h"
#include "core/context.h"
#include "core/device.h"
#include "core/memory.h"
#include "core/mipmapped_array.h"
#include "core/status.h"

namespace streamhal {
namespace {

class ExternalMemory final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kExternalMemory;

  ExternalMemory(Context* context, int fd, uint64_t size, bool dedicated)
      : Object(kKind), context_(context), fd_(fd), size_(size), dedicated_(dedicated) {}
  ~ExternalMemory() override { close(fd_); }

  Context* context() const { return context_; }
  uint64_t size() const { return size_; }

  // `size` bytes at `offset`, through an import of their own.
  absl::StatusOr<std::unique_ptr<BackendAllocation>> Map(uint64_t offset, uint64_t size) const {
    SH_ASSIGN_OR_RETURN(BackendDevice::ExportedMemory memory, Export(offset));
    return context_->device()->backend()->ImportMemory(memory, size);
  }
  // An image of `desc` at `offset`, through an import of its own.
  absl::StatusOr<std::unique_ptr<BackendImage>> MapImage(uint64_t offset,
                                                         const ImageDesc& desc) const {
    SH_ASSIGN_OR_RETURN(BackendDevice::ExportedMemory memory, Export(offset));
    return context_->device()->backend()->ImportImage(memory, desc);
  }

 private:
  absl::StatusOr<BackendDevice::ExportedMemory> Export(uint64_t offset) const {
    BackendDevice::ExportedMemory memory;
    memory.fd = fcntl(fd_, F_DUPFD_CLOEXEC, 0);
    if (memory.fd < 0) return Error(ErrorCode::kOutOfMemory, "no file descriptor left");
    memory.memory_size = size_;
    memory.offset = offset;
    memory.external = true;
    memory.dedicated = dedicated_;
    return memory;
  }

  Context* const context_;
  const int fd_;  // owned
  const uint64_t size_;
  const bool dedicated_;
};

absl::StatusOr<ExternalMemory*> Resolve(uint64_t handle, const char* api) {
  HandleState state;
  ExternalMemory* memory = LookupAs<ExternalMemory>(handle, &state);
  if (memory == nullptr) {
    return Error(ErrorCode::kInvalidHandle, api, ": extMem ",
                 state == HandleState::kNull        ? "is null"
                 : state == HandleState::kDestroyed ? "was destroyed"
                                                    : "is no external memory object");
  }
  return memory;
}

}  // namespace

absl::Status ImportExternalMemory(HandleOut out, const ExternalMemoryDesc* desc) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (out.is_null() || desc == nullptr) {
    return Error(ErrorCode::kInvalidValue,
                 "cuImportExternalMemory: extMem_out and memHandleDesc must not be null");
  }
  if (desc->type == kExternalMemoryDmaBufFd ||
      (desc->type > kExternalMemoryOpaqueFd && desc->type < kExternalMemoryDmaBufFd)) {
    return Error(ErrorCode::kNotSupported, "cuImportExternalMemory: handle type ", desc->type,
                 " is not a Vulkan opaque file descriptor");
  }
  if (desc->type != kExternalMemoryOpaqueFd) {
    return Error(ErrorCode::kInvalidValue, "cuImportExternalMemory: unknown handle type ",
                 desc->type);
  }
  if (desc->fd < 0 || desc->size == 0 || (desc->flags & ~kExternalMemoryDedicated) != 0) {
    return Error(ErrorCode::kInvalidValue, "cuImportExternalMemory: fd ", desc->fd, ", size ",
                 desc->size, " or flags 0x", absl::Hex(desc->flags), " is invalid");
  }
  // Vulkan memory is a file or an anonymous inode, never a pipe, socket,
  // device or directory (a driver could block reading one).
  struct stat st;
  if (fstat(desc->fd, &st) != 0 || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) ||
      S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISDIR(st.st_mode)) {
    return Error(ErrorCode::kInvalidValue, "cuImportExternalMemory: fd ", desc->fd,
                 " is not a memory object's descriptor");
  }
  // The caller's descriptor stays theirs until the import has succeeded.
  const int fd = fcntl(desc->fd, F_DUPFD_CLOEXEC, 0);
  if (fd < 0) {
    return Error(ErrorCode::kInvalidValue, "cuImportExternalMemory: fd ", desc->fd,
                 " is not an open file descriptor");
  }
  auto memory = std::make_unique<ExternalMemory>(context, fd, desc->size,
                                                 (desc->flags & kExternalMemoryDedicated) != 0);
  // Imported once now, so a descriptor the device cannot take fails here.
  absl::StatusOr<std::unique_ptr<BackendAllocation>> probe = memory->Map(0, desc->size);
  if (!probe.ok()) {
    if (ErrorCodeOf(probe.status()) == ErrorCode::kInvalidValue ||
        ErrorCodeOf(probe.status()) == ErrorCode::kUnknown) {
      return Error(ErrorCode::kInvalidValue,
                   "cuImportExternalMemory: the device cannot import "
                   "fd ",
                   desc->fd, ": ", probe.status().message());
    }
    return probe.status();
  }
  probe->reset();
  close(desc->fd);  // CUDA: the descriptor is the driver's now
  out.Set(memory->handle());
  context->Adopt(std::move(memory));
  return absl::OkStatus();
}

absl::Status ExternalMemoryGetMappedBuffer(uint64_t* dptr, uint64_t external, uint64_t offset,
                                           uint64_t size, unsigned flags) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  SH_ASSIGN_OR_RETURN(ExternalMemory * memory,
                      Resolve(external, "cuExternalMemoryGetMappedBuffer"));
  if (dptr == nullptr || size == 0 || flags != 0 || offset > memory->size() ||
      size > memory->size() - offset) {
    return Error(ErrorCode::kInvalidValue, "cuExternalMemoryGetMappedBuffer: [", offset, ", +",
                 size, ") with flags 0x", absl::Hex(flags), " does not fit the ", memory->size(),
                 "-byte memory");
  }
  SH_ASSIGN_OR_RETURN(std::unique_ptr<BackendAllocation> mapped, memory->Map(offset, size));
  auto allocation = std::make_unique<Allocation>();
  allocation->backend = std::move(mapped);
  allocation->context = memory->context();
  allocation->kind = AllocationKind::kDevice;
  allocation->size = size;
  *dptr = allocation->device_address();
  InsertAllocation(std::move(allocation));
  return absl::OkStatus();
}

absl::Status ExternalMemoryGetMappedMipmappedArray(HandleOut out, uint64_t external,
                                                   const ExternalMipmappedArrayDesc* desc) {
  constexpr const char* kApi = "cuExternalMemoryGetMappedMipmappedArray";
  SH_RETURN_IF_ERROR(CurrentContext().status());
  SH_ASSIGN_OR_RETURN(ExternalMemory * memory, Resolve(external, kApi));
  if (out.is_null() || desc == nullptr) {
    return Error(ErrorCode::kInvalidValue, kApi, ": mipmap and mipmapDesc must not be null");
  }
  SH_RETURN_IF_ERROR(ValidateArrayShape(desc->array, kApi));
  // Unlike cuMipmappedArrayCreate, the level count is not clamped: the
  // exporter's image has exactly this many.
  const uint32_t most = ClampMipmapLevels(desc->array, UINT32_MAX);
  if (desc->levels == 0 || desc->levels > most) {
    return Error(ErrorCode::kInvalidValue, kApi, ": numLevels ", desc->levels, " is not in [1, ",
                 most, "] for this extent");
  }
  if (desc->offset >= memory->size()) {
    return Error(ErrorCode::kInvalidValue, kApi, ": offset ", desc->offset, " is outside the ",
                 memory->size(), "-byte memory");
  }
  SH_ASSIGN_OR_RETURN(std::unique_ptr<BackendImage> image,
                      memory->MapImage(desc->offset, ArrayImageDesc(desc->array, desc->levels)));
  auto mipmapped = std::make_unique<MipmappedArray>(
      memory->context(), desc->array, desc->levels,
      ArrayElementBytes(desc->array.format, desc->array.channels), std::move(image));
  out.Set(mipmapped->handle());
  memory->context()->Adopt(std::move(mipmapped));
  return absl::OkStatus();
}

absl::Status DestroyExternalMemory(uint64_t external) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  SH_ASSIGN_OR_RETURN(ExternalMemory * memory, Resolve(external, "cuDestroyExternalMemory"));
  // Mapped buffers and mipmapped arrays are imports of their own and stay
  // until cuMemFree or cuMipmappedArrayDestroy.
  memory->context()->Destroy(memory);
  return absl::OkStatus();
}

}  // namespace streamhal
