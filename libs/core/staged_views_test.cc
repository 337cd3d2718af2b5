#include "core/staged_views.h"

#include <memory>
#include <vector>

#include "gtest/gtest.h"

namespace streamhal {
namespace {

// Records the staging source each view was last given.
class RecordingView : public BackendResourceView {
 public:
  void SetStagingSource(const ImageBufferSide& source) override { source_ = source; }
  const ImageBufferSide& source() const { return source_; }

 private:
  ImageBufferSide source_;
};

// Makes RecordingViews and counts them; nothing else is used.
class ViewDevice : public BackendDevice {
 public:
  const DeviceProperties& properties() const override { return properties_; }
  absl::Status GetMemoryInfo(uint64_t*, uint64_t*) override { return absl::OkStatus(); }
  absl::Status WaitIdle() override { return absl::OkStatus(); }
  absl::StatusOr<std::shared_ptr<BackendResourceView>> CreateStagedView(
      const ImageDesc&, const BindingViewDesc&) override {
    ++made;
    return std::shared_ptr<BackendResourceView>(std::make_shared<RecordingView>());
  }
  int made = 0;

 private:
  DeviceProperties properties_;
};

ImageBufferSide Source(uint64_t offset) {
  ImageBufferSide side;
  side.range.offset = offset;
  side.row_texels = 64;
  return side;
}

TEST(StagedViewsTest, LaunchesInFlightTogetherGetViewsOfTheirOwn) {
  ViewDevice device;
  auto pool = std::make_shared<StagedViews>(&device, ImageDesc{}, BindingViewDesc{});
  absl::StatusOr<std::shared_ptr<BackendResourceView>> a = pool->Take(Source(0));
  absl::StatusOr<std::shared_ptr<BackendResourceView>> b = pool->Take(Source(256));
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(a->get(), b->get());
  EXPECT_EQ(static_cast<const RecordingView*>(a->get())->source().range.offset, 0u);
  EXPECT_EQ(static_cast<const RecordingView*>(b->get())->source().range.offset, 256u);
  EXPECT_EQ(device.made, 2);
  EXPECT_EQ(pool->free_count(), 0u);
}

TEST(StagedViewsTest, ViewsGoBackWhenReleasedAndAreReused) {
  ViewDevice device;
  auto pool = std::make_shared<StagedViews>(&device, ImageDesc{}, BindingViewDesc{});
  for (int launch = 0; launch < 100; ++launch) {
    absl::StatusOr<std::shared_ptr<BackendResourceView>> view = pool->Take(Source(launch * 16));
    ASSERT_TRUE(view.ok());
    // A copy held elsewhere (a stream's pending list) keeps it out.
    std::shared_ptr<BackendResourceView> pending = *view;
    view->reset();
    EXPECT_EQ(pool->free_count(), 0u);
    pending.reset();
    EXPECT_EQ(pool->free_count(), 1u);
  }
  EXPECT_EQ(device.made, 1) << "a steady state makes no view per launch";
}

TEST(StagedViewsTest, AViewOutlivesItsPoolsOwner) {
  ViewDevice device;
  auto pool = std::make_shared<StagedViews>(&device, ImageDesc{}, BindingViewDesc{});
  std::weak_ptr<StagedViews> weak = pool;
  absl::StatusOr<std::shared_ptr<BackendResourceView>> view = pool->Take(Source(0));
  ASSERT_TRUE(view.ok());
  pool.reset();  // the texture object went while a launch is pending
  EXPECT_FALSE(weak.expired());
  view->reset();
  EXPECT_TRUE(weak.expired());
}

TEST(StagedViewsTest, AtMostAFewFreeViewsAreKept) {
  ViewDevice device;
  auto pool = std::make_shared<StagedViews>(&device, ImageDesc{}, BindingViewDesc{});
  std::vector<std::shared_ptr<BackendResourceView>> out;
  for (size_t i = 0; i < StagedViews::kMaxFree + 3; ++i) {
    absl::StatusOr<std::shared_ptr<BackendResourceView>> view = pool->Take(Source(0));
    ASSERT_TRUE(view.ok());
    out.push_back(*std::move(view));
  }
  out.clear();
  EXPECT_EQ(pool->free_count(), StagedViews::kMaxFree);
}

}  // namespace
}  // namespace streamhal
