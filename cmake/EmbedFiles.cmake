# moeplan_embed_files(OUTPUT <cpp> BASE <dir> FILES <f>... [FUNCTION <qualified name>]
#                     [HEADER <include>] [WHAT <words>])
# Writes a C++ source defining FUNCTION (default moeplan::detail::embedded_files(), declared in
# HEADER, default moeplan/base/presets.hpp): the text of each file keyed by its path relative
# to BASE. Re-runs when any listed file changes. WHAT names the files in the build's message.
function(moeplan_embed_files)
  cmake_parse_arguments(E "" "OUTPUT;BASE;FUNCTION;HEADER;WHAT" "FILES" ${ARGN})
  if(NOT E_FUNCTION)
    set(E_FUNCTION moeplan::detail::embedded_files)
  endif()
  if(NOT E_HEADER)
    set(E_HEADER moeplan/base/presets.hpp)
  endif()
  if(NOT E_WHAT)
    set(E_WHAT presets)
  endif()
  add_custom_command(
    OUTPUT ${E_OUTPUT}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${E_OUTPUT} -DBASE=${E_BASE}
            "-DFILES=${E_FILES}" -DFUNCTION=${E_FUNCTION} -DHEADER=${E_HEADER}
            -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/EmbedFilesScript.cmake
    DEPENDS ${E_FILES} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/EmbedFilesScript.cmake
    COMMENT "Embedding ${E_WHAT} into the binary"
    VERBATIM)
  # Each file is one raw string literal, which can pass the 65,536 characters the standard asks
  # compilers to support (the score and suggest JSON schemas do); GCC and Clang take far longer.
  set_source_files_properties(${E_OUTPUT} PROPERTIES COMPILE_OPTIONS "-Wno-overlength-strings")
endfunction()
