// A Megatron-LM launch script or arguments file, read for the settings the step and memory
// models use (include/moeplan/io/megatron_args.hpp). The flag names are Megatron's
// (megatron/training/arguments.py, core_v0.15.0), the same that --emit megatron writes.
#include "moeplan/io/megatron_args.hpp"

#include "moeplan/base/number_parse.hpp"
#include "moeplan/base/shell_words.hpp"
#include "moeplan/base/utf8.hpp"
#include "moeplan/cluster/host_launches.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <map>
#include <span>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace moeplan {

namespace {

struct Word {
  std::string text;
  int line = 0;
  /// It begins a new command (an unescaped line end before it) or follows a group of words
  /// read from a variable: a switch before it does not take it as a value.
  bool starts_command = false;
};

/// The script's words in order, as the shell splits them (split_shell_commands: quotes,
/// comments, continuations, escapes; redirections dropped); each command's first word starts a
/// command. A bash array, A=(--tensor-model-parallel-size 2 ...), parts its words as the
/// shell's parentheses do. `unterminated`, when given, gets the line of a quote the text never
/// closes (0: none).
std::vector<Word> words_of(std::string_view text, int first_line = 1, int* unterminated = nullptr) {
  const ShellSplit split = split_shell_commands(text, first_line);
  std::vector<Word> out;
  for (const ShellCommand& command : split.commands) {
    for (std::size_t i = 0; i < command.size(); ++i) out.push_back({command[i].text, command[i].line, i == 0});
  }
  if (unterminated != nullptr) *unterminated = split.unterminated_quote_line;
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
      while ((f.name == "--recompute-modules" || f.name == "--cuda-graph-scope" || f.name == "--cuda-graph-modules" ||
              f.name == "--rampup-batch-size") &&
             i + 1 < words.size() && words[i + 1].text.rfind("--", 0) != 0 &&
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

namespace {

/// The model-size flags (Megatron-LM megatron/training/arguments.py, core_v0.15.0:
/// _add_network_size_args and _add_moe_args), read for megatron_model_mismatch.
constexpr std::string_view k_model_flags[] = {
    "--num-layers",  "--hidden-size", "--ffn-hidden-size",  "--num-attention-heads",   "--num-query-groups",
    "--kv-channels", "--num-experts", "--moe-router-topk", "--moe-ffn-hidden-size", "--moe-shared-expert-intermediate-size"};

/// The switches moeplan reads: a value after one is a slip, not a setting.
constexpr std::string_view k_switches[] = {
    "--moe-router-force-load-balancing", "--overlap-moe-expert-parallel-comm", "--recompute-activations",
    "--fp8-param-gather", "--grad-reduce-in-bf16", "--tp-comm-overlap", "--no-overlap-p2p-communication",
    "--accumulate-allreduce-grads-in-fp32", "--moe-enable-deepep", "--bf16", "--fp16",
    "--account-for-embedding-in-pipeline-split", "--account-for-loss-in-pipeline-split",
    "--use-precision-aware-optimizer", "--enable-cuda-graph", "--external-cuda-graph", "--overlap-grad-reduce",
    "--overlap-param-gather", "--attention-output-gate", "--use-megatron-fsdp"};

/// How many lines of a repeated flag its note names before "...".
constexpr std::size_t k_repeat_lines_named = 3;

bool one_of(std::string_view name, std::span<const std::string_view> names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// The 1-based line of byte `at`.
int line_of(std::string_view text, std::size_t at) {
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

/// The offset of the first byte that does not begin a well-formed UTF-8 sequence
/// (utf8_sequence_length), npos when there is none.
std::size_t invalid_utf8_at(std::string_view t) {
  for (std::size_t i = 0; i < t.size();) {
    const std::size_t n = utf8_sequence_length(t, i);
    if (n == 0) return i;
    i += n;
  }
  return std::string_view::npos;
}

/// Why `text` is not a text file (a NUL byte, a byte that is not UTF-8), naming its line.
std::optional<InputError> not_text(std::string_view text, const std::string& source) {
  if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos) {
    return InputError{source, line_of(text, nul), 0, "",
                      fmt::format("not a text file: a NUL byte at offset {} (a launch script or arguments file "
                                  "is text)", nul)};
  }
  if (const std::size_t bad = invalid_utf8_at(text); bad != std::string_view::npos) {
    return InputError{source, line_of(text, bad), 0, "",
                      fmt::format("not a text file: byte 0x{:02x} at offset {} is not UTF-8 (a launch script or "
                                  "arguments file is text)",
                                  static_cast<unsigned char>(text[bad]), bad)};
  }
  return std::nullopt;
}

/// A flag moeplan reads, and where it was given: one note per repeated flag.
struct Seen {
  std::string name;
  long long count = 0;
  std::vector<int> lines;  ///< the first k_repeat_lines_named
  int last_line = 0;
};

std::string repeat_note(const Seen& s) {
  std::string lines = fmt::format("{}", fmt::join(s.lines, ", "));
  if (s.count == 2) lines = fmt::format("{} and {}", s.lines[0], s.last_line);
  if (s.count > static_cast<long long>(k_repeat_lines_named)) lines += fmt::format(", ..., {}", s.last_line);
  return fmt::format("{} given {} times (lines {}): the last one is read, as Megatron's argparse does", s.name,
                     s.count, lines);
}

/// The flags of one file, read once in order: each flag moeplan uses sets its field (the last
/// one given wins), the others are listed once. Hash sets keep it linear in the flags.
class ArgsReader {
 public:
  explicit ArgsReader(const std::string& source) : source_(source) {}
  std::expected<MegatronArgs, InputError> read(const std::vector<Flag>& flags);

 private:
  // Each returns whether the flag is one of its kind; a bad value sets failed_.
  bool read_number(const Flag& f);
  bool read_choice(const Flag& f);
  bool read_switch(const Flag& f);
  bool read_model_flag(const Flag& f);
  std::optional<int> positive(const Flag& f);
  std::optional<long long> count(const Flag& f, long long least);
  bool read_run_length(const Flag& f);
  void read_rampup(const Flag& f);
  std::optional<InputError> check_run_length();
  std::optional<InputError> check_recompute_method();
  void fail(const Flag& f, std::string reason) {
    if (!failed_) failed_ = InputError{source_, f.line, 0, f.name, std::move(reason)};
  }
  void note_once(std::string note) {
    if (notes_given_.insert(note).second) a_.notes.push_back(std::move(note));
  }
  void saw(const Flag& f);
  std::optional<InputError> finish();
  std::optional<InputError> read_dispatcher();
  void read_dispatcher_sms(const Flag& f);
  std::optional<InputError> resolve_dispatcher_sms();

  const std::string& source_;
  MegatronArgs a_;
  std::optional<InputError> failed_;
  std::optional<int> num_layers_, layers_per_virtual_stage_;
  const Flag* layers_per_virtual_flag_ = nullptr;
  // --moe-token-dispatcher-type, --moe-flex-dispatcher-backend, --moe-enable-deepep as seen.
  std::optional<Flag> dispatcher_type_, flex_backend_, enable_deepep_;
  bool fp32_gradients_ = false;  // --accumulate-allreduce-grads-in-fp32 seen (a flag moeplan reads)
  bool precision_aware_optimizer_ = false;         // --use-precision-aware-optimizer
  std::optional<Flag> overlap_param_gather_;       // --overlap-param-gather, checked with its prerequisites
  std::optional<Flag> train_samples_, train_iters_;  // checked together (check_run_length)
  std::optional<Flag> recompute_method_, recompute_num_layers_;  // full recompute's method (check_recompute_method)
  std::string exp_avg_dtype_, exp_avg_sq_dtype_;  // --exp-avg-dtype, --exp-avg-sq-dtype (Megatron's default fp32)
  // --moe-flex-dispatcher-num-sms and its deprecated --moe-deepep-num-sms, --moe-hybridep-num-sms.
  std::optional<Flag> sms_flags_[3];
  std::unordered_set<std::string> notes_given_, unused_given_;
  std::unordered_map<std::string, std::size_t> seen_at_, model_at_;  // into seen_, a_.model_flags
  std::vector<Seen> seen_;
};

/// A number as Python's int() and float() read argparse's text (PEP 515): a leading '+' and
/// underscores between two digits are dropped ("+1e-6", "1_000_000"); anything else is kept,
/// for the strict parse after it to refuse.
std::string python_number(std::string_view text) {
  std::string out;
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool between_digits = text[i] == '_' && i > 0 && i + 1 < text.size() &&
                                std::isdigit(static_cast<unsigned char>(text[i - 1])) != 0 &&
                                std::isdigit(static_cast<unsigned char>(text[i + 1])) != 0;
    if (!between_digits) out += text[i];
  }
  return out;
}

/// The flag's value as a whole number, nullopt for anything else (empty, signs only, 2.0).
std::optional<int> whole(const Flag& f) {
  const std::string v = python_number(f.value.value_or(""));
  int n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (v.empty() || ec != std::errc() || end != v.data() + v.size()) return std::nullopt;
  return n;
}

std::optional<int> ArgsReader::positive(const Flag& f) {
  const std::string v = f.value.value_or("");
  const std::optional<int> n = whole(f);
  if (n && *n >= 1) return n;
  fail(f, v.empty() ? std::string("needs a positive integer value")
                    : fmt::format("\"{}\" is not a positive integer{}", v,
                                  v.find('$') != std::string::npos
                                      ? " (a variable the file does not set: only NAME=VALUE lines of the file are expanded)"
                                      : ""));
  return std::nullopt;
}

/// `v` as a whole number from `least` to 2^53 (steps, samples), nullopt otherwise.
std::optional<long long> count_of(std::string_view text, long long least) {
  const std::string v = python_number(text);
  long long n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (!v.empty() && ec == std::errc() && end == v.data() + v.size() && n >= least && n <= (1LL << 53)) return n;
  return std::nullopt;
}

/// The flag's value as count_of reads it; a bad one sets failed_. `least` is 0 or 1.
std::optional<long long> ArgsReader::count(const Flag& f, long long least) {
  const std::string v = f.value.value_or("");
  const std::optional<long long> n = count_of(v, least);
  if (!n) {
    fail(f, fmt::format("\"{}\" is not a whole number from {} to 2^53{}", v, least,
                        v.find('$') != std::string::npos
                            ? " (a variable the file does not set: only NAME=VALUE lines of the file are expanded)"
                            : ""));
  }
  return n;
}

bool ArgsReader::read_number(const Flag& f) {
  const std::string& n = f.name;
  GivenLayout& g = a_.layout;
  for (const MegatronLayoutFlag& d : megatron_layout_flags()) {
    if (n != d.megatron) continue;
    g.*d.value = positive(f);
    return true;
  }
  const std::pair<std::string_view, std::optional<int>*> slots[] = {
      {"--num-layers-per-virtual-pipeline-stage", &layers_per_virtual_stage_},
      {"--seq-length", &a_.seq_length}};
  for (const auto& [name, slot] : slots) {
    if (n != name) continue;
    *slot = positive(f);
    if (slot == &layers_per_virtual_stage_) layers_per_virtual_flag_ = &f;
    return true;
  }
  if (n == "--global-batch-size") {
    if (const auto b = positive(f)) a_.global_batch = *b;
  } else if (n == "--recompute-num-layers") {
    recompute_num_layers_ = f;
    positive(f);
  } else if (n == "--encoder-seq-length") {  // Megatron's other name for --seq-length
    if (const auto s = positive(f); s && !a_.seq_length) a_.seq_length = s;
  } else if (n == "--mtp-num-layers") {
    const std::optional<int> k = whole(f);
    if (!k || *k < 0 || *k > 64) {
      fail(f, f.value.value_or("").empty() ? std::string("needs a number of MTP modules (0-64)")
                                           : fmt::format("\"{}\" is not a number of MTP modules (0-64)", *f.value));
    }
    a_.mtp_layers = k;
  } else if (n == "--rotary-percent") {  // arguments.py: type=float, default 1.0; compared with the model
    const auto x = parse_positive_finite(python_number(f.value.value_or("")));
    if (!x || *x > 1) {
      fail(f, fmt::format("\"{}\" is not a fraction in (0, 1] of each head's dimensions", f.value.value_or("")));
    }
    a_.rotary_percent = x.value_or(0);
    a_.rotary_percent_line = f.line;
  } else if (n == "--rotary-base") {  // arguments.py: type=int, default 10000; compared with the model
    a_.rotary_base = count(f, 1);
    a_.rotary_base_line = f.line;
  } else if (n == "--norm-epsilon") {  // TransformerConfig.layernorm_epsilon: float, default 1e-5
    const auto x = parse_positive_finite(python_number(f.value.value_or("")));
    if (!x || *x >= 1) fail(f, fmt::format("\"{}\" is not an epsilon in (0, 1)", f.value.value_or("")));
    a_.norm_epsilon = x.value_or(0);
    a_.norm_epsilon_line = f.line;
  } else {
    return false;
  }
  return true;
}

bool ArgsReader::read_choice(const Flag& f) {
  const std::string& n = f.name;
  const std::string v = f.value.value_or("");
  if (n == "--recompute-granularity") {
    if (v == "full") {
      a_.layout.recompute = Recompute::full;
    } else if (v == "selective") {
      a_.layout.recompute = Recompute::selective;
    } else {
      fail(f, fmt::format("\"{}\" is neither full nor selective", v));
    }
  } else if (n == "--recompute-method") {  // with full granularity: uniform or block (arguments.py)
    if (v != "uniform" && v != "block") fail(f, fmt::format("\"{}\" is neither uniform nor block", v));
    recompute_method_ = f;
  } else if (n == "--recompute-modules") {  // Megatron: what selective recompute re-runs
    unsigned modules = 0;
    std::string list = v;
    std::replace(list.begin(), list.end(), ',', ' ');
    for (const Word& w : words_of(list)) {
      if (w.text == "moe") {
        note_once("--recompute-modules moe: not modelled (the whole MoE layer again, its all-to-all included); "
                  "timed without it");
      } else if (const std::optional<unsigned> bit = recompute_module_of(w.text)) {
        modules |= *bit;
      } else {
        fail(f, fmt::format("\"{}\" is none of Megatron's modules ({}, moe)", w.text, recompute_module_names()));
      }
    }
    // Megatron's list, as given: "moe" alone (or nothing) recomputes nothing moeplan models.
    a_.layout.recompute_modules = modules;
  } else if (n == "--cuda-graph-impl") {  // Megatron-Core 0.20: none, local, transformer_engine, full_iteration
    if (!parse_cuda_graph_impl(v)) fail(f, fmt::format("\"{}\" is none of {}", v, fmt::join(cuda_graph_impl_names(), ", ")));
    a_.cuda_graph_impl = v;
  } else if (n == "--cuda-graph-scope" || n == "--cuda-graph-modules") {  // nargs='+', checked with the flags
    // Megatron-Core 0.20's new name and its old one, refused together (arguments.py: "--cuda-graph-scope
    // and --cuda-graph-modules cannot be used together").
    const std::string other = n == "--cuda-graph-scope" ? "--cuda-graph-modules" : "--cuda-graph-scope";
    if (const auto at = seen_at_.find(other); at != seen_at_.end()) {
      fail(f, fmt::format("given with {} (line {}): one setting under two names, which Megatron-Core 0.20 refuses "
                          "together",
                          other, seen_[at->second].last_line));
      return true;
    }
    std::string list = v;
    std::replace(list.begin(), list.end(), ',', ' ');
    a_.cuda_graph_scope.clear();
    for (const Word& w : words_of(list)) {
      if (!parse_cuda_graph_module(w.text)) {
        fail(f, fmt::format("\"{}\" is none of attn, mlp, moe, moe_router, moe_preprocess, full, full_iteration", w.text));
      }
      a_.cuda_graph_scope.push_back(w.text);
    }
  } else if (n == "--fp8-format") {
    if (v != "e4m3" && v != "hybrid") fail(f, fmt::format("\"{}\" is neither e4m3 nor hybrid", v));
    a_.precision = Precision::fp8;
  } else if (n == "--data-parallel-sharding-strategy") {  // Megatron's choices (arguments.py)
    if (v != "no_shard" && v != "optim" && v != "optim_grads" && v != "optim_grads_params") {
      fail(f, fmt::format("\"{}\" is none of no_shard, optim, optim_grads, optim_grads_params", v));
    }
    a_.dp_sharding = v;
    a_.dp_sharding_line = f.line;
  } else if (n == "--exp-avg-dtype" || n == "--exp-avg-sq-dtype") {  // Megatron: fp32, fp16, bf16, fp8
    if (v != "fp32" && v != "fp16" && v != "bf16" && v != "fp8") fail(f, fmt::format("\"{}\" is none of fp32, fp16, bf16, fp8", v));
    (n == "--exp-avg-dtype" ? exp_avg_dtype_ : exp_avg_sq_dtype_) = v;
  } else if (n == "--pipeline-model-parallel-layout") {  // Megatron's grammar, checked against the model later
    if (v.empty()) fail(f, "an empty layout");
    a_.layout.pipeline_layout = v;
  } else if (n == "--moe-token-dispatcher-type") {
    if (v != "alltoall" && v != "allgather" && v != "flex") {
      fail(f, fmt::format("\"{}\" is none of alltoall, allgather, flex", v));
    }
    dispatcher_type_ = f;  // DeepEP or not is decided with the backend flags, in finish()
  } else if (n == "--moe-flex-dispatcher-backend") {  // Megatron-Core 0.20: deepep, hybridep, ncclep
    if (v != "deepep" && v != "hybridep" && v != "ncclep") {
      fail(f, fmt::format("\"{}\" is none of deepep, hybridep, ncclep", v));
    }
    flex_backend_ = f;
  } else if (n == "--moe-flex-dispatcher-num-sms" || n == "--moe-deepep-num-sms" || n == "--moe-hybridep-num-sms") {
    read_dispatcher_sms(f);
  } else {
    return false;
  }
  return true;
}

bool ArgsReader::read_switch(const Flag& f) {
  const std::string& n = f.name;
  if (!one_of(n, k_switches)) return false;
  if (f.value) {
    fail(f, "is a switch and takes no value");
  } else if (n == "--moe-router-force-load-balancing") {  // benchmarks: every expert gets its share
    a_.force_load_balancing = true;
    note_once("--moe-router-force-load-balancing: a forced-balance run, timed at a routing load of 1 "
              "(--load-imbalance 1) unless the command line gives one");
  } else if (n == "--overlap-moe-expert-parallel-comm") {  // Megatron's Combined 1F1B
    note_once("--overlap-moe-expert-parallel-comm: Megatron publishes no fraction of the all-to-all it "
              "hides; the step time takes --a2a-overlap (default 0)");
  } else if (n == "--recompute-activations") {  // Megatron: selective recompute
    a_.layout.recompute = Recompute::selective;
  } else if (n == "--fp8-param-gather") {
    a_.fp8_param_gather = true;
  } else if (n == "--grad-reduce-in-bf16") {
    a_.grad_reduce_in_bf16 = true;
  } else if (n == "--tp-comm-overlap") {
    a_.tp_comm_overlap = true;
  } else if (n == "--overlap-grad-reduce") {
    a_.overlap_grad_reduce = true;
  } else if (n == "--overlap-param-gather") {
    a_.overlap_param_gather = true;
    overlap_param_gather_ = f;
  } else if (n == "--enable-cuda-graph") {  // deprecated: --cuda-graph-impl local (arguments.py)
    if (!a_.cuda_graph_impl) a_.cuda_graph_impl = "local";
  } else if (n == "--external-cuda-graph") {  // deprecated: --cuda-graph-impl transformer_engine
    if (!a_.cuda_graph_impl) a_.cuda_graph_impl = "transformer_engine";
  } else if (n == "--no-overlap-p2p-communication") {
    a_.no_p2p_overlap = true;
  } else if (n == "--accumulate-allreduce-grads-in-fp32") {  // Megatron's default for bf16: fp32 gradients
    // Read, not applied: --grad-reduce-in-bf16 wins wherever it stands (Megatron's
    // arguments.py turns accumulate_allreduce_grads_in_fp32 off when it is given).
    fp32_gradients_ = true;
  } else if (n == "--moe-enable-deepep") {  // deprecated in Megatron-Core 0.20 for --moe-flex-dispatcher-backend deepep
    enable_deepep_ = f;
  } else if (n == "--use-precision-aware-optimizer") {
    precision_aware_optimizer_ = true;
  } else if (n == "--use-megatron-fsdp") {
    a_.use_megatron_fsdp = true;
  } else if (n == "--account-for-embedding-in-pipeline-split") {
    a_.layout.embedding_in_split = true;
  } else if (n == "--account-for-loss-in-pipeline-split") {
    a_.layout.loss_in_split = true;
  } else if (n == "--attention-output-gate") {  // compared with the model's gated attention
    a_.attention_output_gate_line = f.line;
  } else {  // --bf16, --fp16: fp16 tensor cores run at the bf16 rates
    if (!a_.precision) a_.precision = Precision::bf16;  // --fp8-format runs on top of --bf16
    if (n == "--fp16") note_once("--fp16: timed at the bf16 rates (same tensor-core peak)");
  }
  return true;
}

bool ArgsReader::read_model_flag(const Flag& f) {
  if (!one_of(f.name, k_model_flags)) return false;
  const std::optional<int> v = positive(f);
  if (!v) return true;
  if (f.name == "--num-layers") num_layers_ = v;
  const auto [at, fresh] = model_at_.emplace(f.name, a_.model_flags.size());
  if (fresh) a_.model_flags.push_back({f.name, *v, f.line});
  a_.model_flags[at->second].value = *v;  // argparse keeps the last
  a_.model_flags[at->second].line = f.line;
  return true;
}

void ArgsReader::saw(const Flag& f) {
  const auto [at, fresh] = seen_at_.emplace(f.name, seen_.size());
  if (fresh) seen_.push_back({f.name, 0, {}, 0});
  Seen& s = seen_[at->second];
  ++s.count;
  if (s.lines.size() < k_repeat_lines_named) s.lines.push_back(f.line);
  s.last_line = f.line;
}

// The whole-training flags: the run's length, its batch ramp, checkpoints and evaluations.
bool ArgsReader::read_run_length(const Flag& f) {
  const std::string& n = f.name;
  if (n == "--train-samples" || n == "--train-iters") {
    (n == "--train-samples" ? a_.train_samples : a_.train_iters) = count(f, 1);
    (n == "--train-samples" ? train_samples_ : train_iters_) = f;
    a_.train_length_line = f.line;
  } else if (n == "--save-interval") {
    a_.save_interval = count(f, 1);
  } else if (n == "--eval-interval") {
    a_.eval_interval = count(f, 1);
  } else if (n == "--eval-iters") {  // 0: Megatron-LM evaluates nothing
    a_.eval_iters = count(f, 0);
  } else if (n == "--rampup-batch-size") {
    read_rampup(f);
  } else if (n == "--async-save") {
    if (f.value) fail(f, "is a switch and takes no value");
    a_.async_save = true;
  } else {
    return false;
  }
  return true;
}

// --rampup-batch-size START INCREMENT SAMPLES (nargs='*' in arguments.py; three values).
void ArgsReader::read_rampup(const Flag& f) {
  const std::vector<Word> words = words_of(f.value.value_or(""));
  std::vector<long long> v;
  for (const Word& w : words) {
    const std::optional<long long> x = count_of(w.text, 1);
    if (!x) break;
    v.push_back(*x);
  }
  if (v.size() != 3 || words.size() != 3) {
    fail(f, fmt::format("\"{}\" is not three positive whole numbers: START INCREMENT SAMPLES",
                        f.value.value_or("")));
    return;
  }
  a_.rampup = MegatronArgs::Rampup{v[0], v[1], v[2], f.line};
}

// Megatron-LM's rules (arguments.py, num_microbatches_calculator.py): one run length; no
// ramp with iteration-based training; a ramp that starts below the batch and reaches it in
// whole increments.
std::optional<InputError> ArgsReader::check_run_length() {
  if (train_samples_ && train_iters_) {
    return InputError{source_, train_iters_->line, 0, train_iters_->name,
                      fmt::format("given with --train-samples (line {}): Megatron-LM trains by samples or by "
                                  "iterations (arguments.py: \"expected sample-based training\")",
                                  train_samples_->line)};
  }
  if (!a_.rampup) return std::nullopt;
  const MegatronArgs::Rampup& r = *a_.rampup;
  if (train_iters_) {
    return InputError{source_, r.line, 0, "--rampup-batch-size",
                      fmt::format("with --train-iters (line {}): Megatron-LM ramps the batch only in sample-based "
                                  "training (arguments.py: \"expected no batch-size rampup for iteration-based "
                                  "training\")",
                                  train_iters_->line)};
  }
  if (a_.global_batch && (r.start >= *a_.global_batch || (*a_.global_batch - r.start) % r.increment != 0)) {
    return InputError{source_, r.line, 0, "--rampup-batch-size",
                      fmt::format("from {} by {} does not reach --global-batch-size {} (Megatron-LM needs START "
                                  "below it and the difference a multiple of INCREMENT)",
                                  r.start, r.increment, *a_.global_batch)};
  }
  return std::nullopt;
}

// Full recompute as Megatron-LM's TransformerConfig runs it: "uniform" recomputes every layer
// (checkpointing groups of --recompute-num-layers), which is what moeplan's full recompute
// counts; "block" recomputes the first --recompute-num-layers layers of each (virtual) stage
// and stores the rest, which moeplan does not model unless that is every layer of a stage.
std::optional<InputError> ArgsReader::check_recompute_method() {
  if (!recompute_method_ || recompute_method_->value.value_or("") != "block") return std::nullopt;
  if (a_.layout.recompute && *a_.layout.recompute != Recompute::full) return std::nullopt;  // read only with full
  const long long n = recompute_num_layers_ ? whole(*recompute_num_layers_).value_or(1) : 1;  // Megatron's default 1
  const int stages = a_.layout.pp.value_or(1) * a_.layout.vpp.value_or(1);
  if (num_layers_ && n * stages >= *num_layers_) {
    note_once(fmt::format("--recompute-method block with --recompute-num-layers {}: every layer of a stage ({} "
                          "layers over {} stages): timed as full recompute",
                          n, *num_layers_, stages));
    return std::nullopt;
  }
  return InputError{source_, recompute_method_->line, 0, recompute_method_->name,
                    fmt::format("block with --recompute-num-layers {}: recomputing some layers of each stage and "
                                "storing the rest is not modelled{}; give --recompute-method uniform (every layer "
                                "recomputed) or --recompute-granularity selective",
                                n, num_layers_ ? "" : " (and the file gives no --num-layers to tell the stage's)")};
}

std::expected<MegatronArgs, InputError> ArgsReader::read(const std::vector<Flag>& flags) {
  for (const Flag& f : flags) {
    const bool read =
        read_switch(f) || read_number(f) || read_choice(f) || read_model_flag(f) || read_run_length(f);
    if (failed_) return std::unexpected(*failed_);
    if (!read) {  // a flag moeplan does not use: listed once
      if (unused_given_.insert(f.name).second) a_.unused.push_back(f.name);
      continue;
    }
    saw(f);
  }
  if (const auto e = finish()) return std::unexpected(*e);
  return std::move(a_);
}

// DeepEP, as Megatron-Core 0.20 decides it (transformer_config.py, token_dispatcher.py): the flex
// dispatcher with its backend, deepep by default; --moe-enable-deepep (deprecated) is the deepep
// backend and needs the flex dispatcher ("DeepEP backend is only supported with flex token
// dispatcher") and no other backend ("Only one backend is supported"); a backend given to
// another dispatcher is not used. Nothing said about the dispatcher: nullopt (the command line's
// --a2a-dispatcher or moeplan's default decides).
std::optional<InputError> ArgsReader::read_dispatcher() {
  if (!dispatcher_type_ && !flex_backend_ && !enable_deepep_) return std::nullopt;
  const std::string type = dispatcher_type_ ? dispatcher_type_->value.value_or("") : "allgather";  // Megatron's default
  const std::string backend = flex_backend_ ? flex_backend_->value.value_or("") : "deepep";
  if (enable_deepep_ && flex_backend_ && backend != "deepep") {
    return InputError{source_, flex_backend_->line, 0, flex_backend_->name,
                      fmt::format("{} with --moe-enable-deepep (line {}): Megatron-Core allows one backend", backend,
                                  enable_deepep_->line)};
  }
  if (enable_deepep_ && type != "flex") {
    return InputError{source_, enable_deepep_->line, 0, enable_deepep_->name,
                      fmt::format("needs --moe-token-dispatcher-type flex (the dispatcher is {}): Megatron-Core runs "
                                  "DeepEP only in the flex dispatcher",
                                  type)};
  }
  if (type != "flex") {
    if (flex_backend_) note_once(fmt::format("--moe-flex-dispatcher-backend {}: not used by the {} dispatcher", backend, type));
    a_.deepep = false;
    return std::nullopt;
  }
  a_.deepep = enable_deepep_ || backend == "deepep";
  if (!*a_.deepep) {
    note_once(fmt::format("--moe-flex-dispatcher-backend {}: not modelled; timed as the NCCL all-to-all "
                          "(--a2a-dispatcher alltoall) unless the command line gives one",
                          backend));
  }
  return std::nullopt;
}

// The SMs of the flex dispatcher's kernels, one number an SM count DeepEP takes: whole, even
// (deep_ep Buffer.set_num_sms asserts it), 2-1024.
void ArgsReader::read_dispatcher_sms(const Flag& f) {
  const std::optional<int> k = whole(f);
  if (!k || *k < 2 || *k > 1024 || *k % 2 != 0) {
    fail(f, fmt::format("\"{}\" is not an SM count DeepEP takes (even, 2-1024)", f.value.value_or("")));
    return;
  }
  const int slot = f.name == "--moe-flex-dispatcher-num-sms" ? 0 : f.name == "--moe-deepep-num-sms" ? 1 : 2;
  sms_flags_[slot] = f;  // the last of a name given is read, as Megatron's argparse does
}

// Megatron-Core 0.20's TransformerConfig.__post_init__: moe_flex_dispatcher_num_sms wins; else
// the deprecated moe_deepep_num_sms / moe_hybridep_num_sms, which must then agree ("Conflicting
// deprecated SM-count knobs"), whatever the backend.
std::optional<InputError> ArgsReader::resolve_dispatcher_sms() {
  const auto& [named, deepep, hybridep] = sms_flags_;
  if (named) {
    a_.dispatcher_num_sms = whole(*named);
  } else if (deepep && hybridep && whole(*deepep) != whole(*hybridep)) {
    return InputError{source_, hybridep->line, 0, hybridep->name,
                      fmt::format("is {} where --moe-deepep-num-sms (line {}) is {}: Megatron-Core refuses conflicting "
                                  "deprecated SM counts; give --moe-flex-dispatcher-num-sms", *hybridep->value,
                                  deepep->line, *deepep->value)};
  } else if (deepep || hybridep) {
    a_.dispatcher_num_sms = whole(deepep ? *deepep : *hybridep);
  }
  return std::nullopt;
}

std::optional<InputError> ArgsReader::finish() {
  if (const auto e = read_dispatcher()) return e;
  if (const auto e = check_run_length()) return e;
  if (const auto e = resolve_dispatcher_sms()) return e;
  if (layers_per_virtual_stage_) {
    const Flag& f = *layers_per_virtual_flag_;
    if (!num_layers_ || !a_.layout.pp) {
      return InputError{source_, f.line, 0, f.name,
                        "needs --num-layers and --pipeline-model-parallel-size in the same file to give VPP"};
    }
    // Megatron's arguments.py counts the embedding and the loss as layers here when the
    // account-for flags are given (they may stand anywhere in the file).
    const int counted = *num_layers_ + (a_.layout.embedding_in_split ? 1 : 0) + (a_.layout.loss_in_split ? 1 : 0);
    const auto vpp = virtual_stages(counted, *a_.layout.pp, *layers_per_virtual_stage_);
    if (!vpp) return InputError{source_, f.line, 0, f.name, vpp.error()};
    a_.layout.vpp = *vpp;
    a_.layers_per_virtual_stage = layers_per_virtual_stage_;
    a_.layers_per_virtual_stage_line = f.line;
  }
  // A script that sets PP and no VPP runs Megatron's non-interleaved schedule: VPP 1, not a
  // dimension left to the search (unless a --pipeline-model-parallel-layout sets the virtual
  // stages: the layout's own VPP, parse_pipeline_layout).
  const auto has = [&](const char* name) { return unused_given_.contains(name); };
  a_.custom_pipeline_layout = !a_.layout.pipeline_layout.empty();
  if (a_.layout.pp && !a_.layout.vpp && !a_.custom_pipeline_layout) a_.layout.vpp = 1;
  if (const auto e = check_recompute_method()) return e;
  a_.sequence_parallel = has("--sequence-parallel");
  a_.distributed_optimizer = has("--use-distributed-optimizer");
  // Megatron-LM's arguments.py refuses the parameter all-gather's overlap without the
  // distributed optimizer ("--overlap-param-gather only supported with distributed optimizer")
  // or without the gradient reduction's ("Must use --overlap-param-gather with --overlap-grad-reduce").
  if (overlap_param_gather_ && (!a_.distributed_optimizer || !a_.overlap_grad_reduce)) {
    return InputError{source_, overlap_param_gather_->line, 0, overlap_param_gather_->name,
                      !a_.distributed_optimizer
                          ? std::string("needs --use-distributed-optimizer, as Megatron-LM's arguments.py asserts")
                          : std::string("needs --overlap-grad-reduce (Megatron-LM's arguments.py: \"Must use "
                                        "--overlap-param-gather with --overlap-grad-reduce\")")};
  }
  // Read by their presence (the notes on SP and the distributed optimizer): not unused.
  std::erase_if(a_.unused, [](const std::string& n) { return n == "--sequence-parallel" || n == "--use-distributed-optimizer"; });
  a_.group_query_attention = has("--group-query-attention");
  a_.multi_latent_attention = has("--multi-latent-attention");
  a_.num_layers = num_layers_;
  // Adam's moments: Megatron keeps them in --exp-avg(-sq)-dtype only with the precision-aware
  // optimizer (arguments.py refuses other dtypes without it); moeplan models both in bf16.
  if (!exp_avg_dtype_.empty() || !exp_avg_sq_dtype_.empty()) {
    const std::string m = exp_avg_dtype_.empty() ? "fp32" : exp_avg_dtype_;
    const std::string v = exp_avg_sq_dtype_.empty() ? "fp32" : exp_avg_sq_dtype_;
    if (precision_aware_optimizer_ && m == "bf16" && v == "bf16") {
      a_.bf16_moments = true;
    } else if (!(m == "fp32" && v == "fp32")) {
      note_once(fmt::format("--exp-avg-dtype {} --exp-avg-sq-dtype {}{}: moeplan models Adam's moments in fp32 or "
                            "both in bf16; counted in fp32",
                            m, v, precision_aware_optimizer_ ? "" : " without --use-precision-aware-optimizer"));
    }
  }
  // Megatron-LM reads --num-query-groups only with --group-query-attention (arguments.py,
  // core_v0.15.0: num_query_groups is None without it, and TransformerConfig then builds one
  // group per head).
  if (model_at_.contains("--num-query-groups") && !a_.group_query_attention && !a_.multi_latent_attention) {
    note_once("--num-query-groups without --group-query-attention: Megatron-LM ignores it and builds one "
              "key/value group per head");
  }
  // A flag moeplan reads, given again: argparse keeps the last, and so does moeplan; said once
  // per flag, since a launch script that sets TP twice is more often a slip than a choice.
  for (const Seen& s : seen_) {
    if (s.count > 1) a_.notes.push_back(repeat_note(s));
  }
  if (!a_.layout.any() && !a_.precision && !a_.global_batch && !a_.seq_length && !a_.deepep &&
      !a_.grad_reduce_in_bf16 && !a_.bf16_moments && !a_.use_megatron_fsdp && !a_.dp_sharding && !a_.tp_comm_overlap && !a_.overlap_grad_reduce && !a_.no_p2p_overlap && !a_.cuda_graph_impl &&
      a_.cuda_graph_scope.empty() && !fp32_gradients_ && !a_.mtp_layers &&
      !a_.force_load_balancing && !a_.fp8_param_gather && a_.model_flags.empty() && !a_.rotary_percent &&
      !a_.attention_output_gate_line && !a_.rotary_base && !a_.norm_epsilon &&
      !a_.train_samples && !a_.train_iters && !a_.rampup && !a_.save_interval && !a_.async_save && !a_.eval_interval &&
      !a_.eval_iters) {
    a_.notes.push_back("no flag moeplan uses was found (a Megatron-LM launch script or arguments file?)");
  }
  return std::nullopt;
}

}  // namespace

bool is_megatron_model_flag(std::string_view flag) { return one_of(flag, k_model_flags); }

std::span<const MegatronLayoutFlag> megatron_layout_flags() {
  static constexpr MegatronLayoutFlag k_flags[] = {
      {"--tp", "--tensor-model-parallel-size", &GivenLayout::tp},
      {"--pp", "--pipeline-model-parallel-size", &GivenLayout::pp},
      {"--vpp", "--num-virtual-stages-per-pipeline-rank", &GivenLayout::vpp},
      {"--ep", "--expert-model-parallel-size", &GivenLayout::ep},
      {"--etp", "--expert-tensor-parallel-size", &GivenLayout::etp},
      {"--cp", "--context-parallel-size", &GivenLayout::cp},
      {"--micro-batch-size", "--micro-batch-size", &GivenLayout::micro_batch},
      {"--decoder-first-pipeline-num-layers", "--decoder-first-pipeline-num-layers", &GivenLayout::first_stage_layers},
      {"--decoder-last-pipeline-num-layers", "--decoder-last-pipeline-num-layers", &GivenLayout::last_stage_layers}};
  return k_flags;
}

std::optional<double> megatron_run_tokens(const MegatronArgs& args, int seq_len, std::optional<double> batch_tokens) {
  if (args.train_samples) return double(*args.train_samples) * seq_len;
  if (!args.train_iters) return std::nullopt;
  if (batch_tokens) return double(*args.train_iters) * *batch_tokens;
  if (args.global_batch) return double(*args.train_iters) * double(*args.global_batch) * seq_len;
  return std::nullopt;
}

std::expected<MegatronArgs, InputError> read_megatron_args(std::string_view text, const std::string& source) {
  if (auto e = not_text(text, source)) return std::unexpected(std::move(*e));
  std::map<std::string, std::string> vars;
  int unterminated = 0;
  const std::vector<Word> words = words_of(text, 1, &unterminated);
  if (unterminated > 0) {  // the shell would refuse it; the rest of the file would be one value
    return std::unexpected(InputError{source, unterminated, 0, "", "a quote that is never closed"});
  }
  const std::vector<Flag> flags = flags_of(expanded(words, vars), vars);
  return ArgsReader(source).read(flags);
}

}  // namespace moeplan
