// Fast paths (see kernels.hpp).
#include "normlab/kernels.hpp"
#include "normlab/tensor.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace normlab {

namespace {

typedef float f4 __attribute__((vector_size(16)));
typedef std::int32_t i4 __attribute__((vector_size(16)));

inline f4 load(const float* p) {
  f4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store(float* p, f4 v) { std::memcpy(p, &v, sizeof v); }
inline f4 splat(float s) { return f4{s, s, s, s}; }
inline float hsum(f4 v) { return (v[0] + v[1]) + (v[2] + v[3]); }
inline f4 select(i4 mask, f4 a, f4 b) {  // mask lanes are all ones or all zeros
  return reinterpret_cast<f4>((reinterpret_cast<i4>(a) & mask) | (reinterpret_cast<i4>(b) & ~mask));
}
#ifdef __wasm_simd128__
inline f4 vmax(f4 a, f4 b) { return reinterpret_cast<f4>(__builtin_wasm_pmax_f32x4(a, b)); }  // b < a ? a : b
#else
inline f4 vmax(f4 a, f4 b) { return select(a > b, a, b); }
#endif
inline f4 abs4(f4 v) {
  return reinterpret_cast<f4>(reinterpret_cast<i4>(v) & i4{0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff});
}
inline float abs4(float v) { return std::fabs(v); }
inline float hmax(f4 v) { return std::max(std::max(v[0], v[1]), std::max(v[2], v[3])); }

// Float partial sums are flushed into a double every kBlock numbers, so long
// groups (GroupNorm's 16k) keep float32 error per block only.
constexpr std::size_t kBlock = 1024;

// Sum of f(p[i]) over p[0..n): four float accumulators per block, the blocks
// added in double. f takes a float or four of them (a generic lambda).
template <class F>
double blocked_sum(const float* p, std::size_t n, F f) {
  double total = 0;
  for (std::size_t i = 0; i < n;) {
    const std::size_t end = std::min(n, i + kBlock);
    f4 a0 = splat(0), a1 = a0, a2 = a0, a3 = a0;
    for (; i + 16 <= end; i += 16) {
      a0 += f(load(p + i));
      a1 += f(load(p + i + 4));
      a2 += f(load(p + i + 8));
      a3 += f(load(p + i + 12));
    }
    float s = hsum((a0 + a1) + (a2 + a3));
    for (; i < end; ++i) s += f(p[i]);
    total += s;
  }
  return total;
}

double sum_f(const float* p, std::size_t n) {
  return blocked_sum(p, n, [](auto v) { return v; });
}

// Sum of x^2 (RMS).
double squares_f(const float* p, std::size_t n) {
  return blocked_sum(p, n, [](auto v) { return v * v; });
}

// Sums of d = x - c and of d^2 (LayerNorm; RMSNorm needs only squares_f).
void moments_f(const float* p, std::size_t n, float c, double& s1, double& s2) {
  s1 = s2 = 0;
  const f4 cv = splat(c);
  for (std::size_t i = 0; i < n;) {
    const std::size_t end = std::min(n, i + kBlock);
    f4 a0 = splat(0), a1 = a0, a2 = a0, a3 = a0, q0 = a0, q1 = a0, q2 = a0, q3 = a0;
    for (; i + 16 <= end; i += 16) {
      const f4 d0 = load(p + i) - cv, d1 = load(p + i + 4) - cv;
      const f4 d2 = load(p + i + 8) - cv, d3 = load(p + i + 12) - cv;
      a0 += d0;
      a1 += d1;
      a2 += d2;
      a3 += d3;
      q0 += d0 * d0;
      q1 += d1 * d1;
      q2 += d2 * d2;
      q3 += d3 * d3;
    }
    float t1 = hsum((a0 + a1) + (a2 + a3)), t2 = hsum((q0 + q1) + (q2 + q3));
    for (; i < end; ++i) {
      const float d = p[i] - c;
      t1 += d;
      t2 += d * d;
    }
    s1 += t1;
    s2 += t2;
  }
}

// The careful row: every sum in double. Taken when the float sums overflow,
// underflow or meet a non-finite number. false: the row is not finite.
bool row_stats_double(const float* p, std::size_t n, bool center, double& mean, double& spread) {
  double s = 0;
  if (center) {
    for (std::size_t i = 0; i < n; ++i) s += p[i];
    if (!std::isfinite(s)) return false;
  }
  mean = center ? s / double(n) : 0.0;
  double q = 0;
  for (std::size_t i = 0; i < n; ++i) q += (p[i] - mean) * (p[i] - mean);
  if (!std::isfinite(q)) return false;
  spread = q / double(n);
  return true;
}

// Below this mean square the float squares may have lost digits to underflow.
constexpr double kTinySpread = 1e-30;

}  // namespace

namespace {

// Short rows (the figures' 2- and 3-vectors): plain loops in double, which
// cost less than setting up the vector passes.
std::size_t normalize_short_rows(const float* x, float* y, std::size_t rows, std::size_t width, bool center, double eps,
                                 const float* gamma, const float* beta) {
  for (std::size_t r = 0; r < rows; ++r) {
    const float* xr = x + r * width;
    double mean = 0, q = 0;
    if (center) {
      for (std::size_t i = 0; i < width; ++i) mean += xr[i];
      mean /= double(width);
    }
    for (std::size_t i = 0; i < width; ++i) q += (xr[i] - mean) * (xr[i] - mean);
    const double denom = std::sqrt(q / double(width) + eps);
    if (!(denom > 0) || !std::isfinite(denom)) return r;
    const double inv = 1.0 / denom;
    for (std::size_t i = 0; i < width; ++i) {
      double v = (xr[i] - mean) * inv;
      if (gamma) v *= gamma[i];
      if (beta) v += beta[i];
      y[r * width + i] = static_cast<float>(v);
    }
  }
  return rows;
}

}  // namespace

// (tensor.hpp) // Branch-free OR over blocks of 64, so that it vectorizes.
std::size_t first_non_finite(const float* p, std::size_t n) {
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    std::uint32_t any = 0;
    for (std::size_t k = 0; k < 64; ++k) {
      std::uint32_t b;
      std::memcpy(&b, p + i + k, 4);
      any |= ((b & 0x7f800000u) == 0x7f800000u);
    }
    if (any) break;
  }
  for (; i < n; ++i)
    if (!std::isfinite(p[i])) return i;
  return n;
}

std::size_t normalize_rows(const float* x, float* y, std::size_t rows, std::size_t width, bool center, double eps,
                           const float* gamma, const float* beta) {
  if (width < 16) return normalize_short_rows(x, y, rows, width, center, eps, gamma, beta);
  const double n = double(width);
  for (std::size_t r = 0; r < rows; ++r) {
    const float* xr = x + r * width;
    float* yr = y + r * width;
    // Shift by c1 and sum x - c1 and its square in one pass: the exact mean
    // correction and a variance without cancellation as long as c1 lies within
    // a few standard deviations of the mean. c1 is first the mean of the first
    // 16 numbers; when it lies too far (more than 4 sigma) the row takes a
    // float mean over all its numbers first and sums again.
    double s1 = 0, s2 = 0, mean = 0, spread = 0;
    bool careful = false;
    float c1 = 0;
    if (center) {
      const std::size_t head = std::min<std::size_t>(16, width);
      float h = 0;
      for (std::size_t i = 0; i < head; ++i) h += xr[i];
      c1 = h / float(head);
      careful = !std::isfinite(c1);
    }
    for (int attempt = 0; attempt < 2 && !careful; ++attempt) {
      if (center)
        moments_f(xr, width, c1, s1, s2);
      else
        s2 = squares_f(xr, width);
      const double d = center ? s1 / n : 0.0;
      spread = s2 / n - d * d;
      mean = double(c1) + d;
      careful = !std::isfinite(s2) || !std::isfinite(s1) || s2 / n < kTinySpread;
      if (careful || !center || d * d <= 16 * spread) break;
      const double total = sum_f(xr, width);  // the shift was far off: a float mean over the whole row
      careful = !std::isfinite(total);
      c1 = static_cast<float>(total / n);
    }
    if (careful && !row_stats_double(xr, width, center, mean, spread)) {
      // Non-finite input: the callers check inputs before, so this is a
      // guard only; report it as a zero denominator on this row.
      return r;
    }
    const double denom = std::sqrt(std::max(spread, 0.0) + eps);
    if (!(denom > 0)) return r;
    // In double when 1 / denom would overflow float, or when x - mean might:
    // every |x - mean| is at most sqrt(width * spread), and near float's
    // largest numbers (a row holding 3e38 and -3e38) it is past it.
    if (denom < 1e-30 || n * spread > 1e76) {
      for (std::size_t i = 0; i < width; ++i) {
        double v = (double(xr[i]) - mean) / denom;
        if (gamma) v *= gamma[i];
        if (beta) v += beta[i];
        yr[i] = static_cast<float>(v);
      }
      continue;
    }
    const float inv = static_cast<float>(1.0 / denom);
    // mean as hi + lo floats: x - hi is exact near the mean.
    const float hi = static_cast<float>(mean), lo = static_cast<float>(mean - double(hi));
    const f4 iv = splat(inv), hv = splat(hi), lv = splat(lo);
    std::size_t i = 0;
    if (!center) {  // RMS: the mean is 0, nothing to subtract
      if (gamma)
        for (; i + 4 <= width; i += 4) store(yr + i, load(xr + i) * iv * load(gamma + i));
      else
        for (; i + 8 <= width; i += 8) {
          store(yr + i, load(xr + i) * iv);
          store(yr + i + 4, load(xr + i + 4) * iv);
        }
    } else if (gamma && beta) {
      for (; i + 4 <= width; i += 4) store(yr + i, ((load(xr + i) - hv) - lv) * iv * load(gamma + i) + load(beta + i));
    } else if (gamma) {
      for (; i + 4 <= width; i += 4) store(yr + i, ((load(xr + i) - hv) - lv) * iv * load(gamma + i));
    } else if (beta) {
      for (; i + 4 <= width; i += 4) store(yr + i, ((load(xr + i) - hv) - lv) * iv + load(beta + i));
    } else {
      for (; i + 8 <= width; i += 8) {
        store(yr + i, ((load(xr + i) - hv) - lv) * iv);
        store(yr + i + 4, ((load(xr + i + 4) - hv) - lv) * iv);
      }
    }
    for (; i < width; ++i) {
      float v = ((xr[i] - hi) - lo) * inv;
      if (gamma) v *= gamma[i];
      if (beta) v += beta[i];
      yr[i] = v;
    }
  }
  return rows;
}

namespace {

// exp of four floats for x <= 0 (softmax subtracts the max first): Cody-Waite
// reduction by ln 2 with round-to-nearest by the 1.5 * 2^23 trick, then the
// Cephes expf polynomial (~1 ulp on [-ln2/2, ln2/2]). Below -87.3 the result
// is exp(-87.3) ~ 1.2e-38 instead of a subnormal: an absolute error under 1e-37.
inline f4 exp4(f4 x) {
  x = vmax(x, splat(-87.3f));
  const f4 magic = splat(12582912.0f);  // 1.5 * 2^23
  const f4 big = x * splat(1.44269504088896341f) + magic;
  const f4 n = big - magic;  // round(x / ln 2)
  x = x - n * splat(0.693359375f) - n * splat(-2.12194440e-4f);
  const f4 z = x * x;
  f4 p = splat(1.9875691500e-4f);
  p = p * x + splat(1.3981999507e-3f);
  p = p * x + splat(8.3334519073e-3f);
  p = p * x + splat(4.1665795894e-2f);
  p = p * x + splat(1.6666665459e-1f);
  p = p * x + splat(5.0000001201e-1f);
  p = p * z + x + splat(1.0f);
  // 2^n: the integer n sits in the low bits of `big`; shift it into the exponent.
  const i4 pow2 = (reinterpret_cast<i4>(big) - reinterpret_cast<i4>(magic) + 127) << 23;
  return p * reinterpret_cast<f4>(pow2);
}

inline float exp1(float x) {
  f4 v = exp4(splat(x));
  return v[0];
}

// One softmax row in place or not; false when the row is not finite.
bool softmax_row(const float* x, float* y, std::size_t n) {
  f4 m0 = splat(-INFINITY), m1 = m0, bad = splat(0);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const f4 u = load(x + i), v = load(x + i + 4);
    m0 = vmax(m0, u);
    m1 = vmax(m1, v);
    bad += u * 0.0f + v * 0.0f;  // NaN as soon as one number is not finite
  }
  float m = hmax(vmax(m0, m1)), b = hsum(bad);
  for (; i < n; ++i) {
    m = std::max(m, x[i]);
    b += x[i] * 0.0f;
  }
  if (!std::isfinite(b) || !std::isfinite(m)) return false;
  const f4 mv = splat(m);
  double z = 0;
  for (i = 0; i < n;) {
    const std::size_t end = std::min(n, i + kBlock);
    f4 a0 = splat(0), a1 = a0;
    for (; i + 8 <= end; i += 8) {
      const f4 e0 = exp4(load(x + i) - mv), e1 = exp4(load(x + i + 4) - mv);
      store(y + i, e0);
      store(y + i + 4, e1);
      a0 += e0;
      a1 += e1;
    }
    float s = hsum(a0 + a1);
    for (; i < end; ++i) s += (y[i] = exp1(x[i] - m));
    z += s;
  }
  const float inv = static_cast<float>(1.0 / z);
  const f4 iv = splat(inv);
  for (i = 0; i + 4 <= n; i += 4) store(y + i, load(y + i) * iv);
  for (; i < n; ++i) y[i] *= inv;
  return true;
}

}  // namespace

std::size_t softmax_rows(const float* x, float* y, std::size_t rows, std::size_t width) {
  for (std::size_t r = 0; r < rows; ++r)
    if (!softmax_row(x + r * width, y + r * width, width)) return r;
  return rows;
}

std::size_t scale_rows(const float* x, float* y, std::size_t rows, std::size_t width, RowNorm kind, double eps) {
  for (std::size_t r = 0; r < rows; ++r) {
    const float* xr = x + r * width;
    float* yr = y + r * width;
    double s = 0;
    if (kind == RowNorm::L2) {
      s = squares_f(xr, width);
      // float squares overflow past ~1.8e19 and lose digits below ~1e-19: the careful sum in double
      if (!std::isfinite(s) || s < 1e-30) {
        s = 0;
        for (std::size_t i = 0; i < width; ++i) s += double(xr[i]) * xr[i];
      }
      s = std::sqrt(s);
    } else if (kind == RowNorm::L1) {
      s = blocked_sum(xr, width, [](auto v) { return abs4(v); });
      if (!std::isfinite(s)) {
        s = 0;
        for (std::size_t i = 0; i < width; ++i) s += std::fabs(double(xr[i]));
      }
    } else {
      f4 m = splat(0), bad = splat(0);
      std::size_t i = 0;
      for (; i + 4 <= width; i += 4) {
        const f4 v = load(xr + i);
        m = vmax(m, abs4(v));
        bad += v * 0.0f;
      }
      float mm = hmax(m), b = hsum(bad);
      for (; i < width; ++i) {
        mm = std::max(mm, std::fabs(xr[i]));
        b += xr[i] * 0.0f;
      }
      s = b == 0 ? double(mm) : NAN;
    }
    const double d = std::max(s, eps);
    if (!std::isfinite(s) || !(d > 0)) return r;
    const double inv = 1.0 / d;
    if (!(std::isfinite(inv)) || inv > 1e30) {  // a tiny denominator: divide in double
      for (std::size_t i = 0; i < width; ++i) yr[i] = static_cast<float>(xr[i] / d);
      continue;
    }
    const float fi = static_cast<float>(inv);
    const f4 iv = splat(fi);
    std::size_t i = 0;
    for (; i + 4 <= width; i += 4) store(yr + i, load(xr + i) * iv);
    for (; i < width; ++i) yr[i] = xr[i] * fi;
  }
  return rows;
}

namespace {

// c[m, n] = scale * a[m, kd] b[kd, n], all row-major: 4 rows x 8 columns of c
// per step (8 vector accumulators), accumulated over kd; scalar edges.
void matmul(const float* a, const float* b, float* c, std::size_t m, std::size_t kd, std::size_t n, float scale) {
  const f4 sv = splat(scale);
  for (std::size_t i = 0; i < m; i += 4) {
    const std::size_t nr = std::min<std::size_t>(4, m - i);
    const float* a0 = a + i * kd;  // rows past the end repeat the last one (not stored)
    const float* a1 = a + (i + std::min<std::size_t>(1, nr - 1)) * kd;
    const float* a2 = a + (i + std::min<std::size_t>(2, nr - 1)) * kd;
    const float* a3 = a + (i + std::min<std::size_t>(3, nr - 1)) * kd;
    std::size_t j = 0;
    for (; j + 8 <= n; j += 8) {
      f4 c00 = splat(0), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00;
      for (std::size_t e = 0; e < kd; ++e) {
        const f4 b0 = load(b + e * n + j), b1 = load(b + e * n + j + 4);
        const f4 r0 = splat(a0[e]), r1 = splat(a1[e]), r2 = splat(a2[e]), r3 = splat(a3[e]);
        c00 += r0 * b0;
        c01 += r0 * b1;
        c10 += r1 * b0;
        c11 += r1 * b1;
        c20 += r2 * b0;
        c21 += r2 * b1;
        c30 += r3 * b0;
        c31 += r3 * b1;
      }
      const f4 rows[4][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}};
      for (std::size_t r = 0; r < nr; ++r) {
        store(c + (i + r) * n + j, rows[r][0] * sv);
        store(c + (i + r) * n + j + 4, rows[r][1] * sv);
      }
    }
    for (; j < n; ++j)
      for (std::size_t r = 0; r < nr; ++r) {
        float dot = 0;
        for (std::size_t e = 0; e < kd; ++e) dot += a[(i + r) * kd + e] * b[e * n + j];
        c[(i + r) * n + j] = dot * scale;
      }
  }
}

}  // namespace

namespace {

// Softmax of one score row over its visible keys only; hidden weights are 0.
bool masked_softmax_row(float* s, std::size_t n, const float* mask, std::size_t last) {
  auto visible = [&](std::size_t j) { return j <= last && (!mask || mask[j] != 0); };
  float m = -INFINITY;
  bool any = false;
  for (std::size_t j = 0; j < n; ++j)
    if (visible(j)) {
      if (!std::isfinite(s[j])) return false;
      m = std::max(m, s[j]);
      any = true;
    }
  if (!any) return false;
  double z = 0;
  for (std::size_t j = 0; j < n; ++j) z += (s[j] = visible(j) ? exp1(s[j] - m) : 0.0f);
  const float inv = static_cast<float>(1.0 / z);
  for (std::size_t j = 0; j < n; ++j) s[j] *= inv;
  return true;
}

}  // namespace

bool attention_head(const float* q, const float* k, const float* v, float* out, float* weights, std::size_t tq,
                    std::size_t tk, std::size_t dk, std::size_t dv, float scale, float* kt, const float* mask,
                    bool causal) {
  // k transposed to [dk, tk], so that the scores are one row-major product.
  for (std::size_t j = 0; j < tk; ++j)
    for (std::size_t e = 0; e < dk; ++e) kt[e * tk + j] = k[j * dk + e];
  matmul(q, kt, weights, tq, dk, tk, scale);
  if (mask || causal) {
    for (std::size_t i = 0; i < tq; ++i)
      if (!masked_softmax_row(weights + i * tk, tk, mask ? mask + i * tk : nullptr, causal ? i : tk)) return false;
  } else if (softmax_rows(weights, weights, tq, tk) < tq) {
    return false;
  }
  matmul(weights, v, out, tq, tk, dv, 1.0f);
  return true;
}

}  // namespace normlab
