#include "conformance/report/table.h"

#include <set>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"

namespace streamhal::conformance {
namespace {

absl::Status LineError(int line, absl::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat("table line ", line, ": ", message));
}

}  // namespace

absl::string_view StatusName(Status status) {
  switch (status) {
    case Status::kSupported:
      return "supported";
    case Status::kPartial:
      return "partial";
    case Status::kUnsupported:
      return "unsupported";
    case Status::kWont:
      return "wont";
  }
  return "unsupported";
}

std::optional<Status> ParseStatus(absl::string_view name) {
  for (Status status : kAllStatuses) {
    if (StatusName(status) == name) return status;
  }
  return std::nullopt;
}

absl::StatusOr<std::vector<Row>> ParseTable(absl::string_view text) {
  std::vector<absl::string_view> lines = absl::StrSplit(text, '\n');
  // A final newline leaves one empty piece.
  while (!lines.empty() && absl::StripAsciiWhitespace(lines.back()).empty()) lines.pop_back();
  if (lines.empty()) return absl::InvalidArgumentError("the table is empty");

  auto strip_cr = [](absl::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
  };
  if (strip_cr(lines[0]) != kTableHeader) {
    return LineError(1, absl::StrCat("the header must be \"",
                                     absl::StrReplaceAll(kTableHeader, {{"\t", "<TAB>"}}), "\""));
  }

  std::vector<Row> rows;
  std::set<std::pair<std::string, std::string>> seen;
  for (size_t i = 1; i < lines.size(); ++i) {
    const int line_number = static_cast<int>(i) + 1;
    const absl::string_view line = strip_cr(lines[i]);
    std::vector<absl::string_view> columns = absl::StrSplit(line, '\t');
    if (columns.size() != 6) {
      return LineError(line_number,
                       absl::StrCat("expected 6 tab-separated columns, found ", columns.size()));
    }
    Row row;
    row.line = line_number;
    row.group = std::string(absl::StripAsciiWhitespace(columns[0]));
    row.cuda = std::string(absl::StripAsciiWhitespace(columns[1]));
    row.hip = std::string(absl::StripAsciiWhitespace(columns[2]));
    row.reason = std::string(absl::StripAsciiWhitespace(columns[4]));
    if (row.group.empty()) return LineError(line_number, "the group is empty");
    if (row.cuda.empty() && row.hip.empty()) {
      return LineError(line_number, "a row needs a CUDA name, a HIP name or both");
    }
    const absl::string_view claimed = absl::StripAsciiWhitespace(columns[3]);
    const std::optional<Status> status = ParseStatus(claimed);
    if (!status.has_value()) {
      return LineError(line_number,
                       absl::StrCat("unknown status \"", claimed,
                                    "\" (use supported, partial, unsupported or wont)"));
    }
    row.claimed = *status;
    if (row.claimed != Status::kSupported && row.reason.empty()) {
      return LineError(line_number,
                       absl::StrCat("a row claimed ", StatusName(row.claimed), " needs a reason"));
    }
    for (absl::string_view test : absl::StrSplit(columns[5], ',')) {
      test = absl::StripAsciiWhitespace(test);
      if (!test.empty()) row.tests.emplace_back(test);
    }
    if (!seen.emplace(row.cuda, row.hip).second) {
      return LineError(line_number,
                       absl::StrCat("a second row for \"", row.cuda, "\" / \"", row.hip, "\""));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace streamhal::conformance
