# Warning flags for every streamhal target. Warnings are errors unless
# STREAMHAL_WERROR is switched off (for example to try a newer compiler).
function(streamhal_set_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic $<$<COMPILE_LANGUAGE:CXX>:-Wnon-virtual-dtor>
    $<$<CXX_COMPILER_ID:GNU>:-Wshadow=local>
    -Wno-missing-field-initializers
    $<$<BOOL:${STREAMHAL_WERROR}>:-Werror>)
endfunction()
