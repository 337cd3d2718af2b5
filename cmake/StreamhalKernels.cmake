# Build-time kernel compilation for streamhal programs.
#
#   streamhal_add_kernels(<target> [FORMAT elf|fatbin|spv] [OUTPUT_DIR <dir>] [EMBED]
#                         SOURCES <a.comp> [<b.comp> ...])
#
# Compiles each GLSL compute source with glslangValidator (-V --target-env
# vulkan1.2: the environment the runtime's own GLSL compiler uses, so a kernel
# compiles to the same module at build time and at load time), with the
# streamhal prelude folder on the include path, so kernels may
# `#include "streamhal/kernel.glsl"`. Each kernel is named after its file: the
# main() of saxpy.comp becomes entry point "saxpy", the name to pass to
# cuModuleGetFunction (GlslOptions::entry_point does the same at load time).
# Then:
#   FORMAT elf (default)  packs all modules with streamhal-pack into one ELF
#                         code object <dir>/<target>.elf
#   FORMAT fatbin         packs them into one clang offload bundle
#                         <dir>/<target>.fatbin
#   FORMAT spv            keeps one <dir>/<source name>.spv per source
#   EMBED                 instead of a file, <target> is an OBJECT library
#                         compiled from <dir>/<target>.cc, which holds the image
#                         (FORMAT elf or fatbin) and registers it when the
#                         program or shared library is loaded, and
#                         <dir>/<target>.h (on the target's include path),
#                         which declares one typed host stub per kernel and one
#                         host variable per module global. Link <target> into
#                         a program or shared library with streamhal::hip and
#                         launch with hipLaunchKernelGGL(<kernel>, ...): no
#                         module code (streamhal-pack --embed does the work).
# <dir> defaults to the current binary folder; a relative one is taken from
# there. <target> is a custom target in ALL; its property STREAMHAL_KERNEL_FILE
# holds the output path (FORMAT spv: the list of .spv paths), e.g. for
# target_compile_definitions(app PRIVATE
#   KERNELS="$<TARGET_PROPERTY:kernels,STREAMHAL_KERNEL_FILE>").
#
# Works in two settings:
#  * inside a build that contains the streamhal source tree (streamhal itself,
#    or a project adding it with add_subdirectory/FetchContent): uses the
#    streamhal-pack target built there (the apps must be enabled) and the
#    prelude from the source tree;
#  * with an installed package (find_package(streamhal)): uses the imported
#    streamhal::streamhal-pack and the installed prelude folder, which the
#    package config passes as STREAMHAL_GLSL_INCLUDE_DIR (otherwise it is
#    looked for beside the installed tool, in <prefix>/include/streamhal/glsl).
# STREAMHAL_GLSLANG_VALIDATOR (cache) names the compiler if it is not on PATH.

include_guard(GLOBAL)

find_program(STREAMHAL_GLSLANG_VALIDATOR NAMES glslangValidator glslang
  DOC "glslangValidator, which compiles GLSL kernels to SPIR-V at build time")

# Sets <out_dir> to the folder holding streamhal/kernel.glsl and <out_pack> to
# the streamhal-pack command (a path or a generator expression).
function(_streamhal_kernel_tools out_dir out_pack)
  # This file sits in <streamhal source>/cmake when used from the source tree.
  set(_source_prelude "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../libs/core/include_glsl")
  if(EXISTS "${_source_prelude}/streamhal/kernel.glsl")
    # In the source tree. The pack target may be defined after this call (apps
    # are added in order), so it is named, not looked up.
    get_filename_component(_dir "${_source_prelude}" ABSOLUTE)
    set(_pack "$<TARGET_FILE:streamhal-pack>")
    set(_pack_target streamhal-pack)
  elseif(TARGET streamhal::streamhal-pack)
    set(_pack "$<TARGET_FILE:streamhal::streamhal-pack>")
    set(_pack_target streamhal::streamhal-pack)
    if(STREAMHAL_GLSL_INCLUDE_DIR)
      set(_dir "${STREAMHAL_GLSL_INCLUDE_DIR}")
    else()
      # <prefix>/bin/streamhal-pack -> <prefix>/include/streamhal/glsl
      get_target_property(_tool streamhal::streamhal-pack LOCATION)
      get_filename_component(_prefix "${_tool}" DIRECTORY)
      get_filename_component(_prefix "${_prefix}" DIRECTORY)
      set(_dir "${_prefix}/include/streamhal/glsl")
    endif()
  else()
    message(FATAL_ERROR "streamhal_add_kernels: no streamhal-pack; call find_package(streamhal) "
      "first, or build inside the streamhal source tree")
  endif()
  if(NOT EXISTS "${_dir}/streamhal/kernel.glsl")
    message(FATAL_ERROR "streamhal_add_kernels: the GLSL prelude streamhal/kernel.glsl is not in "
      "'${_dir}'; set STREAMHAL_GLSL_INCLUDE_DIR to the folder that holds it")
  endif()
  set(${out_dir} "${_dir}" PARENT_SCOPE)
  set(${out_pack} "${_pack}" PARENT_SCOPE)
  set(_STREAMHAL_PACK_TARGET "${_pack_target}" PARENT_SCOPE)
endfunction()

function(streamhal_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "EMBED" "FORMAT;OUTPUT_DIR" "SOURCES")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "streamhal_add_kernels(${target}): unknown arguments "
      "'${ARG_UNPARSED_ARGUMENTS}'")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "streamhal_add_kernels(${target}): no SOURCES")
  endif()
  if(NOT ARG_FORMAT)
    set(ARG_FORMAT elf)
  endif()
  if(NOT ARG_FORMAT MATCHES "^(elf|fatbin|spv)$")
    message(FATAL_ERROR "streamhal_add_kernels(${target}): FORMAT must be elf, fatbin or spv, "
      "not '${ARG_FORMAT}'")
  endif()
  if(ARG_EMBED AND ARG_FORMAT STREQUAL "spv")
    message(FATAL_ERROR "streamhal_add_kernels(${target}): EMBED needs FORMAT elf or fatbin")
  endif()
  if(NOT STREAMHAL_GLSLANG_VALIDATOR)
    message(FATAL_ERROR "streamhal_add_kernels(${target}): glslangValidator not found; install "
      "glslang-tools or set STREAMHAL_GLSLANG_VALIDATOR")
  endif()
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  endif()
  get_filename_component(_out_dir "${ARG_OUTPUT_DIR}" ABSOLUTE
    BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  _streamhal_kernel_tools(_include_dir _pack)

  # Modules to be packed are intermediates; FORMAT spv delivers them.
  if(ARG_FORMAT STREQUAL "spv")
    set(_spv_dir "${_out_dir}")
  else()
    set(_spv_dir "${CMAKE_CURRENT_BINARY_DIR}/${target}.spv.dir")
  endif()
  set(_dep_dir "${CMAKE_CURRENT_BINARY_DIR}/${target}.dep.dir")
  file(MAKE_DIRECTORY "${_out_dir}" "${_spv_dir}" "${_dep_dir}")

  set(_spvs "")
  set(_names "")
  foreach(_source IN LISTS ARG_SOURCES)
    get_filename_component(_source "${_source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(_name "${_source}" NAME_WLE)
    if(_name IN_LIST _names)
      message(FATAL_ERROR "streamhal_add_kernels(${target}): two sources are named '${_name}'; "
        "their .spv files would collide")
    endif()
    list(APPEND _names "${_name}")
    set(_spv "${_spv_dir}/${_name}.spv")
    add_custom_command(
      OUTPUT "${_spv}"
      COMMAND "${STREAMHAL_GLSLANG_VALIDATOR}" --quiet -V --target-env vulkan1.2
              "-I${_include_dir}" -e "${_name}" --source-entrypoint main
              --depfile "${_dep_dir}/${_name}.d" -o "${_spv}" "${_source}"
      DEPENDS "${_source}" "${_include_dir}/streamhal/kernel.glsl"
      DEPFILE "${_dep_dir}/${_name}.d"
      COMMENT "Compiling GLSL kernel ${_name}"
      VERBATIM)
    list(APPEND _spvs "${_spv}")
  endforeach()

  if(ARG_EMBED)
    set(_source "${_out_dir}/${target}.cc")
    set(_header "${_out_dir}/${target}.h")
    add_custom_command(
      OUTPUT "${_source}" "${_header}"
      COMMAND "${_pack}" "--format=${ARG_FORMAT}" --embed "--header=${_header}" -o "${_source}"
              ${_spvs}
      DEPENDS ${_spvs} ${_STREAMHAL_PACK_TARGET}
      COMMENT "Embedding kernels into ${target}.cc"
      VERBATIM)
    add_library(${target} OBJECT "${_source}" "${_header}")
    # Position-independent, so that shared libraries (dlopen plugins) can hold
    # registered kernels too. Only the HIP headers are needed here: the
    # program or library links streamhal itself.
    set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    target_include_directories(${target} PUBLIC "${_out_dir}"
      $<TARGET_PROPERTY:streamhal::hip,INTERFACE_INCLUDE_DIRECTORIES>)
    target_compile_features(${target} PUBLIC cxx_std_17)
    set_property(TARGET ${target} PROPERTY STREAMHAL_KERNEL_FILE "${_source}")
    return()
  elseif(ARG_FORMAT STREQUAL "spv")
    set(_outputs ${_spvs})
  else()
    set(_outputs "${_out_dir}/${target}.${ARG_FORMAT}")
    add_custom_command(
      OUTPUT "${_outputs}"
      COMMAND "${_pack}" "--format=${ARG_FORMAT}" -o "${_outputs}" ${_spvs}
      DEPENDS ${_spvs} ${_STREAMHAL_PACK_TARGET}
      COMMENT "Packing kernels into ${target}.${ARG_FORMAT}"
      VERBATIM)
  endif()
  add_custom_target(${target} ALL DEPENDS ${_outputs})
  set_property(TARGET ${target} PROPERTY STREAMHAL_KERNEL_FILE "${_outputs}")
endfunction()
