// Kernels and variables that a host program registers at start-up (the
// hipcc path: __hipRegisterFatBinary, __hipRegisterFunction,
// __hipRegisterVar, __hipRegisterManagedVar, __hipUnregisterFatBinary), and
// their lookup by host symbol (hipLaunchKernel, hipGetFuncBySymbol,
// hipGetSymbolAddress, ...).
//
// A registered image is any self-delimiting image ModuleLoadData accepts,
// reached through a HIP fat-binary wrapper. Registration only records
// pointers: nothing is parsed, initialised or allocated before main. The
// image is loaded into a context as an ordinary module the first time one of
// its symbols is used there (kernels are context-independent for the
// program), and that module is reloaded if the context destroys it (context
// destruction, primary context reset).
//
// Registering the same wrapper pointer again returns the same handle and
// counts: the image goes away at the matching number of unregistrations
// (each translation unit of one program may register it). Registering a host
// symbol that is already registered keeps the first registration.
#ifndef STREAMHAL_CORE_REGISTERED_CODE_H_
#define STREAMHAL_CORE_REGISTERED_CODE_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace streamhal {

// Returns the registration handle (never null; an unusable wrapper gives a
// handle whose symbols fail with kInvalidImage when used, as AMD reports a
// bad code object at first launch).
void** RegisterFatBinary(const void* wrapper);
// Binds `host_function` (the host stub's address) to kernel `name` of the
// image. Bad arguments are logged and ignored (the C entry point has no
// return value); the symbol then stays unregistered.
absl::Status RegisterFunction(void** handle, const void* host_function, const char* name);
// Binds `host_var` to module global `name`, `size` bytes. The size is
// checked against the image when the variable is first used: a mismatch
// makes that variable kInvalidSymbol and leaves the rest of the image usable.
absl::Status RegisterVar(void** handle, void* host_var, const char* name, size_t size);
// AMD's managed variable: `*pointer` receives a managed allocation of `size`
// bytes holding `size` bytes of `init_value`, made when the image is first
// used; the module global `name` (a 64-bit pointer), if the image has one,
// is set to it in every context the image is loaded into.
absl::Status RegisterManagedVar(void* handle, void** pointer, const void* init_value,
                                const char* name, size_t size, unsigned align);
// Drops one registration count; at zero, forgets the image's symbols; its
// modules in contexts that still exist are unloaded by the next registry
// call (never from here: this runs from static destructors at exit, when the
// Vulkan driver may be gone; at dlclose the next launch frees them).
void UnregisterFatBinary(void** handle);

// The kernel registered for `host_function`, loaded into the current
// context: a function handle. kInvalidDeviceFunction when `host_function`
// is not a registered stub.
absl::StatusOr<uint64_t> ResolveRegisteredFunction(const void* host_function);
// True when `host_function` is a registered stub (no loading).
bool IsRegisteredFunction(const void* host_function);

struct RegisteredVarAddress {
  uint64_t address = 0;
  size_t size = 0;
};
// The device address and size of the variable registered for `host_var` in
// the current context. kInvalidSymbol when it is not registered, not in the
// image, or registered with a size the image disagrees with.
absl::StatusOr<RegisteredVarAddress> ResolveRegisteredVar(const void* host_var);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_REGISTERED_CODE_H_
