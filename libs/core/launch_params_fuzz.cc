// libFuzzer target: a launch's parameters (core/launch_params.h). The input
// describes a kernel's parameter list and the arguments a caller passes for
// it: an `extra` array whose keys are the values CUDA and HIP define or any
// other word, and whose values point at buffers this harness owns (a caller
// that passes wild pointers or lies about a buffer's size is outside what
// any API can defend against), and kernelParams with null entries. Decoding
// and layout must read nothing outside those buffers, and a block they
// accept must hold exactly the bytes the caller gave.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "core/launch_params.h"
#include "core/module.h"

namespace {

class Input {
 public:
  Input(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  uint16_t Word() { return static_cast<uint16_t>(Byte() | (Byte() << 8)); }
  bool empty() const { return pos_ >= size_; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

// A kernel's parameter list: up to 16 members of 1..64 bytes at offsets
// anywhere in the 4 KiB block.
streamhal::KernelInfo FuzzedKernel(Input& in) {
  streamhal::KernelInfo info;
  info.name = "fuzzed";
  const int count = in.Byte() % 17;
  for (int i = 0; i < count; ++i) {
    streamhal::ParamInfo param;
    param.size = 1 + in.Byte() % 64;
    param.offset = in.Word() % (streamhal::kMaxParamBlockBytes - param.size + 1);
    info.param_block_size = std::max(info.param_block_size, param.offset + param.size);
    info.params.push_back(param);
  }
  return info;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Input in(data, size);
  const streamhal::KernelInfo info = FuzzedKernel(in);

  // The packed buffer: exactly `packed_bytes` long, and a size word that
  // never claims more than that.
  const size_t packed_bytes = in.Word() % (streamhal::kMaxParamBlockBytes + 64);
  std::unique_ptr<uint8_t[]> packed(new uint8_t[packed_bytes + 1]);
  for (size_t i = 0; i < packed_bytes; ++i) packed[i] = static_cast<uint8_t>(i * 31 + 7);
  size_t claimed = in.Word() % (packed_bytes + 1);

  // `extra`: keys at even positions, values at odd ones, closed within the
  // 64 entries DecodeExtra reads at most.
  const bool hip = in.Byte() & 1;
  void* const end_marker = reinterpret_cast<void*>(hip ? 0x3 : 0x0);
  std::vector<void*> extra(64, end_marker);
  const bool extra_given = in.Byte() & 1;
  for (size_t i = 0; i + 1 < extra.size() && !in.empty(); i += 2) {
    const uint8_t key = in.Byte();
    switch (key % 5) {
      case 0:
        extra[i] = end_marker;
        break;
      case 1:
        extra[i] = reinterpret_cast<void*>(0x1);
        break;
      case 2:
        extra[i] = reinterpret_cast<void*>(0x2);
        break;
      case 3:
        extra[i] = reinterpret_cast<void*>(hip ? 0x0 : 0x3);
        break;
      default:
        extra[i] = reinterpret_cast<void*>(uintptr_t{4} + key);
        break;
    }
    // The value a caller passes for the key: the packed buffer after
    // BUFFER_POINTER, the size word after BUFFER_SIZE, or null.
    const bool null_value = in.Byte() % 4 == 0;
    if (null_value) {
      extra[i + 1] = nullptr;
    } else if (extra[i] == reinterpret_cast<void*>(0x2)) {
      extra[i + 1] = &claimed;
    } else {
      extra[i + 1] = packed.get();
    }
    if (extra[i] == end_marker) break;
  }

  // kernelParams: one owned buffer of the member's size per parameter, some
  // entries null.
  std::vector<std::vector<uint8_t>> values;
  std::vector<void*> pointers;
  for (size_t i = 0; i < info.params.size(); ++i) {
    values.emplace_back(info.params[i].size, static_cast<uint8_t>(i + 1));
    pointers.push_back(in.Byte() % 8 == 0 ? nullptr : values.back().data());
  }
  const bool params_given = in.Byte() & 1;

  streamhal::LaunchConfig config;
  if (params_given) config.kernel_params = pointers.empty() ? nullptr : pointers.data();
  if (extra_given) streamhal::DecodeExtra(extra.data(), end_marker, &config);

  std::vector<uint8_t> block(streamhal::kMaxParamBlockBytes, 0xcd);
  const absl::Status status = streamhal::BuildParams(info, config, block.data());
  if (!status.ok()) return 0;
  if (config.extra_given) {
    // Accepted from extra: the claimed size covers the block, which holds
    // the packed bytes.
    if (config.packed_params != packed.get() || config.packed_size < info.param_block_size ||
        std::memcmp(block.data(), packed.get(), info.param_block_size) != 0) {
      std::abort();
    }
  } else if (!info.params.empty()) {
    for (size_t i = 0; i < info.params.size(); ++i) {
      if (pointers[i] == nullptr) std::abort();  // accepted a null parameter
    }
  }
  return 0;
}
