// The locks every streamhal library uses, with Abseil's thread-safety
// annotations: Mutex (exclusive), SharedMutex (readers and writers), scoped
// holders and a condition variable.
//
// Why not absl::Mutex: distributions build Abseil without NDEBUG (Debian's
// 20220623 among them), and then every absl::Mutex::Lock runs deadlock
// detection, which takes one process-wide spin lock. On the launch path that
// lock cost ~13% of a launch and held two threads launching on their own
// streams to 1.3x the throughput of one (1.87x without it). Turning the
// detection off is a process-wide switch that belongs to the application,
// not to a library linked into it. Distributions also build Abseil without
// ThreadSanitizer, so TSan could not see absl's locks. These wrap the
// pthread primitives, which ThreadSanitizer intercepts itself.
#ifndef STREAMHAL_CORE_MUTEX_H_
#define STREAMHAL_CORE_MUTEX_H_

#include <pthread.h>

#include <atomic>
#include <condition_variable>
#include <mutex>

#include "absl/base/thread_annotations.h"

namespace streamhal {

class CondVar;

// An exclusive lock (std::mutex).
class ABSL_LOCKABLE Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void Lock() ABSL_EXCLUSIVE_LOCK_FUNCTION() { mu_.lock(); }
  void Unlock() ABSL_UNLOCK_FUNCTION() { mu_.unlock(); }

 private:
  friend class CondVar;
  std::mutex mu_;
};

// An exclusive lock for critical sections of tens of nanoseconds on hot
// paths: a memory pool's, taken by every stream-ordered allocation and free.
// Taking it is one atomic exchange and releasing it one store, inline, where
// a Mutex is two calls into libc and two read-modify-writes; on the pool's
// allocation-and-free pair that difference was a quarter of the time. A
// waiter spins briefly, then yields, then sleeps in growing steps, so a
// holder that waits (a pool trimmed while a free still runs on the device)
// costs the waiters latency, not a processor. Not for anything held longer
// as a rule: waiters are not queued, and a holder that sleeps is not woken
// for them.
class ABSL_LOCKABLE SpinMutex {
 public:
  SpinMutex() = default;
  SpinMutex(const SpinMutex&) = delete;
  SpinMutex& operator=(const SpinMutex&) = delete;

  void Lock() ABSL_EXCLUSIVE_LOCK_FUNCTION() {
    if (!locked_.exchange(true, std::memory_order_acquire)) return;
    LockSlow();
  }
  void Unlock() ABSL_UNLOCK_FUNCTION() { locked_.store(false, std::memory_order_release); }

 private:
  void LockSlow();
  std::atomic<bool> locked_{false};
};

// Tells the processor this is a spin loop (frees the core's resources for
// its sibling hyperthread).
inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// A reader/writer lock that prefers writers, so a stream of readers cannot
// starve a writer (glibc's default rwlock prefers readers). Not recursive,
// for readers either: a thread that takes it shared twice can deadlock
// against a waiting writer.
class ABSL_LOCKABLE SharedMutex {
 public:
  SharedMutex();
  ~SharedMutex() { pthread_rwlock_destroy(&rw_); }
  SharedMutex(const SharedMutex&) = delete;
  SharedMutex& operator=(const SharedMutex&) = delete;

  void Lock() ABSL_EXCLUSIVE_LOCK_FUNCTION() { pthread_rwlock_wrlock(&rw_); }
  void Unlock() ABSL_UNLOCK_FUNCTION() { pthread_rwlock_unlock(&rw_); }
  void ReaderLock() ABSL_SHARED_LOCK_FUNCTION() { pthread_rwlock_rdlock(&rw_); }
  void ReaderUnlock() ABSL_UNLOCK_FUNCTION() { pthread_rwlock_unlock(&rw_); }

 private:
  pthread_rwlock_t rw_;
};

// Holds `mu` exclusively for its scope (a Mutex, SpinMutex or SharedMutex).
template <typename M>
class ABSL_SCOPED_LOCKABLE MutexLock {
 public:
  explicit MutexLock(M* mu) ABSL_EXCLUSIVE_LOCK_FUNCTION(mu) : mu_(mu) { mu_->Lock(); }
  ~MutexLock() ABSL_UNLOCK_FUNCTION() { mu_->Unlock(); }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

 private:
  M* const mu_;
};
template <typename M>
MutexLock(M*) -> MutexLock<M>;

// Holds `mu` shared for its scope.
class ABSL_SCOPED_LOCKABLE ReaderMutexLock {
 public:
  explicit ReaderMutexLock(SharedMutex* mu) ABSL_SHARED_LOCK_FUNCTION(mu) : mu_(mu) {
    mu_->ReaderLock();
  }
  ~ReaderMutexLock() ABSL_UNLOCK_FUNCTION() { mu_->ReaderUnlock(); }
  ReaderMutexLock(const ReaderMutexLock&) = delete;
  ReaderMutexLock& operator=(const ReaderMutexLock&) = delete;

 private:
  SharedMutex* const mu_;
};

class CondVar {
 public:
  // Releases `mu`, waits for a Signal (or a spurious wakeup) and takes `mu`
  // again; callers loop on their condition.
  void Wait(Mutex* mu) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    std::unique_lock<std::mutex> lock(mu->mu_, std::adopt_lock);
    cv_.wait(lock);
    lock.release();  // still held, by the caller's scope
  }
  void Signal() { cv_.notify_one(); }
  void SignalAll() { cv_.notify_all(); }

 private:
  std::condition_variable cv_;
};

}  // namespace streamhal

#endif  // STREAMHAL_CORE_MUTEX_H_
