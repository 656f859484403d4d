#include "emit.hpp"

#include <algorithm>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <ostream>

#include "app.hpp"
#include "moeplan/base/number_parse.hpp"
#include "moeplan/planner/candidates.hpp"
#include "moeplan/io/hf_config.hpp"
#include "moeplan/io/model_export.hpp"
#include "moeplan/planner/model_score.hpp"
#include "output_file.hpp"

namespace moeplan::cli {

void add_emit_flag(CLI::App& sub, std::string& emit) {
  CLI::Option* o =
      sub.add_option("--emit", emit,
                     "Write the config for other tools instead of the report: hf-config "
                     "(HuggingFace config.json of a class that builds the counted model: the "
                     "model's own model_type, else glm4_moe for GQA, deepseek_v3 for MLA, "
                     "qwen2_moe, llama4_text or llama where only they fit; exit 3 if none), "
                     "megatron (Megatron-LM arguments), "
                     "toml (the schema `moeplan score` reads)")
          ->check(CLI::IsMember({"hf-config", "megatron", "toml"}));
  if (CLI::Option* format = sub.get_option_no_throw("--format")) {
    o->excludes(format);
  }
}

std::string emit_count_problem(std::size_t count) {
  if (count == 1) return "";
  return fmt::format("--emit writes one config; got {} (score them one at a time)", count);
}

int emit_config(const std::string& kind, const ModelConfig& m, const LawSet& laws,
                const std::string& output, Io& io, const std::vector<std::string>& inputs,
                const MegatronRun* run) {
  std::string text;
  if (kind == "toml") {
    text = to_model_toml(m);
  } else if (kind == "hf-config") {
    if (m.router && m.router->logit_norm_std > 0) {
      return fail(io, ConstraintViolation{"a transformers class that builds the counted model",
                                          "its router divides the logits by their standard deviation before the "
                                          "softmax (gating logit normalization, Skywork-MoE's moe_use_logits_norm): "
                                          "none of the transformers classes moeplan writes routes so; use --emit toml"});
    }
    // The class search writes and reads back each candidate: done once, its answer kept.
    std::string model_type;
    auto json = to_hf_config_json(m, &model_type);
    if (!json) return fail(io, json.error());
    const BesideN b = count_beside_n(m);
    io.note(fmt::format("hf-config: model_type {}; the class builds N plus {:.4g} parameters "
                        "beside it (routers {:.4g}, norms {:.4g}, biases {:.4g}, gates and sinks {:.4g})",
                        model_type, b.total.value(), b.routers.value(),
                        b.norms.value(), b.biases.value(), b.gates_and_sinks.value()));
    // The class's own router, where it is not the model's (glm4_moe and deepseek_v3 always
    // score with a sigmoid and a correction bias; moeplan's plans assume paper 000's softmax).
    if (const auto back = parse_hf_config_json(*json, "<hf-config>", m.name); back && back->router) {
      const RouterSpec mine = m.router.value_or(RouterSpec{});
      if (back->router->score != mine.score || back->router->expert_bias != mine.expert_bias) {
        io.note(fmt::format("hf-config: transformers' {} class routes with {} scores{}, not with the router {} "
                            "({} scores{}{}): a transformers run of this file trains the class's router",
                            model_type, router_score_name(back->router->score),
                            back->router->expert_bias ? " and a correction bias" : "",
                            m.router ? "of the model's config" : "moeplan's plan assumes",
                            router_score_name(mine.score), mine.expert_bias ? " and a correction bias" : "",
                            m.router ? "" : ", paper 000's balance loss 0.01 and z-loss 0.001, as --emit megatron writes"));
      }
    }
    text = std::move(*json);
  } else {  // "megatron"; CLI11 admitted nothing else
    if (m.router && m.router->logit_norm_std > 0) {
      return fail(io, ConstraintViolation{"Megatron-LM arguments that build the counted model",
                                          "its router divides the logits by their standard deviation before the "
                                          "softmax (gating logit normalization, Skywork-MoE's moe_use_logits_norm): "
                                          "Megatron-LM has no such router"});
    }
    if (const auto why = non_uniform_layers(m)) {
      return fail(io, ConstraintViolation{"Megatron-LM arguments that build the counted model", *why});
    }
    if (run != nullptr && run->layout.dualpipe) {
      return fail(io, ConstraintViolation{"Megatron-LM arguments that build the run",
                                          "--pipeline-schedule dualpipe: Megatron-LM has no DualPipe schedule "
                                          "(DeepSeek's own, deepseek-ai/DualPipe); use 1f1b or interleaved"});
    }
    if (run != nullptr && run->activation_fp8_input_store) {
      return fail(io, ConstraintViolation{"Megatron-LM arguments that build the run",
                                          "--activation-func-fp8-input-store: Megatron-LM 0.20 has no command-line "
                                          "flag for TransformerConfig.activation_func_fp8_input_store (arguments.py "
                                          "lists it among the fields with none); set it in the model config"});
    }
    if (const auto why = megatron_window_problem(m)) {
      return fail(io, ConstraintViolation{"Megatron-LM arguments that build the counted model", *why});
    }
    if (std::any_of(m.layers.begin(), m.layers.end(), [](const LayerSpec& l) { return l.chunk > 0; })) {
      io.note("megatron: the chunked-attention layers' chunks are at least the sequence length, so they attend "
              "as full causal attention at it and are written as full attention (Megatron-LM has no chunked "
              "attention)");
    }
    if (const auto why = megatron_position_problem(m)) {
      return fail(io, ConstraintViolation{"Megatron-LM arguments that build the counted model", *why});
    }
    text = to_megatron_args(m, training_hyperparameters(laws, m), run);
  }
  return deliver(output, text, io, inputs);
}

}  // namespace moeplan::cli
