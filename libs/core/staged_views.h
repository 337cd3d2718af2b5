// The images that textures over pitched memory are sampled from (kernel ABI
// v2, docs/kernel-abi.md).
//
// Vulkan cannot view a buffer as a 2-D image with an arbitrary row pitch,
// so a launch that binds a texture over pitched memory records a copy of
// the pitched region into an image, before its dispatch and in the same
// submission: the kernel samples what the memory held when the launch ran
// (CUDA's texture reads are not coherent with writes of the same launch
// either). A launch takes a staged view (an image with its view and
// sampler) from its texture object's pool and keeps it until the work that
// binds it has completed, so launches that may run at once (two streams;
// a graph's recording, which keeps its view) never share an image; the
// view goes back to the pool when the stream releases it. In a steady
// state a launch makes no device object.
#ifndef STREAMHAL_CORE_STAGED_VIEWS_H_
#define STREAMHAL_CORE_STAGED_VIEWS_H_

#include <cstddef>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "core/backend.h"
#include "core/mutex.h"

namespace streamhal {

class StagedViews : public std::enable_shared_from_this<StagedViews> {
 public:
  // Free views kept for reuse; more (after a burst of launches in flight
  // at once) are destroyed as they come back.
  static constexpr size_t kMaxFree = 4;

  // Views of images of `image` (2-D, one level) as `desc` says, made on
  // `device`.
  StagedViews(BackendDevice* device, const ImageDesc& image, const BindingViewDesc& desc)
      : device_(device), image_(image), desc_(desc) {}

  const BindingViewDesc& desc() const { return desc_; }

  // A view that no pending work binds, whose dispatches copy from `source`
  // first: a free one, or a new one. It returns to the pool when its last
  // reference goes (the pool lives while any view is out).
  absl::StatusOr<std::shared_ptr<BackendResourceView>> Take(const ImageBufferSide& source);

  // Views made so far and views free now (tests).
  size_t made() const;
  size_t free_count() const;

 private:
  void GiveBack(std::shared_ptr<BackendResourceView> view);

  BackendDevice* const device_;
  const ImageDesc image_;
  const BindingViewDesc desc_;
  mutable Mutex mutex_;
  std::vector<std::shared_ptr<BackendResourceView>> free_ ABSL_GUARDED_BY(mutex_);
  size_t made_ ABSL_GUARDED_BY(mutex_) = 0;
};

}  // namespace streamhal

#endif  // STREAMHAL_CORE_STAGED_VIEWS_H_
