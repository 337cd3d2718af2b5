// The status table (conformance/table.tsv): one row per API function pair
// with its claimed status, the reason for anything short of supported, and
// the conformance tests that prove it.
#ifndef STREAMHAL_CONFORMANCE_REPORT_TABLE_H_
#define STREAMHAL_CONFORMANCE_REPORT_TABLE_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace streamhal::conformance {

// Ordered from most to least capable.
enum class Status { kSupported, kPartial, kUnsupported, kWont };

inline constexpr Status kAllStatuses[] = {Status::kSupported, Status::kPartial,
                                          Status::kUnsupported, Status::kWont};

// "supported", "partial", "unsupported", "wont".
absl::string_view StatusName(Status status);
std::optional<Status> ParseStatus(absl::string_view name);

struct Row {
  std::string group;
  std::string cuda;  // empty when the row has no CUDA name
  std::string hip;   // empty when the row has no HIP name
  Status claimed = Status::kUnsupported;
  std::string reason;              // required unless claimed is supported
  std::vector<std::string> tests;  // gtest full names ("Suite.Test")
  int line = 0;                    // 1-based line in the table file
};

// The header line every table starts with.
inline constexpr absl::string_view kTableHeader = "group\tcuda\thip\tclaimed\treason\ttests";

// Parses a table: the header, then one tab-separated row per line (six
// columns; `tests` is a comma-separated list). Rejects unknown statuses, a
// missing reason, a row without any name and two rows with the same pair of
// names, citing the line.
absl::StatusOr<std::vector<Row>> ParseTable(absl::string_view text);

}  // namespace streamhal::conformance

#endif  // STREAMHAL_CONFORMANCE_REPORT_TABLE_H_
