// config.json's quantization_config as the checkpoint stores the weights (docs/serving.md
// "Served weights"). Bytes per weight count the values and what the format stores beside them
// per group or block (scales, zero points); each figure cites the format's definition.
#include "hf_quantization.hpp"

#include <cctype>

#include <fmt/format.h>

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace moeplan::hf {
namespace {

constexpr double k_bf16 = 2;

// The four kinds of linear weights serving tells apart, and what an ignore list keeps in bf16.
struct KeptBf16 {
  bool attention = false, dense = false, shared = false, routed = false;
  std::vector<std::string> taken_as_quantized;  // entries moeplan cannot place
};

bool has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

// j[key] when it is a string (or a bool for T = bool), `fallback` when absent or null; nullopt
// when it is there with another type (nlohmann's value() would throw).
template <class T>
std::optional<T> typed_value(const nlohmann::json& j, const char* key, T fallback) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  if constexpr (std::is_same_v<T, bool>) {
    if (!it->is_boolean()) return std::nullopt;
  } else {
    if (!it->is_string()) return std::nullopt;
  }
  return it->get<T>();
}
bool ends(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// An entry of modules_to_not_convert / ignored_layers / ignore (module names, globs or
// compressed-tensors' "re:" patterns), by the module names of the transformers classes:
// a kind named in one layer is taken as kept in every layer (stated in the description).
void place_entry(const std::string& raw, KeptBf16& k) {
  const std::string e = raw.starts_with("re:") ? raw.substr(3) : raw;
  if (e == "*" || e == ".*") {  // every module (fnmatch's and a regex's wildcard): nothing quantized
    k.attention = k.routed = k.dense = k.shared = true;
    return;
  }
  if (has(e, "lm_head") || has(e, "embed") || has(e, "vision") || has(e, "visual") || has(e, "mm_projector") ||
      has(e, "multi_modal")) {
    return;  // embeddings and head are served bf16 anyway; the vision tower is not counted
  }
  if (has(e, "shared_expert")) {
    k.shared = true;
  } else if (has(e, "experts")) {
    k.routed = true;
  } else if (has(e, "attn") || has(e, "attention")) {
    k.attention = true;
  } else if (ends(e, ".gate") || e == "gate" || has(e, "router")) {
    return;  // the router: bf16 anyway
  } else if (has(e, "mlp") || has(e, "gate_proj") || has(e, "up_proj") || has(e, "down_proj")) {
    k.dense = true;
  } else {
    k.taken_as_quantized.push_back(raw);
  }
}

std::optional<KeptBf16> kept_of(const nlohmann::json& q, const char* key, std::string& why) {
  KeptBf16 k;
  const auto it = q.find(key);
  if (it == q.end() || it->is_null()) return k;
  if (!it->is_array()) {
    why = fmt::format("quantization_config.{} must be a list of module names", key);
    return std::nullopt;
  }
  for (const auto& v : *it) {
    if (!v.is_string()) {
      why = fmt::format("quantization_config.{} lists {}, not a module name", key, v.dump());
      return std::nullopt;
    }
    place_entry(v.get<std::string>(), k);
  }
  return k;
}

// Every linear kind at `bytes`, less those the ignore list keeps in bf16; the description's tail.
std::string apply_kept(CheckpointStorage& s, double bytes, const KeptBf16& k) {
  s.routed = k.routed ? k_bf16 : bytes;
  s.attention = k.attention ? k_bf16 : bytes;
  s.dense = k.dense ? k_bf16 : bytes;
  s.shared = k.shared ? k_bf16 : bytes;
  std::vector<std::string> kept;
  if (k.attention) kept.emplace_back("attention");
  if (k.dense) kept.emplace_back("dense FFNs");
  if (k.shared) kept.emplace_back("shared experts");
  if (k.routed) kept.emplace_back("routed experts");
  std::string out = "; embeddings, head, norms and routers bf16";
  for (const std::string& x : kept) out += ", " + x;
  if (!kept.empty()) out += " (each kind an ignore entry names, in every layer)";
  if (!k.taken_as_quantized.empty()) {
    std::string list;
    for (const std::string& x : k.taken_as_quantized) list += fmt::format("{}'{}'", list.empty() ? "" : ", ", x);
    out += fmt::format("; ignore entries not placed, taken as quantized: {}", list);
  }
  return out;
}

std::optional<double> positive_number(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  const double v = it->get<double>();
  if (!(v > 0 && v < 1e9)) return std::nullopt;
  return v;
}

// gpt-oss: MXFP4 (OCP Microscaling Formats v1.0, Sec. 5: E2M1 values of 4 bits and one E8M0
// scale of 8 bits per block of 32): 0.5 + 1/32 bytes a weight. vLLM's Mxfp4Config quantizes
// its FusedMoE layers only (vllm/model_executor/layers/quantization/mxfp4.py, get_quant_method:
// linear layers unquantized): the routed experts; attention and routers are bf16.
void read_mxfp4(CheckpointStorage& s) {
  s.routed = 0.5 + 1.0 / 32;
  s.mxfp4_experts = true;
  s.description = "MXFP4 routed experts (4-bit values, an 8-bit scale per 32: 0.53125 bytes a weight); attention, "
                  "dense layers, embeddings, head, norms and routers bf16";
}

// fp8 (vLLM's Fp8Config, vllm/model_executor/layers/quantization/fp8.py): 1 byte a weight and,
// with weight_block_size [n, k], one fp32 weight_scale_inv per n x k block (DeepSeek-V3,
// arXiv:2412.19437 Sec. 3.3.1: 128 x 128 blocks); without it one scale per tensor (not counted).
bool read_fp8(const nlohmann::json& q, CheckpointStorage& s, std::string& why) {
  double bytes = 1;
  std::string blocks = "one scale per tensor";
  if (const auto it = q.find("weight_block_size"); it != q.end() && !it->is_null()) {
    if (!it->is_array() || it->size() != 2 || !(*it)[0].is_number_integer() || !(*it)[1].is_number_integer() ||
        (*it)[0].get<long long>() < 1 || (*it)[1].get<long long>() < 1 || (*it)[0].get<long long>() > 65536 ||
        (*it)[1].get<long long>() > 65536) {
      why = fmt::format("quantization_config.weight_block_size must be two positive integers, got {}", it->dump());
      return false;
    }
    const double n = (*it)[0].get<double>(), k = (*it)[1].get<double>();
    s.block_n = (*it)[0].get<int>();
    s.block_k = (*it)[1].get<int>();
    bytes = 1 + 4 / (n * k);
    blocks = fmt::format("an fp32 scale per {:g} x {:g} block", n, k);
  }
  const auto kept = q.contains("ignored_layers") ? kept_of(q, "ignored_layers", why)
                                                 : kept_of(q, "modules_to_not_convert", why);
  if (!kept) return false;
  s.fp8_math = true;
  s.description = fmt::format("fp8 linear layers ({}: {:.6g} bytes a weight; W8A8){}", blocks, bytes,
                              apply_kept(s, bytes, *kept));
  return true;
}

// AutoAWQ / GPTQ: `bits` packed in int32, and per group of group_size inputs an fp16 scale and
// a packed zero point of `bits` per output (AutoAWQ WQLinear_GEMM: qweight, qzeros, scales;
// AutoGPTQ QuantLinear: qweight, qzeros, scales, and g_idx, one int32 per input row, not
// counted: 4 bytes per row of thousands of weights). group_size -1: one group per row.
bool read_int_groups(const nlohmann::json& q, const std::string& method, CheckpointStorage& s, std::string& why) {
  const auto bits = positive_number(q, method == "awq" && !q.contains("bits") ? "w_bit" : "bits");
  if (!bits || (*bits != 2 && *bits != 3 && *bits != 4 && *bits != 8)) {
    why = fmt::format("quantization_config.bits of {} must be 2, 3, 4 or 8", method);
    return false;
  }
  const char* group_key = method == "awq" && !q.contains("group_size") ? "q_group_size" : "group_size";
  double group = 0;  // 0: one group per row (scales not counted)
  if (const auto it = q.find(group_key); it != q.end() && it->is_number_integer() && it->get<long long>() == -1) {
    group = 0;
  } else if (const auto g = positive_number(q, group_key)) {
    group = *g;
  } else {
    why = fmt::format("quantization_config.{} of {} must be a positive integer or -1", group_key, method);
    return false;
  }
  const double bytes = *bits / 8 + (group > 0 ? (2 + *bits / 8) / group : 0.0);
  const auto kept = kept_of(q, "modules_to_not_convert", why);
  if (!kept) return false;
  s.description = fmt::format("{} int{:g} linear layers, {} ({:.6g} bytes a weight; weight-only){}", method, *bits,
                              group > 0 ? fmt::format("an fp16 scale and zero point per {:g} inputs", group)
                                        : std::string("one scale per row"),
                              bytes, apply_kept(s, bytes, *kept));
  return true;
}

// compressed-tensors (neuralmagic/compressed-tensors QuantizationArgs, as vLLM loads it:
// compressed_tensors_wNa16.py keeps weight_scale in the model's dtype, 2 bytes, per group;
// NVFP4 (float, 4 bits, groups of 16) an fp8 scale, 1 byte, per 16; fp8 block scales fp32).
// One config group, targeting the linear layers; `ignore` keeps modules bf16.
bool read_compressed_tensors(const nlohmann::json& q, CheckpointStorage& s, std::string& why) {
  const auto groups = q.find("config_groups");
  if (groups == q.end() || !groups->is_object() || groups->empty()) {
    why = "quantization_config.config_groups: a compressed-tensors config needs one group";
    return false;
  }
  if (groups->size() > 1) {
    why = fmt::format("quantization_config.config_groups has {} groups: moeplan reads one (which layers each "
                      "targets it does not place)", groups->size());
    return false;
  }
  const nlohmann::json& g = groups->begin().value();
  const auto w = g.find("weights");
  if (w == g.end() || !w->is_object()) {
    why = "quantization_config.config_groups: the group has no weights scheme";
    return false;
  }
  const auto bits = positive_number(*w, "num_bits");
  const auto type_given = typed_value(*w, "type", std::string("int"));
  const auto strategy_given = typed_value(*w, "strategy", std::string("tensor"));
  const auto symmetric = typed_value(*w, "symmetric", true);
  if (!type_given || !strategy_given || !symmetric) {
    why = "quantization_config.config_groups: weights.type and weights.strategy must be strings, weights.symmetric "
          "a boolean";
    return false;
  }
  const std::string& type = *type_given;
  const std::string& strategy = *strategy_given;
  if (!bits || (*bits != 4 && *bits != 8) || (type != "int" && type != "float")) {
    why = "quantization_config.config_groups: weights of 4 or 8 bits, int or float, are read";
    return false;
  }
  double per_weight = 0;  // scales and zero points
  std::string how = "one scale per tensor";
  if (strategy == "group" || strategy == "tensor_group") {
    const auto group = positive_number(*w, "group_size");
    if (!group) {
      why = "quantization_config.config_groups: a group strategy needs weights.group_size";
      return false;
    }
    const double scale = type == "float" && *bits == 4 ? 1.0 : 2.0;  // NVFP4's fp8 scale, else bf16
    const bool zero = !*symmetric;
    per_weight = (scale + (zero ? *bits / 8 : 0.0)) / *group;
    how = fmt::format("a {}-byte scale{} per {:g}", scale, zero ? " and a zero point" : "", *group);
  } else if (strategy == "block") {
    const auto b = w->find("block_structure");
    if (b == w->end() || !b->is_array() || b->size() != 2 || !(*b)[0].is_number_integer() || !(*b)[1].is_number_integer() ||
        (*b)[0].get<long long>() < 1 || (*b)[1].get<long long>() < 1) {
      why = "quantization_config.config_groups: a block strategy needs weights.block_structure [n, k]";
      return false;
    }
    per_weight = 4 / ((*b)[0].get<double>() * (*b)[1].get<double>());
    how = fmt::format("an fp32 scale per {} x {} block", (*b)[0].get<long long>(), (*b)[1].get<long long>());
  } else if (strategy == "channel") {
    how = "one scale per row";
  } else if (strategy != "tensor") {
    why = fmt::format("quantization_config.config_groups: weights.strategy '{}' is not one moeplan reads (tensor, "
                      "channel, group, tensor_group, block)", strategy);
    return false;
  }
  const double bytes = *bits / 8 + per_weight;
  const auto kept = kept_of(q, "ignore", why);
  if (!kept) return false;
  const auto act = g.find("input_activations");
  s.fp8_math = type == "float" && *bits == 8 && act != g.end() && act->is_object();
  s.description = fmt::format("compressed-tensors {}{:g} linear layers, {} ({:.6g} bytes a weight; {}){}", type, *bits,
                              how, bytes, s.fp8_math ? "W8A8" : "weight-only", apply_kept(s, bytes, *kept));
  return true;
}

// NVIDIA ModelOpt (quant_method "modelopt"; vLLM model_executor/layers/quantization/modelopt.py,
// ModelOptNvFp4Config and ModelOptFp8Config): quant_algo NVFP4 stores each weight as 4-bit E2M1,
// two a byte, with an fp8 (E4M3) scale per group_size inputs (16; weight_scale) and one fp32 global
// scale a tensor (weight_scale_2, not counted); FP8 one byte a weight and an fp32 scale a tensor
// (W8A8). The exclusions are `ignore` (config_groups form) or `exclude_modules` (ModelOpt's
// hf_quant_config form); group_size is the top-level key or the one config group's weights'.
bool read_modelopt(const nlohmann::json& top, CheckpointStorage& s, std::string& why) {
  // ModelOpt's hf_quant_config form nests its settings under "quantization" (exclusions in
  // exclude_modules); config.json's own form is flat (exclusions in ignore), as vLLM's
  // ModelOptQuantConfigBase.from_config reads them.
  const bool nested = top.contains("quantization") && top["quantization"].is_object();
  const nlohmann::json& q = nested ? top["quantization"] : top;
  const std::string where = nested ? "quantization_config.quantization." : "quantization_config.";
  const auto algo_given = typed_value(q, "quant_algo", std::string());
  if (!algo_given || algo_given->empty()) {
    why = where + "quant_algo: a modelopt config names its algorithm (NVFP4 or FP8 are read)";
    return false;
  }
  std::string algo = *algo_given;  // "ModelOpt may emit lowercase" (vLLM upper-cases it)
  for (char& ch : algo) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  const auto kept = kept_of(q, nested ? "exclude_modules" : "ignore", why);
  if (!kept) return false;
  if (algo == "FP8") {
    s.fp8_math = true;
    s.description = fmt::format("modelopt FP8 linear layers (one fp32 scale a tensor: 1 byte a weight; W8A8){}",
                                apply_kept(s, 1.0, *kept));
    return true;
  }
  if (algo != "NVFP4") {
    why = fmt::format("{}quant_algo '{}' is not one moeplan reads (NVFP4, FP8)", where, *algo_given);
    return false;
  }
  double group = 16;  // NVFP4's block (ModelOptNvFp4Config's default group_size)
  const nlohmann::json* holder = q.contains("group_size") ? &q : nullptr;
  if (!holder) {
    if (const auto g = q.find("config_groups"); g != q.end() && g->is_object() && g->size() == 1) {
      if (const auto w = g->begin()->find("weights"); w != g->begin()->end() && w->is_object() && w->contains("group_size")) {
        holder = &*w;
      }
    }
  }
  if (holder) {
    const auto& v = (*holder)["group_size"];
    if (!v.is_number_integer() || v.get<long long>() < 1 || v.get<long long>() > 1'000'000) {
      why = fmt::format("{}group_size must be a positive integer, got {}", where, v.dump());
      return false;
    }
    group = v.get<double>();
  }
  const double bytes = 0.5 + 1.0 / group;
  s.description = fmt::format("modelopt NVFP4 linear layers, an fp8 scale per {:g} ({:.6g} bytes a weight; the "
                              "decode bound at bf16 math, as vLLM runs NVFP4 weight-only (Marlin) before "
                              "Blackwell){}",
                              group, bytes, apply_kept(s, bytes, *kept));
  return true;
}

// DeepSeek-V4 (inference model.py, Linear; scale_fmt "ue8m0"): its fp8 weights carry one
// float8_e8m0fnu scale byte per block, not fp32 (vLLM's DeepseekV4FP8Config, vllm/model_executor/
// models/deepseek_v4.py @023da1fc: "FP4 checkpoints store FP8 linear scales as e8m0fnu; FP8
// expert checkpoints (Flash-Base) store them as float32"), and config.json's top-level expert_dtype "fp4"
// stores the routed experts as float4_e2m1fn_x2 with an e8m0 byte per 32 (MXFP4's layout). The
// compressors' and indexer's kv_proj, gate_proj and weights_proj are bf16 (transformers
// DeepseekV4PreTrainedModel._keep_in_fp32_modules: "these projections ship in BF16 with no
// companion scale_inv"): `attention` is the bytes per attention weight over the model's layers.
// These dtypes sum to the checkpoint index's total_size to the byte (tests/data/hf/recount/
// deepseek_v4_count.py).
bool read_deepseek_v4_storage(const nlohmann::json& doc, const nlohmann::json& q, const ModelConfig& m,
                              CheckpointStorage& s, std::string& why) {
  const auto expert_dtype = typed_value(doc, "expert_dtype", std::string());
  if (!expert_dtype || (*expert_dtype != "fp4" && *expert_dtype != "fp8")) {
    // Absent, DeepSeek's model.py builds fp8 experts and vLLM assumes fp4: not guessed.
    why = fmt::format("expert_dtype {} is not fp4 or fp8 (absent, DeepSeek's inference code and vLLM read the "
                      "experts differently), so moeplan does not say how the experts are stored",
                      doc.contains("expert_dtype") ? doc["expert_dtype"].dump() : std::string("absent"));
    return false;
  }
  double n = 1, k = 1;
  if (const auto it = q.find("weight_block_size"); it != q.end() && it->is_array() && it->size() == 2) {
    n = (*it)[0].get<double>();
    k = (*it)[1].get<double>();
  }
  // e8m0 scales go with fp4 experts (vLLM's is_scale_e8m0: expert_dtype == "fp4").
  const bool e8m0 = typed_value(q, "scale_fmt", std::string()).value_or("") == "ue8m0" && *expert_dtype == "fp4";
  const double fp8 = 1 + (e8m0 ? 1.0 : 4.0) / (n * k);
  const CompressedAttention& a = *m.compressed_attention;
  const double d = m.hidden_size, h = m.head_size();
  double weights = 0, bytes = 0;
  for (const LayerSpec& l : m.layers) {
    const double all = attention_params_of(m, l);
    double bf16 = 0;
    if (l.compress_rate > 0 && l.compress_rate == a.csa_rate) {
      bf16 = 2.0 * d * 2.0 * h + 2.0 * d * 2.0 * a.index_head_dim + d * a.index_n_heads;
    } else if (l.compress_rate > 0) {
      bf16 = 2.0 * d * h;
    }
    weights += all;
    bytes += (all - bf16) * fp8 + bf16 * k_bf16;
  }
  s.attention = weights > 0 ? bytes / weights : fp8;
  s.dense = s.shared = fp8;
  std::string experts = "fp8";
  s.routed = fp8;
  if (*expert_dtype == "fp4") {
    s.routed = 0.5 + 1.0 / 32;
    s.mxfp4_experts = true;
    experts = "fp4 (e2m1 values, an e8m0 scale per 32: 0.53125 bytes a weight; expert_dtype)";
  }
  s.description = fmt::format("fp8 linear layers ({} scale per {:g} x {:g} block: {:.6g} bytes a weight; W8A8), "
                              "routed experts {}; the compressors' and indexer's kv, gate and weights projections "
                              "bf16 ({:.6g} bytes per attention weight in all); embeddings, head, norms and routers bf16",
                              e8m0 ? "an e8m0" : "an fp32", n, k, fp8, experts, s.attention);
  return true;
}

}  // namespace

void read_quantization_config(const nlohmann::json& doc, const nlohmann::json& body, ModelConfig& m) {
  const nlohmann::json* q = nullptr;
  for (const nlohmann::json* j : {&doc, &body}) {
    const auto it = j->find("quantization_config");
    if (it != j->end() && !it->is_null()) {
      q = &*it;
      break;
    }
  }
  if (!q) return;
  CheckpointStorage s;
  std::string why;
  const std::optional<std::string> method_given =
      q->is_object() ? typed_value(*q, "quant_method", std::string()) : std::optional<std::string>(std::string());
  const std::string method = method_given.value_or("");
  s.method = method;
  bool ok = false;
  if (!q->is_object()) {
    why = "quantization_config must be an object";
  } else if (!method_given) {
    why = fmt::format("quantization_config.quant_method must be a string, got {}", (*q)["quant_method"].dump());
  } else if (method == "mxfp4") {
    read_mxfp4(s);
    ok = true;
  } else if (method == "fp8") {
    ok = read_fp8(*q, s, why);
    if (ok && m.compressed_attention) ok = read_deepseek_v4_storage(doc, *q, m, s, why);
  } else if (method == "awq" || method == "gptq") {
    ok = read_int_groups(*q, method, s, why);
  } else if (method == "compressed-tensors") {
    ok = read_compressed_tensors(*q, s, why);
  } else if (method == "modelopt") {
    ok = read_modelopt(*q, s, why);
  } else {
    why = method.empty() ? std::string("quantization_config.quant_method is missing (moeplan reads mxfp4, fp8, "
                                       "compressed-tensors, awq, gptq, modelopt)")
                         : fmt::format("quantization_config.quant_method '{}' is not one moeplan reads (mxfp4, fp8, "
                                       "compressed-tensors, awq, gptq, modelopt)",
                                       method);
  }
  if (!ok) {
    s = CheckpointStorage{};
    s.method = method;
    s.known = false;
    s.description = why;
  }
  m.checkpoint_storage = s;
}

}  // namespace moeplan::hf
