#pragma once
/// a·x^b: the form of paper 002 Eq. 2 and Fig. 5, paper 000's EL terms and paper 004's
/// allocation law. One type so every law evaluates it the same way.
namespace moeplan {

struct PowerLaw {
  double coefficient = 0;  ///< a in a·x^b
  double exponent = 0;     ///< b in a·x^b
  [[nodiscard]] double operator()(double x) const;
};

}  // namespace moeplan
