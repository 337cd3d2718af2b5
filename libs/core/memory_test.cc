#include "core/memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "core/context.h"
#include "core/mem_pool.h"
#include "core/runtime.h"
#include "core/status.h"
#include "core/testing/fake_backend.h"
#include "core/transfer.h"
#include "gtest/gtest.h"

namespace streamhal {
namespace {

struct OpaqueCtx;

class MemoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::InstallFakeBackend(1);
    ASSERT_TRUE(Init(0).ok());
    ASSERT_TRUE(CreateContext(HandleOut(&ctx_), 0, 0).ok());
  }
  void TearDown() override { ASSERT_TRUE(Deinit().ok()); }
  OpaqueCtx* ctx_ = nullptr;
};

TEST_F(MemoryTest, AllocResolvesInteriorPointers) {
  uint64_t dptr = 0;
  ASSERT_TRUE(MemAlloc(&dptr, 1000, false).ok());
  uint64_t base = 0;
  size_t size = 0;
  ASSERT_TRUE(MemGetAddressRange(&base, &size, dptr + 999).ok());
  EXPECT_EQ(base, dptr);
  EXPECT_EQ(size, 1000u);
  EXPECT_EQ(ErrorCodeOf(MemGetAddressRange(&base, &size, dptr + 1000)), ErrorCode::kNotFound);
  EXPECT_TRUE(MemGetAddressRange(nullptr, nullptr, dptr).ok());
  ASSERT_TRUE(MemFree(dptr, false).ok());
  EXPECT_EQ(ErrorCodeOf(MemGetAddressRange(&base, &size, dptr)), ErrorCode::kNotFound);
}

TEST_F(MemoryTest, ZeroBytesAndNullFollowTheApi) {
  uint64_t dptr = 1;
  EXPECT_EQ(ErrorCodeOf(MemAlloc(&dptr, 0, false)), ErrorCode::kInvalidValue);
  ASSERT_TRUE(MemAlloc(&dptr, 0, true).ok());
  EXPECT_EQ(dptr, 0u);
  EXPECT_EQ(ErrorCodeOf(MemFree(0, false)), ErrorCode::kInvalidValue);
  EXPECT_TRUE(MemFree(0, true).ok());
  EXPECT_EQ(ErrorCodeOf(MemAlloc(nullptr, 16, false)), ErrorCode::kInvalidValue);
}

TEST_F(MemoryTest, FreeNeedsTheStartOfALiveAllocation) {
  uint64_t dptr = 0;
  ASSERT_TRUE(MemAlloc(&dptr, 256, false).ok());
  EXPECT_EQ(ErrorCodeOf(MemFree(dptr + 4, false)), ErrorCode::kInvalidValue);
  ASSERT_TRUE(MemFree(dptr, false).ok());
  EXPECT_EQ(ErrorCodeOf(MemFree(dptr, false)), ErrorCode::kInvalidValue);
}

TEST_F(MemoryTest, OutOfMemoryIsReportedAndNothingLeaks) {
  const size_t before = LiveAllocationCount();
  uint64_t dptr = 0;
  EXPECT_EQ(ErrorCodeOf(MemAlloc(&dptr, size_t{1} << 40, false)), ErrorCode::kOutOfMemory);
  EXPECT_EQ(LiveAllocationCount(), before);
}

TEST_F(MemoryTest, PitchIsAlignedAndValidated) {
  uint64_t dptr = 0;
  size_t pitch = 0;
  ASSERT_TRUE(MemAllocPitch(&dptr, &pitch, 100, 10, 4).ok());
  EXPECT_GE(pitch, 100u);
  EXPECT_EQ(pitch % 256, 0u);
  EXPECT_EQ(ErrorCodeOf(MemAllocPitch(&dptr, &pitch, 100, 10, 3)), ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(MemAllocPitch(&dptr, &pitch, 0, 10, 4)), ErrorCode::kInvalidValue);
}

TEST_F(MemoryTest, PitchOfAWidthWhoseRowCannotBeRoundedIsInvalidValue) {
  uint64_t dptr = 0;
  size_t pitch = 0;
  // Rounding the row up to the pitch alignment would wrap to 0.
  for (const size_t width : {SIZE_MAX, SIZE_MAX - 200}) {
    EXPECT_EQ(ErrorCodeOf(MemAllocPitch(&dptr, &pitch, width, 1, 4)), ErrorCode::kInvalidValue)
        << width;
  }
  EXPECT_EQ(ErrorCodeOf(MemAllocPitch(&dptr, &pitch, size_t{1} << 40, 1, 4)),
            ErrorCode::kOutOfMemory);
}

TEST_F(MemoryTest, HostAllocationFlagsAndDevicePointer) {
  void* host = nullptr;
  ASSERT_TRUE(MemHostAlloc(&host, 4096, kHostAllocDeviceMap | kHostAllocPortable, false).ok());
  unsigned flags = 0;
  ASSERT_TRUE(MemHostGetFlags(&flags, host).ok());
  EXPECT_EQ(flags, kHostAllocDeviceMap | kHostAllocPortable);
  uint64_t dptr = 0;
  ASSERT_TRUE(MemHostGetDevicePointer(&dptr, static_cast<char*>(host) + 16, 0).ok());
  EXPECT_NE(dptr, 0u);
  EXPECT_EQ(ErrorCodeOf(MemHostGetDevicePointer(&dptr, host, 1)), ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(MemHostAlloc(&host, 16, 0x80, false)), ErrorCode::kInvalidValue);
  int local = 0;
  EXPECT_EQ(ErrorCodeOf(MemHostGetDevicePointer(&dptr, &local, 0)), ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(MemFreeHost(&local, false)), ErrorCode::kInvalidValue);
  ASSERT_TRUE(MemFreeHost(host, false).ok());
}

TEST_F(MemoryTest, RegisterRejectsOverlapAndUnknownRanges) {
  std::vector<char> buffer(8192);
  ASSERT_TRUE(MemHostRegister(buffer.data(), 4096, 0).ok());
  EXPECT_EQ(ErrorCodeOf(MemHostRegister(buffer.data() + 100, 100, 0)),
            ErrorCode::kHostMemoryAlreadyRegistered);
  EXPECT_EQ(ErrorCodeOf(MemHostUnregister(buffer.data() + 4096)),
            ErrorCode::kHostMemoryNotRegistered);
  ASSERT_TRUE(MemHostUnregister(buffer.data()).ok());
  EXPECT_EQ(ErrorCodeOf(MemHostUnregister(buffer.data())), ErrorCode::kHostMemoryNotRegistered);
  EXPECT_EQ(ErrorCodeOf(MemHostRegister(buffer.data(), 16, 0x40)), ErrorCode::kInvalidValue);
}

// Anonymous pages mapped as `protections` (PROT_NONE: reserved but
// inaccessible), unmapped at the end.
class Pages {
 public:
  Pages(size_t count, int protections)
      : page_(static_cast<size_t>(sysconf(_SC_PAGESIZE))), count_(count) {
    base_ = static_cast<char*>(
        mmap(nullptr, count * page_, protections, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    EXPECT_NE(base_, MAP_FAILED);
  }
  ~Pages() { munmap(base_, count_ * page_); }
  char* page(size_t i) const { return base_ + i * page_; }
  size_t bytes(size_t pages) const { return pages * page_; }

 private:
  size_t page_;
  size_t count_;
  char* base_ = nullptr;
};

TEST_F(MemoryTest, RegisterOfMemoryThatCannotBeAccessedIsInvalidValue) {
  const size_t before = LiveAllocationCount();
  // Pages below the kernel's minimum mmap address, which no mapping the
  // process makes without MAP_FIXED can reuse (a hole left by munmap can be
  // filled by any allocation, even one the call under test makes).
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  char* const unmapped = reinterpret_cast<char*>(2 * page);
  EXPECT_EQ(ErrorCodeOf(MemHostRegister(unmapped, 2 * page, 0)), ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(MemHostRegister(unmapped + 100, 10, kHostRegisterReadOnly)),
            ErrorCode::kInvalidValue);
  const Pages reserved(1, PROT_NONE);
  EXPECT_EQ(ErrorCodeOf(MemHostRegister(reserved.page(0), reserved.bytes(1), 0)),
            ErrorCode::kInvalidValue);
  // Writable memory followed by an inaccessible page: only the accessible
  // part may be registered.
  Pages mixed(2, PROT_READ | PROT_WRITE);
  ASSERT_EQ(mprotect(mixed.page(1), mixed.bytes(1), PROT_NONE), 0);
  EXPECT_EQ(ErrorCodeOf(MemHostRegister(mixed.page(0), mixed.bytes(2), 0)),
            ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(MemHostRegister(mixed.page(1) - 8, 16, 0)), ErrorCode::kInvalidValue);
  ASSERT_TRUE(MemHostRegister(mixed.page(0), mixed.bytes(1), 0).ok());
  ASSERT_TRUE(MemHostUnregister(mixed.page(0)).ok());
  // Read-only memory needs the read-only flag.
  const Pages read_only(1, PROT_READ);
  EXPECT_EQ(ErrorCodeOf(MemHostRegister(read_only.page(0), read_only.bytes(1), 0)),
            ErrorCode::kInvalidValue);
  ASSERT_TRUE(MemHostRegister(read_only.page(0), read_only.bytes(1), kHostRegisterReadOnly).ok());
  ASSERT_TRUE(MemHostUnregister(read_only.page(0)).ok());
  // A range running past the end of the address space.
  EXPECT_EQ(ErrorCodeOf(MemHostRegister(reinterpret_cast<void*>(UINTPTR_MAX - 10), 100, 0)),
            ErrorCode::kInvalidValue);
  EXPECT_EQ(LiveAllocationCount(), before);
}

TEST_F(MemoryTest, ContextDestructionFreesItsMemory) {
  const size_t before = LiveAllocationCount();
  uint64_t dptr = 0;
  ASSERT_TRUE(MemAlloc(&dptr, 64, false).ok());
  EXPECT_EQ(LiveAllocationCount(), before + 1);
  ASSERT_TRUE(DestroyContext(HandleValue(ctx_)).ok());
  EXPECT_EQ(LiveAllocationCount(), before);
  ASSERT_TRUE(CreateContext(HandleOut(&ctx_), 0, 0).ok());
}

TEST_F(MemoryTest, CopiesValidateRangesAndWriteNothingOnError) {
  uint64_t dptr = 0;
  ASSERT_TRUE(MemAlloc(&dptr, 64, false).ok());
  std::vector<uint8_t> host(128, 7);
  EXPECT_EQ(ErrorCodeOf(Memcpy(dptr + 32, reinterpret_cast<uintptr_t>(host.data()), 64,
                               CopyKind::kHostToDevice, 0, Sync::kBlocking)),
            ErrorCode::kInvalidValue);
  ASSERT_TRUE(Memset(dptr, 0xAB, 1, 64, 0, Sync::kBlocking).ok());
  ASSERT_TRUE(Memcpy(reinterpret_cast<uintptr_t>(host.data()), dptr, 64, CopyKind::kDeviceToHost,
                     0, Sync::kBlocking)
                  .ok());
  for (int i = 0; i < 64; ++i) ASSERT_EQ(host[i], 0xAB);
  EXPECT_EQ(host[64], 7);
  EXPECT_EQ(ErrorCodeOf(Memset(dptr + 1, 0, 4, 4, 0, Sync::kBlocking)), ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(Memcpy(dptr, dptr + 8, 16, CopyKind::kDeviceToDevice, 0,
                               Sync::kBlocking)),
            ErrorCode::kInvalidValue);
  ASSERT_TRUE(MemFree(dptr, false).ok());
  EXPECT_EQ(ErrorCodeOf(Memset(dptr, 0, 1, 4, 0, Sync::kBlocking)), ErrorCode::kInvalidValue);
}

TEST_F(MemoryTest, StreamHandlesAreValidated) {
  uint64_t dptr = 0;
  ASSERT_TRUE(MemAlloc(&dptr, 64, false).ok());
  EXPECT_EQ(ErrorCodeOf(Memset(dptr, 0, 1, 4, 0xdead0000, Sync::kAsync)), ErrorCode::kInvalidHandle);
  EXPECT_TRUE(Memset(dptr, 0, 1, 4, 0x1, Sync::kAsync).ok());
  EXPECT_TRUE(Memset(dptr, 0, 1, 4, 0x2, Sync::kAsync).ok());
}

// A pool keeps a freed block in the address map, marked cached: every lookup
// must answer as if it were not there.
TEST_F(MemoryTest, ACachedPoolBlockIsNotAnAllocation) {
  const size_t before = LiveAllocationCount();
  uint64_t pool = 0;
  ASSERT_TRUE(DeviceGetDefaultMemPool(HandleOut(&pool), 0).ok());
  const uint64_t keep = ~uint64_t{0};
  ASSERT_TRUE(MemPoolSetAttribute(pool, kPoolAttrReleaseThreshold, &keep).ok());
  uint64_t dptr = 0;
  ASSERT_TRUE(MemAllocAsync(&dptr, 1000, 0).ok());
  EXPECT_EQ(LiveAllocationCount(), before + 1);
  EXPECT_EQ(FindDeviceAllocationAt(dptr)->size, 1000u);
  ASSERT_TRUE(MemFreeAsync(dptr, 0).ok());
  EXPECT_EQ(LiveAllocationCount(), before);
  EXPECT_EQ(FindDeviceAllocationAt(dptr), nullptr);
  EXPECT_EQ(ErrorCodeOf(ResolveDeviceRange(dptr + 8, 8, "test").status()),
            ErrorCode::kInvalidValue);
  EXPECT_FALSE(ResolveAnyRange(dptr, 1).is_device());
  uint64_t base = 0;
  EXPECT_EQ(ErrorCodeOf(MemGetAddressRange(&base, nullptr, dptr)), ErrorCode::kNotFound);
  EXPECT_EQ(ErrorCodeOf(MemFreeAsync(dptr, 0)), ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(MemFree(dptr, false)), ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(Memset(dptr, 0, 1, 4, 0, Sync::kBlocking)), ErrorCode::kInvalidValue);
  // Handed out again, the block answers with its new size.
  uint64_t again = 0;
  ASSERT_TRUE(MemAllocAsync(&again, 900, 0).ok());
  EXPECT_EQ(again, dptr);
  ASSERT_TRUE(MemGetAddressRange(&base, nullptr, dptr + 899).ok());
  EXPECT_EQ(base, dptr);
  EXPECT_EQ(ErrorCodeOf(MemGetAddressRange(&base, nullptr, dptr + 900)), ErrorCode::kNotFound);
  ASSERT_TRUE(MemFree(again, false).ok());
  EXPECT_EQ(LiveAllocationCount(), before);
}

TEST_F(MemoryTest, ContextDestructionReturnsItsPoolBlocks) {
  const size_t before = LiveAllocationCount();
  uint64_t pool = 0;
  ASSERT_TRUE(DeviceGetDefaultMemPool(HandleOut(&pool), 0).ok());
  uint64_t dptr = 0;
  ASSERT_TRUE(MemAllocAsync(&dptr, 4096, 0).ok());
  uint64_t used = 0;
  ASSERT_TRUE(MemPoolGetAttribute(pool, kPoolAttrUsedMemCurrent, &used).ok());
  EXPECT_GE(used, 4096u);
  ASSERT_TRUE(DestroyContext(HandleValue(ctx_)).ok());
  EXPECT_EQ(LiveAllocationCount(), before);
  ASSERT_TRUE(MemPoolGetAttribute(pool, kPoolAttrUsedMemCurrent, &used).ok());
  EXPECT_EQ(used, 0u);
  ASSERT_TRUE(CreateContext(HandleOut(&ctx_), 0, 0).ok());
  EXPECT_EQ(ErrorCodeOf(MemFreeAsync(dptr, 0)), ErrorCode::kInvalidValue);
}

}  // namespace
}  // namespace streamhal
