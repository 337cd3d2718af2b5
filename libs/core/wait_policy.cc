#include "core/wait_policy.h"

#include "core/context.h"

namespace streamhal {

// Many round trips of a short kernel on a GPU (tens of microseconds), and a
// negligible share of a long kernel.
const uint64_t kAutoPollNs = 500'000;
// Long enough for every short kernel; on a kernel of 0.3 s a processor taken
// for 2 ms costs the device under 1%.
const uint64_t kHostDevicePollNs = 2'000'000;
// Many round trips of an empty kernel on lavapipe (25-60 us), so that a
// loaded machine's slower wake-ups still end within it (200 us did not,
// often enough to show in the median); yielding, it costs a long kernel
// next to nothing.
const uint64_t kHostAutoPollNs = 1'000'000;
// Two empty-kernel round trips on an idle lavapipe; a yielding poller notices
// the marker some microseconds later than a spinning one.
const uint64_t kHostAutoSpinNs = 50'000;

WaitPolicy WaitPolicyForFlags(unsigned flags, const WaitEnvironment& environment) {
  // On a device that runs on the host's processors a thread that never
  // sleeps takes a processor from the device for as long as the kernel runs
  // (lavapipe: 65,536 x 20,000 LCG steps ran 1.7x slower under SPIN, 1.3x
  // under YIELD), so there SPIN and YIELD poll for a bounded time too.
  const uint64_t bounded =
      environment.device_on_host ? kHostDevicePollNs : WaitPolicy::kPollForever;
  switch (flags & kCtxSchedMask) {
    case kCtxSchedSpin:
      return WaitPolicy{bounded, /*yield=*/false};
    case kCtxSchedYield:
      return WaitPolicy{bounded, /*yield=*/true};
    case kCtxSchedBlockingSync:
      return BlockingWaitPolicy();
    default:
      break;
  }
  // A device on the host's processors: spin briefly (as CUDA's AUTO would:
  // while active contexts <= logical processors), then poll yielding, then
  // sleep (measurements in docs/architecture.md, "Waiting for the device").
  // A short kernel's results are seen the moment they are written (the
  // stream's completion marker), where a sleeper waits for two wake-ups;
  // past the first tens of microseconds, yielding hands the processor to
  // the device's own threads whenever they can use it, and the bound keeps
  // a long kernel's cost to a millisecond of a processor that mostly
  // yields.
  if (environment.device_on_host) {
    WaitPolicy policy{kHostAutoPollNs, /*yield=*/true};
    // CUDA's heuristic decides whether the start of the wait spins.
    if (environment.active_contexts <= environment.logical_processors) {
      policy.spin_ns = kHostAutoSpinNs;
    }
    return policy;
  }
  // CUDA's AUTO: spin while the process has no more active contexts than
  // the host has logical processors, else yield; bounded here, then sleep.
  const bool yield = environment.active_contexts > environment.logical_processors;
  return WaitPolicy{kAutoPollNs, yield};
}

}  // namespace streamhal
