// Budget sweeps (issue 22, item 11): a budget without a plan gets a row saying why instead of
// aborting the sweep, and every budget prints in the shortest form that reads back to it.
#include <doctest/doctest.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include "cli_run.hpp"
#include "moeplan/base/number_parse.hpp"

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}


}  // namespace

// 1e15 and 3.16e15 leave no room for one attention layer, 1e16 misses M by 10 %: the rest
// of the sweep has plans.
const std::vector<std::string> k_sweep{"suggest", "--flops", "1e15:1e25:0.5", "--no-bench"};

TEST_CASE("a sweep keeps going past a budget without a plan: JSON rows with null fields and a reason") {
  std::vector<std::string> args = k_sweep;
  args.insert(args.end(), {"--format", "json"});
  const Run r = run_moeplan(args);
  CHECK(r.code == 3);  // some failed
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  REQUIRE(doc.is_array());
  REQUIRE(doc.size() == 21);
  std::size_t without = 0;
  for (const nlohmann::json& plan : doc) {
    CAPTURE(plan["budget"]["compute"].get<double>());
    REQUIRE(plan["budget"]["feasible"].is_boolean());
    REQUIRE(plan["budget"]["reason"].is_string());
    REQUIRE(plan.contains("config"));  // the same sections in every row
    if (plan["budget"]["feasible"].get<bool>()) {
      CHECK(plan["budget"]["reason"].get<std::string>().empty());
      CHECK(plan["config"]["hidden_size"].is_number_integer());
    } else {
      ++without;
      CHECK_FALSE(plan["budget"]["reason"].get<std::string>().empty());
      CHECK(plan["config"]["hidden_size"].is_null());
      CHECK(plan["accounting"]["N_nonembedding_total"].is_null());
    }
  }
  CHECK(without == 3);
  CHECK(doc[0]["budget"]["compute"].get<double>() == 1e15);
  CHECK(doc[0]["budget"]["reason"].get<std::string>().find("L >= 1") != std::string::npos);
  CHECK(doc[20]["budget"]["feasible"].get<bool>());
  // stderr lists which budgets have no plan.
  CHECK(r.err.find("3 of 21 budgets have no plan: 1e+15, 3.16228e+15, 1e+16") != std::string::npos);
}

TEST_CASE("a sweep's CSV has a reason column and empty cells for a budget without a plan") {
  std::vector<std::string> args = k_sweep;
  args.insert(args.end(), {"--format", "csv"});
  const Run r = run_moeplan(args);
  CHECK(r.code == 3);
  const std::vector<std::string> rows = lines_of(r.out);
  REQUIRE(rows.size() == 22);  // header + 21 budgets
  const std::vector<std::string> header = cells(rows[0]);
  const auto column = [&](const std::string& key) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), key) - header.begin());
  };
  const std::size_t reason = column("budget.reason"), feasible = column("budget.feasible"),
                    d = column("config.hidden_size");
  REQUIRE(reason < header.size());
  REQUIRE(d < header.size());
  const std::vector<std::string> first = cells(rows[1]), last = cells(rows[21]);
  CHECK(first.size() == header.size());
  CHECK(first[feasible] == "false");
  CHECK(first[reason].find("L >= 1") != std::string::npos);
  CHECK(first[d].empty());
  CHECK(last[feasible] == "true");
  CHECK(last[reason].empty());
  CHECK_FALSE(last[d].empty());
  // An all-feasible sweep has the same header: files of several sweeps concatenate.
  const Run ok = run_moeplan({"suggest", "--flops", "1e20,1e21", "--no-bench", "--format", "csv"});
  CHECK(ok.code == 0);
  CHECK(lines_of(ok.out)[0] == rows[0]);
}

TEST_CASE("a sweep's table and TOML say why a budget has no plan") {
  const Run table = run_moeplan(k_sweep);
  CHECK(table.code == 3);
  const std::vector<std::string> rows = lines_of(table.out);
  REQUIRE(rows.size() == 22);
  CHECK(rows[1].find("1e+15 no plan: L >= 1") != std::string::npos);
  CHECK(rows[3].find("1e+16 no plan: |M/M_target - 1| <= 0.05") != std::string::npos);
  CHECK(rows[4].find("no plan") == std::string::npos);
  std::vector<std::string> args = k_sweep;
  args.insert(args.end(), {"--format", "toml"});
  const Run toml_run = run_moeplan(args);
  CHECK(toml_run.code == 3);
  const toml::table doc = toml::parse(toml_run.out);
  const toml::array* plans = doc["plans"].as_array();
  REQUIRE(plans != nullptr);
  REQUIRE(plans->size() == 21);
  const toml::table& first = *plans->get(0)->as_table();
  CHECK(first["budget"]["feasible"].value<bool>() == false);
  CHECK_FALSE(first["config"]);  // TOML has no null: absent
}

TEST_CASE("sweep points are short and exact: 1e+23, not 1.0000000000000001e+23") {
  const auto budgets = moeplan::parse_budget_list("1e15:1e25:0.5").value();
  REQUIRE(budgets.size() == 21);
  for (std::size_t k = 0; k < budgets.size(); ++k) {
    CAPTURE(k);
    const std::string text = moeplan::shortest_scientific(budgets[k]);
    CHECK(text.size() <= std::string("3.16228e+15").size());
    if (k % 2 == 0) {  // the double nearest 10^n, as "1eN" reads
      const std::string decade = "1e" + std::to_string(15 + k / 2);
      CHECK(budgets[k] == std::strtod(decade.c_str(), nullptr));
    }
  }
  // A step too fine for 6 digits keeps its points apart with more.
  const auto fine = moeplan::parse_budget_list("1e20:1.00001e20:0.0000001").value();
  REQUIRE(fine.size() >= 2);
  CHECK(std::adjacent_find(fine.begin(), fine.end(), [](double a, double b) { return a >= b; }) == fine.end());
}

TEST_CASE("a budget printed in a sweep reads back to the same plan") {
  const Run sweep = run_moeplan({"suggest", "--flops", "1e20:1e21:0.5", "--no-bench", "--format", "json"});
  REQUIRE(sweep.code == 0);
  CHECK(sweep.out.find("0000000001") == std::string::npos);
  const nlohmann::json plans = nlohmann::json::parse(sweep.out);
  const nlohmann::json& middle = plans.at(1);
  const Run table = run_moeplan({"suggest", "--flops", "1e20:1e21:0.5", "--no-bench"});
  const std::string printed = "3.16228e+20";
  CHECK(table.out.find(printed) != std::string::npos);
  const Run again = run_moeplan({"suggest", "--flops", printed, "--no-bench", "--format", "json"});
  REQUIRE(again.code == 0);
  const nlohmann::json single = nlohmann::json::parse(again.out);
  CHECK(single["budget"]["compute"] == middle["budget"]["compute"]);
  CHECK(single["config"] == middle["config"]);
}

TEST_CASE("a budget the user gave prints in full in tables and exported names") {
  const Run compact = run_moeplan({"suggest", "--flops", "1.2345678e22", "--no-bench"});
  REQUIRE(compact.code == 0);
  CHECK(compact.out.find("Plan for C = 1.2345678e+22 FLOPs") != std::string::npos);
  const Run full = run_moeplan({"suggest", "--flops", "1.2345678e22", "--no-bench", "--full"});
  CHECK(full.out.find("1.2345678e+22") != std::string::npos);
  const Run emitted = run_moeplan({"suggest", "--flops", "1.2345678e22", "--emit", "toml"});
  REQUIRE(emitted.code == 0);
  CHECK(emitted.out.find("moeplan-suggest-1.2345678e+22") != std::string::npos);
}
