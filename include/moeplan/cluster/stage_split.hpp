#pragma once
/// How a pipeline's stages share the layers: Megatron-LM's even split, its uneven one
/// (--decoder-first/last-pipeline-num-layers), and the uneven split the layout search picks.
#include <algorithm>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

namespace moeplan {

/// Transformer layers of the first, the middle and the last pipeline stages.
struct StageSplit {
  int first = 0;
  int middle = 0;
  int last = 0;
  [[nodiscard]] int most() const;  ///< layers of the most loaded stage
  [[nodiscard]] bool even() const { return first == middle && middle == last; }
  /// The busiest stage's load in layers when the last also runs `last_extra` layers' worth
  /// (the head and MTP modules: last_stage_extra_layers).
  [[nodiscard]] double load(double last_extra) const {
    return std::max({double(first), double(middle), last + last_extra});
  }
};

/// The split of L layers over pp stages: the layout's first/last_stage_layers when set
/// (the other stages share the rest evenly); else L/pp; else, uneven pipelines allowed,
/// middle stages ceil(L/pp) and the first and last the remainder (first the smaller), each
/// at least one layer. nullopt when no such split exists.
std::optional<StageSplit> stage_split(int layers, int pp, int first_stage_layers,
                                      int last_stage_layers, bool allow_uneven);

/// The split of `layers` over pp > 1 stages that Megatron-LM can run (--decoder-first/last-
/// pipeline-num-layers: the other stages share the rest evenly; the even split among them) with
/// the least loaded busiest stage when the last one also carries `last_extra` layers' worth
/// (last_stage_extra_layers); among equals the one with the fewest layers on the first stage,
/// which holds the most micro-batches in flight. nullopt when none exists.
std::optional<StageSplit> balanced_stage_split(int layers, int pp, double last_extra);

/// Megatron-LM's --account-for-embedding-in-pipeline-split and --account-for-loss-in-pipeline-
/// split: the embedding and the loss each count as one layer, the L + e + l split evenly over
/// the PP × VPP virtual stages, and the first virtual stage builds one decoder layer fewer for
/// the embedding, the last one fewer for the loss (megatron/core/transformer/transformer_layer.py,
/// get_transformer_layer_offset; transformer_block.py, get_num_layers_to_build). The ranks'
/// layers: {VPP k - e, VPP k, VPP k - l}, k = (L + e + l) / (PP · VPP). nullopt when PP · VPP
/// does not divide L + e + l, or a stage would hold no layer.
std::optional<StageSplit> accounted_stage_split(int layers, int pp, int vpp, bool embedding, bool loss);

}  // namespace moeplan

namespace moeplan {

/// Megatron-LM's --pipeline-model-parallel-layout (megatron/core/transformer/
/// pipeline_parallel_layer_layout.py, parse_str_to_list): '|' separates the PP × VPP virtual
/// stages in order (stage i is VPP rank i / PP of PP rank i % PP); E the embedding, t a decoder
/// layer, m an MTP layer, L the loss; "x*n" and "(...)*n" repeat; commas are cosmetic.
struct PipelineLayout {
  int vpp = 1;
  StageSplit split;          ///< decoder layers of PP rank 0, of every middle rank, of the last rank
  int mtp_layers = 0;        ///< m's, all in the last rank's last virtual stage
};

/// The layout `text` on `pp` ranks of a model of `layers` decoder layers and `mtp` MTP modules,
/// checked as validate_layer_layout checks it (E first and once, L last and once, the layer and
/// MTP counts, decoders before MTP, MTP in the last rank's last virtual stage); moeplan's stage
/// model also needs the middle ranks to hold the same number of layers. The error says which
/// rule fails.
std::expected<PipelineLayout, std::string> parse_pipeline_layout(std::string_view text, int pp, int layers, int mtp);

/// What parse_pipeline_layout refuses whatever the model and PP: a character that is no layer,
/// a repeat too large to unroll (nullopt when the string reads).
std::optional<std::string> pipeline_layout_syntax_problem(std::string_view text);

}  // namespace moeplan
