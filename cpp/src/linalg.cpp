// Small dense linear algebra shared by whitening and the figure helpers.
#include "normlab/linalg.hpp"

#include <cmath>

namespace normlab {

void jacobi_eigen(std::vector<double>& a, std::size_t n, std::vector<double>& vecs) {
  vecs.assign(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) vecs[i * n + i] = 1;
  for (int sweep = 0; sweep < 100; ++sweep) {
    // Done when what is off the diagonal is negligible next to what is on it
    // (relative: an absolute bound never holds for large matrices and would
    // run all 100 sweeps).
    double off = 0, diag = 0;
    for (std::size_t p = 0; p < n; ++p) {
      diag += a[p * n + p] * a[p * n + p];
      for (std::size_t q = p + 1; q < n; ++q) off += a[p * n + q] * a[p * n + q];
    }
    if (off <= 1e-28 * diag || off < 1e-300) break;
    for (std::size_t p = 0; p < n; ++p)
      for (std::size_t q = p + 1; q < n; ++q) {
        const double apq = a[p * n + q];
        if (std::fabs(apq) < 1e-300) continue;
        const double theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        const double t = (theta >= 0 ? 1 : -1) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
        const double cs = 1 / std::sqrt(t * t + 1), sn = t * cs;
        for (std::size_t k = 0; k < n; ++k) {  // A <- A R
          const double akp = a[k * n + p], akq = a[k * n + q];
          a[k * n + p] = cs * akp - sn * akq;
          a[k * n + q] = sn * akp + cs * akq;
        }
        for (std::size_t k = 0; k < n; ++k) {  // A <- R^T A
          const double apk = a[p * n + k], aqk = a[q * n + k];
          a[p * n + k] = cs * apk - sn * aqk;
          a[q * n + k] = sn * apk + cs * aqk;
        }
        for (std::size_t k = 0; k < n; ++k) {  // V <- V R
          const double vkp = vecs[k * n + p], vkq = vecs[k * n + q];
          vecs[k * n + p] = cs * vkp - sn * vkq;
          vecs[k * n + q] = sn * vkp + cs * vkq;
        }
      }
  }
}

double dot(const float* a, const float* b, std::size_t n) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;  // four chains: the adds overlap
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += double(a[i]) * b[i];
    s1 += double(a[i + 1]) * b[i + 1];
    s2 += double(a[i + 2]) * b[i + 2];
    s3 += double(a[i + 3]) * b[i + 3];
  }
  for (; i < n; ++i) s0 += double(a[i]) * b[i];
  return (s0 + s1) + (s2 + s3);
}

double dot(const double* a, const float* b, std::size_t n) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  for (; i < n; ++i) s0 += a[i] * b[i];
  return (s0 + s1) + (s2 + s3);
}

void axpy(double s, const float* x, double* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] += s * x[i];
}

void add_squares(const float* x, double* acc, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) acc[i] += double(x[i]) * x[i];
}

std::vector<double> covariance_of(const float* x, std::size_t n, std::size_t f, const std::vector<double>& center) {
  std::vector<double> cov(f * f, 0.0), d(f);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t a = 0; a < f; ++a) d[a] = x[i * f + a] - center[a];
    for (std::size_t a = 0; a < f; ++a) {
      double* ca = cov.data() + a * f;
      const double da = d[a];
      for (std::size_t b = a; b < f; ++b) ca[b] += da * d[b];
    }
  }
  for (std::size_t a = 0; a < f; ++a)
    for (std::size_t b = a; b < f; ++b) cov[b * f + a] = cov[a * f + b] /= double(n);
  return cov;
}

}  // namespace normlab
