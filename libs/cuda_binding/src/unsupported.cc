// Entry points declared in cuda.h that streamhal does not implement yet.
// (conformance/tools/update_stubs.py rewrites the list from the header and
// the other sources of this folder.)
//
// Each one returns CUDA_ERROR_NOT_SUPPORTED and logs one warning naming
// itself (once per process), so a program that calls it fails cleanly and
// says why. Implementing one of them:
//   1. delete its SH_NOT_IMPLEMENTED line below and define the function in
//      the file of its concept (memory.cc, module.cc, stream.cc, ...);
//   2. in conformance/table.tsv, change its row to supported (or partial,
//      with a reason) and list the conformance tests that prove it;
//   3. delete its test from conformance/tests/not_implemented_test.cc (the
//      conformance report fails while either one disagrees with the table).
// When this list is empty, delete the file.
#include <cuda.h>

#include <atomic>

#include "core/log.h"

namespace {

CUresult NotImplemented(const char* name, std::atomic<bool>& logged) {
  if (!logged.exchange(true, std::memory_order_relaxed)) {
    streamhal::Log(streamhal::LogLevel::kWarning, name,
                   " is not implemented by streamhal yet; it returns CUDA_ERROR_NOT_SUPPORTED");
  }
  return CUDA_ERROR_NOT_SUPPORTED;
}

}  // namespace

// Parameters are unnamed: a stub reads none of them. The flag is constant-
// initialised, so no stub adds a static constructor.
#define SH_NOT_IMPLEMENTED(name, params)    \
  CUresult name params {                    \
    static std::atomic<bool> logged{false}; \
    return NotImplemented(#name, logged);   \
  }

extern "C" {
// External memory and semaphores (interop)
SH_NOT_IMPLEMENTED(cuImportExternalSemaphore,
                   (CUexternalSemaphore*, const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC*))
SH_NOT_IMPLEMENTED(cuSignalExternalSemaphoresAsync,
                   (const CUexternalSemaphore*, const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS*,
                    unsigned int, CUstream))
SH_NOT_IMPLEMENTED(cuWaitExternalSemaphoresAsync,
                   (const CUexternalSemaphore*, const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS*,
                    unsigned int, CUstream))
SH_NOT_IMPLEMENTED(cuDestroyExternalSemaphore, (CUexternalSemaphore))

}  // extern "C"
