// A Megatron-LM launch script or arguments file, read for the settings the step and memory
// models use (include/moeplan/io/megatron_args.hpp). The flag names are Megatron's
// (megatron/training/arguments.py, core_v0.15.0), the same that --emit megatron writes.
#include "moeplan/io/megatron_args.hpp"

#include <algorithm>
#include <charconv>
#include <limits>

#include <fmt/format.h>

namespace moeplan {

namespace {

struct Word {
  std::string text;
  int line = 0;
};

/// Shell-like words: unquoted # starts a comment, backslash-newline joins lines, quotes group.
std::vector<Word> words_of(std::string_view text) {
  std::vector<Word> out;
  std::string word;
  bool in_word = false;
  int line = 1, word_line = 1;
  char quote = 0;
  const auto end_word = [&] {
    if (in_word) out.push_back({word, word_line});
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
    if (c == '#' && !in_word) {  // a comment to the end of the line
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      end_word();
      if (c == '\n') ++line;
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

struct Flag {
  std::string name;   ///< with its dashes
  std::optional<std::string> value;
  int line = 0;
};

std::vector<Flag> flags_of(const std::vector<Word>& words) {
  std::vector<Flag> out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i].text;
    if (w.rfind("--", 0) != 0 || w.size() == 2) continue;  // torchrun, the script, a stray value
    Flag f{w, std::nullopt, words[i].line};
    if (const std::size_t eq = w.find('='); eq != std::string::npos) {
      f.name = w.substr(0, eq);
      f.value = w.substr(eq + 1);
    } else if (i + 1 < words.size() && words[i + 1].text.rfind("--", 0) != 0) {
      f.value = words[++i].text;
    }
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace

std::expected<MegatronArgs, InputError> read_megatron_args(std::string_view text, const std::string& source) {
  const std::vector<Flag> flags = flags_of(words_of(text));
  MegatronArgs a;
  const auto error = [&](const Flag& f, std::string reason) {
    return std::unexpected(InputError{source, f.line, 0, f.name, std::move(reason)});
  };
  std::optional<InputError> failed;
  const auto positive = [&](const Flag& f) -> std::optional<int> {
    const std::string v = f.value.value_or("");
    int n = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (v.empty() || ec != std::errc() || end != v.data() + v.size() || n < 1) {
      if (!failed) {
        failed = InputError{source, f.line, 0, f.name,
                            v.empty() ? std::string("needs a positive integer value")
                                      : fmt::format("\"{}\" is not a positive integer{}", v,
                                                    v.find('$') != std::string::npos
                                                        ? " (shell variables are not expanded)"
                                                        : "")};
      }
      return std::nullopt;
    }
    return n;
  };
  std::optional<int> num_layers, layers_per_virtual_stage;
  const Flag* layers_per_virtual_flag = nullptr;
  for (const Flag& f : flags) {
    const std::string& n = f.name;
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
    } else if (n == "--global-batch-size") {
      if (const auto b = positive(f)) a.global_batch = *b;
    } else if (n == "--seq-length") {
      a.seq_length = positive(f);
    } else if (n == "--recompute-granularity") {
      if (f.value == "full") {
        a.layout.recompute = Recompute::full;
      } else if (f.value == "selective") {
        a.layout.recompute = Recompute::selective;
      } else {
        return error(f, fmt::format("\"{}\" is neither full nor selective", f.value.value_or("")));
      }
    } else if (n == "--recompute-activations") {  // Megatron: selective recompute
      if (f.value) return error(f, "is a switch and takes no value");
      a.layout.recompute = Recompute::selective;
    } else if (n == "--fp8-format") {
      if (f.value != "e4m3" && f.value != "hybrid") {
        return error(f, fmt::format("\"{}\" is neither e4m3 nor hybrid", f.value.value_or("")));
      }
      a.precision = Precision::fp8;
    } else if (n == "--moe-token-dispatcher-type") {
      if (f.value != "alltoall" && f.value != "allgather" && f.value != "flex") {
        return error(f, fmt::format("\"{}\" is none of alltoall, allgather, flex", f.value.value_or("")));
      }
      if (!a.deepep) a.deepep = false;  // unless --moe-enable-deepep says otherwise
    } else if (n == "--moe-enable-deepep") {
      if (f.value) return error(f, "is a switch and takes no value");
      a.deepep = true;
    } else if (n == "--bf16") {
      if (f.value) return error(f, "is a switch and takes no value");
      if (!a.precision) a.precision = Precision::bf16;  // --fp8-format runs on top of --bf16
    } else if (std::find(a.unused.begin(), a.unused.end(), n) == a.unused.end()) {
      a.unused.push_back(n);
    }
    if (failed) return std::unexpected(*failed);
  }
  if (layers_per_virtual_stage) {
    const Flag& f = *layers_per_virtual_flag;
    if (!num_layers || !a.layout.pp) {
      return error(f, "needs --num-layers and --pipeline-model-parallel-size in the same file to give VPP");
    }
    const long long per_rank = static_cast<long long>(*layers_per_virtual_stage) * *a.layout.pp;
    if (*num_layers % per_rank != 0) {
      return error(f, fmt::format("{} layers per virtual stage x PP {} does not divide --num-layers {}",
                                  *layers_per_virtual_stage, *a.layout.pp, *num_layers));
    }
    a.layout.vpp = static_cast<int>(*num_layers / per_rank);
  }
  return a;
}

}  // namespace moeplan
