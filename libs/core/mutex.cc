#include "core/mutex.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace streamhal {

void SpinMutex::LockSlow() {
  constexpr int kSpins = 128;
  constexpr int kYields = 64;
  constexpr auto kLongestSleep = std::chrono::microseconds(200);
  auto sleep = std::chrono::microseconds(2);
  for (int tries = 0;; ++tries) {
    // Read before exchanging: waiters share the line instead of taking it
    // from the holder on every try.
    if (!locked_.load(std::memory_order_relaxed) &&
        !locked_.exchange(true, std::memory_order_acquire)) {
      return;
    }
    if (tries < kSpins) {
      CpuRelax();
    } else if (tries < kSpins + kYields) {
      std::this_thread::yield();
    } else {
      std::this_thread::sleep_for(sleep);
      sleep = std::min(sleep * 2, kLongestSleep);
    }
  }
}

SharedMutex::SharedMutex() {
  pthread_rwlockattr_t attributes;
  pthread_rwlockattr_init(&attributes);
#ifdef __GLIBC__
  pthread_rwlockattr_setkind_np(&attributes, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
#endif
  pthread_rwlock_init(&rw_, &attributes);
  pthread_rwlockattr_destroy(&attributes);
}

}  // namespace streamhal
