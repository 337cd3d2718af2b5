// Claimed versus observed: combines the table with the outcomes of the
// conformance tests run on one device.
//
// The observed status of a row comes from its tests' outcomes only. Each test
// proves one thing when it passes (the gtest property "proves"): by default
// that the function works as documented (`supported`); the tests of rows not
// implemented yet prove that the entry point cleanly reports
// CUDA_ERROR_NOT_SUPPORTED / hipErrorNotSupported (`unsupported`); a few prove
// a documented limitation (`partial`). Then, for one row:
//   - no tests: unsupported (nothing shows it works);
//   - no test passed: partial if a failed test was meant to prove
//     `unsupported` (the entry point no longer reports NOT_SUPPORTED, so the
//     claim is out of date), otherwise unsupported;
//   - every test passed and all prove `supported`: supported;
//   - every test passed and all prove `unsupported`: unsupported, or wont
//     when that is the claim (the tests cannot tell the two apart);
//   - anything else (a mix, or some tests failed): partial.
// A test that is named by a row but was not run counts as failed. A row
// contradicts its claim when the observed status differs from the claimed one.
#ifndef STREAMHAL_CONFORMANCE_REPORT_REPORT_H_
#define STREAMHAL_CONFORMANCE_REPORT_REPORT_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "conformance/report/table.h"

namespace streamhal::conformance {

// The gtest property through which a test says what it proves; its value is
// a status name.
inline constexpr char kProvesProperty[] = "proves";

enum class Outcome { kPassed, kFailed, kSkipped, kNotRun };

// "passed", "failed", "skipped", "not run".
const char* OutcomeName(Outcome outcome);

struct TestResult {
  std::string name;  // "Suite.Test"
  Outcome outcome = Outcome::kNotRun;
  Status proves = Status::kSupported;
  double seconds = 0;
  std::vector<std::string> failures;  // "file:line: message"
};

// The device the tests ran on, as the bindings describe it.
struct DeviceInfo {
  bool available = false;
  std::string error;    // why no device was usable
  std::string name;     // device 0
  std::string backend;  // backend and driver, e.g. "vulkan:llvmpipe"
  int count = 0;        // devices visible to the run
  uint64_t total_memory = 0;
  int compute_major = 0;
  int compute_minor = 0;
  int loop_iteration_limit = 0;  // CU_DEVICE_ATTRIBUTE_HAL_LOOP_ITERATION_LIMIT; 0: none
  int cuda_driver_version = 0;
  int hip_runtime_version = 0;
  std::string filter;  // --device, empty when none
  bool validation = false;
};

struct RowResult {
  Row row;
  Status observed = Status::kUnsupported;
  bool contradiction = false;
  int passed = 0;
  int failed = 0;  // every test that did not pass, including skipped and not run
  double seconds = 0;
  std::vector<size_t> tests;  // indices into Report::tests, in table order
};

struct Totals {
  int rows = 0;
  std::map<Status, int> claimed;
  std::map<Status, int> observed;
  int contradictions = 0;
  int tests = 0;
  std::map<Outcome, int> outcomes;
};

struct Report {
  DeviceInfo device;
  std::vector<TestResult> tests;  // every test that ran, plus named tests that did not
  std::vector<RowResult> rows;
  Totals totals;
  // Things wrong with the run itself (a row naming a test that does not
  // exist, a failing test no row names, validation messages outside tests).
  std::vector<std::string> problems;
  // Tests no row names (allowed, but listed).
  std::vector<std::string> unmapped_tests;
};

// The observed status of one row from the outcomes of its tests (see above).
Status ObserveRow(Status claimed, const std::vector<const TestResult*>& tests);

// Builds the report. `ran` holds the outcome of every test that ran.
Report BuildReport(std::vector<Row> rows, std::vector<TestResult> ran, DeviceInfo device);

// 0 when no row contradicts its claim and the run had no problems, else 1.
int ExitCode(const Report& report);

}  // namespace streamhal::conformance

#endif  // STREAMHAL_CONFORMANCE_REPORT_REPORT_H_
