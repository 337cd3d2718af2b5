// Shared pieces of the conformance tests: fixtures that give each test a
// fresh driver, assertions that print result codes by name, and the mapping
// between the CUDA and HIP codes both bindings derive from one core code.
#ifndef STREAMHAL_CONFORMANCE_TESTS_CONFORMANCE_UTIL_H_
#define STREAMHAL_CONFORMANCE_TESTS_CONFORMANCE_UTIL_H_

#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <string>
#include <vector>

#include "conformance/report/report.h"
#include "gtest/gtest.h"

namespace streamhal::conformance {

// The hipError_t the HIP binding returns where the CUDA binding returns
// `result` (same core error code). Written out pair by pair, not derived from
// the numeric values, so a wrong mapping in either binding shows.
hipError_t HipEquivalent(CUresult result);

// Predicate formatters for EXPECT_PRED_FORMAT2: compare result codes and
// print both by name.
testing::AssertionResult CuResultIs(const char* actual_expr, const char* expected_expr,
                                    CUresult actual, CUresult expected);
testing::AssertionResult HipErrorIs(const char* actual_expr, const char* expected_expr,
                                    hipError_t actual, hipError_t expected);

// What a passing test proves about the rows that name it. By default, that
// the function works as documented; these two record otherwise (as the gtest
// property kProvesProperty) and are called in the test or its SetUp. The
// report derives each row's observed status from it (conformance/README.md).
//
// The entry point exists and cleanly reports CUDA_ERROR_NOT_SUPPORTED /
// hipErrorNotSupported.
void ProvesNotSupported();
// A documented limitation: the function works, but not all of it.
void ProvesLimitation();

// Handles of the two APIs name the same core objects.
inline const void* Object(CUcontext context) { return context; }
inline const void* Object(hipCtx_t context) { return context; }

// The current context as each API sees it (test failure if the query fails).
CUcontext CudaCurrent();
hipCtx_t HipCurrent();

// Every test starts with an initialised driver of its own and ends with a
// deinit, so no test sees objects or per-thread state of another.
class DriverTest : public testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // Number of devices (at least 1 once SetUp succeeded).
  int device_count() const { return device_count_; }

 private:
  int device_count_ = 0;
};

// Starts with the driver uninitialised; deinitialises at the end.
class UninitializedTest : public testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
};

// The number of descriptors this process has open (/proc/self/fd), for
// tests that check a failed call leaked none.
int OpenDescriptorCount();

// Tests that share memory with another process run a child: the conformance
// program itself, started as `streamhal-conformance --child NAME ARGS...`,
// which runs the child registered under NAME and exits with its result.
using ChildMain = int (*)(int argc, char** argv);
struct ChildRegistration {
  ChildRegistration(const char* name, ChildMain main);
};
// The exit code of the child NAME (0: it succeeded), or 127 when no child
// has that name. Called by the program's main.
int RunChildProcess(const char* name, int argc, char** argv);
// Starts this program as child `name` with `args`, keeping each of
// `inherited` open under the same number, and waits at most `timeout_s` for
// it: its exit code, or -1 (it could not start, died or timed out; killed).
int SpawnChild(const char* name, const std::vector<std::string>& args,
               const std::vector<int>& inherited, int timeout_s);

}  // namespace streamhal::conformance

#define EXPECT_CU(expected, call) \
  EXPECT_PRED_FORMAT2(::streamhal::conformance::CuResultIs, call, expected)
#define ASSERT_CU(expected, call) \
  ASSERT_PRED_FORMAT2(::streamhal::conformance::CuResultIs, call, expected)
#define EXPECT_HIP(expected, call) \
  EXPECT_PRED_FORMAT2(::streamhal::conformance::HipErrorIs, call, expected)
#define ASSERT_HIP(expected, call) \
  ASSERT_PRED_FORMAT2(::streamhal::conformance::HipErrorIs, call, expected)

// The same scenario through both APIs: the CUDA call (made first) returns
// `cu_expected` and the HIP call its mapped equivalent.
#define EXPECT_BOTH(cu_expected, cu_call, hip_call)                             \
  do {                                                                          \
    EXPECT_CU(cu_expected, cu_call);                                            \
    EXPECT_HIP(::streamhal::conformance::HipEquivalent(cu_expected), hip_call); \
  } while (0)

#endif  // STREAMHAL_CONFORMANCE_TESTS_CONFORMANCE_UTIL_H_
