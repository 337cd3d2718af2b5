#include "conformance/report/report.h"

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"

namespace streamhal::conformance {
namespace {

TestResult MakeTest(const std::string& name, Outcome outcome, Status proves = Status::kSupported) {
  TestResult test;
  test.name = name;
  test.outcome = outcome;
  test.proves = proves;
  return test;
}

Status Observe(Status claimed, const std::vector<TestResult>& tests) {
  std::vector<const TestResult*> pointers;
  for (const TestResult& test : tests) pointers.push_back(&test);
  return ObserveRow(claimed, pointers);
}

constexpr Outcome kPass = Outcome::kPassed;
constexpr Outcome kFail = Outcome::kFailed;

TEST(ObserveRowTest, NoTestsIsUnsupported) {
  EXPECT_EQ(Observe(Status::kSupported, {}), Status::kUnsupported);
  EXPECT_EQ(Observe(Status::kUnsupported, {}), Status::kUnsupported);
}

TEST(ObserveRowTest, PassingBehaviourTestsAreSupportedWhateverTheClaim) {
  const std::vector<TestResult> tests = {MakeTest("A", kPass), MakeTest("B", kPass)};
  EXPECT_EQ(Observe(Status::kSupported, tests), Status::kSupported);
  // A claim of less than the tests show is a contradiction too.
  EXPECT_EQ(Observe(Status::kUnsupported, tests), Status::kSupported);
  EXPECT_EQ(Observe(Status::kPartial, tests), Status::kSupported);
}

TEST(ObserveRowTest, SomeFailuresArePartialAllFailuresUnsupported) {
  EXPECT_EQ(Observe(Status::kSupported, {MakeTest("A", kPass), MakeTest("B", kFail)}),
            Status::kPartial);
  EXPECT_EQ(Observe(Status::kSupported, {MakeTest("A", kFail), MakeTest("B", kFail)}),
            Status::kUnsupported);
  EXPECT_EQ(Observe(Status::kSupported, {MakeTest("A", kPass), MakeTest("B", Outcome::kSkipped)}),
            Status::kPartial);
  EXPECT_EQ(Observe(Status::kSupported, {MakeTest("A", kPass), MakeTest("B", Outcome::kNotRun)}),
            Status::kPartial);
}

TEST(ObserveRowTest, PassingNotSupportedProofsAreUnsupportedOrWont) {
  const std::vector<TestResult> tests = {MakeTest("A", kPass, Status::kUnsupported),
                                         MakeTest("B", kPass, Status::kUnsupported)};
  EXPECT_EQ(Observe(Status::kUnsupported, tests), Status::kUnsupported);
  EXPECT_EQ(Observe(Status::kWont, tests), Status::kWont);
  EXPECT_EQ(Observe(Status::kSupported, tests), Status::kUnsupported);
}

TEST(ObserveRowTest, AFailedNotSupportedProofMeansTheClaimIsOutOfDate) {
  // The entry point no longer reports NOT_SUPPORTED.
  EXPECT_EQ(Observe(Status::kUnsupported, {MakeTest("A", kFail, Status::kUnsupported)}),
            Status::kPartial);
  // Implemented through one API only.
  EXPECT_EQ(Observe(Status::kUnsupported, {MakeTest("A", kPass, Status::kUnsupported),
                                           MakeTest("B", kFail, Status::kUnsupported)}),
            Status::kPartial);
}

TEST(ObserveRowTest, LimitationsAndMixedProofsArePartial) {
  EXPECT_EQ(
      Observe(Status::kPartial, {MakeTest("A", kPass), MakeTest("B", kPass, Status::kPartial)}),
      Status::kPartial);
  EXPECT_EQ(Observe(Status::kPartial, {MakeTest("A", kPass, Status::kPartial)}), Status::kPartial);
  EXPECT_EQ(
      Observe(Status::kPartial, {MakeTest("A", kPass), MakeTest("B", kPass, Status::kUnsupported)}),
      Status::kPartial);
  // Behaviour tests that all fail and nothing else: unsupported.
  EXPECT_EQ(
      Observe(Status::kPartial, {MakeTest("A", kFail), MakeTest("B", kFail, Status::kPartial)}),
      Status::kUnsupported);
}

Row MakeRow(const std::string& cuda, Status claimed, std::vector<std::string> tests, int line = 2) {
  Row row;
  row.group = "G";
  row.cuda = cuda;
  row.claimed = claimed;
  row.reason = claimed == Status::kSupported ? "" : "why";
  row.tests = std::move(tests);
  row.line = line;
  return row;
}

TEST(BuildReportTest, ComputesRowsTotalsAndContradictions) {
  std::vector<Row> rows = {MakeRow("cuA", Status::kSupported, {"S.A", "S.B"}),
                           MakeRow("cuB", Status::kUnsupported, {"S.C"}),
                           MakeRow("cuC", Status::kSupported, {"S.C"})};
  std::vector<TestResult> ran = {MakeTest("S.A", kPass), MakeTest("S.B", kPass),
                                 MakeTest("S.C", kPass, Status::kUnsupported)};
  const Report report = BuildReport(rows, ran, DeviceInfo{});
  ASSERT_EQ(report.rows.size(), 3u);
  EXPECT_EQ(report.rows[0].observed, Status::kSupported);
  EXPECT_FALSE(report.rows[0].contradiction);
  EXPECT_EQ(report.rows[0].passed, 2);
  EXPECT_EQ(report.rows[1].observed, Status::kUnsupported);
  EXPECT_FALSE(report.rows[1].contradiction);
  EXPECT_EQ(report.rows[2].observed, Status::kUnsupported);
  EXPECT_TRUE(report.rows[2].contradiction);
  EXPECT_EQ(report.totals.rows, 3);
  EXPECT_EQ(report.totals.contradictions, 1);
  EXPECT_EQ(report.totals.claimed.at(Status::kSupported), 2);
  EXPECT_EQ(report.totals.observed.at(Status::kUnsupported), 2);
  EXPECT_EQ(report.totals.observed.at(Status::kWont), 0);
  EXPECT_EQ(report.totals.outcomes.at(Outcome::kPassed), 3);
  EXPECT_TRUE(report.problems.empty());
  EXPECT_EQ(ExitCode(report), 1);
}

TEST(BuildReportTest, ACleanRunExitsZero) {
  const Report report =
      BuildReport({MakeRow("cuA", Status::kSupported, {"S.A"})}, {MakeTest("S.A", kPass)}, {});
  EXPECT_EQ(ExitCode(report), 0);
}

TEST(BuildReportTest, MissingTestsFailTheirRowsAndAreProblems) {
  const Report report = BuildReport({MakeRow("cuA", Status::kSupported, {"S.A", "S.Typo"}, 7)},
                                    {MakeTest("S.A", kPass)}, {});
  ASSERT_EQ(report.rows.size(), 1u);
  EXPECT_EQ(report.rows[0].observed, Status::kPartial);
  EXPECT_EQ(report.rows[0].failed, 1);
  ASSERT_EQ(report.problems.size(), 1u);
  EXPECT_TRUE(absl::StrContains(report.problems[0], "line 7"));
  EXPECT_TRUE(absl::StrContains(report.problems[0], "S.Typo"));
  EXPECT_EQ(report.tests.back().outcome, Outcome::kNotRun);
}

TEST(BuildReportTest, UnmappedTestsAreListedAndTheirFailuresAreProblems) {
  const Report report = BuildReport(
      {MakeRow("cuA", Status::kSupported, {"S.A"})},
      {MakeTest("S.A", kPass), MakeTest("S.Extra", kPass), MakeTest("S.Broken", kFail)}, {});
  EXPECT_EQ(report.unmapped_tests, (std::vector<std::string>{"S.Extra", "S.Broken"}));
  ASSERT_EQ(report.problems.size(), 1u);
  EXPECT_TRUE(absl::StrContains(report.problems[0], "S.Broken"));
  EXPECT_EQ(ExitCode(report), 1);
}

}  // namespace
}  // namespace streamhal::conformance
