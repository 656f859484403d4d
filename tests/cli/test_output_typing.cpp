// Machine output is valid and typed: no NaN/inf in JSON, no strings where numbers go; a
// number that cannot be given is null (JSON), absent (TOML) or empty (CSV) with KEY_reason.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include <sys/stat.h>

#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include "cli_run.hpp"

using nlohmann::json;

namespace {

std::filesystem::path write_temp(const std::string& name, const std::string& text) {
  const auto p = std::filesystem::temp_directory_path() / name;
  std::ofstream(p) << text;
  return p;
}

// A preset with its [training] table removed: no budget, so the budget laws cannot answer.
std::string preset_without_training(const std::string& preset) {
  const Run r = run_moeplan({"presets", "show", preset});
  REQUIRE(r.code == 0);
  std::string out;
  bool skip = false;
  std::size_t at = 0;
  while (at < r.out.size()) {
    const std::size_t nl = r.out.find('\n', at);
    const std::string line = r.out.substr(at, nl == std::string::npos ? std::string::npos : nl - at + 1);
    at = nl == std::string::npos ? r.out.size() : nl + 1;
    if (line.rfind("[", 0) == 0) skip = line.rfind("[training]", 0) == 0;
    if (!skip) out += line;
  }
  return out;
}

// Strict: nlohmann rejects NaN, Infinity and trailing garbage.
json strict_json(const std::string& text) { return json::parse(text); }

}  // namespace

TEST_CASE("score without a training budget: null + KEY_reason in JSON, absent in TOML, no strings for numbers") {
  const auto path = write_temp("moeplan-no-budget.toml", preset_without_training("qwen3-30b-a3b"));
  const Run r = run_moeplan({"score", path.string(), "--format", "json"});
  REQUIRE(r.code == 0);
  const json j = strict_json(r.out);
  const json& compute = j.at(0).at("compute");
  CHECK(compute.at("compute").is_null());
  CHECK(compute.at("compute_reason") == "no training budget");
  CHECK(j.at(0).at("leverage").at("efficiency_leverage").is_null());
  for (const auto& [section, fields] : j.at(0).items()) {
    for (const auto& [key, value] : fields.items()) {
      CAPTURE(section);
      CAPTURE(key);
      if (value.is_string()) CHECK(value.get<std::string>().rfind("n/a", 0) != 0);
    }
  }
  const Run t = run_moeplan({"score", path.string(), "--format", "toml"});
  REQUIRE(t.code == 0);
  const toml::table doc = toml::parse(t.out);
  const toml::table* c = doc["models"][0]["compute"].as_table();
  REQUIRE(c != nullptr);
  CHECK_FALSE(c->contains("compute"));
  CHECK(c->contains("compute_reason"));
  std::filesystem::remove(path);
}

TEST_CASE("a budget too large to hold: score JSON carries null, never inf") {
  std::string text = preset_without_training("qwen3-30b-a3b");
  text += "\n[training]\ntokens = 1e300\nseq_len = 4096\n";
  const auto path = write_temp("moeplan-huge-budget.toml", text);
  const Run r = run_moeplan({"score", path.string(), "--format", "json"});
  // C = M D overflows a double: refused (exit 3), naming the file's [training] table and the
  // limit, with nothing on stdout (it used to print "n/a (inf)" figures).
  CHECK(r.code == 3);
  CHECK(r.out.empty());
  CHECK(r.err.find("[training] of " + path.string()) != std::string::npos);
  CHECK(r.err.find("LIMITS") != std::string::npos);
  std::filesystem::remove(path);
}

TEST_CASE("fit whose optimum is undefined writes null + reason, not nan") {
  const Run r = run_moeplan({"fit", std::string(MOEPLAN_TEST_DATA_DIR) + "/moe_vs_dense_runs.csv",
                             "--law", "activation", "--column", "loss=BPC", "--format", "json"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find(": nan") == std::string::npos);
  CHECK(r.out.find(": -nan") == std::string::npos);
  const json j = strict_json(r.out);
  bool saw_null = false;
  for (const auto& [section, fields] : j.items()) {
    if (!fields.is_object()) continue;
    for (const auto& [key, value] : fields.items()) {
      if (!value.is_null()) continue;
      saw_null = true;
      CAPTURE(key);
      CHECK(fields.contains(key + "_reason"));
    }
  }
  CHECK(saw_null);
}

namespace {

// 16 noise-free Chinchilla-shaped runs (N, D, loss): a fit that succeeds quickly.
void write_chinchilla_runs(const std::filesystem::path& path) {
  std::ofstream csv(path);
  csv << "N,D,loss\n";
  for (double N : {1e8, 3e8, 1e9, 3e9}) {
    for (double D : {1e9, 3e9, 1e10, 3e10}) {
      csv << N << "," << D << "," << 1.7 + 400 / std::pow(N, 0.34) + 410 / std::pow(D, 0.28) << "\n";
    }
  }
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("-o keeps what it writes to: a symlink stays a link, a device or FIFO is written in place") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "moeplan-o-test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  // A symlink: its target gets the plan, the link survives.
  std::ofstream(dir / "real.txt") << "old";
  fs::create_symlink(dir / "real.txt", dir / "link.txt");
  REQUIRE(run_moeplan({"suggest", "--flops", "1e20", "--no-bench", "-o", (dir / "link.txt").string()}).code == 0);
  CHECK(fs::is_symlink(dir / "link.txt"));
  CHECK(slurp(dir / "real.txt").find("Plan for C = 1e+20") != std::string::npos);
  // A character device stays a device (as root this once became a regular file).
  CHECK(run_moeplan({"suggest", "--flops", "1e20", "--no-bench", "-o", "/dev/null"}).code == 0);
  CHECK(fs::is_character_file("/dev/null"));
  const Run full = run_moeplan({"suggest", "--flops", "1e20", "--no-bench", "-o", "/dev/full"});
  CHECK(full.code == 5);
  CHECK(full.err.find("/dev/full") != std::string::npos);
  CHECK(fs::is_character_file("/dev/full"));
  // A FIFO stays a FIFO and its reader gets the plan.
  const fs::path fifo = dir / "plan.fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string received;
  std::thread reader([&] { received = slurp(fifo); });
  const Run to_fifo = run_moeplan({"suggest", "--flops", "1e20", "--no-bench", "-o", fifo.string()});
  reader.join();
  CHECK(to_fifo.code == 0);
  CHECK(fs::is_fifo(fifo));
  CHECK(received.find("Plan for C = 1e+20") != std::string::npos);
  // A directory is refused by name.
  const Run d = run_moeplan({"suggest", "--flops", "1e20", "--no-bench", "-o", dir.string()});
  CHECK(d.code == 5);
  CHECK(d.err.find("is a directory") != std::string::npos);
  // No temporary is left beside the targets.
  for (const auto& e : fs::directory_iterator(dir)) {
    CHECK(e.path().filename().string().find(".moeplan-") == std::string::npos);
  }
  fs::remove_all(dir);
}

TEST_CASE("-o FILE.json/.toml/.csv without --format writes that format - --format wins") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "moeplan-o-format";
  fs::create_directories(dir);
  REQUIRE(run_moeplan({"suggest", "--flops", "1e20", "--no-bench", "-o", (dir / "p.json").string()}).code == 0);
  CHECK(json::parse(slurp(dir / "p.json")).contains("config"));
  REQUIRE(run_moeplan({"suggest", "--flops", "1e20", "--no-bench", "-o", (dir / "p.TOML").string()}).code == 0);
  CHECK(toml::parse(slurp(dir / "p.TOML")).contains("config"));
  REQUIRE(run_moeplan({"suggest", "--flops", "1e20", "--no-bench", "-o", (dir / "p.csv").string()}).code == 0);
  CHECK(slurp(dir / "p.csv").rfind("budget.compute,", 0) == 0);
  REQUIRE(run_moeplan({"suggest", "--flops", "1e20", "--no-bench", "--format", "table", "-o",
                       (dir / "t.json").string()}).code == 0);
  CHECK(slurp(dir / "t.json").rfind("Plan for C", 0) == 0);
  fs::remove_all(dir);
}

TEST_CASE("fit's outputs are all or nothing: one bad path leaves none behind") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "moeplan-fit-outputs";
  fs::remove_all(dir);
  fs::create_directories(dir);
  write_chinchilla_runs(dir / "runs.csv");
  const Run bad = run_moeplan({"fit", (dir / "runs.csv").string(), "--out", (dir / "ok.toml").string(),
                               "--residuals", (dir / "missing" / "r.csv").string()});
  CHECK(bad.code == 5);
  CHECK(bad.out.empty());
  CHECK_FALSE(fs::exists(dir / "ok.toml"));
  const Run good = run_moeplan({"fit", (dir / "runs.csv").string(), "--out", (dir / "ok.toml").string(),
                                "--residuals", (dir / "r.csv").string()});
  CHECK(good.code == 0);
  CHECK(fs::exists(dir / "ok.toml"));
  CHECK(fs::exists(dir / "r.csv"));
  fs::remove_all(dir);
}

TEST_CASE("outputs: devices and stdout go first, so a failing one leaves no file - one file per output - new files follow the umask - a dangling link is written through") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "moeplan-o-review";
  fs::remove_all(dir);
  fs::create_directories(dir);
  write_chinchilla_runs(dir / "runs.csv");
  const std::string runs = (dir / "runs.csv").string(), ok = (dir / "ok.toml").string();
  CHECK(run_moeplan({"fit", runs, "--out", ok, "--residuals", "/dev/full"}).code == 5);
  CHECK_FALSE(fs::exists(ok));
  const Run same = run_moeplan({"fit", runs, "--out", ok, "--residuals", ok});
  CHECK(same.code == 5);
  CHECK(same.err.find("same file") != std::string::npos);
  CHECK_FALSE(fs::exists(ok));
  // umask 022 → 0644 (mkstemp alone would give 0600).
  const mode_t old = ::umask(022);
  REQUIRE(run_moeplan({"suggest", "--flops", "1e20", "--no-bench", "-o", (dir / "p.json").string()}).code == 0);
  ::umask(old);
  CHECK((fs::status(dir / "p.json").permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read));
  // A dangling symlink: the file it names is created, the link stays.
  fs::create_symlink("named.json", dir / "dangling.json");
  REQUIRE(run_moeplan({"suggest", "--flops", "1e20", "--no-bench", "-o", (dir / "dangling.json").string()}).code == 0);
  CHECK(fs::is_symlink(dir / "dangling.json"));
  CHECK(fs::is_regular_file(dir / "named.json"));
  fs::remove_all(dir);
}

TEST_CASE("numbers stay numbers: bench timed_rows and score's ranges") {
  const Run b = run_moeplan({"bench", "moe-mini", "--seconds", "0.05", "--reps", "1", "--threads", "1",
                             "--micro-batch-tokens", "64", "--no-gpu", "--format", "json"});
  REQUIRE(b.code == 0);
  const json jb = json::parse(b.out);
  bool saw = false;
  for (const auto& [section, fields] : jb.at(0).items()) {
    if (!fields.is_object() || !fields.contains("timed_rows")) continue;
    saw = true;
    CHECK(fields["timed_rows"].is_number_integer());
  }
  CHECK(saw);
  const Run s = run_moeplan({"score", "qwen3-30b-a3b", "--format", "json"});
  REQUIRE(s.code == 0);
  const json score = json::parse(s.out);
  const json& joint = score.at(0).at("joint_law");
  CHECK(joint.at("active_experts_range_low").is_number());
  CHECK(joint.at("active_experts_range_high").get<double>() > joint.at("active_experts_range_low").get<double>());
  CHECK(joint.at("shared_ratio_range_low").is_number());
}
