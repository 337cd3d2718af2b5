// The status table compiled into the report program, so the installed
// program needs no data files. Defined by a source file that the build
// generates from conformance/table.tsv (conformance/cmake/embed_table.cmake).
#ifndef STREAMHAL_CONFORMANCE_REPORT_EMBEDDED_TABLE_H_
#define STREAMHAL_CONFORMANCE_REPORT_EMBEDDED_TABLE_H_

namespace streamhal::conformance {

// The text of conformance/table.tsv at build time.
const char* EmbeddedTable();

}  // namespace streamhal::conformance

#endif  // STREAMHAL_CONFORMANCE_REPORT_EMBEDDED_TABLE_H_
