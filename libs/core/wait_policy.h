// How a host thread waits for the device: CUDA's context scheduling flags
// (CU_CTX_SCHED_*, hipDeviceSchedule*) and CU_EVENT_BLOCKING_SYNC turned into
// the WaitPolicy a backend stream waits with.
#ifndef STREAMHAL_CORE_WAIT_POLICY_H_
#define STREAMHAL_CORE_WAIT_POLICY_H_

#include "core/backend.h"

namespace streamhal {

// What CU_CTX_SCHED_AUTO looks at.
struct WaitEnvironment {
  int active_contexts = 1;     // live contexts of the process
  int logical_processors = 1;  // the host's
  // The device's work runs on the host's own processors (lavapipe), so a
  // polling thread takes a processor away from the device itself.
  bool device_on_host = false;
};

// How long CU_CTX_SCHED_AUTO polls before it sleeps (on a GPU), and how long SPIN and
// YIELD poll on a device that runs on the host's processors (the reasons are
// in docs/architecture.md, "Waiting for the device").
extern const uint64_t kAutoPollNs;
extern const uint64_t kHostDevicePollNs;
// How long CU_CTX_SCHED_AUTO polls on a device that runs on the host's
// processors, and how much of that it spins before it yields.
extern const uint64_t kHostAutoPollNs;
extern const uint64_t kHostAutoSpinNs;

// The policy for the scheduling bits of context flags (`flags` &
// CU_CTX_SCHED_MASK, already validated to hold at most one of them).
WaitPolicy WaitPolicyForFlags(unsigned flags, const WaitEnvironment& environment);

// The policy of a CU_EVENT_BLOCKING_SYNC event: sleep in the driver's wait.
inline WaitPolicy BlockingWaitPolicy() { return WaitPolicy{}; }

}  // namespace streamhal

#endif  // STREAMHAL_CORE_WAIT_POLICY_H_
