#include "vk_backend/stream.h"

#include <atomic>
#include <chrono>
#include <cstring>
#include <numeric>
#include <thread>
#include <vector>

#include "absl/synchronization/notification.h"
#include "core/status.h"
#include "gtest/gtest.h"
#include "vk_backend/device.h"
#include "vk_backend/test_device.h"

namespace streamhal::vk {
namespace {

using StreamTest = testing::LavapipeTest;

uint8_t* Bytes(const std::unique_ptr<BackendAllocation>& allocation) {
  return static_cast<uint8_t*>(allocation->host_pointer());
}

TEST_F(StreamTest, FlushWithNothingRecordedReturnsTheLastPoint) {
  auto stream = NewStream();
  auto point = stream->Flush();
  ASSERT_TRUE(point.ok());
  EXPECT_EQ(*point, 0u);
  auto buffer = Allocate(256);
  ASSERT_TRUE(stream->RecordFill(BufferRange{buffer.get(), 0}, 1, 4, 64).ok());
  auto first = stream->Flush();
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(*first, 1u);
  auto again = stream->Flush();
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, 1u);
  ASSERT_TRUE(stream->Wait(*first).ok());
  auto complete = stream->IsComplete(*first);
  ASSERT_TRUE(complete.ok());
  EXPECT_TRUE(*complete);
}

TEST_F(StreamTest, CopiesBetweenSubAllocationsAtOddOffsets) {
  auto src = Allocate(1000);
  auto dst = Allocate(1000);
  for (int i = 0; i < 1000; ++i) Bytes(src)[i] = static_cast<uint8_t>(i * 7 + 1);
  std::memset(Bytes(dst), 0xEE, 1000);
  auto stream = NewStream();
  ASSERT_TRUE(stream->RecordCopy(BufferRange{dst.get(), 3}, BufferRange{src.get(), 17}, 501).ok());
  ASSERT_TRUE(stream->RecordCopy(BufferRange{dst.get(), 600}, BufferRange{src.get(), 1}, 1).ok());
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  for (int i = 0; i < 1000; ++i) {
    uint8_t expected = 0xEE;
    if (i >= 3 && i < 504) expected = static_cast<uint8_t>((i - 3 + 17) * 7 + 1);
    if (i == 600) expected = static_cast<uint8_t>(1 * 7 + 1);
    ASSERT_EQ(Bytes(dst)[i], expected) << "byte " << i;
  }
}

TEST_F(StreamTest, FillsAnyElementSizeAtAnyOffsetAndCount) {
  auto buffer = Allocate(512);
  auto stream = NewStream();
  const uint32_t pattern = 0xA1B2C3D4;
  for (uint32_t element : {1u, 2u, 4u}) {
    for (uint64_t offset = 0; offset < 12; offset += element) {
      for (uint64_t count : {1u, 2u, 3u, 5u, 7u, 64u, 101u}) {
        std::memset(Bytes(buffer), 0x5A, 512);
        ASSERT_TRUE(
            stream->RecordFill(BufferRange{buffer.get(), 64 + offset}, pattern, element, count)
                .ok());
        ASSERT_TRUE(Synchronize(stream.get()).ok());
        const uint64_t begin = 64 + offset;
        const uint64_t end = begin + count * element;
        for (uint64_t i = 0; i < 512; ++i) {
          uint8_t expected = 0x5A;
          if (i >= begin && i < end) {
            expected = static_cast<uint8_t>(pattern >> (8 * ((i - begin) % element)));
          }
          ASSERT_EQ(Bytes(buffer)[i], expected) << "element " << element << " offset " << offset
                                                << " count " << count << " byte " << i;
        }
      }
    }
  }
}

TEST_F(StreamTest, UploadsAndDownloadsRunInStreamOrder) {
  auto buffer = Allocate(4096);
  auto stream = NewStream();
  std::vector<uint8_t> first(4096), second(4096);
  std::iota(first.begin(), first.end(), 0);
  std::iota(second.begin(), second.end(), 100);
  std::vector<uint8_t> seen_first(4096, 0), seen_second(4096, 0);
  ASSERT_TRUE(stream->RecordUpload(BufferRange{buffer.get(), 0}, first.data(), 4096).ok());
  // The source may change as soon as the call returns (CUDA, pageable).
  std::fill(first.begin(), first.end(), 0xFF);
  ASSERT_TRUE(stream->RecordDownload(seen_first.data(), BufferRange{buffer.get(), 0}, 4096).ok());
  ASSERT_TRUE(stream->RecordUpload(BufferRange{buffer.get(), 0}, second.data(), 4096).ok());
  ASSERT_TRUE(stream->RecordDownload(seen_second.data(), BufferRange{buffer.get(), 0}, 4096).ok());
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  for (int i = 0; i < 4096; ++i) {
    ASSERT_EQ(seen_first[i], static_cast<uint8_t>(i)) << i;
    ASSERT_EQ(seen_second[i], static_cast<uint8_t>(i + 100)) << i;
  }
}

// Pitched copies (cuMemcpy2D/3D): one command each, rows at their pitches on
// both sides, bytes between rows untouched.
TEST_F(StreamTest, PitchedBoxesCopyUploadDownloadAndFillTheirRowsOnly) {
  // 3 slices of 5 rows of 19 bytes: device pitch 32 with 6 rows a slice,
  // host pitch 24 with 5 rows a slice (back to back).
  CopyBox box{19, 5, 3, 32, 32 * 6, 24, 24 * 5};
  auto device = Allocate(32 * 6 * 3 + 7);
  auto copy = Allocate(32 * 6 * 3 + 7);
  std::memset(Bytes(device), 0xEE, 32 * 6 * 3 + 7);
  std::memset(Bytes(copy), 0xEE, 32 * 6 * 3 + 7);
  std::vector<uint8_t> host(24 * 5 * 3);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<uint8_t>(i * 5 + 1);
  auto stream = NewStream();
  ASSERT_TRUE(stream->RecordUploadBox(BufferRange{device.get(), 7}, host.data(), box).ok());
  // Device to device, same pitches on both sides.
  CopyBox same = box;
  same.src_pitch = box.dst_pitch;
  same.src_slice_pitch = box.dst_slice_pitch;
  ASSERT_TRUE(
      stream->RecordCopyBox(BufferRange{copy.get(), 7}, BufferRange{device.get(), 7}, same).ok());
  // And back to the host with the host's pitches (dst and src swap).
  CopyBox back_box{19, 5, 3, 24, 24 * 5, 32, 32 * 6};
  std::vector<uint8_t> back(host.size(), 0xEE);
  ASSERT_TRUE(stream->RecordDownloadBox(back.data(), BufferRange{copy.get(), 7}, back_box).ok());
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  std::vector<uint8_t> expected(32 * 6 * 3 + 7, 0xEE), expected_back(host.size(), 0xEE);
  for (size_t row = 0; row < box.rows(); ++row) {
    std::memcpy(expected.data() + 7 + box.DstRow(row), host.data() + box.SrcRow(row), 19);
    std::memcpy(expected_back.data() + back_box.DstRow(row), host.data() + box.SrcRow(row), 19);
  }
  EXPECT_EQ(std::vector<uint8_t>(Bytes(device), Bytes(device) + expected.size()), expected);
  EXPECT_EQ(std::vector<uint8_t>(Bytes(copy), Bytes(copy) + expected.size()), expected);
  EXPECT_EQ(back, expected_back);
  // Rows of 2-byte elements 10 bytes apart, from an odd offset.
  ASSERT_TRUE(stream->RecordFillRows(BufferRange{device.get(), 1}, 0xA1B2, 2, 3, 10, 4).ok());
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  for (size_t row = 0; row < 4; ++row) {
    for (size_t b = 0; b < 6; ++b) expected[1 + row * 10 + b] = b % 2 == 0 ? 0xB2 : 0xA1;
  }
  EXPECT_EQ(std::vector<uint8_t>(Bytes(device), Bytes(device) + expected.size()), expected);
}

TEST_F(StreamTest, LargeTransfersUseTheirOwnStaging) {
  constexpr uint64_t kBytes = 3 << 20;  // above the staging ring
  auto buffer = Allocate(kBytes);
  auto stream = NewStream();
  std::vector<uint32_t> data(kBytes / 4);
  std::iota(data.begin(), data.end(), 12345u);
  std::vector<uint32_t> back(kBytes / 4, 0);
  ASSERT_TRUE(stream->RecordUpload(BufferRange{buffer.get(), 0}, data.data(), kBytes).ok());
  ASSERT_TRUE(stream->RecordDownload(back.data(), BufferRange{buffer.get(), 0}, kBytes).ok());
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  EXPECT_EQ(back, data);
}

TEST_F(StreamTest, ManySmallTransfersWrapTheStagingRing) {
  // 3000 x 1000 bytes is about three times the ring: ranges are reused as
  // their points complete, with batches flushed to make room.
  constexpr int kCount = 3000;
  constexpr int kBytes = 1000;
  auto buffer = Allocate(uint64_t{kCount} * kBytes);
  auto stream = NewStream();
  std::vector<uint8_t> data(uint64_t{kCount} * kBytes);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 31 + i / 977);
  std::vector<uint8_t> back(data.size(), 0);
  for (uint64_t i = 0; i < kCount; ++i) {
    ASSERT_TRUE(
        stream
            ->RecordUpload(BufferRange{buffer.get(), i * kBytes}, data.data() + i * kBytes, kBytes)
            .ok());
  }
  for (uint64_t i = 0; i < kCount; ++i) {
    ASSERT_TRUE(stream
                    ->RecordDownload(back.data() + i * kBytes,
                                     BufferRange{buffer.get(), i * kBytes}, kBytes)
                    .ok());
  }
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  EXPECT_EQ(back, data);
}

TEST_F(StreamTest, FullBatchesAreSubmittedOnTheirOwn) {
  auto buffer = Allocate(256);
  auto stream = NewStream();
  auto* vulkan = static_cast<VulkanStream*>(stream.get());
  for (uint32_t i = 0; i < 2 * VulkanStream::kMaxCommandsPerBatch + 5; ++i) {
    ASSERT_TRUE(stream->RecordFill(BufferRange{buffer.get(), 0}, i, 4, 1).ok());
  }
  EXPECT_EQ(vulkan->submitted_point(), 2u);
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  EXPECT_EQ(vulkan->submitted_point(), 3u);
  uint32_t value = 0;
  std::memcpy(&value, Bytes(buffer), 4);
  EXPECT_EQ(value, 2 * VulkanStream::kMaxCommandsPerBatch + 4);
}

TEST_F(StreamTest, CommandsAreRecordedIntoVulkanOnlyWhenSubmitted) {
  auto buffer = Allocate(256);
  auto stream = NewStream();
  auto* vulkan = static_cast<VulkanStream*>(stream.get());
  for (uint32_t i = 1; i <= 10; ++i) {
    ASSERT_TRUE(stream->RecordFill(BufferRange{buffer.get(), 4 * i}, i, 4, 1).ok());
  }
  // Appending costs no command buffer and submits nothing.
  EXPECT_EQ(vulkan->command_buffer_count(), 0u);
  EXPECT_EQ(vulkan->submitted_point(), 0u);
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  EXPECT_EQ(vulkan->command_buffer_count(), 1u);
  for (uint32_t i = 1; i <= 10; ++i) {
    uint32_t value = 0;
    std::memcpy(&value, Bytes(buffer) + 4 * i, 4);
    EXPECT_EQ(value, i);
  }
}

TEST_F(StreamTest, CommandBuffersAreRecycled) {
  auto buffer = Allocate(256);
  auto stream = NewStream();
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(stream->RecordFill(BufferRange{buffer.get(), 0}, 1, 4, 4).ok());
    ASSERT_TRUE(Synchronize(stream.get()).ok());
  }
  // Completed batches are reclaimed a few at a time (StartBatch).
  EXPECT_LE(static_cast<VulkanStream*>(stream.get())->command_buffer_count(),
            VulkanStream::kReclaimBatches);
}

TEST_F(StreamTest, DestroyingAStreamFinishesItsWork) {
  auto buffer = Allocate(1024);
  std::memset(Bytes(buffer), 9, 1024);
  std::vector<uint8_t> back(1024, 0);
  {
    auto stream = NewStream();
    ASSERT_TRUE(stream->RecordFill(BufferRange{buffer.get(), 0}, 3, 1, 1024).ok());
    ASSERT_TRUE(stream->RecordDownload(back.data(), BufferRange{buffer.get(), 0}, 1024).ok());
  }
  EXPECT_EQ(back, std::vector<uint8_t>(1024, 3));
}

TEST_F(StreamTest, RegisteredHostMemoryIsACopyTarget) {
  std::vector<uint8_t> host(10000, 0);
  uint8_t* start = host.data() + 5;
  auto registered = device()->RegisterHostMemory(start, 5000);
  ASSERT_TRUE(registered.ok()) << registered.status();
  auto source = Allocate(5000);
  for (int i = 0; i < 5000; ++i) Bytes(source)[i] = static_cast<uint8_t>(i % 251);
  auto stream = NewStream();
  ASSERT_TRUE(
      stream->RecordCopy(BufferRange{registered->get(), 10}, BufferRange{source.get(), 0}, 4000)
          .ok());
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  for (int i = 0; i < 4000; ++i) ASSERT_EQ(start[10 + i], static_cast<uint8_t>(i % 251)) << i;
  EXPECT_EQ(start[9], 0);
  EXPECT_EQ(start[4010], 0);
}

TEST_F(StreamTest, WaitRunsWhileAnotherThreadRecords) {
  auto buffer = Allocate(1 << 16);
  auto stream = NewStream();
  std::atomic<uint64_t> flushed{0};
  std::atomic<bool> done{false};
  std::vector<uint32_t> results(200, 0);
  std::thread waiter([&] {
    uint64_t waited = 0;
    while (!done.load() || waited < flushed.load()) {
      const uint64_t point = flushed.load();
      if (point > waited) {
        ASSERT_TRUE(stream->Wait(point).ok());
        auto complete = stream->IsComplete(point);
        ASSERT_TRUE(complete.ok());
        EXPECT_TRUE(*complete);
        waited = point;
      } else {
        std::this_thread::yield();
      }
    }
  });
  for (uint32_t i = 0; i < 200; ++i) {
    ASSERT_TRUE(stream->RecordFill(BufferRange{buffer.get(), 4 * i}, i + 1, 4, 1).ok());
    ASSERT_TRUE(
        stream->RecordDownload(&results[i], BufferRange{buffer.get(), 4 * uint64_t{i}}, 4).ok());
    if (i % 10 == 9) {
      auto point = stream->Flush();
      ASSERT_TRUE(point.ok());
      flushed.store(*point);
    }
  }
  done.store(true);
  waiter.join();
  for (uint32_t i = 0; i < 200; ++i) EXPECT_EQ(results[i], i + 1) << i;
}

// A host function that blocks its stream until Release().
class Gate {
 public:
  static void Hold(void* gate) { static_cast<Gate*>(gate)->opened_.WaitForNotification(); }
  void Release() { opened_.Notify(); }

 private:
  absl::Notification opened_;
};

TEST_F(StreamTest, RecordWaitMakesLaterWorkWaitForAnotherStream) {
  auto buffer = Allocate(256);
  std::memset(Bytes(buffer), 0, 256);
  auto producer = NewStream();
  auto consumer = NewStream();
  Gate gate;
  ASSERT_TRUE(producer->RecordHostFunction(&Gate::Hold, &gate).ok());
  ASSERT_TRUE(producer->RecordFill(BufferRange{buffer.get(), 0}, 7, 1, 16).ok());
  auto produced = producer->Flush();
  ASSERT_TRUE(produced.ok());
  ASSERT_TRUE(consumer->RecordWait(producer.get(), *produced).ok());
  ASSERT_TRUE(
      consumer->RecordCopy(BufferRange{buffer.get(), 128}, BufferRange{buffer.get(), 0}, 16).ok());
  auto consumed = consumer->Flush();
  ASSERT_TRUE(consumed.ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  auto done = consumer->IsComplete(*consumed);
  ASSERT_TRUE(done.ok());
  EXPECT_FALSE(*done) << "the consumer ran before the producer's point";
  gate.Release();
  ASSERT_TRUE(consumer->Wait(*consumed).ok());
  for (int i = 0; i < 16; ++i) EXPECT_EQ(Bytes(buffer)[128 + i], 7) << i;
}

// Work queued behind a held host function, on its stream or on one waiting
// for it, must not stall the device queue for the other streams: here the
// host function is released by their work (a stream memory wait released by
// another stream's write).
TEST_F(StreamTest, WorkBehindAHeldHostFunctionDoesNotHoldUpOtherStreams) {
  auto buffer = Allocate(256);
  std::memset(Bytes(buffer), 0, 256);
  auto held = NewStream();
  auto follower = NewStream();
  auto other = NewStream();
  Gate gate;
  ASSERT_TRUE(held->RecordHostFunction(&Gate::Hold, &gate).ok());
  ASSERT_TRUE(held->RecordFill(BufferRange{buffer.get(), 0}, 1, 1, 4).ok());
  auto held_point = held->Flush();
  ASSERT_TRUE(held_point.ok());
  ASSERT_TRUE(follower->RecordWait(held.get(), *held_point).ok());
  ASSERT_TRUE(follower->RecordFill(BufferRange{buffer.get(), 4}, 2, 1, 4).ok());
  auto follower_point = follower->Flush();
  ASSERT_TRUE(follower_point.ok());
  // Submitted after both, and waits for neither.
  ASSERT_TRUE(other->RecordFill(BufferRange{buffer.get(), 8}, 3, 1, 4).ok());
  auto other_point = other->Flush();
  ASSERT_TRUE(other_point.ok());
  // Polled with a deadline: a stalled queue must fail the test, not hang it.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  bool other_done = false;
  while (!other_done && std::chrono::steady_clock::now() < deadline) {
    auto done = other->IsComplete(*other_point);
    ASSERT_TRUE(done.ok());
    other_done = *done;
    if (!other_done) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_TRUE(other_done) << "the queue stalled behind the held host function";
  EXPECT_EQ(Bytes(buffer)[8], other_done ? 3 : 0);
  EXPECT_EQ(Bytes(buffer)[0], 0) << "work after the held host function ran";
  EXPECT_EQ(Bytes(buffer)[4], 0) << "work waiting for it ran";
  gate.Release();
  ASSERT_TRUE(follower->Wait(*follower_point).ok());
  EXPECT_EQ(Bytes(buffer)[0], 1);
  EXPECT_EQ(Bytes(buffer)[4], 2);
}

// A wait that needs only the results polls the stream's completion marker,
// which every batch writes last; it must still not return before the work
// (here held back behind a host function) has run.
TEST_F(StreamTest, AResultsWaitReturnsOnlyOnceTheBatchRan) {
  auto buffer = Allocate(256);
  std::memset(Bytes(buffer), 0, 256);
  auto stream = NewStream();
  auto* vk_stream = static_cast<VulkanStream*>(stream.get());
  ASSERT_TRUE(vk_stream->has_completion_marker());
  Gate gate;
  std::vector<uint8_t> back(16, 0);
  ASSERT_TRUE(stream->RecordHostFunction(&Gate::Hold, &gate).ok());
  ASSERT_TRUE(stream->RecordFill(BufferRange{buffer.get(), 0}, 7, 1, 16).ok());
  ASSERT_TRUE(stream->RecordDownload(back.data(), BufferRange{buffer.get(), 0}, 16).ok());
  const absl::StatusOr<uint64_t> point = stream->Flush();
  ASSERT_TRUE(point.ok());
  EXPECT_TRUE(vk_stream->IsMarked(*point));
  EXPECT_FALSE(vk_stream->IsMarked(*point - 1))
      << "a host function's point is signalled by the host";

  std::atomic<bool> returned{false};
  absl::Status waited;
  std::thread waiter([&] {
    // Bounded, so that a marker that never comes fails below instead of
    // hanging the test.
    waited = stream->Wait(*point, WaitPolicy{10'000'000'000, /*yield=*/true, Completion::kResults});
    returned = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(returned.load()) << "the wait returned before the batch ran";
  EXPECT_FALSE(*stream->IsComplete(*point, Completion::kResults));
  gate.Release();
  waiter.join();
  ASSERT_TRUE(waited.ok()) << waited;
  EXPECT_TRUE(MarkerReached(vk_stream->completion_marker().Load(), *point));
  EXPECT_EQ(back, std::vector<uint8_t>(16, 7));
  EXPECT_TRUE(*stream->IsComplete(*point, Completion::kResults));
  // The driver retires it too (what frees wait for).
  ASSERT_TRUE(stream->Wait(*point).ok());
  EXPECT_TRUE(*stream->IsComplete(*point));
}

TEST_F(StreamTest, WaitingForAReachedPointCostsNothing) {
  auto buffer = Allocate(256);
  auto first = NewStream();
  auto second = NewStream();
  ASSERT_TRUE(first->RecordFill(BufferRange{buffer.get(), 0}, 1, 4, 4).ok());
  ASSERT_TRUE(Synchronize(first.get()).ok());
  ASSERT_TRUE(second->RecordWait(first.get(), first->Flush().value()).ok());
  ASSERT_TRUE(second->RecordWait(second.get(), 0).ok());
  ASSERT_TRUE(second->RecordFill(BufferRange{buffer.get(), 16}, 2, 4, 4).ok());
  ASSERT_TRUE(Synchronize(second.get()).ok());
}

struct HostProbe {
  const uint8_t* watched = nullptr;
  uint8_t seen = 0;
  uint8_t* write = nullptr;
  std::atomic<int> calls{0};
  static void Run(void* data) {
    auto* probe = static_cast<HostProbe*>(data);
    probe->seen = *probe->watched;
    *probe->write = 9;
    probe->calls.fetch_add(1);
  }
};

TEST_F(StreamTest, HostFunctionsRunBetweenEarlierAndLaterWork) {
  auto buffer = Allocate(256);
  std::memset(Bytes(buffer), 0, 256);
  auto stream = NewStream();
  HostProbe probe;
  probe.watched = Bytes(buffer);
  probe.write = Bytes(buffer) + 64;
  ASSERT_TRUE(stream->RecordFill(BufferRange{buffer.get(), 0}, 5, 1, 1).ok());
  ASSERT_TRUE(stream->RecordHostFunction(&HostProbe::Run, &probe).ok());
  // Later work sees what the function wrote.
  ASSERT_TRUE(
      stream->RecordCopy(BufferRange{buffer.get(), 128}, BufferRange{buffer.get(), 64}, 1).ok());
  ASSERT_TRUE(stream->RecordFill(BufferRange{buffer.get(), 0}, 6, 1, 1).ok());
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  EXPECT_EQ(probe.calls.load(), 1);
  EXPECT_EQ(probe.seen, 5);
  EXPECT_EQ(Bytes(buffer)[0], 6);
  EXPECT_EQ(Bytes(buffer)[128], 9);
}

// Host functions (and recordings) do not write the marker; a long run of them
// gets an empty batch that does, so the 32-bit marker stays close.
TEST_F(StreamTest, LongRunsWithoutAMarkedBatchGetOne) {
  auto stream = NewStream();
  auto* vk_stream = static_cast<VulkanStream*>(stream.get());
  ASSERT_TRUE(vk_stream->has_completion_marker());
  constexpr uint64_t kRun = 4;
  vk_stream->SetMaxUnmarkedRunForTesting(kRun);
  HostProbe probe;
  uint8_t watched = 0, written = 0;
  probe.watched = &watched;
  probe.write = &written;
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(stream->RecordHostFunction(&HostProbe::Run, &probe).ok());
  }
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  EXPECT_EQ(probe.calls.load(), 20);
  const uint64_t last = vk_stream->submitted_point();
  EXPECT_GT(last, 20u) << "no marked batch was added";
  EXPECT_TRUE(MarkerReached(vk_stream->completion_marker().Load(), last - (kRun - 1)));
}

TEST_F(StreamTest, WaitForAHostFunctionsPointWaitsForTheFunction) {
  auto stream = NewStream();
  Gate gate;
  ASSERT_TRUE(stream->RecordHostFunction(&Gate::Hold, &gate).ok());
  auto point = stream->Flush();
  ASSERT_TRUE(point.ok());
  EXPECT_EQ(*point, 1u);
  auto done = stream->IsComplete(*point);
  ASSERT_TRUE(done.ok());
  EXPECT_FALSE(*done);
  std::thread releaser([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    gate.Release();
  });
  ASSERT_TRUE(stream->Wait(*point).ok());
  releaser.join();
}

TEST_F(StreamTest, TimestampsAreOrderedNanosecondsReadOnce) {
  auto buffer = Allocate(1 << 20);
  auto stream = NewStream();
  Gate gate;
  ASSERT_TRUE(stream->RecordHostFunction(&Gate::Hold, &gate).ok());
  auto first = stream->RecordTimestamp();
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_TRUE(stream->RecordFill(BufferRange{buffer.get(), 0}, 3, 4, (1 << 20) / 4).ok());
  auto second = stream->RecordTimestamp();
  ASSERT_TRUE(second.ok());
  auto point = stream->Flush();
  ASSERT_TRUE(point.ok());
  auto early = stream->ReadTimestamp(*first);
  ASSERT_FALSE(early.ok());
  EXPECT_EQ(ErrorCodeOf(early.status()), ErrorCode::kNotReady);
  gate.Release();
  ASSERT_TRUE(stream->Wait(*point).ok());
  auto start = stream->ReadTimestamp(*first);
  auto end = stream->ReadTimestamp(*second);
  ASSERT_TRUE(start.ok()) << start.status();
  ASSERT_TRUE(end.ok()) << end.status();
  EXPECT_GT(*start, 0u);
  EXPECT_GE(*end, *start);
  auto again = stream->ReadTimestamp(*first);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(ErrorCodeOf(again.status()), ErrorCode::kInvalidValue);
}

TEST_F(StreamTest, OldTimestampsAreOverwritten) {
  auto stream = NewStream();
  auto oldest = stream->RecordTimestamp();
  ASSERT_TRUE(oldest.ok());
  uint64_t last = 0;
  for (uint32_t i = 0; i < TimestampRing::kSlots; ++i) {
    auto id = stream->RecordTimestamp();
    ASSERT_TRUE(id.ok());
    last = *id;
  }
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  EXPECT_EQ(ErrorCodeOf(stream->ReadTimestamp(*oldest).status()), ErrorCode::kInvalidValue);
  EXPECT_TRUE(stream->ReadTimestamp(last).ok());
}

}  // namespace
}  // namespace streamhal::vk
