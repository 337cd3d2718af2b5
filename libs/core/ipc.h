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
#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/handle.h"

namespace streamhal {

inline constexpr size_t kIpcHandleSize = 64;  // CU_IPC_HANDLE_SIZE
inline constexpr unsigned kIpcMemLazyEnablePeerAccess = 0x1;

// `handle` points at kIpcHandleSize bytes.
absl::Status IpcGetMemHandle(void* handle, uint64_t dptr);
absl::Status IpcOpenMemHandle(uint64_t* dptr, const void* handle, unsigned flags);
absl::Status IpcCloseMemHandle(uint64_t dptr);

// --- Interprocess events (CU_EVENT_INTERPROCESS, cuIpcGetEventHandle,
// cuIpcOpenEventHandle) ---
//
// An interprocess event keeps two counters in its exporter's IPC table, which
// every process that has the event maps: `recorded` counts the records made
// by any of them, `completed` is the newest record whose work has finished
// (set by a host function after the recorded work, in the recording
// process). A query, a synchronize or a stream wait takes the recorded count
// at the call and waits until `completed` reaches it: the most recent record
// at the time of the call, as CUDA specifies, whichever process made it.
// Waits poll the mapped counter (a stream wait as a host function of the
// waiting stream, like cuStreamWaitValue64), never a spinning shader.
class IpcEventState {
 public:
  // The exporter's side: a fresh slot in this process's IPC table.
  static absl::StatusOr<std::shared_ptr<IpcEventState>> Create();
  ~IpcEventState();
  IpcEventState(const IpcEventState&) = delete;
  IpcEventState& operator=(const IpcEventState&) = delete;

  // A record begins: its sequence number.
  uint64_t BeginRecord();
  // The work before record `sequence` has finished.
  void Complete(uint64_t sequence);
  uint64_t recorded() const;
  bool Done(uint64_t sequence) const;
  // Returns once Done(sequence), polling, then sleeping between polls.
  void WaitFor(uint64_t sequence) const;

  // The counters' layout in the table (ipc.cc).
  struct Words;

 private:
  friend absl::Status IpcGetEventHandle(void* handle, uint64_t event);
  friend absl::Status IpcOpenEventHandle(HandleOut event, const void* handle);
  IpcEventState() = default;
  Words* words_ = nullptr;
  // The exporter: its table slot. An importer: the mapping of the
  // exporter's table it keeps open.
  uint32_t slot_ = 0;
  bool exported_ = false;
  void* mapping_ = nullptr;
};

// `handle` points at kIpcHandleSize bytes. The event must have been created
// with CU_EVENT_INTERPROCESS (and so CU_EVENT_DISABLE_TIMING).
absl::Status IpcGetEventHandle(void* handle, uint64_t event);
// A new event of the current context that shares the exporter's counters.
absl::Status IpcOpenEventHandle(HandleOut event, const void* handle);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_IPC_H_
