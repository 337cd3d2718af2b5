#include "core/mutex.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace streamhal {
namespace {

TEST(SpinMutexTest, ExcludesEveryOtherHolder) {
  SpinMutex mu;
  int64_t count = 0;
  int holders = 0;
  bool overlapped = false;
  constexpr int kThreads = 4;
  constexpr int kRounds = 20000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kRounds; ++i) {
        MutexLock lock(&mu);
        overlapped |= ++holders != 1;
        ++count;
        --holders;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(count, int64_t{kThreads} * kRounds);
  EXPECT_FALSE(overlapped);
}

// A holder that keeps the lock for milliseconds: the waiter goes past its
// spins and yields into sleeps, and still takes the lock once it is free.
TEST(SpinMutexTest, AWaiterOutlastsALongHolder) {
  SpinMutex mu;
  std::atomic<bool> held{false};
  int value = 0;
  std::thread holder([&] {
    MutexLock lock(&mu);
    held.store(true);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    value = 1;
  });
  while (!held.load()) std::this_thread::yield();
  {
    MutexLock lock(&mu);
    EXPECT_EQ(value, 1) << "taken only after the holder let go";
  }
  holder.join();
}

}  // namespace
}  // namespace streamhal
