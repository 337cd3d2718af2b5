// streamhal-sweep: calls every CUresult / hipError_t entry point with one bad
// argument at a time (null, garbage, destroyed and wrong-kind handles, absurd
// sizes, out-of-range ordinals, enumerations and flags) and every other
// argument valid, and checks that each call returns an error: never success,
// never a crash, never a hang. The cases are generated from the API headers
// (gen_sweep_cases.py, sweep_hints.tsv).
//
// Each case runs in a child process, so one crash cannot hide another.
// Children run a batch of cases each (every case with a fresh driver: init,
// its objects, the call, synchronize, deinit); a case that crashes or hangs
// after others in its batch is run again alone, so each failure is
// attributed to the case that causes it. The parent never touches Vulkan:
// the driver is initialised in the children only.
#include <fcntl.h>
#include <fnmatch.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

#include "absl/strings/str_format.h"
#include "core/diagnostics.h"
#include "sweep_env.h"

namespace streamhal::sweep {
namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  bool cuda = true;
  bool hip = true;
  std::string filter = "*";
  std::string label = "*";
  int jobs = 0;
  int batch = 24;
  double timeout_s = 10;
  bool list = false;
  int run_case = -1;
  bool verbose = false;
  bool validation = false;
  std::string inject;  // self-test: "crash", "hang" or "success" instead of each call
};

enum class Outcome {
  kPending,
  kError,    // an error code: the expected outcome
  kSuccess,  // success on bad input
  kCrash,
  kHang,
  kNotRun,   // the case's objects could not be built
  kValidation,  // the Vulkan validation layer reported something
};

struct Result {
  Outcome outcome = Outcome::kPending;
  int code = 0;
  std::string detail;  // the code's name, the signal, or why not run
  std::string note;    // for failures only seen after other cases
};

struct Batch {
  std::vector<int> cases;
  bool confirm = false;        // a lone re-run of a batch failure
  std::string earlier;         // the cases that ran before it in the batch
  Outcome batch_outcome{};     // what the batch saw
  std::string batch_detail;
};

struct Child {
  pid_t pid = -1;
  int fd = -1;
  Batch batch;
  size_t done = 0;        // cases of the batch with a result
  int in_flight = -1;     // case started and without result
  Clock::time_point started;
  std::string buffer;
};

bool ValidationRequestedByEnv() {
  const char* value = std::getenv("STREAMHAL_VALIDATION");
  return value != nullptr && *value != '\0' && std::strcmp(value, "0") != 0;
}

void Usage() {
  std::fprintf(stderr,
               "usage: streamhal-sweep [--api=cuda|hip] [--filter=GLOB] [--label=GLOB] [--jobs=N] "
               "[--batch=N] [--timeout=SECONDS] [--validation] [--list] [--case=ID] [--verbose]\n"
               "  --filter   only functions whose name matches the shell pattern\n"
               "  --label    only cases whose label matches (\"valid\": the baselines)\n"
               "  --batch    cases per child process (1: one process per case)\n"
               "  --validation  Vulkan validation on (STREAMHAL_VALIDATION=1); a case that\n"
               "             makes the layer report anything fails\n"
               "  --case     run one case in this process (for a debugger)\n"
               "  --inject   self-test of the runner: every case crashes, hangs or succeeds\n"
               "  --verbose  children keep stderr; also list failing baselines\n");
}

// "--name=value": true and *value set when `arg` is that flag.
bool Flag(const std::string& arg, const char* name, const char** value) {
  const size_t n = std::strlen(name);
  if (arg.compare(0, n, name) != 0) return false;
  *value = arg.c_str() + n;
  return true;
}

bool ParseArgs(int argc, char** argv, Options* options) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const char* v = nullptr;
    if (Flag(arg, "--api=", &v)) {
      options->cuda = std::strcmp(v, "cuda") == 0;
      options->hip = std::strcmp(v, "hip") == 0;
      if (!options->cuda && !options->hip) return false;
    } else if (Flag(arg, "--filter=", &v)) {
      options->filter = v;
    } else if (Flag(arg, "--label=", &v)) {
      options->label = v;
    } else if (Flag(arg, "--jobs=", &v)) {
      options->jobs = std::atoi(v);
    } else if (Flag(arg, "--batch=", &v)) {
      options->batch = std::atoi(v);
      if (options->batch < 1) return false;
    } else if (Flag(arg, "--timeout=", &v)) {
      options->timeout_s = std::atof(v);
      if (options->timeout_s <= 0) return false;
    } else if (Flag(arg, "--case=", &v)) {
      options->run_case = std::atoi(v);
    } else if (arg == "--list") {
      options->list = true;
    } else if (arg == "--verbose") {
      options->verbose = true;
    } else if (arg == "--validation") {
      options->validation = true;
    } else if (Flag(arg, "--inject=", &v)) {
      options->inject = v;
      if (options->inject != "crash" && options->inject != "hang" &&
          options->inject != "success") {
        return false;
      }
    } else {
      return false;
    }
  }
  return true;
}

std::string CaseName(int id) {
  const CaseSpec& c = Cases()[id];
  return std::string(Functions()[c.function].name) + "(" + c.label + ")";
}

bool IsBaseline(int id) { return Cases()[id].param < 0; }

void WriteAll(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

// Runs one case in this process. Returns "R <code> <name>", "V <code> <name>|<validation
// message>" or "N <why it could not run>".
std::string RunCase(int id) {
  const CaseSpec& c = Cases()[id];
  const FunctionSpec& f = Functions()[c.function];
  Env env(f.api, c, f.setup);
  if (!env.Setup()) {
    std::string reason = env.error();
    env.Teardown();
    return "N " + reason;
  }
  const uint64_t messages = ValidationMessageCount();
  const int code = f.call(env);
  if (code == Env::kNotRun) {
    const std::string reason = env.error();
    env.Teardown();
    return "N " + reason;
  }
  const std::string result = std::to_string(code) + " " + env.ResultName(code);
  env.Teardown();
  // Messages while the call or its teardown ran: bad input reached Vulkan.
  if (ValidationMessageCount() != messages) return "V " + result + "|" + LastValidationMessage();
  return "R " + result;
}

// Every case initialises and deinitialises the driver, and the Vulkan loader
// dlopens every installed driver (lavapipe pulls in libLLVM) for each
// instance and dlcloses them when it is destroyed: most of a case's time.
// One instance held for the child's life keeps the libraries mapped, as a
// real program's single instance does; each case still makes its own.
void PinVulkanDrivers() {
  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.apiVersion = VK_API_VERSION_1_2;
  VkInstanceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  info.pApplicationInfo = &app;
  // The validation layer too, when the cases will load it.
  static const char* const kLayer = "VK_LAYER_KHRONOS_validation";
  if (ValidationRequestedByEnv()) {
    uint32_t layer_count = 0;
    vkEnumerateInstanceLayerProperties(&layer_count, nullptr);
    std::vector<VkLayerProperties> layers(layer_count);
    vkEnumerateInstanceLayerProperties(&layer_count, layers.data());
    for (const VkLayerProperties& layer : layers) {
      if (std::strcmp(layer.layerName, kLayer) == 0) {
        info.enabledLayerCount = 1;
        info.ppEnabledLayerNames = &kLayer;
      }
    }
  }
  VkInstance instance = VK_NULL_HANDLE;
  if (vkCreateInstance(&info, nullptr, &instance) != VK_SUCCESS) return;
  uint32_t count = 0;
  (void)vkEnumeratePhysicalDevices(instance, &count, nullptr);
  // Never destroyed: the process exits with it.
}

[[noreturn]] void ChildMain(int fd, const std::vector<int>& cases, bool verbose,
                            const std::string& inject) {
  if (!verbose) {
    const int null_fd = open("/dev/null", O_WRONLY);
    if (null_fd >= 0) {
      dup2(null_fd, STDOUT_FILENO);
      dup2(null_fd, STDERR_FILENO);
      close(null_fd);
    }
  }
  PinVulkanDrivers();
  for (int id : cases) {
    WriteAll(fd, "S " + std::to_string(id) + "\n");
    if (inject == "crash") raise(SIGSEGV);
    if (inject == "hang") {
      for (;;) pause();
    }
    std::string line = inject == "success" ? "R 0 success" : RunCase(id);
    for (char& ch : line) {
      if (ch == '\n') ch = ' ';
    }
    WriteAll(fd, line + "\n");
  }
  _exit(0);
}

std::string SignalText(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return "signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
  }
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  return "status " + std::to_string(status);
}

class Runner {
 public:
  Runner(const Options& options, std::vector<int> cases)
      : options_(options), results_(Cases().size()) {
    for (size_t i = 0; i < cases.size(); i += static_cast<size_t>(options.batch)) {
      Batch batch;
      for (size_t j = i; j < cases.size() && j < i + static_cast<size_t>(options.batch); ++j) {
        batch.cases.push_back(cases[j]);
      }
      queue_.push_back(std::move(batch));
    }
  }

  const std::vector<Result>& Run() {
    while (!queue_.empty() || !children_.empty()) {
      while (!queue_.empty() && static_cast<int>(children_.size()) < options_.jobs) {
        Spawn(std::move(queue_.front()));
        queue_.pop_front();
      }
      Poll();
    }
    return results_;
  }

 private:
  void Spawn(Batch batch) {
    int fds[2];
    if (pipe(fds) != 0) {
      std::perror("pipe");
      std::exit(2);
    }
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) {
      std::perror("fork");
      std::exit(2);
    }
    if (pid == 0) {
      close(fds[0]);
      for (auto& [other_pid, child] : children_) close(child.fd);
      ChildMain(fds[1], batch.cases, options_.verbose, options_.inject);
    }
    close(fds[1]);
    Child child;
    child.pid = pid;
    child.fd = fds[0];
    child.batch = std::move(batch);
    child.started = Clock::now();
    children_[pid] = std::move(child);
  }

  void Poll() {
    std::vector<pollfd> fds;
    std::vector<pid_t> pids;
    for (auto& [pid, child] : children_) {
      fds.push_back({child.fd, POLLIN, 0});
      pids.push_back(pid);
    }
    poll(fds.data(), fds.size(), 100);
    for (size_t i = 0; i < fds.size(); ++i) {
      Child& child = children_[pids[i]];
      if (fds[i].revents != 0) {
        char data[4096];
        const ssize_t n = read(child.fd, data, sizeof(data));
        if (n > 0) {
          child.buffer.append(data, static_cast<size_t>(n));
          ParseLines(child);
          continue;
        }
        Finish(child, /*killed=*/false);
        continue;
      }
      const double elapsed =
          std::chrono::duration<double>(Clock::now() - child.started).count();
      if (child.in_flight >= 0 && elapsed > options_.timeout_s) {
        kill(child.pid, SIGKILL);
        Finish(child, /*killed=*/true);
      }
    }
  }

  void ParseLines(Child& child) {
    size_t newline;
    while ((newline = child.buffer.find('\n')) != std::string::npos) {
      const std::string line = child.buffer.substr(0, newline);
      child.buffer.erase(0, newline + 1);
      if (line.size() < 2) continue;
      if (line[0] == 'S') {
        child.in_flight = std::atoi(line.c_str() + 2);
        child.started = Clock::now();
        continue;
      }
      const int id = child.in_flight;
      if (id < 0) continue;
      Result& result = results_[id];
      if (line[0] == 'R' || line[0] == 'V') {
        char* end = nullptr;
        result.code = static_cast<int>(std::strtol(line.c_str() + 2, &end, 10));
        result.detail = end && *end == ' ' ? end + 1 : "";
        result.outcome = result.code == 0 ? Outcome::kSuccess : Outcome::kError;
        if (line[0] == 'V') {
          // A success on bad input stays a success; otherwise the message is the failure.
          const size_t bar = result.detail.find('|');
          result.note = "validation: " + result.detail.substr(bar + 1);
          result.detail.erase(bar);
          if (result.outcome == Outcome::kError || IsBaseline(id)) {
            result.outcome = Outcome::kValidation;
          }
        }
      } else {
        result.outcome = Outcome::kNotRun;
        result.detail = line.substr(2);
      }
      if (child.batch.confirm) ConfirmNote(child.batch, &result);
      child.in_flight = -1;
      ++child.done;
    }
  }

  // A failure seen in a batch that the lone re-run does not reproduce is
  // still reported: some earlier case of the batch left the process broken.
  void ConfirmNote(const Batch& batch, Result* result) {
    const bool fails_alone = result->outcome == Outcome::kCrash ||
                             result->outcome == Outcome::kHang;
    if (fails_alone) return;
    result->note = "passes alone (" + result->detail + "); " +
                   (batch.batch_outcome == Outcome::kHang ? "hung" : "crashed") +
                   " in a process after " + batch.earlier;
    result->outcome = batch.batch_outcome;
    result->detail = batch.batch_detail;
  }

  void Finish(Child& child, bool killed) {
    int status = 0;
    waitpid(child.pid, &status, 0);
    close(child.fd);
    const int id = child.in_flight;
    if (id >= 0) {
      const Outcome outcome = killed ? Outcome::kHang : Outcome::kCrash;
      const std::string detail =
          killed ? "no result after " + absl::StrFormat("%g", options_.timeout_s) + " s"
                 : SignalText(status);
      if (child.done > 0 && !child.batch.confirm) {
        // Other cases ran first in this process: run it again alone.
        Batch lone;
        lone.cases = {id};
        lone.confirm = true;
        lone.batch_outcome = outcome;
        lone.batch_detail = detail;
        for (size_t i = 0; i < child.done; ++i) {
          lone.earlier += (i ? ", " : "") + CaseName(child.batch.cases[i]);
        }
        queue_.push_front(std::move(lone));
      } else {
        Result& result = results_[id];
        result.outcome = outcome;
        result.detail = detail;
      }
    }
    // Whatever the batch did not get to goes to a new child.
    Batch rest;
    bool after = false;
    for (int other : child.batch.cases) {
      if (after) rest.cases.push_back(other);
      if (other == id) after = true;
    }
    if (id < 0) {
      // Ended between cases: requeue those without a result.
      for (size_t i = child.done; i < child.batch.cases.size(); ++i) {
        rest.cases.push_back(child.batch.cases[i]);
      }
      if (!rest.cases.empty() && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
        // A failure outside any case: attribute it to the next case, alone.
        Result& result = results_[rest.cases.front()];
        result.outcome = Outcome::kCrash;
        result.detail = "child ended between cases: " + SignalText(status);
        rest.cases.erase(rest.cases.begin());
      }
    }
    if (!rest.cases.empty()) queue_.push_back(std::move(rest));
    children_.erase(child.pid);
  }

  const Options& options_;
  std::vector<Result> results_;
  std::deque<Batch> queue_;
  std::map<pid_t, Child> children_;
};

struct Totals {
  int cases = 0, baselines = 0, passed = 0, successes = 0, crashes = 0, hangs = 0, not_run = 0;
  int validation = 0;
  int baseline_ok = 0, baseline_unsupported = 0, baseline_error = 0;
};

int Report(const std::vector<int>& cases, const std::vector<Result>& results,
           const Options& options, double seconds) {
  std::map<Api, Totals> totals;
  std::vector<std::string> failures, not_run, baseline_errors;
  for (int id : cases) {
    const CaseSpec& c = Cases()[id];
    const FunctionSpec& f = Functions()[c.function];
    Totals& t = totals[f.api];
    const Result& r = results[id];
    // CUDA_ERROR_NOT_SUPPORTED and hipErrorNotSupported are both 801.
    const int not_supported = 801;
    if (IsBaseline(id)) {
      ++t.baselines;
      if (r.outcome == Outcome::kSuccess) {
        ++t.baseline_ok;
        continue;
      }
      if (r.outcome == Outcome::kError && r.code == not_supported) {
        ++t.baseline_unsupported;
        continue;
      }
      if (r.outcome == Outcome::kError || r.outcome == Outcome::kNotRun) {
        ++t.baseline_error;
        baseline_errors.push_back(CaseName(id) + " -> " + r.detail);
        continue;
      }
    } else {
      ++t.cases;
    }
    const char* tag = nullptr;
    switch (r.outcome) {
      case Outcome::kError: ++t.passed; break;
      case Outcome::kSuccess: ++t.successes; tag = "SUCCESS"; break;
      case Outcome::kCrash: ++t.crashes; tag = "CRASH  "; break;
      case Outcome::kHang: ++t.hangs; tag = "HANG   "; break;
      case Outcome::kValidation: ++t.validation; tag = "VALIDATION"; break;
      case Outcome::kNotRun:
        ++t.not_run;
        not_run.push_back(CaseName(id) + ": " + r.detail);
        break;
      case Outcome::kPending:
        ++t.crashes;
        tag = "LOST   ";
        break;
    }
    if (tag != nullptr) {
      std::string line = std::string(tag) + " [" + std::to_string(id) + "] " + CaseName(id) +
                         " -> " + (r.detail.empty() ? "?" : r.detail);
      if (!r.note.empty()) line += "  (" + r.note + ")";
      failures.push_back(line);
    }
  }
  const bool validation = options.validation || ValidationRequestedByEnv();
  std::printf("streamhal-sweep: %zu cases in %.1f s (%d jobs, batches of %d%s)\n", cases.size(),
              seconds, options.jobs, options.batch, validation ? ", validation on" : "");
  for (auto& [api, t] : totals) {
    std::printf(
        "%-4s  bad-input cases %5d: passed %5d, successes on bad input %3d, crashes %3d, "
        "hangs %3d, not run %3d",
        api == Api::kCuda ? "CUDA" : "HIP", t.cases, t.passed, t.successes, t.crashes, t.hangs,
        t.not_run);
    if (validation) std::printf(", validation messages %3d", t.validation);
    std::printf("\n");
    std::printf(
        "      baselines (all arguments valid) %3d: success %3d, not supported (stub) %3d, "
        "other error %3d\n",
        t.baselines, t.baseline_ok, t.baseline_unsupported, t.baseline_error);
  }
  if (!failures.empty()) {
    std::printf("\nFailures (%zu):\n", failures.size());
    for (const std::string& line : failures) std::printf("  %s\n", line.c_str());
  }
  if (!not_run.empty()) {
    std::printf("\nNot run: the API cannot build the object the case needs (%zu):\n",
                not_run.size());
    for (const std::string& line : not_run) std::printf("  %s\n", line.c_str());
  }
  if (!baseline_errors.empty()) {
    std::printf("\nBaselines that fail with valid arguments (their bad-input cases prove less):"
                " %zu%s\n",
                baseline_errors.size(), options.verbose ? "" : " (--verbose lists them)");
    if (options.verbose) {
      for (const std::string& line : baseline_errors) std::printf("  %s\n", line.c_str());
    }
  }
  return failures.empty() ? 0 : 1;
}

int Main(int argc, char** argv) {
  Options options;
  if (!ParseArgs(argc, argv, &options)) {
    Usage();
    return 2;
  }
  // Children inherit it; the parent itself never initialises Vulkan.
  if (options.validation) setenv("STREAMHAL_VALIDATION", "1", 1);
  if (options.jobs <= 0) options.jobs = static_cast<int>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));

  std::error_code ec;
  std::string dir_template =
      (std::filesystem::temp_directory_path(ec) / "streamhal-sweep-XXXXXX").string();
  if (mkdtemp(dir_template.data()) == nullptr) {
    std::perror("mkdtemp");
    return 2;
  }
  SetWorkDir(dir_template);

  std::vector<int> cases;
  for (size_t id = 0; id < Cases().size(); ++id) {
    const FunctionSpec& f = Functions()[Cases()[id].function];
    if ((f.api == Api::kCuda && !options.cuda) || (f.api == Api::kHip && !options.hip)) continue;
    if (fnmatch(options.filter.c_str(), f.name, 0) != 0) continue;
    if (fnmatch(options.label.c_str(), Cases()[id].label, 0) != 0) continue;
    cases.push_back(static_cast<int>(id));
  }

  int rc = 0;
  if (options.list) {
    for (int id : cases) std::printf("%d\t%s\n", id, CaseName(id).c_str());
  } else if (options.run_case >= 0) {
    if (options.run_case >= static_cast<int>(Cases().size())) {
      Usage();
      rc = 2;
    } else {
      std::printf("%s: %s\n", CaseName(options.run_case).c_str(),
                  RunCase(options.run_case).c_str());
    }
  } else {
    const auto start = Clock::now();
    Runner runner(options, cases);
    const std::vector<Result>& results = runner.Run();
    rc = Report(cases, results, options,
                std::chrono::duration<double>(Clock::now() - start).count());
  }
  std::filesystem::remove_all(dir_template, ec);
  return rc;
}

}  // namespace
}  // namespace streamhal::sweep

int main(int argc, char** argv) { return streamhal::sweep::Main(argc, argv); }
