#include "conformance/report/report.h"

#include <set>
#include <unordered_map>
#include <utility>

#include "absl/strings/str_cat.h"

namespace streamhal::conformance {

const char* OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kPassed:
      return "passed";
    case Outcome::kFailed:
      return "failed";
    case Outcome::kSkipped:
      return "skipped";
    case Outcome::kNotRun:
      return "not run";
  }
  return "not run";
}

Status ObserveRow(Status claimed, const std::vector<const TestResult*>& tests) {
  if (tests.empty()) return Status::kUnsupported;
  bool any_passed = false, any_failed = false;
  bool failed_unsupported_proof = false;
  std::set<Status> proven;
  for (const TestResult* test : tests) {
    if (test->outcome == Outcome::kPassed) {
      any_passed = true;
      proven.insert(test->proves);
    } else {
      any_failed = true;
      if (test->proves == Status::kUnsupported) failed_unsupported_proof = true;
    }
  }
  if (!any_passed) return failed_unsupported_proof ? Status::kPartial : Status::kUnsupported;
  if (!any_failed && proven.size() == 1) {
    const Status only = *proven.begin();
    if (only == Status::kSupported) return Status::kSupported;
    if (only == Status::kUnsupported) {
      return claimed == Status::kWont ? Status::kWont : Status::kUnsupported;
    }
  }
  return Status::kPartial;
}

Report BuildReport(std::vector<Row> rows, std::vector<TestResult> ran, DeviceInfo device) {
  Report report;
  report.device = std::move(device);
  report.tests = std::move(ran);

  std::unordered_map<std::string, size_t> index;
  for (size_t i = 0; i < report.tests.size(); ++i) index.emplace(report.tests[i].name, i);

  // Tests a row names but the run did not have count as failed.
  std::set<std::string> named;
  for (const Row& row : rows) {
    for (const std::string& name : row.tests) {
      named.insert(name);
      if (index.count(name) != 0) continue;
      index.emplace(name, report.tests.size());
      TestResult missing;
      missing.name = name;
      missing.outcome = Outcome::kNotRun;
      missing.failures.push_back("no test of this name was run");
      report.tests.push_back(std::move(missing));
      report.problems.push_back(absl::StrCat("table line ", row.line, " names test ", name,
                                             ", which was not run (misspelt or missing?)"));
    }
  }
  for (const TestResult& test : report.tests) {
    if (named.count(test.name) != 0) continue;
    report.unmapped_tests.push_back(test.name);
    if (test.outcome == Outcome::kFailed) {
      report.problems.push_back(
          absl::StrCat("test ", test.name, " failed and no row of the table names it"));
    }
  }

  Totals& totals = report.totals;
  for (Status status : kAllStatuses) {
    totals.claimed[status] = 0;
    totals.observed[status] = 0;
  }
  for (Row& row : rows) {
    RowResult result;
    std::vector<const TestResult*> tests;
    for (const std::string& name : row.tests) {
      const size_t i = index.at(name);
      result.tests.push_back(i);
      const TestResult& test = report.tests[i];
      tests.push_back(&test);
      if (test.outcome == Outcome::kPassed) {
        ++result.passed;
      } else {
        ++result.failed;
      }
      result.seconds += test.seconds;
    }
    result.observed = ObserveRow(row.claimed, tests);
    result.contradiction = result.observed != row.claimed;
    ++totals.rows;
    ++totals.claimed[row.claimed];
    ++totals.observed[result.observed];
    if (result.contradiction) ++totals.contradictions;
    result.row = std::move(row);
    report.rows.push_back(std::move(result));
  }
  totals.tests = static_cast<int>(report.tests.size());
  for (const TestResult& test : report.tests) ++totals.outcomes[test.outcome];
  return report;
}

int ExitCode(const Report& report) {
  return report.totals.contradictions == 0 && report.problems.empty() ? 0 : 1;
}

}  // namespace streamhal::conformance
