# Installation: headers, static libraries, the Vulkan registration object,
# the apps, a CMake package `streamhal` (targets streamhal::core,
# streamhal::cuda, streamhal::hip, streamhal::vulkan) and pkg-config files
# (streamhal-cuda, streamhal-hip).
#
# The libraries are static and written in C++, so whoever links them also
# links what they depend on, including the C++ runtime, and C programs link
# with the C driver, which adds neither the C++ runtime nor libm. Both package
# formats therefore carry the complete link line:
#  * CMake: the export has the libraries' own dependencies; two more targets
#    complete it for other link languages and for other readers of the package:
#      streamhal::link_deps   names the private dependencies plainly (the
#                             export wraps them in $<LINK_ONLY:...>, which
#                             Meson's CMake lookup drops);
#      streamhal::cxx_runtime the C++ runtime and libm, linked only when the
#                             link language is not C++ (C++ drivers add both);
#                             streamhalConfig.cmake points it at the runtime
#                             library found on the consumer's machine.
#  * pkg-config: everything in Libs and Requires (never .private), derived
#    below from the targets' link libraries, so plain `--libs` is complete.
include(CMakePackageConfigHelpers)

set(STREAMHAL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/streamhal)
set(_streamhal_libs streamhal_core streamhal_ptx streamhal_vk streamhal_cuda streamhal_hip)

# --- The C++ runtime the libraries were compiled against ---
include(CheckCXXSourceCompiles)
check_cxx_source_compiles([[
#include <ciso646>
#ifndef _LIBCPP_VERSION
#error not libc++
#endif
int main() { return 0; }]] STREAMHAL_CXX_RUNTIME_IS_LIBCXX)
if(STREAMHAL_CXX_RUNTIME_IS_LIBCXX)
  set(STREAMHAL_CXX_RUNTIME c++)
  set(STREAMHAL_CXX_RUNTIME_FILE libc++.so.1)
else()
  set(STREAMHAL_CXX_RUNTIME stdc++)
  set(STREAMHAL_CXX_RUNTIME_FILE libstdc++.so.6)
endif()

add_library(streamhal_cxx_runtime INTERFACE)
set_target_properties(streamhal_cxx_runtime PROPERTIES EXPORT_NAME cxx_runtime)
# By name; streamhalConfig.cmake replaces this with the library's path.
target_link_libraries(streamhal_cxx_runtime INTERFACE
  $<INSTALL_INTERFACE:-l${STREAMHAL_CXX_RUNTIME};-lm>)

# --- Private dependencies, named plainly ---
# A dependency is private when a library links it but does not list it
# unwrapped in its interface.
set(_streamhal_private_deps "")
set(_streamhal_all_deps "")
foreach(_lib IN LISTS _streamhal_libs)
  get_target_property(_linked ${_lib} LINK_LIBRARIES)
  get_target_property(_interface ${_lib} INTERFACE_LINK_LIBRARIES)
  foreach(_dep IN LISTS _linked)
    if(_dep MATCHES "^streamhal")
      continue()
    endif()
    list(APPEND _streamhal_all_deps "${_dep}")
    if(NOT _dep IN_LIST _interface)
      list(APPEND _streamhal_private_deps "${_dep}")
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES _streamhal_all_deps)
list(REMOVE_DUPLICATES _streamhal_private_deps)

add_library(streamhal_link_deps INTERFACE)
set_target_properties(streamhal_link_deps PROPERTIES EXPORT_NAME link_deps)
# Install interface only: the imported targets named here are defined by the
# package config's find_dependency() calls, not in this directory.
foreach(_dep IN LISTS _streamhal_private_deps)
  target_link_libraries(streamhal_link_deps INTERFACE "$<INSTALL_INTERFACE:${_dep}>")
endforeach()
# Core's private link of the PTX translator, likewise named plainly.
target_link_libraries(streamhal_link_deps INTERFACE "$<INSTALL_INTERFACE:streamhal::ptx>")
target_link_libraries(streamhal_link_deps INTERFACE
  "$<INSTALL_INTERFACE:$<$<NOT:$<LINK_LANGUAGE:CXX>>:streamhal::cxx_runtime>>")
target_link_libraries(streamhal_core INTERFACE streamhal_link_deps)

install(TARGETS streamhal_core streamhal_ptx streamhal_cuda streamhal_hip streamhal_vk streamhal_vulkan
                streamhal_link_deps streamhal_cxx_runtime
        EXPORT streamhalTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
# The registration object is linked as a file (not an archive member) so
# the linker keeps it: see libs/core/backend_registry.h.
install(FILES $<TARGET_OBJECTS:streamhal_vk_register>
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/streamhal RENAME streamhal_vk_register.o)

# cuda.h and the types-only headers driver-API programs include beside it.
install(FILES libs/cuda_binding/include/cuda.h libs/cuda_binding/include/cudaGL.h
              libs/cuda_binding/include/cudaEGL.h libs/cuda_binding/include/cudaVDPAU.h
              libs/cuda_binding/include/cudaProfiler.h libs/cuda_binding/include/builtin_types.h
              libs/cuda_binding/include/vector_types.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY libs/hip_binding/include/hip DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# Core headers, for backend authors.
install(DIRECTORY libs/core/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/streamhal/core
        FILES_MATCHING PATTERN "*.h" PATTERN "testing" EXCLUDE)

install(EXPORT streamhalTargets NAMESPACE streamhal:: DESTINATION ${STREAMHAL_CMAKE_DIR})
configure_package_config_file(cmake/streamhalConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/streamhalConfig.cmake
  INSTALL_DESTINATION ${STREAMHAL_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/streamhalConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/streamhalConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/streamhalConfigVersion.cmake
              cmake/StreamhalKernels.cmake
        DESTINATION ${STREAMHAL_CMAKE_DIR})

# --- pkg-config ---
# Each CMake dependency maps to the pkg-config modules (Requires) or linker
# flags (Libs) that stand for it. The Abseil modules Debian ships (absl_<name>,
# one per CMake target absl::<name>) require their own dependencies, so the
# targets the libraries link are enough. A dependency without an entry stops
# the configuration, so the files cannot silently fall behind the targets.
set(_pc_requires "")
set(_pc_libs "")
foreach(_dep IN LISTS _streamhal_all_deps)
  if(_dep MATCHES "^absl::(.+)$")
    list(APPEND _pc_requires "absl_${CMAKE_MATCH_1}")
  elseif(_dep STREQUAL "Vulkan::Vulkan")
    list(APPEND _pc_requires vulkan)
  elseif(_dep STREQUAL "PkgConfig::LIBELF")
    list(APPEND _pc_requires libelf)
  elseif(_dep STREQUAL "PkgConfig::ZSTD")
    list(APPEND _pc_requires libzstd)
  elseif(_dep STREQUAL "glslang::glslang")
    list(APPEND _pc_requires glslang)
  elseif(_dep STREQUAL "glslang::SPIRV")
    # spirv.pc (glslang-dev): -lSPIRV, then SPIRV-Tools and glslang.
    list(APPEND _pc_requires spirv)
  elseif(_dep STREQUAL "SPIRV-Tools-link")
    # SPIRV-Tools.pc lists -lSPIRV-Tools-link after the libraries it needs,
    # which a static link does not resolve: name all three in order.
    list(APPEND _pc_libs -lSPIRV-Tools-link -lSPIRV-Tools-opt -lSPIRV-Tools)
  elseif(_dep STREQUAL "glslang::glslang-default-resource-limits")
    # No .pc file of its own; it only needs glslang's headers.
    list(APPEND _pc_libs -lglslang-default-resource-limits)
  elseif(_dep STREQUAL "Threads::Threads")
    # glibc 2.34 and later have the pthread functions in libc.
    if(CMAKE_THREAD_LIBS_INIT)
      list(APPEND _pc_libs ${CMAKE_THREAD_LIBS_INIT})
    endif()
  else()
    message(FATAL_ERROR "StreamhalPackage: no pkg-config equivalent for the link dependency "
      "'${_dep}'; add one in cmake/StreamhalPackage.cmake")
  endif()
endforeach()
list(REMOVE_DUPLICATES _pc_requires)
# The C++ runtime and libm, which C drivers do not add. (pkg-config prints a
# module's Libs before those of the modules it requires; the streamhal
# libraries before them use both, so linkers that default to --as-needed keep
# them.)
list(APPEND _pc_libs -l${STREAMHAL_CXX_RUNTIME} -lm)
list(JOIN _pc_requires " " STREAMHAL_PC_REQUIRES)
list(JOIN _pc_libs " " STREAMHAL_PC_LIBS)

# The prefix is the one given at install time (cmake --install --prefix), so
# the files are written then, from templates completed here (which keep the
# placeholder for the second pass).
set(STREAMHAL_PC_PREFIX "@STREAMHAL_PC_PREFIX@")
foreach(_pc streamhal-cuda streamhal-hip)
  configure_file(cmake/${_pc}.pc.in ${CMAKE_CURRENT_BINARY_DIR}/pkgconfig/${_pc}.pc.in @ONLY)
  install(CODE "
    set(STREAMHAL_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
    configure_file(\"${CMAKE_CURRENT_BINARY_DIR}/pkgconfig/${_pc}.pc.in\"
                   \"${CMAKE_CURRENT_BINARY_DIR}/pkgconfig/${_pc}.pc\" @ONLY)")
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/pkgconfig/${_pc}.pc
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()
