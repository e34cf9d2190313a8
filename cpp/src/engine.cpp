// The statistics engine: measure a group, standardize, apply params.
#include "normlab/engine.hpp"
#include "normlab/kernels.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace normlab {

std::size_t Group::stat_of(std::size_t offset) const {
  const std::size_t l_span = reduce_inner;
  const std::size_t k = (offset / l_span) % stat_inner;
  const std::size_t i = offset / (l_span * stat_inner * reduce_outer);
  return i * stat_inner + k;
}

std::vector<std::size_t> Group::offsets(std::size_t s) const {
  assert(s < stats());
  const std::size_t i = s / stat_inner, k = s % stat_inner;
  std::vector<std::size_t> out;
  out.reserve(members());
  for (std::size_t j = 0; j < reduce_outer; ++j)
    for (std::size_t l = 0; l < reduce_inner; ++l)
      out.push_back(((i * reduce_outer + j) * stat_inner + k) * reduce_inner + l);
  return out;
}

Group Group::rows(std::size_t count, std::size_t width) { return Group{count, width, 1, 1}; }

Group Group::along(const Shape& shape, std::size_t axis) {
  std::size_t outer = 1, inner = 1;
  for (std::size_t a = 0; a < axis; ++a) outer *= shape[a];
  for (std::size_t a = axis + 1; a < shape.size(); ++a) inner *= shape[a];
  return Group{outer, shape[axis], inner, 1};
}

Group Group::per_channel(const Shape& s, std::size_t chunk) {
  std::size_t spatial = 1;
  for (std::size_t a = 2; a < s.size(); ++a) spatial *= s[a];
  return Group{s[0] / chunk, chunk, s[1], spatial};
}

namespace {

// Visit every element as (statistic, value); the loop order follows memory.
template <class F>
void for_each(const float* x, const Group& g, F&& f) {
  std::size_t off = 0;
  for (std::size_t i = 0; i < g.stat_outer; ++i)
    for (std::size_t j = 0; j < g.reduce_outer; ++j)
      for (std::size_t k = 0; k < g.stat_inner; ++k) {
        const std::size_t s = i * g.stat_inner + k;
        for (std::size_t l = 0; l < g.reduce_inner; ++l, ++off) f(s, off, x[off]);
      }
}

}  // namespace

Stats measure(const float* x, const Group& g, Measure m) {
  const std::size_t n = g.stats();
  const double count = static_cast<double>(g.members());
  Stats st{std::vector<double>(n, 0.0), std::vector<double>(n, 0.0)};
  auto& c = st.center;
  auto& v = st.spread;
  switch (m) {
    case Measure::MeanVar:
      for_each(x, g, [&](std::size_t s, std::size_t, float a) { c[s] += a; });
      for (auto& e : c) e /= count;
      // second pass: center, then square
      for_each(x, g, [&](std::size_t s, std::size_t, float a) {
        const double d = a - c[s];
        v[s] += d * d;
      });
      for (auto& e : v) e /= count;
      break;
    case Measure::MeanSquare:
    case Measure::SumSquare:
      for_each(x, g, [&](std::size_t s, std::size_t, float a) { v[s] += double(a) * a; });
      if (m == Measure::MeanSquare)
        for (auto& e : v) e /= count;
      break;
    case Measure::SumAbs:
      for_each(x, g, [&](std::size_t s, std::size_t, float a) { v[s] += std::fabs(double(a)); });
      break;
    case Measure::MaxAbs:
      for_each(x, g, [&](std::size_t s, std::size_t, float a) {
        v[s] = std::max(v[s], std::fabs(double(a)));
      });
      break;
  }
  return st;
}

std::vector<double> denominators(const Stats& st, const Transform& t, const std::string& op) {
  std::vector<double> d(st.spread.size());
  for (std::size_t s = 0; s < d.size(); ++s) {
    const double v = std::max(st.spread[s], 0.0);
    switch (t.denominator) {
      case Denominator::SqrtPlusEps: d[s] = std::sqrt(v + t.eps); break;
      case Denominator::MaxSqrtEps: d[s] = std::max(std::sqrt(v), t.eps); break;
      case Denominator::MaxEps: d[s] = std::max(v, t.eps); break;
    }
    if (!(d[s] > 0.0))
      throw InputError(op + ": group " + std::to_string(s) +
                       " has zero spread and eps is 0, so its denominator is zero");
  }
  return d;
}

void standardize(const float* x, float* y, const Group& g, const Stats& st, const Transform& t,
                 const std::vector<double>& denom) {
  std::vector<double> inv(denom.size());
  for (std::size_t s = 0; s < inv.size(); ++s) inv[s] = 1.0 / denom[s];
  if (t.center) {
    for_each(x, g, [&](std::size_t s, std::size_t off, float a) {
      y[off] = static_cast<float>((a - st.center[s]) * inv[s]);
    });
  } else {
    for_each(x, g, [&](std::size_t s, std::size_t off, float a) {
      y[off] = static_cast<float>(a * inv[s]);
    });
  }
}

void apply_params(Tensor& y, const Params& p) {
  if (p.scale) {
    Tensor s = *p.scale;
    s.reshape(p.scale_view);
    if (p.scale_offset != 0.0f) s += p.scale_offset;
    y *= s;
  }
  if (p.shift) {
    Tensor b = *p.shift;
    b.reshape(p.shift_view);
    y += b;
  }
}

namespace {

// A per-coordinate parameter of the row width (or none), read directly.
bool row_param(const Tensor* p, const Shape& view, std::size_t width, const float** out) {
  *out = nullptr;
  if (!p) return true;
  std::size_t n = 1;
  for (auto v : view) n *= v;
  if (n != width || p->size() != width) return false;
  *out = p->data();
  return true;
}

}  // namespace

/// Whether the description can take the fused row kernel: contiguous rows,
/// mean/variance or mean square with eps inside the root, current statistics,
/// per-coordinate (or no) scale and shift, nobody asking for the statistics.
bool fast_rows(const Description& d, const float** gamma, const float** beta) {
  const Group& g = d.group;
  return g.stat_inner == 1 && g.reduce_inner == 1 && !d.mode.given && d.params.scale_offset == 0.0f &&
         d.transform.denominator == Denominator::SqrtPlusEps &&
         ((d.measure == Measure::MeanVar && d.transform.center) || (d.measure == Measure::MeanSquare && !d.transform.center)) &&
         row_param(d.params.scale, d.params.scale_view, g.reduce_outer, gamma) &&
         row_param(d.params.shift, d.params.shift_view, g.reduce_outer, beta);
}

Tensor run(const Tensor& x, const Description& d, Stats* measured) {
  assert(d.group.elements() == x.size());
  const float *gamma = nullptr, *beta = nullptr;
  if (!measured && fast_rows(d, &gamma, &beta)) {
    Tensor y = xt::empty<float>(x.shape());
    const std::size_t rows = d.group.stat_outer, width = d.group.reduce_outer;
    const std::size_t bad = normalize_rows(x.data(), y.data(), rows, width, d.transform.center, d.transform.eps, gamma, beta);
    if (bad < rows)
      throw InputError(d.op + ": group " + std::to_string(bad) +
                       " has zero spread and eps is 0, so its denominator is zero");
    return y;
  }
  return run_generic(x, d, measured);
}

Tensor run_generic(const Tensor& x, const Description& d, Stats* measured) {
  assert(d.group.elements() == x.size());
  Stats own;
  const Stats* st = d.mode.given;
  if (!st) {
    own = measure(x.data(), d.group, d.measure);
    st = &own;
  }
  const auto denom = denominators(*st, d.transform, d.op);
  Tensor y = xt::empty<float>(x.shape());
  standardize(x.data(), y.data(), d.group, *st, d.transform, denom);
  apply_params(y, d.params);
  if (measured) *measured = *st;
  return y;
}

}  // namespace normlab
