// Peer access between contexts of different devices (cuCtxEnablePeerAccess,
// hipDeviceEnablePeerAccess): once a context has enabled access to a peer
// context, kernels and copies of its device reach every allocation of the
// peer's device, present and future, at the peer's own addresses. The
// backend does the mapping (BackendDevice::EnablePeerAccess); core keeps the
// links, validates, and drops a context's links when it is destroyed.
#ifndef STREAMHAL_CORE_PEER_ACCESS_H_
#define STREAMHAL_CORE_PEER_ACCESS_H_

#include <cstdint>

#include "absl/status/status.h"

namespace streamhal {

class Context;

// cuCtxEnablePeerAccess / cuCtxDisablePeerAccess are declared in
// core/context.h. hipDeviceEnablePeerAccess / hipDeviceDisablePeerAccess:
// the current context and the primary context of `peer_device`.
absl::Status EnablePeerAccessToDevice(int peer_device, unsigned flags);
absl::Status DisablePeerAccessToDevice(int peer_device);

// Whether `accessor` has enabled access to `owner`.
bool PeerAccessEnabled(const Context* accessor, const Context* owner);

// Drops every link from or to `context` (context teardown).
void ForgetPeerAccess(Context* context);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_PEER_ACCESS_H_
