// The GEMM shape model (src/cluster/gemm_rate.cpp) against a sweep measured on a GPU
// (bench/gpu_shape_sweep.py's CSV: kind,precision,groups,m,n,k,seconds,rate). Prints, per
// precision, the model's rate over the measured one two ways, and asserts nothing:
//  - per call: each single GEMM's measured seconds as they are;
//  - marginal: the rate of the rows added between two row counts of the same (n, k),
//    2·n·k·(m2 − m1) / (t(m2) − t(m1)), which cancels what every call pays whatever its size
//    (the host's launch, ~15-20 µs when one call is timed between two events).
// The model runs at the measured large-GEMM ceiling of each precision (the sweep's best rate
// over the datasheet peak), so only the shape terms are compared.
// Usage: moeplan_gemm_model_bench SWEEP.csv [GPU_ID] (default h200).
#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "moeplan/cluster/gemm_rate.hpp"
#include "moeplan/cluster/gpu_catalog.hpp"

using namespace moeplan;

namespace {

struct Stats {
  std::vector<double> logs;
  void add(double ratio) { logs.push_back(std::log(ratio)); }
  [[nodiscard]] std::string describe() const {
    if (logs.empty()) return "no shapes";
    double sum = 0, sq = 0;
    for (double l : logs) {
      sum += l;
      sq += l * l;
    }
    const auto n = static_cast<double>(logs.size());
    return fmt::format("{} shapes, geometric mean {:.2f}, rms log error {:.2f}", logs.size(), std::exp(sum / n),
                       std::sqrt(sq / n));
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: moeplan_gemm_model_bench SWEEP.csv [GPU_ID]\n");
    return 2;
  }
  const std::string gpu_id = argc > 2 ? argv[2] : "h200";
  const GpuSpec* gpu = embedded_gpu_catalog().find(gpu_id);
  if (gpu == nullptr) {
    fmt::print(stderr, "moeplan_gemm_model_bench: no GPU '{}' in the catalog\n", gpu_id);
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    fmt::print(stderr, "moeplan_gemm_model_bench: cannot read {}\n", argv[1]);
    return 2;
  }
  // (precision, m, n, k) -> seconds of one single GEMM
  std::map<std::tuple<std::string, double, double, double>, double> seconds;
  std::map<std::string, double> best;  // best measured rate per precision
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
    if (cells.size() != 8 || cells[0] != "gemm") continue;
    try {
      const double m = std::stod(cells[3]), n = std::stod(cells[4]), k = std::stod(cells[5]);
      const double s = std::stod(cells[6]);
      seconds[{cells[1], m, n, k}] = s;
      best[cells[1]] = std::max(best[cells[1]], 2 * m * n * k / s);
    } catch (const std::exception&) {
      continue;  // a header or comment line
    }
  }
  for (const auto& [precision_name, best_rate] : best) {
    const auto precision = parse_precision(precision_name);
    if (!precision) continue;
    const double peak = *precision == Precision::fp8 ? gpu->fp8_dense_flops : gpu->bf16_dense_flops;
    const GemmRateModel model = GemmRateModel::of(*gpu, *precision, best_rate / peak);
    fmt::print("{} on {}: model at the measured ceiling {:.2f} of peak\n", precision_name, gpu->name,
               best_rate / peak);
    Stats per_call, marginal;
    for (const auto& [key, s] : seconds) {
      const auto& [p, m, n, k] = key;
      if (p != precision_name) continue;
      const double flops = 2 * m * n * k;
      if (flops > 10e9) per_call.add(flops / gemm_seconds(model, 1, m, n, k) / (flops / s));
      // The next larger row count of the same (n, k), if measured.
      const auto next = std::find_if(seconds.upper_bound(key), seconds.end(), [&](const auto& e) {
        return std::get<0>(e.first) == p && std::get<2>(e.first) == n && std::get<3>(e.first) == k;
      });
      if (next == seconds.end()) continue;
      const double m2 = std::get<1>(next->first);
      if (m < 4096 || !(next->second > s)) continue;  // rows enough to fill the SMs
      const double added = 2 * (m2 - m) * n * k;
      const double measured = added / (next->second - s);
      const double modelled = added / (gemm_seconds(model, 1, m2, n, k) - gemm_seconds(model, 1, m, n, k));
      marginal.add(modelled / measured);
      fmt::print("  rows {:>5.0f}->{:<5.0f} n {:>5.0f} k {:>5.0f}: measured {:6.0f} TFLOP/s, model {:6.0f} ({:.2f})\n", m,
                 m2, n, k, measured / 1e12, modelled / 1e12, modelled / measured);
    }
    fmt::print("  per call (GEMMs above 10 GFLOP): {}\n", per_call.describe());
    fmt::print("  marginal (rows from 4096 up):    {}\n", marginal.describe());
  }
  return 0;
}
