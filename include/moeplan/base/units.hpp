#pragma once
/// Quantities that carry their unit in the type, so a FLOPs/token value can never be
/// passed where a total-compute or a parameter count is expected.
///
///   Flops         total training compute C (FLOPs)               — paper 002 Sec. 3.2
///   FlopsPerToken training FLOPs per token M (FLOPs/token, forward + backward: C = M·D)        — paper 002 Eq. 12
///   Params        parameter count N, N_a (parameters)            — paper 002 Table 1
///   Tokens        training tokens D (tokens)                     — paper 002 Eq. 2
#include <compare>

namespace moeplan {

/// Bytes in a GiB (2^30): memory is reported in GiB, as nvidia-smi and Megatron-LM do.
inline constexpr double k_gib = double(1ull << 30);
/// Bytes in a MiB (2^20): nvidia-smi's unit for memory.total and NCCL's for buffer sizes.
inline constexpr double k_mib = double(1ull << 20);

template <class Tag>
class Quantity {
 public:
  constexpr Quantity() = default;
  constexpr explicit Quantity(double value) : value_(value) {}
  [[nodiscard]] constexpr double value() const { return value_; }
  constexpr auto operator<=>(const Quantity&) const = default;
  constexpr Quantity operator+(Quantity o) const { return Quantity(value_ + o.value_); }
  constexpr Quantity operator-(Quantity o) const { return Quantity(value_ - o.value_); }
  constexpr Quantity operator*(double k) const { return Quantity(value_ * k); }
  constexpr Quantity operator/(double k) const { return Quantity(value_ / k); }
  constexpr double operator/(Quantity o) const { return value_ / o.value_; }

 private:
  double value_ = 0.0;
};

struct FlopsTag {};
struct FlopsPerTokenTag {};
struct ParamsTag {};
struct TokensTag {};

using Flops = Quantity<FlopsTag>;
using FlopsPerToken = Quantity<FlopsPerTokenTag>;
using Params = Quantity<ParamsTag>;
using Tokens = Quantity<TokensTag>;

/// C = M · D (paper 002 Sec. 3.2).
constexpr Flops operator*(FlopsPerToken m, Tokens d) { return Flops(m.value() * d.value()); }
/// D = C / M: the tokens a budget buys at a per-token cost (paper 002 Sec. 3.2, C = M·D).
constexpr Tokens operator/(Flops c, FlopsPerToken m) { return Tokens(c.value() / m.value()); }
/// M = C / D: the per-token cost that spends a budget on D tokens.
constexpr FlopsPerToken operator/(Flops c, Tokens d) { return FlopsPerToken(c.value() / d.value()); }
/// M / N_a: FLOPs per token per active parameter (paper 002 Eq. 5), dimensionless.
constexpr double operator/(FlopsPerToken m, Params n) { return m.value() / n.value(); }

}  // namespace moeplan
