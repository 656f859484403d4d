// Calibration as a user drives it (docs/calibration.md): measured steps in a CSV, `moeplan fit`
// gives the efficiency back and writes a profile, `score --step-profile` predicts with it (a
// flag given still wins), a Megatron-LM log as the measurement, bad input refused by place.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "moeplan/base/bounded_read.hpp"
#include "moeplan/io/megatron_log.hpp"

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  const auto path = temp_path(name);
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

nlohmann::json json_of(const Run& r) {
  REQUIRE_MESSAGE(r.code == 0, r.err);
  return nlohmann::json::parse(r.out);
}

// A Qwen3-30B-A3B run on `gpus` H100 in EP = gpus, bf16, forced balance: score's arguments.
std::vector<std::string> run_args(int gpus, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> a = {"score", "qwen3-30b-a3b", "--gpus", std::to_string(gpus), "--gpu", "h100",
                                "--tokens", "1e12", "--seq-len", "4096", "--global-batch-tokens", "4194304",
                                "--tp", "1", "--pp", "1", "--ep", std::to_string(gpus), "--etp", "1",
                                "--micro-batch-size", "1", "--recompute", "none", "--load-imbalance", "1"};
  a.insert(a.end(), extra.begin(), extra.end());
  a.insert(a.end(), {"--format", "json"});
  return a;
}

double step_of(const std::vector<std::string>& args) {
  CAPTURE(fmt_args(args));
  return json_of(run_moeplan(args))[0]["step_time"]["step"].get<double>();
}

const std::string k_flags = "--seq-len 4096 --global-batch-tokens 4194304 --tp 1 --pp 1 --etp 1 --micro-batch-size 1 "
                            "--recompute none --load-imbalance 1";

// A steps table of three runs "measured" at GEMM efficiency 0.45 (moeplan's own figure there).
std::string measured_table() {
  std::string csv = "model,gpus,gpu,ep,flags,step_seconds\n";
  for (int gpus : {16, 32, 64}) {
    csv += fmt::format("qwen3-30b-a3b,{},h100,{},{},{:.17g}\n", gpus, gpus, k_flags,
                       step_of(run_args(gpus, {"--gemm-efficiency", "0.45"})));
  }
  return csv;
}

}  // namespace

TEST_CASE("fit steps.csv: runs measured at a GEMM efficiency give it back, and the profile predicts them") {
  const std::string csv = write_temp("steps.csv", measured_table());
  const std::string profile = temp_path("profile.toml").string();
  std::filesystem::remove(profile);
  const Run fit = run_moeplan({"fit", csv, "--out", profile, "--format", "json", "--bootstrap", "20"});
  const auto report = json_of(fit);
  CHECK(fit.err.find("law 'step' chosen from the columns") != std::string::npos);
  REQUIRE(report["parameter"].size() == 1);
  CHECK(report["parameter"][0]["name"] == "gemm_efficiency");
  CHECK(report["parameter"][0]["value"].get<double>() == doctest::Approx(0.45).epsilon(1e-3));
  CHECK(report["step_fit"]["runs"] == 3);
  CHECK(report["step_fit"]["median_error_left_out"].get<double>() < 1e-3);
  CHECK(report["step_fit"]["median_error_default"].get<double>() > 0.05);
  CHECK(report["run"][1]["measured_from"] == "step_seconds");
  REQUIRE(std::filesystem::exists(profile));

  // score with the profile: the measured step; the section says where each value came from.
  const double measured = step_of(run_args(16, {"--gemm-efficiency", "0.45"}));
  const Run with = run_moeplan(run_args(16, {"--step-profile", profile}));
  const auto scored = json_of(with)[0];
  CHECK(scored["step_time"]["step"].get<double>() == doctest::Approx(measured).epsilon(1e-3));
  CHECK(scored["step_profile"]["gemm_efficiency"].get<double>() == doctest::Approx(0.45).epsilon(1e-3));
  CHECK(scored["step_profile"]["file"] == profile);
  CHECK(scored["step_time"]["days_low"].get<double>() == doctest::Approx(scored["step_time"]["days"].get<double>()).epsilon(1e-2));
  CHECK(scored["cluster"]["gemm_rates"].get<std::string>().find("profile " + profile) != std::string::npos);
  // A flag given wins over the profile.
  const auto flag = json_of(run_moeplan(run_args(16, {"--step-profile", profile, "--gemm-efficiency", "0.6"})))[0];
  CHECK(flag["step_time"]["step"].get<double>() == doctest::Approx(step_of(run_args(16))).epsilon(1e-9));
  // Without the profile, no section.
  CHECK_FALSE(json_of(run_moeplan(run_args(16)))[0].contains("step_profile"));
  // On a GPU kind it was not fitted on: said.
  std::vector<std::string> gb200 = run_args(16, {"--step-profile", profile});
  gb200[5] = "gb200";
  const Run other = run_moeplan(gb200);
  CHECK(other.code == 0);
  CHECK(other.err.find("fitted on GPU kind h100-sxm, not gb200") != std::string::npos);
}

TEST_CASE("fit steps.csv: one run fits and says it cannot be checked, and --holdout predicts the held rows") {
  const std::string table = measured_table();
  const std::string one = write_temp("one-step.csv", table.substr(0, table.find('\n', table.find('\n') + 1) + 1));
  const Run r = run_moeplan({"fit", one, "--law", "step", "--format", "json"});
  const auto j = json_of(r);
  CHECK(j["step_fit"]["median_error_left_out"].is_null());
  CHECK(r.err.find("one run: the fit cannot be checked") != std::string::npos);

  std::string held = "holdout," + table.substr(0, table.find('\n') + 1);
  std::size_t at = table.find('\n') + 1;
  for (int i = 0; at < table.size(); ++i) {
    const std::size_t end = table.find('\n', at);
    held += (i == 2 ? "1," : "0,") + table.substr(at, end - at + 1);
    at = end + 1;
  }
  const auto h = json_of(run_moeplan({"fit", write_temp("held.csv", held), "--holdout", "holdout", "--format", "json"}));
  CHECK(h["run"][2]["held_out"] == true);
  CHECK(h["run"][2]["predicted_left_out"].is_null());
  CHECK(h["step_fit"]["median_error_held_out"].get<double>() < 1e-3);
  CHECK(run_moeplan({"fit", write_temp("held2.csv", held), "--holdout", "0.2"}).code == 2);
}

TEST_CASE("fit steps.csv: a Megatron-LM log is the measurement, its median past the first 10 iterations") {
  const std::string log = MOEPLAN_TEST_DATA_DIR "/megatron_logs/moe_rank7.log";
  const auto summary = moeplan::read_megatron_log(*moeplan::read_bounded(log, 1 << 20, "log"), log);
  REQUIRE(summary.has_value());
  // The fixture's run: world size 8, global batch 256 (its start-up and iteration lines); its
  // invented step times fit a model the size of moe-mini (paper 000), not Qwen3-30B-A3B.
  const std::string flags = "--seq-len 4096 --global-batch-tokens 1048576 --tp 1 --pp 1 --etp 1 --micro-batch-size 1 "
                            "--recompute none --load-imbalance 1";
  const std::string csv = write_temp(
      "log-steps.csv", fmt::format("model,gpus,gpu,ep,flags,log\nmoe-mini,8,h100,8,{},{}\n", flags, log));
  const Run r = run_moeplan({"fit", csv, "--format", "json"});
  const auto j = json_of(r);
  CHECK(j["run"][0]["measured_step"].get<double>() == doctest::Approx(summary->median_step_seconds));
  CHECK(j["run"][0]["measured_from"].get<std::string>().find("median of") != std::string::npos);
  // A row of another cluster or batch than the log's is refused, naming the log's line.
  const Run gpus = run_moeplan({"fit", write_temp("log-16.csv", fmt::format("model,gpus,gpu,ep,flags,log\n"
                                                                           "moe-mini,16,h100,16,{},{}\n",
                                                                           flags, log))});
  CHECK(gpus.code == 4);
  CHECK(gpus.err.find(log + ":2: world size: 8, but ") != std::string::npos);
  std::string other_batch = flags;
  other_batch.replace(other_batch.find("1048576"), 7, "2097152");
  const Run batch = run_moeplan({"fit", write_temp("log-batch.csv", fmt::format("model,gpus,gpu,ep,flags,log\n"
                                                                               "moe-mini,8,h100,8,{},{}\n",
                                                                               other_batch, log))});
  CHECK(batch.code == 4);
  CHECK(batch.err.find("global batch size: 256 sequences in the iterations timed, but the run of") != std::string::npos);
  // --skip-iterations moves the median
  const auto all = json_of(run_moeplan({"fit", csv, "--skip-iterations", "0", "--format", "json"}));
  const auto s0 = moeplan::read_megatron_log(*moeplan::read_bounded(log, 1 << 20, "log"), log, 0);
  CHECK(all["run"][0]["measured_step"].get<double>() == doctest::Approx(s0->median_step_seconds));
}

TEST_CASE("fit steps.csv: bad input exits 4 with the file, line and reason, and writes nothing") {
  const std::string out = temp_path("never.toml").string();
  const std::string report = temp_path("never.txt").string();
  std::filesystem::remove(out);
  std::filesystem::remove(report);
  const std::string junk_log = write_temp("junk.log", "starting\nloading data\nno iterations here\n");
  const std::string script = write_temp("run.sh", "#!/bin/sh\ntorchrun pretrain_gpt.py \\\n"
                                                  "  --tensor-model-parallel-size 2 \\\n  --micro-batch-size 1\n");
  const std::string row = fmt::format("qwen3-30b-a3b,16,h100,16,{}", k_flags);
  struct Case {
    std::string name, csv, expect;
  };
  const std::vector<Case> cases = {
      {"missing gpu column", "model,gpus,ep,flags,step_seconds\n" + row.substr(0, row.find(",h100")) +
                                 row.substr(row.find(",h100") + 5) + ",20\n",
       "missing column 'gpu'"},
      {"log without iteration lines", "model,gpus,gpu,ep,flags,log\n" + row + "," + junk_log + "\n",
       junk_log + ": no 'elapsed time per iteration (ms)' line"},
      {"script contradicting the row", "model,gpus,gpu,ep,tp,megatron_args,step_seconds\nqwen3-30b-a3b,16,h100,16,1," +
                                           script + ",20\n",
       script + ":3: --tensor-model-parallel-size: 2, but "},
      {"unknown term", "model,gpus,gpu,ep,flags,step_seconds,gemmm_seconds\n" + row + ",20,3\n",
       ":1:7: gemmm_seconds: no step term 'gemmm'"},
      {"two measurements", "model,gpus,gpu,ep,flags,step_seconds,tokens_per_gpu_s\n" + row + ",20,13000\n",
       ":2:7: tokens_per_gpu_s: 2 measured steps (step_seconds, tokens_per_gpu_s): give one"},
      {"no measurement", "model,gpus,gpu,ep,flags,step_seconds\n" + row + ",\n", ":2: no measured step"},
      {"unknown GPU", "model,gpus,gpu,flags,step_seconds\nqwen3-30b-a3b,16,h1000," + k_flags + ",20\n",
       ":2: --gpu: unknown GPU 'h1000'"},
      {"a flag moeplan does not know", "model,gpus,gpu,flags,step_seconds\nqwen3-30b-a3b,16,h100,--tpp 2,20\n",
       ":2:4: flags: "},
      {"no global batch", "model,gpus,gpu,ep,seq_len,step_seconds\nqwen3-30b-a3b,16,h100,16,4096,20\n",
       ":2: global_batch: missing: the run's global batch"},
      {"a batch Megatron refuses", "model,gpus,gpu,ep,seq_len,global_batch,tp,pp,micro_batch_size,step_seconds\n"
                                   "qwen3-30b-a3b,16,h100,16,4096,1000,1,1,1,20\n",
       "global_batch: the run's global batch of 1000 sequences is not a whole number of micro-batches x DP"},
      {"faster than the peak", "model,gpus,gpu,ep,flags,step_seconds\n" + row + ",0.05\n",
       "is faster than the 16 GPUs' dense bf16 peak allows"},
      {"a near miss of a column", "model,gpus,gpu,tp_size,flags,step_seconds\nqwen3-30b-a3b,16,h100,1," + k_flags +
                                      ",20\n",
       ":1:4: tp_size: not a column of a steps table: did you mean tp?"},
      {"a profile in a row", "model,gpus,gpu,ep,flags,step_seconds\n" + row + " --step-profile p.toml,20\n",
       ":2:5: flags: --step-profile is not a property of a run"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const std::string csv = write_temp("bad-steps.csv", c.csv);
    const Run r = run_moeplan({"fit", csv, "--out", out, "-o", report});
    CHECK(r.code == 4);
    CHECK(r.out.empty());
    CHECK_MESSAGE(r.err.find(c.expect) != std::string::npos, r.err);
    CHECK_FALSE(std::filesystem::exists(out));
    CHECK_FALSE(std::filesystem::exists(report));
  }
  // --fit-params names a parameter that does not exist: exit 2 naming it, before any row is read.
  const std::string ok = write_temp("ok-steps.csv", "model,gpus,gpu,ep,flags,step_seconds\n" + row + ",20\n");
  const Run typo = run_moeplan({"fit", ok, "--fit-params", "gemm_eficiency", "--out", out});
  CHECK(typo.code == 2);
  CHECK(typo.err.find("--fit-params: 'gemm_eficiency' is not a step-model parameter") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(out));
  // A profile that is not one: score exits 4 naming it.
  const std::string bad_profile = write_temp("bad-profile.toml", "schema = \"moeplan-laws/1\"\n");
  const Run s = run_moeplan(run_args(16, {"--step-profile", bad_profile}));
  CHECK(s.code == 4);
  CHECK(s.err.find(bad_profile + ":1:10: schema: \"moeplan-laws/1\" is not a step profile") != std::string::npos);
}

TEST_CASE("hbm efficiency flag: the serving node reads it too, and alone it is refused") {
  const std::vector<std::string> serve = {"score", "qwen3-30b-a3b", "--serve-gpus", "1", "--serve-gpu", "h200",
                                          "--serve-context", "4096", "--serve-batch", "1", "--format", "json"};
  const auto base = json_of(run_moeplan(serve))[0]["serving"]["decode_tokens_per_s"].get<double>();
  std::vector<std::string> slower = serve;
  slower.insert(slower.end(), {"--hbm-efficiency", "0.425"});
  const auto half = json_of(run_moeplan(slower))[0]["serving"]["decode_tokens_per_s"].get<double>();
  CHECK(half == doctest::Approx(base / 2).epsilon(1e-6));  // a batch of one decodes at the HBM's pace
  const Run alone = run_moeplan({"score", "qwen3-30b-a3b", "--hbm-efficiency", "0.5"});
  CHECK(alone.code == 2);
  CHECK(alone.err.find("--hbm-efficiency needs a GPU") != std::string::npos);
}

TEST_CASE("fit steps.csv: the worked example of docs/calibration.md, a public Megatron-LM log, reads and fits") {
  // docs/examples/calibration: Mixtral 8x7B on 16 H100 (NVIDIA/Megatron-LM issue 756); the
  // median of the iteration times it printed past iteration 10 is 5,581 ms (iterations 15-100).
  const std::string csv = MOEPLAN_TEST_DATA_DIR "/../../docs/examples/calibration/steps.csv";
  const Run r = run_moeplan({"fit", csv, "--format", "json"});
  const auto j = json_of(r);
  CHECK(j["run"][0]["measured_step"].get<double>() == doctest::Approx(5.581).epsilon(1e-3));
  CHECK(j["run"][0]["measured_from"].get<std::string>().find("median of 17 iterations (15-100)") != std::string::npos);
  CHECK(j["parameter"][0]["name"] == "gemm_efficiency");
  CHECK(j["parameter"][0]["value"].get<double>() < 0.6);  // the 2024 stack ran slower than the defaults say
}

TEST_CASE("fit steps.csv: real training steps measured on an H200 (docs/measurements/h200-2026-11-29) read and fit") {
  // bench/gpu_training_step.py's table: nine PyTorch steps of Granite 3.0 and TinyLlama shapes on
  // one H200, each with its kernels' GPU time by term; the models' paths are read beside it.
  const std::string csv = MOEPLAN_TEST_DATA_DIR "/../../docs/measurements/h200-2026-11-29/steps.csv";
  const auto j = json_of(run_moeplan({"fit", csv, "--fit-params", "attention_efficiency", "--format", "json"}));
  REQUIRE(j["run"].size() == 9);
  CHECK(j["run"][3]["id"] == "tinyllama-1.1b-dense-compiled-mb4x2");
  CHECK(j["run"][3]["measured_step"].get<double>() == doctest::Approx(0.487516).epsilon(1e-6));
  // cuDNN's attention kernels measured on the H200 against the step model's cuDNN rates of the
  // FlashAttention-3 paper's H100 figures (presets/hardware/attention_rates.toml): within 10 %
  CHECK(j["parameter"][0]["value"].get<double>() == doctest::Approx(1.0).epsilon(0.1));
  // torch's GEMMs on one H200 ran faster than the stated 0.6 of the dense peak
  const auto gemm = json_of(run_moeplan({"fit", csv, "--fit-params", "gemm_efficiency", "--format", "json"}));
  CHECK(gemm["parameter"][0]["value"].get<double>() > 0.6);
}

TEST_CASE("memory-bound scale: a flag of the cluster, fitted apart from the HBM efficiency on the H200's eager steps") {
  CHECK(run_moeplan({"score", "qwen3-30b-a3b", "--memory-bound-scale", "2"}).err.find(
            "--memory-bound-scale needs a cluster") != std::string::npos);
  const Run high = run_moeplan(run_args(16, {"--memory-bound-scale", "11"}));
  CHECK(high.code == 2);
  CHECK(high.err.find("--memory-bound-scale: must lie in [0.5, 10], got 11") != std::string::npos);
  // The four eager runs of docs/measurements/h200-2026-11-29 (grouped experts and dense), each
  // with its optimizer's measured time: hbm_efficiency goes to the optimizer's bandwidth, the
  // scale takes the stack's extra memory-bound bytes (docs/calibration.md, Evidence 5).
  const std::string dir = MOEPLAN_TEST_DATA_DIR "/../../docs/measurements/h200-2026-11-29/";
  std::ifstream in(dir + "steps.csv");
  std::string line, table;
  std::getline(in, line);
  table = line + "\n";
  while (std::getline(in, line)) {
    if (line.find("-compiled-") != std::string::npos || line.find("-loop-") != std::string::npos) continue;
    const auto comma = line.find(",../");
    REQUIRE(comma != std::string::npos);
    table += line.substr(0, comma + 1) + dir + line.substr(comma + 1) + "\n";  // the model read beside the table
  }
  const std::string csv = write_temp("h200-eager-steps.csv", table);
  const std::string profile = temp_path("h200-eager.toml").string();
  const auto j = json_of(run_moeplan({"fit", csv, "--fit-params",
                                      "gemm_efficiency,hbm_efficiency,attention_efficiency,memory_bound_scale",
                                      "--bootstrap", "0", "--out", profile, "--format", "json"}));
  REQUIRE(j["run"].size() == 4);
  double hbm = 0, scale = 0;
  for (const auto& p : j["parameter"]) {
    if (p["name"] == "hbm_efficiency") hbm = p["value"].get<double>();
    if (p["name"] == "memory_bound_scale") scale = p["value"].get<double>();
  }
  CHECK(hbm == doctest::Approx(0.673).epsilon(0.03));
  CHECK(scale == doctest::Approx(4.15).epsilon(0.03));
  // The profile carries the scale into score, which names where it came from.
  const auto scored = json_of(run_moeplan(run_args(16, {"--step-profile", profile})));
  CHECK(scored[0]["step_profile"]["memory_bound_scale"].get<double>() == doctest::Approx(scale));
  CHECK(scored[0]["step_profile"]["memory_bound_scale_source"].get<std::string>().find("profile") == 0);
}
