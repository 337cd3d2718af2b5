// Channel format descriptors. hipCreateChannelDesc only fills in the struct:
// as in HIP, any bit counts and kind are accepted here, and the calls that
// take a descriptor (arrays, textures) are the ones that validate it.
#include <hip/channel_descriptor.h>

extern "C" {

hipChannelFormatDesc hipCreateChannelDesc(int x, int y, int z, int w, hipChannelFormatKind f) {
  hipChannelFormatDesc desc;
  desc.x = x;
  desc.y = y;
  desc.z = z;
  desc.w = w;
  desc.f = f;
  return desc;
}

}  // extern "C"
