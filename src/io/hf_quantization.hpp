#pragma once
// config.json's quantization_config: how the checkpoint stores its weights (CheckpointStorage),
// for the serving section. One file, read beside the family rules (src/io/hf_config_reader.cpp).
#include <nlohmann/json.hpp>

#include "moeplan/model/model_config.hpp"

namespace moeplan::hf {

/// The checkpoint's storage from `doc`'s quantization_config (else `body`'s: a multimodal
/// file's text_config), into m.checkpoint_storage; nothing when neither has one. A method
/// moeplan does not read, or a block it cannot read, is kept with known = false and the reason
/// (the serving section refuses it by name; the counts do not depend on it).
void read_quantization_config(const nlohmann::json& doc, const nlohmann::json& body, ModelConfig& m);

}  // namespace moeplan::hf
