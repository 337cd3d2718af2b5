#include "core/backend.h"

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
