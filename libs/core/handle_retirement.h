// A count of retired handles, for per-thread caches of resolved handles
// (the current context, the last stream a thread named): an entry stays
// valid while the count has not moved since its handle was looked up.
#ifndef STREAMHAL_CORE_HANDLE_RETIREMENT_H_
#define STREAMHAL_CORE_HANDLE_RETIREMENT_H_

#include <atomic>
#include <cstdint>

namespace streamhal {
namespace internal {

// Bumped by ~Object after the handle is retired, so a cache entry made from
// a lookup that still found the object (read the count first, then look
// up) is stale once the object has gone.
inline std::atomic<uint64_t> g_handle_retirements{1};

}  // namespace internal

inline uint64_t HandleRetirements() {
  return internal::g_handle_retirements.load(std::memory_order_acquire);
}

}  // namespace streamhal

#endif  // STREAMHAL_CORE_HANDLE_RETIREMENT_H_
