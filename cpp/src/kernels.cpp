// Row-normalization fast path (see kernels.hpp).
#include "normlab/kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace normlab {

namespace {

typedef float f4 __attribute__((vector_size(16)));
typedef double d2 __attribute__((vector_size(16)));

inline f4 load(const float* p) {
  f4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store(float* p, f4 v) { std::memcpy(p, &v, sizeof v); }
inline float hsum(f4 v) { return (v[0] + v[1]) + (v[2] + v[3]); }

// Sum in double: float lanes are widened pairwise, four accumulators.
double sum_wide(const float* p, std::size_t n) {
  d2 a0 = {0, 0}, a1 = {0, 0}, a2 = {0, 0}, a3 = {0, 0};
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const f4 u = load(p + i), v = load(p + i + 4);
    a0 += d2{u[0], u[1]};
    a1 += d2{u[2], u[3]};
    a2 += d2{v[0], v[1]};
    a3 += d2{v[2], v[3]};
  }
  const d2 s = (a0 + a1) + (a2 + a3);
  double total = s[0] + s[1];
  for (; i < n; ++i) total += p[i];
  return total;
}

// Sum of (x - c)^2 with c = hi + lo split in two floats, so that x - hi is
// exact near c and the small lo is subtracted after: float lanes (the values
// are centered, so small), four accumulators, flushed to double every 1024.
double sum_sq_centered(const float* p, std::size_t n, float hi, float lo) {
  const f4 cv = {hi, hi, hi, hi}, lv = {lo, lo, lo, lo};
  double total = 0;
  std::size_t i = 0;
  while (i < n) {
    const std::size_t end = std::min(n, i + 1024);
    f4 a0 = {0, 0, 0, 0}, a1 = a0, a2 = a0, a3 = a0;
    for (; i + 16 <= end; i += 16) {
      const f4 v0 = (load(p + i) - cv) - lv, v1 = (load(p + i + 4) - cv) - lv;
      const f4 v2 = (load(p + i + 8) - cv) - lv, v3 = (load(p + i + 12) - cv) - lv;
      a0 += v0 * v0;
      a1 += v1 * v1;
      a2 += v2 * v2;
      a3 += v3 * v3;
    }
    float s = hsum((a0 + a1) + (a2 + a3));
    for (; i < end; ++i) {
      const float v = (p[i] - hi) - lo;
      s += v * v;
    }
    total += s;
  }
  return total;
}

}  // namespace

std::size_t normalize_rows(const float* x, float* y, std::size_t rows, std::size_t width, bool center, double eps,
                           const float* gamma, const float* beta) {
  for (std::size_t r = 0; r < rows; ++r) {
    const float* xr = x + r * width;
    float* yr = y + r * width;
    double mean = 0;
    if (center) {
      mean = sum_wide(xr, width) / double(width);
    }
    const float m = static_cast<float>(mean), mlo = static_cast<float>(mean - double(m));
    const double spread = sum_sq_centered(xr, width, m, mlo) / double(width);
    const double denom = std::sqrt(std::max(spread, 0.0) + eps);
    if (!(denom > 0)) return r;
    const float inv = static_cast<float>(1.0 / denom);
    const f4 iv = {inv, inv, inv, inv}, mv = {m, m, m, m}, lv = {mlo, mlo, mlo, mlo};
    std::size_t i = 0;
    for (; i + 4 <= width; i += 4) {
      f4 v = ((load(xr + i) - mv) - lv) * iv;
      if (gamma) v *= load(gamma + i);
      if (beta) v += load(beta + i);
      store(yr + i, v);
    }
    for (; i < width; ++i) {
      float v = ((xr[i] - m) - mlo) * inv;
      if (gamma) v *= gamma[i];
      if (beta) v += beta[i];
      yr[i] = v;
    }
  }
  return rows;
}

}  // namespace normlab
