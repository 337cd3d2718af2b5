// streamhal-pack: packs SPIR-V modules into one self-delimiting kernel image,
// which cuModuleLoadData / hipModuleLoadData can load from memory (raw SPIR-V
// carries no length, so it can only be loaded from a file).
//
//   streamhal-pack [--format=elf|fatbin] [--embed [--header=OUT.h]] -o OUT in1.spv ...
//
//   elf     an ELF code object, one .spirv section per module (the default)
//   fatbin  a clang offload bundle holding that ELF code object under our
//           target id, plus the empty host entry clang always writes
//   --embed OUT is a C++ source file holding the image instead, which
//           registers it at start-up (__hipRegisterFatBinary) and defines one
//           typed host stub per kernel and one host variable per module
//           global; the header (default: OUT with its extension replaced by
//           .h) declares them, so a program launches the kernels with
//           hipLaunchKernelGGL and no module code (embed.cc).
//
// Exit status: 0 success, 1 an input or the output failed, 2 bad usage.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/code_object.h"
#include "embed.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;

constexpr char kUsage[] =
    "usage: streamhal-pack [--format=elf|fatbin] [--embed [--header=OUT.h]] -o OUT in1.spv ...\n"
    "\n"
    "Packs SPIR-V modules into one kernel image that cuModuleLoadData and\n"
    "hipModuleLoadData accept from memory.\n"
    "  --format=elf     ELF code object, one .spirv section per module (default)\n"
    "  --format=fatbin  clang offload bundle holding that ELF code object\n"
    "  --embed          write OUT as C++ source that embeds and registers the image,\n"
    "                   with a typed host stub per kernel for hipLaunchKernelGGL\n"
    "  --header=OUT.h   the header of --embed (default: OUT with extension .h)\n"
    "  -o OUT           the file to write\n";

enum class Format { kElf, kFatBinary };

struct Options {
  Format format = Format::kElf;
  bool embed = false;
  std::string header;
  std::string output;
  std::vector<std::string> inputs;
};

int UsageError(const std::string& message) {
  std::fprintf(stderr, "streamhal-pack: %s\n\n%s", message.c_str(), kUsage);
  return kExitUsage;
}

// Returns kExitOk with `options` filled, or an exit status to stop with.
int ParseArgs(int argc, char** argv, Options& options) {
  bool inputs_only = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (inputs_only || arg.empty() || arg[0] != '-' || arg == "-") {
      options.inputs.emplace_back(arg);
    } else if (arg == "--") {
      inputs_only = true;
    } else if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      return -1;
    } else if (arg.substr(0, 9) == "--format=") {
      const std::string_view value = arg.substr(9);
      if (value == "elf") {
        options.format = Format::kElf;
      } else if (value == "fatbin") {
        options.format = Format::kFatBinary;
      } else {
        return UsageError("unknown format '" + std::string(value) + "' (use elf or fatbin)");
      }
    } else if (arg == "--embed") {
      options.embed = true;
    } else if (arg.substr(0, 9) == "--header=") {
      options.header = arg.substr(9);
    } else if (arg == "-o" || arg == "--output") {
      if (i + 1 >= argc) return UsageError(std::string(arg) + " needs a file name");
      options.output = argv[++i];
    } else if (arg.substr(0, 9) == "--output=") {
      options.output = arg.substr(9);
    } else {
      return UsageError("unknown option '" + std::string(arg) + "'");
    }
  }
  if (options.output.empty()) return UsageError("no output file (-o OUT)");
  if (options.inputs.empty()) return UsageError("no input .spv files");
  if (!options.header.empty() && !options.embed) return UsageError("--header needs --embed");
  if (options.embed && options.header.empty()) {
    const size_t slash = options.output.find_last_of('/');
    const size_t dot = options.output.find_last_of('.');
    options.header = (dot != std::string::npos && (slash == std::string::npos || dot > slash))
                         ? options.output.substr(0, dot) + ".h"
                         : options.output + ".h";
  }
  return kExitOk;
}

bool ReadFile(const std::string& path, std::vector<uint8_t>& contents) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  bool ok = file != nullptr;
  int error = errno;
  if (ok) {
    uint8_t buffer[1 << 16];
    size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof(buffer), file)) > 0) {
      contents.insert(contents.end(), buffer, buffer + n);
    }
    ok = std::ferror(file) == 0;
    error = errno;
    std::fclose(file);
  }
  if (!ok) {
    std::fprintf(stderr, "streamhal-pack: error: cannot read '%s': %s\n", path.c_str(),
                 std::strerror(error));
    return false;
  }
  if (contents.empty()) {
    std::fprintf(stderr, "streamhal-pack: error: %s: file is empty\n", path.c_str());
    return false;
  }
  return true;
}

bool WriteFile(const std::string& path, const std::vector<uint8_t>& bytes) {
  // Write beside the target and rename, so an interrupted build never leaves a
  // truncated image that looks up to date.
  const std::string temp = path + ".tmp";
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
      std::fprintf(stderr, "streamhal-pack: error: cannot write '%s': %s\n", temp.c_str(),
                   std::strerror(errno));
      std::remove(temp.c_str());
      return false;
    }
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    std::fprintf(stderr, "streamhal-pack: error: cannot rename '%s' to '%s': %s\n", temp.c_str(),
                 path.c_str(), std::strerror(errno));
    std::remove(temp.c_str());
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  const int parsed = ParseArgs(argc, argv, options);
  if (parsed < 0) return kExitOk;  // --help
  if (parsed != kExitOk) return parsed;

  std::vector<std::vector<uint32_t>> modules;
  for (const std::string& input : options.inputs) {
    std::vector<uint8_t> contents;
    if (!ReadFile(input, contents)) return kExitFailed;
    // Only SPIR-V goes in; GLSL is compiled first (glslangValidator), so a
    // source file given here by mistake is an error rather than compiled.
    auto format = streamhal::DetectImageFormat(contents.data(), contents.size());
    if (format.ok() && *format != streamhal::ImageFormat::kSpirv) {
      std::fprintf(stderr, "streamhal-pack: error: %s: is %s, not a SPIR-V module\n",
                   input.c_str(), std::string(streamhal::ImageFormatName(*format)).c_str());
      return kExitFailed;
    }
    auto image = streamhal::ParseImage(contents.data(), contents.size(), {});
    if (!image.ok()) {
      std::fprintf(stderr, "streamhal-pack: error: %s: %s\n", input.c_str(),
                   std::string(image.status().message()).c_str());
      return kExitFailed;
    }
    modules.push_back(std::move(image->spirv_modules.front()));
  }

  std::vector<uint8_t> bytes = streamhal::WriteElfCodeObject(modules);
  if (options.format == Format::kFatBinary) {
    bytes = streamhal::WriteFatBinary({{std::string(streamhal::kBundleHostId), {}},
                                       {std::string(streamhal::kBundleTargetId), bytes}});
  }
  // Check the result reads back as written before anyone loads it.
  const auto check = streamhal::ParseImage(bytes.data(), std::nullopt, {});
  if (!check.ok() || check->spirv_modules != modules) {
    std::fprintf(stderr, "streamhal-pack: internal error: the packed image does not read back%s%s\n",
                 check.ok() ? "" : ": ",
                 check.ok() ? "" : std::string(check.status().message()).c_str());
    return kExitFailed;
  }
  if (!options.embed) return WriteFile(options.output, bytes) ? kExitOk : kExitFailed;
  auto sources = streamhal::pack::EmbedSources(bytes, modules, options.header);
  if (!sources.ok()) {
    std::fprintf(stderr, "streamhal-pack: error: %s\n",
                 std::string(sources.status().message()).c_str());
    return kExitFailed;
  }
  const auto as_bytes = [](const std::string& text) {
    return std::vector<uint8_t>(text.begin(), text.end());
  };
  return WriteFile(options.header, as_bytes(sources->header)) &&
                 WriteFile(options.output, as_bytes(sources->source))
             ? kExitOk
             : kExitFailed;
}
