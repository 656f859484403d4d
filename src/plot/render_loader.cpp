// plot::render in the binary: loads libmoeplan_plplot.so (plplot_module.hpp) the first time a
// plot is drawn, so no other command maps PLplot and its libraries at start-up.
#include <dlfcn.h>

#include <filesystem>
#include <mutex>
#include <string>
#include <system_error>
#include <vector>

#include "plplot_module.hpp"
#include "render.hpp"

#ifndef MOEPLAN_PLOT_MODULE
#error "MOEPLAN_PLOT_MODULE names the module file (src/plot/CMakeLists.txt)"
#endif

namespace moeplan::plot {
namespace {

namespace fs = std::filesystem;

// Beside the executable, in ../lib/moeplan (installed), then the install and build
// directories CMake compiled in (':'-separated), as for the CUDA module.
std::vector<fs::path> module_candidates() {
  const std::string file = MOEPLAN_PLOT_MODULE;
  std::vector<fs::path> out;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    out.push_back(exe.parent_path() / file);
    out.push_back(exe.parent_path().parent_path() / "lib" / "moeplan" / file);
  }
  const std::string dirs = MOEPLAN_PLOT_MODULE_DIRS;
  for (std::size_t at = 0; at <= dirs.size();) {
    const std::size_t end = std::min(dirs.find(':', at), dirs.size());
    if (end > at) out.push_back(fs::path(dirs.substr(at, end - at)) / file);
    at = end + 1;
  }
  return out;
}

struct Loaded {
  const plplot_module::Api* api = nullptr;
  std::string why;  ///< when api is null
};

const Loaded& loaded() {
  static Loaded l;
  static std::once_flag once;
  std::call_once(once, [] {
    std::string tried;
    for (const fs::path& p : module_candidates()) {
      std::error_code ec;
      if (!fs::exists(p, ec)) {
        tried += (tried.empty() ? "" : ", ") + p.string();
        continue;
      }
      void* handle = dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (handle == nullptr) {
        const char* e = dlerror();
        l.why = "the plot module " + p.string() + " does not load: " + (e != nullptr ? e : "unknown error") +
                " (apt-get install libplplot17 plplot-driver-cairo)";
        return;
      }
      using Entry = const plplot_module::Api* (*)();
      const auto entry = reinterpret_cast<Entry>(dlsym(handle, plplot_module::k_entry));
      const plplot_module::Api* api = entry != nullptr ? entry() : nullptr;
      if (api == nullptr || api->abi != plplot_module::k_abi || api->figure_size != sizeof(Figure) ||
          api->draw == nullptr) {
        l.why = "the plot module " + p.string() + " is from another build of moeplan (rebuild it)";
        return;
      }
      l.api = api;
      return;
    }
    l.why = "the plot module " + std::string(MOEPLAN_PLOT_MODULE) + " is not installed (looked in " + tried + ")";
  });
  return l;
}

}  // namespace

std::expected<std::string, std::string> render(const Figure& figure, ImageFormat format) {
  const Loaded& l = loaded();
  if (l.api == nullptr) return std::unexpected(l.why);
  return l.api->draw(figure, format);
}

}  // namespace moeplan::plot
