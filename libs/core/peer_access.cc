#include "core/peer_access.h"

#include <utility>
#include <vector>

#include "core/context.h"
#include "core/device.h"
#include "core/mutex.h"
#include "core/runtime.h"
#include "core/status.h"

namespace streamhal {
namespace {

struct PeerLink {
  Context* accessor;
  Context* owner;
};

// Every enabled link. Not on any hot path: enabling and disabling are rare,
// and launches do not consult it (the backend maps the memory).
struct PeerLinks {
  Mutex mutex;
  std::vector<PeerLink> links ABSL_GUARDED_BY(mutex);
};

PeerLinks& Links() {
  static PeerLinks* links = new PeerLinks;
  return *links;
}

absl::Status Enable(Context* accessor, Context* owner, unsigned flags, const char* api) {
  if (flags != 0) return Error(ErrorCode::kInvalidValue, api, ": flags must be 0");
  if (owner == accessor) {
    return Error(ErrorCode::kInvalidDevice, api, ": the peer is the current context");
  }
  BackendDevice* device = accessor->device()->backend();
  BackendDevice* peer = owner->device()->backend();
  PeerLinks& links = Links();
  MutexLock lock(&links.mutex);
  for (const PeerLink& link : links.links) {
    if (link.accessor == accessor && link.owner == owner) {
      return Error(ErrorCode::kPeerAccessAlreadyEnabled, api, ": access from device ",
                   accessor->device()->ordinal(), " to the peer on device ",
                   owner->device()->ordinal(), " is already enabled");
    }
  }
  // CUDA: CUDA_ERROR_PEER_ACCESS_UNSUPPORTED where cuDeviceCanAccessPeer
  // says 0.
  // A device is not its own peer: another context of the same device is
  // refused the same way.
  if (device == peer || !device->CanAccessPeer(peer)) {
    return Error(ErrorCode::kPeerAccessUnsupported, api, ": device ", accessor->device()->ordinal(),
                 " cannot access memory of device ", owner->device()->ordinal());
  }
  SH_RETURN_IF_ERROR(device->EnablePeerAccess(peer));
  links.links.push_back(PeerLink{accessor, owner});
  return absl::OkStatus();
}

absl::Status Disable(Context* accessor, Context* owner, const char* api) {
  PeerLinks& links = Links();
  MutexLock lock(&links.mutex);
  for (auto it = links.links.begin(); it != links.links.end(); ++it) {
    if (it->accessor != accessor || it->owner != owner) continue;
    accessor->device()->backend()->DisablePeerAccess(owner->device()->backend());
    links.links.erase(it);
    return absl::OkStatus();
  }
  return Error(ErrorCode::kPeerAccessNotEnabled, api,
               ": peer access to this context was not enabled");
}

}  // namespace

absl::Status EnablePeerAccess(uint64_t peer, unsigned flags) {
  SH_ASSIGN_OR_RETURN(Context * current, CurrentContext());
  SH_ASSIGN_OR_RETURN(Context * peer_context, ResolveContext(peer));
  return Enable(current, peer_context, flags, "cuCtxEnablePeerAccess");
}

absl::Status DisablePeerAccess(uint64_t peer) {
  SH_ASSIGN_OR_RETURN(Context * current, CurrentContext());
  SH_ASSIGN_OR_RETURN(Context * peer_context, ResolveContext(peer));
  return Disable(current, peer_context, "cuCtxDisablePeerAccess");
}

absl::Status EnablePeerAccessToDevice(int peer_device, unsigned flags) {
  SH_ASSIGN_OR_RETURN(Context * current, CurrentContext());
  SH_ASSIGN_OR_RETURN(Context * peer_context, RuntimePrimaryContext(peer_device));
  // AMD: a device is not its own peer (hipErrorInvalidDevice), whichever of
  // its contexts is current.
  if (peer_context->device() == current->device()) {
    return Error(ErrorCode::kInvalidDevice, "hipDeviceEnablePeerAccess: device ", peer_device,
                 " is the current device");
  }
  return Enable(current, peer_context, flags, "hipDeviceEnablePeerAccess");
}

absl::Status DisablePeerAccessToDevice(int peer_device) {
  SH_ASSIGN_OR_RETURN(Context * current, CurrentContext());
  SH_ASSIGN_OR_RETURN(Context * peer_context, RuntimePrimaryContext(peer_device));
  return Disable(current, peer_context, "hipDeviceDisablePeerAccess");
}

bool PeerAccessEnabled(const Context* accessor, const Context* owner) {
  PeerLinks& links = Links();
  MutexLock lock(&links.mutex);
  for (const PeerLink& link : links.links) {
    if (link.accessor == accessor && link.owner == owner) return true;
  }
  return false;
}

void ForgetPeerAccess(Context* context) {
  PeerLinks& links = Links();
  MutexLock lock(&links.mutex);
  for (auto it = links.links.begin(); it != links.links.end();) {
    if (it->accessor != context && it->owner != context) {
      ++it;
      continue;
    }
    it->accessor->device()->backend()->DisablePeerAccess(it->owner->device()->backend());
    it = links.links.erase(it);
  }
}

}  // namespace streamhal
