// Handles: every API handle (CUcontext, hipStream_t, ...) is an opaque value
// that names a slot of a global table, the kind of object and a generation.
// A null, destroyed, foreign or wrong-kind handle is detected from the value
// alone and never dereferenced.
#ifndef STREAMHAL_CORE_HANDLE_H_
#define STREAMHAL_CORE_HANDLE_H_

#include <cstdint>

namespace streamhal {

enum class ObjectKind : uint8_t {
  kNone = 0,
  kContext = 1,
  kModule,
  kFunction,
  kStream,
  kEvent,
  kGraph,
  kGraphNode,
  kGraphExec,
  kMemPool,
  kLinkState,
  kArray,
  kTexRef,
  kMemHandle,       // cuMemCreate
  kLibrary,         // cuLibraryLoadData
  kKernel,          // a kernel of a library
  kTexObject,       // CUtexObject, hipTextureObject_t
  kSurfObject,      // CUsurfObject, hipSurfaceObject_t
  kExternalMemory,  // cuImportExternalMemory
  kSurfRef,         // CUsurfref (cuModuleGetSurfRef)
  kMipmappedArray,  // CUmipmappedArray, hipMipmappedArray_t
};

// Why a lookup failed.
enum class HandleState {
  kLive,
  kNull,       // the value 0
  kDestroyed,  // once issued for this kind, since destroyed
  kInvalid,    // never issued, or of another kind
};

// Base of every object an API handle can name. Construction registers the
// object and gives it a handle; destruction retires the handle so that every
// later lookup reports kDestroyed.
class Object {
 public:
  explicit Object(ObjectKind kind);
  virtual ~Object();
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;

  ObjectKind kind() const { return kind_; }
  uint64_t handle() const { return handle_; }
  // Unique among all objects of the process, never reused (cuCtxGetId,
  // cuStreamGetId): handles are reused once their slot's generation wraps.
  uint64_t unique_id() const { return unique_id_; }

 private:
  const ObjectKind kind_;
  const uint64_t handle_;
  const uint64_t unique_id_;
};

// Resolves `handle` to a live object of `kind`, or null with the reason in
// `*state` (if given). Lock-free; concurrent destruction of the same object
// while it is being used is a caller error, as in CUDA.
Object* LookupHandle(uint64_t handle, ObjectKind kind, HandleState* state = nullptr);

template <typename T>
T* LookupAs(uint64_t handle, HandleState* state = nullptr) {
  return static_cast<T*>(LookupHandle(handle, T::kKind, state));
}

// Why a lookup found no live object, as the end of an error message:
// " is null", `destroyed` for a destroyed one, `wrong_kind` otherwise.
const char* HandleProblem(HandleState state, const char* wrong_kind,
                          const char* destroyed = " was destroyed");

// Bumped whenever device memory is freed or a module is unloaded. Objects
// that keep resolved pointers or kernels past the call that named them
// (instantiated graphs) resolve them again when it has changed, so a freed
// buffer is never used and the common path costs one atomic load.
uint64_t ResourceGeneration();
void BumpResourceGeneration();

// Converts between API handle types (pointers) and handle values.
template <typename ApiHandle>
uint64_t HandleValue(ApiHandle api_handle) {
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(api_handle));
}
template <typename ApiHandle>
ApiHandle ToApiHandle(uint64_t value) {
  return reinterpret_cast<ApiHandle>(static_cast<uintptr_t>(value));
}

// Where an entry point writes a handle it returns (CUcontext*, hipStream_t*,
// ...). Every API handle type is pointer-sized, so core can validate and fill
// the caller's slot without knowing the binding's type.
class HandleOut {
 public:
  template <typename ApiHandle>
  explicit HandleOut(ApiHandle* slot) : slot_(slot) {
    static_assert(sizeof(ApiHandle) == sizeof(uintptr_t), "API handles are pointer-sized");
  }
  bool is_null() const { return slot_ == nullptr; }
  void Set(uint64_t value) const {
    const uintptr_t bits = static_cast<uintptr_t>(value);
    __builtin_memcpy(slot_, &bits, sizeof(bits));
  }

 private:
  void* slot_;
};

// Number of live objects of every kind; used by tests to prove that
// destruction releases what it should.
uint64_t LiveObjectCount();

}  // namespace streamhal

#endif  // STREAMHAL_CORE_HANDLE_H_
