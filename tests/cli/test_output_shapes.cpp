// Data formats for tools (issue 22, item 12): repeated things are arrays, not numbered keys
// (candidate_1, warning_1, note_1), and their CSV flat form is stable.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include "cli_run.hpp"

namespace {

// Every key of every object in `j`, at any depth.
void keys_of(const nlohmann::json& j, std::vector<std::string>& out) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      out.push_back(k);
      keys_of(v, out);
    }
  } else if (j.is_array()) {
    for (const auto& v : j) keys_of(v, out);
  }
}

bool numbered(const std::string& key) {
  for (const char* prefix : {"candidate_", "warning_", "note_", "curve_", "aligned_"}) {
    if (key.starts_with(prefix)) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("suggest's candidates are an array in JSON and TOML, candidates.N.key columns in CSV") {
  const std::vector<std::string> base{"suggest", "--flops", "1e20", "--no-bench", "--candidates", "3"};
  std::vector<std::string> args = base;
  args.insert(args.end(), {"--format", "json"});
  const Run json = run_moeplan(args);
  REQUIRE(json.code == 0);
  const nlohmann::json doc = nlohmann::json::parse(json.out);
  REQUIRE(doc["candidates"].is_array());
  CHECK(doc["candidates"].size() == 3);
  CHECK(doc["candidates"][0]["hidden_size"] == doc["config"]["hidden_size"]);  // the winner first
  CHECK(doc["ranking"]["candidates_scored"].is_number_integer());
  std::vector<std::string> keys;
  keys_of(doc, keys);
  for (const std::string& k : keys) {
    CAPTURE(k);
    CHECK_FALSE(numbered(k));
  }

  args = base;
  args.insert(args.end(), {"--format", "toml"});
  const Run toml_run = run_moeplan(args);
  REQUIRE(toml_run.code == 0);
  const toml::table t = toml::parse(toml_run.out);
  REQUIRE(t["candidates"].is_array_of_tables());
  CHECK(t["candidates"].as_array()->size() == 3);
  CHECK(t["candidates"][2]["variant"].value<std::string>().has_value());

  args = base;
  args.insert(args.end(), {"--format", "csv"});
  const Run csv = run_moeplan(args);
  REQUIRE(csv.code == 0);
  const std::vector<std::string> header = cells(csv.out.substr(0, csv.out.find('\n')));
  for (const char* column : {"candidates.1.variant", "candidates.3.delta_efficiency_leverage"}) {
    CAPTURE(column);
    CHECK(std::find(header.begin(), header.end(), column) != header.end());
  }
  for (const std::string& h : header) {
    CAPTURE(h);
    CHECK_FALSE(numbered(h));
  }
}

TEST_CASE("a sweep row without a plan has an empty candidates array, like the others have one") {
  const Run r = run_moeplan({"suggest", "--flops", "1e15,1e20", "--no-bench", "--format", "json"});
  CHECK(r.code == 3);
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  REQUIRE(doc.size() == 2);
  REQUIRE(doc[0]["candidates"].is_array());
  CHECK(doc[0]["candidates"].empty());
  CHECK(doc[1]["candidates"].size() == 5);
}

TEST_CASE("score's notes and fit's warnings are arrays of strings") {
  const Run score = run_moeplan({"score", "moe-mini", "deepseek-v3.1", "--format", "json"});
  REQUIRE(score.code == 0);
  const nlohmann::json models = nlohmann::json::parse(score.out);
  for (const nlohmann::json& m : models) {
    REQUIRE(m["notes"]["messages"].is_array());
    for (const nlohmann::json& note : m["notes"]["messages"]) CHECK(note.is_string());
  }
  CHECK_FALSE(models[1]["notes"]["messages"].empty());  // MLA: a note on its projection FLOPs
  const Run score_toml = run_moeplan({"score", "deepseek-v3.1", "--format", "toml"});
  const toml::table t = toml::parse(score_toml.out);
  CHECK(t["models"][0]["notes"]["messages"].is_array());

  const Run fit = run_moeplan({"fit", MOEPLAN_TEST_DATA_DIR "/moe_vs_dense_runs.csv", "--law", "activation",
                               "--column", "loss=BPC", "--max-iterations", "1", "--format", "json", "-q"});
  REQUIRE_MESSAGE(fit.code == 0, fit.err);
  const nlohmann::json f = nlohmann::json::parse(fit.out);
  REQUIRE(f["warnings"]["messages"].is_array());
  CHECK_FALSE(f["warnings"]["messages"].empty());  // the iteration cap, at least
  CHECK(f["warnings"]["messages"][0].is_string());
  std::vector<std::string> keys;
  keys_of(f, keys);
  for (const std::string& k : keys) {
    CAPTURE(k);
    CHECK_FALSE(numbered(k));
  }
}

TEST_CASE("one name, one meaning: r_a is the attention share in suggest and score, the activation rate is N_a/N") {
  const auto config = temp_path("shapes-1e21.toml");
  REQUIRE(run_moeplan({"suggest", "--flops", "1e21", "--emit", "toml", "-o", config.string()}).code == 0);
  const Run plan = run_moeplan({"suggest", "--flops", "1e21", "--no-bench", "--format", "json"});
  const Run score = run_moeplan({"score", config.string(), "--format", "json"});
  REQUIRE(plan.code == 0);
  REQUIRE(score.code == 0);
  const nlohmann::json p = nlohmann::json::parse(plan.out), s = nlohmann::json::parse(score.out).at(0);
  CHECK_FALSE(p["accounting"].contains("r_attention"));
  const double suggest_share = p["accounting"]["attention_share"].get<double>();
  CHECK(suggest_share == doctest::Approx(s["compute"]["attention_share"].get<double>()).epsilon(1e-12));
  CHECK(s["activation_rate"]["activation_rate"].get<double>() ==
        doctest::Approx(s["size"]["N_a_nonembedding_active"].get<double>() / s["size"]["N_nonembedding_total"].get<double>()));
  // The tables label the attention share r_a and the activation rate N_a/N, in both commands.
  const Run score_table = run_moeplan({"score", config.string()});
  for (const std::string& line : {std::string("  r_a "), std::string("  N_a/N ")}) {
    CAPTURE(line);
    CHECK(score_table.out.find(line) != std::string::npos);
  }
  const std::size_t activation = score_table.out.find("activation rate");
  REQUIRE(activation != std::string::npos);
  const std::size_t row = score_table.out.rfind('\n', activation);
  CHECK(score_table.out.substr(row + 1, 8) == "  N_a/N ");
  std::filesystem::remove(config);
}
