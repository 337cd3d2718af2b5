#include "core/device_visibility.h"

#include <array>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace streamhal {
namespace {

using Uuid = std::array<uint8_t, 16>;

Uuid MakeUuid(uint8_t first, uint8_t last) {
  Uuid uuid = {};
  for (int i = 0; i < 16; ++i) uuid[i] = static_cast<uint8_t>(0x10 + i);
  uuid[0] = first;
  uuid[15] = last;
  return uuid;
}

TEST(DeviceVisibilityTest, UuidStringHasNvidiaSmiLayout) {
  EXPECT_EQ(DeviceUuidString(MakeUuid(0xab, 0xcd)), "GPU-ab111213-1415-1617-1819-1a1b1c1d1ecd");
}

TEST(DeviceVisibilityTest, OrdinalsSelectAndOrder) {
  const std::vector<Uuid> uuids = {MakeUuid(1, 0), MakeUuid(2, 0), MakeUuid(3, 0)};
  EXPECT_EQ(VisibleDevices("2,1", uuids), (std::vector<int>{2, 1}));
  EXPECT_EQ(VisibleDevices("0", uuids), (std::vector<int>{0}));
  EXPECT_EQ(VisibleDevices(" 1 , 0 ", uuids), (std::vector<int>{1, 0}));
}

TEST(DeviceVisibilityTest, AnInvalidEntryHidesTheRest) {
  const std::vector<Uuid> uuids = {MakeUuid(1, 0), MakeUuid(2, 0), MakeUuid(3, 0)};
  // NVIDIA's example: "0,2,-1,1" shows devices 0 and 2.
  EXPECT_EQ(VisibleDevices("0,2,-1,1", uuids), (std::vector<int>{0, 2}));
  EXPECT_EQ(VisibleDevices("-1", uuids), (std::vector<int>{}));
  EXPECT_EQ(VisibleDevices("", uuids), (std::vector<int>{}));
  EXPECT_EQ(VisibleDevices("1,7,0", uuids), (std::vector<int>{1}));
  EXPECT_EQ(VisibleDevices("1,x,0", uuids), (std::vector<int>{1}));
  EXPECT_EQ(VisibleDevices("+1", uuids), (std::vector<int>{}));
  EXPECT_EQ(VisibleDevices("1,1,0", uuids), (std::vector<int>{1}));  // a repeat ends it
  EXPECT_EQ(VisibleDevices("0,,1", uuids), (std::vector<int>{0}));
}

TEST(DeviceVisibilityTest, UuidPrefixesSelectCaseInsensitively) {
  const std::vector<Uuid> uuids = {MakeUuid(0xab, 0), MakeUuid(0xac, 0), MakeUuid(0xac, 1)};
  EXPECT_EQ(VisibleDevices("GPU-ab", uuids), (std::vector<int>{0}));
  EXPECT_EQ(VisibleDevices("gpu-AB1112", uuids), (std::vector<int>{0}));
  EXPECT_EQ(VisibleDevices(DeviceUuidString(uuids[2]) + ",0", uuids), (std::vector<int>{2, 0}));
  // "GPU-ac" matches two devices: ambiguous, so it names none.
  EXPECT_EQ(VisibleDevices("0,GPU-ac,1", uuids), (std::vector<int>{0}));
  EXPECT_EQ(VisibleDevices("GPU-ff", uuids), (std::vector<int>{}));
}

}  // namespace
}  // namespace streamhal
