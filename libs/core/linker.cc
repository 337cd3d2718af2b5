#include "core/linker.h"

#include <chrono>
#include <cstring>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/code_object.h"
#include "core/context.h"
#include "core/host_object.h"
#include "core/jit_options.h"
#include "core/module.h"
#include "core/mutex.h"
#include "core/spirv_link.h"
#include "core/spirv_reflect.h"
#include "core/status.h"
#include "ptx/link.h"
#include "ptx/parser.h"
#include "ptx/spirv_emitter.h"

namespace streamhal {
namespace {

// Debian's Abseil has its own string_view, which StrCat needs.
absl::string_view Sv(std::string_view s) { return absl::string_view(s.data(), s.size()); }

double MillisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

class LinkState final : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kLinkState;

  LinkState(Context* context, JitOptions jit, std::vector<int> option_ids, void** values)
      : Object(kKind),
        context_(context),
        option_ids_(std::move(option_ids)),
        values_(values),
        jit_(jit) {}

  Context* context() const { return context_; }

  // Adds one input; `input_jit` (the input's own options) gets its logs.
  absl::Status Add(int type, const void* data, size_t size, const std::string& name,
                   JitOptions* input_jit) {
    MutexLock lock(&mu_);
    const auto start = std::chrono::steady_clock::now();
    std::string error_log;
    std::string info_log;
    absl::Status status = AddLocked(type, data, size, name, &error_log, &info_log);
    const double ms = MillisecondsSince(start);
    wall_time_ms_ += ms;
    if (!error_log.empty()) absl::StrAppend(&error_log_, error_log, "\n");
    if (!info_log.empty()) absl::StrAppend(&info_log_, info_log, "\n");
    if (input_jit != nullptr) RecordJitLogs(input_jit, error_log, info_log, ms);
    if (!status.ok()) WriteStateOutputsLocked();
    return status;
  }

  absl::Status Complete(void** image_out, size_t* size_out) {
    MutexLock lock(&mu_);
    const auto start = std::chrono::steady_clock::now();
    absl::StatusOr<std::vector<uint8_t>> image = CompleteLocked();
    wall_time_ms_ += MillisecondsSince(start);
    if (!image.ok()) {
      absl::StrAppend(&error_log_, image.status().message(), "\n");
      WriteStateOutputsLocked();
      return image.status();
    }
    if (jit_.verbose) {
      absl::StrAppend(&info_log_, "streamhal link: ", ptx_.size(), " PTX and ", compiled_.size(),
                      " compiled inputs, ", image->size(), " bytes\n");
    }
    WriteStateOutputsLocked();
    // Every image handed out stays valid until the state is destroyed, even
    // if more inputs are added and the link completed again.
    images_.push_back(*std::move(image));
    *image_out = images_.back().data();
    if (size_out != nullptr) *size_out = images_.back().size();
    return absl::OkStatus();
  }

 private:
  struct Compiled {
    std::string input;
    std::vector<uint32_t> spirv;
    bool linkage = false;  // declares the Linkage capability: joined at completion
  };

  // What one input adds. Collected apart and committed whole, so an input
  // that fails part way (a bad archive member) changes nothing.
  struct Parts {
    std::vector<ptx::LinkInput> ptx;
    std::vector<Compiled> compiled;
  };

  absl::Status AddLocked(int type, const void* data, size_t size, const std::string& name,
                         std::string* error_log, std::string* info_log)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    switch (static_cast<LinkInputType>(type)) {
      case LinkInputType::kPtx:
      case LinkInputType::kCubin:
      case LinkInputType::kFatBinary:
      case LinkInputType::kSpirv:
      case LinkInputType::kObject:
      case LinkInputType::kLibrary:
        break;
      case LinkInputType::kNvvm:
      case LinkInputType::kLlvmBitcode:
      case LinkInputType::kLlvmBundledBitcode:
      case LinkInputType::kLlvmArchiveOfBundledBitcode:
        return Error(ErrorCode::kNotSupported, "cuLinkAddData: '", name,
                     "': NVVM IR and LLVM bitcode cannot be compiled for Vulkan");
      default:
        return Error(ErrorCode::kInvalidValue, "cuLinkAddData: input type ", type,
                     " is not a CUjitInputType");
    }
    Parts parts;
    const ByteSpan bytes(static_cast<const uint8_t*>(data), size);
    switch (static_cast<LinkInputType>(type)) {
      case LinkInputType::kObject:
        SH_RETURN_IF_ERROR(
            ReadHostObject(bytes, name, /*in_library=*/false, &parts, error_log, info_log));
        break;
      case LinkInputType::kLibrary:
        SH_RETURN_IF_ERROR(ReadLibrary(bytes, name, &parts, error_log, info_log));
        break;
      default:
        SH_RETURN_IF_ERROR(ReadImage(static_cast<LinkInputType>(type), data, size, name, &parts,
                                     error_log, info_log));
        break;
    }
    for (ptx::LinkInput& input : parts.ptx) ptx_.push_back(std::move(input));
    for (Compiled& compiled : parts.compiled) compiled_.push_back(std::move(compiled));
    return absl::OkStatus();
  }

  // CUDA: a host object's device code is the fat binaries nvcc embeds
  // (.nv_fatbin; __nv_relfatbin with -rdc=true), added as
  // CU_JIT_INPUT_FATBINARY inputs are. `in_library`: an archive member, where
  // having no device code is not an error (archives hold host-only objects).
  absl::Status ReadHostObject(ByteSpan bytes, const std::string& name, bool in_library,
                              Parts* parts, std::string* error_log, std::string* info_log)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    absl::StatusOr<std::vector<ByteSpan>> fat_binaries = HostObjectFatBinaries(bytes);
    if (!fat_binaries.ok()) {
      *error_log = absl::StrCat(name, ": ", fat_binaries.status().message());
      return Error(ErrorCode::kInvalidImage, "cuLinkAddData: ", *error_log);
    }
    if (fat_binaries->empty() && !in_library) {
      *error_log = absl::StrCat(name, ": the host object holds no device code (no ",
                                kNvFatbinSection, " or ", kNvRelFatbinSection, " section)");
      return Error(ErrorCode::kInvalidImage, "cuLinkAddData: ", *error_log);
    }
    for (ByteSpan fat_binary : *fat_binaries) {
      SH_RETURN_IF_ERROR(ReadImage(LinkInputType::kFatBinary, fat_binary.data(), fat_binary.size(),
                                   name, parts, error_log, info_log));
    }
    return absl::OkStatus();
  }

  // Every member object with device code is added (NVIDIA's linker pulls in
  // only members that resolve a symbol; adding all gives the same kernels
  // unless two members define one name, which is then an error).
  absl::Status ReadLibrary(ByteSpan bytes, const std::string& name, Parts* parts,
                           std::string* error_log, std::string* info_log)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    absl::StatusOr<std::vector<ArchiveMember>> members = ReadArchive(bytes);
    if (!members.ok()) {
      *error_log = absl::StrCat(name, ": ", members.status().message());
      return Error(ErrorCode::kInvalidImage, "cuLinkAddData: ", *error_log);
    }
    const size_t before = parts->ptx.size() + parts->compiled.size();
    for (const ArchiveMember& member : *members) {
      if (!IsElfFile(member.data)) continue;  // not an object: no device code
      SH_RETURN_IF_ERROR(ReadHostObject(member.data, absl::StrCat(name, "(", member.name, ")"),
                                        /*in_library=*/true, parts, error_log, info_log));
    }
    if (parts->ptx.size() + parts->compiled.size() == before) {
      *error_log = absl::StrCat(name, ": no member of the library holds device code");
      return Error(ErrorCode::kInvalidImage, "cuLinkAddData: ", *error_log);
    }
    return absl::OkStatus();
  }

  // One image of the PTX, cubin, fat-binary or SPIR-V type.
  absl::Status ReadImage(LinkInputType input_type, const void* data, size_t size,
                         const std::string& name, Parts* parts, std::string* error_log,
                         std::string* info_log) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    const bool source = input_type == LinkInputType::kPtx;
    absl::StatusOr<ImageFormat> format = DetectImageFormat(data, size);
    if (!format.ok()) {
      if (source) {
        *error_log = absl::StrCat(name, ": not PTX");
        return Error(ErrorCode::kInvalidPtx, "cuLinkAddData: '", name, "' is not PTX");
      }
      *error_log = absl::StrCat(name, ": ", format.status().message());
      return format.status();
    }
    bool fits = false;
    switch (input_type) {
      case LinkInputType::kPtx:
        fits = *format == ImageFormat::kPtx || *format == ImageFormat::kGlsl;
        break;
      case LinkInputType::kCubin:
      case LinkInputType::kSpirv:
        fits = *format == ImageFormat::kElf || *format == ImageFormat::kSpirv;
        break;
      default:  // kFatBinary
        fits = *format == ImageFormat::kNvFatBinary || *format == ImageFormat::kFatBinary ||
               *format == ImageFormat::kNvFatBinaryWrapper ||
               *format == ImageFormat::kHipFatBinaryWrapper;
        break;
    }
    if (!fits) {
      *error_log = absl::StrCat(name, ": a ", Sv(ImageFormatName(*format)),
                                " image is not of the input type given");
      return Error(source ? ErrorCode::kInvalidPtx : ErrorCode::kInvalidImage, "cuLinkAddData: '",
                   name, "' is a ", Sv(ImageFormatName(*format)), " image, not of input type ",
                   static_cast<int>(input_type));
    }
    if (*format == ImageFormat::kPtx || *format == ImageFormat::kNvFatBinary ||
        *format == ImageFormat::kNvFatBinaryWrapper) {
      std::string decompressed;
      absl::StatusOr<std::string_view> text = PtxTextOf(data, size, *format, &decompressed);
      if (!text.ok()) {
        *error_log = absl::StrCat(name, ": ", text.status().message());
        return text.status();
      }
      absl::StatusOr<ptx::Module> module = ptx::Parse(std::string_view(*text));
      if (!module.ok()) {
        // CUDA: PTX the JIT cannot read is CUDA_ERROR_INVALID_PTX when added.
        *error_log = absl::StrCat(name, ": ", module.status().message());
        return Error(ErrorCode::kInvalidPtx, "cuLinkAddData: ", *error_log);
      }
      parts->ptx.push_back(ptx::LinkInput{name, *std::move(module)});
      return absl::OkStatus();
    }
    JitOptions compile_jit;
    compile_jit.verbose = jit_.verbose;
    std::vector<char> compile_error(4096);
    std::vector<char> compile_info(4096);
    compile_jit.error_log = compile_error.data();
    compile_jit.error_log_size = compile_error.size();
    compile_jit.info_log = compile_info.data();
    compile_jit.info_log_size = compile_info.size();
    absl::StatusOr<LoadedImage> image = ParseKernelImage(data, size, "main", &compile_jit);
    if (compile_jit.info_log_written > 1) *info_log = absl::StrCat(name, ": ", compile_info.data());
    if (!image.ok()) {
      *error_log =
          absl::StrCat(name, ": ",
                       compile_jit.error_log_written > 1 ? absl::string_view(compile_error.data())
                                                         : image.status().message());
      return image.status();
    }
    for (std::vector<uint32_t>& spirv : image->spirv_modules) {
      const bool linkage = DeclaresLinkage(spirv);
      parts->compiled.push_back(Compiled{name, std::move(spirv), linkage});
    }
    return absl::OkStatus();
  }

  absl::StatusOr<std::vector<uint8_t>> CompleteLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (ptx_.empty() && compiled_.empty()) {
      return Error(ErrorCode::kInvalidValue, "cuLinkComplete: nothing was added to the link");
    }
    std::vector<std::vector<uint32_t>> modules;
    std::vector<std::string> module_inputs;
    if (!ptx_.empty()) {
      // Linked from copies, so the state can take more inputs and complete
      // again.
      absl::StatusOr<ptx::Module> linked = ptx::LinkModules(ptx_);
      if (!linked.ok()) {
        return Error(ErrorCode::kInvalidImage, "cuLinkComplete: ", linked.status().message());
      }
      absl::StatusOr<std::vector<uint32_t>> spirv = ptx::EmitSpirv(*linked);
      if (!spirv.ok()) {
        return Error(ErrorCode::kInvalidPtx,
                     "cuLinkComplete: PTX translation failed: ", spirv.status().message());
      }
      modules.push_back(*std::move(spirv));
      module_inputs.push_back("the PTX inputs");
    }
    // SPIR-V with linkage is joined into one module, its imports bound to
    // the other inputs' exports; the rest stay modules of their own.
    std::vector<std::vector<uint32_t>> linkable;
    std::vector<std::string> linkable_inputs;
    for (const Compiled& c : compiled_) {
      if (c.linkage) {
        linkable.push_back(c.spirv);
        linkable_inputs.push_back(absl::StrCat("'", c.input, "'"));
        continue;
      }
      modules.push_back(c.spirv);
      module_inputs.push_back(absl::StrCat("'", c.input, "'"));
    }
    if (!linkable.empty()) {
      absl::StatusOr<std::vector<uint32_t>> linked = LinkSpirvModules(linkable);
      if (!linked.ok()) {
        return Error(ErrorCode::kInvalidImage, "cuLinkComplete: ", linked.status().message(),
                     " (linking ", absl::StrJoin(linkable_inputs, ", "), ")");
      }
      modules.push_back(*std::move(linked));
      module_inputs.push_back("the SPIR-V inputs with linkage");
    }
    // One kernel name, one kernel: cuModuleGetFunction must not have to pick.
    std::set<std::string> kernels;
    for (size_t i = 0; i < modules.size(); ++i) {
      SH_ASSIGN_OR_RETURN(const ModuleReflection reflection, ReflectSpirv(modules[i]));
      for (const KernelInfo& kernel : reflection.kernels) {
        if (!kernels.insert(kernel.name).second) {
          return Error(ErrorCode::kInvalidImage, "cuLinkComplete: multiple definition of kernel '",
                       kernel.name, "' (again in ", module_inputs[i], ")");
        }
      }
    }
    return WriteElfCodeObject(modules);
  }

  // CUDA writes the logs and outputs of cuLinkCreate's options into the
  // caller's buffers and value array, which it keeps for the state's life.
  void WriteStateOutputsLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    RecordJitLogs(&jit_, error_log_, info_log_, wall_time_ms_);
    WriteJitOutputs(jit_, static_cast<unsigned>(option_ids_.size()), option_ids_.data(), values_);
  }

  Context* const context_;
  const std::vector<int> option_ids_;
  void** const values_;
  Mutex mu_;
  JitOptions jit_ ABSL_GUARDED_BY(mu_);
  std::string error_log_ ABSL_GUARDED_BY(mu_);
  std::string info_log_ ABSL_GUARDED_BY(mu_);
  double wall_time_ms_ ABSL_GUARDED_BY(mu_) = 0;
  std::vector<ptx::LinkInput> ptx_ ABSL_GUARDED_BY(mu_);
  std::vector<Compiled> compiled_ ABSL_GUARDED_BY(mu_);
  std::vector<std::vector<uint8_t>> images_ ABSL_GUARDED_BY(mu_);
};

absl::StatusOr<LinkState*> ResolveLinkState(uint64_t handle, const char* api) {
  HandleState state;
  LinkState* link = LookupAs<LinkState>(handle, &state);
  if (link == nullptr) {
    return Error(ErrorCode::kInvalidHandle, api, ": the link state ",
                 state == HandleState::kNull        ? "is null"
                 : state == HandleState::kDestroyed ? "was destroyed"
                                                    : "is not a link state");
  }
  return link;
}

}  // namespace

absl::Status LinkCreate(HandleOut out, unsigned num_options, const int* options, void** values,
                        int option_count, Api api) {
  SH_ASSIGN_OR_RETURN(Context * context,
                      api == Api::kHip ? RuntimeCurrentContext() : CurrentContext());
  if (out.is_null()) {
    return Error(ErrorCode::kInvalidValue, "cuLinkCreate: stateOut must not be null");
  }
  SH_ASSIGN_OR_RETURN(JitOptions jit, ReadJitOptions(num_options, options, values, option_count));
  std::vector<int> ids(options, options + (options == nullptr ? 0 : num_options));
  auto state = std::make_unique<LinkState>(context, jit, std::move(ids), values);
  out.Set(state->handle());
  context->Adopt(std::move(state));
  return absl::OkStatus();
}

absl::Status LinkAddData(uint64_t state, int type, const void* data, size_t size, const char* name,
                         unsigned num_options, const int* options, void** values,
                         int option_count) {
  SH_ASSIGN_OR_RETURN(LinkState * link, ResolveLinkState(state, "cuLinkAddData"));
  if (data == nullptr || size == 0) {
    return Error(ErrorCode::kInvalidValue, "cuLinkAddData: data must not be null or empty");
  }
  // No kernel image is this large (kMaxImageBytes also bounds files); a size
  // past it is a wrong size, not an image to read that far.
  if (size > kMaxImageBytes) {
    return Error(ErrorCode::kInvalidValue, "cuLinkAddData: size ", size, " is larger than ",
                 kMaxImageBytes >> 20, " MiB");
  }
  SH_ASSIGN_OR_RETURN(JitOptions jit, ReadJitOptions(num_options, options, values, option_count));
  const std::string input_name = name != nullptr && name[0] != '\0' ? name : "<unnamed>";
  absl::Status status = link->Add(type, data, size, input_name, &jit);
  WriteJitOutputs(jit, num_options, options, values);
  return status;
}

absl::Status LinkAddFile(uint64_t state, int type, const char* path, unsigned num_options,
                         const int* options, void** values, int option_count) {
  SH_ASSIGN_OR_RETURN(LinkState * link, ResolveLinkState(state, "cuLinkAddFile"));
  if (path == nullptr || path[0] == '\0') {
    return Error(ErrorCode::kInvalidValue, "cuLinkAddFile: path must not be null or empty");
  }
  SH_ASSIGN_OR_RETURN(JitOptions jit, ReadJitOptions(num_options, options, values, option_count));
  // CUDA: a file that cannot be read is CUDA_ERROR_FILE_NOT_FOUND.
  SH_ASSIGN_OR_RETURN(const std::vector<uint8_t> bytes, ReadImageFile(path));
  if (bytes.empty()) return Error(ErrorCode::kInvalidImage, "cuLinkAddFile: '", path, "' is empty");
  absl::Status status = link->Add(type, bytes.data(), bytes.size(), path, &jit);
  WriteJitOutputs(jit, num_options, options, values);
  return status;
}

absl::Status LinkComplete(uint64_t state, void** image_out, size_t* size_out) {
  SH_ASSIGN_OR_RETURN(LinkState * link, ResolveLinkState(state, "cuLinkComplete"));
  if (image_out == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuLinkComplete: cubinOut must not be null");
  }
  return link->Complete(image_out, size_out);
}

absl::Status LinkDestroy(uint64_t state) {
  SH_ASSIGN_OR_RETURN(LinkState * link, ResolveLinkState(state, "cuLinkDestroy"));
  link->context()->Destroy(link);
  return absl::OkStatus();
}

}  // namespace streamhal
