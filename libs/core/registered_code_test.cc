#include "core/registered_code.h"

#include <cstdint>

#include "core/code_object.h"
#include "core/status.h"
#include "gtest/gtest.h"

namespace streamhal {
namespace {

// Registration only records pointers: none of this needs a device.
const char kImage[] = "#version 460\nvoid main() {}\n";
const HipFatBinaryWrapper kWrapper = {kHipFatBinaryMagic, kHipFatBinaryVersion, kImage, nullptr};
int g_stub = 0;
int g_other_stub = 0;
int g_var = 0;

TEST(RegisteredCodeTest, SameWrapperGivesTheSameHandleAndCounts) {
  void** first = RegisterFatBinary(&kWrapper);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(RegisterFatBinary(&kWrapper), first);
  ASSERT_TRUE(RegisterFunction(first, &g_stub, "main").ok());
  UnregisterFatBinary(first);
  EXPECT_TRUE(IsRegisteredFunction(&g_stub));  // one registration left
  UnregisterFatBinary(first);
  EXPECT_FALSE(IsRegisteredFunction(&g_stub));
}

TEST(RegisteredCodeTest, BadArgumentsAreRefusedAndRegisterNothing) {
  void** handle = RegisterFatBinary(&kWrapper);
  EXPECT_EQ(ErrorCodeOf(RegisterFunction(handle, nullptr, "main")), ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(RegisterFunction(handle, &g_stub, nullptr)), ErrorCode::kInvalidValue);
  int not_a_handle = 0;
  EXPECT_EQ(ErrorCodeOf(RegisterFunction(reinterpret_cast<void**>(&not_a_handle), &g_stub, "m")),
            ErrorCode::kInvalidHandle);
  EXPECT_EQ(ErrorCodeOf(RegisterVar(handle, nullptr, "v", 4)), ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(RegisterManagedVar(handle, nullptr, nullptr, "m", 4, 4)),
            ErrorCode::kInvalidValue);
  EXPECT_FALSE(IsRegisteredFunction(&g_stub));
  // A stub keeps its first kernel.
  ASSERT_TRUE(RegisterFunction(handle, &g_stub, "main").ok());
  EXPECT_TRUE(RegisterFunction(handle, &g_stub, "main").ok());
  EXPECT_EQ(ErrorCodeOf(RegisterFunction(handle, &g_stub, "other")), ErrorCode::kInvalidValue);
  ASSERT_TRUE(RegisterVar(handle, &g_var, "v", sizeof(g_var)).ok());
  EXPECT_EQ(ErrorCodeOf(RegisterVar(handle, &g_var, "w", sizeof(g_var))), ErrorCode::kInvalidValue);
  EXPECT_FALSE(IsRegisteredFunction(&g_other_stub));
  UnregisterFatBinary(handle);
  EXPECT_FALSE(IsRegisteredFunction(&g_stub));
  // Unregistering something that is not registered is ignored.
  UnregisterFatBinary(handle);
  UnregisterFatBinary(nullptr);
}

}  // namespace
}  // namespace streamhal
