// Preprocessing scalers: per-feature statistics of a data matrix [n, f]
// (fit), and their application (apply); ZCA whitening.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "normlab/linalg.hpp"
#include "normlab/norms.hpp"

namespace normlab {

namespace {

using A = AttrSpec;
const AttrKind Num = AttrKind::Number;

// One group per feature: the n rows of a column ([1, n, f, 1]).
Group per_feature(const Tensor& x) { return Group::of({x.shape()[0], x.shape()[1]}, {0}); }

const Tensor& data_matrix(const Call& c) {
  const Tensor& x = c.in("x");
  if (x.dimension() != 2) c.fail("x must have shape [n, f] but has shape " + shape_str(shape_of(x)));
  return x;
}

Tensor feature_vector(const std::vector<double>& v) {
  Tensor t = xt::empty<float>({v.size()});
  for (std::size_t k = 0; k < v.size(); ++k) t(k) = static_cast<float>(v[k]);
  return t;
}

void expect_features(const Call& c, const char* name, std::size_t f) {
  c.expect_shape(name, c.in(name), {f}, "one per feature, f = " + std::to_string(f));
}

// y = (x - center) / divisor per feature; a zero divisor is an error.
void scale_features(Call& c, const char* center, const char* divisor) {
  const Tensor& x = data_matrix(c);
  const std::size_t f = x.shape()[1];
  expect_features(c, center, f);
  expect_features(c, divisor, f);
  const Tensor& dv = c.in(divisor);
  for (std::size_t k = 0; k < f; ++k)
    if (dv(k) == 0) c.fail(Msg() << std::string(divisor) << " is zero at index " << std::to_string(k));
  // raw rows, straight into the output (xtensor's broadcast expression at -Oz took ~2 s on 2^25 numbers)
  const float *m = c.in(center).data(), *s = dv.data(), *px = x.data();
  float* y = c.output("y", shape_of(x));
  const std::size_t n = x.shape()[0];
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < f; ++k) y[i * f + k] = (px[i * f + k] - m[k]) / s[k];
}

void z_score_fit(Call& c) {
  const Tensor& x = data_matrix(c);
  Stats st = measure(x.data(), per_feature(x), Measure::MeanVar);
  for (auto& v : st.spread) v = v > 0 ? std::sqrt(v) : 1.0;  // constant feature: std 1
  c.out("mean", feature_vector(st.center));
  c.out("std", feature_vector(st.spread));
}

void min_max_fit(Call& c) {
  const Tensor& x = data_matrix(c);
  const std::size_t n = x.shape()[0], f = x.shape()[1];
  float* lo = c.output("min", {f});
  float* hi = c.output("max", {f});
  const float* px = x.data();
  std::copy(px, px + f, lo);
  std::copy(px, px + f, hi);
  for (std::size_t i = 1; i < n; ++i)
    for (std::size_t k = 0; k < f; ++k) {
      lo[k] = std::min(lo[k], px[i * f + k]);
      hi[k] = std::max(hi[k], px[i * f + k]);
    }
}

void min_max_apply(Call& c) {
  const Tensor& x = data_matrix(c);
  const std::size_t f = x.shape()[1];
  expect_features(c, "min", f);
  expect_features(c, "max", f);
  const Tensor &lo = c.in("min"), &hi = c.in("max");
  const double low = c.num("low"), high = c.num("high");
  const float *plo = lo.data(), *phi = hi.data(), *px = x.data();
  std::vector<double> scale(f);
  for (std::size_t k = 0; k < f; ++k) {
    if (phi[k] < plo[k])
      c.fail(Msg() << "max (" << num_str(phi[k]) << ") is below min (" << num_str(plo[k]) << ") at index "
                   << std::to_string(k));
    const double range = phi[k] > plo[k] ? double(phi[k]) - plo[k] : 1.0;  // zero range counts as 1
    scale[k] = (high - low) / range;
  }
  float* y = c.output("y", shape_of(x));
  const std::size_t n = x.shape()[0];
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < f; ++k)
      y[i * f + k] = static_cast<float>(low + (px[i * f + k] - double(plo[k])) * scale[k]);
}

// Float keys that order as the floats do, then an LSD radix sort (three
// passes of 11 bits): O(n) on any data. (Selection with nth_element is
// quadratic on crafted inputs in this libc++: 2^18 numbers took 9-40 s.)
void sort_floats(std::vector<float>& v, std::vector<std::uint32_t>& a, std::vector<std::uint32_t>& b) {
  const std::size_t n = v.size();
  a.resize(n);
  b.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t u;
    std::memcpy(&u, &v[i], 4);
    a[i] = u & 0x80000000u ? ~u : u | 0x80000000u;
  }
  for (int shift = 0; shift < 33; shift += 11) {
    std::vector<std::size_t> count(2049, 0);
    for (std::uint32_t k : a) ++count[((k >> shift) & 2047) + 1];
    for (std::size_t d = 1; d < count.size(); ++d) count[d] += count[d - 1];
    for (std::uint32_t k : a) b[count[(k >> shift) & 2047]++] = k;
    a.swap(b);
  }
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t u = a[i] & 0x80000000u ? a[i] & 0x7fffffffu : ~a[i];
    std::memcpy(&v[i], &u, 4);
  }
}

// numpy.percentile's default: linear interpolation between order statistics
// of the sorted v.
double percentile(const std::vector<float>& v, double q) {
  const double pos = q / 100.0 * double(v.size() - 1);
  const std::size_t lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (double(v[hi]) - v[lo]) * (pos - double(lo));
}

void robust_fit(Call& c) {
  const Tensor& x = data_matrix(c);
  const double ql = c.num("q_low"), qh = c.num("q_high");
  if (ql < 0 || qh > 100 || ql > qh)
    c.fail(Msg() << "q_low (" << num_str(ql) << ") and q_high (" << num_str(qh)
                 << ") must satisfy 0 <= q_low <= q_high <= 100");
  const std::size_t n = x.shape()[0], f = x.shape()[1];
  // a radix sort of every column: about ten passes over it
  // columns of a wide matrix are gathered a cache line per number: twice the cost
  c.check_work(double(n) * double(f) * (f > 1 ? 64 : 32), "sorting every column");
  std::vector<double> med(f), iqr(f);
  std::vector<float> col(n);
  std::vector<std::uint32_t> keys, spare;
  for (std::size_t k = 0; k < f; ++k) {
    const float* p = x.data() + k;
    for (std::size_t i = 0; i < n; ++i) col[i] = p[i * f];
    sort_floats(col, keys, spare);
    med[k] = percentile(col, 50);
    iqr[k] = percentile(col, qh) - percentile(col, ql);
    if (!(iqr[k] > 0)) iqr[k] = 1;  // zero range reported as 1
  }
  c.out("median", feature_vector(med));
  c.out("iqr", feature_vector(iqr));
}

void whiten(Call& c) {
  const Tensor& x = data_matrix(c);
  const std::size_t n = x.shape()[0], f = x.shape()[1];
  if (f > 256) c.fail(Msg() << "x has " << std::to_string(f) << " features; whitening supports at most 256");
  const double eps = c.num("eps");
  // the covariance (n f^2), then Jacobi sweeps (f^3 each) and the map back (n f^2)
  c.check_work(2 * double(n) * f * f + 8 * double(f) * f * f, "whitening x");
  const Stats st = measure(x.data(), per_feature(x), Measure::MeanVar);
  std::vector<double> cov = covariance_of(x.data(), n, f, st.center);
  for (std::size_t a = 0; a < f; ++a) cov[a * f + a] += eps;
  std::vector<double> vecs;
  jacobi_eigen(cov, f, vecs);
  double top = 0;
  for (std::size_t k = 0; k < f; ++k) top = std::max(top, cov[k * f + k]);
  for (std::size_t k = 0; k < f; ++k)
    if (!(cov[k * f + k] > 1e-12 * std::max(top, 1e-300)))
      c.fail(Msg() << "the covariance plus eps * I is singular (eigenvalue " << num_str(cov[k * f + k])
                   << "); use a larger eps");
  Tensor m = xt::empty<float>({f, f});
  for (std::size_t a = 0; a < f; ++a)
    for (std::size_t b = 0; b < f; ++b) {
      double s = 0;  // V diag(1/sqrt(lambda)) V^T
      for (std::size_t k = 0; k < f; ++k) s += vecs[a * f + k] * vecs[b * f + k] / std::sqrt(cov[k * f + k]);
      m(a, b) = static_cast<float>(s);
    }
  Tensor z = xt::empty<float>({n, f});
  std::vector<double> d(f);
  for (std::size_t i = 0; i < n; ++i) {  // raw rows: xtensor's element access would cost more than the math
    const float* xi = x.data() + i * f;
    for (std::size_t b = 0; b < f; ++b) d[b] = xi[b] - st.center[b];
    for (std::size_t a = 0; a < f; ++a) z.data()[i * f + a] = static_cast<float>(dot(d.data(), m.data() + a * f, f));
  }
  c.out("z", z);
  c.out("mean", feature_vector(st.center));
  c.out("matrix", m);
}

}  // namespace

void register_preprocessing_ops(Registry& r) {
  static constexpr OpSpec ops[] = {
      {"z_score_fit", {{"x"}}, {}, {"mean", "std"}, z_score_fit},
      {"z_score_apply", {{"x"}, {"mean"}, {"std"}}, {}, {"y"}, [](Call& c) { scale_features(c, "mean", "std"); }},
      {"min_max_fit", {{"x"}}, {}, {"min", "max"}, min_max_fit},
      {"min_max_apply",
       {{"x"}, {"min"}, {"max"}},
       {{"low", Num, Default(0.0)}, {"high", Num, Default(1.0)}},
       {"y"},
       min_max_apply},
      {"robust_fit",
       {{"x"}},
       {{"q_low", Num, Default(25.0)}, {"q_high", Num, Default(75.0)}},
       {"median", "iqr"},
       robust_fit},
      {"robust_apply", {{"x"}, {"median"}, {"iqr"}}, {}, {"y"}, [](Call& c) { scale_features(c, "median", "iqr"); }},
      {"whiten", {{"x"}}, {{"eps", Num, Default(1e-5), at_least(0)}}, {"z", "mean", "matrix"}, whiten},
  };
  enter(r, ops);
}

}  // namespace normlab
