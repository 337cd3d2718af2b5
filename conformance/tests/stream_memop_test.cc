// Rows: stream memory operations (cuStreamWaitValue32/64,
// cuStreamWriteValue32/64, cuStreamBatchMemOp and their hip* twins) and the
// device attributes that advertise them.
//
// A wait is proven to hold work back by leaving its condition false for a
// while and observing that the work after it has not run (the stream is not
// ready, the kernel's output and the later writes are untouched); then the
// host or another stream makes the condition true and the work runs. Every
// word a wait watches is released again in TearDown, so a failed expectation
// cannot leave a stream blocked for the teardown to wait on forever.
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <thread>
#include <utility>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

hipFunction_t AsHip(CUfunction function) { return reinterpret_cast<hipFunction_t>(function); }
hipStream_t AsHip(CUstream stream) { return reinterpret_cast<hipStream_t>(stream); }

// The host's side of a memory word: release stores, acquire loads.
template <typename T>
void Store(T* word, T value) {
  std::atomic_ref<T>(*word).store(value, std::memory_order_release);
}
template <typename T>
T Load(T* word) {
  return std::atomic_ref<T>(*word).load(std::memory_order_acquire);
}

// Gives work that must be held back the time to run if it were not.
void LetHeldWorkRunIfItCould() { std::this_thread::sleep_for(std::chrono::milliseconds(40)); }

// Polls `condition` for up to ten seconds.
bool Eventually(const std::function<bool()>& condition) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

// A host function that holds its stream until Open().
class Gate {
 public:
  static void Hold(void* raw) {
    auto* gate = static_cast<Gate*>(raw);
    while (!gate->open_.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  void Open() { open_.store(true); }

 private:
  std::atomic<bool> open_{false};
};

constexpr size_t kWordBytes = 4096;

class StreamMemOpConformance : public ContextTest {
 protected:
  void SetUp() override {
    ContextTest::SetUp();
    if (HasFatalFailure()) return;
    // Page-locked words: the host writes them directly, the device through
    // their device address.
    void* host = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuMemHostAlloc(&host, kWordBytes, CU_MEMHOSTALLOC_DEVICEMAP));
    std::memset(host, 0, kWordBytes);
    words_ = static_cast<uint32_t*>(host);
    ASSERT_CU(CUDA_SUCCESS, cuMemHostGetDevicePointer(&device_words_, host, 0));
  }
  void TearDown() override {
    for (const auto& release : releases_) release();
    ContextTest::TearDown();
  }

  // Word i as the host sees it, and its device address.
  uint32_t* Word(int i) { return &words_[i]; }
  CUdeviceptr DeviceWord(int i) { return device_words_ + 4 * static_cast<CUdeviceptr>(i); }
  // 64-bit word i (8-byte aligned; words 512 and up, apart from the 32-bit
  // ones).
  uint64_t* Word64(int i) { return reinterpret_cast<uint64_t*>(words_ + 512) + i; }
  CUdeviceptr DeviceWord64(int i) { return device_words_ + 2048 + 8 * static_cast<CUdeviceptr>(i); }

  // Makes sure the wait on `word` is released by TearDown at the latest.
  template <typename T>
  void ReleaseAtTheEnd(T* word, T value) {
    releases_.push_back([word, value] { Store(word, value); });
  }

  CUstream NewStream() {
    CUstream stream = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    streams_.push_back(stream);
    return stream;
  }

  uint32_t* words_ = nullptr;
  CUdeviceptr device_words_ = 0;
  Gate gates_[2];
  std::vector<std::function<void()>> releases_;
  std::vector<CUstream> streams_;
};

// x -> 2x + 1 over `n` floats at `data`.
struct ScaleOffset {
  CUfunction function = nullptr;
  CUdeviceptr data = 0;
  uint32_t n = 256;
  float scale = 2.0f;
  float offset = 1.0f;
  void* params[4] = {&data, &scale, &offset, &n};

  CUresult Launch(CUstream stream) {
    return cuLaunchKernel(function, n / 64, 1, 1, 64, 1, 1, 0, stream, params, nullptr);
  }
  hipError_t LaunchHip(hipStream_t stream) {
    return hipModuleLaunchKernel(AsHip(function), n / 64, 1, 1, 64, 1, 1, 0, stream, params,
                                 nullptr);
  }
  std::vector<float> Values() { return CudaDownload<float>(data, n); }
};

TEST_F(StreamMemOpConformance, KernelsAfterAWaitRunOnlyOnceTheHostWritesTheWord) {
  CUmodule module = nullptr;
  ScaleOffset kernel;
  kernel.function = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module);
  ASSERT_NE(kernel.function, nullptr);
  kernel.data = CudaUpload(std::vector<float>(kernel.n, 1.0f));
  ASSERT_NE(kernel.data, 0u);

  // CUDA: a device address of page-locked memory.
  CUstream stream = NewStream();
  ReleaseAtTheEnd(Word(0), 1u);
  ASSERT_CU(CUDA_SUCCESS, cuStreamWaitValue32(stream, DeviceWord(0), 1, CU_STREAM_WAIT_VALUE_GEQ));
  EXPECT_CU(CUDA_SUCCESS, kernel.Launch(stream));
  LetHeldWorkRunIfItCould();
  EXPECT_CU(CUDA_ERROR_NOT_READY, cuStreamQuery(stream));
  EXPECT_EQ(kernel.Values(), std::vector<float>(kernel.n, 1.0f))
      << "the kernel ran before the host wrote the word";
  Store(Word(0), 1u);
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  EXPECT_EQ(kernel.Values(), std::vector<float>(kernel.n, 3.0f));

  // HIP: the host pointer itself, as AMD's runtime takes it, and the default
  // mask.
  hipStream_t hip_stream = AsHip(NewStream());
  ReleaseAtTheEnd(Word(1), 1u);
  ASSERT_HIP(hipSuccess, hipStreamWaitValue32(hip_stream, Word(1), 1, hipStreamWaitValueGte));
  EXPECT_HIP(hipSuccess, kernel.LaunchHip(hip_stream));
  LetHeldWorkRunIfItCould();
  EXPECT_HIP(hipErrorNotReady, hipStreamQuery(hip_stream));
  EXPECT_EQ(kernel.Values(), std::vector<float>(kernel.n, 3.0f))
      << "the kernel ran before the host wrote the word";
  Store(Word(1), 1u);
  EXPECT_HIP(hipSuccess, hipStreamSynchronize(hip_stream));
  EXPECT_EQ(kernel.Values(), std::vector<float>(kernel.n, 7.0f));
  for (CUstream s : streams_) EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(s));
}

// Device memory works where the host can map it (every CPU and integrated
// device, lavapipe among them); elsewhere a wait on it is
// CUDA_ERROR_NOT_SUPPORTED and the word must be page-locked host memory.
TEST_F(StreamMemOpConformance, AWriteOnAnotherStreamReleasesAWait) {
  CUdeviceptr word = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&word, 256));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(word, 0, 64));
  CUstream waiter = NewStream();
  CUstream writer = NewStream();
  const CUresult waited = cuStreamWaitValue32(waiter, word, 7, CU_STREAM_WAIT_VALUE_EQ);
  if (DeviceAttribute(CU_DEVICE_ATTRIBUTE_INTEGRATED) == 1) {
    ASSERT_CU(CUDA_SUCCESS, waited);
  } else if (waited == CUDA_ERROR_NOT_SUPPORTED) {
    // Not host-visible: the same scenario on page-locked memory.
    word = DeviceWord(0);
    ASSERT_CU(CUDA_SUCCESS, cuStreamWaitValue32(waiter, word, 7, CU_STREAM_WAIT_VALUE_EQ));
  } else {
    ASSERT_CU(CUDA_SUCCESS, waited);
  }
  // Teardown releases the waits whatever happens (the legacy stream's copy
  // does not wait for non-blocking streams).
  releases_.push_back([word] {
    const uint32_t values[4] = {7, 0, 9, 9};
    cuMemcpyHtoD(word, values, sizeof(values));
  });
  EXPECT_CU(CUDA_SUCCESS, cuStreamWriteValue32(waiter, word + 4, 1, 0));
  LetHeldWorkRunIfItCould();
  EXPECT_CU(CUDA_ERROR_NOT_READY, cuStreamQuery(waiter));
  EXPECT_EQ(CudaDownload<uint32_t>(word, 2), (std::vector<uint32_t>{0, 0}));
  // Nobody synchronizes the writer: its write reaches the word by itself.
  EXPECT_CU(CUDA_SUCCESS, cuStreamWriteValue32(writer, word, 7, CU_STREAM_WRITE_VALUE_DEFAULT));
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(waiter));
  EXPECT_EQ(CudaDownload<uint32_t>(word, 2), (std::vector<uint32_t>{7, 1}));

  // HIP, 64-bit, on the same streams.
  void* hip_word = AsHipPointer(word + 8);
  hipStream_t hip_waiter = AsHip(waiter);
  ASSERT_HIP(hipSuccess,
             hipStreamWaitValue64(hip_waiter, hip_word, 0x900000009, hipStreamWaitValueEq));
  EXPECT_HIP(hipSuccess, hipStreamWriteValue32(hip_waiter, AsHipPointer(word + 4), 2, 0));
  LetHeldWorkRunIfItCould();
  EXPECT_HIP(hipErrorNotReady, hipStreamQuery(hip_waiter));
  EXPECT_HIP(hipSuccess, hipStreamWriteValue64(AsHip(writer), hip_word, 0x900000009, 0));
  EXPECT_HIP(hipSuccess, hipStreamSynchronize(hip_waiter));
  EXPECT_EQ(CudaDownload<uint32_t>(word, 4), (std::vector<uint32_t>{7, 2, 9, 9}));
  for (CUstream s : streams_) EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(s));
}

// One condition, a value that leaves it false and one that makes it true.
struct Case {
  const char* name;
  unsigned flags;
  uint32_t value;
  uint32_t holds_back;
  uint32_t releases;
  uint32_t mask = 0xFFFFFFFF;  // HIP only
};

// Each case waits on its own stream; a write after the wait shows whether
// the stream went past it.
template <typename Wait, typename Write>
void ExpectEachCaseHoldsBackUntilReleased(const std::vector<Case>& cases, Wait wait, Write write,
                                          const std::vector<uint32_t*>& words,
                                          const std::vector<uint32_t*>& done) {
  for (size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(cases[i].name);
    Store(words[i], cases[i].holds_back);
    Store(done[i], 0u);
    wait(i);
    write(i);
  }
  LetHeldWorkRunIfItCould();
  for (size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(Load(done[i]), 0u) << cases[i].name << ": the stream went past the wait";
    Store(words[i], cases[i].releases);
  }
  for (size_t i = 0; i < cases.size(); ++i) {
    EXPECT_TRUE(Eventually([&] { return Load(done[i]) == 1u; }))
        << cases[i].name << ": the wait was not released";
  }
}

TEST_F(StreamMemOpConformance, EachCudaConditionHoldsBackUntilItHolds) {
  const std::vector<Case> cases = {
      // (int32_t)(word - value) >= 0: 0xfffffff0 is 16 behind 10, not ahead.
      {"GEQ (cyclic)", CU_STREAM_WAIT_VALUE_GEQ, 10, 0xFFFFFFF0u, 10},
      {"GEQ past the value", CU_STREAM_WAIT_VALUE_GEQ, 10, 9, 12},
      {"EQ", CU_STREAM_WAIT_VALUE_EQ, 5, 6, 5},
      {"AND", CU_STREAM_WAIT_VALUE_AND, 0x4, 0xB, 0x6},
      // ~(word | value) != 0: some bit clear in both.
      {"NOR", CU_STREAM_WAIT_VALUE_NOR, 0xC, 0xFFFFFFF3u, 0xFFFFFFF1u},
      {"GEQ with FLUSH", CU_STREAM_WAIT_VALUE_GEQ | CU_STREAM_WAIT_VALUE_FLUSH, 3, 2, 3},
  };
  std::vector<CUstream> streams;
  std::vector<uint32_t*> words, done;
  for (size_t i = 0; i < cases.size(); ++i) {
    streams.push_back(NewStream());
    words.push_back(Word(static_cast<int>(i)));
    done.push_back(Word(100 + static_cast<int>(i)));
    ReleaseAtTheEnd(words.back(), cases[i].releases);
  }
  ExpectEachCaseHoldsBackUntilReleased(
      cases,
      [&](size_t i) {
        EXPECT_CU(CUDA_SUCCESS, cuStreamWaitValue32(streams[i], DeviceWord(static_cast<int>(i)),
                                                    cases[i].value, cases[i].flags));
      },
      [&](size_t i) {
        EXPECT_CU(CUDA_SUCCESS,
                  cuStreamWriteValue32(streams[i], DeviceWord(100 + static_cast<int>(i)), 1, 0));
      },
      words, done);
  for (CUstream s : streams_) EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(s));
  for (CUstream s : streams_) EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(s));
}

// HIP compares the word AND-ed with the mask; its greater-or-equal is plain,
// not cyclic; its NOR looks at the masked bits only (as AMD's runtime does).
TEST_F(StreamMemOpConformance, EachHipConditionComparesTheMaskedWord) {
  const std::vector<Case> cases = {
      // Plain: 0xfffffff0 >= 10 (CUDA's cyclic GEQ would keep waiting).
      {"Gte", hipStreamWaitValueGte, 10, 9, 0xFFFFFFF0u},
      {"Gte masked", hipStreamWaitValueGte, 8, 0xF0, 0x19, 0xF},
      {"Eq masked", hipStreamWaitValueEq, 5, 0x1236, 0xABC5, 0xF},
      {"And masked", hipStreamWaitValueAnd, 0xFF, 0xF0, 0x01, 0x0F},
      // Unmasked, ~(0xc | 0x3) has its high bits set; masked, no bit is
      // clear in both.
      {"Nor masked", hipStreamWaitValueNor, 0x3, 0xC, 0x8, 0xF},
      {"Nor", hipStreamWaitValueNor, 0xC, 0xFFFFFFF3u, 0xFFFFFFF1u},
  };
  std::vector<hipStream_t> streams;
  std::vector<uint32_t*> words, done;
  for (size_t i = 0; i < cases.size(); ++i) {
    streams.push_back(AsHip(NewStream()));
    words.push_back(Word(static_cast<int>(i)));
    done.push_back(Word(100 + static_cast<int>(i)));
    ReleaseAtTheEnd(words.back(), cases[i].releases);
  }
  ExpectEachCaseHoldsBackUntilReleased(
      cases,
      [&](size_t i) {
        EXPECT_HIP(hipSuccess, hipStreamWaitValue32(streams[i], words[i], cases[i].value,
                                                    cases[i].flags, cases[i].mask));
      },
      [&](size_t i) { EXPECT_HIP(hipSuccess, hipStreamWriteValue32(streams[i], done[i], 1, 0)); },
      words, done);
  for (hipStream_t s : streams) EXPECT_HIP(hipSuccess, hipStreamSynchronize(s));
  for (CUstream s : streams_) EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(s));
}

TEST_F(StreamMemOpConformance, SixtyFourBitWaitsAndWritesUseTheWholeWord) {
  CUstream stream = NewStream();
  // The low halves already match; the wait is for the whole word.
  Store(Word64(0), uint64_t{2});
  ReleaseAtTheEnd(Word64(0), uint64_t{0x100000002});
  ASSERT_CU(CUDA_SUCCESS,
            cuStreamWaitValue64(stream, DeviceWord64(0), 0x100000002, CU_STREAM_WAIT_VALUE_EQ));
  EXPECT_CU(CUDA_SUCCESS, cuStreamWriteValue64(stream, DeviceWord64(1), 0xAABBCCDD11223344, 0));
  // Cyclic over 64 bits: 2^40 - 1 is behind 2^40.
  Store(Word64(2), (uint64_t{1} << 40) - 1);
  ReleaseAtTheEnd(Word64(2), (uint64_t{1} << 40) + 5);
  EXPECT_CU(CUDA_SUCCESS, cuStreamWaitValue64(stream, DeviceWord64(2), uint64_t{1} << 40,
                                              CU_STREAM_WAIT_VALUE_GEQ));
  EXPECT_CU(CUDA_SUCCESS, cuStreamWriteValue64(stream, DeviceWord64(3), 0x0123456789ABCDEF,
                                               CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER));
  LetHeldWorkRunIfItCould();
  EXPECT_EQ(Load(Word64(1)), 0u);
  Store(Word64(0), uint64_t{0x100000002});
  EXPECT_TRUE(Eventually([&] { return Load(Word64(1)) == 0xAABBCCDD11223344u; }));
  LetHeldWorkRunIfItCould();
  EXPECT_EQ(Load(Word64(3)), 0u);
  Store(Word64(2), (uint64_t{1} << 40) + 5);
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  EXPECT_EQ(Load(Word64(3)), 0x0123456789ABCDEFu);

  // HIP: a 64-bit mask that keeps the high half.
  hipStream_t hip_stream = AsHip(stream);
  Store(Word64(4), uint64_t{0x400000005});
  ReleaseAtTheEnd(Word64(4), uint64_t{0x512345678});
  ASSERT_HIP(hipSuccess, hipStreamWaitValue64(hip_stream, Word64(4), 0x500000000,
                                              hipStreamWaitValueEq, 0xFFFFFFFF00000000));
  EXPECT_HIP(hipSuccess, hipStreamWriteValue64(hip_stream, Word64(5), 0xFEDCBA9876543210, 0));
  LetHeldWorkRunIfItCould();
  EXPECT_HIP(hipErrorNotReady, hipStreamQuery(hip_stream));
  EXPECT_EQ(Load(Word64(5)), 0u);
  Store(Word64(4), uint64_t{0x512345678});
  EXPECT_HIP(hipSuccess, hipStreamSynchronize(hip_stream));
  EXPECT_EQ(Load(Word64(5)), 0xFEDCBA9876543210u);
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
}

TEST_F(StreamMemOpConformance, BatchesRunTheirOperationsInOrder) {
  CUstream stream = NewStream();
  CUstreamBatchMemOpParams ops[7];
  std::memset(ops, 0, sizeof(ops));
  ops[0].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
  ops[0].writeValue.address = DeviceWord(10);
  ops[0].writeValue.value = 0x11;
  ops[1].waitValue.operation = CU_STREAM_MEM_OP_WAIT_VALUE_32;
  ops[1].waitValue.address = DeviceWord(11);
  ops[1].waitValue.value = 1;
  ops[1].waitValue.flags = CU_STREAM_WAIT_VALUE_GEQ;
  ops[2].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_64;
  ops[2].writeValue.address = DeviceWord64(0);
  ops[2].writeValue.value64 = 0x1122334455667788;
  ops[3].memoryBarrier.operation = CU_STREAM_MEM_OP_BARRIER;
  ops[3].memoryBarrier.flags = CU_STREAM_MEMORY_BARRIER_TYPE_SYS;
  ops[4].flushRemoteWrites.operation = CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES;
  ops[5].waitValue.operation = CU_STREAM_MEM_OP_WAIT_VALUE_64;
  ops[5].waitValue.address = DeviceWord64(1);
  ops[5].waitValue.value64 = 0x900000000;
  ops[5].waitValue.flags = CU_STREAM_WAIT_VALUE_EQ;
  ops[6].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
  ops[6].writeValue.address = DeviceWord(12);
  ops[6].writeValue.value = 0x33;
  ReleaseAtTheEnd(Word(11), 1u);
  ReleaseAtTheEnd(Word64(1), uint64_t{0x900000000});
  ASSERT_CU(CUDA_SUCCESS, cuStreamBatchMemOp(stream, 7, ops, 0));
  // The write before the first wait runs; nothing after it does.
  EXPECT_TRUE(Eventually([&] { return Load(Word(10)) == 0x11u; }));
  LetHeldWorkRunIfItCould();
  EXPECT_EQ(Load(Word64(0)), 0u);
  Store(Word(11), 1u);
  EXPECT_TRUE(Eventually([&] { return Load(Word64(0)) == 0x1122334455667788u; }));
  LetHeldWorkRunIfItCould();
  EXPECT_EQ(Load(Word(12)), 0u);
  Store(Word64(1), uint64_t{0x900000000});
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  EXPECT_EQ(Load(Word(12)), 0x33u);

  // HIP: host pointers, and AMD's names.
  hipStream_t hip_stream = AsHip(stream);
  hipStreamBatchMemOpParams hip_ops[4];
  std::memset(hip_ops, 0, sizeof(hip_ops));
  hip_ops[0].operation = hipStreamMemOpWaitValue32;
  hip_ops[0].waitValue.address = Word(20);
  hip_ops[0].waitValue.value = 0x2;
  hip_ops[0].waitValue.flags = hipStreamWaitValueAnd;
  hip_ops[1].operation = hipStreamMemOpWriteValue32;
  hip_ops[1].writeValue.address = Word(21);
  hip_ops[1].writeValue.value = 0x44;
  hip_ops[2].operation = hipStreamMemOpWaitValue64;
  hip_ops[2].waitValue.address = Word64(2);
  hip_ops[2].waitValue.value64 = 0x700000000;
  hip_ops[2].waitValue.flags = hipStreamWaitValueGte;
  hip_ops[3].operation = hipStreamMemOpWriteValue64;
  hip_ops[3].writeValue.address = Word64(3);
  hip_ops[3].writeValue.value64 = 0x5555666677778888;
  ReleaseAtTheEnd(Word(20), 0x3u);
  ReleaseAtTheEnd(Word64(2), uint64_t{0x700000001});
  ASSERT_HIP(hipSuccess, hipStreamBatchMemOp(hip_stream, 4, hip_ops, 0));
  LetHeldWorkRunIfItCould();
  EXPECT_EQ(Load(Word(21)), 0u);
  Store(Word(20), 0x3u);
  EXPECT_TRUE(Eventually([&] { return Load(Word(21)) == 0x44u; }));
  LetHeldWorkRunIfItCould();
  EXPECT_EQ(Load(Word64(3)), 0u);
  Store(Word64(2), uint64_t{0x700000001});
  EXPECT_HIP(hipSuccess, hipStreamSynchronize(hip_stream));
  EXPECT_EQ(Load(Word64(3)), 0x5555666677778888u);
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
}

// A write follows the work before it on its stream, so another stream that
// waits for it sees that work done: the producer/consumer hand-off the
// operations exist for.
TEST_F(StreamMemOpConformance, WritesFollowEarlierWorkAndHandItOn) {
  CUmodule module = nullptr;
  ScaleOffset kernel;
  kernel.function = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module);
  ASSERT_NE(kernel.function, nullptr);
  kernel.data = CudaUpload(std::vector<float>(kernel.n, 1.0f));
  ASSERT_NE(kernel.data, 0u);
  CUstream producer = NewStream();
  CUstream consumer = NewStream();
  Gate& gate = gates_[0];
  releases_.push_back([&gate] { gate.Open(); });
  ASSERT_CU(CUDA_SUCCESS, cuLaunchHostFunc(producer, &Gate::Hold, &gate));
  EXPECT_CU(CUDA_SUCCESS, kernel.Launch(producer));
  EXPECT_CU(CUDA_SUCCESS, cuStreamWriteValue32(producer, DeviceWord(0), 1, 0));
  EXPECT_CU(CUDA_SUCCESS, cuStreamWaitValue32(consumer, DeviceWord(0), 1, CU_STREAM_WAIT_VALUE_EQ));
  EXPECT_CU(CUDA_SUCCESS, kernel.Launch(consumer));
  LetHeldWorkRunIfItCould();
  EXPECT_EQ(Load(Word(0)), 0u) << "the write ran before the work ahead of it";
  EXPECT_CU(CUDA_ERROR_NOT_READY, cuStreamQuery(consumer));
  gate.Open();
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(consumer));
  EXPECT_EQ(kernel.Values(), std::vector<float>(kernel.n, 7.0f));

  // HIP.
  Gate& hip_gate = gates_[1];
  releases_.push_back([&hip_gate] { hip_gate.Open(); });
  ASSERT_HIP(hipSuccess, hipLaunchHostFunc(AsHip(producer), &Gate::Hold, &hip_gate));
  EXPECT_HIP(hipSuccess, kernel.LaunchHip(AsHip(producer)));
  EXPECT_HIP(hipSuccess, hipStreamWriteValue64(AsHip(producer), Word64(0), 2, 0));
  EXPECT_HIP(hipSuccess, hipStreamWaitValue64(AsHip(consumer), Word64(0), 2, hipStreamWaitValueEq));
  EXPECT_HIP(hipSuccess, kernel.LaunchHip(AsHip(consumer)));
  LetHeldWorkRunIfItCould();
  EXPECT_EQ(Load(Word64(0)), 0u) << "the write ran before the work ahead of it";
  EXPECT_HIP(hipErrorNotReady, hipStreamQuery(AsHip(consumer)));
  hip_gate.Open();
  EXPECT_HIP(hipSuccess, hipStreamSynchronize(AsHip(consumer)));
  EXPECT_EQ(kernel.Values(), std::vector<float>(kernel.n, 31.0f));
  for (CUstream s : streams_) EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(s));
}

TEST_F(StreamMemOpConformance, BadArgumentsAreRejectedAndTheStreamKeepsWorking) {
  CUstream stream = NewStream();
  hipStream_t hip_stream = AsHip(stream);
  // Null, outside every allocation, freed, pageable host memory.
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuStreamWaitValue32(stream, 0, 0, 0),
              hipStreamWaitValue32(hip_stream, nullptr, 0, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuStreamWriteValue32(stream, 0x1000, 0, 0),
              hipStreamWriteValue32(hip_stream, AsHipPointer(0x1000), 0, 0));
  CUdeviceptr freed = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&freed, 256));
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(freed));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuStreamWriteValue64(stream, freed, 0, 0),
              hipStreamWaitValue64(hip_stream, AsHipPointer(freed), 0, 0));
  std::vector<uint64_t> pageable(4, 0);
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuStreamWaitValue64(stream, AsCudaPointer(pageable.data()), 0, 0),
              hipStreamWriteValue64(hip_stream, pageable.data(), 0, 0));
  // Misaligned: 4 bytes for 32-bit words, 8 for 64-bit ones.
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuStreamWaitValue32(stream, DeviceWord(0) + 2, 0, 0),
              hipStreamWaitValue32(hip_stream, reinterpret_cast<char*>(Word(0)) + 2, 0, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuStreamWriteValue64(stream, DeviceWord64(0) + 4, 0, 0),
              hipStreamWriteValue64(hip_stream, Word(513), 0, 0));
  // Unknown flags; CUDA's flush bit is not HIP's.
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuStreamWaitValue32(stream, DeviceWord(0), 0, 4),
              hipStreamWaitValue32(hip_stream, Word(0), 0, 4));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuStreamWaitValue64(stream, DeviceWord64(0), 0, CU_STREAM_WAIT_VALUE_FLUSH | 8));
  EXPECT_HIP(hipErrorInvalidValue, hipStreamWaitValue32(hip_stream, Word(0), 0, 0x40000000));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuStreamWriteValue32(stream, DeviceWord(0), 0, 2),
              hipStreamWriteValue32(hip_stream, Word(0), 0, 1));
  // Unknown and destroyed streams.
  CUstream destroyed = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&destroyed, 0));
  ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(destroyed));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuStreamWaitValue32(destroyed, DeviceWord(0), 0, 0),
              hipStreamWaitValue32(AsHip(destroyed), Word(0), 0, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuStreamWriteValue64(destroyed, DeviceWord64(0), 0, 0),
              hipStreamWriteValue64(AsHip(destroyed), Word64(0), 0, 0));

  // Batches: count, array, flags, operations.
  CUstreamBatchMemOpParams ops[256];
  std::memset(ops, 0, sizeof(ops));
  for (CUstreamBatchMemOpParams& op : ops) op.operation = CU_STREAM_MEM_OP_BARRIER;
  hipStreamBatchMemOpParams hip_ops[257];
  std::memset(hip_ops, 0, sizeof(hip_ops));
  for (hipStreamBatchMemOpParams& op : hip_ops) op.operation = hipStreamMemOpBarrier;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuStreamBatchMemOp(stream, 0, ops, 0),
              hipStreamBatchMemOp(hip_stream, 0, hip_ops, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuStreamBatchMemOp(stream, 1, nullptr, 0),
              hipStreamBatchMemOp(hip_stream, 1, nullptr, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuStreamBatchMemOp(stream, 1, ops, 1),
              hipStreamBatchMemOp(hip_stream, 1, hip_ops, 1));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuStreamBatchMemOp(destroyed, 1, ops, 0),
              hipStreamBatchMemOp(AsHip(destroyed), 1, hip_ops, 0));
  // CUDA: fewer than 256 operations; AMD's runtime: at most 256.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamBatchMemOp(stream, 256, ops, 0));
  EXPECT_CU(CUDA_SUCCESS, cuStreamBatchMemOp(stream, 255, ops, 0));
  EXPECT_HIP(hipErrorInvalidValue, hipStreamBatchMemOp(hip_stream, 257, hip_ops, 0));
  EXPECT_HIP(hipSuccess, hipStreamBatchMemOp(hip_stream, 256, hip_ops, 0));
  // An unknown operation, or bad barrier flags, anywhere in the batch: none
  // of it runs.
  ops[0].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
  ops[0].writeValue.address = DeviceWord(0);
  ops[0].writeValue.value = 9;
  ops[1].operation = static_cast<CUstreamBatchMemOpType>(7);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamBatchMemOp(stream, 2, ops, 0));
  ops[1].memoryBarrier.operation = CU_STREAM_MEM_OP_BARRIER;
  ops[1].memoryBarrier.flags = 2;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamBatchMemOp(stream, 2, ops, 0));
  hip_ops[0].writeValue.operation = hipStreamMemOpWriteValue32;
  hip_ops[0].writeValue.address = Word(0);
  hip_ops[0].writeValue.value = 9;
  hip_ops[1].waitValue.operation = hipStreamMemOpWaitValue32;
  hip_ops[1].waitValue.address = Word(1);
  hip_ops[1].waitValue.flags = 7;
  EXPECT_HIP(hipErrorInvalidValue, hipStreamBatchMemOp(hip_stream, 2, hip_ops, 0));
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  EXPECT_EQ(Load(Word(0)), 0u) << "part of a rejected batch ran";

  // The stream still works.
  ReleaseAtTheEnd(Word(0), 5u);
  EXPECT_CU(CUDA_SUCCESS, cuStreamWriteValue32(stream, DeviceWord(0), 5, 0));
  EXPECT_CU(CUDA_SUCCESS, cuStreamWaitValue32(stream, DeviceWord(0), 5, CU_STREAM_WAIT_VALUE_EQ));
  EXPECT_HIP(hipSuccess, hipStreamWriteValue32(hip_stream, Word(1), 6, 0));
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  EXPECT_EQ(Load(Word(0)), 5u);
  EXPECT_EQ(Load(Word(1)), 6u);
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
}

TEST_F(StreamMemOpConformance, DeviceAttributesAdvertiseTheOperations) {
  for (CUdevice_attribute attribute : {CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1,
                                       CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1,
                                       CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR_V1,
                                       CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS,
                                       CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR,
                                       CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES}) {
    EXPECT_EQ(DeviceAttribute(attribute), 1) << "attribute " << attribute;
  }
  int value = 0;
  EXPECT_HIP(hipSuccess, hipDeviceGetAttribute(&value, hipDeviceAttributeCanUseStreamWaitValue, 0));
  EXPECT_EQ(value, 1);
}

}  // namespace
}  // namespace streamhal::conformance
