#pragma once
/// The step time of a Megatron-LM run, read from its training log: what `moeplan fit` compares
/// the step model with. Megatron prints one line every --log-interval iterations, and the
/// first ones carry start-up (compilation, allocator growth, data loader warm-up), so the
/// figure is the median over the lines past a warm-up, with the 10th and 90th percentiles to
/// show the spread, rather than a mean one slow checkpoint or straggler would pull.
///
/// The line is training_log()'s (megatron/training/training.py, NVIDIA/Megatron-LM commit
/// d98e8a6), printed on the last rank only:
///
///     [2026-08-22 15:22:22.123456] iteration       20/     500 | consumed samples:        10240 |
///     elapsed time per iteration (ms): 1234.5 | throughput per GPU (TFLOP/s/GPU): 412.3 |
///     learning rate: 1.500000E-04 | global batch size:   512 | lm loss: 7.012345E+00 | ...
///
/// (one line in the log). Megatron-Bridge and NeMo 2 print the same fields
/// (src/megatron/bridge/training/utils/train_utils.py training_log(), NVIDIA-NeMo/Megatron-Bridge
/// commit 067f987; its timestamp has no microseconds); Bridge's own "Step Time : 1.23s" line is
/// not read. A line is an iteration line when it holds "elapsed time per iteration (ms):";
/// whatever comes before the timestamp is ignored, so lines a launcher prefixes ("[rank7]: ",
/// "[default7]:", srun --label's "7: ", a logger's timestamp) read the same, and "\r\n" line ends
/// as "\n". Every other line is skipped unread. Time is linear in the text's size.
///
/// Each line's elapsed time is Megatron's mean over the iterations since the previous line
/// (--log-interval of them), so the median is over interval means, and warm-up is skipped by
/// iteration number: with --log-interval 10, --skip-iterations 10 drops the lines of iterations
/// 1 (newer Megatron prints the first one to show start-up) and 10, and keeps iteration 20's.
#include <cstddef>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "moeplan/base/errors.hpp"

namespace moeplan {

/// One training-iteration line of a Megatron-LM log (megatron/training/training.py training_log()).
struct MegatronLogIteration {
  long long iteration = 0;               ///< "iteration   N/  M": N
  double elapsed_ms = 0;                 ///< "elapsed time per iteration (ms): X", milliseconds
  std::optional<double> tflops_per_gpu;  ///< "throughput per GPU (TFLOP/s/GPU): Y" when logged (--log-throughput)
  int line = 0;                          ///< 1-based line in the log
  std::optional<long long> global_batch;  ///< "global batch size: N", sequences, when logged
};

/// What read_megatron_log found: every iteration line, and the step time over those past the
/// warm-up.
struct MegatronLogSummary {
  std::string source;
  std::vector<MegatronLogIteration> iterations;  ///< every iteration line read, in order
  std::size_t skipped = 0;                       ///< iteration lines with iteration <= skip_iterations
  std::size_t used = 0;                          ///< lines the median is taken over
  long long first_used = 0, last_used = 0;       ///< their iteration numbers (first and last in the log)
  double median_step_seconds = 0;                ///< median of the used lines' elapsed time, seconds
  /// The used lines' 10th and 90th percentiles, seconds (linear interpolation between order
  /// statistics, numpy's default: the same definition as the median).
  double low_step_seconds = 0, high_step_seconds = 0;
  std::optional<double> median_tflops_per_gpu;  ///< median of the used lines that log it, TFLOP/s per GPU
  /// The global batch of the used lines (sequences) when they log it; they all agree (a ramp
  /// among them is an error).
  std::optional<long long> global_batch;
  /// "using world size: N" at start-up, and its line: the GPUs of the run.
  std::optional<int> world_size;
  int world_size_line = 0;
  std::size_t repeated = 0;  ///< iteration lines run again after a restart (the later kept)
  /// What was read but not used: a cut last line, iterations repeated after a restart.
  std::vector<std::string> warnings;
};

/// Reads a Megatron-LM log's iteration lines; the first `skip_iterations` iterations (by their
/// iteration number, <= skip; 0 or less skips none) are warm-up and skipped. `source` names the
/// log in errors. Errors (InputError, base/errors.hpp, exit 4):
///  - no iteration line at all ("no 'elapsed time per iteration (ms)' line: not a Megatron-LM
///    training log?"; Megatron prints them on the last rank only, so another rank's log has none);
///  - every iteration skipped (key "--skip-iterations": how many lines, the last iteration and
///    the --skip-iterations value);
///  - an iteration line whose elapsed time does not parse or is not finite and > 0 (file:line:
///    column, key "elapsed time per iteration (ms)"), whose throughput does not parse or is not
///    finite and >= 0 (key "throughput per GPU (TFLOP/s/GPU)"; a toy model prints 0.0), or
///    that has no "iteration N" before the elapsed time (key "iteration"): a cut or garbled
///    line is reported, not dropped, since dropping it would move the warm-up cut unseen.
std::expected<MegatronLogSummary, InputError> read_megatron_log(std::string_view text, const std::string& source,
                                                                int skip_iterations = 10);

}  // namespace moeplan
