#include "conformance/report/format.h"

#include <map>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace streamhal::conformance {
namespace {

// Groups in order of first appearance, each with its rows.
std::vector<std::pair<std::string, std::vector<const RowResult*>>> ByGroup(const Report& report) {
  std::vector<std::pair<std::string, std::vector<const RowResult*>>> groups;
  std::map<std::string, size_t> position;
  for (const RowResult& row : report.rows) {
    auto [it, inserted] = position.emplace(row.row.group, groups.size());
    if (inserted) groups.emplace_back(row.row.group, std::vector<const RowResult*>{});
    groups[it->second].second.push_back(&row);
  }
  return groups;
}

std::string RowLabel(const Row& row) {
  if (row.cuda.empty()) return row.hip;
  if (row.hip.empty()) return row.cuda;
  return absl::StrCat(row.cuda, " / ", row.hip);
}

// --- Markdown ---

std::string MarkdownCell(absl::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

// `name` in code style; an annotation such as " (extra: ...)" stays plain,
// and names joined by " / " are styled one by one.
std::string MarkdownName(const std::string& name) {
  if (name.empty()) return "-";
  std::string code = name, rest;
  const size_t paren = name.find(" (");
  if (paren != std::string::npos) {
    code = name.substr(0, paren);
    rest = name.substr(paren);
  }
  std::vector<std::string> parts = absl::StrSplit(code, " / ");
  for (std::string& part : parts) part = absl::StrCat("`", part, "`");
  return MarkdownCell(absl::StrCat(absl::StrJoin(parts, " / "), rest));
}

std::string MarkdownStatus(const RowResult& row) {
  if (!row.contradiction) return std::string(StatusName(row.observed));
  return absl::StrCat("**", StatusName(row.observed), "** (contradicts the claim)");
}

void AppendTotals(const Report& report, std::string& out) {
  const Totals& totals = report.totals;
  out += "| | supported | partial | unsupported | wont | total |\n";
  out += "|---|---:|---:|---:|---:|---:|\n";
  for (const auto& [label, counts] :
       {std::pair<const char*, const std::map<Status, int>*>{"Claimed", &totals.claimed},
        {"Observed", &totals.observed}}) {
    absl::StrAppend(&out, "| ", label);
    for (Status status : kAllStatuses) {
      const auto it = counts->find(status);
      absl::StrAppend(&out, " | ", it == counts->end() ? 0 : it->second);
    }
    absl::StrAppend(&out, " | ", totals.rows, " |\n");
  }
  out += "\n";
  auto outcome = [&totals](Outcome o) {
    const auto it = totals.outcomes.find(o);
    return it == totals.outcomes.end() ? 0 : it->second;
  };
  absl::StrAppend(&out, "**Contradictions: ", totals.contradictions, ".** Tests: ", totals.tests,
                  " (", outcome(Outcome::kPassed), " passed, ", outcome(Outcome::kFailed),
                  " failed");
  if (outcome(Outcome::kSkipped) > 0)
    absl::StrAppend(&out, ", ", outcome(Outcome::kSkipped), " skipped");
  if (outcome(Outcome::kNotRun) > 0)
    absl::StrAppend(&out, ", ", outcome(Outcome::kNotRun), " not run");
  out += ").\n\n";
}

// Kernel authors must know a device that ends long loops silently.
void AppendLoopLimit(const DeviceInfo& device, std::string& out) {
  if (device.loop_iteration_limit <= 0) return;
  absl::StrAppend(&out, "**Loop limit:** this device ends the loops of a kernel invocation after ",
                  device.loop_iteration_limit,
                  " iterations in total, without an error; a kernel that loops longer gets wrong "
                  "results. Spread long loops over threads (docs/kernel-abi.md).\n\n");
}

void AppendDevice(const Report& report, const MarkdownOptions& options, std::string& out) {
  const DeviceInfo& device = report.device;
  const std::string validation = device.validation ? "on" : "off";
  if (options.doc) {
    absl::StrAppend(
        &out, "Observed on the first Vulkan device",
        device.filter.empty() ? "" : absl::StrCat(" whose name contains `", device.filter, "`"),
        ", with the validation layer ", validation, ".\n\n");
    AppendLoopLimit(device, out);
    return;
  }
  if (!device.available) {
    absl::StrAppend(&out, "**No usable device:** ", MarkdownCell(device.error), "\n\n");
    return;
  }
  absl::StrAppend(&out, "**Device:** ", MarkdownCell(device.name), " (", device.backend, ", ",
                  device.total_memory >> 20, " MiB, compute capability ", device.compute_major, ".",
                  device.compute_minor, "); ", device.count,
                  device.count == 1 ? " device" : " devices", " visible");
  if (!device.filter.empty()) absl::StrAppend(&out, " with filter `", device.filter, "`");
  absl::StrAppend(&out, "; validation layer ", validation, ".\n\n");
  AppendLoopLimit(device, out);
}

// --- JSON ---

std::string Json(absl::string_view text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          absl::StrAppend(&out, absl::StrFormat("\\u%04x", c));
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += "\"";
  return out;
}

std::string JsonOrNull(const std::string& text) { return text.empty() ? "null" : Json(text); }

std::string JsonList(const std::vector<std::string>& items) {
  std::vector<std::string> quoted;
  for (const std::string& item : items) quoted.push_back(Json(item));
  return absl::StrCat("[", absl::StrJoin(quoted, ", "), "]");
}

std::string JsonCounts(const std::map<Status, int>& counts) {
  std::vector<std::string> parts;
  for (Status status : kAllStatuses) {
    const auto it = counts.find(status);
    parts.push_back(
        absl::StrCat(Json(StatusName(status)), ": ", it == counts.end() ? 0 : it->second));
  }
  return absl::StrCat("{", absl::StrJoin(parts, ", "), "}");
}

// --- JUnit ---

std::string Xml(absl::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // XML 1.0 allows no other control characters.
        out += (c < 0x20 && c != '\n' && c != '\t' && c != '\r') ? '?' : static_cast<char>(c);
    }
  }
  return out;
}

std::string TestLines(const Report& report, const RowResult& row, bool with_failures) {
  std::string out;
  for (size_t i : row.tests) {
    const TestResult& test = report.tests[i];
    absl::StrAppend(&out, test.name, ": ", OutcomeName(test.outcome), " (proves ",
                    StatusName(test.proves), ")\n");
    if (!with_failures) continue;
    for (const std::string& failure : test.failures) absl::StrAppend(&out, "  ", failure, "\n");
  }
  return out;
}

}  // namespace

std::string FormatMarkdown(const Report& report, const MarkdownOptions& options) {
  std::string out;
  if (options.doc) {
    absl::StrAppend(&out, "_Generated by `", options.command,
                    "` from conformance/table.tsv and a run of the conformance tests; do not edit "
                    "by hand (rebuild the `streamhal_update_status_doc` target)._\n\n");
  }
  out += "# streamhal API status\n\n";
  AppendDevice(report, options, out);
  out +=
      "*Claimed* is what `conformance/table.tsv` promises for each row; *observed* is what the "
      "row's conformance tests showed on this device. A row is observed supported when all its "
      "tests pass and prove that the functions work, unsupported when they only prove that the "
      "entry points cleanly return `CUDA_ERROR_NOT_SUPPORTED`/`hipErrorNotSupported`, and "
      "partial when some tests fail or prove a documented limitation. The tests column counts "
      "the passing tests of the row.\n\n";
  AppendTotals(report, out);

  for (const auto& [group, rows] : ByGroup(report)) {
    absl::StrAppend(&out, "## ", MarkdownCell(group), "\n\n");
    std::map<Status, int> observed;
    for (const RowResult* row : rows) ++observed[row->observed];
    std::vector<std::string> counts;
    for (const auto& [status, count] : observed) {
      counts.push_back(absl::StrCat(count, " ", StatusName(status)));
    }
    absl::StrAppend(&out, rows.size(), rows.size() == 1 ? " row" : " rows", "; observed ",
                    absl::StrJoin(counts, ", "), ".\n\n");
    out += "| CUDA | HIP | Claimed | Observed | Tests | Reason |\n";
    out += "|---|---|---|---|---:|---|\n";
    for (const RowResult* row : rows) {
      absl::StrAppend(&out, "| ", MarkdownName(row->row.cuda), " | ", MarkdownName(row->row.hip),
                      " | ", StatusName(row->row.claimed), " | ", MarkdownStatus(*row), " | ",
                      row->passed, "/", row->tests.size(), " | ", MarkdownCell(row->row.reason),
                      " |\n");
    }
    out += "\n";
  }

  std::vector<std::string> failing;
  for (const RowResult& row : report.rows) {
    for (size_t i : row.tests) {
      const TestResult& test = report.tests[i];
      if (test.outcome == Outcome::kPassed) continue;
      std::string line = absl::StrCat("- `", test.name, "` (", OutcomeName(test.outcome), "; row ",
                                      MarkdownName(RowLabel(row.row)), ")");
      if (!options.doc && !test.failures.empty()) {
        absl::StrAppend(&line, ": ", MarkdownCell(test.failures.front()));
      }
      failing.push_back(std::move(line));
    }
  }
  if (!failing.empty()) {
    out += "## Failing tests\n\n";
    out +=
        "Tests that did not pass on this device. A partial row may name failing tests: they show "
        "what is missing.\n\n";
    for (const std::string& line : failing) absl::StrAppend(&out, line, "\n");
    out += "\n";
  }
  if (!report.problems.empty()) {
    out += "## Problems with this run\n\n";
    for (const std::string& problem : report.problems) {
      absl::StrAppend(&out, "- ", MarkdownCell(problem), "\n");
    }
    out += "\n";
  }
  return out;
}

std::string FormatJson(const Report& report) {
  const DeviceInfo& device = report.device;
  const Totals& totals = report.totals;
  std::string out = "{\n";
  absl::StrAppend(&out, "  \"tool\": \"streamhal-conformance\",\n");
  absl::StrAppend(
      &out, "  \"device\": {\"available\": ", device.available ? "true" : "false",
      ", \"error\": ", JsonOrNull(device.error), ", \"name\": ", JsonOrNull(device.name),
      ", \"backend\": ", JsonOrNull(device.backend), ", \"count\": ", device.count,
      ", \"total_memory\": ", device.total_memory, ", \"compute_capability\": ",
      device.available ? Json(absl::StrCat(device.compute_major, ".", device.compute_minor))
                       : "null",
      ", \"loop_iteration_limit\": ", device.loop_iteration_limit,
      ", \"cuda_driver_version\": ", device.cuda_driver_version,
      ", \"hip_runtime_version\": ", device.hip_runtime_version,
      ", \"filter\": ", JsonOrNull(device.filter),
      ", \"validation\": ", device.validation ? "true" : "false", "},\n");
  std::vector<std::string> outcomes;
  for (Outcome o : {Outcome::kPassed, Outcome::kFailed, Outcome::kSkipped, Outcome::kNotRun}) {
    const auto it = totals.outcomes.find(o);
    outcomes.push_back(
        absl::StrCat(Json(OutcomeName(o)), ": ", it == totals.outcomes.end() ? 0 : it->second));
  }
  absl::StrAppend(&out, "  \"totals\": {\"rows\": ", totals.rows,
                  ", \"claimed\": ", JsonCounts(totals.claimed),
                  ", \"observed\": ", JsonCounts(totals.observed),
                  ", \"contradictions\": ", totals.contradictions, ", \"tests\": ", totals.tests,
                  ", \"test_outcomes\": {", absl::StrJoin(outcomes, ", "), "}},\n");

  out += "  \"rows\": [";
  for (size_t r = 0; r < report.rows.size(); ++r) {
    const RowResult& row = report.rows[r];
    std::vector<std::string> names;
    for (size_t i : row.tests) names.push_back(report.tests[i].name);
    absl::StrAppend(&out, r == 0 ? "\n" : ",\n", "    {\"group\": ", Json(row.row.group),
                    ", \"cuda\": ", JsonOrNull(row.row.cuda),
                    ", \"hip\": ", JsonOrNull(row.row.hip),
                    ", \"claimed\": ", Json(StatusName(row.row.claimed)),
                    ", \"observed\": ", Json(StatusName(row.observed)),
                    ", \"contradiction\": ", row.contradiction ? "true" : "false",
                    ", \"reason\": ", Json(row.row.reason), ", \"passed\": ", row.passed,
                    ", \"failed\": ", row.failed, ", \"tests\": ", JsonList(names), "}");
  }
  out += "\n  ],\n";

  out += "  \"tests\": [";
  for (size_t t = 0; t < report.tests.size(); ++t) {
    const TestResult& test = report.tests[t];
    absl::StrAppend(&out, t == 0 ? "\n" : ",\n", "    {\"name\": ", Json(test.name),
                    ", \"outcome\": ", Json(OutcomeName(test.outcome)),
                    ", \"proves\": ", Json(StatusName(test.proves)),
                    ", \"seconds\": ", absl::StrFormat("%.3f", test.seconds),
                    ", \"failures\": ", JsonList(test.failures), "}");
  }
  out += "\n  ],\n";
  absl::StrAppend(&out, "  \"unmapped_tests\": ", JsonList(report.unmapped_tests), ",\n");
  absl::StrAppend(&out, "  \"problems\": ", JsonList(report.problems), "\n");
  out += "}\n";
  return out;
}

std::string FormatJunit(const Report& report) {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  const int failures = report.totals.contradictions + static_cast<int>(report.problems.size());
  const int tests = report.totals.rows + static_cast<int>(report.problems.size());
  absl::StrAppend(&out, "<testsuites name=\"streamhal-conformance\" tests=\"", tests,
                  "\" failures=\"", failures, "\">\n");
  for (const auto& [group, rows] : ByGroup(report)) {
    int group_failures = 0, skipped = 0;
    double seconds = 0;
    for (const RowResult* row : rows) {
      if (row->contradiction) {
        ++group_failures;
      } else if (row->observed == Status::kUnsupported || row->observed == Status::kWont) {
        ++skipped;
      }
      seconds += row->seconds;
    }
    absl::StrAppend(&out, "  <testsuite name=\"", Xml(group), "\" tests=\"", rows.size(),
                    "\" failures=\"", group_failures, "\" skipped=\"", skipped, "\" time=\"",
                    absl::StrFormat("%.3f", seconds), "\">\n");
    for (const RowResult* row : rows) {
      absl::StrAppend(&out, "    <testcase classname=\"streamhal.conformance\" name=\"",
                      Xml(RowLabel(row->row)), "\" time=\"", absl::StrFormat("%.3f", row->seconds),
                      "\">\n");
      const std::string summary = absl::StrCat(
          "claimed ", StatusName(row->row.claimed), ", observed ", StatusName(row->observed), "; ",
          row->passed, " of ", row->tests.size(), " tests passed");
      if (row->contradiction) {
        absl::StrAppend(&out, "      <failure message=\"", Xml(summary), "\">",
                        Xml(TestLines(report, *row, /*with_failures=*/true)), "</failure>\n");
      } else if (row->observed == Status::kUnsupported || row->observed == Status::kWont) {
        absl::StrAppend(&out, "      <skipped message=\"", Xml(StatusName(row->observed)), ": ",
                        Xml(row->row.reason), "\"/>\n");
      }
      absl::StrAppend(&out, "      <system-out>", Xml(summary), "\n",
                      Xml(TestLines(report, *row, /*with_failures=*/false)), "</system-out>\n");
      out += "    </testcase>\n";
    }
    out += "  </testsuite>\n";
  }
  if (!report.problems.empty()) {
    absl::StrAppend(&out, "  <testsuite name=\"run\" tests=\"", report.problems.size(),
                    "\" failures=\"", report.problems.size(), "\">\n");
    for (const std::string& problem : report.problems) {
      absl::StrAppend(&out,
                      "    <testcase classname=\"streamhal.conformance\" name=\"problem\">\n"
                      "      <failure message=\"",
                      Xml(problem), "\"/>\n    </testcase>\n");
    }
    out += "  </testsuite>\n";
  }
  out += "</testsuites>\n";
  return out;
}

}  // namespace streamhal::conformance
