// Reading HuggingFace config.json by model_type. Each family's rules (src/io/hf/family_*.cpp,
// listed by the build) say which keys hold its experts and layers and which tensors its
// transformers class builds beside paper 002's N; the sources are the transformers
// configuration_*.py / modeling_*.py of each model_type (or the checkpoint's remote code) and
// the published config.json files of tests/data/hf (official.csv cites each).
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "hf/family_rule.hpp"
#include "hf/json_reader.hpp"
#include "hf_quantization.hpp"
#include "moeplan/io/hf_config.hpp"

namespace moeplan {
namespace {

using hf::FamilyContext;
using hf::FamilyRule;
using hf::is_one_of;
using hf::JsonReader;
using hf::line_column;

// Keys that set up experts or per-layer patterns in some family: every rule's layout_keys,
// and those of families moeplan does not read that a config of a read one could carry. One
// the file's own rule did not read means the model is not what moeplan would count: refused,
// naming it.
const std::vector<std::string>& layout_keys_of_all_families() {
  static const std::vector<std::string> keys = [] {
    // num_experts_per_topk: an expert key of no family read here (kept from the first
    // reader, which refused it in every family).
    std::set<std::string> all = {"num_experts_per_topk"};
    for (const FamilyRule* rule : hf::family_rules()) all.insert(rule->layout_keys.begin(), rule->layout_keys.end());
    return std::vector<std::string>(all.begin(), all.end());
  }();
  return keys;
}

}  // namespace

std::string_view hf_supported_model_types() {
  static const std::string text = [] {  // in alphabetical order
    std::set<std::string> names;
    for (const FamilyRule* rule : hf::family_rules()) {
      if (rule->refused) continue;
      for (const std::string& t : rule->model_types) {
        names.insert(t + (rule->text_config.empty() ? "" : " (its " + rule->text_config + ")"));
      }
    }
    return fmt::format("supported: {}", fmt::join(names, ", "));
  }();
  return text;
}

namespace {

// The standard names of the common keys (most transformers classes).
void read_standard_keys(FamilyContext& c, const FamilyRule& rule) {
  JsonReader& r = c.r;
  const nlohmann::json& j = c.j;
  ModelConfig& m = c.m;
  m.hidden_size = r.required(j, "hidden_size", 1);
  m.num_hidden_layers = r.required(j, "num_hidden_layers", 1);
  if (!c.layer_count_ok(m.num_hidden_layers, "num_hidden_layers")) return;
  m.num_attention_heads = r.required(j, "num_attention_heads", 1);
  // Where a class's default differs from what moeplan would assume (N_kv = N_q, head_dim =
  // d/N_q), the key must be written: moeplan does not guess the class defaults.
  // A null is no value either (a review: "num_key_value_heads": null was read as N_q where the
  // class has a default of its own).
  const auto absent = [&](const char* key) { return !j.contains(key) || j[key].is_null(); };
  if (absent("num_key_value_heads") && !rule.kv_heads_default_to_query_heads) {
    r.fail("num_key_value_heads", fmt::format("missing or null: transformers' {} class has a default of its "
                                              "own; write the number of kv heads", c.family));
  }
  m.num_key_value_heads = r.integer(j, "num_key_value_heads", 1).value_or(m.num_attention_heads);
  m.head_dim = r.integer(j, "head_dim", 1).value_or(0);
  if (absent("head_dim") && rule.head_dim_required) {
    r.fail("head_dim", fmt::format("missing or null: transformers' {} class has a default of its own, not "
                                   "hidden_size / num_attention_heads; write it", c.family));
  }
  m.intermediate_size = r.integer(j, "intermediate_size", 1).value_or(0);
  m.vocab_size = r.required(j, "vocab_size", 1);
  // Read when it is a positive integer (the serving section's context check); it counts nothing.
  if (const auto it = j.find("max_position_embeddings"); it != j.end() && it->is_number_integer() && it->get<std::int64_t>() > 0) {
    m.max_position_embeddings = it->get<std::int64_t>();
  }
  m.tie_word_embeddings = r.boolean(j, "tie_word_embeddings")
                              .value_or(r.boolean(c.doc, "tie_word_embeddings").value_or(rule.tied_by_default));
}

// Sliding windows a config implies without layer_types, as the transformers classes apply them:
// GptOssConfig's default layer_types alternates sliding (even layers) and full attention, as
// Gemma2Config's does (transformers modeling_gemma2.py: "sliding_attention" if (i + 1) % 2,
// i.e. layers 0, 2, 4, ...);
// MistralAttention and MixtralAttention window every layer by sliding_window when it is set.
void apply_default_windows(FamilyContext& c) {
  const bool alternating = c.family == "gpt_oss" || c.family == "gemma2";
  if (!alternating && c.family != "mistral" && c.family != "mixtral") return;
  const auto w = c.j.find("sliding_window");
  if (w == c.j.end() || w->is_null()) return;
  const auto window = c.r.integer(c.j, "sliding_window", 1);
  if (!window) return;
  if (c.m.layers.empty()) c.m.layers = c.m.layer_specs();
  for (std::size_t i = 0; i < c.m.layers.size(); ++i) {
    if (!alternating || i % 2 == 0) c.m.layers[i].window = *window;
  }
}

// layer_types that no family rule read: softmax attention in every layer is what moeplan
// counts, full or in a sliding window of `sliding_window` positions (gpt-oss: which changes
// the attention FLOPs, not the weights); any other kind is refused.
void check_layer_types(FamilyContext& c) {
  const auto it = c.j.find("layer_types");
  if (it == c.j.end() || it->is_null()) {
    apply_default_windows(c);
    return;
  }
  if (c.consumed.contains("layer_types")) return;
  if (!it->is_array()) {
    c.r.fail("layer_types", "must be a list of layer kinds");
    return;
  }
  if (static_cast<long long>(it->size()) != c.m.num_hidden_layers) {
    c.r.fail("layer_types", fmt::format("has {} entries, num_hidden_layers is {}", it->size(), c.m.num_hidden_layers));
    return;
  }
  bool sliding = false;
  for (const auto& v : *it) {
    if (!v.is_string() || !is_one_of(v.get<std::string>(), {"full_attention", "sliding_attention", "attention"})) {
      c.r.fail("layer_types", fmt::format("lists {}: model_type '{}' is read as softmax attention in every "
                                          "layer, so moeplan refuses the file rather than miscount it",
                                          v.dump(), c.family));
      return;
    }
    sliding |= v.get<std::string>() == "sliding_attention";
  }
  if (!sliding) return;
  const auto window = c.r.integer(c.j, "sliding_window", 1);
  if (!window) {
    if (!c.r.failed()) c.r.fail("sliding_window", "missing: layer_types lists sliding_attention layers");
    return;
  }
  if (c.m.layers.empty()) c.m.layers = c.m.layer_specs();
  for (std::size_t i = 0; i < it->size(); ++i) {
    if ((*it)[i].get<std::string>() == "sliding_attention") c.m.layers[i].window = *window;
  }
}

void check_family_read_everything(FamilyContext& c, const FamilyRule& rule) {
  JsonReader& r = c.r;
  const nlohmann::json& j = c.j;
  // Every key a rule takes must be declared in its layout_keys (then other families' files
  // carrying it are refused), except the standard keys every family has and the few whose
  // use elsewhere this reader judges itself (latent attention, MTP modules, layer_types): a
  // rule that forgot one is a bug that every read of its fixture throws on.
  for (const std::string& key : c.consumed) {
    if (std::find(rule.layout_keys.begin(), rule.layout_keys.end(), key) == rule.layout_keys.end() &&
        !is_one_of(key, {"hidden_size", "num_hidden_layers", "num_layers", "num_attention_heads", "num_key_value_heads",
                         "head_dim", "intermediate_size", "vocab_size", "tie_word_embeddings", "kv_lora_rank",
                         "num_nextn_predict_layers", "layer_types"})) {
      throw std::logic_error(fmt::format("config.json rule of {} takes key {} without declaring it in its "
                                         "layout_keys (src/io/hf/family_*.cpp)", c.family, key));
    }
  }
  for (const std::string& key : layout_keys_of_all_families()) {
    if (r.failed()) break;
    const auto it = j.find(key);
    if (it == j.end() || it->is_null() || c.consumed.contains(key)) continue;
    if (it->is_number() && it->get<double>() == 0) continue;  // an explicit "no experts"
    if (it->is_array() && it->empty()) continue;
    r.fail(key, fmt::format("is a MoE or layer-pattern setting that model_type '{}' does not use "
                            "here; moeplan would not count it, so it refuses the file", c.family));
  }
  if (!r.failed()) check_layer_types(c);
  // MTP modules in another family: moeplan knows their shape in the DeepSeek layout only, so
  // it refuses the file rather than drop them from the count.
  if (!r.failed() && !c.consumed.contains("num_nextn_predict_layers")) {
    if (const auto n = r.integer(j, "num_nextn_predict_layers", 0); n && *n > 0) {
      r.fail("num_nextn_predict_layers",
             fmt::format("multi-token-prediction modules in model_type '{}': moeplan counts them "
                         "in the DeepSeek layout only (deepseek_v2, deepseek_v3, kimi_k2, glm4_moe, "
                         "glm4_moe_lite, dots1, deepseek_v32, glm_moe_dsa, mimo), so it refuses the file "
                         "rather than leave them out", c.family));
    }
  }
}

// partial_rotary_factor: the fraction of each head RoPE rotates (GLM-4.5, Nemotron-4,
// Qwen3-Next: their attention rotates the first head_dim x factor dimensions and passes the
// rest). Top level, or in rope_parameters as transformers 5 writes it (Qwen3.5); a per-layer-
// type rope_parameters (Gemma 4: {"full_attention": {...}}) holds no one factor and is not
// read. Absent: what the family's read set (NemotronConfig's default), else 1. Counts nothing.
// `key`'s value in `j` when written and not null, else nullptr.
const nlohmann::json* written_value(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && !it->is_null() ? &*it : nullptr;
}
// `key` inside rope_parameters (transformers 5's RoPE settings, one object for the model), or nullptr.
const nlohmann::json* rope_parameter(const nlohmann::json& j, const char* key) {
  const auto rp = j.find("rope_parameters");
  return rp != j.end() && rp->is_object() ? written_value(*rp, key) : nullptr;
}

void read_partial_rotary(FamilyContext& c) {
  const nlohmann::json* at = written_value(c.j, "partial_rotary_factor");
  if (!at) at = rope_parameter(c.j, "partial_rotary_factor");
  if (!at) return;
  if (!at->is_number() || !(at->get<double>() > 0 && at->get<double>() <= 1)) {
    c.r.fail("partial_rotary_factor", fmt::format("must be a fraction in (0, 1] (of each head RoPE rotates), got {}",
                                                  at->dump()));
    return;
  }
  c.m.partial_rotary_factor = at->get<double>();
}

// RoPE's base and the norms' epsilon, where the file states one number for the whole model:
// rope_theta at the top level or in rope_parameters (transformers 5); a per-layer list (Step-3.5,
// which its rule takes) or a per-layer-type rope_parameters (Gemma 3/4) holds no one base and is
// not read. The epsilon under the names the classes use (rms_norm_eps; layer_norm_eps,
// layer_norm_epsilon, layernorm_epsilon, norm_eps, norm_epsilon), the first written. They count nothing.
void read_rope_base_and_eps(FamilyContext& c) {
  const nlohmann::json& j = c.j;
  const auto positive = [&](const char* key, const nlohmann::json& v, double below) -> std::optional<double> {
    if (v.is_number() && v.get<double>() > 0 && v.get<double>() < below) return v.get<double>();
    c.r.fail(key, fmt::format("must be a positive number below {:g}, got {}", below, v.dump()));
    return std::nullopt;
  };
  if (!c.consumed.contains("rope_theta") && c.m.position_embedding == PositionEmbedding::rope) {
    // rope_parameters first: transformers 5 builds the rotary embedding from it (a review found
    // a top-level base read where the two differ).
    const nlohmann::json* at = rope_parameter(j, "rope_theta");
    if (!at) at = written_value(j, "rope_theta");
    if (at && !at->is_array() && !at->is_object()) c.m.rope_theta = positive("rope_theta", *at, 1e12);
    // The sliding layers' own base (Gemma 3's rope_local_base_freq, MiMo-V2-Flash's swa_rope_theta).
    for (const char* key : {"rope_local_base_freq", "swa_rope_theta"}) {
      const nlohmann::json* v = written_value(j, key);
      if (c.r.failed() || !v) continue;
      if (const auto local = positive(key, *v, 1e12); local && local != c.m.rope_theta) c.m.rope_local_theta = local;
    }
  }
  for (const char* key : {"rms_norm_eps", "layer_norm_eps", "layer_norm_epsilon", "layernorm_epsilon", "norm_eps", "norm_epsilon"}) {
    if (c.r.failed()) return;
    if (const nlohmann::json* v = written_value(j, key)) {
      c.m.norm_eps = positive(key, *v, 1);
      return;
    }
  }
}

// A multimodal checkpoint's vision (and audio) towers: its vision_config / audio_config, or a
// multimodal class whose language model is a text_config (Step3VLForConditionalGeneration's
// fixture omits its vision_config). moeplan counts the text model only; vision_params is null
// with this reason and the totals (total_params_in_checkpoint included) are the text model's.
void note_vision_tower(FamilyContext& c, bool multimodal_class) {
  const auto tower = [&](const char* key) {
    const auto it = c.doc.find(key);
    return it != c.doc.end() && it->is_object();
  };
  const bool vision = tower("vision_config");
  const bool audio = tower("audio_config");
  if (!vision && !audio && !multimodal_class) return;
  std::vector<std::string> towers;
  if (vision || multimodal_class) towers.emplace_back(vision ? "the vision tower (vision_config)" : "the vision tower");
  if (audio) towers.emplace_back("the audio tower (audio_config)");
  c.m.extras.vision_not_counted =
      fmt::format("{} and the projectors are not counted: the totals, total_params_in_checkpoint included, "
                  "are the text model's alone", fmt::join(towers, " and "));
}

// Multi-head latent attention keys, in the families whose class builds it.
void read_latent_attention(FamilyContext& c) {
  JsonReader& r = c.r;
  const nlohmann::json& j = c.j;
  if (c.m.compressed_attention) return;  // DeepSeek-V4's q_lora_rank and qk_rope_head_dim: its own
  if (!r.failed() && (!j.contains("kv_lora_rank") || j["kv_lora_rank"].is_null())) {
    for (const char* key : {"q_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"}) {
      // MiMo-V2-Flash's v_head_dim sizes the value heads of its plain attention (family_mimo_v2_flash.cpp).
      const bool own = c.family == "mimo_v2_flash" && std::string_view(key) == "v_head_dim";
      if (j.contains(key) && !j[key].is_null() && !own) {
        r.fail(key, "is a latent-attention (MLA) key but kv_lora_rank is absent; moeplan would "
                    "count plain attention, so it refuses the file");
        break;
      }
    }
  }
  if (c.m.latent_attention || r.failed()) return;  // a family read its own
  if (const auto kv = r.integer(j, "kv_lora_rank", 1); kv && !r.failed()) {
    LatentAttention a;
    a.kv_lora_rank = *kv;
    a.q_lora_rank = r.integer(j, "q_lora_rank", 0).value_or(0);  // null: full rank
    a.qk_nope_head_dim = r.required(j, "qk_nope_head_dim", 0);
    a.qk_rope_head_dim = r.required(j, "qk_rope_head_dim", 0);
    a.v_head_dim = r.required(j, "v_head_dim", 1);
    c.m.latent_attention = a;
    if (!c.consumed.contains("kv_lora_rank")) {
      r.fail("kv_lora_rank", fmt::format("latent attention in model_type '{}', whose class builds "
                                         "no MLA", c.family));
    }
  }
}

// The values of a per-expert correction-bias buffer (FamilyContext::router_bias_buffer): one
// of the router's width (n_routed_experts + zero_experts: LongcatFlashTopkRouter scores the
// zero-width experts too) in each MoE layer the router scores (DeepSeek-V4's hash-routed layers
// look experts up in tid2eid instead) and in each MTP module's MoE layer (DeepSeek-V3's layer 61
// stores model.layers.61.mlp.gate.e_score_correction_bias). Modules no class builds
// (mtp_not_counted) add none: their total is null anyway.
std::int64_t router_bias_buffer_values(const ModelConfig& m) {
  if (!m.is_moe()) return 0;
  std::int64_t layers = m.moe_layers() - m.hash_routed_layers;
  const int modules = mtp_modules(m);
  if (modules > 0 && m.extras.mtp_not_counted.empty()) {
    if (m.extras.mtp_layers.empty()) {
      layers += modules;  // the module's decoder layer is one of the model's MoE layers (count_mtp)
    } else {
      for (const LayerSpec& l : m.extras.mtp_layers) {
        layers += l.ffn == FfnKind::moe || l.ffn == FfnKind::moe_and_dense ? 1 : 0;
      }
    }
  }
  return layers * (std::int64_t{m.n_routed_experts} + m.zero_experts);
}

// The router's training settings, wherever a family's config states them (RouterSpec;
// docs/model-schema.md, "Router"). Keys by the classes that read them: scoring_func,
// topk_method, n_group, topk_group, routed_scaling_factor, norm_topk_prob (DeepSeek-V2/V3 and
// their copies), score_function and moe_router_enable_expert_bias (Ling 2.0), use_routing_bias
// (MiniMax-M2); the classes whose code fixes their router are named below. A value moeplan
// does not know is refused, naming the key and the value: replaced by a default it would
// write another router (--emit megatron) and count another model than the file's.
void read_router_keys(FamilyContext& c) {
  JsonReader& r = c.r;
  const nlohmann::json& j = c.j;
  if (r.failed() || !c.m.is_moe()) return;
  RouterSpec x;
  bool stated = false;
  const auto unknown = [&](const char* key, const std::string& v, const char* known) {
    r.fail(key, fmt::format("\"{}\" is a router moeplan does not know ({}); refusing rather than writing "
                            "another router in its place", v, known));
  };
  for (const char* key : {"scoring_func", "score_function"}) {
    if (const auto v = r.string(j, key)) {
      stated = true;
      if (*v == "sigmoid") {
        x.score = RouterSpec::Score::sigmoid;
      } else if (*v == "sqrtsoftplus" && c.family == "deepseek_v4") {  // DeepseekV4TopKRouter's score_fn
        x.score = RouterSpec::Score::sqrtsoftplus;
      } else if (*v != "softmax") {
        unknown(key, *v, c.family == "deepseek_v4" ? "softmax, sigmoid, sqrtsoftplus" : "softmax, sigmoid");
      }
    }
  }
  // DeepSeek-V3's class (and Glm4Moe's, Dots1's, MiMoV2FlashSparseMoeBlock's: copies of it)
  // scores with a sigmoid and chooses with e_score_correction_bias whatever the file says
  // (transformers DeepseekV3TopkRouter); MiniMax-M2's sigmoid with use_routing_bias. NemotronH's
  // MoE layers (Nemotron 3 Nano/Super) too: NemotronHTopkRouter is DeepseekV3TopkRouter and
  // NemotronHMoE a DeepseekV3MoE (transformers modular_nemotron_h.py, commit ae3cf70e); n_group,
  // topk_group, norm_topk_prob and routed_scaling_factor from the file (read below). Dense
  // NemotronH files build no router.
  if (is_one_of(c.family,
                {"deepseek_v3", "kimi_k2", "glm4_moe", "dots1", "glm4_moe_lite", "glm_moe_dsa", "mimo_v2_flash"}) ||
      (c.family == "nemotron_h" && c.m.is_moe())) {
    x.score = RouterSpec::Score::sigmoid;
    x.expert_bias = true;
    stated = true;
  }
  // ExaoneMoeTopkRouter (K-EXAONE) is DeepseekV3TopkRouter (transformers modular_exaone_moe.py
  // 02e8340b); ExaoneMoeConfig: routed_scaling_factor 2.5, n_group = topk_group = 1.
  if (c.family == "exaone_moe") {
    x.score = RouterSpec::Score::sigmoid;
    x.expert_bias = true;
    x.topk_scaling_factor = 2.5;
    stated = true;
  }
  // Glm4MoeLiteConfig (GLM-4.7-Flash): routed_scaling_factor 1.8, n_group = topk_group = 1.
  if (c.family == "glm4_moe_lite") x.topk_scaling_factor = 1.8;
  // GlmMoeDsaConfig (GLM-5): routed_scaling_factor 2.5, n_group = topk_group = 1; its
  // GlmMoeDsaTopkRouter is DeepSeek-V3's (sigmoid, e_score_correction_bias).
  if (c.family == "glm_moe_dsa") x.topk_scaling_factor = 2.5;
  // A key the file leaves out takes its class's default: DeepseekV3Config (which kimi_k2 files
  // build) has n_group 8, topk_group 4, routed_scaling_factor 2.5, norm_topk_prob true.
  if (is_one_of(c.family, {"deepseek_v3", "kimi_k2"})) {
    x.num_groups = 8;
    x.group_topk = 4;
    x.topk_scaling_factor = 2.5;
  }
  // MiniMaxM3VLTopKRouter: sigmoid scores chosen with e_score_correction_bias (use_routing_bias,
  // default True), the K renormalised, scaled by routed_scaling_factor (default 2.0).
  if (c.family == "minimax_m3") {
    x.score = RouterSpec::Score::sigmoid;
    x.expert_bias = true;
    x.topk_scaling_factor = 2.0;
    stated = true;
  }
  // AfmoeTokenChoiceRouter (Trinity): sigmoid scores, the K chosen with expert_bias and always
  // renormalised, then scaled by route_scale (AfmoeConfig default 1.0; read below as its
  // routed_scaling_factor, which family_afmoe.cpp refuses written); family_afmoe.cpp also refuses
  // a score_func or route_norm on which vLLM's AfmoeMoE would route otherwise.
  if (c.family == "afmoe") {
    x.score = RouterSpec::Score::sigmoid;
    x.expert_bias = true;
    stated = true;
  }
  // Llama 4 takes the top-K logits, then their sigmoid (transformers Llama4TextMoe).
  if (is_one_of(c.family, {"llama4", "llama4_text"})) {
    x.score = RouterSpec::Score::sigmoid;
    x.probs_on_input = true;  // routed_in = hidden_states * router_scores
    stated = true;
  }
  // Gemma 4's Gemma4TextRouter: a softmax over all experts, the top_k_experts renormalised
  // (then scaled per expert: per_expert_scale, a weight counted beside N).
  if (c.family == "gemma4_text") stated = true;
  if (const auto v = r.string(j, "topk_method")) {
    stated = true;
    if (*v == "noaux_tc") {  // DeepSeek-V3 Sec. 2.1.2: auxiliary-loss-free balancing
      x.expert_bias = true;
    } else if (*v != "greedy" && *v != "group_limited_greedy") {
      unknown("topk_method", *v, "greedy, group_limited_greedy, noaux_tc");
    }
  }
  for (const char* key : {"moe_router_enable_expert_bias", "use_routing_bias"}) {
    if (const auto v = r.boolean(j, key)) {
      stated = true;
      x.expert_bias = x.expert_bias || *v;
    }
  }
  if (const auto v = r.boolean(j, "norm_topk_prob")) {
    stated = true;
    x.norm_topk_prob = *v;
  }
  if (const auto g = r.integer(j, "n_group", 1)) {
    stated = true;
    x.num_groups = *g;
  }
  if (const auto g = r.integer(j, "topk_group", 1)) {
    stated = true;
    // topk_group without n_group (Kimi Linear's 1): one group, nothing to limit
    x.group_topk = j.contains("n_group") || x.num_groups > 1 ? *g : 1;
  }
  const char* scale_key = c.family == "afmoe" ? "route_scale" : "routed_scaling_factor";
  if (const auto it = j.find(scale_key); it != j.end() && !it->is_null()) {
    if (!it->is_number() || !(it->get<double>() > 0 && it->get<double>() < 1e6)) {
      r.fail(scale_key, fmt::format("must be a number in (0, 1e6), got {}", it->dump()));
    } else {
      stated = true;
      x.topk_scaling_factor = it->get<double>();
    }
  }
  // No file states the balance loss a pre-training used: router_aux_loss_coef is transformers'
  // fine-tuning coefficient (load_balancing_loss_func sums over the K slots and pools the
  // layers; Megatron-LM divides by K and adds it per layer), and DeepSeek-V3's aux_loss_alpha
  // 0.001 is not its report's sequence-wise 0.0001 (Sec. 4.2). The export says what it writes.
  x.balance_loss_stated = false;
  if (r.failed() || !stated) return;
  c.m.router = x;  // ModelConfig::problem() checks it (groups, sigmoid with a bias)
}

// The keys the serving engines derive their default context from (vLLM v0.10's possible_keys
// of _get_and_verify_max_len, SGLang v0.4's CONTEXT_LENGTH_KEYS), and rope_scaling as they read
// it, from the text model's object; every family. Read as found, they count nothing.
void read_context_keys(const nlohmann::json& j, ModelConfig& m) {
  m.context_length_keys.emplace();
  for (const char* key : {"max_position_embeddings", "n_positions", "max_seq_len", "seq_length", "model_max_length",
                          "max_sequence_length", "max_seq_length", "seq_len"}) {
    if (const auto it = j.find(key); it != j.end() && it->is_number_integer() && it->get<std::int64_t>() > 0) {
      m.context_length_keys->emplace_back(key, it->get<std::int64_t>());
    }
  }
  if (const auto it = j.find("rope_scaling"); it != j.end() && it->is_object()) {
    ModelConfig::RopeScaling rs;
    for (const char* key : {"rope_type", "type"}) {
      if (const auto t = it->find(key); rs.type.empty() && t != it->end() && t->is_string()) rs.type = t->get<std::string>();
    }
    if (const auto f = it->find("factor"); f != it->end() && f->is_number() && f->get<double>() > 0) {
      rs.factor = f->get<double>();
    }
    if (const auto o = it->find("original_max_position_embeddings"); o != it->end() && o->is_number_integer()) {
      rs.original_max_position_embeddings = o->get<std::int64_t>();
    }
    m.rope_scaling = rs;
  }
}

}  // namespace

std::expected<ModelConfig, InputError> parse_hf_config_json(std::string_view text,
                                                            std::string source,
                                                            std::string name_when_missing) {
  nlohmann::json doc;
  // NaN, Infinity and -Infinity as Python's json reads them (hf/json_reader.hpp); positions
  // are the file's: keys are looked up in `text`, a parse error's byte is mapped back.
  const hf::NonFiniteRewrite rewritten = hf::rewrite_non_finite(text);
  try {
    doc = nlohmann::json::parse(rewritten.text.begin(), rewritten.text.end());
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is 1-based: the byte where parsing stopped.
    const auto [line, column] = line_column(text, rewritten.original_offset(e.byte > 0 ? e.byte - 1 : 0));
    std::string why = e.what();
    if (const auto colon = why.rfind(": "); colon != std::string::npos) why = why.substr(colon + 2);
    return std::unexpected(InputError{source, line, column, "", "invalid JSON: " + hf::restore_non_finite(why)});
  } catch (const nlohmann::json::exception& e) {
    // Other parser failures carry no position: a number too large for a double
    // ("1e99999") is out_of_range.406, not a parse_error (found by fuzz_hf_config).
    std::string why = e.what();
    if (const auto bracket = why.find("] "); bracket != std::string::npos) why = why.substr(bracket + 2);
    return std::unexpected(InputError{source, 0, 0, "", "invalid JSON: " + why});
  }
  if (!doc.is_object()) {
    return std::unexpected(InputError{source, 1, 1, "", "expected a JSON object (config.json)"});
  }
  JsonReader r(text, source);
  ModelConfig m;
  m.name = r.string(doc, "_name_or_path").value_or(std::move(name_when_missing));
  m.source = source;
  std::string family = r.string(doc, "model_type").value_or("");
  // Multimodal checkpoints: the language model is their text_config.
  const nlohmann::json* body = &doc;
  std::string what = family;
  const FamilyRule* rule = r.failed() ? nullptr : hf::rule_of(family);
  const std::string rule_text_config = rule ? rule->text_config : std::string();
  if (rule && !rule->text_config.empty()) {
    const auto it = doc.find(rule->text_config);
    if (it == doc.end() || !it->is_object()) {
      r.fail(rule->text_config, fmt::format("model_type {} needs the text model's {} object",
                                            family, rule->text_config));
    } else {
      body = &*it;
      r.enter(rule->text_config);
      const std::string outer = family;
      family = rule->text_model_type_forced ? rule->text_model_type
                                            : r.string(*body, "model_type").value_or(rule->text_model_type);
      // The multimodal class builds its own text model whatever the inner model_type says
      // (Glm4vMoeConfig, Qwen3VLMoeConfig, Llama4Config): another family's keys there would
      // be counted by the wrong rule.
      const auto& also = rule->text_model_types_also;
      if (!r.failed() && family != rule->text_model_type &&
          std::find(also.begin(), also.end(), family) == also.end()) {
        r.fail("model_type", fmt::format("is '{}': model_type {} builds its text model as {}, so its {} must be "
                                         "that or name no model_type",
                                         family, outer, rule->text_model_type, rule->text_config));
      }
      what = fmt::format("{}, {} {} (the vision tower is not counted)", outer, rule->text_config, family);
      rule = hf::rule_of(family);
      if (rule && !rule->text_config.empty()) rule = nullptr;
    }
  }
  // The family first: an unknown one is refused before any of its keys is judged.
  if (!r.failed() && family.empty()) {
    r.fail("model_type", fmt::format("missing: moeplan reads config.json by model_type ({})",
                                     hf_supported_model_types()));
  } else if (!r.failed() && (!rule || !rule->read)) {
    r.fail("model_type", fmt::format("'{}' is not a family moeplan can count ({}); refusing "
                                     "rather than reading it as a dense model",
                                     family, hf_supported_model_types()));
  }
  if (r.failed()) return std::unexpected(r.error());
  const nlohmann::json& j = *body;
  m.description = "HuggingFace config.json, model_type " + what;
  m.hf_model_type = family;
  FamilyContext c{doc, j, r, m, family, {}};
  if (rule->standard_keys) read_standard_keys(c, *rule);
  if (!r.failed()) rule->read(c);
  if (!r.failed()) check_family_read_everything(c, *rule);
  if (!r.failed()) read_partial_rotary(c);
  if (!r.failed()) read_rope_base_and_eps(c);
  if (!r.failed()) note_vision_tower(c, !rule_text_config.empty());
  read_latent_attention(c);
  read_router_keys(c);
  if (!r.failed() && c.router_bias_buffer) m.extras.checkpoint_buffer_values += router_bias_buffer_values(m);
  if (!r.failed()) hf::read_quantization_config(doc, j, m);  // serving only: the weights as stored
  if (!r.failed()) read_context_keys(j, m);  // serving only: the engines' default context
  if (!r.failed()) {
    if (const auto p = m.problem()) {
      // problem() names TOML keys ("model.x"); the JSON key is the part after the dot, or for
      // the [router] table's keys the config.json key read_router_keys took it from.
      static const std::map<std::string, std::string> k_router_json{
          {"router.num_groups", "n_group"}, {"router.group_topk", "topk_group"},
          {"router.expert_bias", "topk_method"}, {"router.topk_scaling_factor", "routed_scaling_factor"}};
      // A family that reads a model key from a key of another name says so (problem_keys).
      const auto dot = p->key.rfind('.');
      const std::string leaf = dot == std::string::npos ? p->key : p->key.substr(dot + 1);
      const auto json_key = k_router_json.find(p->key);
      const auto renamed = std::find_if(rule->problem_keys.begin(), rule->problem_keys.end(),
                                        [&](const auto& k) { return k.first == leaf; });
      r.fail(json_key != k_router_json.end()      ? json_key->second
             : renamed != rule->problem_keys.end() ? renamed->second
                                                   : leaf,
             p->reason);
    }
  }
  if (r.failed()) return std::unexpected(r.error());
  return m;
}

}  // namespace moeplan
