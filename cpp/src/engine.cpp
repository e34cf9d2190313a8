// The statistics engine: measure a group, standardize, apply params; the
// kernel is chosen here, from the description, for every caller.
#include "normlab/engine.hpp"
#include "normlab/kernels.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>

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

std::vector<std::size_t> Group::input_axes() const {
  std::vector<std::size_t> axes;
  for (std::size_t a : reduced)
    if (axes.empty() || axes.back() != source[a]) axes.push_back(source[a]);
  return axes;
}

Shape Group::stat_shape(const Shape& x) const {
  Shape kept = x;
  for (std::size_t a : reduced) {
    if (layout[a] == x[source[a]])
      kept[source[a]] = 1;
    else
      kept[source[a]] /= layout[a];
  }
  return kept;
}

Group Group::of(const Shape& layout, std::vector<std::size_t> reduced, std::vector<std::size_t> source) {
  Group g;
  g.layout = layout;
  std::sort(reduced.begin(), reduced.end());
  g.reduced = reduced;
  if (source.empty())
    for (std::size_t a = 0; a < layout.size(); ++a) source.push_back(a);
  g.source = std::move(source);
  // Runs of kept and reduced axes, in order: kept, reduced, kept, reduced.
  std::size_t* extent[4] = {&g.stat_outer, &g.reduce_outer, &g.stat_inner, &g.reduce_inner};
  int slot = 0;
  for (std::size_t a = 0; a < layout.size(); ++a) {
    const bool red = std::binary_search(reduced.begin(), reduced.end(), a);
    while ((slot % 2 == 1) != red) ++slot;  // advance to the next slot of this kind
    assert(slot < 4);
    *extent[slot] *= layout[a];
  }
  return g;
}

Group Group::trailing(const Shape& x, std::size_t ndim) {
  std::vector<std::size_t> red;
  for (std::size_t a = x.size() - ndim; a < x.size(); ++a) red.push_back(a);
  return of(x, red);
}

Group Group::per_channel(const Shape& x, std::size_t chunk) {
  Shape layout{x[0] / chunk, chunk};
  std::vector<std::size_t> source{0, 0}, reduced{1};
  for (std::size_t a = 1; a < x.size(); ++a) {
    layout.push_back(x[a]);
    source.push_back(a);
    if (a >= 2) reduced.push_back(a + 1);
  }
  return of(layout, reduced, source);
}

Group Group::along(const Shape& shape, std::size_t axis) { return of(shape, {axis}); }

namespace {

// Visit every element as (statistic, offset, value); the loop order follows memory.
template <class T, class F>
void for_each(const T* x, const Group& g, F&& f) {
  std::size_t off = 0;
  for (std::size_t i = 0; i < g.stat_outer; ++i)
    for (std::size_t j = 0; j < g.reduce_outer; ++j)
      for (std::size_t k = 0; k < g.stat_inner; ++k) {
        const std::size_t s = i * g.stat_inner + k;
        for (std::size_t l = 0; l < g.reduce_inner; ++l, ++off) f(s, off, x[off]);
      }
}

std::size_t count(const Shape& s) {
  std::size_t n = 1;
  for (auto d : s) n *= d;
  return n;
}

[[noreturn]] void zero_denominator(const std::string& op, std::size_t group) {
  (Msg("zero_spread", "eps") << op << ": group " << std::to_string(group)
                             << " has zero spread and eps is 0, so its denominator is zero")
      .raise();
}

[[noreturn]] void not_finite_input(const std::string& op, const float* x, std::size_t k) {
  (Msg("not_finite", "x") << op << ": x has a non-finite value (" << num_str(x[k]) << ") at index "
                          << std::to_string(k))
      .raise();
}

void check_finite_input(const std::string& op, const float* x, std::size_t n) {
  if (const std::size_t k = first_non_finite(x, n); k < n) not_finite_input(op, x, k);
}

void check_finite_output(const std::string& op, const float* y, std::size_t n) {
  if (const std::size_t k = first_non_finite(y, n); k < n)
    (Msg("overflow", "y") << op << ": output y is not finite at index " << std::to_string(k) << " (float32 overflow)")
        .raise();
}

float max_abs(const float* p, std::size_t n) {
  float m = 0;
  for (std::size_t i = 0; i < n; ++i) m = std::fmax(m, std::fabs(p[i]));
  return m;
}

// A parameter that runs along the row: right-aligned against x's shape, its
// view equals x on the trailing axes that make up a row of `width` and is 1
// before them. (Counting is not enough: InstanceNorm's per-channel [1, C, 1]
// has C numbers, which may equal the spatial row's width.)
bool per_coordinate(const float* p, const Shape& view, const Shape& shape, std::size_t width) {
  if (!p) return true;
  if (view.size() > shape.size()) return false;
  std::size_t covered = 1, k = 0;
  for (; k < view.size() && covered < width; ++k) {
    const std::size_t a = shape.size() - 1 - k, v = view.size() - 1 - k;
    if (view[v] != shape[a]) return false;
    covered *= shape[a];
  }
  if (covered != width) return false;
  for (; k < view.size(); ++k)
    if (view[view.size() - 1 - k] != 1) return false;
  return true;
}

}  // namespace

namespace {

template <class T>
Stats measure_any(const T* x, const Group& g, Measure m) {
  const std::size_t n = g.stats();
  const double members = static_cast<double>(g.members());
  Stats st{std::vector<double>(n, 0.0), std::vector<double>(n, 0.0)};
  auto& c = st.center;
  auto& v = st.spread;
  switch (m) {
    case Measure::MeanVar:
      for_each(x, g, [&](std::size_t s, std::size_t, T a) { c[s] += a; });
      for (auto& e : c) e /= members;
      for_each(x, g, [&](std::size_t s, std::size_t, T a) {
        const double d = a - c[s];
        v[s] += d * d;
      });
      for (auto& e : v) e /= members;
      break;
    case Measure::MeanSquare:
    case Measure::SumSquare:
      for_each(x, g, [&](std::size_t s, std::size_t, T a) { v[s] += double(a) * a; });
      if (m == Measure::MeanSquare)
        for (auto& e : v) e /= members;
      break;
    case Measure::SumAbs:
      for_each(x, g, [&](std::size_t s, std::size_t, T a) { v[s] += std::fabs(double(a)); });
      break;
    case Measure::MaxAbs:
      for_each(x, g, [&](std::size_t s, std::size_t, T a) { v[s] = std::max(v[s], std::fabs(double(a))); });
      break;
    case Measure::SumExp:
      std::fill(c.begin(), c.end(), -INFINITY);
      for_each(x, g, [&](std::size_t s, std::size_t, T a) { c[s] = std::max(c[s], double(a)); });
      for_each(x, g, [&](std::size_t s, std::size_t, T a) { v[s] += std::exp(a - c[s]); });
      break;
  }
  return st;
}

}  // namespace

std::vector<std::size_t> param_axes(const Shape& view, const Shape& x) {
  std::vector<std::size_t> along;
  for (std::size_t k = 0; k < view.size() && k < x.size(); ++k)
    if (view[view.size() - 1 - k] != 1) along.push_back(x.size() - 1 - k);
  std::reverse(along.begin(), along.end());
  return along;
}

Per param_per(const Shape& view, const Shape& x, int channel_axis) {
  const std::vector<std::size_t> along = param_axes(view, x);
  const std::size_t ch = static_cast<std::size_t>(channel_axis);
  if (along.empty()) return Per::Scalar;
  if (channel_axis >= 0 && along == std::vector<std::size_t>{ch}) return Per::Channel;
  if (channel_axis > 0 && along == std::vector<std::size_t>{0, ch}) return Per::ExampleChannel;
  if (along.size() == x.size()) return Per::Element;
  if (along.front() == 0) return Per::ExampleCoordinate;
  return Per::Coordinate;
}

Stats measure(const float* x, const Group& g, Measure m) { return measure_any(x, g, m); }
Stats measure(const double* x, const Group& g, Measure m) { return measure_any(x, g, m); }

std::vector<double> denominators(const Stats& st, const Transform& t, const std::string& op) {
  std::vector<double> d(st.spread.size());
  for (std::size_t s = 0; s < d.size(); ++s) {
    const double v = std::max(st.spread[s], 0.0);
    switch (t.denominator) {
      case Denominator::SqrtPlusEps:
        d[s] = std::sqrt(v + t.eps);
        break;
      case Denominator::MaxSqrtEps:
        d[s] = std::max(std::sqrt(v), t.eps);
        break;
      case Denominator::MaxEps:
        d[s] = std::max(v, t.eps);
        break;
      case Denominator::Exp:
        d[s] = v;
        break;
      case Denominator::SqrtThenEps:
        d[s] = std::sqrt(v) + t.eps;
        break;
    }
    if (!(d[s] > 0.0)) zero_denominator(op, s);
  }
  return d;
}

namespace {

template <class T>
void standardize_any(const T* x, T* y, const Group& g, const Stats& st, const Transform& t,
                     const std::vector<double>& denom) {
  std::vector<double> inv(denom.size());
  for (std::size_t s = 0; s < inv.size(); ++s) inv[s] = 1.0 / denom[s];
  if (t.denominator == Denominator::Exp) {
    for_each(x, g, [&](std::size_t s, std::size_t off, T a) {
      y[off] = static_cast<T>(std::exp(a - st.center[s]) * inv[s]);
    });
  } else if (t.center) {
    for_each(x, g, [&](std::size_t s, std::size_t off, T a) { y[off] = static_cast<T>((a - st.center[s]) * inv[s]); });
  } else {
    for_each(x, g, [&](std::size_t s, std::size_t off, T a) { y[off] = static_cast<T>(a * inv[s]); });
  }
}

}  // namespace

void standardize(const float* x, float* y, const Group& g, const Stats& st, const Transform& t,
                 const std::vector<double>& denom) {
  standardize_any(x, y, g, st, t, denom);
}
void standardize(const double* x, double* y, const Group& g, const Stats& st, const Transform& t,
                 const std::vector<double>& denom) {
  standardize_any(x, y, g, st, t, denom);
}

namespace {

// Broadcast strides of a parameter viewed as `view` (aligned from the right)
// against y's `shape`: 0 along axes where the view has size 1.
std::vector<std::size_t> broadcast_strides(const Shape& shape, const Shape& view) {
  std::vector<std::size_t> st(shape.size(), 0);
  std::size_t stride = 1;
  for (std::size_t k = 0; k < view.size(); ++k) {
    const std::size_t a = view.size() - 1 - k;    // view axis, from the right
    const std::size_t ya = shape.size() - 1 - k;  // y axis it lines up with
    if (view[a] != 1) st[ya] = stride;
    stride *= view[a];
  }
  return st;
}

// y[off] = f(y[off], p[index of off in the broadcast view]), line by line
// along the last axis.
template <class F>
__attribute__((noinline)) void broadcast_apply(float* y, const Shape& shape, const float* p, const Shape& view, F f) {
  if (shape.empty()) {
    y[0] = f(y[0], p[0]);
    return;
  }
  const std::vector<std::size_t> st = broadcast_strides(shape, view);
  const std::size_t r = shape.size(), last = shape[r - 1], ls = st[r - 1];
  std::vector<std::size_t> idx(r, 0);
  const std::size_t lines = last ? count(shape) / last : 0;
  std::size_t base = 0;  // parameter offset of the current line's start
  for (std::size_t line = 0; line < lines; ++line) {
    float* row = y + line * last;
    if (ls == 0)
      for (std::size_t i = 0; i < last; ++i) row[i] = f(row[i], p[base]);
    else
      for (std::size_t i = 0; i < last; ++i) row[i] = f(row[i], p[base + i]);
    // next line: increment the multi-index over axes r-2 .. 0
    for (std::size_t a = r - 1; a-- > 0;) {
      base += st[a];
      if (++idx[a] < shape[a]) break;
      base -= st[a] * shape[a];
      idx[a] = 0;
    }
  }
}

}  // namespace

__attribute__((noinline)) void apply_params(float* y, const Shape& shape, const Params& p) {
  if (p.scale) {
    const float off = p.scale_offset;
    broadcast_apply(y, shape, p.scale, p.scale_view, [off](float a, float s) { return a * (off + s); });
  }
  if (p.shift) broadcast_apply(y, shape, p.shift, p.shift_view, [](float a, float b) { return a + b; });
}

void apply_params(Tensor& y, const Params& p) { apply_params(y.data(), Shape(y.shape().begin(), y.shape().end()), p); }

// Out of line (noinline): execute() reaches it from several places.
__attribute__((noinline)) void execute_generic(const Description& d, const float* x, float* y, const Shape& shape,
                                               Stats* measured) {
  const std::size_t n = count(shape);
  assert(d.group.elements() == n);
  check_finite_input(d.op, x, n);
  Stats own;
  const Stats* st = d.mode.given;
  if (!st) {
    own = measure(x, d.group, d.measure);
    st = &own;
  }
  const auto denom = denominators(*st, d.transform, d.op);
  if (measured) *measured = *st;  // before y, which may alias x, is written
  standardize(x, y, d.group, *st, d.transform, denom);
  apply_params(y, shape, d.params);
  check_finite_output(d.op, y, n);
}

void execute(const Description& d, const float* x, float* y, const Shape& shape, Stats* measured) {
  const Group& g = d.group;
  const Transform& t = d.transform;
  const Params& p = d.params;
  const std::size_t rows = g.stat_outer, width = g.reduce_outer, n = rows * width;
  if (!g.rows() || d.mode.given || measured || n == 0) return execute_generic(d, x, y, shape, measured);
  // Contiguous rows: the SIMD kernels. A non-finite input makes a row fail;
  // the row is then searched for it, so that the message names it.
  auto failed = [&](std::size_t row) {
    const float* xr = x + row * width;
    if (const std::size_t k = first_non_finite(xr, width); k < width) not_finite_input(d.op, x, row * width + k);
    zero_denominator(d.op, row);
  };
  const bool fused = p.scale_offset == 0.0f && per_coordinate(p.scale, p.scale_view, shape, width) &&
                     per_coordinate(p.shift, p.shift_view, shape, width);
  bool bounded = true;  // |y| <= sqrt(width) before params: finite unless params are huge
  if (t.denominator == Denominator::SqrtPlusEps &&
      ((d.measure == Measure::MeanVar && t.center) || (d.measure == Measure::MeanSquare && !t.center))) {
    const std::size_t bad =
        normalize_rows(x, y, rows, width, t.center, t.eps, fused ? p.scale : nullptr, fused ? p.shift : nullptr);
    if (bad < rows) failed(bad);
    if (!fused) apply_params(y, shape, p);
  } else if (!t.center && ((d.measure == Measure::SumSquare && t.denominator == Denominator::MaxSqrtEps) ||
                           (d.measure == Measure::SumAbs && t.denominator == Denominator::MaxEps) ||
                           (d.measure == Measure::MaxAbs && t.denominator == Denominator::MaxEps))) {
    const RowNorm kind = d.measure == Measure::SumSquare ? RowNorm::L2
                         : d.measure == Measure::SumAbs  ? RowNorm::L1
                                                         : RowNorm::Max;
    const std::size_t bad = scale_rows(x, y, rows, width, kind, t.eps);
    if (bad < rows) failed(bad);
    apply_params(y, shape, p);
  } else if (d.measure == Measure::SumExp && t.denominator == Denominator::Exp) {
    const std::size_t bad = softmax_rows(x, y, rows, width);
    if (bad < rows) failed(bad);
    apply_params(y, shape, p);
  } else {
    bounded = false;
    execute_generic(d, x, y, shape, measured);
  }
  if (!bounded) return;
  // The output is finite when sqrt(width) * max|scale| + max|shift| is.
  double bound = std::sqrt(double(width));
  if (p.scale) bound *= double(std::fabs(p.scale_offset)) + max_abs(p.scale, count(p.scale_view));
  if (p.shift) bound += max_abs(p.shift, count(p.shift_view));
  if (!(bound < 1e37)) check_finite_output(d.op, y, n);
}

Tensor run(const Tensor& x, const Description& d, Stats* measured) {
  Tensor y = xt::empty<float>(x.shape());
  execute(d, x.data(), y.data(), Shape(x.shape().begin(), x.shape().end()), measured);
  return y;
}

Tensor run_generic(const Tensor& x, const Description& d, Stats* measured) {
  Tensor y = xt::empty<float>(x.shape());
  execute_generic(d, x.data(), y.data(), Shape(x.shape().begin(), x.shape().end()), measured);
  return y;
}

}  // namespace normlab
