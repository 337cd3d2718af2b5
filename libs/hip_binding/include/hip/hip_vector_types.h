/* HIP's short vector types (char1 .. double4 and the unsigned and 64-bit
 * forms), their make_* functions, and dim3, for C99 and later and for host
 * C++.
 *
 * Each type is a plain struct with members x, y, z, w (as many as it has
 * components). Sizes and alignments are those of AMD's C++ types, which are
 * also what a kernel sees: one, two and four components are aligned to their
 * whole size (so double4 and long4 to 32 bytes), three components to one
 * component (float3 is 12 bytes, aligned to 4). AMD's C types leave every
 * type at its component's alignment; here C and C++ agree, so a buffer of
 * float4 has one layout in both. C++ gets AMD's constructors (a single
 * explicit value for every component, or one value per component) and the
 * types stay trivial, so they can be copied into kernel arguments as bytes.
 * The operators of AMD's C++ types are not provided. */
#ifndef STREAMHAL_HIP_HIP_VECTOR_TYPES_H_
#define STREAMHAL_HIP_HIP_VECTOR_TYPES_H_

#include <stdint.h>

#ifdef __cplusplus
#define STREAMHAL_HIP_ALIGN(bytes) alignas(bytes)
#else
#define STREAMHAL_HIP_ALIGN(bytes) __attribute__((aligned(bytes)))
#endif

/* The C++ constructors of a type with one to four components. */
#ifdef __cplusplus
#define STREAMHAL_HIP_CONSTRUCTORS1(name, T) \
  name() = default;                          \
  explicit constexpr name(T value) : x(value) {}
#define STREAMHAL_HIP_CONSTRUCTORS2(name, T)               \
  name() = default;                                        \
  explicit constexpr name(T value) : x(value), y(value) {} \
  constexpr name(T vx, T vy) : x(vx), y(vy) {}
#define STREAMHAL_HIP_CONSTRUCTORS3(name, T)                         \
  name() = default;                                                  \
  explicit constexpr name(T value) : x(value), y(value), z(value) {} \
  constexpr name(T vx, T vy, T vz) : x(vx), y(vy), z(vz) {}
#define STREAMHAL_HIP_CONSTRUCTORS4(name, T)                                   \
  name() = default;                                                            \
  explicit constexpr name(T value) : x(value), y(value), z(value), w(value) {} \
  constexpr name(T vx, T vy, T vz, T vw) : x(vx), y(vy), z(vz), w(vw) {}
#else
#define STREAMHAL_HIP_CONSTRUCTORS1(name, T)
#define STREAMHAL_HIP_CONSTRUCTORS2(name, T)
#define STREAMHAL_HIP_CONSTRUCTORS3(name, T)
#define STREAMHAL_HIP_CONSTRUCTORS4(name, T)
#endif

/* The four types of one component type T, named prefix1 .. prefix4, and
 * their make_* functions, whose parameters have type P (AMD's make_char*
 * take signed char while char1 .. char4 hold char). */
#define STREAMHAL_HIP_VECTOR_TYPES(prefix, T, P)                 \
  typedef struct STREAMHAL_HIP_ALIGN(sizeof(T)) prefix##1 {      \
    T x;                                                         \
    STREAMHAL_HIP_CONSTRUCTORS1(prefix##1, T)                    \
  }                                                              \
  prefix##1;                                                     \
  typedef struct STREAMHAL_HIP_ALIGN(2 * sizeof(T)) prefix##2 {  \
    T x;                                                         \
    T y;                                                         \
    STREAMHAL_HIP_CONSTRUCTORS2(prefix##2, T)                    \
  }                                                              \
  prefix##2;                                                     \
  typedef struct prefix##3 {                                     \
    T x;                                                         \
    T y;                                                         \
    T z;                                                         \
    STREAMHAL_HIP_CONSTRUCTORS3(prefix##3, T)                    \
  }                                                              \
  prefix##3;                                                     \
  typedef struct STREAMHAL_HIP_ALIGN(4 * sizeof(T)) prefix##4 {  \
    T x;                                                         \
    T y;                                                         \
    T z;                                                         \
    T w;                                                         \
    STREAMHAL_HIP_CONSTRUCTORS4(prefix##4, T)                    \
  }                                                              \
  prefix##4;                                                     \
  static inline prefix##1 make_##prefix##1(P x) {                \
    prefix##1 r;                                                 \
    r.x = x;                                                     \
    return r;                                                    \
  }                                                              \
  static inline prefix##2 make_##prefix##2(P x, P y) {           \
    prefix##2 r;                                                 \
    r.x = x;                                                     \
    r.y = y;                                                     \
    return r;                                                    \
  }                                                              \
  static inline prefix##3 make_##prefix##3(P x, P y, P z) {      \
    prefix##3 r;                                                 \
    r.x = x;                                                     \
    r.y = y;                                                     \
    r.z = z;                                                     \
    return r;                                                    \
  }                                                              \
  static inline prefix##4 make_##prefix##4(P x, P y, P z, P w) { \
    prefix##4 r;                                                 \
    r.x = x;                                                     \
    r.y = y;                                                     \
    r.z = z;                                                     \
    r.w = w;                                                     \
    return r;                                                    \
  }

STREAMHAL_HIP_VECTOR_TYPES(char, char, signed char)
STREAMHAL_HIP_VECTOR_TYPES(uchar, unsigned char, unsigned char)
STREAMHAL_HIP_VECTOR_TYPES(short, short, signed short)
STREAMHAL_HIP_VECTOR_TYPES(ushort, unsigned short, unsigned short)
STREAMHAL_HIP_VECTOR_TYPES(int, int, signed int)
STREAMHAL_HIP_VECTOR_TYPES(uint, unsigned int, unsigned int)
STREAMHAL_HIP_VECTOR_TYPES(long, long, signed long)
STREAMHAL_HIP_VECTOR_TYPES(ulong, unsigned long, unsigned long)
STREAMHAL_HIP_VECTOR_TYPES(longlong, long long, signed long long)
STREAMHAL_HIP_VECTOR_TYPES(ulonglong, unsigned long long, unsigned long long)
STREAMHAL_HIP_VECTOR_TYPES(float, float, float)
STREAMHAL_HIP_VECTOR_TYPES(double, double, double)

#undef STREAMHAL_HIP_VECTOR_TYPES
#undef STREAMHAL_HIP_CONSTRUCTORS1
#undef STREAMHAL_HIP_CONSTRUCTORS2
#undef STREAMHAL_HIP_CONSTRUCTORS3
#undef STREAMHAL_HIP_CONSTRUCTORS4
#undef STREAMHAL_HIP_ALIGN

/* Grid and block shapes. As in HIP, C++ callers get a constructor whose
 * unspecified dimensions are 1, so dim3(n) is a 1-D shape. */
typedef struct dim3 {
  uint32_t x;
  uint32_t y;
  uint32_t z;
#ifdef __cplusplus
  constexpr dim3(uint32_t x_in = 1, uint32_t y_in = 1, uint32_t z_in = 1)
      : x(x_in), y(y_in), z(z_in) {}
#endif
} dim3;

#endif /* STREAMHAL_HIP_HIP_VECTOR_TYPES_H_ */
