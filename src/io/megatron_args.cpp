// A Megatron-LM launch script or arguments file, read for the settings the step and memory
// models use (include/moeplan/io/megatron_args.hpp). The flag names are Megatron's
// (megatron/training/arguments.py, core_v0.15.0), the same that --emit megatron writes.
#include "moeplan/io/megatron_args.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <map>

#include <fmt/format.h>

namespace moeplan {

namespace {

struct Word {
  std::string text;
  int line = 0;
  /// It begins a new command (an unescaped line end before it) or follows a group of words
  /// read from a variable: a switch before it does not take it as a value.
  bool starts_command = false;
};

/// Shell-like words: unquoted # starts a comment, backslash-newline joins lines, quotes group.
std::vector<Word> words_of(std::string_view text, int first_line = 1) {
  std::vector<Word> out;
  std::string word;
  bool in_word = false;
  int line = first_line, word_line = first_line;
  char quote = 0;
  bool new_command = false;  // an unescaped line end since the last word
  const auto end_word = [&] {
    if (in_word) out.push_back({word, word_line, new_command});
    if (in_word) new_command = false;
    word.clear();
    in_word = false;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote) {
      if (c == quote) {
        quote = 0;
      } else {
        if (c == '\n') ++line;
        word += c;
      }
      continue;
    }
    if (c == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {  // a continued line
      ++i;
      ++line;
      continue;
    }
    // A bash array on one line, A=(--tensor-model-parallel-size 2 ...): its parentheses part
    // the words as spaces do (A= stays an assignment, its elements are words of their own).
    if ((c == '(' && in_word && !word.empty() && word.back() == '=') || c == ')') {
      end_word();
      continue;
    }
    if (c == '#' && !in_word) {  // a comment to the end of the line
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      end_word();
      if (c == '\n') ++line, new_command = true;
      continue;
    }
    if (!in_word) word_line = line;
    in_word = true;
    if (c == '"' || c == '\'') {
      quote = c;
      continue;
    }
    word += c;
  }
  end_word();
  return out;
}

/// NAME=VALUE: a shell variable assignment (name and value), else nullopt.
std::optional<std::pair<std::string, std::string>> assignment(const std::string& w) {
  const std::size_t eq = w.find('=');
  if (eq == std::string::npos || eq == 0 || w.rfind("--", 0) == 0) return std::nullopt;
  for (std::size_t i = 0; i < eq; ++i) {
    const char c = w[i];
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_') || (i == 0 && std::isdigit(static_cast<unsigned char>(c)))) {
      return std::nullopt;
    }
  }
  return std::pair{w.substr(0, eq), w.substr(eq + 1)};
}

/// The words with what launch scripts keep in variables: a quoted value holding flags
/// (GPT_ARGS="--tensor-model-parallel-size 2 ...", the older Megatron examples' style) is split
/// into its words where it stands; NAME=VALUE assignments are kept in `vars` for $NAME.
std::vector<Word> expanded(const std::vector<Word>& words, std::map<std::string, std::string>& vars) {
  std::vector<Word> out;
  bool after_group = false;
  for (const Word& w : words) {
    const auto set = assignment(w.text);
    const std::string& value = set ? set->second : w.text;
    // A value holding flags: several words, or one flag alone (X="--recompute-activations").
    const bool flags_inside = value.find_first_of(" \t\n") != std::string::npos ? value.find("--") != std::string::npos
                                                                              : set && value.rfind("--", 0) == 0;
    if (flags_inside) {
      for (Word& inner : words_of(value, w.line)) out.push_back(std::move(inner));
      after_group = true;
      continue;
    }
    if (set) {
      vars[set->first] = set->second;
      continue;
    }
    out.push_back(w);
    out.back().starts_command = out.back().starts_command || after_group;
    after_group = false;
  }
  return out;
}

/// `$NAME` or `${NAME}` of a variable the file set, else the text as it is.
std::string substituted(const std::string& text, const std::map<std::string, std::string>& vars) {
  std::string name;
  if (text.size() > 3 && text.rfind("${", 0) == 0 && text.back() == '}') {
    name = text.substr(2, text.size() - 3);
  } else if (text.size() > 1 && text[0] == '$') {
    name = text.substr(1);
  }
  const auto it = vars.find(name);
  return name.empty() || it == vars.end() ? text : it->second;
}

struct Flag {
  std::string name;   ///< with its dashes
  std::optional<std::string> value;
  int line = 0;
};

std::vector<Flag> flags_of(const std::vector<Word>& words, const std::map<std::string, std::string>& vars) {
  std::vector<Flag> out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i].text;
    if (w.rfind("--", 0) != 0 || w.size() == 2) continue;  // torchrun, the script, a stray value
    Flag f{w, std::nullopt, words[i].line};
    if (const std::size_t eq = w.find('='); eq != std::string::npos) {
      f.name = w.substr(0, eq);
      f.value = w.substr(eq + 1);
    } else if (i + 1 < words.size() && words[i + 1].text.rfind("--", 0) != 0 && !words[i + 1].starts_command) {
      f.value = words[++i].text;
      // Megatron's list flags (nargs='*') take every word up to the next flag, space-joined.
      while (f.name == "--recompute-modules" && i + 1 < words.size() && words[i + 1].text.rfind("--", 0) != 0 &&
             !words[i + 1].starts_command) {
        *f.value += " " + words[++i].text;
      }
    }
    if (f.value) f.value = substituted(*f.value, vars);
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace

std::expected<int, std::string> virtual_stages(int num_layers, int pp, int layers_per_virtual_stage,
                                               std::string_view pp_from) {
  const long long per_rank = static_cast<long long>(layers_per_virtual_stage) * pp;
  if (per_rank <= 0 || num_layers % per_rank != 0) {
    return std::unexpected(fmt::format("{} layers per virtual stage x PP {}{} does not divide --num-layers {}",
                                       layers_per_virtual_stage, pp, pp_from, num_layers));
  }
  return static_cast<int>(num_layers / per_rank);
}

std::expected<MegatronArgs, InputError> read_megatron_args(std::string_view text, const std::string& source) {
  if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos) {
    const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n'));
    return std::unexpected(InputError{source, line, 0, "", "a NUL byte: not a launch script or arguments file"});
  }
  std::map<std::string, std::string> vars;
  const std::vector<Flag> flags = flags_of(expanded(words_of(text), vars), vars);
  MegatronArgs a;
  const auto error = [&](const Flag& f, std::string reason) {
    return std::unexpected(InputError{source, f.line, 0, f.name, std::move(reason)});
  };
  std::optional<InputError> failed;
  // The flag's value as a whole number, nullopt for anything else (empty, signs only, 2.0).
  const auto whole = [](const Flag& f) -> std::optional<int> {
    const std::string v = f.value.value_or("");
    int n = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (v.empty() || ec != std::errc() || end != v.data() + v.size()) return std::nullopt;
    return n;
  };
  const auto positive = [&](const Flag& f) -> std::optional<int> {
    const std::string v = f.value.value_or("");
    const std::optional<int> n = whole(f);
    if (!n || *n < 1) {
      if (!failed) {
        failed = InputError{source, f.line, 0, f.name,
                            v.empty() ? std::string("needs a positive integer value")
                                      : fmt::format("\"{}\" is not a positive integer{}", v,
                                                    v.find('$') != std::string::npos
                                                        ? " (a variable the file does not set: only NAME=VALUE lines of the file are expanded)"
                                                        : "")};
      }
      return std::nullopt;
    }
    return n;
  };
  std::optional<int> num_layers, layers_per_virtual_stage;
  bool fp32_gradients = false;  // --accumulate-allreduce-grads-in-fp32 seen (a flag moeplan reads)
  const Flag* layers_per_virtual_flag = nullptr;
  std::map<std::string, int> first_line;  // of each flag moeplan reads
  for (const Flag& f : flags) {
    const std::string& n = f.name;
    // The switches moeplan reads: a value after one is a slip, not a setting.
    static constexpr std::string_view k_switches[] = {
        "--moe-router-force-load-balancing", "--overlap-moe-expert-parallel-comm", "--recompute-activations",
        "--fp8-param-gather", "--grad-reduce-in-bf16", "--tp-comm-overlap", "--no-overlap-p2p-communication",
        "--accumulate-allreduce-grads-in-fp32", "--moe-enable-deepep", "--bf16", "--fp16"};
    if (f.value && std::find(std::begin(k_switches), std::end(k_switches), n) != std::end(k_switches)) {
      return error(f, "is a switch and takes no value");
    }
    if (n == "--tensor-model-parallel-size") {
      a.layout.tp = positive(f);
    } else if (n == "--pipeline-model-parallel-size") {
      a.layout.pp = positive(f);
    } else if (n == "--num-virtual-stages-per-pipeline-rank") {
      a.layout.vpp = positive(f);
    } else if (n == "--num-layers-per-virtual-pipeline-stage") {
      layers_per_virtual_stage = positive(f);
      layers_per_virtual_flag = &f;
    } else if (n == "--num-layers") {
      num_layers = positive(f);
    } else if (n == "--expert-model-parallel-size") {
      a.layout.ep = positive(f);
    } else if (n == "--expert-tensor-parallel-size") {
      a.layout.etp = positive(f);
    } else if (n == "--context-parallel-size") {
      a.layout.cp = positive(f);
    } else if (n == "--micro-batch-size") {
      a.layout.micro_batch = positive(f);
    } else if (n == "--decoder-first-pipeline-num-layers") {
      a.layout.first_stage_layers = positive(f);
    } else if (n == "--decoder-last-pipeline-num-layers") {
      a.layout.last_stage_layers = positive(f);
    } else if (n == "--global-batch-size") {
      if (const auto b = positive(f)) a.global_batch = *b;
    } else if (n == "--seq-length") {
      a.seq_length = positive(f);
    } else if (n == "--encoder-seq-length") {  // Megatron's other name for it
      if (const auto s = positive(f); s && !a.seq_length) a.seq_length = s;
    } else if (n == "--recompute-granularity") {
      if (f.value == "full") {
        a.layout.recompute = Recompute::full;
      } else if (f.value == "selective") {
        a.layout.recompute = Recompute::selective;
      } else {
        return error(f, fmt::format("\"{}\" is neither full nor selective", f.value.value_or("")));
      }
    } else if (n == "--recompute-modules") {  // Megatron: what selective recompute re-runs
      unsigned modules = 0;
      std::string value = f.value.value_or("");
      std::replace(value.begin(), value.end(), ',', ' ');
      for (const Word& w : words_of(value)) {
        if (w.text == "moe") {
          a.notes.push_back("--recompute-modules moe: not modelled (the whole MoE layer again, its all-to-all "
                            "included); timed without it");
        } else if (const std::optional<unsigned> bit = recompute_module_of(w.text)) {
          modules |= *bit;
        } else {
          return error(f, fmt::format("\"{}\" is none of Megatron's modules ({}, moe)", w.text, recompute_module_names()));
        }
      }
      // Megatron's list, as given: "moe" alone (or nothing) recomputes nothing moeplan models.
      a.layout.recompute_modules = modules;
    } else if (n == "--moe-router-force-load-balancing") {  // benchmarks: every expert gets its share
      a.force_load_balancing = true;
      a.notes.push_back("--moe-router-force-load-balancing: a forced-balance run, timed at a routing load of 1 "
                        "(--load-imbalance 1) unless the command line gives one");
    } else if (n == "--overlap-moe-expert-parallel-comm") {  // Megatron's Combined 1F1B
      a.notes.push_back("--overlap-moe-expert-parallel-comm: Megatron publishes no fraction of the all-to-all it "
                        "hides; the step time takes --a2a-overlap (default 0)");
    } else if (n == "--recompute-activations") {  // Megatron: selective recompute
      a.layout.recompute = Recompute::selective;
    } else if (n == "--fp8-format") {
      if (f.value != "e4m3" && f.value != "hybrid") {
        return error(f, fmt::format("\"{}\" is neither e4m3 nor hybrid", f.value.value_or("")));
      }
      a.precision = Precision::fp8;
    } else if (n == "--fp8-param-gather") {
      a.fp8_param_gather = true;
    } else if (n == "--grad-reduce-in-bf16") {
      a.grad_reduce_in_bf16 = true;
    } else if (n == "--tp-comm-overlap") {
      a.tp_comm_overlap = true;
    } else if (n == "--no-overlap-p2p-communication") {
      a.no_p2p_overlap = true;
    } else if (n == "--accumulate-allreduce-grads-in-fp32") {  // Megatron's default for bf16: fp32 gradients
      // Read, not applied: --grad-reduce-in-bf16 wins wherever it stands (Megatron's
      // arguments.py turns accumulate_allreduce_grads_in_fp32 off when it is given).
      fp32_gradients = true;
    } else if (n == "--mtp-num-layers") {
      const std::optional<int> k = whole(f);
      if (!k || *k < 0 || *k > 64) {
        return error(f, f.value.value_or("").empty()
                            ? std::string("needs a number of MTP modules (0-64)")
                            : fmt::format("\"{}\" is not a number of MTP modules (0-64)", *f.value));
      }
      a.mtp_layers = k;
    } else if (n == "--moe-token-dispatcher-type") {
      if (f.value != "alltoall" && f.value != "allgather" && f.value != "flex") {
        return error(f, fmt::format("\"{}\" is none of alltoall, allgather, flex", f.value.value_or("")));
      }
      if (!a.deepep) a.deepep = false;  // unless --moe-enable-deepep says otherwise
    } else if (n == "--moe-enable-deepep") {
      a.deepep = true;
    } else if (n == "--bf16" || n == "--fp16") {  // fp16 tensor cores run at the bf16 rates
      if (!a.precision) a.precision = Precision::bf16;  // --fp8-format runs on top of --bf16
      if (n == "--fp16") a.notes.push_back("--fp16: timed at the bf16 rates (same tensor-core peak)");
    } else {  // a flag moeplan does not use: listed once
      if (std::find(a.unused.begin(), a.unused.end(), n) == a.unused.end()) a.unused.push_back(n);
      continue;
    }
    if (failed) return std::unexpected(*failed);
    // A flag moeplan reads, given again: argparse keeps the last, and so does moeplan; said,
    // since a launch script that sets TP twice is more often a slip than a choice.
    const auto [first, fresh] = first_line.emplace(n, f.line);
    if (!fresh) {
      a.notes.push_back(fmt::format("{} given again on line {} (first on line {}): the last one is read, as "
                                    "Megatron's argparse does",
                                    n, f.line, first->second));
    }
  }
  if (layers_per_virtual_stage) {
    const Flag& f = *layers_per_virtual_flag;
    if (!num_layers || !a.layout.pp) {
      return error(f, "needs --num-layers and --pipeline-model-parallel-size in the same file to give VPP");
    }
    const auto vpp = virtual_stages(*num_layers, *a.layout.pp, *layers_per_virtual_stage);
    if (!vpp) return error(f, vpp.error());
    a.layout.vpp = *vpp;
    a.layers_per_virtual_stage = layers_per_virtual_stage;
    a.layers_per_virtual_stage_line = f.line;
  }
  // A script that sets PP and no VPP runs Megatron's non-interleaved schedule: VPP 1, not a
  // dimension left to the search (unless a custom --pipeline-model-parallel-layout, which
  // moeplan does not read, sets the virtual stages).
  const auto has = [&](std::string_view name) { return std::find(a.unused.begin(), a.unused.end(), name) != a.unused.end(); };
  a.custom_pipeline_layout = has("--pipeline-model-parallel-layout");
  if (a.layout.pp && !a.layout.vpp && !a.custom_pipeline_layout) a.layout.vpp = 1;
  a.sequence_parallel = has("--sequence-parallel");
  a.distributed_optimizer = has("--use-distributed-optimizer");
  a.num_layers = num_layers;
  if (!a.layout.any() && !a.precision && !a.global_batch && !a.seq_length && !a.deepep && !a.grad_reduce_in_bf16 &&
      !a.tp_comm_overlap && !a.no_p2p_overlap && !fp32_gradients && !a.mtp_layers && !a.force_load_balancing && !a.fp8_param_gather) {
    a.notes.push_back("no flag moeplan uses was found (a Megatron-LM launch script or arguments file?)");
  }
  return a;
}

}  // namespace moeplan
