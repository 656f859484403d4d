// The pointwise laws of `moeplan fit`. Every formula cites its paper; the search space
// uses logs of positive coefficients (as Hoffmann et al. 2022 App. D.2 and paper 004 App.
// D.1 Table 3 do), so the optimiser never leaves the law's domain and the grids span
// orders of magnitude.
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "fit_autodiff.hpp"
#include "fit_text.hpp"
#include "fit_pointwise.hpp"
#include "moeplan/laws/joint_loss_law.hpp"
#include "moeplan/base/units.hpp"

namespace moeplan::fit {
namespace {

using std::exp;
using std::log;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<double> range(double from, double to, double step) {
  std::vector<double> v;
  for (double x = from; x <= to + 1e-9 * std::abs(step); x += step) v.push_back(x);
  return v;
}

double max_of(const std::vector<double>& v) { return *std::ranges::max_element(v); }

double median_of(std::vector<double> v) {
  std::ranges::sort(v);
  return v[v.size() / 2];
}


// ---- Chinchilla L(N, D) = E + A/N^α + B/D^β (Hoffmann et al. 2022 Eq. 2; paper 001 Eq. 4)
struct ChinchillaLaw {
  static constexpr int parameters = 5;  // log A, α, log B, β, log E
  static constexpr int inputs = 2;      // ln N, ln D
  template <class T>
  T operator()(const T* t, const double* x) const {
    return exp(t[0] - t[1] * x[0]) + exp(t[2] - t[3] * x[1]) + exp(t[4]);
  }
};

// ---- paper 001 Eq. 7: L = a/N^α + b/D^β + c/N_a^α + h·N_a/N + ε
struct ActivationLaw {
  static constexpr int parameters = 7;  // log a, α, log b, β, log c, log h, log ε
  static constexpr int inputs = 4;      // ln N, ln D, ln N_a, N_a/N
  template <class T>
  T operator()(const T* t, const double* x) const {
    return exp(t[0] - t[1] * x[0]) + exp(t[2] - t[3] * x[1]) + exp(t[4] - t[1] * x[2]) +
           exp(t[5]) * x[3] + exp(t[6]);
  }
};

// ---- paper 001 Eq. 11 (Table 2):
// L = (e·G + f/G + m·S² + n·S)·(N^−α + k·N_a^−α + h·N_a/N) + a·N^−α + b·D^−β + c·N_a^−α + ε
struct JointLaw {
  static constexpr int parameters = 12;  // log e, log f, log m, n, log k, log h, log a, α, log b, β, log c, log ε
  static constexpr int inputs = 6;       // G, S, ln N, ln N_a, N_a/N, ln D
  template <class T>
  T operator()(const T* t, const double* x) const {
    const double G = x[0], S = x[1];
    const T structure = exp(t[0]) * G + exp(t[1]) / G + exp(t[2]) * (S * S) + t[3] * S;
    const T pN = exp(-t[7] * x[2]);
    const T pNa = exp(-t[7] * x[3]);
    const T size = pN + exp(t[4]) * pNa + exp(t[5]) * x[4];
    return structure * size + exp(t[6]) * pN + exp(t[8] - t[9] * x[5]) + exp(t[10]) * pNa +
           exp(t[11]);
  }
};

// ---- paper 000 Eq. 4 with Eq. 1: EL = Â^(a + d·log10 C + γ·(log2 G)² + β·log2 G),
// 1/Â = 1/(A + (1/A_start − 1/A_max)^−1) + 1/A_max (log bases: docs/design.md).
struct LeverageLaw {
  static constexpr int parameters = 6;  // a, d, γ, β, ln A_start, ln A_max
  static constexpr int inputs = 3;      // A, log10 C, log2 G
  template <class T>
  T operator()(const T* t, const double* x) const {
    const T inv_start = exp(-t[4]);
    const T inv_max = exp(-t[5]);
    const T shift = 1.0 / (inv_start - inv_max);
    const T a_hat = 1.0 / (1.0 / (x[0] + shift) + inv_max);
    const T exponent = t[0] + t[1] * x[1] + t[2] * (x[2] * x[2]) + t[3] * x[2];
    return exp(exponent * log(a_hat));
  }
};

// ---- paper 004 Sec. 3.3: r* = α_r·C^β_r, α_r = p·(1 − S)^q, β_r = u·(1 − S)^v
struct OptimalRatioLaw {
  static constexpr int parameters = 4;  // ln p, q, ln u, v
  static constexpr int inputs = 2;      // ln C, ln(1 − S)
  template <class T>
  T operator()(const T* t, const double* x) const {
    return exp(t[0] + t[1] * x[1] + exp(t[2] + t[3] * x[1]) * x[0]);
  }
};

// The joint law is the one fitted on hundreds of rows from hundreds of starts, so its
// batch evaluation is written out: the 8 parameter exponentials once per θ instead of once
// per row, and the gradient by hand (tests/test_fit_engine.cpp checks it against the
// AutoDiff gradient of the same formula above).
class JointModel final : public AutoDiffModel<JointLaw> {
 public:
  using AutoDiffModel<JointLaw>::AutoDiffModel;
  void predict_all(const double* t, double* pred, double* jac) const override {
    const double e = exp(t[0]), f = exp(t[1]), m = exp(t[2]), n = t[3], k = exp(t[4]);
    const double h = exp(t[5]), a = exp(t[6]), alpha = t[7], beta = t[9], c = exp(t[10]);
    const double eps = exp(t[11]);
    for (std::size_t i = 0; i < rows(); ++i) {
      const double* x = &x_[i * 6];
      const double G = x[0], S = x[1], lN = x[2], lNa = x[3], ratio = x[4], lD = x[5];
      const double pN = exp(-alpha * lN), pNa = exp(-alpha * lNa), pD = exp(t[8] - beta * lD);
      const double structure = e * G + f / G + m * S * S + n * S;
      const double size = pN + k * pNa + h * ratio;
      pred[i] = structure * size + a * pN + pD + c * pNa + eps;
      if (jac == nullptr) continue;
      double* g = jac + i * 12;
      g[0] = e * G * size;
      g[1] = f / G * size;
      g[2] = m * S * S * size;
      g[3] = S * size;
      g[4] = structure * k * pNa;
      g[5] = structure * h * ratio;
      g[6] = a * pN;
      g[7] = -structure * (lN * pN + k * lNa * pNa) - a * lN * pN - c * lNa * pNa;
      g[8] = pD;
      g[9] = -lD * pD;
      g[10] = c * pNa;
      g[11] = eps;
    }
  }
};

template <class Law>
std::unique_ptr<Model> model(std::vector<double> features) {
  return std::make_unique<AutoDiffModel<Law>>(std::move(features));
}

PointwiseLaw chinchilla(const RunTable& t) {
  const auto& N = t.col("N");
  const auto& D = t.col("D");
  std::vector<double> x;
  for (std::size_t i = 0; i < t.rows; ++i) {
    x.push_back(log(N[i]));
    x.push_back(log(D[i]));
  }
  PointwiseLaw law;
  law.model = model<ChinchillaLaw>(std::move(x));
  law.target = t.col("loss");
  // Hoffmann et al. (2022) App. D.2 grid: α, β ∈ {0, 0.5, …, 2}, e ∈ {−1, −0.5, …, 1},
  // a, b ∈ {0, 5, …, 25} (a = log A, b = log B, e = log E).
  law.parameters = {{"log_A", -10, 60, range(0, 25, 5)},
                    {"alpha", 0, 3, range(0, 2, 0.5)},
                    {"log_B", -10, 60, range(0, 25, 5)},
                    {"beta", 0, 3, range(0, 2, 0.5)},
                    {"log_E", -10, 5, range(-1, 1, 0.5)}};
  law.coefficient_names = {{"A", "N coefficient"},
                           {"alpha", "N exponent"},
                           {"B", "D coefficient"},
                           {"beta", "D exponent"},
                           {"E", "irreducible loss"}};
  law.coefficients = [](const std::vector<double>& th) {
    return std::vector<double>{exp(th[0]), th[1], exp(th[2]), th[3], exp(th[4])};
  };
  // Compute-optimal allocation under C = 6·N·D (Hoffmann et al. Eq. 4): N_opt = G·(C/6)^a,
  // D_opt = G⁻¹·(C/6)^b, a = β/(α+β), b = α/(α+β), G = (αA/(βB))^(1/(α+β)). With M = 6N
  // this is paper 002 Eq. 2's M_opt(C) = 6G·6^−a·C^a and D_opt(C) = G⁻¹·6^−b·C^b.
  law.derived_names = {{"n_opt_exponent", "a in N_opt ∝ C^a", {}},
                       {"d_opt_exponent", "b in D_opt ∝ C^b", {}},
                       {"m_coefficient", "M_opt(C) = m_coefficient·C^a (M = 6N FLOPs/token)", {}},
                       {"d_coefficient", "D_opt(C) = d_coefficient·C^b (tokens)", {}}};
  law.derived = [](const std::vector<double>& c) {
    const double A = c[0], alpha = c[1], B = c[2], beta = c[3];
    const double a = beta / (alpha + beta), b = alpha / (alpha + beta);
    const double G = std::pow(alpha * A / (beta * B), 1 / (alpha + beta));
    return std::vector<double>{a, b, 6 * G * std::pow(6.0, -a), std::pow(6.0, -b) / G};
  };
  law.planner_toml = [](const std::vector<double>&, const std::vector<double>& d) {
    return fmt::format(
        "[compute_optimal]\n"
        "# From the fitted Chinchilla law (Hoffmann et al. 2022 Eq. 4) with C = 6ND, M = 6N:\n"
        "# M_opt = 6G*6^-a*C^a, D_opt = 6^-b/G*C^b (paper 002 Eq. 2 form).\n"
        "m_coefficient = {}\nm_exponent = {}\nd_coefficient = {}\nd_exponent = {}\n",
        num(d[2]), num(d[0]), num(d[3]), num(d[1]));
  };
  return law;
}

PointwiseLaw activation(const RunTable& t, const FitSettings& s) {
  const auto& N = t.col("N");
  const auto& Na = t.col("N_a");
  const auto& D = t.col("D");
  std::vector<double> x;
  for (std::size_t i = 0; i < t.rows; ++i) {
    x.insert(x.end(), {log(N[i]), log(D[i]), log(Na[i]), Na[i] / N[i]});
  }
  PointwiseLaw law;
  law.model = model<ActivationLaw>(std::move(x));
  law.target = t.col("loss");
  law.parameters = {{"log_a", -10, 60, {0, 4, 8}},     {"alpha", 0, 3, {0.1, 0.25, 0.4}},
                    {"log_b", -10, 60, {4, 8, 12}},    {"beta", 0, 3, {0.1, 0.25, 0.4}},
                    {"log_c", -10, 60, {0, 4}},        {"log_h", -20, 5, {-4, -2}},
                    {"log_epsilon", -10, 5, {-2, -0.5, 0.5}}};
  law.coefficient_names = {{"a", "N coefficient"},   {"alpha", "N and N_a exponent"},
                           {"b", "D coefficient"},   {"beta", "D exponent"},
                           {"c", "N_a coefficient"}, {"h", "N_a/N coefficient"},
                           {"epsilon", "irreducible loss"}};
  law.coefficients = [](const std::vector<double>& th) {
    return std::vector<double>{exp(th[0]), th[1], exp(th[2]), th[3], exp(th[4]), exp(th[5]), exp(th[6])};
  };
  const double N_ref = s.reference_params.value_or(max_of(N));
  // Paper 003 compares MoE and dense at equal N *and* equal compute, so D = C/M falls as N_a
  // grows; with M = 6·N_a (the dense convention, attention left out) Eq. 7 then has an
  // interior optimum even where h → 0. C defaults to the largest budget in the data.
  double C_ref = 0;
  if (s.reference_compute) {
    C_ref = *s.reference_compute;
  } else if (t.has("C")) {
    C_ref = max_of(t.col("C"));
  } else {
    for (std::size_t i = 0; i < t.rows; ++i) C_ref = std::max(C_ref, 6 * Na[i] * D[i]);
  }
  law.derived_names = {
      {"optimal_active_ratio",
       fmt::format("N_a/N minimising Eq. 7 at N = {:.4g}, fixed D: (αcN/h)^(1/(1+α))/N", N_ref),
       [](double r, const std::vector<double>&) -> std::string {
         if (r > 0 && r <= 1) return "";
         // At fixed D the fitted penalty h is too weak to stop the loss falling all the way
         // to N_a = N (a dense model): Eq. 7 has no optimum inside 0 < N_a/N <= 1.
         return fmt::format("no optimum at fixed D: (αcN/h)^(1/(1+α))/N = {:.4g} > 1, the loss "
                            "falls toward dense", r);
       }},
      {"optimal_active_ratio_equal_compute",
       fmt::format("N_a/N minimising Eq. 7 at N = {:.4g}, C = {:.4g}, D = C/(6·N_a)", N_ref, C_ref),
       [](double r, const std::vector<double>&) -> std::string {
         // The search runs over [1e-4, 1]: an end of it is where the loss kept falling.
         if (r > 1.001e-4 && r < 0.999) return "";
         return fmt::format("no interior optimum: the loss falls to the search edge N_a/N = {:.4g}", r);
       }}};
  law.derived = [N_ref, C_ref](const std::vector<double>& c) {
    const double a = c[0], alpha = c[1], b = c[2], beta = c[3], cc = c[4], h = c[5];
    const double fixed_d = std::pow(alpha * cc * N_ref / h, 1 / (1 + alpha)) / N_ref;
    const auto loss_at = [&](double log_r) {
      const double active = std::exp(log_r) * N_ref;
      const double tokens = C_ref / (6 * active);
      return a * std::pow(N_ref, -alpha) + b * std::pow(tokens, -beta) +
             cc * std::pow(active, -alpha) + h * active / N_ref;
    };
    // Golden-section search on log r over [1e-4, 1]; the loss is unimodal there.
    double lo = std::log(1e-4), hi = 0;
    const double g = (std::sqrt(5.0) - 1) / 2;
    for (int it = 0; it < 200; ++it) {
      const double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
      (loss_at(x1) < loss_at(x2) ? hi : lo) = (loss_at(x1) < loss_at(x2) ? x2 : x1);
    }
    const double equal_c = std::exp(0.5 * (lo + hi));
    return std::vector<double>{fixed_d, equal_c};
  };
  law.planner_toml = [](const std::vector<double>&, const std::vector<double>&) { return std::string(); };
  return law;
}

PointwiseLaw joint(const RunTable& t, const FitSettings& s) {
  const auto& N = t.col("N");
  const auto& Na = t.col("N_a");
  const auto& D = t.col("D");
  const auto& G = t.col("G");
  const auto& S = t.col("S");
  std::vector<double> x;
  for (std::size_t i = 0; i < t.rows; ++i) {
    x.insert(x.end(), {G[i], S[i], log(N[i]), log(Na[i]), Na[i] / N[i], log(D[i])});
  }
  PointwiseLaw law;
  law.model = std::make_unique<JointModel>(std::move(x));
  law.target = t.col("loss");
  // 324 starts: the exponents and the three size coefficients on grids (paper 004 Table 3
  // style), the structure coefficients at one neutral start each.
  law.parameters = {{"log_e", -20, 10, {-2}},         {"log_f", -20, 10, {2}},
                    {"log_m", -20, 10, {1}},          {"n", -100, 100, {-1}},
                    {"log_k", -25, 10, {-6}},         {"log_h", -25, 10, {-3}},
                    {"log_a", -20, 30, {0, 3, 6}},    {"alpha", 0.01, 2, {0.2, 0.35, 0.5}},
                    {"log_b", -20, 40, {5, 10}},      {"beta", 0.01, 2, {0.2, 0.35, 0.5}},
                    {"log_c", -20, 30, {0, 3, 6}},    {"log_epsilon", -10, 5, {0, 0.5}}};
  law.coefficient_names = {{"e", "G coefficient"},        {"f", "1/G coefficient"},
                           {"m", "S² coefficient"},       {"n", "S coefficient"},
                           {"k", "N_a^−α share in the size factor"},
                           {"h", "N_a/N share in the size factor"},
                           {"a", "N coefficient"},        {"alpha", "N and N_a exponent"},
                           {"b", "D coefficient"},        {"beta", "D exponent"},
                           {"c", "N_a coefficient"},      {"epsilon", "irreducible loss"}};
  law.coefficients = [](const std::vector<double>& th) {
    return std::vector<double>{exp(th[0]), exp(th[1]), exp(th[2]), th[3],  exp(th[4]), exp(th[5]),
                               exp(th[6]), th[7],      exp(th[8]), th[9], exp(th[10]), exp(th[11])};
  };
  const double N_ref = s.reference_params.value_or(max_of(N));
  // Domains (paper 001 Sec. 3): G counts activated experts (>= 1); S is the shared
  // experts' share of the activated ones (0 <= S <= 1) and Eq. 13 is its minimum only
  // where the S² coefficient m is positive; N_a/N lies in (0, 1].
  const auto g_domain = [](double g, const std::vector<double>&) -> std::string {
    if (g >= 1 && std::isfinite(g)) return "";
    return fmt::format("√(f/e) = {:.4g}: fewer than 1 activated expert", g);
  };
  const auto s_domain = [](double s_opt, const std::vector<double>& c) -> std::string {
    if (!(c[2] > 0)) {
      return fmt::format("m = {:.4g} <= 0: −n/(2m) is the law's maximum in S, not an optimum", c[2]);
    }
    if (s_opt >= 0 && s_opt <= 1) return "";
    return fmt::format("−n/(2m) = {:.4g}, outside 0 <= S <= 1", s_opt);
  };
  law.derived_names = {{"G_opt", "√(f/e), Eq. 12 (activated experts)", g_domain},
                       {"S_opt", "−n/(2m), Eq. 13 (shared share)", s_domain},
                       {"optimal_active_ratio",
                        fmt::format("(N_a/N)_opt of Eq. 14 at N = {:.4g}, G_opt, S_opt", N_ref),
                        [g_domain, s_domain](double r, const std::vector<double>& c) -> std::string {
                          JointLossLaw j{c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11]};
                          if (!g_domain(j.optimal_active_experts(), c).empty() ||
                              !s_domain(j.optimal_shared_ratio(), c).empty()) {
                            return "Eq. 14 is taken at G_opt and S_opt, and one is undefined";
                          }
                          if (r > 0 && r <= 1) return "";
                          return fmt::format("Eq. 14 gives {:.4g}, outside 0 < N_a/N <= 1", r);
                        }}};
  law.derived = [N_ref](const std::vector<double>& c) {
    JointLossLaw j{c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11]};
    const double g_opt = j.optimal_active_experts();
    const double s_opt = j.optimal_shared_ratio();
    return std::vector<double>{g_opt, s_opt, j.theoretical_active_ratio(Params(N_ref), g_opt, s_opt)};
  };
  law.planner_toml = [](const std::vector<double>& c, const std::vector<double>&) {
    return fmt::format(
        "[joint_loss]\n# Paper 001 Eq. 11 refitted (Table 2 names).\n"
        "e = {}\nf = {}\nm = {}\nn = {}\nk = {}\nh = {}\na = {}\nalpha = {}\nb = {}\nbeta = {}\n"
        "c = {}\nepsilon = {}\n",
        num(c[0]), num(c[1]), num(c[2]), num(c[3]), num(c[4]), num(c[5]), num(c[6]), num(c[7]),
        num(c[8]), num(c[9]), num(c[10]), num(c[11]));
  };
  return law;
}

PointwiseLaw leverage(const RunTable& t) {
  const auto& A = t.col("A");
  const auto& C = t.col("C");
  const auto& G = t.col("granularity");
  std::vector<double> x;
  for (std::size_t i = 0; i < t.rows; ++i) x.insert(x.end(), {A[i], std::log10(C[i]), std::log2(G[i])});
  PointwiseLaw law;
  law.model = model<LeverageLaw>(std::move(x));
  law.target = t.col("EL");
  law.parameters = {{"a", -5, 10, {0.5, 1, 1.5}},        {"d", -2, 2, {-0.15, -0.05}},
                    {"gamma", -1, 1, {0.005, 0.03}},     {"beta", -2, 2, {-0.2, -0.05}},
                    {"log_a_start", -15, -0.01, {-6, -4, -2}}, {"log_a_max", 0.5, 60, {10, 40}}};
  law.coefficient_names = {{"a", "base exponent"},           {"d", "compute slope of the exponent"},
                           {"gamma", "curvature in log2 G"},  {"beta", "slope in log2 G"},
                           {"a_start", "saturation start (Eq. 1)"},
                           {"a_max", "saturation cap (Eq. 1)"}};
  law.coefficients = [](const std::vector<double>& th) {
    return std::vector<double>{th[0], th[1], th[2], th[3], exp(th[4]), exp(th[5])};
  };
  law.derived_names = {{"optimal_granularity", "2^(−β/(2γ)): the granularity maximising EL",
                        [](double, const std::vector<double>& c) -> std::string {
                          if (c[2] > 0) return "";
                          return fmt::format("γ = {:.4g} <= 0: 2^(−β/(2γ)) is no maximum of EL", c[2]);
                        }}};
  law.derived = [](const std::vector<double>& c) {
    return std::vector<double>{c[2] != 0 ? std::pow(2.0, -c[3] / (2 * c[2])) : kNaN};
  };
  law.planner_toml = [](const std::vector<double>& c, const std::vector<double>&) {
    return fmt::format(
        "[efficiency_leverage]\n# Paper 000 Eq. 4 and Eq. 1 refitted (Table 6 names).\n"
        "a = {}\nd = {}\ngamma = {}\nbeta = {}\na_start = {}\na_max = {}\n"
        "log_base_compute = 10.0\nlog_base_granularity = 2.0\n",
        num(c[0]), num(c[1]), num(c[2]), num(c[3]), num(c[4]), num(c[5]));
  };
  return law;
}

PointwiseLaw optimal_ratio(const RunTable& t, const FitSettings& s) {
  const auto& C = t.col("C");
  const auto& S = t.col("sparsity");
  std::vector<double> x;
  for (std::size_t i = 0; i < t.rows; ++i) x.insert(x.end(), {log(C[i]), std::log1p(-S[i])});
  PointwiseLaw law;
  law.model = model<OptimalRatioLaw>(std::move(x));
  law.target = t.col("r");
  law.method = Method::levenberg_marquardt;  // plain least squares on log r
  law.parameters = {{"log_alpha_coefficient", -40, 10, {-12, -8, -4}},
                    {"alpha_exponent", -10, 10, {-2, 0}},
                    {"log_beta_coefficient", -10, 2, {-3, -1}},
                    {"beta_exponent", -10, 10, {0, 0.5}}};
  law.coefficient_names = {{"alpha_coefficient", "α_r = alpha_coefficient·(1−S)^alpha_exponent"},
                           {"alpha_exponent", ""},
                           {"beta_coefficient", "β_r = beta_coefficient·(1−S)^beta_exponent"},
                           {"beta_exponent", ""}};
  law.coefficients = [](const std::vector<double>& th) {
    return std::vector<double>{exp(th[0]), th[1], exp(th[2]), th[3]};
  };
  const double C_ref = s.reference_compute.value_or(max_of(C));
  const double S_ref = median_of(S);
  law.derived_names = {{"r_star", fmt::format("r*(C = {:.4g}, S = {:.4g})", C_ref, S_ref), {}}};
  law.derived = [C_ref, S_ref](const std::vector<double>& c) {
    const double alpha_r = c[0] * std::pow(1 - S_ref, c[1]);
    const double beta_r = c[2] * std::pow(1 - S_ref, c[3]);
    return std::vector<double>{alpha_r * std::pow(C_ref, beta_r)};
  };
  law.planner_toml = [](const std::vector<double>& c, const std::vector<double>&) {
    return fmt::format(
        "[optimal_ratio]\n# Paper 004 Sec. 3.3 refitted: r* = a·(1−S)^p · C^(b·(1−S)^q).\n"
        "alpha_coefficient = {}\nalpha_exponent = {}\nbeta_coefficient = {}\nbeta_exponent = {}\n",
        num(c[0]), num(c[1]), num(c[2]), num(c[3]));
  };
  return law;
}

}  // namespace

PointwiseLaw make_pointwise_law(LawKind kind, const RunTable& table, const FitSettings& settings) {
  switch (kind) {
    case LawKind::chinchilla: return chinchilla(table);
    case LawKind::activation: return activation(table, settings);
    case LawKind::joint: return joint(table, settings);
    case LawKind::leverage: return leverage(table);
    case LawKind::optimal_ratio: return optimal_ratio(table, settings);
    default: break;
  }
  throw std::logic_error("make_pointwise_law: not a pointwise law");
}

}  // namespace moeplan::fit
