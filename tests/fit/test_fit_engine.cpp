// The fit engine (minimise, refine, objective) directly, on models whose optimum is known in
// closed form, so each property can fail on its own: the grid start, the bounds, weights,
// the Huber objective and the LM polish.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "moeplan/fit/fit_engine.hpp"

using namespace moeplan::fit;

namespace {

// y = a·x^b over fixed x: in log space the residual is linear in (log a, b).
class PowerModel final : public Model {
 public:
  explicit PowerModel(std::vector<double> x) : x_(std::move(x)) {}
  [[nodiscard]] std::size_t rows() const override { return x_.size(); }
  [[nodiscard]] std::size_t parameter_count() const override { return 2; }
  double predict(const double* theta, std::size_t i, double* grad) const override {
    const double y = std::exp(theta[0]) * std::pow(x_[i], theta[1]);
    if (grad) {
      grad[0] = y;
      grad[1] = y * std::log(x_[i]);
    }
    return y;
  }

 private:
  std::vector<double> x_;
};

struct Setup {
  std::vector<double> x{1, 2, 4, 8, 16, 32, 64, 128};
  PowerModel model{x};
  Problem problem;
  std::vector<double> ones;
  Setup(double a, double b, Method method) {
    problem.model = &model;
    for (double xi : x) problem.target.push_back(a * std::pow(xi, b));
    problem.parameters = {{"log_a", -10, 10, {-2.0, 0.0, 2.0}}, {"b", -3, 3, {-1.0, 1.0}}};
    problem.method = method;
    ones.assign(x.size(), 1.0);
  }
};

}  // namespace

TEST_CASE("minimise recovers an exact power law with either method, from a grid away from it") {
  for (Method method : {Method::huber_lbfgs, Method::levenberg_marquardt}) {
    Setup s(3.0, 0.7, method);
    const Solution fit = minimise(s.problem, s.ones, Options{});
    REQUIRE(fit.theta.size() == 2);
    CHECK(std::exp(fit.theta[0]) == doctest::Approx(3.0).epsilon(1e-8));
    CHECK(fit.theta[1] == doctest::Approx(0.7).epsilon(1e-8));
    CHECK(fit.objective < 1e-20);
    CHECK(fit.converged);
    CHECK(fit.starts == 6);  // the 3 x 2 grid
    CHECK(fit.at_bound.empty());
  }
}

TEST_CASE("minimise: a zero weight leaves a row out, so an outlier there changes nothing") {
  Setup s(2.0, -0.5, Method::levenberg_marquardt);
  s.problem.target[3] *= 10;  // an outlier
  std::vector<double> w = s.ones;
  w[3] = 0;
  const Solution fit = minimise(s.problem, w, Options{});
  CHECK(std::exp(fit.theta[0]) == doctest::Approx(2.0).epsilon(1e-8));
  CHECK(fit.theta[1] == doctest::Approx(-0.5).epsilon(1e-8));
  // With the row in, least squares is pulled away.
  const Solution pulled = minimise(s.problem, s.ones, Options{});
  CHECK(std::abs(pulled.theta[1] + 0.5) > 1e-3);
}

TEST_CASE("Huber downweights an outlier that pulls least squares") {
  Setup s(2.0, -0.5, Method::huber_lbfgs);
  s.problem.target[3] *= 10;
  const Solution huber = minimise(s.problem, s.ones, Options{});
  s.problem.method = Method::levenberg_marquardt;
  const Solution lsq = minimise(s.problem, s.ones, Options{});
  CHECK(std::abs(huber.theta[1] + 0.5) < std::abs(lsq.theta[1] + 0.5));
}

TEST_CASE("a bound the optimum lies beyond is reported in at_bound") {
  Setup s(3.0, 0.7, Method::huber_lbfgs);
  s.problem.parameters[1] = {"b", -3, 0.5, {-1.0, 0.0}};
  const Solution fit = minimise(s.problem, s.ones, Options{});
  CHECK(fit.theta[1] == doctest::Approx(0.5));
  REQUIRE(fit.at_bound.size() == 1);
  CHECK(fit.at_bound.front() == "b");
}

TEST_CASE("refine from a nearby point reaches the same optimum, and objective agrees with the solution") {
  Setup s(3.0, 0.7, Method::huber_lbfgs);
  s.problem.target[5] *= 1.01;  // a small misfit so the optimum is not zero
  const Solution full = minimise(s.problem, s.ones, Options{});
  const Solution again = refine(s.problem, s.ones, {full.theta[0] + 0.05, full.theta[1] - 0.02}, Options{});
  CHECK(again.theta[0] == doctest::Approx(full.theta[0]).epsilon(1e-6));
  CHECK(again.theta[1] == doctest::Approx(full.theta[1]).epsilon(1e-6));
  CHECK(again.starts == 1);
  CHECK(objective(s.problem, s.ones, full.theta, Options{}.huber_delta) ==
        doctest::Approx(full.objective).epsilon(1e-9));
}
