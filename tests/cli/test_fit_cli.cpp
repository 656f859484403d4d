// `moeplan fit` as a user drives it: bad inputs and their exit codes, the paper 003 run
// tables, --out feeding suggest, determinism, streams.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "cli_run.hpp"
#include "moeplan/laws/laws_loader.hpp"

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  const auto path = temp_path(name);
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

toml::table parse_toml(const std::string& text) {
  try {
    return toml::parse(text);
  } catch (const toml::parse_error& e) {
    FAIL("not TOML: " << e.what() << "\n" << text);
  }
  return {};
}

double number_at(const toml::table& t, const char* section, const char* key) {
  const auto v = t[section][key].value<double>();
  REQUIRE_MESSAGE(v.has_value(), section << "." << key);
  return *v;
}

// Noise-free Chinchilla runs for given exponents (Hoffmann et al. 2022 Eq. 10 otherwise).
std::string chinchilla_runs(double alpha, double beta) {
  std::string s = "N,D,loss\n";
  for (double N : {1e8, 3e8, 1e9, 3e9, 1e10}) {
    for (double D : {1e10, 3e10, 1e11, 3e11, 1e12}) {
      s += fmt::format("{:.17g},{:.17g},{:.17g}\n", N, D,
                       1.69 + 406.4 * std::pow(N, -alpha) + 410.7 * std::pow(D, -beta));
    }
  }
  return s;
}

}  // namespace

TEST_CASE("fit: every bad input exits 4 with the place and reason, and writes nothing") {
  const std::string out = temp_path("never.toml").string();
  std::filesystem::remove(out);
  const auto expect = [&](const std::string& name, const std::string& text, const std::string& message) {
    const std::string path = write_temp(name, text);
    const Run r = run_moeplan({"fit", path, "--law", "chinchilla", "--out", out});
    INFO(r.err);
    CHECK(r.code == 4);
    CHECK(r.out.empty());
    CHECK(r.err.find(message) != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(out));
  };
  expect("empty.csv", "", "empty.csv: empty file: expected a header row");
  expect("header.csv", "N,D,loss\n", "header.csv: no data rows after the header");
  expect("one.csv", "N,D,loss\n1e8,1e10,3\n",
         "cannot fit law 'chinchilla': law 'chinchilla' has 5 coefficients; 1 training row(s)");
  expect("nan.csv", "N,D,loss\n1e8,1e10,nan\n", "nan.csv:2:10: loss: must be finite, got 'nan'");
  expect("word.csv", "N,D,loss\n1e8,ten,3\n", "word.csv:2:5: D: not a number: 'ten'");
  expect("negative.csv", "D,N,loss\n1e10,-1e8,3\n", "negative.csv:2:6: N: must be positive, got -1e8");
  expect("missing.csv", "N,loss\n1e8,3\n", "missing.csv:1: missing column 'D' (training tokens)");
  expect("dup.csv", "N,D,D,loss\n1,2,3,4\n", "dup.csv:1:5: D: duplicate column (also column 2)");
  expect("ragged.csv", "N,D,loss\n1e8,1e10\n", "ragged.csv:2: row has 2 fields but the header has 3");
  const Run nofile = run_moeplan({"fit", "/nonexistent.csv"});
  CHECK(nofile.code == 4);
  CHECK(nofile.err.find("/nonexistent.csv: cannot open file") != std::string::npos);
  const Run badflag = run_moeplan({"fit", "x.csv", "--law", "nonsense"});
  CHECK(badflag.code == 2);
  const Run nolaw = run_moeplan({"fit", write_temp("nolaw.csv", "x,y\n1,2\n")});
  CHECK(nolaw.code == 4);
  CHECK(nolaw.err.find("no law matches these columns") != std::string::npos);
}

TEST_CASE("fit: paper 003's run tables (Tables 8-16), Eq. 7 in BPC, optimum in 15-48 %" * doctest::test_suite("slow")) {
  // The fixture's loss column is BPC; Eq. 7 is fitted to it (docs/fit.md "Real data").
  const Run r = run_moeplan({"fit", MOEPLAN_TEST_DATA_DIR "/moe_vs_dense_runs.csv", "--law", "activation",
                             "--column", "loss=BPC", "--format", "toml", "-q"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const toml::table t = parse_toml(r.out);
  CHECK(*t["fit"]["rows"].value<std::int64_t>() == 80);
  const double r2 = number_at(t, "quality", "r2");
  CHECK(r2 > 0.5);
  CHECK(number_at(t, "quality", "rmse") < number_at(t, "quality", "constant_model_rmse"));
  // Paper 003: MoE beats dense at equal N and C for activation rates in about 15-48 %.
  const double ratio = number_at(t, "derived", "optimal_active_ratio_equal_compute");
  CHECK(ratio >= 0.15);
  CHECK(ratio <= 0.48);
  // At fixed D the fitted h cannot stop the loss falling towards dense: no number (issue
  // 22 saw "n/a (nan)"), a reason instead.
  CHECK_FALSE(t["derived"]["optimal_active_ratio"].is_value());
  const auto why = t["derived"]["optimal_active_ratio_reason"].value<std::string>();
  REQUIRE(why.has_value());
  CHECK(why->find("no optimum at fixed D") != std::string::npos);
}

TEST_CASE("fit --out writes a laws file that loads, with provenance") {
  const std::string runs = write_temp("chin.csv", chinchilla_runs(0.34, 0.28));
  const std::string laws = temp_path("chin-laws.toml").string();
  const Run r = run_moeplan({"fit", runs, "--out", laws, "--starts", "60", "-q"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const toml::table t = toml::parse_file(laws);
  CHECK(*t["schema"].value<std::string>() == "moeplan-laws/1");
  CHECK(*t["provenance"]["rows"].value<std::int64_t>() == 25);
  CHECK(t["provenance"]["input_md5"].value<std::string>()->size() == 32);
  CHECK(*t["provenance"]["law"].value<std::string>() == "chinchilla");
  CHECK(t["provenance"]["date"].value<std::string>().has_value());
  auto loaded = moeplan::load_laws_file(laws, moeplan::builtin_laws());
  REQUIRE_MESSAGE(loaded.has_value(), loaded.error().to_string());
  CHECK(loaded->source_of("compute_optimal") == laws);
  CHECK(loaded->source_of("joint_loss") != laws);  // only the fitted section is replaced
  // Laws without a planner section refuse --out instead of writing an empty file.
  const Run act = run_moeplan({"fit", MOEPLAN_TEST_DATA_DIR "/moe_vs_dense_runs.csv", "--law",
                               "activation", "--column", "loss=BPC", "--out",
                               temp_path("act.toml").string(), "-q"});
  CHECK(act.code == 2);
  CHECK_FALSE(std::filesystem::exists(temp_path("act.toml")));
}

TEST_CASE("suggest --laws with a fitted file follows the shifted coefficient") {
  // The same sweep with the N exponent lowered from 0.34 to 0.28: parameters pay off more
  // slowly, so Chinchilla's allocation a = β/(α+β) rises from 0.452 to 0.5 and the
  // compute-optimal M at 1e22 must rise — to exactly what the true law gives.
  const auto m_opt_with = [](double alpha) {
    const std::string runs = write_temp(fmt::format("shift-{}.csv", alpha), chinchilla_runs(alpha, 0.28));
    const std::string laws = temp_path(fmt::format("shift-{}.toml", alpha)).string();
    const Run f = run_moeplan({"fit", runs, "--law", "chinchilla", "--out", laws, "--starts", "60", "-q"});
    REQUIRE_MESSAGE(f.code == 0, f.err);
    const Run s = run_moeplan({"suggest", "--no-bench", "--flops", "1e22", "--laws", laws, "--format", "toml"});
    REQUIRE_MESSAGE(s.code == 0, s.err);
    return number_at(parse_toml(s.out), "budget", "flops_per_token_opt");
  };
  const auto truth = [](double alpha, double beta) {
    const double a = beta / (alpha + beta);
    const double G = std::pow(alpha * 406.4 / (beta * 410.7), 1 / (alpha + beta));
    return 6 * G * std::pow(1e22 / 6, a);
  };
  const double base = m_opt_with(0.34);
  const double shifted = m_opt_with(0.28);
  CHECK(base == doctest::Approx(truth(0.34, 0.28)).epsilon(1e-3));
  CHECK(shifted == doctest::Approx(truth(0.28, 0.28)).epsilon(1e-3));
  CHECK(shifted > 1.5 * base);
  const Run preset = run_moeplan({"suggest", "--no-bench", "--flops", "1e22", "--format", "toml"});
  CHECK(number_at(parse_toml(preset.out), "budget", "flops_per_token_opt") != doctest::Approx(shifted));
}

TEST_CASE("fit: same input and seed give byte-identical stdout with notes on stderr") {
  const std::string runs = write_temp("det.csv", chinchilla_runs(0.34, 0.28));
  const std::vector<std::string> args{"fit", runs, "--starts", "30", "--holdout", "0.2",
                                      "--bootstrap", "10", "--seed", "5", "--format", "json"};
  const Run a = run_moeplan(args);
  const Run b = run_moeplan(args);
  REQUIRE(a.code == 0);
  CHECK(a.out == b.out);
  CHECK(a.err.find("law 'chinchilla' chosen from the columns") != std::string::npos);
  CHECK(a.err.find('\r') == std::string::npos);  // no progress bar into a pipe
  CHECK(a.out.find("\"validation\": {") != std::string::npos);  // its own section
  CHECK(a.out.find("\"validation_rmse\"") == std::string::npos);
  CHECK(a.out.find("the best 30 of") != std::string::npos);       // method says --starts
  CHECK(a.out.find("\"coefficients_low\"") != std::string::npos);
}

TEST_CASE("fit --residuals writes one CSV row per run") {
  const std::string runs = write_temp("res.csv", "# comment\n" + chinchilla_runs(0.34, 0.28));
  const std::string res = temp_path("res-out.csv").string();
  const Run r = run_moeplan({"fit", runs, "--starts", "20", "--residuals", res, "-q"});
  REQUIRE(r.code == 0);
  std::ifstream in(res);
  std::string header, first;
  std::getline(in, header);
  std::getline(in, first);
  CHECK(header == "line,split,group,observed,predicted,residual,relative_residual");
  CHECK(first.rfind("3,train,,", 0) == 0);  // line 3: after the comment and the header
}

TEST_CASE("fit reads 10^6 runs and fits them in bounded memory" * doctest::test_suite("slow")) {
  // Behaviour, not speed (bench/ has the timings): the iteration cap keeps this quick
  // under the sanitizers.
  const auto path = temp_path("million.csv");
  {
    std::ofstream out(path);
    out << "N,D,loss\n";
    for (int i = 0; i < 1'000'000; ++i) {
      const double N = 1e8 * std::pow(100.0, (i % 1000) / 999.0);
      const double D = 1e10 * std::pow(100.0, (i / 1000) / 999.0);
      out << fmt::format("{:.8g},{:.8g},{:.8g}\n", N, D,
                         1.69 + 406.4 * std::pow(N, -0.34) + 410.7 * std::pow(D, -0.28));
    }
  }
  const Run r = run_moeplan({"fit", path.string(), "--starts", "1", "--max-iterations", "100",
                             "--format", "toml", "-q"});
  std::filesystem::remove(path);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const toml::table t = parse_toml(r.out);
  CHECK(*t["fit"]["rows"].value<std::int64_t>() == 1'000'000);
  CHECK(number_at(t, "coefficients", "alpha") == doctest::Approx(0.34).epsilon(1e-2));
}

TEST_CASE("fit --objective huber-nll: with a large delta it is Gaussian NLL, so its optimum is least squares'" * doctest::test_suite("slow")) {
  // With every residual inside δ·σ, min_σ Σ(r/σ)²/2 + n log σ = n/2 + (n/2) log(Σr²/n):
  // the same θ as least squares, which plain Huber with a large δ also minimises.
  const std::string runs = write_temp("nll.csv", chinchilla_runs(0.34, 0.28));
  const Run ls = run_moeplan({"fit", runs, "--objective", "huber", "--huber-delta", "10", "--format", "json"});
  const Run nll = run_moeplan({"fit", runs, "--objective", "huber-nll", "--huber-delta", "1000", "--format", "json"});
  REQUIRE(ls.code == 0);
  REQUIRE(nll.code == 0);
  const auto a = nlohmann::json::parse(ls.out)["coefficients"];
  const auto b = nlohmann::json::parse(nll.out)["coefficients"];
  for (const char* k : {"A", "alpha", "B", "beta", "E"}) {
    CAPTURE(k);
    CHECK(b[k].get<double>() == doctest::Approx(a[k].get<double>()).epsilon(1e-3));
  }
  CHECK(nll.out.find("negative log-likelihood with a fitted scale") != std::string::npos);
  CHECK(run_moeplan({"fit", runs, "--objective", "bogus"}).code == 2);
}

TEST_CASE("fit's CSV header is the same with and without warnings (review of issue 22)") {
  const std::string runs = write_temp("chin-header.csv", chinchilla_runs(0.34, 0.28));
  const Run quiet = run_moeplan({"fit", runs, "--starts", "60", "--format", "csv", "-q"});
  const Run capped = run_moeplan({"fit", runs, "--starts", "60", "--max-iterations", "2", "--format", "csv", "-q"});
  REQUIRE(quiet.code == 0);
  REQUIRE(capped.code == 0);
  const auto header = [](const std::string& csv) { return csv.substr(0, csv.find('\n')); };
  CHECK(header(quiet.out) == header(capped.out));
  CHECK(header(quiet.out).find("warnings.messages") != std::string::npos);
  // The capped run did warn: its cell is not empty where the quiet one's is.
  CHECK(capped.out.find("iteration cap") != std::string::npos);
}
