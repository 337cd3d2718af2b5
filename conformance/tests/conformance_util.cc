#include "conformance_util.h"

#include <dirent.h>

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <string>
#include <thread>

extern char** environ;

namespace streamhal::conformance {
namespace {

std::string CuName(CUresult result) {
  const char* name = nullptr;
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS || name == nullptr) {
    return "CUresult " + std::to_string(static_cast<int>(result));
  }
  return name;
}

std::string HipName(hipError_t error) {
  return std::string(hipGetErrorName(error)) + " (" + std::to_string(static_cast<int>(error)) + ")";
}

}  // namespace

hipError_t HipEquivalent(CUresult result) {
  switch (result) {
    case CUDA_SUCCESS:
      return hipSuccess;
    case CUDA_ERROR_INVALID_VALUE:
      return hipErrorInvalidValue;
    case CUDA_ERROR_OUT_OF_MEMORY:
      return hipErrorOutOfMemory;
    case CUDA_ERROR_NOT_INITIALIZED:
      return hipErrorNotInitialized;
    case CUDA_ERROR_DEINITIALIZED:
      return hipErrorDeinitialized;
    case CUDA_ERROR_NO_DEVICE:
      return hipErrorNoDevice;
    case CUDA_ERROR_INVALID_DEVICE:
      return hipErrorInvalidDevice;
    case CUDA_ERROR_INVALID_IMAGE:
      return hipErrorInvalidImage;
    case CUDA_ERROR_INVALID_CONTEXT:
      return hipErrorInvalidContext;
    case CUDA_ERROR_CONTEXT_ALREADY_CURRENT:
      return hipErrorContextAlreadyCurrent;
    case CUDA_ERROR_NO_BINARY_FOR_GPU:
      return hipErrorNoBinaryForGpu;
    case CUDA_ERROR_UNSUPPORTED_LIMIT:
      return hipErrorUnsupportedLimit;
    case CUDA_ERROR_CONTEXT_ALREADY_IN_USE:
      return hipErrorContextAlreadyInUse;
    case CUDA_ERROR_PEER_ACCESS_UNSUPPORTED:
      return hipErrorPeerAccessUnsupported;
    case CUDA_ERROR_INVALID_PTX:
      return hipErrorInvalidKernelFile;
    case CUDA_ERROR_INVALID_SOURCE:
      return hipErrorInvalidSource;
    case CUDA_ERROR_FILE_NOT_FOUND:
      return hipErrorFileNotFound;
    case CUDA_ERROR_INVALID_HANDLE:
      return hipErrorInvalidHandle;
    case CUDA_ERROR_ILLEGAL_STATE:
      return hipErrorIllegalState;
    case CUDA_ERROR_NOT_FOUND:
      return hipErrorNotFound;
    case CUDA_ERROR_NOT_READY:
      return hipErrorNotReady;
    case CUDA_ERROR_ILLEGAL_ADDRESS:
      return hipErrorIllegalAddress;
    case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
      return hipErrorLaunchOutOfResources;
    case CUDA_ERROR_LAUNCH_FAILED:
      return hipErrorLaunchFailure;
    case CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED:
      return hipErrorPeerAccessAlreadyEnabled;
    case CUDA_ERROR_PEER_ACCESS_NOT_ENABLED:
      return hipErrorPeerAccessNotEnabled;
    case CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE:
      return hipErrorSetOnActiveProcess;
    case CUDA_ERROR_CONTEXT_IS_DESTROYED:
      return hipErrorContextIsDestroyed;
    case CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED:
      return hipErrorHostMemoryAlreadyRegistered;
    case CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED:
      return hipErrorHostMemoryNotRegistered;
    case CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE:
      return hipErrorCooperativeLaunchTooLarge;
    case CUDA_ERROR_NOT_SUPPORTED:
      return hipErrorNotSupported;
    case CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED:
      return hipErrorStreamCaptureUnsupported;
    case CUDA_ERROR_STREAM_CAPTURE_INVALIDATED:
      return hipErrorStreamCaptureInvalidated;
    case CUDA_ERROR_STREAM_CAPTURE_UNMATCHED:
      return hipErrorStreamCaptureUnmatched;
    case CUDA_ERROR_STREAM_CAPTURE_UNJOINED:
      return hipErrorStreamCaptureUnjoined;
    case CUDA_ERROR_STREAM_CAPTURE_ISOLATION:
      return hipErrorStreamCaptureIsolation;
    case CUDA_ERROR_STREAM_CAPTURE_IMPLICIT:
      return hipErrorStreamCaptureImplicit;
    case CUDA_ERROR_CAPTURED_EVENT:
      return hipErrorCapturedEvent;
    case CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD:
      return hipErrorStreamCaptureWrongThread;
    case CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE:
      return hipErrorGraphExecUpdateFailure;
    default:
      break;
  }
  // Codes without a HIP counterpart in this project; a test that needs one
  // adds its pair above.
  ADD_FAILURE() << "no HIP equivalent recorded for " << CuName(result);
  return hipErrorUnknown;
}

testing::AssertionResult CuResultIs(const char* actual_expr, const char* /*expected_expr*/,
                                    CUresult actual, CUresult expected) {
  if (actual == expected) return testing::AssertionSuccess();
  return testing::AssertionFailure()
         << actual_expr << " returned " << CuName(actual) << ", expected " << CuName(expected);
}

testing::AssertionResult HipErrorIs(const char* actual_expr, const char* /*expected_expr*/,
                                    hipError_t actual, hipError_t expected) {
  if (actual == expected) return testing::AssertionSuccess();
  return testing::AssertionFailure()
         << actual_expr << " returned " << HipName(actual) << ", expected " << HipName(expected);
}

void ProvesNotSupported() { testing::Test::RecordProperty(kProvesProperty, "unsupported"); }

void ProvesLimitation() { testing::Test::RecordProperty(kProvesProperty, "partial"); }

CUcontext CudaCurrent() {
  CUcontext context = reinterpret_cast<CUcontext>(0x1);
  EXPECT_CU(CUDA_SUCCESS, cuCtxGetCurrent(&context));
  return context;
}

hipCtx_t HipCurrent() {
  hipCtx_t context = reinterpret_cast<hipCtx_t>(0x1);
  EXPECT_HIP(hipSuccess, hipCtxGetCurrent(&context));
  return context;
}

void DriverTest::SetUp() {
  // A test that failed half-way may have left the driver initialised.
  (void)cuHALDeinit();
  ASSERT_CU(CUDA_SUCCESS, cuInit(0));
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetCount(&device_count_));
  ASSERT_GE(device_count_, 1);
  // HIP's last error is per thread and outlives tests; start clean.
  (void)hipGetLastError();
}

void DriverTest::TearDown() { EXPECT_CU(CUDA_SUCCESS, cuHALDeinit()); }

void UninitializedTest::SetUp() {
  (void)cuHALDeinit();
  (void)hipGetLastError();
}

void UninitializedTest::TearDown() {
  (void)cuHALDeinit();
  (void)hipGetLastError();
}

namespace {

std::map<std::string, ChildMain>& Children() {
  static auto* children = new std::map<std::string, ChildMain>;
  return *children;
}

}  // namespace

ChildRegistration::ChildRegistration(const char* name, ChildMain main) { Children()[name] = main; }

int RunChildProcess(const char* name, int argc, char** argv) {
  auto it = Children().find(name);
  if (it == Children().end()) return 127;
  return it->second(argc, argv);
}

int OpenDescriptorCount() {
  int count = 0;
  if (DIR* dir = opendir("/proc/self/fd")) {
    while (readdir(dir) != nullptr) ++count;
    closedir(dir);
  }
  return count;
}

int SpawnChild(const char* name, const std::vector<std::string>& args,
               const std::vector<int>& inherited, int timeout_s) {
  std::vector<std::string> strings = {"/proc/self/exe", "--child", name};
  strings.insert(strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : strings) argv.push_back(s.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // dup2 onto itself clears close-on-exec in the child.
  for (int fd : inherited) posix_spawn_file_actions_adddup2(&actions, fd, fd);
  pid_t pid = -1;
  const int spawned = posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return -1;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace streamhal::conformance
