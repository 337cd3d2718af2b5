// Inter-process device memory: cuIpcGetMemHandle / cuIpcOpenMemHandle /
// cuIpcCloseMemHandle and their hipIpc* twins.
//
// A handle is 64 plain bytes a program may send over any channel. The
// memory behind it is the exporter's Vulkan device memory as a file
// descriptor (VK_KHR_external_memory_fd, opaque fd; see
// BackendDevice::ExportMemory). The descriptor stays in the exporting
// process; the importer takes its own copy with pidfd_getfd(2), which the
// kernel allows between processes of the same user.
//
// Each process that exports keeps an IPC table: an anonymous shared-memory
// file (memfd) whose slots describe its live exports (descriptor number,
// memory size, offset, type, device UUID) under a random nonce. A handle
// names the exporter's pid, the table's descriptor and id, a slot and the
// nonce. Freeing an exported allocation clears its slot before closing its
// descriptor, and an importer checks the nonce again after taking the
// descriptor, so a handle of freed memory, of an exited process, or a
// forged one never maps anything: kInvalidHandle (CUDA_ERROR_INVALID_HANDLE).
//
// CUDA's rules kept here:
//  - the handle of an allocation is the same each time it is asked for;
//  - only the start of a cuMemAlloc allocation is exported (pool, managed,
//    mapped virtual memory and imported memory: kInvalidValue);
//  - opening requires flags == CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS
//    (kInvalidValue otherwise), a current context, and another process than
//    the exporter (kInvalidContext in the exporter itself);
//  - opening a handle again in the same context returns the same pointer and
//    counts; each open needs one cuIpcCloseMemHandle, and the last one unmaps
//    (after the context's work on it is done);
//  - memory of another device than the context's: kPeerAccessUnsupported
//    (one device's memory types mean nothing to another device).
#ifndef STREAMHAL_CORE_IPC_H_
#define STREAMHAL_CORE_IPC_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"

namespace streamhal {

inline constexpr size_t kIpcHandleSize = 64;  // CU_IPC_HANDLE_SIZE
inline constexpr unsigned kIpcMemLazyEnablePeerAccess = 0x1;

// `handle` points at kIpcHandleSize bytes.
absl::Status IpcGetMemHandle(void* handle, uint64_t dptr);
absl::Status IpcOpenMemHandle(uint64_t* dptr, const void* handle, unsigned flags);
absl::Status IpcCloseMemHandle(uint64_t dptr);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_IPC_H_
