// plot::render in the binary: loads libmoeplan_plplot.so (plplot_module.hpp) the first time a
// plot is drawn, so no other command maps PLplot and its libraries at start-up.
#include <mutex>
#include <string>

#include "moeplan/base/module_loader.hpp"
#include "moeplan/plot/drawn_text.hpp"
#include "plplot_module.hpp"
#include "render.hpp"

#ifndef MOEPLAN_PLOT_MODULE
#error "MOEPLAN_PLOT_MODULE names the module file (src/plot/CMakeLists.txt)"
#endif

namespace moeplan::plot {
namespace {

struct Loaded {
  const plplot_module::Api* api = nullptr;
  std::string why;  ///< when api is null
};

const Loaded& loaded() {
  static Loaded l;
  static std::once_flag once;
  std::call_once(once, [] {
    const OpenedModule m = open_module("plot", MOEPLAN_PLOT_MODULE, MOEPLAN_PLOT_MODULE_DIRS, plplot_module::k_entry);
    if (m.entry == nullptr) {
      l.why = m.why + (m.path.empty() ? "" : " (apt-get install libplplot17 plplot-driver-cairo)");
      return;
    }
    using Entry = const plplot_module::Api* (*)();
    const plplot_module::Api* api = reinterpret_cast<Entry>(m.entry)();
    if (api == nullptr || api->abi != plplot_module::k_abi || api->figure_size != sizeof(Figure) ||
        api->draw == nullptr) {
      l.why = "the plot module " + m.path + " is from another build of moeplan (rebuild it)";
      return;
    }
    l.api = api;  // the handle stays open for the life of the process
  });
  return l;
}

}  // namespace

std::expected<std::string, std::string> render(const Figure& figure, ImageFormat format) {
  const Loaded& l = loaded();
  if (l.api == nullptr) return std::unexpected(l.why);
  // PLplot writes past its text buffer for a text of about 1 KiB (drawn_text.hpp): whoever
  // calls, no text reaches it longer than k_max_drawn_text_bytes (the CLI has cut and said so).
  Figure drawn = figure;
  shorten_drawn_texts(drawn);
  return l.api->draw(drawn, format);
}

}  // namespace moeplan::plot
