// Bad flags and inputs: exit 2 for flags, 4 for files, a message a person can act on.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <dlib/md5.h>

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
      {{"suggest", "--flops", "1e20", "--top", "-1"}, "--top"},
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
