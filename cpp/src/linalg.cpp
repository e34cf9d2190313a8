// Small dense linear algebra shared by whitening and the figure helpers.
#include "normlab/linalg.hpp"

#include <cmath>

namespace normlab {

void jacobi_eigen(std::vector<double>& a, std::size_t n, std::vector<double>& vecs) {
  vecs.assign(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) vecs[i * n + i] = 1;
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0;
    for (std::size_t p = 0; p < n; ++p)
      for (std::size_t q = p + 1; q < n; ++q) off += a[p * n + q] * a[p * n + q];
    if (off < 1e-30) break;
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

}  // namespace normlab
