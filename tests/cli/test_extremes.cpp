// Extremes (issue 7): every budget from 1e15 to 1e30 FLOPs in half-decade steps, and odd
// overrides, either give a feasible config or exit 3 naming the constraint — never a crash,
// a NaN/inf, or a config that breaks its own constraints.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "cli_run.hpp"

namespace {

/// A printed NaN or infinity as a word ("nan", "-inf", "Infinity"), not "infeasible".
bool has_non_finite(const std::string& s) {
  static const std::regex word(R"((^|[^A-Za-z_])[-+]?(nan|inf|infinity)([^A-Za-z_]|$))",
                               std::regex::icase);
  return std::regex_search(s, word);
}

/// The printed config meets what paper 002 requires of it (Eq. 3, Eq. 5) and what the
/// flags asked for.
void check_feasible(const std::string& json_text) {
  const nlohmann::json j = nlohmann::json::parse(json_text);
  const auto& c = j.at("config");
  const auto& a = j.at("accounting");
  const auto& p = j.at("provenance");
  const int L = c.at("num_layers"), Ld = c.at("num_dense_layers"), Lm = c.at("num_moe_layers");
  const int d = c.at("hidden_size"), dm = c.at("expert_ffn_size"), align = p.at("alignment");
  const int Ne = c.at("num_experts"), K = c.at("top_k"), s = c.at("num_shared_experts");
  CHECK(L == Ld + Lm);
  CHECK(Ld >= 0);
  CHECK(Lm >= 1);
  CHECK(d > 0);
  CHECK(dm > 0);
  CHECK(d % align == 0);
  CHECK(dm % align == 0);
  CHECK(K >= 1);
  CHECK(K <= Ne);
  const double tol = p.at("tolerance");
  for (const char* miss : {"error_flops_per_token", "error_active_params", "error_total_params"}) {
    CAPTURE(miss);
    CHECK(std::abs(a.at(miss).get<double>()) <= tol + 1e-12);
  }
  const double m_over_na = a.at("m_over_na"), n_over_na = a.at("n_over_na");
  CHECK(m_over_na > 6);  // Eq. 5: attention scores make M exceed 6 N_a
  CHECK(n_over_na >= 1);
  CHECK(n_over_na <= double(Ne + s) / double(K + s) + 1e-9);  // Eq. 5 upper bound
  CHECK(j.at("budget").at("tokens").get<double>() > 0);
}

void check_run(const std::vector<std::string>& args) {
  CAPTURE(fmt_args(args));
  const Run r = run_moeplan(args);
  CHECK((r.code == 0 || r.code == 3));
  CHECK_FALSE(has_non_finite(r.out));
  CHECK_FALSE(has_non_finite(r.err));
  if (r.code == 0) {
    check_feasible(r.out);
  } else if (r.code == 3) {
    CHECK(r.out.empty());
    // "moeplan: error: infeasible: <constraint>: <by how much>"
    CHECK(r.err.find("moeplan: error: infeasible: ") != std::string::npos);
    CHECK(r.err.find(": ", r.err.find("infeasible: ") + 12) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("the non-finite detector sees nan and inf as words only") {
  CHECK(has_non_finite("\"x\": nan,"));
  CHECK(has_non_finite("d = -inf"));
  CHECK(has_non_finite("Infinity"));
  CHECK_FALSE(has_non_finite("infeasible: provenance"));
}

TEST_CASE("suggest from 1e15 to 1e30 FLOPs in half-decade steps" * doctest::test_suite("slow")) {
  int feasible = 0;
  for (int i = 0; i <= 30; ++i) {
    const std::string C = fmt_flops(15 + 0.5 * i);
    const std::vector<std::string> args{"suggest", "--flops", C, "--no-bench", "--format", "json"};
    check_run(args);
    feasible += run_moeplan(args).code == 0;
  }
  CHECK(feasible >= 20);  // the paper's range and well beyond it must plan
}

TEST_CASE("suggest with odd overrides: N_e = 2, K = N_e - 1, S = 128 or 1e6, alignment 1 or 256") {
  const std::vector<std::vector<std::string>> overrides{
      {"--experts", "2", "--top-k", "1"},
      {"--experts", "2", "--top-k", "1", "--shared-experts", "0"},
      {"--experts", "64", "--top-k", "63"},
      {"--experts", "288", "--top-k", "287"},
      {"--seq-len", "128"},
      {"--seq-len", "1000000"},
      {"--align", "1"},
      {"--align", "256"},
      {"--experts", "2", "--top-k", "1", "--seq-len", "1000000", "--align", "256"},
  };
  for (const char* C : {"1e15", "1e18", "1e21", "1e24", "1e27", "1e30"}) {
    for (const auto& o : overrides) {
      std::vector<std::string> args{"suggest", "--flops", C, "--no-bench", "--format", "json", "--candidates", "0"};
      args.insert(args.end(), o.begin(), o.end());
      check_run(args);
    }
  }
  // The ranking explores around the optimum; it must hold the same promises.
  for (const auto& o : overrides) {
    std::vector<std::string> args{"suggest", "--flops", "1e21", "--no-bench", "--format", "json"};
    args.insert(args.end(), o.begin(), o.end());
    check_run(args);
  }
}

// Issue 32 (item 1, 9): figures that overflow are refused with the limit named; legal figures
// no law describes are warned about.
TEST_CASE("a training run past 2^53 optimizer steps is refused, never negative days") {
  const Run r = run_moeplan({"suggest", "--tokens", "1e35", "--active-params", "37e9", "--gpus", "2048",
                             "--gpu", "h100", "--no-bench", "--format", "json"});
  CHECK(r.code == 3);
  CHECK(r.out.empty());
  CHECK(r.err.find("2^53") != std::string::npos);
  // Below the limit the days are a positive number.
  const Run ok = run_moeplan({"suggest", "--tokens", "1e16", "--active-params", "37e9", "--gpus", "2048",
                              "--gpu", "h100", "--no-bench", "--format", "json"});
  REQUIRE(ok.code == 0);
  CHECK(nlohmann::json::parse(ok.out).at("step_time").at("days").get<double>() > 0);
}

TEST_CASE("a training run of more than ten years on the cluster is warned about") {
  const Run r = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "64", "--gpu", "h100", "--tokens", "1e15"});
  CAPTURE(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.err.find("more than ten years") != std::string::npos);
  const Run ok = run_moeplan({"suggest", "--flops", "1e22", "--gpus", "64", "--gpu", "h100", "--no-bench"});
  CHECK(ok.err.find("more than ten years") == std::string::npos);
}

TEST_CASE("score: a budget whose C = M D overflows is refused, not printed as n/a (inf)") {
  const Run r = run_moeplan({"score", "qwen3-30b-a3b", "--tokens", "1e300"});
  CHECK(r.code == 3);
  CHECK(r.out.empty());
  CHECK(r.err.find("C = M D = inf") != std::string::npos);
  CHECK_FALSE(has_non_finite(r.out));
}

TEST_CASE("tokens per active parameter beyond any published training are warned about") {
  const Run r = run_moeplan({"suggest", "--tokens", "1e20", "--active-params", "1e9", "--no-bench"});
  CHECK(r.code == 0);
  CHECK(r.err.find("training tokens per active parameter: beyond any published training") != std::string::npos);
  const Run sane = run_moeplan({"suggest", "--tokens", "15e12", "--active-params", "37e9", "--no-bench"});
  CHECK(sane.err.find("beyond any published training") == std::string::npos);
}

TEST_CASE("a law whose loss is worse than guessing uniformly over the vocabulary is warned about") {
  // Paper 001's Table 2 with a = 1e300 (a user's typo): the loss is finite but meaningless.
  const auto path = temp_path("absurd-law.toml");
  {
    std::ofstream f(path);
    f << "schema = \"moeplan-laws/1\"\nname = \"absurd\"\n[joint_loss]\ne = 0.1577\nf = 7.2446\nm = 5.1395\nn = -3.2363\nk = 0.0013\nh = 0.0450\n"
         "a = 1e300\nalpha = 0.2383\nb = 27129.0488\nbeta = 0.4694\nc = 31.0958\nepsilon = 1.8182\n";
  }
  const Run r = run_moeplan({"suggest", "--flops", "1e22", "--no-bench", "--laws", path.string()});
  std::filesystem::remove(path);
  CAPTURE(r.err);
  CHECK(r.code == 0);
  CHECK(r.err.find("above ln V = 11.93") != std::string::npos);
  const Run paper = run_moeplan({"suggest", "--flops", "1e22", "--no-bench"});
  CHECK(paper.err.find("above ln V") == std::string::npos);
}
