#include "core/backend.h"

#include <unistd.h>

#include "core/status.h"

namespace streamhal {
namespace {

absl::Status Unsupported(const char* what, const DeviceProperties& properties) {
  return Error(ErrorCode::kNotSupported, "backend '", properties.backend_name,
               "' does not implement ", what);
}

}  // namespace

absl::StatusOr<std::unique_ptr<BackendAllocation>> BackendDevice::Allocate(uint64_t, MemoryKind) {
  return Unsupported("memory allocation", properties());
}

absl::StatusOr<std::unique_ptr<BackendAllocation>> BackendDevice::RegisterHostMemory(void*,
                                                                                     uint64_t) {
  return Unsupported("host memory registration", properties());
}

absl::StatusOr<BackendDevice::ExportedMemory> BackendDevice::ExportMemory(BackendAllocation*) {
  return Unsupported("exporting memory to other processes", properties());
}

absl::StatusOr<std::unique_ptr<BackendAllocation>> BackendDevice::ImportMemory(
    const ExportedMemory& exported, uint64_t) {
  if (exported.fd >= 0) close(exported.fd);
  return Unsupported("importing memory of other processes", properties());
}

absl::StatusOr<std::unique_ptr<BackendImage>> BackendDevice::ImportImage(
    const ExportedMemory& exported, const ImageDesc&) {
  if (exported.fd >= 0) close(exported.fd);
  return Unsupported("images over memory of other APIs", properties());
}

absl::Status BackendDevice::EnablePeerAccess(BackendDevice*) {
  return Error(ErrorCode::kPeerAccessUnsupported, "backend '", properties().backend_name,
               "' has no peer access");
}

absl::StatusOr<std::unique_ptr<BackendModule>> BackendDevice::CreateModule(
    const std::vector<uint32_t>&) {
  return Unsupported("modules", properties());
}

absl::StatusOr<std::unique_ptr<BackendKernel>> BackendDevice::CreateKernel(BackendModule*,
                                                                           const KernelLayout&) {
  return Unsupported("kernels", properties());
}

absl::StatusOr<std::unique_ptr<BackendStream>> BackendDevice::CreateStream() {
  return Unsupported("streams", properties());
}

absl::StatusOr<std::unique_ptr<BackendRecorder>> BackendDevice::CreateRecorder() {
  return Unsupported("recorded work (graphs)", properties());
}

namespace {

BufferRange Advance(BufferRange range, uint64_t bytes) {
  return BufferRange{range.allocation, range.offset + bytes};
}

}  // namespace

absl::Status BackendRecorder::RecordCopyBox(BufferRange dst, BufferRange src, const CopyBox& box) {
  for (uint64_t row = 0; row < box.rows(); ++row) {
    SH_RETURN_IF_ERROR(
        RecordCopy(Advance(dst, box.DstRow(row)), Advance(src, box.SrcRow(row)), box.width));
  }
  return absl::OkStatus();
}

absl::Status BackendRecorder::RecordFillRows(BufferRange dst, uint32_t pattern,
                                             uint32_t element_size, uint64_t count, uint64_t pitch,
                                             uint64_t rows) {
  for (uint64_t row = 0; row < rows; ++row) {
    SH_RETURN_IF_ERROR(RecordFill(Advance(dst, row * pitch), pattern, element_size, count));
  }
  return absl::OkStatus();
}

absl::Status BackendStream::RecordCopyBox(BufferRange dst, BufferRange src, const CopyBox& box) {
  for (uint64_t row = 0; row < box.rows(); ++row) {
    SH_RETURN_IF_ERROR(
        RecordCopy(Advance(dst, box.DstRow(row)), Advance(src, box.SrcRow(row)), box.width));
  }
  return absl::OkStatus();
}

absl::Status BackendStream::RecordUploadBox(BufferRange dst, const void* src, const CopyBox& box) {
  for (uint64_t row = 0; row < box.rows(); ++row) {
    SH_RETURN_IF_ERROR(RecordUpload(Advance(dst, box.DstRow(row)),
                                    static_cast<const uint8_t*>(src) + box.SrcRow(row), box.width));
  }
  return absl::OkStatus();
}

absl::Status BackendStream::RecordDownloadBox(void* dst, BufferRange src, const CopyBox& box) {
  for (uint64_t row = 0; row < box.rows(); ++row) {
    SH_RETURN_IF_ERROR(RecordDownload(static_cast<uint8_t*>(dst) + box.DstRow(row),
                                      Advance(src, box.SrcRow(row)), box.width));
  }
  return absl::OkStatus();
}

absl::Status BackendStream::RecordFillRows(BufferRange dst, uint32_t pattern, uint32_t element_size,
                                           uint64_t count, uint64_t pitch, uint64_t rows) {
  for (uint64_t row = 0; row < rows; ++row) {
    SH_RETURN_IF_ERROR(RecordFill(Advance(dst, row * pitch), pattern, element_size, count));
  }
  return absl::OkStatus();
}

absl::Status BackendStream::RecordBufferToImage(BackendImage*, const ImageBox&,
                                                const ImageBufferSide&) {
  return Error(ErrorCode::kNotSupported, "this backend has no images");
}

absl::Status BackendStream::RecordImageToBuffer(const ImageBufferSide&, BackendImage*,
                                                const ImageBox&) {
  return Error(ErrorCode::kNotSupported, "this backend has no images");
}

absl::Status BackendStream::RecordImageToImage(BackendImage*, const ImageBox&, BackendImage*,
                                               const ImageBox&) {
  return Error(ErrorCode::kNotSupported, "this backend has no images");
}

absl::StatusOr<std::unique_ptr<BackendImage>> BackendDevice::CreateImage(const ImageDesc&) {
  return Error(ErrorCode::kNotSupported, "this backend has no images (CUDA arrays)");
}

absl::StatusOr<std::shared_ptr<BackendResourceView>> BackendDevice::CreateResourceView(
    std::shared_ptr<BackendImage>, const BindingViewDesc&) {
  return Error(ErrorCode::kNotSupported, "this backend cannot bind textures or surfaces");
}

absl::StatusOr<std::shared_ptr<BackendResourceView>> BackendDevice::CreateStagedView(
    const ImageDesc&, const BindingViewDesc&) {
  return Error(ErrorCode::kNotSupported, "this backend cannot bind textures over pitched memory");
}

absl::StatusOr<std::shared_ptr<BackendResourceView>> BackendDevice::CreateBufferView(
    BackendAllocation*, uint64_t, uint64_t, ArrayFormat, uint32_t, bool) {
  return Error(ErrorCode::kNotSupported, "this backend cannot bind textures over linear memory");
}

absl::Status BackendStream::RecordWait(BackendStream*, uint64_t) {
  return Error(ErrorCode::kNotSupported, "this backend cannot order streams");
}

absl::StatusOr<uint64_t> BackendStream::RecordTimestamp() {
  return Error(ErrorCode::kNotSupported, "this backend has no device timestamps");
}

absl::StatusOr<uint64_t> BackendStream::ReadTimestamp(uint64_t) {
  return Error(ErrorCode::kNotSupported, "this backend has no device timestamps");
}

absl::Status BackendStream::RecordHostFunction(void (*)(void*), void*) {
  return Error(ErrorCode::kNotSupported, "this backend cannot run host functions");
}

absl::Status BackendStream::RecordExecute(std::shared_ptr<BackendRecording>) {
  return Error(ErrorCode::kNotSupported, "this backend cannot run recorded work");
}

}  // namespace streamhal
