// A backend with configurable fake devices, for core tests that must not
// depend on any GPU API. Kernels never run on it; binding tests use the real
// Vulkan backend on lavapipe.
#ifndef STREAMHAL_CORE_TESTING_FAKE_BACKEND_H_
#define STREAMHAL_CORE_TESTING_FAKE_BACKEND_H_

#include "core/backend.h"

namespace streamhal::testing {

// Replaces every registered backend with one fake backend exposing
// `device_count` devices named "fake device N".
void InstallFakeBackend(int device_count);

// Number of times any fake device's WaitIdle ran.
int FakeWaitIdleCount();
// Number of times any fake stream's Wait ran.
int FakeStreamWaitCount();
// The policy of the last fake stream Wait.
WaitPolicy FakeLastWaitPolicy();

}  // namespace streamhal::testing

#endif  // STREAMHAL_CORE_TESTING_FAKE_BACKEND_H_
