#pragma once
/// A closed interval [lo, hi] of a dimensionless quantity.
namespace moeplan {

struct ClosedRange {
  double lo = 0;
  double hi = 0;
  [[nodiscard]] bool contains(double x) const { return x >= lo && x <= hi; }
};

}  // namespace moeplan
