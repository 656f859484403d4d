// step3p5 (Step-3.5-Flash) and step3p7 (Step-3.7-Flash, whose text_config is step3p5): counted as
// vLLM builds the language model (vllm/model_executor/models/step3p5.py, Step3p5Attention,
// FusedMoEBlock, Step3p5MLP, Step3p5DecoderLayer, Step3p5Model, Step3p5ForCausalLM; the MTP
// modules by step3p5_mtp.py, Step3p5AMultiTokenPredictorLayer; vllm-project/vllm commits
// 01b50b9e8fbe085cdba0ace33dfb6e862ab9b627 and 12c9ac281e8d54a7fecae784d234fd017bf4fecd).
// transformers has no step3p5 class; the checkpoint's remote modeling_step3p5.py loads the same
// tensor names (Megatron-Bridge's step3p5 mapping list names them: q/k/v/o_proj, q_norm,
// k_norm, g_proj, moe.gate, moe.router_bias, moe.{gate,up,down}_proj, share_expert.*).
// - Attention, layer i: layer_types[i] (else sliding when i is even), a sliding_attention
//   layer windowed by sliding_window; the layers of attention_other_setting.attention_type take
//   its num_attention_heads, num_attention_groups (kv heads) and head_dim (Step-3.5-Flash's
//   sliding layers: 96 query heads where the full ones have 64). q, k, v (biases with
//   attention_bias), o_proj; q_norm and k_norm of head_dim (zero-centred GemmaRMSNorm: one
//   weight each); with use_head_wise_attn_gate g_proj d -> N_q (no bias).
// - FFN: layers in moe_layers_enum (else 1..L-1) are FusedMoEBlock: router d -> E (fp32,
//   no bias), router_bias (E, an nn.Parameter stored as moe.router_bias), moe_num_experts
//   experts of moe_intermediate_size (gate, up, down), one shared Step3p5MLP of
//   share_expert_dim; the others Step3p5MLP of intermediate_size. Two norms a layer, a final one.
// - lm_head: its own V x d (ParallelLMHead, never tied in Step3p5ForCausalLM).
// - MTP: num_nextn_predict_layers modules, layers L + i of the pattern (their attention by
//   layer_types[L + i], their FFN a Step3p5MLP since moe_layers_enum lists main layers), each
//   with enorm, hnorm, eh_proj (2d -> d) and shared_head (norm d, head V x d); the embedding is
//   the model's. Counted beside the model (count_mtp), the heads as stored copies.
// The vision tower of step3p7 (PerceptionEncoder) is not counted. swiglu_limits clamp
// activations, rope_theta and partial_rotary_factors are per layer: none changes a count.
// tests/data/hf/recount/step3p5_count.py recounts the fixtures independently.
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "family_rule.hpp"

namespace moeplan::hf {
namespace step3p5_parts {  // named: a unity build compiles the family files together

bool set(const FamilyContext& c, const char* key) { return c.j.contains(key) && !c.j[key].is_null(); }

// moe_layers_enum as vLLM's Step3p5DecoderLayer reads it ([int(i) for i in s.strip().split(",")];
// absent: range(1, num_hidden_layers)); `moe[i]` for i < upto (main and MTP layers). Empty on failure.
std::vector<bool> moe_layers(FamilyContext& c, int layers, int upto) {
  std::vector<bool> moe(static_cast<std::size_t>(upto), false);
  c.take("moe_layers_enum");
  if (!set(c, "moe_layers_enum")) {
    for (int i = 1; i < layers; ++i) moe[static_cast<std::size_t>(i)] = true;
    return moe;
  }
  if (!c.j["moe_layers_enum"].is_string()) {
    c.r.fail("moe_layers_enum", "must be a comma-separated string of layer indices (vLLM splits it on ',')");
    return {};
  }
  const std::string s = c.j["moe_layers_enum"].get<std::string>();
  std::size_t from = 0;
  while (from <= s.size()) {
    const std::size_t comma = std::min(s.find(',', from), s.size());
    std::string item = s.substr(from, comma - from);
    const auto b = item.find_first_not_of(" \t\n");
    const auto e = item.find_last_not_of(" \t\n");
    item = b == std::string::npos ? "" : item.substr(b, e - b + 1);
    const bool digits = !item.empty() && item.size() <= 9 && item.find_first_not_of("0123456789") == std::string::npos;
    const int v = digits ? std::stoi(item) : -1;
    if (v < 0 || v >= upto || moe[static_cast<std::size_t>(v)]) {
      c.r.fail("moe_layers_enum", fmt::format("lists \"{}\": not a new layer index in [0, {})", item, upto));
      return {};
    }
    moe[static_cast<std::size_t>(v)] = true;
    from = comma + 1;
  }
  return moe;
}

// attention_other_setting: the heads of the layers whose layer_types entry is its attention_type.
struct OtherHeads {
  std::string type;  // "": none
  int q = 0, kv = 0, head = 0;
};

OtherHeads other_heads(FamilyContext& c) {
  OtherHeads o;
  c.take("attention_other_setting");
  if (!set(c, "attention_other_setting")) return o;
  const nlohmann::json& x = c.j["attention_other_setting"];
  if (!x.is_object() || !x.contains("attention_type") || !x["attention_type"].is_string()) {
    c.r.fail("attention_other_setting", "must be an object naming its attention_type");
    return o;
  }
  // vLLM: `num_attention_heads if num_attention_heads else config.num_attention_heads`, and so
  // for num_attention_groups and head_dim: 0 or absent keeps the model's.
  const auto count = [&](const char* key) {
    if (!x.contains(key) || x[key].is_null()) return 0;
    if (!x[key].is_number_integer() || x[key].get<long long>() < 0 || x[key].get<long long>() > 1'000'000) {
      c.r.fail("attention_other_setting", fmt::format("{} must be a non-negative integer", key));
      return 0;
    }
    return static_cast<int>(x[key].get<long long>());
  };
  o.type = x["attention_type"].get<std::string>();
  o.q = count("num_attention_heads");
  o.kv = count("num_attention_groups");
  o.head = count("head_dim");
  return o;
}

// Layer i's attention (window, heads) by layer_types and attention_other_setting; false on failure.
bool attention_of(FamilyContext& c, const OtherHeads& other, int i, int window, LayerSpec& l) {
  const nlohmann::json* types = set(c, "layer_types") ? &c.j["layer_types"] : nullptr;
  std::string type = i % 2 == 0 ? "sliding_attention" : "full_attention";  // vLLM without layer_types
  if (types != nullptr && !types->empty()) {
    if (!types->is_array() || static_cast<int>(types->size()) <= i || !(*types)[static_cast<std::size_t>(i)].is_string()) {
      c.r.fail("layer_types", fmt::format("must name the attention of each of the {} layers and MTP modules",
                                          i + 1));
      return false;
    }
    type = (*types)[static_cast<std::size_t>(i)].get<std::string>();
    if (type != "full_attention" && type != "sliding_attention") {
      c.r.fail("layer_types", fmt::format("lists \"{}\": Step3p5 builds full_attention and sliding_attention", type));
      return false;
    }
  }
  if (type == "sliding_attention") l.window = window;
  if (types != nullptr && !types->empty() && type == other.type) {
    const ModelConfig& m = c.m;
    if (other.q > 0 && other.q != m.num_attention_heads) l.q_heads = other.q;
    if (other.kv > 0 && other.kv != m.num_key_value_heads) l.kv_heads = other.kv;
    if (other.head > 0 && other.head != m.head_size()) l.head_dim = other.head;
  }
  return true;
}

// The keys whose values vLLM's Step3p5 asserts or which a fork reads another way: refused by name.
void refuse_what_is_not_counted(FamilyContext& c) {
  JsonReader& r = c.r;
  if (const auto a = r.string(c.j, "att_impl_type"); a && *a != "GQA") {
    r.fail("att_impl_type", fmt::format("is \"{}\": Step3p5DecoderLayer builds GQA only", *a));
  }
  if (!r.boolean(c.j, "use_qk_norm").value_or(true) && !r.failed()) {
    r.fail("use_qk_norm", "is false: vLLM's Step3p5Attention builds q_norm and k_norm whatever it says");
  }
  if (!r.boolean(c.j, "use_moe_router_bias").value_or(true) && !r.failed()) {
    r.fail("use_moe_router_bias", "is false: vLLM's FusedMoEBlock supports the router bias only");
  }
  if (set(c, "swa_num_attention_heads") && !r.failed()) {
    r.fail("swa_num_attention_heads", "sizes the sliding layers' query heads in some ports but not in vLLM's "
                                      "Step3p5DecoderLayer; moeplan refuses rather than guess which");
  }
  // Step3p5ForCausalLM builds its own lm_head whatever tie_word_embeddings says.
  for (const nlohmann::json* o : {&c.j, &c.doc}) {
    if (o->contains("tie_word_embeddings") && (*o)["tie_word_embeddings"] == true && !r.failed()) {
      r.fail("tie_word_embeddings", "is true, but Step3p5ForCausalLM builds an lm_head of its own (vLLM's "
                                    "ParallelLMHead); moeplan refuses rather than guess which the checkpoint has");
    }
  }
}

void read_router(FamilyContext& c) {
  JsonReader& r = c.r;
  RouterSpec x;
  const std::string act = r.string(c.j, "moe_router_activation").value_or("sigmoid");  // vLLM's getattr default
  if (act == "sigmoid") {
    x.score = RouterSpec::Score::sigmoid;
  } else if (act != "softmax") {
    r.fail("moe_router_activation", fmt::format("\"{}\" is a router moeplan does not know (softmax, sigmoid)", act));
    return;
  }
  x.expert_bias = true;  // router_bias: e_score_correction_bias of FusedMoE (top-K choice only)
  if (!set(c, "norm_expert_weight")) r.fail("norm_expert_weight", "missing: vLLM's FusedMoEBlock reads it; write it");
  x.norm_topk_prob = r.boolean(c.j, "norm_expert_weight").value_or(true);
  if (!set(c, "moe_router_scaling_factor")) {
    r.fail("moe_router_scaling_factor", "missing: vLLM's FusedMoEBlock reads it; write it");
  }
  const auto it = c.j.find("moe_router_scaling_factor");
  if (!r.failed() && !(it->is_number() && it->get<double>() > 0 && it->get<double>() < 1e6)) {
    r.fail("moe_router_scaling_factor", fmt::format("must be a number in (0, 1e6), got {}", it->dump()));
  }
  if (r.failed()) return;
  x.topk_scaling_factor = it->get<double>();
  x.balance_loss_stated = false;
  c.m.router = x;
}

void read(FamilyContext& c) {
  JsonReader& r = c.r;
  ModelConfig& m = c.m;
  constexpr std::string_view k_class = "Step3p5's config class";
  m.hidden_size = c.written("hidden_size", 1, k_class);
  m.num_hidden_layers = c.written("num_hidden_layers", 1, k_class);
  if (!c.layer_count_ok(m.num_hidden_layers, "num_hidden_layers")) return;
  m.num_attention_heads = c.written("num_attention_heads", 1, k_class);
  m.num_key_value_heads = c.written("num_attention_groups", 1, k_class);
  m.head_dim = c.written("head_dim", 1, k_class);
  m.intermediate_size = c.written("intermediate_size", 1, k_class);
  m.vocab_size = c.written("vocab_size", 1, k_class);
  if (const auto mp = r.integer(c.j, "max_position_embeddings", 1)) m.max_position_embeddings = *mp;
  refuse_what_is_not_counted(c);
  if (r.failed()) return;
  m.tie_word_embeddings = false;
  c.attention_bias(false, true);  // QKVParallelLinear(bias=attention_bias), o_proj without
  m.extras.qk_norm = QkNorm::per_head;
  m.head_wise_attn_gate = r.boolean(c.j, c.take("use_head_wise_attn_gate")).value_or(false);
  m.n_routed_experts = c.written("moe_num_experts", 1, k_class);
  m.num_experts_per_tok = c.written("moe_top_k", 1, k_class);
  m.moe_intermediate_size = c.written("moe_intermediate_size", 1, k_class);
  m.n_shared_experts = 1;
  m.shared_expert_intermediate_size = c.written("share_expert_dim", 1, k_class);
  m.extras.router_bias = true;  // moe.router_bias, E per MoE layer, stored in the checkpoint
  const int mtp = r.integer(c.j, c.take("num_nextn_predict_layers"), 0).value_or(0);
  const auto window = r.integer(c.j, "sliding_window", 1);
  c.take("layer_types");
  // The per-layer lists that change no count (rope_theta, partial_rotary_factors, the SwiGLU
  // clamps) hold an entry per layer (vLLM's step3p5.py indexes them by layer; the public config
  // lists the MTP layers too): fewer than num_hidden_layers is a config the model cannot build.
  for (const char* key : {"rope_theta", "partial_rotary_factors", "swiglu_limits", "swiglu_limits_shared"}) {
    const auto it = c.j.find(key);
    if (it != c.j.end() && it->is_array() && static_cast<int>(it->size()) < m.num_hidden_layers) {
      r.fail(key, fmt::format("lists {} entries, fewer than num_hidden_layers ({}): one per layer", it->size(),
                              m.num_hidden_layers));
    }
  }
  if (r.failed()) return;
  read_router(c);
  const OtherHeads other = other_heads(c);
  const int L = m.num_hidden_layers;
  const std::vector<bool> moe = moe_layers(c, L, L + mtp);
  if (r.failed()) return;
  m.layers.assign(static_cast<std::size_t>(L), LayerSpec{});
  m.extras.mtp_layers.assign(static_cast<std::size_t>(mtp), LayerSpec{});
  for (int i = 0; i < L + mtp; ++i) {
    LayerSpec& l = i < L ? m.layers[static_cast<std::size_t>(i)] : m.extras.mtp_layers[static_cast<std::size_t>(i - L)];
    if (!attention_of(c, other, i, window.value_or(0), l)) return;
    l.ffn = moe[static_cast<std::size_t>(i)] ? FfnKind::moe : FfnKind::dense;
  }
  m.extras.num_nextn_predict_layers = mtp;
  m.extras.mtp_embedding_copies = false;
  m.extras.mtp_head_copies = true;  // shared_head.head per module, the embedding the model's
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "moe_num_experts", "moe_top_k", "moe_intermediate_size", "share_expert_dim", "moe_layers_enum",
    "num_attention_groups", "attention_other_setting", "use_head_wise_attn_gate"};

}  // namespace step3p5_parts

extern const FamilyRule k_step3p5_rule{
    .model_types = {"step3p5"},
    .read = step3p5_parts::read,
    .standard_keys = false,
    .layout_keys = step3p5_parts::k_layout_keys,
    .problem_keys = {{"num_key_value_heads", "num_attention_groups"}},
};
// Step3p7ForConditionalGeneration: the language model is text_config (step3p5).
extern const FamilyRule k_step3p7_rule{
    .model_types = {"step3p7"},
    .text_config = "text_config",
    .text_model_type = "step3p5",
    .layout_keys = step3p5_parts::k_layout_keys,
    .problem_keys = {{"num_key_value_heads", "num_attention_groups"}},
};

}  // namespace moeplan::hf
