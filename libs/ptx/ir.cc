#include "ptx/ir.h"

#include <algorithm>

namespace streamhal::ptx {
namespace {

struct TypeEntry {
  const char* name;
  Type type;
  int bits;
};

constexpr TypeEntry kTypes[] = {
    {"pred", Type::kPred, 1}, {"b8", Type::kB8, 8},    {"b16", Type::kB16, 16},
    {"b32", Type::kB32, 32},  {"b64", Type::kB64, 64}, {"u8", Type::kU8, 8},
    {"u16", Type::kU16, 16},  {"u32", Type::kU32, 32}, {"u64", Type::kU64, 64},
    {"s8", Type::kS8, 8},     {"s16", Type::kS16, 16}, {"s32", Type::kS32, 32},
    {"s64", Type::kS64, 64},  {"f16", Type::kF16, 16}, {"f32", Type::kF32, 32},
    {"f64", Type::kF64, 64},
};

}  // namespace

Type TypeFromName(const std::string& name) {
  for (const TypeEntry& e : kTypes) {
    if (name == e.name) return e.type;
  }
  return Type::kNone;
}

const char* TypeName(Type type) {
  for (const TypeEntry& e : kTypes) {
    if (type == e.type) return e.name;
  }
  return "none";
}

int TypeBits(Type type) {
  for (const TypeEntry& e : kTypes) {
    if (type == e.type) return e.bits;
  }
  return 0;
}

bool IsFloat(Type type) { return type == Type::kF16 || type == Type::kF32 || type == Type::kF64; }

bool IsSigned(Type type) {
  return type == Type::kS8 || type == Type::kS16 || type == Type::kS32 || type == Type::kS64;
}

bool IsInteger(Type type) { return type != Type::kNone && type != Type::kPred && !IsFloat(type); }

bool Instruction::HasModifier(const std::string& m) const {
  return std::find(modifiers.begin(), modifiers.end(), m) != modifiers.end();
}

int Param::size() const { return TypeBits(type) / 8 * count; }

}  // namespace streamhal::ptx
