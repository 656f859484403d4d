// src/base/module_loader.cpp: a module that is not installed gives the documented message
// naming the module and every place looked in; one that does not load says why.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "moeplan/base/module_loader.hpp"

using namespace moeplan;

TEST_CASE("open_module: a missing module is 'not installed', listing where it was looked for") {
  const std::filesystem::path dir = std::filesystem::path(MOEPLAN_TEST_DATA_DIR) / "no-such-dir";
  const OpenedModule m =
      open_module("test", "libmoeplan_no_such_module.so", dir.string() + "::" + dir.string() + "2", "entry");
  CHECK(m.entry == nullptr);
  CHECK(m.path.empty());
  CHECK(m.why.starts_with("the test module libmoeplan_no_such_module.so is not installed (looked in "));
  // Beside the executable, ../lib/moeplan, then each ':'-separated directory (empty ones skipped).
  CHECK(m.why.find("lib/moeplan/libmoeplan_no_such_module.so") != std::string::npos);
  CHECK(m.why.find((dir / "libmoeplan_no_such_module.so").string() + ",") != std::string::npos);
  CHECK(m.why.find((dir.string() + "2/libmoeplan_no_such_module.so)")) != std::string::npos);
}

TEST_CASE("open_module: a file that is not a shared object 'does not load', with dlopen's reason") {
  // This test's own data file is found first in `dirs` and is not an ELF object.
  const OpenedModule m =
      open_module("test", "moe_vs_dense_runs.csv", std::string(MOEPLAN_TEST_DATA_DIR), "entry");
  CHECK(m.entry == nullptr);
  CHECK(m.path == std::string(MOEPLAN_TEST_DATA_DIR) + "/moe_vs_dense_runs.csv");
  CHECK(m.why.starts_with("the test module " + m.path + " does not load: "));
}
