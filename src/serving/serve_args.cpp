// A vLLM or SGLang command line read as the engine reads it (include/moeplan/serving/serve_args.hpp).
#include "moeplan/serving/serve_args.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <span>
#include <string_view>

namespace moeplan {

namespace {

struct ServeWord {
  std::string text;
  int line = 1;
};

// One simple command of the file: its words, in order.
using ServeCommand = std::vector<ServeWord>;

// Splits the text into commands as a shell does: an unquoted newline, `;`, `&`, `&&`, `||`, `|`
// or a parenthesis ends a command; a backslash before the line end joins lines (also before a
// CRLF); a backslash escapes the next character; quotes group; an unquoted # at a word's start
// comments out the rest of the line (not its newline). A redirection (`>`, `>>`, `2>&1`, `<`,
// `&>`) and its target are no words of the command.
class ServeCommandSplitter {
 public:
  explicit ServeCommandSplitter(std::string_view t) : t_(t) {}

  std::vector<ServeCommand> split() {
    for (i_ = 0; i_ < t_.size(); ++i_) {
      const char c = t_[i_];
      if (quote_) {
        in_quote(c);
      } else if (c == '\\') {
        backslash();
      } else if (c == '#' && !in_word_) {
        while (i_ + 1 < t_.size() && t_[i_ + 1] != '\n') ++i_;  // the newline still ends the command
      } else if (c == ' ' || c == '\t' || c == '\r') {
        end_word();
      } else if (c == '\n') {
        end_command();
        ++line_;
      } else if (c == ';' || c == '|' || c == '(' || c == ')' || (c == '&' && next() != '>')) {
        end_command();
        if ((c == '&' || c == '|' || c == ';') && next() == c) ++i_;  // &&, ||, ;;
        if (c == '|' && next() == '&') ++i_;                           // |&
      } else if (c == '>' || c == '<' || c == '&') {
        redirection(c);
      } else {
        if (c == '\'' || c == '"') {
          quote_ = c;
        } else {
          cur_ += c;
        }
        begin_word();
      }
    }
    end_command();
    return commands_;
  }

 private:
  [[nodiscard]] char next() const { return i_ + 1 < t_.size() ? t_[i_ + 1] : '\0'; }
  void begin_word() {
    if (!in_word_) start_ = line_;
    in_word_ = true;
  }
  void in_quote(char c) {
    if (c == quote_) {
      quote_ = 0;
      return;
    }
    if (c == '\\' && quote_ == '"' && (next() == '"' || next() == '\\' || next() == '$' || next() == '`')) {
      cur_ += t_[++i_];  // inside double quotes a backslash escapes only these
      return;
    }
    if (c == '\n') ++line_;
    cur_ += c;
  }
  void backslash() {
    if (next() == '\n' || (next() == '\r' && i_ + 2 < t_.size() && t_[i_ + 2] == '\n')) {
      i_ += next() == '\r' ? 2 : 1;  // a continuation: the line goes on
      ++line_;
      return;
    }
    if (i_ + 1 < t_.size()) {
      begin_word();
      cur_ += t_[++i_];
    }
  }
  // `>`, `>>`, `>&`, `>|`, `<`, `<<`, `<&`, `<>`, `&>`, `&>>`: the operator, then its target
  // word, which is no word of the command; a number glued before it (2>) is the descriptor.
  void redirection(char c) {
    const bool descriptor =
        in_word_ && !cur_.empty() && std::all_of(cur_.begin(), cur_.end(), [](char d) { return d >= '0' && d <= '9'; });
    if (descriptor) {
      cur_.clear();
      in_word_ = false;
    }
    end_word();
    if (c == '&') ++i_;  // &> and &>>: the > follows
    while (i_ + 1 < t_.size() && (t_[i_ + 1] == '>' || t_[i_ + 1] == '<' || t_[i_ + 1] == '&' || t_[i_ + 1] == '|')) ++i_;
    skip_next_word_ = true;
  }
  void end_word() {
    if (in_word_) {
      if (skip_next_word_) {
        skip_next_word_ = false;
      } else {
        command_.push_back({cur_, start_});
      }
    }
    cur_.clear();
    in_word_ = false;
  }
  void end_command() {
    end_word();
    skip_next_word_ = false;
    if (!command_.empty()) commands_.push_back(std::move(command_));
    command_.clear();
  }

  std::string_view t_;
  std::size_t i_ = 0;
  std::vector<ServeCommand> commands_;
  ServeCommand command_;
  std::string cur_;
  bool in_word_ = false, skip_next_word_ = false;
  int line_ = 1, start_ = 1;
  char quote_ = 0;
};

bool is_flag(const std::string& w) { return w.size() > 1 && w[0] == '-' && !(w[1] >= '0' && w[1] <= '9'); }

std::string flag_name(std::string w) {
  std::replace(w.begin(), w.end(), '_', '-');
  return w;
}

// Flags that replace the engine's memory plan: the weights it loads (vLLM --quantization quantizes
// online, --cpu-offload-gb moves weights to the host) or the KV cache it allocates (vLLM
// --num-gpu-blocks-override, --kv-cache-memory; SGLang --max-total-tokens caps the pool,
// --page-size rounds it, --cpu-offload-gb likewise).
bool changes_memory_plan(bool vllm, const std::string& name) {
  static const std::array<std::string_view, 4> k_vllm{"--quantization", "--cpu-offload-gb",
                                                      "--num-gpu-blocks-override", "--kv-cache-memory"};
  static const std::array<std::string_view, 4> k_sglang{"--max-total-tokens", "--page-size", "--cpu-offload-gb",
                                                        "--quantization"};
  const auto& list = vllm ? std::span<const std::string_view>(k_vllm) : std::span<const std::string_view>(k_sglang);
  return std::find(list.begin(), list.end(), name) != list.end();
}

// Where an engine starts in a command: `vllm serve [MODEL]`, `python -m
// vllm.entrypoints.openai.api_server`, `python -m sglang.launch_server`, `sglang serve`.
struct ServeLaunch {
  ServeEngine engine = ServeEngine::vllm;
  std::size_t first = 0;  ///< its first engine word
  std::size_t args = 0;   ///< its first argument
  bool positional_model = false;
};

std::optional<ServeLaunch> serve_launch_of(const ServeCommand& words) {
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i].text;
    const bool next_serve = i + 1 < words.size() && words[i + 1].text == "serve";
    if ((w == "vllm" || w.ends_with("/vllm")) && next_serve) return ServeLaunch{ServeEngine::vllm, i, i + 2, true};
    if (w == "vllm.entrypoints.openai.api_server") return ServeLaunch{ServeEngine::vllm, i, i + 1, false};
    if (w == "sglang.launch_server") return ServeLaunch{ServeEngine::sglang, i, i + 1, false};
    if ((w == "sglang" || w.ends_with("/sglang")) && next_serve) return ServeLaunch{ServeEngine::sglang, i, i + 2, false};
  }
  return std::nullopt;
}

// The engine words of a launch, for a message: "vllm serve", "sglang.launch_server".
std::string launch_words(const ServeCommand& words, const ServeLaunch& l) {
  std::string out;
  for (std::size_t i = l.first; i < l.args; ++i) out += fmt::format("{}{}", out.empty() ? "" : " ", words[i].text);
  return fmt::format("`{}`", out);
}

}  // namespace

std::optional<std::expected<std::int64_t, std::string>> human_readable_tokens(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  if (text.size() < 2) return std::nullopt;
  const char suffix = text.back();
  const std::string_view number = text.substr(0, text.size() - 1);
  // The number: digits, optionally a point and digits (human_readable_int's regex).
  const auto digits = [](std::string_view d) {
    return !d.empty() && std::all_of(d.begin(), d.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  const auto point = number.find('.');
  const bool decimal = point != std::string_view::npos;
  if (!(decimal ? digits(number.substr(0, point)) && digits(number.substr(point + 1)) : digits(number))) {
    return std::nullopt;
  }
  static constexpr std::string_view k_decimal = "kmgt", k_binary = "KMGT";
  const std::string n(number);
  if (const auto at = k_decimal.find(suffix); at != std::string_view::npos) {
    const double v = std::strtod(n.c_str(), nullptr) * std::pow(10.0, 3.0 * double(at + 1));
    if (v >= 9.2e18) return std::expected<std::int64_t, std::string>(std::int64_t{1} << 62);  // far out of range
    return std::expected<std::int64_t, std::string>(static_cast<std::int64_t>(v));  // int(): truncated
  }
  if (const auto at = k_binary.find(suffix); at != std::string_view::npos) {
    if (decimal) {
      return std::expected<std::int64_t, std::string>(std::unexpected(fmt::format(
          "decimals are not allowed with binary suffixes like {} (vLLM's human_readable_int); did you mean {}{}?",
          suffix, n, k_decimal[at])));
    }
    const int shift = 10 * static_cast<int>(at + 1);
    const std::int64_t base = n.size() > 18 ? std::numeric_limits<std::int64_t>::max() : std::stoll(n);
    if (base > (std::numeric_limits<std::int64_t>::max() >> shift)) {
      return std::expected<std::int64_t, std::string>(std::int64_t{1} << 62);  // far out of range
    }
    return std::expected<std::int64_t, std::string>(base << shift);
  }
  return std::nullopt;
}

std::expected<ServeArgs, InputError> read_serve_args(std::string_view text, const std::string& source) {
  const std::vector<ServeCommand> commands = ServeCommandSplitter(text).split();
  // The engine's command: the one command of the file that starts the engine; the words
  // before its engine words (env settings, nohup, uv run) are skipped, the commands after it
  // (curl, echo) are not its flags.
  std::optional<ServeLaunch> launch;
  const ServeCommand* engine_command = nullptr;
  for (const ServeCommand& c : commands) {
    const auto l = serve_launch_of(c);
    if (!l) continue;
    if (launch) {
      return std::unexpected(InputError{
          source, c[l->first].line, 0, "--serve-args",
          fmt::format("a second engine command ({}; the first, {}, is on line {}): moeplan reads one engine's "
                      "command line, keep one of them in the file",
                      launch_words(c, *l), launch_words(*engine_command, *launch), (*engine_command)[launch->first].line)});
    }
    launch = l;
    engine_command = &c;
  }
  if (!launch) {
    const int line = commands.empty() ? 0 : commands.front().front().line;
    return std::unexpected(InputError{source, line, 0, "--serve-args",
                                      "neither a `vllm serve` nor a `python -m sglang.launch_server` command line"});
  }
  const std::vector<ServeWord>& words = *engine_command;
  ServeArgs a;
  a.engine = launch->engine;
  std::size_t at = launch->args;
  if (launch->positional_model && at < words.size() && !is_flag(words[at].text)) a.model = words[at++].text;
  const bool vllm = a.engine == ServeEngine::vllm;
  for (std::size_t i = at; i < words.size(); ++i) {
    std::string w = words[i].text;
    const int line = words[i].line;
    if (!is_flag(w)) continue;  // a stray word (a second positional): not the engine's flag
    std::string value;
    bool has_value = false;
    if (const auto eq = w.find('='); eq != std::string::npos) {
      value = w.substr(eq + 1);
      w = w.substr(0, eq);
      has_value = true;
    } else if (i + 1 < words.size() && !is_flag(words[i + 1].text)) {
      value = words[++i].text;
      has_value = true;
    }
    const std::string name = flag_name(w);
    const auto bad = [&](const std::string& why) {
      return std::unexpected(InputError{source, line, 0, name, why});
    };
    const auto positive = [&](std::int64_t max) -> std::optional<std::int64_t> {
      std::int64_t v = 0;
      const auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (ec != std::errc() || p != value.data() + value.size() || v < 1 || v > max) return std::nullopt;
      return v;
    };
    // vLLM reads its token counts with human_readable_int (32k, 32K): those, else a plain count.
    const auto human_or_positive = [&]() -> std::optional<std::int64_t> {
      if (const auto h = human_readable_tokens(value)) {
        if (!*h || **h < 1 || **h > 1'000'000'000) return std::nullopt;
        return **h;
      }
      return positive(1'000'000'000);
    };
    const auto count = [&](std::optional<int>& into) -> std::optional<InputError> {
      const auto v = positive(1 << 16);
      if (!has_value || !v) return InputError{source, line, 0, name, fmt::format("expected a GPU count, got '{}'", value)};
      into = static_cast<int>(*v);
      return std::nullopt;
    };
    std::optional<InputError> err;
    if (name == "--tensor-parallel-size" || name == "-tp" || name == "--tp" || name == "--tp-size") {
      err = count(a.tp);
    } else if (name == "--pipeline-parallel-size" || name == "-pp" || name == "--pp-size" || name == "--pp") {
      err = count(a.pp);
    } else if (name == "--data-parallel-size" || name == "-dp" || name == "--dp" || name == "--dp-size") {
      err = count(a.dp);
    } else if (name == (vllm ? "--gpu-memory-utilization" : "--mem-fraction-static")) {
      double v = 0;
      const auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (!has_value || ec != std::errc() || p != value.data() + value.size() || !(v > 0 && v <= 1)) {
        return bad(fmt::format("expected a fraction in (0, 1], got '{}'", value));
      }
      a.memory_fraction = v;
    } else if (vllm && name == "--max-num-batched-tokens") {
      const auto v = human_or_positive();
      if (!has_value || !v) return bad(fmt::format("expected a whole number of tokens, at least 1, got '{}'", value));
      a.max_batched_tokens = *v;
    } else if (name == (vllm ? "--max-num-seqs" : "--max-running-requests")) {
      const auto v = positive(1'000'000'000);
      if (!has_value || !v) return bad(fmt::format("expected a whole number of sequences, at least 1, got '{}'", value));
      a.max_seqs = *v;
    } else if (name == (vllm ? "--max-model-len" : "--context-length")) {
      const auto v = vllm ? human_or_positive() : positive(1'000'000'000);  // SGLang's --context-length: int
      if (!has_value || !v) return bad(fmt::format("expected a whole number of tokens, got '{}'", value));
      a.context = *v;
    } else if (name == "--kv-cache-dtype") {
      if (value == "auto" || value == "bf16" || value == "bfloat16") {
        a.kv = ServePrecision::bf16;
      } else if (value.starts_with("fp8")) {
        a.kv = ServePrecision::fp8;
      } else {
        return bad(fmt::format("expected auto, bf16 or an fp8 kind, got '{}'", value));
      }
    } else if (vllm && name == "--enable-expert-parallel" && !has_value) {
      a.expert_parallel = true;
    } else if (!vllm && (name == "--ep-size" || name == "--ep" || name == "--expert-parallel-size")) {
      std::optional<int> ep;
      err = count(ep);
      if (!err) a.expert_parallel = *ep > 1;
    } else if (!vllm && name == "--enable-dp-attention" && !has_value) {
      a.dp_attention = true;
    } else if ((vllm && name == "--model") || (!vllm && (name == "--model-path" || name == "--model"))) {
      a.model = value;
    } else if (changes_memory_plan(vllm, name)) {
      // Listing these as "not modelled" would print the plan of another start-up: refuse them.
      return bad("sets what the engine's memory plan would otherwise size (the weights it loads or the KV "
                 "cache it allocates), which moeplan does not model; drop it to plan the engine's own sizing");
    } else if (std::find(a.unused.begin(), a.unused.end(), name) == a.unused.end()) {
      a.unused.push_back(name);
    }
    if (err) return std::unexpected(*err);
  }
  return a;
}

}  // namespace moeplan
