#pragma once
// The serving flags of `suggest` and `score` (--serve-gpus, --serve-gpu, --serve-context, ...)
// and the "serving" section they add to a report (docs/serving.md).
#include <expected>
#include <optional>
#include <string>

#include "cluster_flags.hpp"
#include "command.hpp"
#include "moeplan/serving/serve_args.hpp"
#include "moeplan/serving/serving_fit.hpp"
#include "report.hpp"

namespace CLI {
class App;
}

namespace moeplan::cli {

struct ServingFlags {
  std::optional<int> gpus;
  std::string gpu;
  std::optional<double> context;
  std::string weights = "bf16";
  std::string kv = "bf16";
  bool mtp = false;
  bool fit = false;                 ///< --serve-fit (suggest): cap the plan so that it fits
  std::optional<double> batch;      ///< --serve-batch: sequences the fit must hold
  bool weights_given = false, kv_given = false;
  std::string engine = "vllm";        ///< --serve-engine
  bool engine_given = false;
  std::optional<double> memory_utilization;  ///< --serve-memory-utilization
  std::optional<double> max_batched_tokens;  ///< --serve-max-batched-tokens
  std::optional<double> max_seqs;            ///< --serve-max-seqs
  bool expert_parallel = false;              ///< --serve-expert-parallel
  bool dp_attention = false;                 ///< --serve-dp-attention
  std::optional<double> non_torch_gib;       ///< --serve-non-torch-gib
  std::optional<double> cuda_graph_gib;      ///< --serve-cuda-graph-gib
  bool min_gpus = false;                     ///< --serve-min-gpus (score)
  std::string args_file;                     ///< --serve-args: a vllm serve / sglang command line
  /// A flag of the serving fit was given (each one needs --serve-gpus and --serve-gpu).
  [[nodiscard]] bool given() const {
    return gpus || !gpu.empty() || context || weights_given || kv_given || mtp || fit || batch || engine_given ||
           memory_utilization || max_batched_tokens || max_seqs || expert_parallel || dp_attention || non_torch_gib ||
           cuda_graph_gib || min_gpus || !args_file.empty();
  }
};

/// Adds the flags; `with_fit` adds --serve-fit (suggest's goal).
void add_serving_flags(CLI::App& sub, ServingFlags& f, bool with_fit);

/// The serving options from the flags: nullopt when none was given; on an error it is reported
/// on `io` and the exit status comes back (2 usage: a missing flag, an unknown GPU, a precision
/// the GPU lacks, a --gpu-catalog (cluster.catalog_file) with neither a cluster nor a node; 4 a
/// bad --gpu-catalog file). `default_context` is the model's training S, the
/// context when --serve-context is not given.
/// `file`, when given, receives the --serve-args file's reading (for refusals that name its lines).
std::expected<std::optional<ServingOptions>, int> serving_from_flags(const ServingFlags& f,
                                                                    const ClusterFlags& cluster,
                                                                    const Io& io,
                                                                    std::optional<ServeArgs>* file = nullptr);

/// A --serve-args command line that cannot be planned for `m` (serve_args_refusal): the serving
/// section of `report` with null figures and the reason, the refusal named on stderr (the file,
/// line and the file's flag) and its exit status (3 the engine would not start, 4 moeplan cannot
/// model it); nullopt when the file can be planned for `m`.
std::optional<int> refuse_serve_args(Report& report, const ModelConfig& m, const ServeArgs& file,
                                     const ServingFlags& f, const ServingOptions& o, int seq_len, const Io& io);

/// serving_fit of `m` on the node; with --serve-min-gpus (o.min_gpus) on the fewest GPUs that
/// hold the batch (o.gpus set to them, a first note naming the count), or, when none does, on
/// the largest layout tried.
std::expected<ServingFit, std::string> serving_fit_on_node(const ModelConfig& m, ServingOptions& o);

/// The "serving" section of `m` on the node: the fit, or every number null with the reason
/// (`fit` an error: the model's cache cannot be counted).
void add_serving(Report& report, const ModelConfig& m, const std::expected<ServingFit, std::string>& fit,
                 const ServingOptions& o);

/// Warnings a context earns: longer than the model was trained on (`train_seq_len`, 0: not
/// known) or than its positions (max_position_embeddings).
void warn_context(const ModelConfig& m, const ServingOptions& o, int train_seq_len, const std::string& who,
                  const Io& io);

}  // namespace moeplan::cli
