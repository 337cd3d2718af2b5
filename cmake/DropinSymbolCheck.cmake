# The drop-in libraries export the API and nothing else (ctest dropin.symbols):
#  * libcuda.so.1 defines exactly the symbols of cuda_symbols.txt (generated
#    from libs/cuda_binding/entry_points.tsv: the plain names, the versioned
#    and the per-thread ones);
#  * libamdhip64.so.6 defines only hip* and __hip* symbols, and every HIP
#    function of the headers (hip_symbols.txt);
#  * neither defines anything of Abseil, glslang or the C++ runtime, and
#    neither needs libstdc++ at run time.
# Run: cmake -DCUDA_LIBRARY=... -DHIP_LIBRARY=... -DCUDA_SYMBOLS=...
#            -DHIP_SYMBOLS=... -P DropinSymbolCheck.cmake
find_program(NM NAMES nm REQUIRED)
find_program(READELF NAMES readelf REQUIRED)

function(defined_symbols library out)
  execute_process(COMMAND ${NM} -D --defined-only ${library} OUTPUT_VARIABLE text
                  RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "nm -D --defined-only ${library} failed")
  endif()
  string(REGEX MATCHALL "[^\n]+" lines "${text}")
  set(names "")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^.* ([^ ]+)$" "\\1" name "${line}")
    string(REGEX REPLACE "@.*$" "" name "${name}")
    list(APPEND names ${name})
  endforeach()
  list(SORT names)
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

function(check_needed library)
  execute_process(COMMAND ${READELF} -d ${library} OUTPUT_VARIABLE text)
  if(text MATCHES "NEEDED[^\n]*lib(std)?c\\+\\+")
    message(FATAL_ERROR "${library} needs the C++ runtime at run time:\n${text}")
  endif()
endfunction()

set(failures 0)
defined_symbols(${CUDA_LIBRARY} cuda)
file(STRINGS ${CUDA_SYMBOLS} expected)
list(SORT expected)
set(extra ${cuda})
list(REMOVE_ITEM extra ${expected})
set(missing ${expected})
list(REMOVE_ITEM missing ${cuda})
list(LENGTH cuda cuda_count)
if(extra OR missing)
  message(SEND_ERROR "${CUDA_LIBRARY}: exports beyond the API: [${extra}]; "
                     "API symbols missing: [${missing}]")
endif()
check_needed(${CUDA_LIBRARY})

defined_symbols(${HIP_LIBRARY} hip)
set(extra "")
foreach(name IN LISTS hip)
  if(NOT name MATCHES "^(hip|__hip)")
    list(APPEND extra ${name})
  endif()
endforeach()
file(STRINGS ${HIP_SYMBOLS} expected)
set(missing ${expected})
list(REMOVE_ITEM missing ${hip})
list(LENGTH hip hip_count)
if(extra OR missing)
  message(SEND_ERROR "${HIP_LIBRARY}: exports beyond the API: [${extra}]; "
                     "API functions missing: [${missing}]")
endif()
check_needed(${HIP_LIBRARY})
message(STATUS "libcuda.so.1 exports ${cuda_count} symbols, libamdhip64.so.6 ${hip_count}: "
               "the API and nothing else")
