// The serving flags and the "serving" section (docs/serving.md).
#include "serving_flags.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cluster_flags.hpp"
#include "common_flags.hpp"
#include "moeplan/base/bounded_read.hpp"
#include "moeplan/serving/serve_args.hpp"

namespace moeplan::cli {

namespace {

// A token count as vLLM reads --max-model-len and --max-num-batched-tokens: 32k is 32,000,
// 32K is 32,768 (human_readable_tokens); a plain number is left to the flag's own check.
CLI::Validator human_tokens() {
  return CLI::Validator(
      [](std::string& text) {
        const auto h = human_readable_tokens(text);
        if (!h) return std::string();
        if (!*h) return h->error();
        text = std::to_string(**h);
        return std::string();
      },
      "", "human_tokens");
}

// The engine's flags: which engine, and the figures it reads from its own command line.
void add_engine_flags(CLI::App& sub, ServingFlags& f, const std::string& group) {
  sub.add_option("--serve-engine", f.engine,
                 "Serving engine whose memory plan the section follows: vllm (v0.10 line) or sglang (v0.4 line)")
      ->check(CLI::IsMember({"vllm", "sglang"}))
      ->each([&f](const std::string&) { f.engine_given = true; })
      ->capture_default_str()
      ->group(group);
  sub.add_option("--serve-memory-utilization", f.memory_utilization,
                 "Fraction of each GPU's memory the engine may use, in (0, 1]: vLLM's --gpu-memory-utilization "
                 "[0.9], SGLang's --mem-fraction-static [0.88 at TP 1 to 0.79 at TP 16]")
      ->check(decimal_number())
      ->group(group);
  sub.add_option("--serve-max-batched-tokens", f.max_batched_tokens,
                 "vLLM's --max-num-batched-tokens: the tokens of its profile run, whose activation peak is kept "
                 "from the KV cache [8192 on GPUs of 70 GiB or more other than the A100, else 2048]; 16k is "
                 "16,000, 16K 16,384, as vLLM reads it")
      ->transform(human_tokens())
      ->check(decimal_number())
      ->group(group);
  sub.add_option("--serve-max-seqs", f.max_seqs,
                 "The engine's limit on running sequences (vLLM --max-num-seqs [1024 on GPUs of 70 GiB or more "
                 "other than the A100, else 256]; SGLang --max-running-requests [per DP rank min(T/2, min(max(T/C x "
                 "512, 2048), 4096)), T its KV pool's tokens, C the context]): caps the largest batch")
      ->check(decimal_number())
      ->group(group);
  sub.add_flag("--serve-expert-parallel", f.expert_parallel,
               "Routed experts whole on the expert-parallel ranks (vLLM --enable-expert-parallel); by default each "
               "expert is split over the tensor-parallel ranks")
      ->group(group);
  sub.add_flag("--serve-dp-attention", f.dp_attention,
               "Attention of tensor-parallel size 1 on every GPU, each with its own sequences and cache (SGLang "
               "--enable-dp-attention)")
      ->group(group);
  sub.add_option("--serve-non-torch-gib", f.non_torch_gib,
                 "GiB per GPU outside torch's allocator (CUDA context, NCCL, cuBLAS), a figure the engine measures "
                 "at start-up [vllm 0.2, sglang 3.11: measured, docs/serving.md]")
      ->check(number_in(0.0, 1e6))
      ->group(group);
  sub.add_option("--serve-args", f.args_file,
                 "A `vllm serve` or `python -m sglang.launch_server` command line (a launch script): the engine, "
                 "GPUs (TP x PP x DP), fraction, batched tokens, sequences, context, KV dtype, expert/DP "
                 "attention flags and --speculative-config deepseek_mtp (as --serve-mtp) as the engine reads them; "
                 "the serving flags given win; the flags not modelled are listed")
      ->group(group);
  sub.add_option("--serve-cuda-graph-gib", f.cuda_graph_gib,
                 "GiB per GPU of CUDA graphs, captured after the KV cache: they must fit in what the fraction "
                 "leaves [0.64: measured, docs/serving.md]")
      ->check(number_in(0.0, 1e6))
      ->group(group);
}

// The engine's command line fills what the serving flags left open (the flags win), and says on
// stderr what it read and which of its flags the serving model does not use.
void apply_serve_args(const ServeArgs& a, const ServingFlags& f, ServingOptions& o, const Io& io) {
  if (!f.engine_given) o.engine = a.engine;
  if (!f.memory_utilization && a.memory_fraction) o.memory_fraction = a.memory_fraction;
  if (!f.max_batched_tokens && a.max_batched_tokens && o.engine == ServeEngine::vllm) {
    o.max_batched_tokens = *a.max_batched_tokens;
  }
  if (!f.max_seqs && a.max_seqs) o.max_seqs = *a.max_seqs;
  if (!f.context && a.context) {
    o.context = *a.context;
    o.context_source = fmt::format("--serve-args ({})", a.engine == ServeEngine::vllm ? "--max-model-len" : "--context-length");
  }
  if (!f.kv_given && a.kv) o.kv = *a.kv;
  o.expert_parallel = o.expert_parallel || a.expert_parallel;
  o.dp_attention = o.dp_attention || a.dp_attention;
  o.count_mtp = o.count_mtp || a.mtp;  // --speculative-config deepseek_mtp: the model's MTP modules are the draft
  // --quantization fp8: a bf16 checkpoint quantized as it loads (--serve-weights, given, wins; an
  // fp8 checkpoint is served as stored, one of another method refused by serve_args_refusal).
  if (a.online_fp8_line > 0 && !f.weights_given) o.online_fp8 = true;
  // No CUDA graphs captured: none to fit after the KV cache (a --serve-cuda-graph-gib given wins).
  if (!a.cuda_graphs_off.empty() && !f.cuda_graph_gib) o.cuda_graph_bytes = 0.0;
  if (!f.gpus) {  // the GPUs are the file's: its layout too (not when --serve-gpus moves them)
    o.engine_tp = a.attention_tp();
    o.engine_pp = a.pp.value_or(1);
  }
  std::string unused;
  for (const std::string& u : a.unused) unused += fmt::format("{}{}", unused.empty() ? "" : ", ", u);
  std::string speculative;
  if (a.mtp) {
    speculative = fmt::format("; speculative decoding deepseek_mtp{}: the model's MTP modules are served and their "
                              "cache counted, as --serve-mtp serves them",
                              a.speculative_tokens ? fmt::format(", {} token(s) a step", *a.speculative_tokens) : "");
  } else if (!a.speculative_method.empty()) {
    speculative = fmt::format("; speculative decoding {}: not modelled, its draft model's weights and cache are not "
                              "counted",
                              a.speculative_method);
  }
  const std::string eager =
      a.cuda_graphs_off.empty() ? std::string()
      : f.cuda_graph_gib        ? fmt::format("; {}: no CUDA graphs, but --serve-cuda-graph-gib counts {:g} GiB",
                                              a.cuda_graphs_off, *f.cuda_graph_gib)
                                : fmt::format("; {}: no CUDA graphs captured, none counted", a.cuda_graphs_off);
  const std::string online =
      a.online_fp8_line == 0 ? std::string()
      : f.weights_given      ? fmt::format("; --quantization fp8: not used, --serve-weights {} says how the weights are "
                                           "stored",
                                           f.weights)
                             : std::string("; --quantization fp8: a bf16 checkpoint is quantized to fp8 as it loads "
                                           "(a checkpoint already in fp8 is served as stored, one of another method "
                                           "refused)");
  io.note(fmt::format("--serve-args {}: {} {}{}(TP {} x PP {} x DP {}{}){}{}{}{}", f.args_file,
                      a.engine == ServeEngine::vllm ? "vllm serve" : "sglang.launch_server", a.model,
                      a.model.empty() ? "" : " ", a.tp.value_or(1), a.pp.value_or(1), a.dp.value_or(1),
                      f.gpus ? fmt::format(", not used: --serve-gpus {} lays out the GPUs", *f.gpus) : std::string(),
                      speculative, eager, online, unused.empty() ? std::string() : fmt::format("; not modelled: {}", unused)));
}

}  // namespace

void add_serving_flags(CLI::App& sub, ServingFlags& f, bool with_fit) {
  const std::string group = "Serving (docs/serving.md)";
  sub.add_option("--serve-gpus", f.gpus,
                 "Serve the model on this many GPUs (with --serve-gpu): TP and EP over one node, whole "
                 "nodes beyond it as pipeline stages (vllm) or TP across them (sglang). Adds the serving section: weights and cache per "
                 "GPU, the largest batch at the context, the decode bound")
      ->transform(decimal_whole())->check(CLI::Range(1, 1 << 16))
      ->group(group);
  sub.add_option("--serve-gpu", f.gpu, "GPU kind of the inference node, from the catalog (--gpu-catalog adds kinds)")
      ->group(group);
  sub.add_option("--serve-context", f.context,
                 "Tokens each served sequence holds in its cache [the engine's default for a config.json model: "
                 "vLLM's max_model_len or SGLang's context_len, derived from max_position_embeddings and "
                 "rope_scaling as each engine derives it; else the training sequence length]; 32k is 32,000, 32K "
                 "32,768, as vLLM reads --max-model-len")
      ->transform(human_tokens())
      ->check(number_in(1.0, 1e9))
      ->group(group);
  sub.add_option("--serve-weights", f.weights,
                 "Storage of the served linear layers: bf16, fp8 (128x128 block scales; needs FP8 tensor "
                 "cores) or fp4 (MXFP4, weight-only)")
      ->check(CLI::IsMember({"bf16", "fp8", "fp4"}))
      ->each([&f](const std::string&) { f.weights_given = true; })
      ->capture_default_str()
      ->group(group);
  sub.add_option("--serve-kv", f.kv, "Storage of the KV cache: bf16 or fp8 (1 byte an element; without FP8 tensor cores storage only; "
                 "off Hopper and Blackwell vLLM falls back to its V0 engine and refuses it for MLA; SGLang keeps it)")
      ->check(CLI::IsMember({"bf16", "fp8"}))
      ->each([&f](const std::string&) { f.kv_given = true; })
      ->capture_default_str()
      ->group(group);
  sub.add_flag("--serve-mtp", f.mtp,
               "Serve the multi-token-prediction modules too (speculative decoding); by default they are dropped")
      ->group(group);
  sub.add_option("--serve-batch", f.batch,
                 with_fit ? "Sequences at the context the node must hold beside the weights [1]: the "
                            "serving section's bound, and --serve-fit's"
                          : "Sequences at the context the node must hold beside the weights [1]")
      ->check(number_in(1.0, 1e9))
      ->group(group);
  add_engine_flags(sub, f, group);
  if (!with_fit) {
    sub.add_flag("--serve-min-gpus", f.min_gpus,
                 "Find the fewest GPUs of --serve-gpu that hold --serve-batch sequences of --serve-context tokens "
                 "(1 to a node, then whole nodes; TP the widest of a node, then for vllm smaller TP with pipeline "
                 "stages), and serve on them (instead of --serve-gpus)")
        ->group(group);
  }
  if (with_fit) {
    sub.add_flag("--serve-fit", f.fit,
                 "Cap the plan's size so that it fits the serving node at --serve-batch sequences of "
                 "--serve-context tokens: the largest such plan (a size cap like --total-params, on "
                 "every served weight and the cache); the price section says what the cap costs")
        ->group(group);
  }
}

std::expected<std::optional<ServingOptions>, int> serving_from_flags(const ServingFlags& f,
                                                                    const ClusterFlags& cluster,
                                                                    const Io& io,
                                                                    std::optional<ServeArgs>* file_out) {
  const auto usage = [&io](const std::string& why) {
    return std::unexpected(fail(io, ExitStatus::usage, why));
  };
  // The catalog serves the training cluster and the inference node: with neither it would be
  // read for nothing and the run would pass as if it had mattered.
  if (!f.given() && !cluster.catalog_file.empty() && !cluster.given()) {
    return usage("--gpu-catalog needs a GPU to look up: --gpus N --gpu KIND (training) or --serve-gpus N "
                 "--serve-gpu KIND (serving)");
  }
  if (!f.given() && cluster.hbm_efficiency && !cluster.given()) {
    return usage("--hbm-efficiency needs a GPU: --gpus N --gpu KIND (training) or --serve-gpus N --serve-gpu KIND "
                 "(serving)");
  }
  if (!f.given()) return std::nullopt;
  const std::string& catalog_file = cluster.catalog_file;
  std::optional<ServeArgs> file;  // --serve-args: the engine's own command line
  if (!f.args_file.empty()) {
    auto text = read_bounded(f.args_file, k_max_config_bytes, "a serving engine's command line");
    if (!text) {
      InputError e = text.error();
      e.key = "--serve-args";
      return std::unexpected(fail(io, e));
    }
    auto a = read_serve_args(*text, f.args_file);
    if (!a) return std::unexpected(fail(io, a.error()));
    // The two engines' fractions mean different things (of the GPU, of what is free before the
    // weights): a file of one engine is not read as the other's.
    if (f.engine_given && parse_serve_engine(f.engine) != a->engine) {
      return usage(fmt::format("--serve-engine {} contradicts --serve-args {}, a {} command line", f.engine,
                               f.args_file, a->engine == ServeEngine::vllm ? "`vllm serve`" : "SGLang"));
    }
    file = std::move(*a);
  }
  const int given_gpus = f.gpus ? *f.gpus : (file ? file->gpus() : 0);  // 0: not given
  if (f.min_gpus && given_gpus > 0) {
    return usage(f.gpus ? "--serve-min-gpus finds the GPU count: not with --serve-gpus"
                        : "--serve-min-gpus finds the GPU count: not with a --serve-args file, whose TP x PP x DP "
                          "gives it");
  }
  if (f.min_gpus && f.gpu.empty()) return usage("--serve-min-gpus needs --serve-gpu KIND (the GPU to count)");
  if (!f.min_gpus && (given_gpus == 0 || f.gpu.empty())) {
    return usage(given_gpus > 0          ? "--serve-gpus needs --serve-gpu KIND (the inference node's GPU: h100, h200, ...)"
                 : !f.gpu.empty() ? "--serve-gpu needs --serve-gpus N (how many GPUs serve the model) or, with score, "
                                    "--serve-min-gpus (the fewest that hold the batch)"
                                  : "the serving flags need the inference node: --serve-gpus N and --serve-gpu KIND");
  }
  auto catalog = gpu_catalog_from_flag(catalog_file);
  if (!catalog) return std::unexpected(fail(io, catalog.error()));
  const GpuSpec* gpu = catalog->find(f.gpu);
  if (!gpu) return usage(fmt::format("--serve-gpu: unknown GPU '{}'; the catalog has {}", f.gpu, catalog->ids()));
  ServingOptions o;
  o.gpu = *gpu;
  o.gpus = given_gpus > 0 ? given_gpus : 1;  // --serve-min-gpus: set once the model is known
  o.min_gpus = f.min_gpus;
  // CLI11 checked the words; integral counts are checked here (a fraction of a token is a slip).
  if (f.context && *f.context != std::floor(*f.context)) {
    return usage(fmt::format("--serve-context: a whole number of tokens, got {:g}", *f.context));
  }
  if (f.batch && *f.batch != std::floor(*f.batch)) {
    return usage(fmt::format("--serve-batch: a whole number of sequences, got {:g}", *f.batch));
  }
  o.context = f.context ? static_cast<std::int64_t>(*f.context) : 0;  // 0: the engine's or the model's, set by the caller
  if (f.context) o.context_source = "--serve-context";
  o.weights = parse_serve_precision(f.weights).value_or(ServePrecision::bf16);
  o.weights_as_checkpoint = !f.weights_given;  // a config.json's quantization_config, when it has one
  o.kv = parse_serve_precision(f.kv).value_or(ServePrecision::bf16);
  o.count_mtp = f.mtp;
  o.hbm_efficiency = cluster.hbm_efficiency.value_or(k_hbm_efficiency);
  o.min_batch = f.batch ? static_cast<std::int64_t>(*f.batch) : 1;
  o.decode_at_min_batch = f.batch.has_value();
  o.engine = parse_serve_engine(f.engine).value_or(ServeEngine::vllm);
  if (f.memory_utilization && !(*f.memory_utilization > 0 && *f.memory_utilization <= 1)) {
    return usage(fmt::format("--serve-memory-utilization: a fraction in (0, 1], got {:g}", *f.memory_utilization));
  }
  o.memory_fraction = f.memory_utilization;
  if (f.max_batched_tokens && (*f.max_batched_tokens < 1 || *f.max_batched_tokens > 1e9 ||
                               *f.max_batched_tokens != std::floor(*f.max_batched_tokens))) {
    return usage(fmt::format("--serve-max-batched-tokens: a whole number of tokens, at least 1, got {:g}",
                             *f.max_batched_tokens));
  }
  if (f.max_batched_tokens && o.engine == ServeEngine::sglang) {
    return usage("--serve-max-batched-tokens: vLLM's profile run; SGLang (--serve-engine sglang) sizes its pool "
                 "before any forward pass");
  }
  o.max_batched_tokens = f.max_batched_tokens ? static_cast<std::int64_t>(*f.max_batched_tokens) : 0;
  if (f.max_seqs && (*f.max_seqs < 1 || *f.max_seqs > 1e9 || *f.max_seqs != std::floor(*f.max_seqs))) {
    return usage(fmt::format("--serve-max-seqs: a whole number of sequences, at least 1, got {:g}", *f.max_seqs));
  }
  o.max_seqs = f.max_seqs ? static_cast<std::int64_t>(*f.max_seqs) : 0;
  o.expert_parallel = f.expert_parallel;
  o.dp_attention = f.dp_attention;
  if (f.non_torch_gib) o.non_torch_bytes = *f.non_torch_gib * k_gib;
  if (f.cuda_graph_gib) o.cuda_graph_bytes = *f.cuda_graph_gib * k_gib;
  ServingOptions flags_only = o;  // before the file's values: a problem only they bring is the file's
  if (file) apply_serve_args(*file, f, o, io);
  if (o.engine == ServeEngine::vllm && o.max_batched_tokens > 0) {
    // vLLM's SchedulerConfig refuses max_num_batched_tokens < max_num_seqs (it cannot schedule
    // one token of each running sequence in a step).
    const std::int64_t seqs = o.max_seqs > 0 ? o.max_seqs : vllm_default_max_seqs(o.gpu);
    if (o.max_batched_tokens < seqs) {
      const std::string why = fmt::format("{} is below the {} sequences vLLM runs at once (max_num_seqs{}): vLLM "
                                          "refuses to start",
                                          o.max_batched_tokens, seqs, o.max_seqs > 0 ? "" : ", its default on this GPU");
      if (file && !f.max_batched_tokens) {  // the file's --max-num-batched-tokens: its line, exit 3
        return std::unexpected(fail(io, ExitStatus::infeasible,
                                    fmt::format("{}:{}: {}: {}", f.args_file, file->batched_tokens_at.line,
                                                file->batched_tokens_at.flag, why)));
      }
      return usage(fmt::format("--serve-max-batched-tokens {}; give --serve-max-seqs too", why));
    }
  }
  ServingOptions checked = o;
  if (checked.context == 0) checked.context = 1;  // the model's S is checked where it is known
  if (auto why = serving_problem(checked)) {
    flags_only.context = checked.context;
    flags_only.engine_tp = o.engine_tp;  // the file's layout is not the problem: serving_problem takes it
    flags_only.engine_pp = o.engine_pp;
    if (file && !serving_problem(flags_only)) {  // a value of the file: named with its line, exit 4
      const bool kv = why->starts_with("--serve-kv");
      const ServeFlagAt at = kv ? file->kv_at : ServeFlagAt{"--serve-args", file->line};
      const auto colon = why->find(": ");
      return std::unexpected(fail(io, ExitStatus::input_file,
                                  fmt::format("{}:{}: {}: {}", f.args_file, at.line, at.flag,
                                              kv && colon != std::string::npos ? why->substr(colon + 2) : *why)));
    }
    return usage(*why);
  }
  if (file_out) *file_out = file;
  return o;
}

std::optional<int> refuse_serve_args(Report& report, const ModelConfig& m, const ServeArgs& file,
                                     const ServingFlags& f, const ServingOptions& o, int seq_len, const Io& io) {
  const auto refused = serve_args_refusal(file, m, f.args_file, !f.gpus);
  if (!refused) return std::nullopt;
  ServingOptions node = o;
  if (node.context == 0) node.context = seq_len;
  const std::string where = refused->where.to_string();
  add_serving(report, m, std::unexpected(refused->engine_refuses ? "the engine does not start: " + where : where), node);
  return fail(io, refused->engine_refuses ? ExitStatus::infeasible : ExitStatus::input_file,
              refused->engine_refuses ? fmt::format("{}: serving: does not start: {}", printable(m.name), where)
                                      : fmt::format("{}: serving: {}", printable(m.name), where));
}

std::expected<ServingFit, std::string> serving_fit_on_node(const ModelConfig& m, ServingOptions& o) {
  if (!o.min_gpus) return serving_fit(m, o);
  // --serve-min-gpus: the fewest that hold the batch; none: the largest layout tried is shown.
  const std::optional<MinGpuLayout> fewest = serving_min_layout(m, o);
  const int node = std::max(1, o.gpu.gpus_per_node);
  const int layers = std::max(1, m.num_hidden_layers);
  o.gpus = fewest ? fewest->gpus : (layers * node <= (1 << 16) ? layers * node : node);
  if (fewest && fewest->tp) {  // a smaller TP with pipeline stages held it
    o.engine_tp = fewest->tp;
    o.engine_pp = fewest->pp;
  }
  auto fit = serving_fit(m, o);
  if (fit) {
    const std::string tried =
        o.engine == ServeEngine::vllm && !o.engine_tp && !o.dp_attention
            ? "TP the widest of a node that splits the heads with whole nodes as stages, then smaller TP with "
              "stages inside a node"
            : o.engine == ServeEngine::sglang
                  ? "TP the widest that splits the heads, across whole nodes (SGLang v0.4 has no pipeline stages); "
                    "replicas of a smaller TP (--dp) are not searched"
                  : "TP the widest that splits the heads";
    fit->notes.insert(
        fit->notes.begin(),
        fewest ? fmt::format("--serve-min-gpus: {} x {} is the fewest that hold {} sequence(s) of {} tokens{}", fewest->gpus,
                             o.gpu.id, o.min_batch, o.context,
                             fewest->tp ? fmt::format(" (TP {} x PP {}: TP {}, the widest of a node, does not)", *fewest->tp,
                                                      *fewest->pp, std::min(fewest->gpus, node))
                                        : std::string())
               : fmt::format("--serve-min-gpus: no count of {} up to {} holds {} sequence(s) of {} tokens (tried: {}); "
                             "the largest is shown{}",
                             o.gpu.id, o.gpus, o.min_batch, o.context, tried,
                             o.expert_parallel ? std::string()
                                               : "; not tried: --serve-expert-parallel, which keeps each expert whole "
                                                 "(no fp8 block split)"));
  }
  return fit;
}

void warn_context(const ModelConfig& m, const ServingOptions& o, int train_seq_len, const std::string& who,
                  const Io& io) {
  if (train_seq_len > 0 && o.context > train_seq_len) {
    io.warning(fmt::format("{}--serve-context {} is longer than the training sequence length {}: the cache is counted, "
                           "the quality at that length is not",
                           who, o.context, train_seq_len));
  }
  // A config.json maximum: the fit refuses a longer context as the engine does (context_limit_refusal).
  if (m.max_position_embeddings > 0 && o.context > m.max_position_embeddings && !m.context_length_keys) {
    // vLLM (config.py, _get_and_verify_max_len) and SGLang refuse a context past the model's
    // derived maximum unless VLLM_ALLOW_LONG_MAX_MODEL_LEN / SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN
    // is set; rope scaling raises that maximum, and moeplan does not read it: a warning, not a refusal.
    io.warning(fmt::format("{}--serve-context {} is past the model's max_position_embeddings {}: the engines refuse "
                           "it unless rope scaling raises their derived maximum or VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 / "
                           "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 is set",
                           who, o.context, m.max_position_embeddings));
  }
}

void add_serving(Report& report, const ModelConfig& m, const std::expected<ServingFit, std::string>& got,
                 const ServingOptions& o) {
  Section sec{"serving", fmt::format("Serving on {} x {} at {} tokens", o.gpus, o.gpu.id, o.context), {}};
  sec.summary = true;
  auto& f = sec.fields;
  const auto add = [&f](std::string key, std::string symbol, std::string unit, Value v, std::string what,
                        bool detail = false) {
    f.push_back({std::move(key), std::move(symbol), std::move(unit), std::move(v), std::move(what), false,
                 detail ? Summary::detail : Summary::none});
  };
  add("gpu", "", "", o.gpu.id, "GPU of the inference node");
  add("gpus", "", "GPUs", i64(o.gpus), "GPUs serving one copy of the model");
  add("engine", "", "", std::string(engine_release(o.engine)), "the engine and release line the memory plan follows",
      true);
  add("context", "", "tokens", o.context, "tokens each sequence holds in its cache");
  add("context_source", "", "", o.context_source.empty() ? Value(Missing{"not said"}) : Value(o.context_source),
      "where the context came from: the flag, the engine's default derived from config.json, or the training S", true);
  add("weights_precision", "", "",
      got && !got->weights_storage.empty() ? got->weights_storage : serving_weights_storage(m, o),
      "storage of the linear layers", true);
  add("kv_precision", "", "", std::string(to_string(o.kv)), "storage of the KV cache", true);
  const auto missing = [](const std::string& why) { return Value(Missing{why}); };
  if (!got) {
    const std::string why = got.error().starts_with("the weights cannot") || got.error().starts_with("the engine does not")
                                ? got.error()
                                : "the cache cannot be counted: " + got.error();
    add("fits", "", "", missing(why), "the weights and --serve-batch sequences fit");
    add("reason", "", "", why, "why the section has no figures");
    report.sections.push_back(std::move(sec));
    return;
  }
  const ServingFit& s = *got;
  add("tp", "TP", "", i64(s.split.tp), "tensor parallel ranks: attention, dense FFN, shared experts, embeddings", true);
  add("ep", "EP", "", i64(s.split.ep), "expert parallel ranks: the routed experts", true);
  add("attention_groups", "DP", "", i64(s.split.dp),
      "data-parallel attention groups of TP GPUs in a stage (the engine's --dp or DP attention; moeplan's own layout: 1 unless TP cannot split the heads over the node)", true);
  add("pipeline_stages", "PP", "", i64(s.split.stages), "pipeline stages (a node each in moeplan's own layout; as the --serve-args file gives them), never more than the layers",
      true);
  add("gpus_used", "", "GPUs", i64(s.gpus_used), "GPUs the layout uses (those beyond one stage a layer are left unused)",
      true);
  add("max_batched_tokens", "", "tokens", s.max_batched_tokens > 0 ? Value(s.max_batched_tokens)
                                                                    : missing("SGLang profiles no forward pass"),
      "vLLM's --max-num-batched-tokens: the profile run's tokens", true);
  add("max_seqs", "", "sequences", s.max_seqs > 0 ? Value(s.max_seqs) : missing("no engine limit"),
      "the engine's limit on running sequences per attention group", true);
  add("served_params", "", "params", s.served_params,
      "every weight served: N, embeddings, head, routers, norms, biases (MTP if --serve-mtp)");
  add("weights_total", "", "GiB", s.weight_bytes / k_gib, "the served weights, all GPUs", true);
  add("weights_per_gpu", "", "GiB", s.weight_bytes_per_gpu / k_gib, "the busiest GPU's share");
  add("hbm_per_gpu", "", "GiB", s.hbm_per_gpu / k_gib,
      "memory of one GPU: the driver's total where the catalog has it (hbm_driver_mib), else the datasheet's GB", true);
  add("left_per_gpu", "", "GiB", (s.hbm_per_gpu - s.weight_bytes_per_gpu) / k_gib, "HBM minus the weights");
  add("memory_utilization", "", "", s.memory_fraction,
      o.engine == ServeEngine::vllm ? "vLLM's --gpu-memory-utilization" : "SGLang's --mem-fraction-static", true);
  add("activation_peak_per_gpu", "", "GiB", s.activation_peak_per_gpu / k_gib,
      "the profile run's peak beside the weights (vLLM; the larger of its forward pass and its sampler)", true);
  add("forward_peak_per_gpu", "", "GiB", s.forward_peak_per_gpu / k_gib,
      "its forward pass at max_batched_tokens: residual stream and the largest layer's intermediates", true);
  add("sampler_peak_per_gpu", "", "GiB", s.sampler_peak_per_gpu / k_gib,
      "its logits and sampler for min(max_seqs, max_batched_tokens) requests (last stage)", true);
  add("non_torch_per_gpu", "", "GiB", s.non_torch_per_gpu / k_gib,
      "memory outside torch's allocator (CUDA context, NCCL): a measured figure (--serve-non-torch-gib)", true);
  add("cuda_graph_per_gpu", "", "GiB", s.cuda_graph_per_gpu / k_gib,
      "CUDA graphs, captured after the KV cache (--serve-cuda-graph-gib): in what the fraction leaves", true);
  add("cache_budget_per_gpu", "", "GiB", s.cache_budget_per_gpu / k_gib,
      o.engine == ServeEngine::vllm
          ? fmt::format("{:g} of HBM minus the weights, the activation peak and non-torch memory: vLLM's KV cache",
                        s.memory_fraction)
          : fmt::format("{:g} of HBM minus the weights and what is used before them: SGLang's KV pool",
                        s.memory_fraction));
  add("kv_block_size", "", "tokens", i64(s.block_size), "tokens per KV block, as the engine rounds", true);
  // An engine that does not start prints no cache size: those keys are null with why.
  const bool starts = s.no_start.empty();
  add("kv_cache_tokens", "", "tokens",
      !starts ? missing(s.no_start) : s.kv_cache_tokens > 0 ? Value(s.kv_cache_tokens) : missing("no KV cache"),
      "\"GPU KV cache size\": tokens the busiest GPU's cache holds");
  add("max_concurrency", "", "x",
      !starts ? missing(s.no_start) : s.max_concurrency > 0 ? Value(s.max_concurrency) : missing("no KV cache"),
      "\"Maximum concurrency\": sequences at the context the cache holds, per attention group");
  add("engine_log", "", "", starts ? Value(TextList(s.engine_log)) : missing(s.no_start),
      "the engine's start-up lines, as it prints them (null when it does not start)", true);
  add("cache_kind", "", "", s.cache_kind, "what the cache holds");
  add("cache_formula", "", "", s.cache_formula, "per token and layer, as counted", true);
  add("cache_per_token", "", "KiB", s.cache_bytes_per_token / 1024.0,
      "cache per context token, all layers without a sliding window, one copy", true);
  add("cache_per_sequence", "", "GiB", s.cache_bytes_per_sequence / k_gib, "one sequence at the context, one copy");
  add("cache_per_sequence_per_gpu", "", "GiB", s.cache_bytes_per_sequence_per_gpu / k_gib,
      "one sequence on the busiest GPU (TP copies included)", true);
  add("fits", "", "", s.fits, fmt::format("the weights and {} sequence(s) at the context fit", o.min_batch));
  add("reason", "", "", s.why_not, "why not, when it does not fit");
  add("max_batch", "B_max", "sequences", s.fits ? Value(s.max_batch) : missing("does not fit"),
      "the most sequences at the context the cache budget holds");
  if (s.decode) {
    const DecodeStep& d = *s.decode;
    add("decode_batch", "B", "sequences", d.batch, "the batch the decode bound is for (--serve-batch, else B_max)",
        !o.decode_at_min_batch);
    add("experts_touched", "", "experts", d.experts_touched > 0 ? Value(d.experts_touched) : missing("no routed experts"),
        "expected distinct routed experts of one MoE layer that a (micro-)batch reads, uniform routing", true);
    add("decode_step", "", "ms", d.seconds() * 1e3,
        "every sequence of the batch advances a token: the slower of the two bounds (x the stages' micro-batches)");
    add("decode_bound", "", "", std::string(d.memory_bound() ? "memory" : "compute"), "which bound decides");
    add("decode_memory_time", "", "ms", d.memory_seconds * 1e3,
        "weights read + cache read by the busiest GPU over HBM x 0.85 (measured), per (micro-)batch", true);
    add("decode_compute_time", "", "ms", d.compute_seconds * 1e3,
        "the busiest GPU's FLOPs over peak x 0.6, per (micro-)batch", true);
    add("decode_weights_read", "", "GiB", d.weight_bytes / k_gib, "weights the busiest GPU reads per (micro-)batch", true);
    add("decode_cache_read", "", "GiB", d.cache_bytes / k_gib, "cache the busiest GPU reads per (micro-)batch", true);
    add("decode_tokens_per_s", "", "tokens/s", d.tokens_per_second(), "the node's decode throughput bound at that batch");
    add("decode_tokens_per_s_per_sequence", "", "tokens/s", d.seconds() > 0 ? 1.0 / d.seconds() : 0.0,
        "one sequence's decode speed at that batch");
  } else {
    const Value none = missing(s.fits ? "no decode step" : "does not fit");
    for (const char* key : {"decode_batch", "experts_touched", "decode_step", "decode_bound", "decode_memory_time",
                            "decode_compute_time", "decode_weights_read", "decode_cache_read", "decode_tokens_per_s",
                            "decode_tokens_per_s_per_sequence"}) {
      const bool detail = std::string_view(key) != "decode_step" && std::string_view(key) != "decode_tokens_per_s";
      add(key, "", "", none, "see the serving section's fits", detail);
    }
  }
  add("notes", "", "", TextList(s.notes), "what the figures assume", true);
  report.sections.push_back(std::move(sec));
}

}  // namespace moeplan::cli
