#include "core/mutex.h"

namespace streamhal {

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
