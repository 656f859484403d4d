// Finding and opening moeplan's optional modules (module_loader.hpp).
#include "moeplan/base/module_loader.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <vector>

namespace moeplan {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> module_candidates(const std::string& file, const std::string& dirs) {
  std::vector<fs::path> out;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    out.push_back(exe.parent_path() / file);
    out.push_back(exe.parent_path().parent_path() / "lib" / "moeplan" / file);
  }
  for (std::size_t at = 0; at <= dirs.size();) {
    const std::size_t end = std::min(dirs.find(':', at), dirs.size());
    if (end > at) out.push_back(fs::path(dirs.substr(at, end - at)) / file);
    at = end + 1;
  }
  return out;
}

}  // namespace

OpenedModule open_module(const std::string& what, const std::string& file, const std::string& dirs,
                         const char* entry_symbol) {
  OpenedModule out;
  std::string tried;
  for (const fs::path& p : module_candidates(file, dirs)) {
    std::error_code ec;
    if (!fs::exists(p, ec)) {
      tried += (tried.empty() ? "" : ", ") + p.string();
      continue;
    }
    out.path = p.string();
    void* handle = dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      const char* e = dlerror();
      out.why = "the " + what + " module " + p.string() + " does not load: " + (e != nullptr ? e : "unknown error");
      return out;
    }
    out.entry = dlsym(handle, entry_symbol);
    if (out.entry == nullptr) out.why = "the " + what + " module " + p.string() + " has no " + entry_symbol;
    return out;
  }
  out.why = "the " + what + " module " + file + " is not installed (looked in " + tried + ")";
  return out;
}

}  // namespace moeplan
