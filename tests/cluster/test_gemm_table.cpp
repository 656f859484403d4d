// A table of measured GEMM rates (src/cluster/gemm_table.cpp): read with errors that name the
// line and column, the rows of one GPU and precision, the log-space interpolation, and the
// step model taking its rates.
#include <doctest/doctest.h>

#include <cmath>

#include "cluster/cluster_fixtures.hpp"
#include "moeplan/cluster/gemm_table.hpp"
#include "moeplan/cluster/step_time.hpp"

using namespace moeplan;
using namespace moeplan::test;

namespace {
const char* k_table =
    "# measured on one GPU\n"
    "gpu,precision,groups,m,n,k,flops_per_s\n"
    "NVIDIA H100 80GB HBM3,bf16,1,4096,4096,4096,6.0e14\n"
    "NVIDIA H100 80GB HBM3,bf16,1,256,4096,4096,2.0e14\n"
    "\n"
    "NVIDIA H100 80GB HBM3,fp8,1,4096,4096,4096,1.2e15\n"
    "NVIDIA H200,bf16,1,4096,4096,4096,7.0e14\n";
}  // namespace

TEST_CASE("gemm table: rows of one GPU and precision, the exact shape's rate, log-space interpolation") {
  const auto t = read_gemm_table(k_table, "t.csv");
  REQUIRE_MESSAGE(t.has_value(), t.error().to_string());
  CHECK(t->rows.size() == 4);
  CHECK(t->rows[0].line == 3);
  GpuSpec sxm = h100_like();
  sxm.id = "h100-sxm";  // the SXM form is the default: "NVIDIA H100 80GB HBM3" is one
  const auto h100 = t->for_gpu(sxm, Precision::bf16);
  REQUIRE(h100 != nullptr);
  CHECK(h100->rows.size() == 2);
  CHECK(t->for_gpu(sxm, Precision::fp8)->rows.size() == 1);
  GpuSpec h20 = h100_like();
  h20.id = "h20";
  CHECK(t->for_gpu(h20, Precision::bf16) == nullptr);  // "H200" is not an H20
  // a measured shape: its own rate
  CHECK(h100->rate(1, 4096, 4096, 4096) == doctest::Approx(6.0e14));
  CHECK(h100->rate(1, 256, 4096, 4096) == doctest::Approx(2.0e14));
  // a shape measured twice: the geometric mean of its runs
  const auto twice = read_gemm_table(std::string(k_table) + "NVIDIA H100 80GB HBM3,bf16,1,4096,4096,4096,1.5e14\n", "t.csv");
  REQUIRE(twice.has_value());
  CHECK(twice->for_gpu(sxm, Precision::bf16)->rate(1, 4096, 4096, 4096) == doctest::Approx(std::sqrt(6.0e14 * 1.5e14)));
  // halfway in log m between the two rows: the geometric mean of their rates
  CHECK(h100->rate(1, 1024, 4096, 4096) == doctest::Approx(std::sqrt(6.0e14 * 2.0e14)));
  // nearer one row: nearer its rate
  CHECK(h100->rate(1, 2048, 4096, 4096) > std::sqrt(6.0e14 * 2.0e14));
  // written and read back
  const auto again = read_gemm_table(gemm_table_csv(t->rows), "again.csv");
  REQUIRE(again.has_value());
  REQUIRE(again->rows.size() == t->rows.size());
  for (std::size_t i = 0; i < t->rows.size(); ++i) {
    CHECK(again->rows[i].gpu == t->rows[i].gpu);
    CHECK(again->rows[i].precision == t->rows[i].precision);
    CHECK(again->rows[i].m == t->rows[i].m);
    CHECK(again->rows[i].flops_per_s == doctest::Approx(t->rows[i].flops_per_s));
  }
}

TEST_CASE("gemm table: errors name the line and the column") {
  struct Case {
    std::string text;
    int line;
    const char* key;
    const char* reason;
  };
  const std::string h = "gpu,precision,groups,m,n,k,flops_per_s\n";
  const Case cases[] = {
      {"gpu,precision,m,n,k,rate\nx,bf16,1,1,1,1\n", 1, "header", "must be"},
      {h + "H100,fp16,1,8,8,8,1e12\n", 2, "precision", "neither bf16 nor fp8"},
      {h + "H100,bf16,1,8,8,8,-1e12\n", 2, "flops_per_s", "finite positive"},
      {h + "H100,bf16,1,8,8,8,inf\n", 2, "flops_per_s", "finite positive"},
      {h + "H100,bf16,1,8.5,8,8,1e12\n", 2, "m", "whole number"},
      {h + "\nH100,bf16,1,8,8\n", 3, "", "5 cells where the header has 7"},
      {h + ",bf16,1,8,8,8,1e12\n", 2, "gpu", "empty"},
      {h, 1, "", "no rows"},
      {"", 0, "header", "no header"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    const auto t = read_gemm_table(c.text, "t.csv");
    REQUIRE_FALSE(t.has_value());
    CHECK(t.error().source == "t.csv");
    CHECK(t.error().line == c.line);
    CHECK(t.error().key == c.key);
    CHECK(t.error().reason.find(c.reason) != std::string::npos);
  }
}

TEST_CASE("cluster step time: a table's rates replace the shape model") {
  // one row: every GEMM at its rate (the only neighbour), so the GEMM seconds are the linear
  // layers' and the head's FLOPs over it
  const auto t = read_gemm_table("gpu,precision,groups,m,n,k,flops_per_s\nh100-test,bf16,1,4096,4096,4096,5e14\n", "t.csv");
  REQUIRE(t.has_value());
  const ModelConfig m = dense_model();
  const ParameterCounts p = count_parameters(m);
  StepTimeOptions o;
  o.seq_len = 4096;
  o.measured_gemm_rates = t->for_gpu(h100_like(), Precision::bf16);
  REQUIRE(o.measured_gemm_rates != nullptr);
  ParallelLayout l = layout_of(1, 1, 1);
  l.global_batch = 8;
  l.recompute = Recompute::none;
  const StepTime s = step_time(m, p, cluster_of(1), l, o);
  const double flops = 8.0 * 4096 * 6.0 * (p.attention.value() + p.dense_ffn.value() + double(m.vocab_size) * m.hidden_size);
  CHECK(s.seconds_of("gemm") == doctest::Approx(flops / 5e14));
  for (const StepTerm& term : s.terms) {
    if (term.name == "gemm") CHECK(term.detail.find("1 rates measured by shape") != std::string::npos);
  }
}
