# INTERFACE targets that carry project-wide compile settings (ccache's
# cmake/StandardWarnings.cmake pattern): link them instead of setting flags globally.
add_library(moeplan_warnings INTERFACE)
target_compile_options(moeplan_warnings INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                 -Wno-sign-conversion -Wnon-virtual-dtor>)

add_library(moeplan_sanitizers INTERFACE)
if(MOEPLAN_SANITIZE)
  # -DMOEPLAN_SANITIZE=address,undefined
  target_compile_options(moeplan_sanitizers INTERFACE
    -fsanitize=${MOEPLAN_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(moeplan_sanitizers INTERFACE -fsanitize=${MOEPLAN_SANITIZE})
endif()
