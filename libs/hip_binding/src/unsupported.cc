// Entry points declared in the hip/*.h headers that streamhal does not
// implement yet. (conformance/tools/update_stubs.py rewrites the list from
// the headers and the other sources of this folder.)
//
// Each one returns hipErrorNotSupported (recorded as this thread's last
// error, like any failing HIP call) and logs one warning naming itself (once
// per process), so a program that calls it fails cleanly and says why.
// Implementing one of them:
//   1. delete its SH_NOT_IMPLEMENTED line below and define the function in
//      the file of its concept (memory.cc, module.cc, stream.cc, ...);
//   2. in conformance/table.tsv, change its row to supported (or partial,
//      with a reason) and list the conformance tests that prove it;
//   3. delete its test from conformance/tests/not_implemented_test.cc (the
//      conformance report fails while either one disagrees with the table).
// When this list is empty, delete the file.
#include <hip/hip_ext.h>
#include <hip/hip_runtime_api.h>

#include <atomic>

#include "core/log.h"
#include "core/status.h"
#include "result.h"

namespace {

void LogOnce(const char* name, std::atomic<bool>& logged, const char* result) {
  if (!logged.exchange(true, std::memory_order_relaxed)) {
    streamhal::Log(streamhal::LogLevel::kWarning, name,
                   " is not implemented by streamhal yet; it returns ", result);
  }
}

hipError_t NotImplemented(const char* name, std::atomic<bool>& logged) {
  LogOnce(name, logged, "hipErrorNotSupported");
  return streamhal::hip::ToHipError(
      streamhal::Error(streamhal::ErrorCode::kNotSupported, name, " is not implemented"));
}

}  // namespace

// Parameters are unnamed: a stub reads none of them. The flag is constant-
// initialised, so no stub adds a static constructor.
#define SH_NOT_IMPLEMENTED(name, params)    \
  hipError_t name params {                  \
    static std::atomic<bool> logged{false}; \
    return NotImplemented(#name, logged);   \
  }

// For the code-object registration functions compilers emit, which return no
// error code: they register nothing, and a launch by host symbol then
// reports hipErrorNotSupported.
#define SH_NOT_IMPLEMENTED_VOID(name, params)               \
  void name params {                                        \
    static std::atomic<bool> logged{false};                 \
    LogOnce(#name, logged, "without registering anything"); \
  }
#define SH_NOT_IMPLEMENTED_NULL(name, params)     \
  void** name params {                            \
    static std::atomic<bool> logged{false};       \
    LogOnce(#name, logged, "a null module list"); \
    return nullptr;                               \
  }

extern "C" {
// Modules
SH_NOT_IMPLEMENTED(hipModuleGetTexRef, (textureReference**, hipModule_t, const char*))
SH_NOT_IMPLEMENTED(hipLinkCreate, (unsigned int, hipJitOption*, void**, hipLinkState_t*))
SH_NOT_IMPLEMENTED(hipLinkAddData, (hipLinkState_t, hipJitInputType, void*, size_t, const char*,
                                    unsigned int, hipJitOption*, void**))
SH_NOT_IMPLEMENTED(hipLinkAddFile, (hipLinkState_t, hipJitInputType, const char*, unsigned int,
                                    hipJitOption*, void**))
SH_NOT_IMPLEMENTED(hipLinkComplete, (hipLinkState_t, void**, size_t*))
SH_NOT_IMPLEMENTED(hipLinkDestroy, (hipLinkState_t))

// Texture references (deprecated in HIP)
SH_NOT_IMPLEMENTED(hipTexRefSetAddressMode, (textureReference*, int, enum hipTextureAddressMode))
SH_NOT_IMPLEMENTED(hipTexRefSetArray, (textureReference*, hipArray_const_t, unsigned int))
SH_NOT_IMPLEMENTED(hipTexRefSetFilterMode, (textureReference*, enum hipTextureFilterMode))
SH_NOT_IMPLEMENTED(hipTexRefSetFlags, (textureReference*, unsigned int))
SH_NOT_IMPLEMENTED(hipTexRefSetFormat, (textureReference*, hipArray_Format, int))

}  // extern "C"
