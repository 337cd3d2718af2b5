// libFuzzer target for the host object and archive reader (host_object.h),
// the untrusted input of CU_JIT_INPUT_OBJECT / CU_JIT_INPUT_LIBRARY. Each
// input is read from a heap copy of exactly its bytes, so the address
// sanitizer catches a read past it, as an object, as an archive and, for
// every archive member that is an ELF file, as that object. Every span the
// reader returns must lie inside the input.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "core/host_object.h"

namespace {

void CheckInside(streamhal::ByteSpan inner, const uint8_t* data, size_t size) {
  if (inner.empty()) return;
  if (inner.data() < data || inner.size() > size || inner.data() + inner.size() > data + size) {
    abort();
  }
}

void ReadObject(streamhal::ByteSpan object, const uint8_t* data, size_t size) {
  const auto fat_binaries = streamhal::HostObjectFatBinaries(object);
  if (!fat_binaries.ok()) return;
  for (streamhal::ByteSpan fat : *fat_binaries) {
    CheckInside(fat, object.data(), object.size());
    CheckInside(fat, data, size);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto exact = std::make_unique<uint8_t[]>(size == 0 ? 1 : size);
  if (size != 0) std::memcpy(exact.get(), data, size);
  const streamhal::ByteSpan bytes(exact.get(), size);
  ReadObject(bytes, exact.get(), size);
  const auto members = streamhal::ReadArchive(bytes);
  if (!members.ok()) return 0;
  for (const streamhal::ArchiveMember& member : *members) {
    CheckInside(member.data, exact.get(), size);
    if (streamhal::IsElfFile(member.data)) ReadObject(member.data, exact.get(), size);
  }
  return 0;
}
