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
      const std::string_view prelude = GlslPrelude();
      return new IncludeResult(std::string(kGlslPreludeIncludeName), prelude.data(),
                               prelude.size(), nullptr);
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

// Embedded at build time from include_glsl/streamhal/kernel.glsl
// (libs/core/CMakeLists.txt), the same file installed for glslangValidator.
std::string_view GlslPrelude() { return EmbeddedGlslPrelude(); }

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
