# moeplan_library(NAME SOURCES ... [PUBLIC deps...] [PRIVATE deps...])
# One library by concern (docs/design.md, "Libraries"): target moeplan_NAME, alias
# moeplan::NAME, public headers in include/moeplan/NAME/, private ones beside the sources.
# Every library gets the project's sanitizer flags (also on what links it) and warnings.
#
# Boundaries are the build's, not a convention: a library's include root holds its own
# headers only (moeplan_include_root), so a source sees the headers of its library and of
# the libraries it links, and #include "moeplan/OTHER/..." of any other fails to compile.

# The include root of library NAME: a directory whose moeplan/NAME is a link to
# include/moeplan/NAME (the headers stay where the design card puts them).
function(moeplan_include_root name out)
  set(root ${PROJECT_BINARY_DIR}/include_roots/${name})
  if(NOT EXISTS ${root}/moeplan/${name})
    file(MAKE_DIRECTORY ${root}/moeplan)
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/include/moeplan/${name} ${root}/moeplan/${name} SYMBOLIC)
  endif()
  set(${out} ${root} PARENT_SCOPE)
endfunction()

function(moeplan_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;PUBLIC;PRIVATE" ${ARGN})
  add_library(moeplan_${name} STATIC ${ARG_SOURCES})
  add_library(moeplan::${name} ALIAS moeplan_${name})
  if(EXISTS ${PROJECT_SOURCE_DIR}/include/moeplan/${name})
    moeplan_include_root(${name} root)
    target_include_directories(moeplan_${name} PUBLIC $<BUILD_INTERFACE:${root}>)
  endif()
  target_include_directories(moeplan_${name} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(moeplan_${name}
    PUBLIC ${ARG_PUBLIC} moeplan_sanitizers
    PRIVATE ${ARG_PRIVATE} moeplan_warnings)
endfunction()
