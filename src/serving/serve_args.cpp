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

// Shell-like words: comments from an unquoted # at a word's start, a backslash-newline joins
// lines, a backslash escapes the next character, quotes group.
std::vector<ServeWord> serve_words_of(std::string_view t) {
  std::vector<ServeWord> words;
  std::string cur;
  bool in_word = false;
  int line = 1, start = 1;
  char quote = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (quote) {
      if (c == quote) {
        quote = 0;
      } else {
        if (c == '\n') ++line;
        cur += c;
      }
      continue;
    }
    if (c == '\\' && i + 1 < t.size()) {
      if (t[i + 1] == '\n') {
        ++line;
      } else {
        if (!in_word) start = line;
        in_word = true;
        cur += t[i + 1];
      }
      ++i;
      continue;
    }
    if (c == '#' && !in_word) {
      while (i < t.size() && t[i] != '\n') ++i;
      if (i < t.size()) ++line;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (in_word) words.push_back({cur, start});
      cur.clear();
      in_word = false;
      if (c == '\n') ++line;
      continue;
    }
    if (!in_word) start = line;
    in_word = true;
    if (c == '\'' || c == '"') {
      quote = c;
    } else {
      cur += c;
    }
  }
  if (in_word) words.push_back({cur, start});
  return words;
}

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
  const std::vector<ServeWord> words = serve_words_of(text);
  ServeArgs a;
  // The engine's command: `vllm serve`, `python -m vllm.entrypoints.openai.api_server`,
  // `python -m sglang.launch_server`, `sglang serve`.
  std::size_t at = 0;
  bool found = false;
  for (std::size_t i = 0; i < words.size() && !found; ++i) {
    const std::string& w = words[i].text;
    const bool next_serve = i + 1 < words.size() && words[i + 1].text == "serve";
    if ((w == "vllm" || w.ends_with("/vllm")) && next_serve) {
      a.engine = ServeEngine::vllm;
      at = i + 2;
      if (at < words.size() && !is_flag(words[at].text)) a.model = words[at++].text;
      found = true;
    } else if (w == "vllm.entrypoints.openai.api_server") {
      a.engine = ServeEngine::vllm;
      at = i + 1;
      found = true;
    } else if (w == "sglang.launch_server" || ((w == "sglang" || w.ends_with("/sglang")) && next_serve)) {
      a.engine = ServeEngine::sglang;
      at = w == "sglang.launch_server" ? i + 1 : i + 2;
      found = true;
    }
  }
  if (!found) {
    return std::unexpected(InputError{source, words.empty() ? 0 : words.front().line, 0, "--serve-args",
                                      "neither a `vllm serve` nor a `python -m sglang.launch_server` command line"});
  }
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
