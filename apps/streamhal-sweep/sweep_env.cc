#include "sweep_env.h"

#include <cuda.h>
#include <hip/hip_runtime_api.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <utility>

#include "core/code_object.h"
#include "core/glsl_compiler.h"
#include "result_names.h"

namespace streamhal::sweep {
namespace {

// The sweep kernel: one pointer and one count as parameters, one global.
constexpr char kKernelName[] = "sweep_kernel";
constexpr char kGlobalName[] = "sweep_global";
constexpr char kKernelGlsl[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
#define STREAMHAL_KERNEL_NAME sweep_kernel

STREAMHAL_DECLARE_PTR(uint);
layout(set = 0, binding = 0, std430) buffer streamhal_globals {
  uint sweep_global;
} g;
layout(push_constant) uniform Params {
  uint_ptr data;
  uint n;
} p;

void main() {
  const uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.data.v[i] = g.sweep_global + i;
}
)";

constexpr uint64_t kGarbage = 0x7654320;
// Stands in for an object the API cannot create yet (its functions are
// stubs that read nothing).
constexpr uint64_t kPlaceholder = 0x5eed000;
constexpr size_t kAllocationBytes = 4096;
constexpr size_t kHostBytes = 64 * 1024;
constexpr size_t kScratchBytes = 8192;
constexpr uint64_t kValidSize = 16;
constexpr uint64_t kValidLen = 256;

std::string g_work_dir;

template <typename T>
uint64_t Bits(T handle) {
  if constexpr (std::is_pointer_v<T>) {
    return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(handle));
  } else {
    return static_cast<uint64_t>(handle);
  }
}

template <typename T>
T As(uint64_t bits) {
  if constexpr (std::is_pointer_v<T>) {
    return reinterpret_cast<T>(static_cast<uintptr_t>(bits));
  } else {
    return static_cast<T>(bits);
  }
}

const char* RoleName(Role role) {
  switch (role) {
    case Role::kContext: return "context";
    case Role::kModule: return "module";
    case Role::kFunction: return "function";
    case Role::kStream: return "stream";
    case Role::kEvent: return "event";
    case Role::kLinkState: return "link state";
    case Role::kMemPool: return "memory pool";
    case Role::kMemHandle:
      return "physical allocation";
    case Role::kGraph: return "graph";
    case Role::kGraphNode: return "graph node";
    case Role::kGraphExec: return "graph exec";
    case Role::kArray: return "array";
    case Role::kMipmappedArray:
      return "mipmapped array";
    case Role::kTexRef: return "texture reference";
    case Role::kExternalMemory:
      return "external memory";
    case Role::kExternalSemaphore:
      return "external semaphore";
    case Role::kTexObject:
      return "texture object";
    case Role::kSurfObject:
      return "surface object";
    case Role::kKernel: return "kernel";
    case Role::kLibrary:
      return "library";
    default: return "object";
  }
}

}  // namespace

void SetWorkDir(const std::string& dir) { g_work_dir = dir; }

Env::Env(Api api, const CaseSpec& c, const char* setup) : api_(api), case_(c), setup_(setup) {}

Env::~Env() {
  for (auto& [address, bytes] : mappings_) munmap(address, bytes);
  for (const std::string& file : files_) unlink(file.c_str());
}

bool Env::Check(int code, const char* what) {
  if (code == 0) return true;
  Fail(std::string(what) + " failed: " + ResultName(code));
  return false;
}

void Env::Fail(std::string message) {
  if (error_.empty()) error_ = std::move(message);
}

std::string Env::ResultName(int code) const {
  // Through C: the code is any int, which a C++ CUresult may not hold.
  const char* name = api_ == Api::kCuda ? SweepCudaErrorName(code) : SweepHipErrorName(code);
  std::string text = name ? name : "";
  if (text.empty() || text.find("nknown") != std::string::npos) {
    text += "(" + std::to_string(code) + ")";
  }
  return text;
}

bool Env::Setup() {
  if (api_ == Api::kCuda) {
    CUdevice device = 0;
    CUcontext context = nullptr;
    if (!Check(cuInit(0), "cuInit") || !Check(cuDeviceGet(&device, 0), "cuDeviceGet") ||
        !Check(cuCtxCreate(&context, 0, device), "cuCtxCreate")) {
      return false;
    }
    initialized_ = true;
    device_ = Bits(device);
    context_ = Bits(context);
  } else {
    hipDevice_t device = 0;
    hipCtx_t context = nullptr;
    // A context of its own, as for CUDA, so that the context calls
    // (destroy, detach) have one they may act on.
    if (!Check(hipInit(0), "hipInit") || !Check(hipDeviceGet(&device, 0), "hipDeviceGet") ||
        !Check(hipCtxCreate(&context, 0, device), "hipCtxCreate")) {
      return false;
    }
    initialized_ = true;
    device_ = Bits(device);
    context_ = Bits(context);
  }
  if (setup_.empty()) return true;
  if (setup_ == "retain_primary") {
    if (api_ == Api::kCuda) {
      CUcontext primary = nullptr;
      return Check(cuDevicePrimaryCtxRetain(&primary, As<CUdevice>(device_)),
                   "cuDevicePrimaryCtxRetain");
    }
    hipCtx_t primary = nullptr;
    return Check(hipDevicePrimaryCtxRetain(&primary, As<hipDevice_t>(device_)),
                 "hipDevicePrimaryCtxRetain");
  }
  if (setup_ == "attach") {
    // One more usage count on the current context, so that detaching it
    // does not destroy it.
    if (api_ == Api::kCuda) {
      CUcontext attached = nullptr;
      return Check(cuCtxAttach(&attached, 0), "cuCtxAttach");
    }
    return true;
  }
  if (setup_ == "peer_context") {
    // A second context, so that peer access has a peer to name.
    Handle(Role::kContext);
    return ready();
  }
  Fail("unknown setup '" + setup_ + "' in sweep_hints.tsv");
  return false;
}

void Env::Teardown() {
  if (!initialized_) return;
  if (api_ == Api::kCuda) {
    (void)cuCtxSynchronize();
    (void)cuHALDeinit();
  } else {
    (void)hipDeviceSynchronize();
    (void)hipHALDeinit();
  }
  initialized_ = false;
}

// --- Buffers ----------------------------------------------------------------

uint64_t Env::Scratch(int index, size_t bytes) {
  (void)index;
  buffers_.emplace_back(bytes, 0);
  return Bits(buffers_.back().data());
}

uint64_t Env::HostBuffer(int index) { return Scratch(index, kHostBytes); }

uint64_t Env::AtGuardPage(const void* bytes, size_t size) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* mapping = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                       -1, 0);
  if (mapping == MAP_FAILED) {
    Fail("mmap failed");
    return 0;
  }
  mappings_.emplace_back(mapping, 2 * page);
  auto* base = static_cast<unsigned char*>(mapping);
  mprotect(base + page, page, PROT_NONE);
  std::memcpy(base + page - size, bytes, size);
  return Bits(base + page - size);
}

// 4 KiB of pageable host memory that ends where an unmapped page begins, so
// a size past its end names memory that does not exist.
uint64_t Env::HostMem() {
  if (hostmem_ != 0) return hostmem_;
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t bytes = (kAllocationBytes + page - 1) / page * page;
  void* mapping =
      mmap(nullptr, bytes + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) {
    Fail("mmap failed");
    return 0;
  }
  auto* base = static_cast<unsigned char*>(mapping);
  munmap(base + bytes, page);
  mappings_.emplace_back(mapping, bytes);
  hostmem_ = Bits(base + bytes - kAllocationBytes);
  return hostmem_;
}

// --- Live objects -------------------------------------------------------------

uint64_t Env::Context() { return context_; }

uint64_t Env::Module() {
  if (module_ != 0) return module_;
  if (api_ == Api::kCuda) {
    CUmodule module = nullptr;
    if (Check(cuModuleLoadData(&module, kKernelGlsl), "cuModuleLoadData")) module_ = Bits(module);
  } else {
    hipModule_t module = nullptr;
    if (Check(hipModuleLoadData(&module, kKernelGlsl), "hipModuleLoadData")) {
      module_ = Bits(module);
    }
  }
  return module_;
}

uint64_t Env::Function() {
  if (function_ != 0) return function_;
  const uint64_t module = Module();
  if (module == 0) return 0;
  if (api_ == Api::kCuda) {
    CUfunction function = nullptr;
    if (Check(cuModuleGetFunction(&function, As<CUmodule>(module), kKernelName),
              "cuModuleGetFunction")) {
      function_ = Bits(function);
    }
  } else {
    hipFunction_t function = nullptr;
    if (Check(hipModuleGetFunction(&function, As<hipModule_t>(module), kKernelName),
              "hipModuleGetFunction")) {
      function_ = Bits(function);
    }
  }
  return function_;
}

uint64_t Env::Stream() {
  if (stream_ != 0) return stream_;
  if (api_ == Api::kCuda) {
    CUstream stream = nullptr;
    if (Check(cuStreamCreate(&stream, CU_STREAM_DEFAULT), "cuStreamCreate")) {
      stream_ = Bits(stream);
    }
  } else {
    hipStream_t stream = nullptr;
    if (Check(hipStreamCreate(&stream), "hipStreamCreate")) stream_ = Bits(stream);
  }
  return stream_;
}

// A recorded and completed event, so that queries, waits and elapsed-time
// calls are valid with it.
uint64_t Env::Event() {
  if (event_ != 0) return event_;
  const uint64_t stream = Stream();
  if (stream == 0) return 0;
  if (api_ == Api::kCuda) {
    CUevent event = nullptr;
    if (Check(cuEventCreate(&event, CU_EVENT_DEFAULT), "cuEventCreate") &&
        Check(cuEventRecord(event, As<CUstream>(stream)), "cuEventRecord") &&
        Check(cuEventSynchronize(event), "cuEventSynchronize")) {
      event_ = Bits(event);
    }
  } else {
    hipEvent_t event = nullptr;
    if (Check(hipEventCreate(&event), "hipEventCreate") &&
        Check(hipEventRecord(event, As<hipStream_t>(stream)), "hipEventRecord") &&
        Check(hipEventSynchronize(event), "hipEventSynchronize")) {
      event_ = Bits(event);
    }
  }
  return event_;
}

uint64_t Env::DevPtr(int slot) {
  if (devptr_[slot] != 0) return devptr_[slot];
  if (api_ == Api::kCuda) {
    CUdeviceptr pointer = 0;
    if (Check(cuMemAlloc(&pointer, kAllocationBytes), "cuMemAlloc") &&
        Check(cuMemsetD8(pointer, 0, kAllocationBytes), "cuMemsetD8")) {
      devptr_[slot] = pointer;
    }
  } else {
    void* pointer = nullptr;
    if (Check(hipMalloc(&pointer, kAllocationBytes), "hipMalloc") &&
        Check(hipMemset(pointer, 0, kAllocationBytes), "hipMemset")) {
      devptr_[slot] = Bits(pointer);
    }
  }
  return devptr_[slot];
}

uint64_t Env::Managed() {
  if (managed_ != 0) return managed_;
  if (api_ == Api::kCuda) {
    CUdeviceptr pointer = 0;
    if (Check(cuMemAllocManaged(&pointer, kAllocationBytes, CU_MEM_ATTACH_GLOBAL),
              "cuMemAllocManaged")) {
      managed_ = pointer;
    }
  } else {
    void* pointer = nullptr;
    if (Check(hipMallocManaged(&pointer, kAllocationBytes, hipMemAttachGlobal),
              "hipMallocManaged")) {
      managed_ = Bits(pointer);
    }
  }
  return managed_;
}

uint64_t Env::PinnedHost() {
  if (pinned_ != 0) return pinned_;
  void* pointer = nullptr;
  if (api_ == Api::kCuda) {
    if (Check(cuMemAllocHost(&pointer, kAllocationBytes), "cuMemAllocHost")) pinned_ = Bits(pointer);
  } else {
    if (Check(hipHostMalloc(&pointer, kAllocationBytes, 0), "hipHostMalloc")) {
      pinned_ = Bits(pointer);
    }
  }
  return pinned_;
}

uint64_t Env::RegisteredHost() {
  if (registered_ != 0) return registered_;
  void* mapping =
      mmap(nullptr, kHostBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) {
    Fail("mmap failed");
    return 0;
  }
  mappings_.emplace_back(mapping, kHostBytes);
  if (api_ == Api::kCuda) {
    if (Check(cuMemHostRegister(mapping, kHostBytes, 0), "cuMemHostRegister")) {
      registered_ = Bits(mapping);
    }
  } else {
    if (Check(hipHostRegister(mapping, kHostBytes, 0), "hipHostRegister")) {
      registered_ = Bits(mapping);
    }
  }
  return registered_;
}

// Objects whose API may still be unimplemented: a real one when the API can
// make it, else a placeholder (the functions taking it are then stubs).
uint64_t Env::Handle(Role role) {
  const bool cuda = api_ == Api::kCuda;
  switch (role) {
    case Role::kContext: return Context();
    case Role::kModule: return Module();
    case Role::kFunction: return Function();
    case Role::kStream: return Stream();
    case Role::kEvent: return Event();
    case Role::kGraph: {
      if (cuda) {
        CUgraph graph = nullptr;
        return cuGraphCreate(&graph, 0) == CUDA_SUCCESS ? Bits(graph) : kPlaceholder;
      }
      hipGraph_t graph = nullptr;
      return hipGraphCreate(&graph, 0) == hipSuccess ? Bits(graph) : kPlaceholder;
    }
    case Role::kGraphNode: {
      const uint64_t graph = Handle(Role::kGraph);
      if (graph == kPlaceholder) return kPlaceholder;
      if (cuda) {
        CUgraphNode node = nullptr;
        return cuGraphAddEmptyNode(&node, As<CUgraph>(graph), nullptr, 0) == CUDA_SUCCESS
                   ? Bits(node)
                   : kPlaceholder;
      }
      hipGraphNode_t node = nullptr;
      return hipGraphAddEmptyNode(&node, As<hipGraph_t>(graph), nullptr, 0) == hipSuccess
                 ? Bits(node)
                 : kPlaceholder;
    }
    case Role::kGraphExec: {
      const uint64_t graph = Handle(Role::kGraph);
      if (graph == kPlaceholder) return kPlaceholder;
      if (cuda) {
        CUgraphExec exec = nullptr;
        return cuGraphInstantiate(&exec, As<CUgraph>(graph), 0) == CUDA_SUCCESS ? Bits(exec)
                                                                                 : kPlaceholder;
      }
      hipGraphExec_t exec = nullptr;
      return hipGraphInstantiate(&exec, As<hipGraph_t>(graph), nullptr, nullptr, 0) == hipSuccess
                 ? Bits(exec)
                 : kPlaceholder;
    }
    case Role::kMemPool: {
      if (cuda) {
        CUmemPoolProps props{};
        props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
        props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        CUmemoryPool pool = nullptr;
        return cuMemPoolCreate(&pool, &props) == CUDA_SUCCESS ? Bits(pool) : kPlaceholder;
      }
      hipMemPoolProps props{};
      props.allocType = hipMemAllocationTypePinned;
      props.location.type = hipMemLocationTypeDevice;
      hipMemPool_t pool = nullptr;
      return hipMemPoolCreate(&pool, &props) == hipSuccess ? Bits(pool) : kPlaceholder;
    }
    case Role::kMemHandle: {
      const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
      if (cuda) {
        CUmemAllocationProp prop{};
        prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
        prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        CUmemGenericAllocationHandle handle = 0;
        return cuMemCreate(&handle, page, &prop, 0) == CUDA_SUCCESS ? Bits(handle) : kPlaceholder;
      }
      hipMemAllocationProp prop{};
      prop.type = hipMemAllocationTypePinned;
      prop.location.type = hipMemLocationTypeDevice;
      hipMemGenericAllocationHandle_t handle = nullptr;
      return hipMemCreate(&handle, page, &prop, 0) == hipSuccess ? Bits(handle) : kPlaceholder;
    }
    case Role::kLinkState: {
      if (cuda) {
        CUlinkState state = nullptr;
        return cuLinkCreate(0, nullptr, nullptr, &state) == CUDA_SUCCESS ? Bits(state)
                                                                           : kPlaceholder;
      }
      hipLinkState_t state = nullptr;
      return hipLinkCreate(0, nullptr, nullptr, &state) == hipSuccess ? Bits(state)
                                                                        : kPlaceholder;
    }
    case Role::kLibrary:
    case Role::kKernel: {
      if (!cuda) return kPlaceholder;  // CUDA only
      CUlibrary library = nullptr;
      CUkernel kernel = nullptr;
      if (!Check(cuLibraryLoadData(&library, kKernelGlsl, nullptr, nullptr, 0, nullptr, nullptr, 0),
                 "cuLibraryLoadData") ||
          !Check(cuLibraryGetKernel(&kernel, library, kKernelName), "cuLibraryGetKernel")) {
        return 0;
      }
      return role == Role::kLibrary ? Bits(library) : Bits(kernel);
    }
    case Role::kArray: {
      if (cuda) {
        CUDA_ARRAY_DESCRIPTOR desc{};
        desc.Width = 16;
        desc.Height = 1;
        desc.Format = CU_AD_FORMAT_UNSIGNED_INT8;
        desc.NumChannels = 1;
        CUarray array = nullptr;
        return cuArrayCreate(&array, &desc) == CUDA_SUCCESS ? Bits(array) : kPlaceholder;
      }
      HIP_ARRAY_DESCRIPTOR desc{};
      desc.Width = 16;
      desc.Height = 1;
      desc.Format = HIP_AD_FORMAT_UNSIGNED_INT8;
      desc.NumChannels = 1;
      hipArray_t array = nullptr;
      return hipArrayCreate(&array, &desc) == hipSuccess ? Bits(array) : kPlaceholder;
    }
    case Role::kMipmappedArray: {
      if (cuda) {
        CUDA_ARRAY3D_DESCRIPTOR desc{};
        desc.Width = 16;
        desc.Height = 16;
        desc.Format = CU_AD_FORMAT_FLOAT;
        desc.NumChannels = 1;
        CUmipmappedArray mipmapped = nullptr;
        return cuMipmappedArrayCreate(&mipmapped, &desc, 5) == CUDA_SUCCESS ? Bits(mipmapped)
                                                                            : kPlaceholder;
      }
      HIP_ARRAY3D_DESCRIPTOR desc{};
      desc.Width = 16;
      desc.Height = 16;
      desc.Format = HIP_AD_FORMAT_FLOAT;
      desc.NumChannels = 1;
      hipMipmappedArray_t mipmapped = nullptr;
      return hipMipmappedArrayCreate(&mipmapped, &desc, 5) == hipSuccess ? Bits(mipmapped)
                                                                         : kPlaceholder;
    }
    case Role::kTexObject:
    case Role::kSurfObject: {
      const bool surface = role == Role::kSurfObject;
      if (cuda) {
        CUDA_ARRAY3D_DESCRIPTOR desc{};
        desc.Width = 16;
        desc.Height = 1;
        desc.Format = CU_AD_FORMAT_FLOAT;
        desc.NumChannels = 1;
        desc.Flags = surface ? CUDA_ARRAY3D_SURFACE_LDST : 0;
        CUarray array = nullptr;
        if (cuArray3DCreate(&array, &desc) != CUDA_SUCCESS) return kPlaceholder;
        CUDA_RESOURCE_DESC resource{};
        resource.resType = CU_RESOURCE_TYPE_ARRAY;
        resource.res.array.hArray = array;
        if (surface) {
          CUsurfObject object = 0;
          return cuSurfObjectCreate(&object, &resource) == CUDA_SUCCESS ? object : kPlaceholder;
        }
        CUDA_TEXTURE_DESC texture{};
        CUtexObject object = 0;
        return cuTexObjectCreate(&object, &resource, &texture, nullptr) == CUDA_SUCCESS
                   ? object
                   : kPlaceholder;
      }
      HIP_ARRAY3D_DESCRIPTOR desc{};
      desc.Width = 16;
      desc.Height = 1;
      desc.Format = HIP_AD_FORMAT_FLOAT;
      desc.NumChannels = 1;
      desc.Flags = surface ? hipArraySurfaceLoadStore : 0;
      hipArray_t array = nullptr;
      if (hipArray3DCreate(&array, &desc) != hipSuccess) return kPlaceholder;
      hipResourceDesc resource{};
      resource.resType = hipResourceTypeArray;
      resource.res.array.array = array;
      if (surface) {
        hipSurfaceObject_t object = nullptr;
        return hipCreateSurfaceObject(&object, &resource) == hipSuccess ? Bits(object)
                                                                        : kPlaceholder;
      }
      hipTextureDesc texture{};
      hipTextureObject_t object = nullptr;
      return hipCreateTextureObject(&object, &resource, &texture, nullptr) == hipSuccess
                 ? Bits(object)
                 : kPlaceholder;
    }
    case Role::kTexRef: {
      // CUDA: a reference of its own (cuTexRefCreate). HIP's are pointers
      // into module references, and the sweep's module declares none.
      if (!cuda) return kPlaceholder;
      CUtexref ref = nullptr;
      return cuTexRefCreate(&ref) == CUDA_SUCCESS ? Bits(ref) : kPlaceholder;
    }
    default:
      // CUkernel: no module of ours has one. External memory and semaphores
      // come from another API (a Vulkan device of the program's own), which
      // the sweep does not run.
      return kPlaceholder;
  }
}

// --- Destroyed and wrong-kind objects -------------------------------------------

uint64_t Env::Destroyed(Role role) {
  const bool cuda = api_ == Api::kCuda;
  switch (role) {
    case Role::kContext: {
      // Creating pushes the new context; destroying the current context pops
      // it (CUDA), so the sweep's context is current again. Make sure.
      if (cuda) {
        CUcontext context = nullptr;
        if (!Check(cuCtxCreate(&context, 0, As<CUdevice>(device_)), "cuCtxCreate") ||
            !Check(cuCtxDestroy(context), "cuCtxDestroy") ||
            !Check(cuCtxSetCurrent(As<CUcontext>(context_)), "cuCtxSetCurrent")) {
          return 0;
        }
        return Bits(context);
      }
      hipCtx_t context = nullptr;
      if (!Check(hipCtxCreate(&context, 0, As<hipDevice_t>(device_)), "hipCtxCreate") ||
          !Check(hipCtxDestroy(context), "hipCtxDestroy") ||
          !Check(hipCtxSetCurrent(As<hipCtx_t>(context_)), "hipCtxSetCurrent")) {
        return 0;
      }
      return Bits(context);
    }
    case Role::kModule:
    case Role::kFunction: {
      if (cuda) {
        CUmodule module = nullptr;
        CUfunction function = nullptr;
        if (!Check(cuModuleLoadData(&module, kKernelGlsl), "cuModuleLoadData") ||
            !Check(cuModuleGetFunction(&function, module, kKernelName), "cuModuleGetFunction") ||
            !Check(cuModuleUnload(module), "cuModuleUnload")) {
          return 0;
        }
        return role == Role::kModule ? Bits(module) : Bits(function);
      }
      hipModule_t module = nullptr;
      hipFunction_t function = nullptr;
      if (!Check(hipModuleLoadData(&module, kKernelGlsl), "hipModuleLoadData") ||
          !Check(hipModuleGetFunction(&function, module, kKernelName), "hipModuleGetFunction") ||
          !Check(hipModuleUnload(module), "hipModuleUnload")) {
        return 0;
      }
      return role == Role::kModule ? Bits(module) : Bits(function);
    }
    case Role::kStream: {
      if (cuda) {
        CUstream stream = nullptr;
        if (!Check(cuStreamCreate(&stream, 0), "cuStreamCreate") ||
            !Check(cuStreamDestroy(stream), "cuStreamDestroy")) {
          return 0;
        }
        return Bits(stream);
      }
      hipStream_t stream = nullptr;
      if (!Check(hipStreamCreate(&stream), "hipStreamCreate") ||
          !Check(hipStreamDestroy(stream), "hipStreamDestroy")) {
        return 0;
      }
      return Bits(stream);
    }
    case Role::kEvent: {
      if (cuda) {
        CUevent event = nullptr;
        if (!Check(cuEventCreate(&event, 0), "cuEventCreate") ||
            !Check(cuEventDestroy(event), "cuEventDestroy")) {
          return 0;
        }
        return Bits(event);
      }
      hipEvent_t event = nullptr;
      if (!Check(hipEventCreate(&event), "hipEventCreate") ||
          !Check(hipEventDestroy(event), "hipEventDestroy")) {
        return 0;
      }
      return Bits(event);
    }
    case Role::kManaged: {
      if (cuda) {
        CUdeviceptr pointer = 0;
        if (!Check(cuMemAllocManaged(&pointer, kAllocationBytes, CU_MEM_ATTACH_GLOBAL),
                   "cuMemAllocManaged") ||
            !Check(cuMemFree(pointer), "cuMemFree")) {
          return 0;
        }
        return pointer;
      }
      void* pointer = nullptr;
      if (!Check(hipMallocManaged(&pointer, kAllocationBytes, hipMemAttachGlobal),
                 "hipMallocManaged") ||
          !Check(hipFree(pointer), "hipFree")) {
        return 0;
      }
      return Bits(pointer);
    }
    case Role::kDevPtr:
    case Role::kDevPtrB: {
      if (cuda) {
        CUdeviceptr pointer = 0;
        if (!Check(cuMemAlloc(&pointer, kAllocationBytes), "cuMemAlloc") ||
            !Check(cuMemFree(pointer), "cuMemFree")) {
          return 0;
        }
        return pointer;
      }
      void* pointer = nullptr;
      if (!Check(hipMalloc(&pointer, kAllocationBytes), "hipMalloc") ||
          !Check(hipFree(pointer), "hipFree")) {
        return 0;
      }
      return Bits(pointer);
    }
    case Role::kPinnedHost: {
      void* pointer = nullptr;
      if (cuda) {
        if (!Check(cuMemAllocHost(&pointer, kAllocationBytes), "cuMemAllocHost") ||
            !Check(cuMemFreeHost(pointer), "cuMemFreeHost")) {
          return 0;
        }
        return Bits(pointer);
      }
      if (!Check(hipHostMalloc(&pointer, kAllocationBytes, 0), "hipHostMalloc") ||
          !Check(hipHostFree(pointer), "hipHostFree")) {
        return 0;
      }
      return Bits(pointer);
    }
    case Role::kRegisteredHost: {
      // Registered, then unregistered; the memory itself stays mapped.
      const uint64_t pointer = RegisteredHost();
      if (pointer == 0) return 0;
      registered_ = 0;
      if (cuda) {
        return Check(cuMemHostUnregister(As<void*>(pointer)), "cuMemHostUnregister") ? pointer : 0;
      }
      return Check(hipHostUnregister(As<void*>(pointer)), "hipHostUnregister") ? pointer : 0;
    }
    case Role::kGraph:
    case Role::kGraphNode: {
      // A node dies with its graph.
      const uint64_t graph = Handle(Role::kGraph);
      if (graph == kPlaceholder) break;
      uint64_t node = 0;
      if (cuda) {
        CUgraphNode n = nullptr;
        if (role == Role::kGraphNode &&
            cuGraphAddEmptyNode(&n, As<CUgraph>(graph), nullptr, 0) != CUDA_SUCCESS) {
          break;
        }
        node = Bits(n);
        if (cuGraphDestroy(As<CUgraph>(graph)) != CUDA_SUCCESS) break;
      } else {
        hipGraphNode_t n = nullptr;
        if (role == Role::kGraphNode &&
            hipGraphAddEmptyNode(&n, As<hipGraph_t>(graph), nullptr, 0) != hipSuccess) {
          break;
        }
        node = Bits(n);
        if (hipGraphDestroy(As<hipGraph_t>(graph)) != hipSuccess) break;
      }
      return role == Role::kGraph ? graph : node;
    }
    case Role::kGraphExec: {
      const uint64_t exec = Handle(role);
      if (exec == kPlaceholder) break;
      if (cuda ? cuGraphExecDestroy(As<CUgraphExec>(exec)) == CUDA_SUCCESS
               : hipGraphExecDestroy(As<hipGraphExec_t>(exec)) == hipSuccess) {
        return exec;
      }
      break;
    }
    case Role::kMemPool: {
      const uint64_t pool = Handle(role);
      if (pool == kPlaceholder) break;
      if (cuda ? cuMemPoolDestroy(As<CUmemoryPool>(pool)) == CUDA_SUCCESS
               : hipMemPoolDestroy(As<hipMemPool_t>(pool)) == hipSuccess) {
        return pool;
      }
      break;
    }
    case Role::kMemHandle: {
      const uint64_t handle = Handle(role);
      if (handle == kPlaceholder) break;
      if (cuda ? cuMemRelease(As<CUmemGenericAllocationHandle>(handle)) == CUDA_SUCCESS
               : hipMemRelease(As<hipMemGenericAllocationHandle_t>(handle)) == hipSuccess) {
        return handle;
      }
      break;
    }
    case Role::kLinkState: {
      const uint64_t state = Handle(role);
      if (state == kPlaceholder) break;
      if (cuda ? cuLinkDestroy(As<CUlinkState>(state)) == CUDA_SUCCESS
               : hipLinkDestroy(As<hipLinkState_t>(state)) == hipSuccess) {
        return state;
      }
      break;
    }
    case Role::kLibrary:
    case Role::kKernel: {
      if (!cuda) break;
      CUlibrary library = nullptr;
      CUkernel kernel = nullptr;
      if (!Check(cuLibraryLoadData(&library, kKernelGlsl, nullptr, nullptr, 0, nullptr, nullptr, 0),
                 "cuLibraryLoadData") ||
          !Check(cuLibraryGetKernel(&kernel, library, kKernelName), "cuLibraryGetKernel") ||
          !Check(cuLibraryUnload(library), "cuLibraryUnload")) {
        return 0;
      }
      return role == Role::kLibrary ? Bits(library) : Bits(kernel);
    }
    case Role::kArray: {
      const uint64_t array = Handle(role);
      if (array == kPlaceholder) break;
      if (cuda ? cuArrayDestroy(As<CUarray>(array)) == CUDA_SUCCESS
               : hipArrayDestroy(As<hipArray_t>(array)) == hipSuccess) {
        return array;
      }
      break;
    }
    case Role::kTexRef: {
      const uint64_t ref = Handle(role);
      if (ref == kPlaceholder || !cuda) break;
      if (cuTexRefDestroy(As<CUtexref>(ref)) == CUDA_SUCCESS) return ref;
      break;
    }
    case Role::kMipmappedArray: {
      const uint64_t mipmapped = Handle(role);
      if (mipmapped == kPlaceholder) break;
      if (cuda ? cuMipmappedArrayDestroy(As<CUmipmappedArray>(mipmapped)) == CUDA_SUCCESS
               : hipMipmappedArrayDestroy(As<hipMipmappedArray_t>(mipmapped)) == hipSuccess) {
        return mipmapped;
      }
      break;
    }
    case Role::kTexObject:
    case Role::kSurfObject: {
      const uint64_t object = Handle(role);
      if (object == kPlaceholder) break;
      const bool destroyed =
          role == Role::kTexObject
              ? (cuda ? cuTexObjectDestroy(object) == CUDA_SUCCESS
                      : hipDestroyTextureObject(As<hipTextureObject_t>(object)) == hipSuccess)
              : (cuda ? cuSurfObjectDestroy(object) == CUDA_SUCCESS
                      : hipDestroySurfaceObject(As<hipSurfaceObject_t>(object)) == hipSuccess);
      if (destroyed) return object;
      break;
    }
    default:
      break;
  }
  Fail(std::string("cannot make a destroyed ") + RoleName(role) + ": the API cannot create one");
  return 0;
}

uint64_t Env::WrongKind(Role role) {
  switch (role) {
    case Role::kStream: return Event();
    case Role::kModule: return Function();
    case Role::kFunction: return Module();
    case Role::kDevPtr:
    case Role::kDevPtrB: return HostBuffer(100);
    case Role::kPinnedHost: return HostBuffer(101);
    case Role::kRegisteredHost: return PinnedHost();
    case Role::kHostMem: return DevPtr(0);
    case Role::kManaged:
      return DevPtr(0);        // device memory, not managed
    default: return Stream();  // a context, event, graph, ... gets a stream
  }
}

// --- Strings, images and launch arguments ------------------------------------------

uint64_t Env::ModulePath() {
  std::string path = g_work_dir + "/" + std::to_string(getpid()) + "_" + kKernelName + ".comp";
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << kKernelGlsl;
  if (!file.good()) {
    Fail("cannot write " + path);
    return 0;
  }
  files_.push_back(path);
  strings_.push_back(path);
  return Bits(strings_.back().c_str());
}

uint64_t Env::PciBusId() {
  char id[64] = {};
  const int code =
      api_ == Api::kCuda
          ? static_cast<int>(cuDeviceGetPCIBusId(id, sizeof(id), As<CUdevice>(device_)))
          : static_cast<int>(hipDeviceGetPCIBusId(id, sizeof(id), static_cast<int>(device_)));
  // Without a bus id to read (lavapipe has none), a well-formed one stands
  // in: the functions taking it cannot succeed either way.
  strings_.emplace_back(code == 0 ? id : "0000:00:00.0");
  return Bits(strings_.back().c_str());
}

uint64_t Env::FatBinary() {
  GlslOptions options;
  options.entry_point = kKernelName;
  absl::StatusOr<GlslResult> compiled = CompileGlsl(kKernelGlsl, options);
  if (!compiled.ok()) {
    Fail("compiling the sweep kernel failed: " + std::string(compiled.status().message()));
    return 0;
  }
  const std::vector<uint8_t> elf = WriteElfCodeObject({compiled->spirv});
  const std::vector<uint8_t> bundle =
      WriteFatBinary({{std::string(kBundleHostId), {}}, {std::string(kBundleTargetId), elf}});
  buffers_.emplace_back(bundle.begin(), bundle.end());
  return Bits(buffers_.back().data());
}

uint64_t Env::KernelParams() {
  if (kernel_params_ != 0) return kernel_params_;
  kernel_data_ = DevPtr(0);
  buffers_.emplace_back(2 * sizeof(void*), 0);
  void** params = reinterpret_cast<void**>(buffers_.back().data());
  params[0] = &kernel_data_;
  params[1] = &kernel_n_;
  kernel_params_ = Bits(params);
  return kernel_params_;
}

uint64_t Env::Extra() {
  // The kernel's parameter block: the pointer at 0, the count at 8.
  buffers_.emplace_back(16, 0);
  unsigned char* block = buffers_.back().data();
  const uint64_t data = DevPtr(0);
  std::memcpy(block, &data, sizeof(data));
  std::memcpy(block + 8, &kernel_n_, sizeof(kernel_n_));
  buffers_.emplace_back(sizeof(size_t), 0);
  auto* size = reinterpret_cast<size_t*>(buffers_.back().data());
  *size = 16;
  buffers_.emplace_back(5 * sizeof(void*), 0);
  void** extra = reinterpret_cast<void**>(buffers_.back().data());
  const bool cuda = api_ == Api::kCuda;
  extra[0] = cuda ? CU_LAUNCH_PARAM_BUFFER_POINTER : HIP_LAUNCH_PARAM_BUFFER_POINTER;
  extra[1] = block;
  extra[2] = cuda ? CU_LAUNCH_PARAM_BUFFER_SIZE : HIP_LAUNCH_PARAM_BUFFER_SIZE;
  extra[3] = size;
  extra[4] = cuda ? CU_LAUNCH_PARAM_END : HIP_LAUNCH_PARAM_END;
  return Bits(extra);
}

uint64_t Env::JitOptions(bool bad_id) {
  // One option (max registers, accepted and ignored); its array ends at an
  // unreadable page, so reading more options than numOptions faults.
  const int option = bad_id ? 9999 : 0;
  return AtGuardPage(&option, sizeof(option));
}

uint64_t Env::JitValues() {
  void* value = reinterpret_cast<void*>(uintptr_t{32});
  return AtGuardPage(&value, sizeof(value));
}

uint64_t Env::MemOps() {
  // CUstreamBatchMemOpParams and hipStreamBatchMemOpParams: 48 bytes, the
  // operation first; 6 is a memory barrier in both APIs, flags 0 (system).
  const uint64_t params = Scratch(0, 48);
  const int barrier = CU_STREAM_MEM_OP_BARRIER;
  std::memcpy(reinterpret_cast<void*>(static_cast<uintptr_t>(params)), &barrier, sizeof(barrier));
  return params;
}

// --- Argument values ------------------------------------------------------------------

uint64_t Env::ValidBits(int index, Role role, uint64_t valid) {
  switch (role) {
    case Role::kScalar:
    case Role::kEnum:
    case Role::kFlags:
    case Role::kSharedBytes:
      return valid != kNoValid ? valid : 0;
    case Role::kSize:
    case Role::kCopySize:
      return valid != kNoValid ? valid : kValidSize;
    case Role::kLen:
      return valid != kNoValid ? valid : kValidLen;
    case Role::kGridDim:
    case Role::kBlockDim:
      return valid != kNoValid ? valid : 1;
    case Role::kDevice:
      return valid != kNoValid ? valid : device_;
    case Role::kOpaque:
    case Role::kValue:
    case Role::kExtra:
    case Role::kOccupancyFn:
      return 0;
    case Role::kOut:
      return Scratch(index, kScratchBytes);
    case Role::kHostIn:
    case Role::kHostOut:
      return HostBuffer(index);
    case Role::kHostMem: return HostMem();
    case Role::kPinnedHost: return PinnedHost();
    case Role::kRegisteredHost: return RegisteredHost();
    case Role::kDevPtr: return DevPtr(0);
    case Role::kDevPtrB: return DevPtr(1);
    case Role::kManaged:
      return Managed();
    case Role::kKernelName:
      return Bits(kKernelName);
    case Role::kGlobalName:
      return Bits(kGlobalName);
    case Role::kTexName:
      return Bits("sweep_texture");
    case Role::kSymbolName:
      return Bits(api_ == Api::kCuda ? "cuInit" : "hipInit");
    case Role::kModulePath: return ModulePath();
    case Role::kPciBusId: return PciBusId();
    case Role::kImage: return Bits(kKernelGlsl);
    case Role::kFatBinary: return FatBinary();
    case Role::kKernelParams: return KernelParams();
    case Role::kJitOptions: return JitOptions(false);
    case Role::kJitValues: return JitValues();
    case Role::kMemOps:
      return MemOps();
    case Role::kHostFn:
      if (api_ == Api::kCuda) return Bits(static_cast<CUhostFn>([](void*) {}));
      return Bits(static_cast<hipHostFn_t>([](void*) {}));
    case Role::kStreamCallback:
      if (api_ == Api::kCuda) {
        return Bits(static_cast<CUstreamCallback>([](CUstream, CUresult, void*) {}));
      }
      return Bits(static_cast<hipStreamCallback_t>([](hipStream_t, hipError_t, void*) {}));
    default:
      return Handle(role);
  }
}

uint64_t Env::BadBits(Role role, size_t size) {
  (void)size;
  switch (case_.variant) {
    case Variant::kValid:
      return ValidBits(case_.param, role, kNoValid);
    case Variant::kNull:
      return 0;
    case Variant::kGarbage:
      return kGarbage;
    case Variant::kDestroyed:
      return Destroyed(role);
    case Variant::kWrongKind:
      return WrongKind(role);
    case Variant::kValue:
      return case_.value;
    case Variant::kPastEnd:
      return kAllocationBytes + 1;
    case Variant::kEmptyString:
      return Bits("");
    case Variant::kBogusString:
      if (role == Role::kModulePath) {
        strings_.push_back(g_work_dir + "/no_such_kernel_file.comp");
        return Bits(strings_.back().c_str());
      }
      if (role == Role::kPciBusId) return Bits("ffff:ff:1f.7");
      return Bits("streamhal_sweep_no_such_name");
    case Variant::kDirectory:
      return Bits(g_work_dir.c_str());
    case Variant::kJunkImage:
      return Bits("this is not a kernel image\n");
    case Variant::kElfNoSections: {
      // A 64-byte ELF64 little-endian header of a relocatable file with no
      // program or section headers: it claims nothing past itself.
      unsigned char header[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
      header[16] = 1;   // e_type ET_REL
      header[20] = 1;   // e_version
      header[52] = 64;  // e_ehsize
      header[58] = 64;  // e_shentsize
      return AtGuardPage(header, sizeof(header));
    }
    case Variant::kBundleNoEntries: {
      unsigned char bundle[32] = {};
      std::memcpy(bundle, kBundleMagic.data(), kBundleMagic.size());
      return AtGuardPage(bundle, sizeof(bundle));
    }
    case Variant::kSpirvNoSize: {
      // Magic, version 1.0, generator, bound, schema.
      const uint32_t header[5] = {0x07230203u, 0x00010000u, 0, 8, 0};
      return AtGuardPage(header, sizeof(header));
    }
    case Variant::kBadOptionId:
      return JitOptions(true);
    case Variant::kExtraWithParams:
      return Extra();
    case Variant::kMisaligned:
      return ValidBits(case_.param, role, kNoValid) + 1;
  }
  return 0;
}

}  // namespace streamhal::sweep
