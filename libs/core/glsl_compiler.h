// Compiles GLSL compute source to SPIR-V at load time with glslang: the
// analogue of CUDA's PTX JIT (kernel formats, design decision 6). The target
// is Vulkan 1.2 / SPIR-V 1.5, the same as `glslangValidator -V --target-env
// vulkan1.2`, so a kernel compiled at build time and one compiled at load
// time are the same module.
#ifndef STREAMHAL_CORE_GLSL_COMPILER_H_
#define STREAMHAL_CORE_GLSL_COMPILER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace streamhal {

struct GlslOptions {
  // CU_JIT_LOG_VERBOSE: the info log also gets glslang's debug log and the
  // compile time.
  bool verbose = false;
  // The name compiler messages use for the source ("ERROR: <name>:3: ...");
  // empty means "kernel.comp".
  std::string source_name;
  // The kernel's name: the SPIR-V entry point that main() becomes, which
  // cuModuleGetFunction looks up. Empty means "main". (glslangValidator:
  // -e <name> --source-entrypoint main.)
  std::string entry_point;
};

struct GlslResult {
  std::vector<uint32_t> spirv;
  std::string info_log;   // warnings (and, if verbose, more); may be empty
  std::string error_log;  // empty on success
  double wall_time_ms = 0;
};

// The one include a GLSL kernel may use: `#include "streamhal/kernel.glsl"`
// (after `#extension GL_GOOGLE_include_directive : require`). Any other
// include fails with a log saying so.
inline constexpr std::string_view kGlslPreludeIncludeName = "streamhal/kernel.glsl";

// The prelude text that the include above resolves to; it equals
// libs/core/include_glsl/streamhal/kernel.glsl (a test checks).
std::string_view GlslPrelude();
// The text of include_glsl/streamhal/kernel.glsl, embedded at build time.
const char* EmbeddedGlslPrelude();

// True when the library was built with glslang (STREAMHAL_ENABLE_GLSL).
bool GlslCompilerAvailable();

// Compiles one compute shader. A compile or link error yields
// ErrorCode::kInvalidPtx whose message holds the compiler log; the same log
// is stored in *error_log_out when given (CU_JIT_ERROR_LOG_BUFFER). Without
// glslang the result is ErrorCode::kNotSupported. Thread-safe.
absl::StatusOr<GlslResult> CompileGlsl(std::string_view source, const GlslOptions& options,
                                       std::string* error_log_out = nullptr);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_GLSL_COMPILER_H_
