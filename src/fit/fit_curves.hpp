#pragma once
// Curve laws of `moeplan fit`: one curve per family (paper 000 Algorithm 1) or per compute
// scale (paper 002 Sec. 5.3 and 6), then what follows from the set of curves.
#include <expected>
#include <string>

#include "moeplan/fit/fit_laws.hpp"

namespace moeplan::fit {

/// L(C) = E + A·C^−α per family; EL points of every other family against the dense one.
std::expected<FitOutcome, std::string> fit_loss_curves(const RunTable& table, const LawInfo& law,
                                                       const FitSettings& settings);

/// m-over-na / hidden-size: per-scale curve, optimum and 0.1 % band, then power laws in C.
std::expected<FitOutcome, std::string> fit_scale_curves(const RunTable& table, const LawInfo& law,
                                                        const FitSettings& settings);

}  // namespace moeplan::fit
