// The series behind `moeplan plot` (moeplan/plot_data.hpp): pure data, no PLplot.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_run.hpp"
#include "moeplan/planner/candidates.hpp"
#include "moeplan/laws/laws_loader.hpp"
#include "moeplan/io/model_loader.hpp"
#include "moeplan/planner/model_score.hpp"
#include "moeplan/planner/plan_price.hpp"
#include "moeplan/plot/drawn_text.hpp"
#include "moeplan/plot/plot_data.hpp"

using namespace moeplan;

namespace {

SuggestOptions at(double C) {
  SuggestOptions o;
  o.goal.compute = Flops(C);
  return o;
}

/// What `moeplan suggest --flops C` prints: the first of the ranking.
RankedCandidate suggest_winner(double C) {
  const auto s = suggest(builtin_laws().holistic, at(C));
  REQUIRE(s.has_value());
  return rank_candidates(builtin_laws(), Planner(builtin_laws().holistic, at(C)), *s).candidates.front();
}

std::string slurp_file(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

bool strictly_increasing(const std::vector<double>& v) {
  return std::adjacent_find(v.begin(), v.end(), std::greater_equal<>()) == v.end();
}

}  // namespace

TEST_CASE("plot data: el grid is EL of paper 000 Eq. 4 and marks the suggest winner") {
  const auto f = plot::el_landscape(builtin_laws(), at(1e22));
  REQUIRE(f.has_value());
  const plot::Series* map = f->find("el");
  REQUIRE(map != nullptr);
  CHECK(map->z.size() == map->x.size() * map->y.size());
  CHECK(strictly_increasing(map->x));
  CHECK(strictly_increasing(map->y));
  CHECK(map->x.front() == doctest::Approx(1.0 / 512));
  CHECK(map->x.back() == doctest::Approx(0.5));
  const EfficiencyLeverageLaw& el = builtin_laws().leverage;
  CHECK(map->z[5 * map->y.size() + 7] == doctest::Approx(el.at(map->x[5], map->y[7], Flops(1e22))));

  const RankedCandidate w = suggest_winner(1e22);
  const ExpertShape shape =
      expert_shape(plan_config(w.suggestion));
  const plot::Series* chosen = f->find("chosen");
  REQUIRE(chosen != nullptr);
  CHECK(chosen->x.at(0) == doctest::Approx(shape.activation_ratio));
  CHECK(chosen->y.at(0) == doctest::Approx(shape.granularity));
  CHECK(chosen->z.at(0) == doctest::Approx(w.efficiency_leverage));
  const plot::Series* g_opt = f->find("G_opt");
  REQUIRE(g_opt != nullptr);
  CHECK(g_opt->y.at(0) == doctest::Approx(el.optimal_granularity()));
}

TEST_CASE("plot data: M/N_a and d sweeps hold the winner, a band within 0.1 % of the minimum") {
  const RankedCandidate w = suggest_winner(1e22);
  for (const auto variable : {plot::SweepVariable::m_over_na, plot::SweepVariable::d}) {
    const bool is_d = variable == plot::SweepVariable::d;
    CAPTURE(is_d);
    const auto f = plot::loss_sweep(builtin_laws(), at(1e22), variable);
    REQUIRE(f.has_value());
    const plot::Series* loss = f->find("loss");
    const plot::Series* band = f->find("band");
    const plot::Series* minimum = f->find("minimum");
    const plot::Series* chosen = f->find("chosen");
    REQUIRE((loss && band && minimum && chosen));
    CHECK(loss->x.size() >= 20);
    CHECK(strictly_increasing(loss->x));
    const double lowest = *std::min_element(loss->y.begin(), loss->y.end());
    CHECK(minimum->y.at(0) == lowest);
    REQUIRE(!band->x.empty());
    for (double y : band->y) CHECK(y <= lowest * (1 + plot::k_near_optimal_band));
    // Every sweep point outside the band is above the threshold (the band is complete).
    std::size_t inside = 0;
    for (double y : loss->y) inside += y <= lowest * 1.001 ? 1 : 0;
    CHECK(inside == band->x.size());

    const double x = is_d ? double(w.suggestion.solution.arch.d) : w.suggestion.m_over_na_target;
    CHECK(chosen->x.at(0) == doctest::Approx(x));
    CHECK(chosen->y.at(0) == doctest::Approx(w.predicted_loss));
    // The curve passes through the winner: the sweep keeps its other choices.
    const auto on_curve = std::find_if(loss->x.begin(), loss->x.end(), [&](double v) {
      return std::abs(v - x) <= (is_d ? 0.5 : 1e-9 * x);
    });
    REQUIRE(on_curve != loss->x.end());
    CHECK(loss->y[std::size_t(on_curve - loss->x.begin())] == doctest::Approx(w.predicted_loss));
  }
}

TEST_CASE("plot data: an empty sweep range is infeasible, not an empty figure") {
  const auto f = plot::loss_sweep(builtin_laws(), at(1e22), plot::SweepVariable::m_over_na,
                                  plot::SweepRange{1.0, 2.0, 5});  // M/N_a <= 6: never feasible
  REQUIRE(!f.has_value());
  CHECK(f.error().constraint == "sweep");
}

TEST_CASE("plot data: a compute range over 30 decades is refused before any budget is planned") {
  CHECK(plot::compute_range_problem(1e22, {}).empty());  // C/1000..100 C: 5 decades
  CHECK(plot::compute_range_problem(1e22, {1e10, 1e40, 4}).empty());  // exactly 30
  const std::string wide = plot::compute_range_problem(1e22, {1e10, 1e300, 4});
  CHECK(wide.find("--from/--to") == 0);
  CHECK(wide.find("spans 290 decades; at most 30 (121 budgets") != std::string::npos);
  // One end given: the other is the default around C, and the message says so.
  const std::string high = plot::compute_range_problem(1e22, {std::nullopt, 1e300, 4});
  CHECK(high.find("C/1000 = 1e+19..1e+300") != std::string::npos);
  const auto f = plot::loss_versus_compute(builtin_laws(), at(1e22), {}, {1e10, 1e300, 4});
  REQUIRE_FALSE(f.has_value());
  CHECK(f.error().detail == wide);
}

TEST_CASE("plot data: sweep points are 2 to 10000 and d ends fit an int") {
  using plot::SweepVariable;
  CHECK(plot::sweep_range_problem(SweepVariable::d, {}).empty());
  CHECK(plot::sweep_range_problem(SweepVariable::m_over_na, {6.5, 1e300, 41}).empty());
  CHECK(plot::sweep_range_problem(SweepVariable::d, {1, 1e300, 41}).find("--to: d is at most 2147483647") == 0);
  CHECK(plot::sweep_range_problem(SweepVariable::m_over_na, {std::nullopt, std::nullopt, 10001})
            .find("--points") == 0);
  CHECK_FALSE(plot::loss_sweep(builtin_laws(), at(1e22), SweepVariable::d, {1, 1e300, 41}).has_value());
}

TEST_CASE("plot data: loss-vs-compute has the suggest envelope, the fixed winner and models") {
  auto mini = load_model_config("moe-mini");
  REQUIRE(mini.has_value());
  const auto f = plot::loss_versus_compute(builtin_laws(), at(1e22), {*mini});
  REQUIRE(f.has_value());
  const plot::Series* best = f->find("suggest");
  const plot::Series* fixed = f->find("suggest @ 1e22 kept fixed");
  const plot::Series* model = f->find(mini->name);
  const plot::Series* chosen = f->find("chosen");
  REQUIRE((best && fixed && model && chosen));
  CHECK(strictly_increasing(best->x));
  CHECK(best->x.front() == doctest::Approx(1e19));
  CHECK(best->x.back() == doctest::Approx(1e24));
  CHECK(chosen->y.at(0) == doctest::Approx(suggest_winner(1e22).predicted_loss));
  // The fixed architecture meets the envelope at its own budget and is no better elsewhere.
  for (std::size_t i = 0; i < best->x.size(); ++i) {
    if (std::abs(std::log10(best->x[i] / 1e22)) < 1e-9) {
      CHECK(fixed->y[i] == doctest::Approx(best->y[i]).epsilon(1e-3));
    }
  }
  CHECK(fixed->y.front() > best->y.front());
  // Loss falls with compute for every config (D = C/M grows).
  for (const plot::Series* s : {best, fixed, model}) {
    CHECK(std::is_sorted(s->y.rbegin(), s->y.rend()));
  }
  // Issue 22: a preset drawn below the plan (moe-mini at 3e20-5.6e20) must not read as a
  // better plan: the figure says which law draws the curves and that it did not choose.
  bool said = false;
  for (const std::string& n : f->notes) {
    said = said || (n.find("paper 001 Eq. 11") != std::string::npos &&
                    n.find("not by this law") != std::string::npos);
  }
  CHECK(said);
}

TEST_CASE("plot data: residuals split train and validation and add y = x") {
  const auto path = temp_path("plot-residuals.csv");
  std::ofstream(path) << "line,split,group,observed,predicted,residual,relative_residual\n"
                         "3,train,,3.0,3.1,0.1,0.03\n"
                         "4,validation,\"a,b\",2.5,2.4,-0.1,-0.04\n"
                         "5,train,,2.8,2.8,0,0\n";
  const auto table = plot::read_residuals_csv(path.string());
  REQUIRE(table.has_value());
  const plot::Figure f = plot::residuals_figure(*table);
  const plot::Series* train = f.find("train");
  const plot::Series* validation = f.find("validation");
  const plot::Series* diagonal = f.find("y = x");
  REQUIRE((train && validation && diagonal));
  CHECK(train->x == std::vector<double>{3.0, 2.8});
  CHECK(train->y == std::vector<double>{3.1, 2.8});
  CHECK(validation->x == std::vector<double>{2.5});
  CHECK(diagonal->x == std::vector<double>{2.4, 3.1});
  CHECK(diagonal->y == diagonal->x);
  std::filesystem::remove(path);
}

TEST_CASE("plot data: CSV export has the axis keys as header and one row per point") {
  plot::Figure f;
  f.x_key = "d";
  f.y_key = "loss";
  f.series.push_back({"loss", plot::SeriesStyle::line, {1, 2}, {3.5, 4.25}, {}});
  f.series.push_back({"a,b", plot::SeriesStyle::marker, {1}, {3.5}, {}});
  CHECK(plot::to_csv(f) == "series,d,loss\nloss,1,3.5\nloss,2,4.25\n\"a,b\",1,3.5\n");
  plot::Figure g;
  g.x_key = "activation_ratio";
  g.y_key = "granularity";
  g.z_key = "efficiency_leverage";
  g.series.push_back({"el", plot::SeriesStyle::grid, {0.1, 0.2}, {2, 4, 8}, {1, 2, 3, 4, 5, 6}});
  CHECK(plot::to_csv(g) == "series,activation_ratio,granularity,efficiency_leverage\n"
                           "el,0.1,2,1\nel,0.1,4,2\nel,0.1,8,3\n"
                           "el,0.2,2,4\nel,0.2,4,5\nel,0.2,8,6\n");
}

TEST_CASE("plot data: image format comes from the extension") {
  CHECK(plot::image_format_for("a.png") == plot::ImageFormat::png);
  CHECK(plot::image_format_for("dir.x/A.SVG") == plot::ImageFormat::svg);
  CHECK(!plot::image_format_for("a.pdf"));
  CHECK(!plot::image_format_for("png"));
  CHECK(!plot::image_format_for("dir.png/file"));
}

TEST_CASE("plot data: overtraining is the equal-loss curve of paper 002's compute-optimal plan, through (1, 0)") {
  const LawSet& laws = builtin_laws();
  const auto f = plot::overtraining(laws, at(1e19));
  REQUIRE(f.has_value());
  CHECK(f->kind == "overtraining");
  CHECK(f->title.find("paper 001 Eq. 11 on paper 002's compute-optimal line") != std::string::npos);
  CHECK(f->log_x);
  CHECK(f->x_key == "active_ratio");
  CHECK(f->y_key == "overhead");
  const plot::Series* curve = f->find("plans at the compute-optimal loss");
  const plot::Series* optimum = f->find("compute-optimal");
  REQUIRE(curve != nullptr);
  REQUIRE(optimum != nullptr);
  CHECK(optimum->x == std::vector<double>{1.0});
  CHECK(optimum->y == std::vector<double>{0.0});
  // The curve is equal_loss_curve on the default family's line, 0.1 to 2 in 61 sizes and 1.
  const Planner planner(laws.holistic, at(1e19));
  const OptimalLine line(laws, planner);
  const auto points = equal_loss_curve(line, Flops(1e19), 0.1, 2.0, 61);
  REQUIRE(curve->x.size() == points.size());
  CHECK(curve->x.size() == 62);
  for (std::size_t i = 0; i < points.size(); ++i) {
    CHECK(curve->x[i] == points[i].active_ratio);
    CHECK(curve->y[i] == points[i].overhead);
    CHECK(curve->z[i] == points[i].D.value());
  }
  CHECK(strictly_increasing(curve->x));
  // At 1e19 the joint law's optimum lies at more tokens than paper 002's D_opt: smaller
  // models than the optimum dip below zero, and a note (and the image's caption) says so.
  CHECK(*std::min_element(curve->y.begin(), curve->y.end()) < 0);
  CHECK_FALSE(f->caption.empty());
  CHECK(std::any_of(f->notes.begin(), f->notes.end(), [](const std::string& n) {
    return n.find("the overhead is negative") != std::string::npos && n.find("paper 001") != std::string::npos;
  }));
  // A narrower range without ratio 1 has no marker; the range is checked before any work.
  const auto narrow = plot::overtraining(laws, at(1e19), {0.2, 0.5, 7});
  REQUIRE(narrow.has_value());
  CHECK(narrow->find("compute-optimal") == nullptr);
  CHECK(narrow->find("plans at the compute-optimal loss")->x.size() == 7);
  CHECK_FALSE(plot::overtraining(laws, at(1e19), {0.5, 0.2, {}}).has_value());
  CHECK(plot::size_ratio_range_problem({1e-4, {}, {}}).find("--from") == 0);
  CHECK(plot::size_ratio_range_problem({{}, 1e3, {}}).find("--to") == 0);
  CHECK(plot::size_ratio_range_problem({{}, {}, 1}).find("--points") == 0);
  CHECK(plot::size_ratio_range_problem({}).empty());
}

namespace {

/// The (ratio, overhead) rows of the equal-loss series in `moeplan plot overtraining`'s CSV.
std::vector<std::pair<double, double>> overtraining_rows(const std::string& csv) {
  std::vector<std::pair<double, double>> rows;
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  REQUIRE(line == "series,active_ratio,overhead,tokens");
  while (std::getline(in, line)) {
    const std::vector<std::string> c = cells(line);
    REQUIRE(c.size() == 4);
    if (c[0] == "plans at the compute-optimal loss") rows.emplace_back(std::stod(c[1]), std::stod(c[2]));
  }
  return rows;
}

double overhead_at(const std::vector<std::pair<double, double>>& rows, double ratio) {
  for (const auto& [x, y] : rows) {
    if (std::abs(x / ratio - 1) < 1e-9) return y;
  }
  FAIL("no row at ratio " << ratio);
  return 0;
}

}  // namespace

TEST_CASE("plot overtraining -o .csv and .json: the data without PLplot, 0 at ratio 1, rising as the model shrinks") {
  const std::filesystem::path csv = temp_path("overtraining.csv"), js = temp_path("overtraining.json");
  // 1e19, inside the fitted range: every size from 0.1 to 2 of the optimum reaches its loss.
  const Run r = run_moeplan({"plot", "overtraining", "--flops", "1e19", "-o", csv.string()});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.empty());
  const auto rows = overtraining_rows(slurp_file(csv));
  REQUIRE(rows.size() == 62);
  CHECK(std::abs(overhead_at(rows, 1.0)) < 1e-6);
  CHECK(overhead_at(rows, 0.1) > 0);
  CHECK(overhead_at(rows, 2.0) > 0);
  for (std::size_t i = 1; i < rows.size() && rows[i].first < 0.5; ++i) {
    CAPTURE(rows[i].first);
    CHECK(rows[i - 1].second > rows[i].second);  // more overhead for the smaller model
  }
  // The dip below zero is reported, not hidden.
  CHECK(r.err.find("note: the overhead is negative") != std::string::npos);

  const Run j = run_moeplan({"plot", "overtraining", "--flops", "1e19", "-o", js.string()});
  REQUIRE_MESSAGE(j.code == 0, j.err);
  const nlohmann::json doc = nlohmann::json::parse(slurp_file(js));  // strict: no NaN
  CHECK(doc.at("figure").at("kind") == "overtraining");
  CHECK(doc.at("figure").at("x_key") == "active_ratio");
  CHECK(doc.at("figure").at("y_key") == "overhead");
  CHECK(doc.at("figure").at("notes").is_array());
  const nlohmann::json& points = doc.at("points");
  REQUIRE(points.size() == rows.size() + 1);  // and the marker
  std::size_t i = 0;
  for (const nlohmann::json& p : points) {
    if (p.at("series") != "plans at the compute-optimal loss") {
      CHECK(p.at("series") == "compute-optimal");
      CHECK(p.at("active_ratio") == 1.0);
      CHECK(p.at("overhead") == 0.0);
      continue;
    }
    CHECK(p.at("active_ratio").get<double>() == doctest::Approx(rows[i].first).epsilon(1e-9));
    CHECK(p.at("overhead").get<double>() == doctest::Approx(rows[i].second).epsilon(1e-9));
    CHECK(p.at("tokens").get<double>() > 0);
    ++i;
  }

  // Larger budgets: the smallest sizes never reach the loss; they are left out, with a note.
  const Run big = run_moeplan({"plot", "overtraining", "--flops", "1e22", "-o", csv.string()});
  REQUIRE(big.code == 0);
  const auto big_rows = overtraining_rows(slurp_file(csv));
  CHECK(big_rows.front().first > 0.1);
  CHECK(std::abs(overhead_at(big_rows, 1.0)) < 1e-6);
  CHECK(big.err.find("have no plan at the compute-optimal loss") != std::string::npos);
  std::filesystem::remove(csv);
  std::filesystem::remove(js);
}

TEST_CASE("plot overtraining: bad ranges and outputs exit 2 naming the flag, and write nothing") {
  const std::filesystem::path out = temp_path("overtraining-bad.csv");
  std::filesystem::remove(out);
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"--from", "0.0001"}, "--from"},
      {{"--to", "1000"}, "--to"},
      {{"--from", "2", "--to", "1"}, "--from"},
      {{"--points", "1"}, "--points"},
  };
  for (const auto& [extra, flag] : cases) {
    std::vector<std::string> args{"plot", "overtraining", "--flops", "1e20", "-o", out.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    CAPTURE(fmt_args(args));
    const Run r = run_moeplan(args);
    CHECK(r.code == 2);
    CHECK(r.err.find(flag) != std::string::npos);
    CHECK(r.out.empty());
  }
  const Run no_flops = run_moeplan({"plot", "overtraining", "-o", out.string()});
  CHECK(no_flops.code == 2);
  CHECK(no_flops.err.find("needs --flops") != std::string::npos);
  const Run pdf = run_moeplan({"plot", "overtraining", "--flops", "1e20", "-o", temp_path("o.pdf").string()});
  CHECK(pdf.code == 2);
  CHECK(pdf.err.find(".csv or .json") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(out));
}

#ifndef MOEPLAN_HAVE_PLOTS
TEST_CASE("plot without PLplot: exit 2 and how to get it") {
  const Run r = run_moeplan({"plot", "el", "--flops", "1e22", "-o", temp_path("x.png").string()});
  CHECK(r.code == 2);
  CHECK(r.err.find("built without PLplot (install libplplot-dev plplot-driver-cairo") !=
        std::string::npos);
}
#endif

