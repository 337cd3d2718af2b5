/* Channel format descriptors: hipCreateChannelDesc(x, y, z, w, kind) in C
 * and C++, and in C++ hipCreateChannelDesc<T>() for the scalar and vector
 * types, as AMD's hip/channel_descriptor.h declares them.
 *
 * A descriptor gives the bits of each channel (0 for an absent one) and how
 * they are read. hipCreateChannelDesc<T>() of a type it does not know gives
 * the empty descriptor of kind hipChannelFormatKindNone, as does that of a
 * 64-bit long (AMD defines the long forms only where long has 32 bits). Unlike
 * AMD's header under GCC and Clang, the three-component types have their
 * descriptor (three channels, w absent), as in CUDA. */
#ifndef STREAMHAL_HIP_CHANNEL_DESCRIPTOR_H_
#define STREAMHAL_HIP_CHANNEL_DESCRIPTOR_H_

#include "hip/driver_types.h"
#include "hip/hip_common.h"
#include "hip/hip_vector_types.h"

#ifdef __cplusplus
extern "C" {
#endif

hipChannelFormatDesc hipCreateChannelDesc(int x, int y, int z, int w, hipChannelFormatKind f);

#ifdef __cplusplus
} /* extern "C" */

/* 16-bit floats: the host has no half type to specialise on. */
static inline hipChannelFormatDesc hipCreateChannelDescHalf() {
  return hipCreateChannelDesc(16, 0, 0, 0, hipChannelFormatKindFloat);
}
static inline hipChannelFormatDesc hipCreateChannelDescHalf1() {
  return hipCreateChannelDesc(16, 0, 0, 0, hipChannelFormatKindFloat);
}
static inline hipChannelFormatDesc hipCreateChannelDescHalf2() {
  return hipCreateChannelDesc(16, 16, 0, 0, hipChannelFormatKindFloat);
}
static inline hipChannelFormatDesc hipCreateChannelDescHalf4() {
  return hipCreateChannelDesc(16, 16, 16, 16, hipChannelFormatKindFloat);
}

template <typename T>
inline hipChannelFormatDesc hipCreateChannelDesc() {
  return hipCreateChannelDesc(0, 0, 0, 0, hipChannelFormatKindNone);
}

/* The descriptor of type T: `channels` channels of the size of C each. */
#define STREAMHAL_HIP_CHANNEL_DESC(T, C, channels, kind)                                    \
  template <>                                                                               \
  inline hipChannelFormatDesc hipCreateChannelDesc<T>() {                                   \
    const int bits = static_cast<int>(sizeof(C)) * 8;                                       \
    return hipCreateChannelDesc(bits, (channels) > 1 ? bits : 0, (channels) > 2 ? bits : 0, \
                                (channels) > 3 ? bits : 0, kind);                           \
  }
/* A scalar type and its four vector types. */
#define STREAMHAL_HIP_CHANNEL_DESCS(prefix, C, kind) \
  STREAMHAL_HIP_CHANNEL_DESC(prefix##1, C, 1, kind)  \
  STREAMHAL_HIP_CHANNEL_DESC(prefix##2, C, 2, kind)  \
  STREAMHAL_HIP_CHANNEL_DESC(prefix##3, C, 3, kind)  \
  STREAMHAL_HIP_CHANNEL_DESC(prefix##4, C, 4, kind)

STREAMHAL_HIP_CHANNEL_DESC(char, char, 1, hipChannelFormatKindSigned)
STREAMHAL_HIP_CHANNEL_DESC(signed char, signed char, 1, hipChannelFormatKindSigned)
STREAMHAL_HIP_CHANNEL_DESC(unsigned char, unsigned char, 1, hipChannelFormatKindUnsigned)
STREAMHAL_HIP_CHANNEL_DESC(signed short, signed short, 1, hipChannelFormatKindSigned)
STREAMHAL_HIP_CHANNEL_DESC(unsigned short, unsigned short, 1, hipChannelFormatKindUnsigned)
STREAMHAL_HIP_CHANNEL_DESC(signed int, signed int, 1, hipChannelFormatKindSigned)
STREAMHAL_HIP_CHANNEL_DESC(unsigned int, unsigned int, 1, hipChannelFormatKindUnsigned)
STREAMHAL_HIP_CHANNEL_DESC(float, float, 1, hipChannelFormatKindFloat)
STREAMHAL_HIP_CHANNEL_DESCS(char, signed char, hipChannelFormatKindSigned)
STREAMHAL_HIP_CHANNEL_DESCS(uchar, unsigned char, hipChannelFormatKindUnsigned)
STREAMHAL_HIP_CHANNEL_DESCS(short, signed short, hipChannelFormatKindSigned)
STREAMHAL_HIP_CHANNEL_DESCS(ushort, unsigned short, hipChannelFormatKindUnsigned)
STREAMHAL_HIP_CHANNEL_DESCS(int, signed int, hipChannelFormatKindSigned)
STREAMHAL_HIP_CHANNEL_DESCS(uint, unsigned int, hipChannelFormatKindUnsigned)
STREAMHAL_HIP_CHANNEL_DESCS(float, float, hipChannelFormatKindFloat)
#if !defined(__LP64__)
STREAMHAL_HIP_CHANNEL_DESC(signed long, signed long, 1, hipChannelFormatKindSigned)
STREAMHAL_HIP_CHANNEL_DESC(unsigned long, unsigned long, 1, hipChannelFormatKindUnsigned)
STREAMHAL_HIP_CHANNEL_DESCS(long, signed long, hipChannelFormatKindSigned)
STREAMHAL_HIP_CHANNEL_DESCS(ulong, unsigned long, hipChannelFormatKindUnsigned)
#endif

#undef STREAMHAL_HIP_CHANNEL_DESCS
#undef STREAMHAL_HIP_CHANNEL_DESC

#endif /* __cplusplus */

#endif /* STREAMHAL_HIP_CHANNEL_DESCRIPTOR_H_ */
