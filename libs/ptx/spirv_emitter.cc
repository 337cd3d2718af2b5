#include "ptx/spirv_emitter.h"

#include <spirv/unified1/GLSL.std.450.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <spirv/unified1/spirv.hpp>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "ptx/diagnostics.h"
#include "ptx/structurize.h"
#include "ptx/texture_handles.h"

namespace streamhal::ptx {
namespace {

using Words = std::vector<uint32_t>;

// Where cvta.shared puts shared addresses in the generic address space: above
// any device address Vulkan hands out (user-space pointers on lavapipe, at
// most 57 bits on GPUs), with the shared byte offset in the low 32 bits.
constexpr uint64_t kSharedWindow = 0xffff'f000'0000'0000ull;

// The loop flags at the start of the warp scratch (WorkgroupAny).
constexpr uint32_t kWarpFlagWords = 3;

void Emit(Words& out, spv::Op op, std::initializer_list<uint32_t> operands) {
  out.push_back(static_cast<uint32_t>((operands.size() + 1) << 16) | op);
  out.insert(out.end(), operands.begin(), operands.end());
}
void EmitV(Words& out, spv::Op op, const Words& operands) {
  out.push_back(static_cast<uint32_t>((operands.size() + 1) << 16) | op);
  out.insert(out.end(), operands.begin(), operands.end());
}
void AppendString(Words& out, const std::string& s) {
  const size_t words = s.size() / 4 + 1;
  const size_t at = out.size();
  out.resize(at + words, 0);
  std::memcpy(out.data() + at, s.data(), s.size());
}

// IEEE binary16 bits of `f`, rounded to nearest even (for .f16 constants).
uint32_t HalfBits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u) return sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0);  // inf, NaN
  if (abs >= 0x477ff000u) return sign | 0x7c00u;  // rounds past the largest half
  if (abs < 0x33000001u) return sign;             // below half the smallest subnormal
  const int exp = static_cast<int>(abs >> 23);
  uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
  // Shift the 24-bit significand down to the half's precision at this
  // exponent (10 bits for normals, fewer for subnormals), rounding to even.
  const int shift = exp < 113 ? 13 + (113 - exp) : 13;
  const uint32_t rest = mant & ((1u << shift) - 1), halfway = 1u << (shift - 1);
  mant >>= shift;
  if (rest > halfway || (rest == halfway && (mant & 1))) ++mant;
  if (exp < 113) return sign | mant;  // subnormal (a carry makes it the smallest normal)
  return sign | ((static_cast<uint32_t>(exp - 112) << 10) + (mant - 0x400u));
}

// Module-wide sections and caches of types and constants.
class ModuleBuilder {
 public:
  uint32_t NewId() { return next_id_++; }
  uint32_t bound() const { return next_id_; }

  uint32_t Void() {
    return Cached("void", [&](uint32_t id) { Emit(types_, spv::OpTypeVoid, {id}); });
  }
  uint32_t Bool() {
    return Cached("bool", [&](uint32_t id) { Emit(types_, spv::OpTypeBool, {id}); });
  }
  uint32_t Int(int bits) {
    if (bits == 8) int8_ = true;
    if (bits == 16) int16_ = true;
    return Cached(absl::StrCat("i", bits), [&](uint32_t id) {
      Emit(types_, spv::OpTypeInt, {id, static_cast<uint32_t>(bits), 0});
    });
  }
  uint32_t Float(int bits) {
    if (bits == 64) float64_ = true;
    if (bits == 16) float16_ = true;
    return Cached(absl::StrCat("f", bits), [&](uint32_t id) {
      Emit(types_, spv::OpTypeFloat, {id, static_cast<uint32_t>(bits)});
    });
  }
  uint32_t Vec2(uint32_t elem) {
    return Cached(absl::StrCat("v2_", elem), [&](uint32_t id) {
      Emit(types_, spv::OpTypeVector, {id, elem, 2});
    });
  }
  uint32_t Vec3(uint32_t elem) {
    return Cached(absl::StrCat("v3_", elem), [&](uint32_t id) {
      Emit(types_, spv::OpTypeVector, {id, elem, 3});
    });
  }
  uint32_t Vec(uint32_t elem, uint32_t n) {
    if (n == 3) return Vec3(elem);
    return Cached(absl::StrCat("v", n, "_", elem), [&](uint32_t id) {
      Emit(types_, spv::OpTypeVector, {id, elem, n});
    });
  }
  // The signed 32-bit integer type (texels read as .s32; Int(32) is
  // unsigned, as every other integer here).
  uint32_t SInt32() {
    return Cached("si32", [&](uint32_t id) { Emit(types_, spv::OpTypeInt, {id, 32, 1}); });
  }
  // A sampled image of `dim` (1D, 2D, 3D, Buffer) whose texels read as
  // `sampled` (float, uint or signed int), and the combined image-sampler
  // type over it.
  uint32_t Image(uint32_t sampled, spv::Dim dim) {
    if (dim == spv::Dim1D) sampled_1d_ = true;
    if (dim == spv::DimBuffer) sampled_buffer_ = true;
    return Cached(absl::StrCat("img", sampled, "_", dim), [&](uint32_t id) {
      Emit(types_, spv::OpTypeImage,
           {id, sampled, static_cast<uint32_t>(dim), 0, 0, 0, 1, spv::ImageFormatUnknown});
    });
  }
  uint32_t SampledImage(uint32_t image) {
    return Cached(absl::StrCat("simg", image), [&](uint32_t id) {
      Emit(types_, spv::OpTypeSampledImage, {id, image});
    });
  }
  // The texture at set 2, binding `binding` (kernel ABI v2: the binding is
  // the index of the kernel parameter that holds the texture object), of
  // `sampled_image` type; one variable per binding and type.
  uint32_t TextureVar(uint32_t binding, uint32_t sampled_image) {
    const uint32_t ptr = Ptr(spv::StorageClassUniformConstant, sampled_image);
    return Cached(absl::StrCat("tex", binding, "_", sampled_image), [&](uint32_t id) {
      Emit(types_, spv::OpVariable, {ptr, id, spv::StorageClassUniformConstant});
      Emit(annotations_, spv::OpDecorate, {id, spv::DecorationDescriptorSet, 2});
      Emit(annotations_, spv::OpDecorate, {id, spv::DecorationBinding, binding});
      Name(id, absl::StrCat("texture_param_", binding));
    });
  }
  uint32_t Ptr(spv::StorageClass sc, uint32_t type) {
    return Cached(absl::StrCat("p", sc, "_", type), [&](uint32_t id) {
      Emit(types_, spv::OpTypePointer, {id, static_cast<uint32_t>(sc), type});
    });
  }
  uint32_t Array(uint32_t elem, uint32_t length_id, uint32_t stride) {
    return Cached(absl::StrCat("a", elem, "_", length_id, "_", stride), [&](uint32_t id) {
      Emit(types_, spv::OpTypeArray, {id, elem, length_id});
      if (stride) Emit(annotations_, spv::OpDecorate, {id, spv::DecorationArrayStride, stride});
    });
  }
  uint32_t VoidFunction() { return FunctionType(Void(), {}); }
  uint32_t FunctionType(uint32_t result, const Words& params) {
    std::string key = absl::StrCat("fn", result);
    for (uint32_t p : params) absl::StrAppend(&key, "_", p);
    return Cached(key, [&](uint32_t id) {
      Words w{id, result};
      w.insert(w.end(), params.begin(), params.end());
      EmitV(types_, spv::OpTypeFunction, w);
    });
  }
  uint32_t ConstInt(int bits, uint64_t value) {
    if (bits < 64) value &= (uint64_t{1} << bits) - 1;
    const uint32_t type = Int(bits);
    return Cached(absl::StrCat("ci", bits, "_", value), [&](uint32_t id) {
      if (bits == 64) {
        Emit(types_, spv::OpConstant,
             {type, id, static_cast<uint32_t>(value), static_cast<uint32_t>(value >> 32)});
      } else {
        Emit(types_, spv::OpConstant, {type, id, static_cast<uint32_t>(value)});
      }
    });
  }
  uint32_t ConstFloatBits(int bits, uint64_t raw) {
    const uint32_t type = Float(bits);
    return Cached(absl::StrCat("cf", bits, "_", raw), [&](uint32_t id) {
      if (bits == 64) {
        Emit(types_, spv::OpConstant,
             {type, id, static_cast<uint32_t>(raw), static_cast<uint32_t>(raw >> 32)});
      } else {
        Emit(types_, spv::OpConstant, {type, id, static_cast<uint32_t>(raw)});
      }
    });
  }
  uint32_t ConstFloat(int bits, double value) {
    if (bits == 16) return ConstFloatBits(16, HalfBits(static_cast<float>(value)));
    if (bits == 64) {
      uint64_t raw;
      std::memcpy(&raw, &value, 8);
      return ConstFloatBits(64, raw);
    }
    const float f = static_cast<float>(value);
    uint32_t raw;
    std::memcpy(&raw, &f, 4);
    return ConstFloatBits(32, raw);
  }
  uint32_t ConstBool(bool v) {
    const uint32_t type = Bool();
    return Cached(v ? "true" : "false", [&](uint32_t id) {
      Emit(types_, v ? spv::OpConstantTrue : spv::OpConstantFalse, {type, id});
    });
  }
  uint32_t GlslStd() {
    return Cached("glsl", [&](uint32_t id) {
      Words w{id};
      AppendString(w, "GLSL.std.450");
      EmitV(imports_, spv::OpExtInstImport, w);
    });
  }
  // Spec constant SpecId `spec` (u32, default `value`).
  uint32_t SpecU32(uint32_t spec, uint32_t value) {
    const uint32_t type = Int(32);
    return Cached(absl::StrCat("spec", spec), [&](uint32_t id) {
      Emit(types_, spv::OpSpecConstant, {type, id, value});
      Emit(annotations_, spv::OpDecorate, {id, spv::DecorationSpecId, spec});
    });
  }
  // The module-wide BuiltIn WorkgroupSize from SpecId 0, 1, 2.
  uint32_t WorkgroupSize() {
    const uint32_t x = SpecU32(0, 1), y = SpecU32(1, 1), z = SpecU32(2, 1);
    const uint32_t v3 = Vec3(Int(32));
    return Cached("wgsize", [&](uint32_t id) {
      Emit(types_, spv::OpSpecConstantComposite, {v3, id, x, y, z});
      Emit(annotations_, spv::OpDecorate, {id, spv::DecorationBuiltIn, spv::BuiltInWorkgroupSize});
    });
  }
  // An Input variable decorated with `builtin` (a uvec3).
  uint32_t BuiltinVar(spv::BuiltIn builtin) {
    const uint32_t ptr = Ptr(spv::StorageClassInput, Vec3(Int(32)));
    return Cached(absl::StrCat("bi", builtin), [&](uint32_t id) {
      Emit(types_, spv::OpVariable, {ptr, id, spv::StorageClassInput});
      Emit(annotations_, spv::OpDecorate,
           {id, spv::DecorationBuiltIn, static_cast<uint32_t>(builtin)});
    });
  }
  void Name(uint32_t id, const std::string& name) {
    Words w{id};
    AppendString(w, name);
    EmitV(debug_, spv::OpName, w);
  }
  void MemberName(uint32_t id, uint32_t member, const std::string& name) {
    Words w{id, member};
    AppendString(w, name);
    EmitV(debug_, spv::OpMemberName, w);
  }

  Words& types() { return types_; }
  Words& annotations() { return annotations_; }
  Words& entry_points() { return entry_points_; }
  Words& modes() { return modes_; }
  Words& functions() { return functions_; }
  bool float_atomics = false;
  bool int64_atomics = false;
  bool push_constant8 = false, push_constant16 = false;
  // Which kernel parameters each texture handle may be (EmitSpirv sets it).
  const TextureHandles* texture_handles = nullptr;
  // `.texref` name -> binding (EmitSpirv sets it).
  std::map<std::string, uint32_t> texref_bindings;

  // The combined image sampler of texture reference `name` at `binding`,
  // named by the reference (core finds references by OpName). Fails when a
  // second use samples another image type than the first.
  absl::StatusOr<uint32_t> TextureRefVar(const std::string& name, uint32_t binding,
                                         uint32_t sampled_image, int line) {
    auto [it, inserted] = texref_types_.try_emplace(name, sampled_image);
    if (!inserted && it->second != sampled_image) {
      return Unsupported(line, absl::StrCat(".texref ", name,
                                            " sampled as two kinds of texture (geometry or type)"));
    }
    const uint32_t ptr = Ptr(spv::StorageClassUniformConstant, sampled_image);
    return Cached(absl::StrCat("texref", binding), [&](uint32_t id) {
      Emit(types_, spv::OpVariable, {ptr, id, spv::StorageClassUniformConstant});
      Emit(annotations_, spv::OpDecorate, {id, spv::DecorationDescriptorSet, 2});
      Emit(annotations_, spv::OpDecorate, {id, spv::DecorationBinding, binding});
      Name(id, name);
    });
  }
  // Module-scope .global/.const variables (DeclareGlobals): the
  // streamhal_globals buffer, its member 0 holding the buffer's own device
  // address, and each variable's byte offset in it.
  uint32_t globals_var = 0;
  std::map<std::string, uint32_t> global_offsets;

  Words Finish() {
    Words out{spv::MagicNumber, 0x00010500, 0, bound(), 0};
    Emit(out, spv::OpCapability, {spv::CapabilityShader});
    Emit(out, spv::OpCapability, {spv::CapabilityInt64});
    Emit(out, spv::OpCapability, {spv::CapabilityPhysicalStorageBufferAddresses});
    if (int16_) Emit(out, spv::OpCapability, {spv::CapabilityInt16});
    if (int8_) Emit(out, spv::OpCapability, {spv::CapabilityInt8});
    if (float64_) Emit(out, spv::OpCapability, {spv::CapabilityFloat64});
    if (push_constant8) Emit(out, spv::OpCapability, {spv::CapabilityStoragePushConstant8});
    if (push_constant16) Emit(out, spv::OpCapability, {spv::CapabilityStoragePushConstant16});
    if (sampled_1d_) Emit(out, spv::OpCapability, {spv::CapabilitySampled1D});
    if (sampled_buffer_) Emit(out, spv::OpCapability, {spv::CapabilitySampledBuffer});
    if (float16_) Emit(out, spv::OpCapability, {spv::CapabilityFloat16});
    if (int64_atomics) Emit(out, spv::OpCapability, {spv::CapabilityInt64Atomics});
    if (float_atomics) {
      Emit(out, spv::OpCapability, {spv::CapabilityAtomicFloat32AddEXT});
      Words w;
      AppendString(w, "SPV_EXT_shader_atomic_float_add");
      EmitV(out, spv::OpExtension, w);
    }
    out.insert(out.end(), imports_.begin(), imports_.end());
    Emit(out, spv::OpMemoryModel,
         {spv::AddressingModelPhysicalStorageBuffer64, spv::MemoryModelGLSL450});
    for (const Words* s : {&entry_points_, &modes_, &debug_, &annotations_, &types_, &functions_}) {
      out.insert(out.end(), s->begin(), s->end());
    }
    out[3] = bound();
    return out;
  }

 private:
  std::map<std::string, uint32_t> texref_types_;  // .texref name -> sampled image type
  template <typename F>
  uint32_t Cached(const std::string& key, F make) {
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;
    const uint32_t id = NewId();
    cache_.emplace(key, id);
    make(id);
    return id;
  }

  uint32_t next_id_ = 1;
  std::map<std::string, uint32_t> cache_;
  bool int8_ = false, int16_ = false, float64_ = false, float16_ = false;
  bool sampled_1d_ = false, sampled_buffer_ = false;
  Words imports_, entry_points_, modes_, debug_, annotations_, types_, functions_;
};

bool IsWarpInstruction(const Instruction& inst) {
  const std::string& op = inst.opcode;
  return op == "shfl" || op == "vote" || op == "activemask" || op == "match" || op == "redux" ||
         (op == "bar" && inst.HasModifier("warp"));
}

// What a kernel and the device functions it calls share. Each `.func` is
// emitted once per kernel that reaches it, specialised for that kernel: the
// kernel's shared array (sized for the kernel, dynamic part included) and
// whether its generic addresses may be shared ones.
struct KernelContext {
  uint32_t shared_var = 0;  // the Workgroup word array; 0 without shared memory
  // Per function, the byte offsets of the shared variables it sees (the
  // module's and its own).
  std::map<const Function*, std::map<std::string, uint32_t>> shared_offsets;
  // Some function makes shared addresses generic (cvta.shared), so generic
  // accesses test which window an address is in.
  bool generic_shared = false;
  // Warp emulation (docs/ptx.md, "Warps"): the Workgroup word array of
  // kWarpFlagWords loop flags then two phases of one record per thread,
  // each record warp_words words (flags when warp_flags, the value, the
  // high word when a 64-bit match needs it); 0 without warp instructions.
  uint32_t warp_var = 0;
  bool warp_flags = false;
  int warp_words = 0;
  std::map<std::string, uint32_t> function_ids;  // .func name -> this kernel's copy
  std::vector<uint32_t> interface;               // global variables the entry point uses
};

using FunctionMap = std::map<std::string, const Function*>;  // .func definitions by name

// Emits one `.entry`, or one `.func` specialised for a kernel (KernelContext).
// A `.func` is a SPIR-V function whose parameters are its PTX parameters by
// value: a `.param` one as an array of 32-bit words (the bytes PTX stores and
// loads with st.param/ld.param), a `.reg` one as its register type; likewise
// its return value. Every `.param` buffer (the function's own, and a call
// site's arguments and return) is a Function variable of words.
class FunctionEmitter {
 public:
  FunctionEmitter(ModuleBuilder& b, const Function& f, KernelContext& ctx,
                  const FunctionMap& functions)
      : b_(b), f_(f), ctx_(ctx), functions_(functions) {}

  // Emits the function as `fn`. For a kernel the caller adds the entry point
  // once every function it calls has added its globals to ctx.interface.
  absl::Status Run(uint32_t fn) {
    shared_var_ = ctx_.shared_var;
    shared_offsets_ = ctx_.shared_offsets[&f_];
    generic_shared_ = ctx_.generic_shared;
    SH_PTX_RETURN_IF_ERROR(LayOutLocal());
    if (f_.is_entry) SH_PTX_RETURN_IF_ERROR(DeclareParams());
    b_.Name(fn, f_.name);
    // Registers.
    for (const auto& [name, type] : f_.registers) {
      const uint32_t var = b_.NewId();
      Emit(vars_, spv::OpVariable,
           {b_.Ptr(spv::StorageClassFunction, SpvType(type)), var, spv::StorageClassFunction});
      reg_vars_[name] = {var, type};
    }
    SH_PTX_RETURN_IF_ERROR(DeclareParamBuffers());
    const uint32_t u32 = b_.Int(32);
    block_var_ = b_.NewId();
    Emit(vars_, spv::OpVariable,
         {b_.Ptr(spv::StorageClassFunction, u32), block_var_, spv::StorageClassFunction});

    if (auto tree = Structurize(f_.blocks)) {
      uniform_region_.assign(tree->regions.size(), false);
      if (ctx_.warp_var != 0) SH_PTX_RETURN_IF_ERROR(DeclareWarpState(*tree));
      Emit(code_, spv::OpStore, {block_var_, b_.ConstInt(32, 0)});
      SH_PTX_RETURN_IF_ERROR(EmitRegion(*tree, 0));
      EmitReturn();
    } else {
      for (const Block& block : f_.blocks) {
        for (const Instruction& inst : block.body) {
          if (IsWarpInstruction(inst)) {
            return Unsupported(inst.line,
                               absl::StrCat(inst.opcode,
                                            " in a function whose control flow is "
                                            "irreducible (warps need structured loops)"));
          }
        }
      }
      SH_PTX_RETURN_IF_ERROR(EmitDispatcher());
    }

    Words& out = b_.functions();
    const Signature signature = SignatureOf(f_);
    Emit(out, spv::OpFunction,
         {signature.result, fn, spv::FunctionControlMaskNone, signature.type});
    for (size_t i = 0; i < param_ids_.size(); ++i) {
      Emit(out, spv::OpFunctionParameter, {signature.params[i], param_ids_[i]});
    }
    Emit(out, spv::OpLabel, {b_.NewId()});
    out.insert(out.end(), vars_.begin(), vars_.end());
    out.insert(out.end(), prologue_.begin(), prologue_.end());
    out.insert(out.end(), code_.begin(), code_.end());
    Emit(out, spv::OpFunctionEnd, {});
    return absl::OkStatus();
  }

 private:
  struct Signature {
    uint32_t result = 0;
    Words params;
    uint32_t type = 0;
  };
  // A `.param` buffer: a Function variable of 32-bit words.
  struct ParamBuffer {
    uint32_t var = 0;
    int bytes = 0;
  };

  uint32_t WordArray(int bytes) {
    return b_.Array(b_.Int(32),
                    b_.ConstInt(32, static_cast<uint32_t>(std::max(1, (bytes + 3) / 4))), 0);
  }
  uint32_t ParamType(const Param& p) {
    return p.is_register ? SpvType(p.type) : WordArray(p.size());
  }
  // The SPIR-V function type of a `.func` (a kernel's is void()).
  Signature SignatureOf(const Function& f) {
    Signature s;
    s.result = f.returns.empty() ? b_.Void() : ParamType(f.returns[0]);
    if (!f.is_entry) {
      for (const Param& p : f.params) s.params.push_back(ParamType(p));
    }
    s.type = b_.FunctionType(s.result, s.params);
    return s;
  }

  // Function variables for the call-site buffers and, in a `.func`, for its
  // own parameters (filled from the SPIR-V parameters on entry) and return
  // value; `.reg` parameters go straight to their registers.
  absl::Status DeclareParamBuffers() {
    auto declare = [&](const std::string& name, int bytes) {
      const uint32_t var = b_.NewId();
      Emit(vars_, spv::OpVariable,
           {b_.Ptr(spv::StorageClassFunction, WordArray(bytes)), var, spv::StorageClassFunction});
      param_buffers_[name] = {var, bytes};
      return var;
    };
    for (const Variable& v : f_.variables) {
      if (v.space != Space::kParam) continue;
      const int64_t bytes = v.count * (TypeBits(v.type) / 8);
      if (v.count <= 0 || bytes > 4096) return SyntaxError(v.line, "bad .param buffer size");
      declare(v.name, static_cast<int>(bytes));
    }
    if (f_.is_entry) return absl::OkStatus();
    for (const Param& p : f_.params) {
      const uint32_t id = b_.NewId();
      param_ids_.push_back(id);
      const uint32_t target =
          p.is_register ? reg_vars_.at(p.name).first : declare(p.name, p.size());
      Emit(prologue_, spv::OpStore, {target, id});
    }
    if (f_.returns.size() > 1) return Unsupported(f_.line, ".func with several return values");
    for (const Param& p : f_.returns) {
      if (!p.is_register) declare(p.name, p.size());
    }
    return absl::OkStatus();
  }

  // Leaves the function, returning a `.func`'s return parameter.
  void EmitReturn() {
    if (f_.returns.empty()) {
      Emit(code_, spv::OpReturn, {});
      return;
    }
    const Param& r = f_.returns[0];
    const uint32_t var = r.is_register ? reg_vars_.at(r.name).first : param_buffers_.at(r.name).var;
    Emit(code_, spv::OpReturnValue, {Op1(spv::OpLoad, ParamType(r), var)});
  }

  // call (returns), name, (arguments): the arguments' buffers (or registers)
  // are passed by value, the result stored in the return buffer.
  absl::Status EmitCall(const Instruction& inst) {
    const std::vector<Operand>& returns = inst.operands[0].elements;
    const std::string& name = inst.operands[1].name;
    const std::vector<Operand>& args = inst.operands[2].elements;
    auto it = functions_.find(name);
    if (it == functions_.end())
      return SyntaxError(inst.line, absl::StrCat("call of unknown ", name));
    const Function& callee = *it->second;
    if (args.size() != callee.params.size() || returns.size() != callee.returns.size()) {
      return SyntaxError(
          inst.line, absl::StrCat("call of ", name, " with ", args.size(), " arguments and ",
                                  returns.size(), " return values; it takes ", callee.params.size(),
                                  " and ", callee.returns.size()));
    }
    const Signature signature = SignatureOf(callee);
    const uint32_t result = b_.NewId();
    Words operands{signature.result, result, ctx_.function_ids.at(name)};
    for (size_t i = 0; i < args.size(); ++i) {
      const Param& p = callee.params[i];
      if (p.is_register) {
        auto v = Read(args[i], p.type, inst.line);
        if (!v.ok()) return v.status();
        operands.push_back(*v);
        continue;
      }
      auto buffer = CallBuffer(args[i], p, inst.line);
      if (!buffer.ok()) return buffer.status();
      operands.push_back(Op1(spv::OpLoad, signature.params[i], *buffer));
    }
    EmitV(code_, spv::OpFunctionCall, operands);
    if (returns.empty()) return absl::OkStatus();
    const Param& r = callee.returns[0];
    if (r.is_register) return Write(returns[0], result, r.type, inst.line);
    auto buffer = CallBuffer(returns[0], r, inst.line);
    if (!buffer.ok()) return buffer.status();
    Emit(code_, spv::OpStore, {*buffer, result});
    return absl::OkStatus();
  }

  // The buffer a call passes for the callee's `.param` parameter `p`.
  absl::StatusOr<uint32_t> CallBuffer(const Operand& o, const Param& p, int line) {
    auto it = o.kind == Operand::Kind::kSymbol ? param_buffers_.find(o.name) : param_buffers_.end();
    if (it == param_buffers_.end()) {
      return Unsupported(line, absl::StrCat("call operand for ", p.name, " other than a .param"));
    }
    if ((it->second.bytes + 3) / 4 != (p.size() + 3) / 4) {
      return SyntaxError(line, absl::StrCat(".param ", o.name, " has ", it->second.bytes,
                                            " bytes, ", p.name, " ", p.size()));
    }
    return it->second.var;
  }

  using Value = std::pair<uint32_t, Type>;  // id, PTX type of the value

  uint32_t SpvType(Type t) {
    if (t == Type::kPred) return b_.Bool();
    if (IsFloat(t)) return b_.Float(TypeBits(t));
    return b_.Int(TypeBits(t));
  }
  static Type UintOf(int bits) {
    switch (bits) {
      case 8:
        return Type::kU8;
      case 16:
        return Type::kU16;
      case 32:
        return Type::kU32;
      default:
        return Type::kU64;
    }
  }

  void UseGlobal(uint32_t var) {
    for (uint32_t v : ctx_.interface) {
      if (v == var) return;
    }
    ctx_.interface.push_back(var);
  }

  // A block's body, then the index of the next block stored in block_var_
  // (the block count for a return).
  absl::Status EmitBlock(int i) {
    const Block& block = f_.blocks[i];
    for (const Instruction& inst : block.body) SH_PTX_RETURN_IF_ERROR(EmitInstruction(inst));
    uint32_t next = 0;
    switch (block.exit) {
      case Block::Exit::kReturn:
        next = b_.ConstInt(32, static_cast<uint32_t>(f_.blocks.size()));
        break;
      case Block::Exit::kBranch:
        next = b_.ConstInt(32, static_cast<uint32_t>(block.target));
        break;
      case Block::Exit::kConditional: {
        auto cond = ReadRegister(block.condition, block.line);
        if (!cond.ok()) return cond.status();
        if (cond->second != Type::kPred)
          return SyntaxError(block.line, "branch guard is not a predicate");
        next = b_.NewId();
        const uint32_t taken = b_.ConstInt(32, static_cast<uint32_t>(block.target));
        const uint32_t not_taken = b_.ConstInt(32, static_cast<uint32_t>(block.fallthrough));
        Emit(code_, spv::OpSelect,
             {b_.Int(32), next, cond->first, block.condition_negated ? not_taken : taken,
              block.condition_negated ? taken : not_taken});
        break;
      }
    }
    Emit(code_, spv::OpStore, {block_var_, next});
    return absl::OkStatus();
  }

  // Structured control flow (structurize.h): each node of the region in
  // topological order, a block guarded by "block_var_ names it", a child loop
  // as an OpLoopMerge loop that repeats while block_var_ names its header.
  // Only the function body's first node (the entry block) runs
  // unconditionally. A loop's header is guarded like any block: a thread
  // whose block_var_ names a block after the loop (it branched past the
  // loop, or returned) must not run the header's body, which would also
  // overwrite block_var_ and resume the thread inside the loop.
  absl::Status EmitRegion(const LoopTree& tree, int r) {
    const LoopTree::Region& region = tree.regions[r];
    for (size_t k = 0; k < region.order.size(); ++k) {
      const LoopTree::Node& node = region.order[k];
      if (node.loop >= 0) {
        SH_PTX_RETURN_IF_ERROR(EmitLoop(tree, node.loop));
        continue;
      }
      if (k == 0 && r == 0) {
        guard_block_ = -1;
        SH_PTX_RETURN_IF_ERROR(EmitBlock(node.block));
        continue;
      }
      const uint32_t run = NamesBlock(node.block);
      const uint32_t then = b_.NewId();
      guard_block_ = node.block;
      guard_merge_ = b_.NewId();
      Emit(code_, spv::OpSelectionMerge, {guard_merge_, spv::SelectionControlMaskNone});
      Emit(code_, spv::OpBranchConditional, {run, then, guard_merge_});
      Emit(code_, spv::OpLabel, {then});
      SH_PTX_RETURN_IF_ERROR(EmitBlock(node.block));
      // Warp instructions may have closed and reopened the guard.
      Emit(code_, spv::OpBranch, {guard_merge_});
      Emit(code_, spv::OpLabel, {guard_merge_});
      guard_block_ = -1;
    }
    return absl::OkStatus();
  }

  absl::Status EmitLoop(const LoopTree& tree, int r) {
    const uint32_t header = b_.NewId(), body = b_.NewId(), cont = b_.NewId(), merge = b_.NewId();
    Emit(code_, spv::OpBranch, {header});
    Emit(code_, spv::OpLabel, {header});
    Emit(code_, spv::OpLoopMerge, {merge, cont, spv::LoopControlMaskNone});
    Emit(code_, spv::OpBranch, {body});
    Emit(code_, spv::OpLabel, {body});
    SH_PTX_RETURN_IF_ERROR(EmitRegion(tree, r));
    Emit(code_, spv::OpBranch, {cont});
    Emit(code_, spv::OpLabel, {cont});
    uint32_t again = NamesBlock(tree.regions[r].header);
    if (uniform_region_[r]) again = WorkgroupAny(again);
    Emit(code_, spv::OpBranchConditional, {again, header, merge});
    Emit(code_, spv::OpLabel, {merge});
    return absl::OkStatus();
  }

  uint32_t NamesBlock(int block) {
    const uint32_t current = Op1(spv::OpLoad, b_.Int(32), block_var_);
    return Op2(spv::OpIEqual, b_.Bool(), current, b_.ConstInt(32, static_cast<uint32_t>(block)));
  }

  // The fallback for irreducible CFGs: loop { switch (block) { case i: body;
  // block = next; } } until block == exit. Every executed block costs one
  // loop iteration, and barriers are only correct where all threads of the
  // workgroup go through the same sequence of blocks.
  absl::Status EmitDispatcher() {
    const uint32_t u32 = b_.Int(32);
    const uint32_t header = b_.NewId(), sw = b_.NewId(), sw_merge = b_.NewId(), cont = b_.NewId(),
                   merge = b_.NewId();
    std::vector<uint32_t> labels;
    for (size_t i = 0; i < f_.blocks.size(); ++i) labels.push_back(b_.NewId());
    const uint32_t exit_id = static_cast<uint32_t>(f_.blocks.size());

    Emit(code_, spv::OpStore, {block_var_, b_.ConstInt(32, 0)});
    Emit(code_, spv::OpBranch, {header});
    Emit(code_, spv::OpLabel, {header});
    Emit(code_, spv::OpLoopMerge, {merge, cont, spv::LoopControlMaskNone});
    Emit(code_, spv::OpBranch, {sw});
    Emit(code_, spv::OpLabel, {sw});
    const uint32_t current = b_.NewId();
    Emit(code_, spv::OpLoad, {u32, current, block_var_});
    Emit(code_, spv::OpSelectionMerge, {sw_merge, spv::SelectionControlMaskNone});
    Words sw_ops{current, sw_merge};
    for (size_t i = 0; i < labels.size(); ++i) {
      sw_ops.push_back(static_cast<uint32_t>(i));
      sw_ops.push_back(labels[i]);
    }
    EmitV(code_, spv::OpSwitch, sw_ops);
    for (size_t i = 0; i < f_.blocks.size(); ++i) {
      Emit(code_, spv::OpLabel, {labels[i]});
      SH_PTX_RETURN_IF_ERROR(EmitBlock(static_cast<int>(i)));
      Emit(code_, spv::OpBranch, {sw_merge});
    }
    Emit(code_, spv::OpLabel, {sw_merge});
    Emit(code_, spv::OpBranch, {cont});
    Emit(code_, spv::OpLabel, {cont});
    const uint32_t after = b_.NewId(), done = b_.NewId();
    Emit(code_, spv::OpLoad, {u32, after, block_var_});
    Emit(code_, spv::OpIEqual, {b_.Bool(), done, after, b_.ConstInt(32, exit_id)});
    Emit(code_, spv::OpBranchConditional, {done, merge, header});
    Emit(code_, spv::OpLabel, {merge});
    EmitReturn();
    return absl::OkStatus();
  }

  // The warp emulation's per-thread state, and the loop flags cleared
  // before any uniform loop reads them.
  absl::Status DeclareWarpState(const LoopTree& tree) {
    const uint32_t u32 = b_.Int(32), zero = b_.ConstInt(32, 0);
    auto var = [&]() {
      const uint32_t id = b_.NewId();
      Emit(vars_, spv::OpVariable,
           {b_.Ptr(spv::StorageClassFunction, u32), id, spv::StorageClassFunction, zero});
      return id;
    };
    warp_phase_var_ = var();
    loop_phase_var_ = var();
    for (uint32_t& tmp : warp_tmp_) tmp = var();
    MarkWarpRegions(tree, 0);
    if (std::find(uniform_region_.begin(), uniform_region_.end(), true) != uniform_region_.end()) {
      const uint32_t scope = b_.ConstInt(32, spv::ScopeWorkgroup);
      for (uint32_t w = 0; w < kWarpFlagWords; ++w) {
        Emit(code_, spv::OpAtomicStore, {WarpWordPtr(b_.ConstInt(32, w)), scope, zero, zero});
      }
      WorkgroupBarrier();
    }
    return absl::OkStatus();
  }

  // .local variables (the per-thread stack, nvcc's __local_depot) are one
  // Function array of 32-bit words addressed in bytes, like shared memory.
  absl::Status LayOutLocal() {
    uint32_t offset = 0;
    for (const Variable& v : f_.variables) {
      if (v.space != Space::kLocal) continue;
      const uint32_t align = std::max<uint32_t>(4, static_cast<uint32_t>(v.align));
      if (align > 256) return SyntaxError(v.line, "bad variable alignment");
      offset = (offset + align - 1) / align * align;
      local_offsets_[v.name] = offset;
      const uint64_t bytes = static_cast<uint64_t>(v.count) * (TypeBits(v.type) / 8);
      if (bytes > (64u << 10) || offset + bytes > (64u << 10))
        return Unsupported(v.line, ".local data over 64 KiB per thread");
      offset += static_cast<uint32_t>(bytes);
    }
    if (offset == 0) return absl::OkStatus();
    const uint32_t array = b_.Array(b_.Int(32), b_.ConstInt(32, (offset + 3) / 4), 0);
    local_var_ = b_.NewId();
    Emit(vars_, spv::OpVariable,
         {b_.Ptr(spv::StorageClassFunction, array), local_var_, spv::StorageClassFunction});
    return absl::OkStatus();
  }

  // The push-constant block: one member per parameter at CUDA's offset.
  absl::Status DeclareParams() {
    if (f_.params.empty()) return absl::OkStatus();
    Words members;
    members.push_back(0);  // result id, filled below
    for (const Param& p : f_.params) {
      const int bits = TypeBits(p.type);
      if (p.count == 1 && (bits >= 32 || IsInteger(p.type))) {
        // 8- and 16-bit integers (a bool, a char) as themselves: the
        // launch copies exactly their bytes (StoragePushConstant8/16).
        if (bits == 8) b_.push_constant8 = true;
        if (bits == 16) b_.push_constant16 = true;
        members.push_back(SpvType(p.type));
      } else if (p.count > 1 && p.size() % 4 == 0 && p.align >= 4 && p.offset % 4 == 0) {
        // Byte arrays (structs by value) as 32-bit words.
        members.push_back(
            b_.Array(b_.Int(32), b_.ConstInt(32, static_cast<uint32_t>(p.size() / 4)), 4));
      } else {
        return Unsupported(f_.line, absl::StrCat("parameter ", p.name, " (", TypeName(p.type), " x",
                                                 p.count, ", align ", p.align, ")"));
      }
    }
    const uint32_t block = b_.NewId();
    members[0] = block;
    EmitV(b_.types(), spv::OpTypeStruct, members);
    Emit(b_.annotations(), spv::OpDecorate, {block, spv::DecorationBlock});
    b_.Name(block, f_.name + "_params");
    for (size_t i = 0; i < f_.params.size(); ++i) {
      Emit(b_.annotations(), spv::OpMemberDecorate,
           {block, static_cast<uint32_t>(i), spv::DecorationOffset,
            static_cast<uint32_t>(f_.params[i].offset)});
      b_.MemberName(block, static_cast<uint32_t>(i), f_.params[i].name);
      param_types_.push_back(members[i + 1]);
    }
    param_var_ = b_.NewId();
    Emit(b_.types(), spv::OpVariable,
         {b_.Ptr(spv::StorageClassPushConstant, block), param_var_, spv::StorageClassPushConstant});
    UseGlobal(param_var_);
    return absl::OkStatus();
  }

  // --- values ---

  uint32_t Op1(spv::Op op, uint32_t type, uint32_t a) {
    const uint32_t id = b_.NewId();
    Emit(code_, op, {type, id, a});
    return id;
  }
  uint32_t Op2(spv::Op op, uint32_t type, uint32_t a, uint32_t c) {
    const uint32_t id = b_.NewId();
    Emit(code_, op, {type, id, a, c});
    return id;
  }
  uint32_t Ext(uint32_t type, uint32_t inst, std::initializer_list<uint32_t> args) {
    const uint32_t id = b_.NewId();
    Words w{type, id, b_.GlslStd(), inst};
    w.insert(w.end(), args.begin(), args.end());
    EmitV(code_, spv::OpExtInst, w);
    return id;
  }

  // Converts a value between PTX types the way a register move does:
  // same width reinterprets the bits, integers widen (sign-extending when
  // `sign` holds) or truncate.
  absl::StatusOr<uint32_t> Convert(Value v, Type to, bool sign, int line) {
    const Type from = v.second;
    if (SpvType(from) == SpvType(to)) return v.first;
    if (from == Type::kPred || to == Type::kPred) {
      return SyntaxError(
          line, absl::StrCat("cannot use a .", TypeName(from), " value as .", TypeName(to)));
    }
    const int fb = TypeBits(from), tb = TypeBits(to);
    uint32_t id = v.first;
    if (IsFloat(from)) id = Op1(spv::OpBitcast, b_.Int(fb), id);
    if (fb != tb) id = Op1(tb > fb && sign ? spv::OpSConvert : spv::OpUConvert, b_.Int(tb), id);
    if (IsFloat(to)) id = Op1(spv::OpBitcast, SpvType(to), id);
    return id;
  }

  absl::StatusOr<Value> ReadRegister(const std::string& name, int line) {
    auto it = reg_vars_.find(name);
    if (it != reg_vars_.end()) {
      const uint32_t id = b_.NewId();
      Emit(code_, spv::OpLoad, {SpvType(it->second.second), id, it->second.first});
      return Value{id, it->second.second};
    }
    // Lane registers: CUDA numbers warps by the thread's linear index in
    // the block, 32 threads each (the emulated warp, docs/ptx.md).
    if (name == "%laneid") return Value{LaneId(), Type::kU32};
    if (name == "%warpid")
      return Value{Op2(spv::OpShiftRightLogical, b_.Int(32), LinearTid(), b_.ConstInt(32, 5)),
                   Type::kU32};
    if (name.rfind("%lanemask_", 0) == 0) {
      const std::string which = name.substr(10);
      const uint32_t u32 = b_.Int(32);
      const uint32_t lane = LaneId();
      const uint32_t eq = Op2(spv::OpShiftLeftLogical, u32, b_.ConstInt(32, 1), lane);
      const uint32_t lt = Op2(spv::OpISub, u32, eq, b_.ConstInt(32, 1));
      const uint32_t le = Op2(spv::OpBitwiseOr, u32, lt, eq);
      if (which == "eq") return Value{eq, Type::kU32};
      if (which == "lt") return Value{lt, Type::kU32};
      if (which == "le") return Value{le, Type::kU32};
      if (which == "gt") return Value{Op1(spv::OpNot, u32, le), Type::kU32};
      if (which == "ge") return Value{Op1(spv::OpNot, u32, lt), Type::kU32};
    }
    // Special registers.
    static const std::map<std::string, spv::BuiltIn> kBuiltins = {
        {"%tid", spv::BuiltInLocalInvocationId},
        {"%ctaid", spv::BuiltInWorkgroupId},
        {"%nctaid", spv::BuiltInNumWorkgroups},
    };
    const size_t dot = name.find('.');
    if (dot != std::string::npos && dot + 2 == name.size()) {
      const std::string base = name.substr(0, dot);
      const char c = name[dot + 1];
      const uint32_t index = c == 'x' ? 0 : c == 'y' ? 1 : c == 'z' ? 2 : 3;
      if (index < 3) {
        const uint32_t u32 = b_.Int(32), v3 = b_.Vec3(u32);
        uint32_t vec = 0;
        if (base == "%ntid") {
          vec = b_.WorkgroupSize();
        } else if (kBuiltins.count(base)) {
          const uint32_t var = b_.BuiltinVar(kBuiltins.at(base));
          UseGlobal(var);
          vec = b_.NewId();
          Emit(code_, spv::OpLoad, {v3, vec, var});
        }
        if (vec != 0) {
          const uint32_t id = b_.NewId();
          Emit(code_, spv::OpCompositeExtract, {u32, id, vec, index});
          return Value{id, Type::kU32};
        }
      }
    }
    return Unsupported(line, absl::StrCat("register ", name));
  }

  // The operand as a value of type `want`.
  absl::StatusOr<uint32_t> Read(const Operand& o, Type want, int line) {
    // A .func's .reg parameter may be named without '%'.
    if (o.negated) {
      if (want != Type::kPred) return SyntaxError(line, "'!' on a value that is not a predicate");
      auto v = ReadRegister(o.name, line);
      if (!v.ok()) return v.status();
      if (v->second != Type::kPred) return SyntaxError(line, "'!' on a register that is not .pred");
      return Op1(spv::OpLogicalNot, b_.Bool(), v->first);
    }
    if (o.kind == Operand::Kind::kRegister ||
        (o.kind == Operand::Kind::kSymbol && reg_vars_.count(o.name))) {
      auto v = ReadRegister(o.name, line);
      if (!v.ok()) return v.status();
      return Convert(*v, want, IsSigned(v->second) || IsSigned(want), line);
    }
    switch (o.kind) {
      case Operand::Kind::kInt:
        if (want == Type::kPred) return b_.ConstBool(o.int_value != 0);
        if (IsFloat(want)) return b_.ConstFloat(TypeBits(want), static_cast<double>(o.int_value));
        return b_.ConstInt(TypeBits(want), static_cast<uint64_t>(o.int_value));
      case Operand::Kind::kFloat:
        if (!IsFloat(want)) {
          if (o.float_bits_width == TypeBits(want))
            return b_.ConstInt(TypeBits(want), o.float_bits);
          return SyntaxError(line, "float literal for an integer operand");
        }
        if (o.float_bits_width == TypeBits(want))
          return b_.ConstFloatBits(TypeBits(want), o.float_bits);
        return b_.ConstFloat(TypeBits(want), o.float_value);
      case Operand::Kind::kSymbol: {
        // PTX's warp size constant: the emulated warp is 32 wide.
        if (o.name == "WARP_SZ" && IsInteger(want)) return b_.ConstInt(TypeBits(want), 32);
        auto it = shared_offsets_.find(o.name);
        if (it != shared_offsets_.end() && IsInteger(want))
          return b_.ConstInt(TypeBits(want), it->second);
        if (local_offsets_.count(o.name) && IsInteger(want))
          return b_.ConstInt(TypeBits(want), local_offsets_.at(o.name));
        if (b_.global_offsets.count(o.name) && IsInteger(want) && TypeBits(want) == 64)
          return GlobalVariableAddress(o.name, 0);
        return Unsupported(line, absl::StrCat("use of symbol ", o.name, " as a value"));
      }
      default:
        return SyntaxError(line, "unexpected operand");
    }
  }

  absl::Status Write(const Operand& o, uint32_t id, Type from, int line) {
    if (o.kind != Operand::Kind::kRegister && o.kind != Operand::Kind::kSymbol)
      return SyntaxError(line, "destination is not a register");
    if (!o.pair.empty()) return Unsupported(line, "d|p destination here");
    auto it = reg_vars_.find(o.name);
    if (it == reg_vars_.end())
      return SyntaxError(line, absl::StrCat("undeclared register ", o.name));
    auto converted = Convert({id, from}, it->second.second, IsSigned(from), line);
    if (!converted.ok()) return converted.status();
    Emit(code_, spv::OpStore, {it->second.first, *converted});
    return absl::OkStatus();
  }

  // --- memory ---

  // The 64-bit address of a global access.
  absl::StatusOr<uint32_t> GlobalAddress(const Operand& o, int64_t extra, int line) {
    if (o.kind != Operand::Kind::kAddress) return SyntaxError(line, "expected an address");
    if (o.base_is_symbol && b_.global_offsets.count(o.name)) {
      return GlobalVariableAddress(o.name, o.int_value + extra);
    }
    if (o.name.empty() || o.base_is_symbol) {
      return Unsupported(
          line, absl::StrCat("global access to ", o.name.empty() ? "an absolute address" : o.name));
    }
    auto base = Read(Operand{Operand::Kind::kRegister, o.name}, Type::kU64, line);
    if (!base.ok()) return base;
    const int64_t off = o.int_value + extra;
    if (off == 0) return *base;
    return Op2(spv::OpIAdd, b_.Int(64), *base, b_.ConstInt(64, static_cast<uint64_t>(off)));
  }

  // The device address of a module variable plus `offset`: the buffer's
  // address (member 0, which core fills in) plus the variable's offset.
  uint32_t GlobalVariableAddress(const std::string& name, int64_t offset) {
    UseGlobal(b_.globals_var);
    const uint32_t u64 = b_.Int(64);
    const uint32_t ptr = b_.NewId();
    Emit(code_, spv::OpAccessChain,
         {b_.Ptr(spv::StorageClassStorageBuffer, u64), ptr, b_.globals_var, b_.ConstInt(32, 0)});
    const uint32_t base = Op1(spv::OpLoad, u64, ptr);
    const int64_t total = static_cast<int64_t>(b_.global_offsets.at(name)) + offset;
    if (total == 0) return base;
    return Op2(spv::OpIAdd, u64, base, b_.ConstInt(64, static_cast<uint64_t>(total)));
  }

  // The 32-bit byte offset of a shared (or .local) access.
  absl::StatusOr<uint32_t> SharedAddress(const Operand& o, int64_t extra, int line,
                                         Space space = Space::kShared) {
    if (o.kind != Operand::Kind::kAddress) return SyntaxError(line, "expected an address");
    const bool local = space == Space::kLocal;
    if ((local ? local_var_ : shared_var_) == 0)
      return SyntaxError(line, local ? "local access in a kernel without .local data"
                                     : "shared access in a kernel without shared memory");
    const std::map<std::string, uint32_t>& offsets = local ? local_offsets_ : shared_offsets_;
    uint32_t base;
    int64_t off = o.int_value + extra;
    if (o.name.empty()) {
      base = b_.ConstInt(32, 0);
    } else if (o.base_is_symbol) {
      auto it = offsets.find(o.name);
      if (it == offsets.end())
        return SyntaxError(line, absl::StrCat("unknown shared symbol ", o.name));
      base = b_.ConstInt(32, 0);
      off += it->second;
    } else {
      auto r = Read(Operand{Operand::Kind::kRegister, o.name}, Type::kU32, line);
      if (!r.ok()) return r;
      base = *r;
    }
    if (off == 0) return base;
    return Op2(spv::OpIAdd, b_.Int(32), base, b_.ConstInt(32, static_cast<uint64_t>(off)));
  }

  // A pointer to the word at `byte_addr` of the shared array, the .local
  // array, or (kParam) the `.param` buffer `buffer`.
  uint32_t SharedWordPtr(uint32_t byte_addr, Space space = Space::kShared, uint32_t buffer = 0) {
    const uint32_t u32 = b_.Int(32);
    const uint32_t index = Op2(spv::OpShiftRightLogical, u32, byte_addr, b_.ConstInt(32, 2));
    const uint32_t ptr = b_.NewId();
    const bool shared = space == Space::kShared;
    const uint32_t array = space == Space::kParam ? buffer : shared ? shared_var_ : local_var_;
    Emit(code_, spv::OpAccessChain,
         {b_.Ptr(shared ? spv::StorageClassWorkgroup : spv::StorageClassFunction, u32), ptr, array,
          index});
    return ptr;
  }

  // Loads `type` (any width) at `addr` (u32 for shared, .local and .param,
  // u64 for global); `buffer` is the .param buffer.
  absl::StatusOr<uint32_t> LoadMemory(Space space, uint32_t addr, Type type, int /*line*/,
                                      uint32_t buffer = 0) {
    const int bits = TypeBits(type);
    const uint32_t u32 = b_.Int(32);
    if (space == Space::kGlobal && bits >= 32) {
      const uint32_t ptr = Op1(spv::OpConvertUToPtr,
                               b_.Ptr(spv::StorageClassPhysicalStorageBuffer, SpvType(type)), addr);
      const uint32_t id = b_.NewId();
      Emit(code_, spv::OpLoad,
           {SpvType(type), id, ptr, spv::MemoryAccessAlignedMask, static_cast<uint32_t>(bits / 8)});
      return id;
    }
    // Word loads: sub-word values are shifted out of their aligned word, so
    // no 8/16-bit storage feature is needed.
    uint32_t word_addr32 = 0;  // shared
    uint32_t shift_src = 0;    // the low address bits, u32
    auto load_word = [&](uint32_t byte_off) -> uint32_t {
      const uint32_t id = b_.NewId();
      if (space != Space::kGlobal) {
        const uint32_t a =
            byte_off ? Op2(spv::OpIAdd, u32, word_addr32, b_.ConstInt(32, byte_off)) : word_addr32;
        Emit(code_, spv::OpLoad, {u32, id, SharedWordPtr(a, space, buffer)});
      } else {
        const uint32_t aligned =
            Op2(spv::OpBitwiseAnd, b_.Int(64), addr, b_.ConstInt(64, ~uint64_t{3}));
        const uint32_t ptr =
            Op1(spv::OpConvertUToPtr, b_.Ptr(spv::StorageClassPhysicalStorageBuffer, u32), aligned);
        Emit(code_, spv::OpLoad, {u32, id, ptr, spv::MemoryAccessAlignedMask, 4});
      }
      return id;
    };
    if (space != Space::kGlobal) {
      word_addr32 = addr;
      shift_src = addr;
    } else {
      shift_src = Op1(spv::OpUConvert, u32, addr);
    }
    if (bits == 32) {
      const uint32_t w = load_word(0);
      return IsFloat(type) ? Op1(spv::OpBitcast, SpvType(type), w) : w;
    }
    if (bits == 64) {
      const uint32_t u64 = b_.Int(64);
      const uint32_t lo = Op1(spv::OpUConvert, u64, load_word(0));
      const uint32_t hi = Op1(spv::OpUConvert, u64, load_word(4));
      const uint32_t v = Op2(spv::OpBitwiseOr, u64, lo,
                             Op2(spv::OpShiftLeftLogical, u64, hi, b_.ConstInt(64, 32)));
      return IsFloat(type) ? Op1(spv::OpBitcast, SpvType(type), v) : v;
    }
    const uint32_t w = load_word(0);
    const uint32_t low = Op2(spv::OpBitwiseAnd, u32, shift_src, b_.ConstInt(32, 3));
    const uint32_t shift = Op2(spv::OpShiftLeftLogical, u32, low, b_.ConstInt(32, 3));
    const uint32_t shifted = Op2(spv::OpShiftRightLogical, u32, w, shift);
    const uint32_t narrow = Op1(spv::OpUConvert, b_.Int(bits), shifted);
    return IsFloat(type) ? Op1(spv::OpBitcast, SpvType(type), narrow) : narrow;
  }

  absl::Status StoreMemory(Space space, uint32_t addr, Type type, uint32_t value, int line,
                           uint32_t buffer = 0) {
    const int bits = TypeBits(type);
    const uint32_t u32 = b_.Int(32);
    if (space == Space::kGlobal && bits >= 32) {
      const uint32_t ptr = Op1(spv::OpConvertUToPtr,
                               b_.Ptr(spv::StorageClassPhysicalStorageBuffer, SpvType(type)), addr);
      Emit(code_, spv::OpStore,
           {ptr, value, spv::MemoryAccessAlignedMask, static_cast<uint32_t>(bits / 8)});
      return absl::OkStatus();
    }
    if (space != Space::kGlobal && (bits == 32 || bits == 64)) {
      uint32_t v = IsFloat(type) ? Op1(spv::OpBitcast, b_.Int(bits), value) : value;
      if (bits == 32) {
        Emit(code_, spv::OpStore, {SharedWordPtr(addr, space, buffer), v});
      } else {
        const uint32_t lo = Op1(spv::OpUConvert, u32, v);
        const uint32_t hi = Op1(spv::OpUConvert, u32,
                                Op2(spv::OpShiftRightLogical, b_.Int(64), v, b_.ConstInt(64, 32)));
        Emit(code_, spv::OpStore, {SharedWordPtr(addr, space, buffer), lo});
        Emit(code_, spv::OpStore,
             {SharedWordPtr(Op2(spv::OpIAdd, u32, addr, b_.ConstInt(32, 4)), space, buffer), hi});
      }
      return absl::OkStatus();
    }
    if (bits == 16 && IsFloat(type)) {
      // ld/st.f16: the half's bits, stored like a .b16.
      return StoreMemory(space, addr, Type::kB16, Op1(spv::OpBitcast, b_.Int(16), value), line,
                         buffer);
    }
    if ((bits == 8 || bits == 16) && !IsFloat(type)) {
      // A narrow store changes its bytes of the aligned word. Other threads
      // may own the word's other bytes, so global and shared words change by
      // an atomic and (clear) and or (set) that touch this store's bits only;
      // .local and .param words are the thread's own.
      const uint32_t low = space == Space::kGlobal ? Op1(spv::OpUConvert, u32, addr) : addr;
      const uint32_t shift =
          Op2(spv::OpShiftLeftLogical, u32, Op2(spv::OpBitwiseAnd, u32, low, b_.ConstInt(32, 3)),
              b_.ConstInt(32, 3));
      const uint32_t mask =
          Op2(spv::OpShiftLeftLogical, u32, b_.ConstInt(32, (uint64_t{1} << bits) - 1), shift);
      const uint32_t placed =
          Op2(spv::OpShiftLeftLogical, u32, Op1(spv::OpUConvert, u32, value), shift);
      const uint32_t keep = Op1(spv::OpNot, u32, mask);
      uint32_t ptr;
      if (space == Space::kGlobal) {
        const uint32_t aligned =
            Op2(spv::OpBitwiseAnd, b_.Int(64), addr, b_.ConstInt(64, ~uint64_t{3}));
        ptr =
            Op1(spv::OpConvertUToPtr, b_.Ptr(spv::StorageClassPhysicalStorageBuffer, u32), aligned);
      } else {
        ptr = SharedWordPtr(addr, space, buffer);
      }
      if (space == Space::kLocal || space == Space::kParam) {
        const uint32_t word = Op1(spv::OpLoad, u32, ptr);
        Emit(code_, spv::OpStore,
             {ptr, Op2(spv::OpBitwiseOr, u32, Op2(spv::OpBitwiseAnd, u32, word, keep), placed)});
        return absl::OkStatus();
      }
      const uint32_t scope =
          b_.ConstInt(32, space == Space::kGlobal ? spv::ScopeDevice : spv::ScopeWorkgroup);
      const uint32_t relaxed = b_.ConstInt(32, 0);
      Emit(code_, spv::OpAtomicAnd, {u32, b_.NewId(), ptr, scope, relaxed, keep});
      Emit(code_, spv::OpAtomicOr, {u32, b_.NewId(), ptr, scope, relaxed, placed});
      return absl::OkStatus();
    }
    return Unsupported(line, absl::StrCat(bits, "-bit stores to this state space"));
  }

  Space AccessSpace(const Instruction& inst) {
    // Generic addresses are global ones, unless the kernel makes shared
    // addresses generic (EmitGeneric); .const data lives in the module's
    // globals buffer, read like global memory.
    return inst.space == Space::kGeneric || inst.space == Space::kConst ? Space::kGlobal
                                                                        : inst.space;
  }

  absl::Status EmitLoadStore(const Instruction& inst) {
    const bool is_load = inst.opcode == "ld";
    const Type type = inst.type();
    if (type == Type::kNone || type == Type::kPred)
      return SyntaxError(inst.line, "ld/st needs a type");
    for (const std::string& m : inst.modifiers) {
      static const std::set<std::string> kKnown = {
          "global", "shared", "param", "const",    "local",   "v2",   "v4",  "nc",  "ca", "cg",
          "cs",     "lu",     "cv",    "volatile", "relaxed", "weak", "gpu", "cta", "sys"};
      if (!kKnown.count(m) && TypeFromName(m) == Type::kNone) {
        return Unsupported(inst.line, absl::StrCat(inst.opcode, " modifier .", m));
      }
    }
    if (inst.operands.size() != 2) return SyntaxError(inst.line, "ld/st takes two operands");
    const Operand& addr_op = is_load ? inst.operands[1] : inst.operands[0];
    const Operand& val_op = is_load ? inst.operands[0] : inst.operands[1];
    std::vector<const Operand*> values;
    if (inst.vector_width > 1) {
      if (val_op.kind != Operand::Kind::kVector ||
          static_cast<int>(val_op.elements.size()) != inst.vector_width) {
        return SyntaxError(inst.line, "vector access needs a {...} operand of its width");
      }
      for (const Operand& e : val_op.elements) values.push_back(&e);
    } else {
      values.push_back(&val_op);
    }
    const int size = TypeBits(type) / 8;
    const Space space = AccessSpace(inst);
    for (size_t i = 0; i < values.size(); ++i) {
      const int64_t extra = static_cast<int64_t>(i) * size;
      if (space == Space::kParam) {
        auto buffer = addr_op.kind == Operand::Kind::kAddress && addr_op.base_is_symbol
                          ? param_buffers_.find(addr_op.name)
                          : param_buffers_.end();
        if (buffer != param_buffers_.end()) {
          const int64_t off = addr_op.int_value + extra;
          if (off < 0 || off + size > buffer->second.bytes || off % std::min(size, 4) != 0)
            return SyntaxError(inst.line, "misaligned access or outside the .param");
          const uint32_t addr = b_.ConstInt(32, static_cast<uint64_t>(off));
          const uint32_t var = buffer->second.var;
          if (is_load) {
            auto v = LoadMemory(Space::kParam, addr, type, inst.line, var);
            if (!v.ok()) return v.status();
            SH_PTX_RETURN_IF_ERROR(Write(*values[i], *v, type, inst.line));
          } else {
            auto v = Read(*values[i], type, inst.line);
            if (!v.ok()) return v.status();
            SH_PTX_RETURN_IF_ERROR(StoreMemory(Space::kParam, addr, type, *v, inst.line, var));
          }
          continue;
        }
        if (!is_load) return Unsupported(inst.line, "st.param to a kernel parameter");
        if (!f_.is_entry) {
          return SyntaxError(inst.line, absl::StrCat("unknown parameter ", addr_op.name));
        }
        auto v = LoadParam(addr_op, extra, type, inst.line);
        if (!v.ok()) return v.status();
        SH_PTX_RETURN_IF_ERROR(Write(*values[i], *v, type, inst.line));
        continue;
      }
      if (space != Space::kGlobal && space != Space::kShared && space != Space::kLocal) {
        return Unsupported(inst.line, "state space of ld/st");
      }
      auto addr = space == Space::kGlobal ? GlobalAddress(addr_op, extra, inst.line)
                                          : SharedAddress(addr_op, extra, inst.line, space);
      if (!addr.ok()) return addr.status();
      if (inst.space == Space::kGeneric && generic_shared_) {
        uint32_t stored = 0;
        if (!is_load) {
          auto v = Read(*values[i], type, inst.line);
          if (!v.ok()) return v.status();
          stored = *v;
        }
        auto v = EmitGeneric(*addr, is_load ? SpvType(type) : 0,
                             [&](Space s, uint32_t a) -> absl::StatusOr<uint32_t> {
                               if (is_load) return LoadMemory(s, a, type, inst.line);
                               SH_PTX_RETURN_IF_ERROR(StoreMemory(s, a, type, stored, inst.line));
                               return 0;
                             });
        if (!v.ok()) return v.status();
        if (is_load) SH_PTX_RETURN_IF_ERROR(Write(*values[i], *v, type, inst.line));
        continue;
      }
      if (is_load) {
        auto v = LoadMemory(space, *addr, type, inst.line);
        if (!v.ok()) return v.status();
        SH_PTX_RETURN_IF_ERROR(Write(*values[i], *v, type, inst.line));
      } else {
        auto v = Read(*values[i], type, inst.line);
        if (!v.ok()) return v.status();
        SH_PTX_RETURN_IF_ERROR(StoreMemory(space, *addr, type, *v, inst.line));
      }
    }
    return absl::OkStatus();
  }

  // A generic access in a kernel whose generic addresses may be shared
  // ones: addresses in the shared window (kSharedWindow and up, made by
  // cvta.shared) reach the shared array at their low 32 bits, others global
  // memory. `access(space, address)` emits one side; for a load or an
  // atomic (`value_type` set) the result is the value of the side taken.
  template <typename F>
  absl::StatusOr<uint32_t> EmitGeneric(uint32_t addr, uint32_t value_type, F access) {
    // The value travels in a variable: either side may hold loops
    // (compare-exchange), so its last block is not known for an OpPhi.
    uint32_t result_var = 0;
    if (value_type != 0) {
      result_var = b_.NewId();
      Emit(vars_, spv::OpVariable,
           {b_.Ptr(spv::StorageClassFunction, value_type), result_var, spv::StorageClassFunction});
    }
    const uint32_t in_shared =
        Op2(spv::OpUGreaterThanEqual, b_.Bool(), addr, b_.ConstInt(64, kSharedWindow));
    const uint32_t shared_label = b_.NewId(), global_label = b_.NewId(), merge = b_.NewId();
    Emit(code_, spv::OpSelectionMerge, {merge, spv::SelectionControlMaskNone});
    Emit(code_, spv::OpBranchConditional, {in_shared, shared_label, global_label});
    Emit(code_, spv::OpLabel, {shared_label});
    auto shared_value = access(Space::kShared, Op1(spv::OpUConvert, b_.Int(32), addr));
    if (!shared_value.ok()) return shared_value.status();
    if (value_type != 0) Emit(code_, spv::OpStore, {result_var, *shared_value});
    Emit(code_, spv::OpBranch, {merge});
    Emit(code_, spv::OpLabel, {global_label});
    auto global_value = access(Space::kGlobal, addr);
    if (!global_value.ok()) return global_value.status();
    if (value_type != 0) Emit(code_, spv::OpStore, {result_var, *global_value});
    Emit(code_, spv::OpBranch, {merge});
    Emit(code_, spv::OpLabel, {merge});
    if (value_type == 0) return 0;
    return Op1(spv::OpLoad, value_type, result_var);
  }

  absl::StatusOr<uint32_t> LoadParam(const Operand& o, int64_t extra, Type type, int line) {
    if (o.kind != Operand::Kind::kAddress || !o.base_is_symbol) {
      return Unsupported(line, "ld.param through a register address");
    }
    size_t index = 0;
    while (index < f_.params.size() && f_.params[index].name != o.name) ++index;
    if (index == f_.params.size())
      return SyntaxError(line, absl::StrCat("unknown parameter ", o.name));
    const Param& p = f_.params[index];
    const int64_t off = o.int_value + extra;
    const int bytes = TypeBits(type) / 8;
    if (off < 0 || off + bytes > p.size())
      return SyntaxError(line, "ld.param outside the parameter");
    const uint32_t member = b_.ConstInt(32, index);
    if (p.count == 1) {
      if (off != 0 || bytes != p.size()) return Unsupported(line, "partial load of a parameter");
      const uint32_t ptr = b_.NewId();
      Emit(code_, spv::OpAccessChain,
           {b_.Ptr(spv::StorageClassPushConstant, param_types_[index]), ptr, param_var_, member});
      const uint32_t id = b_.NewId();
      Emit(code_, spv::OpLoad, {param_types_[index], id, ptr});
      auto c = Convert({id, p.type}, type, false, line);
      return c;
    }
    // A struct's char or short member: its bits of the aligned word.
    const bool sub_word = bytes < 4 && !IsFloat(type) && off % bytes == 0;
    if (!sub_word && (off % 4 != 0 || (bytes != 4 && bytes != 8))) {
      return Unsupported(line, "ld.param of a byte-array parameter other than aligned words");
    }
    const uint32_t u32 = b_.Int(32);
    auto word = [&](int64_t byte) {
      const uint32_t ptr = b_.NewId();
      Emit(code_, spv::OpAccessChain,
           {b_.Ptr(spv::StorageClassPushConstant, u32), ptr, param_var_, member,
            b_.ConstInt(32, static_cast<uint64_t>(byte / 4))});
      const uint32_t id = b_.NewId();
      Emit(code_, spv::OpLoad, {u32, id, ptr});
      return id;
    };
    if (sub_word) {
      const uint32_t shifted = Op2(spv::OpShiftRightLogical, u32, word(off & ~int64_t{3}),
                                   b_.ConstInt(32, static_cast<uint64_t>(off % 4) * 8));
      return Op1(spv::OpUConvert, b_.Int(bytes * 8), shifted);
    }
    if (bytes == 4) return Convert({word(off), Type::kU32}, type, false, line);
    const uint32_t u64 = b_.Int(64);
    const uint32_t lo = Op1(spv::OpUConvert, u64, word(off));
    const uint32_t hi = Op1(spv::OpUConvert, u64, word(off + 4));
    const uint32_t v =
        Op2(spv::OpBitwiseOr, u64, lo, Op2(spv::OpShiftLeftLogical, u64, hi, b_.ConstInt(64, 32)));
    return Convert({v, Type::kU64}, type, false, line);
  }

  absl::Status EmitAtomic(const Instruction& inst) {
    const bool is_red = inst.opcode == "red";
    const Type type = inst.type();
    static const std::set<std::string> kOperations = {"add", "and", "or",  "xor", "exch",
                                                      "min", "max", "cas", "inc", "dec"};
    std::string what;
    for (const std::string& m : inst.modifiers) {
      if (kOperations.count(m)) what = m;
    }
    if (what.empty()) return Unsupported(inst.line, absl::StrCat(inst.opcode, " operation"));
    const bool cas = what == "cas", wrap = what == "inc" || what == "dec";
    if (cas && is_red) return SyntaxError(inst.line, "red has no .cas");
    const size_t first = is_red ? 1 : 2;  // the first source operand
    if (inst.operands.size() != first + (cas ? 2 : 1))
      return SyntaxError(inst.line, "atom/red operand count");
    const Operand& addr_op = inst.operands[first - 1];
    const Space space = AccessSpace(inst);
    const int bits = TypeBits(type);
    if (bits != 32 && bits != 64) return Unsupported(inst.line, "atomic width");
    if (IsFloat(type) && what != "add")
      return Unsupported(inst.line, absl::StrCat("float atomic ", what));
    if (wrap && type != Type::kU32)
      return Unsupported(inst.line, absl::StrCat("atom.", what, " other than .u32"));
    auto value = Read(inst.operands[first], type, inst.line);
    if (!value.ok()) return value.status();
    uint32_t swap = 0;
    if (cas) {
      auto v = Read(inst.operands[first + 1], type, inst.line);
      if (!v.ok()) return v.status();
      swap = *v;
    }
    if (bits == 64) b_.int64_atomics = true;
    // The operation on a global (u64 address) or shared (u32 byte offset)
    // location.
    auto atomic_at = [&](Space at, uint32_t addr) -> absl::StatusOr<uint32_t> {
      uint32_t ptr = 0;
      uint32_t scope = spv::ScopeDevice;
      if (at == Space::kGlobal) {
        // add.f64 is a compare-exchange loop on the 64-bit integer.
        const uint32_t element = type == Type::kF64 ? b_.Int(64) : SpvType(type);
        ptr = Op1(spv::OpConvertUToPtr, b_.Ptr(spv::StorageClassPhysicalStorageBuffer, element),
                  addr);
      } else {
        // Shared memory is an array of 32-bit words: no 64-bit view of it.
        if (bits != 32) return Unsupported(inst.line, "64-bit shared atomic");
        ptr = SharedWordPtr(addr);
        scope = spv::ScopeWorkgroup;
      }
      return AtomicOperation(what, type, at, ptr, b_.ConstInt(32, scope), *value, swap);
    };
    absl::StatusOr<uint32_t> id;
    if (space == Space::kGlobal) {
      auto addr = GlobalAddress(addr_op, 0, inst.line);
      if (!addr.ok()) return addr.status();
      id = inst.space == Space::kGeneric && generic_shared_
               ? EmitGeneric(*addr, SpvType(type), atomic_at)
               : atomic_at(Space::kGlobal, *addr);
    } else if (space == Space::kShared) {
      auto addr = SharedAddress(addr_op, 0, inst.line);
      if (!addr.ok()) return addr.status();
      id = atomic_at(Space::kShared, *addr);
    } else {
      return Unsupported(inst.line, "atomic state space");
    }
    if (!id.ok()) return id.status();
    if (!is_red) SH_PTX_RETURN_IF_ERROR(Write(inst.operands[0], *id, type, inst.line));
    return absl::OkStatus();
  }

  // One atomic `what` (atom's operation modifier) of `type` at `ptr`;
  // returns the value it replaced.
  uint32_t AtomicOperation(const std::string& what, Type type, Space space, uint32_t ptr,
                           uint32_t scope_id, uint32_t value, uint32_t swap) {
    static const std::map<std::string, spv::Op> kIntOps = {{"add", spv::OpAtomicIAdd},
                                                           {"and", spv::OpAtomicAnd},
                                                           {"or", spv::OpAtomicOr},
                                                           {"xor", spv::OpAtomicXor},
                                                           {"exch", spv::OpAtomicExchange}};
    const uint32_t relaxed = b_.ConstInt(32, 0);
    const uint32_t boolean = b_.Bool();
    uint32_t id = 0;
    if (what == "cas") {
      // PTX: d = *a; *a = (d == b) ? c : d.
      id = b_.NewId();
      Emit(code_, spv::OpAtomicCompareExchange,
           {SpvType(type), id, ptr, scope_id, relaxed, relaxed, swap, value});
    } else if (what == "inc" || what == "dec") {
      // SPIR-V has no bounded increment: a compare-exchange loop computes
      // PTX's inc: old >= b ? 0 : old + 1 and dec: (old == 0 || old > b) ? b
      // : old - 1.
      const uint32_t u32 = b_.Int(32), bound = value;
      id = CompareExchangeLoop(u32, ptr, scope_id, [&](uint32_t old) {
        if (what == "inc") {
          return Select(u32, Op2(spv::OpUGreaterThanEqual, boolean, old, bound), b_.ConstInt(32, 0),
                        Op2(spv::OpIAdd, u32, old, b_.ConstInt(32, 1)));
        }
        const uint32_t reset =
            Op2(spv::OpLogicalOr, boolean, Op2(spv::OpIEqual, boolean, old, b_.ConstInt(32, 0)),
                Op2(spv::OpUGreaterThan, boolean, old, bound));
        return Select(u32, reset, bound, Op2(spv::OpISub, u32, old, b_.ConstInt(32, 1)));
      });
    } else if (IsFloat(type) && (space == Space::kShared || type == Type::kF64)) {
      // The shared words are integers, float atomics on Workgroup memory
      // need a device feature besides, and no Vulkan feature adds f64: a
      // compare-exchange loop on the bits.
      const int bits = TypeBits(type);
      const uint32_t word = b_.Int(bits), ft = SpvType(type);
      const uint32_t bits_old = CompareExchangeLoop(word, ptr, scope_id, [&](uint32_t old) {
        const uint32_t sum = Op2(spv::OpFAdd, ft, Op1(spv::OpBitcast, ft, old), value);
        return Op1(spv::OpBitcast, word, sum);
      });
      id = Op1(spv::OpBitcast, ft, bits_old);
    } else {
      spv::Op op;
      if (IsFloat(type)) {
        op = spv::OpAtomicFAddEXT;
        b_.float_atomics = true;
      } else if (what == "min") {
        op = IsSigned(type) ? spv::OpAtomicSMin : spv::OpAtomicUMin;
      } else if (what == "max") {
        op = IsSigned(type) ? spv::OpAtomicSMax : spv::OpAtomicUMax;
      } else {
        op = kIntOps.at(what);
      }
      id = b_.NewId();
      Emit(code_, op, {SpvType(type), id, ptr, scope_id, relaxed, value});
    }
    return id;
  }

  // An atomic read-modify-write SPIR-V has no instruction for: loads the
  // value, then retries OpAtomicCompareExchange of `update(old)` until no
  // other thread changed the value in between. Returns the value replaced.
  // Each retry is a loop iteration (docs/ptx.md, loop limit); contention
  // costs about one retry per competing thread.
  template <typename F>
  uint32_t CompareExchangeLoop(uint32_t type, uint32_t ptr, uint32_t scope_id, F update) {
    const uint32_t relaxed = b_.ConstInt(32, 0);
    const uint32_t old_var = b_.NewId();
    Emit(vars_, spv::OpVariable,
         {b_.Ptr(spv::StorageClassFunction, type), old_var, spv::StorageClassFunction});
    const uint32_t initial = b_.NewId();
    Emit(code_, spv::OpAtomicLoad, {type, initial, ptr, scope_id, relaxed});
    Emit(code_, spv::OpStore, {old_var, initial});
    const uint32_t header = b_.NewId(), body = b_.NewId(), cont = b_.NewId(), merge = b_.NewId();
    Emit(code_, spv::OpBranch, {header});
    Emit(code_, spv::OpLabel, {header});
    Emit(code_, spv::OpLoopMerge, {merge, cont, spv::LoopControlMaskNone});
    Emit(code_, spv::OpBranch, {body});
    Emit(code_, spv::OpLabel, {body});
    const uint32_t old = Op1(spv::OpLoad, type, old_var);
    const uint32_t replacement = update(old);
    const uint32_t seen = b_.NewId();
    Emit(code_, spv::OpAtomicCompareExchange,
         {type, seen, ptr, scope_id, relaxed, relaxed, replacement, old});
    Emit(code_, spv::OpStore, {old_var, seen});
    const uint32_t done = Op2(spv::OpIEqual, b_.Bool(), seen, old);
    Emit(code_, spv::OpBranch, {cont});
    Emit(code_, spv::OpLabel, {cont});
    Emit(code_, spv::OpBranchConditional, {done, merge, header});
    Emit(code_, spv::OpLabel, {merge});
    return Op1(spv::OpLoad, type, old_var);
  }

  // --- arithmetic ---

  absl::StatusOr<std::vector<uint32_t>> Sources(const Instruction& inst, size_t count, Type type) {
    if (inst.operands.size() != count + 1) {
      return SyntaxError(inst.line, absl::StrCat(inst.opcode, " takes ", count + 1, " operands"));
    }
    std::vector<uint32_t> ids;
    for (size_t i = 1; i <= count; ++i) {
      auto v = Read(inst.operands[i], type, inst.line);
      if (!v.ok()) return v.status();
      ids.push_back(*v);
    }
    return ids;
  }

  static Type Widen(Type t) {
    switch (t) {
      case Type::kS16:
        return Type::kS32;
      case Type::kS32:
        return Type::kS64;
      case Type::kU16:
      case Type::kB16:
        return Type::kU32;
      default:
        return Type::kU64;
    }
  }

  // add/sub.sat.s32: PTX clamps to [INT_MIN, INT_MAX]. The wrapped result
  // overflowed when its sign differs from both operands' (add) or from a's
  // while a and b differ in sign (sub); it then saturates toward a's sign.
  uint32_t SaturateS32(uint32_t wrapped, uint32_t a, uint32_t c, bool add) {
    const uint32_t i32 = b_.Int(32), boolean = b_.Bool();
    const uint32_t ar = Op2(spv::OpBitwiseXor, i32, a, wrapped);
    const uint32_t other =
        add ? Op2(spv::OpBitwiseXor, i32, c, wrapped) : Op2(spv::OpBitwiseXor, i32, a, c);
    const uint32_t overflow =
        Op2(spv::OpSLessThan, boolean, Op2(spv::OpBitwiseAnd, i32, ar, other), b_.ConstInt(32, 0));
    const uint32_t negative = Op2(spv::OpSLessThan, boolean, a, b_.ConstInt(32, 0));
    const uint32_t limit =
        Select(i32, negative, b_.ConstInt(32, 0x80000000u), b_.ConstInt(32, 0x7fffffffu));
    return Select(i32, overflow, limit, wrapped);
  }

  uint32_t Select(uint32_t type, uint32_t cond, uint32_t a, uint32_t c) {
    const uint32_t id = b_.NewId();
    Emit(code_, spv::OpSelect, {type, id, cond, a, c});
    return id;
  }

  // The low and high 32-bit halves of a 64-bit value: Vulkan allows the
  // SPIR-V bit instructions (OpBitCount, OpBitReverse, FindUMsb) on 32-bit
  // integers only.
  std::pair<uint32_t, uint32_t> Halves(uint32_t v64) {
    const uint32_t u32 = b_.Int(32);
    const uint32_t lo = Op1(spv::OpUConvert, u32, v64);
    const uint32_t hi = Op1(spv::OpUConvert, u32,
                            Op2(spv::OpShiftRightLogical, b_.Int(64), v64, b_.ConstInt(64, 32)));
    return {lo, hi};
  }
  uint32_t Clz32(uint32_t x) {
    // FindUMsb is -1 for 0, so 31 - msb is 32 there, as PTX's clz.
    const uint32_t u32 = b_.Int(32);
    return Op2(spv::OpISub, u32, b_.ConstInt(32, 31), Ext(u32, GLSLstd450FindUMsb, {x}));
  }

  // popc, clz, brev, bfind, bfe, bfi and prmt, with PTX's semantics for
  // field positions and lengths beyond the width (SPIR-V's OpBitField* leave
  // those undefined, so fields are cut with clamped shifts instead).
  absl::Status EmitBitInstruction(const Instruction& inst) {
    const std::string& op = inst.opcode;
    const Type type = inst.type();
    const int bits = TypeBits(type);
    if (!IsInteger(type) || (bits != 32 && bits != 64))
      return Unsupported(inst.line, absl::StrCat(op, ".", TypeName(type)));
    const uint32_t u32 = b_.Int(32), boolean = b_.Bool();
    const uint32_t t = SpvType(type);
    const bool wide = bits == 64;
    auto operand = [&](size_t i, Type want) { return Read(inst.operands[i], want, inst.line); };
    // A u32 operand as a shift amount of the instruction's width.
    auto widen = [&](uint32_t v32) { return wide ? Op1(spv::OpUConvert, t, v32) : v32; };
    uint32_t result = 0;
    Type result_type = type;
    if (op == "bfind") {
      // PTX: the position of the most significant 1 bit (of ~a for negative
      // signed a), 0xffffffff when there is none; .shiftamt gives msb - that.
      if (inst.operands.size() != 2) return SyntaxError(inst.line, "bfind takes two operands");
      auto a = operand(1, type);
      if (!a.ok()) return a.status();
      const bool sg = IsSigned(type);
      if (!wide) {
        result = Ext(u32, sg ? GLSLstd450FindSMsb : GLSLstd450FindUMsb, {*a});
      } else {
        uint32_t x = *a;
        if (sg) {
          const uint32_t negative =
              Op2(spv::OpSLessThan, boolean, Halves(x).second, b_.ConstInt(32, 0));
          x = Select(t, negative, Op1(spv::OpNot, t, x), x);
        }
        const auto [lo, hi] = Halves(x);
        const uint32_t hi_zero = Op2(spv::OpIEqual, boolean, hi, b_.ConstInt(32, 0));
        result =
            Select(u32, hi_zero, Ext(u32, GLSLstd450FindUMsb, {lo}),
                   Op2(spv::OpIAdd, u32, b_.ConstInt(32, 32), Ext(u32, GLSLstd450FindUMsb, {hi})));
      }
      if (inst.HasModifier("shiftamt")) {
        const uint32_t none = b_.ConstInt(32, 0xffffffffu);
        result = Select(u32, Op2(spv::OpIEqual, boolean, result, none), none,
                        Op2(spv::OpISub, u32, b_.ConstInt(32, bits - 1), result));
      }
      result_type = Type::kU32;
    } else if (op == "popc" || op == "clz" || op == "brev") {
      if (inst.operands.size() != 2) return SyntaxError(inst.line, op + " takes two operands");
      auto a = operand(1, UintOf(bits));
      if (!a.ok()) return a.status();
      if (op == "brev") {
        if (!wide) {
          result = Op1(spv::OpBitReverse, u32, *a);
        } else {
          const auto [lo, hi] = Halves(*a);
          const uint32_t u64 = b_.Int(64);
          const uint32_t new_hi = Op1(spv::OpUConvert, u64, Op1(spv::OpBitReverse, u32, lo));
          const uint32_t new_lo = Op1(spv::OpUConvert, u64, Op1(spv::OpBitReverse, u32, hi));
          result = Op2(spv::OpBitwiseOr, u64, new_lo,
                       Op2(spv::OpShiftLeftLogical, u64, new_hi, b_.ConstInt(64, 32)));
        }
        result_type = UintOf(bits);
      } else {
        // The count is a .u32 whatever the source width.
        result_type = Type::kU32;
        if (!wide) {
          result = op == "popc" ? Op1(spv::OpBitCount, u32, *a) : Clz32(*a);
        } else if (op == "popc") {
          const auto [lo, hi] = Halves(*a);
          result =
              Op2(spv::OpIAdd, u32, Op1(spv::OpBitCount, u32, lo), Op1(spv::OpBitCount, u32, hi));
        } else {
          const auto [lo, hi] = Halves(*a);
          const uint32_t hi_zero = Op2(spv::OpIEqual, boolean, hi, b_.ConstInt(32, 0));
          result = Select(u32, hi_zero, Op2(spv::OpIAdd, u32, b_.ConstInt(32, 32), Clz32(lo)),
                          Clz32(hi));
        }
      }
    } else if (op == "bfe") {
      // PTX: d[i] = (i < len && pos + i <= msb) ? a[pos + i] : sign, with
      // sign = a[min(pos + len - 1, msb)] for signed types, 0 otherwise or
      // when len is 0. As shifts: move the field's top bit e to the msb, then
      // shift right (arithmetically when signed) by msb - e + pos.
      if (inst.operands.size() != 4) return SyntaxError(inst.line, "bfe takes four operands");
      auto a = operand(1, type);
      auto pos_in = operand(2, Type::kU32);
      auto len_in = operand(3, Type::kU32);
      if (!a.ok()) return a.status();
      if (!pos_in.ok()) return pos_in.status();
      if (!len_in.ok()) return len_in.status();
      const uint32_t msb = b_.ConstInt(32, bits - 1), byte = b_.ConstInt(32, 0xff);
      const uint32_t pos = Op2(spv::OpBitwiseAnd, u32, *pos_in, byte);
      const uint32_t len = Op2(spv::OpBitwiseAnd, u32, *len_in, byte);
      const uint32_t last =
          Op2(spv::OpISub, u32, Op2(spv::OpIAdd, u32, pos, len), b_.ConstInt(32, 1));
      const uint32_t e = Ext(u32, GLSLstd450UMin, {last, msb});
      const uint32_t left = Op2(spv::OpISub, u32, msb, e);
      const uint32_t right = Op2(spv::OpIAdd, u32, left, pos);  // at most 63 + 255
      const uint32_t moved = Op2(spv::OpShiftLeftLogical, t, *a, widen(left));
      const uint32_t zero = b_.ConstInt(bits, 0);
      uint32_t field;
      if (IsSigned(type)) {
        // A start beyond the msb leaves only copies of the sign bit.
        field = Op2(spv::OpShiftRightArithmetic, t, moved,
                    widen(Ext(u32, GLSLstd450UMin, {right, msb})));
      } else {
        const uint32_t shifted =
            Op2(spv::OpShiftRightLogical, t, moved, widen(Ext(u32, GLSLstd450UMin, {right, msb})));
        field = Select(t, Op2(spv::OpUGreaterThan, boolean, right, msb), zero, shifted);
      }
      result = Select(t, Op2(spv::OpIEqual, boolean, len, b_.ConstInt(32, 0)), zero, field);
    } else if (op == "bfi") {
      // PTX: f = b with bits [pos, min(pos + len, width)) taken from a's low
      // bits; a start beyond the msb leaves b.
      if (inst.operands.size() != 5) return SyntaxError(inst.line, "bfi takes five operands");
      auto a = operand(1, type);
      auto base = operand(2, type);
      auto pos_in = operand(3, Type::kU32);
      auto len_in = operand(4, Type::kU32);
      if (!a.ok()) return a.status();
      if (!base.ok()) return base.status();
      if (!pos_in.ok()) return pos_in.status();
      if (!len_in.ok()) return len_in.status();
      const uint32_t msb = b_.ConstInt(32, bits - 1), byte = b_.ConstInt(32, 0xff);
      const uint32_t pos = Op2(spv::OpBitwiseAnd, u32, *pos_in, byte);
      const uint32_t len = Op2(spv::OpBitwiseAnd, u32, *len_in, byte);
      const uint32_t all = b_.ConstInt(bits, ~uint64_t{0});
      const uint32_t ones = Op2(spv::OpISub, t,
                                Op2(spv::OpShiftLeftLogical, t, b_.ConstInt(bits, 1),
                                    widen(Ext(u32, GLSLstd450UMin, {len, msb}))),
                                b_.ConstInt(bits, 1));
      const uint32_t mask = Select(t, Op2(spv::OpUGreaterThan, boolean, len, msb), all, ones);
      const uint32_t shift = widen(Ext(u32, GLSLstd450UMin, {pos, msb}));
      const uint32_t placed = Op2(spv::OpShiftLeftLogical, t, mask, shift);
      const uint32_t kept = Op2(spv::OpBitwiseAnd, t, *base, Op1(spv::OpNot, t, placed));
      const uint32_t inserted =
          Op2(spv::OpBitwiseAnd, t, Op2(spv::OpShiftLeftLogical, t, *a, shift), placed);
      result = Select(t, Op2(spv::OpUGreaterThan, boolean, pos, msb), *base,
                      Op2(spv::OpBitwiseOr, t, kept, inserted));
    } else {  // prmt
      for (const std::string& m : inst.modifiers) {
        if (m != "b32") return Unsupported(inst.line, absl::StrCat("prmt mode .", m));
      }
      if (wide) return SyntaxError(inst.line, "prmt takes .b32");
      if (inst.operands.size() != 4) return SyntaxError(inst.line, "prmt takes four operands");
      auto a = operand(1, Type::kU32);
      auto c = operand(2, Type::kU32);
      auto sel_in = operand(3, Type::kU32);
      if (!a.ok()) return a.status();
      if (!c.ok()) return c.status();
      if (!sel_in.ok()) return sel_in.status();
      // Default mode: byte k of d is byte (selector nibble k & 7) of {b, a},
      // or that byte's sign replicated when the nibble's bit 3 is set.
      result = b_.ConstInt(32, 0);
      for (uint32_t k = 0; k < 4; ++k) {
        const uint32_t nibble =
            Op2(spv::OpBitwiseAnd, u32,
                Op2(spv::OpShiftRightLogical, u32, *sel_in, b_.ConstInt(32, 4 * k)),
                b_.ConstInt(32, 0xf));
        const uint32_t from_b = Op2(spv::OpBitwiseAnd, u32, nibble, b_.ConstInt(32, 4));
        const uint32_t source =
            Select(u32, Op2(spv::OpINotEqual, boolean, from_b, b_.ConstInt(32, 0)), *c, *a);
        const uint32_t shift =
            Op2(spv::OpShiftLeftLogical, u32,
                Op2(spv::OpBitwiseAnd, u32, nibble, b_.ConstInt(32, 3)), b_.ConstInt(32, 3));
        const uint32_t value =
            Op2(spv::OpBitwiseAnd, u32, Op2(spv::OpShiftRightLogical, u32, source, shift),
                b_.ConstInt(32, 0xff));
        const uint32_t sign =
            Op2(spv::OpIMul, u32, Op2(spv::OpShiftRightLogical, u32, value, b_.ConstInt(32, 7)),
                b_.ConstInt(32, 0xff));
        const uint32_t replicate =
            Op2(spv::OpINotEqual, boolean, Op2(spv::OpBitwiseAnd, u32, nibble, b_.ConstInt(32, 8)),
                b_.ConstInt(32, 0));
        const uint32_t picked = Select(u32, replicate, sign, value);
        result = Op2(spv::OpBitwiseOr, u32, result,
                     Op2(spv::OpShiftLeftLogical, u32, picked, b_.ConstInt(32, 8 * k)));
      }
      result_type = Type::kU32;
    }
    return Write(inst.operands[0], result, result_type, inst.line);
  }

  // .f16x2: two halves packed in a 32-bit register (the first in the low
  // half), computed as a SPIR-V vector of two 16-bit floats.
  absl::Status EmitHalf2(const Instruction& inst) {
    const std::string& op = inst.opcode;
    const uint32_t v2 = b_.Vec2(b_.Float(16)), u32 = b_.Int(32);
    size_t count = 0;
    if (op == "neg" || op == "abs") count = 1;
    if (op == "add" || op == "sub" || op == "mul" || op == "min" || op == "max") count = 2;
    if (op == "fma") count = 3;
    if (count == 0) return Unsupported(inst.line, absl::StrCat(op, ".f16x2"));
    if (inst.operands.size() != count + 1)
      return SyntaxError(inst.line, absl::StrCat(op, " takes ", count + 1, " operands"));
    std::vector<uint32_t> v;
    for (size_t i = 1; i <= count; ++i) {
      auto w = Read(inst.operands[i], Type::kB32, inst.line);
      if (!w.ok()) return w.status();
      v.push_back(Op1(spv::OpBitcast, v2, *w));
    }
    uint32_t r = 0;
    if (op == "add") r = Op2(spv::OpFAdd, v2, v[0], v[1]);
    if (op == "sub") r = Op2(spv::OpFSub, v2, v[0], v[1]);
    if (op == "mul") r = Op2(spv::OpFMul, v2, v[0], v[1]);
    if (op == "min") r = Ext(v2, GLSLstd450NMin, {v[0], v[1]});
    if (op == "max") r = Ext(v2, GLSLstd450NMax, {v[0], v[1]});
    if (op == "fma") r = Ext(v2, GLSLstd450Fma, {v[0], v[1], v[2]});
    if (op == "neg") r = Op1(spv::OpFNegate, v2, v[0]);
    if (op == "abs") r = Ext(v2, GLSLstd450FAbs, {v[0]});
    if (inst.HasModifier("sat")) {
      const uint32_t zero = b_.ConstFloat(16, 0.0), one = b_.ConstFloat(16, 1.0);
      const uint32_t zeros = b_.NewId(), ones = b_.NewId();
      Emit(code_, spv::OpCompositeConstruct, {v2, zeros, zero, zero});
      Emit(code_, spv::OpCompositeConstruct, {v2, ones, one, one});
      r = Ext(v2, GLSLstd450FClamp, {r, zeros, ones});
    }
    return Write(inst.operands[0], Op1(spv::OpBitcast, u32, r), Type::kB32, inst.line);
  }

  // --- bfloat16 ---
  // .bf16 and .bf16x2 values are bits in 16-bit registers (two in a 32-bit
  // one, the first element in the low half): SPIR-V has no bfloat16 type on
  // most devices. A bf16 widens exactly to f32 (its bits are the f32's high
  // half); results are computed in f32 and rounded to bf16 once, to nearest
  // even, with a sum's rounding error (TwoSum; products of two bf16 are exact
  // in f32) breaking f32 ties, so add, sub and fma round as if exactly.
  // NaN results are the canonical NaN 0x7fff.

  // The f32 value of the 16-bit bf16 bits `bits`.
  uint32_t Bf16ToF32(uint32_t bits) {
    const uint32_t u32 = b_.Int(32);
    const uint32_t wide = Op1(spv::OpUConvert, u32, bits);
    return Op1(spv::OpBitcast, b_.Float(32),
               Op2(spv::OpShiftLeftLogical, u32, wide, b_.ConstInt(32, 16)));
  }

  // `f` rounded to bf16 bits (16-bit), to nearest even or toward zero.
  // `error`, when non-zero, is f's exact rounding error (below half an f32
  // ulp): it decides the bf16 ties that f alone would make.
  uint32_t F32ToBf16(uint32_t f, bool toward_zero, uint32_t error = 0) {
    const uint32_t u32 = b_.Int(32), boolean = b_.Bool();
    uint32_t bits = Op1(spv::OpBitcast, u32, f);
    if (error != 0) {
      // On a tie (low half 0x8000) move one f32 ulp toward the exact value.
      const uint32_t low = Op2(spv::OpBitwiseAnd, u32, bits, b_.ConstInt(32, 0xffff));
      const uint32_t tie = Op2(spv::OpIEqual, boolean, low, b_.ConstInt(32, 0x8000));
      const uint32_t zero = b_.ConstFloat(32, 0.0);
      const uint32_t inexact = Op2(spv::OpFUnordNotEqual, boolean, error, zero);
      const uint32_t same_sign =
          Op2(spv::OpLogicalEqual, boolean, Op2(spv::OpFOrdLessThan, boolean, error, zero),
              Op2(spv::OpFOrdLessThan, boolean, f, zero));
      const uint32_t nudged =
          Select(u32, same_sign, Op2(spv::OpIAdd, u32, bits, b_.ConstInt(32, 1)),
                 Op2(spv::OpISub, u32, bits, b_.ConstInt(32, 1)));
      bits = Select(u32, Op2(spv::OpLogicalAnd, boolean, tie, inexact), nudged, bits);
    }
    const uint32_t high = Op2(spv::OpShiftRightLogical, u32, bits, b_.ConstInt(32, 16));
    uint32_t rounded = high;
    if (!toward_zero) {
      const uint32_t odd = Op2(spv::OpBitwiseAnd, u32, high, b_.ConstInt(32, 1));
      const uint32_t bias = Op2(spv::OpIAdd, u32, odd, b_.ConstInt(32, 0x7fff));
      rounded = Op2(spv::OpShiftRightLogical, u32, Op2(spv::OpIAdd, u32, bits, bias),
                    b_.ConstInt(32, 16));
    }
    const uint32_t nan = Op1(spv::OpIsNan, boolean, f);
    return Op1(spv::OpUConvert, b_.Int(16), Select(u32, nan, b_.ConstInt(32, 0x7fff), rounded));
  }

  // The bf16 operand `o` as an f32 (`lane` 0 or 1 of a .bf16x2 operand).
  absl::StatusOr<uint32_t> ReadBf16(const Operand& o, bool pair, int lane, int line) {
    if (!pair) {
      auto v = Read(o, Type::kB16, line);
      if (!v.ok()) return v.status();
      return Bf16ToF32(*v);
    }
    auto v = Read(o, Type::kB32, line);
    if (!v.ok()) return v.status();
    const uint32_t u32 = b_.Int(32);
    const uint32_t half = Op2(spv::OpShiftRightLogical, u32, *v, b_.ConstInt(32, 16 * lane));
    return Bf16ToF32(Op1(spv::OpUConvert, b_.Int(16), half));
  }

  // Writes bf16 results: one (16-bit) or two packed (32-bit, lane 0 low).
  absl::Status WriteBf16(const Operand& o, const std::vector<uint32_t>& lanes, int line) {
    if (lanes.size() == 1) return Write(o, lanes[0], Type::kB16, line);
    const uint32_t u32 = b_.Int(32);
    const uint32_t low = Op1(spv::OpUConvert, u32, lanes[0]);
    const uint32_t high =
        Op2(spv::OpShiftLeftLogical, u32, Op1(spv::OpUConvert, u32, lanes[1]), b_.ConstInt(32, 16));
    return Write(o, Op2(spv::OpBitwiseOr, u32, low, high), Type::kB32, line);
  }

  // `id`, decorated NoContraction: drivers must not simplify or fuse it
  // (Mesa would fold TwoSum's (s - a) - s otherwise).
  uint32_t Exact(uint32_t id) {
    Emit(b_.annotations(), spv::OpDecorate, {id, spv::DecorationNoContraction});
    return id;
  }

  // The f32 sum a + c and its exact rounding error (TwoSum).
  std::pair<uint32_t, uint32_t> TwoSum(uint32_t a, uint32_t c) {
    const uint32_t f32 = b_.Float(32);
    const uint32_t sum = Exact(Op2(spv::OpFAdd, f32, a, c));
    const uint32_t c_part = Exact(Op2(spv::OpFSub, f32, sum, a));
    const uint32_t a_part = Exact(Op2(spv::OpFSub, f32, sum, c_part));
    const uint32_t error = Exact(Op2(spv::OpFAdd, f32, Exact(Op2(spv::OpFSub, f32, a, a_part)),
                                     Exact(Op2(spv::OpFSub, f32, c, c_part))));
    return {sum, error};
  }

  // add, sub, mul, fma, min, max, neg, abs on .bf16 / .bf16x2.
  absl::Status EmitBf16(const Instruction& inst) {
    const std::string& op = inst.opcode;
    const bool pair = inst.HasModifier("bf16x2");
    size_t count = 0;
    if (op == "neg" || op == "abs") count = 1;
    if (op == "add" || op == "sub" || op == "mul" || op == "min" || op == "max") count = 2;
    if (op == "fma") count = 3;
    if (count == 0) return Unsupported(inst.line, absl::StrCat(op, pair ? ".bf16x2" : ".bf16"));
    for (const std::string& m : inst.modifiers) {
      if (m != "bf16" && m != "bf16x2" && m != "rn" && m != "relu" && m != "NaN") {
        return Unsupported(inst.line, absl::StrCat(op, ".", m, " on bf16"));
      }
    }
    if (inst.operands.size() != count + 1)
      return SyntaxError(inst.line, absl::StrCat(op, " takes ", count + 1, " operands"));
    const uint32_t f32 = b_.Float(32), u16 = b_.Int(16), boolean = b_.Bool();
    std::vector<uint32_t> lanes;
    for (int lane = 0; lane < (pair ? 2 : 1); ++lane) {
      if (op == "neg" || op == "abs") {
        // Sign-bit operations, NaN payloads included, as PTX specifies.
        auto v = Read(inst.operands[1], pair ? Type::kB32 : Type::kB16, inst.line);
        if (!v.ok()) return v.status();
        uint32_t bits = *v;
        if (pair) {
          bits = Op1(spv::OpUConvert, u16,
                     Op2(spv::OpShiftRightLogical, b_.Int(32), bits, b_.ConstInt(32, 16 * lane)));
        }
        lanes.push_back(op == "neg" ? Op2(spv::OpBitwiseXor, u16, bits, b_.ConstInt(16, 0x8000))
                                    : Op2(spv::OpBitwiseAnd, u16, bits, b_.ConstInt(16, 0x7fff)));
        continue;
      }
      std::vector<uint32_t> v;
      for (size_t i = 1; i <= count; ++i) {
        auto x = ReadBf16(inst.operands[i], pair, lane, inst.line);
        if (!x.ok()) return x.status();
        v.push_back(*x);
      }
      uint32_t result = 0, error = 0;
      if (op == "add" || op == "sub" || op == "fma") {
        // fma: the product of two bf16 is exact in f32.
        const uint32_t left = op == "fma" ? Exact(Op2(spv::OpFMul, f32, v[0], v[1])) : v[0];
        uint32_t right = op == "fma" ? v[2] : v[1];
        if (op == "sub") right = Op1(spv::OpFNegate, f32, right);
        std::tie(result, error) = TwoSum(left, right);
      } else if (op == "mul") {
        result = Op2(spv::OpFMul, f32, v[0], v[1]);
      } else {
        // The result is one of the operands, so it rounds exactly.
        const bool nan_wins = inst.HasModifier("NaN");
        result = Ext(f32, op == "min" ? GLSLstd450NMin : GLSLstd450NMax, {v[0], v[1]});
        if (nan_wins) {
          const uint32_t any_nan = Op2(spv::OpLogicalOr, boolean, Op1(spv::OpIsNan, boolean, v[0]),
                                       Op1(spv::OpIsNan, boolean, v[1]));
          result = Select(f32, any_nan, b_.ConstFloatBits(32, 0x7fffffff), result);
        }
      }
      if (inst.HasModifier("relu")) {
        const uint32_t negative = Op2(spv::OpFOrdLessThan, boolean, result, b_.ConstFloat(32, 0.0));
        result = Select(f32, negative, b_.ConstFloat(32, 0.0), result);
        if (error != 0) error = Select(f32, negative, b_.ConstFloat(32, 0.0), error);
      }
      lanes.push_back(F32ToBf16(result, /*toward_zero=*/false, error));
    }
    return WriteBf16(inst.operands[0], lanes, inst.line);
  }

  // cvt between f32 and bf16: cvt.{rn,rz}{.relu}.bf16.f32 d, a;
  // cvt.{rn,rz}{.relu}.bf16x2.f32 d, a, b (a to the high half);
  // cvt.f32.bf16 d, a.
  absl::Status EmitCvtBf16(const Instruction& inst) {
    const std::vector<std::string>& m = inst.modifiers;
    const auto bf = std::find_if(m.begin(), m.end(),
                                 [](const std::string& x) { return x == "bf16" || x == "bf16x2"; });
    const auto f32_at = std::find(m.begin(), m.end(), "f32");
    if (f32_at == m.end() || inst.types.size() != 1) {
      return Unsupported(inst.line, "cvt between bf16 and a type other than f32");
    }
    const bool pair = *bf == "bf16x2";
    if (f32_at < bf) {  // to f32
      if (pair || inst.operands.size() != 2)
        return Unsupported(inst.line, "cvt.f32.bf16 takes one bf16 source");
      auto v = ReadBf16(inst.operands[1], false, 0, inst.line);
      if (!v.ok()) return v.status();
      return Write(inst.operands[0], *v, Type::kF32, inst.line);
    }
    const bool toward_zero = inst.HasModifier("rz");
    if (!toward_zero && !inst.HasModifier("rn"))
      return Unsupported(inst.line, "cvt to bf16 without .rn or .rz");
    if (inst.HasModifier("satfinite")) return Unsupported(inst.line, "cvt.satfinite to bf16");
    if (inst.operands.size() != (pair ? 3u : 2u))
      return SyntaxError(inst.line,
                         pair ? "cvt to bf16x2 takes two sources" : "cvt takes two operands");
    std::vector<uint32_t> lanes;
    // bf16x2: the first source is the high half.
    for (size_t i = inst.operands.size() - 1; i >= 1; --i) {
      auto v = Read(inst.operands[i], Type::kF32, inst.line);
      if (!v.ok()) return v.status();
      uint32_t x = *v;
      if (inst.HasModifier("relu")) {
        const uint32_t negative = Op2(spv::OpFOrdLessThan, b_.Bool(), x, b_.ConstFloat(32, 0.0));
        x = Select(b_.Float(32), negative, b_.ConstFloat(32, 0.0), x);
      }
      lanes.push_back(F32ToBf16(x, toward_zero));
    }
    return WriteBf16(inst.operands[0], lanes, inst.line);
  }

  absl::Status EmitArithmetic(const Instruction& inst) {
    const std::string& op = inst.opcode;
    const Type type = inst.type();
    if (inst.HasModifier("f16x2")) return EmitHalf2(inst);
    if (inst.HasModifier("bf16") || inst.HasModifier("bf16x2")) return EmitBf16(inst);
    if (type == Type::kNone) return SyntaxError(inst.line, absl::StrCat(op, " needs a type"));
    const bool fl = IsFloat(type);
    const bool sg = IsSigned(type);
    const uint32_t t = SpvType(type);
    for (const std::string& m : inst.modifiers) {
      if (m == "sat" && !fl && !((op == "add" || op == "sub") && type == Type::kS32))
        return Unsupported(inst.line, "integer .sat other than add/sub.s32");
      if (m == "cc") return Unsupported(inst.line, "carry (.cc)");
    }
    if (op == "popc" || op == "clz" || op == "brev" || op == "bfe" || op == "bfi" || op == "prmt" ||
        op == "bfind") {
      return EmitBitInstruction(inst);
    }
    uint32_t result = 0;
    Type result_type = type;
    auto unary = [&](spv::Op fop, spv::Op iop) -> absl::Status {
      auto s = Sources(inst, 1, type);
      if (!s.ok()) return s.status();
      result = Op1(fl ? fop : iop, t, (*s)[0]);
      return absl::OkStatus();
    };
    auto binary = [&](spv::Op fop, spv::Op iop) -> absl::Status {
      auto s = Sources(inst, 2, type);
      if (!s.ok()) return s.status();
      result = Op2(fl ? fop : iop, t, (*s)[0], (*s)[1]);
      return absl::OkStatus();
    };
    if (op == "add" || op == "sub") {
      const bool add = op == "add";
      auto s = Sources(inst, 2, type);
      if (!s.ok()) return s.status();
      result = Op2(fl ? (add ? spv::OpFAdd : spv::OpFSub) : (add ? spv::OpIAdd : spv::OpISub), t,
                   (*s)[0], (*s)[1]);
      if (!fl && inst.HasModifier("sat")) result = SaturateS32(result, (*s)[0], (*s)[1], add);
    } else if (op == "mul" || op == "mad") {
      const bool mad = op == "mad";
      const size_t count = mad ? 3 : 2;
      if (fl) {
        auto s = Sources(inst, count, type);
        if (!s.ok()) return s.status();
        result = mad ? Ext(t, GLSLstd450Fma, {(*s)[0], (*s)[1], (*s)[2]})
                     : Op2(spv::OpFMul, t, (*s)[0], (*s)[1]);
      } else if (inst.HasModifier("wide")) {
        const Type wide = Widen(type);
        if (inst.operands.size() != count + 1) return SyntaxError(inst.line, "operand count");
        auto a = Read(inst.operands[1], type, inst.line);
        auto bb = Read(inst.operands[2], type, inst.line);
        if (!a.ok()) return a.status();
        if (!bb.ok()) return bb.status();
        auto wa = Convert({*a, type}, wide, sg, inst.line);
        auto wb = Convert({*bb, type}, wide, sg, inst.line);
        if (!wa.ok()) return wa.status();
        if (!wb.ok()) return wb.status();
        result = Op2(spv::OpIMul, SpvType(wide), *wa, *wb);
        if (mad) {
          auto c = Read(inst.operands[3], wide, inst.line);
          if (!c.ok()) return c.status();
          result = Op2(spv::OpIAdd, SpvType(wide), result, *c);
        }
        result_type = wide;
      } else {
        auto s = Sources(inst, count, type);
        if (!s.ok()) return s.status();
        if (inst.HasModifier("hi")) {
          const uint32_t pair_type = b_.NewId();
          Emit(b_.types(), spv::OpTypeStruct, {pair_type, t, t});
          const uint32_t pair =
              Op2(sg ? spv::OpSMulExtended : spv::OpUMulExtended, pair_type, (*s)[0], (*s)[1]);
          result = b_.NewId();
          Emit(code_, spv::OpCompositeExtract, {t, result, pair, 1});
        } else {
          result = Op2(spv::OpIMul, t, (*s)[0], (*s)[1]);
        }
        if (mad) result = Op2(spv::OpIAdd, t, result, (*s)[2]);
      }
    } else if (op == "fma") {
      auto s = Sources(inst, 3, type);
      if (!s.ok()) return s.status();
      if (!fl) return SyntaxError(inst.line, "fma needs a float type");
      result = Ext(t, GLSLstd450Fma, {(*s)[0], (*s)[1], (*s)[2]});
    } else if (op == "div") {
      SH_PTX_RETURN_IF_ERROR(binary(spv::OpFDiv, sg ? spv::OpSDiv : spv::OpUDiv));
    } else if (op == "rem") {
      if (fl) return SyntaxError(inst.line, "rem needs an integer type");
      SH_PTX_RETURN_IF_ERROR(binary(spv::OpFRem, sg ? spv::OpSRem : spv::OpUMod));
    } else if (op == "min" || op == "max") {
      auto s = Sources(inst, 2, type);
      if (!s.ok()) return s.status();
      const bool mn = op == "min";
      if (sg && TypeBits(type) == 64) {
        // The unsigned compare with flipped sign bits (see EmitSetp).
        const uint32_t sign = b_.ConstInt(64, uint64_t{1} << 63);
        const uint32_t less =
            Op2(spv::OpULessThan, b_.Bool(), Op2(spv::OpBitwiseXor, t, (*s)[0], sign),
                Op2(spv::OpBitwiseXor, t, (*s)[1], sign));
        result = b_.NewId();
        Emit(code_, spv::OpSelect,
             {t, result, less, mn ? (*s)[0] : (*s)[1], mn ? (*s)[1] : (*s)[0]});
        return Write(inst.operands[0], result, result_type, inst.line);
      }
      const uint32_t ext = fl   ? (mn ? GLSLstd450NMin : GLSLstd450NMax)
                           : sg ? (mn ? GLSLstd450SMin : GLSLstd450SMax)
                                : (mn ? GLSLstd450UMin : GLSLstd450UMax);
      result = Ext(t, ext, {(*s)[0], (*s)[1]});
    } else if (op == "neg") {
      SH_PTX_RETURN_IF_ERROR(unary(spv::OpFNegate, spv::OpSNegate));
    } else if (op == "abs") {
      auto s = Sources(inst, 1, type);
      if (!s.ok()) return s.status();
      result = Ext(t, fl ? GLSLstd450FAbs : GLSLstd450SAbs, {(*s)[0]});
    } else if (op == "sqrt" || op == "rsqrt" || op == "rcp" || op == "ex2" || op == "lg2" ||
               op == "sin" || op == "cos") {
      if (!fl) return SyntaxError(inst.line, absl::StrCat(op, " needs a float type"));
      auto s = Sources(inst, 1, type);
      if (!s.ok()) return s.status();
      if (op == "rcp") {
        result = Op2(spv::OpFDiv, t, b_.ConstFloat(TypeBits(type), 1.0), (*s)[0]);
      } else {
        const uint32_t ext = op == "sqrt"    ? GLSLstd450Sqrt
                             : op == "rsqrt" ? GLSLstd450InverseSqrt
                             : op == "ex2"   ? GLSLstd450Exp2
                             : op == "lg2"   ? GLSLstd450Log2
                             : op == "sin"   ? GLSLstd450Sin
                                             : GLSLstd450Cos;
        result = Ext(t, ext, {(*s)[0]});
      }
    } else if (op == "and" || op == "or" || op == "xor") {
      auto s = Sources(inst, 2, type);
      if (!s.ok()) return s.status();
      if (type == Type::kPred) {
        result = Op2(op == "and"  ? spv::OpLogicalAnd
                     : op == "or" ? spv::OpLogicalOr
                                  : spv::OpLogicalNotEqual,
                     t, (*s)[0], (*s)[1]);
      } else {
        result = Op2(op == "and"  ? spv::OpBitwiseAnd
                     : op == "or" ? spv::OpBitwiseOr
                                  : spv::OpBitwiseXor,
                     t, (*s)[0], (*s)[1]);
      }
    } else if (op == "not") {
      auto s = Sources(inst, 1, type);
      if (!s.ok()) return s.status();
      result = Op1(type == Type::kPred ? spv::OpLogicalNot : spv::OpNot, t, (*s)[0]);
    } else if (op == "shl" || op == "shr") {
      if (inst.operands.size() != 3) return SyntaxError(inst.line, "shift takes three operands");
      auto a = Read(inst.operands[1], type, inst.line);
      auto amount32 = Read(inst.operands[2], Type::kU32, inst.line);
      if (!a.ok()) return a.status();
      if (!amount32.ok()) return amount32.status();
      const int bits = TypeBits(type);
      auto amount = Convert({*amount32, Type::kU32}, UintOf(bits), false, inst.line);
      if (!amount.ok()) return amount.status();
      const uint32_t max_shift = b_.ConstInt(bits, bits - 1);
      // PTX clamps shift amounts to the width; SPIR-V leaves larger ones
      // undefined.
      if (op == "shr" && sg) {
        const uint32_t clamped = Ext(t, GLSLstd450UMin, {*amount, max_shift});
        result = Op2(spv::OpShiftRightArithmetic, t, *a, clamped);
      } else {
        const uint32_t shifted =
            Op2(op == "shl" ? spv::OpShiftLeftLogical : spv::OpShiftRightLogical, t, *a, *amount);
        const uint32_t too_far = Op2(spv::OpUGreaterThan, b_.Bool(), *amount, max_shift);
        result = b_.NewId();
        Emit(code_, spv::OpSelect, {t, result, too_far, b_.ConstInt(bits, 0), shifted});
      }
    } else {
      return Unsupported(inst.line, absl::StrCat("instruction ", op));
    }
    if (fl && inst.HasModifier("sat")) {
      result =
          Ext(t, GLSLstd450FClamp,
              {result, b_.ConstFloat(TypeBits(type), 0.0), b_.ConstFloat(TypeBits(type), 1.0)});
    }
    return Write(inst.operands[0], result, result_type, inst.line);
  }

  // setp, and set, which writes the comparison as a number: 1.0f or 0 for
  // an .f32 destination, all ones or 0 for an integer one
  // (set.CmpOp{.BoolOp}.dtype.stype d, a, b{, c}).
  absl::Status EmitSetp(const Instruction& inst) {
    const bool set = inst.opcode == "set";
    // .bf16 operands compare as the f32 values they widen to exactly.
    const bool bf16 = inst.HasModifier("bf16");
    if (inst.HasModifier("bf16x2")) return Unsupported(inst.line, "setp/set on bf16x2");
    const Type type = bf16 ? Type::kF32 : inst.type();
    const Type set_type = set && !inst.types.empty() ? inst.types[0] : Type::kNone;
    if (set && (inst.types.size() != (bf16 ? 1u : 2u) ||
                (set_type != Type::kF32 && !IsInteger(set_type)) || TypeBits(set_type) != 32)) {
      return Unsupported(inst.line, "set other than to a 32-bit integer or .f32");
    }
    if (inst.operands.size() < 3)
      return SyntaxError(inst.line, "setp takes at least three operands");
    // The destination may be a scoped register named without '%' (inline
    // asm in cuda_fp16.hpp: `setp.lt.f16 __$temp3, ...`).
    if ((inst.operands[0].kind != Operand::Kind::kRegister &&
         !(inst.operands[0].kind == Operand::Kind::kSymbol &&
           reg_vars_.count(inst.operands[0].name))) ||
        !inst.operands[0].pair.empty())
      return Unsupported(inst.line, "setp p|q form");
    std::string cmp, combine;
    for (const std::string& m : inst.modifiers) {
      if (TypeFromName(m) != Type::kNone || m == "ftz" || m == "bf16") continue;
      if (m == "and" || m == "or" || m == "xor") {
        combine = m;
      } else if (cmp.empty()) {
        cmp = m;
      } else {
        return Unsupported(inst.line, absl::StrCat("setp modifier .", m));
      }
    }
    auto a = bf16 ? ReadBf16(inst.operands[1], false, 0, inst.line)
                  : Read(inst.operands[1], type, inst.line);
    auto c = bf16 ? ReadBf16(inst.operands[2], false, 0, inst.line)
                  : Read(inst.operands[2], type, inst.line);
    if (!a.ok()) return a.status();
    if (!c.ok()) return c.status();
    const bool fl = IsFloat(type), sg = IsSigned(type);
    static const std::map<std::string, std::array<spv::Op, 3>> kOps = {
        // float, signed int, unsigned int
        {"eq", {spv::OpFOrdEqual, spv::OpIEqual, spv::OpIEqual}},
        {"ne", {spv::OpFOrdNotEqual, spv::OpINotEqual, spv::OpINotEqual}},
        {"lt", {spv::OpFOrdLessThan, spv::OpSLessThan, spv::OpULessThan}},
        {"le", {spv::OpFOrdLessThanEqual, spv::OpSLessThanEqual, spv::OpULessThanEqual}},
        {"gt", {spv::OpFOrdGreaterThan, spv::OpSGreaterThan, spv::OpUGreaterThan}},
        {"ge", {spv::OpFOrdGreaterThanEqual, spv::OpSGreaterThanEqual, spv::OpUGreaterThanEqual}},
        {"lo", {spv::OpNop, spv::OpULessThan, spv::OpULessThan}},
        {"ls", {spv::OpNop, spv::OpULessThanEqual, spv::OpULessThanEqual}},
        {"hi", {spv::OpNop, spv::OpUGreaterThan, spv::OpUGreaterThan}},
        {"hs", {spv::OpNop, spv::OpUGreaterThanEqual, spv::OpUGreaterThanEqual}},
        {"equ", {spv::OpFUnordEqual, spv::OpNop, spv::OpNop}},
        {"neu", {spv::OpFUnordNotEqual, spv::OpNop, spv::OpNop}},
        {"ltu", {spv::OpFUnordLessThan, spv::OpNop, spv::OpNop}},
        {"leu", {spv::OpFUnordLessThanEqual, spv::OpNop, spv::OpNop}},
        {"gtu", {spv::OpFUnordGreaterThan, spv::OpNop, spv::OpNop}},
        {"geu", {spv::OpFUnordGreaterThanEqual, spv::OpNop, spv::OpNop}},
    };
    const uint32_t boolean = b_.Bool();
    uint32_t result = 0;
    if (fl && (cmp == "num" || cmp == "nan")) {
      const uint32_t na = Op1(spv::OpIsNan, boolean, *a), nc = Op1(spv::OpIsNan, boolean, *c);
      const uint32_t any = Op2(spv::OpLogicalOr, boolean, na, nc);
      result = cmp == "nan" ? any : Op1(spv::OpLogicalNot, boolean, any);
    } else {
      auto it = kOps.find(cmp);
      spv::Op o = it == kOps.end() ? spv::OpNop : it->second[fl ? 0 : sg ? 1 : 2];
      if (o == spv::OpNop || type == Type::kPred || type == Type::kNone) {
        return Unsupported(inst.line, absl::StrCat("setp.", cmp, ".", TypeName(type)));
      }
      uint32_t x = *a, y = *c;
      if (!fl && sg && TypeBits(type) == 64 && o != spv::OpIEqual && o != spv::OpINotEqual) {
        // lavapipe (LLVM 15) compares 64-bit integers unsigned even for
        // OpSLessThan & co (a negative value is not less than 0), so signed
        // orders are unsigned ones with the sign bits flipped.
        const uint32_t sign = b_.ConstInt(64, uint64_t{1} << 63);
        x = Op2(spv::OpBitwiseXor, SpvType(type), x, sign);
        y = Op2(spv::OpBitwiseXor, SpvType(type), y, sign);
        o = it->second[2];
      }
      result = Op2(o, boolean, x, y);
    }
    if (!combine.empty()) {
      if (inst.operands.size() != 4)
        return SyntaxError(inst.line, "setp with .and/.or/.xor takes a predicate");
      auto q = Read(inst.operands[3], Type::kPred, inst.line);
      if (!q.ok()) return q.status();
      result = Op2(combine == "and"  ? spv::OpLogicalAnd
                   : combine == "or" ? spv::OpLogicalOr
                                     : spv::OpLogicalNotEqual,
                   boolean, result, *q);
    } else if (inst.operands.size() != 3) {
      return SyntaxError(inst.line, "setp takes three operands");
    }
    if (set) {
      const uint32_t yes =
          set_type == Type::kF32 ? b_.ConstFloat(32, 1.0) : b_.ConstInt(32, 0xffffffffu);
      const uint32_t no = set_type == Type::kF32 ? b_.ConstFloat(32, 0.0) : b_.ConstInt(32, 0);
      return Write(inst.operands[0], Select(SpvType(set_type), result, yes, no), set_type,
                   inst.line);
    }
    return Write(inst.operands[0], result, Type::kPred, inst.line);
  }

  // PTX: float-to-integer conversions clamp to the destination's range and
  // give 0 for NaN; SPIR-V leaves out-of-range values undefined. The limits
  // are powers of two, exact in every float type: values at or above 2^(n-1)
  // (2^n unsigned) give the maximum, values below -2^(n-1) (0) the minimum,
  // and only in-range values (NaN fails both ordered compares) reach the
  // conversion. Narrow destinations convert at 32 bits, then truncate.
  uint32_t FloatToIntSaturating(uint32_t x, Type from, Type to) {
    const int fb = TypeBits(from), tb = TypeBits(to);
    const bool sg = IsSigned(to);
    const int cb = tb == 64 ? 64 : 32;  // the conversion's width
    const uint32_t ft = SpvType(from), ct = b_.Int(cb), boolean = b_.Bool();
    const double hi = std::ldexp(1.0, sg ? tb - 1 : tb);
    const double lo = sg ? -hi : 0.0;
    const uint64_t max = sg         ? (uint64_t{1} << (tb - 1)) - 1
                         : tb == 64 ? ~uint64_t{0}
                                    : (uint64_t{1} << tb) - 1;
    const uint64_t min = sg ? ~uint64_t{0} << (tb - 1) : 0;
    const uint32_t too_big = Op2(spv::OpFOrdGreaterThanEqual, boolean, x, b_.ConstFloat(fb, hi));
    const uint32_t too_small = Op2(spv::OpFOrdLessThan, boolean, x, b_.ConstFloat(fb, lo));
    const uint32_t in_range =
        Op2(spv::OpLogicalAnd, boolean,
            Op2(spv::OpFOrdGreaterThanEqual, boolean, x, b_.ConstFloat(fb, lo)),
            Op2(spv::OpFOrdLessThan, boolean, x, b_.ConstFloat(fb, hi)));
    const uint32_t safe = Select(ft, in_range, x, b_.ConstFloat(fb, 0.0));
    const uint32_t converted = Op1(sg ? spv::OpConvertFToS : spv::OpConvertFToU, ct, safe);
    uint32_t result = Select(ct, too_big, b_.ConstInt(cb, max),
                             Select(ct, too_small, b_.ConstInt(cb, min), converted));
    if (tb < cb) result = Op1(spv::OpUConvert, b_.Int(tb), result);
    return result;
  }

  absl::Status EmitCvt(const Instruction& inst) {
    if (inst.HasModifier("bf16") || inst.HasModifier("bf16x2")) return EmitCvtBf16(inst);
    if (inst.types.size() != 2 || inst.operands.size() != 2) {
      return SyntaxError(inst.line, "cvt takes two types and two operands");
    }
    const Type to = inst.types[0], from = inst.types[1];
    // Float-to-integer conversions saturate anyway, so only integer sources
    // make .sat on an integer destination a separate case.
    if (inst.HasModifier("sat") && !IsFloat(to) && !IsFloat(from))
      return Unsupported(inst.line, "integer cvt.sat");
    auto v = Read(inst.operands[1], from, inst.line);
    if (!v.ok()) return v.status();
    const uint32_t t = SpvType(to);
    uint32_t result = *v;
    std::string rounding;
    for (const std::string& m : inst.modifiers) {
      if (m == "rn" || m == "rz" || m == "rm" || m == "rp" || m == "rni" || m == "rzi" ||
          m == "rmi" || m == "rpi") {
        rounding = m;
      }
    }
    auto round = [&](uint32_t type, uint32_t x) -> uint32_t {
      if (rounding == "rni") return Ext(type, GLSLstd450RoundEven, {x});
      if (rounding == "rmi") return Ext(type, GLSLstd450Floor, {x});
      if (rounding == "rpi") return Ext(type, GLSLstd450Ceil, {x});
      if (rounding == "rzi") return Ext(type, GLSLstd450Trunc, {x});
      return x;
    };
    if (IsFloat(from) && IsFloat(to)) {
      result = from == to ? *v : Op1(spv::OpFConvert, t, *v);
      result = round(t, result);
    } else if (IsFloat(from)) {
      result = FloatToIntSaturating(round(SpvType(from), *v), from, to);
    } else if (IsFloat(to)) {
      result = Op1(IsSigned(from) ? spv::OpConvertSToF : spv::OpConvertUToF, t, *v);
    } else {
      auto c = Convert({*v, from}, to, IsSigned(from), inst.line);
      if (!c.ok()) return c.status();
      result = *c;
    }
    if (IsFloat(to) && inst.HasModifier("sat")) {
      result = Ext(t, GLSLstd450FClamp,
                   {result, b_.ConstFloat(TypeBits(to), 0.0), b_.ConstFloat(TypeBits(to), 1.0)});
    }
    return Write(inst.operands[0], result, to, inst.line);
  }

  // mov.b64 %rd, {%r1, %r2} packs the elements (the first lowest);
  // mov.b64 {%r1, %r2}, %rd unpacks them.
  absl::Status EmitPackMove(const Instruction& inst) {
    const Type type = inst.type();
    const int bits = TypeBits(type);
    const bool pack = inst.operands[1].kind == Operand::Kind::kVector;
    const Operand& vec = inst.operands[pack ? 1 : 0];
    const Operand& scalar = inst.operands[pack ? 0 : 1];
    const size_t count = vec.elements.size();
    if (!IsInteger(type) || scalar.kind == Operand::Kind::kVector || (count != 2 && count != 4) ||
        bits % count != 0 || bits / count < 8) {
      return Unsupported(inst.line, "mov with this vector form");
    }
    const int part_bits = static_cast<int>(bits / count);
    const Type whole = UintOf(bits), part = UintOf(part_bits);
    const uint32_t t = SpvType(whole);
    if (pack) {
      uint32_t result = b_.ConstInt(bits, 0);
      for (size_t k = 0; k < count; ++k) {
        auto e = Read(vec.elements[k], part, inst.line);
        if (!e.ok()) return e.status();
        auto wide = Convert({*e, part}, whole, false, inst.line);
        if (!wide.ok()) return wide.status();
        result = Op2(spv::OpBitwiseOr, t, result,
                     Op2(spv::OpShiftLeftLogical, t, *wide, b_.ConstInt(bits, k * part_bits)));
      }
      return Write(scalar, result, whole, inst.line);
    }
    auto v = Read(scalar, whole, inst.line);
    if (!v.ok()) return v.status();
    for (size_t k = 0; k < count; ++k) {
      if (vec.elements[k].kind == Operand::Kind::kSymbol && vec.elements[k].name == "_") continue;
      const uint32_t shifted =
          Op2(spv::OpShiftRightLogical, t, *v, b_.ConstInt(bits, k * part_bits));
      auto narrow = Convert({shifted, whole}, part, false, inst.line);
      if (!narrow.ok()) return narrow.status();
      SH_PTX_RETURN_IF_ERROR(Write(vec.elements[k], *narrow, part, inst.line));
    }
    return absl::OkStatus();
  }

  // The kernel parameters whose texture object `reg` may hold
  // (TextureHandles), or an error naming the line.
  absl::StatusOr<std::set<uint32_t>> TextureParams(const std::string& reg, int line) {
    std::set<uint32_t> params = b_.texture_handles->Of(f_, reg);
    if (params.empty() || (!f_.is_entry && params.size() > 1)) {
      return Unsupported(line, absl::StrCat("texture handle ", reg,
                                            " that is not a kernel parameter (kernel ABI v2 binds "
                                            "texture objects passed as parameters)"));
    }
    return params;
  }

  // tex.{1d,2d,3d}.v4.{f32,u32,s32}.{f32,s32} d, [handle, {coordinates}]:
  // a sample at level 0 (float coordinates; texel or normalised as the
  // texture object's sampler says), or a fetch from linear memory
  // (tex.1d with integer coordinates: tex1Dfetch, a samplerBuffer).
  absl::Status EmitTex(const Instruction& inst) {
    spv::Dim dim = spv::Dim2D;
    uint32_t coordinates = 2;
    for (const std::string& m : inst.modifiers) {
      if (m == "1d") {
        dim = spv::Dim1D;
        coordinates = 1;
      } else if (m == "2d") {
        dim = spv::Dim2D;
        coordinates = 2;
      } else if (m == "3d") {
        dim = spv::Dim3D;
        coordinates = 3;
      } else if (m != "v4" && TypeFromName(m) == Type::kNone) {
        return Unsupported(inst.line, absl::StrCat("tex modifier .", m));
      }
    }
    // The handle: a register holding a texture object, or a `.texref`.
    const bool by_reference = inst.operands.size() == 2 && inst.operands[1].base_is_symbol &&
                              b_.texref_bindings.count(inst.operands[1].name) != 0;
    if (inst.types.size() != 2 || inst.vector_width != 4 || inst.operands.size() != 2 ||
        inst.operands[0].kind != Operand::Kind::kVector || inst.operands[0].elements.size() != 4 ||
        inst.operands[1].kind != Operand::Kind::kAddress ||
        (inst.operands[1].base_is_symbol && !by_reference) ||
        inst.operands[1].elements.size() != 1) {
      return Unsupported(inst.line, "tex form (tex.geom.v4.dtype.ctype d, [handle, {c}])");
    }
    const Type result = inst.types[0], coordinate = inst.types[1];
    if ((result != Type::kF32 && result != Type::kU32 && result != Type::kS32) ||
        (coordinate != Type::kF32 && coordinate != Type::kS32)) {
      return Unsupported(inst.line, "tex types other than .f32/.u32/.s32 results of .f32/.s32");
    }
    const bool fetch = coordinate == Type::kS32;
    if (fetch && dim != spv::Dim1D) {
      return Unsupported(inst.line, "tex with integer coordinates beyond 1-D (tex1Dfetch)");
    }
    if (fetch) dim = spv::DimBuffer;
    absl::StatusOr<std::set<uint32_t>> params = std::set<uint32_t>{};
    if (!by_reference) params = TextureParams(inst.operands[1].name, inst.line);
    if (!params.ok()) return params.status();
    const uint32_t sampled = result == Type::kF32   ? b_.Float(32)
                             : result == Type::kU32 ? b_.Int(32)
                                                    : b_.SInt32();
    const uint32_t image = b_.Image(sampled, dim);
    const uint32_t sampled_image = b_.SampledImage(image);
    // Coordinates: PTX gives a vector (3-D ones in a .v4, the last unused).
    const Operand& c = inst.operands[1].elements[0];
    std::vector<const Operand*> parts;
    if (c.kind == Operand::Kind::kVector) {
      for (const Operand& e : c.elements) parts.push_back(&e);
    } else {
      parts.push_back(&c);
    }
    if (parts.size() < coordinates) return SyntaxError(inst.line, "too few tex coordinates");
    Words components;
    for (uint32_t i = 0; i < coordinates; ++i) {
      auto v = Read(*parts[i], fetch ? Type::kU32 : Type::kF32, inst.line);
      if (!v.ok()) return v.status();
      components.push_back(*v);
    }
    uint32_t coordinate_id = components[0];
    if (coordinates > 1) {
      coordinate_id = b_.NewId();
      Words w{b_.Vec(b_.Float(32), coordinates), coordinate_id};
      w.insert(w.end(), components.begin(), components.end());
      EmitV(code_, spv::OpCompositeConstruct, w);
    }
    const uint32_t vec4 = b_.Vec(sampled, 4);
    auto sample_var = [&](uint32_t var) {
      UseGlobal(var);
      const uint32_t texture = Op1(spv::OpLoad, sampled_image, var);
      const uint32_t texel = b_.NewId();
      if (fetch) {
        const uint32_t view = Op1(spv::OpImage, image, texture);
        Emit(code_, spv::OpImageFetch, {vec4, texel, view, coordinate_id});
      } else {
        Emit(code_, spv::OpImageSampleExplicitLod,
             {vec4, texel, texture, coordinate_id, spv::ImageOperandsLodMask,
              b_.ConstFloat(32, 0.0)});
      }
      return texel;
    };
    auto sample = [&](uint32_t param) { return sample_var(b_.TextureVar(param, sampled_image)); };
    uint32_t texel = 0;
    if (by_reference) {
      const std::string& name = inst.operands[1].name;
      auto var = b_.TextureRefVar(name, b_.texref_bindings.at(name), sampled_image, inst.line);
      if (!var.ok()) return var.status();
      texel = sample_var(*var);
    } else {
      // A handle that may be one of several parameters (selp between two
      // textures): sample each and keep the one whose parameter holds the
      // handle's value now.
      texel = sample(*params->rbegin());
    }
    if (params->size() > 1) {
      Operand handle_register{Operand::Kind::kRegister, inst.operands[1].name};
      auto handle = Read(handle_register, Type::kU64, inst.line);
      if (!handle.ok()) return handle.status();
      for (auto it = std::next(params->rbegin()); it != params->rend(); ++it) {
        Operand param{Operand::Kind::kAddress, f_.params[*it].name};
        param.base_is_symbol = true;
        auto value = LoadParam(param, 0, Type::kU64, inst.line);
        if (!value.ok()) return value.status();
        const uint32_t is_this = Op2(spv::OpIEqual, b_.Bool(), *handle, *value);
        const uint32_t chosen = b_.NewId();
        Emit(code_, spv::OpSelect, {vec4, chosen, is_this, sample(*it), texel});
        texel = chosen;
      }
    }
    for (uint32_t i = 0; i < 4; ++i) {
      uint32_t component = b_.NewId();
      Emit(code_, spv::OpCompositeExtract, {sampled, component, texel, i});
      if (result == Type::kS32) component = Op1(spv::OpBitcast, b_.Int(32), component);
      SH_PTX_RETURN_IF_ERROR(Write(inst.operands[0].elements[i], component, result, inst.line));
    }
    return absl::OkStatus();
  }

  // --- warps (docs/ptx.md, "Warps") ---
  //
  // CUDA's 32-wide warps are emulated in workgroup memory: at each warp
  // instruction every thread of the block stops at one point of the
  // structure, participants publish their operands in their slot of the
  // kernel's warp scratch, a workgroup barrier orders the slots, and each
  // participant reads the slots of its warp's lanes. The barrier is written
  // outside the guard of the block ("block_var_ names it"), at the level of
  // the region, which all threads reach together: the function body, or a
  // loop that holds a warp instruction, made uniform (it repeats while any
  // thread of the block needs it). So `if (warp == 0) shfl ...` and lanes
  // leaving early are in uniform control flow, as Vulkan requires barriers
  // to be.

  // Marks the loops (regions) that hold a warp instruction, nested loops
  // included, for EmitLoop to make uniform.
  bool MarkWarpRegions(const LoopTree& tree, int r) {
    bool has = false;
    for (const LoopTree::Node& node : tree.regions[r].order) {
      if (node.loop >= 0) {
        has = MarkWarpRegions(tree, node.loop) || has;
        continue;
      }
      for (const Instruction& inst : f_.blocks[node.block].body)
        has = has || IsWarpInstruction(inst);
    }
    if (r > 0) uniform_region_[r] = has;
    return has;
  }

  // The thread's index in the block as CUDA numbers it (x fastest), and the
  // block's thread count.
  uint32_t LinearTid() {
    const uint32_t u32 = b_.Int(32);
    const uint32_t var = b_.BuiltinVar(spv::BuiltInLocalInvocationId);
    UseGlobal(var);
    const uint32_t id = Op1(spv::OpLoad, b_.Vec3(u32), var);
    const uint32_t size = b_.WorkgroupSize();
    auto part = [&](uint32_t vec, uint32_t i) {
      const uint32_t out = b_.NewId();
      Emit(code_, spv::OpCompositeExtract, {u32, out, vec, i});
      return out;
    };
    const uint32_t yz =
        Op2(spv::OpIAdd, u32, part(id, 1), Op2(spv::OpIMul, u32, part(size, 1), part(id, 2)));
    return Op2(spv::OpIAdd, u32, part(id, 0), Op2(spv::OpIMul, u32, part(size, 0), yz));
  }
  uint32_t LaneId() { return Op2(spv::OpBitwiseAnd, b_.Int(32), LinearTid(), b_.ConstInt(32, 31)); }

  uint32_t WarpWordPtr(uint32_t index) {
    const uint32_t ptr = b_.NewId();
    Emit(code_, spv::OpAccessChain,
         {b_.Ptr(spv::StorageClassWorkgroup, b_.Int(32)), ptr, ctx_.warp_var, index});
    return ptr;
  }
  void WorkgroupBarrier() {
    Emit(code_, spv::OpControlBarrier,
         {b_.ConstInt(32, spv::ScopeWorkgroup), b_.ConstInt(32, spv::ScopeWorkgroup),
          b_.ConstInt(32, spv::MemorySemanticsAcquireReleaseMask |
                              spv::MemorySemanticsUniformMemoryMask |
                              spv::MemorySemanticsWorkgroupMemoryMask)});
  }

  // Leaves the open guard for the region level and enters it again.
  void CloseGuard() {
    if (guard_block_ < 0) return;
    Emit(code_, spv::OpBranch, {guard_merge_});
    Emit(code_, spv::OpLabel, {guard_merge_});
  }
  void ReopenGuard() {
    if (guard_block_ < 0) return;
    const uint32_t run = NamesBlock(guard_block_);
    const uint32_t then = b_.NewId();
    guard_merge_ = b_.NewId();
    Emit(code_, spv::OpSelectionMerge, {guard_merge_, spv::SelectionControlMaskNone});
    Emit(code_, spv::OpBranchConditional, {run, then, guard_merge_});
    Emit(code_, spv::OpLabel, {then});
  }

  // Slot words of a record: flags (bit 0 the thread took part, bit 1 its
  // predicate), the value, the value's high word (64-bit match).
  int FlagsWord() const { return 0; }
  int ValueWord() const { return ctx_.warp_flags ? 1 : 0; }
  int HighWord() const { return ValueWord() + 1; }

  // Publishes `words` (record word index, u32 value computed inside the
  // guard) for the threads running the current block and zeros for the
  // others, then a barrier; returns the scratch index of this exchange's
  // records with the guard open again. Records alternate between two
  // phases, so the next exchange's writes cannot meet this one's reads
  // without a second barrier.
  uint32_t WarpExchange(const std::vector<std::pair<int, uint32_t>>& words) {
    const uint32_t u32 = b_.Int(32);
    for (const auto& [w, value] : words) Emit(code_, spv::OpStore, {warp_tmp_[w], value});
    CloseGuard();
    const uint32_t active = guard_block_ < 0 ? b_.ConstBool(true) : NamesBlock(guard_block_);
    const uint32_t n = BlockThreads();
    const uint32_t phase = Op1(spv::OpLoad, u32, warp_phase_var_);
    const uint32_t base =
        Op2(spv::OpIAdd, u32, b_.ConstInt(32, kWarpFlagWords),
            Op2(spv::OpIMul, u32, phase,
                Op2(spv::OpIMul, u32, n, b_.ConstInt(32, static_cast<uint32_t>(ctx_.warp_words)))));
    const uint32_t tid = LinearTid();
    for (int w = 0; w < ctx_.warp_words; ++w) {
      uint32_t v = b_.ConstInt(32, 0);
      for (const auto& written : words) {
        if (written.first == w) {
          v = Op1(spv::OpLoad, u32, warp_tmp_[w]);
          const uint32_t sel = b_.NewId();
          Emit(code_, spv::OpSelect, {u32, sel, active, v, b_.ConstInt(32, 0)});
          v = sel;
        }
      }
      const uint32_t at = Op2(spv::OpIAdd, u32, RecordBase(base, w, n), tid);
      Emit(code_, spv::OpStore, {WarpWordPtr(at), v});
    }
    WorkgroupBarrier();
    Emit(code_, spv::OpStore,
         {warp_phase_var_, Op2(spv::OpBitwiseXor, u32, phase, b_.ConstInt(32, 1))});
    ReopenGuard();
    return base;
  }
  uint32_t BlockThreads() {
    const uint32_t u32 = b_.Int(32), size = b_.WorkgroupSize();
    uint32_t d[3];
    for (uint32_t i = 0; i < 3; ++i) {
      d[i] = b_.NewId();
      Emit(code_, spv::OpCompositeExtract, {u32, d[i], size, i});
    }
    return Op2(spv::OpIMul, u32, d[0], Op2(spv::OpIMul, u32, d[1], d[2]));
  }
  uint32_t RecordBase(uint32_t base, int w, uint32_t n) {
    if (w == 0) return base;
    return Op2(spv::OpIAdd, b_.Int(32), base,
               Op2(spv::OpIMul, b_.Int(32), n, b_.ConstInt(32, static_cast<uint32_t>(w))));
  }
  // Word `w` of lane `lane`'s record (u32 ids); 0 for a lane past the end of
  // the block (a partial last warp).
  struct Frame {
    uint32_t base = 0, n = 0, last = 0, warp_start = 0;
  };
  Frame WarpFrame(uint32_t base) {
    const uint32_t u32 = b_.Int(32);
    Frame f;
    f.base = base;
    f.n = BlockThreads();
    f.last = Op2(spv::OpISub, u32, f.n, b_.ConstInt(32, 1));
    f.warp_start = Op2(spv::OpBitwiseAnd, u32, LinearTid(), b_.ConstInt(32, ~31u));
    return f;
  }
  uint32_t LaneWord(const Frame& f, int w, uint32_t lane) {
    const uint32_t u32 = b_.Int(32);
    const uint32_t thread = Op2(spv::OpIAdd, u32, f.warp_start, lane);
    const uint32_t valid = Op2(spv::OpULessThan, b_.Bool(), thread, f.n);
    const uint32_t clamped = Ext(u32, GLSLstd450UMin, {thread, f.last});
    const uint32_t loaded = Op1(
        spv::OpLoad, u32, WarpWordPtr(Op2(spv::OpIAdd, u32, RecordBase(f.base, w, f.n), clamped)));
    const uint32_t out = b_.NewId();
    Emit(code_, spv::OpSelect, {u32, out, valid, loaded, b_.ConstInt(32, 0)});
    return out;
  }
  // For each lane of the warp: its record's word `w` and whether it took
  // part (flags bit 0). Straight-line code: a loop would count against the
  // device's loop limit.
  struct Lanes {
    std::array<uint32_t, 32> flags{}, values{}, highs{};
    uint32_t active = 0, pred = 0;  // masks (u32 ids)
  };
  Lanes ReadLanes(uint32_t base, bool values, bool highs) {
    const uint32_t u32 = b_.Int(32);
    const Frame f = WarpFrame(base);
    Lanes l;
    l.active = b_.ConstInt(32, 0);
    l.pred = b_.ConstInt(32, 0);
    for (uint32_t lane = 0; lane < 32; ++lane) {
      const uint32_t lane_id = b_.ConstInt(32, lane);
      l.flags[lane] = LaneWord(f, FlagsWord(), lane_id);
      if (values) l.values[lane] = LaneWord(f, ValueWord(), lane_id);
      if (highs) l.highs[lane] = LaneWord(f, HighWord(), lane_id);
      const uint32_t a = Op2(spv::OpBitwiseAnd, u32, l.flags[lane], b_.ConstInt(32, 1));
      const uint32_t p = Op2(spv::OpBitwiseAnd, u32,
                             Op2(spv::OpShiftRightLogical, u32, l.flags[lane], b_.ConstInt(32, 1)),
                             b_.ConstInt(32, 1));
      l.active =
          Op2(spv::OpBitwiseOr, u32, l.active, Op2(spv::OpShiftLeftLogical, u32, a, lane_id));
      l.pred = Op2(spv::OpBitwiseOr, u32, l.pred, Op2(spv::OpShiftLeftLogical, u32, p, lane_id));
    }
    return l;
  }
  // The optional membermask operand (absent in the pre-.sync forms).
  absl::StatusOr<uint32_t> MemberMask(const Instruction& inst, size_t index) {
    if (inst.operands.size() <= index) return b_.ConstInt(32, 0xffffffffu);
    return Read(inst.operands[index], Type::kB32, inst.line);
  }

  // shfl[.sync].{up,down,bfly,idx}.b32 d[|p], a, b, c[, membermask], with
  // the ISA's lane arithmetic: c holds the clamp (bits 0-4) and the segment
  // mask (bits 8-12); an out-of-range source lane gives the thread its own
  // value and a false predicate.
  absl::Status EmitShfl(const Instruction& inst) {
    const size_t want = inst.HasModifier("sync") ? 5 : 4;
    if (inst.operands.size() != want) return SyntaxError(inst.line, "shfl operand count");
    std::string mode;
    for (const char* m : {"up", "down", "bfly", "idx"}) {
      if (inst.HasModifier(m)) mode = m;
    }
    if (mode.empty() || inst.type() != Type::kB32)
      return Unsupported(inst.line, "shfl form (shfl.sync.{up,down,bfly,idx}.b32)");
    const uint32_t u32 = b_.Int(32), bool_t = b_.Bool();
    auto a = Read(inst.operands[1], Type::kB32, inst.line);
    if (!a.ok()) return a.status();
    std::vector<std::pair<int, uint32_t>> words{{ValueWord(), *a}};
    if (ctx_.warp_flags) words.push_back({FlagsWord(), b_.ConstInt(32, 1)});
    const uint32_t base = WarpExchange(words);
    auto own = Read(inst.operands[1], Type::kB32, inst.line);
    auto bv = Read(inst.operands[2], Type::kB32, inst.line);
    auto cv = Read(inst.operands[3], Type::kB32, inst.line);
    if (!own.ok()) return own.status();
    if (!bv.ok()) return bv.status();
    if (!cv.ok()) return cv.status();
    const uint32_t lane = LaneId();
    const uint32_t b = Op2(spv::OpBitwiseAnd, u32, *bv, b_.ConstInt(32, 31));
    const uint32_t clamp = Op2(spv::OpBitwiseAnd, u32, *cv, b_.ConstInt(32, 31));
    const uint32_t seg =
        Op2(spv::OpBitwiseAnd, u32, Op2(spv::OpShiftRightLogical, u32, *cv, b_.ConstInt(32, 8)),
            b_.ConstInt(32, 31));
    const uint32_t not_seg = Op1(spv::OpNot, u32, seg);
    const uint32_t min_lane = Op2(spv::OpBitwiseAnd, u32, lane, seg);
    const uint32_t max_lane =
        Op2(spv::OpBitwiseOr, u32, min_lane, Op2(spv::OpBitwiseAnd, u32, clamp, not_seg));
    uint32_t j = 0, in_range = 0;
    if (mode == "up") {
      j = Op2(spv::OpISub, u32, lane, b);
      in_range = Op2(spv::OpSGreaterThanEqual, bool_t, j, max_lane);
    } else {
      if (mode == "down") j = Op2(spv::OpIAdd, u32, lane, b);
      if (mode == "bfly") j = Op2(spv::OpBitwiseXor, u32, lane, b);
      if (mode == "idx")
        j = Op2(spv::OpBitwiseOr, u32, min_lane, Op2(spv::OpBitwiseAnd, u32, b, not_seg));
      in_range = Op2(spv::OpULessThanEqual, bool_t, j, max_lane);
    }
    const uint32_t src = Select(u32, in_range, j, lane);
    const uint32_t value = Select(u32, in_range, LaneWord(WarpFrame(base), ValueWord(), src), *own);
    Operand d = inst.operands[0];
    d.pair.clear();
    SH_PTX_RETURN_IF_ERROR(Write(d, value, Type::kB32, inst.line));
    if (!inst.operands[0].pair.empty()) {
      SH_PTX_RETURN_IF_ERROR(Write(Operand{Operand::Kind::kRegister, inst.operands[0].pair},
                                   in_range, Type::kPred, inst.line));
    }
    return absl::OkStatus();
  }

  // vote[.sync].{all,any,uni}.pred d, {!}a[, membermask] and
  // vote[.sync].ballot.b32 d, {!}a[, membermask], over the lanes that run
  // this instruction with it (the active ones) and are in membermask.
  absl::Status EmitVote(const Instruction& inst) {
    const size_t want = inst.HasModifier("sync") ? 3 : 2;
    if (inst.operands.size() != want) return SyntaxError(inst.line, "vote operand count");
    const uint32_t u32 = b_.Int(32), bool_t = b_.Bool();
    auto a = Read(inst.operands[1], Type::kPred, inst.line);
    if (!a.ok()) return a.status();
    const uint32_t flags = Select(u32, *a, b_.ConstInt(32, 3), b_.ConstInt(32, 1));
    const uint32_t base = WarpExchange({{FlagsWord(), flags}});
    auto member = MemberMask(inst, 2);
    if (!member.ok()) return member.status();
    const Lanes l = ReadLanes(base, false, false);
    const uint32_t active = Op2(spv::OpBitwiseAnd, u32, l.active, *member);
    const uint32_t yes = Op2(spv::OpBitwiseAnd, u32, l.pred, active);
    const uint32_t zero = b_.ConstInt(32, 0);
    if (inst.HasModifier("ballot")) return Write(inst.operands[0], yes, Type::kB32, inst.line);
    uint32_t d = 0;
    if (inst.HasModifier("any")) {
      d = Op2(spv::OpINotEqual, bool_t, yes, zero);
    } else if (inst.HasModifier("all")) {
      d = Op2(spv::OpIEqual, bool_t, yes, active);
    } else if (inst.HasModifier("uni")) {
      d = Op2(spv::OpLogicalOr, bool_t, Op2(spv::OpIEqual, bool_t, yes, zero),
              Op2(spv::OpIEqual, bool_t, yes, active));
    } else {
      return Unsupported(inst.line, "vote mode");
    }
    return Write(inst.operands[0], d, Type::kPred, inst.line);
  }

  // activemask.b32 d: the lanes running this instruction together.
  absl::Status EmitActiveMask(const Instruction& inst) {
    if (inst.operands.size() != 1) return SyntaxError(inst.line, "activemask takes one operand");
    const uint32_t base = WarpExchange({{FlagsWord(), b_.ConstInt(32, 1)}});
    return Write(inst.operands[0], ReadLanes(base, false, false).active, Type::kB32, inst.line);
  }

  // match.any.sync.{b32,b64} d, a, membermask and match.all.sync d[|p], a,
  // membermask.
  absl::Status EmitMatch(const Instruction& inst) {
    if (inst.operands.size() != 3 || !inst.HasModifier("sync"))
      return SyntaxError(inst.line, "match.sync takes three operands");
    const Type type = inst.type();
    if (type != Type::kB32 && type != Type::kB64) return Unsupported(inst.line, "match type");
    const bool wide = type == Type::kB64;
    const uint32_t u32 = b_.Int(32), u64 = b_.Int(64), bool_t = b_.Bool();
    auto split = [&]() -> absl::StatusOr<std::pair<uint32_t, uint32_t>> {
      auto a = Read(inst.operands[1], type, inst.line);
      if (!a.ok()) return a.status();
      if (!wide) return std::make_pair(*a, 0u);
      return std::make_pair(
          Op1(spv::OpUConvert, u32, *a),
          Op1(spv::OpUConvert, u32, Op2(spv::OpShiftRightLogical, u64, *a, b_.ConstInt(64, 32))));
    };
    auto a = split();
    if (!a.ok()) return a.status();
    std::vector<std::pair<int, uint32_t>> words{{FlagsWord(), b_.ConstInt(32, 1)},
                                                {ValueWord(), a->first}};
    if (wide) words.push_back({HighWord(), a->second});
    const uint32_t base = WarpExchange(words);
    auto mine = split();
    if (!mine.ok()) return mine.status();
    auto member = MemberMask(inst, 2);
    if (!member.ok()) return member.status();
    const Lanes l = ReadLanes(base, true, wide);
    uint32_t same = b_.ConstInt(32, 0);
    for (uint32_t lane = 0; lane < 32; ++lane) {
      uint32_t eq = Op2(spv::OpIEqual, bool_t, l.values[lane], mine->first);
      if (wide)
        eq = Op2(spv::OpLogicalAnd, bool_t, eq,
                 Op2(spv::OpIEqual, bool_t, l.highs[lane], mine->second));
      same = Op2(spv::OpBitwiseOr, u32, same,
                 Select(u32, eq, b_.ConstInt(32, 1u << lane), b_.ConstInt(32, 0)));
    }
    const uint32_t active = Op2(spv::OpBitwiseAnd, u32, l.active, *member);
    same = Op2(spv::OpBitwiseAnd, u32, same, active);
    Operand d = inst.operands[0];
    d.pair.clear();
    if (inst.HasModifier("any")) return Write(d, same, Type::kB32, inst.line);
    if (!inst.HasModifier("all")) return Unsupported(inst.line, "match mode");
    const uint32_t all = Op2(spv::OpIEqual, bool_t, same, active);
    SH_PTX_RETURN_IF_ERROR(
        Write(d, Select(u32, all, active, b_.ConstInt(32, 0)), Type::kB32, inst.line));
    if (!inst.operands[0].pair.empty()) {
      SH_PTX_RETURN_IF_ERROR(Write(Operand{Operand::Kind::kRegister, inst.operands[0].pair}, all,
                                   Type::kPred, inst.line));
    }
    return absl::OkStatus();
  }

  // redux.sync.{add,min,max}.{u32,s32} and .{and,or,xor}.b32 d, a,
  // membermask over the active lanes in membermask.
  absl::Status EmitRedux(const Instruction& inst) {
    if (inst.operands.size() != 3 || !inst.HasModifier("sync"))
      return SyntaxError(inst.line, "redux.sync takes three operands");
    const Type type = inst.type();
    spv::Op op = spv::OpNop;
    uint32_t ext = 0;
    uint32_t identity = 0;
    const bool sg = type == Type::kS32;
    if (inst.HasModifier("add")) op = spv::OpIAdd;
    if (inst.HasModifier("or")) op = spv::OpBitwiseOr;
    if (inst.HasModifier("xor")) op = spv::OpBitwiseXor;
    if (inst.HasModifier("and")) {
      op = spv::OpBitwiseAnd;
      identity = ~0u;
    }
    if (inst.HasModifier("min")) {
      ext = sg ? GLSLstd450SMin : GLSLstd450UMin;
      identity = sg ? 0x7fffffffu : ~0u;
    }
    if (inst.HasModifier("max")) {
      ext = sg ? GLSLstd450SMax : GLSLstd450UMax;
      identity = sg ? 0x80000000u : 0;
    }
    if ((op == spv::OpNop && ext == 0) || TypeBits(type) != 32 || IsFloat(type))
      return Unsupported(inst.line, "redux form (32-bit integer add/min/max/and/or/xor)");
    const uint32_t u32 = b_.Int(32);
    auto a = Read(inst.operands[1], Type::kB32, inst.line);
    if (!a.ok()) return a.status();
    const uint32_t base = WarpExchange({{FlagsWord(), b_.ConstInt(32, 1)}, {ValueWord(), *a}});
    auto member = MemberMask(inst, 2);
    if (!member.ok()) return member.status();
    const Lanes l = ReadLanes(base, true, false);
    const uint32_t active = Op2(spv::OpBitwiseAnd, u32, l.active, *member);
    uint32_t acc = b_.ConstInt(32, identity);
    for (uint32_t lane = 0; lane < 32; ++lane) {
      const uint32_t in =
          Op2(spv::OpINotEqual, b_.Bool(),
              Op2(spv::OpBitwiseAnd, u32, active, b_.ConstInt(32, 1u << lane)), b_.ConstInt(32, 0));
      const uint32_t v = Select(u32, in, l.values[lane], b_.ConstInt(32, identity));
      acc = ext ? Ext(u32, ext, {acc, v}) : Op2(op, u32, acc, v);
    }
    return Write(inst.operands[0], acc, type, inst.line);
  }

  // bar.warp.sync membermask (__syncwarp): the lanes of a warp may sit in
  // different subgroups, so a workgroup barrier at the region level orders
  // their memory accesses; nothing is exchanged.
  absl::Status EmitWarpBarrier(const Instruction& inst) {
    if (inst.operands.size() != 1) return SyntaxError(inst.line, "bar.warp.sync takes a mask");
    CloseGuard();
    WorkgroupBarrier();
    ReopenGuard();
    return absl::OkStatus();
  }

  // A uniform loop's continue condition: whether any thread of the block
  // still names the header. Three flag words in rotation: at each check the
  // threads clear the next one (its last readers finished before the
  // previous barrier), mark the current one, and read it after a barrier.
  uint32_t WorkgroupAny(uint32_t cond) {
    const uint32_t u32 = b_.Int(32);
    const uint32_t scope = b_.ConstInt(32, spv::ScopeWorkgroup), relaxed = b_.ConstInt(32, 0);
    const uint32_t q = Op1(spv::OpLoad, u32, loop_phase_var_);
    const uint32_t next = Select(u32, Op2(spv::OpIEqual, b_.Bool(), q, b_.ConstInt(32, 2)),
                                 b_.ConstInt(32, 0), Op2(spv::OpIAdd, u32, q, b_.ConstInt(32, 1)));
    Emit(code_, spv::OpAtomicStore, {WarpWordPtr(next), scope, relaxed, b_.ConstInt(32, 0)});
    Emit(code_, spv::OpAtomicOr,
         {u32, b_.NewId(), WarpWordPtr(q), scope, relaxed,
          Select(u32, cond, b_.ConstInt(32, 1), b_.ConstInt(32, 0))});
    WorkgroupBarrier();
    const uint32_t seen = b_.NewId();
    Emit(code_, spv::OpAtomicLoad, {u32, seen, WarpWordPtr(q), scope, relaxed});
    Emit(code_, spv::OpStore, {loop_phase_var_, next});
    return Op2(spv::OpINotEqual, b_.Bool(), seen, b_.ConstInt(32, 0));
  }

  absl::Status EmitInstruction(const Instruction& inst) {
    const std::string& op = inst.opcode;
    if (op == "ld" || op == "st") return EmitLoadStore(inst);
    if (op == "tex") return EmitTex(inst);
    if (op == "call") return EmitCall(inst);
    if (op == "atom" || op == "red") return EmitAtomic(inst);
    if (op == "setp" || op == "set") return EmitSetp(inst);
    if (op == "cvt") return EmitCvt(inst);
    if (op == "mov") {
      if (inst.operands.size() != 2) return SyntaxError(inst.line, "mov takes two operands");
      const Type type = inst.type();
      if (inst.operands[0].kind == Operand::Kind::kVector ||
          inst.operands[1].kind == Operand::Kind::kVector) {
        return EmitPackMove(inst);
      }
      auto v = Read(inst.operands[1], type, inst.line);
      if (!v.ok()) return v.status();
      return Write(inst.operands[0], *v, type, inst.line);
    }
    if (op == "selp") {
      if (inst.operands.size() != 4) return SyntaxError(inst.line, "selp takes four operands");
      const Type type = inst.type();
      auto a = Read(inst.operands[1], type, inst.line);
      auto c = Read(inst.operands[2], type, inst.line);
      auto p = Read(inst.operands[3], Type::kPred, inst.line);
      if (!a.ok()) return a.status();
      if (!c.ok()) return c.status();
      if (!p.ok()) return p.status();
      const uint32_t id = b_.NewId();
      Emit(code_, spv::OpSelect, {SpvType(type), id, *p, *a, *c});
      return Write(inst.operands[0], id, type, inst.line);
    }
    if (op == "cvta") {
      // Generic addresses equal global ones; shared addresses become generic
      // in the shared window (EmitGeneric).
      if (inst.space != Space::kGlobal && inst.space != Space::kShared)
        return Unsupported(inst.line, "cvta outside .global and .shared");
      if (inst.operands.size() != 2) return SyntaxError(inst.line, "cvta takes two operands");
      auto v = Read(inst.operands[1], Type::kU64, inst.line);
      if (!v.ok()) return v.status();
      uint32_t result = *v;
      if (inst.space == Space::kShared) {
        result = Op2(inst.HasModifier("to") ? spv::OpISub : spv::OpIAdd, b_.Int(64), *v,
                     b_.ConstInt(64, kSharedWindow));
      }
      return Write(inst.operands[0], result, Type::kU64, inst.line);
    }
    if (op == "shfl") return EmitShfl(inst);
    if (op == "vote") return EmitVote(inst);
    if (op == "activemask") return EmitActiveMask(inst);
    if (op == "match") return EmitMatch(inst);
    if (op == "redux") return EmitRedux(inst);
    if (op == "bar" && inst.HasModifier("warp")) return EmitWarpBarrier(inst);
    if (op == "bar" || op == "barrier") {
      if (!(inst.HasModifier("sync") || op == "barrier") || inst.operands.size() != 1 ||
          inst.operands[0].kind != Operand::Kind::kInt || inst.operands[0].int_value != 0) {
        return Unsupported(inst.line, "barrier form (only bar.sync 0)");
      }
      // CUDA: __syncthreads orders shared and global accesses of the block.
      Emit(code_, spv::OpControlBarrier,
           {b_.ConstInt(32, spv::ScopeWorkgroup), b_.ConstInt(32, spv::ScopeWorkgroup),
            b_.ConstInt(32, spv::MemorySemanticsAcquireReleaseMask |
                                spv::MemorySemanticsUniformMemoryMask |
                                spv::MemorySemanticsWorkgroupMemoryMask)});
      return absl::OkStatus();
    }
    if (op == "membar" || op == "fence") {
      const uint32_t scope = inst.HasModifier("cta") ? spv::ScopeWorkgroup : spv::ScopeDevice;
      Emit(code_, spv::OpMemoryBarrier,
           {b_.ConstInt(32, scope), b_.ConstInt(32, spv::MemorySemanticsAcquireReleaseMask |
                                                        spv::MemorySemanticsUniformMemoryMask |
                                                        spv::MemorySemanticsWorkgroupMemoryMask)});
      return absl::OkStatus();
    }
    return EmitArithmetic(inst);
  }

  ModuleBuilder& b_;
  const Function& f_;
  KernelContext& ctx_;
  const FunctionMap& functions_;
  Words vars_, prologue_, code_;
  std::map<std::string, std::pair<uint32_t, Type>> reg_vars_;

  std::map<std::string, ParamBuffer> param_buffers_;
  std::vector<uint32_t> param_ids_;  // a .func's OpFunctionParameters
  std::map<std::string, uint32_t> shared_offsets_;
  std::map<std::string, uint32_t> local_offsets_;
  uint32_t local_var_ = 0;
  uint32_t shared_var_ = 0;
  uint32_t param_var_ = 0;
  std::vector<uint32_t> param_types_;
  uint32_t block_var_ = 0;
  bool generic_shared_ = false;  // KernelContext::generic_shared
  // The guard ("block_var_ names guard_block_") open around the block being
  // emitted and its merge label; -1 where the block runs unguarded.
  int guard_block_ = -1;
  uint32_t guard_merge_ = 0;
  std::vector<bool> uniform_region_;    // loops made uniform for warp instructions
  uint32_t warp_phase_var_ = 0;         // which half of the warp scratch is next
  uint32_t loop_phase_var_ = 0;         // which flag word WorkgroupAny uses next
  std::array<uint32_t, 3> warp_tmp_{};  // a record's words, carried out of the guard
};

// Module-scope .global and .const variables become the members of the
// streamhal_globals storage buffer (docs/kernel-abi.md, "Module-scope data"),
// so cuModuleGetGlobal finds them by name. Each member is an array of words;
// UserSemantic strings ask core to write an initialiser into a member and
// the buffer's own device address into member 0, since PTX takes variable
// addresses (mov.u64 %rd, var) and SPIR-V cannot take a buffer's address.
absl::Status DeclareGlobals(ModuleBuilder& b, const Module& module) {
  const uint32_t u32 = b.Int(32), u64 = b.Int(64);
  Words members{0, u64};
  std::vector<uint32_t> offsets{0};
  std::vector<std::string> names{"__streamhal_globals_address"};
  std::vector<const Variable*> vars{nullptr};
  uint64_t offset = 8;
  for (const Variable& v : module.variables) {
    if (v.space != Space::kGlobal && v.space != Space::kConst) continue;
    if (v.is_extern || v.count <= 0) return Unsupported(v.line, "extern or unsized .global/.const");
    if (b.global_offsets.count(v.name))
      return SyntaxError(v.line, absl::StrCat(v.name, " declared twice"));
    const uint64_t align = std::max<uint64_t>(4, static_cast<uint64_t>(v.align));
    if (align > 256 || (align & (align - 1)) != 0)
      return SyntaxError(v.line, "bad variable alignment");
    offset = (offset + align - 1) / align * align;
    const uint64_t bytes = static_cast<uint64_t>(v.count) * (TypeBits(v.type) / 8);
    if (bytes > (64u << 20) || offset + bytes > (64u << 20))
      return Unsupported(v.line, "module variables over 64 MiB");
    if (v.init.size() > (60u << 10)) return Unsupported(v.line, "initialisers over 60 KiB");
    b.global_offsets[v.name] = static_cast<uint32_t>(offset);
    members.push_back(b.Array(u32, b.ConstInt(32, static_cast<uint32_t>((bytes + 3) / 4)), 4));
    offsets.push_back(static_cast<uint32_t>(offset));
    names.push_back(v.name);
    vars.push_back(&v);
    offset += bytes;
  }
  if (vars.size() == 1) return absl::OkStatus();
  const uint32_t block = b.NewId();
  members[0] = block;
  EmitV(b.types(), spv::OpTypeStruct, members);
  b.Name(block, "streamhal_globals");
  Emit(b.annotations(), spv::OpDecorate, {block, spv::DecorationBlock});
  for (uint32_t i = 0; i < offsets.size(); ++i) {
    b.MemberName(block, i, names[i]);
    Emit(b.annotations(), spv::OpMemberDecorate, {block, i, spv::DecorationOffset, offsets[i]});
    std::string semantic;
    if (i == 0) {
      semantic = "streamhal.address";
    } else if (!vars[i]->init.empty()) {
      semantic = "streamhal.init:";
      static const char kHex[] = "0123456789abcdef";
      for (uint8_t byte : vars[i]->init) {
        semantic.push_back(kHex[byte >> 4]);
        semantic.push_back(kHex[byte & 15]);
      }
    }
    if (semantic.empty()) continue;
    Words w{block, i, spv::DecorationUserSemantic};
    AppendString(w, semantic);
    EmitV(b.annotations(), spv::OpMemberDecorateString, w);
  }
  b.globals_var = b.NewId();
  Emit(b.types(), spv::OpVariable,
       {b.Ptr(spv::StorageClassStorageBuffer, block), b.globals_var,
        spv::StorageClassStorageBuffer});
  Emit(b.annotations(), spv::OpDecorate, {b.globals_var, spv::DecorationDescriptorSet, 0});
  Emit(b.annotations(), spv::OpDecorate, {b.globals_var, spv::DecorationBinding, 0});
  return absl::OkStatus();
}

// Lays out the shared memory of a kernel and the functions it calls
// (`functions`, the kernel first) in one Workgroup word array: static
// variables at byte offsets (the module's, then each function's own, such as
// nvcc's "demoted" __shared__ of a device function), then the extern
// (dynamic) arrays, all at one 16-byte aligned offset as CUDA aliases them.
absl::Status LayOutShared(ModuleBuilder& b, const Module& module,
                          const std::vector<const Function*>& functions, KernelContext& ctx) {
  uint32_t offset = 0;
  std::map<std::string, uint32_t> module_offsets;
  std::map<const Function*, std::map<std::string, uint32_t>> own;
  std::vector<std::map<std::string, uint32_t>*> dynamic_maps;
  std::vector<std::string> dynamic_names;
  auto place = [&](const Variable& v, std::map<std::string, uint32_t>& offsets,
                   bool in_function) -> absl::Status {
    if (v.space == Space::kGlobal || v.space == Space::kConst || v.space == Space::kParam)
      return absl::OkStatus();
    if (v.space == Space::kLocal) {
      if (!in_function) return Unsupported(v.line, "module-scope .local variable");
      return absl::OkStatus();
    }
    if (v.space != Space::kShared) return Unsupported(v.line, "variable state space");
    if (v.is_extern) {
      dynamic_maps.push_back(&offsets);
      dynamic_names.push_back(v.name);
      return absl::OkStatus();
    }
    const uint32_t align = std::max<uint32_t>(4, static_cast<uint32_t>(v.align));
    offset = (offset + align - 1) / align * align;
    offsets[v.name] = offset;
    const uint64_t bytes = static_cast<uint64_t>(v.count) * (TypeBits(v.type) / 8);
    if (bytes > (1u << 20) || offset + bytes > (1u << 20))
      return SyntaxError(v.line, "shared variable too large");
    offset += static_cast<uint32_t>(bytes);
    return absl::OkStatus();
  };
  for (const Variable& v : module.variables)
    SH_PTX_RETURN_IF_ERROR(place(v, module_offsets, false));
  for (const Function* f : functions) {
    for (const Variable& v : f->variables) SH_PTX_RETURN_IF_ERROR(place(v, own[f], true));
  }
  offset = (offset + 15) / 16 * 16;
  for (size_t i = 0; i < dynamic_maps.size(); ++i) (*dynamic_maps[i])[dynamic_names[i]] = offset;
  for (const Function* f : functions) {
    std::map<std::string, uint32_t>& offsets = ctx.shared_offsets[f];
    offsets = module_offsets;
    for (const auto& [name, at] : own[f]) offsets[name] = at;
  }
  if (offset == 0 && dynamic_maps.empty()) return absl::OkStatus();
  const uint32_t u32 = b.Int(32);
  uint32_t length = 0;
  if (!dynamic_maps.empty()) {
    // words = static words + SpecId 3 / 4 (the launch's dynamic bytes).
    const uint32_t dyn_words = b.NewId();
    Emit(b.types(), spv::OpSpecConstantOp,
         {u32, dyn_words, spv::OpUDiv, b.SpecU32(3, 16), b.ConstInt(32, 4)});
    length = b.NewId();
    Emit(b.types(), spv::OpSpecConstantOp,
         {u32, length, spv::OpIAdd, dyn_words, b.ConstInt(32, offset / 4)});
  } else {
    length = b.ConstInt(32, offset / 4);
  }
  const uint32_t array = b.Array(u32, length, 0);
  ctx.shared_var = b.NewId();
  Emit(b.types(), spv::OpVariable,
       {b.Ptr(spv::StorageClassWorkgroup, array), ctx.shared_var, spv::StorageClassWorkgroup});
  b.Name(ctx.shared_var, functions[0]->name + "_shared");
  ctx.interface.push_back(ctx.shared_var);
  return absl::OkStatus();
}

// The warp scratch of a kernel with warp instructions (KernelContext): its
// length is a spec-constant expression of the block size, so it costs
// nothing to kernels without them and 4 to 12 bytes per thread and phase to
// those with them. Warp instructions in a `.func` fail the load: the call
// sits inside its caller's guard, where a workgroup barrier is not in
// uniform control flow.
absl::Status DeclareWarpScratch(ModuleBuilder& b, const Function& kernel,
                                const std::vector<const Function*>& callees, KernelContext& ctx) {
  bool any = false, flags = false, wide = false;
  for (const Function* f : callees) {
    for (const Block& block : f->blocks) {
      for (const Instruction& inst : block.body) {
        if (IsWarpInstruction(inst)) {
          return Unsupported(inst.line,
                             absl::StrCat(inst.opcode, " in a .func (", f->name,
                                          "): warp instructions are translated in kernels only"));
        }
      }
    }
  }
  for (const Block& block : kernel.blocks) {
    for (const Instruction& inst : block.body) {
      if (!IsWarpInstruction(inst)) continue;
      any = true;
      const std::string& op = inst.opcode;
      if (op == "vote" || op == "activemask" || op == "match" || op == "redux") flags = true;
      if (op == "match" && inst.type() == Type::kB64) wide = true;
    }
  }
  if (!any) return absl::OkStatus();
  ctx.warp_flags = flags;
  ctx.warp_words = (flags ? 1 : 0) + 1 + (wide ? 1 : 0);
  const uint32_t u32 = b.Int(32);
  auto spec_op = [&](spv::Op op, uint32_t x, uint32_t y) {
    const uint32_t id = b.NewId();
    Emit(b.types(), spv::OpSpecConstantOp, {u32, id, static_cast<uint32_t>(op), x, y});
    return id;
  };
  b.WorkgroupSize();
  const uint32_t threads =
      spec_op(spv::OpIMul, b.SpecU32(0, 1), spec_op(spv::OpIMul, b.SpecU32(1, 1), b.SpecU32(2, 1)));
  const uint32_t records =
      spec_op(spv::OpIMul, threads, b.ConstInt(32, 2 * static_cast<uint32_t>(ctx.warp_words)));
  const uint32_t length = spec_op(spv::OpIAdd, records, b.ConstInt(32, kWarpFlagWords));
  ctx.warp_var = b.NewId();
  Emit(b.types(), spv::OpVariable,
       {b.Ptr(spv::StorageClassWorkgroup, b.Array(u32, length, 0)), ctx.warp_var,
        spv::StorageClassWorkgroup});
  b.Name(ctx.warp_var, kernel.name + "_warp");
  ctx.interface.push_back(ctx.warp_var);
  return absl::OkStatus();
}

// Emits `kernel` as an entry point and, specialised for it, each function of
// `callees` (every .func the kernel reaches).
absl::Status EmitKernel(ModuleBuilder& b, const Module& module, const Function& kernel,
                        const std::vector<const Function*>& callees, const FunctionMap& functions) {
  KernelContext ctx;
  std::vector<const Function*> all{&kernel};
  all.insert(all.end(), callees.begin(), callees.end());
  SH_PTX_RETURN_IF_ERROR(LayOutShared(b, module, all, ctx));
  for (const Function* f : all) {
    for (const Block& block : f->blocks) {
      for (const Instruction& inst : block.body) {
        if (inst.opcode != "cvta" || inst.space != Space::kShared || inst.HasModifier("to"))
          continue;
        if (ctx.shared_var == 0)
          return Unsupported(inst.line, "cvta.shared in a kernel without shared memory");
        ctx.generic_shared = true;
      }
    }
  }
  SH_PTX_RETURN_IF_ERROR(DeclareWarpScratch(b, kernel, callees, ctx));
  for (const Function* f : callees) ctx.function_ids[f->name] = b.NewId();
  const uint32_t fn = b.NewId();
  SH_PTX_RETURN_IF_ERROR(FunctionEmitter(b, kernel, ctx, functions).Run(fn));
  for (const Function* f : callees) {
    SH_PTX_RETURN_IF_ERROR(FunctionEmitter(b, *f, ctx, functions).Run(ctx.function_ids[f->name]));
  }
  // Entry point with every global variable it uses (SPIR-V 1.4+).
  Words ep{spv::ExecutionModelGLCompute, fn};
  AppendString(ep, kernel.name);
  for (uint32_t v : ctx.interface) ep.push_back(v);
  EmitV(b.entry_points(), spv::OpEntryPoint, ep);
  Emit(b.modes(), spv::OpExecutionMode, {fn, spv::ExecutionModeLocalSize, 1, 1, 1});
  b.WorkgroupSize();
  return absl::OkStatus();
}

// Each function's calls: (callee, line), in order. Fails for a call of a
// function the module does not define.
absl::StatusOr<std::map<const Function*, std::vector<std::pair<const Function*, int>>>> CallGraph(
    const Module& module, const FunctionMap& functions) {
  std::map<const Function*, std::vector<std::pair<const Function*, int>>> calls;
  for (const Function& f : module.functions) {
    if (f.is_declaration) continue;
    std::vector<std::pair<const Function*, int>>& out = calls[&f];
    for (const Block& block : f.blocks) {
      for (const Instruction& inst : block.body) {
        if (inst.opcode != "call") continue;
        const std::string& name = inst.operands[1].name;
        auto it = functions.find(name);
        if (it != functions.end()) {
          out.emplace_back(it->second, inst.line);
          continue;
        }
        const bool declared =
            std::any_of(module.functions.begin(), module.functions.end(),
                        [&](const Function& g) { return g.is_declaration && g.name == name; });
        return SyntaxError(
            inst.line,
            declared ? absl::StrCat("call of ", name,
                                    ", declared .extern but defined in no module linked with it")
                     : absl::StrCat("call of undeclared function ", name));
      }
    }
  }
  return calls;
}

}  // namespace

absl::StatusOr<std::vector<uint32_t>> EmitSpirv(const Module& module) {
  ModuleBuilder builder;
  const TextureHandles texture_handles(module);
  builder.texture_handles = &texture_handles;
  for (size_t k = 0; k < module.texrefs.size(); ++k) {
    builder.texref_bindings[module.texrefs[k]] = kTextureRefBinding + static_cast<uint32_t>(k);
  }
  SH_PTX_RETURN_IF_ERROR(DeclareGlobals(builder, module));
  FunctionMap functions;
  std::set<std::string> kernels;
  for (const Function& f : module.functions) {
    if (f.is_declaration) continue;
    if (f.is_entry ? !kernels.insert(f.name).second : !functions.emplace(f.name, &f).second)
      return SyntaxError(f.line, absl::StrCat(f.name, " defined twice"));
  }
  if (kernels.empty()) return SyntaxError(1, "the module has no .entry kernels");
  auto calls = CallGraph(module, functions);
  if (!calls.ok()) return calls.status();
  // Vulkan has no recursion (and no stack): a cycle in the call graph fails,
  // naming the call that closes it.
  std::map<const Function*, int> state;  // 1 on the current path, 2 done
  std::function<absl::Status(const Function*)> visit = [&](const Function* f) -> absl::Status {
    state[f] = 1;
    for (const auto& [callee, line] : (*calls)[f]) {
      if (state[callee] == 1) {
        return Unsupported(line, absl::StrCat("recursion: ", f->name, " calls ", callee->name,
                                              ", which is already on the call chain"));
      }
      if (state[callee] == 0) SH_PTX_RETURN_IF_ERROR(visit(callee));
    }
    state[f] = 2;
    return absl::OkStatus();
  };
  for (const Function& f : module.functions) {
    if (!f.is_declaration && state[&f] == 0) SH_PTX_RETURN_IF_ERROR(visit(&f));
  }
  for (const Function& f : module.functions) {
    if (!f.is_entry) continue;
    // The functions the kernel reaches, each once.
    std::vector<const Function*> callees;
    std::set<const Function*> seen{&f};
    for (size_t i = 0; i <= callees.size(); ++i) {
      const Function* from = i == 0 ? &f : callees[i - 1];
      for (const auto& call : (*calls)[from]) {
        if (seen.insert(call.first).second) callees.push_back(call.first);
      }
    }
    SH_PTX_RETURN_IF_ERROR(EmitKernel(builder, module, f, callees, functions));
  }
  return builder.Finish();
}

}  // namespace streamhal::ptx
