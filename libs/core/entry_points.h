// Entry-point tables for cuGetProcAddress and hipGetProcAddress. The tables
// are generated (libs/cuda_binding/gen_entry_points.py, from
// libs/cuda_binding/entry_points.tsv and the binding headers); the search is
// here so that both bindings answer alike.
//
// C-compatible: the HIP table is written in C, where the headers' C++
// overloads of hipMalloc and friends do not hide the exported functions.
#ifndef STREAMHAL_CORE_ENTRY_POINTS_H_
#define STREAMHAL_CORE_ENTRY_POINTS_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*StreamhalEntryPointFn)(void);

// One form of an entry point: `name` as the caller asks for it (the base
// name, "cuMemAlloc"), the API version from which this form answers, the
// function (null for a form that streamhal does not serve, such as the 32-bit
// cuMemAlloc of CUDA 2.x) and, where the form has one, its per-thread
// default-stream variant (_ptds/_ptsz) and the version that introduced it.
typedef struct StreamhalEntryPoint {
  const char* name;
  int version;
  StreamhalEntryPointFn fn;
  int per_thread_version;
  StreamhalEntryPointFn per_thread_fn;
} StreamhalEntryPoint;

#ifdef __cplusplus
}  // extern "C"

#include "absl/strings/string_view.h"

namespace streamhal {

enum class EntryPointStatus { kFound, kSymbolNotFound, kVersionNotSufficient };

struct EntryPointLookup {
  EntryPointStatus status = EntryPointStatus::kSymbolNotFound;
  StreamhalEntryPointFn fn = nullptr;
};

// The form of `name` that answers at `version` in `table` (sorted by name,
// then version): the last form introduced at or before `version`. With
// `per_thread`, its per-thread variant where it has one by then. A name whose
// forms all come later is kVersionNotSufficient, as is a form streamhal does
// not serve when a later one is served; any other miss is kSymbolNotFound.
EntryPointLookup LookUpEntryPoint(const StreamhalEntryPoint* table, size_t count,
                                  absl::string_view name, int version, bool per_thread);

}  // namespace streamhal
#endif  // __cplusplus

#endif  // STREAMHAL_CORE_ENTRY_POINTS_H_
