#pragma once
/// Statistics of a sample that the fits share (the laws' bootstrap and the step model's,
/// docs/fit.md and docs/calibration.md).
#include <vector>

namespace moeplan::fit {

/// The q-quantile (0 <= q <= 1) by linear interpolation between order statistics (numpy's
/// default). v must not be empty.
double percentile(std::vector<double> v, double q);

/// Pearson correlation of two equally long columns (0 when either is constant).
double correlation(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace moeplan::fit
