// The report's three renderings: Markdown for people, JSON for programs,
// JUnit XML for CI systems.
#ifndef STREAMHAL_CONFORMANCE_REPORT_FORMAT_H_
#define STREAMHAL_CONFORMANCE_REPORT_FORMAT_H_

#include <string>

#include "conformance/report/report.h"

namespace streamhal::conformance {

struct MarkdownOptions {
  // For docs/status.md: leave out what differs between machines running the
  // same device (device name and memory, timings, failure messages), so the
  // committed file only changes when the table or the results do.
  bool doc = false;
  // The command that produced the output, quoted in the first line when
  // `doc` is set.
  std::string command;
};

std::string FormatMarkdown(const Report& report, const MarkdownOptions& options);

// {"tool", "device", "totals", "rows": [{group, cuda, hip, claimed, observed,
// reason, contradiction, passed, failed, tests}], "tests", "unmapped_tests",
// "problems"}; absent names are null.
std::string FormatJson(const Report& report);

// One <testsuite> per group and one <testcase> per row: a <failure> where
// the observed status contradicts the claim, <skipped> where the tests
// confirm an unsupported or wont claim. Problems of the run form a last
// suite.
std::string FormatJunit(const Report& report);

}  // namespace streamhal::conformance

#endif  // STREAMHAL_CONFORMANCE_REPORT_FORMAT_H_
