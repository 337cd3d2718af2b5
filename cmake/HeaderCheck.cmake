# The public headers (cuda.h, hip/hip_runtime.h, hip/hip_runtime_api.h)
# compile cleanly as C99, C11 and C17 and as C++17 and C++20, with
# -pedantic -Wall -Wextra -Werror: one small translation unit that includes
# them and uses a few declarations, checked (-fsyntax-only) once per standard.
#
# Run by ctest: cmake -DC_COMPILER=... -DCXX_COMPILER=... -DWORK_DIR=...
#   -DINCLUDE_DIRS="<dir>;<dir>" -P HeaderCheck.cmake
set(unit "${WORK_DIR}/public_headers.c")
file(WRITE "${unit}" [[
/* Written by cmake/HeaderCheck.cmake; compiled as C and as C++. */
#include <cuda.h>
#include <hip/hip_runtime.h>
#include <hip/hip_runtime_api.h>

int main(void) {
  CUdeviceptr pointer = 0;
  CUresult cuda = cuMemAlloc(&pointer, 16);
  hipDeviceptr_t device = 0;
  hipError_t hip = hipMalloc(&device, 16);
  return (cuda == CUDA_SUCCESS && hip == hipSuccess) ? 0 : 1;
}
]])

set(flags -fsyntax-only -pedantic -Wall -Wextra -Werror)
foreach(dir IN LISTS INCLUDE_DIRS)
  list(APPEND flags "-I${dir}")
endforeach()

set(failed "")
foreach(check "${C_COMPILER};-x;c;-std=c99" "${C_COMPILER};-x;c;-std=c11"
              "${C_COMPILER};-x;c;-std=c17" "${CXX_COMPILER};-x;c++;-std=c++17"
              "${CXX_COMPILER};-x;c++;-std=c++20")
  execute_process(COMMAND ${check} ${flags} "${unit}" RESULT_VARIABLE result)
  list(GET check -1 standard)
  if(result EQUAL 0)
    message(STATUS "public headers: ${standard} ok")
  else()
    list(APPEND failed ${standard})
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "public headers do not compile cleanly as: ${failed}")
endif()
