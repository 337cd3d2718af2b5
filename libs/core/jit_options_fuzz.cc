// libFuzzer target: the JIT options of cuModuleLoadDataEx /
// hipModuleLoadDataEx (core/jit_options.h). The input describes an options
// array as a caller passes it: option ids (the ones that apply to GLSL,
// others the API defines, ids no API defines), and values: log buffers that
// this harness owns with sizes the input chooses, size words that are
// smaller than the buffer, zero, or huge where no buffer is given, flags and
// garbage for options whose value is never dereferenced. A caller that
// claims more room than its buffer has is outside what any API can defend
// against, so the harness keeps the size that takes effect (an option given
// twice takes its last value) within the buffer that takes effect.
//
// The options are read, a log is made (by compiling one of a few small GLSL
// kernels with glslang when the build has it, or from the input), the logs
// are copied and the outputs written back, as cuModuleLoadDataEx does. Every
// array and buffer is a heap block of exactly its size, so a read or write
// past one is an AddressSanitizer report; the harness then checks that
// exactly the documented bytes and slots were written.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/code_object.h"
#include "core/glsl_compiler.h"
#include "core/jit_options.h"
#include "core/status.h"

namespace {

using streamhal::JitOptionId;

class Input {
 public:
  Input(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  uint16_t Word() { return static_cast<uint16_t>(Byte() | (Byte() << 8)); }
  uint32_t Dword() { return static_cast<uint32_t>(Word() | (uint32_t{Word()} << 16)); }
  bool empty() const { return pos_ >= size_; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

constexpr int kMaxOptions = 48;
constexpr size_t kMaxBufferBytes = 8192;
constexpr uint8_t kCanary = 0xa5;

// Small kernels, each a few milliseconds to compile: one that compiles
// cleanly, one with a warning in its info log, one that fails to compile,
// one that fails to link, and one that includes the prelude (a longer
// verbose log).
constexpr const char* kSources[] = {
    "#version 460\nlayout(local_size_x = 1) in;\nvoid main() {}\n",
    "#version 460\n#extension GL_EXT_nonexistent_for_fuzzing : warn\n"
    "layout(local_size_x = 1) in;\nvoid main() {}\n",
    "#version 460\nlayout(local_size_x = 1) in;\nvoid main() { undeclared_variable = 1; }\n",
    "#version 460\nlayout(local_size_x = 1) in;\nvoid helper() {}\n",
    "#version 460\n#extension GL_GOOGLE_include_directive : require\n"
    "#include \"streamhal/kernel.glsl\"\nvoid main() {}\n",
};

// A caller's log buffer: a heap block of exactly `size` bytes, filled with
// the canary.
struct Buffer {
  explicit Buffer(size_t bytes) : size(bytes), data(std::make_unique<char[]>(bytes)) {
    std::memset(data.get(), kCanary, size);
  }
  size_t size;
  std::unique_ptr<char[]> data;
};

// What the harness decided a log kind looks like to the library.
struct Effective {
  int buffer = -1;  // index into the buffers, -1 for none (null or absent)
  size_t size = 0;  // 0 when absent
  int last_buffer_entry = -1;
  int last_size_entry = -1;
};

bool Is(int option, JitOptionId id) { return option == static_cast<int>(id); }
void* Slot(uintptr_t number) { return reinterpret_cast<void*>(number); }
uintptr_t Number(void* slot) { return reinterpret_cast<uintptr_t>(slot); }

// A log made from the input: any bytes, NULs included, of any length up to
// twice the largest buffer.
std::string InputLog(Input& in) {
  const size_t length = in.Word() % (2 * kMaxBufferBytes);
  const uint8_t seed = in.Byte();
  std::string log(length, '\0');
  for (size_t i = 0; i < length; ++i) log[i] = static_cast<char>(seed + i * 7);
  return log;
}

// The buffer a log went to must hold exactly the truncated log and its NUL
// and nothing past them; `written` must count those bytes.
void CheckLog(const std::string& log, const Buffer* buffer, size_t size, size_t written) {
  if (buffer == nullptr || size == 0) {
    if (written != 0) abort();
    return;
  }
  const size_t n = std::min(log.size(), size - 1);
  if (written != n + 1) abort();
  if (std::memcmp(buffer->data.get(), log.data(), n) != 0) abort();
  if (buffer->data[n] != '\0') abort();
  for (size_t i = n + 1; i < buffer->size; ++i) {
    if (static_cast<uint8_t>(buffer->data[i]) != kCanary) abort();
  }
}

bool Untouched(const Buffer& buffer) {
  for (size_t i = 0; i < buffer.size; ++i) {
    if (static_cast<uint8_t>(buffer.data[i]) != kCanary) return false;
  }
  return true;
}

}  // namespace

// PTX inputs that translate would otherwise fill the user's translation
// cache (docs/ptx.md), one entry per input.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("CUDA_CACHE_DISABLE", "1", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Input in(data, size);

  // The ids the caller's API defines (CU_JIT_NUM_OPTIONS and
  // hipJitOptionNumOptions differ); the GLSL options need 13 of them.
  const int option_count = in.Byte() % 40;
  const unsigned num_options = in.Byte() % (kMaxOptions + 1);
  const uint8_t array_flags = in.Byte();
  const bool options_null = array_flags % 16 == 1;
  const bool values_null = array_flags % 16 == 2;
  const uint8_t log_source = in.Byte();

  // Three log buffers of the input's sizes.
  std::vector<Buffer> buffers;
  for (int i = 0; i < 3; ++i) buffers.emplace_back(in.Word() % (kMaxBufferBytes + 1));

  // The arrays, exactly num_options long (no element at all for none).
  std::unique_ptr<int[]> options(new int[num_options]);
  std::unique_ptr<void*[]> values(new void*[num_options]);
  std::array<Effective, 2> logs;  // [0] info, [1] error
  bool ids_valid = true;
  for (unsigned i = 0; i < num_options; ++i) {
    const uint8_t kind = in.Byte();
    const uint8_t choice = in.Byte();
    int id = 0;
    void* value = nullptr;
    switch (kind % 8) {
      case 0:
      case 1: {  // a log buffer: null or one of the buffers
        const int log = kind % 8;
        id =
            static_cast<int>(log == 0 ? JitOptionId::kInfoLogBuffer : JitOptionId::kErrorLogBuffer);
        const int which = choice % 4 == 3 ? -1 : choice % 4;
        value = which < 0 ? nullptr : buffers[static_cast<size_t>(which)].data.get();
        logs[static_cast<size_t>(log)].buffer = which;
        logs[static_cast<size_t>(log)].last_buffer_entry = static_cast<int>(i);
        break;
      }
      case 2:
      case 3: {  // a log size: any word (made to fit below), 0, 1 or huge
        const int log = kind % 8 - 2;
        id = static_cast<int>(log == 0 ? JitOptionId::kInfoLogBufferSizeBytes
                                       : JitOptionId::kErrorLogBufferSizeBytes);
        size_t claimed = in.Word() % (kMaxBufferBytes + 1);
        if (choice % 8 == 0) claimed = 0;
        if (choice % 8 == 1) claimed = 1;
        if (choice % 8 == 2) claimed = SIZE_MAX;
        if (choice % 8 == 3) claimed = SIZE_MAX / 2 + 1;
        value = Slot(claimed);
        logs[static_cast<size_t>(log)].size = claimed;
        logs[static_cast<size_t>(log)].last_size_entry = static_cast<int>(i);
        break;
      }
      case 4:  // verbose: any word, non-zero is on
        id = static_cast<int>(JitOptionId::kLogVerbose);
        value = Slot(choice % 3 == 0 ? 0 : in.Dword());
        break;
      case 5:  // the wall time: an output; the slot's input is ignored
        id = static_cast<int>(JitOptionId::kWallTime);
        value = Slot(in.Dword());
        break;
      case 6:  // another id the API defines, with a value never dereferenced
        id = choice % std::max(option_count, 1);
        value = Slot(in.Dword() | (uint64_t{in.Dword()} << 32));
        break;
      default:  // any int: negative, past the API's ids, or a valid one
        id = static_cast<int>(in.Dword());
        value = Slot(in.Dword());
        break;
    }
    // Log buffers and sizes come from the cases above only, where the
    // harness knows what they point at.
    if (kind % 8 >= 6 && id >= static_cast<int>(JitOptionId::kInfoLogBuffer) &&
        id <= static_cast<int>(JitOptionId::kErrorLogBufferSizeBytes)) {
      id += 4;
    }
    options[i] = id;
    values[i] = value;
    ids_valid = ids_valid && id >= 0 && id < option_count;
  }

  // The one lie the harness cannot tell: the size that takes effect must fit
  // the buffer that takes effect, and the two logs go to different buffers.
  if (logs[0].buffer >= 0 && logs[0].buffer == logs[1].buffer) {
    logs[1].buffer = (logs[1].buffer + 1) % 3;
    values[logs[1].last_buffer_entry] = buffers[static_cast<size_t>(logs[1].buffer)].data.get();
  }
  for (Effective& log : logs) {
    if (log.buffer < 0 || log.last_size_entry < 0) continue;
    const size_t room = buffers[static_cast<size_t>(log.buffer)].size;
    if (log.size > room) {
      log.size = room;
      values[log.last_size_entry] = Slot(room);
    }
  }
  const std::vector<void*> values_before(values.get(), values.get() + num_options);

  int* const options_arg = options_null ? nullptr : options.get();
  void** const values_arg = values_null ? nullptr : values.get();
  absl::StatusOr<streamhal::JitOptions> jit =
      streamhal::ReadJitOptions(num_options, options_arg, values_arg, option_count);
  const bool expect_ok = num_options == 0 || (!options_null && !values_null && ids_valid);
  if (jit.ok() != expect_ok) abort();
  if (!jit.ok()) {
    if (streamhal::ErrorCodeOf(jit.status()) != streamhal::ErrorCode::kInvalidValue) abort();
    // Nothing is written when the options are rejected.
    if (!std::equal(values_before.begin(), values_before.end(), values.get())) abort();
    return 0;
  }

  // The logs: from a compile (as cuModuleLoadData of GLSL source does), or
  // from the input.
  std::string error_log;
  std::string info_log;
  double wall_time_ms = 0;
  if (log_source % 4 == 0 && streamhal::GlslCompilerAvailable()) {
    const char* source = kSources[(log_source / 4) % std::size(kSources)];
    streamhal::GlslOptions glsl;
    glsl.verbose = jit->verbose;
    glsl.entry_point = "fuzzed";
    absl::StatusOr<streamhal::LoadedImage> image =
        streamhal::ParseImage(source, std::nullopt, glsl, &error_log);
    if (image.ok()) {
      info_log = image->info_log;
      wall_time_ms = image->compile_wall_time_ms;
      if (!error_log.empty()) abort();  // a successful compile has no error log
    } else if (error_log.empty()) {
      abort();  // a failed compile says why
    }
  } else {
    error_log = InputLog(in);
    info_log = InputLog(in);
    wall_time_ms = in.Word() / 8.0;
  }
  streamhal::RecordJitLogs(&*jit, error_log, info_log, wall_time_ms);
  streamhal::WriteJitOutputs(*jit, num_options, options.get(), values.get());

  // The logs went where the options said, and nowhere else.
  const Buffer* info_buffer =
      logs[0].buffer < 0 ? nullptr : &buffers[static_cast<size_t>(logs[0].buffer)];
  const Buffer* error_buffer =
      logs[1].buffer < 0 ? nullptr : &buffers[static_cast<size_t>(logs[1].buffer)];
  CheckLog(info_log, info_buffer, logs[0].size, jit->info_log_written);
  CheckLog(error_log, error_buffer, logs[1].size, jit->error_log_written);
  for (size_t b = 0; b < buffers.size(); ++b) {
    if (&buffers[b] != info_buffer && &buffers[b] != error_buffer && !Untouched(buffers[b])) {
      abort();
    }
  }
  // Outputs in their slots; every other slot as the caller left it.
  const float wall_time = static_cast<float>(wall_time_ms);
  for (unsigned i = 0; i < num_options; ++i) {
    void* expected = values_before[i];
    if (Is(options[i], JitOptionId::kWallTime)) {
      expected = nullptr;
      std::memcpy(&expected, &wall_time, sizeof(wall_time));
    } else if (Is(options[i], JitOptionId::kInfoLogBufferSizeBytes)) {
      expected = Slot(jit->info_log_written);
    } else if (Is(options[i], JitOptionId::kErrorLogBufferSizeBytes)) {
      expected = Slot(jit->error_log_written);
    }
    if (Number(values[i]) != Number(expected)) abort();
  }
  return 0;
}
