# The public headers compile cleanly as C99, C11 and C17 and as C++17 and
# C++20, with -pedantic -Wall -Wextra -Werror (-fsyntax-only):
#   1. each header of the include directories (cuda.h, hip/*.h) on its own;
#   2. one translation unit that includes cuda.h and the HIP umbrella headers
#      together and uses a few declarations;
#   3. as C++ only, one that calls every C++ overload of hip/hip_runtime_api.h
#      (hipMalloc(T**, ...), hipHostMalloc(&p, n), hipMemcpyToSymbol(const T&,
#      ...), ...) the way AMD's headers let a program call them;
#   4. LAYOUT_CHECK (C11 and later, C++): static assertions of the sizes,
#      alignments and offsets of vector_types.h;
#   5. CUDA13_CHECK (C and C++): cuda.h with STREAMHAL_CUDA_API_VERSION=13000,
#      whose plain names take the CUDA 13.0 signatures.
#
# Run by ctest: cmake -DC_COMPILER=... -DCXX_COMPILER=... -DWORK_DIR=...
#   -DINCLUDE_DIRS="<dir>;<dir>" -DLAYOUT_CHECK=<file> -DCUDA13_CHECK=<file>
#   -P HeaderCheck.cmake
cmake_minimum_required(VERSION 3.25)

set(unit "${WORK_DIR}/public_headers.c")
file(WRITE "${unit}" [[
/* Written by cmake/HeaderCheck.cmake; compiled as C and as C++. */
#include <cuda.h>
#include <hip/hip_ext.h>
#include <hip/hip_runtime.h>
#include <hip/hip_runtime_api.h>

int main(void) {
  CUdeviceptr pointer = 0;
  CUresult cuda = cuMemAlloc(&pointer, 16);
  hipDeviceptr_t device = 0;
  hipError_t hip = hipMalloc(&device, 16);
  float4 vector = make_float4(1.0f, 2.0f, 3.0f, 4.0f);
  hipChannelFormatDesc desc = hipCreateChannelDesc(32, 0, 0, 0, hipChannelFormatKindFloat);
  hipDataType type = HIP_R_32F;
  return (cuda == CUDA_SUCCESS && hip == hipSuccess && vector.w == 4.0f && desc.x == 32 &&
          type == HIP_R_32F) ? 0 : 1;
}
]])

set(overloads "${WORK_DIR}/hip_overloads.cc")
file(WRITE "${overloads}" [[
// Written by cmake/HeaderCheck.cmake: every C++ overload of
// hip/hip_runtime_api.h, called as a program written for AMD's headers calls
// them.
#include <hip/hip_runtime.h>

#include <cstddef>
#include <type_traits>

// A device global as host code names it.
static float symbol[16];
static double scalar_symbol;

static_assert(sizeof(float3) == 12 && alignof(float4) == 16 && alignof(double4) == 32, "");
static_assert(std::is_trivially_copyable<float4>::value, "");

int main() {
  float* device = nullptr;
  int* host = nullptr;
  void* raw = nullptr;
  const char* constant = nullptr;
  std::size_t pitch = 0;
  std::size_t size = 0;
  hipStream_t stream = nullptr;
  hipMemPool_t pool = nullptr;
  hipError_t e = hipSuccess;
  e = hipMalloc(&device, 64);
  e = hipMalloc(&constant, 64);
  e = hipMallocPitch(&device, &pitch, 64, 4);
  e = hipMallocManaged(&device, 64);
  e = hipMallocManaged(&device, 64, hipMemAttachHost);
  e = hipHostMalloc(&host, 64);
  e = hipHostMalloc(&raw, 64);
  e = hipHostMalloc(&host, 64, hipHostMallocMapped);
  e = hipHostAlloc(&host, 64);
  e = hipHostAlloc(&host, 64, hipHostAllocPortable);
  e = hipExtHostAlloc(&host, 64);
  e = hipMallocAsync(&device, 64, stream);
  e = hipMallocAsync(&device, 64, pool, stream);
  e = hipMallocAsync(&raw, 64, pool, stream);
  e = hipMallocFromPoolAsync(&device, 64, pool, stream);
  e = hipGetSymbolAddress(&raw, symbol);
  e = hipGetSymbolAddress(&raw, HIP_SYMBOL(scalar_symbol));
  e = hipGetSymbolSize(&size, scalar_symbol);
  e = hipMemcpyToSymbol(scalar_symbol, host, sizeof(double));
  e = hipMemcpyToSymbol(symbol, host, 8, 4, hipMemcpyHostToDevice);
  e = hipMemcpyToSymbolAsync(scalar_symbol, host, 8, 0, hipMemcpyHostToDevice);
  e = hipMemcpyToSymbolAsync(symbol, host, 8, 0, hipMemcpyDeviceToDevice, stream);
  e = hipMemcpyFromSymbol(host, scalar_symbol, sizeof(double));
  e = hipMemcpyFromSymbol(host, symbol, 8, 4, hipMemcpyDeviceToHost);
  e = hipMemcpyFromSymbolAsync(host, scalar_symbol, 8, 0, hipMemcpyDeviceToHost);
  e = hipMemcpyFromSymbolAsync(host, symbol, 8, 0, hipMemcpyDeviceToHost, stream);
  hipChannelFormatDesc desc = hipCreateChannelDesc<float4>();
  texture<float, hipTextureType2D> tex;
  dim3 grid(4);
  return (e == hipSuccess && desc.w == 32 && tex.normalized == 0 && grid.y == 1) ? 0 : 1;
}
]])

set(flags -fsyntax-only -pedantic -Wall -Wextra -Werror)
set(headers "")
foreach(dir IN LISTS INCLUDE_DIRS)
  list(APPEND flags "-I${dir}")
  file(GLOB found RELATIVE "${dir}" "${dir}/*.h" "${dir}/hip/*.h")
  list(APPEND headers ${found})
endforeach()
list(SORT headers)

# language|standard
set(standards "c|c99" "c|c11" "c|c17" "c++|c++17" "c++|c++20")
set(failed "")
set(passed 0)
# Compiles <unit> once per standard of the given languages ("c;c++" or "c++").
macro(check what unit languages)
  foreach(entry IN LISTS standards)
    string(REPLACE "|" ";" entry "${entry}")
    list(GET entry 0 language)
    list(GET entry 1 standard)
    if(NOT language IN_LIST ${languages})
      continue()
    endif()
    set(compiler "${C_COMPILER}")
    if(language STREQUAL "c++")
      set(compiler "${CXX_COMPILER}")
    endif()
    execute_process(COMMAND ${compiler} -x ${language} -std=${standard} ${flags} "${unit}"
                    RESULT_VARIABLE result)
    if(result EQUAL 0)
      math(EXPR passed "${passed} + 1")
    else()
      list(APPEND failed "${what} as ${standard}")
    endif()
  endforeach()
endmacro()

set(both c c++)
set(cxx_only c++)
foreach(header IN LISTS headers)
  string(MAKE_C_IDENTIFIER "${header}" name)
  set(alone "${WORK_DIR}/alone_${name}.c")
  file(WRITE "${alone}" "#include <${header}>\nint main(void) { return 0; }\n")
  check("${header} alone" "${alone}" both)
endforeach()
check("cuda.h with the HIP headers" "${unit}" both)
check("the HIP C++ overloads" "${overloads}" cxx_only)
# _Static_assert and _Alignof are C11.
set(standards "c|c11" "c|c17" "c++|c++17" "c++|c++20")
check("the vector type layouts" "${LAYOUT_CHECK}" both)
set(standards "c|c99" "c|c11" "c|c17" "c++|c++17" "c++|c++20")
check("cuda.h's CUDA 13.0 forms" "${CUDA13_CHECK}" both)

list(LENGTH headers header_count)
if(header_count LESS 10)
  message(FATAL_ERROR "public headers: found only ${header_count} in ${INCLUDE_DIRS}")
endif()
if(failed)
  string(REPLACE ";" "\n  " failed "${failed}")
  message(FATAL_ERROR "public headers do not compile cleanly:\n  ${failed}")
endif()
message(STATUS "public headers: ${passed} compilations of ${header_count} headers ok")
