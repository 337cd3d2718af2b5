#include "core/library.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "core/context.h"
#include "core/device.h"
#include "core/jit_options.h"
#include "core/module.h"
#include "core/runtime.h"
#include "core/status.h"

namespace streamhal {
namespace {

// CUlibraryOption values.
constexpr int kLibraryHostUniversalFunctionAndDataTable = 0;
constexpr int kLibraryBinaryIsPreserved = 1;
constexpr int kLibraryNumOptions = 2;

// Every loaded library; a library lives until cuLibraryUnload or Deinit.
struct Libraries {
  Mutex mutex;
  std::vector<std::unique_ptr<Library>> all ABSL_GUARDED_BY(mutex);
};

Libraries& GetLibraries() {
  static Libraries* libraries = new Libraries;
  return *libraries;
}

absl::StatusOr<Library*> ResolveLibrary(uint64_t handle) {
  HandleState state;
  Library* library = LookupAs<Library>(handle, &state);
  if (library == nullptr) {
    return Error(ErrorCode::kInvalidHandle, "library 0x", absl::Hex(handle),
                 HandleProblem(state, " is not a library", " has been unloaded"));
  }
  return library;
}

absl::StatusOr<Kernel*> ResolveKernel(uint64_t handle) {
  HandleState state;
  Kernel* kernel = LookupAs<Kernel>(handle, &state);
  if (kernel == nullptr) {
    return Error(ErrorCode::kInvalidHandle, "kernel 0x", absl::Hex(handle),
                 HandleProblem(state, " is not a kernel", " belongs to an unloaded library"));
  }
  return kernel;
}

// The context a per-device kernel call works in: the current one when it is
// on `device`, else the device's primary context when it is active.
absl::StatusOr<Context*> ContextOnDevice(int device, const char* api) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  SH_ASSIGN_OR_RETURN(Device * target, GetDevice(device));
  absl::StatusOr<Context*> current = CurrentContext();
  if (current.ok() && (*current)->device() == target) return *current;
  {
    MutexLock lock(&target->primary().mutex);
    if (target->primary().context != nullptr) return target->primary().context;
  }
  return Error(ErrorCode::kInvalidContext, api, ": no context of device ", device,
               " is current and its primary context is not active");
}

absl::Status CheckLibraryOptions(unsigned count, const int* options, void** values, bool from_file,
                                 const char* api) {
  if (count == 0) return absl::OkStatus();
  if (options == nullptr) {
    return Error(ErrorCode::kInvalidValue, api, ": libraryOptions is null with ", count,
                 " options");
  }
  for (unsigned i = 0; i < count; ++i) {
    const int option = options[i];
    if (option < 0 || option >= kLibraryNumOptions) {
      return Error(ErrorCode::kInvalidValue, api, ": unknown library option ", option);
    }
    if (option == kLibraryBinaryIsPreserved && from_file) {
      return Error(ErrorCode::kInvalidValue, api,
                   ": CU_LIBRARY_BINARY_IS_PRESERVED applies to cuLibraryLoadData only");
    }
    // CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE names the host table
    // of unified functions, which kernel images here never have; the
    // preservation hint is a memory optimisation streamhal need not take
    // (the image is parsed and kept in its own form).
    static_cast<void>(kLibraryHostUniversalFunctionAndDataTable);
    static_cast<void>(values);
  }
  return absl::OkStatus();
}

// Reflects every kernel of a parsed image, in image order; the names must be
// unique across the image's SPIR-V modules, as LoadModule requires.
absl::StatusOr<std::vector<KernelInfo>> ReflectKernels(const LoadedImage& image) {
  std::vector<KernelInfo> kernels;
  for (const std::vector<uint32_t>& words : image.spirv_modules) {
    SH_ASSIGN_OR_RETURN(ModuleReflection reflection, ReflectSpirv(words));
    for (KernelInfo& kernel : reflection.kernels) {
      for (const KernelInfo& seen : kernels) {
        if (seen.name == kernel.name) {
          return Error(ErrorCode::kInvalidImage, "kernel '", kernel.name,
                       "' is defined more than once in the image");
        }
      }
      kernels.push_back(std::move(kernel));
    }
  }
  return kernels;
}

absl::Status FinishLoad(HandleOut out, LoadedImage image) {
  SH_ASSIGN_OR_RETURN(std::vector<KernelInfo> kernels, ReflectKernels(image));
  auto library = std::make_unique<Library>(std::move(image), std::move(kernels));
  if (CurrentLoadingMode() == LoadingMode::kEager) {
    // Eager: into the current context now (a context made later loads it on
    // first use; what a program sees is the same, only the timing moves).
    if (absl::StatusOr<Context*> context = CurrentContext(); context.ok()) {
      SH_RETURN_IF_ERROR(library->ModuleIn(*context).status());
    }
  }
  out.Set(library->handle());
  Libraries& libraries = GetLibraries();
  MutexLock lock(&libraries.mutex);
  libraries.all.push_back(std::move(library));
  return absl::OkStatus();
}

}  // namespace

LoadingMode CurrentLoadingMode() {
  const char* value = std::getenv("CUDA_MODULE_LOADING");
  if (value != nullptr && absl::AsciiStrToUpper(value) == "EAGER") return LoadingMode::kEager;
  return LoadingMode::kLazy;
}

Kernel::Kernel(Library* library, KernelInfo info)
    : Object(kKind), library_(library), info_(std::move(info)) {}

absl::StatusOr<Function*> Kernel::FunctionIn(Context* context) {
  SH_ASSIGN_OR_RETURN(Module * module, library_->ModuleIn(context));
  Function* function = module->FindFunction(info_.name);
  if (function == nullptr) {
    return Error(ErrorCode::kNotFound, "kernel '", info_.name, "' is missing from its module");
  }
  return function;
}

void Kernel::RememberAttribute(int device, int attribute, int value) {
  MutexLock lock(&mutex_);
  attributes_[{device, attribute}] = value;
}

absl::Status Kernel::ApplyAttributes(int device, Function* function) {
  MutexLock lock(&mutex_);
  for (const auto& [key, value] : attributes_) {
    if (key.first == device) SH_RETURN_IF_ERROR(SetFunctionAttribute(function, key.second, value));
  }
  return absl::OkStatus();
}

Library::Library(LoadedImage image, std::vector<KernelInfo> kernels)
    : Object(kKind), image_(std::move(image)) {
  for (KernelInfo& info : kernels) {
    kernels_.push_back(std::make_unique<Kernel>(this, std::move(info)));
  }
}

Library::~Library() {
  // Unloads the library's module from every context still alive.
  MutexLock lock(&mutex_);
  for (const auto& [context_handle, module_handle] : modules_) {
    Context* context = LookupAs<Context>(context_handle);
    Module* module = LookupAs<Module>(module_handle);
    if (context != nullptr && module != nullptr) context->Destroy(module);
  }
}

Kernel* Library::FindKernel(absl::string_view name) const {
  for (const auto& kernel : kernels_) {
    if (kernel->info().name == name) return kernel.get();
  }
  return nullptr;
}

absl::StatusOr<Module*> Library::ModuleIn(Context* context) {
  MutexLock lock(&mutex_);
  auto it = modules_.find(context->handle());
  if (it != modules_.end()) {
    if (Module* module = LookupAs<Module>(it->second); module != nullptr) return module;
    modules_.erase(it);  // unloaded with its context's teardown
  }
  SH_ASSIGN_OR_RETURN(Module * module, CreateModuleIn(context, image_));
  const int device = context->device()->ordinal();
  for (const auto& kernel : kernels_) {
    if (Function* function = module->FindFunction(kernel->info().name); function != nullptr) {
      SH_RETURN_IF_ERROR(kernel->ApplyAttributes(device, function));
    }
  }
  modules_[context->handle()] = module->handle();
  return module;
}

absl::Status LibraryLoadData(HandleOut out, const void* code, unsigned num_jit_options,
                             const int* jit_options, void** jit_values, int jit_option_count,
                             unsigned num_library_options, const int* library_options,
                             void** library_values) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (out.is_null() || code == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuLibraryLoadData: library and code must not be null");
  }
  SH_RETURN_IF_ERROR(CheckLibraryOptions(num_library_options, library_options, library_values,
                                         /*from_file=*/false, "cuLibraryLoadData"));
  SH_ASSIGN_OR_RETURN(JitOptions jit,
                      ReadJitOptions(num_jit_options, jit_options, jit_values, jit_option_count));
  absl::StatusOr<LoadedImage> image = ParseKernelImage(code, std::nullopt, "main", &jit);
  WriteJitOutputs(jit, num_jit_options, jit_options, jit_values);
  SH_RETURN_IF_ERROR(image.status());
  return FinishLoad(out, *std::move(image));
}

absl::Status LibraryLoadFromFile(HandleOut out, const char* path, unsigned num_jit_options,
                                 const int* jit_options, void** jit_values, int jit_option_count,
                                 unsigned num_library_options, const int* library_options,
                                 void** library_values) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (out.is_null() || path == nullptr) {
    return Error(ErrorCode::kInvalidValue,
                 "cuLibraryLoadFromFile: library and fileName must not be null");
  }
  SH_RETURN_IF_ERROR(CheckLibraryOptions(num_library_options, library_options, library_values,
                                         /*from_file=*/true, "cuLibraryLoadFromFile"));
  SH_ASSIGN_OR_RETURN(JitOptions jit,
                      ReadJitOptions(num_jit_options, jit_options, jit_values, jit_option_count));
  SH_ASSIGN_OR_RETURN(const std::vector<uint8_t> bytes, ReadImageFile(path));
  if (bytes.empty()) {
    return Error(ErrorCode::kInvalidImage, "cuLibraryLoadFromFile: '", path, "' is empty");
  }
  // A GLSL file's kernel is named after the file, as cuModuleLoad does.
  std::string stem(path);
  if (size_t slash = stem.find_last_of('/'); slash != std::string::npos) stem.erase(0, slash + 1);
  if (size_t dot = stem.find('.'); dot != std::string::npos) stem.erase(dot);
  absl::StatusOr<LoadedImage> image = ParseKernelImage(bytes.data(), bytes.size(), stem, &jit);
  WriteJitOutputs(jit, num_jit_options, jit_options, jit_values);
  SH_RETURN_IF_ERROR(image.status());
  return FinishLoad(out, *std::move(image));
}

absl::Status LibraryUnload(uint64_t handle) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  SH_ASSIGN_OR_RETURN(Library * library, ResolveLibrary(handle));
  std::unique_ptr<Library> owned;
  {
    Libraries& libraries = GetLibraries();
    MutexLock lock(&libraries.mutex);
    auto it = std::find_if(libraries.all.begin(), libraries.all.end(),
                           [&](const auto& l) { return l.get() == library; });
    if (it == libraries.all.end()) {
      return Error(ErrorCode::kInvalidHandle, "cuLibraryUnload: library is being unloaded");
    }
    owned = std::move(*it);
    libraries.all.erase(it);
  }
  owned.reset();  // unloads its modules, outside the registry lock
  BumpResourceGeneration();
  return absl::OkStatus();
}

absl::Status LibraryGetKernel(HandleOut out, uint64_t handle, const char* name) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (out.is_null() || name == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuLibraryGetKernel: pKernel and name must not be null");
  }
  SH_ASSIGN_OR_RETURN(Library * library, ResolveLibrary(handle));
  Kernel* kernel = library->FindKernel(name);
  if (kernel == nullptr) {
    return Error(ErrorCode::kNotFound, "cuLibraryGetKernel: no kernel named '", name, "'");
  }
  out.Set(kernel->handle());
  return absl::OkStatus();
}

absl::Status LibraryGetKernelCount(unsigned* count, uint64_t handle) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (count == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuLibraryGetKernelCount: count is null");
  }
  SH_ASSIGN_OR_RETURN(Library * library, ResolveLibrary(handle));
  *count = static_cast<unsigned>(library->kernels().size());
  return absl::OkStatus();
}

absl::Status LibraryEnumerateKernels(void** kernels, unsigned capacity, uint64_t handle) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (kernels == nullptr || capacity == 0) {
    return Error(ErrorCode::kInvalidValue,
                 "cuLibraryEnumerateKernels: kernels is null or numKernels is 0");
  }
  SH_ASSIGN_OR_RETURN(Library * library, ResolveLibrary(handle));
  const size_t n = std::min<size_t>(capacity, library->kernels().size());
  for (size_t i = 0; i < n; ++i) {
    kernels[i] = reinterpret_cast<void*>(static_cast<uintptr_t>(library->kernels()[i]->handle()));
  }
  return absl::OkStatus();
}

absl::Status LibraryGetModule(HandleOut out, uint64_t handle) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (out.is_null()) return Error(ErrorCode::kInvalidValue, "cuLibraryGetModule: pMod is null");
  SH_ASSIGN_OR_RETURN(Library * library, ResolveLibrary(handle));
  SH_ASSIGN_OR_RETURN(Module * module, library->ModuleIn(context));
  out.Set(module->handle());
  return absl::OkStatus();
}

absl::Status LibraryGetGlobal(uint64_t* dptr, size_t* bytes, uint64_t handle, const char* name) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (name == nullptr) return Error(ErrorCode::kInvalidValue, "cuLibraryGetGlobal: name is null");
  SH_ASSIGN_OR_RETURN(Library * library, ResolveLibrary(handle));
  SH_ASSIGN_OR_RETURN(Module * module, library->ModuleIn(context));
  return ModuleGetGlobal(dptr, bytes, module->handle(), name);
}

absl::Status LibraryGetManaged(uint64_t* dptr, size_t* bytes, uint64_t handle, const char* name) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (name == nullptr) return Error(ErrorCode::kInvalidValue, "cuLibraryGetManaged: name is null");
  SH_RETURN_IF_ERROR(ResolveLibrary(handle).status());
  static_cast<void>(dptr);
  static_cast<void>(bytes);
  // The kernel ABI has no managed module variables (__managed__), so no
  // name is one.
  return Error(ErrorCode::kNotFound, "cuLibraryGetManaged: no managed variable named '", name,
               "' (kernel images hold no managed variables)");
}

absl::Status LibraryGetUnifiedFunction(void** function, uint64_t handle, const char* symbol) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (function == nullptr || symbol == nullptr) {
    return Error(ErrorCode::kInvalidValue,
                 "cuLibraryGetUnifiedFunction: fptr and symbol must not be null");
  }
  SH_RETURN_IF_ERROR(ResolveLibrary(handle).status());
  // Unified functions are host-and-device code in a CUDA binary's host
  // table; SPIR-V images have none.
  return Error(ErrorCode::kNotFound, "cuLibraryGetUnifiedFunction: no unified function named '",
               symbol, "' (kernel images hold no unified functions)");
}

absl::StatusOr<Function*> ResolveKernelFunction(uint64_t handle) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  SH_ASSIGN_OR_RETURN(Kernel * kernel, ResolveKernel(handle));
  return kernel->FunctionIn(context);
}

absl::Status KernelGetFunction(HandleOut out, uint64_t handle) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (out.is_null()) return Error(ErrorCode::kInvalidValue, "cuKernelGetFunction: pFunc is null");
  SH_ASSIGN_OR_RETURN(Kernel * kernel, ResolveKernel(handle));
  SH_ASSIGN_OR_RETURN(Function * function, kernel->FunctionIn(context));
  out.Set(function->handle());
  return absl::OkStatus();
}

absl::Status KernelGetAttribute(int* value, int attribute, uint64_t handle, int device) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (value == nullptr) return Error(ErrorCode::kInvalidValue, "cuKernelGetAttribute: pi is null");
  SH_ASSIGN_OR_RETURN(Kernel * kernel, ResolveKernel(handle));
  SH_ASSIGN_OR_RETURN(Context * context, ContextOnDevice(device, "cuKernelGetAttribute"));
  SH_ASSIGN_OR_RETURN(Function * function, kernel->FunctionIn(context));
  return GetFunctionAttribute(function, attribute, value);
}

absl::Status KernelSetAttribute(int attribute, int value, uint64_t handle, int device) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  SH_ASSIGN_OR_RETURN(Kernel * kernel, ResolveKernel(handle));
  SH_ASSIGN_OR_RETURN(Context * context, ContextOnDevice(device, "cuKernelSetAttribute"));
  SH_ASSIGN_OR_RETURN(Function * function, kernel->FunctionIn(context));
  // Checked (and applied) on this context's function first; remembered for
  // the device's other contexts only when valid.
  SH_RETURN_IF_ERROR(SetFunctionAttribute(function, attribute, value));
  kernel->RememberAttribute(device, attribute, value);
  return absl::OkStatus();
}

absl::Status KernelSetCacheConfig(uint64_t handle, int config, int device) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  SH_RETURN_IF_ERROR(ResolveKernel(handle).status());
  SH_RETURN_IF_ERROR(GetDevice(device).status());
  return ValidateCacheConfig(config, "cuKernelSetCacheConfig");
}

absl::Status KernelGetName(const char** name, uint64_t handle) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (name == nullptr) return Error(ErrorCode::kInvalidValue, "cuKernelGetName: name is null");
  SH_ASSIGN_OR_RETURN(Kernel * kernel, ResolveKernel(handle));
  *name = kernel->info().name.c_str();
  return absl::OkStatus();
}

absl::Status KernelGetLibrary(HandleOut out, uint64_t handle) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (out.is_null()) return Error(ErrorCode::kInvalidValue, "cuKernelGetLibrary: pLib is null");
  SH_ASSIGN_OR_RETURN(Kernel * kernel, ResolveKernel(handle));
  out.Set(kernel->library()->handle());
  return absl::OkStatus();
}

absl::Status KernelGetParamInfo(uint64_t handle, size_t index, size_t* offset, size_t* size) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (offset == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuKernelGetParamInfo: paramOffset is null");
  }
  SH_ASSIGN_OR_RETURN(Kernel * kernel, ResolveKernel(handle));
  const std::vector<ParamInfo>& params = kernel->info().params;
  if (index >= params.size()) {
    return Error(ErrorCode::kInvalidValue, "cuKernelGetParamInfo: kernel '", kernel->info().name,
                 "' has ", params.size(), " parameters; index ", index, " is out of range");
  }
  *offset = params[index].offset;
  if (size != nullptr) *size = params[index].size;
  return absl::OkStatus();
}

absl::Status GetModuleLoadingMode(int* mode) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (mode == nullptr)
    return Error(ErrorCode::kInvalidValue, "cuModuleGetLoadingMode: mode is null");
  *mode = static_cast<int>(CurrentLoadingMode());
  return absl::OkStatus();
}

void DestroyAllLibraries() {
  std::vector<std::unique_ptr<Library>> all;
  {
    Libraries& libraries = GetLibraries();
    MutexLock lock(&libraries.mutex);
    all.swap(libraries.all);
  }
  all.clear();
}

}  // namespace streamhal
