#pragma once
/// The contract between moeplan and libmoeplan_plplot.so, the module that draws with PLplot.
/// PLplot and the ~15 libraries it maps (cairo's PNG/JPEG/freetype, shapelib, qhull, csiro,
/// libltdl, ...) are loaded by `moeplan plot` alone, on its first drawing, as the CUDA module
/// is by the GPU benchmark (gemm/gpu_loader.cpp): every other command starts without them.
/// Both sides are built from this tree in one build; `abi` and the Figure's size catch a
/// module left over from another.
#include <cstddef>
#include <expected>
#include <string>

#include "moeplan/plot/plot_data.hpp"

namespace moeplan::plot::plplot_module {

inline constexpr int k_abi = 2;  ///< bump when Figure or this struct changes meaning
inline constexpr const char* k_entry = "moeplan_plplot_module";

struct Api {
  int abi = 0;
  std::size_t figure_size = 0;  ///< sizeof(Figure) where the module was built
  std::expected<std::string, std::string> (*draw)(const Figure&, ImageFormat) = nullptr;
};

}  // namespace moeplan::plot::plplot_module
