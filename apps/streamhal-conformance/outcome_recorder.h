// A GoogleTest listener that records each test's outcome for the report,
// prints a progress line per test to stderr, and fails a test during which
// the backend reported a validation message (as the library test suites do).
#ifndef STREAMHAL_APPS_STREAMHAL_CONFORMANCE_OUTCOME_RECORDER_H_
#define STREAMHAL_APPS_STREAMHAL_CONFORMANCE_OUTCOME_RECORDER_H_

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "conformance/report/report.h"
#include "gtest/gtest.h"

namespace streamhal::conformance {

class OutcomeRecorder : public testing::EmptyTestEventListener {
 public:
  // `progress` prints a line per test on stderr (overwritten in place when
  // stderr is a terminal).
  explicit OutcomeRecorder(bool progress);

  void OnTestProgramStart(const testing::UnitTest& unit_test) override;
  void OnTestStart(const testing::TestInfo& info) override;
  void OnTestPartResult(const testing::TestPartResult& result) override;
  void OnTestEnd(const testing::TestInfo& info) override;
  void OnTestProgramEnd(const testing::UnitTest& unit_test) override;

  const std::vector<TestResult>& results() const { return results_; }
  // Validation messages reported while a test ran.
  uint64_t validation_messages_in_tests() const { return validation_in_tests_; }

 private:
  bool progress_;
  bool terminal_;
  int total_ = 0;
  int done_ = 0;
  int failed_ = 0;
  uint64_t validation_at_start_ = 0;
  uint64_t validation_in_tests_ = 0;
  std::chrono::steady_clock::time_point started_;
  std::vector<std::string> failures_;
  std::vector<TestResult> results_;
};

}  // namespace streamhal::conformance

#endif  // STREAMHAL_APPS_STREAMHAL_CONFORMANCE_OUTCOME_RECORDER_H_
