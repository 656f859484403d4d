#pragma once
/// A step profile (docs/calibration.md): what `moeplan fit steps.csv --out FILE` writes and
/// `--step-profile FILE` reads: the fitted parameters, what they were fitted on and the band
/// (the leave-one-out spread) the time figures carry with it. TOML, schema
/// "moeplan-step-profile/1"; read strictly (an unknown key, a value outside a parameter's
/// bounds: file:line, key, reason).
#include <expected>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "moeplan/base/errors.hpp"
#include "moeplan/calibration/step_fit.hpp"
#include "moeplan/cluster/step_time.hpp"
#include "moeplan/cluster/validation_spread.hpp"

namespace moeplan::calibration {

inline constexpr std::string_view k_step_profile_schema = "moeplan-step-profile/1";
/// The step model a profile is fitted against, where it changed what a parameter stands for
/// ([fitted_on] step_model): since 2026-11-29 the attention core on Hopper runs at its measured
/// rates, no longer at --gemm-efficiency, so an older profile's GEMM efficiency had absorbed
/// the attention time.
inline constexpr std::string_view k_step_model_revision = "2026-11-29 (attention core at measured rates)";

struct StepProfile {
  std::string source;  ///< the file it was read from
  std::vector<std::pair<std::string, double>> values;  ///< fitted parameters, by name
  ValidationSpread band;  ///< runs, speed_ratio_min/max, source
  // What it was fitted on.
  std::vector<std::string> gpus, precisions, dispatchers, models;
  int gpu_count_min = 0, gpu_count_max = 0;  ///< 0: not recorded
  std::vector<std::string> warnings;  ///< the fit's (not separable, at a bound, one run)
  std::string step_model;  ///< [fitted_on] step_model: the revision it was fitted against ("" before it was recorded)
};

/// Where the fit came from, for the profile's header.
struct ProfileProvenance {
  std::string csv;      ///< the runs file
  std::string md5;      ///< of its bytes
  std::string created;  ///< UTC time
  std::string version;  ///< moeplan's
};

/// The profile of a fit, as TOML.
std::string step_profile_toml(const StepFit& fit, const ProfileProvenance& provenance);

/// Reads a profile; InputError (exit 4) naming file:line and key on any problem.
std::expected<StepProfile, InputError> read_step_profile(std::string_view text, const std::string& source);

/// The profile laid over `options`: every value whose flag was not given (`flag_given(flag)`);
/// the source of every fittable parameter (flag, profile or default), and warnings for a run
/// on a GPU kind, precision, dispatcher or model the profile was not fitted on, on more than
/// twice its largest or under half its smallest cluster, and for a flag replacing a fitted value.
struct AppliedProfile {
  std::vector<StepParameterSource> sources;
  std::vector<std::string> warnings;
};
/// The run a profile is used on ("" / 0: not compared).
struct ProfileUse {
  std::string gpu, precision, dispatcher, model;
  int gpus = 0;
};
AppliedProfile apply_step_profile(const StepProfile& profile, StepTimeOptions& options,
                                  const std::function<bool(std::string_view flag)>& flag_given, const ProfileUse& use);

}  // namespace moeplan::calibration
