// GLSL compute source -> SPIR-V with glslang's C++ interface.
#include "core/glsl_compiler.h"

#include <chrono>
#include <climits>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/log.h"
#include "core/status.h"

#ifdef STREAMHAL_HAVE_GLSL
#include "glslang/Public/ResourceLimits.h"
#include "glslang/Public/ShaderLang.h"
#include "glslang/SPIRV/GlslangToSpv.h"
#include "glslang/SPIRV/Logger.h"
#endif

namespace streamhal {
namespace {

// Verbatim copy of include_glsl/streamhal/kernel.glsl (the installed file that
// glslangValidator includes); glsl_compiler_test checks the two are equal, so
// edit both together.
constexpr std::string_view kPrelude = R"glsl(// streamhal kernel prelude (kernel ABI v1): CUDA-style names for GLSL compute
// kernels. Use it right after #version, before any declaration, because the
// #extension lines below must precede the kernel's own code:
//
//   #version 460
//   #extension GL_GOOGLE_include_directive : require
//   #include "streamhal/kernel.glsl"
//
// The same text is compiled into the library, so kernels loaded as GLSL source
// at run time (cuModuleLoadData) can include it without any file on disk; a
// build compiling with glslangValidator passes -I<this folder's parent>.
//
// Optional switches, #define them before the #include:
//   STREAMHAL_LITERAL_WORKGROUP_SIZE  the kernel declares its own literal
//       layout(local_size_x = ...) in; such a kernel accepts only launches of
//       exactly that block size.
//   STREAMHAL_NO_DUNDER_NAMES  skip the "__"-spelled CUDA names
//       (__syncthreads, ...). GLSL reserves names containing "__", so glslang
//       prints one warning per such name it sees defined; syncthreads() and
//       the other plain spellings are always available.
#ifndef STREAMHAL_KERNEL_GLSL_
#define STREAMHAL_KERNEL_GLSL_

// Device pointers are 64-bit buffer device addresses (kernel ABI v1).
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

// Block dimensions are specialization constants 0, 1, 2, set per launch.
#ifndef STREAMHAL_LITERAL_WORKGROUP_SIZE
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
#endif

// CUDA's built-in index variables, as uvec3 (use .x, .y, .z).
#define threadIdx gl_LocalInvocationID
#define blockIdx gl_WorkGroupID
#define blockDim gl_WorkGroupSize
// A grid larger than the device's dispatch limits is launched in pieces; the
// runtime rewrites the kernel so that gl_WorkGroupID and gl_NumWorkGroups
// describe the whole grid (docs/kernel-abi.md, "Grids"): blockIdx and
// gridDim are exact.
#define gridDim gl_NumWorkGroups

// __syncthreads: every thread of the block reaches the barrier, and memory
// writes (shared and global) made before it are visible to the block after
// it.
void syncthreads() {
  groupMemoryBarrier();
  barrier();
}
// __threadfence_block / __threadfence order memory without a barrier.
void threadfence_block() { groupMemoryBarrier(); }
void threadfence() { memoryBarrier(); }

#ifndef STREAMHAL_NO_DUNDER_NAMES
#define __syncthreads() syncthreads()
#define __threadfence_block() threadfence_block()
#define __threadfence() threadfence()
#endif

// Typed device pointers. STREAMHAL_DECLARE_PTR(float); declares float_ptr, a
// buffer reference whose member v is the pointed-to array:
//
//   STREAMHAL_DECLARE_PTR(float);
//   layout(push_constant) uniform Params { float_ptr x; uint n; } p;
//   ... p.x.v[i] ...
//
// The alignment promised to the compiler is 4 bytes, which is safe for every
// 4- and 8-byte type; use STREAMHAL_DECLARE_PTR_ALIGNED for smaller types.
#define STREAMHAL_DECLARE_PTR_ALIGNED(T, ALIGN)                       \
  layout(buffer_reference, std430, buffer_reference_align = ALIGN) \
      buffer T##_ptr {                                                \
    T v[];                                                            \
  }
#define STREAMHAL_DECLARE_PTR(T) STREAMHAL_DECLARE_PTR_ALIGNED(T, 4)

// Dynamic shared memory (CUDA's extern __shared__). Specialization constant 3
// is the launch's dynamic shared memory size in bytes (kernel ABI v1). The
// launcher sets it to the launch's byte count rounded up to a multiple of 16,
// and at least 16, so the array below is never empty for element types up to
// 16 bytes; the default of 16 keeps the module valid before specialisation.
layout(constant_id = 3) const uint kStreamhalDynamicSharedBytes = 16;

// STREAMHAL_DYNAMIC_SHARED(float, 4, smem); declares shared float
// smem[bytes / 4]: ELEM_BYTES is the size of one T, which GLSL cannot compute.
// Declare at most one dynamic shared array per kernel; like CUDA's
// extern __shared__ it is the block's whole dynamic allocation.
#define STREAMHAL_DYNAMIC_SHARED(T, ELEM_BYTES, NAME) \
  shared T NAME[kStreamhalDynamicSharedBytes / (ELEM_BYTES)]

#endif  // STREAMHAL_KERNEL_GLSL_
)glsl";

#ifdef STREAMHAL_HAVE_GLSL

// glslang keeps process-wide tables (built-in symbol tables) that must exist
// before the first compile. A function-local static sets them up lazily and
// thread-safely without a global constructor (design decision 8). They are
// never finalized: FinalizeProcess would race with compiles still running on
// other threads at exit.
void EnsureGlslangInitialized() {
  static const bool initialized = glslang::InitializeProcess();
  (void)initialized;
}

// Resolves the one include kernels may use to the built-in prelude text, so
// kernels compiled at load time need no file on disk.
class PreludeIncluder : public glslang::TShader::Includer {
 public:
  IncludeResult* includeLocal(const char* name, const char* /*includer*/,
                              size_t /*depth*/) override {
    return Resolve(name);
  }
  IncludeResult* includeSystem(const char* name, const char* /*includer*/,
                               size_t /*depth*/) override {
    return Resolve(name);
  }
  void releaseInclude(IncludeResult* result) override { delete result; }

 private:
  IncludeResult* Resolve(const char* name) {
    if (name == kGlslPreludeIncludeName) {
      return new IncludeResult(std::string(kGlslPreludeIncludeName), kPrelude.data(),
                               kPrelude.size(), nullptr);
    }
    // glslang reports a failed include with an empty name and the reason as
    // the text; the text must outlive the result, so it lives here.
    failure_ = absl::StrCat("only \"", std::string(kGlslPreludeIncludeName),
                            "\" can be included when GLSL is compiled at load time");
    return new IncludeResult(std::string(), failure_.data(), failure_.size(), nullptr);
  }

  std::string failure_;
};

void AppendLog(std::string& log, const char* text) {
  if (text != nullptr) log += text;
}

#endif  // STREAMHAL_HAVE_GLSL

}  // namespace

std::string_view GlslPrelude() { return kPrelude; }

#ifdef STREAMHAL_HAVE_GLSL

bool GlslCompilerAvailable() { return true; }

absl::StatusOr<GlslResult> CompileGlsl(std::string_view source, const GlslOptions& options,
                                       std::string* error_log_out) {
  const auto start = std::chrono::steady_clock::now();
  GlslResult result;
  const std::string name = options.source_name.empty() ? "kernel.comp" : options.source_name;
  auto fail = [&](std::string log) -> absl::Status {
    if (error_log_out != nullptr) *error_log_out = log;
    return Error(ErrorCode::kInvalidPtx, "GLSL compilation of ", name, " failed:\n", log);
  };
  if (source.size() > static_cast<size_t>(INT_MAX)) {
    return fail(absl::StrCat("ERROR: ", name, ": source of ", source.size(),
                             " bytes is too large\n"));
  }
  EnsureGlslangInitialized();

  // The same environment as `glslangValidator -V --target-env vulkan1.2`:
  // Vulkan 1.2 client semantics, SPIR-V 1.5, default resource limits.
  glslang::TShader shader(EShLangCompute);
  const char* const strings[] = {source.data()};
  const int lengths[] = {static_cast<int>(source.size())};
  const char* const names[] = {name.c_str()};
  shader.setStringsWithLengthsAndNames(strings, lengths, names, 1);
  shader.setEnvInput(glslang::EShSourceGlsl, EShLangCompute, glslang::EShClientVulkan, 100);
  shader.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_2);
  shader.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_5);
  if (!options.entry_point.empty() && options.entry_point != "main") {
    shader.setEntryPoint(options.entry_point.c_str());
    shader.setSourceEntryPoint("main");
  }
  const auto messages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules);
  PreludeIncluder includer;
  std::string log;
  const bool parsed = shader.parse(GetDefaultResources(), /*defaultVersion=*/100,
                                   /*forwardCompatible=*/false, messages, includer);
  AppendLog(log, shader.getInfoLog());
  if (options.verbose) AppendLog(log, shader.getInfoDebugLog());
  if (!parsed) return fail(std::move(log));

  // Linking checks what parsing cannot, such as a missing main().
  glslang::TProgram program;
  program.addShader(&shader);
  const bool linked = program.link(messages);
  AppendLog(log, program.getInfoLog());
  if (options.verbose) AppendLog(log, program.getInfoDebugLog());
  if (!linked) return fail(std::move(log));

  spv::SpvBuildLogger logger;
  glslang::SpvOptions spv_options;  // no debug info, no optimizer: as glslangValidator
  glslang::GlslangToSpv(*program.getIntermediate(EShLangCompute), result.spirv, &logger,
                        &spv_options);
  log += logger.getAllMessages();
  if (result.spirv.empty()) return fail(std::move(log));

  result.wall_time_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (options.verbose) {
    absl::StrAppend(&log, "INFO: ", name, ": compiled to ", result.spirv.size() * 4,
                    " bytes of SPIR-V in ", result.wall_time_ms, " ms\n");
  }
  result.info_log = std::move(log);
  if (!result.info_log.empty()) Log(LogLevel::kDebug, "GLSL ", name, ":\n", result.info_log);
  return result;
}

#else  // !STREAMHAL_HAVE_GLSL

bool GlslCompilerAvailable() { return false; }

absl::StatusOr<GlslResult> CompileGlsl(std::string_view /*source*/, const GlslOptions& /*options*/,
                                       std::string* error_log_out) {
  static constexpr char kMessage[] =
      "GLSL kernels need glslang: this build has STREAMHAL_ENABLE_GLSL off";
  if (error_log_out != nullptr) *error_log_out = kMessage;
  return Error(ErrorCode::kNotSupported, kMessage);
}

#endif  // STREAMHAL_HAVE_GLSL

}  // namespace streamhal
