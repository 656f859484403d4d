// A no-context review of the config.json reader on the 2026 families (issue 51): vision towers
// reported beside N (null with why), MiniMax-M3's declared MTP modules, MiniMax-M2's rotary_dim,
// NemotronH's router in the emitted TOML, moe_latent_size's range, DeepSeek-V4-Flash's serving
// refusal, and errors inside text_config named with its prefix.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "hf_scoring.hpp"

using namespace hf_scoring;

namespace {

std::string slurp51(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// `score FILE --emit toml` into a temp file: its text.
std::string emitted_toml51(const std::string& path, const std::string& name) {
  const auto out = temp_path(name);
  const Run e = run_moeplan({"score", path, "--emit", "toml", "-o", out.string()});
  INFO(e.err);
  REQUIRE(e.code == 0);
  std::string text = slurp51(out);
  std::filesystem::remove(out);
  return text;
}

// A TOML model written to a temp file, scored as JSON.
Run score_toml51(const std::string& toml, const std::string& name) {
  const auto path = temp_path(name);
  std::ofstream(path) << toml;
  Run r = run_moeplan({"score", path.string(), "--format", "json"});
  std::filesystem::remove(path);
  return r;
}

}  // namespace

TEST_CASE("review 51: a multimodal checkpoint's vision tower is null with why, the totals text-only") {
  for (const char* file : {"kimi-k2.5.json", "minimax-m3.json", "qwen3.5-35b-a3b.json", "qwen3.5-4b.json",
                           "step-3.7-flash.json", "gemma-4-26b-a4b-it.json", "gemma-4-31b-it.json",
                           "qwen3-vl-30b-a3b.json"}) {
    CAPTURE(file);
    const json j = score_of(k_hf + file);
    REQUIRE(j["size"].contains("vision_params"));
    CHECK(j["size"]["vision_params"].is_null());
    const std::string why = j["size"]["vision_params_reason"].get<std::string>();
    CHECK(why.find("the vision tower (vision_config)") != std::string::npos);
    CHECK(why.find("the text model's alone") != std::string::npos);
  }
  // An audio tower (audio_config an object; null in both Gemma 4 fixtures) is named too.
  json audio = fixture("gemma-4-31b-it.json");
  audio["audio_config"] = json::object({{"hidden_size", 1024}});
  const Run ra = score_doc(audio, "review51-audio.json");
  REQUIRE_MESSAGE(ra.code == 0, ra.err);
  CHECK(json::parse(ra.out).at(0)["size"]["vision_params_reason"].get<std::string>().find(
            "the vision tower (vision_config) and the audio tower (audio_config)") != std::string::npos);
  // A text-only config has no vision row.
  CHECK_FALSE(score_of(k_hf + "qwen3-30b-a3b.json")["size"].contains("vision_params"));
  // The table says the checkpoint total is the text model's.
  const Run t = run_moeplan({"score", k_hf + "kimi-k2.5.json"});
  REQUIRE(t.code == 0);
  CHECK(t.out.find("text model only (the vision tower is not counted)") != std::string::npos);
  // moeplan's TOML keeps the reason (vision_not_counted) and reads it back.
  const std::string toml = emitted_toml51(k_hf + "qwen3.5-4b.json", "review51-vision.toml");
  CHECK(toml.find("vision_not_counted = ") != std::string::npos);
  const Run back = score_toml51(toml, "review51-vision-back.toml");
  REQUIRE_MESSAGE(back.code == 0, back.err);
  CHECK(json::parse(back.out).at(0)["size"] == score_of(k_hf + "qwen3.5-4b.json")["size"]);
}

TEST_CASE("review 51: MiniMax-M2's rotary_dim is its partial RoPE, as MiniMaxM2Config converts it") {
  // configuration_minimax_m2.py: partial_rotary_factor = rotary_dim / head_dim, rotary_dim
  // defaulting to head_dim // 2. head_dim 128 here.
  const auto megatron_of = [](const json& doc, const std::string& name) {
    const auto path = temp_path(name);
    std::ofstream(path) << doc.dump(2);
    Run r = run_moeplan({"score", path.string(), "--emit", "megatron"});
    std::filesystem::remove(path);
    return r;
  };
  json doc = fixture("minimax-m2.json");
  const Run half = megatron_of(doc, "review51-m2-default.json");  // no rotary_dim: 64 of 128
  REQUIRE_MESSAGE(half.code == 0, half.err);
  CHECK(half.out.find("--rotary-percent 0.5") != std::string::npos);
  doc["rotary_dim"] = 32;
  const Run quarter = megatron_of(doc, "review51-m2-32.json");
  REQUIRE_MESSAGE(quarter.code == 0, quarter.err);
  CHECK(quarter.out.find("--rotary-percent 0.25") != std::string::npos);
  check_refused("minimax-m2.json", "rotary_dim", [](json& d) { d["rotary_dim"] = 256; });
  check_refused("minimax-m2.json", "partial_rotary_factor", [](json& d) {
    d["rotary_dim"] = 64;
    d["partial_rotary_factor"] = 1.0;
  });
  // A written factor equal to the class's is read.
  json same = fixture("minimax-m2.json");
  same["rotary_dim"] = 64;
  same["partial_rotary_factor"] = 0.5;
  CHECK(score_doc(same, "review51-m2-same.json").code == 0);
}

TEST_CASE("review 51: NemotronH routes as DeepSeek-V3 (sigmoid, e_score_correction_bias) in the emitted TOML") {
  const std::string toml = emitted_toml51(k_hf + "nemotron-3-super-120b-a12b.json", "review51-super.toml");
  CHECK(toml.find("score_function = \"sigmoid\"") != std::string::npos);
  CHECK(toml.find("expert_bias = true") != std::string::npos);
  CHECK(toml.find("topk_scaling_factor = 5") != std::string::npos);  // routed_scaling_factor 5.0
  // A dense NemotronH builds no router: none written.
  CHECK(emitted_toml51(k_hf + "nemotron-h-8b.json", "review51-nh8b.toml").find("[router]") == std::string::npos);
}

TEST_CASE("review 51: moe_latent_size 0 is none in TOML, a latent as wide as hidden_size is refused") {
  const std::string toml = emitted_toml51(k_hf + "nemotron-3-super-120b-a12b.json", "review51-latent.toml");
  const auto at = toml.find("moe_latent_size = 1024");
  REQUIRE(at != std::string::npos);
  std::string none = toml;
  none.replace(at, std::string("moe_latent_size = 1024").size(), "moe_latent_size = 0");
  const Run r0 = score_toml51(none, "review51-latent0.toml");
  REQUIRE_MESSAGE(r0.code == 0, r0.err);
  CHECK(json::parse(r0.out).at(0)["size"]["latent_projection_params"] == 0);
  std::string wide = toml;
  wide.replace(at, std::string("moe_latent_size = 1024").size(), "moe_latent_size = 4096");  // = hidden_size
  const Run rw = score_toml51(wide, "review51-latent-wide.toml");
  CHECK(rw.code == 4);
  CHECK(rw.err.find("model.moe_latent_size") != std::string::npos);
  CHECK(rw.err.find("narrower than hidden_size (4096)") != std::string::npos);
  // config.json: the same range, the key named; 0 is refused (NemotronHMoE builds a latent
  // whenever the key is not null), null is none.
  check_refused("nemotron-3-super-120b-a12b.json", "moe_latent_size", [](json& d) { d["moe_latent_size"] = 8192; });
  check_refused("nemotron-3-super-120b-a12b.json", "moe_latent_size", [](json& d) { d["moe_latent_size"] = 0; });
  json null_latent = fixture("nemotron-3-super-120b-a12b.json");
  null_latent["moe_latent_size"] = nullptr;
  CHECK(score_doc(null_latent, "review51-latent-null.json").code == 0);
}

TEST_CASE("review 51: DeepSeek-V4-Flash's serving refusal names the stored weights") {
  const Run r = run_moeplan({"score", k_hf + "deepseek-v4-flash.json", "--serve-gpus", "8", "--serve-gpu", "h100",
                             "--format", "json"});
  CHECK(r.code == 4);  // as every serving input refusal: the report printed, the section null
  CHECK(r.err.find("fp8 only") != std::string::npos);
  const json s = json::parse(r.out).at(0)["serving"];
  CHECK(s["weights_precision"] == "fp8 (quantization_config)");
  CHECK(s["fits"].is_null());
}

TEST_CASE("review 51: errors inside text_config name its prefix, a huge integer is out of range") {
  json doc = fixture("qwen3-vl-30b-a3b.json");
  doc["text_config"]["num_experts"] = "many";
  const Run r = score_doc(doc, "review51-prefix.json");
  CHECK(r.code == 4);
  CHECK(r.err.find(": text_config.num_experts: must be an integer") != std::string::npos);
  // 10^30 written out: past 2^64, parsed as a double, but an integer too large, not "a float".
  const auto path = temp_path("review51-huge.json");
  std::string text = fixture("qwen3-30b-a3b.json").dump(2);
  const std::string key = "\"num_experts\": ";
  const auto at = text.find(key);
  REQUIRE(at != std::string::npos);
  const auto end = text.find_first_of(",\n", at + key.size());
  text.replace(at + key.size(), end - at - key.size(), "1000000000000000000000000000000");
  std::ofstream(path) << text;
  const Run h = run_moeplan({"score", path.string(), "--format", "json"});
  std::filesystem::remove(path);
  CHECK(h.code == 4);
  CHECK(h.err.find("num_experts: must be in [1, 1e9], got 1e+30") != std::string::npos);
}
