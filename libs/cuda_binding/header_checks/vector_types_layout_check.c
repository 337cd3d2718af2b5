/* The layouts of vector_types.h and builtin_types.h, checked at compile time
 * as C (C11 and later) and as C++ by the headers.compile test
 * (cmake/HeaderCheck.cmake): the sizes, alignments and member offsets CUDA
 * gives these types, so structures of them match what kernels compiled for
 * CUDA expect. */
#include <builtin_types.h>
#include <stddef.h>
#include <vector_types.h>

#ifdef __cplusplus
#define LAYOUT(condition) static_assert(condition, #condition)
#define ALIGN_OF(type) alignof(type)
#else
#define LAYOUT(condition) _Static_assert(condition, #condition)
#define ALIGN_OF(type) _Alignof(type)
#endif

/* Size, alignment and the offset of the last member. */
#define CHECK1(type, size, align) \
  LAYOUT(sizeof(type) == (size)); \
  LAYOUT(ALIGN_OF(type) == (align))
#define CHECK2(type, size, align, offset_y) \
  CHECK1(type, size, align);                \
  LAYOUT(offsetof(type, y) == (offset_y))
#define CHECK3(type, size, align, offset_z) \
  CHECK1(type, size, align);                \
  LAYOUT(offsetof(type, z) == (offset_z))
#define CHECK4(type, size, align, offset_w) \
  CHECK1(type, size, align);                \
  LAYOUT(offsetof(type, w) == (offset_w))

CHECK1(char1, 1, 1);
CHECK2(char2, 2, 2, 1);
CHECK3(char3, 3, 1, 2);
CHECK4(char4, 4, 4, 3);
CHECK1(uchar1, 1, 1);
CHECK2(uchar2, 2, 2, 1);
CHECK3(uchar3, 3, 1, 2);
CHECK4(uchar4, 4, 4, 3);

CHECK1(short1, 2, 2);
CHECK2(short2, 4, 4, 2);
CHECK3(short3, 6, 2, 4);
CHECK4(short4, 8, 8, 6);
CHECK1(ushort1, 2, 2);
CHECK2(ushort2, 4, 4, 2);
CHECK3(ushort3, 6, 2, 4);
CHECK4(ushort4, 8, 8, 6);

CHECK1(int1, 4, 4);
CHECK2(int2, 8, 8, 4);
CHECK3(int3, 12, 4, 8);
CHECK4(int4, 16, 16, 12);
CHECK1(uint1, 4, 4);
CHECK2(uint2, 8, 8, 4);
CHECK3(uint3, 12, 4, 8);
CHECK4(uint4, 16, 16, 12);

CHECK1(float1, 4, 4);
CHECK2(float2, 8, 8, 4);
CHECK3(float3, 12, 4, 8);
CHECK4(float4, 16, 16, 12);

CHECK1(longlong1, 8, 8);
CHECK2(longlong2, 16, 16, 8);
CHECK3(longlong3, 24, 8, 16);
CHECK4(longlong4, 32, 16, 24);
CHECK4(longlong4_16a, 32, 16, 24);
CHECK4(longlong4_32a, 32, 32, 24);
CHECK1(ulonglong1, 8, 8);
CHECK2(ulonglong2, 16, 16, 8);
CHECK3(ulonglong3, 24, 8, 16);
CHECK4(ulonglong4, 32, 16, 24);
CHECK4(ulonglong4_16a, 32, 16, 24);
CHECK4(ulonglong4_32a, 32, 32, 24);

CHECK1(double1, 8, 8);
CHECK2(double2, 16, 16, 8);
CHECK3(double3, 24, 8, 16);
CHECK4(double4, 32, 16, 24);
CHECK4(double4_16a, 32, 16, 24);
CHECK4(double4_32a, 32, 32, 24);

/* long is 8 bytes on the LP64 systems streamhal builds for. */
#if !defined(_WIN32)
CHECK1(long1, 8, 8);
CHECK2(long2, 16, 16, 8);
CHECK3(long3, 24, 8, 16);
CHECK4(long4, 32, 16, 24);
CHECK4(long4_32a, 32, 32, 24);
CHECK1(ulong1, 8, 8);
CHECK2(ulong2, 16, 16, 8);
CHECK3(ulong3, 24, 8, 16);
CHECK4(ulong4, 32, 16, 24);
CHECK4(ulong4_32a, 32, 32, 24);
#endif

CHECK3(dim3, 12, 4, 8);

/* Arrays have no padding between elements beyond each type's size. */
LAYOUT(sizeof(float3[4]) == 48);
LAYOUT(sizeof(float4[4]) == 64);

#ifdef __cplusplus
/* C++: dims default to 1 and convert to and from uint3. */
constexpr dim3 kGrid(64);
LAYOUT(kGrid.x == 64 && kGrid.y == 1 && kGrid.z == 1);
constexpr dim3 kDefault;
LAYOUT(kDefault.x == 1 && kDefault.y == 1 && kDefault.z == 1);
constexpr uint3 kAsUint3 = dim3(2, 3);
LAYOUT(kAsUint3.x == 2 && kAsUint3.y == 3 && kAsUint3.z == 1);
constexpr dim3 kFromUint3 = uint3{4, 5, 6};
LAYOUT(kFromUint3.z == 6);
#endif

int main(void) {
  /* C: dim3 is a plain struct, initialised as C initialises structs. */
  dim3 block = {8, 4, 2};
  float4 value = {1.0f, 2.0f, 3.0f, 4.0f};
  return block.x * block.y * block.z == 64 && value.w == 4.0f ? 0 : 1;
}
