# Helpers that keep each library's CMakeLists short. Sources are globbed per
# folder (one concept per file pair), so adding `stream.cc` + `stream_test.cc`
# needs no CMake edit.

# streamhal_glob_sources(<out_var> <dir>): every *.cc/*.c in <dir> that is not
# a test, a fuzz target or a benchmark.
function(streamhal_glob_sources out dir)
  file(GLOB _all CONFIGURE_DEPENDS ${dir}/*.cc ${dir}/*.c)
  list(FILTER _all EXCLUDE REGEX "(_test|_fuzz|_bench)\\.cc$")
  set(${out} ${_all} PARENT_SCOPE)
endfunction()

# streamhal_add_test_suite(<name> DIR <dir> LIBS <libs...>): one gtest binary
# from every *_test.cc in <dir>, registered with ctest.
function(streamhal_add_test_suite name)
  cmake_parse_arguments(ARG "" "DIR" "LIBS" ${ARGN})
  if(NOT STREAMHAL_BUILD_TESTS)
    return()
  endif()
  file(GLOB _tests CONFIGURE_DEPENDS ${ARG_DIR}/*_test.cc)
  if(NOT _tests)
    return()
  endif()
  add_executable(${name} ${_tests})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} streamhal_test_main GTest::gmock)
  streamhal_set_warnings(${name})
  # One variable only: gtest_discover_tests passes PROPERTIES through a
  # list, so a second "A;B" entry would be dropped. (The PTX cache path goes
  # through test_main.cc for that reason.)
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 120 PROPERTIES ENVIRONMENT STREAMHAL_VALIDATION=1)
endfunction()
