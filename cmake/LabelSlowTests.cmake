# Run at test time by CTest (TEST_INCLUDE_FILES, after doctest's discovered tests): labels
# `slow` every doctest case of the test suite "slow", so `ctest -LE slow` is the fast loop and
# CI runs the slow cases once, in Release (.ci/run). Inputs: -D EXE=test binary, -D OUT=file.
execute_process(COMMAND "${EXE}" --test-suite=slow --list-test-cases
                OUTPUT_VARIABLE listing RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXE} --list-test-cases failed (${rc})")
endif()
string(REPLACE "\n" ";" lines "${listing}")
set(script "")
foreach(line IN LISTS lines)
  if(line STREQUAL "" OR line MATCHES "^=+$" OR line MATCHES "^\\[doctest\\] ")
    continue()
  endif()
  string(APPEND script "set_tests_properties([==[${line}]==] PROPERTIES LABELS slow)\n")
endforeach()
file(WRITE "${OUT}" "${script}")
