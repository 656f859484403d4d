// `suggest` and `score` with a cluster (src/cli/cluster_flags.cpp, docs/cluster.md): the flags'
// errors, the sections and the Megatron export of the layout (co-design and the batch:
// tests/planner/test_cluster_fit.cpp; --days: tests/planner/test_goal_plan.cpp).
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <random>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_run.hpp"

using nlohmann::json;

namespace {
/// The whole of a file the command wrote.
std::string text_of(const std::filesystem::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
}  // namespace

TEST_CASE("cluster flags: --gpus and --gpu go together, an unknown GPU names the catalog, --days needs a cluster") {
  Run r = run_moeplan({"suggest", "--flops", "1e22", "--gpus", "64", "--no-bench"});
  CHECK(r.code == 2);
  CHECK(r.err.find("--gpu") != std::string::npos);
  r = run_moeplan({"suggest", "--flops", "1e22", "--gpu", "h100", "--no-bench"});
  CHECK(r.code == 2);
  CHECK(r.err.find("--gpus") != std::string::npos);
  r = run_moeplan({"suggest", "--flops", "1e22", "--gpus", "64", "--gpu", "tpu-v9", "--no-bench"});
  CHECK(r.code == 2);
  CHECK(r.err.find("tpu-v9") != std::string::npos);
  CHECK(r.err.find("h100-sxm") != std::string::npos);  // the ids it knows
  r = run_moeplan({"suggest", "--days", "30", "--no-bench"});
  CHECK(r.code == 2);
  r = run_moeplan({"suggest", "--flops", "1e22", "--gpus", "64", "--gpu", "h100", "--days", "30", "--no-bench"});
  CHECK(r.code == 2);  // --days replaces --flops
  r = run_moeplan({"suggest", "--flops", "1e20,1e22", "--gpus", "64", "--gpu", "h100"});
  CHECK(r.code == 2);  // one budget
  r = run_moeplan({"suggest", "--flops", "1e22", "--gpus", "60", "--gpu", "h100", "--no-bench"});
  CHECK(r.code == 2);  // not whole nodes
  CHECK(r.err.find("node") != std::string::npos);
  CHECK(r.out.empty());
}

TEST_CASE("cluster flags: a bad --gpu-catalog file is named with its line and key, exit 4") {
  const auto path = temp_path("gpus.toml");
  std::ofstream(path) << "[[gpu]]\nid = \"x1\"\nname = \"X1\"\nbf16_dense_tflops = -5\n";
  const Run r = run_moeplan({"suggest", "--flops", "1e22", "--gpus", "8", "--gpu", "x1",
                             "--gpu-catalog", path.string(), "--no-bench"});
  CHECK(r.code == 4);
  CHECK(r.err.find(path.string()) != std::string::npos);
  CHECK(r.out.empty());
  std::filesystem::remove(path);
}

TEST_CASE("suggest --gpus: cluster, memory and step-time sections, valid JSON, memory within the GPU") {
  const Run r = run_moeplan({"suggest", "--flops", "1e22", "--gpus", "64", "--gpu", "h100", "--no-bench",
                             "--format", "json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const json j = json::parse(r.out);
  const json& c = j.at("cluster");
  CHECK(c.at("gpus").get<int>() == 64);
  const int tp = c.at("tp").get<int>(), pp = c.at("pp").get<int>(), cp = c.at("cp").get<int>();
  CHECK(tp * pp * cp * c.at("dp").get<int>() == 64);
  CHECK(c.at("etp").get<int>() * c.at("ep").get<int>() * pp * c.at("edp").get<int>() == 64);
  // The layout obeys the rules on the printed config.
  const json& cfg = j.at("config");
  CHECK(cfg.at("num_query_heads").get<int>() % tp == 0);
  CHECK(cfg.at("num_kv_heads").get<int>() % tp == 0);
  CHECK(cfg.at("num_experts").get<int>() % c.at("ep").get<int>() == 0);
  const json& mem = j.at("memory");
  CHECK(mem.at("total").get<double>() <= mem.at("capacity").get<double>());
  // The H100's 81,559 MiB as nvidia-smi reports it (gpus.toml hbm_driver_mib).
  CHECK(mem.at("capacity").get<double>() == doctest::Approx(81559.0 / 1024).epsilon(1e-6));
  const json& t = j.at("step_time");
  CHECK(t.at("mfu").get<double>() > 0);
  CHECK(t.at("mfu").get<double>() < 0.6);  // at most the GEMM efficiency
  const double days = t.at("training_tokens").get<double>() / t.at("tokens_per_second").get<double>() / 86400;
  CHECK(t.at("days").get<double>() == doctest::Approx(days).epsilon(0.01));
}

TEST_CASE("suggest and score never write over the --gpu-catalog they read") {
  const auto path = temp_path("catalog-in.toml");
  const std::string catalog =
      "[[gpu]]\nid = \"x1\"\nname = \"X1\"\nbf16_dense_tflops = 989\nhbm_gb = 80\nhbm_tb_per_s = 3.35\n"
      "intra_node_gb_per_s = 450\nnetwork_gb_per_s = 50\ngpus_per_node = 8\nsource = \"test\"\n";
  std::ofstream(path) << catalog;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"suggest", "--flops", "1e21", "--gpus", "8", "--gpu", "h100", "--no-bench"},
        std::vector<std::string>{"score", "moe-mini", "--gpus", "8", "--gpu", "h100"}}) {
    std::vector<std::string> a = args;
    for (const char* extra : {"--gpu-catalog", "", "-o", "", "--format", "json"}) a.emplace_back(extra);
    a[a.size() - 5] = path.string();
    a[a.size() - 3] = path.string();
    CAPTURE(fmt_args(a));
    const Run r = run_moeplan(a);
    CHECK(r.code == 5);
    const std::string kept = text_of(path);
    CHECK(kept == catalog);
  }
  std::filesystem::remove(path);
}

TEST_CASE("suggest --gpus too few for the model: exit 3 naming the memory shortfall") {
  const Run r = run_moeplan({"suggest", "--flops", "1e25", "--gpus", "8", "--gpu", "a100-40gb", "--no-bench"});
  CHECK(r.code == 3);
  CHECK(r.err.find("GiB") != std::string::npos);
  CHECK(r.err.find("short") != std::string::npos);
  CHECK(r.err.find("--total-params") != std::string::npos);
  CHECK(r.out.empty());
}

TEST_CASE("score --gpus fits a preset as it is and --emit megatron carries the layout") {
  Run r = run_moeplan({"score", "mixtral-8x7b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                       "--format", "json"});
  if (r.code == 4) {  // no Mixtral preset: use Qwen3-30B-A3B, which is one
    r = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12", "--format", "json"});
  }
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const json j = json::parse(r.out).at(0);
  CHECK(j.at("cluster").at("gpus").get<int>() == 64);
  CHECK(j.at("memory").at("total").get<double>() <= j.at("memory").at("capacity").get<double>());
  const Run m = run_moeplan({"score", "deepseek-v3.1", "--gpus", "2048", "--gpu", "h800", "--tokens", "14.8e12",
                             "--emit", "megatron"});
  REQUIRE_MESSAGE(m.code == 0, m.err);
  for (const char* flag : {"--tensor-model-parallel-size", "--pipeline-model-parallel-size",
                           "--expert-model-parallel-size", "--expert-tensor-parallel-size",
                           "--micro-batch-size", "--global-batch-size", "--use-distributed-optimizer"}) {
    CHECK_MESSAGE(m.out.find(flag) != std::string::npos, flag);
  }
  // Past Table 4 the batch is paper 000 Eq. 5's, and says so.
  CHECK(m.out.find("paper 000 Eq. 5") != std::string::npos);
}

TEST_CASE("score --gpus without a training budget exits 2 before printing anything") {
  const Run r = run_moeplan({"score", "mixtral-8x7b", "--gpus", "64", "--gpu", "h100", "--format", "json"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err.find("--tokens") != std::string::npos);
}

TEST_CASE("cluster export: --moe-flex-dispatcher-num-sms is written for DeepEP when not Megatron's 20, and read back") {
  const std::vector<std::string> args{"score", "deepseek-v3.1", "--gpus", "2048", "--gpu", "h800", "--tokens", "14.8e12",
                                      "--tp", "1", "--pp", "16", "--ep", "64", "--moe-flex-dispatcher-num-sms", "24"};
  std::vector<std::string> emit = args;
  emit.insert(emit.end(), {"--emit", "megatron"});
  const Run m = run_moeplan(emit);
  REQUIRE_MESSAGE(m.code == 0, m.err);
  CHECK(m.out.find("\n--moe-flex-dispatcher-num-sms 24") != std::string::npos);
  // It only moves the step where the all-to-all is hidden: 24 of the H800's 132 SMs then.
  std::vector<std::string> hidden = args;
  hidden.insert(hidden.end(), {"--a2a-overlap", "1"});
  const Run h = run_moeplan(hidden);
  REQUIRE_MESSAGE(h.code == 0, h.err);
  CHECK(h.out.find("lose DeepEP's 24 of the 132 SMs") != std::string::npos);
  // DeepEP takes an even count (Buffer.set_num_sms asserts it), below the GPU's own SMs.
  for (const char* bad : {"21", "132", "200"}) {
    std::vector<std::string> b = args;
    b.back() = bad;
    const Run r = run_moeplan(b);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find("--moe-flex-dispatcher-num-sms") != std::string::npos);
  }
}

TEST_CASE("cluster export: --emit megatron with a layout: bf16, the all-to-all dispatcher with EP, a batch Megatron's schedule accepts") {
  const Run m = run_moeplan({"score", "deepseek-v3.1", "--gpus", "2048", "--gpu", "h800", "--tokens", "14.8e12",
                             "--emit", "megatron"});
  REQUIRE_MESSAGE(m.code == 0, m.err);
  CHECK(m.out.find("\n--bf16 \\") != std::string::npos);
  CHECK(m.out.find("add them") == std::string::npos);  // no "add parallelism yourself" left
  const auto value = [&](const std::string& flag) -> long long {
    const auto at = m.out.find("\n" + flag + " ");
    if (at == std::string::npos) return 0;
    return std::stoll(m.out.substr(at + flag.size() + 2));
  };
  if (value("--expert-model-parallel-size") > 1) {
    // the dispatcher the step time assumed: DeepEP by default (Megatron-Core 0.20's MoE README: flex +
    // --moe-flex-dispatcher-backend deepep; --moe-enable-deepep is deprecated there)
    CHECK(m.out.find("--moe-token-dispatcher-type flex") != std::string::npos);
    CHECK(m.out.find("\n--moe-flex-dispatcher-backend deepep") != std::string::npos);
    CHECK(m.out.find("--moe-enable-deepep") == std::string::npos);
    CHECK(m.out.find("--moe-flex-dispatcher-num-sms") == std::string::npos);  // Megatron's unset is 20 too
  }
  const long long tp = value("--tensor-model-parallel-size"), pp = value("--pipeline-model-parallel-size");
  const long long cp = std::max(1LL, value("--context-parallel-size"));
  const long long dp = 2048 / (tp * pp * cp);
  const long long micro = value("--micro-batch-size"), global = value("--global-batch-size");
  REQUIRE(micro > 0);
  CHECK(global % (micro * dp) == 0);
  if (m.out.find("--num-layers-per-virtual-pipeline-stage") != std::string::npos) {
    CHECK((global / (micro * dp)) % pp == 0);  // Megatron's interleaved schedule
    CHECK(m.out.find("--decoder-first-pipeline-num-layers") == std::string::npos);
  }
}

TEST_CASE("cluster catalog overlay: a unit slip is an error naming the key, a replaced GPU keeps its alias") {
  const auto slip = temp_path("gpus-slip.toml");
  std::ofstream(slip) << "[[gpu]]\nid = \"x1\"\nname = \"X1\"\nbf16_dense_tflops = 1e15\nhbm_gb = 80\n"
                         "hbm_tb_per_s = 3\nintra_node_gb_per_s = 450\nnetwork_gb_per_s = 50\n"
                         "gpus_per_node = 8\nsource = \"test\"\n";
  Run r = run_moeplan({"suggest", "--flops", "1e22", "--gpus", "8", "--gpu", "x1", "--gpu-catalog", slip.string(),
                       "--no-bench"});
  CHECK(r.code == 4);
  CHECK(r.err.find("bf16_dense_tflops") != std::string::npos);
  CHECK(r.err.find(":4:") != std::string::npos);  // its line
  const auto replace = temp_path("gpus-replace.toml");
  std::ofstream(replace) << "[[gpu]]\nid = \"h100-sxm\"\nname = \"H100 at 500 TFLOP/s\"\nbf16_dense_tflops = 500\n"
                            "hbm_gb = 80\nhbm_tb_per_s = 3.35\nintra_node_gb_per_s = 450\nnetwork_gb_per_s = 50\n"
                            "gpus_per_node = 8\nsource = \"a measured sustained rate\"\n";
  r = run_moeplan({"suggest", "--flops", "1e22", "--gpus", "64", "--gpu", "h100", "--gpu-catalog", replace.string(),
                   "--no-bench", "--format", "json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(json::parse(r.out).at("cluster").at("gpu_source").get<std::string>() == "a measured sustained rate");
  std::filesystem::remove(slip);
  std::filesystem::remove(replace);
}

TEST_CASE("emit megatron carries what the step time assumed and what the source model has (issue 32)") {
  const Run r = run_moeplan({"score", "deepseek-v3.1", "--gpus", "2048", "--gpu", "h800", "--tokens", "14.8e12",
                             "--emit", "megatron"});
  REQUIRE(r.code == 0);
  // The step time hides most of the DP reduction behind the backward pass: the flags say so.
  CHECK(r.out.find("\n--overlap-grad-reduce") != std::string::npos);
  CHECK(r.out.find("\n--overlap-param-gather") != std::string::npos);
  // DeepSeek-V3.1's multi-token-prediction module is the source's (num_nextn_predict_layers 1).
  CHECK(r.out.find("\n--mtp-num-layers 1") != std::string::npos);
  // The router is the source's (the preset's [router]: sigmoid, bias-balanced), not paper 000's.
  CHECK(r.out.find("# Router: the source's") != std::string::npos);
  CHECK(r.out.find("\n--moe-router-score-function sigmoid") != std::string::npos);
  CHECK(r.out.find("--moe-z-loss-coeff") == std::string::npos);
  // A model without MTP gets no MTP flag.
  const Run q = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                             "--emit", "megatron"});
  REQUIRE(q.code == 0);
  CHECK(q.out.find("--mtp-num-layers") == std::string::npos);
}

TEST_CASE("the user's layout: given dimensions are kept, the rest searched, and said so in JSON") {
  const Run r = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                             "--tp", "2", "--ep", "16", "--recompute", "selective", "--format", "json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const json c = json::parse(r.out).at(0).at("cluster");
  CHECK(c.at("tp").get<int>() == 2);
  CHECK(c.at("ep").get<int>() == 16);
  CHECK(c.at("recompute").get<std::string>() == "selective");
  CHECK(c.at("given").get<std::string>() == "TP, EP, recompute");
  CHECK(c.at("searched").get<std::string>() == "CP, PP, VPP, stage split, ETP, micro-batch");
  CHECK(c.at("precision").get<std::string>() == "bf16");
  // nothing given: everything searched
  const Run s = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                             "--format", "json"});
  REQUIRE_MESSAGE(s.code == 0, s.err);
  CHECK(json::parse(s.out).at(0).at("cluster").at("given").get<std::string>() == "");
}

TEST_CASE("the user's layout: an illegal one exits 3 naming the rule, a malformed value exits 2, nothing on stdout") {
  struct Case {
    std::vector<std::string> flags;
    int code;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"--tp", "3"}, 3, "--tp 3: TP 3 does not divide N_q = 32"},
      {{"--ep", "48"}, 3, "--ep 48: EP 48 does not divide N_e = 128"},
      {{"--tp", "16"}, 3, "--tp 16: TP 16 exceeds the 8 GPUs of a node"},
      {{"--pp", "64"}, 3, "--pp 64: PP 64 exceeds L = 48 layers"},
      {{"--pp", "4", "--vpp", "5"}, 3, "--vpp 5: VPP 5 does not divide the 12 layers of a stage"},
      {{"--tp", "2", "--etp", "4"}, 3, "--etp 4: ETP 4 is neither 1 nor TP = 2"},
      {{"--etp", "8"}, 3, "--etp 8: ETP other than 1 is TP: TP 8 does not divide N_kv = 4"},
      {{"--tp", "0"}, 2, "--tp"},
      {{"--ep", "two"}, 2, "--ep"},
      {{"--recompute", "some"}, 2, "--recompute"},
      {{"--precision", "fp4"}, 2, "--precision"},
      {{"--a2a-overlap", "1.5"}, 2, "--a2a-overlap"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12"};
    args.insert(args.end(), c.flags.begin(), c.flags.end());
    const Run r = run_moeplan(args);
    CAPTURE(fmt_args(args));
    CAPTURE(r.err);
    CHECK(r.code == c.code);
    CHECK(r.err.find(c.says) != std::string::npos);
    CHECK(r.out.empty());
  }
}

TEST_CASE("precision fp8: the GEMMs run at the fp8 peak, the fp8 weight copies are counted, refused without fp8") {
  const std::vector<std::string> base = {"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens",
                                         "1e12", "--tp", "1", "--ep", "8", "--pp", "1", "--micro-batch-size", "1",
                                         "--recompute", "full", "--format", "json"};
  const Run b = run_moeplan(base);
  std::vector<std::string> fp8 = base;
  fp8.insert(fp8.end(), {"--precision", "fp8"});
  const Run f = run_moeplan(fp8);
  REQUIRE_MESSAGE(b.code == 0, b.err);
  REQUIRE_MESSAGE(f.code == 0, f.err);
  const json jb = json::parse(b.out).at(0), jf = json::parse(f.out).at(0);
  CHECK(jf.at("cluster").at("precision").get<std::string>() == "fp8");
  CHECK(jf.at("step_time").at("gemm").get<double>() < 0.7 * jb.at("step_time").at("gemm").get<double>());
  CHECK(jf.at("step_time").at("tokens_per_second").get<double>() > jb.at("step_time").at("tokens_per_second").get<double>());
  CHECK(jf.at("memory").contains("fp8_weights"));
  CHECK_FALSE(jb.at("memory").contains("fp8_weights"));
  // fp8 copy + transpose: 2 bytes for each linear layer's weight; the embedding and head
  // (untied, 151936 x 2048 each), the routers (48 layers x 128 x 2048) and the RMSNorms (2d a
  // layer and the final d) stay bf16 and get none.
  const double bf16_only = 2.0 * 151936 * 2048 + 48.0 * 128 * 2048 + 48.0 * 2 * 2048 + 2048;
  CHECK(jf.at("memory").at("weights").get<double>() - jf.at("memory").at("fp8_weights").get<double>() ==
        doctest::Approx(2 * bf16_only / double(1ull << 30)));  // GiB
  // A100 has no fp8 tensor cores: exit 3 naming the rule, nothing on stdout
  const Run a = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "a100-80gb", "--tokens", "1e12",
                             "--precision", "fp8"});
  CHECK(a.code == 3);
  CHECK(a.err.find("no fp8 tensor cores") != std::string::npos);
  CHECK(a.out.empty());
}

TEST_CASE("fp8 weights only (--fp8-param-gather) (1 + 1 bytes), said in JSON, read from and written to Megatron args") {
  const std::vector<std::string> base = {"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens",
                                         "1e12", "--tp", "1", "--ep", "8", "--pp", "1", "--micro-batch-size", "1",
                                         "--recompute", "full", "--precision", "fp8"};
  std::vector<std::string> plain = base, gather = base;
  plain.insert(plain.end(), {"--format", "json"});
  gather.insert(gather.end(), {"--fp8-param-gather", "--format", "json"});
  const Run p = run_moeplan(plain), g = run_moeplan(gather);
  REQUIRE_MESSAGE(p.code == 0, p.err);
  REQUIRE_MESSAGE(g.code == 0, g.err);
  const json jp = json::parse(p.out).at(0), jg = json::parse(g.out).at(0);
  CHECK_FALSE(jp.at("cluster").at("fp8_param_gather").get<bool>());
  CHECK(jg.at("cluster").at("fp8_param_gather").get<bool>());
  // The same parameters on the GPU: the linear layers' weights at 1 byte instead of 2 (the
  // embedding, head, routers and norms stay bf16), their copies at 1 (the transpose) instead of
  // 2 (copy and transpose): both drop by one byte per linear weight, which is what the fp8
  // transpose now holds; the rest of the memory unchanged.
  const json& mp = jp.at("memory");
  const json& mg = jg.at("memory");
  const double linear = mg.at("fp8_weights").get<double>();
  CHECK(mp.at("fp8_weights").get<double>() == doctest::Approx(2 * linear));
  CHECK(mp.at("weights").get<double>() - mg.at("weights").get<double>() == doctest::Approx(linear));
  CHECK(mg.at("optimizer").get<double>() == doctest::Approx(mp.at("optimizer").get<double>()));
  CHECK(mg.at("activations").get<double>() == doctest::Approx(mp.at("activations").get<double>()));
  // Written by --emit megatron, and read back from such a file.
  std::vector<std::string> emit = base;
  const auto file = temp_path("fp8-param-gather.sh");
  emit.insert(emit.end(), {"--fp8-param-gather", "--emit", "megatron", "-o", file.string()});
  const Run e = run_moeplan(emit);
  REQUIRE_MESSAGE(e.code == 0, e.err);
  const std::string text = text_of(file);
  CHECK(text.find("\n--fp8-param-gather") != std::string::npos);
  const Run r = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                             "--megatron-args", file.string(), "--format", "json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(json::parse(r.out).at(0).at("cluster").at("fp8_param_gather").get<bool>());
  // The command line's bf16 wins over the file's fp8: the file's flag is dropped, and said.
  const Run bf16 = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                                "--megatron-args", file.string(), "--precision", "bf16", "--format", "json"});
  REQUIRE_MESSAGE(bf16.code == 0, bf16.err);
  CHECK_FALSE(json::parse(bf16.out).at(0).at("cluster").at("fp8_param_gather").get<bool>());
  CHECK(bf16.err.find("--fp8-param-gather ignored: the run is bf16") != std::string::npos);
  // Without fp8 it means nothing: a usage error, nothing on stdout.
  const Run bad = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                               "--fp8-param-gather"});
  CHECK(bad.code == 2);
  CHECK(bad.out.empty());
  CHECK(bad.err.find("--fp8-param-gather keeps the weights in fp8: it needs --precision fp8") != std::string::npos);
}

TEST_CASE("bf16 gradients (--grad-reduce-in-bf16): 2 bytes each, a lighter reduce-scatter, read and written as Megatron spells it") {
  const std::vector<std::string> base = {"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens",
                                         "1e12", "--tp", "1", "--ep", "8", "--pp", "1", "--micro-batch-size", "1",
                                         "--recompute", "full"};
  std::vector<std::string> fp32 = base, bf16 = base;
  fp32.insert(fp32.end(), {"--format", "json"});
  bf16.insert(bf16.end(), {"--grad-reduce-in-bf16", "--format", "json"});
  const Run a = run_moeplan(fp32), b = run_moeplan(bf16);
  REQUIRE_MESSAGE(a.code == 0, a.err);
  REQUIRE_MESSAGE(b.code == 0, b.err);
  const json ja = json::parse(a.out).at(0), jb = json::parse(b.out).at(0);
  CHECK_FALSE(ja.at("cluster").at("grad_reduce_in_bf16").get<bool>());
  CHECK(jb.at("cluster").at("grad_reduce_in_bf16").get<bool>());
  // The same parameters: the gradient buffer halves (4 -> 2 bytes each), nothing else moves.
  CHECK(jb.at("memory").at("gradients").get<double>() == doctest::Approx(ja.at("memory").at("gradients").get<double>() / 2));
  CHECK(jb.at("memory").at("weights").get<double>() == doctest::Approx(ja.at("memory").at("weights").get<double>()));
  CHECK(jb.at("memory").at("optimizer").get<double>() == doctest::Approx(ja.at("memory").at("optimizer").get<double>()));
  // Per parameter of a shard the distributed optimizer reduce-scatters the gradient (4 bytes,
  // 2 in bf16) and all-gathers the bf16 weight (2): 6 -> 4 bytes, dense (DP 64) and experts
  // (EDP 8) alike, both over the NIC: with nothing hidden (--dp-overlap 0) the data-parallel
  // time is 4/6 of the fp32 one; the optimizer step reads the gradient three times, 42 -> 36
  // bytes a parameter.
  std::vector<std::string> fp32_bare = fp32, bf16_bare = bf16;
  fp32_bare.insert(fp32_bare.end(), {"--dp-overlap", "0"});
  bf16_bare.insert(bf16_bare.end(), {"--dp-overlap", "0"});
  const json a0 = json::parse(run_moeplan(fp32_bare).out).at(0), b0 = json::parse(run_moeplan(bf16_bare).out).at(0);
  CHECK(b0.at("step_time").at("dp_reduction").get<double>() ==
        doctest::Approx(a0.at("step_time").at("dp_reduction").get<double>() * 4.0 / 6.0));
  // The optimizer step copies the bf16 gradient to an fp32 main gradient first (read 2, write
  // 4): 44 bytes a parameter against 38.
  CHECK(jb.at("step_time").at("optimizer").get<double>() ==
        doctest::Approx(ja.at("step_time").at("optimizer").get<double>() * 44.0 / 38.0));
  CHECK(jb.at("step_time").at("gemm").get<double>() == doctest::Approx(ja.at("step_time").at("gemm").get<double>()));
  // Written by --emit megatron, and read back from such a file.
  std::vector<std::string> emit = base;
  const auto file = temp_path("grad-reduce-in-bf16.sh");
  emit.insert(emit.end(), {"--grad-reduce-in-bf16", "--emit", "megatron", "-o", file.string()});
  const Run e = run_moeplan(emit);
  REQUIRE_MESSAGE(e.code == 0, e.err);
  CHECK(text_of(file).find("\n--grad-reduce-in-bf16") != std::string::npos);
  const Run r = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                             "--megatron-args", file.string(), "--format", "json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(json::parse(r.out).at(0).at("cluster").at("grad_reduce_in_bf16").get<bool>());
  // Megatron's own default for bf16 (fp32 gradients) is read, not listed as unused; a value
  // given to either switch is a bad value of a flag moeplan uses: exit 4 with file:line.
  const auto fp32_file = temp_path("grads-fp32.sh");
  {
    std::ofstream out(fp32_file);
    out << "torchrun pretrain_gpt.py --bf16 \\\n  --accumulate-allreduce-grads-in-fp32\n";
  }
  const Run f = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                             "--megatron-args", fp32_file.string(), "--format", "json"});
  REQUIRE_MESSAGE(f.code == 0, f.err);
  CHECK_FALSE(json::parse(f.out).at(0).at("cluster").at("grad_reduce_in_bf16").get<bool>());
  CHECK(f.err.find("accumulate-allreduce") == std::string::npos);
  const auto bad_file = temp_path("grads-bad.sh");
  {
    std::ofstream out(bad_file);
    out << "torchrun pretrain_gpt.py --bf16 \\\n  --grad-reduce-in-bf16 yes\n";
  }
  const Run bad = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                               "--megatron-args", bad_file.string()});
  CHECK(bad.code == 4);
  CHECK(bad.out.empty());
  CHECK(bad.err.find(bad_file.filename().string() + ":2") != std::string::npos);
  CHECK(bad.err.find("--grad-reduce-in-bf16") != std::string::npos);
}

TEST_CASE("a Megatron launch script's overlaps, run length, ramp, saves and evaluations are read and written") {
  const std::vector<std::string> base = {"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tp", "1",
                                         "--pp", "1", "--ep", "8", "--micro-batch-size", "2"};
  const auto run_json = [](std::vector<std::string> args) {
    args.insert(args.end(), {"--format", "json"});
    const Run r = run_moeplan(args);
    REQUIRE_MESSAGE(r.code == 0, r.err);
    return std::pair{json::parse(r.out).at(0), r.err};
  };
  const auto write = [](const char* name, const std::string& text) {
    const auto file = temp_path(name);
    std::ofstream(file) << text;
    return file.string();
  };
  // No --overlap-grad-reduce / --overlap-param-gather (Megatron-LM's defaults: off): the
  // reduce-scatter and all-gather exposed whole, as --dp-overlap 0 has them.
  const std::string bare = write("no-overlap.sh", "torchrun pretrain_gpt.py --use-distributed-optimizer --bf16\n");
  std::vector<std::string> with_file = base, hidden_none = base;
  with_file.insert(with_file.end(), {"--tokens", "1e12", "--megatron-args", bare});
  hidden_none.insert(hidden_none.end(), {"--tokens", "1e12", "--dp-overlap", "0"});
  const auto [from_file, notes] = run_json(with_file);
  const auto [none, unused] = run_json(hidden_none);
  CHECK(from_file.at("step_time").at("dp_reduction").get<double>() ==
        doctest::Approx(none.at("step_time").at("dp_reduction").get<double>()));
  CHECK(notes.find("no --overlap-grad-reduce nor --overlap-param-gather") != std::string::npos);
  const std::string both = write("overlap.sh", "--use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather\n");
  std::vector<std::string> overlapped = base, plain = base;
  overlapped.insert(overlapped.end(), {"--tokens", "1e12", "--megatron-args", both});
  plain.insert(plain.end(), {"--tokens", "1e12"});
  CHECK(run_json(overlapped).first.at("step_time").at("dp_reduction").get<double>() ==
        doctest::Approx(run_json(plain).first.at("step_time").at("dp_reduction").get<double>()));
  // The run's length: --train-samples x S (S 4096 from the file), unless --tokens is given.
  const std::string length = write("length.sh", "--seq-length 4096 --train-samples 244140625 --save-interval 500 "
                                                "--async-save --eval-interval 1000 --eval-iters 10\n");
  std::vector<std::string> by_file = base;
  by_file.insert(by_file.end(), {"--megatron-args", length});
  const auto [run, said] = run_json(by_file);
  CHECK(run.at("step_time").at("training_tokens").get<double>() == doctest::Approx(244140625.0 * 4096));
  CHECK(said.find("--train-samples 244140625") != std::string::npos);
  // --save-interval 500 steps at the step time; an evaluation of 10 forward passes a third of
  // a step each, every 1000 steps: floor(steps / 1000) of them.
  const double step = run.at("step_time").at("step").get<double>();
  const json& t = run.at("training");
  CHECK(t.at("checkpoint_interval_minutes").get<double>() == doctest::Approx(500 * step / 60));
  const double steady = run.at("step_time").at("days").get<double>() * 86400;
  CHECK(t.at("eval_days").get<double>() * 86400 == doctest::Approx(std::floor(steady / step / 1000) * 10 * step / 3));
  std::vector<std::string> sync = by_file;
  sync.back() = write("length-sync.sh", "--seq-length 4096 --train-samples 244140625 --save-interval 500\n");
  CHECK(t.at("checkpoint_save_seconds").get<double>() <
        run_json(sync).first.at("training").at("checkpoint_save_seconds").get<double>());
  std::vector<std::string> told = by_file;
  told.insert(told.end(), {"--tokens", "2e12"});
  CHECK(run_json(told).first.at("step_time").at("training_tokens").get<double>() == doctest::Approx(2e12));
  // --emit megatron writes the ramp in Megatron's increments (micro-batch 2 x DP 64 = 128
  // sequences, the start rounded down to them), and reading it back times the same ramp.
  std::vector<std::string> ramped = base;
  ramped.insert(ramped.end(), {"--tokens", "1e12", "--batch-ramp", "512:4.096e10", "--async-checkpoint"});
  const std::string emitted = temp_path("ramp.sh").string();
  std::vector<std::string> emit = ramped;
  emit.insert(emit.end(), {"--emit", "megatron", "-o", emitted});
  const Run e = run_moeplan(emit);
  REQUIRE_MESSAGE(e.code == 0, e.err);
  const std::string script = text_of(emitted);
  CHECK(script.find("\n--rampup-batch-size 512 128 10000000") != std::string::npos);  // 4.096e10 / 4096
  CHECK(script.find("\n--async-save") != std::string::npos);
  std::vector<std::string> back = {"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--megatron-args",
                                   emitted};
  const json a = run_json(ramped).first, b = run_json(back).first;
  CHECK(b.at("step_time").at("batch_ramp_days").get<double>() ==
        doctest::Approx(a.at("step_time").at("batch_ramp_days").get<double>()));
  // --dp-overlap 0 hides nothing: the script asks Megatron for no overlap either.
  std::vector<std::string> no_overlap = emit;
  no_overlap.insert(no_overlap.end() - 4, {"--dp-overlap", "0"});
  REQUIRE(run_moeplan(no_overlap).code == 0);
  CHECK(text_of(emitted).find("--overlap-grad-reduce") == std::string::npos);
}

TEST_CASE("a Megatron launch script's run-length and overlap flags are refused as Megatron-LM refuses them") {
  struct Case {
    const char* text;
    const char* flag;
  };
  const Case cases[] = {
      {"--use-distributed-optimizer\n--overlap-param-gather\n", "--overlap-param-gather"},
      {"--train-samples 1000\n--train-iters 10\n", "--train-iters"},
      {"--train-iters 10 --global-batch-size 256\n--rampup-batch-size 64 64 1000\n", "--rampup-batch-size"},
      {"--global-batch-size 256\n--rampup-batch-size 64 100 1000\n", "--rampup-batch-size"},
      {"--rampup-batch-size 64 64\n", "--rampup-batch-size"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    const auto file = temp_path("refused.sh");
    std::ofstream(file) << c.text;
    const Run r = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                               "--megatron-args", file.string()});
    CHECK(r.code == 4);
    CHECK(r.out.empty());
    CHECK(r.err.find(c.flag) != std::string::npos);
    CHECK(r.err.find("refused.sh:") != std::string::npos);
  }
}

TEST_CASE("CUDA graphs (--cuda-graph-impl, --cuda-graph-scope): reported, refused by Megatron's rules, read and written") {
  const std::vector<std::string> base = {"score", "moe-mini", "--gpus", "8", "--gpu", "h100", "--tokens", "1e11"};
  const auto with = [&](std::initializer_list<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra);
    return run_moeplan(args);
  };
  // Python calls 1 ms each: the host binds, and the graphs' replays are what is left of it.
  const Run eager = with({"--host-op-us", "1000", "--format", "json"});
  const Run graphed = with({"--host-op-us", "1000", "--cuda-graph-impl", "transformer_engine", "--cuda-graph-scope",
                            "attn", "moe_router", "moe_preprocess", "--format", "json"});
  // A full iteration holds the dropless MoE layers too: refused as a whole-layer capture is
  // (Megatron's MoE README: dynamic shapes make them uncapturable); a dense model's costs no host.
  const Run whole = run_moeplan({"score", "dense-6.1b", "--gpus", "8", "--gpu", "h100", "--tokens", "1e11",
                                 "--host-op-us", "1000", "--cuda-graph-impl", "full_iteration", "--format", "json"});
  REQUIRE_MESSAGE(eager.code == 0, eager.err);
  REQUIRE_MESSAGE(graphed.code == 0, graphed.err);
  REQUIRE_MESSAGE(whole.code == 0, whole.err);
  const Run whole_moe = with({"--cuda-graph-impl", "full_iteration"});
  CHECK(whole_moe.code == 3);
  CHECK(whole_moe.err.find("full_iteration captures the whole step, a dropless MoE layer") != std::string::npos);
  const json je = json::parse(eager.out).at(0), jg = json::parse(graphed.out).at(0), jw = json::parse(whole.out).at(0);
  CHECK(je.at("cluster").at("cuda_graph_impl").get<std::string>() == "none");
  CHECK(jg.at("cluster").at("cuda_graph_impl").get<std::string>() == "transformer_engine");
  CHECK(jg.at("cluster").at("cuda_graph_scope").get<std::string>() == "attn,moe_router,moe_preprocess");
  CHECK(je.at("step_time").at("host").get<double>() > jg.at("step_time").at("host").get<double>());
  CHECK(jg.at("step_time").at("host").get<double>() > 0);
  CHECK(jw.at("step_time").at("host").get<double>() == 0);
  // Megatron-Core 0.20's rules: exit 2 for the flags alone, 3 for what needs the model.
  CHECK(with({"--cuda-graph-scope", "attn"}).code == 2);  // no impl
  CHECK(with({"--cuda-graph-impl", "local", "--cuda-graph-scope", "moe"}).code == 2);  // drop-and-pad only
  CHECK(with({"--cuda-graph-impl", "transformer_engine", "--cuda-graph-scope", "moe_preprocess"}).code == 2);  // needs moe_router
  const Run local = with({"--cuda-graph-impl", "local", "--cuda-graph-scope", "moe_preprocess", "--format", "json"});
  REQUIRE_MESSAGE(local.code == 0, local.err);  // local captures the router with it, as Megatron-Core 0.20 does
  CHECK(json::parse(local.out).at(0).at("cluster").at("cuda_graph_scope").get<std::string>() == "moe_router,moe_preprocess");
  // The dispatcher's syncs stay with moe_preprocess captured: the host term never reaches 0.
  CHECK(json::parse(local.out).at(0).at("step_time").at("host").get<double>() > 0);
  const Run whole_layer = with({"--cuda-graph-impl", "local"});  // a dropless MoE layer cannot be captured whole
  CHECK(whole_layer.code == 3);
  CHECK(whole_layer.err.find("drop-and-pad") != std::string::npos);
  CHECK(with({"--cuda-graph-impl", "local", "--cuda-graph-scope", "full", "attn"}).code == 2);
  CHECK(with({"--host-op-us", "nan"}).code == 2);
  CHECK(with({"--cuda-graph-impl", "full_iteration", "--cuda-graph-scope", "attn"}).code == 2);
  CHECK(with({"--cuda-graph-impl", "transformer_engine", "--recompute", "full"}).code == 2);
  const Run dense = run_moeplan({"score", "dense-6.1b", "--gpus", "8", "--gpu", "h100", "--tokens", "1e11",
                                 "--cuda-graph-impl", "local", "--cuda-graph-scope", "moe_router"});
  CHECK(dense.code == 3);
  CHECK(dense.err.find("no MoE layers") != std::string::npos);
  // Written by --emit megatron (Megatron-Core 0.20's --cuda-graph-modules) and read back; the
  // older spelling --cuda-graph-scope and --enable-cuda-graph are read too.
  const auto file = temp_path("cuda-graphs.sh");
  const Run e = with({"--cuda-graph-impl", "transformer_engine", "--cuda-graph-scope", "attn,moe_router", "--emit",
                      "megatron", "-o", file.string()});
  REQUIRE_MESSAGE(e.code == 0, e.err);
  CHECK(text_of(file).find("\n--cuda-graph-impl transformer_engine") != std::string::npos);
  CHECK(text_of(file).find("\n--cuda-graph-modules attn moe_router") != std::string::npos);
  const Run full = run_moeplan({"score", "dense-6.1b", "--gpus", "8", "--gpu", "h100", "--tokens", "1e11",
                                "--cuda-graph-impl", "full_iteration", "--emit", "megatron"});
  REQUIRE_MESSAGE(full.code == 0, full.err);
  CHECK(full.out.find("\n--no-check-for-nan-in-loss-and-grad") != std::string::npos);  // arguments.py asserts it
  const Run back = run_moeplan({"score", "moe-mini", "--gpus", "8", "--gpu", "h100", "--tokens", "1e11",
                                "--megatron-args", file.string(), "--format", "json"});
  REQUIRE_MESSAGE(back.code == 0, back.err);
  CHECK(json::parse(back.out).at(0).at("cluster").at("cuda_graph_scope").get<std::string>() == "attn,moe_router");
  const auto old_file = temp_path("cuda-graphs-old.sh");
  {
    std::ofstream out(old_file);
    out << "torchrun pretrain_gpt.py --bf16 \\\n  --enable-cuda-graph --cuda-graph-scope full_iteration\n";
  }
  const Run old = run_moeplan({"score", "dense-6.1b", "--gpus", "8", "--gpu", "h100", "--tokens", "1e11",
                               "--megatron-args", old_file.string(), "--format", "json"});
  REQUIRE_MESSAGE(old.code == 0, old.err);
  CHECK(json::parse(old.out).at(0).at("cluster").at("cuda_graph_impl").get<std::string>() == "full_iteration");
  const auto bad_file = temp_path("cuda-graphs-bad.sh");
  {
    std::ofstream out(bad_file);
    out << "torchrun pretrain_gpt.py --bf16 \\\n  --cuda-graph-impl cudnn\n";
  }
  const Run bad = run_moeplan({"score", "moe-mini", "--gpus", "8", "--gpu", "h100", "--tokens", "1e11",
                               "--megatron-args", bad_file.string()});
  CHECK(bad.code == 4);
  CHECK(bad.err.find(bad_file.filename().string() + ":2") != std::string::npos);
}

TEST_CASE("cuda graphs: --cuda-graph-scope and --cuda-graph-modules are one setting under two names, refused together as Megatron-Core 0.20 does") {
  const std::vector<std::string> base = {"score", "moe-mini", "--gpus", "8", "--gpu", "h100", "--tokens", "1e11",
                                         "--cuda-graph-impl", "local"};
  const auto with = [&](std::initializer_list<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra);
    return run_moeplan(args);
  };
  const Run both = with({"--cuda-graph-scope", "attn", "--cuda-graph-modules", "moe_router"});
  CHECK(both.code == 2);
  CHECK(both.out.empty());
  CHECK(both.err.find("--cuda-graph-scope and --cuda-graph-modules") != std::string::npos);
  // Either alone is the same setting.
  const Run scope = with({"--cuda-graph-scope", "attn,moe_router", "--format", "json"});
  const Run modules = with({"--cuda-graph-modules", "attn,moe_router", "--format", "json"});
  REQUIRE_MESSAGE(scope.code == 0, scope.err);
  REQUIRE_MESSAGE(modules.code == 0, modules.err);
  CHECK(json::parse(modules.out).at(0).at("cluster").at("cuda_graph_scope").get<std::string>() == "attn,moe_router");
  CHECK(scope.out == modules.out);
  // A launch script with both: exit 4 naming the file's line and both flags.
  const auto file = temp_path("cuda-graphs-both.sh");
  {
    std::ofstream out(file);
    out << "torchrun pretrain_gpt.py --bf16 \\\n  --cuda-graph-impl local --cuda-graph-modules attn \\\n"
           "  --cuda-graph-scope moe_router\n";
  }
  const Run in_file = run_moeplan({"score", "moe-mini", "--gpus", "8", "--gpu", "h100", "--tokens", "1e11",
                                   "--megatron-args", file.string()});
  CHECK(in_file.code == 4);
  CHECK(in_file.err.find(file.filename().string() + ":3") != std::string::npos);
  CHECK(in_file.err.find("--cuda-graph-scope") != std::string::npos);
  CHECK(in_file.err.find("--cuda-graph-modules (line 2)") != std::string::npos);
}

TEST_CASE("Communication overlaps (--tp-comm-overlap, --no-overlap-p2p-communication): reported, read and written as Megatron spells them") {
  // Llama 3 70B as the validation table runs it (bench/validation/llama3-70b.toml)
  const std::string k_llama3_70b = std::string(MOEPLAN_SOURCE_DIR) + "/bench/validation/llama3-70b.toml";
  const std::vector<std::string> base = {"score", k_llama3_70b, "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                                         "--seq-len", "4096", "--tp", "4", "--pp", "8", "--vpp", "5",
                                         "--micro-batch-size", "1", "--recompute", "none"};
  std::vector<std::string> plain = base, tuned = base;
  plain.insert(plain.end(), {"--no-overlap-p2p-communication", "--format", "json"});
  tuned.insert(tuned.end(), {"--tp-comm-overlap", "--format", "json"});
  const Run a = run_moeplan(plain), b = run_moeplan(tuned);
  REQUIRE_MESSAGE(a.code == 0, a.err);
  REQUIRE_MESSAGE(b.code == 0, b.err);
  const json ja = json::parse(a.out).at(0), jb = json::parse(b.out).at(0);
  CHECK_FALSE(ja.at("cluster").at("tp_comm_overlap").get<bool>());
  CHECK_FALSE(ja.at("cluster").at("p2p_overlap").get<bool>());
  CHECK(jb.at("cluster").at("tp_comm_overlap").get<bool>());
  CHECK(jb.at("cluster").at("p2p_overlap").get<bool>());
  // The same layout and work; the TP and pipeline terms shrink, nothing else moves.
  CHECK(jb.at("cluster").at("layout").get<std::string>() == ja.at("cluster").at("layout").get<std::string>());
  CHECK(jb.at("step_time").at("tp_collectives").get<double>() < ja.at("step_time").at("tp_collectives").get<double>());
  CHECK(jb.at("step_time").at("pipeline").get<double>() < ja.at("step_time").at("pipeline").get<double>());
  CHECK(jb.at("step_time").at("gemm").get<double>() == doctest::Approx(ja.at("step_time").at("gemm").get<double>()));
  CHECK(jb.at("memory").at("total").get<double>() == doctest::Approx(ja.at("memory").at("total").get<double>()));
  // Written by --emit megatron, and read back from such a file.
  for (const auto& [flag, key, value] : {std::tuple{"--tp-comm-overlap", "tp_comm_overlap", true},
                                         std::tuple{"--no-overlap-p2p-communication", "p2p_overlap", false}}) {
    CAPTURE(flag);
    std::vector<std::string> emit = base;
    const auto file = temp_path(std::string("overlap") + flag + ".sh");
    emit.insert(emit.end(), {flag, "--emit", "megatron", "-o", file.string()});
    const Run e = run_moeplan(emit);
    REQUIRE_MESSAGE(e.code == 0, e.err);
    CHECK(text_of(file).find(std::string("\n") + flag) != std::string::npos);
    const Run r = run_moeplan({"score", k_llama3_70b, "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                               "--megatron-args", file.string(), "--format", "json"});
    REQUIRE_MESSAGE(r.code == 0, r.err);
    CHECK(json::parse(r.out).at(0).at("cluster").at(key).get<bool>() == value);
    // a value given to the switch is a bad value of a flag moeplan uses: exit 4 with file:line
    const auto bad_file = temp_path(std::string("overlap-bad") + flag + ".sh");
    {
      std::ofstream out(bad_file);
      out << "torchrun pretrain_gpt.py --bf16 \\\n  " << flag << " yes\n";
    }
    const Run bad = run_moeplan({"score", k_llama3_70b, "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                                 "--megatron-args", bad_file.string()});
    CHECK(bad.code == 4);
    CHECK(bad.out.empty());
    CHECK(bad.err.find(bad_file.filename().string() + ":2") != std::string::npos);
    CHECK(bad.err.find(flag) != std::string::npos);
  }
  // Without TP or VPP the flags change nothing, and the script does not carry them.
  const Run flat = run_moeplan({"score", "dense-6.1b", "--gpus", "8", "--gpu", "h100", "--tokens", "1e12", "--tp", "1",
                                "--pp", "2", "--vpp", "1", "--tp-comm-overlap", "--no-overlap-p2p-communication",
                                "--emit", "megatron"});
  REQUIRE_MESSAGE(flat.code == 0, flat.err);
  CHECK(flat.out.find("--tp-comm-overlap") == std::string::npos);
  CHECK(flat.out.find("--no-overlap-p2p-communication") == std::string::npos);
  // and the output reports what was applied: neither, at TP 1 and VPP 1 (even unasked for p2p)
  const Run flat_json = run_moeplan({"score", "dense-6.1b", "--gpus", "8", "--gpu", "h100", "--tokens", "1e12", "--tp",
                                     "1", "--pp", "2", "--vpp", "1", "--tp-comm-overlap", "--format", "json"});
  REQUIRE_MESSAGE(flat_json.code == 0, flat_json.err);
  CHECK_FALSE(json::parse(flat_json.out).at(0).at("cluster").at("tp_comm_overlap").get<bool>());
  CHECK_FALSE(json::parse(flat_json.out).at(0).at("cluster").at("p2p_overlap").get<bool>());
}

TEST_CASE("DeepSeek-V3 as trained: fp8, PP 16 DualPipe, EP 64, no TP, its recompute and bf16 moments, within 15 % of 2.664M GPU-hours") {
  // arXiv 2412.19437 Table 1: 2664K H800 GPU hours of pre-training on 14.8T tokens; Sec. 3.2:
  // PP 16, EP 64, no TP, DualPipe hides the all-to-all ("fully overlap"); batch 15360 x 4096;
  // Sec. 3.3: BF16 AdamW moments, the SwiGLU's input cached in fp8, the norms and MLA's
  // up-projections recomputed. Issue 48: the published layout fits and its steady-state
  // GPU-hours are within +-15 % of 2.664M.
  const std::vector<std::string> base = {"score", "deepseek-v3.1", "--gpus", "2048", "--gpu", "h800", "--tokens",
                                         "14.8e12", "--seq-len", "4096", "--global-batch-tokens", "62914560",
                                         "--tp", "1", "--pp", "16", "--ep", "64", "--format", "json"};
  std::vector<std::string> as_trained = base;
  as_trained.insert(as_trained.end(), {"--precision", "fp8", "--a2a-overlap", "1", "--pipeline-schedule", "dualpipe",
                                       "--recompute-modules", "layernorm", "mla_up_proj", "moe_act", "--bf16-moments",
                                       "--activation-func-fp8-input-store"});
  const Run r = run_moeplan(as_trained);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const json j = json::parse(r.out).at(0);
  const double hours = j.at("step_time").at("gpu_hours").get<double>();
  CAPTURE(hours);
  CHECK(hours > 0.85 * 2.664e6);
  CHECK(hours < 1.15 * 2.664e6);
  CHECK(j.at("cluster").at("pipeline_schedule") == "dualpipe");
  CHECK(j.at("cluster").at("tp").get<int>() == 1);
  CHECK(j.at("cluster").at("pp").get<int>() == 16);
  CHECK(j.at("cluster").at("ep").get<int>() == 64);
  // bf16 without the overlap: slower
  const Run bf = run_moeplan(base);
  REQUIRE_MESSAGE(bf.code == 0, bf.err);
  CHECK(json::parse(bf.out).at(0).at("step_time").at("gpu_hours").get<double>() > 1.5 * hours);
}

TEST_CASE("fp8 dispatch is DeepEP's: NCCL's all-to-all (Megatron's alltoall dispatcher) sends bf16 in an fp8 run too") {
  const auto a2a = [](const char* precision, const char* dispatcher) {
    const Run r = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "16", "--gpu", "h100", "--tokens", "1e12", "--tp", "1",
                               "--pp", "1", "--ep", "16", "--micro-batch-size", "1", "--recompute", "none",
                               "--precision", precision, "--a2a-dispatcher", dispatcher, "--format", "json"});
    REQUIRE_MESSAGE(r.code == 0, r.err);
    return json::parse(r.out).at(0).at("step_time").at("all_to_all").get<double>();
  };
  // NCCL: bf16 whatever the GEMMs' precision; DeepEP: the forward dispatch in fp8 (DeepSeek-V3
  // Sec. 3.3.2), one of the four transfers at about half the bytes.
  CHECK(a2a("fp8", "alltoall") == doctest::Approx(a2a("bf16", "alltoall")).epsilon(1e-12));
  const double fp8 = a2a("fp8", "deepep"), bf16 = a2a("bf16", "deepep");
  CHECK(fp8 < bf16);
  CHECK(fp8 > 0.75 * bf16);
}

TEST_CASE("fp8 memory is the most loaded rank's with its fp8 copies: an MTP module on the last stage never lowers it") {
  // The fp8 copies differ between pipeline ranks (the embedding and head have none), so the
  // most loaded rank is chosen on the total with them; choosing it without them once reported
  // the last stage (with the MTP module) below the first stage's own need.
  const auto peak = [](const char* mtp) {
    const Run r = run_moeplan({"score", "deepseek-v3.1", "--gpus", "2048", "--gpu", "h800", "--tokens", "14.8e12",
                               "--precision", "fp8", "--tp", "1", "--pp", "16", "--ep", "64", "--a2a-overlap", "1",
                               "--decoder-first-pipeline-num-layers", "4", "--decoder-last-pipeline-num-layers", "1",
                               "--mtp-num-layers", mtp, "--format", "json"});
    REQUIRE_MESSAGE(r.code == 0, r.err);
    return json::parse(r.out).at(0).at("memory").at("total").get<double>();
  };
  const double without = peak("0"), with = peak("1");
  CAPTURE(without);
  CAPTURE(with);
  CHECK(with >= without);
}

TEST_CASE("megatron args file: the exported launch arguments read back as the same layout, the command line wins") {
  const auto args = temp_path("megatron-args.sh");
  const std::vector<std::string> base = {"score", "deepseek-v3.1", "--gpus", "256", "--gpu", "h800", "--tokens", "1e12",
                                         "--precision", "fp8", "--a2a-dispatcher", "alltoall"};
  std::vector<std::string> emit = base;
  emit.insert(emit.end(), {"--emit", "megatron", "-o", args.string()});
  const Run e = run_moeplan(emit);
  REQUIRE_MESSAGE(e.code == 0, e.err);
  std::vector<std::string> plain = base;
  plain.insert(plain.end(), {"--format", "json"});
  const Run p = run_moeplan(plain);
  REQUIRE_MESSAGE(p.code == 0, p.err);
  const json chosen = json::parse(p.out).at(0).at("cluster");
  // the file alone: no precision or dispatcher on the command line, they come from it
  const Run r = run_moeplan({"score", "deepseek-v3.1", "--gpus", "256", "--gpu", "h800", "--tokens", "1e12",
                             "--megatron-args", args.string(), "--format", "json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const json c = json::parse(r.out).at(0).at("cluster");
  for (const char* k : {"layout", "tp", "pp", "vpp", "ep", "etp", "cp", "micro_batch", "recompute", "precision",
                        "global_batch"}) {
    CAPTURE(k);
    CHECK(c.at(k) == chosen.at(k));
  }
  CHECK(c.at("given").get<std::string>().find("TP") != std::string::npos);
  CHECK(json::parse(r.out).at(0).at("step_time").at("all_to_all") == json::parse(p.out).at(0).at("step_time").at("all_to_all"));
  // flags it does not use are listed on stderr
  CHECK(r.err.find("not used by moeplan (ignored)") != std::string::npos);
  CHECK(r.err.find("--lr") != std::string::npos);
  // the command line wins over the file
  const Run w = run_moeplan({"score", "deepseek-v3.1", "--gpus", "256", "--gpu", "h800", "--tokens", "1e12",
                             "--megatron-args", args.string(), "--precision", "bf16", "--format", "json"});
  REQUIRE_MESSAGE(w.code == 0, w.err);
  CHECK(json::parse(w.out).at(0).at("cluster").at("precision").get<std::string>() == "bf16");
  // -o never writes over the arguments file it reads
  const Run o = run_moeplan({"score", "deepseek-v3.1", "--gpus", "256", "--gpu", "h800", "--tokens", "1e12",
                             "--megatron-args", args.string(), "-o", args.string(), "--format", "json"});
  CHECK(o.code == 5);
  CHECK(o.out.empty());
  std::filesystem::remove(args);
}

TEST_CASE("megatron args file: a bad value of a flag it uses exits 4 with file:line and flag, nothing on stdout") {
  const auto args = temp_path("bad-args.sh");
  std::ofstream(args) << "torchrun pretrain_gpt.py \\\n  --num-layers 48 \\\n  --expert-model-parallel-size $EP\n";
  const Run r = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                             "--megatron-args", args.string()});
  CHECK(r.code == 4);
  CHECK(r.err.find(args.string() + ":3") != std::string::npos);
  CHECK(r.err.find("--expert-model-parallel-size") != std::string::npos);
  CHECK(r.out.empty());
  // a missing file, and the flag without a cluster
  const Run missing = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                                   "--megatron-args", args.string() + ".none"});
  CHECK(missing.code == 4);
  CHECK(missing.out.empty());
  const Run alone = run_moeplan({"score", "qwen3-30b-a3b", "--tokens", "1e12", "--megatron-args", args.string()});
  CHECK(alone.code == 2);
  CHECK(alone.err.find("--gpus N and --gpu KIND") != std::string::npos);
  std::filesystem::remove(args);
}

TEST_CASE("megatron args file for another model: exit 4 naming the flag, both values and the line (issue 46 item 6)") {
  const auto args = temp_path("other-model.sh");
  const auto score = [&](const std::string& model, const std::string& gpus, const std::string& gpu) {
    return run_moeplan({"score", model, "--gpus", gpus, "--gpu", gpu, "--tokens", "1e12", "--megatron-args",
                        args.string(), "--format", "json"});
  };
  // 24 layers, PP 2, 6 layers per virtual stage: VPP 2 for a 24-layer model, not for these
  std::ofstream(args) << "torchrun pretrain_gpt.py \\\n  --num-layers 24 \\\n  --pipeline-model-parallel-size 2 \\\n"
                         "  --num-layers-per-virtual-pipeline-stage 6 --expert-model-parallel-size 8\n";
  const Run q = score("qwen3-30b-a3b", "64", "h100");
  CHECK(q.code == 4);
  CHECK(q.out.empty());
  CHECK(q.err.find(args.string() + ":2: --num-layers: 24 but the scored model has 48") != std::string::npos);
  const Run d = score("deepseek-v3.1", "256", "h800");
  CHECK(d.code == 4);
  CHECK(d.out.empty());
  CHECK(d.err.find(args.string() + ":2: --num-layers: 24 but the scored model has 61") != std::string::npos);
  CHECK(d.err.find("--vpp") == std::string::npos);  // not blamed on a flag the user never typed
  // each model flag as Megatron builds the model from it
  struct Case {
    const char* model;
    std::string script;
    const char* said;  // "" : accepted
  };
  const Case cases[] = {
      {"qwen3-30b-a3b", "--hidden-size 4096\n", ":1: --hidden-size: 4096 but the scored model has 2048"},
      {"qwen3-30b-a3b", "--num-attention-heads 16\n", ":1: --num-attention-heads: 16 but the scored model has 32"},
      {"qwen3-30b-a3b", "--group-query-attention\n--num-query-groups 8\n",
       ":2: --num-query-groups: 8 but the scored model has 4 key/value heads"},
      {"qwen3-30b-a3b", "--num-query-groups 8\n", ""},  // without --group-query-attention Megatron ignores it
      {"qwen3-30b-a3b", "--kv-channels 64\n", ":1: --kv-channels: 64 but the scored model has 128 (its head size)"},
      {"qwen3-30b-a3b", "--num-experts 64 --moe-router-topk 8\n", ":1: --num-experts: 64 but the scored model has 128"},
      {"qwen3-30b-a3b", "--moe-router-topk 4\n", ":1: --moe-router-topk: 4 but the scored model has 8"},
      {"qwen3-30b-a3b", "--moe-ffn-hidden-size 1536\n", ":1: --moe-ffn-hidden-size: 1536 but the scored model has 768"},
      {"qwen3-30b-a3b", "--moe-shared-expert-intermediate-size 768\n",
       ":1: --moe-shared-expert-intermediate-size: 768 but the scored model has 0 (no shared experts)"},
      // every layer MoE: without --moe-ffn-hidden-size Megatron sizes the experts by --ffn-hidden-size
      {"qwen3-30b-a3b", "--ffn-hidden-size 6144\n", ":1: --ffn-hidden-size: 6144 but the scored model has 768"},
      {"qwen3-30b-a3b", "--ffn-hidden-size 6144 --moe-ffn-hidden-size 768\n", ""},
      // the vocabulary (Megatron pads it) and the sequence length are not the model's shape
      {"qwen3-30b-a3b", "--vocab-size 151936 --seq-length 4096 --hidden-size 2048\n", ""},
      {"deepseek-v3.1", "--ffn-hidden-size 2048\n", ":1: --ffn-hidden-size: 2048 but the scored model has 18432"},
      {"deepseek-v3.1", "--moe-shared-expert-intermediate-size 4096\n",
       ":1: --moe-shared-expert-intermediate-size: 4096 but the scored model has 2048 (1 shared experts x 2048)"},
      {"deepseek-v3.1", "--kv-channels 56\n", ""},  // MLA: Megatron sizes its heads by --qk-head-dim and --v-head-dim
      {"dense-6.1b", "--num-experts 8\n", ":1: --num-experts: 8 but the scored model has 0 (a dense model)"},
      {"dense-6.1b", "--moe-router-topk 2\n", ""},  // no experts: Megatron builds no router
  };
  for (const Case& c : cases) {
    CAPTURE(c.model);
    CAPTURE(c.script);
    std::ofstream(args) << c.script;
    const bool deepseek = std::string(c.model) == "deepseek-v3.1";
    const Run r = score(c.model, deepseek ? "256" : "64", deepseek ? "h800" : "h100");
    if (*c.said == '\0') {
      CHECK_MESSAGE(r.code == 0, r.err);
    } else {
      CHECK(r.code == 4);
      CHECK(r.out.empty());
      CHECK(r.err.find(args.string() + c.said) != std::string::npos);
    }
  }
  std::filesystem::remove(args);
}

TEST_CASE("megatron args round trip: what score MODEL --emit megatron writes, score MODEL --megatron-args accepts") {
  const std::string hf = MOEPLAN_TEST_DATA_DIR "/hf/";
  const auto file = temp_path("round-trip.sh");
  // presets and config.json files: MLA (DeepSeek-V3 style), GQA MoE, dense, sliding windows
  const std::vector<std::string> models = {"deepseek-v3.1", "qwen3-30b-a3b", "dense-6.1b", "gpt-oss-20b", "glm-4.5-air",
                                           hf + "deepseek-v3.1.json", hf + "kimi-k2.json", hf + "qwen3-8b.json",
                                           hf + "llama-3.1-8b.json", hf + "qwen3-30b-a3b.json", hf + "gpt-oss-20b.json"};
  for (const std::string& model : models) {
    CAPTURE(model);
    const Run e = run_moeplan({"score", model, "--emit", "megatron", "-o", file.string()});
    REQUIRE_MESSAGE(e.code == 0, e.err);
    const bool large = model.find("deepseek") != std::string::npos || model.find("kimi") != std::string::npos;
    const Run r = run_moeplan({"score", model, "--gpus", large ? "1024" : "64", "--gpu", "h800", "--tokens", "1e12",
                               "--megatron-args", file.string(), "--format", "json"});
    CHECK_MESSAGE(r.code == 0, r.err);
    CHECK(r.err.find("for another model") == std::string::npos);
    // the model flags were compared, not listed as ignored
    CHECK(r.err.find("ignored): --num-layers") == std::string::npos);
    CHECK(r.err.find(" --hidden-size") == std::string::npos);
  }
  std::filesystem::remove(file);
}

TEST_CASE("megatron args file: 200,000 unknown flags keep stderr short, and a binary file is refused (issue 46 items 5, 11f)") {
  const auto args = temp_path("wide-args.sh");
  {
    std::ofstream out(args);
    out << "torchrun pretrain_gpt.py --tensor-model-parallel-size 1 --expert-model-parallel-size 8 \\\n";
    for (int i = 0; i < 200000; ++i) out << "  --unknown-flag-" << i << " " << i << " \\\n";
    out << "  --micro-batch-size 1\n";
  }
  const Run r = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                             "--megatron-args", args.string(), "--format", "json"});
  REQUIRE_MESSAGE(r.code == 0, r.err.substr(0, 2000));
  CHECK(r.err.size() < 8192);
  CHECK(r.err.find("not used by moeplan (ignored): --unknown-flag-0 --unknown-flag-1 ") != std::string::npos);
  CHECK(r.err.find("--unknown-flag-63 and 199936 more") != std::string::npos);
  CHECK(json::parse(r.out).at(0).at("cluster").at("tp") == 1);
  // a 64 KiB binary file (no NUL byte in it) given as the launch script
  {
    std::ofstream out(args, std::ios::binary);
    for (std::size_t i = 0; i < 65536; ++i) out.put(static_cast<char>(1 + (i * 97) % 255));
  }
  const Run b = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                             "--megatron-args", args.string()});
  CHECK(b.code == 4);
  CHECK(b.out.empty());
  CHECK(b.err.find(args.string() + ":") != std::string::npos);
  CHECK(b.err.find("not a text file") != std::string::npos);
  std::filesystem::remove(args);
}

TEST_CASE("gemm table flags: the step time at a measured table's rates, a bad or foreign table exits 4, bench without a GPU exits 3") {
  const std::string table = MOEPLAN_TEST_DATA_DIR "/../../docs/measurements/h200-2026-11-26/gemm_table.csv";
  const std::vector<std::string> base = {"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h200", "--tokens", "1e12",
                                         "--tp", "1", "--ep", "8", "--format", "json"};
  std::vector<std::string> with = base;
  with.insert(with.end(), {"--gemm-table", table});
  const Run m = run_moeplan(with);
  REQUIRE_MESSAGE(m.code == 0, m.err);
  const Run s = run_moeplan(base);
  REQUIRE_MESSAGE(s.code == 0, s.err);
  // the H200 measured its large GEMMs above the stated 0.6 ceiling (0.76): faster GEMMs
  CHECK(json::parse(m.out).at(0).at("step_time").at("gemm").get<double>() <
        json::parse(s.out).at(0).at("step_time").at("gemm").get<double>());
  // no rows of this GPU: exit 4 naming the file
  const Run foreign = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                                   "--gemm-table", table});
  CHECK(foreign.code == 4);
  CHECK(foreign.err.find("no row measured on the h100-sxm") != std::string::npos);
  CHECK(foreign.out.empty());
  const auto bad = temp_path("bad-table.csv");
  std::ofstream(bad) << "gpu,precision,groups,m,n,k,flops_per_s\nNVIDIA H200,bf16,1,64,64,64,fast\n";
  const Run b = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h200", "--tokens", "1e12",
                             "--gemm-table", bad.string()});
  CHECK(b.code == 4);
  CHECK(b.err.find(bad.string() + ":2") != std::string::npos);
  CHECK(b.err.find("flops_per_s") != std::string::npos);
  CHECK(b.out.empty());
  // never written over by -o
  const Run o = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h200", "--tokens", "1e12",
                             "--gemm-table", bad.string(), "-o", bad.string()});
  CHECK(o.code == 5);
  std::filesystem::remove(bad);
  // bench --gemm-table-out writes the GPU's rates: with no GPU here it exits 3 and writes nothing
  const auto out = temp_path("table-out.csv");
  const Run g = run_moeplan({"bench", "qwen3-30b-a3b", "--no-gpu", "--gemm-table-out", out.string()});
  CHECK(g.code == 2);
  CHECK_FALSE(std::filesystem::exists(out));
}

TEST_CASE("score with a given layout: the search's best beside it, and the terms that decide it") {
  // DeepSeek-V3's own layout (PP 16, EP 64, no TP) in fp8 on 2048 H800 (issue 33 item 6)
  std::vector<std::string> args = {"score", "deepseek-v3.1", "--gpus", "2048", "--gpu", "h800", "--tokens", "14.8e12",
                                   "--precision", "fp8", "--tp", "1", "--pp", "16", "--ep", "64", "--format", "json"};
  const Run r = run_moeplan(args);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const json j = json::parse(r.out).at(0);
  // without DualPipe's overlap its all-to-all across 8 nodes is exposed: the search finds faster
  REQUIRE(j.contains("searched_best"));
  const json& s = j.at("searched_best");
  CHECK(s.at("tokens_per_second").get<double>() > j.at("step_time").at("tokens_per_second").get<double>());
  CHECK(s.at("given_slower_because").get<std::string>().find("all-to-all") != std::string::npos);
  CHECK(s.at("layout").get<std::string>() != j.at("cluster").at("layout").get<std::string>());
  // with the all-to-all hidden, as DualPipe hides it, the all-to-all no longer decides it
  args.insert(args.end() - 2, {"--a2a-overlap", "1"});
  const Run o = run_moeplan(args);
  REQUIRE_MESSAGE(o.code == 0, o.err);
  const json jo = json::parse(o.out).at(0);
  // (what stays is the compute it slows: DeepEP's 20 of the H800's 132 SMs while it runs)
  CHECK(jo.at("step_time").at("all_to_all").get<double>() > 0);
  CHECK(jo.at("step_time").at("all_to_all").get<double>() < 0.2 * j.at("step_time").at("all_to_all").get<double>());
  if (jo.contains("searched_best")) {
    CHECK(jo.at("searched_best").at("given_slower_because").get<std::string>().find("all-to-all") == std::string::npos);
  }
  // nothing given: no comparison
  const Run n = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                             "--format", "json"});
  REQUIRE_MESSAGE(n.code == 0, n.err);
  CHECK_FALSE(json::parse(n.out).at(0).contains("searched_best"));
}

TEST_CASE("megatron args file and gemm table: a batch in sequences, the rates' source said, implausible rates refused") {
  const auto args = temp_path("gbs.sh");
  std::ofstream(args) << "torchrun pretrain_gpt.py --global-batch-size 1024 --micro-batch-size 1\n";
  const Run r = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                             "--megatron-args", args.string(), "--format", "json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const json c = json::parse(r.out).at(0).at("cluster");
  CHECK(c.at("global_batch").get<long long>() == 1024);  // the file's, at the model's S (no --seq-length)
  CHECK(c.at("global_batch_source").get<std::string>().find("--global-batch-size: 1024 sequences") != std::string::npos);
  CHECK(c.at("gemm_rates").get<std::string>().find("shape model") == 0);
  std::filesystem::remove(args);
  // a table's rates: said where they come from; a rate above the datasheet peak refused
  const std::string table = MOEPLAN_TEST_DATA_DIR "/../../docs/measurements/h200-2026-11-26/gemm_table.csv";
  const Run t = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h200", "--tokens", "1e12",
                             "--gemm-table", table, "--format", "json"});
  REQUIRE_MESSAGE(t.code == 0, t.err);
  CHECK(json::parse(t.out).at(0).at("cluster").at("gemm_rates").get<std::string>().find("120 rows of the h200 in bf16") !=
        std::string::npos);
  const auto fast = temp_path("fast.csv");
  std::ofstream(fast) << "gpu,precision,groups,m,n,k,flops_per_s\nNVIDIA H200,bf16,1,64,64,64,5e16\n";
  const Run f = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h200", "--tokens", "1e12",
                             "--gemm-table", fast.string()});
  CHECK(f.code == 4);
  CHECK(f.err.find(fast.string() + ":2") != std::string::npos);
  CHECK(f.err.find("above the h200's dense bf16 peak") != std::string::npos);
  CHECK(f.out.empty());
  // without a cluster the table is a usage error, not ignored
  const Run alone = run_moeplan({"score", "qwen3-30b-a3b", "--tokens", "1e12", "--gemm-table", fast.string()});
  CHECK(alone.code == 2);
  std::filesystem::remove(fast);
  // the export says what the overlap it cannot set was
  const Run e = run_moeplan({"score", "deepseek-v3.1", "--gpus", "2048", "--gpu", "h800", "--tokens", "14.8e12",
                             "--precision", "fp8", "--tp", "1", "--pp", "16", "--ep", "64", "--a2a-overlap", "1",
                             "--emit", "megatron"});
  REQUIRE_MESSAGE(e.code == 0, e.err);
  CHECK(e.out.find("# The step time assumed 100 % of the expert all-to-all hidden") != std::string::npos);
}

TEST_CASE("recompute modules: Megatron's names on the command line and in an args file, said in JSON, exported") {
  const std::vector<std::string> base = {"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens",
                                         "1e12", "--tp", "1", "--ep", "8", "--pp", "1", "--micro-batch-size", "1"};
  const auto json_of = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = base;
    a.insert(a.end(), extra.begin(), extra.end());
    a.insert(a.end(), {"--format", "json"});
    const Run r = run_moeplan(a);
    REQUIRE_MESSAGE(r.code == 0, r.err);
    return json::parse(r.out).at(0);
  };
  const json core = json_of({"--recompute", "selective"});
  const json mods = json_of({"--recompute-modules", "layernorm,moe_act"});  // implies selective
  const json spaced = json_of({"--recompute-modules", "moe_act", "layernorm"});  // Megatron's spelling
  CHECK(core.at("cluster").at("recompute_modules") == "core_attn");
  CHECK(mods.at("cluster").at("recompute") == "selective");
  CHECK(mods.at("cluster").at("recompute_modules") == "layernorm,moe_act");
  CHECK(spaced.at("cluster").at("recompute_modules") == "layernorm,moe_act");
  CHECK(mods.at("memory").at("activations").get<double>() < core.at("memory").at("activations").get<double>());
  CHECK(json_of({"--recompute", "none"}).at("cluster").at("recompute_modules") == "");
  // Exported as Megatron spells it, and read back from that file.
  const auto file = temp_path("recompute-modules.sh");
  std::vector<std::string> emit = base;
  emit.insert(emit.end(), {"--recompute-modules", "layernorm,moe_act", "--emit", "megatron", "-o", file.string()});
  const Run e = run_moeplan(emit);
  REQUIRE_MESSAGE(e.code == 0, e.err);
  const std::string text = text_of(file);
  CHECK(text.find("\n--recompute-granularity selective \\\n--recompute-modules layernorm moe_act \\\n") !=
        std::string::npos);
  const Run back = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                                "--megatron-args", file.string(), "--format", "json"});
  REQUIRE_MESSAGE(back.code == 0, back.err);
  CHECK(json::parse(back.out).at(0).at("cluster").at("recompute_modules") == "layernorm,moe_act");
  std::filesystem::remove(file);
  // Megatron's "moe" is not modelled: said in a file (and ignored), refused on the command line.
  const auto moe_file = temp_path("recompute-moe.sh");
  std::ofstream(moe_file) << "torchrun pretrain_gpt.py --recompute-granularity selective \\\n"
                             "  --recompute-modules moe layernorm --tensor-model-parallel-size 1\n";
  const Run moe = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                               "--megatron-args", moe_file.string(), "--format", "json"});
  REQUIRE_MESSAGE(moe.code == 0, moe.err);
  CHECK(json::parse(moe.out).at(0).at("cluster").at("recompute_modules") == "layernorm");
  CHECK(moe.err.find("--recompute-modules moe: not modelled") != std::string::npos);
  // "moe" alone: Megatron recomputes nothing moeplan models, so nothing is recomputed here either.
  std::ofstream(moe_file) << "torchrun pretrain_gpt.py --recompute-granularity selective --recompute-modules moe\n";
  const Run moe_only = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                                    "--megatron-args", moe_file.string(), "--format", "json"});
  REQUIRE_MESSAGE(moe_only.code == 0, moe_only.err);
  CHECK(json::parse(moe_only.out).at(0).at("cluster").at("recompute") == "none");
  CHECK(moe_only.err.find("names no module moeplan models: timed without recompute") != std::string::npos);
  std::ofstream(moe_file) << "torchrun pretrain_gpt.py --recompute-granularity selective \\\n"
                             "  --recompute-modules layernorm bogus\n";
  const Run bad_file = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                                    "--megatron-args", moe_file.string()});
  CHECK(bad_file.code == 4);
  CHECK(bad_file.out.empty());
  CHECK(bad_file.err.find(moe_file.string() + ":2") != std::string::npos);
  CHECK(bad_file.err.find("\"bogus\"") != std::string::npos);
  std::filesystem::remove(moe_file);
  // mla_up_proj without multi-latent attention: Megatron refuses it, so does moeplan (exit 3).
  std::vector<std::string> mla = base;
  mla.insert(mla.end(), {"--recompute-modules", "mla_up_proj"});
  const Run no_mla = run_moeplan(mla);
  CHECK(no_mla.code == 3);
  CHECK(no_mla.out.empty());
  CHECK(no_mla.err.find("no multi-latent attention") != std::string::npos);
  // Under fp8 Megatron's default delayed scaling refuses layernorm and moe_act recompute: the
  // export asks for current scaling.
  std::vector<std::string> fp8 = base;
  fp8.insert(fp8.end(), {"--precision", "fp8", "--recompute-modules", "layernorm,moe_act", "--emit", "megatron"});
  const Run fp8_emit = run_moeplan(fp8);
  REQUIRE_MESSAGE(fp8_emit.code == 0, fp8_emit.err);
  CHECK(fp8_emit.out.find("\n--fp8-recipe tensorwise") != std::string::npos);
  for (const std::vector<std::string>& wrong :
       {std::vector<std::string>{"--recompute-modules", "moe"}, {"--recompute-modules", "layernorm,attn"},
        {"--recompute-modules", ","}, {"--recompute-modules", ""},
        {"--recompute", "full", "--recompute-modules", "layernorm"}}) {
    std::vector<std::string> a = base;
    a.insert(a.end(), wrong.begin(), wrong.end());
    const Run r = run_moeplan(a);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find("--recompute-modules") != std::string::npos);
  }
}

TEST_CASE("score with no answer on the cluster leaves that config out: nothing on stdout, no -o file") {
  // DeepSeek-V3.1 does not fit 8 H100 (exit 3): no report without the cluster answer asked for.
  const auto out = temp_path("score-infeasible.json");
  std::filesystem::remove(out);
  const Run alone = run_moeplan({"score", "deepseek-v3.1", "--gpus", "8", "--gpu", "h100", "--tokens", "1e12",
                                 "--format", "json", "-o", out.string()});
  CHECK(alone.code == 3);
  CHECK(alone.out.empty());
  CHECK_FALSE(std::filesystem::exists(out));
  CHECK(alone.err.find("infeasible on 8 x") != std::string::npos);
  // Beside one that fits, the fitting one is printed alone, with its cluster section; status 3.
  const Run both = run_moeplan({"score", "deepseek-v3.1", "qwen3-30b-a3b", "--gpus", "8", "--gpu", "h100",
                                "--tokens", "1e12", "--format", "json"});
  CHECK(both.code == 3);
  const json j = json::parse(both.out);
  REQUIRE(j.size() == 1);
  CHECK(j.at(0).contains("cluster"));
}

TEST_CASE("emit megatron asks for Megatron's all-to-all overlap where the layout allows it, and says the fraction is not read back") {
  const auto file = temp_path("a2a-overlap.sh");
  const Run e = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12", "--tp",
                             "1", "--pp", "1", "--ep", "8", "--recompute", "selective", "--a2a-overlap", "0.5",
                             "--emit", "megatron", "-o", file.string()});
  REQUIRE_MESSAGE(e.code == 0, e.err);
  const std::string text = text_of(file);
  CHECK(text.find("\n--overlap-moe-expert-parallel-comm") != std::string::npos);
  const Run back = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                                "--megatron-args", file.string(), "--format", "json"});
  REQUIRE_MESSAGE(back.code == 0, back.err);
  CHECK(back.err.find("--overlap-moe-expert-parallel-comm: Megatron publishes no fraction") != std::string::npos);
  std::filesystem::remove(file);
  // Full recompute with PP > 1 and no VPP: Megatron's overlap cannot be asked for; the comment says so.
  const Run full = run_moeplan({"score", "deepseek-v3.1", "--gpus", "2048", "--gpu", "h800", "--tokens", "14.8e12",
                                "--precision", "fp8", "--tp", "1", "--pp", "16", "--ep", "64", "--recompute", "full",
                                "--a2a-overlap", "1", "--emit", "megatron"});
  REQUIRE_MESSAGE(full.code == 0, full.err);
  CHECK(full.out.find("\n--overlap-moe-expert-parallel-comm") == std::string::npos);
  CHECK(full.out.find("cannot be asked for here: it is not for full recompute") != std::string::npos);
}

TEST_CASE("megatron args file: a command-line --pp recomputes the file's VPP from its layers per virtual stage, what neither gives is named") {
  const auto file = temp_path("virtual-stages.sh");
  std::ofstream(file) << "torchrun pretrain_gpt.py --num-layers 48 --tensor-model-parallel-size 2 \\\n"
                         "  --pipeline-model-parallel-size 2 --num-layers-per-virtual-pipeline-stage 6 \\\n"
                         "  --expert-model-parallel-size 8 --micro-batch-size 1\n";
  const auto vpp_with = [&](const char* pp) {
    const Run r = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                               "--megatron-args", file.string(), "--pp", pp, "--format", "json"});
    REQUIRE_MESSAGE(r.code == 0, r.err);
    CHECK(r.err.find("so searched (Megatron-LM's default in parentheses") != std::string::npos);
    CHECK(r.err.find("no --sequence-parallel") != std::string::npos);
    CHECK(r.err.find("no --use-distributed-optimizer") != std::string::npos);
    return json::parse(r.out).at(0).at("cluster").at("vpp").get<int>();
  };
  CHECK(vpp_with("2") == 4);  // the file's own: 48 / (2 x 6)
  CHECK(vpp_with("4") == 2);  // 48 / (4 x 6), as Megatron computes it from the new PP
  CHECK(vpp_with("8") == 1);
  const Run bad = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                               "--megatron-args", file.string(), "--pp", "16"});
  CHECK(bad.code == 4);
  CHECK(bad.out.empty());
  CHECK(bad.err.find(":2: --num-layers-per-virtual-pipeline-stage: 6 layers per virtual stage x PP 16 (--pp)") !=
        std::string::npos);
  std::filesystem::remove(file);
}

TEST_CASE("megatron args file: a forced-balance benchmark (--moe-router-force-load-balancing) is timed at a routing load of 1") {
  const auto file = temp_path("force-balance.sh");
  std::ofstream(file) << "torchrun pretrain_gpt.py --moe-router-force-load-balancing --tensor-model-parallel-size 1\n";
  const std::vector<std::string> base = {"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                                         "--ep", "8", "--format", "json"};
  std::vector<std::string> with_file = base;
  with_file.insert(with_file.end(), {"--megatron-args", file.string()});
  const Run forced = run_moeplan(with_file);
  REQUIRE_MESSAGE(forced.code == 0, forced.err);
  CHECK(json::parse(forced.out).at(0).at("cluster").at("load_imbalance").get<double>() == 1.0);
  CHECK(forced.err.find("--moe-router-force-load-balancing: a forced-balance run") != std::string::npos);
  // Without the file: the default dropless load; the command line wins over the file.
  const Run plain = run_moeplan(base);
  REQUIRE_MESSAGE(plain.code == 0, plain.err);
  CHECK(json::parse(plain.out).at(0).at("cluster").at("load_imbalance").get<double>() == doctest::Approx(1.15));
  with_file.insert(with_file.end(), {"--load-imbalance", "1.3"});
  const Run given = run_moeplan(with_file);
  REQUIRE_MESSAGE(given.code == 0, given.err);
  CHECK(json::parse(given.out).at(0).at("cluster").at("load_imbalance").get<double>() == doctest::Approx(1.3));
  // On EP 1 one rank holds every expert: its load is 1 whatever the routing, given or not.
  std::vector<std::string> one = base;
  one[one.size() - 3] = "1";  // --ep 1
  one.insert(one.end(), {"--load-imbalance", "1.3"});
  const Run ep1 = run_moeplan(one);
  REQUIRE_MESSAGE(ep1.code == 0, ep1.err);
  CHECK(json::parse(ep1.out).at(0).at("cluster").at("load_imbalance").get<double>() == 1.0);
  std::filesystem::remove(file);
}

TEST_CASE("DeepSeek-V3's MTP module on the last stage, which the uneven split lightens: said in JSON, written to Megatron args") {
  const Run r = run_moeplan({"score", "deepseek-v3.1", "--gpus", "2048", "--gpu", "h800", "--tokens", "14.8e12",
                             "--precision", "fp8", "--tp", "1", "--pp", "16", "--ep", "64", "--format", "json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const json c = json::parse(r.out).at(0).at("cluster");
  CHECK(c.at("mtp_modules").get<int>() == 1);
  // 61 layers over 16 stages: 14 middle stages of 4; the last runs the head and the MTP module
  // (a MoE layer, eh_proj and another head pass), so it keeps one layer and the first four.
  CHECK(c.at("first_stage_layers").get<int>() == 4);
  CHECK(c.at("last_stage_layers").get<int>() == 1);
  const auto file = temp_path("dsv3-mtp.sh");
  const Run e = run_moeplan({"score", "deepseek-v3.1", "--gpus", "2048", "--gpu", "h800", "--tokens", "14.8e12",
                             "--precision", "fp8", "--tp", "1", "--pp", "16", "--ep", "64", "--emit", "megatron",
                             "-o", file.string()});
  REQUIRE_MESSAGE(e.code == 0, e.err);
  const std::string text = text_of(file);
  CHECK(text.find("--decoder-first-pipeline-num-layers 4") != std::string::npos);
  CHECK(text.find("--decoder-last-pipeline-num-layers 1") != std::string::npos);
  CHECK(text.find("--mtp-num-layers 1") != std::string::npos);
  // A model without MTP says 0, an even split (interleaving needs one) 0 and 0.
  const Run q = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12", "--pp",
                             "4", "--vpp", "2", "--format", "json"});
  REQUIRE_MESSAGE(q.code == 0, q.err);
  const json qc = json::parse(q.out).at(0).at("cluster");
  CHECK(qc.at("mtp_modules").get<int>() == 0);
  CHECK(qc.at("first_stage_layers").get<int>() == 0);
  CHECK(qc.at("last_stage_layers").get<int>() == 0);
}

TEST_CASE("MTP modules trained (--mtp-num-layers), from the command line or a Megatron args file, bad values named") {
  const std::vector<std::string> base = {"score", "deepseek-v3.1", "--gpus", "2048", "--gpu", "h800", "--tokens",
                                         "14.8e12", "--precision", "fp8", "--tp", "1", "--pp", "16", "--ep", "64"};
  std::vector<std::string> with = base, without = base;
  with.insert(with.end(), {"--format", "json"});
  without.insert(without.end(), {"--mtp-num-layers", "0", "--format", "json"});
  const Run a = run_moeplan(with), b = run_moeplan(without);
  REQUIRE_MESSAGE(a.code == 0, a.err);
  REQUIRE_MESSAGE(b.code == 0, b.err);
  const json ja = json::parse(a.out).at(0), jb = json::parse(b.out).at(0);
  CHECK(ja.at("cluster").at("mtp_modules").get<int>() == 1);
  CHECK(jb.at("cluster").at("mtp_modules").get<int>() == 0);
  // Without the module the last stage runs the head alone: the step is shorter, M the same.
  CHECK(jb.at("step_time").at("step").get<double>() < ja.at("step_time").at("step").get<double>());
  CHECK(jb.at("compute").at("flops_per_token").get<double>() == ja.at("compute").at("flops_per_token").get<double>());
  // A launch script's --mtp-num-layers 0 is read; a bad value exits 4 naming file:line and the flag.
  const auto file = temp_path("mtp0.sh");
  {
    std::ofstream out(file);
    out << "torchrun pretrain_gpt.py --bf16 \\\n  --mtp-num-layers 0\n";
  }
  std::vector<std::string> from_file = base;
  from_file.insert(from_file.end(), {"--megatron-args", file.string(), "--format", "json"});
  const Run f = run_moeplan(from_file);
  REQUIRE_MESSAGE(f.code == 0, f.err);
  CHECK(json::parse(f.out).at(0).at("cluster").at("mtp_modules").get<int>() == 0);
  CHECK(f.err.find("not used by moeplan") == std::string::npos);
  const auto bad = temp_path("mtp-bad.sh");
  {
    std::ofstream out(bad);
    out << "torchrun pretrain_gpt.py --bf16 \\\n  --mtp-num-layers two\n";
  }
  std::vector<std::string> bad_args = base;
  bad_args.insert(bad_args.end(), {"--megatron-args", bad.string()});
  const Run e = run_moeplan(bad_args);
  CHECK(e.code == 4);
  CHECK(e.out.empty());
  CHECK(e.err.find(bad.filename().string() + ":2") != std::string::npos);
  CHECK(e.err.find("--mtp-num-layers") != std::string::npos);
  // --emit megatron writes the count the run timed, not the model's: 0 writes none, 3 writes 3.
  for (const auto& [count, says] : {std::pair{"0", ""}, {"3", "--mtp-num-layers 3"}}) {
    CAPTURE(count);
    const auto script = temp_path(std::string("mtp-emit-") + count + ".sh");
    std::vector<std::string> emit = base;
    emit.insert(emit.end(), {"--mtp-num-layers", count, "--emit", "megatron", "-o", script.string()});
    const Run w = run_moeplan(emit);
    REQUIRE_MESSAGE(w.code == 0, w.err);
    const std::string text = text_of(script);
    if (std::string(says).empty()) {
      CHECK(text.find("--mtp-num-layers") == std::string::npos);
    } else {
      CHECK(text.find(says) != std::string::npos);
    }
  }
  std::vector<std::string> negative = base;
  negative.insert(negative.end(), {"--mtp-num-layers", "-1"});
  const Run n = run_moeplan(negative);
  CHECK(n.code == 2);
  CHECK(n.out.empty());
}

TEST_CASE("a given pipeline split (--decoder-first/last-pipeline-num-layers): used as given, illegal ones named, read from a file") {
  const std::vector<std::string> base = {"score", "deepseek-v3.1", "--gpus", "2048", "--gpu", "h800", "--tokens",
                                         "14.8e12", "--precision", "fp8", "--tp", "1", "--pp", "16", "--ep", "64"};
  std::vector<std::string> given = base;
  given.insert(given.end(), {"--decoder-first-pipeline-num-layers", "2", "--decoder-last-pipeline-num-layers", "3",
                             "--format", "json"});
  const Run g = run_moeplan(given);
  REQUIRE_MESSAGE(g.code == 0, g.err);
  const json c = json::parse(g.out).at(0).at("cluster");
  CHECK(c.at("first_stage_layers").get<int>() == 2);
  CHECK(c.at("last_stage_layers").get<int>() == 3);
  CHECK(c.at("given").get<std::string>().find("stage split") != std::string::npos);
  // An even split given is the even split: 0 and 0, as the search's even splits say.
  const Run even = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12", "--pp",
                                "4", "--decoder-first-pipeline-num-layers", "12", "--format", "json"});
  REQUIRE_MESSAGE(even.code == 0, even.err);
  CHECK(json::parse(even.out).at(0).at("cluster").at("first_stage_layers").get<int>() == 0);
  CHECK(json::parse(even.out).at(0).at("cluster").at("last_stage_layers").get<int>() == 0);
  // One end given: the other shares the rest with the middle stages (61 - 1 = 60 over 15).
  std::vector<std::string> last_only = base;
  last_only.insert(last_only.end(), {"--decoder-last-pipeline-num-layers", "1", "--format", "json"});
  const Run l = run_moeplan(last_only);
  REQUIRE_MESSAGE(l.code == 0, l.err);
  CHECK(json::parse(l.out).at(0).at("cluster").at("first_stage_layers").get<int>() == 4);
  // Megatron's rule: the other 14 stages share 61 - 5 - 5 = 51 evenly, which they cannot: exit 3.
  std::vector<std::string> uneven = base;
  uneven.insert(uneven.end(), {"--decoder-first-pipeline-num-layers", "5", "--decoder-last-pipeline-num-layers", "5"});
  const Run u = run_moeplan(uneven);
  CHECK(u.code == 3);
  CHECK(u.out.empty());
  CHECK(u.err.find("leave 51 of L = 61 for the other 14 stages") != std::string::npos);
  // A split without stages: exit 3; a split of 0 layers: a usage error.
  const Run one = run_moeplan({"score", "deepseek-v3.1", "--gpus", "2048", "--gpu", "h800", "--tokens", "14.8e12",
                               "--pp", "1", "--decoder-last-pipeline-num-layers", "5"});
  CHECK(one.code == 3);
  CHECK(one.err.find("needs PP > 1") != std::string::npos);
  const Run zero = run_moeplan({"score", "deepseek-v3.1", "--gpus", "2048", "--gpu", "h800", "--tokens", "14.8e12",
                                "--decoder-last-pipeline-num-layers", "0"});
  CHECK(zero.code == 2);
  CHECK(zero.out.empty());
  // Written by --emit megatron and read back: the same split.
  std::vector<std::string> emit = base;
  const auto file = temp_path("split.sh");
  emit.insert(emit.end(), {"--decoder-first-pipeline-num-layers", "2", "--decoder-last-pipeline-num-layers", "3",
                           "--emit", "megatron", "-o", file.string()});
  const Run e = run_moeplan(emit);
  REQUIRE_MESSAGE(e.code == 0, e.err);
  const Run r = run_moeplan({"score", "deepseek-v3.1", "--gpus", "2048", "--gpu", "h800", "--tokens", "14.8e12",
                             "--megatron-args", file.string(), "--format", "json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const json rc = json::parse(r.out).at(0).at("cluster");
  CHECK(rc.at("first_stage_layers").get<int>() == 2);
  CHECK(rc.at("last_stage_layers").get<int>() == 3);
}

TEST_CASE("the search splits an even pipeline unevenly only when the head and MTP make the last stage the busiest") {
  // GLM-4.5: 92 layers and an MTP module on PP 4: 23 each would leave the last stage 23 layers,
  // the MTP layer and two head passes; 23 | 25 25 | 19 lightens it.
  const Run g = run_moeplan({"score", "glm-4.5", "--gpus", "512", "--gpu", "h100", "--tokens", "1e12", "--pp", "4",
                             "--tp", "4", "--ep", "16", "--format", "json"});
  REQUIRE_MESSAGE(g.code == 0, g.err);
  const json c = json::parse(g.out).at(0).at("cluster");
  const int first = c.at("first_stage_layers").get<int>(), last = c.at("last_stage_layers").get<int>();
  CHECK(last > 0);
  CHECK(last < 23);
  CHECK((92 - first - last) % 2 == 0);  // Megatron's rule: the middle stages share the rest evenly
  // A model whose head is light on PP dividing L keeps the even split (Llama-2 70B's 80 layers on 4).
  const Run d = run_moeplan({"score", MOEPLAN_TEST_DATA_DIR "/../../bench/validation/llama2-70b.toml", "--gpus", "64",
                             "--gpu", "h100", "--tokens", "1e12", "--tp", "4", "--pp", "4", "--vpp", "1",
                             "--format", "json"});
  REQUIRE_MESSAGE(d.code == 0, d.err);
  const json dc = json::parse(d.out).at(0).at("cluster");
  CHECK(dc.at("last_stage_layers").get<int>() == 0);
}

TEST_CASE("Megatron args: --grad-reduce-in-bf16 wins over --accumulate-allreduce-grads-in-fp32 in either order") {
  for (const char* order : {"--grad-reduce-in-bf16 \\\n  --accumulate-allreduce-grads-in-fp32\n",
                            "--accumulate-allreduce-grads-in-fp32 \\\n  --grad-reduce-in-bf16\n"}) {
    CAPTURE(order);
    const auto file = temp_path("grads-order.sh");
    {
      std::ofstream out(file);
      out << "torchrun pretrain_gpt.py --bf16 \\\n  " << order;
    }
    const Run r = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                               "--megatron-args", file.string(), "--format", "json"});
    REQUIRE_MESSAGE(r.code == 0, r.err);
    CHECK(json::parse(r.out).at(0).at("cluster").at("grad_reduce_in_bf16").get<bool>());
    CHECK(r.err.find("no flag moeplan uses") == std::string::npos);
  }
}

TEST_CASE("whole training section: wall days beside the steady state, the flags move it, bad or cluster-less flags exit 2") {
  const std::vector<std::string> base = {"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                                         "--ep", "8", "--format", "json"};
  const Run r = run_moeplan(base);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const json j = json::parse(r.out).at(0);
  const json& t = j.at("training");
  const double steady = j.at("step_time").at("days").get<double>();
  CHECK(t.at("wall_days").get<double>() > steady);
  CHECK(t.at("goodput").get<double>() == doctest::Approx(steady / t.at("wall_days").get<double>()));
  CHECK(t.at("wall_gpu_hours").get<double>() == doctest::Approx(t.at("wall_days").get<double>() * 24 * 64));
  const double parts = steady + t.at("restart_days").get<double>() + t.at("lost_work_days").get<double>() +
                       t.at("checkpoint_days").get<double>() + t.at("eval_days").get<double>();
  CHECK(parts == doctest::Approx(t.at("wall_days").get<double>()));
  CHECK(t.at("costliest").is_string());
  // More interruptions, longer restarts and evaluations each cost days; async saves spare some.
  const auto wall_with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    const Run run = run_moeplan(args);
    REQUIRE_MESSAGE(run.code == 0, run.err);
    return json::parse(run.out).at(0).at("training").at("wall_days").get<double>();
  };
  const double wall = t.at("wall_days").get<double>();
  CHECK(wall_with({"--interruptions-per-gpu-hour", "1e-3"}) > wall);
  CHECK(wall_with({"--restart-minutes", "60"}) > wall);
  CHECK(wall_with({"--eval-interval", "100", "--eval-minutes", "10"}) > wall);
  CHECK(wall_with({"--async-checkpoint"}) < wall);
  // Nothing fails and no save falls inside the run: the wall time is the steady state.
  CHECK(wall_with({"--interruptions-per-gpu-hour", "0", "--checkpoint-interval", "1e7"}) ==
        doctest::Approx(steady).epsilon(1e-12));
  // Minutes without an interval are half an answer; an interval of 0-minute evaluations is none;
  // without a cluster every one of them is refused.
  Run half = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                          "--eval-minutes", "5"});
  CHECK(half.code == 2);
  CHECK(half.err.find("--eval-minutes needs --eval-interval") != std::string::npos);
  half = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12", "--eval-interval",
                      "10"});
  CHECK(half.code == 2);
  CHECK(half.err.find("--eval-interval needs --eval-minutes") != std::string::npos);
  CHECK(wall_with({"--eval-interval", "10", "--eval-minutes", "0"}) == doctest::Approx(wall));
  for (const char* flag : {"--restart-minutes", "--interruptions-per-gpu-hour", "--checkpoint-interval",
                           "--checkpoint-write-gbps", "--eval-interval", "--eval-minutes"}) {
    CAPTURE(flag);
    const Run alone = run_moeplan({"score", "qwen3-30b-a3b", "--tokens", "1e12", flag, "1"});
    CHECK(alone.code == 2);
    CHECK(alone.err.find(std::string(flag) + " needs a cluster") != std::string::npos);
  }
  // A cluster that fails faster than it restarts: the section's numbers null with the reason.
  const Run broken = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                                  "--interruptions-per-gpu-hour", "1", "--format", "json"});
  REQUIRE_MESSAGE(broken.code == 0, broken.err);
  CHECK(broken.err.find("warning: Qwen3-30B-A3B: 64 GPUs at 1 interruptions per GPU-hour fail every 0.938 minutes") !=
        std::string::npos);  // said once on stderr, not only in the section's 13 reasons
  const json b = json::parse(broken.out).at(0).at("training");
  CHECK(b.at("wall_days").is_null());
  CHECK(b.at("wall_days_reason").get<std::string>().find("makes no progress") != std::string::npos);
  CHECK(b.at("checkpoint_gib_per_gpu").get<double>() > 0);  // the checkpoint does not depend on failures
  CHECK(b.at("checkpoint_save_seconds").get<double>() > 0);
}

TEST_CASE("Qwen3-235B-A22B's recipe runs as given with the accounted split and --vpp 4 alone names the flags") {
  const std::vector<std::string> base = {"score", "qwen3-235b-a22b", "--gpus", "256", "--gpu", "h100", "--tokens",
                                         "1e12", "--tp", "2", "--pp", "8", "--vpp", "4", "--ep", "32"};
  const Run alone = run_moeplan(base);
  CHECK(alone.code == 3);
  CHECK(alone.out.empty());
  CHECK(alone.err.find("--account-for-embedding-in-pipeline-split and --account-for-loss-in-pipeline-split") !=
        std::string::npos);
  CHECK(alone.err.find("96 = 8 × 4 × 3") != std::string::npos);
  std::vector<std::string> accounted = base;
  accounted.insert(accounted.end(), {"--account-for-embedding-in-pipeline-split", "--account-for-loss-in-pipeline-split",
                                     "--format", "json"});
  const Run r = run_moeplan(accounted);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const json c = json::parse(r.out).at(0).at("cluster");
  CHECK(c.at("pp").get<int>() == 8);
  CHECK(c.at("vpp").get<int>() == 4);
  CHECK(c.at("first_stage_layers").get<int>() == 11);
  CHECK(c.at("last_stage_layers").get<int>() == 11);
  CHECK(c.at("embedding_in_split").get<bool>());
  CHECK(c.at("loss_in_split").get<bool>());
  // One flag alone does not split 95 layers over 32 virtual stages: exit 3 naming it.
  std::vector<std::string> one = base;
  one.push_back("--account-for-embedding-in-pipeline-split");
  const Run half = run_moeplan(one);
  CHECK(half.code == 3);
  CHECK(half.err.find("95 layers, not a multiple of PP 8 × VPP 4") != std::string::npos);
  // --emit megatron writes the flags (and VPP itself: 94 / 32 is not whole), and reads back.
  const auto script = temp_path("accounted.sh");
  std::vector<std::string> emit = base;
  emit.insert(emit.end(), {"--account-for-embedding-in-pipeline-split", "--account-for-loss-in-pipeline-split", "--emit",
                           "megatron", "-o", script.string()});
  const Run written = run_moeplan(emit);
  REQUIRE_MESSAGE(written.code == 0, written.err);
  const std::string text = text_of(script);
  CHECK(text.find("--account-for-embedding-in-pipeline-split") != std::string::npos);
  CHECK(text.find("--account-for-loss-in-pipeline-split") != std::string::npos);
  CHECK(text.find("--num-virtual-stages-per-pipeline-rank 4") != std::string::npos);
  CHECK(text.find("--decoder-first-pipeline-num-layers") == std::string::npos);
  const Run back = run_moeplan({"score", "qwen3-235b-a22b", "--gpus", "256", "--gpu", "h100", "--tokens", "1e12",
                                "--megatron-args", script.string(), "--format", "json"});
  REQUIRE_MESSAGE(back.code == 0, back.err);
  const json b = json::parse(back.out).at(0).at("cluster");
  CHECK(b.at("layout").get<std::string>() == c.at("layout").get<std::string>());
  std::filesystem::remove(script);
  // With --decoder-first-pipeline-num-layers too: two splits, exit 3 naming both.
  std::vector<std::string> two = accounted;
  two.insert(two.end(), {"--decoder-first-pipeline-num-layers", "10"});
  const Run both = run_moeplan(two);
  CHECK(both.code != 0);
  CHECK(both.err.find("both split the pipeline") != std::string::npos);
}

TEST_CASE("bf16 moments (--bf16-moments): 8 bytes of optimizer state a parameter, 8 fewer moved by the step, read and written as Megatron spells them") {
  const std::vector<std::string> base = {"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                                         "--tp", "1", "--ep", "8", "--pp", "1", "--micro-batch-size", "1",
                                         "--recompute", "full", "--format", "json"};
  std::vector<std::string> with = base;
  with.push_back("--bf16-moments");
  const Run a = run_moeplan(base), b = run_moeplan(with);
  REQUIRE_MESSAGE(a.code == 0, a.err);
  REQUIRE_MESSAGE(b.code == 0, b.err);
  const json ja = json::parse(a.out).at(0), jb = json::parse(b.out).at(0);
  CHECK_FALSE(ja.at("cluster").at("bf16_moments").get<bool>());
  CHECK(jb.at("cluster").at("bf16_moments").get<bool>());
  // fp32 master 4 + m 2 + v 2 = 8 of 12 (DeepSeek-V3 Sec. 3.3.3): the optimizer memory 2/3.
  CHECK(jb.at("memory").at("optimizer").get<double>() == doctest::Approx(ja.at("memory").at("optimizer").get<double>() * 8 / 12));
  CHECK(jb.at("memory").at("weights").get<double>() == doctest::Approx(ja.at("memory").at("weights").get<double>()));
  // The step reads and writes m and v at 2 bytes: 38 -> 30 bytes a parameter.
  CHECK(jb.at("step_time").at("optimizer").get<double>() ==
        doctest::Approx(ja.at("step_time").at("optimizer").get<double>() * 30.0 / 38.0));
  // Written by --emit megatron as Megatron's three flags, and read back.
  const auto file = temp_path("bf16-moments.sh");
  std::vector<std::string> emit(base.begin(), base.end() - 2);  // no --format with --emit
  emit.insert(emit.end(), {"--bf16-moments", "--emit", "megatron", "-o", file.string()});
  const Run written = run_moeplan(emit);
  REQUIRE_MESSAGE(written.code == 0, written.err);
  const std::string text = text_of(file);
  CHECK(text.find("--use-precision-aware-optimizer") != std::string::npos);
  CHECK(text.find("--exp-avg-dtype bf16") != std::string::npos);
  CHECK(text.find("--exp-avg-sq-dtype bf16") != std::string::npos);
  const Run back = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                                "--megatron-args", file.string(), "--format", "json"});
  REQUIRE_MESSAGE(back.code == 0, back.err);
  CHECK(json::parse(back.out).at(0).at("cluster").at("bf16_moments").get<bool>());
  // One moment in bf16, or no precision-aware optimizer: said, counted in fp32.
  std::ofstream(file) << "torchrun pretrain_gpt.py --exp-avg-dtype bf16 --exp-avg-sq-dtype fp32 "
                         "--use-precision-aware-optimizer\n";
  const Run one = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                               "--megatron-args", file.string(), "--format", "json"});
  REQUIRE_MESSAGE(one.code == 0, one.err);
  CHECK(one.err.find("counted in fp32") != std::string::npos);
  CHECK_FALSE(json::parse(one.out).at(0).at("cluster").at("bf16_moments").get<bool>());
  std::ofstream(file) << "torchrun pretrain_gpt.py --exp-avg-dtype bf17\n";
  const Run bad = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12",
                               "--megatron-args", file.string()});
  CHECK(bad.code == 4);
  CHECK(bad.err.find("bf17") != std::string::npos);
  std::filesystem::remove(file);
}

TEST_CASE("pipeline schedule flag: a contradiction with --vpp exits 2, dualpipe's rules exit 3, --emit megatron refuses it") {
  const std::vector<std::string> base = {"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e12"};
  const auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return run_moeplan(args);
  };
  Run r = with({"--pipeline-schedule", "dualpipe", "--pp", "4", "--vpp", "2"});
  CHECK(r.code == 2);
  CHECK(r.err.find("--pipeline-schedule dualpipe contradicts --vpp 2") != std::string::npos);
  r = with({"--pipeline-schedule", "interleaved", "--pp", "4"});
  CHECK(r.code == 2);
  CHECK(r.err.find("needs --vpp > 1") != std::string::npos);
  r = with({"--pipeline-schedule", "1f1b", "--pp", "4", "--vpp", "2"});
  CHECK(r.code == 2);
  r = with({"--pipeline-schedule", "dualpipe", "--pp", "3"});
  CHECK(r.code == 3);
  CHECK(r.err.find("even PP") != std::string::npos);
  CHECK(r.out.empty());
  r = with({"--pipeline-schedule", "dualpipe", "--pp", "4", "--format", "json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const json c = json::parse(r.out).at(0).at("cluster");
  CHECK(c.at("pipeline_schedule").get<std::string>() == "dualpipe");
  CHECK(c.at("layout").get<std::string>().find("PP 4 DualPipe") != std::string::npos);
  const Run plain = with({"--pp", "4", "--format", "json"});
  REQUIRE(plain.code == 0);
  CHECK(json::parse(plain.out).at(0).at("cluster").at("pipeline_schedule").get<std::string>() == "1f1b");
  const auto script = temp_path("dualpipe.sh");
  r = with({"--pipeline-schedule", "dualpipe", "--pp", "4", "--emit", "megatron", "-o", script.string()});
  CHECK(r.code == 3);
  CHECK(r.err.find("Megatron-LM has no DualPipe schedule") != std::string::npos);
  CHECK(!std::filesystem::exists(script));
}

TEST_CASE("pipeline layout flag: DeepSeek-V3's Megatron-Bridge layout runs, is written by --emit megatron and read back") {
  const std::vector<std::string> base = {"score", "deepseek-v3.1", "--gpus", "1024", "--gpu", "h100", "--tokens", "1e12",
                                         "--tp", "2", "--pp", "8", "--ep", "64", "--pipeline-model-parallel-layout",
                                         "Et|(tt|)*30mL"};
  std::vector<std::string> args = base;
  args.insert(args.end(), {"--format", "json"});
  const Run r = run_moeplan(args);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const json c = json::parse(r.out).at(0).at("cluster");
  CHECK(c.at("vpp").get<int>() == 4);
  CHECK(c.at("first_stage_layers").get<int>() == 7);
  CHECK(c.at("last_stage_layers").get<int>() == 6);
  CHECK(c.at("layout").get<std::string>().find("layout Et|(tt|)*30mL") != std::string::npos);
  // A --vpp that the layout contradicts, or no --pp, exits 3 naming the flag.
  std::vector<std::string> wrong = base;
  wrong.insert(wrong.end(), {"--vpp", "2"});
  const Run bad = run_moeplan(wrong);
  CHECK(bad.code == 3);
  CHECK(bad.err.find("--vpp 2: the layout Et|(tt|)*30mL has 32 stages on PP 8: VPP 4") != std::string::npos);
  const Run no_pp = run_moeplan({"score", "deepseek-v3.1", "--gpus", "1024", "--gpu", "h100", "--tokens", "1e12",
                                 "--pipeline-model-parallel-layout", "Et|(tt|)*30mL"});
  CHECK(no_pp.code == 3);
  CHECK(no_pp.err.find("--pipeline-model-parallel-layout needs --pp > 1") != std::string::npos);
  // A string that reads as no layout whatever the model: exit 2, a bad flag value.
  const Run syntax = run_moeplan({"score", "deepseek-v3.1", "--gpus", "1024", "--gpu", "h100", "--tokens", "1e12",
                                  "--pp", "8", "--pipeline-model-parallel-layout", "Et|(tt|)*30mX"});
  CHECK(syntax.code == 2);
  CHECK(syntax.err.find("'X' is not a layer") != std::string::npos);
  const auto script = temp_path("layout.sh");
  std::vector<std::string> emit = base;
  emit.insert(emit.end(), {"--emit", "megatron", "-o", script.string()});
  const Run written = run_moeplan(emit);
  REQUIRE_MESSAGE(written.code == 0, written.err);
  const std::string text = text_of(script);
  CHECK(text.find("--pipeline-model-parallel-layout 'Et|(tt|)*30mL'") != std::string::npos);
  CHECK(text.find("--num-virtual-stages-per-pipeline-rank") == std::string::npos);
  CHECK(text.find("--decoder-first-pipeline-num-layers") == std::string::npos);
  const Run back = run_moeplan({"score", "deepseek-v3.1", "--gpus", "1024", "--gpu", "h100", "--tokens", "1e12",
                                "--megatron-args", script.string(), "--format", "json"});
  REQUIRE_MESSAGE(back.code == 0, back.err);
  CHECK(json::parse(back.out).at(0).at("cluster").at("layout").get<std::string>() ==
        c.at("layout").get<std::string>());
}

TEST_CASE("batch ramp: the ramp's smaller batches cost their steps' fixed part, by hand") {
  // Granite-3.0-1B-A400M on one H100, mb 1, no recompute: a step is B micro-batches of one
  // sequence plus the optimizer step (no DP, no pipeline), so a slice of T/16 tokens at batch
  // b takes T/16/(b·S) steps, each with one optimizer step: extra = T/S · opt · (mean 1/b_k - 1/B).
  // --batch-ramp 32:1e9 with B = 256: b_k = floor(32 + 224 (k + 0.5)/16) = 39 + 14k, k = 0..15.
  const std::vector<std::string> base = {
      "score", std::string(MOEPLAN_SOURCE_DIR) + "/bench/validation/trainings/granite-3.0-1b-a400m.toml", "--gpus", "1", "--gpu", "h100",
      "--tokens", "1e10", "--seq-len", "4096", "--global-batch-tokens", "1048576", "--micro-batch-size", "1",
      "--recompute", "none", "--format", "json"};
  std::vector<std::string> ramped = base;
  ramped.insert(ramped.end(), {"--batch-ramp", "32:1e9"});
  const Run r = run_moeplan(ramped);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const json t = json::parse(r.out).at(0).at("step_time");
  const Run plain = run_moeplan(base);
  REQUIRE(plain.code == 0);
  const json p = json::parse(plain.out).at(0).at("step_time");
  CHECK_FALSE(p.contains("batch_ramp_days"));
  double mean_inverse = 0;
  for (int k = 0; k < 16; ++k) mean_inverse += 1.0 / (39 + 14 * k) / 16;
  const double extra_seconds = 1e9 / 4096 * t.at("optimizer").get<double>() * (mean_inverse - 1.0 / 256);
  CHECK(t.at("batch_ramp_days").get<double>() * 86400 == doctest::Approx(extra_seconds).epsilon(1e-6));
  CHECK(t.at("days").get<double>() - p.at("days").get<double>() == doctest::Approx(extra_seconds / 86400).epsilon(1e-6));
  // A ramp ten times longer than D is cut at D, not compressed into it: over 1e10 of its 1e11
  // tokens the batch grows from 32 by 224 x 0.1, so b_k = round(32 + 22.4 (k + 0.5)/16) =
  // round(32.7 + 1.4 k), and the whole run is ramp: extra = D/S · opt · (mean 1/b_k - 1/B).
  std::vector<std::string> longer = base;
  longer.insert(longer.end(), {"--batch-ramp", "32:1e11"});
  const Run cut = run_moeplan(longer);
  REQUIRE_MESSAGE(cut.code == 0, cut.err);
  double cut_inverse = 0;
  for (int k = 0; k < 16; ++k) cut_inverse += 1.0 / std::round(32 + 22.4 * (k + 0.5) / 16) / 16;
  const json ct = json::parse(cut.out).at(0).at("step_time");
  CHECK(ct.at("batch_ramp_days").get<double>() * 86400 ==
        doctest::Approx(1e10 / 4096 * ct.at("optimizer").get<double>() * (cut_inverse - 1.0 / 256)).epsilon(1e-6));
  CHECK(cut.err.find("the run ends at 54 sequences, before the full batch of 256") != std::string::npos);
  // A start at or above the run's batch exits 2 naming the flag and both numbers; a malformed
  // one exits 2 naming the flag.
  std::vector<std::string> none = base;
  none.insert(none.end(), {"--batch-ramp", "512:1e9"});
  const Run no_ramp = run_moeplan(none);
  CHECK(no_ramp.code == 2);
  CHECK(no_ramp.out.empty());
  CHECK(no_ramp.err.find("--batch-ramp 512:1e+09 starts at 512 sequences, not below the run's global batch of 256") !=
        std::string::npos);
  for (const char* bad : {"32", "32:", "0:1e9", "3.5:1e9", "32:nan", "32:-1"}) {
    std::vector<std::string> wrong = base;
    wrong.insert(wrong.end(), {"--batch-ramp", bad});
    const Run w = run_moeplan(wrong);
    CHECK(w.code == 2);
    CHECK(w.err.find("--batch-ramp") != std::string::npos);
    CHECK(w.out.empty());
  }
}

TEST_CASE("batch ramp: under DualPipe the slices are rounded as the main batch, at least 2 x PP micro-batches a rank") {
  // moe-mini on 16 H100, TP 1, PP 2 DualPipe, DP 8, mb 1, a batch of 64: slices round to
  // multiples of 2 x DP = 16 sequences and run at least 2 x PP x DP = 32 (dualpipe.py's asserts).
  // From START 1, 2 or 3 over 1e9 tokens the 16 middles round to the same batches (the first
  // ten to 32, then 48, 48, 48, 48, 64, 64), so the days agree; 1F1B takes 1, 2 and 3 as they are.
  const auto ramp_days = [](const char* schedule, const char* start) {
    const Run r = run_moeplan({"score", "moe-mini", "--gpus", "16", "--gpu", "h100", "--tokens", "1e10", "--tp", "1",
                               "--pp", "2", "--pipeline-schedule", schedule, "--global-batch-tokens", "262144",
                               "--micro-batch-size", "1", "--batch-ramp", fmt::format("{}:1e9", start), "--format",
                               "json"});
    REQUIRE_MESSAGE(r.code == 0, r.err);
    return json::parse(r.out).at(0).at("step_time").at("batch_ramp_days").get<double>();
  };
  const double one = ramp_days("dualpipe", "1");
  CHECK(one > 0);
  CHECK(ramp_days("dualpipe", "2") == one);
  CHECK(ramp_days("dualpipe", "3") == one);
  CHECK(ramp_days("1f1b", "1") > ramp_days("1f1b", "3"));
}

TEST_CASE("VPP searched where PP does not divide L: Megatron's accounted splits are tried, a given split is kept") {
  // Llama 3.1 405B (126 layers) on its report's TP 8 x PP 16 (Sec. 3.3.2: interleaved, "we reduce one
  // Transformer layer each from the first and the last stages"): 126 + 2 = 128 = 16 x 4 x 2, so
  // the search interleaves with the embedding and the loss counted as layers; without the
  // accounted split no VPP > 1 divides 126 over 16 stages.
  const std::string model = std::string(MOEPLAN_SOURCE_DIR) + "/bench/validation/llama3.1-405b.toml";
  const std::vector<std::string> base = {"score", model, "--gpus", "16384", "--gpu", "h100", "--tokens", "15.6e12",
                                         "--seq-len", "8192", "--global-batch-tokens", "16777216", "--tp", "8",
                                         "--pp", "16", "--format", "json"};
  const Run r = run_moeplan(base);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const json c = json::parse(r.out).at(0).at("cluster");
  CHECK(c.at("vpp").get<int>() > 1);
  CHECK(c.at("embedding_in_split").get<bool>());
  CHECK(c.at("loss_in_split").get<bool>());
  CHECK(c.at("layout").get<std::string>().find("embedding, loss counted") != std::string::npos);
  // Each of the 16 x VPP virtual stages holds (126 + 2) / (16 x VPP) layers, one fewer at each end.
  const int per_chunk = 128 / (16 * c.at("vpp").get<int>());
  CHECK(c.at("first_stage_layers").get<int>() == per_chunk * c.at("vpp").get<int>() - 1);
  CHECK(c.at("last_stage_layers").get<int>() == per_chunk * c.at("vpp").get<int>() - 1);
  // A split the user gives is the split: no accounted variant is added to it.
  std::vector<std::string> given = base;
  given.insert(given.end(), {"--decoder-first-pipeline-num-layers", "6"});
  const Run g = run_moeplan(given);
  REQUIRE_MESSAGE(g.code == 0, g.err);
  const json gc = json::parse(g.out).at(0).at("cluster");
  CHECK_FALSE(gc.at("embedding_in_split").get<bool>());
  CHECK_FALSE(gc.at("loss_in_split").get<bool>());
  CHECK(gc.at("first_stage_layers").get<int>() == 6);
}

TEST_CASE("Megatron's activation_func_fp8_input_store: the SwiGLU's input kept in fp8, one byte an element less, SwiGLU only") {
  // Llama 3.1 8B (32 layers, intermediate 14,336) on 8 GPUs, TP 1, PP 1, one micro-batch of 2,048
  // tokens in flight, no recompute: the gate and up outputs kept for the backward are
  // 32 x 2,048 x 2 x 14,336 elements; in fp8 each is 1 byte instead of 2, so the activations
  // fall by 1,879,048,192 bytes = 1.75 GiB exactly.
  const std::vector<std::string> base = {"score", MOEPLAN_TEST_DATA_DIR "/hf/llama-3.1-8b.json", "--gpus", "8", "--gpu",
                                         "h100", "--tokens", "1e12", "--seq-len", "2048", "--global-batch-tokens",
                                         "16384", "--tp", "1", "--pp", "1", "--micro-batch-size", "1", "--recompute",
                                         "none", "--format", "json"};
  const Run plain = run_moeplan(base);
  REQUIRE_MESSAGE(plain.code == 0, plain.err);
  std::vector<std::string> stored = base;
  stored.push_back("--activation-func-fp8-input-store");
  const Run fp8 = run_moeplan(stored);
  REQUIRE_MESSAGE(fp8.code == 0, fp8.err);
  const json a = json::parse(plain.out).at(0), b = json::parse(fp8.out).at(0);
  CHECK(a.at("memory").at("activations").get<double>() - b.at("memory").at("activations").get<double>() ==
        doctest::Approx(1.75).epsilon(1e-9));
  CHECK_FALSE(a.at("cluster").at("activation_fp8_input_store").get<bool>());
  CHECK(b.at("cluster").at("activation_fp8_input_store").get<bool>());
  // The casts (read 2, write 1 forward; read 1, write 2 backward) are memory-bound work.
  CHECK(b.at("step_time").at("memory_bound").get<double>() > a.at("step_time").at("memory_bound").get<double>());
  // Megatron-LM 0.20 has no flag for it: --emit megatron refuses by name, nothing written.
  std::vector<std::string> emit(base.begin(), base.end() - 2);  // without --format json
  emit.insert(emit.end(), {"--activation-func-fp8-input-store", "--emit", "megatron"});
  const Run e = run_moeplan(emit);
  CHECK(e.code == 3);
  CHECK(e.out.empty());
  CHECK(e.err.find("--activation-func-fp8-input-store") != std::string::npos);
  // Megatron-Core stores it for SwiGLU only: an ungated FFN is refused (exit 3), naming the flag.
  const Run bigcode = run_moeplan({"score", MOEPLAN_TEST_DATA_DIR "/hf/santacoder.json", "--gpus", "8", "--gpu", "h100",
                                   "--tokens", "1e11", "--activation-func-fp8-input-store"});
  CHECK(bigcode.code == 3);
  CHECK(bigcode.err.find("--activation-func-fp8-input-store") != std::string::npos);
  CHECK(bigcode.err.find("SwiGLU") != std::string::npos);
}

TEST_CASE("suggest --megatron-args lists the output gate, RoPE base and epsilon it does not compare as ignored") {
  // suggest compares no model: the settings score judges beside the shape are listed, not dropped.
  const auto args = temp_path("suggest-gate-base.sh");
  std::ofstream(args) << "--num-layers 8 --norm-epsilon 1e-6 --rotary-base 10 --attention-output-gate\n";
  const Run r = run_moeplan({"suggest", "--gpus", "64", "--gpu", "h100", "--days", "10", "--no-bench", "--megatron-args",
                             args.string()});
  std::filesystem::remove(args);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  for (const char* flag : {"--attention-output-gate", "--rotary-base", "--norm-epsilon"}) {
    CAPTURE(flag);
    CHECK(r.err.find(flag) != std::string::npos);
  }
  CHECK(r.err.find("not used by moeplan (ignored)") != std::string::npos);
}

TEST_CASE("Megatron-FSDP (--use-megatron-fsdp, --data-parallel-sharding-strategy): shards, collectives every micro-batch, read and written as Megatron spells them") {
  const std::string model = std::string(MOEPLAN_SOURCE_DIR) + "/bench/validation/llama3-8b.toml";
  const std::vector<std::string> base = {"score", model, "--gpus", "8", "--gpu", "h100",
                                         "--tokens", "1e12", "--seq-len", "8192", "--global-batch-tokens", "1048576",
                                         "--tp", "1", "--pp", "1", "--micro-batch-size", "1", "--recompute", "full"};
  const auto run_json = [](std::vector<std::string> args) {
    args.insert(args.end(), {"--format", "json"});
    const Run r = run_moeplan(args);
    REQUIRE_MESSAGE(r.code == 0, r.err);
    return json::parse(r.out).at(0);
  };
  std::vector<std::string> fsdp = base;
  fsdp.push_back("--use-megatron-fsdp");
  std::vector<std::string> grads = fsdp;
  grads.insert(grads.end(), {"--data-parallel-sharding-strategy", "optim_grads"});
  const json zero1 = run_json(base), j3 = run_json(fsdp), j2 = run_json(grads);
  CHECK(zero1.at("cluster").at("data_parallel_sharding") == "optim");
  CHECK(j3.at("cluster").at("data_parallel_sharding") == "optim_grads_params");  // Megatron's default
  CHECK(j2.at("cluster").at("data_parallel_sharding") == "optim_grads");
  // Megatron-FSDP keeps the gradients in the weights' dtype: bf16.
  CHECK_FALSE(zero1.at("cluster").at("grad_reduce_in_bf16").get<bool>());
  CHECK(j3.at("cluster").at("grad_reduce_in_bf16").get<bool>());
  // The weights shrink only with the parameters sharded; the gradients with either.
  CHECK(j3.at("memory").at("weights").get<double>() < 0.5 * zero1.at("memory").at("weights").get<double>());
  CHECK(j2.at("memory").at("weights").get<double>() == doctest::Approx(zero1.at("memory").at("weights").get<double>()));
  CHECK(j2.at("memory").at("gradients").get<double>() < 0.5 * zero1.at("memory").at("gradients").get<double>());
  // More collectives: every micro-batch's.
  CHECK(j3.at("step_time").at("dp_reduction").get<double>() > j2.at("step_time").at("dp_reduction").get<double>());
  CHECK(j2.at("step_time").at("dp_reduction").get<double>() > zero1.at("step_time").at("dp_reduction").get<double>());
  // The strategy needs FSDP; no_shard is not modelled: exit 2, named.
  std::vector<std::string> alone = base;
  alone.insert(alone.end(), {"--data-parallel-sharding-strategy", "optim_grads"});
  const Run a = run_moeplan(alone);
  CHECK(a.code == 2);
  CHECK(a.err.find("needs --use-megatron-fsdp") != std::string::npos);
  std::vector<std::string> no_shard = fsdp;
  no_shard.insert(no_shard.end(), {"--data-parallel-sharding-strategy", "no_shard"});
  const Run n = run_moeplan(no_shard);
  CHECK(n.code == 2);
  CHECK(n.err.find("'no_shard' is not modelled") != std::string::npos);
  // Written by --emit megatron and read back.
  const auto file = temp_path("fsdp.sh");
  std::vector<std::string> emit = grads;
  emit.insert(emit.end(), {"--emit", "megatron", "-o", file.string()});
  const Run written = run_moeplan(emit);
  REQUIRE_MESSAGE(written.code == 0, written.err);
  const std::string text = text_of(file);
  CHECK(text.find("--use-megatron-fsdp \\") != std::string::npos);
  CHECK(text.find("--data-parallel-sharding-strategy optim_grads \\") != std::string::npos);
  CHECK(text.find("--ckpt-format fsdp_dtensor \\") != std::string::npos);  // Megatron-LM requires it
  const json back = run_json({"score", model, "--gpus", "8", "--gpu", "h100", "--tokens",
                              "1e12", "--megatron-args", file.string()});
  CHECK(back.at("cluster").at("data_parallel_sharding") == "optim_grads");
  // Megatron-FSDP sharding the optimizer states only: the distributed optimizer's model, the
  // script still Megatron-FSDP's.
  std::vector<std::string> optim = fsdp;
  optim.insert(optim.end(), {"--data-parallel-sharding-strategy", "optim", "--emit", "megatron", "-o", file.string()});
  const Run optim_written = run_moeplan(optim);
  REQUIRE_MESSAGE(optim_written.code == 0, optim_written.err);
  const std::string optim_text = text_of(file);
  CHECK(optim_text.find("--use-megatron-fsdp \\") != std::string::npos);
  CHECK(optim_text.find("--data-parallel-sharding-strategy optim \\") != std::string::npos);
  const json optim_back = run_json({"score", model, "--gpus", "8", "--gpu", "h100", "--tokens", "1e12",
                                    "--megatron-args", file.string()});
  CHECK(optim_back.at("cluster").at("data_parallel_sharding") == "optim");
  // A script's strategy without Megatron-FSDP is Megatron's unused default: said, not applied.
  std::ofstream(file) << "torchrun pretrain_gpt.py --data-parallel-sharding-strategy optim_grads_params --tp 1\n";
  const Run unused = run_moeplan({"score", model, "--gpus", "8", "--gpu", "h100", "--tokens",
                                  "1e12", "--megatron-args", file.string(), "--format", "json"});
  REQUIRE_MESSAGE(unused.code == 0, unused.err);
  CHECK(unused.err.find("reads it only with --use-megatron-fsdp") != std::string::npos);
  CHECK(json::parse(unused.out).at(0).at("cluster").at("data_parallel_sharding") == "optim");
  std::ofstream(file) << "torchrun pretrain_gpt.py --use-megatron-fsdp \\\n  --data-parallel-sharding-strategy no_shard\n";
  const Run replicated = run_moeplan({"score", model, "--gpus", "8", "--gpu", "h100", "--tokens", "1e12",
                                      "--megatron-args", file.string()});
  CHECK(replicated.code == 4);
  CHECK(replicated.err.find(file.string() + ":2: --data-parallel-sharding-strategy: no_shard") != std::string::npos);
  std::ofstream(file) << "torchrun pretrain_gpt.py --use-megatron-fsdp --data-parallel-sharding-strategy zero3\n";
  const Run bad = run_moeplan({"score", model, "--gpus", "8", "--gpu", "h100", "--tokens",
                               "1e12", "--megatron-args", file.string()});
  CHECK(bad.code == 4);
  CHECK(bad.err.find("zero3") != std::string::npos);
  std::filesystem::remove(file);
}
