// Rows: PTX warp instructions (part of cuModuleLoadData (PTX)). CUDA's
// 32-wide warps are emulated in workgroup memory on devices whose subgroups
// are narrower (lavapipe's are 8 wide; docs/ptx.md, "Warps"). Each kernel of
// conformance/ptx_corpus/warp_*.cu runs on the device and is checked against
// the same lane arithmetic on the host.
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cstdint>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"
#include "ptx_corpus.h"

namespace streamhal::conformance {
namespace {

using PtxWarpConformance = ContextTest;

CUfunction LoadPtx(const char* ptx, const char* name, CUmodule* module) {
  *module = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuModuleLoadData(module, ptx));
  CUfunction function = nullptr;
  if (*module != nullptr) {
    EXPECT_CU(CUDA_SUCCESS, cuModuleGetFunction(&function, *module, name));
  }
  return function;
}

void Launch(CUfunction f, unsigned grid, unsigned block, void** params) {
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, nullptr, params, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
}

template <typename T>
CUdeviceptr Filled(size_t count, T value) {
  return CudaUpload(std::vector<T>(count, value));
}

TEST_F(PtxWarpConformance, WarpSizeAttributeIsTheEmulatedWarp) {
  int cuda_warp = 0, hip_warp = 0;
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetAttribute(&cuda_warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0));
  ASSERT_HIP(hipSuccess, hipDeviceGetAttribute(&hip_warp, hipDeviceAttributeWarpSize, 0));
  EXPECT_EQ(cuda_warp, 32);
  EXPECT_EQ(hip_warp, 32);
}

// The common block reduction: each warp sums with __shfl_down_sync, lane 0
// stores the warp's sum, then only warp 0 runs the second shuffle stage.
TEST_F(PtxWarpConformance, ShuffleReductionSumsEachBlockInTwoStages) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxWarpReduce(), "warp_reduce", &module);
  ASSERT_NE(f, nullptr);
  for (unsigned block : {32u, 96u, 256u, 1024u}) {
    int n = 3000;
    std::vector<float> in(n);
    for (int i = 0; i < n; ++i) in[i] = static_cast<float>((i * 7) % 19);  // exact sums
    const unsigned blocks = (n + block - 1) / block;
    CUdeviceptr din = CudaUpload(in), dpartial = Filled<float>(blocks, -1.0f);
    void* params[] = {&din, &dpartial, &n};
    Launch(f, blocks, block, params);
    const std::vector<float> partial = CudaDownload<float>(dpartial, blocks);
    for (unsigned b = 0; b < blocks; ++b) {
      float expected = 0;
      for (unsigned i = b * block; i < std::min<unsigned>(n, (b + 1) * block); ++i)
        expected += in[i];
      EXPECT_EQ(partial[b], expected) << "block size " << block << ", block " << b;
    }
    EXPECT_CU(CUDA_SUCCESS, cuMemFree(din));
    EXPECT_CU(CUDA_SUCCESS, cuMemFree(dpartial));
  }
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

// shfl.sync.down in a loop whose trip count differs per warp, with the
// predicate output telling which lanes had a source lane in range.
TEST_F(PtxWarpConformance, ShuffleDownInALoopWithPerWarpTripCountsAndItsPredicate) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxWarpReduce(), "warp_down_loop", &module);
  ASSERT_NE(f, nullptr);
  constexpr unsigned kThreads = 128;
  std::vector<int> in(kThreads);
  for (unsigned t = 0; t < kThreads; ++t) in[t] = static_cast<int>(t * 3 + 1);
  CUdeviceptr din = CudaUpload(in), dout = Filled<int>(kThreads, -1),
              dvalid = Filled<int>(kThreads, -1);
  void* params[] = {&din, &dout, &dvalid};
  Launch(f, 1, kThreads, params);
  const std::vector<int> out = CudaDownload<int>(dout, kThreads);
  const std::vector<int> valid = CudaDownload<int>(dvalid, kThreads);
  for (unsigned w = 0; w < kThreads / 32; ++w) {
    std::vector<int> v(in.begin() + w * 32, in.begin() + (w + 1) * 32), ok(32, 1);
    unsigned step = 1;
    do {
      std::vector<int> next = v;
      for (unsigned lane = 0; lane < 32; ++lane) {
        if (lane + step <= 31) {
          next[lane] = v[lane] + v[lane + step];
        } else {
          ok[lane] = 0;
        }
      }
      v = next;
      step <<= 1;
    } while (step <= w + 1);
    for (unsigned lane = 0; lane < 32; ++lane) {
      EXPECT_EQ(out[w * 32 + lane], v[lane]) << "warp " << w << " lane " << lane;
      EXPECT_EQ(valid[w * 32 + lane], ok[lane]) << "warp " << w << " lane " << lane;
    }
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(din));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dout));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dvalid));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

// __ballot_sync, __any_sync, __all_sync, __activemask, %laneid and
// %lanemask_lt, with lanes of odd warps gone (returned) before the votes.
TEST_F(PtxWarpConformance, BallotAnyAllAndActiveMaskCountOnlyTheLanesStillRunning) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxWarpVote(), "warp_vote", &module);
  ASSERT_NE(f, nullptr);
  constexpr unsigned kThreads = 128;
  constexpr unsigned kUntouched = 0xdeadbeefu;
  std::vector<int> in(kThreads);
  for (unsigned t = 0; t < kThreads; ++t) in[t] = static_cast<int>((t * 7) % 11) - 2;
  in[70] = 200;                                                    // warp 2: any(x > 100)
  for (unsigned t = 96; t < 128; ++t) in[t] = std::max(in[t], 0);  // warp 3: all(x >= 0)
  CUdeviceptr din = CudaUpload(in);
  std::vector<CUdeviceptr> outs;
  for (int i = 0; i < 5; ++i) outs.push_back(Filled<unsigned>(kThreads, kUntouched));
  void* params[] = {&din, &outs[0], &outs[1], &outs[2], &outs[3], &outs[4]};
  Launch(f, 1, kThreads, params);
  const std::vector<unsigned> ballots = CudaDownload<unsigned>(outs[0], kThreads);
  const std::vector<unsigned> anys = CudaDownload<unsigned>(outs[1], kThreads);
  const std::vector<unsigned> alls = CudaDownload<unsigned>(outs[2], kThreads);
  const std::vector<unsigned> active = CudaDownload<unsigned>(outs[3], kThreads);
  const std::vector<unsigned> lanes = CudaDownload<unsigned>(outs[4], kThreads);
  for (unsigned w = 0; w < kThreads / 32; ++w) {
    const unsigned running = (w & 1) ? 8 + w : 32;
    const uint32_t mask = running == 32 ? ~0u : (1u << running) - 1;
    uint32_t ballot = 0;
    bool any = false, all = true;
    for (unsigned lane = 0; lane < running; ++lane) {
      const int x = in[w * 32 + lane];
      if (x > 0) ballot |= 1u << lane;
      any = any || x > 100;
      all = all && x >= 0;
    }
    for (unsigned lane = 0; lane < 32; ++lane) {
      const unsigned t = w * 32 + lane;
      if (lane >= running) {
        EXPECT_EQ(ballots[t], kUntouched) << "thread " << t << " returned before voting";
        continue;
      }
      EXPECT_EQ(active[t], mask) << "thread " << t;
      EXPECT_EQ(ballots[t], ballot) << "thread " << t;
      EXPECT_EQ(anys[t], any ? 1u : 0u) << "thread " << t;
      EXPECT_EQ(alls[t], all ? 1u : 0u) << "thread " << t;
      const unsigned below = static_cast<unsigned>(std::popcount(ballot & ((1u << lane) - 1)));
      EXPECT_EQ(lanes[t], lane | (below << 8)) << "thread " << t;
    }
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(din));
  for (CUdeviceptr p : outs) EXPECT_CU(CUDA_SUCCESS, cuMemFree(p));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(PtxWarpConformance, ShflIdxBroadcastsOneLaneOfEachWarp) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxWarpShuffle(), "warp_broadcast", &module);
  ASSERT_NE(f, nullptr);
  constexpr unsigned kBlock = 64, kGrid = 3, kCount = kBlock * kGrid;
  std::vector<int> in(kCount);
  for (unsigned t = 0; t < kCount; ++t) in[t] = static_cast<int>(t * t + 5);
  CUdeviceptr din = CudaUpload(in), dout = Filled<int>(kCount, -1);
  // CUDA takes the source lane modulo the width: 37 is lane 5.
  for (int src : {0, 5, 31, 37}) {
    void* params[] = {&din, &dout, &src};
    Launch(f, kGrid, kBlock, params);
    const std::vector<int> out = CudaDownload<int>(dout, kCount);
    for (unsigned t = 0; t < kCount; ++t) {
      EXPECT_EQ(out[t], in[(t & ~31u) + (src & 31)]) << "src " << src << " thread " << t;
    }
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(din));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dout));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(PtxWarpConformance, ButterflyScanGivesEachLaneItsInclusivePrefixSum) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxWarpShuffle(), "warp_xor_scan", &module);
  ASSERT_NE(f, nullptr);
  constexpr unsigned kBlock = 128, kGrid = 2, kCount = kBlock * kGrid, kWarps = kCount / 32;
  std::vector<int> in(kCount);
  for (unsigned t = 0; t < kCount; ++t) in[t] = static_cast<int>((t * 13) % 29) - 9;
  CUdeviceptr din = CudaUpload(in), dout = Filled<int>(kCount, 0), dtotals = Filled<int>(kWarps, 0);
  void* params[] = {&din, &dout, &dtotals};
  Launch(f, kGrid, kBlock, params);
  const std::vector<int> out = CudaDownload<int>(dout, kCount);
  const std::vector<int> totals = CudaDownload<int>(dtotals, kWarps);
  for (unsigned w = 0; w < kWarps; ++w) {
    int sum = 0;
    for (unsigned lane = 0; lane < 32; ++lane) {
      sum += in[w * 32 + lane];
      EXPECT_EQ(out[w * 32 + lane], sum) << "warp " << w << " lane " << lane;
    }
    EXPECT_EQ(totals[w], sum) << "warp " << w;
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(din));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dout));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dtotals));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

// The width argument of __shfl_up_sync / __shfl_sync becomes the c
// operand's segment mask: lanes read inside their segment only.
TEST_F(PtxWarpConformance, SegmentedShufflesStayInsideTheirSegment) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxWarpShuffle(), "warp_segments", &module);
  ASSERT_NE(f, nullptr);
  constexpr unsigned kCount = 64;
  std::vector<int> in(kCount);
  for (unsigned t = 0; t < kCount; ++t) in[t] = static_cast<int>(1000 + t * 3);
  CUdeviceptr din = CudaUpload(in), dup = Filled<int>(kCount, -1), dbcast = Filled<int>(kCount, -1);
  void* params[] = {&din, &dup, &dbcast};
  Launch(f, 1, kCount, params);
  const std::vector<int> up = CudaDownload<int>(dup, kCount);
  const std::vector<int> bcast = CudaDownload<int>(dbcast, kCount);
  for (unsigned t = 0; t < kCount; ++t) {
    EXPECT_EQ(up[t], t % 8 >= 3 ? in[t - 3] : in[t]) << "thread " << t;
    EXPECT_EQ(bcast[t], in[(t & ~3u) + 1]) << "thread " << t;
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(din));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dup));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dbcast));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(PtxWarpConformance, MatchAnyAndAllGroupLanesWithEqualKeys) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxWarpMatch(), "warp_match", &module);
  ASSERT_NE(f, nullptr);
  constexpr unsigned kCount = 96;
  std::vector<int> keys(kCount);
  std::vector<long long> keys64(kCount);
  for (unsigned t = 0; t < kCount; ++t) {
    keys[t] = static_cast<int>((t * 5) % 7);
    // Equal low words, different high words: only a 64-bit compare tells.
    keys64[t] = (static_cast<long long>(t % 3) << 40) | (t % 2);
  }
  keys[32 + 3] = 500;  // warp 1: k / 100 differs in one lane, so match.all fails
  CUdeviceptr dkeys = CudaUpload(keys), dkeys64 = CudaUpload(keys64);
  std::vector<CUdeviceptr> outs;
  for (int i = 0; i < 4; ++i) outs.push_back(Filled<unsigned>(kCount, 0xdeadbeefu));
  void* params[] = {&dkeys, &dkeys64, &outs[0], &outs[1], &outs[2], &outs[3]};
  Launch(f, 1, kCount, params);
  const std::vector<unsigned> any32 = CudaDownload<unsigned>(outs[0], kCount);
  const std::vector<unsigned> any64 = CudaDownload<unsigned>(outs[1], kCount);
  const std::vector<unsigned> all32 = CudaDownload<unsigned>(outs[2], kCount);
  const std::vector<unsigned> all_pred = CudaDownload<unsigned>(outs[3], kCount);
  for (unsigned t = 0; t < kCount; ++t) {
    const unsigned w = t / 32;
    uint32_t same32 = 0, same64 = 0;
    bool all = true;
    for (unsigned lane = 0; lane < 32; ++lane) {
      const unsigned u = w * 32 + lane;
      if (keys[u] == keys[t]) same32 |= 1u << lane;
      if (keys64[u] == keys64[t]) same64 |= 1u << lane;
      all = all && keys[u] / 100 == keys[t] / 100;
    }
    EXPECT_EQ(any32[t], same32) << "thread " << t;
    EXPECT_EQ(any64[t], same64) << "thread " << t;
    EXPECT_EQ(all32[t], all ? ~0u : 0u) << "thread " << t;
    EXPECT_EQ(all_pred[t], all ? 1u : 0u) << "thread " << t;
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dkeys));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dkeys64));
  for (CUdeviceptr p : outs) EXPECT_CU(CUDA_SUCCESS, cuMemFree(p));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

// redux.sync over the even lanes (membermask 0x55555555, the odd lanes not
// running it).
TEST_F(PtxWarpConformance, ReduxReducesTheLanesOfItsMemberMask) {
  CUmodule module = nullptr;
  CUfunction f = LoadPtx(PtxWarpRedux(), "warp_redux", &module);
  ASSERT_NE(f, nullptr);
  constexpr unsigned kCount = 96;
  std::vector<int> in(kCount);
  for (unsigned t = 0; t < kCount; ++t) in[t] = static_cast<int>((t * 37) % 101) - 50;
  CUdeviceptr din = CudaUpload(in), dout = Filled<int>(kCount * 6, 0x5eed);
  void* params[] = {&din, &dout};
  Launch(f, 1, kCount, params);
  const std::vector<int> out = CudaDownload<int>(dout, kCount * 6);
  for (unsigned w = 0; w < kCount / 32; ++w) {
    int sum = 0, min = INT32_MAX;
    uint32_t max = 0, all = ~0u, any = 0, parity = 0;
    for (unsigned lane = 0; lane < 32; lane += 2) {
      const int v = in[w * 32 + lane];
      sum += v;
      min = std::min(min, v);
      max = std::max(max, static_cast<uint32_t>(v));
      all &= static_cast<uint32_t>(v);
      any |= static_cast<uint32_t>(v);
      parity ^= static_cast<uint32_t>(v);
    }
    for (unsigned lane = 0; lane < 32; ++lane) {
      const unsigned t = w * 32 + lane;
      const int* got = &out[t * 6];
      if (lane & 1) {
        EXPECT_EQ(got[0], 0x5eed) << "odd lane " << t << " does not run redux";
        continue;
      }
      EXPECT_EQ(got[0], sum) << "thread " << t;
      EXPECT_EQ(got[1], min) << "thread " << t;
      EXPECT_EQ(static_cast<uint32_t>(got[2]), max) << "thread " << t;
      EXPECT_EQ(static_cast<uint32_t>(got[3]), all) << "thread " << t;
      EXPECT_EQ(static_cast<uint32_t>(got[4]), any) << "thread " << t;
      EXPECT_EQ(static_cast<uint32_t>(got[5]), parity) << "thread " << t;
    }
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(din));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dout));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

}  // namespace
}  // namespace streamhal::conformance
