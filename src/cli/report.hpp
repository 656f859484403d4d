#pragma once
/// A command's result as ordered sections of typed fields: the one data model every
/// output format serialises (hyperfine's Exporter pattern). Keys are stable and documented
/// in man/moeplan-suggest.1; symbols and units are for people.
#include <cstdint>
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

struct Field {
  std::string key;     ///< stable machine key, snake_case
  std::string symbol;  ///< paper notation for the table, e.g. "N_a"
  std::string unit;    ///< "FLOPs", "FLOPs/token", "params", "tokens", "" for ratios
  Value value;
  std::string description;
  /// The table prints the number in full (the shortest text that reads back to it) rather
  /// than to 4 digits: a value the user gave and may pass back, such as the budget C.
  bool exact = false;
};

struct Section {
  std::string key;    ///< stable machine key, e.g. "config"
  std::string title;  ///< heading in the table view
  std::vector<Field> fields;
  /// One element of the array named `key` (the candidates of suggest): every section of
  /// the report with this key, in order, is a JSON array of objects, a TOML array of
  /// tables [[key]], CSV columns key.N.field (N from 1), a titled block each in the table.
  bool repeated = false;
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

/// A budget sweep as one row per budget (C, size, shape, ratios, loss), for people; a
/// budget without a plan (budget.feasible false) gets its budget.reason instead.
std::string sweep_table(const std::vector<Report>& plans);

/// The one-screen table of `suggest` (its default for people): the key numbers of a full
/// suggest report — size and data first, then the shape, the predicted loss and the speed —
/// copied field for field, so keys and values are those of `--full` and the data formats.
Report compact_suggest_report(const Report& full);

}  // namespace moeplan::cli
