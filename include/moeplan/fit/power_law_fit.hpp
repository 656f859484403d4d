#pragma once
/// Least-squares power laws in log–log space (how paper 002 fits Fig. 5b / 6b), used to
/// derive the M/N_a law from the paper's configuration tables and by `fit` later.
#include <expected>
#include <span>
#include <string>

#include "moeplan/laws/compute_optimal.hpp"
#include "moeplan/laws/holistic_laws.hpp"

namespace moeplan {

/// y = a·x^b minimising Σ (log y − log a − b log x)². Needs ≥ 2 distinct x, all x, y > 0;
/// otherwise the reason (the data comes from the user's CSV through `fit`).
std::expected<PowerLaw, std::string> fit_power_law(std::span<const double> x, std::span<const double> y);

/// The M/N_a law from per-scale optima (C_i, (M/N_a)_i), each > 6: fits the score share
/// s_i = 1 − 6/(M/N_a)_i as a power law in C (see MOverNaLaw).
std::expected<MOverNaLaw, std::string> derive_m_over_na_law(std::span<const double> compute,
                                                            std::span<const double> m_over_na);

}  // namespace moeplan
