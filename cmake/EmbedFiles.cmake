# moeplan_embed_files(OUTPUT <cpp> BASE <dir> FILES <f>...)
# Writes a C++ source defining moeplan::detail::embedded_files(): the text of each
# file keyed by its path relative to BASE. Re-runs when any listed file changes.
function(moeplan_embed_files)
  cmake_parse_arguments(E "" "OUTPUT;BASE" "FILES" ${ARGN})
  add_custom_command(
    OUTPUT ${E_OUTPUT}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${E_OUTPUT} -DBASE=${E_BASE}
            "-DFILES=${E_FILES}" -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/EmbedFilesScript.cmake
    DEPENDS ${E_FILES} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/EmbedFilesScript.cmake
    COMMENT "Embedding presets into the binary"
    VERBATIM)
endfunction()
