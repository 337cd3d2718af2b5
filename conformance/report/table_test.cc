#include "conformance/report/table.h"

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "conformance/report/embedded_table.h"
#include "gtest/gtest.h"

namespace streamhal::conformance {
namespace {

std::string Table(absl::string_view rows) { return absl::StrCat(kTableHeader, "\n", rows); }

TEST(TableTest, ParsesRows) {
  auto rows =
      ParseTable(Table("Init\tcuInit\thipInit\tsupported\t\tA.One, A.Two\n"
                       "Memory\t\thipMemPtrGetInfo\tunsupported\tnot implemented yet\tB.Three\n"));
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 2u);
  const Row& first = (*rows)[0];
  EXPECT_EQ(first.group, "Init");
  EXPECT_EQ(first.cuda, "cuInit");
  EXPECT_EQ(first.hip, "hipInit");
  EXPECT_EQ(first.claimed, Status::kSupported);
  EXPECT_EQ(first.tests, (std::vector<std::string>{"A.One", "A.Two"}));
  EXPECT_EQ(first.line, 2);
  const Row& second = (*rows)[1];
  EXPECT_TRUE(second.cuda.empty());
  EXPECT_EQ(second.claimed, Status::kUnsupported);
  EXPECT_EQ(second.reason, "not implemented yet");
  EXPECT_EQ(second.line, 3);
}

TEST(TableTest, AcceptsCrLfAndNoFinalNewline) {
  auto rows = ParseTable(absl::StrCat(kTableHeader, "\r\nG\tcuA\t\tpartial\twhy\tT.A"));
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ((*rows)[0].claimed, Status::kPartial);
  EXPECT_EQ((*rows)[0].tests, std::vector<std::string>{"T.A"});
}

TEST(TableTest, KeepsAnnotatedNames) {
  auto rows = ParseTable(Table(
      "Kernel\tcuLaunchKernel (extra: CU_LAUNCH_PARAM_BUFFER_POINTER)\t\tunsupported\tlater\t\n"));
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ((*rows)[0].cuda, "cuLaunchKernel (extra: CU_LAUNCH_PARAM_BUFFER_POINTER)");
  EXPECT_TRUE((*rows)[0].tests.empty());
}

void ExpectError(absl::string_view text, absl::string_view fragment) {
  auto rows = ParseTable(text);
  ASSERT_FALSE(rows.ok()) << "accepted:\n" << text;
  EXPECT_TRUE(absl::StrContains(rows.status().message(), fragment)) << rows.status();
}

TEST(TableTest, RejectsMalformedTables) {
  ExpectError("", "empty");
  ExpectError("group\tcuda\thip\n", "header");
  ExpectError(Table("G\tcuA\thipA\tsupported\t\n"), "line 2: expected 6");
  ExpectError(Table("G\tcuA\thipA\tmaybe\t\tT.A\n"), "unknown status \"maybe\"");
  ExpectError(Table("G\tcuA\thipA\tpartial\t\tT.A\n"), "needs a reason");
  ExpectError(Table("G\tcuA\thipA\twont\t \tT.A\n"), "needs a reason");
  ExpectError(Table("G\t\t\tsupported\t\tT.A\n"), "needs a CUDA name");
  ExpectError(Table("\tcuA\t\tsupported\t\tT.A\n"), "group is empty");
  ExpectError(Table("G\tcuA\thipA\tsupported\t\tT.A\nH\tcuA\thipA\tsupported\t\tT.B\n"),
              "line 3: a second row");
}

TEST(TableTest, SameNameInDifferentPairsIsAllowed) {
  auto rows =
      ParseTable(Table("E\t\thipGetErrorName\tsupported\t\tT.A\n"
                       "E\tcuGetErrorName\thipGetErrorName\tsupported\t\tT.A\n"));
  EXPECT_TRUE(rows.ok()) << rows.status();
}

TEST(TableTest, StatusNamesRoundTrip) {
  for (Status status : kAllStatuses) EXPECT_EQ(ParseStatus(StatusName(status)), status);
  EXPECT_FALSE(ParseStatus("Supported").has_value());
  EXPECT_FALSE(ParseStatus("").has_value());
}

TEST(TableTest, TheBuiltInTableParses) {
  auto rows = ParseTable(EmbeddedTable());
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_GE(rows->size(), 189u);
  for (const Row& row : *rows) {
    EXPECT_FALSE(row.tests.empty()) << "line " << row.line << " names no test";
  }
}

}  // namespace
}  // namespace streamhal::conformance
