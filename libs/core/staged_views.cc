#include "core/staged_views.h"

#include <utility>

#include "core/status.h"

namespace streamhal {
namespace {

// What a launch holds: the pool's view, given back when the launch's last
// reference (the stream's, once the work has completed) goes.
struct Lease {
  Lease(std::shared_ptr<StagedViews> pool, std::shared_ptr<BackendResourceView> view,
        void (*give_back)(StagedViews*, std::shared_ptr<BackendResourceView>))
      : pool(std::move(pool)), view(std::move(view)), give_back(give_back) {}
  ~Lease() { give_back(pool.get(), std::move(view)); }
  Lease(const Lease&) = delete;
  Lease& operator=(const Lease&) = delete;

  std::shared_ptr<StagedViews> pool;
  std::shared_ptr<BackendResourceView> view;
  void (*give_back)(StagedViews*, std::shared_ptr<BackendResourceView>);
};

}  // namespace

absl::StatusOr<std::shared_ptr<BackendResourceView>> StagedViews::Take(
    const ImageBufferSide& source) {
  std::shared_ptr<BackendResourceView> view;
  {
    MutexLock lock(&mutex_);
    if (!free_.empty()) {
      view = std::move(free_.back());
      free_.pop_back();
    }
  }
  if (view == nullptr) {
    // Made without the lock: it creates an image and waits for its layout
    // change.
    SH_ASSIGN_OR_RETURN(view, device_->CreateStagedView(image_, desc_));
    MutexLock lock(&mutex_);
    ++made_;
  }
  view->SetStagingSource(source);
  auto lease =
      std::make_shared<Lease>(shared_from_this(), std::move(view),
                              [](StagedViews* pool, std::shared_ptr<BackendResourceView> back) {
                                pool->GiveBack(std::move(back));
                              });
  BackendResourceView* raw = lease->view.get();
  return std::shared_ptr<BackendResourceView>(std::move(lease), raw);
}

void StagedViews::GiveBack(std::shared_ptr<BackendResourceView> view) {
  MutexLock lock(&mutex_);
  if (free_.size() < kMaxFree) free_.push_back(std::move(view));
  // Otherwise the view (and its image) goes with this function's argument,
  // after the lock.
}

size_t StagedViews::made() const {
  MutexLock lock(&mutex_);
  return made_;
}

size_t StagedViews::free_count() const {
  MutexLock lock(&mutex_);
  return free_.size();
}

}  // namespace streamhal
