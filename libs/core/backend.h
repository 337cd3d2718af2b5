// The interface a backend implements. Core validates every argument before
// calling into it, so implementations may assume valid inputs (Dawn's
// frontend/backend split). Nothing here names a graphics API.
#ifndef STREAMHAL_CORE_BACKEND_H_
#define STREAMHAL_CORE_BACKEND_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace streamhal {

// Everything the APIs report about a device, read from the real device by
// the backend. Values the device does not report are 0.
struct DeviceProperties {
  std::string name;
  std::array<uint8_t, 16> uuid = {};
  std::string backend_name;     // "vulkan"
  // Where the device comes from: the backend's index of the physical device
  // (Vulkan: vkEnumeratePhysicalDevices order), and which of its partitions
  // this is when a backend presents one physical device as several
  // (STREAMHAL_VK_DEVICES_PER_GPU); partition 0 of 1 otherwise.
  int backend_device_index = 0;
  int partition = 0;
  int partition_count = 1;
  std::string driver_name;      // e.g. "llvmpipe"
  std::string driver_info;      // e.g. "Mesa 22.3.6 (LLVM 15.0.6)"
  uint32_t api_version = 0;     // backend API version (Vulkan: VK_MAKE_API_VERSION)
  uint32_t driver_version = 0;
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  bool integrated = false;      // shares memory with the host (iGPU, CPU)
  bool is_cpu = false;
  // The most loop iterations one kernel invocation may run, all its loops
  // together, before the driver ends them silently (llvmpipe: 65,535); 0
  // when the device has no such limit.
  uint32_t loop_iteration_limit = 0;

  uint64_t total_memory = 0;           // bytes of device-local memory
  uint64_t max_allocation_size = 0;    // largest single allocation
  int max_threads_per_block = 0;
  std::array<int, 3> max_block_dim = {};
  std::array<int, 3> max_grid_dim = {};  // CUDA-visible grid limits (splitting allowed)
  std::array<uint32_t, 3> max_dispatch_dim = {};  // what one dispatch may cover
  int shared_memory_per_block = 0;
  int shared_memory_per_multiprocessor = 0;
  int max_push_constant_size = 0;      // bytes of kernel parameters passed directly
  int warp_size = 0;                   // CUDA's warp as kernels from PTX see it: 32
  int multiprocessor_count = 0;
  int max_threads_per_multiprocessor = 0;
  int max_blocks_per_multiprocessor = 0;  // 0: not known
  // The occupancy figures (core/occupancy.h) are exact for this device:
  // multiprocessor_count * blocks per multiprocessor blocks of any valid
  // launch do run at once, and one more block does not start until one has
  // finished. Only then can blocks of a grid wait for each other
  // (cooperative launches). Otherwise the figures are an estimate from the
  // thread and shared-memory limits.
  bool resident_blocks_exact = false;
  int registers_per_block = 0;
  int registers_per_multiprocessor = 0;
  int clock_rate_khz = 0;
  int memory_clock_rate_khz = 0;
  int memory_bus_width = 0;
  int l2_cache_size = 0;
  int total_constant_memory = 0;
  int texture_alignment = 0;
  // Texels a texture over linear memory may span (a Vulkan texel buffer's
  // maxTexelBufferElements; cuDeviceGetTexture1DLinearMaxWidth).
  uint64_t max_texel_buffer_elements = 0;
  int texture_pitch_alignment = 0;
  int64_t memory_pitch = 0;            // max pitch for pitched allocations
  uint64_t min_storage_buffer_offset_alignment = 0;
  uint64_t timestamp_period_ns = 0;    // 0: no device timestamps
  double timestamp_period = 0.0;       // nanoseconds per timestamp tick
  bool has_pci_info = false;
  int pci_domain_id = 0;
  int pci_bus_id = 0;
  int pci_device_id = 0;
  int pci_function = 0;
  int compute_capability_major = 0;    // what the APIs report; see docs
  int compute_capability_minor = 0;
  bool concurrent_kernels = true;
  bool unified_addressing = false;     // device and host address spaces disjoint
  bool can_map_host_memory = false;
  // Host-visible memory has the same address on the host and the device,
  // so it can serve as managed memory (cuMemAllocManaged).
  bool managed_memory = false;
  bool ecc_enabled = false;
  int async_engine_count = 0;
};

// A range of memory the backend allocated: device memory (cuMemAlloc) or
// host memory the device can access (cuMemAllocHost, cuMemHostRegister).
// The backend may sub-allocate; each allocation is an independent range.
class BackendAllocation {
 public:
  virtual ~BackendAllocation() = default;
  // The address kernels use (a Vulkan buffer device address). Unique among
  // the device's live allocations; every byte in [address, address + size)
  // belongs to this allocation.
  uint64_t device_address() const { return device_address_; }
  uint64_t size() const { return size_; }
  // Where the host can read and write the same bytes, or null when the
  // memory is not mapped (device-local memory on a discrete GPU).
  void* host_pointer() const { return host_pointer_; }

 protected:
  uint64_t device_address_ = 0;
  uint64_t size_ = 0;
  void* host_pointer_ = nullptr;
};

enum class MemoryKind {
  kDevice,      // cuMemAlloc: device-local
  kHostPinned,  // cuMemAllocHost / cuMemHostAlloc: host memory the device reads
};

// One side of a copy: an allocation and an offset into it.
struct BufferRange {
  BackendAllocation* allocation = nullptr;
  uint64_t offset = 0;
};

// The shape of a pitched copy (cuMemcpy2D, cuMemcpy3D): `depth` slices of
// `height` rows of `width` bytes. On each side, row y of slice z starts
// z * slice_pitch + y * pitch bytes after the side's first byte. Core
// guarantees that the rows of one side are disjoint and ascending (pitch >=
// width when height > 1, slice_pitch >= height * pitch when depth > 1), and
// that no row of one side overlaps a row of the other.
struct CopyBox {
  uint64_t width = 0;
  uint64_t height = 1;
  uint64_t depth = 1;
  uint64_t dst_pitch = 0;
  uint64_t dst_slice_pitch = 0;
  uint64_t src_pitch = 0;
  uint64_t src_slice_pitch = 0;

  uint64_t rows() const { return height * depth; }
  uint64_t bytes() const { return width * height * depth; }
  // The offsets of row `row` (0 .. rows()) from each side's first byte.
  uint64_t DstRow(uint64_t row) const {
    return row / height * dst_slice_pitch + row % height * dst_pitch;
  }
  uint64_t SrcRow(uint64_t row) const {
    return row / height * src_slice_pitch + row % height * src_pitch;
  }
};

// --- Images (CUDA arrays) ---

// An array's texel format: CUarray_format's values for the element type.
enum class ArrayFormat : uint32_t {
  kUint8 = 0x01,
  kUint16 = 0x02,
  kUint32 = 0x03,
  kSint8 = 0x08,
  kSint16 = 0x09,
  kSint32 = 0x0a,
  kHalf = 0x10,
  kFloat = 0x20,
};

// The shape of an image as core validated it (CUDA_ARRAY3D_DESCRIPTOR):
// `height` 0 is a 1-D image, `depth` 0 a 2-D one; with `layered` or
// `cubemap`, `depth` counts layers (faces for a cubemap: 6 per cube).
struct ImageDesc {
  ArrayFormat format = ArrayFormat::kUint8;
  uint32_t channels = 1;  // 1, 2 or 4
  uint64_t width = 0;
  uint64_t height = 0;
  uint64_t depth = 0;
  bool layered = false;
  bool cubemap = false;
  bool storage = false;  // CUDA_ARRAY3D_SURFACE_LDST: kernels write it
  bool gather = false;   // CUDA_ARRAY3D_TEXTURE_GATHER
  uint32_t levels = 1;   // mipmap levels
};

// A device image (a CUDA array): texels the device owns in a layout of its
// choosing, reached by copies and, later, by texture and surface objects.
class BackendImage {
 public:
  virtual ~BackendImage() = default;
  // Device memory the image holds (cuMemGetInfo counts it).
  virtual uint64_t bytes() const = 0;
};

// A box of texels of one image level: x, y, z in texels, z the first layer
// of a layered (or cubemap) image, `depth` its layer count there.
struct ImageBox {
  uint32_t level = 0;
  uint64_t x = 0, y = 0, z = 0;
  uint64_t width = 1, height = 1, depth = 1;
};

// Linear memory on the other side of an image copy: rows of `row_texels`
// texels, slices of `slice_rows` rows, starting at `range` (whose offset is
// a multiple of the texel size).
struct ImageBufferSide {
  BufferRange range;
  uint64_t row_texels = 0;
  uint64_t slice_rows = 0;
};

// --- Texture and surface bindings (kernel ABI v2) ---

// How a kernel declares a texture or surface parameter: a descriptor at set
// 2, binding `binding` (the index of the parameter that holds the handle).
enum class ResourceKind : uint8_t {
  kSampledImage,  // sampler1D/2D/3D/Cube(Array): a texture object over an array
  kStorageImage,  // image1D/2D/3D(Array): a surface object
  kTexelBuffer,   // samplerBuffer: a texture object over linear memory
};

// The dimensionality a view presents to the kernel.
enum class ViewDimension : uint8_t {
  k1D,
  k2D,
  k3D,
  kCube,
  k1DArray,
  k2DArray,
  kCubeArray,
  kBuffer,  // linear memory (tex1Dfetch)
};

// How the kernel reads the texels: floats (normalised integers included),
// signed or unsigned integers.
enum class TexelNumeric : uint8_t { kFloat, kSint, kUint };

// The descriptor set of texture and surface parameters.
inline constexpr uint32_t kResourceDescriptorSet = 2;
// Bindings of that set from here up are module-scope texture and surface
// references, named by their variables (core/texture_ref.h), not parameters.
inline constexpr uint32_t kTextureRefBindingBase = 1024;

struct ResourceBinding {
  uint32_t binding = 0;
  ResourceKind kind = ResourceKind::kSampledImage;
};

// The sampler of a texture view (CUDA_TEXTURE_DESC as Vulkan can express
// it; core has mapped CUDA's rules onto these fields).
enum class SamplerAddress : uint8_t { kWrap, kClamp, kMirror, kBorder };
// kCustom: `SamplerDesc::border_color` (VK_EXT_custom_border_color).
enum class BorderColor : uint8_t { kTransparentBlack, kOpaqueBlack, kOpaqueWhite, kCustom };

struct SamplerDesc {
  std::array<SamplerAddress, 3> address = {SamplerAddress::kClamp, SamplerAddress::kClamp,
                                           SamplerAddress::kClamp};
  bool linear = false;
  bool normalized_coordinates = false;
  BorderColor border = BorderColor::kTransparentBlack;
  // kCustom only: the colour, as floats (integer reads take the values as
  // integers).
  std::array<float, 4> border_color = {};
  // Mipmapped images: linear filtering between levels, the bias added to
  // the level a sample computes, and the clamps of that level (relative
  // to the view's first level).
  bool mipmap_linear = false;
  float level_bias = 0;
  float min_level = 0;
  float max_level = 0;
};

// What a kernel binds for one texture or surface parameter: a view of an
// image (the whole of level 0, or a range of its layers) and, for
// textures, a sampler.
struct BindingViewDesc {
  ResourceKind kind = ResourceKind::kSampledImage;
  ViewDimension dimension = ViewDimension::k2D;
  // The texel format the view reads: the image's element type, or (for
  // 8/16-bit integers read as normalised floats) its UNORM/SNORM form,
  // `srgb` its sRGB form (8-bit unsigned, 4 channels).
  TexelNumeric numeric = TexelNumeric::kFloat;
  bool normalized = false;
  bool srgb = false;
  uint32_t first_layer = 0;
  uint32_t layer_count = 1;
  // The mip levels it shows (mipmapped arrays; 0 and 1 otherwise).
  uint32_t first_level = 0;
  uint32_t level_count = 1;
  SamplerDesc sampler;  // kSampledImage only
};

// A view a launch binds; immutable once bound. It keeps its image alive.
class BackendResourceView {
 public:
  virtual ~BackendResourceView() = default;
  // Views made by CreateStagedView (textures over pitched memory): the
  // linear memory that each dispatch binding the view copies the whole
  // image from, in its own submission, before it runs. Core sets it while
  // it alone holds the view (between launches); the caller keeps the
  // memory alive while the view is bound.
  virtual void SetStagingSource(const ImageBufferSide& /*source*/) {}
};

// What the backend needs to launch one kernel; everything is validated by
// core beforehand.
struct KernelLayout {
  std::string entry_point;
  // Bytes of the parameter block; 0 when the kernel has no parameters.
  uint32_t param_block_size = 0;
  // The block was moved from push constants to a uniform buffer at set 1,
  // binding 0 because it exceeds the push-constant limit (see
  // docs/kernel-abi.md).
  bool params_in_uniform_buffer = false;
  // The kernel reads its module's globals block (set 0, binding 0).
  bool uses_globals = false;
  // Which block dimensions are specialization constants SpecId 0, 1, 2.
  std::array<bool, 3> block_dim_from_spec = {false, false, false};
  bool has_dynamic_shared_spec = false;  // SpecId 3
  // Texture and surface parameters, by binding (set 2); empty for kernels
  // without any, which launch exactly as v1 kernels.
  std::vector<ResourceBinding> resources;
};

// A compiled SPIR-V module: a container for its kernels.
class BackendModule {
 public:
  virtual ~BackendModule() = default;
};

// A kernel of a module, ready to dispatch at any block size it accepts.
class BackendKernel {
 public:
  virtual ~BackendKernel() = default;
  // Limits of the compiled kernel for a given block size (cuFuncGetAttribute).
  // Backends that cannot tell return the device limits.
  virtual int max_threads_per_block() const = 0;
};

struct DispatchParams {
  BackendKernel* kernel = nullptr;
  std::array<uint32_t, 3> grid = {1, 1, 1};   // blocks; may exceed dispatch limits
  std::array<uint32_t, 3> block = {1, 1, 1};  // threads per block
  uint32_t dynamic_shared_bytes = 0;           // value for SpecId 3
  const void* params = nullptr;                // param_block_size bytes
  BackendAllocation* globals = nullptr;        // when the kernel uses globals
  // A cooperative launch: the device address of the grid barrier's words,
  // given to the kernel as SpecId 4 (low 32 bits) and 5 (high); 0 otherwise.
  uint64_t grid_barrier_address = 0;
  // One view per entry of the kernel's KernelLayout::resources, in that
  // order. The stream (or recording) keeps each alive until the work that
  // uses it has completed; it may move them out (saving a reference count
  // per launch).
  std::shared_ptr<BackendResourceView>* resources = nullptr;
};

// How a host thread waits for the device (CUDA's context scheduling flags and
// CU_EVENT_BLOCKING_SYNC): poll the completion state for up to `poll_ns`
// (yielding the processor between polls when `yield` is set), then sleep in
// the driver's wait. kPollForever never sleeps; 0 sleeps at once.
// What a wait or a completion query is for.
enum class Completion {
  // The driver has retired the work: what it used may be destroyed or
  // reused (frees, unloads, teardown, releasing pool memory).
  kRetired,
  // The work is done and its results are in memory, which is all a user's
  // cuStreamSynchronize, cuEventSynchronize, cuCtxSynchronize, query or
  // synchronous copy needs: a backend may answer before the driver retires
  // the submission (vk_backend/completion_marker.h).
  kResults,
};

struct WaitPolicy {
  static constexpr uint64_t kPollForever = UINT64_MAX;
  uint64_t poll_ns = 0;
  bool yield = false;
  Completion completion = Completion::kRetired;
  // With `yield`: the first spin_ns of the polling spin instead.
  uint64_t spin_ns = 0;
};

// Device work recorded once and run any number of times by streams (the
// segments of an instantiated graph). Immutable once finished; a stream that
// runs it keeps it alive until that run has completed, so its owner may drop
// it at any time.
class BackendRecording {
 public:
  virtual ~BackendRecording() = default;
};

// Builds a BackendRecording. Unlike a stream, commands recorded here are NOT
// ordered after each other: only RecordBarrier orders the commands after it
// behind every command before it (a graph's edges). Not thread-safe.
class BackendRecorder {
 public:
  virtual ~BackendRecorder() = default;
  // As BackendStream's; the parameter block is copied now.
  virtual absl::Status RecordDispatch(const DispatchParams& params) = 0;
  virtual absl::Status RecordCopy(BufferRange dst, BufferRange src, uint64_t size) = 0;
  virtual absl::Status RecordFill(BufferRange dst, uint32_t pattern, uint32_t element_size,
                                  uint64_t count) = 0;
  // As BackendStream's; the defaults record a RecordCopy or RecordFill per
  // row.
  virtual absl::Status RecordCopyBox(BufferRange dst, BufferRange src, const CopyBox& box);
  virtual absl::Status RecordFillRows(BufferRange dst, uint32_t pattern, uint32_t element_size,
                                      uint64_t count, uint64_t pitch, uint64_t rows);
  // Execution and memory dependency: every command recorded after this
  // starts after, and sees the writes of, every command recorded before it.
  virtual void RecordBarrier() = 0;
  // Ends recording. The recording is ordered after the stream's earlier work
  // and before its later work as a whole, whatever its barriers.
  virtual absl::StatusOr<std::shared_ptr<BackendRecording>> Finish() = 0;
};

// An ordered queue of work (a CUDA stream). Recording calls append work;
// nothing runs before Flush. Work recorded on one stream runs in order.
// Recording and Flush are not thread-safe: core serialises them per stream.
class BackendStream {
 public:
  virtual ~BackendStream() = default;

  virtual absl::Status RecordDispatch(const DispatchParams& params) = 0;
  // Device-to-device copy of `size` bytes; ranges may be anywhere in their
  // allocations (any alignment) but do not overlap.
  virtual absl::Status RecordCopy(BufferRange dst, BufferRange src, uint64_t size) = 0;
  // Fills `count` elements of `element_size` (1, 2 or 4) bytes with the low
  // bytes of `pattern`, at any byte offset.
  virtual absl::Status RecordFill(BufferRange dst, uint32_t pattern, uint32_t element_size,
                                  uint64_t count) = 0;
  // Copies from host memory that is read now, before this returns (CUDA's
  // rule for pageable sources); the data reaches `dst` in stream order.
  virtual absl::Status RecordUpload(BufferRange dst, const void* src, uint64_t size) = 0;

  // Copies device memory to host memory; `dst` holds the data once a Wait
  // for a point flushed after this call has returned.
  virtual absl::Status RecordDownload(void* dst, BufferRange src, uint64_t size) = 0;

  // --- Pitched forms (cuMemcpy2D, cuMemcpy3D, cuMemsetD2D*): one operation
  // in stream order each, whatever its number of rows. The defaults record
  // the 1-D form once per row; a backend overrides them to record one
  // command.

  // Device-to-device copy of `box` (rows may be anywhere, any alignment).
  virtual absl::Status RecordCopyBox(BufferRange dst, BufferRange src, const CopyBox& box);
  // As RecordUpload: `src` (rows at box.SrcRow offsets) is read now.
  virtual absl::Status RecordUploadBox(BufferRange dst, const void* src, const CopyBox& box);
  // As RecordDownload: `dst` (rows at box.DstRow offsets) holds the data
  // once a Wait for a point flushed after this call has returned.
  virtual absl::Status RecordDownloadBox(void* dst, BufferRange src, const CopyBox& box);
  // As RecordFill for `rows` rows of `count` elements, `pitch` bytes apart
  // (pitch >= count * element_size when rows > 1).
  virtual absl::Status RecordFillRows(BufferRange dst, uint32_t pattern, uint32_t element_size,
                                      uint64_t count, uint64_t pitch, uint64_t rows);

  // --- Image copies (cuMemcpy*A*, cuMemcpy2D/3D with array ends): one
  // operation each in stream order. Defaults report kNotSupported.
  virtual absl::Status RecordBufferToImage(BackendImage* dst, const ImageBox& box,
                                           const ImageBufferSide& src);
  virtual absl::Status RecordImageToBuffer(const ImageBufferSide& dst, BackendImage* src,
                                           const ImageBox& box);
  // `box` on `src`; the same extent at dst_box's origin on `dst`.
  virtual absl::Status RecordImageToImage(BackendImage* dst, const ImageBox& dst_box,
                                          BackendImage* src, const ImageBox& box);

  // Submits everything recorded so far and returns the point that is
  // reached when all of it has finished. Points increase monotonically; with
  // nothing recorded, returns the last point again.
  virtual absl::StatusOr<uint64_t> Flush() = 0;
  // Waits until `point` is reached, as `policy` says. Thread-safe: may run
  // while another thread records on the same stream (core holds no lock
  // across a wait).
  virtual absl::Status Wait(uint64_t point, const WaitPolicy& policy) = 0;
  // The same, sleeping in the driver's wait.
  absl::Status Wait(uint64_t point) { return Wait(point, WaitPolicy{}); }
  // Whether `point` has been reached in the sense of `completion`, without
  // waiting. Thread-safe.
  virtual absl::StatusOr<bool> IsComplete(uint64_t point, Completion completion) = 0;
  absl::StatusOr<bool> IsComplete(uint64_t point) {
    return IsComplete(point, Completion::kRetired);
  }

  // --- Ordering across streams and with the host (CUDA streams, events,
  // host functions). Defaults report kNotSupported.

  // Work recorded after this call runs only once `other` has reached
  // `point` (a point `other` returned from Flush).
  virtual absl::Status RecordWait(BackendStream* other, uint64_t point);
  // Records a device timestamp in stream order and returns an id for
  // ReadTimestamp. The timestamp is written when the work before it has
  // finished.
  virtual absl::StatusOr<uint64_t> RecordTimestamp();
  // The timestamp `id` in nanoseconds, valid once a point flushed after it
  // has been reached. Thread-safe. Each id is read at most once.
  virtual absl::StatusOr<uint64_t> ReadTimestamp(uint64_t id);
  // Runs `fn(data)` on a host thread once all earlier work has finished;
  // work recorded after this call waits until `fn` has returned (CUDA:
  // cuLaunchHostFunc). `fn` may call the API, except to wait on this stream.
  virtual absl::Status RecordHostFunction(void (*fn)(void*), void* data);
  // Runs `recording` (made by this stream's device) in stream order: after
  // all earlier work, before all later work. The stream keeps it alive until
  // the run has completed. Running one recording again before an earlier run
  // has finished is allowed; the runs are ordered by the stream.
  virtual absl::Status RecordExecute(std::shared_ptr<BackendRecording> recording);
};

// One physical device as the backend sees it.
class BackendDevice {
 public:
  virtual ~BackendDevice() = default;

  virtual const DeviceProperties& properties() const = 0;

  // Free and total device memory in bytes (cuMemGetInfo). Free must agree
  // with Allocate: it is what kDevice allocations can still take (one
  // allocation of up to `free` bytes, within max_allocation_size, succeeds
  // while other processes leave the device alone; past it, allocation
  // fails), and it falls by what each allocation consumes, block
  // granularity included.
  virtual absl::Status GetMemoryInfo(uint64_t* free_bytes, uint64_t* total_bytes) = 0;

  // Waits until every piece of work submitted to this device has finished.
  virtual absl::Status WaitIdle() = 0;
  // Whether `address` lies in memory the device holds for allocations,
  // allocated now or not (a freed block kept for reuse). Direction
  // inference uses it so that a freed device pointer is an error, never
  // mistaken for host memory.
  virtual bool IsDeviceMemory(uint64_t /*address*/) { return false; }

  // The capabilities below have defaults that report kNotSupported, so a
  // backend can grow one capability at a time.

  // Allocates `size` bytes (> 0) aligned to at least 256 bytes. Out of
  // memory is ErrorCode::kOutOfMemory, and leaves every earlier allocation
  // and the device usable (CUDA: a failed cuMemAlloc is not sticky).
  virtual absl::StatusOr<std::unique_ptr<BackendAllocation>> Allocate(uint64_t size,
                                                                      MemoryKind kind);

  // Makes existing host memory accessible to the device (cuMemHostRegister).
  // kNotSupported when the device cannot import host memory.
  virtual absl::StatusOr<std::unique_ptr<BackendAllocation>> RegisterHostMemory(void* pointer,
                                                                                uint64_t size);

  // Inter-process memory (cuIpcGetMemHandle / cuIpcOpenMemHandle). Export
  // gives a new file descriptor (the caller owns it) for the memory that
  // holds `allocation`, and where the allocation lies in it; Import, in
  // another process, maps `size` bytes at `exported.offset` of that memory,
  // and owns `exported.fd` from the call on, whatever the result. Defaults:
  // kNotSupported.
  struct ExportedMemory {
    int fd = -1;
    uint64_t memory_size = 0;  // of the whole exported memory object
    uint64_t offset = 0;       // of the allocation in it
    uint32_t memory_type = 0;  // backend-specific, checked on import
    // Memory another API allocated (cuImportExternalMemory): the type the
    // backend uses for device memory is assumed, and `dedicated` says the
    // memory was allocated for one buffer or image.
    bool external = false;
    bool dedicated = false;
  };
  virtual absl::StatusOr<ExportedMemory> ExportMemory(BackendAllocation* allocation);
  virtual absl::StatusOr<std::unique_ptr<BackendAllocation>> ImportMemory(
      const ExportedMemory& exported, uint64_t size);

  // Peer access (cuCtxEnablePeerAccess). CanAccessPeer: whether this
  // device's kernels and copies can reach `peer`'s memory at the addresses
  // `peer` hands out, once EnablePeerAccess has succeeded. EnablePeerAccess
  // makes every allocation of `peer`, present and future, reachable that way
  // until the matching DisablePeerAccess (calls are counted per peer).
  // Defaults: no peer access.
  virtual bool CanAccessPeer(BackendDevice* /*peer*/) { return false; }
  virtual absl::Status EnablePeerAccess(BackendDevice* peer);
  virtual void DisablePeerAccess(BackendDevice* /*peer*/) {}

  // Compiles a SPIR-V module that core has reflected and validated.
  virtual absl::StatusOr<std::unique_ptr<BackendModule>> CreateModule(
      const std::vector<uint32_t>& spirv);
  virtual absl::StatusOr<std::unique_ptr<BackendKernel>> CreateKernel(BackendModule* module,
                                                                      const KernelLayout& layout);

  // Creates an image (cuArray3DCreate). kInvalidValue, with the reason,
  // when the device cannot hold this format, shape or usage; kOutOfMemory
  // as Allocate. The memory counts against GetMemoryInfo's free bytes.
  virtual absl::StatusOr<std::unique_ptr<BackendImage>> CreateImage(const ImageDesc& desc);
  // An image over memory another API allocated
  // (cuExternalMemoryGetMappedMipmappedArray): made as CreateImage makes it,
  // but for external memory and bound at `exported.offset` of an import of
  // its own, which owns `exported.fd` from the call on, whatever the
  // result. Its texels are what the exporter's image of the same parameters
  // holds. kNotSupported when the device cannot import images so;
  // kInvalidValue when the image does not fit the memory at that offset.
  // Default: kNotSupported.
  virtual absl::StatusOr<std::unique_ptr<BackendImage>> ImportImage(const ExportedMemory& exported,
                                                                    const ImageDesc& desc);
  // A view of `image` for kernels to bind (a texture with its sampler, or a
  // surface). kNotSupported when the device cannot bind it (no such
  // format feature, no push descriptors); kInvalidValue when `desc` does
  // not fit the image.
  virtual absl::StatusOr<std::shared_ptr<BackendResourceView>> CreateResourceView(
      std::shared_ptr<BackendImage> image, const BindingViewDesc& desc);
  // A texture view of an image of its own, made as CreateImage and
  // CreateResourceView do, that each dispatch binding it first fills from
  // the view's staging source (BackendResourceView::SetStagingSource): a
  // texture over pitched memory, which Vulkan cannot view as an image.
  virtual absl::StatusOr<std::shared_ptr<BackendResourceView>> CreateStagedView(
      const ImageDesc& image, const BindingViewDesc& desc);
  // A view of `size` bytes of `allocation` from `offset` (a multiple of
  // DeviceProperties::texture_alignment) as texels of `format` with
  // `channels` channels, read as normalised floats when `normalized`
  // (tex1Dfetch). The caller keeps `allocation` alive while the view is in
  // use. kNotSupported when the device cannot read that format so, or the
  // range holds more texels than it can address.
  virtual absl::StatusOr<std::shared_ptr<BackendResourceView>> CreateBufferView(
      BackendAllocation* allocation, uint64_t offset, uint64_t size, ArrayFormat format,
      uint32_t channels, bool normalized);

  virtual absl::StatusOr<std::unique_ptr<BackendStream>> CreateStream();
  // A recorder for work that streams of this device run with RecordExecute.
  virtual absl::StatusOr<std::unique_ptr<BackendRecorder>> CreateRecorder();
};

// A backend enumerates devices. Backends are registered explicitly (see
// RegisterBackend in backend_registry.h): static libraries drop
// self-registering objects.
class Backend {
 public:
  virtual ~Backend() = default;
  virtual const char* name() const = 0;
  // Devices this backend can run kernels on. A device that lacks a required
  // feature is skipped with a logged reason, not reported as an error.
  virtual absl::StatusOr<std::vector<std::unique_ptr<BackendDevice>>> EnumerateDevices() = 0;
};

}  // namespace streamhal

#endif  // STREAMHAL_CORE_BACKEND_H_
