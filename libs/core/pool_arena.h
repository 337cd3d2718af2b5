// The memory of a pool created with a shareable handle type
// (cuMemPoolCreate with CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR).
//
// Such a pool must be exportable as one file descriptor, and each of its
// blocks as a few bytes another process turns back into a pointer. So the
// pool's blocks live in one anonymous shared-memory file (memfd), each at an
// offset of its own:
//   - the file starts with a header page naming the pool (a random id), so
//     an importer can tell which pool a pointer's export data belongs to;
//   - a block is the file's bytes at its offset, mapped into this process
//     and imported into the device as host memory;
//   - exporting the pool hands out a duplicate of the file's descriptor;
//     exporting a block writes its offset and size;
//   - an importer maps the same bytes at an address of its own.
// Offsets are never reused (the file is sparse); a block given back to the
// device has its pages punched out of the file.
#ifndef STREAMHAL_CORE_POOL_ARENA_H_
#define STREAMHAL_CORE_POOL_ARENA_H_

#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"
#include "core/memory.h"
#include "core/mutex.h"

namespace streamhal {

class Device;

// What cuMemPoolExportPointer writes into CUmemPoolPtrExportData (64 bytes).
struct PoolPointerExport {
  uint64_t magic = 0;
  uint64_t pool_id = 0;  // PoolArena::id() of the exporting pool
  uint64_t offset = 0;   // of the block in the pool's file
  uint64_t block_size = 0;
  uint64_t bytes = 0;  // the size the allocation was asked for
};
inline constexpr uint64_t kPoolPointerExportMagic = 0x3150544c4f4f5048;  // "HPOOLTP1"
inline constexpr size_t kPoolPointerExportSize = 64;
static_assert(sizeof(PoolPointerExport) <= kPoolPointerExportSize);

class PoolArena : public std::enable_shared_from_this<PoolArena> {
 public:
  // A new, empty file for a pool of device `location_id`.
  static absl::StatusOr<std::shared_ptr<PoolArena>> Create(int location_id);
  // The file behind an exported descriptor (duplicated; the caller keeps
  // `fd`); kInvalidValue when it is not a pool's file.
  static absl::StatusOr<std::shared_ptr<PoolArena>> Import(int fd);
  ~PoolArena();

  uint64_t id() const { return id_; }
  int location_id() const { return location_id_; }
  // A duplicate of the file's descriptor; the caller owns it.
  absl::StatusOr<int> Export() const;

  // A new block of `block_size` bytes (a whole number of pages), mapped and
  // imported into `device`: an Allocation with backend, pool_offset and
  // block_size set. Its pages leave the file when it is destroyed.
  absl::StatusOr<std::unique_ptr<Allocation>> NewBlock(Device* device, uint64_t block_size);
  // The block another process exported, mapped here and imported into
  // `device`; destroying it only unmaps it.
  absl::StatusOr<std::unique_ptr<Allocation>> MapBlock(Device* device, uint64_t offset,
                                                       uint64_t block_size);

  // Whether pool blocks can live in shared files on `device`: the device
  // imports host memory (the probe of core/virtual_memory.h).
  static bool Supported(Device* device);

 private:
  PoolArena(int fd, uint64_t id, int location_id) : fd_(fd), id_(id), location_id_(location_id) {}
  absl::StatusOr<std::unique_ptr<Allocation>> Map(Device* device, uint64_t offset,
                                                  uint64_t block_size, bool owner);

  const int fd_;
  const uint64_t id_;
  const int location_id_;
  Mutex mutex_;
  uint64_t next_offset_ ABSL_GUARDED_BY(mutex_) = 0;
};

}  // namespace streamhal

#endif  // STREAMHAL_CORE_POOL_ARENA_H_
