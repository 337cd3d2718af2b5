#include "per_thread_stream.h"

namespace streamhal::cuda {
namespace {

// constinit: no constructor runs for it, in a static or a shared library.
constinit thread_local bool per_thread_default_stream = false;

}  // namespace

PerThreadDefaultStreamScope::PerThreadDefaultStreamScope() : previous_(per_thread_default_stream) {
  per_thread_default_stream = true;
}

PerThreadDefaultStreamScope::~PerThreadDefaultStreamScope() {
  per_thread_default_stream = previous_;
}

CUstream SynchronousCallStream() {
  return per_thread_default_stream ? CU_STREAM_PER_THREAD : nullptr;
}

}  // namespace streamhal::cuda
