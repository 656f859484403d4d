# Writes OUT defining MOEPLAN_GIT_REVISION (`git describe --always --dirty` of SRC, or
# "unknown" outside a git checkout). Run at every build by the moeplan_git_revision target;
# the file is rewritten only when the revision changes, so builds stay incremental.
execute_process(COMMAND git -C "${SRC}" describe --always --dirty --abbrev=12
                OUTPUT_VARIABLE rev OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR rev STREQUAL "")
  set(rev "unknown")
endif()
set(content "#pragma once\n#define MOEPLAN_GIT_REVISION \"${rev}\"\n")
include(${CMAKE_CURRENT_LIST_DIR}/WriteIfChanged.cmake)
moeplan_write_if_changed("${OUT}" "${content}")
