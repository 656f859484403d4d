#include "emit.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <ostream>

#include "app.hpp"
#include "moeplan/candidates.hpp"
#include "moeplan/model_export.hpp"
#include "output_file.hpp"

namespace moeplan::cli {

void add_emit_flag(CLI::App& sub, std::string& emit) {
  CLI::Option* o =
      sub.add_option("--emit", emit,
                     "Write the config for other tools instead of the report: hf-config "
                     "(HuggingFace DeepSeek-V3 config.json), megatron (Megatron-LM arguments), "
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

ModelConfig suggestion_config(const Suggestion& s) {
  ModelConfig m = to_model_config(s.solution.arch, s.tokens);
  m.name = fmt::format("moeplan-suggest-{:g}", s.budget.C.value());
  m.description = fmt::format(
      "moeplan suggest --flops {:g}: compute-optimal MoE of paper 002 Sec. 7", s.budget.C.value());
  m.source = "moeplan suggest (paper 002, arXiv:2603.21862)";
  return m;
}

int emit_config(const std::string& kind, const ModelConfig& m, const LawSet& laws,
                const std::string& output, Io& io) {
  std::string text;
  if (kind == "toml") {
    text = to_model_toml(m);
  } else if (kind == "hf-config") {
    text = to_hf_config_json(m);
  } else {  // "megatron"; CLI11 admitted nothing else
    text = to_megatron_args(m, megatron_hyper(laws, m));
  }
  return deliver(output, text, io);
}

}  // namespace moeplan::cli
