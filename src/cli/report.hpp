#pragma once
/// A command's result as ordered sections of typed fields: the one data model every
/// output format serialises (hyperfine's Exporter pattern). Keys are stable and documented
/// in man/moeplan-suggest.1; symbols and units are for people.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "moeplan/planner/candidates.hpp"
#include "moeplan/laws/law_set.hpp"
#include "moeplan/planner/pipeline.hpp"
#include "moeplan/planner/plan_price.hpp"

namespace moeplan::cli {

/// A number the command could not give: JSON writes null and TOML leaves the key out, each
/// with a string field KEY_reason next to it; CSV writes an empty cell (no reason column, so
/// the header is the same on every run). The table shows "n/a (reason)". Never a string where a number goes, never NaN/inf (a non-finite double
/// is turned into one of these by the emitters).
struct Missing {
  std::string reason;
};

/// A list of free-text items (warnings, notes): a JSON array of strings, a TOML array, one
/// CSV cell with the items joined by " | ", one table row per item.
using TextList = std::vector<std::string>;

using Value = std::variant<bool, std::int64_t, double, std::string, Missing, TextList>;

/// An int as a report value (reports hold 64-bit integers).
inline std::int64_t i64(int v) { return v; }

/// Where a field stands in suggest's one-screen table (compact_suggest_report), said where
/// the field is made: the one-screen table is the fields so marked, in this order, under the
/// heading of their part (a part whose fields the command did not make is not shown). No view
/// looks a field up by its key.
enum class Summary : std::uint8_t {
  none,    ///< --full and the data formats only
  detail,  ///< left out of a section the one-screen table shows whole (Section::summary)
  // "Plan": size and data first
  plan_total_params, plan_active_params, plan_tokens, plan_flops_per_token, plan_loss,
  plan_ranking_figure, plan_decided_by, plan_efficiency_leverage,
  // "Price": a goal other than a plain --flops
  price_goal_kind, price_tokens_per_active_param, price_optimal_tokens_per_active_param, price_loss,
  price_optimal_loss, price_equal_loss_compute, price_overhead, price_inference_flops_per_token,
  price_optimal_inference_flops_per_token, price_weight_bytes, price_optimal_weight_bytes,
  price_lifetime_saving,
  // "Shape"
  shape_hidden_size, shape_layers, shape_dense_layers, shape_moe_layers, shape_expert_ffn_size,
  shape_dense_ffn_size, shape_experts, shape_top_k, shape_shared_experts, shape_query_heads,
  shape_kv_heads, shape_head_dim, shape_seq_len,
  // "Speed": --align auto, then the benchmark's GPU and CPU runs
  speed_alignment_chosen, speed_alignment_decision, speed_alignment_speedup, speed_alignment_loss_change,
  speed_gpu_rate, speed_gpu_fraction_of_peak, speed_gpu_tokens_per_second,
  speed_cpu_rate, speed_cpu_fraction_of_peak, speed_cpu_tokens_per_second,
  count
};

struct Field {
  std::string key;     ///< stable machine key, snake_case
  std::string symbol;  ///< paper notation for the table, e.g. "N_a"
  std::string unit;    ///< "FLOPs", "FLOPs/token", "params", "tokens", "" for ratios
  Value value;
  std::string description;
  /// The table prints the number in full (the shortest text that reads back to it) rather
  /// than to 4 digits: a value the user gave and may pass back, such as the budget C.
  bool exact = false;
  Summary summary = Summary::none;  ///< its place in suggest's one-screen table
};

struct Section {
  std::string key;    ///< stable machine key, e.g. "config"
  std::string title;  ///< heading in the table view
  std::vector<Field> fields;
  /// One element of the array named `key` (the candidates of suggest): every section of
  /// the report with this key, in order, is a JSON array of objects, a TOML array of
  /// tables [[key]], CSV columns key.N.field (N from 1), a titled block each in the table.
  bool repeated = false;
  /// suggest's one-screen table shows this section as it is, after its own parts (the
  /// cluster's sections), less the fields marked Summary::detail.
  bool summary = false;
};

struct Report {
  std::vector<Section> sections;
};

Report suggest_report(const Suggestion& s, const LawSet& laws);

/// A plan of any goal but a plain --flops: a "goal" section (how C, M, D followed from
/// it) and a "price" section (this plan beside paper 002's compute-optimal plan for the
/// same C: tokens per active parameter, loss, C*, overhead, inference FLOPs, weights),
/// inserted after the budget.
void add_goal_and_price(Report& report, const Suggestion& s, const PlanPrice& price);

/// Whose price a section states: a solved plan (suggest: its loss read on paper 002's
/// target curve) or a scored config (score: its own N and N_a in the joint law).
enum class PriceOf { plan, config };

/// The "price" section: this plan or config beside paper 002's compute-optimal plan for the
/// same C (tokens per active parameter, loss, C*, overhead, inference FLOPs, weights).
/// Suggest and score write the same keys.
Section price_section(const PlanPrice& price, PriceOf of = PriceOf::plan);

/// The same section with every number null for `reason` (a scored config without a price:
/// no budget, or outside paper 002's family), so every config has the same keys; `note`, the
/// whole story, goes in overhead_note (the reason stays short: a side-by-side table shows it
/// in its cell).
Section missing_price_section(const std::string& reason, const std::string& note);

/// Appends the ranking of `suggest`: a "ranking" section (rule, winner, runner-up, near
/// tie, what decided) and a repeated "candidates" section for each of the best `top`.
void add_ranking(Report& report, const Ranking& ranking, std::size_t top);

/// One row of a budget sweep's table: the winner of a budget, or why it has none.
struct SweepRow {
  Flops C;
  std::optional<RankedCandidate> winner;
  std::string reason;  ///< why there is no plan (winner empty)
};

/// A budget sweep as one row per budget (C, size, shape, ratios, loss), for people; a
/// budget without a plan gets its reason instead.
std::string sweep_table(const std::vector<SweepRow>& rows);

/// The one-screen table of `suggest` (its default for people) for the plan `s`: the fields of
/// its full report marked with a Summary place — size and data first, then the price, the
/// shape and the speed — then the sections marked `summary` (the cluster's); keys and values
/// are those of `--full` and the data formats.
Report compact_suggest_report(const Report& full, const Suggestion& s);


}  // namespace moeplan::cli
