// Bad flags and inputs: exit 2 for flags, 4 for files, a message a person can act on.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <dlib/md5.h>
#include <fmt/format.h>

#include "cli_run.hpp"

TEST_CASE("negative counts, NaN ratios and zero sizes are usage errors with readable reasons") {
  struct Case {
    std::vector<std::string> args;
    const char* flag;
  };
  const std::string csv = std::string(MOEPLAN_TEST_DATA_DIR) + "/moe_vs_dense_runs.csv";
  const std::vector<Case> cases{
      {{"fit", csv, "--bootstrap", "-1"}, "--bootstrap"},
      {{"fit", csv, "--starts", "-1"}, "--starts"},
      {{"fit", csv, "--seed", "-1"}, "--seed"},
      {{"fit", csv, "--bootstrap", "1e9"}, "--bootstrap"},
      {{"suggest", "--flops", "1e20", "--m-over-na", "nan"}, "--m-over-na"},
      {{"suggest", "--flops", "1e20", "--n-over-na", "nan"}, "--n-over-na"},
      {{"suggest", "--flops", "1e20", "--tolerance", "nan"}, "--tolerance"},
      {{"suggest", "--flops", "1e20", "--m-over-na", "inf"}, "--m-over-na"},
      {{"suggest", "--flops", "1e20", "--seq-len", "0"}, "--seq-len"},
      {{"suggest", "--flops", "1e20", "--candidates", "-1"}, "--candidates"},
      {{"suggest", "--flops", "1e20", "--d", "abc"}, "--d"},
  };
  for (const Case& c : cases) {
    CAPTURE(fmt_args(c.args));
    const Run r = run_moeplan(c.args);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find(c.flag) != std::string::npos);
    CHECK(r.err.size() < 400);  // no 310-digit range bound
  }
}

TEST_CASE("number flags read decimal only: hex, C's hex floats and octal-looking integers are refused or read as decimal") {
  struct Case {
    std::vector<std::string> args;
    const char* flag;
  };
  const std::vector<std::string> cluster = {"score", "moe-mini", "--gpus", "8", "--gpu", "h100", "--tokens", "1e11"};
  const std::vector<std::string> serve = {"score", "moe-mini", "--serve-gpus", "8", "--serve-gpu", "h100", "--tokens", "1e11"};
  const auto with = [](std::vector<std::string> base, std::initializer_list<std::string> extra) {
    base.insert(base.end(), extra);
    return base;
  };
  const std::vector<Case> cases{
      {with(cluster, {"--host-op-us", "0x10"}), "--host-op-us"},
      {with(cluster, {"--host-launch-us", "0x10"}), "--host-launch-us"},
      {with(cluster, {"--host-op-us", "inf"}), "--host-op-us"},
      {with(cluster, {"--gemm-efficiency", "0x0.1p3"}), "--gemm-efficiency"},
      {with(cluster, {"--interruptions-per-gpu-hour", "0x0.1"}), "--interruptions-per-gpu-hour"},
      // These three were read by CLI11's strtod: 0x0.1p3 was 0.5 and ran.
      {with(serve, {"--serve-memory-utilization", "0x0.1p3"}), "--serve-memory-utilization"},
      {with(serve, {"--serve-memory-utilization", "inf"}), "--serve-memory-utilization"},
      {with(serve, {"--serve-max-seqs", "0x10"}), "--serve-max-seqs"},
      {with(serve, {"--serve-max-batched-tokens", "0x1000"}), "--serve-max-batched-tokens"},
      // Integers went through strtoll with base 0: --tp 0x2 was TP 2.
      {with(cluster, {"--tp", "0x2"}), "--tp"},
      {with(cluster, {"--gpus-per-node", "0b100"}), "--gpus-per-node"},
      {with(serve, {"--serve-gpus", "0x8"}), "--serve-gpus"},
  };
  for (const Case& c : cases) {
    CAPTURE(fmt_args(c.args));
    const Run r = run_moeplan(c.args);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find(c.flag) != std::string::npos);
  }
  // 010 is ten, not octal eight: --tp 010 on 8 GPUs asks for more than there are.
  const Run ten = run_moeplan(with(cluster, {"--tp", "010"}));
  CHECK(ten.code != 0);
  CHECK(ten.err.find("--tp 8") == std::string::npos);
  CHECK(ten.err.find("10") != std::string::npos);
  const Run two = run_moeplan(with(cluster, {"--tp", "02", "--format", "json"}));
  const Run plain = run_moeplan(with(cluster, {"--tp", "2", "--format", "json"}));
  REQUIRE_MESSAGE(two.code == 0, two.err);
  CHECK(two.out == plain.out);
}

TEST_CASE("a mistyped command is named, with the nearest command") {
  const Run r = run_moeplan({"sugest", "--flops", "1e20"});
  CHECK(r.code == 2);
  CHECK(r.err.find("unknown command 'sugest'") != std::string::npos);
  CHECK(r.err.find("did you mean 'suggest'") != std::string::npos);
}

TEST_CASE("a directory given as a file is named as one (exit 4)") {
  const std::string dir = std::filesystem::temp_directory_path().string();
  const Run score = run_moeplan({"score", dir});
  CHECK(score.code == 4);
  CHECK(score.err.find("is a directory") != std::string::npos);
  const Run fit = run_moeplan({"fit", dir});
  CHECK(fit.code == 4);
  CHECK(fit.err.find("is a directory") != std::string::npos);
}

TEST_CASE("fit records the MD5 of the bytes it read, also from a pipe") {
  namespace fs = std::filesystem;
  const std::string csv = std::string(MOEPLAN_TEST_DATA_DIR) + "/moe_vs_dense_runs.csv";
  std::ifstream in(csv, std::ios::binary);
  const std::string expected = dlib::md5(in);
  const fs::path fifo = fs::temp_directory_path() / "moeplan-md5-fifo";
  fs::remove(fifo);
  // A named pipe fed by a shell: the file can be read once only, as with <(cat runs.csv).
  REQUIRE(std::system(("mkfifo '" + fifo.string() + "'").c_str()) == 0);
  REQUIRE(std::system(("cat '" + csv + "' > '" + fifo.string() + "' &").c_str()) == 0);
  const Run r = run_moeplan({"fit", fifo.string(), "--law", "activation", "--column", "loss=BPC",
                             "--format", "json"});
  fs::remove(fifo);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("\"input_md5\": \"" + expected + "\"") != std::string::npos);
}

namespace {

// A Chinchilla-shaped run table (N, D, loss), rows written by `row` with its own separator.
std::string runs_table(const std::string& header_prefix, const std::string& sep,
                       const std::string& row_prefix, const std::string& suffix,
                       const std::string& eol) {
  std::string text = header_prefix + "N" + sep + "D" + sep + "loss" + suffix + eol;
  int k = 0;
  for (double N : {1e8, 3e8, 1e9, 3e9}) {
    for (double D : {1e9, 3e9, 1e10, 3e10}) {
      const double loss = 1.7 + 400 / std::pow(N, 0.34) + 410 / std::pow(D, 0.28);
      text += fmt::format("{}{:g}{}{:g}{}{:.9g}{}{}", row_prefix.empty() ? "" : fmt::format("{}{}", k, row_prefix),
                          N, sep, D, sep, loss, suffix, eol);
      ++k;
    }
  }
  return text;
}

Run fit_text(const std::string& name, const std::string& text, std::vector<std::string> extra = {}) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path, std::ios::binary) << text;
  std::vector<std::string> args{"fit", path.string(), "--format", "json"};
  args.insert(args.end(), extra.begin(), extra.end());
  Run r = run_moeplan(args);
  std::filesystem::remove(path);
  return r;
}

}  // namespace

TEST_CASE("real-world CSVs: BOM, pandas index, trailing comma, semicolon and tab separators, CR-only lines" * doctest::test_suite("slow")) {
  struct Case {
    const char* what;
    std::string text;
  };
  const std::vector<Case> cases{
      {"plain", runs_table("", ",", "", "", "\n")},
      {"UTF-8 byte-order mark", "\xEF\xBB\xBF" + runs_table("", ",", "", "", "\n")},
      {"pandas index column", runs_table(",", ",", ",", "", "\n")},
      {"trailing comma", runs_table("", ",", "", ",", "\n")},
      {"semicolons", runs_table("", ";", "", "", "\n")},
      {"tabs", runs_table("", "\t", "", "", "\n")},
      {"CR-only line ends", runs_table("", ",", "", "", "\r")},
      {"CRLF line ends", runs_table("", ",", "", "", "\r\n")},
  };
  std::string first_fit;
  for (const Case& c : cases) {
    CAPTURE(c.what);
    const Run r = fit_text("moeplan-variant.csv", c.text);
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out.find("\"rows\": 16") != std::string::npos);
    // The same runs give the same coefficients whatever the dialect.
    const std::string coefficients = r.out.substr(r.out.find("\"coefficients\""), 200);
    if (first_fit.empty()) first_fit = coefficients;
    CHECK(coefficients == first_fit);
  }
}

TEST_CASE("fit --column LAW=CSV: the renamed column replaces a same-named one - a law name it does not read is refused") {
  std::string text = "N,D,loss,BPC\n";
  for (double N : {1e8, 3e8, 1e9, 3e9}) {
    for (double D : {1e9, 3e9, 1e10, 3e10}) {
      const double loss = 1.7 + 400 / std::pow(N, 0.34) + 410 / std::pow(D, 0.28);
      text += fmt::format("{:g},{:g},99,{:.9g}\n", N, D, loss);  // 'loss' is junk; BPC is the loss
    }
  }
  const Run ok = fit_text("moeplan-rename.csv", text, {"--column", "loss=BPC"});
  INFO(ok.err);
  REQUIRE(ok.code == 0);
  CHECK(ok.out.find("\"rows\": 16") != std::string::npos);
  const Run typo = fit_text("moeplan-rename.csv", text, {"--column", "Loss=BPC"});
  CHECK(typo.code == 4);
  CHECK(typo.err.find("Loss=BPC") != std::string::npos);
  CHECK(typo.err.find("reads no column 'Loss'") != std::string::npos);
  const Run zero = fit_text("moeplan-rename.csv", text, {"--holdout", "0"});
  CHECK(zero.code == 2);
  CHECK(zero.err.find("--holdout") != std::string::npos);
}

TEST_CASE("a laws file without schema says what the first line must be - a wrong type is named") {
  const auto path = std::filesystem::temp_directory_path() / "moeplan-no-schema.toml";
  std::ofstream(path) << "name = \"x\"\n";
  const Run missing = run_moeplan({"suggest", "--flops", "1e20", "--laws", path.string()});
  CHECK(missing.code == 4);
  CHECK(missing.err.find("schema = \"moeplan-laws/1\"") != std::string::npos);
  std::ofstream(path) << "schema = 3\nname = \"x\"\n";
  const Run typed = run_moeplan({"suggest", "--flops", "1e20", "--laws", path.string()});
  CHECK(typed.code == 4);
  CHECK(typed.err.find("must be a quoted string (found: integer)") != std::string::npos);
  std::filesystem::remove(path);
}

TEST_CASE("float flags refuse nan and say their range: bench --seconds, suggest --bench-seconds, fit --confidence") {
  const std::string csv = std::string(MOEPLAN_TEST_DATA_DIR) + "/moe_vs_dense_runs.csv";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"bench", "moe-mini", "--seconds", "nan"},
        std::vector<std::string>{"suggest", "--flops", "1e20", "--bench-seconds", "nan"},
        std::vector<std::string>{"fit", csv, "--confidence", "nan"},
        std::vector<std::string>{"bench", "moe-mini", "--seconds", "0"},
        std::vector<std::string>{"fit", csv, "--seed", "9007199254740993"}}) {
    CAPTURE(fmt_args(args));
    const Run r = run_moeplan(args);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.size() < 300);
  }
}

TEST_CASE("an endless config or laws file is refused at 16 MiB, naming it and the bound (exit 4, no hang)") {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"score", "/dev/zero"},
        std::vector<std::string>{"score", "/dev/urandom"},
        std::vector<std::string>{"suggest", "--flops", "1e22", "--no-bench", "--laws", "/dev/zero"},
        std::vector<std::string>{"score", "moe-mini", "--laws", "/dev/zero"}}) {
    CAPTURE(fmt_args(args));
    const Run r = run_moeplan(args);
    CHECK(r.code == 4);
    CHECK(r.out.empty());
    CHECK(r.err.find("/dev/") != std::string::npos);
    CHECK(r.err.find("larger than 16 MiB") != std::string::npos);
  }
}

TEST_CASE("an endless runs CSV is refused at 256 MiB, naming it and the bound (exit 4, no hang)" *
          doctest::test_suite("slow")) {
  for (const char* device : {"/dev/zero", "/dev/urandom"}) {
    CAPTURE(device);
    const Run r = run_moeplan({"fit", device});
    CHECK(r.code == 4);
    CHECK(r.out.empty());
    CHECK(r.err.find(std::string(device) + ": larger than 256 MiB") != std::string::npos);
  }
}

TEST_CASE("a fit report given as --laws says that the laws file is what fit --out writes") {
  const std::string csv = std::string(MOEPLAN_TEST_DATA_DIR) + "/moe_vs_dense_runs.csv";
  for (const char* name : {"report.toml", "report.json"}) {
    CAPTURE(name);
    const auto report = temp_path(name);
    REQUIRE(run_moeplan({"fit", csv, "--law", "activation", "--column", "loss=BPC", "-q", "-o",
                         report.string()}).code == 0);
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"suggest", "--flops", "1e20", "--no-bench", "--laws", report.string()},
          std::vector<std::string>{"score", "moe-mini", "--laws", report.string()}}) {
      CAPTURE(fmt_args(args));
      const Run r = run_moeplan(args);
      CHECK(r.code == 4);
      CHECK(r.err.find(report.string()) != std::string::npos);
      CHECK(r.err.find("`moeplan fit --out FILE` writes") != std::string::npos);
    }
    std::filesystem::remove(report);
  }
  // A laws file that merely lacks the key gets no such hint.
  const auto plain = temp_path("plain-laws.toml");
  std::ofstream(plain) << "name = \"x\"\n";
  const Run r = run_moeplan({"suggest", "--flops", "1e20", "--laws", plain.string()});
  CHECK(r.code == 4);
  CHECK(r.err.find("fit --out") == std::string::npos);
  std::filesystem::remove(plain);
}
