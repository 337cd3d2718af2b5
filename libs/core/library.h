// Context-independent code (CUDA 12 library management: cuLibraryLoadData,
// cuLibraryGetKernel, cuKernelGetFunction, ...). A library holds a parsed
// kernel image and is owned by the process, not by a context; it is loaded
// into a context as an ordinary Module the first time something of it is
// needed there (a kernel's function, a global, a launch of a CUkernel), or
// at load time into the current context when CUDA_MODULE_LOADING=EAGER.
// The image is parsed and reflected when the library is loaded, so a bad
// image or a missing kernel is reported then in either mode.
#ifndef STREAMHAL_CORE_LIBRARY_H_
#define STREAMHAL_CORE_LIBRARY_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "core/code_object.h"
#include "core/handle.h"
#include "core/mutex.h"
#include "core/spirv_reflect.h"

namespace streamhal {

class Context;
class Function;
class Library;
class Module;

// CUmoduleLoadingMode.
enum class LoadingMode : int { kEager = 1, kLazy = 2 };
// CUDA_MODULE_LOADING=EAGER or LAZY (case-insensitive); LAZY when unset or
// anything else, as CUDA 12.2 and later default.
LoadingMode CurrentLoadingMode();

// One kernel of a library (CUkernel). Owned by its library.
class Kernel : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kKernel;

  Kernel(Library* library, KernelInfo info);

  Library* library() const { return library_; }
  const KernelInfo& info() const { return info_; }

  // The kernel's function in `context`, loading the library there first.
  absl::StatusOr<Function*> FunctionIn(Context* context);

  // cuKernelSetAttribute: kept per device ordinal and applied to the
  // function in every context of that device, now and when loaded later.
  void RememberAttribute(int device, int attribute, int value);

 private:
  friend class Library;
  // Applies the remembered attributes of `device` to a newly loaded function.
  absl::Status ApplyAttributes(int device, Function* function);

  Library* const library_;
  const KernelInfo info_;
  Mutex mutex_;
  std::map<std::pair<int, int>, int> attributes_ ABSL_GUARDED_BY(mutex_);
};

class Library : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kLibrary;

  // `image` has been parsed; `kernels` reflected from it, in image order.
  Library(LoadedImage image, std::vector<KernelInfo> kernels);
  ~Library() override;

  const std::vector<std::unique_ptr<Kernel>>& kernels() const { return kernels_; }
  Kernel* FindKernel(absl::string_view name) const;

  // The library's module in `context`, loaded there on first use.
  absl::StatusOr<Module*> ModuleIn(Context* context);

 private:
  const LoadedImage image_;
  std::vector<std::unique_ptr<Kernel>> kernels_;
  Mutex mutex_;
  // Context handle -> module handle. Handles, not pointers: a context
  // destroyed since (and its modules with it) is detected on lookup.
  std::map<uint64_t, uint64_t> modules_ ABSL_GUARDED_BY(mutex_);
};

// Entry points. `jit` options as cuModuleLoadDataEx (option ids checked,
// outputs written back); `library_options` are CUlibraryOption ids.
absl::Status LibraryLoadData(HandleOut out, const void* code, unsigned num_jit_options,
                             const int* jit_options, void** jit_values, int jit_option_count,
                             unsigned num_library_options, const int* library_options,
                             void** library_values);
absl::Status LibraryLoadFromFile(HandleOut out, const char* path, unsigned num_jit_options,
                                 const int* jit_options, void** jit_values, int jit_option_count,
                                 unsigned num_library_options, const int* library_options,
                                 void** library_values);
absl::Status LibraryUnload(uint64_t library);
absl::Status LibraryGetKernel(HandleOut out, uint64_t library, const char* name);
absl::Status LibraryGetKernelCount(unsigned* count, uint64_t library);
// `kernels` is an array of pointer-sized handles (CUkernel*).
absl::Status LibraryEnumerateKernels(void** kernels, unsigned capacity, uint64_t library);
absl::Status LibraryGetModule(HandleOut out, uint64_t library);
absl::Status LibraryGetGlobal(uint64_t* dptr, size_t* bytes, uint64_t library, const char* name);
absl::Status LibraryGetManaged(uint64_t* dptr, size_t* bytes, uint64_t library, const char* name);
absl::Status LibraryGetUnifiedFunction(void** function, uint64_t library, const char* symbol);

absl::Status KernelGetFunction(HandleOut out, uint64_t kernel);
absl::Status KernelGetAttribute(int* value, int attribute, uint64_t kernel, int device);
absl::Status KernelSetAttribute(int attribute, int value, uint64_t kernel, int device);
absl::Status KernelSetCacheConfig(uint64_t kernel, int config, int device);
absl::Status KernelGetName(const char** name, uint64_t kernel);
absl::Status KernelGetLibrary(HandleOut out, uint64_t kernel);
absl::Status KernelGetParamInfo(uint64_t kernel, size_t index, size_t* offset, size_t* size);

absl::Status GetModuleLoadingMode(int* mode);

// The function of a kernel handle in the current context (cuLaunchKernel
// and the function calls accept a CUkernel where they take a CUfunction).
absl::StatusOr<Function*> ResolveKernelFunction(uint64_t kernel);

// Unloads every library (used by Deinit).
void DestroyAllLibraries();

}  // namespace streamhal

#endif  // STREAMHAL_CORE_LIBRARY_H_
