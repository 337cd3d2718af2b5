// The bad-input sweep's view of one case: which entry point, which argument
// is bad and how, and the environment (a live context, module, function,
// stream, event, allocations, host buffers) that supplies every other
// argument a valid value.
//
// The generator (gen_sweep_cases.py) reads the Role and Variant enumerators
// below by name, so they are the one list both sides share: add a role here
// and teach Env to build it, then the generator and the hints may use it.
#ifndef STREAMHAL_APPS_STREAMHAL_SWEEP_SWEEP_ENV_H_
#define STREAMHAL_APPS_STREAMHAL_SWEEP_SWEEP_ENV_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace streamhal::sweep {

enum class Api : uint8_t { kCuda, kHip };

// What an argument is, which decides its valid value and its bad values.
enum class Role : uint8_t {
  kScalar,          // a plain number: valid value from the generator or 0; no bad values
  kOpaque,          // passed through untouched (userData): null
  kValue,           // a structure by value (CUipcEventHandle, dim3, hipExtent): value-initialised
  kOut,             // where a result is written: zeroed scratch
  kHostIn,          // host memory the call reads: zeroed 64 KiB buffer
  kHostOut,         // host memory the call writes: zeroed 64 KiB buffer
  kHostMem,         // host memory to page-lock: 4 KiB, unregistered, then an unmapped page
  kPinnedHost,      // memory from cuMemAllocHost / hipHostMalloc
  kRegisteredHost,  // host memory registered with cuMemHostRegister / hipHostRegister
  kDevPtr,          // base of a live 4 KiB device allocation
  kDevPtrB,         // base of a second one (the other side of a device copy)
  kManaged,         // base of a live 4 KiB managed allocation (cuMemAllocManaged)
  kDevice,          // a device (ordinal 0)
  kContext,
  kModule,
  kFunction,
  kStream,
  kEvent,
  kLinkState,
  kMemPool,
  kMemHandle,  // a physical allocation from cuMemCreate / hipMemCreate
  kGraph,
  kGraphNode,
  kGraphExec,
  kArray,
  kTexRef,
  kKernel,
  kLibrary,
  kTexObject,          // a texture object over a 16x1 array
  kSurfObject,         // a surface object over a 16x1 CUDA_ARRAY3D_SURFACE_LDST array
  kMipmappedArray,     // a 16x16 mipmapped array of 5 levels
  kExternalMemory,     // cuImportExternalMemory: needs another API's memory; not made here
  kExternalSemaphore,  // cuImportExternalSemaphore: not made here
  kSize,               // a byte size or count: 16
  kCopySize,           // a size bounded by the 4 KiB allocation it applies to: 16
  kLen,                // a buffer length (int): 256
  kEnum,               // an enumeration: valid value from the generator
  kFlags,              // a flag word: 0
  kGridDim,            // blocks in a launch: 1
  kBlockDim,           // threads in a block (or work-items): 1
  kSharedBytes,        // dynamic shared memory of a launch: 0
  kKernelName,         // the sweep kernel's name
  kGlobalName,         // the sweep module's global
  kTexName,            // a texture reference name
  kModulePath,         // a kernel file on disk
  kPciBusId,           // device 0's PCI bus id string
  kSymbolName,         // an entry point name ("cuInit" / "hipInit")
  kImage,              // a kernel image in memory (NUL-terminated GLSL)
  kFatBinary,          // a clang offload bundle with the sweep kernel
  kKernelParams,       // kernelParams of the sweep kernel
  kExtra,              // `extra` of a launch: null (kernelParams are given)
  kJitOptions,         // one JIT option id (max registers)
  kJitValues,          // its value
  kMemOps,             // a stream memory operation batch of one memory barrier
  kHostFn,             // a host function that does nothing
  kStreamCallback,
  kOccupancyFn,  // CUoccupancyB2DSize: null
};

// How the one bad argument of a case is bad.
enum class Variant : uint8_t {
  kValid,            // the baseline: every argument valid
  kNull,             // null pointer or handle, address 0
  kGarbage,          // a made-up handle or address (0x7654320)
  kDestroyed,        // an object (or allocation) created, then destroyed
  kWrongKind,        // a live object of another kind
  kValue,            // an explicit bad number (case.value): sizes, enums, flags, ordinals
  kPastEnd,          // a size one element past the allocation
  kEmptyString,      // ""
  kBogusString,      // a name or path that does not exist
  kDirectory,        // a directory where a file is expected
  kJunkImage,        // text that is no kernel image
  kElfNoSections,    // a complete ELF header with no sections, then an unreadable page
  kBundleNoEntries,  // a clang offload bundle with no entries, then an unreadable page
  kSpirvNoSize,      // a raw SPIR-V header in memory (no size is known), then an unreadable page
  kBadOptionId,      // a JIT option id no API defines
  kExtraWithParams,  // a well-formed `extra` although kernelParams are also given
  kMisaligned,       // the valid pointer plus one byte
};

// One case of the generated table.
struct CaseSpec {
  uint16_t function;  // index into Functions()
  int8_t param;       // the bad argument, -1 for the baseline
  Variant variant;
  uint64_t value;     // for Variant::kValue
  const char* label;  // "dstDevice=garbage"
};

class Env;
// Returns the raw result code (CUresult / hipError_t), or Env::kNotRun when
// the environment could not be built.
using CallFn = int (*)(Env&);

struct FunctionSpec {
  const char* name;
  Api api;
  CallFn call;
  const char* setup;  // extra preparation named by the hints ("" for none)
};

// Where the cases write kernel files (the runner makes it, one per run).
void SetWorkDir(const std::string& dir);

// The generated tables (sweep_cases.cc).
const std::vector<FunctionSpec>& Functions();
const std::vector<CaseSpec>& Cases();

// Builds arguments for one case in a fresh driver. One Env per case.
class Env {
 public:
  static constexpr int kNotRun = -1000000;
  static constexpr uint64_t kNoValid = ~uint64_t{0} - 0x5eed;

  Env(Api api, const CaseSpec& c, const char* setup);
  ~Env();
  Env(const Env&) = delete;
  Env& operator=(const Env&) = delete;

  // Initialises the driver and makes a context current, then runs the
  // function's setup. False (with error()) if that failed.
  bool Setup();
  // Synchronises and deinitialises the driver (after the call).
  void Teardown();

  // Arguments are built in two passes, every valid one first, so that an
  // object or allocation destroyed for the bad one is never handed out again
  // (an allocator may reuse a freed address).
  bool InPass(int index, int pass) const { return (index == case_.param) == (pass == 1); }

  template <typename T>
  T Arg(int index, Role role, uint64_t valid = kNoValid) {
    const uint64_t bits =
        index == case_.param ? BadBits(role, sizeof(T)) : ValidBits(index, role, valid);
    return FromBits<T>(bits, role);
  }

  // False when an argument could not be built (error() says why).
  bool ready() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  // Name of a result code of this API.
  std::string ResultName(int code) const;

 private:
  template <typename T>
  static T FromBits(uint64_t bits, Role role) {
    // A C++ enum cannot hold the out-of-range values the cases pass
    // (undefined behaviour), so enumeration arguments are built as ints and
    // reach the entry point through C (gen_sweep_cases.py).
    static_assert(!std::is_enum_v<T>, "enumeration arguments are ints here");
    if constexpr (std::is_pointer_v<T>) {
      return reinterpret_cast<T>(static_cast<uintptr_t>(bits));
    } else if constexpr (std::is_integral_v<T>) {
      // The low bytes, as a C caller passing any int would.
      T value;
      std::memcpy(&value, &bits, sizeof(T));
      return value;
    } else if constexpr (std::is_floating_point_v<T>) {
      return static_cast<T>(bits);
    } else {
      (void)role;
      return T{};
    }
  }

  uint64_t ValidBits(int index, Role role, uint64_t valid);
  uint64_t BadBits(Role role, size_t size);

  // Live objects (created on first use) and their destroyed twins.
  uint64_t Context();
  uint64_t Module();
  uint64_t Function();
  uint64_t Stream();
  uint64_t Event();
  uint64_t DevPtr(int slot);
  uint64_t Managed();
  uint64_t PinnedHost();
  uint64_t RegisteredHost();
  uint64_t HostMem();
  uint64_t Handle(Role role);
  uint64_t Destroyed(Role role);
  uint64_t WrongKind(Role role);
  uint64_t Scratch(int index, size_t bytes);
  uint64_t HostBuffer(int index);
  uint64_t ModulePath();
  uint64_t PciBusId();
  uint64_t FatBinary();
  uint64_t KernelParams();
  uint64_t Extra();
  uint64_t JitOptions(bool bad_id);
  uint64_t JitValues();
  uint64_t MemOps();
  // `bytes` copied to the end of a page that is followed by an unreadable
  // one, so that reading past them faults.
  uint64_t AtGuardPage(const void* bytes, size_t size);

  bool Check(int code, const char* what);
  void Fail(std::string message);

  const Api api_;
  const CaseSpec case_;
  const std::string setup_;
  std::string error_;
  bool initialized_ = false;

  uint64_t device_ = 0;
  uint64_t context_ = 0;
  uint64_t module_ = 0;
  uint64_t function_ = 0;
  uint64_t stream_ = 0;
  uint64_t event_ = 0;
  uint64_t devptr_[2] = {0, 0};
  uint64_t pinned_ = 0;
  uint64_t managed_ = 0;
  uint64_t registered_ = 0;
  uint64_t hostmem_ = 0;
  uint64_t kernel_params_ = 0;
  uint32_t kernel_n_ = 4;
  uint64_t kernel_data_ = 0;
  std::vector<std::vector<unsigned char>> buffers_;
  std::vector<std::pair<void*, size_t>> mappings_;
  std::vector<std::string> strings_;
  std::vector<std::string> files_;
};

}  // namespace streamhal::sweep

#endif  // STREAMHAL_APPS_STREAMHAL_SWEEP_SWEEP_ENV_H_
