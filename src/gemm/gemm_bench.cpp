#include "moeplan/gemm/gemm_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "moeplan/gemm/gemm_kernels.hpp"

namespace moeplan {

namespace {

double gemm_flops(std::int64_t m, std::int64_t n, std::int64_t k) {
  return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
}


/// Sums per-layer seconds and the whole-model figures once every op is timed.
void total_up(DeviceRun& run, const ModelGemms& g) {
  for (const TimedOp& t : run.dense_layer) run.dense_layer_seconds += t.seconds;
  for (const TimedOp& t : run.moe_layer) run.moe_layer_seconds += t.seconds;
  run.forward_seconds =
      g.dense_layers * run.dense_layer_seconds + g.moe_layers * run.moe_layer_seconds;
  // The same sum per round and at each op's fastest and slowest run. An op's time is its
  // exact FLOPs at the timed slice's rate, so its time in round r is seconds × sample_r /
  // median.
  std::size_t rounds = 0;
  bool aligned = true;
  for (const auto* layer : {&run.dense_layer, &run.moe_layer}) {
    for (const TimedOp& t : *layer) {
      if (t.timing.median_s <= 0) continue;
      if (rounds == 0) rounds = t.timing.samples.size();
      aligned = aligned && t.timing.samples.size() == rounds;
    }
  }
  if (!aligned) rounds = 0;
  run.forward_seconds_by_round.assign(rounds, 0.0);
  run.forward_seconds_min = run.forward_seconds_max = 0;
  for (const auto& [layer, count] : {std::pair{&run.dense_layer, g.dense_layers},
                                     std::pair{&run.moe_layer, g.moe_layers}}) {
    for (const TimedOp& t : *layer) {
      if (t.timing.median_s <= 0) continue;
      const double scale = count * t.seconds / t.timing.median_s;
      run.forward_seconds_min += scale * t.timing.min_s;
      run.forward_seconds_max += scale * t.timing.max_s;
      for (std::size_t r = 0; r < rounds; ++r) {
        run.forward_seconds_by_round[r] += scale * t.timing.samples[r];
      }
    }
  }
  if (run.forward_seconds > 0 && run.errors.empty()) {
    run.tokens_per_second = static_cast<double>(g.tokens) / run.forward_seconds;
    run.rate = g.flops() / run.forward_seconds;
  }
}

}  // namespace

Timing summarise(std::vector<double> seconds) {
  Timing t;
  t.samples = seconds;
  std::sort(seconds.begin(), seconds.end());
  t.reps = static_cast<int>(seconds.size());
  if (seconds.empty()) return t;
  const std::size_t h = seconds.size() / 2;
  t.median_s = seconds.size() % 2 ? seconds[h] : 0.5 * (seconds[h - 1] + seconds[h]);
  t.min_s = seconds.front();
  t.max_s = seconds.back();
  return t;
}

double fraction_of(double rate, double peak, std::vector<std::string>* notes) {
  if (!(peak > 0) || !(rate > 0)) return 0;
  if (rate <= peak) return rate / peak;
  if (notes) {
    const std::string note = "a rate above the hardware peak was measured: the peak's assumptions "
                             "(clock, FMA pipes) do not hold for this device; fractions are capped at 1";
    if (std::find(notes->begin(), notes->end(), note) == notes->end()) notes->push_back(note);
  }
  return 1.0;
}

double training_gemm_seconds(const DeviceRun& run, const ModelGemms& gemms, double training_tokens) {
  return 3.0 * training_tokens * run.forward_seconds / static_cast<double>(gemms.tokens);
}

bool TimedOp::sliced() const {
  if (timed_n > 0 && timed_n != op.n) return true;
  for (std::int64_t r : timed_rows) {
    bool is_member = false;
    for (std::int64_t m : op.rows) is_member = is_member || m == r;
    if (!is_member) return true;
  }
  return false;
}

// ---- CPU -----------------------------------------------------------------------------

namespace {

/// One timed call of C = A·B on zero-filled operands (a GEMM's time does not depend on
/// the values unless they are denormal; zeros spare filling gigabytes).
double time_once(std::vector<float>& a, std::vector<float>& b, std::vector<float>& c,
                 std::int64_t m, std::int64_t n, std::int64_t k) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  cpu_gemm(a.data(), b.data(), c.data(), m, n, k);
  return std::chrono::duration<double>(clock::now() - t0).count();
}

std::size_t elements(std::int64_t x, std::int64_t y) { return static_cast<std::size_t>(x * y); }

/// Row count an op's rate is measured at: the largest member (balanced routing gives
/// members of q and q+1 rows; one rate serves both, FLOPs are still counted exactly).
std::int64_t representative_rows(const GemmOp& op) {
  return *std::max_element(op.rows.begin(), op.rows.end());
}

}  // namespace

CpuGemmBench::CpuGemmBench(const BenchOptions& options, double peak_budget_s)
    : options_(options) {
  set_cpu_gemm_threads(options.threads);
  hardware_ = cpu_hardware_peak(cpu_gemm_threads());
  std::vector<float> a(elements(512, 512)), b(a.size()), c(a.size());
  // Eigen against the system BLAS at 512^3, the best of three calls each after a warm-up
  // (which wakes the thread pools): the faster runs every timing below, and the report says so.
  // A backend whose warm-up call already runs at under half the rate to beat is not timed
  // further (the reference BLAS takes ~0.1 s a call where Eigen takes ~5 ms).
  bool one_call = false;  // the last probe stopped after its warm-up call
  const auto probe = [&](double to_beat) {
    const double warm = time_once(a, b, c, 512, 512, 512);
    double best = 1e300;
    one_call = gemm_flops(512, 512, 512) / std::max(warm, 1e-9) < 0.5 * to_beat;
    if (!one_call) {
      for (int i = 0; i < 3; ++i) best = std::min(best, time_once(a, b, c, 512, 512, 512));
    } else {
      best = warm;
    }
    return gemm_flops(512, 512, 512) / std::max(best, 1e-9);
  };
  use_cpu_gemm_backend(CpuGemmBackend::eigen);
  const double eigen_rate = probe(0);
  probe_rate_ = eigen_rate;
  std::string why_no_blas;
  const std::string blas = cpu_blas_library(&why_no_blas);
  if (!blas.empty() && use_cpu_gemm_backend(CpuGemmBackend::blas)) {
    const double blas_rate = probe(eigen_rate);
    const std::string cblas = "cblas_sgemm of " + blas;
    const bool blas_wins = blas_rate > eigen_rate;
    backend_choice_ = fmt::format("CPU GEMM: {} ran ({:.1f} GFLOP/s at 512^3; {} {:.1f} GFLOP/s{})",
                                  blas_wins ? cblas : "Eigen", std::max(blas_rate, eigen_rate) / 1e9,
                                  blas_wins ? "Eigen" : cblas, std::min(blas_rate, eigen_rate) / 1e9,
                                  one_call ? ", one call: under half the rate to beat" : "");
    if (blas_wins) {
      probe_rate_ = blas_rate;
    } else {
      use_cpu_gemm_backend(CpuGemmBackend::eigen);
    }
  } else {
    backend_choice_ = "CPU GEMM: Eigen ran (" + why_no_blas + ")";
  }
  device_ = cpu_gemm_backend() == CpuGemmBackend::eigen
                ? fmt::format("cpu: {}, {} threads, Eigen {}", cpu_model_name(), cpu_gemm_threads(), cpu_gemm_isa())
                : fmt::format("cpu: {}, {} threads, {}", cpu_model_name(), cpu_gemm_threads(), blas);
  {
    // Eigen packs the whole weight matrix on every call, whatever the rows: a 16-row GEMM
    // on a 2048 x 2048 weight is nearly all packing, and gives the bytes per second that
    // slicing must budget for (a 16-row slice of a 1 GB weight still packs 1 GB).
    std::vector<float> wa(elements(16, 2048)), wb(elements(2048, 2048)), wc(elements(16, 2048));
    time_once(wa, wb, wc, 16, 2048, 2048);
    const double t = time_once(wa, wb, wc, 16, 2048, 2048);
    const double compute = gemm_flops(16, 2048, 2048) / probe_rate_;
    pack_bytes_per_second_ = 4.0 * 2048 * 2048 / std::max(t - compute, 1e-9);
  }
  peak_size_ = options.peak_size;
  if (peak_size_ <= 0) {
    peak_size_ = 512;
    for (int size : {2048, 1536, 1024}) {
      if ((1 + options_.reps) * gemm_flops(size, size, size) / probe_rate_ <= peak_budget_s) {
        peak_size_ = size;
        break;
      }
    }
  }
  const Shape peak{peak_size_, peak_size_, peak_size_};
  budget_s_ = peak_budget_s;
  pending_.push_back(peak);
  slice_[peak] = peak;
}

void CpuGemmBench::add(const ModelGemms& gemms, double budget_s) { add({&gemms}, budget_s); }

void CpuGemmBench::add(const std::vector<const ModelGemms*>& set, double budget_s) {
  std::vector<Shape> fresh;  // op shapes (representative rows, n, k) not yet planned
  for (const ModelGemms* gemms : set) {
    for (const auto* layer : {&gemms->dense_layer, &gemms->moe_layer}) {
      for (const GemmOp& op : *layer) {
        const Shape key{representative_rows(op), op.n, op.k};
        if (!slice_.contains(key)) {
          fresh.push_back(key);
          slice_[key] = key;
        }
      }
    }
  }
  budget_s_ += budget_s;
  const double shapes = static_cast<double>(std::max<std::size_t>(1, fresh.size()));
  // Every new shape gets an equal share of the budget over its warm-up and reps; the
  // warm-up and one round (2 calls) must fit the share even on the smallest slice.
  const double per_call = budget_s / (shapes * (1 + options_.reps) * std::max(1.0, options_.plan_margin));
  const double per_shape_floor = budget_s / shapes / 2;
  const double cap = options_.max_operand_bytes / sizeof(float);
  for (const Shape& key : fresh) {
    auto [rows, n, k] = key;
    // A weight matrix (k x n) too big for memory, or too slow to pack within half the
    // shape's share, is timed on a slice of its columns that keeps n's residue mod 64
    // (what alignment is about); rows are bounded by the A and C buffers too.
    // Packing time slices only weights above 16 MiB: below that, a slice of n would cost
    // more fidelity than the time it saves.
    const double pack_cap = std::max(0.5 * per_shape_floor * pack_bytes_per_second_ / sizeof(float),
                                     16.0 * 1024 * 1024 / sizeof(float));
    const double weight_cap = std::min(cap, pack_cap);
    std::int64_t timed_n = n;
    if (static_cast<double>(k) * static_cast<double>(n) > weight_cap) {
      const auto cols = static_cast<std::int64_t>(weight_cap / static_cast<double>(k));
      timed_n = std::min(n, std::max<std::int64_t>(64, cols / 64 * 64) + n % 64);
      ++column_sliced_;
    }
    const double pack_s = 4.0 * static_cast<double>(k) * static_cast<double>(timed_n) / pack_bytes_per_second_;
    const auto row_cap = static_cast<std::int64_t>(cap / static_cast<double>(std::max(k, timed_n)));
    const double per_row = gemm_flops(1, timed_n, k) / probe_rate_;  // seconds per row
    std::int64_t timed = std::min(rows, std::max<std::int64_t>(16, row_cap / 16 * 16));
    if (pack_s + per_row * static_cast<double>(timed) > per_call) {  // too big for its share
      const auto fit = static_cast<std::int64_t>(std::max(0.0, per_call - pack_s) / per_row);
      timed = std::min(timed, std::max(options_.min_rows, fit / 16 * 16));
    }
    if (pack_s + per_row * static_cast<double>(timed) > per_shape_floor && timed > 16) {
      // Even min_rows rows overrun the budget: fewer rows (at least 16), and a note.
      const auto fit = static_cast<std::int64_t>(std::max(0.0, per_shape_floor - pack_s) / per_row);
      timed = std::max<std::int64_t>(16, fit / 16 * 16);
      ++below_min_rows_;
    }
    const Shape run{timed, timed_n, k};
    slice_[key] = run;
    if (!timed_.contains(run) &&
        std::find(pending_.begin(), pending_.end(), run) == pending_.end()) {
      pending_.push_back(run);
    }
  }
}

void CpuGemmBench::measure() {
  if (pending_.empty()) return;
  std::size_t na = 0, nb = 0, nc = 0;
  for (const auto& [m, n, k] : pending_) {
    na = std::max(na, elements(m, k));
    nb = std::max(nb, elements(k, n));
    nc = std::max(nc, elements(m, n));
  }
  std::vector<float> a(na), b(nb), c(nc);
  double estimate = 0;  // seconds of one round
  // 0.8: a 512³ probe runs from cache and overstates the rate of large shapes.
  for (const auto& [m, n, k] : pending_) estimate += gemm_flops(m, n, k) / (0.8 * probe_rate_);
  const int fit = static_cast<int>(budget_s_ / std::max(estimate, 1e-9)) - 1;
  const int reps = std::max(1, std::min(options_.reps, std::max(3, fit)));
  // The budget is a deadline: a round that would end past it is not started (one round is
  // always timed), so a busy machine gets fewer rounds, not a longer run.
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  std::map<Shape, double> warm;
  for (const Shape& sh : pending_) {
    const auto [m, n, k] = sh;
    warm[sh] = time_once(a, b, c, m, n, k);  // warm-up
  }
  double last_round = std::chrono::duration<double>(clock::now() - start).count();
  std::map<Shape, std::vector<double>> seconds;
  if (last_round + last_round > budget_s_) {
    // The warm-up alone took half the budget: it is the one timing (noted), so the run
    // ends near the budget instead of twice past it.
    for (auto& [sh, t] : warm) seconds[sh].push_back(t);
    cut_rounds_ = 1;
    warm_only_ = true;
  }
  for (int r = 0; r < reps && !warm_only_; ++r) {
    const double spent = std::chrono::duration<double>(clock::now() - start).count();
    if (r > 0 && spent + last_round > budget_s_) {
      cut_rounds_ = r;
      break;
    }
    const auto round_start = clock::now();
    // Odd rounds run the shapes in reverse: a drift within a round (clock, cache, a
    // neighbour's load) then favours no shape, and no config's shapes, systematically.
    for (std::size_t i = 0; i < pending_.size(); ++i) {
      const Shape& s = pending_[r % 2 == 0 ? i : pending_.size() - 1 - i];
      const auto [m, n, k] = s;
      seconds[s].push_back(time_once(a, b, c, m, n, k));
    }
    last_round = std::chrono::duration<double>(clock::now() - round_start).count();
  }
  for (auto& [s, v] : seconds) timed_[s] = summarise(std::move(v));
  pending_.clear();
  budget_s_ = 0;
}

double CpuGemmBench::peak_rate() const {
  const auto it = timed_.find({peak_size_, peak_size_, peak_size_});
  return it == timed_.end() ? 0 : gemm_flops(peak_size_, peak_size_, peak_size_) / it->second.median_s;
}

TimedOp CpuGemmBench::timed_op(const GemmOp& op) const {
  TimedOp t;
  t.op = op;
  t.kernel = op.grouped() ? cpu_gemm_kernel_name() + ", one call per expert" : cpu_gemm_kernel_name();
  const Shape key{representative_rows(op), op.n, op.k};
  const auto slice = slice_.find(key);
  if (slice == slice_.end()) return t;
  const auto timing = timed_.find(slice->second);
  if (timing == timed_.end() || timing->second.median_s <= 0) return t;
  const auto [rows, n, k] = slice->second;
  t.timed_rows = {rows};
  t.timed_n = n;
  t.timed_flops = gemm_flops(rows, n, k);
  t.timing = timing->second;
  t.rate = t.timed_flops / t.timing.median_s;
  t.fraction_of_peak = fraction_of(t.rate, hardware_.flops, nullptr);
  t.seconds = op.flops() / t.rate;
  return t;
}

DeviceRun CpuGemmBench::result(const ModelGemms& gemms) const {
  DeviceRun r;
  r.device = device_;
  r.precision = "fp32";
  r.peak_size = peak_size_;
  r.peak_rate = peak_rate();
  r.nominal_peak = hardware_.flops;
  r.nominal_peak_source = hardware_.source;
  r.notes.push_back(backend_choice_);
  if (hardware_.flops <= 0) r.notes.push_back("the CPU clock is unknown: no hardware peak, no fraction of it");
  if (!hardware_.native) {
    r.notes.push_back("the CPU kernel was built without -march=native: it uses the baseline ISA only");
  }
  fraction_of(r.peak_rate, hardware_.flops, &r.notes);
  for (const GemmOp& op : gemms.dense_layer) r.dense_layer.push_back(timed_op(op));
  for (const GemmOp& op : gemms.moe_layer) r.moe_layer.push_back(timed_op(op));
  for (const auto* layer : {&r.dense_layer, &r.moe_layer}) {
    for (const TimedOp& t : *layer) fraction_of(t.rate, hardware_.flops, &r.notes);
  }
  if (cut_rounds_ > 0) {
    r.notes.push_back(warm_only_ ? fmt::format("the time budget allowed no timing rounds after the warm-up, so the "
                                               "warm-up is the one timing (of {} asked)", options_.reps)
                                 : fmt::format("the time budget allowed {} of {} timing rounds", cut_rounds_,
                                               options_.reps));
  }
  if (gemms.routing_skew > 0) {
    r.notes.push_back("skewed routing on the CPU: the largest expert's rate serves every expert (the "
                      "experts run one after another), so the cost of imbalance is understated here");
  }
  if (below_min_rows_ > 0) {
    r.notes.push_back(fmt::format("{} shape(s) timed on fewer than --min-rows rows to keep the time "
                                  "budget (fewer rows understate the rate)", below_min_rows_));
  }
  if (column_sliced_ > 0) {
    r.notes.push_back(fmt::format("{} weight matrix(es) timed on a slice of their columns (n mod 64 kept): "
                                  "above {:.0f} MiB, or too slow to pack within the time budget",
                                  column_sliced_, options_.max_operand_bytes / (1024 * 1024)));
  }
  total_up(r, gemms);
  return r;
}

// ---- GPU -----------------------------------------------------------------------------

std::optional<DeviceRun> gpu_gemm_bench(const ModelGemms& gemms, const BenchOptions& options,
                                        std::string& status) {
  const GpuDevice dev = gpu_device();
  status = dev.status;
  if (!dev.usable) return std::nullopt;
  DeviceRun r;
  r.device = "cuda: " + dev.status;
  r.precision = "bf16 in, fp32 accumulate, bf16 out";
  r.nominal_peak = dev.bf16_dense_peak;
  r.nominal_peak_source = dev.peak_source;
  constexpr int kWarmup = 3;
  r.peak_size = 8192;
  const GpuTiming peak = gpu_time_gemm(8192, 8192, 8192, kWarmup, options.gpu_reps);
  if (!peak.error.empty()) {
    status = "GPU peak GEMM failed: " + peak.error;
    return std::nullopt;
  }
  r.peak_rate = gemm_flops(8192, 8192, 8192) / peak.median_s;
  const double reference = r.nominal_peak > 0 ? r.nominal_peak : r.peak_rate;
  auto time_op = [&](const GemmOp& op) {
    TimedOp t;
    t.op = op;
    const GpuTiming g = op.grouped()
                            ? gpu_time_grouped(op.rows, op.n, op.k, kWarmup, options.gpu_reps)
                            : gpu_time_gemm(op.rows.front(), op.n, op.k, kWarmup, options.gpu_reps);
    t.kernel = g.kernel;
    if (!g.error.empty()) {
      r.errors.push_back(op.name + ": " + g.error);
      return t;
    }
    t.timed_rows = op.rows;
    t.timed_n = op.n;
    t.timed_flops = op.flops();
    t.timing = Timing{g.median_s, g.min_s, g.max_s, g.reps};
    t.rate = t.timed_flops / g.median_s;
    t.fraction_of_peak = fraction_of(t.rate, reference, &r.notes);
    t.seconds = g.median_s;
    return t;
  };
  for (const GemmOp& op : gemms.dense_layer) r.dense_layer.push_back(time_op(op));
  for (const GemmOp& op : gemms.moe_layer) r.moe_layer.push_back(time_op(op));
  total_up(r, gemms);
  return r;
}

BenchResult run_gemm_bench(const ModelGemms& gemms, const BenchOptions& options) {
  BenchResult out;
  out.gemms = gemms;
  if (options.cpu) {
    // A quarter of the budget for the peak, the rest for the shapes.
    CpuGemmBench cpu(options, options.cpu_seconds / 4);
    cpu.add(gemms, options.cpu_seconds * 0.75);
    cpu.measure();
    out.cpu = cpu.result(gemms);
  }
  if (options.gpu) {
    out.gpu = gpu_gemm_bench(gemms, options, out.gpu_status);
  } else {
    out.gpu_status = "GPU run not requested (--no-gpu)";
  }
  return out;
}

}  // namespace moeplan
