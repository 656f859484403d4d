#pragma once
/// Expected failures are values (house style): a bad input file or an infeasible
/// request comes back as one of these, never as a print or an abort.
#include <string>

namespace moeplan {

/// The error family: every expected failure is a value with a code (which sets the exit
/// status, man moeplan EXIT STATUS), the place and the reason, and a to_string() of them.
/// The members: InputError (a file or string given by the user), ConstraintViolation (a
/// request no architecture meets) and CsvErrors (fit/runs_csv.hpp: all of a CSV's errors).
/// Only bugs throw (std::logic_error), and only the top-level catch of cli::run sees them.
enum class ErrorCode : int {
  infeasible = 3,  ///< no architecture satisfies the request
  input = 4,       ///< a file or value the user gave is unreadable or invalid
};

/// A problem in a user-supplied file or string: names the place and the reason.
struct InputError {
  static constexpr ErrorCode code = ErrorCode::input;
  std::string source;  ///< file name, or "<embedded:path>" for a preset
  int line = 0;        ///< 1-based; 0 when unknown
  int column = 0;      ///< 1-based; 0 when unknown
  std::string key;     ///< dotted TOML key or flag name; may be empty
  std::string reason;
  /// "laws.toml:12:5: compute_optimal.m_exponent: must be positive, got -1"
  [[nodiscard]] std::string to_string() const;
};

/// A request that no architecture of the family can meet: which constraint, by how much.
struct ConstraintViolation {
  static constexpr ErrorCode code = ErrorCode::infeasible;
  std::string constraint;  ///< e.g. "1 < N/N_a < (N_e+1)/(K+1)" (paper 002 Eq. 5)
  std::string detail;      ///< the numbers, e.g. "N/N_a = 22 but the bound is 7.22"
  [[nodiscard]] std::string to_string() const { return constraint + ": " + detail; }
};

}  // namespace moeplan
