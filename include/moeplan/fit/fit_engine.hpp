#pragma once
/// The optimiser behind `moeplan fit`, independent of any particular law.
///
/// Two methods, as the papers fit their laws:
///  - huber_lbfgs: Σ w_i·Huber_δ(r_i) minimised by dlib's box-constrained L-BFGS from every
///    point of a grid of initial values, keeping the best (Hoffmann et al. 2022 App. D.2,
///    paper 000 Sec. 4.2, paper 004 App. D.1 Table 3). When every residual of the best start
///    lies inside the quadratic zone |r| ≤ δ the objective *is* ½Σr², and a
///    Levenberg–Marquardt polish (dlib) finishes the job to machine precision.
///  - levenberg_marquardt: plain least squares ½Σ w_i r_i² by dlib's LM, from each grid
///    point, keeping the best (for laws the papers fit by least squares).
/// r_i = log(pred_i) − log(y_i) in log space (the default), or pred_i − y_i.
#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace moeplan::fit {

/// A law bound to a fixed set of rows (features precomputed by the law).
class Model {
 public:
  virtual ~Model() = default;
  [[nodiscard]] virtual std::size_t rows() const = 0;
  [[nodiscard]] virtual std::size_t parameter_count() const = 0;
  /// Prediction for row i at θ; when `grad` is non-null also ∂pred/∂θ.
  virtual double predict(const double* theta, std::size_t i, double* grad) const = 0;
  /// Every row at once: pred[i], and when `jac` is non-null ∂pred_i/∂θ_j at
  /// jac[i·P + j]. The default loops predict(); a law may override it to hoist work that
  /// depends on θ only out of the row loop. Must be safe to call from several threads.
  virtual void predict_all(const double* theta, double* pred, double* jac) const {
    const std::size_t p = parameter_count();
    for (std::size_t i = 0; i < rows(); ++i) {
      pred[i] = predict(theta, i, jac ? jac + i * p : nullptr);
    }
  }
};

enum class ResidualSpace { log, linear };
enum class Method { huber_lbfgs, levenberg_marquardt };

/// What huber_lbfgs minimises over the residuals r_i (weights w_i, W = Σ w_i):
///  - huber: Σ w_i·ρ_δ(r_i), ρ_δ(x) = ½x² for |x| ≤ δ, δ(|x| − ½δ) beyond (Hoffmann et al.
///    2022 App. D.2, δ = 10⁻³ on log residuals);
///  - huber_nll: the negative log-likelihood of residuals drawn from the density
///    exp(−ρ_δ(r/σ))/(σ·Z(δ)) with the scale σ fitted too, profiled out exactly:
///    min_σ Σ w_i·ρ_δ(r_i/σ) + W·log σ + W·log Z(δ), Z(δ) = √(2π)(2Φ(δ) − 1) + 2e^(−δ²/2)/δ.
///    δ is then in units of σ (1.345 is the usual 95 %-efficiency choice). This is the
///    form of Besiroglu et al. (2024, "Chinchilla scaling: a replication attempt").
enum class Objective { huber, huber_nll };

/// One coordinate of the search space (often the log of a published coefficient).
struct Parameter {
  std::string name;          ///< e.g. "log_a", "alpha"
  double lower = -1e300;     ///< box for the optimiser; a final value on it is warned about
  double upper = 1e300;
  std::vector<double> grid;  ///< initial values; the start grid is the cartesian product
};

struct Problem {
  const Model* model = nullptr;
  std::vector<double> target;  ///< observed y_i (> 0 in log space)
  std::vector<Parameter> parameters;
  ResidualSpace space = ResidualSpace::log;
  Method method = Method::huber_lbfgs;
  Objective objective = Objective::huber;  ///< for huber_lbfgs
};

struct Options {
  double huber_delta = 1e-3;          ///< Hoffmann et al. use δ = 10⁻³ on log residuals
  std::size_t max_starts = 0;         ///< 0: every grid point; else the K best by initial objective
  std::size_t max_iterations = 5000;  ///< per start
  double relative_tolerance = 1e-13;  ///< stop when one iteration gains less than this × |f|
  /// Multi-start in two phases: every grid start runs to this looser tolerance, then the
  /// `refine_best` lowest are continued to `relative_tolerance`. Most starts end in the same
  /// few basins, so polishing each of them to 1e-13 would be wasted work.
  double screen_tolerance = 1e-7;
  std::size_t refine_best = 4;
  /// Threads for the grid starts (0: the machine's cores). Each start is independent and
  /// the winner is picked in grid order, so the result does not depend on this.
  std::size_t threads = 0;
  /// Called after each start (done, total); the CLI draws a progress bar with it.
  std::function<void(std::size_t, std::size_t)> progress;
};

struct Solution {
  std::vector<double> theta;          ///< best point, search space
  double objective = 0;               ///< at theta (Huber sum, or ½Σr² for LM)
  bool converged = false;             ///< the best start met the tolerance (not the cap)
  std::size_t iterations = 0;         ///< of the best start
  std::size_t starts = 0;             ///< grid points the optimiser ran from
  std::size_t converged_starts = 0;
  bool polished = false;              ///< the LM polish ran (all residuals within δ)
  std::vector<std::string> at_bound;  ///< parameters whose value sits on their box edge
  /// Starts ending within 1e-4 relative of the best objective, and the largest distance
  /// between their θ and the best θ (search-space units) with the parameter it occurs in.
  std::size_t near_best_starts = 0;
  double near_best_spread = 0;
  std::string near_best_spread_parameter;
};

/// Fits from the whole grid. `weights` (one per row, ≥ 0) select and repeat rows: 0 leaves
/// a row out (holdout), k counts it k times (bootstrap).
Solution minimise(const Problem& problem, std::span<const double> weights,
                  const Options& options);

/// One start from `theta0` (bootstrap refits start from the full-data optimum).
Solution refine(const Problem& problem, std::span<const double> weights,
                std::vector<double> theta0, const Options& options);

/// The objective at θ (as minimised) — exposed for benchmarks and tests.
double objective(const Problem& problem, std::span<const double> weights,
                 std::span<const double> theta, double huber_delta);

/// Fit quality over the rows with weight > 0, in the target's own units.
struct Quality {
  std::size_t rows = 0;
  double r2 = 0;                ///< 1 − SS_res/SS_tot (≤ 0: no better than the mean)
  double rmse = 0;              ///< √(mean (pred − y)²)
  double mean_abs_error = 0;    ///< the papers' "average loss error"
  double max_abs_residual = 0;  ///< max |pred − y|
  double max_rel_residual = 0;  ///< max |pred − y|/y
};
Quality quality(const Problem& problem, std::span<const double> theta,
                std::span<const double> weights);
/// The same figures for predictions made elsewhere (the curve laws fit per group).
Quality quality(std::span<const double> observed, std::span<const double> predicted);
/// RMSE of predicting the mean of `observed`: the bar any law must beat.
double mean_model_rmse(std::span<const double> observed);

}  // namespace moeplan::fit
