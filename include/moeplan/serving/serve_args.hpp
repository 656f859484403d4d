#pragma once
/// A serving engine's command line read as the engine reads it (docs/serving.md "--serve-args"):
/// `vllm serve MODEL --flag value ...` (or `python -m vllm.entrypoints.openai.api_server`) or
/// `python -m sglang.launch_server --model-path MODEL ...`, from a launch script or a file.
///
/// The text is split as a shell splits it: an unquoted # starts a comment, a backslash before
/// the line end joins lines, single and double quotes group words, and an unquoted newline,
/// `;`, `&`, `&&`, `||` or `|` ends a command (redirections and their targets are no words).
/// The one command that starts the engine is read; the words before its engine words (env
/// settings, nohup, uv run) are skipped, and other commands (curl, echo) are not its flags; a
/// file with two engine commands is an InputError naming both lines. Flags are `--name value`
/// or `--name=value`, underscores read as dashes (both engines accept either); a flag followed
/// by another flag or by nothing is a switch. A flag the serving model uses with a value it
/// cannot read is an InputError naming the file, line and flag; the flags it does not model
/// are listed (`unused`).
#include <cstdint>
#include <expected>
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "moeplan/base/errors.hpp"
#include "moeplan/serving/serving_fit.hpp"

namespace moeplan {

/// Where a flag of the file was read: its name as written and its line (0: not in the file).
struct ServeFlagAt {
  std::string flag;
  int line = 0;
};

struct ServeArgs {
  ServeEngine engine = ServeEngine::vllm;
  std::string model;                  ///< the served model as given (positional, --model, --model-path)
  int line = 0;                       ///< the line of the engine's command (its first engine word)
  std::optional<int> tp, pp, dp;      ///< --tensor-parallel-size / --tp, --pipeline-parallel-size, --data-parallel-size / --dp
  ServeFlagAt tp_at, pp_at, dp_at;    ///< where each was read, for refusals of the layout
  std::optional<double> memory_fraction;         ///< --gpu-memory-utilization / --mem-fraction-static
  std::optional<std::int64_t> max_batched_tokens;  ///< --max-num-batched-tokens (vLLM)
  std::optional<std::int64_t> max_seqs;          ///< --max-num-seqs / --max-running-requests
  std::optional<std::int64_t> context;           ///< --max-model-len / --context-length
  std::optional<ServePrecision> kv;              ///< --kv-cache-dtype (auto: bf16)
  ServeFlagAt batched_tokens_at, seqs_at, kv_at;  ///< where those were read, for refusals naming them
  bool expert_parallel = false;  ///< --enable-expert-parallel (vLLM), --ep-size > 1 (SGLang)
  bool dp_attention = false;     ///< --enable-dp-attention (SGLang)
  /// vLLM --speculative-config (JSON, or its dotted keys --speculative-config.method ...) with
  /// method deepseek_mtp: the model's own MTP modules are the draft, served as --serve-mtp
  /// serves them. Another method (or SGLang's --speculative-algorithm) is named in
  /// speculative_method and the flag listed as not modelled: its draft is not counted.
  bool mtp = false;
  std::string speculative_method;
  std::optional<std::int64_t> speculative_tokens;  ///< num_speculative_tokens
  int speculative_line = 0;                        ///< the line of the flag, 0 when absent
  std::vector<std::string> unused;  ///< flags not modelled, once each, in the file's order
  /// vLLM --enforce-eager, SGLang --disable-cuda-graph: no CUDA graphs captured, so none to fit
  /// in what the memory fraction leaves (`--no-enforce-eager`: captured, vLLM's default).
  /// Empty when the file does not say; else the flag as given.
  std::string cuda_graphs_off;
  /// `--quantization fp8` (vLLM also `-q fp8`): the engine quantizes a bf16 checkpoint to fp8
  /// as it loads it (ServingOptions::online_fp8); the line it was read on, 0 when absent.
  int online_fp8_line = 0;
  /// GPUs of one copy of the model: TP x PP x DP; SGLang's DP attention runs its DP groups
  /// inside the TP GPUs (--tp 8 --dp 8 --enable-dp-attention is 8 GPUs of TP 1 attention).
  [[nodiscard]] int gpus() const {
    const int inside = engine == ServeEngine::sglang && dp_attention ? 1 : dp.value_or(1);
    return tp.value_or(1) * pp.value_or(1) * inside;
  }
  /// The attention TP of each group: TP, or TP / DP under SGLang's DP attention.
  [[nodiscard]] int attention_tp() const {
    if (engine == ServeEngine::sglang && dp_attention) return std::max(1, tp.value_or(1) / std::max(1, dp.value_or(1)));
    return tp.value_or(1);
  }
};

/// A token count as vLLM's `human_readable_int` reads --max-model-len and
/// --max-num-batched-tokens (vllm/engine/arg_utils.py, v0.10 line: `(\d+(\.\d+)?)` and one
/// of k m g t, decimal (x 10^3, 10^6, 10^9, 10^12, the product truncated: 25.6k is 25,600),
/// or K M G T, binary (x 2^10, 2^20, 2^30, 2^40: 32K is 32,768; a decimal number refused);
/// surrounding blanks ignored). nullopt when `text` has no such suffix (a plain number is the
/// caller's); an error sentence for a decimal before a binary suffix.
std::optional<std::expected<std::int64_t, std::string>> human_readable_tokens(std::string_view text);

/// The engine's settings from its command line `text`; `source` names the file in errors.
/// Beside bad values, a layout of more than 65,536 GPUs and SGLang's DP attention with a --dp
/// that does not divide --tp (server_args.py asserts tp_size % dp_size == 0) are refused here.
std::expected<ServeArgs, InputError> read_serve_args(std::string_view text, const std::string& source);

/// A command line that cannot be planned for one model: the file, the line and the file's flag
/// (`where`), and whether the engine itself would refuse to start (exit 3) or moeplan cannot
/// model what it would run (exit 4).
struct ServeArgsRefusal {
  InputError where;
  bool engine_refuses = false;
};

/// Why `a` (read from `source`) cannot be planned for `m`; nullopt when it can. `layout_used`:
/// the file's TP x PP x DP is the layout (no --serve-gpus replaces it). The engine would not
/// start: a TP (the attention TP of SGLang's DP attention) that does not split the heads
/// (tp_splits_heads), --speculative-config deepseek_mtp on a model without MTP modules. moeplan
/// cannot model it: more pipeline stages than the model's layers (a stage of at least one layer).
std::optional<ServeArgsRefusal> serve_args_refusal(const ServeArgs& a, const ModelConfig& m, const std::string& source,
                                                   bool layout_used);

}  // namespace moeplan
