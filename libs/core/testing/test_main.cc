// gtest main for every streamhal suite. Turns the validation layer on (unless
// the environment already chose) and fails any test during which a backend
// reported a validation message.
#include <cstdlib>

#include "core/diagnostics.h"
#include "gtest/gtest.h"

namespace {

class ValidationListener : public testing::EmptyTestEventListener {
 public:
  void OnTestStart(const testing::TestInfo&) override {
    count_at_start_ = streamhal::ValidationMessageCount();
  }
  void OnTestEnd(const testing::TestInfo& info) override {
    const uint64_t now = streamhal::ValidationMessageCount();
    if (now != count_at_start_) {
      ADD_FAILURE_AT(info.file(), info.line())
          << (now - count_at_start_)
          << " validation message(s) during this test; last: " << streamhal::LastValidationMessage();
    }
  }

 private:
  uint64_t count_at_start_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  setenv("STREAMHAL_VALIDATION", "1", /*overwrite=*/0);
#ifdef STREAMHAL_TEST_PTX_CACHE_DIR
  // PTX translations go to the build tree's cache, never the user's
  // (docs/ptx.md). Set here, not in ctest's ENVIRONMENT: gtest_discover_tests
  // keeps only the first entry of a list-valued property.
  setenv("CUDA_CACHE_PATH", STREAMHAL_TEST_PTX_CACHE_DIR, /*overwrite=*/0);
#endif
  testing::InitGoogleTest(&argc, argv);
  testing::UnitTest::GetInstance()->listeners().Append(new ValidationListener);
  return RUN_ALL_TESTS();
}
