# Run at test time by CTest (TEST_INCLUDE_FILES, after doctest's discovered tests): labels
# `slow` every doctest case of the test suites "slow" and "slow-timing", so `ctest -LE slow` is
# the fast loop and CI runs the slow cases once, in Release (.ci/run). The cases of
# "slow-timing" decide from CPU timings (suggest --align auto): they also run alone
# (RUN_SERIAL), since a test running beside them on a 2-core machine is noise they would read
# as a speedup. Inputs: -D EXE=test binary, -D OUT=file.
set(script "")
foreach(suite IN ITEMS slow slow-timing)
  execute_process(COMMAND "${EXE}" --test-suite=${suite} --list-test-cases
                  OUTPUT_VARIABLE listing RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${EXE} --list-test-cases failed (${rc})")
  endif()
  set(properties "LABELS slow")
  if(suite STREQUAL "slow-timing")
    string(APPEND properties " RUN_SERIAL TRUE")
  endif()
  string(REPLACE "\n" ";" lines "${listing}")
  foreach(line IN LISTS lines)
    if(line STREQUAL "" OR line MATCHES "^=+$" OR line MATCHES "^\\[doctest\\] ")
      continue()
    endif()
    string(APPEND script "set_tests_properties([==[${line}]==] PROPERTIES ${properties})\n")
  endforeach()
endforeach()
file(WRITE "${OUT}" "${script}")
