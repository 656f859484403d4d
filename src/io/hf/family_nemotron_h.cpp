// nemotron_h (Nemotron-H, Nemotron 3 Nano, Super): transformers modular_nemotron_h.py +
// configuration_nemotron_h.py (NemotronHForCausalLM); the checkpoints' remote code
// modeling_nemotron_h.py builds the same tensors. Latent MoE (moe_latent_size: Nemotron 3
// Super) as modular_nemotron_h.py @ 008d9e9577b0 builds it (NemotronHMoE, NemotronHExperts);
// the checkpoints' MTP layers (mtp.*) as vLLM builds them (read_mtp below).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "family_rule.hpp"
#include "moeplan/model/linear_mixers.hpp"

namespace moeplan::hf {
namespace nemotron_h_parts {  // named: a unity build compiles the family files together

enum class Block { mamba, attention, mlp, moe };

// hybrid_override_pattern, one character per layer (NemotronHConfig._pattern_to_list).
std::optional<Block> block_of_char(char ch) {
  switch (ch) {
    case 'M': return Block::mamba;
    case '*': return Block::attention;
    case '-': return Block::mlp;
    case 'E': return Block::moe;
    default: return std::nullopt;
  }
}

// layers_block_type (alias layer_types): the current names and the legacy ones
// (remap_legacy_layer_types: "mamba", "attention").
std::optional<Block> block_of_name(const nlohmann::json& v) {
  if (!v.is_string()) return std::nullopt;
  const std::string s = v.get<std::string>();
  if (s == "linear_attention" || s == "mamba") return Block::mamba;
  if (s == "full_attention" || s == "attention") return Block::attention;
  if (s == "mlp") return Block::mlp;
  if (s == "moe") return Block::moe;
  return std::nullopt;
}

// The layer list: hybrid_override_pattern, or layers_block_type / layer_types (which
// NemotronHConfig prefers when both are written; here they must agree).
std::vector<Block> read_pattern(FamilyContext& c) {
  JsonReader& r = c.r;
  const nlohmann::json& j = c.j;
  std::optional<std::vector<Block>> from_pattern, from_list;
  std::string list_key;
  if (const auto p = r.string(j, c.take("hybrid_override_pattern"))) {
    from_pattern.emplace();
    for (const char ch : *p) {
      const auto b = block_of_char(ch);
      if (!b) {
        // A byte outside ASCII is named by its code, never printed as half a UTF-8 character.
        const auto byte = static_cast<unsigned char>(ch);
        const std::string what = byte < 0x80 && byte >= 0x20 ? fmt::format("'{}'", ch) : fmt::format("byte 0x{:02X}", byte);
        r.fail("hybrid_override_pattern", fmt::format("has {}: moeplan knows M (Mamba2), * (attention), "
                                                      "- (MLP) and E (MoE)", what));
        return {};
      }
      from_pattern->push_back(*b);
    }
  }
  for (const char* key : {"layers_block_type", "layer_types"}) {
    c.take(key);
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) continue;
    if (from_list) {
      r.fail(key, "is written beside another layer list; NemotronHConfig keeps one (layer_types is an alias of "
                  "layers_block_type)");
      return {};
    }
    list_key = key;
    from_list.emplace();
    if (!it->is_array()) {
      r.fail(key, "must be a list of layer kinds");
      return {};
    }
    for (const auto& v : *it) {
      const auto b = block_of_name(v);
      if (!b) {
        r.fail(key, fmt::format("lists {}: moeplan knows linear_attention (mamba), full_attention (attention), "
                                "mlp and moe", v.dump()));
        return {};
      }
      from_list->push_back(*b);
    }
  }
  if (from_pattern && from_list && *from_pattern != *from_list) {
    r.fail(list_key, "and hybrid_override_pattern list different layers; moeplan refuses rather than pick one");
    return {};
  }
  if (!from_pattern && !from_list) {
    r.fail("hybrid_override_pattern", "missing: the layer pattern (NemotronHConfig's default is a 4-layer "
                                      "example, not a model)");
    return {};
  }
  std::vector<Block> out = from_list ? *from_list : *from_pattern;
  if (out.empty()) r.fail(from_list ? list_key : "hybrid_override_pattern", "lists no layer");
  return out;
}

// One MTP layer's kinds: mtp_layers_block_type (names) or the legacy mtp_hybrid_override_pattern
// (characters), which must agree where both are written; neither: the class default
// ["full_attention", "moe"] (NemotronHConfig.__post_init__).
std::optional<std::vector<Block>> read_mtp_kinds(FamilyContext& c) {
  JsonReader& r = c.r;
  const nlohmann::json& j = c.j;
  std::optional<std::vector<Block>> from_pattern, from_list;
  if (const auto p = r.string(j, c.take("mtp_hybrid_override_pattern"))) {
    from_pattern.emplace();
    for (const char ch : *p) {
      const auto b = block_of_char(ch);
      if (!b) {
        r.fail("mtp_hybrid_override_pattern", "has a character other than M, *, - and E");
        return std::nullopt;
      }
      from_pattern->push_back(*b);
    }
  }
  if (const auto it = j.find(c.take("mtp_layers_block_type")); it != j.end() && !it->is_null()) {
    if (!it->is_array()) {
      r.fail("mtp_layers_block_type", "must be a list of layer kinds");
      return std::nullopt;
    }
    from_list.emplace();
    for (const auto& v : *it) {
      const auto b = block_of_name(v);
      if (!b) {
        r.fail("mtp_layers_block_type", fmt::format("lists {}: moeplan knows linear_attention (mamba), "
                                                    "full_attention (attention), mlp and moe", v.dump()));
        return std::nullopt;
      }
      from_list->push_back(*b);
    }
  }
  if (from_pattern && from_list && *from_pattern != *from_list) {
    r.fail("mtp_layers_block_type", "and mtp_hybrid_override_pattern list different layers; moeplan refuses "
                                    "rather than pick one");
    return std::nullopt;
  }
  if (from_list) return from_list;
  if (from_pattern) return from_pattern;
  return std::vector<Block>{Block::attention, Block::moe};
}

// The checkpoints' MTP layers (num_nextn_predict_layers; mtp.* tensors): transformers does not
// build them (NemotronHPreTrainedModel._keys_to_ignore_on_load_unexpected = [r"mtp.*"],
// modular_nemotron_h.py @ 008d9e9577b0); vLLM does (vllm/model_executor/models/nemotron_h_mtp.py
// @ 01ca27739feb, NemotronHMultiTokenPredictor): one step (it asserts num_nextn_predict_layers
// == 1) of the MTP pattern's layers, each a NemotronH decoder layer of attention (*) or the
// model's MoE block (E), with its norm; enorm + hnorm + eh_proj (2H -> H, no bias) on the first,
// final_layernorm on the last; the embedding and lm_head are the target model's, no copy
// stored. An attention layer then a MoE layer counts as count_mtp's module of one LayerSpec
// (attention and MoE blocks, a norm before each), and so do either alone. As DeepSeek's MTP:
// outside N, in mtp_params. Nemotron 3 Super: "*E", 2,942,324,736 weights.
void read_mtp(FamilyContext& c, const std::vector<Block>& blocks) {
  JsonReader& r = c.r;
  const int n = r.integer(c.j, c.take("num_nextn_predict_layers"), 0).value_or(0);
  const auto kinds = read_mtp_kinds(c);
  if (n == 0 || !kinds || r.failed()) return;
  const char* key = c.j.contains("mtp_layers_block_type") && !c.j["mtp_layers_block_type"].is_null()
                        ? "mtp_layers_block_type"
                        : "mtp_hybrid_override_pattern";
  if (n > 1) {
    r.fail("num_nextn_predict_layers", fmt::format("is {}: vLLM's NemotronHMultiTokenPredictor builds one MTP step "
                                                   "(it asserts 1); moeplan refuses rather than guess the others", n));
    return;
  }
  using B = std::vector<Block>;
  const B& k = *kinds;
  if (k != B{Block::attention} && k != B{Block::moe} && k != B{Block::attention, Block::moe}) {
    r.fail(key, "lists MTP layers moeplan does not count: vLLM builds attention (*) and MoE (E) MTP layers; "
                "moeplan counts *, E or *E");
    return;
  }
  const bool attention = k.front() == Block::attention, moe = k.back() == Block::moe;
  // The MTP layers are the model's blocks: their sizes are read only where the model has one.
  const auto has = [&](Block b) { return std::find(blocks.begin(), blocks.end(), b) != blocks.end(); };
  if ((moe && !has(Block::moe)) || (attention && !has(Block::attention))) {
    r.fail(key, fmt::format("has an {} MTP layer but the model has no {} layer, whose sizes it would take",
                            moe && !has(Block::moe) ? "MoE" : "attention", moe && !has(Block::moe) ? "E" : "*"));
    return;
  }
  LayerSpec l;
  l.mixer = attention ? MixerKind::attention : MixerKind::none;
  l.ffn = moe ? FfnKind::moe : FfnKind::none;
  c.m.extras.num_nextn_predict_layers = 1;
  c.m.extras.mtp_embedding_copies = false;
  c.m.extras.mtp_layers = {l};
}

// NemotronHBlock: one RMSNorm and ONE mixer per layer (MIXER_TYPES[block_type]): a Mamba2
// mixer, attention, an MLP (up_proj, down_proj: squared ReLU, no gate) or an MoE block
// (DeepSeek-V3-style router of n_routed_experts x H, ungated experts of
// moe_intermediate_size and one ungated shared MLP of moe_shared_expert_intermediate_size).
// So a layer is a LayerSpec with mixer none or FFN none, and every FFN is ungated.
void read(FamilyContext& c) {
  // NemotronHTopkRouter (modeling_nemotron_h.py): e_score_correction_bias a registered buffer of
  // n_routed_experts in each MoE layer, the MTP layers' included.
  c.router_bias_buffer = true;
  JsonReader& r = c.r;
  const nlohmann::json& j = c.j;
  ModelConfig& m = c.m;
  const std::vector<Block> blocks = read_pattern(c);
  if (r.failed()) return;
  const auto has = [&](Block b) { return std::find(blocks.begin(), blocks.end(), b) != blocks.end(); };
  m.hidden_size = r.required(j, "hidden_size", 1);
  m.vocab_size = r.required(j, "vocab_size", 1);
  m.num_hidden_layers = static_cast<int>(blocks.size());
  // num_hidden_layers is deprecated: the class takes the layer count from the pattern.
  if (const auto n = r.integer(j, "num_hidden_layers", 1); n && *n != m.num_hidden_layers) {
    r.fail("num_hidden_layers", fmt::format("is {} but the layer pattern lists {} layers", *n, m.num_hidden_layers));
    return;
  }
  m.num_attention_heads = r.required(j, "num_attention_heads", 1);
  // NemotronHConfig: num_key_value_heads absent is 8, null is N_q.
  if (!j.contains("num_key_value_heads")) {
    r.fail("num_key_value_heads", "missing: NemotronHConfig's default is 8; write the number of kv heads");
    return;
  }
  m.num_key_value_heads = r.integer(j, "num_key_value_heads", 1).value_or(m.num_attention_heads);
  // NemotronHAttention: head_dim (class default 128, not hidden_size / heads); the remote-code
  // configs of Nemotron-H spell it attention_head_dim.
  const auto head_dim = r.integer(j, "head_dim", 1);
  const auto attention_head_dim = r.integer(j, "attention_head_dim", 1);
  if (head_dim && attention_head_dim && *head_dim != *attention_head_dim) {
    r.fail("attention_head_dim", "differs from head_dim; moeplan refuses rather than pick one");
    return;
  }
  m.head_dim = head_dim ? *head_dim : attention_head_dim.value_or(0);
  if (m.head_dim == 0 && has(Block::attention)) {
    r.fail("head_dim", "missing: NemotronHConfig's default is 128, not hidden_size / num_attention_heads; write it");
    return;
  }
  if (r.failed()) return;
  if (m.head_dim == 0) m.head_dim = m.hidden_size / m.num_attention_heads;  // no attention layer: unused
  m.tie_word_embeddings = r.boolean(j, "tie_word_embeddings").value_or(false);  // NemotronHConfig default
  m.ffn_gated = false;  // NemotronHMLP and NemotronHExperts: up_proj, down_proj only
  // Biases (NemotronHConfig defaults False): attention_bias on q, k, v, o (the remote code's
  // NemotronHAttention), use_bias on the Mamba projections, mlp_bias on the MLPs and experts.
  c.attention_bias(false, false);
  if (r.boolean(j, "mlp_bias").value_or(false)) {
    r.fail("mlp_bias", "true: biases of the MLPs and experts are not counted by moeplan");
    return;
  }
  if (r.boolean(j, "mamba_proj_bias").value_or(false)) {
    r.fail("mamba_proj_bias", "true: the class sizes the Mamba projection biases by use_bias and ignores this "
                              "key; moeplan refuses rather than guess which the checkpoint has");
    return;
  }
  if (has(Block::mlp)) m.intermediate_size = r.required(j, "intermediate_size", 1);
  // Experts: read only when an E layer builds them (the class defaults fill these keys in
  // every saved config, E layer or not).
  c.take("ssm_state_size");  // read below when a Mamba layer uses it
  for (const char* key : {"n_routed_experts", "num_local_experts", "num_experts_per_tok", "moe_intermediate_size",
                          "n_shared_experts", "moe_shared_expert_intermediate_size", "moe_latent_size"}) {
    c.take(key);
  }
  if (has(Block::moe)) {
    // num_local_experts is an attribute_map alias of n_routed_experts.
    const auto e = r.integer(j, "n_routed_experts", 1);
    const auto alias = r.integer(j, "num_local_experts", 1);
    if (e && alias && *e != *alias) {
      r.fail("num_local_experts", "differs from n_routed_experts (its alias)");
      return;
    }
    if (!e && !alias) {
      r.fail("n_routed_experts", "missing: the E layers need the expert count (the class default 8 is not guessed)");
      return;
    }
    m.n_routed_experts = e ? *e : *alias;
    m.num_experts_per_tok = r.required(j, "num_experts_per_tok", 1);
    m.moe_intermediate_size = r.required(j, "moe_intermediate_size", 1);
    // NemotronHMoE overrides DeepseekV3MoE's shared experts with ONE NemotronHMLP of
    // moe_shared_expert_intermediate_size, whatever n_shared_experts says.
    m.n_shared_experts = 1;
    m.shared_expert_intermediate_size = r.required(j, "moe_shared_expert_intermediate_size", 1);
    if (const auto n = r.integer(j, "n_shared_experts", 0); n && *n != 1) {
      r.fail("n_shared_experts", fmt::format("is {}: NemotronHMoE builds one shared MLP whatever this says; "
                                             "moeplan refuses rather than guess what the checkpoint has", *n));
      return;
    }
    // Latent MoE (NemotronHMoE @ 008d9e9577b0): the router (gate, n_routed_experts x H, and
    // its e_score_correction_bias buffer) reads the token at H; fc1_latent_proj (H -> l) and
    // fc2_latent_proj (l -> H), biases by mlp_bias (refused above), wrap the routed experts,
    // which NemotronHExperts sizes at l (up_proj E x I x l, down_proj E x l x I); the shared
    // MLP stays at H. null: no latent (nn.Identity), experts at H.
    // 0 is refused: NemotronHMoE tests `is not None`, so 0 would build zero-width projections.
    if (const auto it = j.find("moe_latent_size"); it != j.end() && it->is_number_integer() && it->get<std::int64_t>() == 0) {
      r.fail("moe_latent_size", "is 0: NemotronHMoE builds a latent whenever it is not null (0 would be a zero-width "
                                "fc1_latent_proj); write null for no latent");
      return;
    }
    if (const auto l = r.integer(j, "moe_latent_size", 1)) m.moe_latent_size = *l;
  }
  if (has(Block::mamba)) {
    // NemotronHMamba2Mixer: I = mamba_num_heads * mamba_head_dim (not expand * H). The
    // config takes mamba_n_groups, mamba_d_conv, mamba_conv_bias as older names of n_groups,
    // conv_kernel, use_conv_bias (the older name wins, NemotronHConfig.__post_init__).
    const auto alias = [&](const char* old_name, const char* name) {
      return j.contains(old_name) && !j[old_name].is_null() ? old_name : name;
    };
    Mamba2Shape s;
    s.hidden_size = m.hidden_size;
    s.n_heads = r.required(j, "mamba_num_heads", 1);
    s.head_dim = r.required(j, "mamba_head_dim", 1);
    s.n_groups = r.required(j, alias("mamba_n_groups", "n_groups"), 1);
    s.d_state = r.required(j, "ssm_state_size", 1);
    s.d_conv = r.required(j, alias("mamba_d_conv", "conv_kernel"), 1);
    s.conv_bias = r.boolean(j, alias("mamba_conv_bias", "use_conv_bias")).value_or(true);  // class default True
    s.proj_bias = r.boolean(j, "use_bias").value_or(false);  // class default False
    // The heads are split among the groups (NemotronHMamba2Mixer: num_heads // n_groups).
    if (!r.failed() && s.n_heads % s.n_groups != 0) {
      r.fail(alias("mamba_n_groups", "n_groups"), fmt::format("{} groups do not divide the {} Mamba2 heads", s.n_groups, s.n_heads));
    }
    if (r.failed()) return;
    m.linear_mixers.push_back(mamba2_mixer(s));
  }
  if (r.failed()) return;
  for (const Block b : blocks) {
    LayerSpec l;
    l.mixer = b == Block::mamba ? MixerKind::linear : b == Block::attention ? MixerKind::attention : MixerKind::none;
    l.linear_mixer = 0;
    l.ffn = b == Block::mlp ? FfnKind::dense : b == Block::moe ? FfnKind::moe : FfnKind::none;
    m.layers.push_back(l);
  }
  read_mtp(c, blocks);
}

// The expert and layer-layout keys this file's rules read (a file of another family that
// writes one is refused: hf_config_reader.cpp).
const std::vector<std::string> k_layout_keys{
    "n_routed_experts", "num_local_experts", "num_experts_per_tok", "moe_intermediate_size",
    "n_shared_experts", "hybrid_override_pattern", "ssm_state_size", "layers_block_type", "moe_shared_expert_intermediate_size",
    "moe_latent_size", "mtp_hybrid_override_pattern", "mtp_layers_block_type"};

}  // namespace nemotron_h_parts

// The common keys are read here: num_hidden_layers is the pattern's length and head_dim has
// a class default of its own.
extern const FamilyRule k_nemotron_h_rule{.model_types = {"nemotron_h"}, .read = nemotron_h_parts::read, .standard_keys = false, .layout_keys = nemotron_h_parts::k_layout_keys};

}  // namespace moeplan::hf
