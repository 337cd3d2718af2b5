# Writes a C++ source file with a function returning the text of a file, so
# a program needs no data file at run time.
# Run with: cmake -DINPUT=<file> -DOUTPUT=<file.cc> -DHEADER=<include>
#                 -DNAMESPACE=<ns> -DFUNCTION=<name> -P EmbedText.cmake
# The function is declared in HEADER as `const char* FUNCTION();`.
file(READ "${INPUT}" content)
# The text goes into a raw string literal; it must not contain the delimiter.
string(FIND "${content}" ")streamhal_embed\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw-string delimiter )streamhal_embed\"")
endif()
get_filename_component(_name "${INPUT}" NAME)
file(WRITE "${OUTPUT}.tmp" "// Generated from ${_name} by EmbedText.cmake; do not edit.
#include \"${HEADER}\"

namespace ${NAMESPACE} {

const char* ${FUNCTION}() {
  return R\"streamhal_embed(${content})streamhal_embed\";
}

}  // namespace ${NAMESPACE}
")
# Touch the output only when it changes, so an unchanged input rebuilds nothing.
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
