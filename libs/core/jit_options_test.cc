#include "core/jit_options.h"

#include <cstdint>
#include <cstring>
#include <string>

#include "core/status.h"
#include "gtest/gtest.h"

namespace streamhal {
namespace {

// CU_JIT_NUM_OPTIONS in cuda.h; the ids below it that do not apply to GLSL
// are accepted and ignored.
constexpr int kOptionCount = 31;
constexpr int kMaxRegisters = 0;

int Id(JitOptionId id) { return static_cast<int>(id); }
void* Slot(uintptr_t number) { return reinterpret_cast<void*>(number); }
uintptr_t Number(void* slot) { return reinterpret_cast<uintptr_t>(slot); }

TEST(JitOptionsTest, NoOptionsNeedNoArrays) {
  absl::StatusOr<JitOptions> jit = ReadJitOptions(0, nullptr, nullptr, kOptionCount);
  ASSERT_TRUE(jit.ok()) << jit.status();
  EXPECT_EQ(jit->info_log, nullptr);
  EXPECT_EQ(jit->error_log, nullptr);
  EXPECT_FALSE(jit->verbose);
}

TEST(JitOptionsTest, NullArraysWithACountAreInvalidValue) {
  int options[] = {Id(JitOptionId::kWallTime)};
  void* values[] = {nullptr};
  EXPECT_EQ(ErrorCodeOf(ReadJitOptions(1, nullptr, values, kOptionCount).status()),
            ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(ReadJitOptions(1, options, nullptr, kOptionCount).status()),
            ErrorCode::kInvalidValue);
}

TEST(JitOptionsTest, IdsOutsideTheApisRangeAreInvalidValue) {
  for (int bad : {-1, kOptionCount, kOptionCount + 1, 12345}) {
    int options[] = {Id(JitOptionId::kErrorLogBuffer), bad};
    void* values[] = {Slot(0x5a), Slot(0x5a)};
    EXPECT_EQ(ErrorCodeOf(ReadJitOptions(2, options, values, kOptionCount).status()),
              ErrorCode::kInvalidValue)
        << bad;
  }
  // HIP defines fewer ids than CUDA: the caller's count decides.
  int verbose[] = {Id(JitOptionId::kLogVerbose)};
  void* one[] = {Slot(1)};
  EXPECT_EQ(ErrorCodeOf(ReadJitOptions(1, verbose, one, Id(JitOptionId::kLogVerbose)).status()),
            ErrorCode::kInvalidValue);
  EXPECT_TRUE(ReadJitOptions(1, verbose, one, Id(JitOptionId::kLogVerbose) + 1).ok());
}

TEST(JitOptionsTest, ReadsLogBuffersSizesAndVerbose) {
  char info[8];
  char error[16];
  int options[] = {Id(JitOptionId::kInfoLogBuffer),  Id(JitOptionId::kInfoLogBufferSizeBytes),
                   Id(JitOptionId::kErrorLogBuffer), Id(JitOptionId::kErrorLogBufferSizeBytes),
                   Id(JitOptionId::kLogVerbose),     kMaxRegisters};
  void* values[] = {info, Slot(sizeof(info)), error, Slot(sizeof(error)), Slot(1), Slot(0xdead)};
  absl::StatusOr<JitOptions> jit = ReadJitOptions(6, options, values, kOptionCount);
  ASSERT_TRUE(jit.ok()) << jit.status();
  EXPECT_EQ(jit->info_log, info);
  EXPECT_EQ(jit->info_log_size, sizeof(info));
  EXPECT_EQ(jit->error_log, error);
  EXPECT_EQ(jit->error_log_size, sizeof(error));
  EXPECT_TRUE(jit->verbose);
}

TEST(JitOptionsTest, AnOptionGivenTwiceTakesItsLastValue) {
  char first[4];
  char second[4];
  int options[] = {Id(JitOptionId::kErrorLogBuffer), Id(JitOptionId::kErrorLogBufferSizeBytes),
                   Id(JitOptionId::kErrorLogBuffer), Id(JitOptionId::kErrorLogBufferSizeBytes)};
  void* values[] = {first, Slot(4096), second, Slot(sizeof(second))};
  absl::StatusOr<JitOptions> jit = ReadJitOptions(4, options, values, kOptionCount);
  ASSERT_TRUE(jit.ok()) << jit.status();
  EXPECT_EQ(jit->error_log, second);
  EXPECT_EQ(jit->error_log_size, sizeof(second));
}

TEST(JitOptionsTest, LogsAreTruncatedToTheirBuffersWithTheNul) {
  char info[6];
  char error[64];
  std::memset(info, 'x', sizeof(info));
  std::memset(error, 'x', sizeof(error));
  JitOptions jit;
  jit.info_log = info;
  jit.info_log_size = sizeof(info);
  jit.error_log = error;
  jit.error_log_size = sizeof(error);
  RecordJitLogs(&jit, "short", "a long info log", 1.5);
  EXPECT_STREQ(info, "a lon");
  EXPECT_EQ(jit.info_log_written, sizeof(info));
  EXPECT_STREQ(error, "short");
  EXPECT_EQ(jit.error_log_written, 6u);
  EXPECT_EQ(error[6], 'x');  // nothing past the NUL
  EXPECT_EQ(jit.wall_time_ms, 1.5f);
}

TEST(JitOptionsTest, ASizeSmallerThanTheBufferIsHonoured) {
  char error[16];
  std::memset(error, 'x', sizeof(error));
  JitOptions jit;
  jit.error_log = error;
  jit.error_log_size = 1;  // room for the NUL only
  RecordJitLogs(&jit, "error", "", 0);
  EXPECT_EQ(error[0], '\0');
  EXPECT_EQ(error[1], 'x');
  EXPECT_EQ(jit.error_log_written, 1u);
}

TEST(JitOptionsTest, NoBufferOrNoSizeGetsNothing) {
  char error[16];
  std::memset(error, 'x', sizeof(error));
  JitOptions jit;
  jit.error_log = error;         // size 0
  jit.info_log_size = SIZE_MAX;  // no buffer
  RecordJitLogs(&jit, "error", "info", 0);
  EXPECT_EQ(error[0], 'x');
  EXPECT_EQ(jit.error_log_written, 0u);
  EXPECT_EQ(jit.info_log_written, 0u);
}

TEST(JitOptionsTest, OutputsGoToTheirSlotsOnly) {
  char info[32];
  char error[32];
  int options[] = {Id(JitOptionId::kWallTime),
                   Id(JitOptionId::kInfoLogBuffer),
                   Id(JitOptionId::kInfoLogBufferSizeBytes),
                   Id(JitOptionId::kErrorLogBuffer),
                   Id(JitOptionId::kErrorLogBufferSizeBytes),
                   kMaxRegisters};
  void* values[] = {Slot(0x5a), info, Slot(sizeof(info)), error, Slot(sizeof(error)), Slot(64)};
  absl::StatusOr<JitOptions> jit = ReadJitOptions(6, options, values, kOptionCount);
  ASSERT_TRUE(jit.ok()) << jit.status();
  RecordJitLogs(&*jit, "", "info", 2.25);
  WriteJitOutputs(*jit, 6, options, values);
  float wall_time_ms = 0;
  std::memcpy(&wall_time_ms, &values[0], sizeof(wall_time_ms));
  EXPECT_EQ(wall_time_ms, 2.25f);
  EXPECT_EQ(values[1], info);
  EXPECT_EQ(Number(values[2]), 5u);
  EXPECT_EQ(values[3], error);
  EXPECT_EQ(Number(values[4]), 1u);
  EXPECT_EQ(Number(values[5]), 64u);
  EXPECT_STREQ(info, "info");
  EXPECT_STREQ(error, "");
}

}  // namespace
}  // namespace streamhal
