// The joint-law fit benchmark (issue 4): 446 synthetic runs on paper 001's own experiment
// grid (Appendix L Table 6), losses from Table 2's coefficients with 0.5 % multiplicative
// noise, fitted from the full initial-value grid. Writes the runs, the grid and the search
// box for bench/fit_scipy.py so SciPy solves the identical problem, then times moeplan.
//
// Usage: moeplan_fit_bench EXPERIMENTS_CSV OUT_DIR [REPEATS]
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <random>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "fit_pointwise.hpp"
#include "moeplan/fit/fit_laws.hpp"
#include "moeplan/laws/laws_loader.hpp"
#include "moeplan/fit/runs_csv.hpp"

using namespace moeplan;

namespace {

// Box–Muller on mt19937_64 so the data are the same on every platform.
double normal(std::mt19937_64& rng) {
  const double u1 = (static_cast<double>(rng() >> 11) + 0.5) / 9007199254740992.0;
  const double u2 = (static_cast<double>(rng() >> 11) + 0.5) / 9007199254740992.0;
  return std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
}

void write_rows(const std::string& path, const std::vector<fit::Parameter>& params,
                const std::vector<std::vector<double>>& rows) {
  std::ofstream out(path);
  for (std::size_t j = 0; j < params.size(); ++j) out << (j ? "," : "") << params[j].name;
  out << "\n";
  for (const auto& r : rows) {
    for (std::size_t j = 0; j < r.size(); ++j) out << (j ? "," : "") << fmt::format("{:.17g}", r[j]);
    out << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: moeplan_fit_bench EXPERIMENTS_CSV OUT_DIR [REPEATS]\n";
    return 2;
  }
  const std::string out_dir = argv[2];
  const int repeats = argc > 3 ? std::atoi(argv[3]) : 3;
  const auto grid = read_runs_csv(argv[1], [](const std::vector<std::string>&) {
    return std::expected<std::vector<ColumnSpec>, std::string>(std::vector<ColumnSpec>{
        {"N_a", ColumnKind::positive, true, ""}, {"N", ColumnKind::positive, true, ""},
        {"D", ColumnKind::positive, true, ""}, {"G", ColumnKind::positive, true, ""},
        {"S", ColumnKind::unit_closed, true, ""}});
  });
  if (!grid) {
    std::cerr << grid.error().to_string() << "\n";
    return 1;
  }
  const JointLossLaw law = builtin_laws().joint;
  std::mt19937_64 rng(0);
  const std::string runs_path = out_dir + "/joint_runs.csv";
  {
    std::ofstream runs(runs_path);
    runs << "# 446 runs on paper 001 Table 6's grid; loss = Eq. 11 with Table 2 x (1 + 0.005 z)\n"
         << "N,N_a,D,G,S,loss\n";
    for (std::size_t i = 0; i < grid->rows; ++i) {
      const double N = grid->col("N")[i], Na = grid->col("N_a")[i], D = grid->col("D")[i];
      const double G = grid->col("G")[i], S = grid->col("S")[i];
      const double L = law.loss(Params(N), Tokens(D), Params(Na), G, S) * (1 + 0.005 * normal(rng));
      runs << fmt::format("{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g}\n", N, Na, D, G, S, L);
    }
  }
  fit::FitSettings settings;
  const auto choose = [&](const std::vector<std::string>&) {
    return std::expected<std::vector<ColumnSpec>, std::string>(
        fit::columns_for(fit::LawKind::joint, settings));
  };
  auto table = read_runs_csv(runs_path, choose);
  if (!table) {
    std::cerr << table.error().to_string() << "\n";
    return 1;
  }
  // The grid and the box, exactly as moeplan searches them.
  const fit::PointwiseLaw pl = fit::make_pointwise_law(fit::LawKind::joint, *table, settings);
  std::vector<std::vector<double>> starts{{}};
  for (const fit::Parameter& p : pl.parameters) {
    std::vector<std::vector<double>> next;
    for (const auto& s : starts) {
      for (double v : p.grid) {
        next.push_back(s);
        next.back().push_back(v);
      }
    }
    starts = std::move(next);
  }
  write_rows(out_dir + "/joint_grid.csv", pl.parameters, starts);
  std::vector<double> lo, hi;
  for (const fit::Parameter& p : pl.parameters) {
    lo.push_back(p.lower);
    hi.push_back(p.upper);
  }
  write_rows(out_dir + "/joint_bounds.csv", pl.parameters, {lo, hi});

  // One objective+gradient evaluation, for scale.
  const std::vector<double> w(table->rows, 1.0);
  fit::Problem problem{pl.model.get(), pl.target, pl.parameters, pl.space, pl.method};
  std::vector<double> theta = starts.front();
  const auto e0 = std::chrono::steady_clock::now();
  double sink = 0;
  for (int i = 0; i < 2000; ++i) sink += fit::objective(problem, w, theta, settings.huber_delta);
  const double eval_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - e0).count() / 2000;

  double best_seconds = 1e300;
  fit::FitOutcome outcome;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    auto o = fit::fit_runs(*table, fit::LawKind::joint, settings);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!o) {
      std::cerr << o.error() << "\n";
      return 1;
    }
    best_seconds = std::min(best_seconds, s);
    outcome = std::move(*o);
  }
  fmt::print("{{\"rows\": {}, \"starts\": {}, \"seconds\": {:.4f}, \"objective\": {:.10g}, "
             "\"converged_starts\": {}, \"objective_eval_us\": {:.2f}, \"sink\": {:.3g}}}\n",
             table->rows, outcome.solution.starts, best_seconds, outcome.solution.objective,
             outcome.solution.converged_starts, eval_us, sink > 0 ? 1.0 : 0.0);
  return 0;
}
