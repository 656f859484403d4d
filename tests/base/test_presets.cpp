// src/base/presets.cpp: the presets compiled into the binary, found by their path under
// presets/ (the repository's presets/ folder is the source of truth).
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "moeplan/base/presets.hpp"

using namespace moeplan;

TEST_CASE("embedded presets: every file under presets/, sorted, each found by its path with its text") {
  const std::filesystem::path root = std::filesystem::path(MOEPLAN_SOURCE_DIR) / "presets";
  std::size_t on_disk = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    if (!e.is_regular_file()) continue;
    ++on_disk;
    const std::string rel = std::filesystem::relative(e.path(), root).generic_string();
    CAPTURE(rel);
    const auto text = find_embedded_preset(rel);
    REQUIRE(text.has_value());
    std::ifstream in(e.path(), std::ios::binary);
    const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(*text == file);
  }
  CHECK(embedded_presets().size() == on_disk);
  CHECK(std::ranges::is_sorted(embedded_presets(), {}, &EmbeddedFile::path));
  CHECK_FALSE(find_embedded_preset("laws/holistic").has_value());  // the path, not a stem
  CHECK_FALSE(find_embedded_preset("/laws/holistic.toml").has_value());
}
