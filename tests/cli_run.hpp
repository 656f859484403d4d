#pragma once
// Drives the whole command line in-process, as a user would, capturing both streams.
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "app.hpp"

struct Run {
  int code;
  std::string out;
  std::string err;
};

inline Run run_moeplan(std::vector<std::string> args) {
  args.insert(args.begin(), "moeplan");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  const int code = moeplan::cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
  return {code, out.str(), err.str()};
}

inline std::filesystem::path temp_path(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("moeplan-test-" + name);
}
