#include "moeplan/laws/power_law.hpp"

#include <cmath>

namespace moeplan {

double PowerLaw::operator()(double x) const { return coefficient * std::pow(x, exponent); }

}  // namespace moeplan
