// Row: hipCreateChannelDesc (and the C++ hipCreateChannelDesc<T>() of
// hip/channel_descriptor.h, which builds on it).
#include <hip/channel_descriptor.h>

#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

void ExpectDesc(const hipChannelFormatDesc& desc, int x, int y, int z, int w,
                hipChannelFormatKind kind) {
  EXPECT_EQ(desc.x, x);
  EXPECT_EQ(desc.y, y);
  EXPECT_EQ(desc.z, z);
  EXPECT_EQ(desc.w, w);
  EXPECT_EQ(desc.f, kind);
}

// HIP fills in the descriptor as given; arrays and textures validate it.
TEST(ChannelDescConformance, CreateChannelDescKeepsEveryField) {
  ExpectDesc(hipCreateChannelDesc(8, 16, 32, 0, hipChannelFormatKindUnsigned), 8, 16, 32, 0,
             hipChannelFormatKindUnsigned);
  ExpectDesc(hipCreateChannelDesc(32, 32, 32, 32, hipChannelFormatKindFloat), 32, 32, 32, 32,
             hipChannelFormatKindFloat);
  ExpectDesc(hipCreateChannelDesc(0, 0, 0, 0, hipChannelFormatKindNone), 0, 0, 0, 0,
             hipChannelFormatKindNone);
  ExpectDesc(hipCreateChannelDesc(-1, 7, 0, 0, hipChannelFormatKindSigned), -1, 7, 0, 0,
             hipChannelFormatKindSigned);
}

TEST(ChannelDescConformance, TemplatesDescribeScalarAndVectorTypes) {
  ExpectDesc(hipCreateChannelDesc<char>(), 8, 0, 0, 0, hipChannelFormatKindSigned);
  ExpectDesc(hipCreateChannelDesc<unsigned char>(), 8, 0, 0, 0, hipChannelFormatKindUnsigned);
  ExpectDesc(hipCreateChannelDesc<short>(), 16, 0, 0, 0, hipChannelFormatKindSigned);
  ExpectDesc(hipCreateChannelDesc<unsigned int>(), 32, 0, 0, 0, hipChannelFormatKindUnsigned);
  ExpectDesc(hipCreateChannelDesc<float>(), 32, 0, 0, 0, hipChannelFormatKindFloat);
  ExpectDesc(hipCreateChannelDesc<char2>(), 8, 8, 0, 0, hipChannelFormatKindSigned);
  ExpectDesc(hipCreateChannelDesc<uchar4>(), 8, 8, 8, 8, hipChannelFormatKindUnsigned);
  ExpectDesc(hipCreateChannelDesc<ushort3>(), 16, 16, 16, 0, hipChannelFormatKindUnsigned);
  ExpectDesc(hipCreateChannelDesc<int1>(), 32, 0, 0, 0, hipChannelFormatKindSigned);
  ExpectDesc(hipCreateChannelDesc<float4>(), 32, 32, 32, 32, hipChannelFormatKindFloat);
  ExpectDesc(hipCreateChannelDescHalf2(), 16, 16, 0, 0, hipChannelFormatKindFloat);
  // Types without a channel format (64-bit components among them).
  ExpectDesc(hipCreateChannelDesc<double>(), 0, 0, 0, 0, hipChannelFormatKindNone);
  ExpectDesc(hipCreateChannelDesc<longlong2>(), 0, 0, 0, 0, hipChannelFormatKindNone);
}

}  // namespace
}  // namespace streamhal::conformance
