// src/plot/render.cpp (the PLplot module) through `moeplan plot`: real PNG and SVG files from
// PLplot (built only with PLplot; was tests/plot/test_plot.cpp).
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "cli_run.hpp"
#include "moeplan/planner/candidates.hpp"
#include "moeplan/laws/laws_loader.hpp"

namespace fs = std::filesystem;
using namespace moeplan;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

std::uint32_t big_endian_u32(const std::string& s, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(s.at(at + i));
  return v;
}

/// PLplot's svg driver writes every character as &#xNN;: decode so labels can be searched.
std::string svg_text(const std::string& svg) {
  std::string out;
  for (std::size_t i = 0; i < svg.size(); ++i) {
    if (svg.compare(i, 3, "&#x") == 0) {
      const std::size_t end = svg.find(';', i);
      out += static_cast<char>(std::stoi(svg.substr(i + 3, end - i - 3), nullptr, 16));
      i = end;
    } else {
      out += svg[i];
    }
  }
  return out;
}

std::size_t count(const std::string& hay, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) ++n;
  return n;
}

/// CSV rows of one series, split on commas (the plotted series have no quoted names).
std::vector<std::vector<std::string>> rows_of(const std::string& csv, const std::string& series) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(csv);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(series + ",", 0) != 0) continue;
    std::vector<std::string> cells;
    std::istringstream cell(line);
    for (std::string c; std::getline(cell, c, ',');) cells.push_back(c);
    rows.push_back(cells);
  }
  return rows;
}

}  // namespace

TEST_CASE("plot el writes a PNG with a non-empty IHDR and --data marks the suggest winner") {
  const fs::path png = temp_path("plot-el.png"), csv = temp_path("plot-el.csv");
  const Run r = run_moeplan({"plot", "el", "--flops", "1e22", "-o", png.string(), "--data",
                             csv.string()});
  REQUIRE(r.code == 0);
  const std::string bytes = slurp(png);
  REQUIRE(bytes.size() > 1000);
  CHECK(bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
  CHECK(bytes.compare(12, 4, "IHDR") == 0);
  CHECK(big_endian_u32(bytes, 16) == 1200);  // width
  CHECK(big_endian_u32(bytes, 20) == 800);   // height

  const std::string data = slurp(csv);
  CHECK(data.rfind("series,activation_ratio,granularity,efficiency_leverage\n", 0) == 0);
  CHECK(rows_of(data, "el").size() == 73 * 61);
  const auto chosen = rows_of(data, "chosen");
  REQUIRE(chosen.size() == 1);
  SuggestOptions o;
  o.goal.compute = Flops(1e22);
  const auto s = suggest(builtin_laws().holistic, o);
  REQUIRE(s.has_value());
  const RankedCandidate w = rank_candidates(builtin_laws(), Planner(builtin_laws().holistic, o), *s).candidates.front();
  const MoeArchitecture& a = w.suggestion.solution.arch;
  CHECK(std::stod(chosen[0][1]) == doctest::Approx(double(a.family.top_k + a.family.n_shared_experts) /
                                                   (a.family.n_experts + a.family.n_shared_experts)));
  CHECK(std::stod(chosen[0][2]) == doctest::Approx(2.0 * a.d / a.d_m));
  CHECK(std::stod(chosen[0][3]) == doctest::Approx(w.efficiency_leverage));
  fs::remove(png);
  fs::remove(csv);
}

TEST_CASE("plot m-over-na writes an SVG with its labels as text and the grey band drawn") {
  const fs::path svg = temp_path("plot-m.svg"), csv = temp_path("plot-m.csv");
  const Run r = run_moeplan({"plot", "m-over-na", "--flops", "1e22", "--blind-ok", "-o", svg.string(),
                             "--data", csv.string(), "--title", "Sweep of M/N_a"});
  REQUIRE(r.code == 0);
  const std::string raw = slurp(svg);
  CHECK(raw.rfind("<?xml", 0) == 0);
  CHECK(raw.find("<svg") != std::string::npos);
  CHECK(raw.find("</svg>") != std::string::npos);
  const std::string text = svg_text(raw);
  CHECK(text.find("Sweep of M/N_a") != std::string::npos);              // --title
  CHECK(text.find("M/N_a (FLOPs per token per active parameter)") != std::string::npos);
  CHECK(text.find("predicted loss (paper 001 Eq. 11)") != std::string::npos);
  CHECK(text.find("within 0.1 % of min") != std::string::npos);         // legend
  {  // the star is suggest's own winner at this budget (its law target M/N_a)
    auto plan = plan_for_budget(builtin_laws(), SuggestOptions{.goal = {.compute = Flops(1e22)}});
    REQUIRE(plan.has_value());
    const double target = plan->candidates.front().suggestion.m_over_na_target;
    CHECK(text.find(fmt::format("suggest's config (m_over_na = {:.4g})", target)) != std::string::npos);
  }
  CHECK(count(raw, "fill=\"#D7D7D7\"") >= 1);  // the band, cmap0 slot 2
  CHECK(count(raw, "<polyline") > 40);          // axes, ticks and the loss curve

  const std::string data = slurp(csv);
  CHECK(data.rfind("series,m_over_na,loss\n", 0) == 0);
  CHECK(rows_of(data, "loss").size() >= 20);
  CHECK(rows_of(data, "chosen").size() == 1);
  CHECK(r.err.find("moeplan: note: the lowest loss is at the end of the feasible sweep") !=
        std::string::npos);
  fs::remove(svg);
  fs::remove(csv);
}

TEST_CASE("plot step writes an SVG with each bar's axis, total and key as text, and a PNG") {
  const fs::path svg = temp_path("plot-step.svg"), png = temp_path("plot-step.png");
  const std::vector<std::string> flags{"moe-mini", "--gpus", "8", "--gpu", "h100", "--tokens", "1e11",
                                       "--eval-interval", "100", "--eval-minutes", "10"};
  std::vector<std::string> args{"plot", "step"};
  args.insert(args.end(), flags.begin(), flags.end());
  args.insert(args.end(), {"-o", svg.string()});
  const Run r = run_moeplan(args);
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::string text = svg_text(slurp(svg));
  CHECK(text.find("MoE-mini: where the time of 100B tokens goes on 8 x h100-sxm") != std::string::npos);
  CHECK(text.find("one step, busiest stage, steady state (s)") != std::string::npos);
  CHECK(text.find("whole training, wall time (days)") != std::string::npos);
  CHECK(text.find("gemm: ") != std::string::npos);          // the key: a term with its seconds
  CHECK(text.find("evaluations: ") != std::string::npos);   // and a loss with its days
  CHECK(text.find("0 s: recompute") != std::string::npos);  // terms of no time named together
  args.back() = png.string();
  REQUIRE(run_moeplan(args).code == 0);
  const std::string bytes = slurp(png);
  REQUIRE(bytes.size() > 1000);
  CHECK(bytes.compare(1, 3, "PNG") == 0);
  fs::remove(svg);
  fs::remove(png);
}

TEST_CASE("plot step: a long key is wrapped or shrunk to stay on the page") {
  // Checkpoints written at 10 MB/s every 20 minutes: thousands of days of saves, whose key line
  // ("checkpoint saves: 2.76e+03 days (76.4 %)") ran past the right edge of the 1200-point page.
  const fs::path svg = temp_path("plot-step-long.svg");
  const Run r = run_moeplan({"plot", "step", "deepseek-v3.1", "--gpus", "256", "--gpu", "h800", "--tokens", "14.8e12",
                             "--interruptions-per-gpu-hour", "0.0001", "--checkpoint-write-gbps", "0.01",
                             "--checkpoint-interval", "20", "-o", svg.string()});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::string raw = slurp(svg);
  fs::remove(svg);
  // Each left-anchored text: its x (the transform's fifth figure), font size and characters;
  // its right end estimated at 0.53 em a character (DejaVu Sans' mean over these keys is
  // 0.535: 337 px for the 35 characters of "checkpoint saves: 139 days (11.4 %)" at 18 px).
  std::size_t keys = 0;
  for (std::size_t at = raw.find("<text"); at != std::string::npos; at = raw.find("<text", at + 1)) {
    const std::size_t end = raw.find("</text>", at);
    const std::string element = raw.substr(at, end - at);
    if (element.find("text-anchor=\"start\"") == std::string::npos) continue;
    const std::size_t matrix = element.find("matrix(");
    const std::size_t size_at = element.find("font-size=\"");
    REQUIRE(matrix != std::string::npos);
    REQUIRE(size_at != std::string::npos);
    std::istringstream figures(element.substr(matrix + 7));
    double a = 0, b = 0, c = 0, d = 0, x = 0;
    figures >> a >> b >> c >> d >> x;
    const double font = std::stod(element.substr(size_at + 11));
    std::string characters = svg_text(element.substr(element.find('>', element.find("<tspan")) + 1));
    characters = characters.substr(0, characters.find('<'));
    CAPTURE(characters);
    CHECK(x + 0.53 * font * double(characters.size()) <= 1200.0);
    ++keys;
  }
  CHECK(keys >= 10);
}

TEST_CASE("plot d, loss-vs-compute and residuals each write an image") {
  const fs::path out = temp_path("plot-any.png");
  CHECK(run_moeplan({"plot", "d", "--flops", "1e22", "--blind-ok", "-o", out.string()}).code == 0);
  CHECK(fs::file_size(out) > 1000);
  fs::remove(out);
  const fs::path svg = temp_path("plot-lc.svg");
  const Run lc = run_moeplan({"plot", "loss-vs-compute", "--flops", "1e22", "-m", "moe-mini",
                              "-o", svg.string()});
  CHECK(lc.code == 0);
  const std::string text = svg_text(slurp(svg));
  CHECK(text.find("MoE-mini") != std::string::npos);
  CHECK(text.find("suggest @ 1e22 kept fixed") != std::string::npos);
  fs::remove(svg);

  const fs::path res = temp_path("plot-res.csv");
  std::ofstream(res) << "line,split,group,observed,predicted,residual,relative_residual\n"
                        "3,train,,3.0,3.1,0.1,0.03\n4,validation,,2.5,2.4,-0.1,-0.04\n";
  const fs::path res_svg = temp_path("plot-res.svg");
  CHECK(run_moeplan({"plot", "residuals", res.string(), "-o", res_svg.string()}).code == 0);
  const std::string res_text = svg_text(slurp(res_svg));
  CHECK(res_text.find("train (1 runs)") != std::string::npos);
  CHECK(res_text.find("validation (1 runs)") != std::string::npos);
  fs::remove(res);
  fs::remove(res_svg);
}

TEST_CASE("plot draws no text past PLplot's buffer: a 1 MiB --title exits 2, a long model name is cut and said") {
  // PLplot wrote past its 1,024-code-point text buffer (SIGSEGV) for a text of about 1 KiB
  // (issue 46); under ASan (CI's sanitizer stage) a write past it fails this case.
  const fs::path svg = temp_path("plot-long-title.svg");
  const Run huge = run_moeplan({"plot", "el", "--flops", "1e22", "--title", std::string(1 << 20, 'T'),
                                "-o", svg.string()});
  CHECK(huge.code == 2);
  CHECK(huge.out.empty());
  CHECK(huge.err.find("--title: 1048576 bytes; a drawn text holds at most 256 bytes") != std::string::npos);
  CHECK_FALSE(fs::exists(svg));
  const Run bound = run_moeplan({"plot", "el", "--flops", "1e22", "--title", std::string(256, '#'), "-o", svg.string()});
  CHECK(bound.code == 0);
  CHECK(fs::file_size(svg) > 1000);
  fs::remove(svg);

  // A model whose name is 4 KiB: drawn cut to 256 bytes with an ellipsis, said on stderr; the
  // data keeps the whole name.
  const std::string name = "M" + std::string(4095, 'n');
  const Run shown = run_moeplan({"presets", "show", "moe-mini"});
  REQUIRE(shown.code == 0);
  std::string toml = shown.out;
  const std::size_t at = toml.find("\nname = ");
  REQUIRE(at != std::string::npos);
  toml.replace(at + 1, toml.find('\n', at + 1) - at - 1, "name = \"" + name + "\"");
  const fs::path model = temp_path("plot-long-name.toml");
  std::ofstream(model) << toml;
  const fs::path csv = temp_path("plot-long-name.csv");
  const Run lc = run_moeplan({"plot", "loss-vs-compute", "--flops", "1e22", "-m", model.string(), "-o", svg.string(),
                              "--data", csv.string()});
  CHECK(lc.code == 0);
  CHECK(lc.err.find("(4096 bytes) is cut to 256 bytes in the image") != std::string::npos);
  const std::string text = slurp(svg);
  CHECK(text.size() > 1000);
  CHECK(svg_text(text).find(std::string(200, 'n')) != std::string::npos);
  CHECK(svg_text(text).find(std::string(300, 'n')) == std::string::npos);
  CHECK(slurp(csv).find(name) != std::string::npos);
  fs::remove(svg);
  fs::remove(csv);
  fs::remove(model);
}

TEST_CASE("plot overtraining draws the equal-loss overhead with its laws in the title and the dip below zero said") {
  const fs::path svg = temp_path("plot-overtraining.svg"), png = temp_path("plot-overtraining.png");
  const Run r = run_moeplan({"plot", "overtraining", "--flops", "1e19", "-o", svg.string()});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const std::string text = svg_text(slurp(svg));
  CHECK(text.find("C = 1e19: paper 001 Eq. 11 on paper 002's compute-optimal line") != std::string::npos);
  CHECK(text.find("model size N_a / N_a,opt") != std::string::npos);
  CHECK(text.find("compute overhead C_train / C - 1") != std::string::npos);
  CHECK(text.find("plans at the compute-optimal loss") != std::string::npos);
  CHECK(text.find("paper 002's compute-optimal plan (overhead 0)") != std::string::npos);
  CHECK(text.find("below 0 for N_a/N_a,opt") != std::string::npos);  // the caption
  const Run p = run_moeplan({"plot", "overtraining", "--flops", "1e22", "-o", png.string()});
  REQUIRE(p.code == 0);
  const std::string bytes = slurp(png);
  CHECK(bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
  CHECK(big_endian_u32(bytes, 16) == 1200);
  // The pole of the smallest sizes is clipped in the image and said so.
  CHECK(p.err.find("the image stops at an overhead of 2") != std::string::npos);
  fs::remove(svg);
  fs::remove(png);
}

TEST_CASE("plot usage errors exit 2 and write nothing") {
  const fs::path pdf = temp_path("plot.pdf");
  const Run bad_ext = run_moeplan({"plot", "el", "--flops", "1e22", "-o", pdf.string()});
  CHECK(bad_ext.code == 2);
  CHECK(bad_ext.err.find("must end in .png or .svg") != std::string::npos);
  CHECK(!fs::exists(pdf));
  CHECK(run_moeplan({"plot", "el", "-o", temp_path("x.png").string()}).code == 2);  // no --flops
  CHECK(run_moeplan({"plot", "bogus", "--flops", "1e22", "-o", "x.png"}).code == 2);
  CHECK(run_moeplan({"plot", "residuals", "-o", "x.png"}).code == 2);  // file missing
  CHECK(run_moeplan({"plot", "el", "--flops", "junk", "-o", "x.png"}).code == 2);
  CHECK(!fs::exists("x.png"));
}

TEST_CASE("plot work is bounded: a range over 30 decades or a d past an int is a usage error naming the flag") {
  const fs::path out = temp_path("bounded.png");
  fs::remove(out);
  const Run wide = run_moeplan({"plot", "loss-vs-compute", "--flops", "1e22", "--from", "1e10",
                                "--to", "1e300", "-o", out.string()});
  CHECK(wide.code == 2);
  CHECK(wide.err.find("--from/--to") != std::string::npos);
  CHECK(wide.err.find("at most 30") != std::string::npos);
  const Run d = run_moeplan({"plot", "d", "--blind-ok", "--flops", "1e22", "--from", "1",
                             "--to", "1e300", "-o", out.string()});
  CHECK(d.code == 2);
  CHECK(d.err.find("--to: d is at most") != std::string::npos);
  CHECK(run_moeplan({"plot", "m-over-na", "--blind-ok", "--flops", "1e22", "--points", "10001",
                     "-o", out.string()}).code == 2);
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("plot to an unwritable path exits 5 and leaves no file") {
  const fs::path dir = temp_path("plot-no-such-dir");
  fs::remove_all(dir);
  const Run r = run_moeplan({"plot", "el", "--flops", "1e22", "-o", (dir / "el.png").string()});
  CHECK(r.code == 5);
  CHECK(r.err.find("moeplan: error: -o: cannot create") == 0);
  CHECK(!fs::exists(dir));
  const Run d = run_moeplan({"plot", "el", "--flops", "1e22", "-o", temp_path("ok.png").string(),
                             "--data", (dir / "el.csv").string()});
  CHECK(d.code == 5);
  CHECK(!fs::exists(temp_path("ok.png")));  // both outputs or neither
}

TEST_CASE("plot refuses to write one file twice or over its input (exit 5), and leaves no temporary") {
  const fs::path dir = temp_path("plot-same");
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string png = (dir / "same.png").string();
  const Run twice = run_moeplan({"plot", "el", "--flops", "1e22", "-o", png, "--data", png});
  CHECK(twice.code == 5);
  CHECK(twice.err.find("are the same file") != std::string::npos);
  CHECK_FALSE(fs::exists(png));
  const fs::path res = dir / "res.csv";
  std::ofstream(res) << "line,split,group,observed,predicted,residual,relative_residual\n"
                        "3,train,,2.5,2.4,-0.1,-0.04\n4,validation,,2.3,2.35,0.05,0.02\n";
  const std::string before = slurp(res);
  const Run over_input = run_moeplan({"plot", "residuals", res.string(), "-o",
                                      (dir / "r.svg").string(), "--data", (dir / "." / "res.csv").string()});
  CHECK(over_input.code == 5);
  CHECK(over_input.err.find("--data: ") != std::string::npos);
  CHECK(slurp(res) == before);
  CHECK_FALSE(fs::exists(dir / "r.svg"));
  REQUIRE(run_moeplan({"plot", "residuals", res.string(), "-o", (dir / "r.svg").string()}).code == 0);
  for (const auto& e : fs::directory_iterator(dir)) {
    CHECK(e.path().filename().string().find(".moeplan-") == std::string::npos);
  }
  fs::remove_all(dir);
}

TEST_CASE("plot residuals of a missing or malformed file exits 4") {
  CHECK(run_moeplan({"plot", "residuals", temp_path("nope.csv").string(), "-o",
                     temp_path("r.png").string()}).code == 4);
  const fs::path bad = temp_path("plot-bad.csv");
  std::ofstream(bad) << "line,observed\n3,2.5\n";  // no predicted column
  const Run r = run_moeplan({"plot", "residuals", bad.string(), "-o", temp_path("r.png").string()});
  CHECK(r.code == 4);
  CHECK(r.err.find("predicted") != std::string::npos);
  CHECK(!fs::exists(temp_path("r.png")));
  fs::remove(bad);
}

TEST_CASE("plot m-over-na and plot d are refused without --blind-ok: the joint law cannot see them") {
  for (const char* kind : {"m-over-na", "d"}) {
    CAPTURE(kind);
    const fs::path out = temp_path("blind.png");
    const Run r = run_moeplan({"plot", kind, "--flops", "1e22", "-o", out.string()});
    CHECK(r.code == 2);
    CHECK(r.err.find("--blind-ok") != std::string::npos);
    CHECK(r.err.find("paper 001") != std::string::npos);
    CHECK_FALSE(fs::exists(out));
    const Run ok = run_moeplan({"plot", kind, "--flops", "1e22", "--blind-ok", "-o", out.string()});
    CHECK(ok.code == 0);
    CHECK(ok.err.find("warning: plot") != std::string::npos);
    fs::remove(out);
  }
}
