// The serving section of `score` and `suggest` (issue 35; the --serve-fit goal:
// tests/planner/test_serving_goal.cpp):
// typed JSON, exit statuses, nothing on stdout for a usage error, the other sections still
// printed when the model does not fit the node.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_run.hpp"

using nlohmann::json;

namespace {

const std::string k_hf = std::string(MOEPLAN_TEST_DATA_DIR) + "/hf/";

json serving_of(const Run& r) {
  INFO(r.err);
  return json::parse(r.out).at(0).at("serving");
}

}  // namespace

TEST_CASE("score --serve-gpus: a section of typed figures for a model that fits") {
  const Run r = run_moeplan({"score", k_hf + "qwen3-30b-a3b.json", "--serve-gpus", "8", "--serve-gpu", "h100",
                             "--serve-context", "32768", "--format", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json s = serving_of(r);
  CHECK(s.at("fits") == true);
  CHECK(s.at("gpus") == 8);
  CHECK(s.at("context") == 32768);
  CHECK(s.at("max_batch").is_number_integer());
  CHECK(s.at("max_batch").get<long long>() > 1);
  CHECK(s.at("decode_tokens_per_s").get<double>() > 0);
  CHECK(s.at("decode_bound").is_string());
  CHECK(s.at("cache_kind") == "GQA");
  // 48 layers x 2 x 4 x 128 x 2 bytes = 96 KiB a token.
  CHECK(s.at("cache_per_token").get<double>() == doctest::Approx(96.0));
}

TEST_CASE("score: a model that does not fit the node exits 3 naming the bound, the other sections printed") {
  const Run r = run_moeplan({"score", k_hf + "deepseek-v3.1.json", "--serve-gpus", "8", "--serve-gpu", "h100",
                             "--format", "json"});
  CHECK(r.code == 3);
  CHECK(r.err.find("weights") != std::string::npos);
  CHECK(r.err.find("GiB") != std::string::npos);
  const json doc = json::parse(r.out).at(0);
  CHECK(doc.contains("model"));
  CHECK(doc.contains("size"));
  const json& s = doc.at("serving");
  CHECK(s.at("fits") == false);
  CHECK(s.at("max_batch").is_null());
  CHECK(s.at("max_batch_reason").get<std::string>().find("does not fit") != std::string::npos);
  CHECK(s.at("decode_step").is_null());
}

TEST_CASE("serving usage errors exit 2 with nothing on stdout") {
  const std::vector<std::vector<std::string>> cases = {
      {"score", "qwen3-30b-a3b", "--serve-gpus", "8"},
      {"score", "qwen3-30b-a3b", "--serve-gpu", "h100"},
      {"score", "qwen3-30b-a3b", "--serve-context", "4096"},
      {"score", "qwen3-30b-a3b", "--serve-gpus", "8", "--serve-gpu", "a100", "--serve-weights", "fp8", "--serve-engine",
       "sglang"},
      {"score", "qwen3-30b-a3b", "--serve-gpus", "8", "--serve-gpu", "h100", "--serve-kv", "fp4"},
      {"score", "qwen3-30b-a3b", "--serve-gpus", "12", "--serve-gpu", "h100"},
      {"score", "qwen3-30b-a3b", "--serve-gpus", "8", "--serve-gpu", "tpu"},
      {"score", "qwen3-30b-a3b", "--serve-gpus", "8", "--serve-gpu", "h100", "--serve-context", "1000.5"},
      {"suggest", "--flops", "1e21:1e22:1", "--serve-gpus", "8", "--serve-gpu", "h100"},
      {"suggest", "--serve-fit", "--flops", "1e22"},
      {"suggest", "--serve-fit", "--gpus", "64", "--gpu", "h100", "--days", "10", "--serve-gpus", "8",
       "--serve-gpu", "h100"},
  };
  for (const auto& args : cases) {
    CAPTURE(fmt_args(args));
    const Run r = run_moeplan(args);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK_FALSE(r.err.empty());
  }
}

TEST_CASE("the engine's figures out of range exit 2 naming the flag, nothing on stdout") {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--serve-memory-utilization", "0"}, "--serve-memory-utilization"},
      {{"--serve-memory-utilization", "1.2"}, "--serve-memory-utilization"},
      {{"--serve-memory-utilization", "-0.5"}, "--serve-memory-utilization"},
      {{"--serve-max-batched-tokens", "0"}, "--serve-max-batched-tokens"},
      {{"--serve-max-batched-tokens", "12.5"}, "--serve-max-batched-tokens"},
      // vLLM refuses max_num_batched_tokens below max_num_seqs (1024 on an H100 by default).
      {{"--serve-max-batched-tokens", "16"}, "--serve-max-batched-tokens 16 is below the 1024 sequences"},
      {{"--serve-max-batched-tokens", "16", "--serve-max-seqs", "32"}, "--serve-max-batched-tokens 16 is below the 32"},
      {{"--serve-max-seqs", "0"}, "--serve-max-seqs"},
      {{"--serve-engine", "trtllm"}, "--serve-engine"},
      {{"--serve-engine", "sglang", "--serve-max-batched-tokens", "8192"}, "--serve-max-batched-tokens"},
      {{"--serve-min-gpus"}, "--serve-min-gpus"},
  };
  for (const auto& [extra, flag] : cases) {
    std::vector<std::string> args = {"score", "qwen3-30b-a3b", "--serve-gpus", "8", "--serve-gpu", "h100"};
    args.insert(args.end(), extra.begin(), extra.end());
    CAPTURE(fmt_args(args));
    const Run r = run_moeplan(args);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find(flag) != std::string::npos);
  }
  // A fraction of exactly 1 is allowed, and leaves nothing for the CUDA graphs captured after
  // the KV cache: the engine would fail to start (exit 3, the graphs named); without graphs it fits.
  const Run one = run_moeplan({"score", "qwen3-30b-a3b", "--serve-gpus", "8", "--serve-gpu", "h100",
                               "--serve-memory-utilization", "1", "--format", "json"});
  CHECK(one.code == 3);
  CHECK(one.err.find("CUDA graphs: 0.64 GiB per GPU") != std::string::npos);
  CHECK(one.err.find("by 0.64 GiB") != std::string::npos);
  const Run no_graphs = run_moeplan({"score", "qwen3-30b-a3b", "--serve-gpus", "8", "--serve-gpu", "h100",
                                     "--serve-memory-utilization", "1", "--serve-cuda-graph-gib", "0", "--format",
                                     "json"});
  CHECK(no_graphs.code == 0);
}

TEST_CASE("token counts as vLLM reads them: --serve-context 32k is 32,000 tokens, 32K 32,768") {
  const auto context_of = [](const std::string& flag, const std::string& value, const std::string& key) {
    const Run r = run_moeplan({"score", "qwen3-30b-a3b", "--serve-gpus", "8", "--serve-gpu", "h100", flag, value,
                               "--format", "json"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    return serving_of(r).at(key).get<long long>();
  };
  CHECK(context_of("--serve-context", "32k", "context") == 32000);
  CHECK(context_of("--serve-context", "32K", "context") == 32768);
  CHECK(context_of("--serve-context", "25.6k", "context") == 25600);
  CHECK(context_of("--serve-max-batched-tokens", "16K", "max_batched_tokens") == 16384);
  for (const auto& [flag, value] : std::vector<std::pair<std::string, std::string>>{
           {"--serve-context", "32.5K"}, {"--serve-context", "32x"}, {"--serve-context", "0k"},
           {"--serve-max-batched-tokens", "8.5K"}, {"--serve-max-batched-tokens", "2g"}}) {
    CAPTURE(value);
    const Run r = run_moeplan({"score", "qwen3-30b-a3b", "--serve-gpus", "8", "--serve-gpu", "h100", flag, value});
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find(flag) != std::string::npos);
  }
  // A vllm serve line: --max-model-len 32k and --max-num-batched-tokens 4K as vLLM reads them.
  const std::filesystem::path file = temp_path("serve-args-human.sh");
  {
    std::ofstream out(file);
    out << "vllm serve Qwen/Qwen3-30B-A3B --tensor-parallel-size 8 --max-model-len 32k --max-num-batched-tokens 4K\n";
  }
  const Run f = run_moeplan({"score", k_hf + "qwen3-30b-a3b.json", "--serve-args", file.string(), "--serve-gpu",
                             "h100", "--serve-max-seqs", "256", "--format", "json"});
  INFO(f.err);
  REQUIRE(f.code == 0);
  CHECK(serving_of(f).at("context") == 32000);
  CHECK(serving_of(f).at("max_batched_tokens") == 4096);
  std::filesystem::remove(file);
}

TEST_CASE("a --serve-gpu without a count names both ways to give one") {
  const Run r = run_moeplan({"score", "qwen3-30b-a3b", "--serve-gpu", "h100"});
  CHECK(r.code == 2);
  CHECK(r.err.find("--serve-gpus") != std::string::npos);
  CHECK(r.err.find("--serve-min-gpus") != std::string::npos);
}

TEST_CASE("score serves a config.json's weights as its quantization_config stores them, unless --serve-weights") {
  // gpt-oss-120b's MXFP4 experts on one H100 under vLLM: 60.77 GiB as stored, plus 5.127 GiB of
  // Marlin's padding (tests/serving/test_serving_weights.cpp works it out).
  const Run r = run_moeplan({"score", k_hf + "gpt-oss-120b.json", "--serve-gpus", "1", "--serve-gpu", "h100",
                             "--serve-context", "8192", "--format", "json"});
  INFO(r.err);
  const json s = serving_of(r);
  CHECK(s.at("weights_precision") == "mxfp4 (quantization_config)");
  CHECK(s.at("weights_per_gpu").get<double>() == doctest::Approx(65.90).epsilon(0.002));
  bool said = false;
  for (const auto& n : s.at("notes")) said = said || n.get<std::string>().find("quant_method mxfp4") != std::string::npos;
  CHECK(said);
  const Run bf16 = run_moeplan({"score", k_hf + "gpt-oss-120b.json", "--serve-gpus", "8", "--serve-gpu", "h100",
                                "--serve-weights", "bf16", "--format", "json"});
  CHECK(serving_of(bf16).at("weights_precision") == "bf16");  // A quant_method moeplan does not read: the section refused by name, exit 4; the flag serves it.
  const std::filesystem::path file = temp_path("bnb-config.json");
  {
    std::ifstream in(k_hf + "qwen3-30b-a3b.json");
    json j = json::parse(in);
    j["quantization_config"] = {{"quant_method", "bitsandbytes"}, {"load_in_4bit", true}};
    std::ofstream(file) << j.dump();
  }
  const Run bnb = run_moeplan({"score", file.string(), "--serve-gpus", "1", "--serve-gpu", "h100"});
  CHECK(bnb.code == 4);
  CHECK(bnb.err.find("'bitsandbytes'") != std::string::npos);
  CHECK(run_moeplan({"score", file.string(), "--serve-gpus", "1", "--serve-gpu", "h100", "--serve-weights", "bf16"})
            .code == 0);
  // A quant_method that is not a string is a bad file (exit 4 naming the key), not a crash.
  {
    std::ifstream in(k_hf + "qwen3-30b-a3b.json");
    json j = json::parse(in);
    j["quantization_config"] = {{"quant_method", 7}};
    std::ofstream(file) << j.dump();
  }
  const Run typed = run_moeplan({"score", file.string(), "--serve-gpus", "1", "--serve-gpu", "h100"});
  CHECK(typed.code == 4);
  CHECK(typed.err.find("quantization_config.quant_method must be a string") != std::string::npos);
  std::filesystem::remove(file);
}

TEST_CASE("a TOML emitted from a quantized config.json keeps its storage (--emit toml): the same weights per GPU") {
  // Before [checkpoint_storage] the emitted TOML lost quantization_config and served bf16 weights.
  for (const std::string file : {"qwen3-coder-480b-a35b-fp8.json", "gpt-oss-120b.json", "mimo-v2-flash.json",
                                 "deepseek-v4-flash.json", "kimi-k2.5.json"}) {
    CAPTURE(file);
    const auto toml = temp_path("moeplan-storage-round-trip.toml");
    const Run e = run_moeplan({"score", k_hf + file, "--emit", "toml", "-o", toml.string()});
    REQUIRE_MESSAGE(e.code == 0, e.err);
    // --serve-kv fp8: DeepSeek-V4's cache exists in fp8 only (docs/serving.md).
    const std::vector<std::string> serve{"--serve-gpus", "8",    "--serve-gpu", "h200",  "--serve-context",
                                         "8192",         "--serve-kv", "fp8",   "--format", "json"};
    std::vector<std::string> a{"score", k_hf + file}, b{"score", toml.string()};
    a.insert(a.end(), serve.begin(), serve.end());
    b.insert(b.end(), serve.begin(), serve.end());
    const Run from_json = run_moeplan(a), from_toml = run_moeplan(b);
    std::filesystem::remove(toml);
    INFO(from_json.err, from_toml.err);
    const json sa = serving_of(from_json), sb = serving_of(from_toml);
    CHECK(sa.at("weights_precision").get<std::string>().ends_with("(quantization_config)"));
    CHECK(sb.at("weights_precision") == sa.at("weights_precision"));
    CHECK(sb.at("weights_per_gpu") == sa.at("weights_per_gpu"));
    CHECK(sb.at("notes") == sa.at("notes"));
    // weight_block_size travels too: Qwen3-Coder's 2560-wide experts on 8 GPUs do not load either way.
    CHECK(sb.at("fits") == sa.at("fits"));
    CHECK(sb.at("reason") == sa.at("reason"));
  }
  // A method moeplan does not read stays refused by name through the TOML (known = false).
  const std::filesystem::path bnb = temp_path("bnb-emit-config.json");
  const auto toml = temp_path("moeplan-bnb-emit.toml");
  {
    std::ifstream in(k_hf + "qwen3-30b-a3b.json");
    json j = json::parse(in);
    j["quantization_config"] = {{"quant_method", "bitsandbytes"}, {"load_in_4bit", true}};
    std::ofstream(bnb) << j.dump();
  }
  REQUIRE(run_moeplan({"score", bnb.string(), "--emit", "toml", "-o", toml.string()}).code == 0);
  const Run refused = run_moeplan({"score", toml.string(), "--serve-gpus", "1", "--serve-gpu", "h100"});
  CHECK(refused.code == 4);
  CHECK(refused.err.find("'bitsandbytes'") != std::string::npos);
  std::filesystem::remove(bnb);
  // A bad [checkpoint_storage] is refused naming the key.
  const auto bad = [&](const std::string& table, const std::string& key) {
    std::ostringstream text;
    text << "schema = \"moeplan-model/1\"\nname = \"q\"\n[model]\nhidden_size = 1024\nnum_hidden_layers = 2\n"
            "num_attention_heads = 8\nintermediate_size = 4096\nvocab_size = 32000\n[checkpoint_storage]\n"
         << table;
    std::ofstream(toml) << text.str();
    const Run r = run_moeplan({"score", toml.string()});
    CAPTURE(table);
    CHECK(r.code == 4);
    CHECK(r.out.empty());
    CHECK(r.err.find("checkpoint_storage." + key) != std::string::npos);
  };
  const std::string bytes = "attention_bytes_per_weight = 1.0\ndense_bytes_per_weight = 1.0\n"
                            "shared_bytes_per_weight = 1.0\n";
  bad("description = \"x\"\nrouted_bytes_per_weight = 1.0\n" + bytes, "quant_method");
  bad("quant_method = \"fp8\"\ndescription = \"x\"\n" + bytes, "routed_bytes_per_weight");
  bad("quant_method = \"fp8\"\ndescription = \"x\"\nrouted_bytes_per_weight = 4.0\n" + bytes,
      "routed_bytes_per_weight");
  bad("quant_method = \"fp8\"\ndescription = \"x\"\nrouted_bytes_per_weight = 0\n" + bytes,
      "routed_bytes_per_weight");
  bad("quant_method = \"x\"\ndescription = \"x\"\nknown = false\nrouted_bytes_per_weight = 1.0\n",
      "routed_bytes_per_weight");
  bad("quant_method = \"fp8\"\ndescription = \"x\"\nroutd_bytes_per_weight = 1.0\n" + bytes,
      "routd_bytes_per_weight");
  bad("quant_method = \"fp8\"\ndescription = \"x\"\nrouted_bytes_per_weight = 1.0\n" + bytes +
          "weight_block_size = [128]\n",
      "weight_block_size");
  std::filesystem::remove(toml);
}

TEST_CASE("the engine's start-up lines and typed keys: vLLM by default, SGLang on request") {
  const Run r = run_moeplan({"score", k_hf + "qwen3-30b-a3b.json", "--serve-gpus", "8", "--serve-gpu", "h100",
                             "--serve-context", "4096", "--format", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json s = serving_of(r);
  CHECK(s.at("engine").get<std::string>().find("vLLM") != std::string::npos);
  CHECK(s.at("memory_utilization") == 0.9);
  CHECK(s.at("max_batched_tokens") == 8192);
  CHECK(s.at("max_seqs") == 1024);
  CHECK(s.at("kv_block_size") == 16);
  CHECK(s.at("kv_cache_tokens").is_number_integer());
  CHECK(s.at("kv_cache_tokens").get<long long>() % 16 == 0);
  CHECK(s.at("activation_peak_per_gpu").get<double>() > 0);
  const std::string line = s.at("engine_log").at(0).get<std::string>();
  CHECK(line.rfind("GPU KV cache size: ", 0) == 0);
  CHECK(s.at("engine_log").at(1).get<std::string>().rfind("Maximum concurrency for 4,096 tokens per request: ", 0) == 0);
  const Run g = run_moeplan({"score", k_hf + "qwen3-30b-a3b.json", "--serve-gpus", "8", "--serve-gpu", "h100",
                             "--serve-context", "4096", "--serve-engine", "sglang", "--format", "json"});
  INFO(g.err);
  REQUIRE(g.code == 0);
  const json t = serving_of(g);
  CHECK(t.at("engine").get<std::string>().find("SGLang") != std::string::npos);
  CHECK(t.at("memory_utilization") == 0.81);
  CHECK(t.at("max_batched_tokens").is_null());
  CHECK(t.at("kv_block_size") == 1);
  // SGLang's own start-up lines (memory_pool.py, the scheduler's), not vLLM's: K and V halves of
  // the pool of kv_cache_tokens tokens (48 layers, 4 kv heads over TP 8 kept one a rank, 128 wide:
  // 24,576 bytes a token), GB = 2^30 bytes.
  const long long tokens = t.at("kv_cache_tokens").get<long long>();
  const double half = static_cast<double>(tokens) * 24576.0 / 2 / (1 << 30);
  CHECK(t.at("engine_log").at(0).get<std::string>() ==
        fmt::format("KV Cache is allocated. #tokens: {}, K size: {:.2f} GB, V size: {:.2f} GB", tokens,
                    half, half));
  // max_running_requests, derived: min(T // 2, min(max(int(T / 4096 x 512), 2048), 4096)) = 4096
  // for a pool of millions of tokens (T / 8 > 4096).
  REQUIRE(tokens / 8 > 4096);
  CHECK(t.at("engine_log").at(1).get<std::string>() ==
        fmt::format("max_total_num_tokens={}, max_running_requests=4096, context_len=4096", tokens));
}

TEST_CASE("serve args with pipeline stages inside a node use TP x PP x DP GPUs, and an engine they contradict exits 2") {
  const auto file = temp_path("moeplan-serve-args-pp.sh");
  std::ofstream(file) << "vllm serve Qwen/Qwen3-30B-A3B -pp 2 -tp 2\n";
  const Run r = run_moeplan({"score", k_hf + "qwen3-30b-a3b.json", "--serve-args", file.string(), "--serve-gpu",
                             "h100", "--format", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json s = serving_of(r);
  CHECK(s.at("gpus") == 4);
  CHECK(s.at("gpus_used") == 4);  // two stages of TP 2, not two nodes
  const Run other = run_moeplan({"score", k_hf + "qwen3-30b-a3b.json", "--serve-args", file.string(), "--serve-gpu",
                                 "h100", "--serve-engine", "sglang"});
  CHECK(other.code == 2);
  CHECK(other.out.empty());
  CHECK(other.err.find("contradicts --serve-args") != std::string::npos);
  std::filesystem::remove(file);
}

TEST_CASE("score --serve-min-gpus serves on the fewest GPUs that hold the batch and says so") {
  const Run r = run_moeplan({"score", k_hf + "deepseek-v3.1.json", "--serve-min-gpus", "--serve-gpu", "h200",
                             "--serve-context", "32768", "--format", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json s = serving_of(r);
  CHECK(s.at("gpus") == 16);
  CHECK(s.at("fits") == true);
  CHECK(s.at("notes").at(0).get<std::string>().find("--serve-min-gpus: 16 x h200") != std::string::npos);
  // Without --serve-gpu there is no GPU to count: exit 2 naming the flag.
  const Run no = run_moeplan({"score", "qwen3-30b-a3b", "--serve-min-gpus"});
  CHECK(no.code == 2);
  CHECK(no.err.find("--serve-min-gpus") != std::string::npos);
}

TEST_CASE("score --serve-args reads the engine's command line and lists the flags it does not model") {
  const std::filesystem::path file = temp_path("serve-args.sh");
  {
    std::ofstream out(file);
    out << "python3 -m sglang.launch_server --model-path Qwen/Qwen3-30B-A3B --tp 4 \\\n"
           "  --mem-fraction-static 0.8 --context-length 8192 --port 30000\n";
  }
  const Run r = run_moeplan({"score", k_hf + "qwen3-30b-a3b.json", "--serve-args", file.string(), "--serve-gpu",
                             "h100", "--format", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json s = serving_of(r);
  CHECK(s.at("gpus") == 4);
  CHECK(s.at("context") == 8192);
  CHECK(s.at("memory_utilization") == 0.8);
  CHECK(s.at("engine").get<std::string>().find("SGLang") != std::string::npos);
  CHECK(r.err.find("not modelled: --port") != std::string::npos);
  // A flag given wins over the file.
  const Run f = run_moeplan({"score", k_hf + "qwen3-30b-a3b.json", "--serve-args", file.string(), "--serve-gpu",
                             "h100", "--serve-memory-utilization", "0.7", "--format", "json"});
  REQUIRE(f.code == 0);
  CHECK(serving_of(f).at("memory_utilization") == 0.7);
  // A bad value: exit 4 naming the file, line and flag.
  {
    std::ofstream out(file);
    out << "vllm serve m \\\n  --gpu-memory-utilization 2\n";  // a continuation: one command, its line 2
  }
  const Run bad = run_moeplan({"score", "qwen3-30b-a3b", "--serve-args", file.string(), "--serve-gpu", "h100"});
  CHECK(bad.code == 4);
  CHECK(bad.out.empty());
  CHECK(bad.err.find(":2:") != std::string::npos);
  CHECK(bad.err.find("--gpu-memory-utilization") != std::string::npos);
  std::filesystem::remove(file);
}

TEST_CASE("score --serve-args --enforce-eager: no CUDA graphs counted, so a start-up they failed succeeds") {
  const std::filesystem::path file = temp_path("serve-args-eager.sh");
  const auto run = [&](const std::string& args, std::vector<std::string> extra = {}) {
    {
      std::ofstream out(file);
      out << "vllm serve Qwen/Qwen3-30B-A3B --tensor-parallel-size 1 " << args << "\n";
    }
    std::vector<std::string> argv{"score", k_hf + "qwen3-30b-a3b.json", "--serve-args", file.string(), "--serve-gpu",
                                  "h100", "--format", "json"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return run_moeplan(argv);
  };
  // At a fraction of 0.995 the 0.4 GiB HBM left cannot hold the default 0.64 GiB of graphs:
  // vLLM fails at capture (exit 3, figures null); --enforce-eager captures none and starts.
  const Run graphs = run("--gpu-memory-utilization 0.995");
  INFO(graphs.err);
  CHECK(graphs.code == 3);
  const Run eager = run("--gpu-memory-utilization 0.995 --enforce-eager");
  INFO(eager.err);
  REQUIRE(eager.code == 0);
  const json s = serving_of(eager);
  CHECK(s.at("cuda_graph_per_gpu") == 0.0);
  CHECK(s.at("kv_cache_tokens").is_number());
  CHECK(eager.err.find("--enforce-eager: no CUDA graphs captured, none counted") != std::string::npos);
  CHECK(eager.err.find("not modelled: --enforce-eager") == std::string::npos);
  // A figure given by flag wins, and the note says so.
  const Run given = run("--enforce-eager", {"--serve-cuda-graph-gib", "0.5"});
  REQUIRE(given.code == 0);
  CHECK(serving_of(given).at("cuda_graph_per_gpu") == 0.5);
  CHECK(given.err.find("--serve-cuda-graph-gib counts 0.5 GiB") != std::string::npos);
  std::filesystem::remove(file);
}

TEST_CASE("score --serve-args --quantization fp8: fp8 weights served, the bf16 ones loaded first, a quantized checkpoint as stored") {
  const std::filesystem::path file = temp_path("serve-args-fp8.sh");
  const auto run = [&](const std::string& model, const std::string& args, std::vector<std::string> extra = {}) {
    {
      std::ofstream out(file);
      out << "vllm serve some/model --max-model-len 32768 " << args << "\n";
    }
    std::vector<std::string> argv{"score", k_hf + model, "--serve-args", file.string(), "--serve-gpu", "h100",
                                  "--format", "json"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return run_moeplan(argv);
  };
  // Qwen3-30B-A3B (bf16 checkpoint) on one H100: 56.87 GiB of bf16 weights load (under the
  // 79.45 GiB free) and are served in fp8, one byte a linear weight: about half.
  const Run bf16 = run("qwen3-30b-a3b.json", "");
  const Run fp8 = run("qwen3-30b-a3b.json", "--quantization fp8");
  INFO(fp8.err);
  REQUIRE(bf16.code == 0);
  REQUIRE(fp8.code == 0);
  const json b = serving_of(bf16), q = serving_of(fp8);
  CHECK(q.at("weights_precision").get<std::string>().find("fp8 online") != std::string::npos);
  const double ratio = q.at("weights_per_gpu").get<double>() / b.at("weights_per_gpu").get<double>();
  CHECK(ratio > 0.5);   // embeddings, head, norms and routers stay bf16
  CHECK(ratio < 0.52);
  CHECK(q.at("kv_cache_tokens").get<double>() > b.at("kv_cache_tokens").get<double>());
  CHECK(fp8.err.find("--quantization fp8: a bf16 checkpoint is quantized to fp8 as it loads") != std::string::npos);
  // Qwen3-235B-A22B on TP 4: its bf16 share (about 109.5 GiB) does not load: the engine does not start.
  const Run big = run("qwen3-235b-a22b.json", "-tp 4 --quantization fp8");
  CHECK(big.code == 3);
  CHECK(serving_of(big).at("kv_cache_tokens").is_null());
  CHECK(serving_of(big).at("reason").get<std::string>().find("loads the bf16 weights before quantizing") !=
        std::string::npos);
  // --serve-weights given wins over the file.
  const Run given = run("qwen3-30b-a3b.json", "--quantization fp8", {"--serve-weights", "bf16"});
  REQUIRE(given.code == 0);
  CHECK(serving_of(given).at("weights_per_gpu") == b.at("weights_per_gpu"));
  // A checkpoint stored in MXFP4: vLLM raises on the mismatch, naming the file's line and flag.
  const Run other = run("gpt-oss-120b.json", "-tp 8 --quantization fp8");
  CHECK(other.code == 3);
  CHECK(other.err.find(":1: --quantization") != std::string::npos);
  CHECK(other.err.find("quant_method mxfp4") != std::string::npos);
  std::filesystem::remove(file);
}

TEST_CASE("serve-batch sets the batch the decode bound is for") {
  const Run r = run_moeplan({"score", k_hf + "qwen3-30b-a3b.json", "--serve-gpus", "8", "--serve-gpu", "h100",
                             "--serve-context", "4096", "--serve-batch", "5", "--format", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json s = serving_of(r);
  CHECK(s.at("decode_batch") == 5);
  CHECK(s.at("max_batch").get<long long>() > 5);
}

TEST_CASE("a context past the engine's derived maximum does not start, past the training length it is a warning") {
  // qwen3-30b-a3b.json: max_position_embeddings 40960, no rope_scaling: vLLM's max_model_len and
  // SGLang's context_len are 40,960; 65,536 is refused by both unless their override variable
  // is set (vLLM _get_and_verify_max_len, SGLang ModelConfig): exit 3, the section's figures null.
  for (const char* engine : {"vllm", "sglang"}) {
    CAPTURE(engine);
    const Run r = run_moeplan({"score", k_hf + "qwen3-30b-a3b.json", "--serve-gpus", "8", "--serve-gpu", "h200",
                               "--serve-context", "65536", "--serve-engine", engine, "--format", "json"});
    CHECK(r.code == 3);
    CHECK(r.err.find("past the") != std::string::npos);
    CHECK(r.err.find(std::string(engine) == "vllm" ? "VLLM_ALLOW_LONG_MAX_MODEL_LEN" :
                                                     "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN") != std::string::npos);
    const json s = serving_of(r);
    CHECK(s.at("fits") == false);
    CHECK(s.at("kv_cache_tokens").is_null());
  }
  // At the derived maximum it starts; a preset (no config.json maximum) past its training S is
  // a warning only.
  const Run at = run_moeplan({"score", k_hf + "qwen3-30b-a3b.json", "--serve-gpus", "8", "--serve-gpu", "h200",
                              "--serve-context", "40960", "--format", "json"});
  CHECK(at.code == 0);
  const Run preset = run_moeplan({"score", "qwen3-30b-a3b", "--serve-gpus", "8", "--serve-gpu", "h200",
                                  "--serve-context", "65536", "--format", "json"});
  INFO(preset.err);
  CHECK(preset.code == 0);
  CHECK(preset.err.find("longer than the training sequence length") != std::string::npos);
  CHECK(serving_of(preset).at("context") == 65536);
}

TEST_CASE("every config.json family score reads gets a serving section") {
  for (const auto& entry : std::filesystem::directory_iterator(k_hf)) {
    if (entry.path().extension() != ".json") continue;
    const Run plain = run_moeplan({"score", entry.path().string(), "--format", "json"});
    if (plain.code != 0) continue;  // a fixture score refuses (tested with its family)
    CAPTURE(entry.path().filename().string());
    const Run r = run_moeplan({"score", entry.path().string(), "--serve-gpus", "8", "--serve-gpu", "b200",
                               "--serve-weights", "fp8", "--serve-context", "8192", "--format", "json"});
    INFO(r.err);
    if (entry.path().filename() == "deepseek-v4-flash.json") {  // vLLM keeps its cache in fp8 only
      CHECK(r.code == 4);
      CHECK(r.err.find("fp8 only") != std::string::npos);
    }
    const Run kv8 = entry.path().filename() == "deepseek-v4-flash.json"
                        ? run_moeplan({"score", entry.path().string(), "--serve-gpus", "8", "--serve-gpu", "b200",
                                       "--serve-weights", "fp8", "--serve-kv", "fp8", "--serve-context", "8192",
                                       "--format", "json"})
                        : r;
    INFO(kv8.err);
    CHECK((kv8.code == 0 || kv8.code == 3));
    const json s = serving_of(kv8);
    CHECK(s.at("fits").is_boolean());
    CHECK(s.at("cache_per_sequence").get<double>() > 0);
    CHECK(s.at("weights_per_gpu").get<double>() > 0);
    CHECK((kv8.code == 0) == s.at("fits").get<bool>());
  }
}

TEST_CASE("a TOML hybrid without decode_state_bytes: the serving section refused by name, the rest printed") {
  const auto toml = temp_path("hybrid.toml");
  const Run emitted = run_moeplan({"score", k_hf + "qwen3-next-80b-a3b.json", "--emit", "toml", "-o", toml.string()});
  REQUIRE(emitted.code == 0);
  std::stringstream text;
  text << std::ifstream(toml).rdbuf();
  REQUIRE(text.str().find("decode_state_bytes") != std::string::npos);
  // The exported file serves as the config.json did.
  const Run same = run_moeplan({"score", toml.string(), "--serve-gpus", "4", "--serve-gpu", "h100", "--format", "json"});
  INFO(same.err);
  CHECK(same.code == 0);
  CHECK(serving_of(same).at("fits") == true);
  std::ofstream(toml) << std::regex_replace(text.str(), std::regex("decode_state_bytes = [^\n]*\n"), "");
  const Run r = run_moeplan({"score", toml.string(), "--serve-gpus", "4", "--serve-gpu", "h100", "--format", "json"});
  std::filesystem::remove(toml);
  CHECK(r.code == 4);
  CHECK(r.err.find("gated_deltanet") != std::string::npos);
  const json doc = json::parse(r.out).at(0);
  CHECK(doc.contains("model"));
  CHECK(doc.contains("size"));
  CHECK(doc.at("serving").at("fits").is_null());
}

TEST_CASE("SGLang's max_running_requests caps the whole server, vLLM's max_num_seqs each attention group") {
  // DeepSeek-V3.1 in fp8 on 8 H200 with DP attention: 8 attention groups of TP 1. SGLang splits
  // --max-running-requests 64 over its 8 DP ranks (64 // 8 = 8 each): 64 in all; vLLM runs
  // max_num_seqs 64 in each of 8 engines: up to 512 where the cache holds them.
  const auto max_batch = [](const char* engine) {
    const Run r = run_moeplan({"score", "deepseek-v3.1", "--serve-gpu", "h200", "--serve-gpus", "8", "--serve-weights",
                               "fp8", "--serve-engine", engine, "--serve-dp-attention", "--serve-max-seqs", "64",
                               "--serve-context", "8192", "--format", "json"});
    REQUIRE_MESSAGE(r.code == 0, r.err);
    return json::parse(r.out).at(0).at("serving").at("max_batch").get<long long>();
  };
  CHECK(max_batch("sglang") == 64);
  CHECK(max_batch("vllm") > 64);
  CHECK(max_batch("vllm") <= 512);
}

TEST_CASE("score --serve-args keeps the engine's own TP, PP and DP-attention layout") {
  const auto serve = [](const std::string& name, const std::string& line, const std::string& model) {
    const std::filesystem::path file = temp_path(name);
    std::ofstream(file) << line << "\n";
    return run_moeplan({"score", model, "--serve-args", file.string(), "--serve-gpu", "h200", "--serve-weights", "fp8",
                        "--format", "json"});
  };
  // vLLM TP 4 x PP 2: 8 GPUs in two stages of TP 4 (not moeplan's TP 8 in one stage). In fp8
  // blocks Qwen3-30B-A3B's experts (moe_intermediate_size 768) split over TP 4 are 192 columns, not
  // whole 128-blocks: refused (exit 3) unless expert-parallel keeps each expert whole.
  Run r = serve("tp4pp2.sh", "vllm serve Qwen/Qwen3-30B-A3B --tensor-parallel-size 4 --pipeline-parallel-size 2",
                "qwen3-30b-a3b");
  CHECK(r.code == 3);
  CHECK(r.err.find("768 / 4 = 192 a GPU is not a multiple of block_n = 128") != std::string::npos);
  r = serve("tp4pp2ep.sh",
            "vllm serve Qwen/Qwen3-30B-A3B --tensor-parallel-size 4 --pipeline-parallel-size 2 --enable-expert-parallel",
            "qwen3-30b-a3b");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  json s = json::parse(r.out).at(0).at("serving");
  CHECK(s.at("gpus").get<int>() == 8);
  CHECK(s.at("tp").get<int>() == 4);
  CHECK(s.at("pipeline_stages").get<int>() == 2);
  // SGLang --tp 8 --dp 8 --enable-dp-attention: 8 GPUs, attention TP 1 in 8 groups.
  r = serve("dpattn.sh", "python -m sglang.launch_server --model deepseek-ai/DeepSeek-V3 --tp 8 --dp 8 --enable-dp-attention",
            "deepseek-v3.1");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  s = json::parse(r.out).at(0).at("serving");
  CHECK(s.at("gpus").get<int>() == 8);
  CHECK(s.at("tp").get<int>() == 1);
  CHECK(s.at("pipeline_stages").get<int>() == 1);
  // A TP that does not split Qwen3's 32 query and 4 KV heads: the engines refuse to start.
  r = serve("tp3.sh", "vllm serve Qwen/Qwen3-30B-A3B --tensor-parallel-size 3", "qwen3-30b-a3b");
  CHECK(r.code == 3);  // the engine would not start: exit 3, the file's line and flag named
  CHECK(r.err.find("tp3.sh:1: --tensor-parallel-size: TP 3 does not split the attention heads of") != std::string::npos);
  CHECK(r.out.find("\"tp\": 3") == std::string::npos);
}

TEST_CASE("score --serve-kv fp8 on an A100: served as storage (vLLM's V0 fallback), refused for MLA by vLLM") {
  const Run r = run_moeplan({"score", "qwen3-30b-a3b", "--serve-gpus", "8", "--serve-gpu", "a100", "--serve-kv", "fp8",
                             "--serve-context", "4096", "--format", "json"});
  REQUIRE(r.code == 0);
  const json s = serving_of(r);
  CHECK(s.at("kv_precision") == "fp8");
  CHECK(s.at("max_batched_tokens") == 4096);  // V0: max(context, 2048), no chunked prefill
  CHECK(s.at("notes").dump().find("falls back to its V0 engine") != std::string::npos);
  const Run mla = run_moeplan({"score", k_hf + "deepseek-v2-lite.json", "--serve-gpus", "1", "--serve-gpu", "a100",
                               "--serve-kv", "fp8", "--serve-context", "4096", "--format", "json"});
  CHECK(mla.code == 3);
  CHECK(mla.err.find("TritonMLA V1 with FP8 KV cache not yet supported") != std::string::npos);
}

TEST_CASE("score --serve-gpus without --serve-context: the engine's default context where config.json has one") {
  // qwen3-30b-a3b.json: max_position_embeddings 40960, no rope_scaling: vLLM's max_model_len and
  // SGLang's context_len are both 40,960, and the output says where it came from.
  const Run v = run_moeplan({"score", k_hf + "qwen3-30b-a3b.json", "--serve-gpus", "1", "--serve-gpu", "h100",
                             "--format", "json"});
  const json s = serving_of(v);
  CHECK(s.at("context") == 40960);
  CHECK(s.at("context_source").get<std::string>().starts_with("vLLM's default max_model_len"));
  const Run g = run_moeplan({"score", k_hf + "qwen3-30b-a3b.json", "--serve-gpus", "1", "--serve-gpu", "h100",
                             "--serve-engine", "sglang", "--format", "json"});
  CHECK(serving_of(g).at("context") == 40960);
  CHECK(serving_of(g).at("context_source").get<std::string>().starts_with("SGLang's default context_len"));
  // A preset has no max_position_embeddings: the training S, said so.
  const Run p = run_moeplan({"score", "qwen3-30b-a3b", "--serve-gpus", "1", "--serve-gpu", "h100", "--format",
                             "json"});
  const json ps = serving_of(p);
  CHECK(ps.at("context_source").get<std::string>().starts_with("the training sequence length S = "));
  CHECK(ps.at("context_source").get<std::string>().find("preset") != std::string::npos);
  // Given, the flag.
  const Run f = run_moeplan({"score", k_hf + "qwen3-30b-a3b.json", "--serve-gpus", "1", "--serve-gpu", "h100",
                             "--serve-context", "4096", "--format", "json"});
  CHECK(serving_of(f).at("context_source") == "--serve-context");
}

TEST_CASE("score --serve-args: --speculative-config deepseek_mtp counts what --serve-mtp counts") {
  const std::filesystem::path file = temp_path("serve-args-mtp.sh");
  std::ofstream(file) << "vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --max-model-len 32768 \\\n"
                         "  --speculative-config '{\"method\": \"deepseek_mtp\", \"num_speculative_tokens\": 1}'\n";
  const Run r = run_moeplan({"score", "deepseek-v3.1", "--serve-args", file.string(), "--serve-gpu", "h200",
                             "--serve-weights", "fp8", "--format", "json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.err.find("speculative decoding deepseek_mtp, 1 token(s) a step") != std::string::npos);
  const Run flag = run_moeplan({"score", "deepseek-v3.1", "--serve-gpus", "8", "--serve-gpu", "h200", "--serve-weights",
                                "fp8", "--serve-context", "32768", "--serve-mtp", "--format", "json"});
  REQUIRE_MESSAGE(flag.code == 0, flag.err);
  const Run without = run_moeplan({"score", "deepseek-v3.1", "--serve-gpus", "8", "--serve-gpu", "h200", "--serve-weights",
                                   "fp8", "--serve-context", "32768", "--format", "json"});
  REQUIRE(without.code == 0);
  const json s = serving_of(r), m = serving_of(flag), none = serving_of(without);
  CHECK(s.at("served_params") == m.at("served_params"));
  CHECK(s.at("kv_cache_tokens") == m.at("kv_cache_tokens"));
  // DeepSeek-V3's one MTP module: 1.161e10 parameters more than without it (the note's figure).
  CHECK(s.at("served_params").get<double>() - none.at("served_params").get<double>() ==
        doctest::Approx(1.161e10).epsilon(1e-3));
  // Another method: named, not counted.
  std::ofstream(file) << "vllm serve m -tp 8 --max-model-len 32768 --speculative-config '{\"method\": \"ngram\"}'\n";
  const Run ngram = run_moeplan({"score", "deepseek-v3.1", "--serve-args", file.string(), "--serve-gpu", "h200",
                                 "--serve-weights", "fp8", "--format", "json"});
  REQUIRE(ngram.code == 0);
  CHECK(ngram.err.find("speculative decoding ngram: not modelled, its draft model's weights and cache are not counted") !=
        std::string::npos);
  CHECK(serving_of(ngram).at("served_params") == none.at("served_params"));
  std::filesystem::remove(file);
}

TEST_CASE("score --serve-args takes the file's TP x PP as vLLM runs it: PP 3 on 12 GPUs, layers split as vLLM splits them") {
  // args/k4.sh: TP 4 x PP 3 = 12 GPUs, no whole nodes of 8: vLLM runs it, so moeplan takes it (it
  // refused it naming --serve-gpus 12, a flag the user never typed).
  const std::filesystem::path file = temp_path("serve-args-pp3.sh");
  std::ofstream(file) << "vllm serve Qwen/Qwen3-235B-A22B-FP8 -tp 4 -pp 3 --max-model-len 16384\n";
  const Run r = run_moeplan({"score", k_hf + "qwen3-235b-a22b.json", "--serve-args", file.string(), "--serve-gpu", "h100",
                             "--serve-weights", "fp8", "--format", "json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.err.find("--serve-gpus") == std::string::npos);
  const json s = serving_of(r);
  CHECK(s.at("gpus") == 12);
  CHECK(s.at("gpus_used") == 12);
  CHECK(s.at("tp") == 4);
  CHECK(s.at("pipeline_stages") == 3);
  // vLLM's get_pp_indices puts 94 layers as 31, 32, 31: the busiest GPU is the middle stage's, 32
  // layers over TP 4 and no embedding (moeplan's old split, 32 + the embedding on stage 0, was
  // 0.29 GiB more). A layer's bytes: the total less the bf16 embedding and head (151,936 x 4,096
  // x 2 bytes each), over 94 (the norms are inside the layers, the final norm negligible).
  const double gib = 1024.0 * 1024 * 1024, table = 151936.0 * 4096 * 2;
  const double layer = (s.at("weights_total").get<double>() * gib - 2 * table) / 94;
  CHECK(s.at("weights_per_gpu").get<double>() == doctest::Approx(32 * layer / 4 / gib).epsilon(1e-6));
  // A user's own --serve-gpus 12 is still not whole nodes: exit 2 naming the flag typed.
  const Run typed = run_moeplan({"score", k_hf + "qwen3-235b-a22b.json", "--serve-gpus", "12", "--serve-gpu", "h100"});
  CHECK(typed.code == 2);
  CHECK(typed.err.find("--serve-gpus 12") != std::string::npos);
  // More stages than layers (Qwen3-30B-A3B has 48): moeplan cannot model a stage without a layer,
  // exit 4 naming the file, its line and its flag.
  std::ofstream(file) << "vllm serve Qwen/Qwen3-30B-A3B \\\n  -pp 64\n";
  const Run deep = run_moeplan({"score", k_hf + "qwen3-30b-a3b.json", "--serve-args", file.string(), "--serve-gpu", "h100",
                                "--format", "json"});
  CHECK(deep.code == 4);
  CHECK(deep.err.find(file.string() + ":2: -pp: 64 pipeline stages for the 48 layers") != std::string::npos);
  std::filesystem::remove(file);
}

TEST_CASE("score --serve-args: what the file brings is refused naming the file's line and flag, not a flag never typed") {
  const std::filesystem::path file = temp_path("serve-args-blame.sh");
  const auto run = [&file](const std::string& line, std::vector<std::string> more) {
    std::ofstream(file) << line << "\n";
    std::vector<std::string> args{"score", k_hf + "llama-3.1-8b.json", "--serve-args", file.string(), "--format", "json"};
    args.insert(args.end(), more.begin(), more.end());
    return run_moeplan(args);
  };
  // args/f1.sh: Llama-3.1-8B's 32 query and 8 KV heads do not split over TP 3. vLLM refuses to
  // start: exit 3 naming the args file, not the model file; the section is printed, null, with the reason.
  const Run tp = run("vllm serve meta-llama/Llama-3.1-8B-Instruct -tp 3", {"--serve-gpu", "h100"});
  CHECK(tp.code == 3);
  CHECK(tp.err.find("serving: does not start: " + file.string() +
                    ":1: -tp: TP 3 does not split the attention heads of llama-3.1-8b (32 query heads, 8 KV heads)") !=
        std::string::npos);
  CHECK(tp.err.find("llama-3.1-8b.json: serving") == std::string::npos);
  REQUIRE_FALSE(tp.out.empty());
  const json s = serving_of(tp);
  CHECK(s.at("fits").is_null());
  CHECK(s.at("reason").get<std::string>().starts_with("the engine does not start: "));
  // deepseek_mtp on a model without MTP modules: vLLM has no draft, it refuses to start.
  const Run mtp = run("vllm serve m -tp 8 \\\n --speculative-config '{\"method\": \"deepseek_mtp\"}'", {"--serve-gpu", "h100"});
  CHECK(mtp.code == 3);
  CHECK(mtp.err.find(file.string() + ":2: --speculative-config: method deepseek_mtp drafts with the model's MTP modules") !=
        std::string::npos);
  CHECK(mtp.err.find("--serve-mtp: the model has no") == std::string::npos);  // not the flag never typed
  // The file's --max-num-batched-tokens below vLLM's default 1,024 sequences on an H100.
  const Run tokens = run("vllm serve m --max-num-batched-tokens 512", {"--serve-gpu", "h100"});
  CHECK(tokens.code == 3);
  CHECK(tokens.out.empty());
  CHECK(tokens.err.find(file.string() + ":1: --max-num-batched-tokens: 512 is below the 1024 sequences") != std::string::npos);
  CHECK(tokens.err.find("--serve-max-batched-tokens") == std::string::npos);
  // The file's fp8 KV cache on an A100: whatever moeplan says of --serve-kv fp8 there, the file's
  // --kv-cache-dtype gets the same answer, and a refusal names the file's flag (args/i1.sh).
  const Run typed = run_moeplan({"score", k_hf + "llama-3.1-8b.json", "--serve-gpus", "1", "--serve-gpu", "a100",
                                 "--serve-kv", "fp8", "--format", "json"});
  const Run kv = run("vllm serve m --kv-cache-dtype fp8_e5m2", {"--serve-gpu", "a100"});
  if (typed.code == 2) {
    CHECK(kv.code == 4);
    CHECK(kv.err.find(file.string() + ":1: --kv-cache-dtype fp8_e5m2: ") != std::string::npos);
    CHECK(kv.err.find("--serve-kv") == std::string::npos);
  } else {
    CHECK(kv.code == typed.code);
  }
  std::filesystem::remove(file);
}

TEST_CASE("score --help's exit status names the --serve-args and quantization_config files under 4, as the man page does") {
  const Run help = run_moeplan({"score", "--help"});
  REQUIRE(help.code == 0);
  const auto at = help.out.find("Exit status:");
  REQUIRE(at != std::string::npos);
  const std::string status = help.out.substr(at);
  const auto four = status.find(", 4 ");
  REQUIRE(four != std::string::npos);
  const std::string exit4 = status.substr(four, status.find(", 5 ") - four);
  CHECK(exit4.find("--serve-args") != std::string::npos);
  CHECK(exit4.find("quantization_config") != std::string::npos);
}

TEST_CASE("fp8 weights on an A100: weight-only under vLLM, refused under SGLang whichever way they are asked for") {
  // vLLM (v0.10 fp8.py: Marlin below capability 89) serves the flag as it serves the checkpoint.
  const Run flag = run_moeplan({"score", "qwen3-30b-a3b", "--serve-gpus", "1", "--serve-gpu", "a100", "--serve-weights",
                                "fp8", "--format", "json"});
  REQUIRE_MESSAGE(flag.code == 0, flag.err);
  const json s = json::parse(flag.out).at(0).at("serving");
  CHECK(s.at("notes").dump().find("weight-only (Marlin)") != std::string::npos);
  // SGLang's path on a GPU without FP8 tensor cores is not modelled: the flag exits 2, the
  // checkpoint 4 (what the file says cannot be served as modelled).
  const Run sg = run_moeplan({"score", "qwen3-30b-a3b", "--serve-gpus", "1", "--serve-gpu", "a100", "--serve-weights",
                              "fp8", "--serve-engine", "sglang"});
  CHECK(sg.code == 2);
  CHECK(sg.out.empty());
  const Run ckpt = run_moeplan({"score", k_hf + "qwen3-coder-480b-a35b-fp8.json", "--serve-gpus", "8", "--serve-gpu",
                                "a100", "--serve-expert-parallel", "--serve-engine", "sglang", "--serve-context", "8192"});
  CHECK(ckpt.code == 4);
  CHECK(ckpt.err.find("SGLang's fp8 path there is not modelled") != std::string::npos);
}
