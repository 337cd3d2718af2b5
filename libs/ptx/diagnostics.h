// The errors the PTX parser and emitter report, naming the PTX line.
#ifndef STREAMHAL_PTX_DIAGNOSTICS_H_
#define STREAMHAL_PTX_DIAGNOSTICS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

#define SH_PTX_RETURN_IF_ERROR(expr) \
  do {                               \
    absl::Status _st = (expr);       \
    if (!_st.ok()) return _st;       \
  } while (false)

namespace streamhal::ptx {

// Malformed PTX (CUDA_ERROR_INVALID_PTX).
inline absl::Status SyntaxError(int line, const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat("ptx line ", line, ": ", what));
}
// PTX outside the covered subset.
inline absl::Status Unsupported(int line, const std::string& what) {
  return absl::UnimplementedError(absl::StrCat("ptx line ", line, ": unsupported ", what));
}

}  // namespace streamhal::ptx

#endif  // STREAMHAL_PTX_DIAGNOSTICS_H_
