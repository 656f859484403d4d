#pragma once
/// Writing a model config out for other tools: the moeplan TOML that `score` reads
/// (schema moeplan-model/1, docs/model-schema.md) and Megatron-LM MoE arguments (the
/// HuggingFace config.json is hf_config.hpp). Pure functions: text in, text out; the CLI
/// decides where it goes (`--emit`, `-o`).
#include <expected>
#include <optional>
#include <string>
#include <string_view>

#include "moeplan/errors.hpp"
#include "moeplan/law_set.hpp"
#include "moeplan/model_config.hpp"

namespace moeplan {

/// The TOML `parse_model_config` reads, with every field of `m` (training, reference and
/// latent attention included when present), so parse(to_model_toml(m)) == m.
std::string to_model_toml(const ModelConfig& m);

/// Training hyper-parameters for Megatron-LM, from paper 002 Table 4.
struct MegatronHyper {
  std::optional<double> learning_rate;       ///< Table 4 "Learning Rate" at C (log-C interp.)
  std::optional<long long> global_batch_size;  ///< Table 4 "Batch Size" at C, sequences of S
  std::optional<long long> train_samples;      ///< D / S, sequences
  std::optional<double> compute;              ///< C = M·D (FLOPs), what the schedule is read at
};

/// Learning rate, batch size and sample count of a config trained with `m.training`, from
/// the laws' paper 002 Table 4 schedule at C = M·D; all empty without [training].
MegatronHyper megatron_hyper(const LawSet& laws, const ModelConfig& m);

/// Megatron-LM `pretrain_gpt.py` arguments: a comment block citing every value, then one
/// `--flag value` per line, each ending in " \" so the lines paste into a shell command.
std::string to_megatron_args(const ModelConfig& m, const MegatronHyper& hyper);

}  // namespace moeplan
