/*
 * The CUDA vector types (char1 .. double4, the unsigned, long and long long
 * forms) and dim3, as driver-API host programs include them beside cuda.h.
 *
 * Types only, with CUDA's sizes and alignments, so a struct of them has the
 * layout a kernel compiled for CUDA expects: two-component types are aligned
 * to their whole size up to 16 bytes (char2 2, short2 4, int2 and float2 8,
 * long2 and double2 16), four-component types to their whole size up to 16
 * (char4 4, short4 8, int4 and float4 16, long4, longlong4 and double4 16),
 * and one- and three-component types to one component (float3 is 12 bytes,
 * aligned to 4). The 32-byte-aligned forms CUDA 13 adds (double4_32a, ...)
 * and their 16-byte twins (double4_16a, ...) are declared too; CUDA 13 marks
 * the plain long4/ulong4/longlong4/ulonglong4/double4 deprecated, which this
 * header does not (the layout is the same in both generations).
 *
 * C and C++ see the same layouts. In C++, dim3's constructor defaults each
 * dimension to 1 and converts to and from uint3, as in CUDA; the other types
 * stay aggregates. The make_* functions of CUDA's vector_functions.h are not
 * declared here.
 */
#ifndef STREAMHAL_CUDA_VECTOR_TYPES_H_
#define STREAMHAL_CUDA_VECTOR_TYPES_H_

#if defined(__cplusplus)
#define STREAMHAL_CUDA_ALIGN(bytes) alignas(bytes)
#elif defined(_MSC_VER)
#define STREAMHAL_CUDA_ALIGN(bytes) __declspec(align(bytes))
#else
#define STREAMHAL_CUDA_ALIGN(bytes) __attribute__((aligned(bytes)))
#endif

/* A type of N components of T aligned to A bytes (A 0: the component's). */
#define STREAMHAL_CUDA_VECTOR1(name, T) \
  struct name {                         \
    T x;                                \
  };                                    \
  typedef struct name name
#define STREAMHAL_CUDA_VECTOR2(name, T, A) \
  struct STREAMHAL_CUDA_ALIGN(A) name {    \
    T x, y;                                \
  };                                       \
  typedef struct name name
#define STREAMHAL_CUDA_VECTOR3(name, T) \
  struct name {                         \
    T x, y, z;                          \
  };                                    \
  typedef struct name name
#define STREAMHAL_CUDA_VECTOR4(name, T, A) \
  struct STREAMHAL_CUDA_ALIGN(A) name {    \
    T x, y, z, w;                          \
  };                                       \
  typedef struct name name

STREAMHAL_CUDA_VECTOR1(char1, signed char);
STREAMHAL_CUDA_VECTOR1(uchar1, unsigned char);
STREAMHAL_CUDA_VECTOR2(char2, signed char, 2);
STREAMHAL_CUDA_VECTOR2(uchar2, unsigned char, 2);
STREAMHAL_CUDA_VECTOR3(char3, signed char);
STREAMHAL_CUDA_VECTOR3(uchar3, unsigned char);
STREAMHAL_CUDA_VECTOR4(char4, signed char, 4);
STREAMHAL_CUDA_VECTOR4(uchar4, unsigned char, 4);

STREAMHAL_CUDA_VECTOR1(short1, short);
STREAMHAL_CUDA_VECTOR1(ushort1, unsigned short);
STREAMHAL_CUDA_VECTOR2(short2, short, 4);
STREAMHAL_CUDA_VECTOR2(ushort2, unsigned short, 4);
STREAMHAL_CUDA_VECTOR3(short3, short);
STREAMHAL_CUDA_VECTOR3(ushort3, unsigned short);
STREAMHAL_CUDA_VECTOR4(short4, short, 8);
STREAMHAL_CUDA_VECTOR4(ushort4, unsigned short, 8);

STREAMHAL_CUDA_VECTOR1(int1, int);
STREAMHAL_CUDA_VECTOR1(uint1, unsigned int);
STREAMHAL_CUDA_VECTOR2(int2, int, 8);
STREAMHAL_CUDA_VECTOR2(uint2, unsigned int, 8);
STREAMHAL_CUDA_VECTOR3(int3, int);
STREAMHAL_CUDA_VECTOR3(uint3, unsigned int);
STREAMHAL_CUDA_VECTOR4(int4, int, 16);
STREAMHAL_CUDA_VECTOR4(uint4, unsigned int, 16);

/* CUDA aligns long2 to its size where long is 8 bytes, and to 8 on Windows
 * (4-byte long). */
#if defined(_WIN32)
#define STREAMHAL_CUDA_LONG2_ALIGN 8
#else
#define STREAMHAL_CUDA_LONG2_ALIGN (2 * sizeof(long))
#endif
STREAMHAL_CUDA_VECTOR1(long1, long);
STREAMHAL_CUDA_VECTOR1(ulong1, unsigned long);
STREAMHAL_CUDA_VECTOR2(long2, long, STREAMHAL_CUDA_LONG2_ALIGN);
STREAMHAL_CUDA_VECTOR2(ulong2, unsigned long, STREAMHAL_CUDA_LONG2_ALIGN);
STREAMHAL_CUDA_VECTOR3(long3, long);
STREAMHAL_CUDA_VECTOR3(ulong3, unsigned long);
STREAMHAL_CUDA_VECTOR4(long4, long, 16);
STREAMHAL_CUDA_VECTOR4(ulong4, unsigned long, 16);
STREAMHAL_CUDA_VECTOR4(long4_16a, long, 16);
STREAMHAL_CUDA_VECTOR4(ulong4_16a, unsigned long, 16);
STREAMHAL_CUDA_VECTOR4(long4_32a, long, 32);
STREAMHAL_CUDA_VECTOR4(ulong4_32a, unsigned long, 32);
#undef STREAMHAL_CUDA_LONG2_ALIGN

STREAMHAL_CUDA_VECTOR1(float1, float);
STREAMHAL_CUDA_VECTOR2(float2, float, 8);
STREAMHAL_CUDA_VECTOR3(float3, float);
STREAMHAL_CUDA_VECTOR4(float4, float, 16);

STREAMHAL_CUDA_VECTOR1(longlong1, long long);
STREAMHAL_CUDA_VECTOR1(ulonglong1, unsigned long long);
STREAMHAL_CUDA_VECTOR2(longlong2, long long, 16);
STREAMHAL_CUDA_VECTOR2(ulonglong2, unsigned long long, 16);
STREAMHAL_CUDA_VECTOR3(longlong3, long long);
STREAMHAL_CUDA_VECTOR3(ulonglong3, unsigned long long);
STREAMHAL_CUDA_VECTOR4(longlong4, long long, 16);
STREAMHAL_CUDA_VECTOR4(ulonglong4, unsigned long long, 16);
STREAMHAL_CUDA_VECTOR4(longlong4_16a, long long, 16);
STREAMHAL_CUDA_VECTOR4(ulonglong4_16a, unsigned long long, 16);
STREAMHAL_CUDA_VECTOR4(longlong4_32a, long long, 32);
STREAMHAL_CUDA_VECTOR4(ulonglong4_32a, unsigned long long, 32);

STREAMHAL_CUDA_VECTOR1(double1, double);
STREAMHAL_CUDA_VECTOR2(double2, double, 16);
STREAMHAL_CUDA_VECTOR3(double3, double);
STREAMHAL_CUDA_VECTOR4(double4, double, 16);
STREAMHAL_CUDA_VECTOR4(double4_16a, double, 16);
STREAMHAL_CUDA_VECTOR4(double4_32a, double, 32);

#undef STREAMHAL_CUDA_VECTOR1
#undef STREAMHAL_CUDA_VECTOR2
#undef STREAMHAL_CUDA_VECTOR3
#undef STREAMHAL_CUDA_VECTOR4
#undef STREAMHAL_CUDA_ALIGN

/* Grid and block dimensions. In C++ each dimension defaults to 1, so
 * dim3 grid(64) is 64 x 1 x 1. */
struct dim3 {
  unsigned int x, y, z;
#if defined(__cplusplus)
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
#endif
};
typedef struct dim3 dim3;

#endif /* STREAMHAL_CUDA_VECTOR_TYPES_H_ */
