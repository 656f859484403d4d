#pragma once
// Drives the whole command line in-process, as a user would, capturing both streams.
#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

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

/// The arguments as one line, for CAPTURE.
inline std::string fmt_args(const std::vector<std::string>& args) {
  std::string s;
  for (const auto& a : args) s += (s.empty() ? "" : " ") + a;
  return s;
}

/// 10^exponent as a --flops value ("1e15", "3.1622776601683795e+15").
inline std::string fmt_flops(double exponent) {
  std::ostringstream o;
  o.precision(17);
  o << std::pow(10.0, exponent);
  return o.str();
}

/// A path in the temporary directory that no other test process uses: ctest -j runs test
/// cases side by side, and another checkout's suite may run on the same machine.
inline std::filesystem::path temp_path(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("moeplan-test-" + std::to_string(::getpid()) + "-" + name);
}

/// A CSV line's cells, split at commas outside double quotes (quotes kept in the cell).
inline std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    if (c == ',' && !quoted) {
      out.push_back(cell);
      cell.clear();
    } else {
      cell += c;
    }
  }
  out.push_back(cell);
  return out;
}
