// `moeplan suggest` as a user drives it: flags, formats, exit codes, streams.
#include <doctest/doctest.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "app.hpp"
#include "cli_run.hpp"
#include "moeplan/laws/laws_loader.hpp"
#include "moeplan/planner/pipeline.hpp"
#include "moeplan/base/presets.hpp"


TEST_CASE("the printed loss says which law it is and what chose the plan (issue 22)") {
  for (const char* rule : {"paper002", "el", "joint-loss"}) {
    CAPTURE(rule);
    const Run r = run_moeplan({"suggest", "--flops", "1e20", "--no-bench", "--rank-by", rule, "--format", "toml"});
    REQUIRE_MESSAGE(r.code == 0, r.err);
    const toml::table t = toml::parse(r.out);
    const double figure = *t["ranking"]["ranking_figure"].value<double>();
    if (std::string(rule) == "paper002") {
      const double d = double(*t["config"]["hidden_size"].value<std::int64_t>());
      const double target = *t["provenance"]["d_target"].value<double>();
      CHECK(figure == doctest::Approx(std::abs(d - target) / target));
    } else if (std::string(rule) == "el") {
      CHECK(figure == *t["ranking"]["efficiency_leverage"].value<double>());
    } else {
      CHECK(figure == *t["ranking"]["predicted_loss"].value<double>());
    }
  }
  const Run table = run_moeplan({"suggest", "--flops", "1e20", "--no-bench"});
  CHECK(table.out.find("not what chose the plan") != std::string::npos);
  CHECK(table.out.find("what chose the plan: |d - d_target|") != std::string::npos);
  // score of a paper 002 plan: "below region" comes with why.
  const Run score = run_moeplan({"score", "moe-mini"});
  REQUIRE(score.code == 0);
  CHECK(score.out.find("paper 002's compute-optimal plans") != std::string::npos);
}

TEST_CASE("suggest --flops 1e22 prints the table on stdout and warnings on stderr") {
  // --no-bench: the benchmark has its own cases (test_bench_cli.cpp); here it only cost time.
  const Run r = run_moeplan({"suggest", "--flops", "1e22", "--full", "--no-bench"});
  CHECK(r.code == 0);
  for (const char* needle : {"C ", "D_opt", "M ", "N_a", "N/N_a", "r_a", "r_d", "r_m", "L_d", "L_m", "d_m"}) {
    CAPTURE(needle);
    CHECK(r.out.find(needle) != std::string::npos);
  }
  CHECK(r.out.find("warning") == std::string::npos);
  CHECK(r.err.find("moeplan: warning: C = 1e+22 FLOPs is 1.52 decades above") != std::string::npos);
}

TEST_CASE("every bad --flops value: exit 2, a message naming the flag, nothing on stdout") {
  for (const char* bad : {"0", "-1", "nan", "inf", "junk", "1e22x", "", "1e999"}) {
    CAPTURE(bad);
    const Run r = run_moeplan({"suggest", std::string("--flops=") + bad});
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find("moeplan: error: --flops: ") == 0);
  }
}

TEST_CASE("usage errors exit 2") {
  CHECK(run_moeplan({}).code == 2);
  CHECK(run_moeplan({"suggest"}).code == 2);                                       // --flops missing
  CHECK(run_moeplan({"suggest", "--flops", "1e22", "--format", "xml"}).code == 2); // unknown format
  CHECK(run_moeplan({"suggest", "--flops", "1e22", "--top-k", "-3"}).code == 2);   // not positive
  CHECK(run_moeplan({"suggest", "--flops", "1e22", "--n-q", "8"}).code == 2);      // heads incomplete
  CHECK(run_moeplan({"frobnicate"}).code == 2);
}

TEST_CASE("fit --help prints usage with examples on stdout and exits 0") {
  const Run r = run_moeplan({"suggest", "--help"});
  CHECK(r.code == 0);
  CHECK(r.out.find("--flops") != std::string::npos);
  CHECK(r.out.find("Examples:") != std::string::npos);
}

TEST_CASE("infeasible: exit 3, the constraint on stderr, nothing on stdout") {
  const Run r = run_moeplan({"suggest", "--no-bench", "--flops", "1e20", "--n-over-na", "40"});
  CHECK(r.code == 3);
  CHECK(r.out.empty());
  CHECK(r.err.find("infeasible: 1 < N/N_a < (N_e+s)/(K+s)") != std::string::npos);
  CHECK(r.err.find("above by") != std::string::npos);
}

TEST_CASE("json, toml and csv carry the same config") {
  const Run toml_run = run_moeplan({"suggest", "--no-bench", "--flops", "3.5e21", "--format", "toml"});
  const Run json_run = run_moeplan({"suggest", "--no-bench", "--flops", "3.5e21", "--format", "json"});
  const Run csv_run = run_moeplan({"suggest", "--no-bench", "--flops", "3.5e21", "--format", "csv"});
  REQUIRE(toml_run.code == 0);
  REQUIRE(json_run.code == 0);
  REQUIRE(csv_run.code == 0);
  const toml::table doc = toml::parse(toml_run.out);
  const auto d = doc["config"]["hidden_size"].value<int64_t>();
  const auto M = doc["accounting"]["flops_per_token"].value<double>();
  REQUIRE(d.has_value());
  REQUIRE(M.has_value());
  CHECK(json_run.out.find("\"hidden_size\": " + std::to_string(*d) + ",") != std::string::npos);
  CHECK(json_run.out.front() == '{');

  // CSV: a header and exactly one data row with as many cells.
  std::istringstream csv(csv_run.out);
  std::string header, row, extra;
  std::getline(csv, header);
  std::getline(csv, row);
  CHECK_FALSE(std::getline(csv, extra));
  CHECK(std::count(header.begin(), header.end(), ',') == std::count(row.begin(), row.end(), ','));
  std::vector<std::string> keys, values;
  std::istringstream hs(header), rs(row);
  for (std::string cell; std::getline(hs, cell, ',');) keys.push_back(cell);
  for (std::string cell; std::getline(rs, cell, ',');) values.push_back(cell);
  const auto at = std::find(keys.begin(), keys.end(), "config.hidden_size") - keys.begin();
  REQUIRE(at < static_cast<long>(values.size()));
  CHECK(values[static_cast<std::size_t>(at)] == std::to_string(*d));
  const auto m_at = std::find(keys.begin(), keys.end(), "accounting.flops_per_token") - keys.begin();
  CHECK(std::stod(values[static_cast<std::size_t>(m_at)]) == *M);  // full precision round trip
}

TEST_CASE("-o writes the file whole, and not at all when the request is infeasible") {
  const auto ok_path = temp_path("ok.json");
  const auto bad_path = temp_path("bad.json");
  std::filesystem::remove(ok_path);
  std::filesystem::remove(bad_path);
  const Run ok = run_moeplan({"suggest", "--no-bench", "--flops", "1e20", "--format", "json", "-o", ok_path.string()});
  CHECK(ok.code == 0);
  CHECK(ok.out.empty());
  CHECK(std::filesystem::file_size(ok_path) > 100);
  const Run bad = run_moeplan({"suggest", "--no-bench", "--flops", "1e20", "--n-over-na", "99", "-o", bad_path.string()});
  CHECK(bad.code == 3);
  CHECK_FALSE(std::filesystem::exists(bad_path));
  const Run unwritable = run_moeplan({"suggest", "--no-bench", "--flops", "1e20", "-o", "/nonexistent-dir/x.json"});
  CHECK(unwritable.code == 5);
  std::filesystem::remove(ok_path);
}

TEST_CASE("suggest --laws: a bad file exits 4 naming it and a changed law changes the suggestion") {
  const Run missing = run_moeplan({"suggest", "--no-bench", "--flops", "1e20", "--laws", "/nonexistent/laws.toml"});
  CHECK(missing.code == 4);
  CHECK(missing.err.find("/nonexistent/laws.toml: cannot open file") != std::string::npos);

  std::string text(*moeplan::find_embedded_preset("laws/holistic.toml"));
  const std::string from = "[1e20, 22.0], [3e20, 22.0]]";
  text.replace(text.find(from), from.size(), "[1e20, 25.0], [3e20, 25.0]]");
  const auto path = temp_path("laws.toml");
  std::ofstream(path) << text;
  const Run shifted = run_moeplan({"suggest", "--no-bench", "--flops", "1e20", "--candidates", "0", "--format", "toml", "--laws", path.string()});
  REQUIRE(shifted.code == 0);
  const toml::table doc = toml::parse(shifted.out);
  CHECK(doc["targets"]["n_over_na"].value<double>() == 25.0);
  CHECK(doc["provenance"]["laws_source"].value<std::string>() == path.string());

  // A file with only [n_over_na] overlays that section; the report names both sources.
  std::ofstream(path) << "schema = \"moeplan-laws/1\"\nname = \"mine\"\n[n_over_na]\n"
                         "schedule = [[1e18, 25.0]]\n";
  const Run partial = run_moeplan(
      {"suggest", "--no-bench", "--flops", "1e20", "--format", "toml", "--candidates", "0", "--laws", path.string()});
  REQUIRE(partial.code == 0);
  const toml::table pdoc = toml::parse(partial.out);
  CHECK(pdoc["targets"]["n_over_na"].value<double>() == 25.0);
  CHECK(pdoc["provenance"]["laws_source"].value<std::string>() ==
        "<embedded:laws/holistic.toml> + " + path.string());
  std::filesystem::remove(path);
}

TEST_CASE("score: presets side by side, json array") {
  const Run two = run_moeplan({"score", "deepseek-v3.1", "moe-mini", "--format", "json"});
  REQUIRE(two.code == 0);
  CHECK(two.out.front() == '[');
  CHECK(two.out.find("\"name\": \"DeepSeek-V3.1\"") != std::string::npos);
  CHECK(two.out.find("\"name\": \"MoE-mini\"") != std::string::npos);
  CHECK(two.out.find("\"convention\": \"holistic-002\"") != std::string::npos);

  const Run csv = run_moeplan({"score", "qwen3-30b-a3b", "glm-4.5", "--format", "csv"});
  REQUIRE(csv.code == 0);
  CHECK(std::count(csv.out.begin(), csv.out.end(), '\n') == 3);  // header + 2 rows

  const Run missing = run_moeplan({"score"});
  CHECK(missing.code == 2);
}

TEST_CASE("suggest ranks candidates and --candidates 0 prints the pipeline optimum deterministically") {
  const Run ranked = run_moeplan({"suggest", "--no-bench", "--flops", "3e20", "--format", "toml", "--candidates", "3"});
  const Run again = run_moeplan({"suggest", "--no-bench", "--flops", "3e20", "--format", "toml", "--candidates", "3"});
  REQUIRE(ranked.code == 0);
  CHECK(ranked.out == again.out);
  const toml::table doc = toml::parse(ranked.out);
  CHECK(doc["ranking"]["candidates_scored"].value<int64_t>().value_or(0) >= 3);
  REQUIRE(doc["candidates"].is_array_of_tables());
  CHECK(doc["candidates"].as_array()->size() == 3);
  // The winner is candidate 1, and the report's config is the winner's.
  CHECK(doc["candidates"][0]["hidden_size"].value<int64_t>() == doc["config"]["hidden_size"].value<int64_t>());
  CHECK(doc["candidates"][0]["delta_loss"].value<double>() == 0.0);

  const Run plain = run_moeplan({"suggest", "--no-bench", "--flops", "3e20", "--format", "toml", "--candidates", "0"});
  REQUIRE(plain.code == 0);
  const toml::table p = toml::parse(plain.out);
  // --candidates 0: the ranking section says the plan is unranked (the same keys in every mode).
  CHECK(p["ranking"]["candidates_scored"].value<int64_t>() == 1);
  CHECK(p["ranking"]["variant"].value<std::string>() == "pipeline optimum");
  CHECK_FALSE(p["candidates"]);
  auto core = moeplan::suggest(moeplan::builtin_holistic_laws(), {.goal = {.compute = moeplan::Flops(3e20)}});
  REQUIRE(core.has_value());
  CHECK(p["config"]["hidden_size"].value<int64_t>() == core->solution.arch.d);
}

TEST_CASE("suggest goals: --flops alone prints no goal or price, other goals print both, the old --tokens says where it went") {
  const Run plain = run_moeplan({"suggest", "--flops", "1e22", "--no-bench", "--format", "json"});
  REQUIRE(plain.code == 0);
  CHECK(plain.out.find("\"goal\"") == std::string::npos);
  CHECK(plain.out.find("\"price\"") == std::string::npos);
  for (const std::vector<std::string>& goal :
       {std::vector<std::string>{"--tokens", "15e12", "--active-params", "37e9"},
        std::vector<std::string>{"--flops", "3e24", "--tokens", "15e12"},
        std::vector<std::string>{"--flops", "1e23", "--total-params", "30e9"},
        std::vector<std::string>{"--flops", "3e24", "--inference-tokens", "1e13"}}) {
    std::vector<std::string> args{"suggest", "--no-bench", "--format", "json"};
    args.insert(args.end(), goal.begin(), goal.end());
    CAPTURE(fmt_args(args));
    const Run r = run_moeplan(args);
    REQUIRE_MESSAGE(r.code == 0, r.err);
    CHECK(r.out.find("\"goal\": {") != std::string::npos);
    CHECK(r.out.find("\"price\": {") != std::string::npos);
    CHECK(r.out.find("\"overhead\": ") != std::string::npos);
  }
  const Run old = run_moeplan({"suggest", "--flops", "1e22", "--tokens", "8192"});
  CHECK(old.code == 2);
  CHECK(old.out.empty());
  CHECK(old.err.find("--micro-batch-tokens") != std::string::npos);
  const Run over = run_moeplan({"suggest", "--flops", "1e22", "--tokens", "1e11", "--active-params", "1e9"});
  CHECK(over.code == 2);
  CHECK(over.err.find("over-determined") != std::string::npos);
}
