#pragma once
// `moeplan plot step`: one config on a cluster, its step by term and its whole training by
// loss (issue 48 item 5); the fit is score's (fit_on_cluster with the same flags).
#include <expected>
#include <optional>
#include <string>

#include "cluster_flags.hpp"
#include "command.hpp"
#include "moeplan/plot/plot_data.hpp"

namespace moeplan::cli {

struct StepPlotFlags {
  std::string model;  ///< a preset name, a moeplan-model TOML or a config.json
  std::optional<double> tokens;
  std::string flops;  ///< plot's --flops text ("" : not given)
  std::optional<int> seq_len;
  std::string laws_file;
};

/// The figure, or the exit status after the reason is said on `io` (2 a bad or missing flag,
/// 3 the config cannot be laid out or timed, 4 a bad file).
std::expected<plot::Figure, int> step_figure(const StepPlotFlags& f, const ClusterFlags& cluster, Io& io);

}  // namespace moeplan::cli
