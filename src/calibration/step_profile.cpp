// A step profile, written and read (include/moeplan/calibration/step_profile.hpp).
#include "moeplan/calibration/step_profile.hpp"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include "moeplan/base/toml_reader.hpp"
#include "moeplan/calibration/step_parameters.hpp"

namespace moeplan::calibration {

namespace {

std::string toml_string(std::string_view s) {
  std::ostringstream out;
  out << toml::value<std::string>(std::string(s));
  return out.str();
}

std::string quoted_list(const std::vector<std::string>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + toml_string(v[i]);
  return s + "]";
}

// A list of strings at `key` (absent: empty).
std::vector<std::string> strings(Reader& r, const toml::table& t, std::string_view key, const std::string& path) {
  std::vector<std::string> out;
  const toml::node* n = t.get(key);
  if (!n) return out;
  const toml::array* a = n->as_array();
  if (!a) {
    r.fail(n->source(), path, "must be an array of strings");
    return out;
  }
  for (const toml::node& e : *a) {
    if (!e.is_string()) {
      r.fail(e.source(), path, "must be an array of strings");
      return out;
    }
    out.push_back(*e.value<std::string>());
  }
  return out;
}

}  // namespace

std::string step_profile_toml(const StepFit& fit, const ProfileProvenance& p) {
  std::string s;
  s += fmt::format("# A step profile: the step model's parameters fitted to measured runs (moeplan fit, "
                   "docs/calibration.md).\n# Used by suggest, score and plot with --step-profile FILE; a flag on "
                   "the command line wins.\nschema = {}\n\n",
                   toml_string(k_step_profile_schema));
  s += "[fitted_on]\n";
  const auto fitted = std::count_if(fit.runs.begin(), fit.runs.end(), [](const FittedRun& r) { return !r.held_out; });
  s += fmt::format("csv = {}\nmd5 = {}\ncreated = {}\nmoeplan = {}\nstep_model = {}\nruns = {}\n", toml_string(p.csv),
                   toml_string(p.md5), toml_string(p.created), toml_string(p.version),
                   toml_string(k_step_model_revision), fitted);
  s += fmt::format("gpus = {}\nprecisions = {}\ndispatchers = {}\nmodels = {}\n", quoted_list(fit.gpus),
                   quoted_list(fit.precisions), quoted_list(fit.dispatchers), quoted_list(fit.models));
  if (fit.gpus_max > 0) s += fmt::format("gpu_count_min = {}\ngpu_count_max = {}\n", fit.gpus_min, fit.gpus_max);
  s += "\n";
  s += "[parameters]\n";
  for (const FittedParameter& f : fit.parameters) {
    s += fmt::format("{} = {:.6g}  # from {:.4g}", f.name, f.value, f.start);
    if (f.low && f.high) s += fmt::format("; bootstrap interval [{:.4g}, {:.4g}]", *f.low, *f.high);
    s += fmt::format("{}\n", f.at_bound ? "; at its bound" : "");
  }
  s += "\n[band]\n# Predicted speed over measured speed of each run predicted from a fit on the others.\n";
  s += fmt::format("runs = {}\nspeed_ratio_min = {:.6g}\nspeed_ratio_max = {:.6g}\nsource = {}\n", fit.band.runs,
                   fit.band.speed_ratio_min, fit.band.speed_ratio_max, toml_string(fit.band.source));
  s += fmt::format("warnings = {}\n", quoted_list(fit.warnings));
  return s;
}

std::expected<StepProfile, InputError> read_step_profile(std::string_view text, const std::string& source) {
  auto doc = parse_toml(text, source);
  if (!doc) return std::unexpected(doc.error());
  Reader r(source);
  StepProfile p;
  p.source = source;
  r.only_keys(*doc, {"schema", "fitted_on", "parameters", "band"}, "");
  const std::string schema = r.string(*doc, "schema", "schema");
  if (!r.failed() && schema != k_step_profile_schema) {
    r.fail(doc->get("schema")->source(), "schema",
           fmt::format("\"{}\" is not a step profile (expected \"{}\")", schema, k_step_profile_schema));
  }
  if (const toml::table* f = r.failed() ? nullptr : r.table(*doc, "fitted_on", "fitted_on")) {
    r.only_keys(*f, {"csv", "md5", "created", "moeplan", "step_model", "runs", "gpus", "precisions", "dispatchers",
                     "models", "gpu_count_min", "gpu_count_max"},
                "fitted_on");
    if (f->get("step_model")) p.step_model = r.string(*f, "step_model", "fitted_on.step_model");
    if (f->get("runs")) r.integer(*f, "runs", "fitted_on.runs", 1);  // informational, but a count
    p.gpus = strings(r, *f, "gpus", "fitted_on.gpus");
    p.models = strings(r, *f, "models", "fitted_on.models");
    if (f->get("gpu_count_min")) p.gpu_count_min = r.integer(*f, "gpu_count_min", "fitted_on.gpu_count_min", 1);
    if (f->get("gpu_count_max")) p.gpu_count_max = r.integer(*f, "gpu_count_max", "fitted_on.gpu_count_max", 1);
    p.precisions = strings(r, *f, "precisions", "fitted_on.precisions");
    p.dispatchers = strings(r, *f, "dispatchers", "fitted_on.dispatchers");
  }
  if (const toml::table* t = r.failed() ? nullptr : r.table(*doc, "parameters", "parameters")) {
    for (const auto& [key, node] : *t) {
      const std::string path = "parameters." + std::string(key.str());
      const StepParameter* sp = find_step_parameter(key.str());
      if (!sp) {
        r.fail(node.source(), path, fmt::format("not a step-model parameter (the parameters: {})", step_parameter_names()));
        break;
      }
      const double v = r.number(*t, key.str(), path, false);
      if (r.failed()) break;
      if (!(v >= sp->lower && v <= sp->upper)) {
        r.fail(node.source(), path, fmt::format("{:g} is outside its physical range [{:g}, {:g}]", v, sp->lower, sp->upper));
        break;
      }
      p.values.emplace_back(std::string(key.str()), v);
    }
  }
  if (const toml::table* b = r.failed() ? nullptr : r.table(*doc, "band", "band")) {
    r.only_keys(*b, {"runs", "speed_ratio_min", "speed_ratio_max", "source", "warnings"}, "band");
    p.band.runs = r.integer(*b, "runs", "band.runs", 1);
    p.band.speed_ratio_min = r.number(*b, "speed_ratio_min", "band.speed_ratio_min", true);
    p.band.speed_ratio_max = r.number(*b, "speed_ratio_max", "band.speed_ratio_max", true);
    if (!r.failed() && p.band.speed_ratio_max < p.band.speed_ratio_min) {
      r.fail(b->get("speed_ratio_max")->source(), "band.speed_ratio_max", "below band.speed_ratio_min");
    }
    p.band.source = b->get("source") ? r.string(*b, "source", "band.source") : std::string();
    p.warnings = strings(r, *b, "warnings", "band.warnings");
  }
  if (r.failed()) return std::unexpected(r.error());
  if (p.values.empty()) {
    return std::unexpected(InputError{source, 0, 0, "parameters", "no parameter: a profile fits at least one"});
  }
  p.band.source = fmt::format("{}: {}", source, p.band.source.empty() ? "the profile's band" : p.band.source);
  return p;
}

AppliedProfile apply_step_profile(const StepProfile& profile, StepTimeOptions& options,
                                  const std::function<bool(std::string_view flag)>& flag_given, const ProfileUse& use) {
  const std::string& gpu = use.gpu;
  const std::string& precision = use.precision;
  const std::string& dispatcher = use.dispatcher;
  AppliedProfile a;
  const auto value_of = [&](std::string_view name) {
    return std::find_if(profile.values.begin(), profile.values.end(), [&](const auto& v) { return v.first == name; });
  };
  const auto in_profile = [&](std::string_view name) { return value_of(name) != profile.values.end(); };
  for (const StepParameter& sp : step_parameters()) {
    const auto it = value_of(sp.name);
    std::string from = "default";
    if (flag_given(sp.flag)) {
      from = std::string(sp.flag);
      if (it != profile.values.end()) {
        a.warnings.push_back(fmt::format("{} {:g} replaces the profile's fitted {:g}: the band of the time figures is "
                                         "the profile's, fitted with its own value",
                                         sp.flag, sp.get(options), it->second));
      }
    } else if (it != profile.values.end()) {
      sp.set(options, it->second);
      from = "profile " + profile.source;
    }
    a.sources.push_back({std::string(sp.name), sp.get(options), from});
  }
  // A profile whose hbm_efficiency was fitted without memory_bound_scale has the stack's extra
  // memory-bound bytes in that efficiency already: a scale given on top counts them twice.
  if (flag_given("--memory-bound-scale") && in_profile("hbm_efficiency") && !in_profile("memory_bound_scale")) {
    a.warnings.push_back(fmt::format("--step-profile {}: its hbm_efficiency was fitted without memory_bound_scale, so it "
                                     "may hold the stack's extra memory-bound bytes already; --memory-bound-scale on "
                                     "top counts them twice",
                                     profile.source));
  }
  const auto fitted_on = [&](const std::vector<std::string>& v, const std::string& x, const char* what) {
    if (!v.empty() && std::find(v.begin(), v.end(), x) == v.end()) {
      a.warnings.push_back(fmt::format("--step-profile {}: fitted on {} {}, not {}: its values may not carry over",
                                       profile.source, what, fmt::join(v, ", "), x));
    }
  };
  fitted_on(profile.gpus, gpu, "GPU kind");
  fitted_on(profile.precisions, precision, "precision");
  fitted_on(profile.dispatchers, dispatcher, "dispatcher");
  if (!profile.models.empty() && !use.model.empty() &&
      std::find(profile.models.begin(), profile.models.end(), use.model) == profile.models.end()) {
    a.warnings.push_back(fmt::format("--step-profile {}: fitted on {}, not {}: the band is the fit's on those models",
                                     profile.source, fmt::join(profile.models, ", "), use.model));
  }
  // Beyond twice the largest or half the smallest cluster it was fitted on: other collectives
  // bind (an engineering rule of thumb for a warning, not a limit).
  if (profile.gpu_count_max > 0 && use.gpus > 0 &&
      (use.gpus > 2 * profile.gpu_count_max || 2 * use.gpus < profile.gpu_count_min)) {
    a.warnings.push_back(fmt::format("--step-profile {}: fitted on {}-{} GPUs, used on {}: the band is the fit's at "
                                     "its own scale",
                                     profile.source, profile.gpu_count_min, profile.gpu_count_max, use.gpus));
  }
  if (profile.step_model != k_step_model_revision) {
    a.warnings.push_back(fmt::format(
        "--step-profile {}: fitted against {}, not the step model of today ({}): on Hopper GPUs the attention core "
        "now runs at its measured rates, no longer at --gemm-efficiency, so the profile's GEMM efficiency absorbed "
        "attention time it no longer carries; fit it again",
        profile.source, profile.step_model.empty() ? "an earlier step model" : "\"" + profile.step_model + "\"",
        k_step_model_revision));
  }
  for (const std::string& w : profile.warnings) a.warnings.push_back(fmt::format("--step-profile {}: {}", profile.source, w));
  return a;
}

}  // namespace moeplan::calibration
