#pragma once
/// HuggingFace config.json in both directions, by model_type (docs/model-schema.md,
/// "config.json"). Reading: each family names its experts differently, so the reader
/// dispatches on model_type, counts what that transformers class builds (BuiltExtras), and
/// refuses (an InputError naming the key) a model_type it does not know or an expert key
/// the family's rules did not read — never a silent dense model. Writing: the class the
/// config came from when it can express the model, else glm4_moe (GQA) or deepseek_v3 (MLA).
#include <expected>
#include <string>
#include <string_view>

#include "moeplan/base/errors.hpp"
#include "moeplan/model/model_config.hpp"

namespace moeplan {

/// Reads a config.json. Errors name the file, the line/column where known, the key and the
/// reason. The model name is `_name_or_path`, else `name_when_missing`. Keys moeplan does
/// not model and that do not change the count (initializer_range, ...) are ignored; RoPE's base
/// and the norms' epsilon are kept for the exports (ModelConfig::rope_theta, norm_eps).
std::expected<ModelConfig, InputError> parse_hf_config_json(std::string_view json_text,
                                                            std::string source_name,
                                                            std::string name_when_missing);

/// The model_types parse_hf_config_json reads, for messages and documentation.
std::string_view hf_supported_model_types();

/// The transformers class `--emit hf-config` writes `m` as: its own model_type when that
/// class builds exactly the counted model, else glm4_moe (GQA MoE: Glm4MoeForCausalLM
/// builds N exactly, adding routers and norms beside it), deepseek_v3 (MLA), qwen2_moe (one
/// shared expert of its own width), llama4_text (interleaved MoE layers) or llama (dense).
/// An error says why no class fits.
std::expected<std::string, ConstraintViolation> hf_export_model_type(const ModelConfig& m);

/// A config.json of that class with the field names of its published configs. Training
/// tokens and stated sizes have no place there and are left out; max_position_embeddings
/// is the training S when known. `_moeplan_beside_n` states what the class builds beside
/// paper 002's N (routers, norms, ...), which transformers ignores.
/// `model_type`, when given, receives the class chosen (hf_export_model_type's answer).
std::expected<std::string, ConstraintViolation> to_hf_config_json(const ModelConfig& m,
                                                                  std::string* model_type = nullptr);

}  // namespace moeplan
