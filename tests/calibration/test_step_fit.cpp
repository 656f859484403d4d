// The step model fitted to measured runs (docs/calibration.md): runs made by the step model
// itself at known parameters must give those parameters back; the warnings a fit owes (one
// run, more parameters than runs, a parameter at its bound) and its errors (a term the model
// does not incur, an unknown term or parameter); held-out runs predicted, not fitted.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cluster/cluster_fixtures.hpp"
#include "moeplan/calibration/step_fit.hpp"
#include "moeplan/calibration/step_parameters.hpp"

using namespace moeplan;
using namespace moeplan::test;
using calibration::StepCase;

namespace {

// A run of `m` on `world` GPUs in layout `l`, "measured" at the step model's own figure with
// `truth` laid over the defaults.
StepCase made_run(const std::string& id, const ModelConfig& m, int world, ParallelLayout l, Precision precision,
                  const std::vector<std::pair<std::string, double>>& truth) {
  StepCase c;
  c.id = id;
  c.model = m;
  c.counts = count_parameters(m);
  c.cluster = cluster_of(world);
  l.global_batch = 512;
  c.layout = l;
  c.options.seq_len = 4096;
  c.options.precision = precision;
  c.gpu = c.cluster.gpu.id;
  c.precision = to_string(precision);
  c.dispatcher = "deepep";
  c.measured_step_seconds = calibration::predict_step_seconds(c, truth);
  return c;
}

std::vector<StepCase> four_runs(const std::vector<std::pair<std::string, double>>& truth) {
  const ModelConfig moe = moe_model();
  const ModelConfig dense = dense_model();
  return {made_run("a", moe, 64, layout_of(64, 1, 1, 8), Precision::bf16, truth),
          made_run("b", moe, 128, layout_of(128, 2, 2, 16), Precision::bf16, truth),
          made_run("c", dense, 64, layout_of(64, 4, 2), Precision::fp8, truth),
          made_run("d", dense, 32, layout_of(32, 2, 1), Precision::fp8, truth)};
}

const calibration::FittedParameter* param(const calibration::StepFit& f, const std::string& name) {
  for (const auto& p : f.parameters) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("calibration: runs made at known GEMM efficiencies give them back, and predict each other exactly") {
  const auto runs = four_runs({{"gemm_efficiency", 0.42}, {"fp8_gemm_efficiency", 0.51}});
  calibration::StepFitSettings s;
  s.bootstrap = 30;
  const auto fit = calibration::fit_step_model(runs, s);
  REQUIRE(fit.has_value());
  REQUIRE(fit->parameters.size() == 2);  // the default: the GEMM efficiency of each precision used
  CHECK(param(*fit, "gemm_efficiency")->value == doctest::Approx(0.42).epsilon(1e-4));
  CHECK(param(*fit, "fp8_gemm_efficiency")->value == doctest::Approx(0.51).epsilon(1e-4));
  CHECK(param(*fit, "gemm_efficiency")->start == doctest::Approx(0.6));
  for (const auto& r : fit->runs) {
    CAPTURE(r.id);
    CHECK(r.predicted == doctest::Approx(r.measured).epsilon(1e-4));
    REQUIRE(r.predicted_left_out.has_value());
    CHECK(*r.predicted_left_out == doctest::Approx(r.measured).epsilon(1e-3));
    CHECK(r.predicted_default < r.measured);  // the defaults (0.6) are faster than the truth
  }
  CHECK(fit->separable);
  CHECK(fit->band.runs == 4);
  CHECK(fit->band.speed_ratio_min == doctest::Approx(1).epsilon(1e-3));
  CHECK(fit->band.speed_ratio_max == doctest::Approx(1).epsilon(1e-3));
  CHECK(fit->gpus == std::vector<std::string>{"h100-test"});
  CHECK(fit->precisions == std::vector<std::string>{"bf16", "fp8"});
}

TEST_CASE("calibration: more parameters named than the runs can carry, and a run's own flag holds its value") {
  const auto truth = std::vector<std::pair<std::string, double>>{{"gemm_efficiency", 0.5}, {"hbm_efficiency", 0.7}};
  auto runs = four_runs(truth);
  calibration::StepFitSettings s;
  s.bootstrap = 40;
  s.parameters = {"gemm_efficiency", "hbm_efficiency", "network_efficiency", "dp_overlap", "a2a_efficiency_intra"};
  runs.resize(2);
  const auto fit = calibration::fit_step_model(runs, s);
  REQUIRE(fit.has_value());
  CHECK_FALSE(fit->separable);
  CHECK(std::any_of(fit->warnings.begin(), fit->warnings.end(),
                    [](const std::string& w) { return w.find("cannot be separated") != std::string::npos; }));
  // Widened to at least the step model's validation spread.
  const ValidationSpread& model = step_model_validation_spread();
  CHECK(fit->band.speed_ratio_min <= model.speed_ratio_min);
  CHECK(fit->band.speed_ratio_max >= model.speed_ratio_max);
  CHECK(fit->band.source.find("widened") != std::string::npos);

  // A parameter a run's flags set is that run's: fitting it on the run moves nothing.
  auto fixed = four_runs(truth);
  for (StepCase& c : fixed) c.fixed = {"gemm_efficiency"};
  calibration::StepFitSettings only;
  only.parameters = {"gemm_efficiency"};
  const auto none = calibration::fit_step_model(fixed, only);
  REQUIRE_FALSE(none.has_value());  // nothing left to fit: refused, no empty profile
  CHECK(none.error().find("no parameter to fit") != std::string::npos);
  fixed[0].fixed.clear();  // one run that moves it: fitted, and said to rest on that run alone
  const auto one = calibration::fit_step_model(fixed, only);
  REQUIRE(one.has_value());
  CHECK(std::any_of(one->warnings.begin(), one->warnings.end(),
                    [](const std::string& w) { return w.find("gemm_efficiency rests on one run (a)") != std::string::npos; }));
  // Left out, run "a" is predicted at the start value (0.6), not at its own fitted value.
  CHECK(*one->runs[0].predicted_left_out == doctest::Approx(one->runs[0].predicted_default));
}

TEST_CASE("calibration: one run says so, and a run far slower than any efficiency puts it at its bound") {
  auto runs = four_runs({{"gemm_efficiency", 0.5}});
  runs.resize(1);
  const auto one = calibration::fit_step_model(runs, {});
  REQUIRE(one.has_value());
  CHECK_FALSE(one->runs.front().predicted_left_out.has_value());
  CHECK(one->band.speed_ratio_min == step_model_validation_spread().speed_ratio_min);
  CHECK(one->band.source.find("one run") != std::string::npos);
  // The model's figures, the profile's band: the report words it as the profile's.
  CHECK(one->band.kind == ValidationSpread::Kind::profile);
  CHECK(step_model_validation_spread().kind == ValidationSpread::Kind::step_model);
  CHECK(whole_training_validation_spread().kind == ValidationSpread::Kind::whole_training);

  runs.front().measured_step_seconds *= 100;  // no GEMM rate >= 1 % of peak makes it this slow
  const auto slow = calibration::fit_step_model(runs, {});
  REQUIRE(slow.has_value());
  REQUIRE(slow->parameters.size() == 1);
  CHECK(slow->parameters.front().at_bound);
  CHECK(slow->parameters.front().value == doctest::Approx(0.01).epsilon(0.05));
  CHECK_FALSE(slow->separable);
}

TEST_CASE("calibration: measured terms are residuals of their own, and a term the layout does not incur is refused") {
  auto runs = four_runs({{"gemm_efficiency", 0.5}});
  // Run "a" is TP 1: no TP collectives to have measured.
  runs[0].measured_terms = {{"tp_collectives", 0.5}};
  const auto refused = calibration::fit_step_model(runs, {});
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().find("a: tp_collectives measured 0.5 s") != std::string::npos);
  runs[0].measured_terms = {{"gemm_time", 0.5}};
  const auto unknown = calibration::fit_step_model(runs, {});
  REQUIRE_FALSE(unknown.has_value());
  CHECK(unknown.error().find("no step term 'gemm_time'") != std::string::npos);
  // A GEMM term measured at the model's own figure at 0.5 pulls the fit there even when the
  // step says otherwise on that run.
  runs[0].measured_terms.clear();
  calibration::StepFitSettings s;
  s.parameters = {"gemm_eficiency"};
  const auto typo = calibration::fit_step_model(runs, s);
  REQUIRE_FALSE(typo.has_value());
  CHECK(typo.error().find("no parameter 'gemm_eficiency'") != std::string::npos);
}

TEST_CASE("calibration: held-out runs are predicted from the fit on the others, never fitted on") {
  auto runs = four_runs({{"gemm_efficiency", 0.45}, {"fp8_gemm_efficiency", 0.45}});
  runs[3].measured_step_seconds *= 2;  // held out: were it fitted on, the fit would move
  runs[3].held_out = true;
  const auto fit = calibration::fit_step_model(runs, {});
  REQUIRE(fit.has_value());
  REQUIRE(fit->runs.size() == 4);
  CHECK(fit->runs[3].id == "d");
  CHECK(fit->runs[3].held_out);
  CHECK_FALSE(fit->runs[3].predicted_left_out.has_value());
  CHECK(fit->runs[3].measured / fit->runs[3].predicted == doctest::Approx(2).epsilon(1e-3));
  CHECK(param(*fit, "fp8_gemm_efficiency")->value == doctest::Approx(0.45).epsilon(1e-3));
  CHECK(fit->band.runs == 3);
  for (StepCase& c : runs) c.held_out = true;
  CHECK_FALSE(calibration::fit_step_model(runs, {}).has_value());
}

TEST_CASE("calibration: two runs of one configuration far apart fit (a flat Huber minimum), with a widened band") {
  // The reviewer's crash: one parameter, two residuals more than 2 delta apart.
  auto runs = four_runs({{"gemm_efficiency", 0.5}});
  runs.resize(2);
  runs[1] = runs[0];
  runs[1].id = "a2";
  runs[0].measured_step_seconds *= 1.3;
  const auto fit = calibration::fit_step_model(runs, {});
  REQUIRE(fit.has_value());
  CHECK(fit->band.source.find("1 distinct configuration") != std::string::npos);
  CHECK(fit->band.speed_ratio_max >= step_model_validation_spread().speed_ratio_max);
}

TEST_CASE("calibration: past 20 runs the left-out predictions come from 20 folds, every run predicted once") {
  std::vector<StepCase> runs;
  for (int i = 0; i < 30; ++i) {
    auto four = four_runs({{"gemm_efficiency", 0.4 + 0.005 * i}, {"fp8_gemm_efficiency", 0.5}});
    four[i % 4].id = fmt::format("r{}", i);
    runs.push_back(four[i % 4]);
  }
  calibration::StepFitSettings s;
  s.bootstrap = 0;
  const auto fit = calibration::fit_step_model(runs, s);
  REQUIRE(fit.has_value());
  CHECK(fit->band.source == "20-fold cross-validation over 30 runs");
  for (const auto& r : fit->runs) CHECK(r.predicted_left_out.has_value());
}

TEST_CASE("calibration: runs made at a known memory-bound scale give it back beside the HBM efficiency") {
  // A stack whose memory-bound kernels take 3x the fused count while its optimizer streams at
  // 0.7 of HBM: with both parameters asked for, the two come apart (one efficiency could not
  // price both, docs/measurements/h200-2026-11-29).
  auto runs = four_runs({{"memory_bound_scale", 3.0}, {"hbm_efficiency", 0.7}});
  calibration::StepFitSettings s;
  s.parameters = {"memory_bound_scale", "hbm_efficiency"};
  s.bootstrap = 0;
  const auto fit = calibration::fit_step_model(runs, s);
  REQUIRE(fit.has_value());
  REQUIRE(fit->parameters.size() == 2);
  CHECK(param(*fit, "memory_bound_scale")->value == doctest::Approx(3.0).epsilon(1e-3));
  CHECK(param(*fit, "memory_bound_scale")->start == doctest::Approx(1.0));
  CHECK(param(*fit, "hbm_efficiency")->value == doctest::Approx(0.7).epsilon(1e-3));
  // Step times alone tell the two apart only through small terms (here, noise-free, they do);
  // a measured run's noise does not leave them that: the fit says so and widens its band.
  CHECK_FALSE(fit->separable);
  const auto warned = std::any_of(fit->warnings.begin(), fit->warnings.end(), [](const std::string& w) {
    return w.find("no run measures optimizer_seconds") != std::string::npos;
  });
  CHECK(warned);
  // With the optimizer's time measured, no such warning.
  const std::vector<std::string> names = step_term_names();
  const auto optimizer = static_cast<std::size_t>(std::find(names.begin(), names.end(), "optimizer") - names.begin());
  for (auto& r : runs) {
    StepTimeOptions o = r.options;
    o.memory_bound_scale = 3.0;
    o.hbm_efficiency = 0.7;
    r.measured_terms = {{"optimizer", step_term_seconds(r.model, r.counts, r.cluster, r.layout, o).seconds[optimizer]}};
  }
  const auto with_optimizer = calibration::fit_step_model(runs, s);
  REQUIRE(with_optimizer.has_value());
  CHECK(param(*with_optimizer, "hbm_efficiency")->value == doctest::Approx(0.7).epsilon(1e-3));
  CHECK(std::none_of(with_optimizer->warnings.begin(), with_optimizer->warnings.end(), [](const std::string& w) {
    return w.find("no run measures optimizer_seconds") != std::string::npos;
  }));
}

TEST_CASE("calibration: runs made at a known attention efficiency give it back when it is asked for") {
  // The attention core's rate over the one the model reads (the GEMM ceiling on these test GPUs,
  // which the measured-kernel table does not list): a stack whose attention runs at 0.7 of it.
  const auto runs = four_runs({{"attention_efficiency", 0.7}});
  calibration::StepFitSettings s;
  s.parameters = {"attention_efficiency"};
  const auto fit = calibration::fit_step_model(runs, s);
  REQUIRE(fit.has_value());
  REQUIRE(fit->parameters.size() == 1);
  CHECK(param(*fit, "attention_efficiency")->value == doctest::Approx(0.7).epsilon(1e-4));
  CHECK(param(*fit, "attention_efficiency")->start == doctest::Approx(1.0));
  for (const auto& r : fit->runs) CHECK(r.predicted == doctest::Approx(r.measured).epsilon(1e-4));
}
