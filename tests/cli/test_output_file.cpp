// What -o (and --out, --residuals, --points, --data) may write over: never an input, never a
// write-protected file, never one file twice, never a name no format claims; a failed write
// to standard output is exit 5; no temporary outlives a command.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "app.hpp"
#include "cli_run.hpp"
#include "interrupt_cleanup.hpp"

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// A fresh directory with a runs CSV and a model config in it.
struct Workdir {
  fs::path dir;
  std::string runs, runs_text, model, model_text;
  // temp_path: a folder of this process's own (another checkout's suite on the same machine,
  // or ctest -j, would remove it under a running case: the CI's one failure of 2026-11-28).
  explicit Workdir(const std::string& name) : dir(temp_path("out-" + name)) {
    fs::remove_all(dir);
    fs::create_directories(dir);
    runs = (dir / "runs.csv").string();
    fs::copy_file(std::string(MOEPLAN_TEST_DATA_DIR) + "/moe_vs_dense_runs.csv", runs);
    runs_text = slurp(runs);
    model = (dir / "model.toml").string();
    model_text = run_moeplan({"presets", "show", "moe-mini"}).out;
    std::ofstream(model) << model_text;
  }
  ~Workdir() { fs::remove_all(dir); }
  Workdir(const Workdir&) = delete;
  Workdir& operator=(const Workdir&) = delete;
  [[nodiscard]] std::string at(const std::string& name) const { return (dir / name).string(); }
};

const std::vector<std::string> k_fit{"--law", "activation", "--column", "loss=BPC", "-q"};

Run fit(const std::string& runs, std::vector<std::string> extra) {
  std::vector<std::string> args{"fit", runs};
  args.insert(args.end(), k_fit.begin(), k_fit.end());
  args.insert(args.end(), extra.begin(), extra.end());
  return run_moeplan(args);
}

// A stream buffer on a full disk: every write fails with ENOSPC.
class FullDisk : public std::streambuf {
 protected:
  int_type overflow(int_type) override {
    errno = ENOSPC;
    return traits_type::eof();
  }
  std::streamsize xsputn(const char*, std::streamsize) override {
    errno = ENOSPC;
    return 0;
  }
};

Run run_to_full_disk(std::vector<std::string> args) {
  args.insert(args.begin(), "moeplan");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  FullDisk full;
  std::ostream out(&full);
  std::ostringstream err;
  const int code = moeplan::cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
  return {code, "", err.str()};
}

}  // namespace

TEST_CASE("an output that is an input is refused (exit 5) by identity: the name, ./name, a symlink, a hard link") {
  const Workdir w("input-identity");
  fs::create_symlink(w.runs, w.at("link.csv"));
  fs::create_hard_link(w.runs, w.at("hard.csv"));
  const std::string dot = (w.dir / "." / "runs.csv").string();
  const std::vector<std::vector<std::string>> outputs{
      {"-o", w.runs, "--format", "csv"}, {"--out", w.runs},       {"--residuals", w.runs},
      {"--out", dot},                    {"--residuals", w.at("link.csv")},
      {"-o", w.at("hard.csv"), "--format", "json"}};
  for (const auto& o : outputs) {
    CAPTURE(fmt_args(o));
    const Run r = fit(w.runs, o);
    CHECK(r.code == 5);
    CHECK(r.out.empty());
    CHECK(r.err.find(o[0] + ": ") != std::string::npos);  // names the flag
    CHECK(r.err.find("writing it would destroy what was read") != std::string::npos);
    CHECK(slurp(w.runs) == w.runs_text);
    CHECK(fs::is_symlink(w.at("link.csv")));
  }
  // The same rule for every command that reads files: score's configs, --laws.
  const Run score = run_moeplan({"score", w.model, "-o", w.model});
  CHECK(score.code == 5);
  const Run emit = run_moeplan({"score", w.model, "--emit", "toml", "-o", w.model});
  CHECK(emit.code == 5);
  CHECK(slurp(w.model) == w.model_text);
  const std::string laws = w.at("laws.toml");
  std::ofstream(laws) << run_moeplan({"presets", "show", "holistic"}).out;
  const std::string laws_text = slurp(laws);
  const Run suggest = run_moeplan({"suggest", "--flops", "1e20", "--no-bench", "--laws", laws, "-o", laws});
  CHECK(suggest.code == 5);
  CHECK(suggest.err.find("laws.toml is an input file") != std::string::npos);
  CHECK(slurp(laws) == laws_text);
  // A different file is written as before.
  CHECK(fit(w.runs, {"--residuals", w.at("res.csv")}).code == 0);
  CHECK(fs::exists(w.at("res.csv")));
}

TEST_CASE("a write-protected -o file is refused (exit 5) and kept, also for root - a writable one is replaced") {
  const Workdir w("protected");
  const std::string keep = w.at("keep.json");
  std::ofstream(keep) << "keep";
  fs::permissions(keep, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);  // 0444
  const Run r = run_moeplan({"suggest", "--flops", "1e20", "--no-bench", "-o", keep});
  CHECK(r.code == 5);
  CHECK(r.err.find("keep.json") != std::string::npos);
  CHECK(r.err.find("0444") != std::string::npos);
  CHECK(slurp(keep) == "keep");
  CHECK((fs::status(keep).permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read));
  fs::permissions(keep, fs::perms::owner_write, fs::perm_options::add);  // 0644
  CHECK(run_moeplan({"suggest", "--flops", "1e20", "--no-bench", "-o", keep}).code == 0);
  CHECK(slurp(keep).find("\"config\"") != std::string::npos);
}

TEST_CASE("an empty output name is a usage error (exit 2), not standard output") {
  const Workdir w("empty-name");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"suggest", "--flops", "1e20", "--no-bench", "-o", ""},
        std::vector<std::string>{"presets", "--output", ""},
        std::vector<std::string>{"fit", w.runs, "--out", ""},
        std::vector<std::string>{"fit", w.runs, "--residuals", ""}}) {
    CAPTURE(fmt_args(args));
    const Run r = run_moeplan(args);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find("empty file name") != std::string::npos);
  }
}

TEST_CASE("-o with an extension no format claims is refused with the known ones, unless --format or --emit says what to write") {
  const Workdir w("extension");
  const Run yaml = run_moeplan({"suggest", "--flops", "1e20", "--no-bench", "-o", w.at("plan.yaml")});
  CHECK(yaml.code == 2);
  CHECK(yaml.err.find(".yaml") != std::string::npos);
  CHECK(yaml.err.find(".json .toml .csv") != std::string::npos);
  CHECK(yaml.err.find("--format") != std::string::npos);
  CHECK_FALSE(fs::exists(w.at("plan.yaml")));
  CHECK(fit(w.runs, {"-o", w.at("report.md")}).code == 2);
  // --format names the content, so any name goes.
  CHECK(run_moeplan({"suggest", "--flops", "1e20", "--no-bench", "-f", "json", "-o", w.at("plan.yaml")}).code == 0);
  CHECK(slurp(w.at("plan.yaml")).find("\"config\"") != std::string::npos);
  // .txt is the table; no extension is the table; --emit fixes its own content.
  REQUIRE(run_moeplan({"suggest", "--flops", "1e20", "--no-bench", "-o", w.at("plan.txt")}).code == 0);
  CHECK(slurp(w.at("plan.txt")).rfind("Plan for C", 0) == 0);
  REQUIRE(run_moeplan({"suggest", "--flops", "1e20", "--no-bench", "-o", w.at("plan")}).code == 0);
  CHECK(slurp(w.at("plan")).rfind("Plan for C", 0) == 0);
  CHECK(run_moeplan({"score", "moe-mini", "--emit", "megatron", "-o", w.at("args.sh"), "-q"}).code == 0);
  CHECK(run_moeplan({"presets", "show", "holistic", "-o", w.at("laws.toml")}).code == 0);
}

TEST_CASE("two outputs naming one file are refused: by identity when it exists, by normalised path when new") {
  const Workdir w("same-file");
  const std::string a = w.at("a.toml"), a_dotted = (w.dir / "." / "a.toml").string();
  const Run fresh = fit(w.runs, {"--out", a, "--residuals", a_dotted});
  CHECK(fresh.code == 5);
  CHECK(fresh.err.find("are the same file") != std::string::npos);
  CHECK_FALSE(fs::exists(a));
  std::ofstream(w.at("old.csv")) << "old";
  fs::create_hard_link(w.at("old.csv"), w.at("twin.csv"));
  const Run linked = fit(w.runs, {"--residuals", w.at("old.csv"), "-o", w.at("twin.csv")});
  CHECK(linked.code == 5);
  CHECK(linked.err.find("--residuals") != std::string::npos);
  CHECK(linked.err.find("-o ") != std::string::npos);
  CHECK(slurp(w.at("old.csv")) == "old");
}

TEST_CASE("a failed write to standard output is exit 5 with the reason: --help, --version, completion, data") {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--help"}, std::vector<std::string>{"--version"},
        std::vector<std::string>{"completion", "bash"}, std::vector<std::string>{"fit", "--help"},
        std::vector<std::string>{"presets"},
        std::vector<std::string>{"suggest", "--flops", "1e20", "--no-bench", "-q"}}) {
    CAPTURE(fmt_args(args));
    const Run r = run_to_full_disk(args);
    CHECK(r.code == 5);
    CHECK(r.err.find("moeplan: error: cannot write to standard output: No space left on device") == 0);
    CHECK(r.err.find("cannot write to standard output", 20) == std::string::npos);  // said once
  }
}

TEST_CASE("no temporary outlives a command, written or refused") {
  const Workdir w("temporaries");
  CHECK(fit(w.runs, {"-o", w.at("report.json"), "--residuals", w.at("r.csv")}).code == 0);
  CHECK(fit(w.runs, {"--residuals", w.at("x.csv"), "-o", "/nonexistent/report.json"}).code == 5);
  CHECK_FALSE(fs::exists(w.at("x.csv")));
  CHECK(moeplan::cli::pending_temporaries() == 0);
  for (const auto& e : fs::directory_iterator(w.dir)) {
    CHECK(e.path().filename().string().find(".moeplan-") == std::string::npos);
  }
}
