#pragma once
// A naive reference GEMM and the error measure the kernel tests share (CPU and GPU).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

/// Uniform values in [-1, 1), reproducible.
inline std::vector<float> random_matrix(std::int64_t rows, std::int64_t cols, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(static_cast<std::size_t>(rows * cols));
  for (float& x : v) x = u(gen);
  return v;
}

/// Largest |C − A·B| / Σ_l |a_il b_lj| over all entries, with A·B in double precision: the
/// quantity the standard dot-product bound limits (|error| ≤ γ_k Σ|a b|, γ_k = k u/(1 − k u),
/// Higham, Accuracy and Stability of Numerical Algorithms, Eq. 3.5).
inline double relative_gemm_error(const std::vector<float>& A, const std::vector<float>& B,
                                  const std::vector<float>& C, std::int64_t m, std::int64_t n,
                                  std::int64_t k) {
  double worst = 0;
  for (std::int64_t i = 0; i < m; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      double exact = 0, magnitude = 0;
      for (std::int64_t l = 0; l < k; ++l) {
        const double p = double(A[i * k + l]) * double(B[l * n + j]);
        exact += p;
        magnitude += std::abs(p);
      }
      const double err = std::abs(double(C[i * n + j]) - exact);
      worst = std::max(worst, magnitude > 0 ? err / magnitude : err);
    }
  }
  return worst;
}

/// γ_k for unit roundoff u.
inline double gamma_k(std::int64_t k, double u) {
  return static_cast<double>(k) * u / (1 - static_cast<double>(k) * u);
}
