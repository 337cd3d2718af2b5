# Installation: headers, static libraries, the Vulkan registration object,
# the apps, a CMake package `streamhal` (targets streamhal::core,
# streamhal::cuda, streamhal::hip, streamhal::vulkan) and pkg-config files.
include(CMakePackageConfigHelpers)

set(STREAMHAL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/streamhal)

install(TARGETS streamhal_core streamhal_cuda streamhal_hip streamhal_vk streamhal_vulkan
        EXPORT streamhalTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
# The registration object is linked as a file (not an archive member) so
# the linker keeps it: see libs/core/backend_registry.h.
install(FILES $<TARGET_OBJECTS:streamhal_vk_register>
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/streamhal RENAME streamhal_vk_register.o)

install(FILES libs/cuda_binding/include/cuda.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
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

foreach(_pc streamhal-cuda streamhal-hip)
  configure_file(cmake/${_pc}.pc.in ${CMAKE_CURRENT_BINARY_DIR}/${_pc}.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${_pc}.pc
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()
