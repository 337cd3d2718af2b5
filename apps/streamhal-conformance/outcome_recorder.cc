#include "outcome_recorder.h"

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/diagnostics.h"

namespace streamhal::conformance {
namespace {

// Failure locations keep the file's base name only: the report must not
// carry the paths of the machine that built the program.
std::string BaseName(const char* path) {
  if (path == nullptr) return "unknown";
  const char* slash = std::strrchr(path, '/');
  return slash != nullptr ? slash + 1 : path;
}

}  // namespace

OutcomeRecorder::OutcomeRecorder(bool progress)
    : progress_(progress), terminal_(progress && isatty(STDERR_FILENO) != 0) {}

void OutcomeRecorder::OnTestProgramStart(const testing::UnitTest& unit_test) {
  total_ = unit_test.test_to_run_count();
}

void OutcomeRecorder::OnTestStart(const testing::TestInfo&) {
  validation_at_start_ = ValidationMessageCount();
  failures_.clear();
  started_ = std::chrono::steady_clock::now();
}

void OutcomeRecorder::OnTestPartResult(const testing::TestPartResult& result) {
  if (!result.failed()) return;
  std::string message = result.message();
  // The first lines say what went wrong; gtest may append a stack trace.
  if (message.size() > 2000) message = message.substr(0, 2000) + "...";
  failures_.push_back(
      absl::StrCat(BaseName(result.file_name()), ":", result.line_number(), ": ", message));
}

void OutcomeRecorder::OnTestEnd(const testing::TestInfo& info) {
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - started_;
  TestResult test;
  test.name = absl::StrCat(info.test_suite_name(), ".", info.name());
  test.seconds = elapsed.count();
  test.failures = failures_;
  const testing::TestResult& result = *info.result();
  if (result.Skipped()) {
    test.outcome = Outcome::kSkipped;
  } else {
    test.outcome = result.Passed() ? Outcome::kPassed : Outcome::kFailed;
  }
  for (int i = 0; i < result.test_property_count(); ++i) {
    const testing::TestProperty& property = result.GetTestProperty(i);
    if (std::strcmp(property.key(), kProvesProperty) != 0) continue;
    const std::optional<Status> proves = ParseStatus(property.value());
    if (proves.has_value()) {
      test.proves = *proves;
    } else {
      test.outcome = Outcome::kFailed;
      test.failures.push_back(
          absl::StrCat("unknown value \"", property.value(), "\" of the test property \"proves\""));
    }
  }
  // Validation messages fail the test that caused them, as in ctest.
  const uint64_t messages = ValidationMessageCount() - validation_at_start_;
  if (messages > 0) {
    validation_in_tests_ += messages;
    test.outcome = Outcome::kFailed;
    test.failures.push_back(absl::StrCat(
        messages, " validation message(s) during this test; last: ", LastValidationMessage()));
  }

  ++done_;
  const bool passed = test.outcome == Outcome::kPassed;
  if (!passed) ++failed_;
  if (progress_) {
    const std::string line =
        absl::StrCat("[", done_, "/", total_, "] ", passed ? "ok     " : "FAILED ", test.name);
    if (terminal_ && passed) {
      // Overwrite in place; failures stay on their own line.
      std::fprintf(stderr, "\r\033[K%s", line.c_str());
    } else {
      std::fprintf(stderr, "%s%s\n", terminal_ ? "\r\033[K" : "", line.c_str());
    }
    std::fflush(stderr);
  }
  results_.push_back(std::move(test));
}

void OutcomeRecorder::OnTestProgramEnd(const testing::UnitTest&) {
  if (progress_ && terminal_) std::fprintf(stderr, "\r\033[K");
  if (progress_) {
    std::fprintf(stderr, "%d tests ran, %d failed\n", done_, failed_);
    std::fflush(stderr);
  }
}

}  // namespace streamhal::conformance
