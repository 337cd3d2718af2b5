#include "core/registered_code.h"

#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "core/code_object.h"
#include "core/context.h"
#include "core/handle.h"
#include "core/log.h"
#include "core/managed_memory.h"
#include "core/memory.h"
#include "core/module.h"
#include "core/mutex.h"
#include "core/status.h"
#include "core/transfer.h"

namespace streamhal {
namespace {

struct ManagedVar {
  void** pointer = nullptr;
  const void* init_value = nullptr;
  std::string name;
  size_t size = 0;
  uint64_t address = 0;  // 0 until the first use of the image
};

// One registered image. `self` is the handle given to the program: the
// address of this member, so that the handle is a void** as AMD's is.
struct Registration {
  void* self = nullptr;
  const void* wrapper = nullptr;
  const void* image = nullptr;  // what is loaded; null when the wrapper is unusable
  int count = 1;
  // Context handle -> module handle of the image loaded there.
  absl::flat_hash_map<uint64_t, uint64_t> modules;
  std::deque<ManagedVar> managed;  // stable addresses
};

struct FunctionEntry {
  Registration* registration = nullptr;
  std::string name;
};

struct VarEntry {
  Registration* registration = nullptr;
  std::string name;
  size_t size = 0;
};

struct Registry {
  Mutex mutex;
  std::vector<std::unique_ptr<Registration>> registrations ABSL_GUARDED_BY(mutex);
  absl::flat_hash_map<const void*, FunctionEntry> functions ABSL_GUARDED_BY(mutex);
  absl::flat_hash_map<const void*, VarEntry> vars ABSL_GUARDED_BY(mutex);
  // Modules of unregistered images, unloaded at the next registry call.
  std::vector<uint64_t> orphaned_modules ABSL_GUARDED_BY(mutex);
};

Registry& GetRegistry() {
  // Leaked on purpose: unregistration runs from static destructors.
  static Registry* registry = new Registry;
  return *registry;
}

Registration* FindRegistration(Registry& registry, const void* handle)
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(registry.mutex) {
  for (const auto& registration : registry.registrations) {
    if (&registration->self == handle) return registration.get();
  }
  return nullptr;
}

// Unloads the modules of images unregistered since the last call. Not done
// in UnregisterFatBinary itself: that runs from static destructors, at exit
// after the Vulkan driver and layers may have torn down their own state; at
// dlclose, the next registry call (a launch, the next dlopen) frees them.
void ReleaseOrphans(Registry& registry) ABSL_LOCKS_EXCLUDED(registry.mutex) {
  std::vector<uint64_t> modules;
  {
    MutexLock lock(&registry.mutex);
    modules.swap(registry.orphaned_modules);
  }
  for (uint64_t handle : modules) {
    // Modules whose context is gone went with it.
    if (Module* module = LookupAs<Module>(handle); module != nullptr) {
      module->context()->Destroy(module);
    }
  }
}

// The image behind a wrapper: the wrapper's binary, in any format
// ModuleLoadData accepts. A pointer that is not a wrapper is taken as an
// image itself.
const void* ImageOf(const void* wrapper) {
  if (wrapper == nullptr) return nullptr;
  uint32_t magic = 0;
  std::memcpy(&magic, wrapper, sizeof(magic));
  if (magic != kHipFatBinaryMagic) return wrapper;
  HipFatBinaryWrapper header;
  std::memcpy(&header, wrapper, sizeof(header));
  if (header.version != kHipFatBinaryVersion) return nullptr;
  return header.binary;
}

// The module of `registration` in the current context, loaded on first use.
// Runs without the registry lock held across the load (module loading waits
// on the device).
absl::StatusOr<Module*> ModuleFor(Registry& registry, Registration* registration, Context* context)
    ABSL_LOCKS_EXCLUDED(registry.mutex) {
  const void* image = nullptr;
  {
    MutexLock lock(&registry.mutex);
    auto it = registration->modules.find(context->handle());
    if (it != registration->modules.end()) {
      if (Module* module = LookupAs<Module>(it->second); module != nullptr) return module;
      registration->modules.erase(it);  // the context destroyed it: load again
    }
    image = registration->image;
  }
  if (image == nullptr) {
    return Error(ErrorCode::kInvalidImage,
                 "the registered fat binary is not a HIP fat-binary wrapper of version 1");
  }
  uint64_t handle = 0;
  SH_RETURN_IF_ERROR(ModuleLoadData(HandleOut(&handle), image, nullptr));
  Module* module = LookupAs<Module>(handle);

  // Managed variables: allocated once, on the first load anywhere.
  std::vector<ManagedVar*> to_allocate;
  {
    MutexLock lock(&registry.mutex);
    for (ManagedVar& var : registration->managed) {
      if (var.address == 0) to_allocate.push_back(&var);
    }
  }
  for (ManagedVar* var : to_allocate) {
    uint64_t address = 0;
    SH_RETURN_IF_ERROR(MemAllocManaged(&address, var->size, kMemAttachGlobal));
    if (var->init_value != nullptr) {
      std::memcpy(reinterpret_cast<void*>(static_cast<uintptr_t>(address)), var->init_value,
                  var->size);
    }
    var->address = address;
    if (var->pointer != nullptr) *var->pointer = reinterpret_cast<void*>(address);
  }

  std::vector<std::pair<std::string, uint64_t>> pointers;  // managed name -> address
  {
    MutexLock lock(&registry.mutex);
    auto [it, inserted] = registration->modules.try_emplace(context->handle(), handle);
    if (!inserted) {
      // Another thread loaded it meanwhile: keep that one.
      if (Module* other = LookupAs<Module>(it->second); other != nullptr) {
        context->Destroy(module);
        return other;
      }
      it->second = handle;
    }
    for (const ManagedVar& var : registration->managed) {
      if (var.address != 0) pointers.emplace_back(var.name, var.address);
    }
  }
  // Point the module's copy of each managed variable at the allocation
  // (outside the lock: the copy waits on the device).
  for (const auto& [name, address] : pointers) {
    const Module::Global* global = module->FindGlobal(name);
    if (global == nullptr || global->size != sizeof(uint64_t)) continue;
    SH_RETURN_IF_ERROR(Memcpy(global->allocation->device_address() + global->offset,
                              reinterpret_cast<uintptr_t>(&address), sizeof(uint64_t),
                              CopyKind::kHostToDevice, 0, Sync::kBlocking));
  }
  return module;
}

}  // namespace

void** RegisterFatBinary(const void* wrapper) {
  Registry& registry = GetRegistry();
  ReleaseOrphans(registry);
  MutexLock lock(&registry.mutex);
  for (const auto& registration : registry.registrations) {
    if (wrapper != nullptr && registration->wrapper == wrapper) {
      ++registration->count;
      return &registration->self;
    }
  }
  auto registration = std::make_unique<Registration>();
  registration->wrapper = wrapper;
  registration->image = ImageOf(wrapper);
  if (registration->image == nullptr) {
    Log(LogLevel::kWarning, "__hipRegisterFatBinary: not a HIP fat-binary wrapper of version 1");
  }
  void** handle = &registration->self;
  registry.registrations.push_back(std::move(registration));
  return handle;
}

absl::Status RegisterFunction(void** handle, const void* host_function, const char* name) {
  if (host_function == nullptr || name == nullptr) {
    return Error(ErrorCode::kInvalidValue, "__hipRegisterFunction: null host function or name");
  }
  Registry& registry = GetRegistry();
  MutexLock lock(&registry.mutex);
  Registration* registration = FindRegistration(registry, handle);
  if (registration == nullptr) {
    return Error(ErrorCode::kInvalidHandle, "__hipRegisterFunction: not a registered fat binary");
  }
  auto [it, inserted] =
      registry.functions.try_emplace(host_function, FunctionEntry{registration, name});
  if (!inserted && (it->second.registration != registration || it->second.name != name)) {
    return Error(ErrorCode::kInvalidValue, "__hipRegisterFunction: host function 0x",
                 absl::Hex(reinterpret_cast<uintptr_t>(host_function)),
                 " is already registered as '", it->second.name, "'");
  }
  return absl::OkStatus();
}

absl::Status RegisterVar(void** handle, void* host_var, const char* name, size_t size) {
  if (host_var == nullptr || name == nullptr) {
    return Error(ErrorCode::kInvalidValue, "__hipRegisterVar: null variable or name");
  }
  Registry& registry = GetRegistry();
  MutexLock lock(&registry.mutex);
  Registration* registration = FindRegistration(registry, handle);
  if (registration == nullptr) {
    return Error(ErrorCode::kInvalidHandle, "__hipRegisterVar: not a registered fat binary");
  }
  auto [it, inserted] = registry.vars.try_emplace(host_var, VarEntry{registration, name, size});
  if (!inserted && (it->second.registration != registration || it->second.name != name)) {
    return Error(ErrorCode::kInvalidValue, "__hipRegisterVar: variable 0x",
                 absl::Hex(reinterpret_cast<uintptr_t>(host_var)), " is already registered as '",
                 it->second.name, "'");
  }
  return absl::OkStatus();
}

absl::Status RegisterManagedVar(void* handle, void** pointer, const void* init_value,
                                const char* name, size_t size, unsigned /*align*/) {
  if (pointer == nullptr || name == nullptr || size == 0) {
    return Error(ErrorCode::kInvalidValue,
                 "__hipRegisterManagedVar: null pointer or name, or size 0");
  }
  Registry& registry = GetRegistry();
  MutexLock lock(&registry.mutex);
  Registration* registration = FindRegistration(registry, handle);
  if (registration == nullptr) {
    return Error(ErrorCode::kInvalidHandle, "__hipRegisterManagedVar: not a registered fat binary");
  }
  registration->managed.push_back(ManagedVar{pointer, init_value, name, size, 0});
  return absl::OkStatus();
}

void UnregisterFatBinary(void** handle) {
  Registry& registry = GetRegistry();
  MutexLock lock(&registry.mutex);
  auto it = registry.registrations.begin();
  while (it != registry.registrations.end() && &(*it)->self != handle) ++it;
  if (it == registry.registrations.end()) {
    Log(LogLevel::kWarning, "__hipUnregisterFatBinary: not a registered fat binary");
    return;
  }
  Registration* registration = it->get();
  if (--registration->count > 0) return;
  absl::erase_if(registry.functions,
                 [&](const auto& entry) { return entry.second.registration == registration; });
  absl::erase_if(registry.vars,
                 [&](const auto& entry) { return entry.second.registration == registration; });
  for (const auto& [context, module] : registration->modules) {
    registry.orphaned_modules.push_back(module);
  }
  registry.registrations.erase(it);
}

bool IsRegisteredFunction(const void* host_function) {
  Registry& registry = GetRegistry();
  MutexLock lock(&registry.mutex);
  return registry.functions.contains(host_function);
}

absl::StatusOr<uint64_t> ResolveRegisteredFunction(const void* host_function) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  Registry& registry = GetRegistry();
  ReleaseOrphans(registry);
  Registration* registration = nullptr;
  std::string name;
  {
    MutexLock lock(&registry.mutex);
    auto it = registry.functions.find(host_function);
    if (it == registry.functions.end()) {
      return Error(ErrorCode::kInvalidDeviceFunction, "host function 0x",
                   absl::Hex(reinterpret_cast<uintptr_t>(host_function)),
                   " is not a registered kernel");
    }
    registration = it->second.registration;
    name = it->second.name;
  }
  SH_ASSIGN_OR_RETURN(Module * module, ModuleFor(registry, registration, context));
  Function* function = module->FindFunction(name);
  if (function == nullptr) {
    return Error(ErrorCode::kInvalidDeviceFunction, "the registered image has no kernel named '",
                 name, "'");
  }
  return function->handle();
}

absl::StatusOr<RegisteredVarAddress> ResolveRegisteredVar(const void* host_var) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  Registry& registry = GetRegistry();
  ReleaseOrphans(registry);
  VarEntry entry;
  {
    MutexLock lock(&registry.mutex);
    auto it = registry.vars.find(host_var);
    if (it == registry.vars.end()) {
      return Error(ErrorCode::kInvalidSymbol, "symbol 0x",
                   absl::Hex(reinterpret_cast<uintptr_t>(host_var)),
                   " is not a registered device variable");
    }
    entry = it->second;
  }
  SH_ASSIGN_OR_RETURN(Module * module, ModuleFor(registry, entry.registration, context));
  const Module::Global* global = module->FindGlobal(entry.name);
  if (global == nullptr) {
    return Error(ErrorCode::kInvalidSymbol, "the registered image has no global named '",
                 entry.name, "'");
  }
  if (global->size != entry.size) {
    return Error(ErrorCode::kInvalidSymbol, "variable '", entry.name, "' was registered with ",
                 entry.size, " bytes; the image declares ", global->size);
  }
  return RegisteredVarAddress{global->allocation->device_address() + global->offset, entry.size};
}

}  // namespace streamhal
