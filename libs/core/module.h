// Modules and their kernels (cuModuleLoad*, cuModuleGetFunction,
// cuModuleGetGlobal, cuFuncGetAttribute). A module is one kernel image
// (docs/kernel-abi.md); each SPIR-V module inside it is reflected once at
// load, and every kernel gets a backend kernel then, so launches do no
// per-call reflection.
#ifndef STREAMHAL_CORE_MODULE_H_
#define STREAMHAL_CORE_MODULE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/api.h"
#include "core/backend.h"
#include "core/code_object.h"
#include "core/handle.h"
#include "core/jit_options.h"
#include "core/mutex.h"
#include "core/spirv_reflect.h"

namespace streamhal {

class Context;
class Module;
class SurfaceRef;
class TextureRef;
struct Allocation;

// Largest kernel parameter block (CUDA's classic 4 KiB limit). Blocks above
// the device's push-constant limit are passed in a uniform buffer.
inline constexpr uint32_t kMaxParamBlockBytes = 4096;

// One kernel (CUfunction / hipFunction_t). Owned by its module.
class Function : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kFunction;

  Function(Module* module, KernelInfo info, KernelLayout layout,
           std::unique_ptr<BackendKernel> backend, Allocation* globals);

  Module* module() const { return module_; }
  const KernelInfo& info() const { return info_; }
  const KernelLayout& layout() const { return layout_; }
  BackendKernel* backend() const { return backend_.get(); }
  // The globals block of the SPIR-V module this kernel came from, if it
  // uses one.
  Allocation* globals() const { return globals_; }

  // Largest block (threads) a launch may use.
  int max_threads_per_block() const;
  // Largest dynamic shared memory a launch may ask for; settable with
  // cuFuncSetAttribute up to the device limit.
  uint32_t max_dynamic_shared_bytes() const { return max_dynamic_shared_bytes_; }
  void set_max_dynamic_shared_bytes(uint32_t bytes) { max_dynamic_shared_bytes_ = bytes; }
  uint32_t device_shared_limit() const;
  // Largest dynamic shared memory a launch may pass: max_dynamic_shared_bytes
  // for a kernel with the dynamic shared memory specialization constant;
  // otherwise whatever fits beside the static shared memory (the kernel
  // ignores it).
  uint32_t launch_dynamic_shared_limit() const;

  // A hash of the SPIR-V module the kernel came from: the multi-device
  // cooperative launches require the same compiled code on every device.
  uint64_t code_hash() const { return code_hash_; }
  void set_code_hash(uint64_t hash) { code_hash_ = hash; }

  // What the legacy execution-control calls (cuFuncSetBlockShape,
  // cuFuncSetSharedSize, cuParamSet*) accumulate for cuLaunch*: CUDA keeps
  // it per function, and it persists across launches (core/legacy_launch.h).
  struct LegacyLaunchState {
    std::array<uint32_t, 3> block = {1, 1, 1};
    uint32_t shared_bytes = 0;
    uint32_t param_size = 0;
    alignas(16) uint8_t params[kMaxParamBlockBytes] = {};
  };
  Mutex& legacy_mutex() const { return legacy_mutex_; }
  // Made on first use; callers hold legacy_mutex().
  LegacyLaunchState& legacy_state() ABSL_EXCLUSIVE_LOCKS_REQUIRED(legacy_mutex_);

 private:
  Module* const module_;
  const KernelInfo info_;
  const KernelLayout layout_;
  const std::unique_ptr<BackendKernel> backend_;
  Allocation* const globals_;
  uint32_t max_dynamic_shared_bytes_ = 0;
  uint64_t code_hash_ = 0;
  mutable Mutex legacy_mutex_;
  std::unique_ptr<LegacyLaunchState> legacy_ ABSL_GUARDED_BY(legacy_mutex_);
};

class Module : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kModule;

  explicit Module(Context* context);
  ~Module() override;

  Context* context() const { return context_; }
  Function* FindFunction(absl::string_view name) const;
  // Every kernel of the module, in the order of the image.
  const std::vector<std::unique_ptr<Function>>& functions() const { return functions_; }

  struct Global {
    std::string name;
    Allocation* allocation = nullptr;
    uint32_t offset = 0;
    uint32_t size = 0;
  };
  const Global* FindGlobal(absl::string_view name) const;

  // The texture and surface references the module's kernels declare, made
  // at load (core/texture_ref.h); null for names no kernel declares.
  TextureRef* FindTextureRef(absl::string_view name) const;
  SurfaceRef* FindSurfaceRef(absl::string_view name) const;
  // Makes the reference `name` unless the module has it.
  void AddReference(Context* context, const std::string& name, bool surface);

  // The words a cooperative launch's grid barrier counts in (kGridBarrierWords),
  // allocated on the first cooperative launch of one of the module's kernels.
  // One set per module: a device runs one dispatch at a time where
  // cooperative launches are allowed (docs/kernel-abi.md).
  absl::StatusOr<Allocation*> GridBarrierScratch();

 private:
  friend absl::Status LoadModule(Context* context, Module* module, struct LoadedImage image);

  Context* const context_;
  std::vector<std::unique_ptr<BackendModule>> backend_modules_;
  std::vector<std::unique_ptr<Function>> functions_;
  std::vector<Allocation*> globals_allocations_;
  std::vector<Global> globals_;
  absl::flat_hash_map<std::string, std::unique_ptr<TextureRef>> texture_refs_;
  absl::flat_hash_map<std::string, std::unique_ptr<SurfaceRef>> surface_refs_;
  Mutex grid_barrier_mutex_;
  Allocation* grid_barrier_ ABSL_GUARDED_BY(grid_barrier_mutex_) = nullptr;
};

// Parses a kernel image of any format (code_object.h); GLSL's kernel is
// named `default_name` unless the source names it. JIT logs and wall time
// go to `jit` when given.
absl::StatusOr<LoadedImage> ParseKernelImage(const void* data, std::optional<size_t> size,
                                             absl::string_view default_name, JitOptions* jit);
// Loads a parsed image into `context` as a new module the context owns.
absl::StatusOr<Module*> CreateModuleIn(Context* context, LoadedImage image);

// Entry points. `out` receives a module handle.
// HIP: an empty path is kInvalidValue (CUDA: the file is not found).
absl::Status ModuleLoad(HandleOut out, const char* path, Api api = Api::kCuda);
// `image` has no size: it must be self-delimiting (ELF code object, fat
// binary, HIP fat-binary wrapper, NUL-terminated GLSL). `jit` may be null.
absl::Status ModuleLoadData(HandleOut out, const void* image, JitOptions* jit);
// cuModuleLoadDataEx / hipModuleLoadDataEx. CUjit_option and hipJitOption
// number the options the same way; the ones that apply to GLSL compiled at
// load time are honoured (logs, wall time, verbose), the others are accepted
// and ignored. `option_count` is the number of ids the caller's API defines
// (CU_JIT_NUM_OPTIONS, hipJitOptionNumOptions): an id outside
// [0, option_count) is kInvalidValue, and nothing is loaded. Outputs are
// written back into `values` as CUDA specifies (core/jit_options.h).
absl::Status ModuleLoadDataEx(HandleOut out, const void* image, unsigned num_options,
                              const int* options, void** values, int option_count);
// Like ModuleLoadData but only fat binaries (and the HIP wrapper) are
// accepted.
absl::Status ModuleLoadFatBinary(HandleOut out, const void* fat_binary);
absl::Status ModuleUnload(uint64_t module);
// HIP: an empty name is kInvalidValue (CUDA: not found).
absl::Status ModuleGetFunction(HandleOut out, uint64_t module, const char* name,
                               Api api = Api::kCuda);
// CUDA: both outputs are optional. HIP: at least one output is required and
// an empty name is kInvalidValue (AMD).
absl::Status ModuleGetGlobal(uint64_t* dptr, size_t* bytes, uint64_t module, const char* name,
                             Api api = Api::kCuda);

// Resolves a function handle of a live module of the current context's
// device; kInvalidHandle otherwise.
// The module's texture or surface reference `name` (core/texture_ref.h):
// kNotFound when no kernel of the module declares one of that name.
absl::Status ModuleGetTexRef(uint64_t* out, uint64_t module, const char* name);
absl::Status ModuleGetSurfRef(uint64_t* out, uint64_t module, const char* name);
absl::StatusOr<Function*> ResolveFunction(uint64_t function);

// cuFuncGetAttribute / cuFuncSetAttribute (CUfunction_attribute values).
enum class FunctionAttribute : int {
  kMaxThreadsPerBlock = 0,
  kSharedSizeBytes = 1,
  kConstSizeBytes = 2,
  kLocalSizeBytes = 3,
  kNumRegs = 4,
  kPtxVersion = 5,
  kBinaryVersion = 6,
  kCacheModeCa = 7,
  kMaxDynamicSharedSizeBytes = 8,
  kPreferredSharedMemoryCarveout = 9,
  kCount,
};
absl::Status FuncGetAttribute(int* value, int attribute, uint64_t function);
absl::Status FuncSetAttribute(uint64_t function, int attribute, int value);
// The checks and effects of the two above on a resolved function (shared
// with cuKernelGetAttribute / cuKernelSetAttribute).
absl::Status GetFunctionAttribute(Function* function, int attribute, int* value);
absl::Status SetFunctionAttribute(Function* function, int attribute, int value);
// cuFuncSetCacheConfig / cuFuncSetSharedMemConfig: a valid value is accepted
// and changes nothing (every device has a fixed split; see
// SetContextCacheConfig).
absl::Status FuncSetCacheConfig(uint64_t function, int config);
absl::Status FuncSetSharedMemConfig(uint64_t function, int config);
// cuFuncGetName: the entry point's name, alive as long as the module.
absl::Status FuncGetName(const char** name, uint64_t function);
// cuFuncGetModule.
absl::Status FuncGetModule(HandleOut module, uint64_t function);
// cuFuncIsLoaded / cuFuncLoad: a Function exists only inside a loaded
// module (lazy loading defers making a library's module for a context, not
// a function of a module), so every function is loaded
// (CU_FUNCTION_LOADING_STATE_LOADED, 1) and loading one does nothing.
inline constexpr int kFunctionLoaded = 1;
absl::Status FuncIsLoaded(int* state, uint64_t function);
absl::Status FuncLoad(uint64_t function);
// cuFuncGetParamInfo: offset and size (extent, spirv_reflect.h) of
// parameter `index` in the parameter block. `size` may be null.
absl::Status FuncGetParamInfo(uint64_t function, size_t index, size_t* offset, size_t* size);
// cuModuleGetFunctionCount / cuModuleEnumerateFunctions: the module's
// kernels in image order; enumeration writes min(capacity, count) handles.
absl::Status ModuleGetFunctionCount(unsigned* count, uint64_t module);
// `functions` is an array of pointer-sized API handles (CUfunction*).
absl::Status ModuleEnumerateFunctions(void** functions, unsigned capacity, uint64_t module);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_MODULE_H_
