#pragma once
/// Writing a model config out for other tools: the moeplan TOML that `score` reads
/// (schema moeplan-model/1, docs/model-schema.md), a HuggingFace DeepSeek-V3-style
/// config.json, and Megatron-LM MoE arguments. Pure functions: text in, text out; the CLI
/// decides where it goes (`--emit`, `-o`). Reading the JSON back is `parse_hf_config_json`.
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

/// A HuggingFace config.json for DeepseekV3ForCausalLM (model_type "deepseek_v3") with the
/// field names of DeepSeek-V3's own config.json. Training tokens and stated sizes have no
/// place there and are left out; max_position_embeddings is the training S when known.
std::string to_hf_config_json(const ModelConfig& m);

/// Reads such a config.json (DeepSeek-V3 field names; keys moeplan does not model, such as
/// rope_theta, are ignored). Errors name the file, the line/column where known, the key
/// and the reason. The model name is `_name_or_path`, else `name_when_missing`.
std::expected<ModelConfig, InputError> parse_hf_config_json(std::string_view json_text,
                                                            std::string source_name,
                                                            std::string name_when_missing);

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
