// A table of measured GEMM rates (include/moeplan/cluster/gemm_table.hpp): read, written,
// and interpolated in log space for the step model.
#include "moeplan/cluster/gemm_table.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "moeplan/base/number_parse.hpp"

namespace moeplan {

namespace {

constexpr std::size_t k_neighbours = 4;

std::array<double, 4> coordinates(double groups, double m, double n, double k) {
  return {std::log(groups), std::log(m), std::log(n), std::log(k)};
}

std::vector<std::string> split_cells(std::string_view line) {
  std::vector<std::string> out(1);
  for (char c : line) {
    if (c == ',') {
      out.emplace_back();
    } else if (c != '\r') {
      out.back() += c;
    }
  }
  for (std::string& cell : out) {  // surrounding blanks are not part of a value
    const auto first = cell.find_first_not_of(" \t");
    cell = first == std::string::npos ? std::string() : cell.substr(first, cell.find_last_not_of(" \t") - first + 1);
  }
  return out;
}

}  // namespace

double MeasuredGemmRates::rate(double groups, double m, double n, double k) const {
  const std::array<double, 4> q = coordinates(groups, m, n, k);
  // The nearest rows, by squared distance in log space.
  std::vector<std::pair<double, const GemmTableRow*>> by_distance;
  by_distance.reserve(rows.size());
  for (const GemmTableRow& r : rows) {
    const std::array<double, 4> p = coordinates(r.groups, r.m, r.n, r.k);
    double d2 = 0;
    for (std::size_t i = 0; i < p.size(); ++i) d2 += (p[i] - q[i]) * (p[i] - q[i]);
    by_distance.emplace_back(d2, &r);
  }
  const std::size_t keep = std::min(k_neighbours, by_distance.size());
  std::partial_sort(by_distance.begin(), by_distance.begin() + static_cast<std::ptrdiff_t>(keep), by_distance.end(),
                    [](const auto& a, const auto& b) { return a.first < b.first; });
  if (by_distance.front().first == 0) {  // measured: the geometric mean of its runs (a table may repeat a shape)
    double log_sum = 0;
    int runs = 0;
    for (const auto& [d2, row] : by_distance) {
      if (d2 == 0) log_sum += std::log(row->flops_per_s), ++runs;
    }
    return std::exp(log_sum / runs);
  }
  double weights = 0, log_rate = 0;
  for (std::size_t i = 0; i < keep; ++i) {
    const double w = 1.0 / by_distance[i].first;
    weights += w;
    log_rate += w * std::log(by_distance[i].second->flops_per_s);
  }
  return std::exp(log_rate / weights);
}

std::shared_ptr<const MeasuredGemmRates> GemmTable::for_gpu(const GpuSpec& gpu, Precision precision) const {
  auto out = std::make_shared<MeasuredGemmRates>();
  for (const GemmTableRow& r : rows) {
    if (r.precision == precision && gpu_is(r.gpu, gpu)) out->rows.push_back(r);
  }
  if (out->rows.empty()) return nullptr;
  return out;
}

std::expected<GemmTable, InputError> read_gemm_table(std::string_view text, const std::string& source) {
  GemmTable table;
  const std::vector<std::string> header = split_cells(k_gemm_table_header);
  const auto error = [&](int line, std::string key, std::string reason) {
    return std::unexpected(InputError{source, line, 0, std::move(key), std::move(reason)});
  };
  std::istringstream in{std::string(text)};
  std::string line;
  int number = 0;
  bool header_seen = false;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line == "\r" || line[0] == '#') continue;
    const std::vector<std::string> cells = split_cells(line);
    if (!header_seen) {
      if (cells != header) {
        return error(number, "header", fmt::format("must be \"{}\"", k_gemm_table_header));
      }
      header_seen = true;
      continue;
    }
    if (cells.size() != header.size()) {
      return error(number, "", fmt::format("{} cells where the header has {}", cells.size(), header.size()));
    }
    GemmTableRow r;
    r.line = number;
    r.gpu = cells[0];
    if (r.gpu.empty()) return error(number, "gpu", "empty: name the device measured");
    const auto precision = parse_precision(cells[1]);
    if (!precision) return error(number, "precision", fmt::format("\"{}\" is neither bf16 nor fp8", cells[1]));
    r.precision = *precision;
    double* fields[] = {&r.groups, &r.m, &r.n, &r.k, &r.flops_per_s};
    for (std::size_t i = 0; i < std::size(fields); ++i) {
      const std::string& cell = cells[i + 2];
      const auto v = parse_positive_finite(cell);
      if (!v) return error(number, header[i + 2], fmt::format("\"{}\" is not a finite positive number", cell));
      if (i < 4 && *v != std::floor(*v)) {
        return error(number, header[i + 2], fmt::format("\"{}\" is not a whole number", cell));
      }
      *fields[i] = *v;
    }
    table.rows.push_back(std::move(r));
  }
  if (!header_seen) return error(number, "header", fmt::format("no header: the file must start \"{}\"", k_gemm_table_header));
  if (table.rows.empty()) return error(number, "", "no rows of measurements");
  return table;
}

std::string gemm_table_csv(const std::vector<GemmTableRow>& rows) {
  std::string out(k_gemm_table_header);
  out += '\n';
  for (const GemmTableRow& r : rows) {
    std::string gpu = r.gpu;  // a comma would split the cell
    std::replace(gpu.begin(), gpu.end(), ',', ';');
    out += fmt::format("{},{},{:.0f},{:.0f},{:.0f},{:.0f},{:.6e}\n", gpu, to_string(r.precision), r.groups, r.m, r.n,
                       r.k, r.flops_per_s);
  }
  return out;
}

}  // namespace moeplan
