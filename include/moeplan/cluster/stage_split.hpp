#pragma once
/// How a pipeline's stages share the layers: Megatron-LM's even split, its uneven one
/// (--decoder-first/last-pipeline-num-layers), and the uneven split the layout search picks.
#include <algorithm>
#include <optional>

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
