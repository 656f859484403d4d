// A vLLM or SGLang command line read as the engine reads it (include/moeplan/serving/serve_args.hpp).
#include "moeplan/serving/serve_args.hpp"

#include "moeplan/base/shell_words.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

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

bool is_flag(const std::string& w) { return w.size() > 1 && w[0] == '-' && !(w[1] >= '0' && w[1] <= '9'); }

std::string flag_name(std::string w) {
  std::replace(w.begin(), w.end(), '_', '-');
  return w;
}

// Flags that replace the engine's memory plan: the weights it loads (--cpu-offload-gb moves
// weights to the host; --quantization, read on its own, refuses another method than fp8) or the
// KV cache it allocates (vLLM --num-gpu-blocks-override, --kv-cache-memory; SGLang
// --max-total-tokens caps the pool, --page-size rounds it).
bool changes_memory_plan(bool vllm, const std::string& name) {
  static const std::array<std::string_view, 3> k_vllm{"--cpu-offload-gb", "--num-gpu-blocks-override",
                                                      "--kv-cache-memory"};
  static const std::array<std::string_view, 3> k_sglang{"--max-total-tokens", "--page-size", "--cpu-offload-gb"};
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

// vLLM's image, any registry and tag: [registry/]vllm/vllm-openai[:tag|@digest].
bool is_vllm_image(std::string_view w) {
  const auto at = w.find("vllm/vllm-openai");
  if (at == std::string_view::npos || (at > 0 && w[at - 1] != '/')) return false;
  const std::string_view rest = w.substr(at + std::string_view("vllm/vllm-openai").size());
  return rest.empty() || rest.front() == ':' || rest.front() == '@';
}

std::optional<ServeLaunch> serve_launch_of(const ShellCommand& words) {
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i].text;
    // `docker run [options] vllm/vllm-openai[:tag] [engine args]`: the image's entrypoint is the
    // API server (docker/Dockerfile, stage vllm-openai: `python3 -m vllm.entrypoints.openai.api_server`,
    // `vllm serve` in later images), so the words after the image are engine arguments; not
    // when --entrypoint replaces it.
    if ((w == "docker" || w == "podman" || w.ends_with("/docker")) && i + 1 < words.size() && words[i + 1].text == "run") {
      for (std::size_t j = i + 2; j < words.size(); ++j) {
        const std::string& o = words[j].text;
        if (o == "--entrypoint" || o.starts_with("--entrypoint=")) break;
        if (is_vllm_image(o)) return ServeLaunch{ServeEngine::vllm, j, j + 1, true};
      }
    }
    const bool next_serve = i + 1 < words.size() && words[i + 1].text == "serve";
    if ((w == "vllm" || w.ends_with("/vllm")) && next_serve) return ServeLaunch{ServeEngine::vllm, i, i + 2, true};
    if (w == "vllm.entrypoints.openai.api_server") return ServeLaunch{ServeEngine::vllm, i, i + 1, false};
    if (w == "sglang.launch_server") return ServeLaunch{ServeEngine::sglang, i, i + 1, false};
    if ((w == "sglang" || w.ends_with("/sglang")) && next_serve) return ServeLaunch{ServeEngine::sglang, i, i + 2, false};
  }
  return std::nullopt;
}

// The engine words of a launch, for a message: "vllm serve", "sglang.launch_server".
std::string launch_words(const ShellCommand& words, const ServeLaunch& l) {
  std::string out;
  for (std::size_t i = l.first; i < l.args; ++i) out += fmt::format("{}{}", out.empty() ? "" : " ", words[i].text);
  return fmt::format("`{}`", out);
}

// One flag of the engine's command as written: its name (underscores as dashes) and value.
struct ServeFlag {
  std::string name, value;
  bool has_value = false, expands = false, braces = false;
  int line = 0;
  bool attached = false;  ///< the value was written onto the flag (--flag=value, vLLM's -qfp8)
};

// Why a flag's value is not read as `expected`: missing (the next word a flag, or none), a
// shell expansion moeplan does not make, brace expansion, or a value of another kind.
std::string serve_value_problem(const ServeFlag& f, std::string_view expected) {
  if (!f.has_value) return fmt::format("missing value: expected {}", expected);
  if (f.expands) {
    return fmt::format("'{}' is a shell expansion: moeplan reads the file as written and does not expand variables, "
                       "$(...) or $((...)); write the value ({})",
                       f.value, expected);
  }
  if (f.braces) {
    return fmt::format("'{}' has unquoted braces with a comma, which the shell's brace expansion splits into several "
                       "words; quote it",
                       f.value);
  }
  return fmt::format("expected {}, got '{}'", expected, f.value);
}

std::optional<std::int64_t> serve_positive(const ServeFlag& f, std::int64_t max) {
  if (!f.has_value || f.expands) return std::nullopt;
  std::int64_t v = 0;
  const auto [p, ec] = std::from_chars(f.value.data(), f.value.data() + f.value.size(), v);
  if (ec != std::errc() || p != f.value.data() + f.value.size() || v < 1 || v > max) return std::nullopt;
  return v;
}

std::optional<std::int64_t> human_readable_tokens_of(std::string_view text);

// vLLM reads its token counts with human_readable_int (32k, 32K): those, else a plain count.
std::optional<std::int64_t> serve_tokens(const ServeFlag& f, bool human) {
  if (!f.has_value || f.expands) return std::nullopt;
  return human ? human_readable_tokens_of(f.value) : serve_positive(f, 1'000'000'000);
}

// vLLM's --speculative-config: a JSON object (vllm/engine/arg_utils.py, v0.10 line: the flag's
// type is json.loads), or one key of it as --speculative-config.KEY VALUE (FlexibleArgumentParser's
// dotted JSON arguments, "JSON CLI Arguments" of docs.vllm.ai/en/v0.10.1/configuration/engine_args).
// method and num_speculative_tokens are read; deepseek_mtp drafts with the model's own MTP
// modules (vllm/config.py SpeculativeConfig, v0.10 line: DeepSeekMTPModel, n_predict =
// num_nextn_predict_layers).
std::optional<InputError> read_speculative(ServeArgs& a, const ServeFlag& f, const std::string& source) {
  const auto bad = [&](std::string_view expected) {
    return std::optional<InputError>(InputError{source, f.line, 0, f.name, serve_value_problem(f, expected)});
  };
  if (!f.has_value || f.expands || f.braces) return bad("a JSON object such as '{\"method\": \"deepseek_mtp\"}'");
  a.speculative_line = f.line;
  const auto tokens_of = [&](const nlohmann::json& v) -> std::optional<InputError> {
    if (v.is_number_integer() && v.get<std::int64_t>() >= 1 && v.get<std::int64_t>() <= 1'000'000) {
      a.speculative_tokens = v.get<std::int64_t>();
      return std::nullopt;
    }
    return InputError{source, f.line, 0, f.name,
                      fmt::format("num_speculative_tokens: expected a whole number, at least 1, got {}", v.dump())};
  };
  if (f.name == "--speculative-config") {
    const nlohmann::json j = nlohmann::json::parse(f.value, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return bad("a JSON object such as '{\"method\": \"deepseek_mtp\"}'");
    if (const auto m = j.find("method"); m != j.end()) {
      if (!m->is_string()) return bad("a JSON object whose method is a string");
      a.speculative_method = m->get<std::string>();
    } else if (j.contains("model")) {
      a.speculative_method = "draft model";
    }
    if (const auto n = j.find("num_speculative_tokens"); n != j.end()) return tokens_of(*n);
    return std::nullopt;
  }
  const std::string key = f.name.substr(std::string_view("--speculative-config.").size());
  if (key == "method") {
    a.speculative_method = f.value;
  } else if (key == "num_speculative_tokens" || key == "num-speculative-tokens") {
    const nlohmann::json v = nlohmann::json::parse(f.value, nullptr, false);
    return tokens_of(v.is_discarded() ? nlohmann::json(f.value) : v);
  } else if (key == "model" && a.speculative_method.empty()) {
    a.speculative_method = "draft model";
  }
  return std::nullopt;
}

// Reads one flag of the engine's command into `a`: an InputError naming the file, line and flag
// when a flag the serving model uses has a value it cannot read.
std::optional<InputError> read_engine_flag(ServeArgs& a, const ServeFlag& f, const std::string& source) {
  const bool vllm = a.engine == ServeEngine::vllm;
  const std::string& name = f.name;
  const auto bad = [&](std::string_view expected) {
    return std::optional<InputError>(InputError{source, f.line, 0, name, serve_value_problem(f, expected)});
  };
  ServeFlagAt ignored;
  const auto count = [&](std::optional<int>& into, ServeFlagAt& at) -> std::optional<InputError> {
    const auto v = serve_positive(f, 1 << 16);
    if (!v) return bad("a GPU count");
    into = static_cast<int>(*v);
    at = ServeFlagAt{name, f.line};
    return std::nullopt;
  };
  if (name == "--tensor-parallel-size" || name == "-tp" || name == "--tp" || name == "--tp-size") {
    return count(a.tp, a.tp_at);
  }
  if (name == "--pipeline-parallel-size" || name == "-pp" || name == "--pp-size" || name == "--pp") {
    return count(a.pp, a.pp_at);
  }
  if (name == "--data-parallel-size" || name == "-dp" || name == "--dp" || name == "--dp-size") {
    return count(a.dp, a.dp_at);
  }
  if (name == (vllm ? "--gpu-memory-utilization" : "--mem-fraction-static")) {
    double v = 0;
    const auto [p, ec] = std::from_chars(f.value.data(), f.value.data() + f.value.size(), v);
    if (!f.has_value || f.expands || ec != std::errc() || p != f.value.data() + f.value.size() || !(v > 0 && v <= 1)) {
      return bad("a fraction in (0, 1]");
    }
    a.memory_fraction = v;
  } else if (vllm && name == "--max-num-batched-tokens") {
    const auto v = serve_tokens(f, true);
    if (!v) return bad("a whole number of tokens, at least 1");
    a.max_batched_tokens = *v;
    a.batched_tokens_at = ServeFlagAt{name, f.line};
  } else if (name == (vllm ? "--max-num-seqs" : "--max-running-requests")) {
    const auto v = serve_positive(f, 1'000'000'000);
    if (!v) return bad("a whole number of sequences, at least 1");
    a.max_seqs = *v;
    a.seqs_at = ServeFlagAt{name, f.line};
  } else if (name == (vllm ? "--max-model-len" : "--context-length")) {
    const auto v = serve_tokens(f, vllm);  // SGLang's --context-length: a plain int
    if (!v) return bad("a whole number of tokens");
    a.context = *v;
  } else if (name == "--kv-cache-dtype") {
    a.kv_at = ServeFlagAt{fmt::format("{} {}", name, f.value), f.line};
    if (f.has_value && !f.expands && (f.value == "auto" || f.value == "bf16" || f.value == "bfloat16")) {
      a.kv = ServePrecision::bf16;
    } else if (f.has_value && !f.expands && f.value.starts_with("fp8")) {
      a.kv = ServePrecision::fp8;
    } else {
      return bad("auto, bf16 or an fp8 kind");
    }
  } else if (vllm && name == "--enable-expert-parallel" && !f.has_value) {
    a.expert_parallel = true;
  } else if (!vllm && (name == "--ep-size" || name == "--ep" || name == "--expert-parallel-size")) {
    std::optional<int> ep;
    if (auto err = count(ep, ignored)) return err;
    a.expert_parallel = *ep > 1;
  } else if (!vllm && name == "--enable-dp-attention" && !f.has_value) {
    a.dp_attention = true;
  } else if (vllm ? (name == "--enforce-eager" || name == "--no-enforce-eager") : name == "--disable-cuda-graph") {
    // A switch: the engine captures no CUDA graphs (vLLM v0.10 gpu_model_runner.py capture_model
    // returns at once; SGLang builds no CudaGraphRunner); --no-enforce-eager, BooleanOptionalAction's
    // negative, is vLLM's default. A value written onto it the parser refuses ("ignored explicit
    // argument"); a word after it is a stray positional, not its value.
    if (f.attached) {
      return InputError{source, f.line, 0, name,
                        fmt::format("'{}={}': a switch takes no value; the engine's parser refuses it and does not "
                                    "start",
                                    name, f.value)};
    }
    if (name == "--no-enforce-eager") {
      a.cuda_graphs_off.clear();
    } else {
      a.cuda_graphs_off = name;
    }
  } else if (vllm && (name == "--speculative-config" || name.starts_with("--speculative-config."))) {
    return read_speculative(a, f, source);
  } else if (!vllm && name == "--speculative-algorithm") {
    a.speculative_method = f.value;
    a.speculative_line = f.line;
    if (std::find(a.unused.begin(), a.unused.end(), name) == a.unused.end()) a.unused.push_back(name);
  } else if (name == "--quantization" || (vllm && name == "-q")) {
    // fp8: a bf16 checkpoint quantized as it loads (fp8.py); another method quantizes as moeplan
    // does not model, which would make the plan printed another engine's.
    if (!f.has_value || f.expands || f.braces) return bad("fp8, the online method moeplan models");
    if (f.value != "fp8") {
      return InputError{source, f.line, 0, name,
                        fmt::format("'{}' quantizes the weights as moeplan does not model (it reads fp8 only, the "
                                    "engines' lower-case name); drop it to plan the engine's own sizing",
                                    f.value)};
    }
    a.online_fp8_line = f.line;
  } else if ((vllm && name == "--model") || (!vllm && (name == "--model-path" || name == "--model"))) {
    a.model = f.value;
  } else if (changes_memory_plan(vllm, name)) {
    // Listing these as "not modelled" would print the plan of another start-up: refuse them.
    return InputError{source, f.line, 0, name,
                      "sets what the engine's memory plan would otherwise size (the weights it loads or the KV "
                      "cache it allocates), which moeplan does not model; drop it to plan the engine's own sizing"};
  } else if (std::find(a.unused.begin(), a.unused.end(), name) == a.unused.end()) {
    a.unused.push_back(name);
  }
  return std::nullopt;
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

namespace {

// The layout's own checks, the model aside: at most 65,536 GPUs (moeplan's limit, man moeplan
// LIMITS), and SGLang's DP attention splits TP into DP groups (server_args.py
// _handle_data_parallelism: `assert self.tp_size % self.dp_size == 0`, v0.4 line).
std::optional<InputError> serve_layout_problem(const ServeArgs& a, const std::string& source) {
  const std::int64_t gpus = std::int64_t{a.tp.value_or(1)} * a.pp.value_or(1) *
                            (a.engine == ServeEngine::sglang && a.dp_attention ? 1 : a.dp.value_or(1));
  if (gpus > (1 << 16)) {
    const ServeFlagAt& last = std::max({a.tp_at, a.pp_at, a.dp_at},
                                       [](const ServeFlagAt& x, const ServeFlagAt& y) { return x.line < y.line; });
    return InputError{source, last.line, 0, last.flag,
                      fmt::format("TP {} x PP {} x DP {} is {} GPUs; moeplan plans at most 65,536", a.tp.value_or(1),
                                  a.pp.value_or(1), a.dp.value_or(1), gpus)};
  }
  if (a.engine == ServeEngine::sglang && a.dp_attention && a.dp.value_or(1) > 1 && a.tp.value_or(1) % *a.dp != 0) {
    return InputError{source, a.dp_at.line, 0, a.dp_at.flag,
                      fmt::format("--enable-dp-attention splits --tp {} into --dp {} groups, which SGLang requires to "
                                  "divide it (server_args.py asserts tp_size % dp_size == 0)",
                                  a.tp.value_or(1), *a.dp)};
  }
  return std::nullopt;
}

}  // namespace

namespace {
// A count as vLLM's human_readable_int reads it (a plain number, or one with a suffix), in [1, 1e9].
std::optional<std::int64_t> human_readable_tokens_of(std::string_view text) {
  const auto h = human_readable_tokens(text);
  if (!h) return serve_positive(ServeFlag{"", std::string(text), true, false, false, 0}, 1'000'000'000);
  if (!*h || **h < 1 || **h > 1'000'000'000) return std::nullopt;
  return **h;
}
}  // namespace

std::expected<ServeArgs, InputError> read_serve_args(std::string_view text, const std::string& source) {
  const ShellSplit split = split_shell_commands(text);
  const std::vector<ShellCommand>& commands = split.commands;
  if (const int open = split.unterminated_quote_line) {
    return std::unexpected(InputError{source, open, 0, "--serve-args",
                                      "unterminated quote: the quote opened on this line is not closed before the "
                                      "end of the file"});
  }
  // The engine's command: the one command of the file that starts the engine; the words
  // before its engine words (env settings, nohup, uv run) are skipped, the commands after it
  // (curl, echo) are not its flags.
  std::optional<ServeLaunch> launch;
  const ShellCommand* engine_command = nullptr;
  for (const ShellCommand& c : commands) {
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
    for (const ShellCommand& c : commands) {
      for (const ShellWord& w : c) {
        if (w.text == "sglang_router.launch_server") {
          return std::unexpected(InputError{
              source, w.line, 0, "--serve-args",
              "`python -m sglang_router.launch_server` starts SGLang's router with its own data-parallel workers, "
              "which moeplan does not model: give the `python -m sglang.launch_server` command line of one worker"});
        }
      }
    }
    const int line = commands.empty() ? 0 : commands.front().front().line;
    return std::unexpected(InputError{source, line, 0, "--serve-args",
                                      "neither a `vllm serve` (nor a `docker run ... vllm/vllm-openai`) nor a "
                                      "`python -m sglang.launch_server` command line"});
  }
  const std::vector<ShellWord>& words = *engine_command;
  ServeArgs a;
  a.engine = launch->engine;
  a.line = words[launch->first].line;
  std::size_t at = launch->args;
  if (launch->positional_model && at < words.size() && !is_flag(words[at].text)) a.model = words[at++].text;
  for (std::size_t i = at; i < words.size(); ++i) {
    if (!is_flag(words[i].text)) continue;  // a stray word (a second positional): not the engine's flag
    ServeFlag f;
    f.line = words[i].line;
    std::string w = words[i].text;
    // vLLM's one-letter -q takes a value written onto it, as argparse reads it: -qfp8 is -q fp8.
    const bool glued = a.engine == ServeEngine::vllm && w.size() > 2 && w[0] == '-' && w[1] == 'q' && w[2] != '=';
    if (glued) {
      f.value = w.substr(2);
      f.has_value = f.attached = true;
      f.expands = words[i].expands;
      f.braces = words[i].braces;
      w = w.substr(0, 2);
    } else if (const auto eq = w.find('='); eq != std::string::npos) {
      f.value = w.substr(eq + 1);
      f.has_value = f.attached = true;
      f.expands = words[i].expands;
      f.braces = words[i].braces;
      w = w.substr(0, eq);
    } else if (i + 1 < words.size() && !is_flag(words[i + 1].text)) {
      ++i;
      f.value = words[i].text;
      f.has_value = true;
      f.expands = words[i].expands;
      f.braces = words[i].braces;
    }
    const auto dot = w.find('.');  // --speculative-config.num_speculative_tokens: the key as written
    f.name = dot == std::string::npos ? flag_name(w) : flag_name(w.substr(0, dot)) + w.substr(dot);
    if (auto err = read_engine_flag(a, f, source)) return std::unexpected(std::move(*err));
  }
  if (auto err = serve_layout_problem(a, source)) return std::unexpected(std::move(*err));
  a.mtp = a.engine == ServeEngine::vllm && a.speculative_method == "deepseek_mtp";
  if (a.speculative_line > 0 && !a.mtp && a.engine == ServeEngine::vllm) a.unused.push_back("--speculative-config");
  return a;
}

std::optional<ServeArgsRefusal> serve_args_refusal(const ServeArgs& a, const ModelConfig& m, const std::string& source,
                                                   bool layout_used) {
  if (a.mtp && m.extras.num_nextn_predict_layers == 0) {  // no draft: SpeculativeConfig raises at start-up
    return ServeArgsRefusal{InputError{source, a.speculative_line, 0, "--speculative-config",
                                       fmt::format("method deepseek_mtp drafts with the model's MTP modules, and {} "
                                                   "has none (num_nextn_predict_layers 0)",
                                                   m.name)},
                            true};
  }
  // vLLM's ModelConfig._verify_quantization (v0.10 config.py) raises when the checkpoint's
  // quant_method is not the one --quantization names; an fp8 checkpoint is served as stored.
  if (a.online_fp8_line > 0 && m.checkpoint_storage && m.checkpoint_storage->method != "fp8") {
    return ServeArgsRefusal{
        InputError{source, a.online_fp8_line, 0, "--quantization",
                   fmt::format("{} is stored quantized (quant_method {}); the engine raises: the quantization method "
                               "in the model config ({}) does not match --quantization (fp8)",
                               m.name, m.checkpoint_storage->method, m.checkpoint_storage->method)},
        true};
  }
  if (!layout_used) return std::nullopt;
  if (const int t = a.attention_tp(); !tp_splits_heads(m, t)) {  // vLLM and SGLang refuse to start
    const bool groups = a.engine == ServeEngine::sglang && a.dp_attention && a.dp.value_or(1) > 1;
    return ServeArgsRefusal{
        InputError{source, a.tp_at.line, 0, a.tp_at.flag,
                   fmt::format("TP {}{} does not split the attention heads of {} ({} query heads{})", t,
                               groups ? fmt::format(" (--tp {} over --dp {} attention groups)", a.tp.value_or(1), *a.dp)
                                      : std::string(),
                               m.name, m.num_attention_heads,
                               m.latent_attention ? "" : fmt::format(", {} KV heads", m.num_key_value_heads))},
        true};
  }
  const int layers = std::max(1, m.num_hidden_layers);
  if (a.pp.value_or(1) > layers) {  // vLLM's get_pp_indices would leave stages without a layer
    return ServeArgsRefusal{InputError{source, a.pp_at.line, 0, a.pp_at.flag,
                                       fmt::format("{} pipeline stages for the {} layers of {}: moeplan models a stage "
                                                   "of at least one layer",
                                                   *a.pp, layers, m.name)},
                            false};
  }
  return std::nullopt;
}

}  // namespace moeplan
