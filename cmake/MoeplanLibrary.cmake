# moeplan_library(NAME SOURCES ... [PUBLIC deps...] [PRIVATE deps...])
# One library by concern (docs/design.md, "Libraries"): target moeplan_NAME, alias
# moeplan::NAME, public headers in include/moeplan/NAME/, private ones beside the sources.
# Every library gets the project's sanitizer flags (also on what links it) and warnings.
function(moeplan_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;PUBLIC;PRIVATE" ${ARGN})
  add_library(moeplan_${name} STATIC ${ARG_SOURCES})
  add_library(moeplan::${name} ALIAS moeplan_${name})
  target_include_directories(moeplan_${name}
    PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(moeplan_${name}
    PUBLIC ${ARG_PUBLIC} moeplan_sanitizers
    PRIVATE ${ARG_PRIVATE} moeplan_warnings)
endfunction()
