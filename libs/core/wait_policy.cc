#include "core/wait_policy.h"

#include "core/context.h"

namespace streamhal {

// Several round trips of a short kernel on lavapipe (50-250 us on two
// loaded cores), and a negligible share of a long kernel: a thread that
// gives its processor away between polls costs the device little.
const uint64_t kAutoPollNs = 500'000;
// Long enough for every short kernel; on a kernel of 0.3 s a processor taken
// for 2 ms costs the device under 1%.
const uint64_t kHostDevicePollNs = 2'000'000;

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
  // CUDA's AUTO: spin while the process has no more active contexts than
  // the host has logical processors, else yield; bounded here, then sleep.
  // A device on the host's processors always yields: its worker threads need
  // the processor the waiting thread holds (measured: polling with yields
  // gave lavapipe's shortest round trips on two cores, spinning the longest).
  const bool yield =
      environment.device_on_host || environment.active_contexts > environment.logical_processors;
  return WaitPolicy{kAutoPollNs, yield};
}

}  // namespace streamhal
