#pragma once
/// How often this process ran the expensive steps of a plan: a debug figure, not output.
///
/// Issue 31 asks for "one Planner per family, one solve per plan or variant, one count per
/// config": these counters are how that is measured (tests/cli/test_work_counts.cpp
/// asserts the numbers for whole commands) and how a newcomer sees it
/// (`MOEPLAN_WORK_COUNTS=1 moeplan ...` prints them on stderr after the command).
/// Relaxed atomics: the figures are totals, read once the work is done.
#include <array>
#include <atomic>
#include <cstddef>
#include <string_view>

namespace moeplan::work {

enum class Step : std::size_t {
  planner_construction,  ///< Planner built (each solves its family's anchor plan once)
  pipeline_solve,        ///< paper 002's steps run for one budget (Planner::solve, anchor included)
  parameter_count,       ///< count_parameters of a whole config
  model_score,           ///< score_model: every law on one config
  cluster_fit,           ///< fit_on_cluster: a layout search for one config
  count_
};

inline constexpr std::array<std::string_view, static_cast<std::size_t>(Step::count_)> k_step_names{
    "planner_constructions", "pipeline_solves", "parameter_counts", "model_scores", "cluster_fits"};

namespace detail {
inline std::array<std::atomic<long long>, static_cast<std::size_t>(Step::count_)>& counters() {
  static std::array<std::atomic<long long>, static_cast<std::size_t>(Step::count_)> c{};
  return c;
}
}  // namespace detail

inline void tally(Step s) { detail::counters()[static_cast<std::size_t>(s)].fetch_add(1, std::memory_order_relaxed); }
[[nodiscard]] inline long long count(Step s) {
  return detail::counters()[static_cast<std::size_t>(s)].load(std::memory_order_relaxed);
}
inline void reset() {
  for (auto& c : detail::counters()) c.store(0, std::memory_order_relaxed);
}

}  // namespace moeplan::work
