// Enqueue scaling: N threads, each launching the tiny kernel on a stream of
// its own, against one thread doing the same; raw Vulkan threads recording
// into command buffers of their own are the baseline of what the machine
// allows. The figure is launches per second while every thread enqueues:
// each round's time is the slowest thread's own enqueue time, so waking the
// threads is not counted, and draining the streams happens outside it
// (lavapipe executes kernels on the same cores, which would measure the
// device, not the launch path).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "bench_env.h"

namespace bench {
namespace {

// Below the backend's commands-per-batch limit, so no submission (and no
// device work) starts inside the timed part.
constexpr int kLaunchesPerRound = 1000;
// Draining a round on lavapipe (~50 ms) dwarfs enqueueing it (~0.2 ms): a
// bounded time of timed work keeps the run short.
constexpr double kRoundsMinTime = 0.05;

// What one thread does each round.
class Job {
 public:
  virtual ~Job() = default;
  // On the worker thread, before the first round.
  virtual bool Setup() = 0;
  virtual bool Round() = 0;
  // On the coordinating thread, between rounds.
  virtual void Drain() {}
};

class LaunchJob final : public Job {
 public:
  ~LaunchJob() override {
    if (stream_ != nullptr) {
      cuStreamSynchronize(stream_);
      cuStreamDestroy(stream_);
    }
    if (output_ != 0) cuMemFree(output_);
  }
  bool Setup() override {
    return cuCtxSetCurrent(GetEnv().context) == CUDA_SUCCESS &&
           cuStreamCreate(&stream_, CU_STREAM_DEFAULT) == CUDA_SUCCESS &&
           cuMemAlloc(&output_, 256) == CUDA_SUCCESS;
  }
  bool Round() override {
    void* args[] = {&output_, &value_};
    for (int i = 0; i < kLaunchesPerRound; ++i) {
      ++value_;
      if (cuLaunchKernel(GetEnv().tiny, 1, 1, 1, 1, 1, 1, 0, stream_, args, nullptr) !=
          CUDA_SUCCESS) {
        return false;
      }
    }
    return true;
  }
  void Drain() override { cuStreamSynchronize(stream_); }

 private:
  CUstream stream_ = nullptr;
  CUdeviceptr output_ = 0;
  uint32_t value_ = 0;
};

// Records what a stream must: each dispatch ordered after the previous one.
class RawRecordJob final : public Job {
 public:
  bool Setup() override {
    recorder_ = std::make_unique<RawRecorder>(*GetEnv().raw);
    return true;
  }
  bool Round() override {
    recorder_->Begin();
    for (int i = 0; i < kLaunchesPerRound; ++i) recorder_->RecordOrderedDispatch(++value_, i == 0);
    recorder_->End();
    return true;
  }

 private:
  std::unique_ptr<RawRecorder> recorder_;
  uint32_t value_ = 0;
};

// Persistent threads released together once per round; the coordinating
// thread sleeps in a futex wait meanwhile, so it takes no core from them.
class Workers {
 public:
  explicit Workers(std::vector<std::unique_ptr<Job>> jobs)
      : jobs_(std::move(jobs)), round_ns_(jobs_.size()) {
    for (size_t i = 0; i < jobs_.size(); ++i) threads_.emplace_back([this, i] { Run(i); });
    WaitDone(static_cast<uint32_t>(jobs_.size()));
  }

  ~Workers() {
    stop_.store(true, std::memory_order_release);
    Release();
    for (std::thread& thread : threads_) thread.join();
  }

  // Runs one round on every thread; returns the slowest thread's time, or
  // a negative value if a job failed.
  double Round() {
    const uint32_t target = done_.load(std::memory_order_acquire) + jobs_.size();
    Release();
    WaitDone(target);
    if (failed_.load(std::memory_order_acquire)) return -1;
    const int64_t slowest = *std::max_element(round_ns_.begin(), round_ns_.end());
    return static_cast<double>(slowest) * 1e-9;
  }

  void Drain() {
    for (auto& job : jobs_) job->Drain();
  }

 private:
  void Release() {
    generation_.fetch_add(1, std::memory_order_acq_rel);
    generation_.notify_all();
  }

  void WaitDone(uint32_t target) {
    for (uint32_t seen = done_.load(std::memory_order_acquire); seen < target;
         seen = done_.load(std::memory_order_acquire)) {
      done_.wait(seen, std::memory_order_acquire);
    }
  }

  void Finish() {
    done_.fetch_add(1, std::memory_order_acq_rel);
    done_.notify_all();
  }

  void Run(size_t index) {
    Job& job = *jobs_[index];
    if (!job.Setup()) failed_.store(true, std::memory_order_release);
    uint32_t seen = generation_.load(std::memory_order_acquire);
    Finish();
    for (;;) {
      generation_.wait(seen, std::memory_order_acquire);
      seen = generation_.load(std::memory_order_acquire);
      if (stop_.load(std::memory_order_acquire)) break;
      const auto start = std::chrono::steady_clock::now();
      if (!job.Round()) failed_.store(true, std::memory_order_release);
      const auto stop = std::chrono::steady_clock::now();
      round_ns_[index] = std::chrono::duration_cast<std::chrono::nanoseconds>(stop - start).count();
      Finish();
    }
  }

  std::vector<std::unique_ptr<Job>> jobs_;
  std::vector<int64_t> round_ns_;  // written by worker i, read after WaitDone
  std::vector<std::thread> threads_;
  std::atomic<uint32_t> generation_{0};
  std::atomic<uint32_t> done_{0};
  std::atomic<bool> stop_{false};
  std::atomic<bool> failed_{false};
};

template <typename JobType>
void RunRounds(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(0));
  std::vector<std::unique_ptr<Job>> jobs;
  for (int i = 0; i < threads; ++i) jobs.push_back(std::make_unique<JobType>());
  Workers workers(std::move(jobs));
  for (auto _ : state) {
    const double seconds = workers.Round();
    if (seconds < 0) {
      state.SkipWithError("a worker's job failed");
      break;
    }
    state.SetIterationTime(seconds);
    workers.Drain();
    // lavapipe's queue thread goes on with its bookkeeping for a moment after
    // the last signal; the next round must not share the cores with it.
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  state.SetItemsProcessed(state.iterations() * threads * kLaunchesPerRound);
}

void BM_RawVulkan_RecordThreads(benchmark::State& state) { RunRounds<RawRecordJob>(state); }
BENCHMARK(BM_RawVulkan_RecordThreads)->Arg(1)->Arg(2)->UseManualTime()->MinTime(kRoundsMinTime);

void BM_Streamhal_LaunchThreads(benchmark::State& state) { RunRounds<LaunchJob>(state); }
BENCHMARK(BM_Streamhal_LaunchThreads)->Arg(1)->Arg(2)->UseManualTime()->MinTime(kRoundsMinTime);

}  // namespace
}  // namespace bench
