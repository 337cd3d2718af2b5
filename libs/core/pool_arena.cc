#include "core/pool_arena.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <random>
#include <utility>

#include "core/device.h"
#include "core/status.h"
#include "core/virtual_memory.h"

namespace streamhal {
namespace {

uint64_t PageSize() { return static_cast<uint64_t>(sysconf(_SC_PAGESIZE)); }

// The first page of a pool's file.
struct Header {
  uint64_t magic = 0;
  uint64_t id = 0;
  int32_t location_id = 0;
};
constexpr uint64_t kHeaderMagic = 0x314c4f4f50485453;  // "STHPOOL1"

}  // namespace

bool PoolArena::Supported(Device* device) { return VirtualMemorySupported(device); }

absl::StatusOr<std::shared_ptr<PoolArena>> PoolArena::Create(int location_id) {
  const int fd = memfd_create("streamhal-pool", MFD_CLOEXEC);
  if (fd < 0) return Error(ErrorCode::kOutOfMemory, "cuMemPoolCreate: memfd_create failed");
  std::random_device entropy;
  Header header;
  header.magic = kHeaderMagic;
  header.id = (uint64_t{entropy()} << 32) ^ entropy();
  header.location_id = location_id;
  const uint64_t page = PageSize();
  if (ftruncate(fd, static_cast<off_t>(page)) != 0 ||
      pwrite(fd, &header, sizeof(header), 0) != static_cast<ssize_t>(sizeof(header))) {
    close(fd);
    return Error(ErrorCode::kOutOfMemory, "cuMemPoolCreate: cannot size the pool's file");
  }
  std::shared_ptr<PoolArena> arena(new PoolArena(fd, header.id, location_id));
  MutexLock lock(&arena->mutex_);
  arena->next_offset_ = page;
  return arena;
}

absl::StatusOr<std::shared_ptr<PoolArena>> PoolArena::Import(int source) {
  Header header;
  struct stat info;
  if (source < 0 || fstat(source, &info) != 0 || !S_ISREG(info.st_mode) ||
      pread(source, &header, sizeof(header), 0) != static_cast<ssize_t>(sizeof(header)) ||
      header.magic != kHeaderMagic) {
    return Error(ErrorCode::kInvalidValue, "cuMemPoolImportFromShareableHandle: ", source,
                 " is not a descriptor of an exported pool");
  }
  const int fd = fcntl(source, F_DUPFD_CLOEXEC, 0);
  if (fd < 0) {
    return Error(ErrorCode::kOutOfMemory, "cuMemPoolImportFromShareableHandle: dup failed");
  }
  return std::shared_ptr<PoolArena>(new PoolArena(fd, header.id, header.location_id));
}

PoolArena::~PoolArena() { close(fd_); }

absl::StatusOr<int> PoolArena::Export() const {
  const int fd = fcntl(fd_, F_DUPFD_CLOEXEC, 0);
  if (fd < 0) {
    return Error(ErrorCode::kOutOfMemory, "cuMemPoolExportToShareableHandle: dup failed");
  }
  return fd;
}

absl::StatusOr<std::unique_ptr<Allocation>> PoolArena::NewBlock(Device* device,
                                                                uint64_t block_size) {
  uint64_t offset = 0;
  {
    MutexLock lock(&mutex_);
    offset = next_offset_;
    if (block_size > (uint64_t{1} << 62) - offset ||
        ftruncate(fd_, static_cast<off_t>(offset + block_size)) != 0) {
      return Error(ErrorCode::kOutOfMemory, "cuMemAllocFromPoolAsync: the pool's file cannot grow");
    }
    next_offset_ = offset + block_size;
  }
  return Map(device, offset, block_size, /*owner=*/true);
}

absl::StatusOr<std::unique_ptr<Allocation>> PoolArena::MapBlock(Device* device, uint64_t offset,
                                                                uint64_t block_size) {
  struct stat info;
  const uint64_t page = PageSize();
  if (fstat(fd_, &info) != 0 || offset < page || offset % page != 0 || block_size == 0 ||
      block_size % page != 0 || offset > static_cast<uint64_t>(info.st_size) ||
      block_size > static_cast<uint64_t>(info.st_size) - offset) {
    return Error(ErrorCode::kInvalidValue,
                 "cuMemPoolImportPointer: the export data names no block of this pool");
  }
  return Map(device, offset, block_size, /*owner=*/false);
}

absl::StatusOr<std::unique_ptr<Allocation>> PoolArena::Map(Device* device, uint64_t offset,
                                                           uint64_t block_size, bool owner) {
  void* host = mmap(nullptr, block_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd_,
                    static_cast<off_t>(offset));
  if (host == MAP_FAILED) {
    return Error(ErrorCode::kOutOfMemory, "cuMemAllocFromPoolAsync: cannot map ", block_size,
                 " bytes of the pool's file");
  }
  // Unmaps the block and, for the pool that owns it, gives its pages back.
  std::shared_ptr<void> mapping(
      host, [arena = shared_from_this(), offset, block_size, owner](void* at) {
        munmap(at, block_size);
        if (owner) {
          (void)fallocate(arena->fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                          static_cast<off_t>(offset), static_cast<off_t>(block_size));
        }
      });
  absl::StatusOr<std::unique_ptr<BackendAllocation>> backend =
      device->backend()->RegisterHostMemory(host, block_size);
  if (!backend.ok()) return backend.status();
  auto block = std::make_unique<Allocation>();
  block->mapping = std::move(mapping);
  block->backend = std::move(*backend);
  block->kind = AllocationKind::kDevice;
  block->block_size = block_size;
  block->pool_offset = offset;
  return block;
}

}  // namespace streamhal
