// Rows: module management through both APIs: loading kernel images of every
// format from files and memory (GLSL compiled at load time, raw SPIR-V, ELF
// code objects, fat binaries, HIP's fat-binary wrapper), JIT options, unload,
// kernels and module globals.
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "c_callers.h"
#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using ModuleConformance = ContextTest;
using JitConformance = ContextTest;
using GlobalConformance = ContextTest;

CUmodule AsCuda(hipModule_t module) { return reinterpret_cast<CUmodule>(module); }
hipModule_t AsHip(CUmodule module) { return reinterpret_cast<hipModule_t>(module); }
// Not a handle of any object.
CUmodule ForeignCudaModule() { return reinterpret_cast<CUmodule>(0x6543210); }
hipModule_t ForeignHipModule() { return reinterpret_cast<hipModule_t>(0x6543210); }

// HIP's __hipFatBinaryWrapper, as hipcc emits it.
struct HipFatBinaryWrapper {
  uint32_t magic;
  uint32_t version;
  const void* binary;
  void* reserved;
};
constexpr uint32_t kHipFatBinaryMagic = 0x48495046;  // "HIPF"

std::vector<uint32_t> VectorAddSpirv() { return CompileToSpirv(kVectorAddGlsl, "vector_add"); }

// The vector_add source without its STREAMHAL_KERNEL_NAME line.
std::string UnnamedVectorAddGlsl() {
  std::string source = kVectorAddGlsl;
  const std::string line = "#define STREAMHAL_KERNEL_NAME vector_add\n";
  source.erase(source.find(line), line.size());
  return source;
}

// The file name without folders and extensions.
std::string Stem(const std::string& path) {
  std::string stem = path.substr(path.find_last_of('/') + 1);
  return stem.substr(0, stem.find('.'));
}

// Loads `path` through both APIs and runs its vector_add kernel `name`.
void ExpectFileRunsVectorAdd(const std::string& path, const char* name) {
  CUmodule cuda_module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoad(&cuda_module, path.c_str())) << path;
  CUfunction cuda_function = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&cuda_function, cuda_module, name));
  ExpectCudaVectorAdd(cuda_function, 1000);
  hipModule_t hip_module = nullptr;
  ASSERT_HIP(hipSuccess, hipModuleLoad(&hip_module, path.c_str())) << path;
  hipFunction_t hip_function = nullptr;
  ASSERT_HIP(hipSuccess, hipModuleGetFunction(&hip_function, hip_module, name));
  ExpectHipVectorAdd(hip_function, 777);
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(cuda_module));
  EXPECT_HIP(hipSuccess, hipModuleUnload(hip_module));
}

// Loads an in-memory image through both APIs and runs vector_add.
void ExpectImageRunsVectorAdd(const void* image) {
  CUmodule cuda_module = nullptr;
  ExpectCudaVectorAdd(LoadCudaKernel(image, "vector_add", &cuda_module), 1024);
  hipModule_t hip_module = nullptr;
  ExpectHipVectorAdd(LoadHipKernel(image, "vector_add", &hip_module), 513);
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(cuda_module));
  EXPECT_HIP(hipSuccess, hipModuleUnload(hip_module));
}

// Every load entry point taking memory rejects `image` with `expected`.
void ExpectImageRejected(const void* image, CUresult expected) {
  CUmodule cuda_module = nullptr;
  hipModule_t hip_module = nullptr;
  EXPECT_BOTH(expected, cuModuleLoadData(&cuda_module, image),
              hipModuleLoadData(&hip_module, image));
  EXPECT_BOTH(expected, cuModuleLoadDataEx(&cuda_module, image, 0, nullptr, nullptr),
              hipModuleLoadDataEx(&hip_module, image, 0, nullptr, nullptr));
  EXPECT_EQ(cuda_module, nullptr);
  EXPECT_EQ(hip_module, nullptr);
}

// --- Loading ------------------------------------------------------------------------

TEST_F(ModuleConformance, LoadDataCompilesGlslSource) { ExpectImageRunsVectorAdd(kVectorAddGlsl); }

TEST_F(ModuleConformance, LoadDataTakesElfCodeObjectsWithSeveralKernels) {
  const std::vector<uint8_t> elf =
      ElfImage({VectorAddSpirv(), CompileToSpirv(kScaleOffsetGlsl, "scale_offset")});
  ExpectImageRunsVectorAdd(elf.data());
  // The second kernel of the same image.
  CUmodule module = nullptr;
  CUfunction scale = LoadCudaKernel(elf.data(), "scale_offset", &module);
  ASSERT_NE(scale, nullptr);
  const std::vector<float> values = Iota(100);
  CUdeviceptr data = CudaUpload(values);
  float factor = 4.0f, offset = 0.5f;
  uint32_t n = 100;
  void* params[] = {&data, &factor, &offset, &n};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(scale, 2, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  const std::vector<float> result = CudaDownload<float>(data, 100);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(result[i], values[i] * 4.0f + 0.5f);
}

TEST_F(ModuleConformance, LoadDataTakesFatBinariesAndTheHipWrapper) {
  const std::vector<uint32_t> spirv = VectorAddSpirv();
  // A bundle entry may hold an ELF code object or raw SPIR-V (its size is
  // the entry's).
  const std::vector<uint8_t> with_elf = FatBinaryImage(ElfImage({spirv}));
  const std::vector<uint8_t> with_spirv = FatBinaryImage(SpirvBytes(spirv));
  ExpectImageRunsVectorAdd(with_elf.data());
  ExpectImageRunsVectorAdd(with_spirv.data());
  const HipFatBinaryWrapper wrapper{kHipFatBinaryMagic, 1, with_elf.data(), nullptr};
  ExpectImageRunsVectorAdd(&wrapper);
}

TEST_F(ModuleConformance, LoadReadsFilesOfEveryFormat) {
  const std::vector<uint32_t> spirv = VectorAddSpirv();
  ExpectFileRunsVectorAdd(WriteTempFile("vector_add.spv", SpirvBytes(spirv)), "vector_add");
  ExpectFileRunsVectorAdd(WriteTempFile("vector_add.elf", ElfImage({spirv})), "vector_add");
  ExpectFileRunsVectorAdd(WriteTempFile("vector_add.fatbin", FatBinaryImage(ElfImage({spirv}))),
                          "vector_add");
  ExpectFileRunsVectorAdd(WriteTempFile("named.comp", std::string(kVectorAddGlsl)), "vector_add");
  // GLSL without a STREAMHAL_KERNEL_NAME names its kernel after the file.
  const std::string path = WriteTempFile("unnamed.comp", UnnamedVectorAddGlsl());
  ExpectFileRunsVectorAdd(path, Stem(path).c_str());
}

TEST_F(ModuleConformance, LoadOfAMissingFileIsFileNotFound) {
  CUmodule cuda_module = nullptr;
  hipModule_t hip_module = nullptr;
  const std::string missing = testing::TempDir() + "streamhal_no_such_kernel.spv";
  EXPECT_BOTH(CUDA_ERROR_FILE_NOT_FOUND, cuModuleLoad(&cuda_module, missing.c_str()),
              hipModuleLoad(&hip_module, missing.c_str()));
  EXPECT_EQ(cuda_module, nullptr);
  EXPECT_EQ(hip_module, nullptr);
}

// An empty path names no file for CUDA; AMD's hipModuleLoad rejects it as
// an argument.
TEST_F(ModuleConformance, LoadOfAnEmptyPathIsNotFoundInCudaAndInvalidInHip) {
  CUmodule cuda_module = nullptr;
  hipModule_t hip_module = nullptr;
  EXPECT_CU(CUDA_ERROR_FILE_NOT_FOUND, cuModuleLoad(&cuda_module, ""));
  EXPECT_HIP(hipErrorInvalidValue, hipModuleLoad(&hip_module, ""));
  EXPECT_EQ(cuda_module, nullptr);
  EXPECT_EQ(hip_module, nullptr);
}

// CUDA documents CUDA_ERROR_FILE_NOT_FOUND for a file it cannot load; a
// directory opens but cannot be read as one.
TEST_F(ModuleConformance, LoadOfADirectoryIsFileNotFound) {
  CUmodule cuda_module = nullptr;
  hipModule_t hip_module = nullptr;
  const std::string directory = testing::TempDir();
  EXPECT_BOTH(CUDA_ERROR_FILE_NOT_FOUND, cuModuleLoad(&cuda_module, directory.c_str()),
              hipModuleLoad(&hip_module, directory.c_str()));
  EXPECT_BOTH(CUDA_ERROR_FILE_NOT_FOUND, cuModuleLoad(&cuda_module, "/"),
              hipModuleLoad(&hip_module, "/"));
  EXPECT_EQ(cuda_module, nullptr);
  EXPECT_EQ(hip_module, nullptr);
}

TEST_F(ModuleConformance, LoadRejectsNullArgumentsAndNeedsAContext) {
  CUmodule cuda_module = nullptr;
  hipModule_t hip_module = nullptr;
  const std::string path = WriteTempFile("null_args.comp", std::string(kVectorAddGlsl));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuModuleLoad(nullptr, path.c_str()),
              hipModuleLoad(nullptr, path.c_str()));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuModuleLoad(&cuda_module, nullptr),
              hipModuleLoad(&hip_module, nullptr));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuModuleLoadData(nullptr, kVectorAddGlsl),
              hipModuleLoadData(nullptr, kVectorAddGlsl));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuModuleLoadData(&cuda_module, nullptr),
              hipModuleLoadData(&hip_module, nullptr));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuModuleLoadDataEx(&cuda_module, nullptr, 0, nullptr, nullptr),
              hipModuleLoadDataEx(&hip_module, nullptr, 0, nullptr, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuModuleLoad(&cuda_module, path.c_str()));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuModuleLoadData(&cuda_module, kVectorAddGlsl));
  EXPECT_EQ(cuda_module, nullptr);
}

TEST_F(ModuleConformance, MalformedImagesInMemoryAreInvalidImage) {
  // Bytes that are no known format.
  const std::vector<uint8_t> garbage(256, 0xfe);
  ExpectImageRejected(garbage.data(), CUDA_ERROR_INVALID_IMAGE);
  // Raw SPIR-V has no length, so it is never taken from a pointer.
  const std::vector<uint32_t> spirv = VectorAddSpirv();
  ExpectImageRejected(spirv.data(), CUDA_ERROR_INVALID_IMAGE);

  const std::vector<uint8_t> elf = ElfImage({spirv});
  // An ELF code object whose second half is missing (zeros, so nothing is
  // read outside the buffer).
  std::vector<uint8_t> cut = elf;
  std::fill(cut.begin() + static_cast<std::ptrdiff_t>(cut.size() / 2), cut.end(), 0);
  ExpectImageRejected(cut.data(), CUDA_ERROR_INVALID_IMAGE);
  // A 32-bit ELF file.
  std::vector<uint8_t> elf32 = elf;
  elf32[4] = 1;  // EI_CLASS = ELFCLASS32
  ExpectImageRejected(elf32.data(), CUDA_ERROR_INVALID_IMAGE);
  // Section headers claimed far beyond any real image.
  std::vector<uint8_t> far = elf;
  const uint64_t far_offset = uint64_t{1} << 40;
  std::memcpy(far.data() + 0x28, &far_offset, sizeof(far_offset));  // e_shoff
  ExpectImageRejected(far.data(), CUDA_ERROR_INVALID_IMAGE);

  const std::vector<uint8_t> bundle = FatBinaryImage(elf);
  // A bundle claiming more entries than any bundle has.
  std::vector<uint8_t> many = bundle;
  const uint64_t entries = uint64_t{1} << 40;
  std::memcpy(many.data() + 24, &entries, sizeof(entries));
  ExpectImageRejected(many.data(), CUDA_ERROR_INVALID_IMAGE);
  // A bundle whose first entry claims a huge size.
  std::vector<uint8_t> huge = bundle;
  const uint64_t size = uint64_t{1} << 40;
  std::memcpy(huge.data() + 40, &size, sizeof(size));
  ExpectImageRejected(huge.data(), CUDA_ERROR_INVALID_IMAGE);
  // A HIP wrapper of an unknown version.
  const HipFatBinaryWrapper wrapper{kHipFatBinaryMagic, 2, bundle.data(), nullptr};
  ExpectImageRejected(&wrapper, CUDA_ERROR_INVALID_IMAGE);
}

// cuModuleLoadData's image has no size, so it is read only as far as its
// headers prove it extends: a short buffer that starts with a format's magic
// is rejected at its first byte that does not fit the format. Each buffer is
// a heap block of exactly its size, so a sanitizer build sees any read past
// it.
TEST_F(ModuleConformance, ShortBuffersStartingWithAMagicAreInvalidImage) {
  const std::string bundle_magic = "__CLANG_OFFLOAD_BUNDLE__";
  const std::vector<std::vector<uint8_t>> cases = {
      // ELF magic, then text where the 64-bit class byte belongs.
      {0x7f, 'E', 'L', 'F', 'n', 'o', 't', '-', 'e', 'l', 'f', '!', 0},
      {0x7f, 'E', 'L', 'F', 1},      // ELFCLASS32
      {0x7f, 'E', 'L', 'F', 2, 2},   // big-endian
      // Bundle magic, then an entry count over any bundle's.
      [&] {
        std::vector<uint8_t> bytes(bundle_magic.begin(), bundle_magic.end());
        bytes.push_back('x');
        bytes.push_back('y');
        return bytes;
      }(),
      // HIP's wrapper magic ("HIPF" little-endian) and version 2.
      {'F', 'P', 'I', 'H', 2},
  };
  for (const std::vector<uint8_t>& bytes : cases) {
    SCOPED_TRACE(testing::PrintToString(bytes));
    const auto exact = std::make_unique<uint8_t[]>(bytes.size());
    std::memcpy(exact.get(), bytes.data(), bytes.size());
    ExpectImageRejected(exact.get(), CUDA_ERROR_INVALID_IMAGE);
  }
}

TEST_F(ModuleConformance, MalformedAndTruncatedFilesAreInvalidImage) {
  const std::vector<uint32_t> spirv = VectorAddSpirv();
  const std::vector<uint8_t> spirv_bytes = SpirvBytes(spirv);
  const std::vector<uint8_t> elf = ElfImage({spirv});
  const std::vector<uint8_t> bundle = FatBinaryImage(elf);
  auto half = [](const std::vector<uint8_t>& bytes) {
    return std::vector<uint8_t>(bytes.begin(),
                                bytes.begin() + static_cast<std::ptrdiff_t>(bytes.size() / 2));
  };
  const std::vector<std::string> paths = {
      WriteTempFile("truncated.elf", half(elf)),
      WriteTempFile("truncated.fatbin", half(bundle)),
      WriteTempFile("truncated.spv",
                    std::vector<uint8_t>(spirv_bytes.begin(), spirv_bytes.end() - 2)),
      WriteTempFile("garbage.bin", std::vector<uint8_t>(1000, 0xfe)),
  };
  for (const std::string& path : paths) {
    SCOPED_TRACE(path);
    CUmodule cuda_module = nullptr;
    hipModule_t hip_module = nullptr;
    EXPECT_BOTH(CUDA_ERROR_INVALID_IMAGE, cuModuleLoad(&cuda_module, path.c_str()),
                hipModuleLoad(&hip_module, path.c_str()));
    EXPECT_EQ(cuda_module, nullptr);
    EXPECT_EQ(hip_module, nullptr);
  }
}

TEST_F(ModuleConformance, EmptyFileIsInvalidImage) {
  const std::string path = WriteTempFile("empty.spv", std::vector<uint8_t>());
  CUmodule cuda_module = nullptr;
  hipModule_t hip_module = nullptr;
  EXPECT_BOTH(CUDA_ERROR_INVALID_IMAGE, cuModuleLoad(&cuda_module, path.c_str()),
              hipModuleLoad(&hip_module, path.c_str()));
  EXPECT_EQ(cuda_module, nullptr);
  EXPECT_EQ(hip_module, nullptr);
}

// The SPIR-V header alone is no module: OpMemoryModel is required.
TEST_F(ModuleConformance, SpirvWithoutInstructionsIsInvalidImage) {
  const std::vector<uint8_t> spirv_bytes = SpirvBytes(VectorAddSpirv());
  ASSERT_GT(spirv_bytes.size(), 20u);
  const std::string path = WriteTempFile(
      "header_only.spv", std::vector<uint8_t>(spirv_bytes.begin(), spirv_bytes.begin() + 20));
  CUmodule cuda_module = nullptr;
  hipModule_t hip_module = nullptr;
  EXPECT_BOTH(CUDA_ERROR_INVALID_IMAGE, cuModuleLoad(&cuda_module, path.c_str()),
              hipModuleLoad(&hip_module, path.c_str()));
  const std::vector<uint8_t> elf =
      ElfImage({std::vector<uint32_t>(reinterpret_cast<const uint32_t*>(spirv_bytes.data()),
                                      reinterpret_cast<const uint32_t*>(spirv_bytes.data()) + 5)});
  ExpectImageRejected(elf.data(), CUDA_ERROR_INVALID_IMAGE);
}

TEST_F(ModuleConformance, ImagesWithTwoKernelsOfOneNameAreInvalid) {
  const std::vector<uint32_t> spirv = VectorAddSpirv();
  const std::vector<uint8_t> elf = ElfImage({spirv, spirv});
  ExpectImageRejected(elf.data(), CUDA_ERROR_INVALID_IMAGE);
}

TEST_F(ModuleConformance, FatBinaryWithoutSpirvIsNoBinaryForGpu) {
  const std::vector<uint8_t> bundle = FatBinaryWithoutSpirv();
  ExpectImageRejected(bundle.data(), CUDA_ERROR_NO_BINARY_FOR_GPU);
  CUmodule cuda_module = nullptr;
  hipModule_t hip_module = nullptr;
  EXPECT_BOTH(CUDA_ERROR_NO_BINARY_FOR_GPU, cuModuleLoadFatBinary(&cuda_module, bundle.data()),
              hipModuleLoadFatBin(&hip_module, bundle.data()));
  const std::string path = WriteTempFile("other_gpu.fatbin", bundle);
  EXPECT_BOTH(CUDA_ERROR_NO_BINARY_FOR_GPU, cuModuleLoad(&cuda_module, path.c_str()),
              hipModuleLoad(&hip_module, path.c_str()));
}

TEST_F(ModuleConformance, GlslCompileErrorIsInvalidPtx) {
  CUmodule cuda_module = nullptr;
  hipModule_t hip_module = nullptr;
  // CUDA reports a PTX that does not compile as CUDA_ERROR_INVALID_PTX; HIP
  // as hipErrorInvalidKernelFile.
  EXPECT_BOTH(CUDA_ERROR_INVALID_PTX, cuModuleLoadData(&cuda_module, kBrokenGlsl),
              hipModuleLoadData(&hip_module, kBrokenGlsl));
  const std::string path = WriteTempFile("broken.comp", std::string(kBrokenGlsl));
  EXPECT_BOTH(CUDA_ERROR_INVALID_PTX, cuModuleLoad(&cuda_module, path.c_str()),
              hipModuleLoad(&hip_module, path.c_str()));
  EXPECT_EQ(cuda_module, nullptr);
  EXPECT_EQ(hip_module, nullptr);
}

// --- Fat binaries ------------------------------------------------------------------

TEST_F(ModuleConformance, LoadFatBinaryRunsItsKernels) {
  const std::vector<uint8_t> bundle = FatBinaryImage(ElfImage({VectorAddSpirv()}));
  const HipFatBinaryWrapper wrapper{kHipFatBinaryMagic, 1, bundle.data(), nullptr};
  for (const void* image :
       {static_cast<const void*>(bundle.data()), static_cast<const void*>(&wrapper)}) {
    CUmodule cuda_module = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuModuleLoadFatBinary(&cuda_module, image));
    CUfunction cuda_function = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&cuda_function, cuda_module, "vector_add"));
    ExpectCudaVectorAdd(cuda_function, 300);
    hipModule_t hip_module = nullptr;
    ASSERT_HIP(hipSuccess, hipModuleLoadFatBin(&hip_module, image));
    hipFunction_t hip_function = nullptr;
    ASSERT_HIP(hipSuccess, hipModuleGetFunction(&hip_function, hip_module, "vector_add"));
    ExpectHipVectorAdd(hip_function, 301);
    hipModule_t hip_module2 = nullptr;
    ASSERT_HIP(hipSuccess, hipModuleLoadFatBinary(&hip_module2, image));
    ASSERT_HIP(hipSuccess, hipModuleGetFunction(&hip_function, hip_module2, "vector_add"));
    ExpectHipVectorAdd(hip_function, 302);
    EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(cuda_module));
    EXPECT_HIP(hipSuccess, hipModuleUnload(hip_module));
    EXPECT_HIP(hipSuccess, hipModuleUnload(hip_module2));
  }
}

TEST_F(ModuleConformance, LoadFatBinaryRejectsOtherFormatsAndNull) {
  const std::vector<uint8_t> elf = ElfImage({VectorAddSpirv()});
  CUmodule cuda_module = nullptr;
  hipModule_t hip_module = nullptr;
  for (const void* image :
       {static_cast<const void*>(elf.data()), static_cast<const void*>(kVectorAddGlsl)}) {
    EXPECT_BOTH(CUDA_ERROR_INVALID_IMAGE, cuModuleLoadFatBinary(&cuda_module, image),
                hipModuleLoadFatBin(&hip_module, image));
    EXPECT_HIP(hipErrorInvalidImage, hipModuleLoadFatBinary(&hip_module, image));
  }
  const std::vector<uint8_t> bundle = FatBinaryImage(elf);
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuModuleLoadFatBinary(&cuda_module, nullptr),
              hipModuleLoadFatBin(&hip_module, nullptr));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuModuleLoadFatBinary(nullptr, bundle.data()),
              hipModuleLoadFatBin(nullptr, bundle.data()));
  EXPECT_HIP(hipErrorInvalidValue, hipModuleLoadFatBinary(&hip_module, nullptr));
  std::vector<uint8_t> huge = bundle;
  const uint64_t size = uint64_t{1} << 40;
  std::memcpy(huge.data() + 40, &size, sizeof(size));
  EXPECT_BOTH(CUDA_ERROR_INVALID_IMAGE, cuModuleLoadFatBinary(&cuda_module, huge.data()),
              hipModuleLoadFatBin(&hip_module, huge.data()));
  EXPECT_HIP(hipErrorInvalidImage, hipModuleLoadFatBinary(&hip_module, huge.data()));
  EXPECT_EQ(cuda_module, nullptr);
  EXPECT_EQ(hip_module, nullptr);
}

// --- JIT options (cuModuleLoadDataEx) -------------------------------------------------

TEST_F(JitConformance, CompileErrorLogGoesToTheErrorBufferWithItsSize) {
  char error_log[4096];
  char info_log[4096];
  std::memset(error_log, 'x', sizeof(error_log));
  std::memset(info_log, 'x', sizeof(info_log));
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {error_log, reinterpret_cast<void*>(sizeof(error_log)), info_log,
                    reinterpret_cast<void*>(sizeof(info_log))};
  CUmodule module = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_PTX, cuModuleLoadDataEx(&module, kBrokenGlsl, 4, options, values));
  EXPECT_EQ(module, nullptr);
  // The log names the problem; the size slot now holds the bytes written,
  // the terminating NUL included.
  ASSERT_NE(std::memchr(error_log, '\0', sizeof(error_log)), nullptr);
  EXPECT_NE(std::strstr(error_log, "undeclared_variable"), nullptr) << error_log;
  EXPECT_EQ(reinterpret_cast<uintptr_t>(values[1]), std::strlen(error_log) + 1);
  // The buffers themselves are where they were.
  EXPECT_EQ(values[0], error_log);
  EXPECT_EQ(values[2], info_log);
}

TEST_F(JitConformance, HipCompileErrorLogGoesToTheErrorBufferWithItsSize) {
  char error_log[4096];
  std::memset(error_log, 'x', sizeof(error_log));
  hipJitOption options[] = {hipJitOptionErrorLogBuffer, hipJitOptionErrorLogBufferSizeBytes};
  void* values[] = {error_log, reinterpret_cast<void*>(sizeof(error_log))};
  hipModule_t module = nullptr;
  EXPECT_HIP(hipErrorInvalidKernelFile,
             hipModuleLoadDataEx(&module, kBrokenGlsl, 2, options, values));
  EXPECT_EQ(module, nullptr);
  ASSERT_NE(std::memchr(error_log, '\0', sizeof(error_log)), nullptr);
  EXPECT_NE(std::strstr(error_log, "undeclared_variable"), nullptr) << error_log;
  EXPECT_EQ(reinterpret_cast<uintptr_t>(values[1]), std::strlen(error_log) + 1);
}

TEST_F(JitConformance, ErrorLogIsTruncatedToTheBuffer) {
  char error_log[16];
  std::memset(error_log, 'x', sizeof(error_log));
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {error_log, reinterpret_cast<void*>(sizeof(error_log))};
  CUmodule module = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_PTX, cuModuleLoadDataEx(&module, kBrokenGlsl, 2, options, values));
  EXPECT_EQ(error_log[15], '\0');
  EXPECT_EQ(std::strlen(error_log), 15u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(values[1]), 16u);
}

TEST_F(JitConformance, SuccessfulCompileReportsWallTimeAndLogs) {
  char error_log[256];
  char info_log[8192];
  std::memset(error_log, 'x', sizeof(error_log));
  std::memset(info_log, 'x', sizeof(info_log));
  CUjit_option options[] = {CU_JIT_WALL_TIME,
                            CU_JIT_INFO_LOG_BUFFER,
                            CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_LOG_VERBOSE};
  void* values[] = {nullptr,
                    info_log,
                    reinterpret_cast<void*>(sizeof(info_log)),
                    error_log,
                    reinterpret_cast<void*>(sizeof(error_log)),
                    reinterpret_cast<void*>(1)};
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadDataEx(&module, kVectorAddGlsl, 6, options, values));
  // CUDA: CU_JIT_WALL_TIME "overwrites the option value with the total wall
  // clock time, in milliseconds, spent in the compiler" as a float.
  float wall_time_ms = -1.0f;
  std::memcpy(&wall_time_ms, &values[0], sizeof(wall_time_ms));
  EXPECT_GT(wall_time_ms, 0.0f);
  EXPECT_LT(wall_time_ms, 60000.0f);
  // No errors; a verbose info log with its size.
  EXPECT_EQ(error_log[0], '\0');
  EXPECT_LE(reinterpret_cast<uintptr_t>(values[4]), 1u);
  ASSERT_NE(std::memchr(info_log, '\0', sizeof(info_log)), nullptr);
  EXPECT_GT(std::strlen(info_log), 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(values[2]), std::strlen(info_log) + 1);
  CUfunction function = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&function, module, "vector_add"));
  ExpectCudaVectorAdd(function, 256);

  // The same through HIP.
  void* hip_values[] = {nullptr,
                        info_log,
                        reinterpret_cast<void*>(sizeof(info_log)),
                        error_log,
                        reinterpret_cast<void*>(sizeof(error_log)),
                        reinterpret_cast<void*>(1)};
  hipJitOption hip_options[] = {hipJitOptionWallTime,
                                hipJitOptionInfoLogBuffer,
                                hipJitOptionInfoLogBufferSizeBytes,
                                hipJitOptionErrorLogBuffer,
                                hipJitOptionErrorLogBufferSizeBytes,
                                hipJitOptionLogVerbose};
  hipModule_t hip_module = nullptr;
  ASSERT_HIP(hipSuccess,
             hipModuleLoadDataEx(&hip_module, kVectorAddGlsl, 6, hip_options, hip_values));
  float hip_wall_time_ms = -1.0f;
  std::memcpy(&hip_wall_time_ms, &hip_values[0], sizeof(hip_wall_time_ms));
  EXPECT_GT(hip_wall_time_ms, 0.0f);
  hipFunction_t hip_function = nullptr;
  ASSERT_HIP(hipSuccess, hipModuleGetFunction(&hip_function, hip_module, "vector_add"));
  ExpectHipVectorAdd(hip_function, 256);
}

TEST_F(JitConformance, OptionsThatDoNotApplyAreAcceptedAndIgnored) {
  CUjit_option options[] = {CU_JIT_MAX_REGISTERS, CU_JIT_OPTIMIZATION_LEVEL,
                            CU_JIT_TARGET_FROM_CUCONTEXT, CU_JIT_CACHE_MODE,
                            CU_JIT_GENERATE_LINE_INFO};
  void* values[] = {reinterpret_cast<void*>(32), reinterpret_cast<void*>(4), nullptr,
                    reinterpret_cast<void*>(CU_JIT_CACHE_OPTION_CA), reinterpret_cast<void*>(1)};
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadDataEx(&module, kVectorAddGlsl, 5, options, values));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(values[0]), 32u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(values[1]), 4u);
  CUfunction function = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&function, module, "vector_add"));
  ExpectCudaVectorAdd(function, 64);
  // Images that need no compiler take the options too.
  const std::vector<uint8_t> elf = ElfImage({CompileToSpirv(kVectorAddGlsl, "vector_add")});
  hipJitOption hip_options[] = {hipJitOptionMaxRegisters, hipJitOptionFastCompile};
  void* hip_values[] = {reinterpret_cast<void*>(64), reinterpret_cast<void*>(1)};
  hipModule_t hip_module = nullptr;
  ASSERT_HIP(hipSuccess, hipModuleLoadDataEx(&hip_module, elf.data(), 2, hip_options, hip_values));
  hipFunction_t hip_function = nullptr;
  ASSERT_HIP(hipSuccess, hipModuleGetFunction(&hip_function, hip_module, "vector_add"));
  ExpectHipVectorAdd(hip_function, 64);
}

TEST_F(JitConformance, LoadDataExWithoutOptionsIsLoadData) {
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadDataEx(&module, kVectorAddGlsl, 0, nullptr, nullptr));
  CUfunction function = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&function, module, "vector_add"));
  ExpectCudaVectorAdd(function, 100);
  hipModule_t hip_module = nullptr;
  ASSERT_HIP(hipSuccess, hipModuleLoadDataEx(&hip_module, kVectorAddGlsl, 0, nullptr, nullptr));
  hipFunction_t hip_function = nullptr;
  ASSERT_HIP(hipSuccess, hipModuleGetFunction(&hip_function, hip_module, "vector_add"));
  ExpectHipVectorAdd(hip_function, 100);
}

TEST_F(JitConformance, OptionArraysMustBeGivenWithACount) {
  CUjit_option options[] = {CU_JIT_WALL_TIME};
  void* values[] = {nullptr};
  hipJitOption hip_options[] = {hipJitOptionWallTime};
  CUmodule module = nullptr;
  hipModule_t hip_module = nullptr;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuModuleLoadDataEx(&module, kVectorAddGlsl, 1, nullptr, values),
              hipModuleLoadDataEx(&hip_module, kVectorAddGlsl, 1, nullptr, values));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuModuleLoadDataEx(&module, kVectorAddGlsl, 1, options, nullptr),
              hipModuleLoadDataEx(&hip_module, kVectorAddGlsl, 1, hip_options, nullptr));
  EXPECT_EQ(module, nullptr);
  EXPECT_EQ(hip_module, nullptr);
}

// CUDA: the options are CUjit_option values; an id the API does not define is
// CUDA_ERROR_INVALID_VALUE, not an option to ignore. Nothing is loaded and
// no value slot is written.
TEST_F(JitConformance, UnknownOptionIdsAreInvalidValue) {
  const std::vector<std::vector<int>> cuda_cases = {
      {CU_JIT_NUM_OPTIONS}, {-1}, {12345}, {CU_JIT_WALL_TIME, 1000}, {INT_MIN}};
  for (std::vector<int> options : cuda_cases) {
    std::vector<void*> values(options.size(), reinterpret_cast<void*>(0x5a));
    CUmodule module = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              CCallCuModuleLoadDataEx(&module, kVectorAddGlsl,
                                      static_cast<unsigned>(options.size()), options.data(),
                                      values.data()))
        << options.back();
    EXPECT_EQ(module, nullptr);
    for (void* value : values) EXPECT_EQ(value, reinterpret_cast<void*>(0x5a));
  }
  // hipJitOption defines fewer ids than CUjit_option.
  const std::vector<std::vector<int>> hip_cases = {
      {hipJitOptionNumOptions}, {-1}, {12345}, {hipJitOptionWallTime, 1000}};
  for (std::vector<int> options : hip_cases) {
    std::vector<void*> values(options.size(), reinterpret_cast<void*>(0x5a));
    hipModule_t module = nullptr;
    EXPECT_HIP(hipErrorInvalidValue,
               CCallHipModuleLoadDataEx(&module, kVectorAddGlsl,
                                        static_cast<unsigned>(options.size()), options.data(),
                                        values.data()))
        << options.back();
    EXPECT_EQ(module, nullptr);
    for (void* value : values) EXPECT_EQ(value, reinterpret_cast<void*>(0x5a));
  }
}

// --- Unload, functions ----------------------------------------------------------------

TEST_F(ModuleConformance, UnloadInvalidatesTheModuleAndItsFunctions) {
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kVectorAddGlsl, "vector_add", &module);
  ASSERT_NE(function, nullptr);
  ASSERT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuModuleUnload(module), hipModuleUnload(AsHip(module)));
  CUfunction again = nullptr;
  hipFunction_t hip_again = nullptr;
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuModuleGetFunction(&again, module, "vector_add"),
              hipModuleGetFunction(&hip_again, AsHip(module), "vector_add"));
  int value = 0;
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE,
              cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, function),
              hipFuncGetAttribute(&value, HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                  reinterpret_cast<hipFunction_t>(function)));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE,
              cuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr),
              hipModuleLaunchKernel(reinterpret_cast<hipFunction_t>(function), 1, 1, 1, 1, 1, 1, 0,
                                    nullptr, nullptr, nullptr));
}

TEST_F(ModuleConformance, UnloadRejectsNullAndForeignHandles) {
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuModuleUnload(nullptr), hipModuleUnload(nullptr));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuModuleUnload(ForeignCudaModule()),
              hipModuleUnload(ForeignHipModule()));
  // A context is not a module.
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuModuleUnload(reinterpret_cast<CUmodule>(context())),
              hipModuleUnload(reinterpret_cast<hipModule_t>(context())));
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&module, kVectorAddGlsl));
  // The module names its context, so none need be current (as ffmpeg's
  // thumbnail_cuda unloads); its functions are gone with it.
  CUfunction function = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&function, module, "vector_add"));
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuModuleUnload(module));
  ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(context()));
  int value = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, function));
}

TEST_F(ModuleConformance, GetFunctionFindsKernelsByName) {
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&module, kVectorAddGlsl));
  CUfunction cuda_function = nullptr;
  hipFunction_t hip_function = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&cuda_function, module, "vector_add"));
  ASSERT_HIP(hipSuccess, hipModuleGetFunction(&hip_function, AsHip(module), "vector_add"));
  EXPECT_NE(cuda_function, nullptr);
  // One kernel, one handle, whichever API asks.
  EXPECT_EQ(static_cast<const void*>(hip_function), static_cast<const void*>(cuda_function));
  CUfunction twice = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&twice, module, "vector_add"));
  EXPECT_EQ(twice, cuda_function);
}

TEST_F(ModuleConformance, GetFunctionRejectsUnknownNamesAndBadArguments) {
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&module, kVectorAddGlsl));
  CUfunction function = nullptr;
  hipFunction_t hip_function = nullptr;
  EXPECT_BOTH(CUDA_ERROR_NOT_FOUND, cuModuleGetFunction(&function, module, "vector_sub"),
              hipModuleGetFunction(&hip_function, AsHip(module), "vector_sub"));
  // The GLSL entry point was renamed; "main" is not a kernel of the module.
  EXPECT_BOTH(CUDA_ERROR_NOT_FOUND, cuModuleGetFunction(&function, module, "main"),
              hipModuleGetFunction(&hip_function, AsHip(module), "main"));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuModuleGetFunction(nullptr, module, "vector_add"),
              hipModuleGetFunction(nullptr, AsHip(module), "vector_add"));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuModuleGetFunction(&function, module, nullptr),
              hipModuleGetFunction(&hip_function, AsHip(module), nullptr));
  // An empty name is a name no kernel has (CUDA), an invalid argument (AMD).
  EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuModuleGetFunction(&function, module, ""));
  EXPECT_HIP(hipErrorInvalidValue, hipModuleGetFunction(&hip_function, AsHip(module), ""));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuModuleGetFunction(&function, nullptr, "vector_add"),
              hipModuleGetFunction(&hip_function, nullptr, "vector_add"));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE,
              cuModuleGetFunction(&function, ForeignCudaModule(), "vector_add"),
              hipModuleGetFunction(&hip_function, ForeignHipModule(), "vector_add"));
  EXPECT_EQ(function, nullptr);
  EXPECT_EQ(hip_function, nullptr);
}

// --- Module globals (cuModuleGetGlobal) ----------------------------------------------

TEST_F(GlobalConformance, GlobalsAreZeroedWrittenByCopiesAndReadByKernels) {
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kGlobalsGlsl, "scaled_table", &module);
  ASSERT_NE(function, nullptr);
  CUdeviceptr table = 0, counter = 0;
  size_t table_bytes = 0, counter_bytes = 0;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetGlobal(&table, &table_bytes, module, "table"));
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetGlobal(&counter, &counter_bytes, module, "counter"));
  EXPECT_EQ(table_bytes, kGlobalsTableSize * sizeof(float));
  EXPECT_EQ(counter_bytes, sizeof(uint32_t));
  EXPECT_EQ(counter, table + kGlobalsTableSize * sizeof(float));
  // Module-scope data starts zeroed.
  EXPECT_EQ(CudaDownload<float>(table, kGlobalsTableSize),
            std::vector<float>(kGlobalsTableSize, 0.0f));
  EXPECT_EQ(CudaDownload<uint32_t>(counter, 1)[0], 0u);

  const std::vector<float> values = Iota(kGlobalsTableSize, 1.5f);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(table, values.data(), table_bytes));
  CUdeviceptr out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&out, table_bytes));
  float factor = 2.0f;
  void* params[] = {&out, &factor};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(function, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(function, 2, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  const std::vector<float> result = CudaDownload<float>(out, kGlobalsTableSize);
  for (int i = 0; i < kGlobalsTableSize; ++i) EXPECT_EQ(result[i], values[i] * 2.0f) << i;
  // Every thread of both launches counted.
  EXPECT_EQ(CudaDownload<uint32_t>(counter, 1)[0], 96u);
  // Globals are ordinary device memory for every copy and fill.
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(counter, 7, 1));
  EXPECT_EQ(CudaDownload<uint32_t>(counter, 1)[0], 7u);
  CUdeviceptr base = 0;
  size_t size = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemGetAddressRange(&base, &size, counter));
  EXPECT_LE(base, table);
  EXPECT_GE(base + size, counter + counter_bytes);
}

TEST_F(GlobalConformance, HipSeesTheSameGlobals) {
  hipModule_t module = nullptr;
  hipFunction_t function = LoadHipKernel(kGlobalsGlsl, "scaled_table", &module);
  ASSERT_NE(function, nullptr);
  hipDeviceptr_t table = nullptr;
  size_t bytes = 0;
  ASSERT_HIP(hipSuccess, hipModuleGetGlobal(&table, &bytes, module, "table"));
  EXPECT_EQ(bytes, kGlobalsTableSize * sizeof(float));
  CUdeviceptr cuda_table = 0;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetGlobal(&cuda_table, nullptr, AsCuda(module), "table"));
  EXPECT_EQ(AsHipPointer(cuda_table), table);
  std::vector<float> values = Iota(kGlobalsTableSize, -1.0f);
  ASSERT_HIP(hipSuccess, hipMemcpyHtoD(table, values.data(), bytes));
  void* out = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&out, bytes));
  float factor = 0.5f;
  void* params[] = {&out, &factor};
  ASSERT_HIP(hipSuccess,
             hipModuleLaunchKernel(function, 1, 1, 1, 16, 1, 1, 0, nullptr, params, nullptr));
  std::vector<float> result(kGlobalsTableSize);
  ASSERT_HIP(hipSuccess, hipMemcpyDtoH(result.data(), out, bytes));
  for (int i = 0; i < kGlobalsTableSize; ++i) EXPECT_EQ(result[i], values[i] * 0.5f) << i;
}

TEST_F(GlobalConformance, GetGlobalRejectsUnknownNamesAndBadArguments) {
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&module, kGlobalsGlsl));
  CUdeviceptr pointer = 0;
  hipDeviceptr_t hip_pointer = nullptr;
  size_t bytes = 0;
  // Both outputs are optional (CUDA: "Returned global size" / "Returned
  // global device pointer" may be NULL); AMD's runtime wants at least one.
  EXPECT_CU(CUDA_SUCCESS, cuModuleGetGlobal(nullptr, nullptr, module, "table"));
  EXPECT_HIP(hipErrorInvalidValue, hipModuleGetGlobal(nullptr, nullptr, AsHip(module), "table"));
  EXPECT_HIP(hipSuccess, hipModuleGetGlobal(nullptr, &bytes, AsHip(module), "table"));
  EXPECT_GT(bytes, 0u);
  EXPECT_HIP(hipSuccess, hipModuleGetGlobal(&hip_pointer, nullptr, AsHip(module), "table"));
  EXPECT_NE(hip_pointer, nullptr);
  hip_pointer = nullptr;
  // An empty name: not found (CUDA), an invalid argument (AMD).
  EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuModuleGetGlobal(&pointer, &bytes, module, ""));
  EXPECT_HIP(hipErrorInvalidValue, hipModuleGetGlobal(&hip_pointer, &bytes, AsHip(module), ""));
  EXPECT_BOTH(CUDA_ERROR_NOT_FOUND, cuModuleGetGlobal(&pointer, &bytes, module, "tabel"),
              hipModuleGetGlobal(&hip_pointer, &bytes, AsHip(module), "tabel"));
  // The block's own name is not a global.
  EXPECT_BOTH(CUDA_ERROR_NOT_FOUND,
              cuModuleGetGlobal(&pointer, &bytes, module, "streamhal_globals"),
              hipModuleGetGlobal(&hip_pointer, &bytes, AsHip(module), "streamhal_globals"));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuModuleGetGlobal(&pointer, &bytes, module, nullptr),
              hipModuleGetGlobal(&hip_pointer, &bytes, AsHip(module), nullptr));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuModuleGetGlobal(&pointer, &bytes, nullptr, "table"),
              hipModuleGetGlobal(&hip_pointer, &bytes, nullptr, "table"));
  // A module without globals has none to find.
  CUmodule plain = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&plain, kVectorAddGlsl));
  EXPECT_BOTH(CUDA_ERROR_NOT_FOUND, cuModuleGetGlobal(&pointer, &bytes, plain, "table"),
              hipModuleGetGlobal(&hip_pointer, &bytes, AsHip(plain), "table"));
  // Unloading frees the globals.
  CUdeviceptr table = 0;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetGlobal(&table, nullptr, module, "table"));
  ASSERT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuModuleGetGlobal(&pointer, &bytes, module, "table"),
              hipModuleGetGlobal(&hip_pointer, &bytes, AsHip(module), "table"));
  EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(nullptr, nullptr, table));
  EXPECT_EQ(pointer, 0u);
  EXPECT_EQ(hip_pointer, nullptr);
}

}  // namespace
}  // namespace streamhal::conformance
