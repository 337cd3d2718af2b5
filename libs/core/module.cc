#include "core/module.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

#include "absl/hash/hash.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/code_object.h"
#include "core/context.h"
#include "core/device.h"
#include "core/launch.h"
#include "core/library.h"
#include "core/log.h"
#include "core/memory.h"
#include "core/runtime.h"
#include "core/spirv_rewrite.h"
#include "core/status.h"
#include "core/stream.h"
#include "core/texture_ref.h"
#include "core/transfer.h"

namespace streamhal {
namespace {

// Parameter blocks above the push-constant limit move to this uniform
// buffer binding (docs/kernel-abi.md).
constexpr uint32_t kParamDescriptorSet = 1;
constexpr uint32_t kParamBinding = 0;

// Kernel name of GLSL source: `#define STREAMHAL_KERNEL_NAME <name>` in the
// source, else `fallback` (the file's stem, or "main" for in-memory source).
std::string GlslKernelName(absl::string_view source, absl::string_view fallback) {
  constexpr absl::string_view kMarker = "#define STREAMHAL_KERNEL_NAME";
  const size_t at = source.find(kMarker);
  if (at == absl::string_view::npos) return std::string(fallback);
  absl::string_view rest = source.substr(at + kMarker.size());
  rest = absl::StripLeadingAsciiWhitespace(rest);
  size_t end = 0;
  while (end < rest.size() && (absl::ascii_isalnum(rest[end]) || rest[end] == '_')) ++end;
  return end == 0 ? std::string(fallback) : std::string(rest.substr(0, end));
}

// The device part of the PTX translation cache's key: what identifies the
// driver that will compile the SPIR-V (as CUDA's compute cache keys by the
// device and driver). Loads outside a context (cuLibraryLoadData, for every
// context) have no device: their entries are keyed without one.
std::string PtxCacheDeviceIdentity() {
  absl::StatusOr<Context*> context = CurrentContext();
  if (!context.ok() || *context == nullptr) return "";
  const DeviceProperties& p = (*context)->device()->properties();
  std::string uuid;
  for (uint8_t byte : p.uuid) absl::StrAppend(&uuid, absl::Hex(byte, absl::kZeroPad2));
  return absl::StrCat(p.backend_name, " uuid=", uuid, " vendor=", p.vendor_id,
                      " device=", p.device_id, " driver=", p.driver_name, " ", p.driver_version,
                      " (", p.driver_info, ") api=", p.api_version);
}

}  // namespace

absl::StatusOr<LoadedImage> ParseKernelImage(const void* data, std::optional<size_t> size,
                                             absl::string_view default_name, JitOptions* jit) {
  GlslOptions glsl;
  glsl.verbose = jit != nullptr && jit->verbose;
  SH_ASSIGN_OR_RETURN(ImageFormat format, DetectImageFormat(data, size));
  if (format == ImageFormat::kGlsl) {
    const char* text = static_cast<const char*>(data);
    const size_t length = size.has_value() ? *size : std::strlen(text);
    glsl.entry_point = GlslKernelName(absl::string_view(text, length), default_name);
  }
  std::string error_log;
  const std::string ptx_device =
      format == ImageFormat::kGlsl ? std::string() : PtxCacheDeviceIdentity();
  absl::StatusOr<LoadedImage> image = ParseImage(data, size, glsl, &error_log, ptx_device);
  if (jit != nullptr) {
    if (image.ok()) {
      RecordJitLogs(jit, error_log, image->info_log, image->compile_wall_time_ms);
    } else {
      RecordJitLogs(jit, error_log, "", 0);
    }
  }
  return image;
}

namespace {

absl::Status Finish(Context* context, std::unique_ptr<Module> module, absl::Status loaded,
                    HandleOut out) {
  if (!loaded.ok()) return loaded;  // the partly built module is destroyed here
  out.Set(module->handle());
  context->Adopt(std::move(module));
  return absl::OkStatus();
}

absl::StatusOr<Module*> ResolveModule(uint64_t handle) {
  HandleState state;
  Module* module = LookupAs<Module>(handle, &state);
  if (module == nullptr) {
    return Error(ErrorCode::kInvalidHandle, "module 0x", absl::Hex(handle),
                 state == HandleState::kDestroyed ? " has been unloaded" : " is not a module");
  }
  return module;
}

}  // namespace

Function::Function(Module* module, KernelInfo info, KernelLayout layout,
                   std::unique_ptr<BackendKernel> backend, Allocation* globals)
    : Object(kKind), module_(module), info_(std::move(info)), layout_(std::move(layout)),
      backend_(std::move(backend)), globals_(globals) {
  max_dynamic_shared_bytes_ = device_shared_limit() > info_.static_shared_bytes
                                  ? device_shared_limit() - info_.static_shared_bytes
                                  : 0;
  if (!info_.has_dynamic_shared_spec) max_dynamic_shared_bytes_ = 0;
}

uint32_t Function::device_shared_limit() const {
  return static_cast<uint32_t>(
      module_->context()->device()->properties().shared_memory_per_block);
}

uint32_t Function::launch_dynamic_shared_limit() const {
  if (info_.has_dynamic_shared_spec) return max_dynamic_shared_bytes_;
  const uint32_t limit = device_shared_limit();
  return limit > info_.static_shared_bytes ? limit - info_.static_shared_bytes : 0;
}

int Function::max_threads_per_block() const {
  const DeviceProperties& p = module_->context()->device()->properties();
  int limit = std::min(p.max_threads_per_block, backend_->max_threads_per_block());
  if (!info_.block_size_from_spec) {
    // A fixed dimension allows exactly its size.
    int fixed = 1;
    for (int i = 0; i < 3; ++i) {
      fixed *= info_.block_dim_from_spec[i] ? 1 : static_cast<int>(info_.literal_block_size[i]);
    }
    if (std::none_of(info_.block_dim_from_spec.begin(), info_.block_dim_from_spec.end(),
                     [](bool b) { return b; })) {
      limit = std::min(limit, fixed);
    }
  }
  return limit;
}

Module::Module(Context* context) : Object(kKind), context_(context) {}

Module::~Module() {
  // Kernels may still be executing: finish the context's work first.
  absl::Status status = context_->Synchronize();
  if (!status.ok()) Log(LogLevel::kWarning, "module unload: ", status.message());
  texture_refs_.clear();
  surface_refs_.clear();
  functions_.clear();
  backend_modules_.clear();
  BumpResourceGeneration();
  for (Allocation* allocation : globals_allocations_) {
    status = FreeAllocation(allocation);
    if (!status.ok()) Log(LogLevel::kWarning, "module unload: ", status.message());
  }
  MutexLock lock(&grid_barrier_mutex_);
  if (grid_barrier_ != nullptr) {
    status = FreeAllocation(grid_barrier_);
    if (!status.ok()) Log(LogLevel::kWarning, "module unload: ", status.message());
  }
}

absl::StatusOr<Allocation*> Module::GridBarrierScratch() {
  MutexLock lock(&grid_barrier_mutex_);
  if (grid_barrier_ == nullptr) {
    SH_ASSIGN_OR_RETURN(grid_barrier_,
                        AllocateDeviceMemory(context_, kGridBarrierWords * sizeof(uint32_t)));
  }
  return grid_barrier_;
}

Function* Module::FindFunction(absl::string_view name) const {
  for (const auto& function : functions_) {
    if (function->info().name == name) return function.get();
  }
  return nullptr;
}

const Module::Global* Module::FindGlobal(absl::string_view name) const {
  for (const Global& global : globals_) {
    if (global.name == name) return &global;
  }
  return nullptr;
}

TextureRef* Module::FindTextureRef(absl::string_view name) const {
  auto it = texture_refs_.find(name);
  return it == texture_refs_.end() ? nullptr : it->second.get();
}

SurfaceRef* Module::FindSurfaceRef(absl::string_view name) const {
  auto it = surface_refs_.find(name);
  return it == surface_refs_.end() ? nullptr : it->second.get();
}

void Module::AddReference(Context* context, const std::string& name, bool surface) {
  if (surface) {
    if (!surface_refs_.contains(name)) {
      surface_refs_.emplace(name, std::make_unique<SurfaceRef>(context, this, name));
    }
  } else if (!texture_refs_.contains(name)) {
    texture_refs_.emplace(name, std::make_unique<TextureRef>(context, this, name));
  }
}

namespace {

// One texture or surface reference per name the module's kernels declare
// (kernel ABI v2); a name may not be both.
absl::Status MakeReferences(Context* context, Module* module) {
  for (const std::unique_ptr<Function>& function : module->functions()) {
    for (const ResourceParamInfo& resource : function->info().resources) {
      if (resource.ref_name.empty()) continue;
      const bool surface = resource.kind == ResourceKind::kStorageImage;
      if (surface ? module->FindTextureRef(resource.ref_name) != nullptr
                  : module->FindSurfaceRef(resource.ref_name) != nullptr) {
        return Error(ErrorCode::kInvalidImage, "module: '", resource.ref_name,
                     "' is declared both as a texture and as a surface reference");
      }
      module->AddReference(context, resource.ref_name, surface);
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status LoadModule(Context* context, Module* module, LoadedImage image) {
  BackendDevice* device = context->device()->backend();
  const uint32_t push_limit =
      static_cast<uint32_t>(context->device()->properties().max_push_constant_size);
  for (std::vector<uint32_t>& words : image.spirv_modules) {
    SH_ASSIGN_OR_RETURN(ModuleReflection reflection, ReflectSpirv(words));
    bool params_in_uniform = false;
    for (const KernelInfo& kernel : reflection.kernels) {
      if (kernel.param_block_size > kMaxParamBlockBytes) {
        return Error(ErrorCode::kInvalidImage, "kernel '", kernel.name, "' has ",
                     kernel.param_block_size, " bytes of parameters; at most ",
                     kMaxParamBlockBytes, " are allowed");
      }
      if (module->FindFunction(kernel.name) != nullptr) {
        return Error(ErrorCode::kInvalidImage, "kernel '", kernel.name,
                     "' is defined more than once in the image");
      }
      params_in_uniform |= kernel.param_block_size > push_limit;
    }
    if (params_in_uniform) {
      SH_ASSIGN_OR_RETURN(words, MovePushConstantsToUniform(words, kParamDescriptorSet,
                                                            kParamBinding));
    }
    SH_ASSIGN_OR_RETURN(std::unique_ptr<BackendModule> backend_module,
                        device->CreateModule(words));

    Allocation* globals = nullptr;
    if (reflection.globals.has_value() && reflection.globals->block_size > 0) {
      SH_ASSIGN_OR_RETURN(globals, AllocateDeviceMemory(context, reflection.globals->block_size));
      module->globals_allocations_.push_back(globals);
      // Module-scope data starts zeroed, like a .bss section.
      SH_ASSIGN_OR_RETURN(Stream * stream, context->DefaultStream());
      SH_RETURN_IF_ERROR(stream->Record([&](BackendStream* backend) {
        return backend->RecordFill(BufferRange{globals->backend.get(), 0}, 0, 4,
                                   (reflection.globals->block_size + 3) / 4);
      }));
      SH_RETURN_IF_ERROR(stream->Synchronize());
      // Initialisers and the buffer's own address (UserSemantic strings of
      // translated PTX, docs/ptx.md).
      for (const GlobalInfo& member : reflection.globals->members) {
        const uint64_t address = globals->device_address();
        if (member.holds_address) {
          SH_RETURN_IF_ERROR(Memcpy(address + member.offset, reinterpret_cast<uint64_t>(&address),
                                    sizeof(address), CopyKind::kHostToDevice, 0, Sync::kBlocking));
        } else if (!member.init.empty()) {
          SH_RETURN_IF_ERROR(
              Memcpy(address + member.offset, reinterpret_cast<uint64_t>(member.init.data()),
                     member.init.size(), CopyKind::kHostToDevice, 0, Sync::kBlocking));
        }
      }
      for (const GlobalInfo& member : reflection.globals->members) {
        if (member.holds_address) continue;  // the translator's, not the program's
        if (module->FindGlobal(member.name) != nullptr) continue;  // first module wins
        module->globals_.push_back(Module::Global{member.name, globals, member.offset, member.size});
      }
    }

    const uint64_t code_hash = absl::HashOf(words);
    for (KernelInfo& kernel : reflection.kernels) {
      KernelLayout layout;
      layout.entry_point = kernel.name;
      layout.param_block_size = kernel.param_block_size;
      layout.params_in_uniform_buffer = params_in_uniform && kernel.param_block_size > 0;
      layout.uses_globals = kernel.uses_globals;
      layout.block_dim_from_spec = kernel.block_dim_from_spec;
      layout.has_dynamic_shared_spec = kernel.has_dynamic_shared_spec;
      for (const ResourceParamInfo& resource : kernel.resources) {
        layout.resources.push_back(ResourceBinding{resource.binding, resource.kind});
      }
      SH_ASSIGN_OR_RETURN(std::unique_ptr<BackendKernel> backend_kernel,
                          device->CreateKernel(backend_module.get(), layout));
      Allocation* kernel_globals = kernel.uses_globals ? globals : nullptr;
      module->functions_.push_back(std::make_unique<Function>(
          module, std::move(kernel), std::move(layout), std::move(backend_kernel), kernel_globals));
      module->functions_.back()->set_code_hash(code_hash);
    }
    module->backend_modules_.push_back(std::move(backend_module));
  }
  return MakeReferences(context, module);
}

absl::StatusOr<Module*> CreateModuleIn(Context* context, LoadedImage image) {
  auto module = std::make_unique<Module>(context);
  SH_RETURN_IF_ERROR(LoadModule(context, module.get(), std::move(image)));
  Module* loaded = module.get();
  context->Adopt(std::move(module));
  return loaded;
}

absl::Status ModuleLoad(HandleOut out, const char* path, Api api) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (out.is_null() || path == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuModuleLoad: module and fname must not be null");
  }
  if (api == Api::kHip && path[0] == '\0') {
    return Error(ErrorCode::kInvalidValue, "hipModuleLoad: fname is empty");
  }
  // CUDA: a file that cannot be read is CUDA_ERROR_FILE_NOT_FOUND (a
  // directory included: reading it is an error, never an exception).
  SH_ASSIGN_OR_RETURN(const std::vector<uint8_t> bytes, ReadImageFile(path));
  // A GLSL file's kernel is named after the file unless it says otherwise.
  std::string stem(path);
  if (size_t slash = stem.find_last_of('/'); slash != std::string::npos) stem.erase(0, slash + 1);
  if (size_t dot = stem.find('.'); dot != std::string::npos) stem.erase(dot);
  if (bytes.empty()) {
    return Error(ErrorCode::kInvalidImage, "cuModuleLoad: '", path, "' is empty");
  }
  SH_ASSIGN_OR_RETURN(LoadedImage image,
                      ParseKernelImage(bytes.data(), bytes.size(), stem, nullptr));
  auto module = std::make_unique<Module>(context);
  absl::Status loaded = LoadModule(context, module.get(), std::move(image));
  return Finish(context, std::move(module), std::move(loaded), out);
}

absl::Status ModuleLoadData(HandleOut out, const void* image_data, JitOptions* jit) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (out.is_null() || image_data == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuModuleLoadData: module and image must not be null");
  }
  SH_ASSIGN_OR_RETURN(LoadedImage image, ParseKernelImage(image_data, std::nullopt, "main", jit));
  auto module = std::make_unique<Module>(context);
  absl::Status loaded = LoadModule(context, module.get(), std::move(image));
  return Finish(context, std::move(module), std::move(loaded), out);
}

absl::Status ModuleLoadDataEx(HandleOut out, const void* image, unsigned num_options,
                              const int* options, void** values, int option_count) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  // Checked before anything is loaded or written back.
  SH_ASSIGN_OR_RETURN(JitOptions jit, ReadJitOptions(num_options, options, values, option_count));
  absl::Status status = ModuleLoadData(out, image, &jit);
  WriteJitOutputs(jit, num_options, options, values);
  return status;
}

absl::Status ModuleLoadFatBinary(HandleOut out, const void* fat_binary) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (out.is_null() || fat_binary == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuModuleLoadFatBinary: null argument");
  }
  SH_ASSIGN_OR_RETURN(ImageFormat format, DetectImageFormat(fat_binary, std::nullopt));
  if (format != ImageFormat::kFatBinary && format != ImageFormat::kHipFatBinaryWrapper &&
      format != ImageFormat::kNvFatBinary && format != ImageFormat::kNvFatBinaryWrapper) {
    return Error(ErrorCode::kInvalidImage, "cuModuleLoadFatBinary: the image is ",
                 std::string(ImageFormatName(format).data(), ImageFormatName(format).size()),
                 ", not a fat binary");
  }
  return ModuleLoadData(out, fat_binary, nullptr);
}

absl::Status ModuleUnload(uint64_t handle) {
  // The module names its context, so none need be current (ffmpeg's
  // thumbnail_cuda unloads its module without pushing one).
  SH_RETURN_IF_ERROR(CheckInitialized());
  SH_ASSIGN_OR_RETURN(Module * module, ResolveModule(handle));
  if (!module->context()->Destroy(module)) {
    return Error(ErrorCode::kInvalidHandle, "cuModuleUnload: module is not owned by a context");
  }
  return absl::OkStatus();
}

absl::Status ModuleGetFunction(HandleOut out, uint64_t handle, const char* name, Api api) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (out.is_null() || name == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuModuleGetFunction: hfunc and name must not be null");
  }
  if (api == Api::kHip && name[0] == '\0') {
    return Error(ErrorCode::kInvalidValue, "hipModuleGetFunction: name is empty");
  }
  SH_ASSIGN_OR_RETURN(Module * module, ResolveModule(handle));
  Function* function = module->FindFunction(name);
  if (function == nullptr) {
    return Error(ErrorCode::kNotFound, "cuModuleGetFunction: no kernel named '", name, "'");
  }
  out.Set(function->handle());
  return absl::OkStatus();
}

absl::Status ModuleGetGlobal(uint64_t* dptr, size_t* bytes, uint64_t handle, const char* name,
                             Api api) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (name == nullptr) return Error(ErrorCode::kInvalidValue, "cuModuleGetGlobal: name is null");
  if (api == Api::kHip && (name[0] == '\0' || (dptr == nullptr && bytes == nullptr))) {
    return Error(ErrorCode::kInvalidValue,
                 "hipModuleGetGlobal: name is empty or both dptr and bytes are null");
  }
  SH_ASSIGN_OR_RETURN(Module * module, ResolveModule(handle));
  const Module::Global* global = module->FindGlobal(name);
  if (global == nullptr) {
    return Error(ErrorCode::kNotFound, "cuModuleGetGlobal: no global named '", name, "'");
  }
  if (dptr != nullptr) *dptr = global->allocation->device_address() + global->offset;
  if (bytes != nullptr) *bytes = global->size;
  return absl::OkStatus();
}

absl::Status ModuleGetTexRef(uint64_t* out, uint64_t handle, const char* name) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (out == nullptr) return Error(ErrorCode::kInvalidValue, "cuModuleGetTexRef: pTexRef is null");
  if (name == nullptr) return Error(ErrorCode::kInvalidValue, "cuModuleGetTexRef: name is null");
  SH_ASSIGN_OR_RETURN(Module * module, ResolveModule(handle));
  TextureRef* ref = module->FindTextureRef(name);
  if (ref == nullptr) {
    return Error(ErrorCode::kNotFound, "cuModuleGetTexRef: no texture reference named '", name,
                 "'");
  }
  *out = ref->handle();
  return absl::OkStatus();
}

absl::Status ModuleGetSurfRef(uint64_t* out, uint64_t handle, const char* name) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (out == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuModuleGetSurfRef: pSurfRef is null");
  }
  if (name == nullptr) return Error(ErrorCode::kInvalidValue, "cuModuleGetSurfRef: name is null");
  SH_ASSIGN_OR_RETURN(Module * module, ResolveModule(handle));
  SurfaceRef* ref = module->FindSurfaceRef(name);
  if (ref == nullptr) {
    return Error(ErrorCode::kNotFound, "cuModuleGetSurfRef: no surface reference named '", name,
                 "'");
  }
  *out = ref->handle();
  return absl::OkStatus();
}

absl::StatusOr<Function*> ResolveFunction(uint64_t handle) {
  HandleState state;
  Function* function = LookupAs<Function>(handle, &state);
  if (function == nullptr && state == HandleState::kInvalid &&
      LookupAs<Kernel>(handle) != nullptr) {
    // A CUkernel passed where a CUfunction goes: its function in the
    // current context.
    return ResolveKernelFunction(handle);
  }
  if (function == nullptr) {
    return Error(ErrorCode::kInvalidHandle, "function 0x", absl::Hex(handle),
                 HandleProblem(state, " is not a function", " belongs to an unloaded module"));
  }
  return function;
}

absl::Status FuncGetAttribute(int* value, int attribute, uint64_t handle) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (value == nullptr) return Error(ErrorCode::kInvalidValue, "cuFuncGetAttribute: pi is null");
  SH_ASSIGN_OR_RETURN(Function * function, ResolveFunction(handle));
  return GetFunctionAttribute(function, attribute, value);
}

absl::Status GetFunctionAttribute(Function* function, int attribute, int* value) {
  const DeviceProperties& p = function->module()->context()->device()->properties();
  switch (static_cast<FunctionAttribute>(attribute)) {
    case FunctionAttribute::kMaxThreadsPerBlock:
      *value = function->max_threads_per_block();
      return absl::OkStatus();
    case FunctionAttribute::kSharedSizeBytes:
      *value = static_cast<int>(function->info().static_shared_bytes);
      return absl::OkStatus();
    case FunctionAttribute::kConstSizeBytes:
    case FunctionAttribute::kLocalSizeBytes:
    case FunctionAttribute::kNumRegs:
    case FunctionAttribute::kCacheModeCa:
      // Vulkan does not expose these for a pipeline.
      *value = 0;
      return absl::OkStatus();
    case FunctionAttribute::kPtxVersion:
    case FunctionAttribute::kBinaryVersion:
      *value = p.compute_capability_major * 10 + p.compute_capability_minor;
      return absl::OkStatus();
    case FunctionAttribute::kMaxDynamicSharedSizeBytes:
      *value = static_cast<int>(function->max_dynamic_shared_bytes());
      return absl::OkStatus();
    case FunctionAttribute::kPreferredSharedMemoryCarveout:
      *value = -1;  // no preference
      return absl::OkStatus();
    case FunctionAttribute::kCount:
      break;
  }
  return Error(ErrorCode::kInvalidValue, "cuFuncGetAttribute: unknown attribute ", attribute);
}

absl::Status FuncSetAttribute(uint64_t handle, int attribute, int value) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  SH_ASSIGN_OR_RETURN(Function * function, ResolveFunction(handle));
  return SetFunctionAttribute(function, attribute, value);
}

absl::Status SetFunctionAttribute(Function* function, int attribute, int value) {
  switch (static_cast<FunctionAttribute>(attribute)) {
    case FunctionAttribute::kMaxDynamicSharedSizeBytes: {
      const uint32_t limit = function->device_shared_limit() - function->info().static_shared_bytes;
      if (value < 0 || static_cast<uint32_t>(value) > limit ||
          (value > 0 && !function->info().has_dynamic_shared_spec)) {
        return Error(ErrorCode::kInvalidValue, "cuFuncSetAttribute: ", value,
                     " bytes of dynamic shared memory exceeds the kernel's limit of ",
                     function->info().has_dynamic_shared_spec ? limit : 0);
      }
      function->set_max_dynamic_shared_bytes(static_cast<uint32_t>(value));
      return absl::OkStatus();
    }
    case FunctionAttribute::kPreferredSharedMemoryCarveout:
      if (value < -1 || value > 100) {
        return Error(ErrorCode::kInvalidValue, "cuFuncSetAttribute: carveout ", value,
                     " is outside [-1, 100]");
      }
      return absl::OkStatus();  // a hint Vulkan has no knob for
    default:
      return Error(ErrorCode::kInvalidValue, "cuFuncSetAttribute: attribute ", attribute,
                   " cannot be set");
  }
}

absl::Status FuncSetCacheConfig(uint64_t handle, int config) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  SH_RETURN_IF_ERROR(ResolveFunction(handle).status());
  return ValidateCacheConfig(config, "cuFuncSetCacheConfig");
}

absl::Status FuncSetSharedMemConfig(uint64_t handle, int config) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  SH_RETURN_IF_ERROR(ResolveFunction(handle).status());
  return ValidateSharedMemConfig(config, "cuFuncSetSharedMemConfig");
}

absl::Status FuncGetName(const char** name, uint64_t handle) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (name == nullptr) return Error(ErrorCode::kInvalidValue, "cuFuncGetName: name is null");
  SH_ASSIGN_OR_RETURN(Function * function, ResolveFunction(handle));
  *name = function->info().name.c_str();
  return absl::OkStatus();
}

absl::Status FuncIsLoaded(int* state, uint64_t handle) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (state == nullptr) return Error(ErrorCode::kInvalidValue, "cuFuncIsLoaded: state is null");
  SH_RETURN_IF_ERROR(ResolveFunction(handle).status());
  *state = kFunctionLoaded;
  return absl::OkStatus();
}

absl::Status FuncLoad(uint64_t handle) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  return ResolveFunction(handle).status();
}

absl::Status FuncGetModule(HandleOut module, uint64_t handle) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (module.is_null()) return Error(ErrorCode::kInvalidValue, "cuFuncGetModule: hmod is null");
  SH_ASSIGN_OR_RETURN(Function * function, ResolveFunction(handle));
  module.Set(function->module()->handle());
  return absl::OkStatus();
}

absl::Status FuncGetParamInfo(uint64_t handle, size_t index, size_t* offset, size_t* size) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (offset == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuFuncGetParamInfo: paramOffset is null");
  }
  SH_ASSIGN_OR_RETURN(Function * function, ResolveFunction(handle));
  const std::vector<ParamInfo>& params = function->info().params;
  if (index >= params.size()) {
    return Error(ErrorCode::kInvalidValue, "cuFuncGetParamInfo: kernel '",
                 function->info().name, "' has ", params.size(), " parameters; index ", index,
                 " is out of range");
  }
  *offset = params[index].offset;
  if (size != nullptr) *size = params[index].size;
  return absl::OkStatus();
}

absl::Status ModuleGetFunctionCount(unsigned* count, uint64_t handle) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (count == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuModuleGetFunctionCount: count is null");
  }
  SH_ASSIGN_OR_RETURN(Module * module, ResolveModule(handle));
  *count = static_cast<unsigned>(module->functions().size());
  return absl::OkStatus();
}

absl::Status ModuleEnumerateFunctions(void** functions, unsigned capacity, uint64_t handle) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (functions == nullptr || capacity == 0) {
    return Error(ErrorCode::kInvalidValue,
                 "cuModuleEnumerateFunctions: functions is null or numFunctions is 0");
  }
  SH_ASSIGN_OR_RETURN(Module * module, ResolveModule(handle));
  const size_t n = std::min<size_t>(capacity, module->functions().size());
  for (size_t i = 0; i < n; ++i) {
    functions[i] = reinterpret_cast<void*>(static_cast<uintptr_t>(module->functions()[i]->handle()));
  }
  return absl::OkStatus();
}

}  // namespace streamhal
