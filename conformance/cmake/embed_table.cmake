# Writes a C++ source file whose EmbeddedTable() returns the text of a table.
# Run with: cmake -DINPUT=<table.tsv> -DOUTPUT=<file.cc> -P embed_table.cmake
file(READ "${INPUT}" content)
# The text goes into a raw string literal; it must not contain the delimiter.
string(FIND "${content}" ")streamhal_table\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw-string delimiter )streamhal_table\"")
endif()
file(WRITE "${OUTPUT}.tmp" "// Generated from conformance/table.tsv by embed_table.cmake; do not edit.
#include \"conformance/report/embedded_table.h\"

namespace streamhal::conformance {

const char* EmbeddedTable() {
  return R\"streamhal_table(${content})streamhal_table\";
}

}  // namespace streamhal::conformance
")
# Touch the output only when it changes, so an unchanged table rebuilds nothing.
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
