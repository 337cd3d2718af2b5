// streamhal-conformance: runs the conformance tests in this process on the
// chosen Vulkan device and reports, row by row of the status table, what is
// claimed and what the tests observed. Exits non-zero when an observation
// contradicts a claim.
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "conformance/report/embedded_table.h"
#include "conformance/report/format.h"
#include "conformance/report/report.h"
#include "conformance/report/table.h"
#include "conformance/tests/conformance_util.h"
#include "core/diagnostics.h"
#include "gtest/gtest.h"
#include "outcome_recorder.h"
#include "vk_backend/instance.h"

namespace streamhal::conformance {
namespace {

constexpr char kUsage[] =
    R"(usage: streamhal-conformance [options]

Runs streamhal's conformance tests on a Vulkan device and prints, for every
row of the API status table, the claimed status and the status the tests
observed. Exits with 1 when an observation contradicts a claim (or the run
had problems), 2 on bad arguments or a malformed table, 0 otherwise.

options:
  --format=markdown|json|junit  report format (default markdown)
  --output=FILE                 write the report to FILE instead of stdout
  --table=FILE                  use this status table instead of the built-in one
  --device=SUBSTRING            use only Vulkan devices whose name contains
                                SUBSTRING (sets STREAMHAL_VK_DEVICE_FILTER)
  --validation                  turn on the Vulkan validation layer; a test
                                during which it reports anything fails
                                (sets STREAMHAL_VALIDATION=1)
  --doc                         Markdown for docs/status.md: no machine-specific
                                details, first line names the command
  --verbose                     also print GoogleTest's own output and the
                                library's warnings
  --gtest_*                     passed to GoogleTest (for example
                                --gtest_filter); rows whose tests do not run
                                are reported as failing
  --help                        this text
)";

enum class Format { kMarkdown, kJson, kJunit };

struct Options {
  Format format = Format::kMarkdown;
  std::string format_name = "markdown";
  std::string output;
  std::string table;
  std::string device;
  bool device_given = false;
  bool validation = false;
  bool doc = false;
  bool verbose = false;
  bool help = false;
  std::vector<std::string> gtest_flags;
};

bool ParseOptions(int argc, char** argv, Options& options, std::string& error) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value_of = [&arg](absl::string_view flag, std::string& out) {
      if (!absl::StartsWith(arg, flag)) return false;
      out = arg.substr(flag.size());
      return true;
    };
    std::string value;
    if (arg == "--help" || arg == "-h") {
      options.help = true;
    } else if (value_of("--format=", value)) {
      if (value == "markdown") {
        options.format = Format::kMarkdown;
      } else if (value == "json") {
        options.format = Format::kJson;
      } else if (value == "junit") {
        options.format = Format::kJunit;
      } else {
        error = absl::StrCat("unknown format \"", value, "\" (markdown, json or junit)");
        return false;
      }
      options.format_name = value;
    } else if (value_of("--output=", value)) {
      options.output = value;
    } else if (value_of("--table=", value)) {
      options.table = value;
    } else if (value_of("--device=", value)) {
      options.device = value;
      options.device_given = true;
    } else if (arg == "--validation") {
      options.validation = true;
    } else if (arg == "--doc") {
      options.doc = true;
    } else if (arg == "--verbose") {
      options.verbose = true;
    } else if (absl::StartsWith(arg, "--gtest_")) {
      options.gtest_flags.push_back(arg);
    } else {
      error = absl::StrCat("unknown argument \"", arg, "\"");
      return false;
    }
  }
  if (options.doc && options.format != Format::kMarkdown) {
    error = "--doc applies to --format=markdown only";
    return false;
  }
  return true;
}

// The command line that reproduces a --doc report, for its first line.
std::string DocCommand(const Options& options) {
  std::string command = "streamhal-conformance --format=markdown --doc";
  if (options.validation) command += " --validation";
  if (options.device_given) absl::StrAppend(&command, " --device=", options.device);
  return command;
}

// Describes device 0 through the bindings, then deinitialises again so the
// tests start from a clean driver.
DeviceInfo QueryDevice(const Options& options) {
  DeviceInfo device;
  device.filter = options.device;
  device.validation = options.validation;
  cuDriverGetVersion(&device.cuda_driver_version);
  hipRuntimeGetVersion(&device.hip_runtime_version);
  const CUresult init = cuInit(0);
  if (init != CUDA_SUCCESS) {
    const char* name = nullptr;
    cuGetErrorName(init, &name);
    device.error =
        absl::StrCat("cuInit failed with ", name != nullptr ? name : "an unknown error",
                     options.device_given ? absl::StrCat(" (is there a Vulkan device whose name "
                                                         "contains \"",
                                                         options.device, "\"?)")
                                          : "");
    return device;
  }
  device.available = true;
  cuDeviceGetCount(&device.count);
  char name[256] = {};
  cuDeviceGetName(name, sizeof(name), 0);
  device.name = name;
  size_t memory = 0;
  cuDeviceTotalMem(&memory, 0);
  device.total_memory = memory;
  cuDeviceComputeCapability(&device.compute_major, &device.compute_minor, 0);
  cuDeviceGetAttribute(&device.loop_iteration_limit, CU_DEVICE_ATTRIBUTE_HAL_LOOP_ITERATION_LIMIT,
                       0);
  hipDeviceProp_t props;
  if (hipGetDeviceProperties(&props, 0) == hipSuccess) device.backend = props.gcnArchName;
  (void)hipGetLastError();
  cuHALDeinit();
  return device;
}

bool ReadFile(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  text = buffer.str();
  return true;
}

int Run(int argc, char** argv) {
  Options options;
  std::string error;
  if (!ParseOptions(argc, argv, options, error)) {
    std::fprintf(stderr, "streamhal-conformance: %s\n\n%s", error.c_str(), kUsage);
    return 2;
  }
  if (options.help) {
    std::fputs(kUsage, stdout);
    return 0;
  }

  // Environment first: the driver reads it when it initialises.
  if (options.device_given) setenv("STREAMHAL_VK_DEVICE_FILTER", options.device.c_str(), 1);
  if (options.validation) setenv("STREAMHAL_VALIDATION", "1", 1);
  // The not-yet-implemented entry points warn once each; that is noise in a
  // report that lists them anyway. Errors (validation messages) still show.
  if (!options.verbose) setenv("STREAMHAL_LOG_LEVEL", "error", /*overwrite=*/0);

  std::string table_text;
  if (options.table.empty()) {
    table_text = EmbeddedTable();
  } else if (!ReadFile(options.table, table_text)) {
    std::fprintf(stderr, "streamhal-conformance: cannot read %s\n", options.table.c_str());
    return 2;
  }
  absl::StatusOr<std::vector<Row>> rows = ParseTable(table_text);
  if (!rows.ok()) {
    std::fprintf(stderr, "streamhal-conformance: %s%s\n",
                 options.table.empty() ? "" : (options.table + ": ").c_str(),
                 std::string(rows.status().message()).c_str());
    return 2;
  }

  std::vector<std::string> gtest_args = {argv[0]};
  gtest_args.insert(gtest_args.end(), options.gtest_flags.begin(), options.gtest_flags.end());
  std::vector<char*> gtest_argv;
  for (std::string& arg : gtest_args) gtest_argv.push_back(arg.data());
  int gtest_argc = static_cast<int>(gtest_argv.size());
  // argv[argc] must be a null pointer, as in main's: InitGoogleTest removes
  // each flag it takes by shifting the rest, terminator included, one left.
  gtest_argv.push_back(nullptr);
  testing::InitGoogleTest(&gtest_argc, gtest_argv.data());

  testing::TestEventListeners& listeners = testing::UnitTest::GetInstance()->listeners();
  if (!options.verbose) delete listeners.Release(listeners.default_result_printer());
  auto* recorder = new OutcomeRecorder(/*progress=*/true);
  listeners.Append(recorder);  // owned by gtest

  const DeviceInfo device = QueryDevice(options);
  if (!device.available) {
    std::fprintf(stderr, "streamhal-conformance: no usable device: %s\n", device.error.c_str());
  } else {
    std::fprintf(stderr, "streamhal-conformance: running on %s\n", device.name.c_str());
  }
  // The outcome is taken from the recorder, not from the return value.
  [[maybe_unused]] const int gtest_result = RUN_ALL_TESTS();
  (void)cuHALDeinit();

  Report report = BuildReport(*std::move(rows), recorder->results(), device);
  const uint64_t outside = ValidationMessageCount() - recorder->validation_messages_in_tests();
  if (outside > 0) {
    report.problems.push_back(absl::StrCat(
        outside, " validation message(s) outside any test; last: ", LastValidationMessage()));
  }

  std::string text;
  switch (options.format) {
    case Format::kMarkdown:
      text = FormatMarkdown(report, {.doc = options.doc, .command = DocCommand(options)});
      break;
    case Format::kJson:
      text = FormatJson(report);
      break;
    case Format::kJunit:
      text = FormatJunit(report);
      break;
  }
  if (options.output.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  } else {
    std::ofstream out(options.output, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
      std::fprintf(stderr, "streamhal-conformance: cannot write %s\n", options.output.c_str());
      return 2;
    }
  }

  const Totals& totals = report.totals;
  std::fprintf(stderr,
               "streamhal-conformance: %d rows (%d supported, %d partial observed), %d "
               "contradiction(s), %zu problem(s)\n",
               totals.rows, totals.observed.at(Status::kSupported),
               totals.observed.at(Status::kPartial), totals.contradictions, report.problems.size());
  for (const RowResult& row : report.rows) {
    if (!row.contradiction) continue;
    std::fprintf(stderr, "  contradiction: %s%s%s claimed %s, observed %s\n", row.row.cuda.c_str(),
                 !row.row.cuda.empty() && !row.row.hip.empty() ? " / " : "", row.row.hip.c_str(),
                 std::string(StatusName(row.row.claimed)).c_str(),
                 std::string(StatusName(row.observed)).c_str());
  }
  for (const std::string& problem : report.problems) {
    std::fprintf(stderr, "  problem: %s\n", problem.c_str());
  }
  return ExitCode(report);
}

}  // namespace
}  // namespace streamhal::conformance

int main(int argc, char** argv) {
  // A child process of a test (conformance_util.h).
  if (argc >= 3 && std::string(argv[1]) == "--child") {
    return streamhal::conformance::RunChildProcess(argv[2], argc - 3, argv + 3);
  }
  // Every test starts a fresh driver (cuInit ... cuHALDeinit), which would
  // load and unload lavapipe and its LLVM each time; one instance held for
  // the whole run keeps them loaded, as in a real program. It saves the
  // reloads, and LeakSanitizer then sees no table leaked by LLVM's unload.
  // Intentionally never destroyed; reachable from a static.
  static auto* pinned = new std::shared_ptr<streamhal::vk::VulkanInstance>;
  if (auto instance = streamhal::vk::VulkanInstance::Create(); instance.ok()) {
    *pinned = *std::move(instance);
  }
  return streamhal::conformance::Run(argc, argv);
}
