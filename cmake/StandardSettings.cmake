# INTERFACE targets that carry project-wide compile settings (ccache's
# cmake/StandardWarnings.cmake pattern): link them instead of setting flags globally.
add_library(moeplan_warnings INTERFACE)
target_compile_options(moeplan_warnings INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                 -Wno-sign-conversion -Wnon-virtual-dtor>)
# C++20 designated initializers name the members they set and leave the rest to their
# default member initializers (`FamilyRule{.model_types = ..., .read = read}`): that is the
# idiom, not a mistake. GCC before 14 still reports every omitted member under
# -Wmissing-field-initializers (GCC PR c++/96868: 310 warnings here); Clang 19+ reports them
# under -Wmissing-designated-field-initializers. Positional aggregates keep the check on
# Clang < 19 and GCC >= 14, where the designated form is exempt.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 14)
  target_compile_options(moeplan_warnings INTERFACE -Wno-missing-field-initializers)
elseif(CMAKE_CXX_COMPILER_ID STREQUAL "Clang" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 19)
  target_compile_options(moeplan_warnings INTERFACE -Wno-missing-designated-field-initializers)
endif()
# With AddressSanitizer at -O1 GCC 12-14 report std::regex's own std::function members as
# maybe-uninitialized (GCC PR 105616: `std::regex re(str)` alone triggers it): in sanitizer
# builds that warning says nothing about moeplan's code, and the Release build keeps it.
if(MOEPLAN_SANITIZE AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(moeplan_warnings INTERFACE -Wno-maybe-uninitialized)
endif()
# CI builds with -DMOEPLAN_WERROR=ON (.ci/run): a new warning fails it. Off by default, so a
# newer compiler's new warning never stops a user's build.
option(MOEPLAN_WERROR "Treat compiler warnings as errors (CI)" OFF)
if(MOEPLAN_WERROR)
  target_compile_options(moeplan_warnings INTERFACE $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU,Clang>>:-Werror>)
endif()

add_library(moeplan_sanitizers INTERFACE)
if(MOEPLAN_SANITIZE)
  # -DMOEPLAN_SANITIZE=address,undefined
  target_compile_options(moeplan_sanitizers INTERFACE
    -fsanitize=${MOEPLAN_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(moeplan_sanitizers INTERFACE -fsanitize=${MOEPLAN_SANITIZE})
endif()
