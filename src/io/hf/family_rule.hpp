#pragma once
// Private to the config.json reader and writer: one FamilyRule per transformers model_type
// (or a few that share rules), each in its own file src/io/hf/family_*.cpp; the build lists
// them (cmake/HfFamilyList.cmake), so a new family is one new file plus its fixture and
// tests. A rule reads its family's keys into the ModelConfig and marks each key it read
// (`take`): an expert or layer-layout key that some rule declares (`layout_keys`) and this
// file's rule did not take refuses the file (hf_config_reader.cpp). A rule that can also
// write its class (`classes`, `write`) is tried by `--emit hf-config` (hf_config_writer.cpp).
#include <initializer_list>
#include <set>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "json_reader.hpp"
#include "moeplan/model/model_config.hpp"

namespace moeplan::hf {

bool is_one_of(std::string_view x, std::initializer_list<std::string_view> set);

/// The most layers a config.json may have: rules list every layer of a per-layer model (a
/// tiny file with num_hidden_layers 1e9 would otherwise take seconds and gigabytes); the
/// deepest published model has under 200.
inline constexpr int k_max_config_layers = 100'000;

/// What a rule reads from, and into.
struct FamilyContext {
  const nlohmann::json& doc;  ///< the whole file
  const nlohmann::json& j;    ///< the language model's object (doc, or its text_config)
  JsonReader& r;
  ModelConfig& m;
  std::string family;         ///< the model_type being read (text_config's for multimodal files)
  std::set<std::string> consumed;
  /// The family's router keeps a per-expert correction bias as a registered buffer that the
  /// checkpoint stores (DeepseekV3TopkRouter's e_score_correction_bias and its copies): the
  /// reader adds its values to extras.checkpoint_buffer_values once the layers are known
  /// (router_bias_buffer_values, hf_config_reader.cpp). A bias built as an nn.Parameter is
  /// extras.router_bias instead (counted as built).
  bool router_bias_buffer = false;

  /// Marks `key` as read by the family's rules (an expert key not taken refuses the file).
  const char* take(const char* key) {
    consumed.insert(key);
    return key;
  }
  /// attention_bias: `qkv_only` classes put it on q, k, v (Glm4Moe); the Llama/Qwen3
  /// lineage puts it on the output projection too.
  void attention_bias(bool default_value, bool qkv_only);
  /// A key whose class default (which moeplan does not guess) changes the count: read and
  /// taken, or "missing: <config_class> has a default of its own; write it".
  int written(const char* key, int min, std::string_view config_class);
  /// `layers` (read from `key`) within k_max_config_layers, else a failure naming the key.
  bool layer_count_ok(int layers, const char* key);
  /// Classes whose attention sized heads as hidden_size / num_attention_heads before
  /// transformers read a head_dim key (Jamba, GraniteMoeHybrid): a different head_dim is
  /// refused (which the checkpoint has is unknown), an equal one dropped. False on refusal.
  bool head_dim_is_derived(std::string_view attention_class);
};
/// The leading dense layers a GLM-style `mlp_layer_types` array lists ("dense" then "sparse",
/// one a layer, `layers` of them; `layer_class` builds them); 0 with the failure recorded on
/// c.r when it lists anything else or a dense layer after a sparse one.
int leading_dense_of_layer_types(FamilyContext& c, const nlohmann::json& types, int layers,
                                 std::string_view layer_class);
/// The leading dense layers of a written `mlp_layer_types` (leading_dense_of_layer_types), held
/// to a written first_k_dense_replace, which the class does not read (a count that differs is
/// refused naming it); nullopt when no list is written. Takes both keys.
std::optional<int> dense_of_written_mlp_layer_types(FamilyContext& c, std::string_view layer_class);
/// Which layers attend in a sliding window by a written `layer_types` ("sliding_attention" or
/// "full_attention", num_hidden_layers of them; `layer_class` builds them): nullopt when the file
/// writes none (the class derives them), empty with the failure recorded on c.r. Takes the key.
std::optional<std::vector<bool>> sliding_of_layer_types(FamilyContext& c, std::string_view layer_class);
/// The routed and shared experts under the names num_experts, num_experts_per_tok,
/// moe_intermediate_size and num_shared_experts (one shared MLP of that width x the count), each
/// required: `config_class` has defaults of its own that moeplan does not guess (AFMoE, EXAONE-MoE).
void read_written_experts(FamilyContext& c, std::string_view config_class);
/// The classes' own list when no layer_types is written: layer i slides unless (i + 1) is a
/// multiple of the integer `key` (at least 1; `every` when absent), as Gemma 3's, AFMoE's and
/// EXAONE-MoE's configs derive it. Empty with the failure recorded.
std::vector<bool> sliding_unless_every(FamilyContext& c, const char* key, int every);
/// Classes that rotate the sliding-window layers only (AFMoE, EXAONE-MoE: full-attention layers
/// take no position signal): windows `window` on the sliding layers, the others listed in
/// ModelConfig::no_rope_layers.
void window_sliding_nope_full(ModelConfig& m, const std::vector<bool>& sliding, int window);


/// One family's rules. With `standard_keys`, hidden_size, num_hidden_layers,
/// num_attention_heads, num_key_value_heads, head_dim, intermediate_size, vocab_size and
/// tie_word_embeddings are read under those names before `read` runs; without, `read` reads
/// them under the family's own names (DBRX's d_model, ...).
struct FamilyRule {
  std::vector<std::string> model_types;
  void (*read)(FamilyContext&) = nullptr;
  bool standard_keys = true;
  /// The class's default for an absent num_key_value_heads is N_q (moeplan's own): the key
  /// may be absent. Otherwise it must be written (moeplan does not guess class defaults).
  bool kv_heads_default_to_query_heads = false;
  /// The class's head_dim default is not hidden_size / num_attention_heads: must be written.
  bool head_dim_required = false;
  bool tied_by_default = false;
  /// Multimodal checkpoints: the language model is this object (llama4: "text_config"); the
  /// vision tower is not counted and the description says so.
  std::string text_config;
  /// The model_type the text model has when text_config does not name one.
  std::string text_model_type;
  /// Other model_types the text_config may name, read by their own rules (kimi_k25: its remote
  /// code builds text_config as DeepseekV3Config, which files write as kimi_k2 or deepseek_v3).
  std::vector<std::string> text_model_types_also;
  /// The multimodal class rebuilds its text_config as text_model_type whatever model_type the
  /// text_config names (MiniMaxM3VLConfig pops it: checkpoints write minimax_m3 or minimax_m2
  /// there): read by text_model_type's rule, the inner model_type ignored.
  bool text_model_type_forced = false;
  /// A family read only to refuse it (its `read` names the key and why): not listed among
  /// the supported model_types.
  bool refused = false;
  /// The expert and layer-layout keys `read` takes, under every name the family's classes
  /// use. Their union over all rules (and hf_config_reader.cpp's few keys of families not
  /// read here) is what a file of another family may not write.
  std::vector<std::string> layout_keys;
  /// Model keys this family reads from a config.json key of another name, for ModelConfig::
  /// problem()'s errors (Step-3.5: num_key_value_heads from num_attention_groups).
  std::vector<std::pair<std::string, std::string>> problem_keys;

  // Writing config.json (hf_config_writer.cpp), for the families that write one:
  /// The transformers class written for each model_type this rule writes.
  std::vector<std::pair<std::string, std::string>> classes;
  /// Writes the family's own keys for the experts, the layer layout, the attention biases
  /// and qk-norm (what `read` reads back); the writer adds the shared keys.
  void (*write)(const ModelConfig& m, std::string_view model_type, nlohmann::ordered_json& j) = nullptr;
  /// The class sizes its dense layers from intermediate_size and types it as an int: written
  /// even with no dense layer (absent, the class takes a default of its own; null is no int).
  bool intermediate_size_always = false;
  /// Model_types this rule reads whose model another family's class builds (kimi_k2: its
  /// checkpoints load remote code, a DeepSeek-V3 copy), tried when the model's own is not.
  std::vector<std::pair<std::string, std::string>> built_by;
};

/// The transformers class `rule` writes for `model_type`, or nullptr.
const char* class_written(const FamilyRule& rule, std::string_view model_type);

/// Every rule (src/io/hf/family_*.cpp, in file-name order); one rule per model_type.
const std::vector<const FamilyRule*>& family_rules();
const FamilyRule* rule_of(std::string_view model_type);

}  // namespace moeplan::hf
