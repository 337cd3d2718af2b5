#include "core/status.h"

#include "gtest/gtest.h"

namespace streamhal {
namespace {

TEST(StatusTest, ErrorCarriesCodeAndMessage) {
  absl::Status status = Error(ErrorCode::kInvalidContext, "ctx ", 42, " is gone");
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(ErrorCodeOf(status), ErrorCode::kInvalidContext);
  EXPECT_EQ(status.message(), "ctx 42 is gone");
}

TEST(StatusTest, OkHasOkCode) { EXPECT_EQ(ErrorCodeOf(absl::OkStatus()), ErrorCode::kOk); }

TEST(StatusTest, ForeignStatusIsUnknown) {
  EXPECT_EQ(ErrorCodeOf(absl::InternalError("x")), ErrorCode::kUnknown);
}

TEST(StatusTest, EveryCodeRoundTripsAndHasAName) {
  for (int i = 1; i < static_cast<int>(ErrorCode::kCount); ++i) {
    const auto code = static_cast<ErrorCode>(i);
    EXPECT_EQ(ErrorCodeOf(MakeError(code, "m")), code) << ErrorCodeName(code);
    EXPECT_FALSE(ErrorCodeName(code).empty());
  }
}

absl::StatusOr<int> Half(int value) {
  if (value % 2 != 0) return Error(ErrorCode::kInvalidValue, value, " is odd");
  return value / 2;
}

absl::StatusOr<int> Quarter(int value) {
  SH_ASSIGN_OR_RETURN(int half, Half(value));
  SH_ASSIGN_OR_RETURN(int quarter, Half(half));
  return quarter;
}

TEST(StatusTest, MacrosPropagateFirstError) {
  EXPECT_EQ(*Quarter(8), 2);
  absl::StatusOr<int> odd = Quarter(6);
  ASSERT_FALSE(odd.ok());
  EXPECT_EQ(odd.status().message(), "3 is odd");
}

}  // namespace
}  // namespace streamhal
