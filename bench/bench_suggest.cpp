// Timings of the planner's hot paths, in-process (no process start-up): the whole suggest
// pipeline, the layer solve alone, and parsing the embedded laws preset. Prints figures;
// asserts nothing (behaviour is the test suite's job). Run via bench/run.sh.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include <fmt/format.h>

#include "moeplan/laws/laws_loader.hpp"
#include "moeplan/planner/pipeline.hpp"
#include "moeplan/base/presets.hpp"

using namespace moeplan;
using Clock = std::chrono::steady_clock;

namespace {

struct Stats {
  double median_us, p10_us, p90_us;
};

Stats time_it(int repeats, const std::function<void()>& work) {
  for (int i = 0; i < 5; ++i) work();  // warm caches and statics
  std::vector<double> us;
  us.reserve(static_cast<std::size_t>(repeats));
  for (int i = 0; i < repeats; ++i) {
    const auto t0 = Clock::now();
    work();
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
  }
  std::sort(us.begin(), us.end());
  auto q = [&](double p) { return us[static_cast<std::size_t>(p * static_cast<double>(us.size() - 1))]; };
  return {q(0.5), q(0.1), q(0.9)};
}

void row(const std::string& what, const Stats& s) {
  fmt::print("{:<44} {:>10.1f} {:>10.1f} {:>10.1f}\n", what, s.median_us, s.p10_us, s.p90_us);
}

volatile double sink = 0;  // keeps results alive so nothing is optimised away

}  // namespace

int main() {
  const HolisticLaws& laws = builtin_holistic_laws();
  fmt::print("{:<44} {:>10} {:>10} {:>10}\n", "what (in-process)", "median us", "p10 us", "p90 us");

  for (double C : {1e18, 1e20, 1e22, 1e24, 1e27}) {
    row(fmt::format("suggest pipeline, C = {:.0e}", C), time_it(200, [&] {
          auto s = suggest(laws, {.goal = {.compute = Flops(C)}});
          sink = s ? s->solution.objective() : -1.0;
        }));
  }

  for (double C : {1e18, 1e22, 1e27}) {
    auto s = suggest(laws, {.goal = {.compute = Flops(C)}});
    if (!s) {
      fmt::print("suggest at {:.0e} infeasible: {}\n", C, s.error().to_string());
      return 1;
    }
    const int d[] = {s->solution.arch.d};
    const ArchitectureFamily family = s->solution.arch.family;
    const LayerTargets targets = s->targets;
    row(fmt::format("layer solve, one d, C = {:.0e} (L = {})", C, s->solution.arch.layers()),
        time_it(500, [&] {
          auto sol = solve_layers(targets, family, d, s->alignment);
          sink = sol ? sol->objective() : -1.0;
        }));
  }

  const std::string text(*find_embedded_preset("laws/holistic.toml"));
  row("parse embedded laws preset (TOML)", time_it(200, [&] {
        auto l = parse_holistic_laws(text, "bench");
        sink = l ? l->alignment : -1;
      }));
  return 0;
}
