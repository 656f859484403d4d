// A Megatron-LM training log, read for its step time (include/moeplan/io/megatron_log.hpp).
// The fields are training_log()'s (megatron/training/training.py, NVIDIA/Megatron-LM commit
// d98e8a64ddf34856e74b24714e3bedb2f5a39553):
//   log_string = f" [{datetime.now().strftime('%Y-%m-%d %H:%M:%S.%f')}]"
//   log_string += ' iteration {:8d}/{:8d} |'.format(iteration, args.train_iters)
//   log_string += ' consumed samples: {:12d} |'.format(...)
//   log_string += ' elapsed time per iteration (ms): {:.1f} |'.format(elapsed_time_per_iteration * 1000.0)
//   if args.log_throughput: log_string += f' throughput per GPU (TFLOP/s/GPU): {throughput:.1f} |'
//   ... learning rate, global batch size, the losses, loss scale, grad norm, ...
//   print_rank_last(log_string)
// Megatron-Bridge's training_log() (src/megatron/bridge/training/utils/train_utils.py, commit
// 067f987df03b8355b03192d88d70f1709fedf51a) writes the same fields after a timestamp without %f.
#include "moeplan/io/megatron_log.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <unordered_set>

#include <fmt/format.h>

#include "moeplan/base/number_parse.hpp"
#include "moeplan/base/utf8.hpp"

namespace moeplan {

namespace {

constexpr std::string_view k_elapsed_key = "elapsed time per iteration (ms)";
constexpr std::string_view k_tflops_key = "throughput per GPU (TFLOP/s/GPU)";
constexpr std::string_view k_batch_key = "global batch size";  // training_log(): " global batch size: {:5d} |"
constexpr std::string_view k_world_key = "world size: ";       // arguments.py: "using world size: {}, data-parallel size: ..."
constexpr std::string_view k_iteration_word = "iteration";
/// A value quoted in an error is cut to this many bytes (a garbled line may run on).
constexpr std::size_t k_max_quoted = 32;

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

/// The text of a field's value: after "KEY:" (`after_key` is the index just past KEY) to the
/// next '|' or the line end, blanks trimmed; its 0-based offset in the line in `at`.
std::string_view field_value(std::string_view line, std::size_t after_key, std::size_t& at) {
  std::size_t i = after_key;
  if (i < line.size() && line[i] == ':') ++i;
  while (i < line.size() && is_blank(line[i])) ++i;
  at = i;
  const std::size_t bar = line.find('|', i);
  return trim(line.substr(i, bar == std::string_view::npos ? std::string_view::npos : bar - i));
}

/// AMD's Primus writes "X/Y": the iteration's own figure, then the mean of the recent ones
/// (AMD-AGI/Primus 0a342e85, primus/modules/trainer/megatron/trainer.py, training_log: "elapsed time per iteration
/// (ms): {:.1f}/{:.1f}", "throughput per GPU (TFLOP/s/GPU): {:.1f}/{:.1f}"); the median here is
/// over the iterations' own, X.
std::string_view this_iteration(std::string_view value) {
  const std::size_t slash = value.find('/');
  return slash == std::string_view::npos ? value : value.substr(0, slash);
}

/// `value` for an error message: cut to k_max_quoted bytes, invalid UTF-8 as \xHH.
std::string quoted(std::string_view value) {
  if (value.size() <= k_max_quoted) return fmt::format("'{}'", valid_utf8(value));
  return fmt::format("'{}...'", valid_utf8(value.substr(0, k_max_quoted)));
}

/// The N of the first "iteration N" (blanks, then digits) in `head`; Megatron writes
/// "iteration {:8d}/{:8d}". nullopt when there is none or N overflows.
std::optional<long long> iteration_number(std::string_view head) {
  for (std::size_t at = head.find(k_iteration_word); at != std::string_view::npos;
       at = head.find(k_iteration_word, at + 1)) {
    std::size_t i = at + k_iteration_word.size();
    const std::size_t blanks_from = i;
    while (i < head.size() && (head[i] == ' ' || head[i] == '\t')) ++i;
    if (i == blanks_from || i == head.size() || head[i] < '0' || head[i] > '9') continue;
    long long n = 0;
    if (std::from_chars(head.data() + i, head.data() + head.size(), n).ec != std::errc()) {
      return std::nullopt;  // out of range
    }
    return n;
  }
  return std::nullopt;
}

/// A throughput: finite and >= 0 (Megatron's {:.1f} prints a toy model's as 0.0).
std::expected<double, std::string> parse_throughput(std::string_view text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    return std::unexpected("not a number: " + quoted(text));
  }
  if (!std::isfinite(value) || value < 0) {
    return std::unexpected("must be finite and >= 0, got " + quoted(text));
  }
  return value;
}

/// The p-quantile (0 <= p <= 1) of `v` by linear interpolation between order statistics:
/// h = (n - 1) p, x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h]) over the sorted
/// values (Hyndman & Fan 1996 definition 7, numpy.percentile's default; p = 0.5 is the
/// median, the mean of the two middle values when n is even). Reorders `v`; O(n) on average
/// (nth_element), so no sort. `v` is not empty.
double quantile(std::vector<double>& v, double p) {
  const double h = double(v.size() - 1) * p;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(lo), v.end());
  const double below = v[lo];
  if (lo + 1 >= v.size()) return below;
  const double above = *std::min_element(v.begin() + std::ptrdiff_t(lo) + 1, v.end());
  return below + (h - double(lo)) * (above - below);
}

}  // namespace

std::expected<MegatronLogSummary, InputError> read_megatron_log(std::string_view text, const std::string& source,
                                                                int skip_iterations) {
  MegatronLogSummary out;
  out.source = source;
  const auto error = [&](int line, std::size_t column, std::string_view key, std::string reason) {
    return std::unexpected(InputError{source, line, int(column), std::string(key), std::move(reason)});
  };
  // Find the key in the whole text rather than line by line: nearly all of a log is other
  // lines, and Boyer-Moore-Horspool skips through them; lines are counted only up to a hit.
  const std::boyer_moore_horspool_searcher find_key(k_elapsed_key.begin(), k_elapsed_key.end());
  int line_number = 1;
  std::size_t counted_to = 0;  // line_number is the line of text[counted_to]
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto hit = std::search(text.begin() + std::ptrdiff_t(pos), text.end(), find_key);
    if (hit == text.end()) break;
    const auto key_at = std::size_t(hit - text.begin());
    const std::size_t nl_before = text.rfind('\n', key_at);
    const std::size_t line_start = nl_before == std::string_view::npos ? 0 : nl_before + 1;
    line_number += int(std::count(text.data() + counted_to, text.data() + line_start, '\n'));
    counted_to = line_start;
    const std::size_t nl_after = text.find('\n', key_at);
    const std::size_t line_end = nl_after == std::string_view::npos ? text.size() : nl_after;
    const std::string_view line = text.substr(line_start, line_end - line_start);
    const std::size_t key_in_line = key_at - line_start;

    MegatronLogIteration it;
    it.line = line_number;
    // The last line of a log still being written (no line end yet) may be cut mid-write: a
    // bad one there is left out and said, not a reason to refuse the log.
    const bool unfinished = line_end == text.size() && !text.ends_with('\n');
    if (unfinished && !out.iterations.empty()) {
      // Cut anywhere (mid-number reads as a number): never timed.
      out.warnings.push_back(fmt::format("{}:{}: the last line has no line end (a log still being written, cut "
                                         "anywhere): left out",
                                         source, line_number));
      break;
    }
    const auto n = iteration_number(line.substr(0, key_in_line));
    if (!n) {
      return error(line_number, 0, k_iteration_word,
                   fmt::format("no 'iteration N/M' before '{}': a cut or garbled line", k_elapsed_key));
    }
    it.iteration = *n;
    std::size_t value_at = 0;
    const std::string_view elapsed =
        this_iteration(field_value(line, key_in_line + k_elapsed_key.size(), value_at));
    auto ms = parse_positive_finite(elapsed);
    if (!ms) {
      return error(line_number, value_at + 1, k_elapsed_key,
                   elapsed.size() > k_max_quoted ? "not a number: " + quoted(elapsed) : valid_utf8(ms.error()));
    }
    it.elapsed_ms = *ms;
    if (const std::size_t t = line.find(k_tflops_key); t != std::string_view::npos) {
      const std::string_view tflops = this_iteration(field_value(line, t + k_tflops_key.size(), value_at));
      auto tf = parse_throughput(tflops);
      if (!tf) return error(line_number, value_at + 1, k_tflops_key, std::move(tf.error()));
      it.tflops_per_gpu = *tf;
    }
    if (const std::size_t b = line.find(k_batch_key); b != std::string_view::npos) {
      const std::string_view batch = field_value(line, b + k_batch_key.size(), value_at);
      long long sequences = 0;
      const auto [end, ec] = std::from_chars(batch.data(), batch.data() + batch.size(), sequences);
      if (ec == std::errc() && end == batch.data() + batch.size() && sequences > 0) it.global_batch = sequences;
    }
    out.iterations.push_back(it);
    pos = line_end;
  }

  if (out.iterations.empty()) {
    return error(0, 0, "",
                 fmt::format("no '{}' line: not a Megatron-LM training log? (Megatron prints its iteration "
                             "lines on the last rank only)",
                             k_elapsed_key));
  }
  // Megatron's world size, printed once at start-up.
  if (const std::size_t w = text.find(k_world_key); w != std::string_view::npos) {
    const std::string_view digits = text.substr(w + k_world_key.size(), 12);
    int size = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), size);
    if (ec == std::errc() && end != digits.data() && size > 0) {
      out.world_size = size;
      out.world_size_line = 1 + int(std::count(text.data(), text.data() + w, '\n'));
    }
  }
  // A restart from a checkpoint runs iterations again: the later run of each is the one that
  // counts (the earlier was lost), and the count of repeats is said.
  {
    std::vector<MegatronLogIteration> kept;
    std::unordered_set<long long> seen;
    for (auto it = out.iterations.rbegin(); it != out.iterations.rend(); ++it) {
      if (!seen.insert(it->iteration).second) continue;
      kept.push_back(*it);
    }
    std::reverse(kept.begin(), kept.end());
    std::stable_sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) { return a.iteration < b.iteration; });
    if (kept.size() < out.iterations.size()) {
      out.repeated = out.iterations.size() - kept.size();
      out.warnings.push_back(fmt::format("{}: {} iteration line{} repeated after a restart: the later run of each "
                                         "counts",
                                         source, out.repeated, out.repeated == 1 ? "" : "s"));
      out.iterations = std::move(kept);
    }
  }
  std::vector<double> step_ms, tflops;
  for (const MegatronLogIteration& it : out.iterations) {
    if (it.iteration <= skip_iterations) {
      ++out.skipped;
      continue;
    }
    if (step_ms.empty()) out.first_used = it.iteration;
    out.last_used = it.iteration;
    // A batch ramp inside the timed iterations would mix steps of different sizes.
    if (it.global_batch && out.global_batch && *it.global_batch != *out.global_batch) {
      return error(it.line, 0, k_batch_key,
                   fmt::format("{} from iteration {}, {} before: the batch ramps among the iterations timed; give a "
                               "--skip-iterations past the ramp",
                               *it.global_batch, it.iteration, *out.global_batch));
    }
    if (it.global_batch) out.global_batch = it.global_batch;
    step_ms.push_back(it.elapsed_ms);
    if (it.tflops_per_gpu) tflops.push_back(*it.tflops_per_gpu);
  }
  out.used = step_ms.size();
  if (step_ms.empty()) {
    const MegatronLogIteration& last = out.iterations.back();
    return error(0, 0, "--skip-iterations",
                 fmt::format("all {} iteration line{} (the last: iteration {}, line {}) are warm-up at "
                             "--skip-iterations {}: nothing left to time; give a lower --skip-iterations or a "
                             "longer log",
                             out.iterations.size(), out.iterations.size() == 1 ? "" : "s", last.iteration,
                             last.line, skip_iterations));
  }
  constexpr double k_seconds_per_ms = 1e-3;
  out.median_step_seconds = quantile(step_ms, 0.5) * k_seconds_per_ms;
  out.low_step_seconds = quantile(step_ms, 0.1) * k_seconds_per_ms;
  out.high_step_seconds = quantile(step_ms, 0.9) * k_seconds_per_ms;
  if (!tflops.empty()) out.median_tflops_per_gpu = quantile(tflops, 0.5);
  return out;
}

}  // namespace moeplan
