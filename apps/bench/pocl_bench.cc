// The same two figures on PoCL, Debian's CPU OpenCL runtime, in the same
// run: the round trip of an empty kernel (clEnqueueNDRangeKernel + clFinish)
// and the compute-bound LCG kernel (65,536 work-items x 20,000 steps). Built
// when CMake finds OpenCL (the ocl-icd loader); skipped at run time when the
// loader offers no PoCL platform.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace bench {
namespace {

constexpr size_t kLcgThreads = 65536;
constexpr size_t kLcgBlock = 256;
constexpr cl_uint kLcgIterations = 20000;

constexpr const char* kSource = R"CL(
__kernel void tiny(__global uint* out, uint value) {
  if (get_global_id(0) == 0) out[0] = value;
}
__kernel void lcg(__global uint* out, uint iterations) {
  const uint id = get_global_id(0);
  uint x = id;
  for (uint i = 0; i < iterations; ++i) x = x * 1664525u + 1013904223u;
  out[id] = x;
}
)CL";

// PoCL's CPU device with both kernels built, set up on first use so that a
// run filtering these benchmarks out never loads PoCL.
class Pocl {
 public:
  static Pocl& Get() {
    static Pocl* pocl = new Pocl;  // leaked: PoCL's threads outlive main
    return *pocl;
  }
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  cl_command_queue queue() const { return queue_; }
  cl_kernel tiny() const { return tiny_; }
  cl_kernel lcg() const { return lcg_; }
  cl_mem output() const { return output_; }

 private:
  Pocl() { error_ = SetUp(); }

  std::string SetUp() {
    cl_uint count = 0;
    if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0) {
      return "no OpenCL platform";
    }
    std::vector<cl_platform_id> platforms(count);
    clGetPlatformIDs(count, platforms.data(), nullptr);
    cl_platform_id platform = nullptr;
    for (cl_platform_id candidate : platforms) {
      char name[256] = {};
      clGetPlatformInfo(candidate, CL_PLATFORM_NAME, sizeof(name) - 1, name, nullptr);
      if (std::string(name).find("Portable Computing Language") != std::string::npos) {
        platform = candidate;
      }
    }
    if (platform == nullptr) return "no PoCL platform";
    cl_device_id device = nullptr;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, nullptr) != CL_SUCCESS) {
      return "no PoCL CPU device";
    }
    cl_int error = CL_SUCCESS;
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &error);
    if (error != CL_SUCCESS) return "clCreateContext failed";
    queue_ = clCreateCommandQueue(context, device, 0, &error);
    if (error != CL_SUCCESS) return "clCreateCommandQueue failed";
    const char* source = kSource;
    cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &error);
    if (error != CL_SUCCESS) return "clCreateProgramWithSource failed";
    if (clBuildProgram(program, 1, &device, "", nullptr, nullptr) != CL_SUCCESS) {
      return "clBuildProgram failed";
    }
    tiny_ = clCreateKernel(program, "tiny", &error);
    if (error != CL_SUCCESS) return "clCreateKernel(tiny) failed";
    lcg_ = clCreateKernel(program, "lcg", &error);
    if (error != CL_SUCCESS) return "clCreateKernel(lcg) failed";
    output_ =
        clCreateBuffer(context, CL_MEM_READ_WRITE, kLcgThreads * sizeof(cl_uint), nullptr, &error);
    if (error != CL_SUCCESS) return "clCreateBuffer failed";
    if (clSetKernelArg(tiny_, 0, sizeof(output_), &output_) != CL_SUCCESS ||
        clSetKernelArg(lcg_, 0, sizeof(output_), &output_) != CL_SUCCESS ||
        clSetKernelArg(lcg_, 1, sizeof(kLcgIterations), &kLcgIterations) != CL_SUCCESS) {
      return "clSetKernelArg failed";
    }
    return "";
  }

  std::string error_;
  cl_command_queue queue_ = nullptr;
  cl_kernel tiny_ = nullptr;
  cl_kernel lcg_ = nullptr;
  cl_mem output_ = nullptr;
};

void BM_OpenCL_RoundTrip(benchmark::State& state) {
  Pocl& pocl = Pocl::Get();
  if (!pocl.ok()) {
    state.SkipWithError(pocl.error().c_str());
    return;
  }
  cl_uint value = 0;
  const size_t one = 1;
  for (auto _ : state) {
    ++value;
    if (clSetKernelArg(pocl.tiny(), 1, sizeof(value), &value) != CL_SUCCESS ||
        clEnqueueNDRangeKernel(pocl.queue(), pocl.tiny(), 1, nullptr, &one, &one, 0, nullptr,
                               nullptr) != CL_SUCCESS ||
        clFinish(pocl.queue()) != CL_SUCCESS) {
      state.SkipWithError("enqueue or finish failed");
      break;
    }
  }
}
BENCHMARK(BM_OpenCL_RoundTrip)->UseRealTime();

void BM_OpenCL_Lcg(benchmark::State& state) {
  Pocl& pocl = Pocl::Get();
  if (!pocl.ok()) {
    state.SkipWithError(pocl.error().c_str());
    return;
  }
  for (auto _ : state) {
    if (clEnqueueNDRangeKernel(pocl.queue(), pocl.lcg(), 1, nullptr, &kLcgThreads, &kLcgBlock, 0,
                               nullptr, nullptr) != CL_SUCCESS ||
        clFinish(pocl.queue()) != CL_SUCCESS) {
      state.SkipWithError("enqueue or finish failed");
      break;
    }
  }
  cl_uint first[2] = {};
  clEnqueueReadBuffer(pocl.queue(), pocl.output(), CL_TRUE, 0, sizeof(first), first, 0, nullptr,
                      nullptr);
  cl_uint expected = 1;
  for (cl_uint i = 0; i < kLcgIterations; ++i) expected = expected * 1664525u + 1013904223u;
  if (first[1] != expected) state.SkipWithError("the LCG kernel computed a wrong value");
}
BENCHMARK(BM_OpenCL_Lcg)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace bench
