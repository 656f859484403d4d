// A step profile written and read back (docs/calibration.md), read strictly (file:line, key,
// reason), and laid over a run's options: a flag given wins, the rest come from the profile,
// and a run on what the profile was not fitted on is warned about.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "moeplan/calibration/step_profile.hpp"

using namespace moeplan;
using namespace moeplan::calibration;

namespace {

StepFit a_fit() {
  StepFit f;
  FittedParameter g;
  g.name = "gemm_efficiency";
  g.start = 0.6;
  g.value = 0.4321;
  g.low = 0.41;
  g.high = 0.45;
  g.lower = 0.05;
  FittedParameter h;
  h.name = "hbm_efficiency";
  h.start = 0.85;
  h.value = 0.7;
  h.lower = 0.2;
  h.at_bound = false;
  f.parameters = {g, h};
  f.runs.resize(3);
  f.band.runs = 3;
  f.band.speed_ratio_min = 0.93;
  f.band.speed_ratio_max = 1.07;
  f.band.source = "leave-one-out over 3 runs";
  f.gpus = {"h100-sxm"};
  f.precisions = {"bf16"};
  f.dispatchers = {"deepep"};
  f.warnings = {"a \"quoted\" warning"};
  return f;
}

}  // namespace

TEST_CASE("step profile: written, read back whole") {
  const std::string text = step_profile_toml(a_fit(), {"steps.csv", "abc", "2026-11-28T00:00:00Z", "0.1.0"});
  const auto p = read_step_profile(text, "p.toml");
  REQUIRE(p.has_value());
  REQUIRE(p->values.size() == 2);
  CHECK(p->values[0] == std::pair<std::string, double>{"gemm_efficiency", 0.4321});
  CHECK(p->values[1] == std::pair<std::string, double>{"hbm_efficiency", 0.7});
  CHECK(p->band.runs == 3);
  CHECK(p->band.speed_ratio_min == 0.93);
  CHECK(p->band.speed_ratio_max == 1.07);
  CHECK(p->band.source == "p.toml: leave-one-out over 3 runs");
  CHECK(p->gpus == std::vector<std::string>{"h100-sxm"});
  CHECK(p->warnings == std::vector<std::string>{"a \"quoted\" warning"});
}

TEST_CASE("step profile: a bad file is refused with its line, key and reason") {
  const std::string good = step_profile_toml(a_fit(), {"steps.csv", "abc", "t", "v"});
  const auto refused = [](const std::string& text) {
    const auto p = read_step_profile(text, "p.toml");
    REQUIRE_FALSE(p.has_value());
    return p.error();
  };
  std::string t = good;
  t.replace(t.find("hbm_efficiency = 0.7"), 20, "hbm_eficiency = 0.7");
  InputError e = refused(t);
  CHECK(e.key == "parameters.hbm_eficiency");
  CHECK(e.line > 1);
  CHECK(e.reason.find("not a step-model parameter") != std::string::npos);
  t = good;
  t.replace(t.find("hbm_efficiency = 0.7"), 20, "hbm_efficiency = 1.7");
  e = refused(t);
  CHECK(e.key == "parameters.hbm_efficiency");
  CHECK(e.reason.find("outside its physical range [0.2, 1]") != std::string::npos);
  t = good;
  t.replace(t.find("moeplan-step-profile/1"), 22, "moeplan-laws/1");
  CHECK(refused(t).key == "schema");
  t = good;
  t.replace(t.find("speed_ratio_max = 1.07"), 22, "speed_ratio_max = 0.5");
  CHECK(refused(t).key == "band.speed_ratio_max");
  CHECK(refused(good + "extra = 1\n").reason.find("unknown key") != std::string::npos);
  CHECK(refused("schema = \"moeplan-step-profile/1\"\n[fitted_on]\n[parameters]\n[band]\nruns = 1\n"
                "speed_ratio_min = 1\nspeed_ratio_max = 1\n")
            .key == "parameters");
}

TEST_CASE("step profile: laid over a run's options, a flag given wins and every source is said") {
  const auto p = read_step_profile(step_profile_toml(a_fit(), {"s.csv", "m", "t", "v"}), "p.toml");
  REQUIRE(p.has_value());
  StepTimeOptions o;
  o.gemm_efficiency = 0.55;  // as --gemm-efficiency 0.55 set it
  const auto applied = apply_step_profile(
      *p, o, [](std::string_view flag) { return flag == "--gemm-efficiency"; }, {"h100-sxm", "bf16", "deepep", "", 0});
  CHECK(o.gemm_efficiency == 0.55);
  CHECK(o.hbm_efficiency == 0.7);
  const auto source = [&](const std::string& name) {
    const auto it = std::find_if(applied.sources.begin(), applied.sources.end(),
                                 [&](const StepParameterSource& s) { return s.name == name; });
    REQUIRE(it != applied.sources.end());
    return it->source;
  };
  CHECK(source("gemm_efficiency") == "--gemm-efficiency");
  CHECK(source("hbm_efficiency") == "profile p.toml");
  CHECK(source("network_efficiency") == "default");
  REQUIRE(applied.warnings.size() == 2);  // the flag replacing a fitted value, and the fit's own warning
  CHECK(applied.warnings[0].find("--gemm-efficiency 0.55 replaces the profile's fitted 0.4321") != std::string::npos);
  StepTimeOptions other;
  const auto elsewhere = apply_step_profile(*p, other, [](std::string_view) { return false; },
                                            {"gb200", "fp8", "alltoall", "", 0});
  CHECK(other.gemm_efficiency == 0.4321);
  CHECK(elsewhere.warnings.size() == 4);
  CHECK(elsewhere.warnings[0].find("fitted on GPU kind h100-sxm, not gb200") != std::string::npos);
  CHECK(elsewhere.warnings[1].find("precision bf16, not fp8") != std::string::npos);
  CHECK(elsewhere.warnings[2].find("dispatcher deepep, not alltoall") != std::string::npos);
}

TEST_CASE("step profile: one fitted against an earlier step model is applied with a warning to fit it again") {
  const std::string written = step_profile_toml(a_fit(), {"s.csv", "m", "t", "v"});
  CHECK(written.find("step_model = ") != std::string::npos);
  CHECK(written.find(std::string(k_step_model_revision)) != std::string::npos);
  // The same profile as written before the revision was recorded: no step_model line.
  std::string old = written;
  const auto at = old.find("step_model = ");
  REQUIRE(at != std::string::npos);
  old.erase(at, old.find('\n', at) - at + 1);
  for (const auto& [text, warned] : {std::pair{written, false}, std::pair{old, true}}) {
    const auto p = read_step_profile(text, "p.toml");
    REQUIRE(p.has_value());
    StepTimeOptions o;
    const auto applied =
        apply_step_profile(*p, o, [](std::string_view) { return false; }, {"h100-sxm", "bf16", "deepep", "", 0});
    const bool found = std::any_of(applied.warnings.begin(), applied.warnings.end(), [](const std::string& w) {
      return w.find("fitted against an earlier step model") != std::string::npos && w.find("fit it again") != std::string::npos;
    });
    CHECK(found == warned);
  }
}
