// PTX figures of issue 15: the run time of translated PTX kernels against
// hand-written GLSL kernels of the same algorithm (vector add, tiled matrix
// multiply, block reduction; same parameters, same launch), the translation
// time of the whole PTX corpus, and a load served by the on-disk translation
// cache against one that translates (docs/ptx.md).
#include <benchmark/benchmark.h>
#include <cuda.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ptx/cache.h"
#include "ptx/translate.h"

namespace bench {
namespace {

namespace fs = std::filesystem;

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The bench's own cache directory (CUDA_CACHE_PATH for every load in this
// process), removed at exit: a run never touches the user's cache.
class CacheDirectory {
 public:
  CacheDirectory() {
    std::string pattern = (fs::temp_directory_path() / "streamhal_bench_ptx_XXXXXX").string();
    if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
    setenv("CUDA_CACHE_PATH", path_.c_str(), 1);
    unsetenv("CUDA_CACHE_DISABLE");
  }
  ~CacheDirectory() {
    std::error_code ignored;
    if (!path_.empty()) fs::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }
  void Clear() const {
    std::error_code ignored;
    for (const auto& entry : fs::directory_iterator(path_, ignored)) fs::remove(entry, ignored);
  }

 private:
  std::string path_;
};

CacheDirectory& Cache() {
  static CacheDirectory directory;
  return directory;
}

// Every kernel module of the corpus (the link_* inputs, whose externs only a
// link resolves, are left out).
const std::vector<std::string>& Corpus() {
  static const std::vector<std::string> corpus = [] {
    std::vector<std::string> texts;
    std::vector<fs::path> paths;
    for (const auto& entry : fs::directory_iterator(STREAMHAL_PTX_CORPUS_DIR)) {
      const std::string name = entry.path().filename().string();
      if (entry.path().extension() == ".ptx" && name.rfind("link_", 0) != 0) {
        paths.push_back(entry.path());
      }
    }
    std::sort(paths.begin(), paths.end());
    for (const fs::path& path : paths) texts.push_back(ReadText(path));
    return texts;
  }();
  return corpus;
}

// The PTX and GLSL forms of the three kernels, and their data.
struct KernelPairs {
  CUmodule modules[6] = {};
  CUfunction vector_add[2] = {}, block_reduce[2] = {}, matmul[2] = {};  // [0] GLSL, [1] PTX
  CUdeviceptr a = 0, b = 0, c = 0;
  bool ok = false;
};

constexpr int kVectorN = 1 << 20;
constexpr int kMatrixN = 256;

bool Load(CUmodule* module, CUfunction* function, const void* image, const char* name) {
  return cuModuleLoadData(module, image) == CUDA_SUCCESS &&
         cuModuleGetFunction(function, *module, name) == CUDA_SUCCESS;
}

bool LoadFile(CUmodule* module, CUfunction* function, const char* path, const char* name) {
  return cuModuleLoad(module, path) == CUDA_SUCCESS &&
         cuModuleGetFunction(function, *module, name) == CUDA_SUCCESS;
}

KernelPairs& Kernels() {
  static KernelPairs k = [] {
    KernelPairs p;
    Cache();
    static const std::string vector_add =
        ReadText(fs::path(STREAMHAL_PTX_CORPUS_DIR) / "vector_add.ptx");
    static const std::string block_reduce =
        ReadText(fs::path(STREAMHAL_PTX_CORPUS_DIR) / "block_reduce.ptx");
    static const std::string matmul =
        ReadText(fs::path(STREAMHAL_PTX_CORPUS_DIR) / "matmul_tiled.ptx");
    p.ok = LoadFile(&p.modules[0], &p.vector_add[0], GLSL_VECTOR_ADD_SPV, "vector_add") &&
           Load(&p.modules[1], &p.vector_add[1], vector_add.c_str(), "vector_add") &&
           LoadFile(&p.modules[2], &p.block_reduce[0], GLSL_BLOCK_REDUCE_SPV, "block_reduce") &&
           Load(&p.modules[3], &p.block_reduce[1], block_reduce.c_str(), "block_reduce") &&
           LoadFile(&p.modules[4], &p.matmul[0], GLSL_MATMUL_TILED_SPV, "matmul_tiled") &&
           Load(&p.modules[5], &p.matmul[1], matmul.c_str(), "matmul_tiled");
    const size_t bytes = std::max<size_t>(kVectorN, kMatrixN * kMatrixN) * sizeof(float);
    std::vector<float> host(bytes / sizeof(float));
    for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<float>(i % 13) * 0.5f;
    for (CUdeviceptr* d : {&p.a, &p.b, &p.c}) {
      p.ok = p.ok && cuMemAlloc(d, bytes) == CUDA_SUCCESS &&
             cuMemcpyHtoD(*d, host.data(), bytes) == CUDA_SUCCESS;
    }
    return p;
  }();
  return k;
}

enum class Algorithm { kVectorAdd, kMatmul, kReduce };

CUresult LaunchOnce(KernelPairs& k, Algorithm algorithm, bool ptx) {
  int n = kVectorN, m = kMatrixN, mn = kMatrixN, kk = kMatrixN;
  void* vector_params[] = {&k.a, &k.b, &k.c, &n};
  void* reduce_params[] = {&k.a, &k.c, &n};
  void* matmul_params[] = {&k.a, &k.b, &k.c, &m, &mn, &kk};
  CUresult r = CUDA_SUCCESS;
  switch (algorithm) {
    case Algorithm::kVectorAdd:
      r = cuLaunchKernel(k.vector_add[ptx], kVectorN / 256, 1, 1, 256, 1, 1, 0, nullptr,
                         vector_params, nullptr);
      break;
    case Algorithm::kReduce:
      r = cuLaunchKernel(k.block_reduce[ptx], kVectorN / 256, 1, 1, 256, 1, 1, 0, nullptr,
                         reduce_params, nullptr);
      break;
    case Algorithm::kMatmul:
      r = cuLaunchKernel(k.matmul[ptx], kMatrixN / 16, kMatrixN / 16, 1, 16, 16, 1, 0, nullptr,
                         matmul_params, nullptr);
      break;
  }
  return r != CUDA_SUCCESS ? r : cuCtxSynchronize();
}

// One launch and a wait per iteration: the kernel's run time plus the same
// launch cost for both forms. A first launch, untimed, builds the pipeline
// (the driver compiles the SPIR-V for the launch's block size).
void BM_Kernel(benchmark::State& state, Algorithm algorithm, bool ptx) {
  KernelPairs& k = Kernels();
  if (!k.ok || LaunchOnce(k, algorithm, ptx) != CUDA_SUCCESS) {
    state.SkipWithError("loading or launching the kernels failed");
    return;
  }
  for (auto _ : state) {
    if (LaunchOnce(k, algorithm, ptx) != CUDA_SUCCESS) {
      state.SkipWithError("launch failed");
      return;
    }
  }
}
BENCHMARK_CAPTURE(BM_Kernel, VectorAdd_glsl, Algorithm::kVectorAdd, false)->UseRealTime();
BENCHMARK_CAPTURE(BM_Kernel, VectorAdd_ptx, Algorithm::kVectorAdd, true)->UseRealTime();
BENCHMARK_CAPTURE(BM_Kernel, Matmul_glsl, Algorithm::kMatmul, false)->UseRealTime();
BENCHMARK_CAPTURE(BM_Kernel, Matmul_ptx, Algorithm::kMatmul, true)->UseRealTime();
BENCHMARK_CAPTURE(BM_Kernel, Reduce_glsl, Algorithm::kReduce, false)->UseRealTime();
BENCHMARK_CAPTURE(BM_Kernel, Reduce_ptx, Algorithm::kReduce, true)->UseRealTime();

// Parse + emit of every corpus module, no cache.
void BM_Ptx_TranslateCorpus(benchmark::State& state) {
  const std::vector<std::string>& corpus = Corpus();
  for (auto _ : state) {
    for (const std::string& text : corpus) {
      auto spirv = streamhal::ptx::TranslatePtx(text);
      if (!spirv.ok()) {
        state.SkipWithError("a corpus module did not translate");
        return;
      }
      benchmark::DoNotOptimize(spirv->data());
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(corpus.size()));
}
BENCHMARK(BM_Ptx_TranslateCorpus);

// The corpus through the cache: first loads (an empty cache: translate and
// write each entry) and second loads (read and check each entry).
void BM_Ptx_CachedCorpus(benchmark::State& state) {
  const bool warm = state.range(0) != 0;
  streamhal::ptx::CacheSettings settings;
  settings.enabled = true;
  settings.directory = Cache().path() + "/library";
  const std::vector<std::string>& corpus = Corpus();
  const std::string device = "streamhal-bench";
  for (auto _ : state) {
    if (!warm) {
      state.PauseTiming();
      std::error_code ignored;
      fs::remove_all(settings.directory, ignored);
      state.ResumeTiming();
    }
    for (const std::string& text : corpus) {
      auto result = streamhal::ptx::TranslatePtxCached(text, device, settings);
      if (!result.ok() || result->from_cache != warm) {
        state.SkipWithError(result.ok() ? "unexpected cache hit or miss" : "translation failed");
        return;
      }
      benchmark::DoNotOptimize(result->spirv.data());
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(corpus.size()));
}
BENCHMARK(BM_Ptx_CachedCorpus)->ArgName("warm")->Arg(0)->Arg(1);

// cuModuleLoadData + cuModuleUnload of the corpus: with an empty cache
// directory (translation) and with the entries of the previous loads.
void BM_Ptx_ModuleLoadCorpus(benchmark::State& state) {
  const bool warm = state.range(0) != 0;
  const std::vector<std::string>& corpus = Corpus();
  Cache().Clear();
  if (warm) {
    for (const std::string& text : corpus) {
      CUmodule module = nullptr;
      if (cuModuleLoadData(&module, text.c_str()) == CUDA_SUCCESS) cuModuleUnload(module);
    }
  }
  for (auto _ : state) {
    if (!warm) {
      state.PauseTiming();
      Cache().Clear();
      state.ResumeTiming();
    }
    for (const std::string& text : corpus) {
      CUmodule module = nullptr;
      if (cuModuleLoadData(&module, text.c_str()) != CUDA_SUCCESS ||
          cuModuleUnload(module) != CUDA_SUCCESS) {
        state.SkipWithError("cuModuleLoadData of a corpus module failed");
        return;
      }
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(corpus.size()));
}
BENCHMARK(BM_Ptx_ModuleLoadCorpus)->ArgName("warm")->Arg(0)->Arg(1);

}  // namespace
}  // namespace bench
