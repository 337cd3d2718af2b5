// The mutex, scoped locks and condition variable every streamhal library
// uses: absl::Mutex underneath, with the same thread-safety annotations.
//
// Why not absl::Mutex directly: distributions ship Abseil built without
// ThreadSanitizer, so TSan cannot see its lock and unlock and reports every
// access it guards as a race. Under TSan these wrappers tell it about each
// acquire and release through the sanitizer's mutex annotation interface;
// otherwise they compile to plain absl calls.
#ifndef STREAMHAL_CORE_MUTEX_H_
#define STREAMHAL_CORE_MUTEX_H_

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

#if defined(__SANITIZE_THREAD__)
#define STREAMHAL_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define STREAMHAL_TSAN 1
#endif
#endif

#ifdef STREAMHAL_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace streamhal {

class CondVar;

class ABSL_LOCKABLE Mutex {
 public:
  Mutex() = default;
  // For mutexes with static storage duration.
  explicit constexpr Mutex(absl::ConstInitType) : mu_(absl::kConstInit) {}
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;
#ifdef STREAMHAL_TSAN
  ~Mutex() { __tsan_mutex_destroy(this, 0); }
#endif

  void Lock() ABSL_EXCLUSIVE_LOCK_FUNCTION() {
    BeforeLock(0);
    mu_.Lock();
    AfterLock(0);
  }
  void Unlock() ABSL_UNLOCK_FUNCTION() {
    BeforeUnlock(0);
    mu_.Unlock();
    AfterUnlock(0);
  }
  void ReaderLock() ABSL_SHARED_LOCK_FUNCTION() {
    BeforeLock(kRead);
    mu_.ReaderLock();
    AfterLock(kRead);
  }
  void ReaderUnlock() ABSL_UNLOCK_FUNCTION() {
    BeforeUnlock(kRead);
    mu_.ReaderUnlock();
    AfterUnlock(kRead);
  }

 private:
  friend class CondVar;
#ifdef STREAMHAL_TSAN
  static constexpr unsigned kRead = __tsan_mutex_read_lock;
  void BeforeLock(unsigned flags) { __tsan_mutex_pre_lock(this, flags); }
  void AfterLock(unsigned flags) { __tsan_mutex_post_lock(this, flags, 0); }
  void BeforeUnlock(unsigned flags) { __tsan_mutex_pre_unlock(this, flags); }
  void AfterUnlock(unsigned flags) { __tsan_mutex_post_unlock(this, flags); }
#else
  static constexpr unsigned kRead = 0;
  void BeforeLock(unsigned) {}
  void AfterLock(unsigned) {}
  void BeforeUnlock(unsigned) {}
  void AfterUnlock(unsigned) {}
#endif

  absl::Mutex mu_;
};

// Holds `mu` exclusively for its scope.
class ABSL_SCOPED_LOCKABLE MutexLock {
 public:
  explicit MutexLock(Mutex* mu) ABSL_EXCLUSIVE_LOCK_FUNCTION(mu) : mu_(mu) { mu_->Lock(); }
  ~MutexLock() ABSL_UNLOCK_FUNCTION() { mu_->Unlock(); }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

 private:
  Mutex* const mu_;
};

// Holds `mu` shared for its scope.
class ABSL_SCOPED_LOCKABLE ReaderMutexLock {
 public:
  explicit ReaderMutexLock(Mutex* mu) ABSL_SHARED_LOCK_FUNCTION(mu) : mu_(mu) { mu_->ReaderLock(); }
  ~ReaderMutexLock() ABSL_UNLOCK_FUNCTION() { mu_->ReaderUnlock(); }
  ReaderMutexLock(const ReaderMutexLock&) = delete;
  ReaderMutexLock& operator=(const ReaderMutexLock&) = delete;

 private:
  Mutex* const mu_;
};

class CondVar {
 public:
  // Releases `mu`, waits for a Signal (or a spurious wakeup) and takes `mu`
  // again; callers loop on their condition.
  void Wait(Mutex* mu) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    mu->BeforeUnlock(0);
    mu->AfterUnlock(0);
    cv_.Wait(&mu->mu_);
    mu->BeforeLock(0);
    mu->AfterLock(0);
  }
  void Signal() { cv_.Signal(); }
  void SignalAll() { cv_.SignalAll(); }

 private:
  absl::CondVar cv_;
};

}  // namespace streamhal

#endif  // STREAMHAL_CORE_MUTEX_H_
