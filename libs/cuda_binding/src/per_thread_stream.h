// The per-thread default-stream variants of the exports (_ptsz, _ptds; see
// entry_points.tsv): CUDA's CUDA_API_PER_THREAD_DEFAULT_STREAM maps calls to
// them, and in them the default stream is the calling thread's own.
#ifndef STREAMHAL_CUDA_BINDING_PER_THREAD_STREAM_H_
#define STREAMHAL_CUDA_BINDING_PER_THREAD_STREAM_H_

#include <cuda.h>

namespace streamhal::cuda {

// A _ptsz variant's stream argument: the null stream is CU_STREAM_PER_THREAD.
inline CUstream PerThread(CUstream stream) {
  return stream == nullptr ? CU_STREAM_PER_THREAD : stream;
}

// Held by a _ptds variant (a synchronous copy or fill, which has no stream
// argument) while it calls the plain function: the calls in its scope work
// in the thread's default stream instead of the legacy stream.
class PerThreadDefaultStreamScope {
 public:
  PerThreadDefaultStreamScope();
  ~PerThreadDefaultStreamScope();
  PerThreadDefaultStreamScope(const PerThreadDefaultStreamScope&) = delete;
  PerThreadDefaultStreamScope& operator=(const PerThreadDefaultStreamScope&) = delete;

 private:
  bool previous_;
};

// The stream of a synchronous call without a stream argument: the legacy
// default stream (null), or CU_STREAM_PER_THREAD inside a _ptds variant.
CUstream SynchronousCallStream();

}  // namespace streamhal::cuda

#endif  // STREAMHAL_CUDA_BINDING_PER_THREAD_STREAM_H_
