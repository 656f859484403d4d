#include "output_file.hpp"

#include "app.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <ostream>

namespace moeplan::cli {

std::string write_output(const std::string& path, const std::string& text, std::ostream& out) {
  if (path.empty() || path == "-") {
    out << text << std::flush;
    return out ? "" : "cannot write to standard output";
  }
  const std::string tmp = path + ".moeplan-tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) {
      return "cannot create " + tmp + ": " + std::strerror(errno);
    }
    f << text;
    f.flush();
    if (!f) {
      std::remove(tmp.c_str());
      return "cannot write " + tmp;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(tmp.c_str());
    return "cannot rename " + tmp + " to " + path + ": " + reason;
  }
  return "";
}

int deliver(const std::string& path, const std::string& text, const Io& io) {
  if (std::string why = write_output(path, text, io.out); !why.empty()) {
    io.error("-o: " + why);
    return static_cast<int>(ExitStatus::output_file);
  }
  return static_cast<int>(ExitStatus::ok);
}

}  // namespace moeplan::cli
