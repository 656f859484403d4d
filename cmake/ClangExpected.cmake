# Included by the top-level CMakeLists.txt.
# Clang (up to 18) implements conditionally trivial special members (P0848, Clang 16) but
# still reports __cpp_concepts 201907L, so libstdc++ 12 hides <expected> from it. Where that
# is the only obstacle, announce the value libstdc++ checks for; Clang < 16 cannot build us.
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  include(CheckCXXSourceCompiles)
  set(CMAKE_REQUIRED_FLAGS "-std=c++2b")
  check_cxx_source_compiles("#include <expected>\nint main() { std::expected<int, int> e{1}; return *e - 1; }"
                            MOEPLAN_CLANG_HAS_EXPECTED)
  if(NOT MOEPLAN_CLANG_HAS_EXPECTED)
    if(CMAKE_CXX_COMPILER_VERSION VERSION_LESS 16)
      message(FATAL_ERROR "Clang ${CMAKE_CXX_COMPILER_VERSION} has no std::expected with this "
                          "standard library; use Clang >= 16 (apt-get install clang-16)")
    endif()
    add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-D__cpp_concepts=202002L>
                        $<$<COMPILE_LANGUAGE:CXX>:-Wno-macro-redefined>)
  endif()
  unset(CMAKE_REQUIRED_FLAGS)
endif()
if(MOEPLAN_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "MOEPLAN_FUZZ=ON needs Clang (libFuzzer); scripts/fuzz.sh picks it")
  endif()
  # Coverage and comparison tracing in every library, for libFuzzer (fuzz/CMakeLists.txt
  # links its main into the targets). Rides on moeplan_sanitizers, which every library links.
  target_compile_options(moeplan_sanitizers INTERFACE -fsanitize=fuzzer-no-link)
  target_link_options(moeplan_sanitizers INTERFACE -fsanitize=fuzzer-no-link)
endif()
