// Reading enum arguments of the C APIs.
//
// A C caller may pass any int where cuda.h or hip_runtime_api.h declares an
// enum parameter (in C an enum is an int). In C++ an enum without a fixed
// underlying type only holds the values of its range, so reading such a
// parameter as the enum type is undefined behaviour for other numbers, and
// UBSan aborts on it ("load of value 99, which is not a valid value for type
// 'hipFunction_attribute'"); a static_cast<int> of the parameter is already
// such a read. Bindings therefore take every enum argument as an int through
// EnumArgument, which copies the bytes and never reads the enum type, check
// the int, and only then use it.
#ifndef STREAMHAL_CORE_C_ENUM_H_
#define STREAMHAL_CORE_C_ENUM_H_

#include <cstddef>
#include <cstring>
#include <type_traits>

namespace streamhal {

template <typename E>
int EnumArgument(const E& argument) {
  static_assert(std::is_enum_v<E>, "EnumArgument reads enum arguments");
  static_assert(sizeof(E) == sizeof(int), "C API enums are int-sized");
  int value;
  std::memcpy(&value, &argument, sizeof(value));
  return value;
}

// Whether `value` lies in [first, last], the range of enumerators a binding
// checked an EnumArgument against before converting it back to E (any value
// in that range is a valid value of E, so the conversion is defined).
// Element `index` of a C array of enum values (cuPointerGetAttributes'
// attributes), read as int like EnumArgument, one element at a time so that
// nothing past what the caller validated is read.
inline int EnumArrayElement(const void* array, size_t index) {
  int value;
  std::memcpy(&value, static_cast<const char*>(array) + index * sizeof(int), sizeof(value));
  return value;
}

template <typename E>
constexpr bool EnumInRange(int value, E first, E last) {
  return value >= static_cast<int>(first) && value <= static_cast<int>(last);
}

}  // namespace streamhal

#endif  // STREAMHAL_CORE_C_ENUM_H_
