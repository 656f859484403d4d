#pragma once
/// The report of `moeplan score` for one model: every law's verdict, each number tagged
/// with the FLOP convention it used.
#include "moeplan/laws/law_set.hpp"
#include "moeplan/planner/model_score.hpp"
#include "report.hpp"

namespace moeplan::cli {

Report score_report(const ModelScore& s, const LawSet& laws);

}  // namespace moeplan::cli
