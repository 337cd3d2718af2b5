// Parses PTX text as nvcc emits it into the IR (ir.h): module directives,
// `.entry` kernels with their `.param` lists (laid out as CUDA lays out a
// kernel's parameter buffer), `.func` device functions (return and argument
// `.param`/`.reg` lists, `.extern` prototypes), `.reg` declarations (with
// `<N>` ranges), `.shared` variables (static, and `.extern .shared` arrays
// for dynamic shared memory), call-site `.param` buffers, labels and
// (predicated) instructions, then splits each body into basic blocks.
//
// Errors name the line: "ptx line N: ...". Syntax errors are
// InvalidArgument; constructs this translator does not handle yet (indirect
// calls, `exit` in a `.func`, ...) are Unimplemented.
#ifndef STREAMHAL_PTX_PARSER_H_
#define STREAMHAL_PTX_PARSER_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "ptx/ir.h"

namespace streamhal::ptx {

absl::StatusOr<Module> Parse(std::string_view text);

// Whether `text` looks like PTX: after whitespace and comments, the first
// word is a PTX directive (`.version`, `.target`, ...). nvcc's output starts
// with a `//` comment header, then `.version`.
bool LooksLikePtx(std::string_view text);

}  // namespace streamhal::ptx

#endif  // STREAMHAL_PTX_PARSER_H_
