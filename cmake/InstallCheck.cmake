# Installs the build into a scratch prefix, then builds and runs, outside the
# source tree (the consumers are copied out first) and with nothing but the
# installed files, every way a user consumes streamhal:
#   1. CMake, C and C++ (apps/examples/install_consumer): consumer, cuda_checks,
#      hip_checks and interop_checks, built with find_package(streamhal);
#   2. CMake, C only (apps/examples/consumers/c_cmake): a project that never
#      enables C++, built for Debug, Release, RelWithDebInfo and MinSizeRel
#      against the package as installed (one configuration) in one
#      multi-configuration build tree;
#   3. Meson (consumers/meson), finding streamhal through pkg-config and
#      through its CMake package;
#   4. make (consumers/makefile), with flags from pkg-config and the kernel
#      compiled with glslangValidator;
#   5. bare compiler command lines with `pkg-config --cflags --libs`: the CUDA
#      program as C, the HIP program as C++, and the CUDA one again with
#      `--static`;
#   6. the same programs linked with -lcuda / -lamdhip64 against the drop-in
#      libraries and run with LD_LIBRARY_PATH (where they are built).
# Each program runs a kernel on the first device and checks its result, and
# must exit 0. Consumers 2-5 share consumers/{cuda_saxpy.c,hip_saxpy.c,
# saxpy.comp}, so each build is a few small files.
#
# Run by ctest: cmake -DBUILD_DIR=... -DSOURCE_DIR=... [-DLIBDIR=lib]
#   [-DC_COMPILER=...] [-DCXX_COMPILER=...] [-DSANITIZE=address,undefined]
#   -P InstallCheck.cmake
# SANITIZE is the build's STREAMHAL_SANITIZE (with commas): the installed
# libraries are instrumented, so every consumer is built with the same
# -fsanitize flags (an uninstrumented program cannot link them). The programs
# run in this script's environment, so ASAN_OPTIONS/LSAN_OPTIONS (e.g. the
# suppressions of leaks inside the Vulkan driver that a sanitizer run of the
# whole suite sets) apply to them as to every other test.
set(work "${BUILD_DIR}/install-check")
set(prefix "${work}/prefix")
file(REMOVE_RECURSE "${work}")
string(TIMESTAMP started "%s")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "install check: '${ARGN}' failed (${result})")
  endif()
endfunction()

# Like run(), printing the command's output only if it fails (Meson's CMake
# lookup warns about every linker flag in Abseil's targets it cannot read).
function(run_quietly)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE output
                  ERROR_VARIABLE output)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "install check: '${ARGN}' failed (${result}):\n${output}")
  endif()
endfunction()

function(step name)
  string(TIMESTAMP now "%s")
  math(EXPR elapsed "${now} - ${started}")
  message(STATUS "install check [${elapsed} s]: ${name}")
endfunction()

if(NOT LIBDIR)
  set(LIBDIR lib)
endif()
if(NOT C_COMPILER)
  set(C_COMPILER cc)
endif()
if(NOT CXX_COMPILER)
  set(CXX_COMPILER c++)
endif()
find_program(PKG_CONFIG NAMES pkg-config pkgconf REQUIRED)
find_program(MESON meson REQUIRED)

# Compiler and linker flags every consumer gets (the build's sanitizers).
set(san_flags "")
set(meson_sanitize none)
if(SANITIZE)
  string(REPLACE ";" "," SANITIZE "${SANITIZE}")
  set(san_flags "-fsanitize=${SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all")
  if(SANITIZE MATCHES "undefined")
    # As in StreamhalSanitizers.cmake: Debian's glslang has no RTTI.
    string(APPEND san_flags " -fno-sanitize=vptr")
  endif()
  set(meson_sanitize "${SANITIZE}")
endif()
separate_arguments(san_list UNIX_COMMAND "${san_flags}")

step("installing to a scratch prefix")
run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}")
file(COPY "${SOURCE_DIR}/apps/examples/install_consumer" "${SOURCE_DIR}/apps/examples/consumers"
     DESTINATION "${work}/src")
set(src "${work}/src/consumers")
set(kernel_source "${src}/saxpy.comp")
# Only the scratch prefix: no pkg-config file or CMake package from elsewhere.
set(ENV{PKG_CONFIG_PATH} "${prefix}/${LIBDIR}/pkgconfig")
set(ENV{CMAKE_PREFIX_PATH} "${prefix}")
set(cmake_c_flags "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_C_COMPILER=${C_COMPILER}"
  "-DCMAKE_C_FLAGS=${san_flags}" "-DCMAKE_EXE_LINKER_FLAGS=${san_flags}")
set(cmake_cxx_flags "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" "-DCMAKE_CXX_FLAGS=${san_flags}")

step("1. CMake, C and C++")
set(out "${work}/cmake-cxx")
run(${CMAKE_COMMAND} -S "${work}/src/install_consumer" -B "${out}" -G Ninja
    ${cmake_c_flags} ${cmake_cxx_flags} -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build "${out}")
run("${out}/consumer")
run("${out}/cuda_checks")
run("${out}/hip_checks")
run("${out}/interop_checks")

step("2. CMake, C only, four build types")
set(out "${work}/cmake-c")
set(configs Debug Release RelWithDebInfo MinSizeRel)
# All four configurations in one build (one configure step, links in
# parallel). A list does not survive a command line passed through run(),
# hence the initial-cache file.
file(WRITE "${work}/c_cmake_configs.cmake"
  "set(CMAKE_CONFIGURATION_TYPES \"${configs}\" CACHE STRING \"\")\n"
  "set(CMAKE_CROSS_CONFIGS all CACHE STRING \"\")\n"
  "set(CMAKE_DEFAULT_CONFIGS all CACHE STRING \"\")\n")
run(${CMAKE_COMMAND} -S "${src}/c_cmake" -B "${out}" -G "Ninja Multi-Config" ${cmake_c_flags}
    -C "${work}/c_cmake_configs.cmake")
run(${CMAKE_COMMAND} --build "${out}")
foreach(config IN LISTS configs)
  step("2. CMake, C only: running the ${config} programs")
  run("${out}/${config}/cuda_saxpy" "${out}/saxpy_kernels.elf")
  run("${out}/${config}/hip_saxpy" "${out}/saxpy_kernels.elf")
endforeach()

foreach(method pkg-config cmake)
  step("3. Meson, dependency() through ${method}")
  set(out "${work}/meson-${method}")
  run_quietly(${CMAKE_COMMAND} -E env "CC=${C_COMPILER}"
      ${MESON} setup "${out}" "${src}/meson" -Dmethod=${method} -Db_sanitize=${meson_sanitize}
      "-Dpkg_config_path=${prefix}/${LIBDIR}/pkgconfig" "-Dcmake_prefix_path=${prefix}")
  run(${MESON} compile -C "${out}")
  run("${out}/cuda_saxpy" "${kernel_source}")
  run("${out}/hip_saxpy" "${kernel_source}")
endforeach()

step("4. make, with pkg-config")
set(out "${work}/make")
file(MAKE_DIRECTORY "${out}")
run(make -C "${out}" -f "${src}/makefile/Makefile" "srcdir=${src}/makefile"
    "CC=${C_COMPILER}" "CFLAGS=-O2 -Wall -Wextra ${san_flags}" "LDFLAGS=${san_flags}" check)

step("5. compiler command lines with pkg-config")
set(out "${work}/pkg-config")
file(MAKE_DIRECTORY "${out}")
# What a user types: cc app.c $(pkg-config --cflags --libs streamhal-cuda).
function(pkg_config_build output compiler module)
  cmake_parse_arguments(PARSE_ARGV 3 ARG "" "" "PKG_CONFIG_ARGS;SOURCE")
  execute_process(COMMAND ${PKG_CONFIG} --cflags --libs ${ARG_PKG_CONFIG_ARGS} ${module}
    OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "install check: pkg-config ${ARG_PKG_CONFIG_ARGS} ${module} failed")
  endif()
  separate_arguments(flags UNIX_COMMAND "${flags}")
  run(${compiler} ${san_list} -O2 -o "${output}" ${ARG_SOURCE} ${flags})
endfunction()
pkg_config_build("${out}/cuda_saxpy" ${C_COMPILER} streamhal-cuda
  SOURCE "${src}/cuda_saxpy.c")
run("${out}/cuda_saxpy" "${kernel_source}")
pkg_config_build("${out}/hip_saxpy" ${CXX_COMPILER} streamhal-hip
  SOURCE -x c++ "${src}/hip_saxpy.c" -x none)
run("${out}/hip_saxpy" "${kernel_source}")
pkg_config_build("${out}/cuda_saxpy_static" ${C_COMPILER} streamhal-cuda
  PKG_CONFIG_ARGS --static SOURCE "${src}/cuda_saxpy.c")
run("${out}/cuda_saxpy_static" "${kernel_source}")

# 6. The drop-in libraries (not built under the sanitizers): the programs of
# 5 linked dynamically against <prefix>/<libdir>/streamhal-dropin, as against
# NVIDIA's or AMD's library, and run with LD_LIBRARY_PATH pointing there.
set(dropin "${prefix}/${LIBDIR}/streamhal-dropin")
if(EXISTS "${dropin}/libcuda.so.1")
  step("6. drop-in libcuda.so.1 and libamdhip64.so.6 on LD_LIBRARY_PATH")
  set(out "${work}/dropin")
  file(MAKE_DIRECTORY "${out}")
  run(${C_COMPILER} -O2 -o "${out}/cuda_saxpy" "${src}/cuda_saxpy.c" "-I${prefix}/include"
      "-L${dropin}" -lcuda)
  run(${CXX_COMPILER} -O2 -o "${out}/hip_saxpy" -x c++ "${src}/hip_saxpy.c" -x none
      "-I${prefix}/include" "-L${dropin}" -lamdhip64)
  run(${CMAKE_COMMAND} -E env "LD_LIBRARY_PATH=${dropin}" "${out}/cuda_saxpy" "${kernel_source}")
  run(${CMAKE_COMMAND} -E env "LD_LIBRARY_PATH=${dropin}" "${out}/hip_saxpy" "${kernel_source}")
endif()

step("done")
