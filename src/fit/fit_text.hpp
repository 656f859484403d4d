// How the fits write a fitted number into a message or a law's text: ten significant digits,
// enough to read a coefficient back to the precision the fit resolved it (one place, so a
// report and the laws file it writes agree).
#pragma once

#include <string>

#include <fmt/format.h>

namespace moeplan::fit {

inline std::string num(double v) { return fmt::format("{:.10g}", v); }

}  // namespace moeplan::fit
