#include "ptx/parser.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "ptx/diagnostics.h"
#include "ptx/lexer.h"

namespace streamhal::ptx {
namespace {

// Parses an integer literal (decimal, 0x hex, optional U suffix).
bool ParseInteger(std::string text, int64_t* out) {
  if (!text.empty() && (text.back() == 'U' || text.back() == 'u')) text.pop_back();
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    uint64_t v = 0;
    if (!absl::SimpleHexAtoi(text.substr(2), &v)) return false;
    *out = static_cast<int64_t>(v);
    return true;
  }
  if (text.find('.') != std::string::npos || text.find('e') != std::string::npos ||
      text.find('E') != std::string::npos) {
    return false;
  }
  uint64_t v = 0;
  if (!absl::SimpleAtoi(text, &v)) return false;
  *out = static_cast<int64_t>(v);
  return true;
}

// One statement of a function body before blocks are formed.
struct Item {
  std::string label;  // a label, or empty for an instruction
  Instruction inst;
};

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

  absl::StatusOr<Module> Run() {
    Module module;
    while (!AtEnd()) {
      const Token& t = Peek();
      if (t.kind != Token::Kind::kWord) return SyntaxError(t.line, "expected a directive");
      if (t.text == ".version") {
        Next();
        module.version = Next().text;
      } else if (t.text == ".target") {
        Next();
        module.target = Next().text;
        while (IsPunct(",")) {
          Next();
          Next();
        }
      } else if (t.text == ".address_size") {
        Next();
        int64_t bits = 0;
        const Token& v = Next();
        if (!ParseInteger(v.text, &bits)) return SyntaxError(v.line, "bad .address_size");
        if (bits != 64) return Unsupported(v.line, ".address_size other than 64");
        module.address_size = static_cast<int>(bits);
      } else if (t.text == ".visible" || t.text == ".weak" || t.text == ".extern" ||
                 t.text == ".entry" || t.text == ".func" || t.text == ".shared" ||
                 t.text == ".global" || t.text == ".const") {
        SH_PTX_RETURN_IF_ERROR(ParseModuleItem(module));
      } else if (t.text == ".file" || t.text == ".section" || t.text == ".loc") {
        return Unsupported(t.line, absl::StrCat("directive ", t.text, " (debug information)"));
      } else {
        return Unsupported(t.line, absl::StrCat("directive '", t.text, "'"));
      }
    }
    return module;
  }

 private:
  const Token& Peek(size_t ahead = 0) const {
    const size_t i = pos_ + ahead;
    return i < tokens_.size() ? tokens_[i] : tokens_.back();
  }
  const Token& Next() {
    const Token& t = Peek();
    if (pos_ < tokens_.size() - 1) ++pos_;
    return t;
  }
  bool AtEnd() const { return Peek().kind == Token::Kind::kEnd; }
  bool IsPunct(const char* p, size_t ahead = 0) const {
    return Peek(ahead).kind == Token::Kind::kPunct && Peek(ahead).text == p;
  }
  bool IsWord(const char* w) const { return Peek().kind == Token::Kind::kWord && Peek().text == w; }
  absl::Status Expect(const char* p) {
    if (!IsPunct(p)) {
      return SyntaxError(Peek().line,
                         absl::StrCat("expected '", p, "' before '", Peek().text, "'"));
    }
    Next();
    return absl::OkStatus();
  }
  absl::Status ExpectInteger(int64_t* out) {
    const Token& t = Next();
    if (t.kind != Token::Kind::kNumber || !ParseInteger(t.text, out)) {
      return SyntaxError(t.line, absl::StrCat("expected an integer, got '", t.text, "'"));
    }
    return absl::OkStatus();
  }

  absl::Status ParseModuleItem(Module& module) {
    bool is_extern = false;
    Linkage linkage = Linkage::kInternal;
    const int line = Peek().line;
    while (IsWord(".visible") || IsWord(".weak") || IsWord(".extern")) {
      if (Peek().text == ".extern") {
        is_extern = true;
        linkage = Linkage::kExtern;
      } else if (Peek().text == ".weak") {
        if (linkage != Linkage::kExtern) linkage = Linkage::kWeak;
      } else if (linkage == Linkage::kInternal) {
        linkage = Linkage::kVisible;
      }
      Next();
    }
    if (IsWord(".entry") || IsWord(".func")) {
      Function f;
      f.is_entry = Next().text == ".entry";
      f.linkage = linkage;
      f.line = line;
      SH_PTX_RETURN_IF_ERROR(ParseFunction(f));
      module.functions.push_back(std::move(f));
      return absl::OkStatus();
    }
    // .global .texref name; (a texture reference, bound with
    // cuModuleGetTexRef). Samplers and surfaces by reference are not
    // translated.
    if (IsWord(".global") && Peek(1).kind == Token::Kind::kWord &&
        (Peek(1).text == ".texref" || Peek(1).text == ".samplerref" ||
         Peek(1).text == ".surfref")) {
      Next();
      const Token& kind = Next();
      if (kind.text != ".texref") {
        return Unsupported(kind.line, absl::StrCat(kind.text, " (only .texref references)"));
      }
      if (is_extern) return Unsupported(kind.line, ".extern .texref");
      const Token& name = Next();
      if (name.kind != Token::Kind::kWord) return SyntaxError(name.line, "expected a .texref name");
      if (IsPunct("[")) return Unsupported(name.line, "arrays of .texref");
      SH_PTX_RETURN_IF_ERROR(Expect(";"));
      if (std::find(module.texrefs.begin(), module.texrefs.end(), name.text) !=
          module.texrefs.end()) {
        return SyntaxError(name.line, absl::StrCat(".texref ", name.text, " declared twice"));
      }
      module.texrefs.push_back(name.text);
      return absl::OkStatus();
    }
    Variable v;
    v.is_extern = is_extern;
    v.linkage = linkage;
    SH_PTX_RETURN_IF_ERROR(ParseVariable(v));
    module.variables.push_back(std::move(v));
    return absl::OkStatus();
  }

  // [.extern] .shared/.global/.const [.align N] .type name[N] [= init];
  absl::Status ParseVariable(Variable& v) {
    const Token& space = Next();
    v.line = space.line;
    if (space.text == ".shared") {
      v.space = Space::kShared;
    } else if (space.text == ".global") {
      v.space = Space::kGlobal;
    } else if (space.text == ".const") {
      v.space = Space::kConst;
    } else if (space.text == ".local") {
      v.space = Space::kLocal;
    } else if (space.text == ".param") {
      v.space = Space::kParam;
    } else {
      return SyntaxError(space.line, absl::StrCat("unexpected '", space.text, "'"));
    }
    while (Peek().kind == Token::Kind::kWord && Peek().text[0] == '.') {
      const Token& t = Next();
      if (t.text == ".align") {
        int64_t a = 0;
        SH_PTX_RETURN_IF_ERROR(ExpectInteger(&a));
        v.align = static_cast<int>(a);
      } else if (TypeFromName(t.text.substr(1)) != Type::kNone) {
        v.type = TypeFromName(t.text.substr(1));
      } else {
        return Unsupported(t.line, absl::StrCat("variable attribute ", t.text));
      }
    }
    if (v.type == Type::kNone || v.type == Type::kPred) {
      return SyntaxError(v.line, "variable without a type");
    }
    const Token& name = Next();
    if (name.kind != Token::Kind::kWord) return SyntaxError(name.line, "expected a variable name");
    v.name = name.text;
    v.count = 1;
    if (IsPunct("[")) {
      Next();
      if (IsPunct("]")) {
        v.count = 0;
      } else {
        SH_PTX_RETURN_IF_ERROR(ExpectInteger(&v.count));
      }
      SH_PTX_RETURN_IF_ERROR(Expect("]"));
      if (IsPunct("[")) return Unsupported(v.line, "multi-dimensional variable");
    }
    if (v.count == 0 && !v.is_extern) return SyntaxError(v.line, "unsized non-extern array");
    if (v.align == 0) v.align = TypeBits(v.type) / 8;
    if (IsPunct("=")) {
      Next();
      if (v.space != Space::kGlobal && v.space != Space::kConst) {
        return SyntaxError(v.line, "only .global and .const variables take initialisers");
      }
      SH_PTX_RETURN_IF_ERROR(ParseInitializer(v));
    }
    return Expect(";");
  }

  // "= value" or "= {value, ...}": the variable's bytes, little-endian.
  absl::Status ParseInitializer(Variable& v) {
    const bool list = IsPunct("{");
    if (list) Next();
    const int size = TypeBits(v.type) / 8;
    for (int64_t i = 0;; ++i) {
      if (i >= v.count) return SyntaxError(v.line, "initialiser longer than the variable");
      const bool negative = IsPunct("-");
      if (negative) Next();
      if (Peek().kind != Token::Kind::kNumber) {
        return Unsupported(Peek().line, "initialiser other than numbers (addresses, nesting)");
      }
      Operand o;
      SH_PTX_RETURN_IF_ERROR(ParseNumber(o, negative));
      uint64_t bits = 0;
      if (o.kind == Operand::Kind::kInt) {
        bits = IsFloat(v.type) ? FloatBits(static_cast<double>(o.int_value), size)
                               : static_cast<uint64_t>(o.int_value);
      } else if (o.float_bits_width == size * 8) {
        bits = o.float_bits;
      } else if (IsFloat(v.type)) {
        bits = FloatBits(o.float_value, size);
      } else {
        return SyntaxError(v.line, "float initialiser for an integer variable");
      }
      if (IsFloat(v.type) && size == 2) return Unsupported(v.line, ".f16 initialiser");
      for (int b = 0; b < size; ++b) v.init.push_back(static_cast<uint8_t>(bits >> (8 * b)));
      if (!list || !IsPunct(",")) break;
      Next();
    }
    if (list) return Expect("}");
    return absl::OkStatus();
  }
  static uint64_t FloatBits(double value, int size) {
    if (size == 8) {
      uint64_t bits;
      std::memcpy(&bits, &value, 8);
      return bits;
    }
    const float f = static_cast<float>(value);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return bits;
  }

  // "(" param, ... ")" into `params`, laid out as CUDA lays out a kernel's
  // parameter buffer (the offsets matter for kernels only).
  absl::Status ParseParamList(Function& f, std::vector<Param>& params) {
    SH_PTX_RETURN_IF_ERROR(Expect("("));
    int bytes = 0;
    while (!IsPunct(")")) {
      Param p;
      SH_PTX_RETURN_IF_ERROR(ParseParam(p, !f.is_entry));
      // CUDA lays parameters out at their natural (or .align) alignment.
      const int align = p.align;
      bytes = (bytes + align - 1) / align * align;
      p.offset = bytes;
      bytes += p.size();
      // A .reg parameter is a register of the function, set by the call.
      if (p.is_register) f.registers[p.name] = p.type;
      params.push_back(std::move(p));
      if (IsPunct(","))
        Next();
      else if (!IsPunct(")"))
        return SyntaxError(Peek().line, "expected ',' or ')'");
    }
    Next();
    if (&params == &f.params) f.param_block_bytes = bytes;
    return absl::OkStatus();
  }

  // .entry name(params) {body}, or .func [(returns)] name[(params)] {body}
  // (or `;` for a prototype).
  absl::Status ParseFunction(Function& f) {
    if (!f.is_entry && IsPunct("(")) SH_PTX_RETURN_IF_ERROR(ParseParamList(f, f.returns));
    const Token& name = Next();
    if (name.kind != Token::Kind::kWord) return SyntaxError(name.line, "expected a function name");
    f.name = name.text;
    if (IsPunct("(")) SH_PTX_RETURN_IF_ERROR(ParseParamList(f, f.params));
    // Performance directives (.maxntid, .reqntid, .minnctapersm, ...).
    while (Peek().kind == Token::Kind::kWord && Peek().text[0] == '.') {
      const Token& d = Next();
      if (d.text == ".reqntid") return Unsupported(d.line, ".reqntid");
      if (d.text == ".noreturn") continue;
      while (Peek().kind == Token::Kind::kNumber || IsPunct(",")) Next();
    }
    if (!f.is_entry && IsPunct(";")) {
      Next();
      f.is_declaration = true;
      return absl::OkStatus();
    }
    if (f.linkage == Linkage::kExtern) {
      return SyntaxError(f.line, absl::StrCat(".extern ", f.name, " has a body"));
    }
    SH_PTX_RETURN_IF_ERROR(Expect("{"));
    std::vector<Item> items;
    scopes_.assign(1, {});
    while (!scopes_.empty()) {
      if (AtEnd()) return SyntaxError(Peek().line, "unterminated function body");
      if (IsPunct("{")) {
        Next();
        scopes_.emplace_back();
        continue;
      }
      if (IsPunct("}")) {
        Next();
        scopes_.pop_back();
        continue;
      }
      SH_PTX_RETURN_IF_ERROR(ParseStatement(f, items));
    }
    return BuildBlocks(f, std::move(items));
  }

  absl::Status ParseParam(Param& p, bool in_func) {
    const Token& kw = Next();
    if (in_func && kw.text == ".reg") {
      p.is_register = true;
    } else if (kw.text != ".param") {
      return SyntaxError(kw.line, "expected .param");
    }
    while (Peek().kind == Token::Kind::kWord && Peek().text[0] == '.') {
      const Token& t = Next();
      if (t.text == ".align") {
        int64_t a = 0;
        SH_PTX_RETURN_IF_ERROR(ExpectInteger(&a));
        p.align = static_cast<int>(a);
      } else if (t.text == ".ptr" || t.text == ".global" || t.text == ".const" ||
                 t.text == ".shared" || t.text == ".local") {
        // Pointer attributes (.ptr .global .align N): the value is a u64.
      } else if (TypeFromName(t.text.substr(1)) != Type::kNone) {
        p.type = TypeFromName(t.text.substr(1));
      } else {
        return Unsupported(t.line, absl::StrCat("parameter attribute ", t.text));
      }
    }
    if (p.type == Type::kNone || (p.type == Type::kPred && !p.is_register)) {
      return SyntaxError(Peek().line, "parameter without a type");
    }
    const Token& name = Next();
    if (name.kind != Token::Kind::kWord) return SyntaxError(name.line, "expected a parameter name");
    p.name = name.text;
    if (IsPunct("[")) {
      Next();
      int64_t count = 0;
      SH_PTX_RETURN_IF_ERROR(ExpectInteger(&count));
      SH_PTX_RETURN_IF_ERROR(Expect("]"));
      if (count <= 0 || count > 4096) return SyntaxError(name.line, "bad parameter array size");
      p.count = static_cast<int>(count);
    }
    if (p.is_register && p.count != 1) return SyntaxError(name.line, ".reg parameter array");
    const int natural = std::max(1, TypeBits(p.type) / 8);
    if (p.align == 0) p.align = natural;
    if (p.align <= 0 || (p.align & (p.align - 1)) != 0) {
      return SyntaxError(name.line, "bad parameter alignment");
    }
    return absl::OkStatus();
  }

  absl::Status ParseStatement(Function& f, std::vector<Item>& items) {
    const Token& t = Peek();
    // Label.
    if (t.kind == Token::Kind::kWord && t.text[0] != '.' && t.text[0] != '%' && IsPunct(":", 1)) {
      Item item;
      item.label = t.text;
      item.inst.line = t.line;
      Next();
      Next();
      items.push_back(std::move(item));
      return absl::OkStatus();
    }
    if (t.kind == Token::Kind::kWord && t.text == ".reg") return ParseRegisters(f);
    if (t.kind == Token::Kind::kWord && (t.text == ".shared" || t.text == ".local")) {
      Variable v;
      SH_PTX_RETURN_IF_ERROR(ParseVariable(v));
      f.variables.push_back(std::move(v));
      return absl::OkStatus();
    }
    if (t.kind == Token::Kind::kWord && t.text == ".param") {
      // The argument and return buffers of a call (nvcc's "callseq" scopes).
      Variable v;
      SH_PTX_RETURN_IF_ERROR(ParseVariable(v));
      const std::string declared = v.name;
      for (const Variable& other : f.variables) {
        if (other.name == v.name) {
          v.name = absl::StrCat(declared, "#", f.variables.size());
          break;
        }
      }
      for (const Param& p : f.params) {
        if (p.name == v.name) return SyntaxError(v.line, absl::StrCat(v.name, " declared twice"));
      }
      scopes_.back()[declared] = v.name;
      f.variables.push_back(std::move(v));
      return absl::OkStatus();
    }
    if (t.kind == Token::Kind::kWord && t.text == ".pragma") {
      while (!IsPunct(";") && !AtEnd()) Next();
      return Expect(";");
    }
    if (t.kind == Token::Kind::kWord && t.text[0] == '.') {
      return Unsupported(t.line, absl::StrCat("directive '", t.text, "' in a function body"));
    }
    Item item;
    SH_PTX_RETURN_IF_ERROR(ParseInstruction(item.inst));
    for (Operand& o : item.inst.operands) RenameScoped(o);
    if (item.inst.opcode == "call") SH_PTX_RETURN_IF_ERROR(NormaliseCall(item.inst));
    if (item.inst.opcode == "exit" && !f.is_entry) {
      // exit ends the thread, not just the function.
      return Unsupported(item.inst.line, "exit in a .func");
    }
    items.push_back(std::move(item));
    return absl::OkStatus();
  }

  // A name that a call-site .param declaration of an enclosing scope renamed.
  void RenameScoped(Operand& o) {
    if (o.kind == Operand::Kind::kSymbol ||
        (o.kind == Operand::Kind::kAddress && o.base_is_symbol)) {
      for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
        auto it = scope->find(o.name);
        if (it == scope->end()) continue;
        o.name = it->second;
        break;
      }
    }
    for (Operand& e : o.elements) RenameScoped(e);
  }

  // call [(returns),] name[, (arguments)]: always the three operands
  // {returns, name, arguments} (ir.h).
  absl::Status NormaliseCall(Instruction& inst) {
    std::vector<Operand>& ops = inst.operands;
    size_t callee = 0;
    if (!ops.empty() && ops[0].kind == Operand::Kind::kList) callee = 1;
    if (callee >= ops.size()) return SyntaxError(inst.line, "call without a function");
    if (ops[callee].kind == Operand::Kind::kRegister) {
      return Unsupported(inst.line, "indirect call (function pointers)");
    }
    if (ops[callee].kind != Operand::Kind::kSymbol) {
      return SyntaxError(inst.line, "call's function is not a name");
    }
    const size_t rest = ops.size() - callee - 1;
    if (rest > 1) return Unsupported(inst.line, "call with a prototype (indirect call)");
    if (rest == 1 && ops[callee + 1].kind != Operand::Kind::kList) {
      return SyntaxError(inst.line, "call's arguments are not a (list)");
    }
    if (callee == 0) ops.insert(ops.begin(), Operand{Operand::Kind::kList});
    if (ops.size() == 2) ops.push_back(Operand{Operand::Kind::kList});
    if (ops[0].elements.size() > 1) return Unsupported(inst.line, "call with several returns");
    return absl::OkStatus();
  }

  // .reg .type %r<N>;  or  .reg .type %a, %b;
  absl::Status ParseRegisters(Function& f) {
    const Token& kw = Next();
    Type type = Type::kNone;
    while (Peek().kind == Token::Kind::kWord && Peek().text[0] == '.') {
      const Token& t = Next();
      if (t.text.rfind(".v", 0) == 0) return Unsupported(t.line, "vector registers");
      type = TypeFromName(t.text.substr(1));
      if (type == Type::kNone) return Unsupported(t.line, absl::StrCat("register type ", t.text));
    }
    if (type == Type::kNone) return SyntaxError(kw.line, ".reg without a type");
    while (true) {
      const Token& name = Next();
      if (name.kind != Token::Kind::kWord) return SyntaxError(name.line, "expected a register");
      if (IsPunct("<")) {
        Next();
        int64_t count = 0;
        SH_PTX_RETURN_IF_ERROR(ExpectInteger(&count));
        SH_PTX_RETURN_IF_ERROR(Expect(">"));
        if (count < 0 || count > (1 << 20)) return SyntaxError(name.line, "bad register count");
        for (int64_t i = 0; i < count; ++i) f.registers[absl::StrCat(name.text, i)] = type;
      } else {
        f.registers[name.text] = type;
      }
      if (!IsPunct(",")) break;
      Next();
    }
    return Expect(";");
  }

  absl::Status ParseInstruction(Instruction& inst) {
    inst.line = Peek().line;
    if (IsPunct("@")) {
      Next();
      if (IsPunct("!")) {
        Next();
        inst.guard_negated = true;
      }
      const Token& g = Next();
      if (g.kind != Token::Kind::kWord) return SyntaxError(g.line, "expected a guard predicate");
      inst.guard = g.text;
    }
    const Token& op = Next();
    if (op.kind != Token::Kind::kWord || op.text[0] == '.' || op.text[0] == '%') {
      return SyntaxError(op.line, absl::StrCat("expected an instruction, got '", op.text, "'"));
    }
    std::vector<std::string> parts = absl::StrSplit(op.text, '.');
    inst.opcode = parts[0];
    for (size_t i = 1; i < parts.size(); ++i) {
      const std::string& m = parts[i];
      if (m.empty()) return SyntaxError(op.line, "empty instruction modifier");
      inst.modifiers.push_back(m);
      const Type type = TypeFromName(m);
      if (type != Type::kNone) {
        inst.types.push_back(type);
      } else if (m == "global") {
        inst.space = Space::kGlobal;
      } else if (m == "shared") {
        inst.space = Space::kShared;
      } else if (m == "param") {
        inst.space = Space::kParam;
      } else if (m == "const") {
        inst.space = Space::kConst;
      } else if (m == "local") {
        inst.space = Space::kLocal;
      } else if (m == "v2") {
        inst.vector_width = 2;
      } else if (m == "v4") {
        inst.vector_width = 4;
      }
    }
    while (!IsPunct(";")) {
      if (AtEnd()) return SyntaxError(inst.line, "missing ';'");
      Operand operand;
      SH_PTX_RETURN_IF_ERROR(ParseOperand(operand));
      inst.operands.push_back(std::move(operand));
      if (IsPunct(",")) {
        Next();
      } else if (!IsPunct(";")) {
        return Unsupported(Peek().line,
                           absl::StrCat("operand syntax '", Peek().text, "' in ", op.text));
      }
    }
    Next();
    return absl::OkStatus();
  }

  absl::Status ParseNumber(Operand& o, bool negative) {
    const Token& t = Next();
    std::string text = t.text;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'f' || text[1] == 'F')) {
      uint64_t bits = 0;
      if (text.size() != 10 || !absl::SimpleHexAtoi(text.substr(2), &bits)) {
        return SyntaxError(t.line, absl::StrCat("bad float literal ", text));
      }
      o.kind = Operand::Kind::kFloat;
      float f;
      const uint32_t b32 = static_cast<uint32_t>(bits);
      std::memcpy(&f, &b32, 4);
      o.float_value = negative ? -f : f;
      o.float_bits = negative ? (bits ^ 0x80000000u) : bits;
      o.float_bits_width = 32;
      return absl::OkStatus();
    }
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'd' || text[1] == 'D')) {
      uint64_t bits = 0;
      if (text.size() != 18 || !absl::SimpleHexAtoi(text.substr(2), &bits)) {
        return SyntaxError(t.line, absl::StrCat("bad double literal ", text));
      }
      o.kind = Operand::Kind::kFloat;
      double d;
      std::memcpy(&d, &bits, 8);
      o.float_value = negative ? -d : d;
      o.float_bits = negative ? (bits ^ (uint64_t{1} << 63)) : bits;
      o.float_bits_width = 64;
      return absl::OkStatus();
    }
    int64_t v = 0;
    if (ParseInteger(text, &v)) {
      o.kind = Operand::Kind::kInt;
      o.int_value = negative ? -v : v;
      return absl::OkStatus();
    }
    double d = 0;
    if (!absl::SimpleAtod(text, &d)) return SyntaxError(t.line, absl::StrCat("bad number ", text));
    o.kind = Operand::Kind::kFloat;
    o.float_value = negative ? -d : d;
    return absl::OkStatus();
  }

  absl::Status ParseOperand(Operand& o) {
    const Token& t = Peek();
    if (IsPunct("!")) {
      // A negated predicate source (vote.sync.any.pred %p1, !%p2, ...).
      Next();
      const Token& r = Next();
      if (r.kind != Token::Kind::kWord || r.text[0] == '.')
        return SyntaxError(r.line, "expected a predicate register after '!'");
      o.kind = Operand::Kind::kRegister;
      o.name = r.text;
      o.negated = true;
      return absl::OkStatus();
    }
    if (IsPunct("-")) {
      Next();
      if (Peek().kind != Token::Kind::kNumber) return Unsupported(t.line, "negated operand");
      return ParseNumber(o, true);
    }
    if (t.kind == Token::Kind::kNumber) return ParseNumber(o, false);
    if (IsPunct("[")) {
      Next();
      o.kind = Operand::Kind::kAddress;
      if (Peek().kind == Token::Kind::kWord) {
        o.name = Next().text;
        o.base_is_symbol = o.name[0] != '%';
      } else if (Peek().kind == Token::Kind::kNumber) {
        int64_t v = 0;
        SH_PTX_RETURN_IF_ERROR(ExpectInteger(&v));
        o.int_value = v;
      }
      if (IsPunct("+") || IsPunct("-")) {
        bool neg = Next().text == "-";
        // nvcc writes negative offsets as `[%r6+-4]`.
        if (IsPunct("-")) {
          if (neg) return Unsupported(t.line, "address syntax");
          Next();
          neg = true;
        }
        int64_t v = 0;
        SH_PTX_RETURN_IF_ERROR(ExpectInteger(&v));
        o.int_value = neg ? -v : v;
      }
      // A texture fetch's [handle, {coordinates}]: the coordinates become the
      // address's one element.
      if (IsPunct(",")) {
        Next();
        Operand coordinates;
        SH_PTX_RETURN_IF_ERROR(ParseOperand(coordinates));
        o.elements.push_back(std::move(coordinates));
      }
      return Expect("]");
    }
    if (IsPunct("{") || IsPunct("(")) {
      const bool list = IsPunct("(");
      const char* close = list ? ")" : "}";
      Next();
      o.kind = list ? Operand::Kind::kList : Operand::Kind::kVector;
      while (!IsPunct(close)) {
        if (AtEnd()) return SyntaxError(t.line, absl::StrCat("missing '", close, "'"));
        Operand e;
        SH_PTX_RETURN_IF_ERROR(ParseOperand(e));
        o.elements.push_back(std::move(e));
        if (IsPunct(","))
          Next();
        else if (!IsPunct(close))
          return SyntaxError(Peek().line, absl::StrCat("expected ',' or '", close, "'"));
      }
      Next();
      return absl::OkStatus();
    }
    if (t.kind == Token::Kind::kWord && t.text[0] != '.') {
      Next();
      o.name = t.text;
      o.kind = t.text[0] == '%' ? Operand::Kind::kRegister : Operand::Kind::kSymbol;
      if (IsPunct("|")) {
        // `d|p`: a second, predicate destination (shfl.sync, match.all.sync).
        Next();
        const Token& p = Next();
        if (p.kind != Token::Kind::kWord || p.text[0] == '.')
          return SyntaxError(p.line, "expected a predicate register after '|'");
        o.kind = Operand::Kind::kRegister;  // inline asm names scoped registers without '%'
        o.pair = p.text;
        return absl::OkStatus();
      }
      if (o.kind == Operand::Kind::kSymbol && (IsPunct("+") || IsPunct("-"))) {
        return Unsupported(t.line, "symbol arithmetic in an operand");
      }
      return absl::OkStatus();
    }
    return Unsupported(t.line, absl::StrCat("operand '", t.text, "'"));
  }

  // Forms basic blocks: a block starts at a label and after a branch or
  // return; a predicated instruction that is not a branch gets a block of its
  // own, entered when its guard holds.
  absl::Status BuildBlocks(Function& f, std::vector<Item> items) {
    std::vector<Block>& blocks = f.blocks;
    std::vector<std::string> target_labels;  // per block: the label of `target`
    blocks.emplace_back();
    target_labels.emplace_back();
    int return_block = -1;
    auto start_block = [&](std::string label) {
      blocks.emplace_back();
      blocks.back().label = std::move(label);
      target_labels.emplace_back();
      return static_cast<int>(blocks.size()) - 1;
    };
    bool open = true;  // the last block still takes instructions / falls through
    for (Item& item : items) {
      if (!item.label.empty()) {
        const int prev = static_cast<int>(blocks.size()) - 1;
        const int next = start_block(item.label);
        if (open) {
          blocks[prev].exit = Block::Exit::kBranch;
          blocks[prev].target = next;
          blocks[prev].line = item.inst.line;
        }
        open = true;
        continue;
      }
      Instruction& inst = item.inst;
      if (!open) {
        start_block("");
        open = true;
      }
      const int cur = static_cast<int>(blocks.size()) - 1;
      if (inst.opcode == "bra") {
        if (inst.operands.size() != 1 || inst.operands[0].kind != Operand::Kind::kSymbol) {
          return SyntaxError(inst.line, "bra takes one label");
        }
        blocks[cur].line = inst.line;
        target_labels[cur] = inst.operands[0].name;
        if (inst.guard.empty()) {
          blocks[cur].exit = Block::Exit::kBranch;
          open = false;
        } else {
          blocks[cur].exit = Block::Exit::kConditional;
          blocks[cur].condition = inst.guard;
          blocks[cur].condition_negated = inst.guard_negated;
          const int next = start_block("");
          blocks[cur].fallthrough = next;
        }
        continue;
      }
      if (inst.opcode == "ret" || inst.opcode == "exit") {
        blocks[cur].line = inst.line;
        if (inst.guard.empty()) {
          blocks[cur].exit = Block::Exit::kReturn;
          open = false;
        } else {
          if (return_block < 0) {
            return_block = -2;  // made at the end
          }
          blocks[cur].exit = Block::Exit::kConditional;
          blocks[cur].condition = inst.guard;
          blocks[cur].condition_negated = inst.guard_negated;
          target_labels[cur] = "\x01return";
          const int next = start_block("");
          blocks[cur].fallthrough = next;
        }
        continue;
      }
      if (!inst.guard.empty()) {
        // cur -> (guard) guarded -> next; cur -> (!guard) next.
        const int guarded = start_block("");
        const int next = start_block("");
        blocks[cur].exit = Block::Exit::kConditional;
        blocks[cur].condition = inst.guard;
        blocks[cur].condition_negated = inst.guard_negated;
        blocks[cur].target = guarded;
        blocks[cur].fallthrough = next;
        blocks[cur].line = inst.line;
        inst.guard.clear();
        blocks[guarded].body.push_back(std::move(inst));
        blocks[guarded].exit = Block::Exit::kBranch;
        blocks[guarded].target = next;
        continue;
      }
      blocks[cur].body.push_back(std::move(inst));
    }
    if (open) blocks.back().exit = Block::Exit::kReturn;
    if (return_block == -2) {
      return_block = start_block("");
      blocks[return_block].exit = Block::Exit::kReturn;
    }
    std::map<std::string, int> by_label;
    for (size_t i = 0; i < blocks.size(); ++i) {
      if (blocks[i].label.empty()) continue;
      if (!by_label.emplace(blocks[i].label, static_cast<int>(i)).second) {
        return SyntaxError(blocks[i].line,
                           absl::StrCat("label ", blocks[i].label, " defined twice"));
      }
    }
    for (size_t i = 0; i < blocks.size(); ++i) {
      if (target_labels[i].empty()) continue;
      if (target_labels[i] == "\x01return") {
        blocks[i].target = return_block;
        continue;
      }
      auto it = by_label.find(target_labels[i]);
      if (it == by_label.end()) {
        return SyntaxError(blocks[i].line, absl::StrCat("unknown label ", target_labels[i]));
      }
      blocks[i].target = it->second;
    }
    return absl::OkStatus();
  }

  std::vector<Token> tokens_;
  size_t pos_ = 0;
  // While a body is parsed: per open `{ }`, the call-site .param names it
  // declared and what they became.
  std::vector<std::map<std::string, std::string>> scopes_;
};

}  // namespace

absl::StatusOr<Module> Parse(std::string_view text) {
  absl::StatusOr<std::vector<Token>> tokens = Lex(text);
  if (!tokens.ok()) return tokens.status();
  Parser parser(*std::move(tokens));
  return parser.Run();
}

bool LooksLikePtx(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      ++i;
    } else if (text.substr(i, 2) == "//") {
      while (i < text.size() && text[i] != '\n') ++i;
    } else {
      break;
    }
  }
  return text.substr(i, 8) == ".version";
}

}  // namespace streamhal::ptx
