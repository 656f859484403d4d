// Determinism (issue 7): the same inputs give byte-identical stdout, run after run, and
// every data format carries the same values. Timings are the one exception, and
// `--no-bench` excludes them; fits are deterministic with --seed.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <toml++/toml.h>

#include "cli_run.hpp"

namespace {

/// section.key → value as text, from each format.
using Flat = std::map<std::string, std::string>;

std::string text_of(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  std::ostringstream o;
  o.precision(17);
  o << v.get<double>();
  return o.str();
}

Flat from_json(const std::string& s) {
  Flat f;
  const nlohmann::json doc = nlohmann::json::parse(s);  // named: items() must not outlive it
  for (const auto& [sec, fields] : doc.items()) {
    if (fields.is_array()) {  // an array of sections: CSV's flat form is SECTION.N.KEY
      for (std::size_t n = 0; n < fields.size(); ++n) {
        for (const auto& [key, v] : fields[n].items()) f[fmt::format("{}.{}.{}", sec, n + 1, key)] = text_of(v);
      }
      continue;
    }
    for (const auto& [key, v] : fields.items()) f[sec + "." + key] = text_of(v);
  }
  return f;
}

Flat from_toml(const std::string& s) {
  Flat f;
  const toml::table doc = toml::parse(s);
  // [[SECTION]] arrays of tables flatten as CSV does: SECTION.N.KEY.
  std::vector<std::pair<std::string, const toml::table*>> tables;
  for (const auto& [sec, node] : doc) {
    if (const toml::array* items = node.as_array()) {
      for (std::size_t n = 0; n < items->size(); ++n) {
        tables.emplace_back(fmt::format("{}.{}", sec.str(), n + 1), items->get(n)->as_table());
      }
    } else {
      tables.emplace_back(std::string(sec.str()), node.as_table());
    }
  }
  for (const auto& [sec, table] : tables) {
    for (const auto& [key, v] : *table) {
      std::string t;
      if (auto x = v.value<std::string>(); x && v.is_string()) t = *x;
      else if (v.is_boolean()) t = *v.value<bool>() ? "true" : "false";
      else if (v.is_integer()) t = std::to_string(*v.value<long long>());
      else {
        std::ostringstream o;
        o.precision(17);
        o << *v.value<double>();
        t = o.str();
      }
      f[sec + "." + std::string(key.str())] = t;
    }
  }
  return f;
}

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') cell += '"', ++i;
      else if (c == '"') quoted = false;
      else cell += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      cells.push_back(cell), cell.clear();
    } else {
      cell += c;
    }
  }
  cells.push_back(cell);
  return cells;
}

Flat from_csv(const std::string& s) {
  std::istringstream in(s);
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  const auto keys = split_csv_line(header), values = split_csv_line(row);
  REQUIRE(keys.size() == values.size());
  Flat f;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    // Numbers are compared as doubles: CSV and JSON print the shortest round-trip text.
    std::string v = values[i];
    char* end = nullptr;
    const double x = std::strtod(v.c_str(), &end);
    if (!v.empty() && end == v.c_str() + v.size() && v.find_first_not_of("0123456789-") != std::string::npos) {
      std::ostringstream o;
      o.precision(17);
      o << x;
      v = o.str();
    }
    f[keys[i]] = v;
  }
  return f;
}

}  // namespace

TEST_CASE("suggest --no-bench: byte-identical stdout run after run, in every format") {
  for (const char* format : {"table", "json", "toml", "csv"}) {
    CAPTURE(format);
    const std::vector<std::string> args{"suggest", "--flops", "3e21", "--no-bench", "--format", format, "--full"};
    const Run a = run_moeplan(args), b = run_moeplan(args);
    REQUIRE(a.code == 0);
    CHECK(a.out == b.out);
    CHECK(a.err == b.err);
  }
}

TEST_CASE("suggest: json, toml and csv carry the same values") {
  const auto run = [](const char* format) {
    const Run r = run_moeplan({"suggest", "--flops", "3e21", "--no-bench", "--format", format});
    REQUIRE(r.code == 0);
    return r.out;
  };
  const Flat json = from_json(run("json")), toml = from_toml(run("toml")), csv = from_csv(run("csv"));
  CHECK(json.size() > 60);
  CHECK(json == toml);
  CHECK(json == csv);
}

TEST_CASE("score and a seeded fit: byte-identical stdout run after run" * doctest::test_suite("slow")) {
  const std::vector<std::string> score{"score", "deepseek-v3.1", "moe-mini", "--format", "json"};
  CHECK(run_moeplan(score).out == run_moeplan(score).out);
  const std::vector<std::string> fit{"fit", MOEPLAN_TEST_DATA_DIR "/moe_vs_dense_runs.csv",
                                     "--law", "activation", "--column", "loss=BPC",
                                     "--bootstrap", "8", "--seed", "11", "--format", "json", "-q"};
  const Run a = run_moeplan(fit), b = run_moeplan(fit);
  REQUIRE(a.code == 0);
  CHECK(a.out == b.out);
  CHECK(a.out.find("_low") != std::string::npos);  // the bootstrap intervals are in it
}

TEST_CASE("the benchmark is the one source of run-to-run change, and --no-bench removes it") {
  const std::vector<std::string> timed{"suggest", "--flops", "1e20", "--format", "json",
                                       "--bench-seconds", "0.2", "--micro-batch-tokens", "512", "--no-gpu"};
  const Run a = run_moeplan(timed);
  REQUIRE(a.code == 0);
  const Run plain = run_moeplan({"suggest", "--flops", "1e20", "--format", "json", "--no-bench"});
  // Every section without timings is identical to the --no-bench run's.
  const auto ja = nlohmann::json::parse(a.out), jp = nlohmann::json::parse(plain.out);
  for (const auto& [sec, fields] : jp.items()) {
    CAPTURE(sec);
    CHECK(ja.at(sec) == fields);
  }
  for (const auto& [sec, fields] : ja.items()) {
    if (!jp.contains(sec)) CHECK((sec == "gemm" || sec.rfind("cpu_", 0) == 0));
  }
}
