# Installs the build into a scratch prefix, then configures, builds and runs
# apps/examples/install_consumer against it with find_package(streamhal):
# consumer, cuda_checks and hip_checks must each exit 0.
# Run by ctest: cmake -DBUILD_DIR=... -DSOURCE_DIR=... -P InstallCheck.cmake
set(prefix "${BUILD_DIR}/install-check/prefix")
set(consumer_build "${BUILD_DIR}/install-check/consumer")
file(REMOVE_RECURSE "${BUILD_DIR}/install-check")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "install check: '${ARGN}' failed (${result})")
  endif()
endfunction()

run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}")
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/apps/examples/install_consumer" -B "${consumer_build}"
    -G Ninja -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build "${consumer_build}")
run("${consumer_build}/consumer")
# Driver-API (C) and HIP module-API (C++) programs with their own kernels.
run("${consumer_build}/cuda_checks")
run("${consumer_build}/hip_checks")
