// The PTX IR: what the parser produces and the SPIR-V emitter consumes.
//
// A module holds functions; a function holds typed register declarations,
// its parameters and its code as basic blocks. Every block ends in an
// explicit terminator (branch, conditional branch, return), and predicated
// instructions other than branches have been split into blocks of their own
// (BuildBlocks), so a block's body is straight-line code. That keeps the CFG
// explicit for the passes that follow (structurize.h).
#ifndef STREAMHAL_PTX_IR_H_
#define STREAMHAL_PTX_IR_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace streamhal::ptx {

// PTX fundamental types. Bit-size types (.bN) are untyped integers.
enum class Type : uint8_t {
  kNone,
  kPred,
  kB8,
  kB16,
  kB32,
  kB64,
  kU8,
  kU16,
  kU32,
  kU64,
  kS8,
  kS16,
  kS32,
  kS64,
  kF16,
  kF32,
  kF64,
};

// ".f32" etc. to a type; kNone when the word is not a type.
Type TypeFromName(const std::string& name);
const char* TypeName(Type type);
int TypeBits(Type type);  // kPred: 1
bool IsFloat(Type type);
bool IsSigned(Type type);
bool IsInteger(Type type);  // .b/.u/.s

enum class Space : uint8_t { kGeneric, kReg, kParam, kGlobal, kShared, kConst, kLocal };

// How a module-scope symbol links (PTX ISA "Linking directives"): visible to
// other modules, weak (a visible definition elsewhere wins), a declaration
// whose definition is in another module, or local to its module.
enum class Linkage : uint8_t { kInternal, kVisible, kWeak, kExtern };

struct Operand {
  enum class Kind : uint8_t {
    kNone,
    kRegister,  // %r1 (registers and special registers such as %tid.x)
    kInt,       // an integer literal
    kFloat,     // a float literal (0f/0d hex or decimal)
    kSymbol,    // a variable or parameter name used as a value (its address)
    kAddress,   // [base+offset]; base is a register or a symbol (or empty);
                // tex's [handle, {coordinates}] holds the coordinates in elements
    kVector,    // {%f1, %f2}
    kList,      // (param0, param1): a call's return or argument list
  };
  Kind kind = Kind::kNone;
  std::string name;  // register or symbol; the base of an address
  bool base_is_symbol = false;
  int64_t int_value = 0;          // kInt; the offset of an address
  double float_value = 0;         // kFloat
  uint64_t float_bits = 0;        // the exact bits of a hex float literal
  int float_bits_width = 0;       // 32 or 64 when float_bits is exact, else 0
  std::vector<Operand> elements;  // kVector, kList
  std::string pair;               // kRegister: the `p` of a `d|p` destination
  bool negated = false;           // kRegister: `!%p`, a negated predicate source
};

struct Instruction {
  int line = 0;
  std::string opcode;                  // "ld", "add", "setp", ...
  std::vector<std::string> modifiers;  // every ".xyz" after the opcode, without the dot
  std::vector<Type> types;             // the type modifiers, in order (cvt: dst, src)
  Space space = Space::kGeneric;       // state space modifier of ld/st/atom/cvta
  int vector_width = 1;                // .v2 / .v4
  std::string guard;                   // "@%p" guard register, empty when none
  bool guard_negated = false;
  std::vector<Operand> operands;

  bool HasModifier(const std::string& m) const;
  Type type() const { return types.empty() ? Type::kNone : types.back(); }
};

struct Block {
  enum class Exit : uint8_t { kBranch, kConditional, kReturn };
  std::string label;              // empty for unlabelled blocks
  std::vector<Instruction> body;  // straight-line, no branches
  Exit exit = Exit::kReturn;
  int target = -1;        // kBranch, and kConditional when taken
  int fallthrough = -1;   // kConditional when not taken
  std::string condition;  // kConditional: predicate register
  bool condition_negated = false;
  int line = 0;  // of the terminator, for messages
};

struct Param {
  std::string name;
  Type type = Type::kNone;  // element type
  int align = 0;            // bytes
  int count = 1;            // array elements (.b8 name[16]); 1 for scalars
  int offset = 0;           // in the parameter block, CUDA's layout
  bool is_register = false;  // a `.func`'s `.reg` parameter, passed by value as a register
  int size() const;
};

struct Variable {
  std::string name;
  Space space = Space::kShared;
  Type type = Type::kNone;
  int align = 0;
  int64_t count = 1;  // elements; 0 for an unsized extern array
  bool is_extern = false;
  Linkage linkage = Linkage::kInternal;  // module scope only
  int line = 0;
  std::vector<uint8_t> init;  // .global/.const initialiser, little-endian; empty: zeros
};

// A kernel (`.entry`) or a device function (`.func`). A `call` instruction's
// operands are always {kList returns, kSymbol callee, kList arguments} (the
// lists possibly empty); the parser normalises the forms PTX allows.
struct Function {
  std::string name;
  bool is_entry = false;
  bool is_declaration = false;  // `.extern .func` prototype without a body
  Linkage linkage = Linkage::kInternal;
  int line = 0;
  std::vector<Param> params;
  std::vector<Param> returns;  // `.func` return parameters
  int param_block_bytes = 0;
  std::map<std::string, Type> registers;  // every declared register
  // .shared, .local and (Space::kParam) the `.param` buffers of call sites
  // declared inside; the parser gives a call-site `.param` whose name an
  // earlier scope of the function used a unique name ("param0#2").
  std::vector<Variable> variables;
  std::vector<Block> blocks;              // blocks[0] is the entry
};

struct Module {
  std::string version;  // "9.0"
  std::string target;   // "sm_75"
  int address_size = 64;
  std::vector<Variable> variables;  // module scope
  std::vector<Function> functions;
  // `.global .texref` names, in declaration order: reference k binds at
  // set 2, binding kTextureRefBinding + k (docs/kernel-abi.md).
  std::vector<std::string> texrefs;
};

// The first binding of texture references in set 2 (core's
// kTextureRefBindingBase: parameters bind below it).
inline constexpr uint32_t kTextureRefBinding = 1024;

}  // namespace streamhal::ptx

#endif  // STREAMHAL_PTX_IR_H_
