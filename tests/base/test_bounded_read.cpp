// read_bounded: every user file is read up to a bound, so an endless input is refused
// instead of exhausting memory.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "moeplan/base/bounded_read.hpp"

using moeplan::read_bounded;

namespace {

std::filesystem::path file_with(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("moeplan-bounded-" + name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

}  // namespace

TEST_CASE("read_bounded: a file up to the bound is read whole, one byte more is refused naming file and bound") {
  const auto exact = file_with("exact", std::string(1000, 'x'));
  const auto r = read_bounded(exact.string(), 1000, "a test file");
  REQUIRE(r.has_value());
  CHECK(r->size() == 1000);
  const auto over = file_with("over", std::string(1001, 'x'));
  const auto refused = read_bounded(over.string(), 1000, "a test file");
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().source == over.string());
  CHECK(refused.error().reason == "larger than 1000 bytes, the limit for a test file (man moeplan, LIMITS)");
  std::filesystem::remove(exact);
  std::filesystem::remove(over);
}

TEST_CASE("read_bounded: an endless device stops one byte past the bound (no hang, no growth)") {
  for (const char* device : {"/dev/zero", "/dev/urandom"}) {
    CAPTURE(device);
    const auto r = read_bounded(device, std::size_t{1} << 20, "a laws file");
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().to_string() == std::string(device) +
                                       ": larger than 1 MiB, the limit for a laws file (man moeplan, LIMITS)");
  }
}

TEST_CASE("read_bounded: a missing file and a directory are named as such") {
  CHECK(read_bounded("/nonexistent/x.toml", 100, "x").error().to_string() ==
        "/nonexistent/x.toml: cannot open file");
  const std::string dir = std::filesystem::temp_directory_path().string();
  CHECK(read_bounded(dir, 100, "x").error().reason == "is a directory, not a file");
}

TEST_CASE("the stated bounds: 16 MiB for configs and laws, 256 MiB for CSVs") {
  CHECK(moeplan::byte_size_text(moeplan::k_max_config_bytes) == "16 MiB");
  CHECK(moeplan::byte_size_text(moeplan::k_max_csv_bytes) == "256 MiB");
}
