#pragma once
/// Every law moeplan knows, as one value. The built-in set is the five embedded presets
/// in presets/laws/ (one per paper); `--laws FILE` overlays a user file on it, section by
/// section, so a fitted file needs to hold only the laws it re-fitted.
#include <map>
#include <string>

#include "moeplan/laws/activation_rate.hpp"
#include "moeplan/laws/allocation_law.hpp"
#include "moeplan/laws/efficiency_leverage.hpp"
#include "moeplan/laws/holistic_laws.hpp"
#include "moeplan/laws/joint_loss_law.hpp"
#include "moeplan/laws/training_hyperparameters.hpp"

namespace moeplan {

struct LawSet {
  HolisticLaws holistic;                     ///< paper 002 (drives `suggest`)
  HolisticTrainingSchedule holistic_training;  ///< paper 002 Table 4 learning rate, batch
  EfficiencyLeverageLaw leverage;            ///< paper 000 Eq. 4, Table 6
  LeverageTrainingLaws leverage_training;    ///< paper 000 Eq. 5, Table 5
  JointLossLaw joint;                        ///< paper 001 Eq. 11, Table 2
  JointLawAnalysis joint_analysis;           ///< paper 001 Sec. 5 settings
  ActivationRateGuide activation;            ///< paper 003 Sec. 5
  OptimalRatioLaw optimal_ratio;             ///< paper 004 Sec. 3.3
  AllocationLossLaw allocation_loss;         ///< paper 004 Eq. 2, Table 1
  AttentionShareGuide attention_share;       ///< paper 000 App. F.4
  /// TOML section → the file it came from ("<embedded:laws/…>" or a user path).
  std::map<std::string, std::string> provenance;
  [[nodiscard]] std::string source_of(const std::string& section) const;
  /// The distinct sources of the sections paper 002's pipeline reads, in first-use order,
  /// joined by " + " (one name unless a --laws file overlaid only some of them).
  [[nodiscard]] std::string holistic_sources() const;
};

/// The learning rate and global batch the laws give one run of C = M·D FLOPs on D tokens of
/// sequences of S: paper 002 Table 4 inside its rows (log-C interpolated), paper 000 Eq. 5
/// past them (training_hyperparameters.hpp says why). Read at the plan's own C: never by
/// scoring a config (issue 31), so a plan, its cluster fit and its Megatron export agree.
TrainingHyperparameters training_hyperparameters(const LawSet& laws, Flops C, Tokens D, int seq_len);

}  // namespace moeplan
