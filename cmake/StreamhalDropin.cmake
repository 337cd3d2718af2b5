# The drop-in shared libraries: libcuda.so.1 (+ libcuda.so) and
# libamdhip64.so.6 (+ libamdhip64.so), built from the static libraries into
# a directory of their own (build: <build>/dropin; install:
# <prefix>/<libdir>/streamhal-dropin), so that an existing dynamically
# linked driver-API or HIP module-API program runs on streamhal with
# LD_LIBRARY_PATH pointing there. Each exports exactly the API (version
# scripts: libcuda.map, generated from libs/cuda_binding/entry_points.tsv,
# and cmake/libamdhip64.map, which make everything else local); the C++
# runtime is linked statically. (Not --exclude-libs: the API itself comes
# from archives.) Each library holds its own copy of
# the core, so a process that loads both has two independent runtimes.
#
# Not built under the sanitizers: an instrumented library needs an
# instrumented program, which an existing binary is not.
option(STREAMHAL_BUILD_DROPIN "Build the drop-in libcuda.so.1 and libamdhip64.so.6"
       ON)
if(STREAMHAL_SANITIZE OR NOT STREAMHAL_BUILD_DROPIN)
  return()
endif()

set(STREAMHAL_DROPIN_DIR ${CMAKE_BINARY_DIR}/dropin)
set(STREAMHAL_DROPIN_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/streamhal-dropin)
# A shared library needs at least one source of its own.
set(_dropin_source ${CMAKE_BINARY_DIR}/generated/dropin_library.c)
file(WRITE ${_dropin_source}.in
  "/* The drop-in libraries are made of the static libraries' objects only. */\n"
  "typedef int streamhal_dropin_library;\n")
configure_file(${_dropin_source}.in ${_dropin_source} COPYONLY)

function(streamhal_add_dropin target)
  cmake_parse_arguments(ARG "" "BINDING;OUTPUT_NAME;SOVERSION;VERSION_SCRIPT" "" ${ARGN})
  add_library(${target} SHARED ${_dropin_source})
  # Every object of the binding (a program may call any entry point); the
  # core and backend objects they need follow.
  target_link_libraries(${target} PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,${ARG_BINDING}>"
                        streamhal_vulkan)
  target_link_options(${target} PRIVATE
    "LINKER:--version-script=${ARG_VERSION_SCRIPT}" "LINKER:--no-undefined"
    -static-libstdc++ -static-libgcc)
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME ${ARG_OUTPUT_NAME} SOVERSION ${ARG_SOVERSION} LINKER_LANGUAGE CXX
    LIBRARY_OUTPUT_DIRECTORY ${STREAMHAL_DROPIN_DIR}
    LINK_DEPENDS ${ARG_VERSION_SCRIPT})
  install(TARGETS ${target} LIBRARY DESTINATION ${STREAMHAL_DROPIN_INSTALL_DIR})
endfunction()

streamhal_add_dropin(streamhal_dropin_cuda BINDING streamhal_cuda OUTPUT_NAME cuda SOVERSION 1
  VERSION_SCRIPT ${STREAMHAL_ENTRY_POINTS_DIR}/libcuda.map)
add_dependencies(streamhal_dropin_cuda streamhal_entry_points)
streamhal_add_dropin(streamhal_dropin_hip BINDING streamhal_hip OUTPUT_NAME amdhip64 SOVERSION 6
  VERSION_SCRIPT ${PROJECT_SOURCE_DIR}/cmake/libamdhip64.map)

if(STREAMHAL_BUILD_TESTS)
  # The libraries export the API and nothing else.
  add_test(NAME dropin.symbols COMMAND ${CMAKE_COMMAND}
    -DCUDA_LIBRARY=$<TARGET_FILE:streamhal_dropin_cuda>
    -DHIP_LIBRARY=$<TARGET_FILE:streamhal_dropin_hip>
    -DCUDA_SYMBOLS=${STREAMHAL_ENTRY_POINTS_DIR}/cuda_symbols.txt
    -DHIP_SYMBOLS=${STREAMHAL_ENTRY_POINTS_DIR}/hip_symbols.txt
    -P ${PROJECT_SOURCE_DIR}/cmake/DropinSymbolCheck.cmake)
endif()
