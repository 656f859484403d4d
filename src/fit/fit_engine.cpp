#include "moeplan/fit/fit_engine.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <limits>
#include <atomic>
#include <mutex>
#include <numeric>
#include <thread>

#include <dlib/optimization.h>

namespace moeplan::fit {
namespace {

using Vec = dlib::matrix<double, 0, 1>;

// Objective value for points where the law is undefined (prediction ≤ 0 or not finite in
// log space). dlib's line search rejects non-finite values, so a huge finite value makes
// it back off instead.
constexpr double kUndefined = 1e30;

double huber(double r, double delta) {
  const double a = std::abs(r);
  return a <= delta ? 0.5 * r * r : delta * (a - 0.5 * delta);
}
double huber_slope(double r, double delta) {
  return std::abs(r) <= delta ? r : (r > 0 ? delta : -delta);
}

// log Z(δ) of the density exp(−ρ_δ(x))/Z on the real line: the quadratic core gives
// √(2π)(2Φ(δ) − 1), the two linear tails 2·e^(−δ²/2)/δ.
double huber_log_normaliser(double delta) {
  const double core = std::sqrt(2.0 * std::numbers::pi) * std::erf(delta / std::sqrt(2.0));
  return std::log(core + 2.0 * std::exp(-0.5 * delta * delta) / delta);
}

// The σ minimising Σ w·ρ_δ(r/σ) + W·log σ: the root of h(σ) = Σ w·ψ(r/σ)·(r/σ) − W, which
// falls from +∞ (σ → 0) to −W (σ → ∞); ψ(x)·x is x² inside δ and δ|x| beyond. Bisection in
// log σ from a bracket around the two closed forms (all quadratic: σ² = Σwr²/W; all linear:
// σ = δΣw|r|/W), finished by a few safeguarded Newton steps.
double profile_scale(const std::vector<double>& r, std::span<const double> w, double delta) {
  double W = 0, sq = 0, ab = 0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    if (w[i] == 0) continue;
    W += w[i];
    sq += w[i] * r[i] * r[i];
    ab += w[i] * std::abs(r[i]);
  }
  if (!(W > 0) || !(sq > 0)) return std::numeric_limits<double>::min();  // a perfect fit
  const auto h = [&](double sigma) {
    double s = -W;
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (w[i] == 0) continue;
      const double x = std::abs(r[i]) / sigma;
      s += w[i] * (x <= delta ? x * x : delta * x);
    }
    return s;
  };
  double lo = std::min(std::sqrt(sq / W), delta * ab / W) * 0.5;
  double hi = std::max(std::sqrt(sq / W), delta * ab / W) * 2.0;
  while (h(lo) < 0 && lo > 1e-300) lo *= 0.5;
  while (h(hi) > 0 && hi < 1e300) hi *= 2.0;
  for (int it = 0; it < 200 && hi / lo > 1.0 + 1e-13; ++it) {
    const double mid = std::sqrt(lo * hi);
    (h(mid) > 0 ? lo : hi) = mid;
  }
  return std::sqrt(lo * hi);
}

// Residual and ∂r/∂pred for one row; false when the law is undefined there.
bool residual(const Problem& p, std::size_t i, double pred, double& r, double& dr_dpred) {
  if (!std::isfinite(pred)) return false;
  if (p.space == ResidualSpace::log) {
    if (pred <= 0) return false;
    r = std::log(pred) - std::log(p.target[i]);
    dr_dpred = 1.0 / pred;
  } else {
    r = pred - p.target[i];
    dr_dpred = 1.0;
  }
  return true;
}

// Huber objective and its gradient in one pass (dlib asks for them separately; the
// Cached wrapper below computes both once per point).
double value_and_gradient(const Problem& p, std::span<const double> w, const double* theta,
                          double delta, double* grad) {
  const std::size_t n = p.model->rows();
  const std::size_t k = p.model->parameter_count();
  // Scratch per thread: predictions and the row Jacobian of one evaluation.
  thread_local std::vector<double> pred, jac;
  pred.resize(n);
  if (grad) jac.resize(n * k);
  // Sparse weights (a screen on a subset, a small validation split) evaluate only the
  // rows that count; dense ones take the law's batch path.
  const auto active = static_cast<std::size_t>(std::ranges::count_if(w, [](double x) { return x != 0; }));
  if (2 * active < n) {
    for (std::size_t i = 0; i < n; ++i) {
      if (w[i] != 0) pred[i] = p.model->predict(theta, i, grad ? &jac[i * k] : nullptr);
    }
  } else {
    p.model->predict_all(theta, pred.data(), grad ? jac.data() : nullptr);
  }
  if (grad) std::fill(grad, grad + k, 0.0);
  thread_local std::vector<double> res, dres;
  res.resize(n);
  dres.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (w[i] == 0) continue;
    if (!residual(p, i, pred[i], res[i], dres[i])) return kUndefined;
  }
  // huber_nll: the scale σ that minimises the NLL at these residuals (profiled out; by the
  // envelope theorem the gradient in θ is that of Σ w ρ(r/σ) at fixed σ).
  double sigma = 1.0, f = 0;
  if (p.objective == Objective::huber_nll) {
    sigma = profile_scale(res, w, delta);
    if (!(sigma > 0) || !std::isfinite(sigma)) return kUndefined;
    double W = 0;
    for (std::size_t i = 0; i < n; ++i) W += w[i];
    f = W * (std::log(sigma) + huber_log_normaliser(delta));
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (w[i] == 0) continue;
    const double x = res[i] / sigma;
    f += w[i] * huber(x, delta);
    if (grad) {
      const double s = w[i] * huber_slope(x, delta) / sigma * dres[i];
      const double* g = &jac[i * k];
      for (std::size_t j = 0; j < k; ++j) grad[j] += s * g[j];
    }
  }
  if (!std::isfinite(f)) return kUndefined;
  return f;
}

class Cached {
 public:
  Cached(const Problem& p, std::span<const double> w, double delta) : p_(p), w_(w), delta_(delta) {}
  double value(const Vec& x) const {
    update(x);
    return f_;
  }
  Vec gradient(const Vec& x) const {
    update(x);
    return g_;
  }

 private:
  void update(const Vec& x) const {
    if (have_ && x.size() == x_.size() && x == x_) return;
    x_ = x;
    g_.set_size(x.size());
    f_ = value_and_gradient(p_, w_, &x(0), delta_, &g_(0));
    have_ = true;
  }
  const Problem& p_;
  std::span<const double> w_;
  double delta_;
  mutable bool have_ = false;
  mutable Vec x_, g_;
  mutable double f_ = 0;
};

// dlib copies stop strategies by value, so the outcome is written through a pointer.
struct StopRecord {
  std::size_t iterations = 0;
  bool hit_cap = false;
};

class RelativeDeltaStop {
 public:
  RelativeDeltaStop(double rel, std::size_t max_iter, StopRecord* rec)
      : rel_(rel), max_(max_iter), rec_(rec) {}
  template <class T>
  bool should_continue_search(const T&, double f, const T&) {
    ++rec_->iterations;
    if (rec_->iterations > max_) {
      rec_->hit_cap = true;
      return false;
    }
    const bool first = !used_;
    used_ = true;
    const double gain = prev_ - f;
    prev_ = f;
    if (first) return true;
    return gain > rel_ * std::max(std::abs(f), 1e-300);
  }

 private:
  double rel_;
  std::size_t max_;
  StopRecord* rec_;
  bool used_ = false;
  double prev_ = 0;
};

Vec to_vec(std::span<const double> v) {
  Vec x(static_cast<long>(v.size()));
  for (std::size_t i = 0; i < v.size(); ++i) x(static_cast<long>(i)) = v[i];
  return x;
}
std::vector<double> from_vec(const Vec& x) { return {x.begin(), x.end()}; }

std::vector<std::size_t> sample_list(std::span<const double> w) {
  std::vector<std::size_t> list;
  for (std::size_t i = 0; i < w.size(); ++i) {
    for (long c = std::lround(w[i]); c > 0; --c) list.push_back(i);
  }
  return list;
}

struct StartResult {
  std::vector<double> theta;
  double objective = 0;
  bool converged = false;
  std::size_t iterations = 0;
  bool polished = false;
};

// Levenberg–Marquardt on ½Σ r² (dlib's trust-region LM). Returns the final ½Σr².
double run_lm(const Problem& p, const std::vector<std::size_t>& list, Vec& x,
              std::size_t max_iter, double rel, StopRecord* rec) {
  const std::size_t k = p.model->parameter_count();
  const auto res = [&](std::size_t i, const Vec& th) {
    double r = 0, dr = 0;
    const double pred = p.model->predict(&th(0), i, nullptr);
    if (!residual(p, i, pred, r, dr)) return 1e15;
    return r;
  };
  const auto der = [&](std::size_t i, const Vec& th) {
    Vec g(static_cast<long>(k));
    double r = 0, dr = 0;
    const double pred = p.model->predict(&th(0), i, &g(0));
    if (!residual(p, i, pred, r, dr)) return Vec(dlib::zeros_matrix<double>(static_cast<long>(k), 1));
    return Vec(g * dr);
  };
  return dlib::solve_least_squares_lm(RelativeDeltaStop(rel, max_iter, rec), res, der, list, x);
}

StartResult run_start(const Problem& p, std::span<const double> w, std::vector<double> theta0,
                      const Options& o, const Vec& lower, const Vec& upper, double tolerance) {
  StartResult out;
  Vec x = to_vec(theta0);
  StopRecord rec;
  try {
    if (p.method == Method::levenberg_marquardt) {
      out.objective = run_lm(p, sample_list(w), x, o.max_iterations, tolerance, &rec);
    } else {
      Cached c(p, w, o.huber_delta);
      x = dlib::clamp(x, lower, upper);
      out.objective = dlib::find_min_box_constrained(
          dlib::lbfgs_search_strategy(10), RelativeDeltaStop(tolerance, o.max_iterations, &rec),
          [&](const Vec& v) { return c.value(v); }, [&](const Vec& v) { return c.gradient(v); }, x,
          lower, upper);
    }
  } catch (const dlib::error&) {
    // dlib gives up when a start leads only to undefined points: that start has failed.
    out.theta = std::move(theta0);
    out.objective = kUndefined;
    return out;
  }
  out.theta = from_vec(x);
  out.iterations = rec.iterations;
  out.converged = !rec.hit_cap && out.objective < kUndefined;
  return out;
}

// Inside the quadratic zone the Huber objective is ½Σr²: polish there with LM, keep it only
// if it stays inside the zone and improves.
void polish(const Problem& p, std::span<const double> w, const Options& o, StartResult& best) {
  if (p.method != Method::huber_lbfgs || p.objective != Objective::huber ||
      best.objective >= kUndefined) {
    return;  // LM minimises ½Σr², which only the plain Huber sum equals (inside δ)
  }
  const std::size_t n = p.model->rows();
  const auto all_inside = [&](const std::vector<double>& th) {
    for (std::size_t i = 0; i < n; ++i) {
      if (w[i] == 0) continue;
      double r = 0, dr = 0;
      if (!residual(p, i, p.model->predict(th.data(), i, nullptr), r, dr)) return false;
      if (std::abs(r) > o.huber_delta) return false;
    }
    return true;
  };
  if (!all_inside(best.theta)) return;
  Vec x = to_vec(best.theta);
  StopRecord rec;
  try {
    run_lm(p, sample_list(w), x, o.max_iterations, 1e-15, &rec);
  } catch (const dlib::error&) {
    return;
  }
  std::vector<double> th = from_vec(x);
  for (std::size_t j = 0; j < th.size(); ++j) {
    if (th[j] < p.parameters[j].lower || th[j] > p.parameters[j].upper) return;
  }
  if (!all_inside(th)) return;
  const double f = value_and_gradient(p, w, th.data(), o.huber_delta, nullptr);
  if (f <= best.objective) {
    best.theta = std::move(th);
    best.objective = f;
    best.polished = true;
  }
}

std::vector<std::vector<double>> grid_points(const std::vector<Parameter>& params) {
  std::vector<std::vector<double>> points{{}};
  for (const Parameter& par : params) {
    std::vector<std::vector<double>> next;
    next.reserve(points.size() * par.grid.size());
    for (const auto& pt : points) {
      for (double v : par.grid) {
        next.push_back(pt);
        next.back().push_back(v);
      }
    }
    points = std::move(next);
  }
  return points;
}

double start_objective(const Problem& p, std::span<const double> w, std::span<const double> th,
                       double delta) {
  if (p.method == Method::huber_lbfgs) return value_and_gradient(p, w, th.data(), delta, nullptr);
  double f = 0;
  for (std::size_t i = 0; i < p.model->rows(); ++i) {
    if (w[i] == 0) continue;
    double r = 0, dr = 0;
    if (!residual(p, i, p.model->predict(th.data(), i, nullptr), r, dr)) return kUndefined;
    f += 0.5 * w[i] * r * r;
  }
  return f;
}

void mark_bounds(const Problem& p, Solution& s) {
  for (std::size_t j = 0; j < s.theta.size(); ++j) {
    const Parameter& par = p.parameters[j];
    const double span = std::max(par.upper - par.lower, 1e-12);
    if (s.theta[j] <= par.lower + 1e-6 * span || s.theta[j] >= par.upper - 1e-6 * span) {
      s.at_bound.push_back(par.name);
    }
  }
}

// The optimiser's box, from the parameters' bounds.
std::pair<Vec, Vec> box(const Problem& p) {
  const std::size_t k = p.parameters.size();
  Vec lower(static_cast<long>(k)), upper(static_cast<long>(k));
  for (std::size_t j = 0; j < k; ++j) {
    lower(static_cast<long>(j)) = p.parameters[j].lower;
    upper(static_cast<long>(j)) = p.parameters[j].upper;
  }
  return {lower, upper};
}

Solution solution_of(const StartResult& r) {
  Solution sol;
  sol.theta = r.theta;
  sol.objective = r.objective;
  sol.converged = r.converged;
  sol.iterations = r.iterations;
  sol.polished = r.polished;
  return sol;
}

}  // namespace

double objective(const Problem& problem, std::span<const double> weights,
                 std::span<const double> theta, double huber_delta) {
  return start_objective(problem, weights, theta, huber_delta);
}

Solution minimise(const Problem& p, std::span<const double> w, const Options& o) {
  const std::size_t k = p.parameters.size();
  // Not a structured binding: the worker lambda below captures these, and Clang (<= 18)
  // rejects capturing structured bindings under -fopenmp (the fuzz build, docs/fuzzing.md).
  const auto bounds = box(p);
  const auto& lower = bounds.first;
  const auto& upper = bounds.second;
  std::vector<std::vector<double>> starts = grid_points(p.parameters);
  if (o.max_starts > 0 && o.max_starts < starts.size()) {
    // Screen the grid by its initial objective and run from the best K (stable order).
    // On big tables the screen looks at an evenly strided subset of ≤ 10³ rows: ranking
    // starting points does not need every row, and 4500 grid points × 10⁶ rows would.
    std::vector<double> screen_w(w.begin(), w.end());
    if (const std::size_t stride = w.size() / 1000 + 1; stride > 1) {
      for (std::size_t i = 0; i < screen_w.size(); ++i) {
        if (i % stride != 0) screen_w[i] = 0;
      }
    }
    std::vector<std::pair<double, std::size_t>> scored;
    for (std::size_t s = 0; s < starts.size(); ++s) {
      scored.emplace_back(start_objective(p, screen_w, starts[s], o.huber_delta), s);
    }
    std::stable_sort(scored.begin(), scored.end());
    std::vector<std::vector<double>> kept;
    for (std::size_t s = 0; s < o.max_starts; ++s) kept.push_back(starts[scored[s].second]);
    starts = std::move(kept);
  }
  std::vector<StartResult> results(starts.size());
  const double screen = std::max(o.screen_tolerance, o.relative_tolerance);
  {
    // Starts are independent: workers take the next index; results land in grid order.
    std::atomic<std::size_t> next{0}, done{0};
    std::mutex progress_mutex;
    const auto work = [&] {
      for (std::size_t s = next++; s < starts.size(); s = next++) {
        results[s] = run_start(p, w, starts[s], o, lower, upper, screen);
        const std::size_t d = ++done;
        if (o.progress) {
          const std::lock_guard lock(progress_mutex);
          o.progress(d, starts.size());
        }
      }
    };
    std::size_t threads = o.threads > 0 ? o.threads : std::max(1u, std::thread::hardware_concurrency());
    threads = std::min(threads, starts.size());
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
  }
  // Phase 2: continue the lowest few to the full tolerance (stable order: deterministic).
  if (screen > o.relative_tolerance) {
    std::vector<std::size_t> order(results.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return results[a].objective < results[b].objective;
    });
    for (std::size_t r = 0; r < std::min(o.refine_best, order.size()); ++r) {
      StartResult& sr = results[order[r]];
      if (sr.objective >= kUndefined) continue;
      const std::size_t screened_iterations = sr.iterations;
      StartResult more = run_start(p, w, sr.theta, o, lower, upper, o.relative_tolerance);
      more.iterations += screened_iterations;
      if (more.objective <= sr.objective) sr = std::move(more);
    }
  }
  // Lowest objective wins; ties go to the earlier grid point, so the result is deterministic.
  std::size_t best = 0;
  for (std::size_t s = 1; s < results.size(); ++s) {
    if (results[s].objective < results[best].objective) best = s;
  }
  StartResult b = results[best];
  polish(p, w, o, b);

  Solution sol = solution_of(b);
  sol.starts = results.size();
  for (const StartResult& r : results) {
    if (r.converged) ++sol.converged_starts;
    if (r.objective <= results[best].objective * (1 + 1e-4) + 1e-300) {
      ++sol.near_best_starts;
      for (std::size_t j = 0; j < k; ++j) {
        const double d = std::abs(r.theta[j] - results[best].theta[j]);
        if (d > sol.near_best_spread) {
          sol.near_best_spread = d;
          sol.near_best_spread_parameter = p.parameters[j].name;
        }
      }
    }
  }
  mark_bounds(p, sol);
  return sol;
}

Solution refine(const Problem& p, std::span<const double> w, std::vector<double> theta0,
                const Options& o) {
  const auto [lower, upper] = box(p);
  StartResult r = run_start(p, w, std::move(theta0), o, lower, upper, o.relative_tolerance);
  polish(p, w, o, r);
  Solution sol = solution_of(r);
  sol.starts = 1;
  sol.converged_starts = r.converged ? 1 : 0;
  mark_bounds(p, sol);
  return sol;
}

Quality quality(std::span<const double> y, std::span<const double> pred) {
  Quality q;
  q.rows = y.size();
  if (q.rows == 0) return q;
  double mean = 0;
  for (double v : y) mean += v;
  mean /= static_cast<double>(q.rows);
  double ss_res = 0, ss_tot = 0, abs_sum = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double e = pred[i] - y[i];
    ss_res += e * e;
    ss_tot += (y[i] - mean) * (y[i] - mean);
    abs_sum += std::abs(e);
    q.max_abs_residual = std::max(q.max_abs_residual, std::abs(e));
    q.max_rel_residual = std::max(q.max_rel_residual, std::abs(e) / std::abs(y[i]));
  }
  const double n = static_cast<double>(q.rows);
  q.rmse = std::sqrt(ss_res / n);
  q.mean_abs_error = abs_sum / n;
  q.r2 = ss_tot > 0 ? 1 - ss_res / ss_tot : (ss_res == 0 ? 1.0 : 0.0);
  return q;
}

Quality quality(const Problem& p, std::span<const double> theta, std::span<const double> w) {
  std::vector<double> y, pred;
  for (std::size_t i = 0; i < p.model->rows(); ++i) {
    if (w[i] == 0) continue;
    y.push_back(p.target[i]);
    pred.push_back(p.model->predict(theta.data(), i, nullptr));
  }
  return quality(y, pred);
}

double mean_model_rmse(std::span<const double> y) {
  double mean = 0;
  for (double v : y) mean += v;
  mean /= static_cast<double>(y.size());
  return quality(y, std::vector<double>(y.size(), mean)).rmse;
}

}  // namespace moeplan::fit
