// Reading a Megatron-LM training log (src/io/megatron_log.cpp): the iteration lines, the
// warm-up skipped by iteration number, the median and percentiles of the step time, the
// TFLOP/s median, launcher prefixes and CRLF, and errors naming the line and the field.
//
// The lines are built with training_log()'s own format strings (megatron/training/training.py,
// NVIDIA/Megatron-LM commit d98e8a6): " [%Y-%m-%d %H:%M:%S.%f] iteration {:8d}/{:8d} |
// consumed samples: {:12d} | elapsed time per iteration (ms): {:.1f} | throughput per GPU
// (TFLOP/s/GPU): {:.1f} | learning rate: {:.6E} | global batch size: {:5d} | lm loss: {:.6E} |
// loss scale: {:.1f} | grad norm: {:.3f} | number of skipped iterations: {:3d} | number of nan
// iterations: {:3d} |". tests/data/megatron_logs/moe_rank7.log is the same format as torchrun
// writes it with a "[rank7]: " prefix, between the start-up, memory and validation lines
// (the numbers invented; --log-interval 5, --train-iters 40).
#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "moeplan/io/megatron_log.hpp"

using namespace moeplan;

namespace {

/// One iteration line exactly as training_log() prints it (no prefix, no line end).
std::string iteration_line(long long iteration, long long train_iters, double elapsed_ms,
                           std::optional<double> tflops = std::nullopt) {
  std::string s = fmt::format(" [2026-08-22 15:22:{:02d}.{:06d}]", iteration % 60, (iteration * 7919) % 1000000);
  s += fmt::format(" iteration {:8d}/{:8d} |", iteration, train_iters);
  s += fmt::format(" consumed samples: {:12d} |", iteration * 512);
  s += fmt::format(" elapsed time per iteration (ms): {:.1f} |", elapsed_ms);
  if (tflops) s += fmt::format(" throughput per GPU (TFLOP/s/GPU): {:.1f} |", *tflops);
  s += fmt::format(" learning rate: {:.6E} |", 1.5e-4);
  s += fmt::format(" global batch size: {:5d} |", 512);
  s += fmt::format(" lm loss: {:.6E} |", 7.0 - 0.01 * double(iteration));
  s += fmt::format(" loss scale: {:.1f} |", 1.0);
  s += fmt::format(" grad norm: {:.3f} |", 1.25);
  s += fmt::format(" number of skipped iterations: {:3d} |", 0);
  s += fmt::format(" number of nan iterations: {:3d} |", 0);
  return s;
}

/// Iterations 1..30, one line each (--log-interval 1): 1..10 slow warm-up (5100..6000 ms),
/// 11..30 the steady state, 1000..1190 ms in steps of 10 and 300..319 TFLOP/s, in a shuffled
/// order (k = 7 (i - 11) mod 20) so that the median is not the middle line of the file.
std::string realistic_log(const std::string& prefix = "", const char* eol = "\n") {
  std::string log = prefix + "training ..." + eol;
  for (int i = 1; i <= 30; ++i) {
    double ms = 5000 + 100.0 * i;
    double tflops = 60 + i;
    if (i > 10) {
      const int k = (7 * (i - 11)) % 20;
      ms = 1000 + 10.0 * k;
      tflops = 300 + k;
    }
    log += prefix + iteration_line(i, 30, ms, tflops) + eol;
    if (i == 15) {
      log += prefix + "[Rank 0] (after 15 iterations) memory (MB) | allocated: 3124.5 | max allocated: 5231.1" + eol;
    }
  }
  log += prefix + "[after training is done] datetime: 2026-08-22 15:23:30 " + eol;
  return log;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("megatron log: the median step time past the first 10 iterations, and the TFLOP/s median") {
  const auto r = read_megatron_log(realistic_log(), "train.log");
  REQUIRE_MESSAGE(r.has_value(), r.error().to_string());
  CHECK(r->source == "train.log");
  REQUIRE(r->iterations.size() == 30);
  CHECK(r->iterations[0].iteration == 1);
  CHECK(r->iterations[0].line == 2);  // after "training ..."
  CHECK(r->iterations[0].elapsed_ms == doctest::Approx(5100.0));
  CHECK(r->iterations[15].line == 18);  // iteration 16: after the memory line of iteration 15
  CHECK(r->iterations[29].iteration == 30);
  CHECK(r->skipped == 10);
  CHECK(r->used == 20);
  CHECK(r->first_used == 11);
  CHECK(r->last_used == 30);
  // 1000..1190 ms: the median is the mean of the two middle values, 1090 and 1100
  CHECK(r->median_step_seconds == doctest::Approx(1.095).epsilon(1e-12));
  // linear interpolation (numpy's default): h = 19 x 0.1 = 1.9 -> 1010 + 0.9 x 10 = 1019 ms,
  // h = 19 x 0.9 = 17.1 -> 1170 + 0.1 x 10 = 1171 ms (nearest rank would give 1010 and 1170)
  CHECK(r->low_step_seconds == doctest::Approx(1.019).epsilon(1e-12));
  CHECK(r->high_step_seconds == doctest::Approx(1.171).epsilon(1e-12));
  REQUIRE(r->median_tflops_per_gpu.has_value());
  CHECK(*r->median_tflops_per_gpu == doctest::Approx(309.5).epsilon(1e-12));  // 300..319, not the warm-up's 61..70
}

TEST_CASE("megatron log: --skip-iterations 0 uses every line, and a larger skip fewer") {
  const auto all = read_megatron_log(realistic_log(), "train.log", 0);
  REQUIRE_MESSAGE(all.has_value(), all.error().to_string());
  CHECK(all->skipped == 0);
  CHECK(all->used == 30);
  CHECK(all->first_used == 1);
  // 20 values 1000..1190 and 10 of 5100..6000: the 15th and 16th of 30 are 1140 and 1150
  CHECK(all->median_step_seconds == doctest::Approx(1.145).epsilon(1e-12));
  // h = 29 x 0.9 = 26.1: the 27th and 28th are 5700 and 5800 -> 5710 ms
  CHECK(all->high_step_seconds == doctest::Approx(5.710).epsilon(1e-12));
  const auto later = read_megatron_log(realistic_log(), "train.log", 25);
  REQUIRE(later.has_value());
  CHECK(later->skipped == 25);
  CHECK(later->used == 5);
  CHECK(later->first_used == 26);
  // iterations 26..30 are k = 5, 12, 19, 6, 13: 1050, 1120, 1190, 1060, 1130 -> median 1120 ms
  CHECK(later->median_step_seconds == doctest::Approx(1.120).epsilon(1e-12));
}

TEST_CASE("megatron log: launcher and logger prefixes and CRLF line ends read the same") {
  const auto plain = read_megatron_log(realistic_log(), "train.log");
  REQUIRE(plain.has_value());
  for (const char* prefix : {"[rank7]: ", "[default7]:", "7: ", "2026-08-22 15:22:01,123 - megatron - INFO - "}) {
    for (const char* eol : {"\n", "\r\n"}) {
      CAPTURE(prefix);
      CAPTURE(eol[0] == '\r');
      const auto r = read_megatron_log(realistic_log(prefix, eol), "train.log");
      REQUIRE_MESSAGE(r.has_value(), r.error().to_string());
      REQUIRE(r->iterations.size() == 30);
      CHECK(r->iterations[15].line == 18);
      CHECK(r->iterations[15].iteration == 16);
      CHECK(r->median_step_seconds == plain->median_step_seconds);
      CHECK(r->low_step_seconds == plain->low_step_seconds);
      CHECK(r->median_tflops_per_gpu == plain->median_tflops_per_gpu);
    }
  }
  // the elapsed time last on its line, right before "\r\n" (a line cut after the field)
  const auto cut = read_megatron_log(" iteration       11/      20 | elapsed time per iteration (ms): 1234.5\r\n"
                                     " iteration       12/      20 | elapsed time per iteration (ms): 1000.5\r\n",
                                     "cut.log");
  REQUIRE_MESSAGE(cut.has_value(), cut.error().to_string());
  CHECK(cut->median_step_seconds == doctest::Approx(1.1175).epsilon(1e-12));
  CHECK(cut->iterations[1].line == 2);
}

TEST_CASE("megatron log: a torchrun log with a rank prefix among start-up, memory and validation lines") {
  const std::string path = MOEPLAN_TEST_DATA_DIR "/megatron_logs/moe_rank7.log";
  const std::string text = read_file(path);
  REQUIRE(!text.empty());
  const auto r = read_megatron_log(text, path);
  REQUIRE_MESSAGE(r.has_value(), r.error().to_string());
  // iterations 1 (printed to show start-up), 5, 10, ..., 40; the validation line is not one
  REQUIRE(r->iterations.size() == 9);
  CHECK(r->iterations[0].iteration == 1);
  CHECK(r->iterations[0].line == 12);
  CHECK(r->iterations[0].elapsed_ms == doctest::Approx(21873.4));
  CHECK(r->iterations[5].iteration == 25);
  CHECK(r->iterations[5].line == 21);
  CHECK(r->skipped == 3);  // 1, 5, 10
  CHECK(r->used == 6);
  CHECK(r->first_used == 15);
  CHECK(r->last_used == 40);
  // 1249.0 1251.9 1255.1 1259.4 1262.7 1268.2 ms
  CHECK(r->median_step_seconds == doctest::Approx(1.25725).epsilon(1e-12));
  CHECK(r->low_step_seconds == doctest::Approx(1.25045).epsilon(1e-12));   // h = 0.5
  CHECK(r->high_step_seconds == doctest::Approx(1.26545).epsilon(1e-12));  // h = 4.5
  REQUIRE(r->median_tflops_per_gpu.has_value());
  CHECK(*r->median_tflops_per_gpu == doctest::Approx(402.0).epsilon(1e-12));  // 401.3 and 402.7
}

TEST_CASE("megatron log: an iteration line without the throughput field") {
  // --log-throughput off for one line (a log joined from two runs): the TFLOP/s median is
  // over the lines that have it, the step time over all
  std::string log;
  for (int i = 11; i <= 15; ++i) {
    log += iteration_line(i, 15, 1000.0 + i, i == 13 ? std::nullopt : std::optional<double>(100.0 * i)) + "\n";
  }
  const auto r = read_megatron_log(log, "train.log", 10);
  REQUIRE_MESSAGE(r.has_value(), r.error().to_string());
  REQUIRE(r->iterations.size() == 5);
  CHECK_FALSE(r->iterations[2].tflops_per_gpu.has_value());
  REQUIRE(r->iterations[3].tflops_per_gpu.has_value());
  CHECK(*r->iterations[3].tflops_per_gpu == doctest::Approx(1400.0));
  CHECK(r->median_step_seconds == doctest::Approx(1.013).epsilon(1e-12));
  REQUIRE(r->median_tflops_per_gpu.has_value());
  CHECK(*r->median_tflops_per_gpu == doctest::Approx(1300.0).epsilon(1e-12));  // of 1100 1200 1400 1500
  // no line with it: no median
  std::string none;
  for (int i = 11; i <= 13; ++i) none += iteration_line(i, 13, 900.0) + "\n";
  const auto n = read_megatron_log(none, "train.log");
  REQUIRE(n.has_value());
  CHECK_FALSE(n->median_tflops_per_gpu.has_value());
  CHECK(n->median_step_seconds == doctest::Approx(0.9));
}

TEST_CASE("megatron log: errors name the file, the line and the field") {
  const auto empty = read_megatron_log("W0822 torchrun\n[rank7]: training ...\n validation loss at iteration 20 |\n",
                                       "rank0.log");
  REQUIRE_FALSE(empty.has_value());
  CHECK(empty.error().source == "rank0.log");
  CHECK(empty.error().line == 0);
  CHECK(empty.error().reason.find("no 'elapsed time per iteration (ms)' line: not a Megatron-LM training log?") == 0);
  CHECK(read_megatron_log("", "empty.log").error().reason.find("no 'elapsed") == 0);

  std::string short_log = "training ...\n";
  for (int i = 1; i <= 8; ++i) short_log += iteration_line(i, 100, 1000) + "\n";
  const auto warm = read_megatron_log(short_log, "short.log", 10);
  REQUIRE_FALSE(warm.has_value());
  CHECK(warm.error().key == "--skip-iterations");
  CHECK(warm.error().reason.find("all 8 iteration lines") != std::string::npos);
  CHECK(warm.error().reason.find("iteration 8, line 9") != std::string::npos);
  CHECK(warm.error().reason.find("--skip-iterations 10") != std::string::npos);
  CHECK(read_megatron_log(short_log, "short.log", 7).has_value());  // iteration 8 is left

  struct Case {
    std::string bad;  // the text after the iteration's "elapsed time per iteration (ms): "
    const char* reason;
  };
  const Case cases[] = {
      {"nan |", "must be finite"},   {"inf |", "must be finite"},    {"-1234.5 |", "must be positive"},
      {"0.0 |", "must be positive"}, {"12x4.5 |", "not a number"},   {"|", "empty"},
      {"", "empty"},
  };
  const std::string good = iteration_line(11, 20, 1000.0) + "\n";
  for (const Case& c : cases) {
    const std::string bad = " [2026-08-22 15:22:22.123456] iteration       12/      20 | consumed samples:  6144 |"
                            " elapsed time per iteration (ms): " +
                            c.bad;
    CAPTURE(bad);
    const auto r = read_megatron_log("training ...\n" + good + good + bad + "\n" + good, "train.log");
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().source == "train.log");
    CHECK(r.error().line == 4);
    CHECK(r.error().column == int(bad.find("(ms): ") + 7));  // 1-based, at the value
    CHECK(r.error().key == "elapsed time per iteration (ms)");
    CHECK(r.error().reason.find(c.reason) != std::string::npos);
  }
  // the same rule before a rank prefix and a CRLF
  const auto crlf = read_megatron_log("[rank7]: " + iteration_line(11, 20, 1000.0) + "\r\n[rank7]:  iteration 12/20 |"
                                      " elapsed time per iteration (ms): nan |\r\n",
                                      "train.log");
  REQUIRE_FALSE(crlf.has_value());
  CHECK(crlf.error().line == 2);
  CHECK(crlf.error().to_string() == "train.log:2:62: elapsed time per iteration (ms): must be finite, got 'nan'");

  // no iteration number before the field: a cut line is reported, not dropped
  const auto cut = read_megatron_log(good + "s (ms): 1.0 | elapsed time per iteration (ms): 1000.0 |\n", "train.log");
  REQUIRE_FALSE(cut.has_value());
  CHECK(cut.error().line == 2);
  CHECK(cut.error().key == "iteration");
  // a throughput that does not parse
  const auto tf = read_megatron_log(good + " iteration 12/20 | elapsed time per iteration (ms): 1000.0 |"
                                           " throughput per GPU (TFLOP/s/GPU): -3.5 |\n",
                                    "train.log");
  REQUIRE_FALSE(tf.has_value());
  CHECK(tf.error().line == 2);
  CHECK(tf.error().key == "throughput per GPU (TFLOP/s/GPU)");
  CHECK(tf.error().reason.find(">= 0") != std::string::npos);
  // a toy model's 0.0 TFLOP/s is a value, not an error
  CHECK(read_megatron_log(iteration_line(11, 20, 1000.0, 0.0), "toy.log").has_value());
}

TEST_CASE("megatron log: 10^6 lines are read in well under a second" * doctest::test_suite("slow")) {
  // half of them iteration lines as Megatron prints them with --log-interval 1 (~330 bytes),
  // half other lines: ~200 MB
  std::string text;
  text.reserve(220'000'000);
  constexpr int k_lines = 1'000'000;
  for (int i = 1; i <= k_lines / 2; ++i) {
    text += iteration_line(i, k_lines / 2, 1000.0 + i % 101, 400.0);
    text += "\n[Rank 7] (after N iterations) memory (MB) | allocated: 31245.2 | max allocated: 52311.8\n";
  }
  const auto start = std::chrono::steady_clock::now();
  const auto r = read_megatron_log(text, "long.log");
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  REQUIRE(r.has_value());
  CHECK(r->iterations.size() == std::size_t(k_lines / 2));
  CHECK(r->iterations.back().line == k_lines - 1);
  CHECK(r->median_step_seconds == doctest::Approx(1.050));  // i mod 101 is near uniform on 0..100
  CHECK(ms < 1000);  // milliseconds in Release; the bound leaves room for sanitizer builds
  MESSAGE("megatron log: " << text.size() / 1'000'000 << " MB, " << k_lines << " lines in " << ms << " ms");
}

TEST_CASE("megatron log: AMD Primus's X/Y fields (the iteration's own, then a running mean) read as X") {
  // AMD-AGI/Primus 0a342e85 primus/modules/trainer/megatron/trainer.py training_log: "{:.1f}/{:.1f}".
  std::string text;
  for (int i = 1; i <= 12; ++i) {
    text += fmt::format(" [2026-01-01 00:00:00] iteration {:8d}/     100 | consumed samples: {:12d} | elapsed time "
                        "per iteration (ms): {:.1f}/21000.0 | throughput per GPU (TFLOP/s/GPU): {:.1f}/301.0 | "
                        "learning rate: 1.000000E-04 |\n",
                        i, i * 1024, 20000.0 + 100 * i, 300.0 + i);
  }
  const auto r = read_megatron_log(text, "primus.log");
  REQUIRE_MESSAGE(r.has_value(), r.error().to_string());
  CHECK(r->used == 2);
  CHECK(r->median_step_seconds == doctest::Approx(21.15));  // iterations 11 and 12: 21.1 and 21.2 s
  CHECK(*r->median_tflops_per_gpu == doctest::Approx(311.5));
}

TEST_CASE("megatron log: a restart's repeated iterations count once (the later), a cut last line is left out") {
  const auto line = [](int i, double ms, int batch) {
    return fmt::format(" [2024-04-06 02:55:45] iteration {:8d}/     100 | consumed samples: {:12d} | elapsed time per "
                       "iteration (ms): {:.1f} | learning rate: 4.000000E-07 | global batch size: {:5d} |\n",
                       i, i * batch, ms, batch);
  };
  std::string text = "using world size: 16, data-parallel size: 8\n";
  for (int i = 1; i <= 14; ++i) text += line(i, 1000.0, 128);
  for (int i = 12; i <= 14; ++i) text += line(i, 2000.0, 128);  // resumed from a checkpoint at 11
  text += " [2024-04-06 02:55:45] iteration       15/     100 | consumed samples:   1920 | elapsed time per iteration (ms): 9";  // cut mid-number
  const auto r = read_megatron_log(text, "restart.log");
  REQUIRE_MESSAGE(r.has_value(), r.error().to_string());
  CHECK(r->repeated == 3);
  CHECK(r->used == 4);  // 11, and 12-14 as run again
  CHECK(r->median_step_seconds == doctest::Approx(2.0));
  CHECK(r->global_batch == 128);
  CHECK(r->world_size == 16);
  CHECK(r->world_size_line == 1);
  REQUIRE(r->warnings.size() == 2);
  CHECK(r->warnings[0].find("restart.log:19: the last line has no line end") != std::string::npos);
  CHECK(r->warnings[1].find("3 iteration lines repeated after a restart") != std::string::npos);
  // The same line with a line end is a finished line, timed as it reads (9 ms).
  const auto finished = read_megatron_log(text + "\n", "restart.log");
  REQUIRE(finished.has_value());
  CHECK(finished->used == 5);
  // A batch ramp among the timed iterations is refused, naming the line.
  std::string ramp;
  for (int i = 1; i <= 14; ++i) ramp += line(i, 1000.0, i < 13 ? 64 : 128);
  const auto ramped = read_megatron_log(ramp, "ramp.log");
  REQUIRE_FALSE(ramped.has_value());
  CHECK(ramped.error().to_string().find("ramp.log:13: global batch size: 128 from iteration 13, 64 before") !=
        std::string::npos);
}
