#include "embed.h"

#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/spirv_reflect.h"
#include "core/status.h"

namespace streamhal::pack {
namespace {

// A C++ identifier made of `name` (kernel and global names are already
// identifiers when they come from GLSL).
bool IsIdentifier(const std::string& name) {
  if (name.empty() || absl::ascii_isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

std::string ScalarType(const ParamInfo& param) {
  if (param.is_float) {
    if (param.scalar_bits == 32) return "float";
    if (param.scalar_bits == 64) return "double";
    return "";
  }
  if (param.scalar_bits == 64 && !param.is_signed) {
    // The ABI passes device addresses as uint64_t as well: take both.
    return "streamhal_u64_param";
  }
  switch (param.scalar_bits) {
    case 8:
      return param.is_signed ? "int8_t" : "uint8_t";
    case 16:
      return param.is_signed ? "int16_t" : "uint16_t";
    case 32:
      return param.is_signed ? "int32_t" : "uint32_t";
    case 64:
      return "int64_t";
    default:
      return "";
  }
}

// HIP's vector types for 32-bit and double components.
std::string VectorType(const ParamInfo& param) {
  if (param.components < 2 || param.components > 4) return "";
  const std::string n = absl::StrCat(param.components);
  if (param.is_float && param.scalar_bits == 32) return "float" + n;
  if (param.is_float && param.scalar_bits == 64) return "double" + n;
  if (!param.is_float && param.scalar_bits == 32) return (param.is_signed ? "int" : "uint") + n;
  return "";
}

// The host type of one parameter: what hipLaunchKernelGGL converts the
// argument to. Types without a C++ counterpart (structs, arrays, matrices,
// half floats) are opaque byte blocks of the parameter's extent.
std::string HostType(const KernelInfo& kernel, size_t index, std::string& opaque_decls) {
  const ParamInfo& param = kernel.params[index];
  std::string type;
  switch (param.kind) {
    case ParamKind::kPointer:
      type = "const void*";
      break;
    case ParamKind::kScalar:
      type = ScalarType(param);
      break;
    case ParamKind::kVector:
      type = VectorType(param);
      break;
    default:
      break;
  }
  if (!type.empty()) return type;
  type = absl::StrCat(kernel.name, "_param", index, "_t");
  absl::StrAppend(&opaque_decls, "struct ", type, " {\n  unsigned char bytes[", param.size,
                  "];\n};\n");
  return type;
}

std::string FileName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string GuardOf(const std::string& path) {
  std::string guard = "STREAMHAL_EMBED_";
  for (char c : FileName(path)) {
    guard += absl::ascii_isalnum(static_cast<unsigned char>(c))
                 ? absl::ascii_toupper(static_cast<unsigned char>(c))
                 : '_';
  }
  return guard + "_";
}

}  // namespace

absl::StatusOr<EmbedFiles> EmbedSources(const std::vector<uint8_t>& image,
                                        const std::vector<std::vector<uint32_t>>& modules,
                                        const std::string& header_path) {
  std::string opaque_decls, declarations, definitions, registrations;
  std::set<std::string> names;
  int stub = 0;
  for (const std::vector<uint32_t>& words : modules) {
    SH_ASSIGN_OR_RETURN(ModuleReflection reflection, ReflectSpirv(words));
    for (const KernelInfo& kernel : reflection.kernels) {
      if (!IsIdentifier(kernel.name) || !names.insert(kernel.name).second) {
        return Error(ErrorCode::kInvalidValue, "kernel name '", kernel.name,
                     "' is not a C++ identifier or is used twice");
      }
      std::vector<std::string> declared, defined;
      for (size_t i = 0; i < kernel.params.size(); ++i) {
        const std::string type = HostType(kernel, i, opaque_decls);
        const std::string& name = kernel.params[i].name;
        declared.push_back(IsIdentifier(name) ? absl::StrCat(type, " ", name) : type);
        defined.push_back(type);
      }
      absl::StrAppend(&declarations, "// Kernel '", kernel.name, "' (", kernel.params.size(),
                      " parameters, ", kernel.param_block_size, " bytes).\n", "void ", kernel.name,
                      "(", absl::StrJoin(declared, ", "), ");\n");
      // Distinct bodies keep the linker from folding two stubs into one
      // address; calling a stub on the host does nothing.
      absl::StrAppend(&definitions, "void ", kernel.name, "(", absl::StrJoin(defined, ", "),
                      ") { g_stub_calls = ", ++stub, "; }\n");
      absl::StrAppend(&registrations,
                      "    __hipRegisterFunction(g_modules, reinterpret_cast<const "
                      "void*>(&::",
                      kernel.name, "), const_cast<char*>(\"", kernel.name, "\"), \"", kernel.name,
                      "\", 0, nullptr, nullptr, nullptr, nullptr, "
                      "nullptr);\n");
    }
    if (reflection.globals.has_value()) {
      for (const GlobalInfo& global : reflection.globals->members) {
        if (!IsIdentifier(global.name) || !names.insert(global.name).second) continue;
        absl::StrAppend(&declarations, "// Module global '", global.name,
                        "' (hipMemcpyToSymbol, hipGetSymbolAddress, ...).\n",
                        "extern unsigned char ", global.name, "[", global.size, "];\n");
        absl::StrAppend(&definitions, "unsigned char ", global.name, "[", global.size, "];\n");
        absl::StrAppend(&registrations, "    __hipRegisterVar(g_modules, ", global.name,
                        ", const_cast<char*>(\"", global.name, "\"), const_cast<char*>(\"",
                        global.name, "\"), 0, ", global.size, ", 0, 0);\n");
      }
    }
  }

  EmbedFiles files;
  const std::string guard = GuardOf(header_path);
  files.header = absl::StrCat(
      "// Generated by streamhal-pack --embed; do not edit.\n"
      "// Host stubs of the embedded kernels: launch them with hipLaunchKernelGGL or\n"
      "// hipLaunchKernel. The image is registered when the program (or the shared\n"
      "// library holding it) is loaded.\n"
      "#ifndef ",
      guard, "\n#define ", guard, "\n\n",
      "#include <hip/hip_runtime.h>\n\n#include <cstdint>\n#include <type_traits>\n\n",
      "#ifndef STREAMHAL_U64_PARAM_DEFINED\n#define STREAMHAL_U64_PARAM_DEFINED\n"
      "// A 64-bit unsigned parameter: a number or a device address.\n"
      "struct streamhal_u64_param {\n"
      "  uint64_t value;\n"
      "  template <typename T, typename std::enable_if<std::is_integral<T>::value, int>::type = "
      "0>\n"
      "  streamhal_u64_param(T v) : value(static_cast<uint64_t>(v)) {}\n"
      "  streamhal_u64_param(const void* p) : value(reinterpret_cast<uintptr_t>(p)) {}\n"
      "};\n#endif\n\n",
      opaque_decls, opaque_decls.empty() ? "" : "\n", declarations, "\n#endif  // ", guard, "\n");

  std::string bytes;
  for (size_t i = 0; i < image.size(); ++i) {
    absl::StrAppend(&bytes, i % 16 == 0 ? "\n   " : "", " 0x", absl::Hex(image[i], absl::kZeroPad2),
                    ",");
  }
  files.source = absl::StrCat(
      "// Generated by streamhal-pack --embed; do not edit.\n"
      "#include \"",
      FileName(header_path), "\"\n\n", "namespace {\n\n", "alignas(16) const unsigned char kImage[",
      image.size(), "] = {", bytes, "\n};\n\n",
      "// HIP's fat-binary wrapper (\"HIPF\", version 1) around the image.\n"
      "struct FatBinaryWrapper {\n  uint32_t magic;\n  uint32_t version;\n"
      "  const void* binary;\n  void* unused;\n};\n"
      "const FatBinaryWrapper kWrapper = {0x48495046u, 1u, kImage, nullptr};\n\n",
      "volatile int g_stub_calls = 0;\nvoid** g_modules = nullptr;\n\n", "}  // namespace\n\n",
      definitions, "\nnamespace {\n\n",
      "// Registers the image when this object is loaded (program start-up or\n"
      "// dlopen) and unregisters it when it is unloaded (exit or dlclose).\n"
      "struct Registration {\n  Registration() {\n",
      "    g_modules = __hipRegisterFatBinary(&kWrapper);\n", registrations, "  }\n",
      "  ~Registration() { __hipUnregisterFatBinary(g_modules); }\n};\n",
      "const Registration g_registration;\n\n}  // namespace\n");
  return files;
}

}  // namespace streamhal::pack
