// Helpers the figures need beyond ops.md, so that no number they show is
// computed in JavaScript: axis ranges and tick values.
#include <algorithm>
#include <cmath>

#include "normlab/norms.hpp"

namespace normlab {

namespace {

const AttrKind Int = AttrKind::Integer, Bool = AttrKind::Bool;

// A "nice" step (1, 2 or 5 times a power of ten) giving about `count` ticks.
double nice_step(double span, long long count) {
  const double raw = span / double(std::max(count, 1LL));
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / p;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

// domain [lo, hi] covering x (and 0 when include_zero, and -hi..hi when
// symmetric), rounded out to a nice step; ticks at every step.
void axis_ticks(Call& c) {
  const Tensor& x = c.in("x");
  double lo = xt::amin(x)(), hi = xt::amax(x)();
  if (c.flag("include_zero")) lo = std::min(lo, 0.0), hi = std::max(hi, 0.0);
  if (c.flag("symmetric")) hi = std::max(std::fabs(lo), std::fabs(hi)), lo = -hi;
  if (hi - lo < 1e-12 * std::max(1.0, std::fabs(hi))) lo -= 1, hi += 1;
  const long long count = c.integer("count");
  if (count < 1 || count > 50) c.fail("count must be in [1, 50] (got " + std::to_string(count) + ")");
  const double step = nice_step(hi - lo, count);
  const double a = std::floor(lo / step + 1e-9) * step, b = std::ceil(hi / step - 1e-9) * step;
  std::vector<float> ticks;
  for (long long k = 0; a + k * step <= b + step * 1e-9; ++k) {
    const double t = a + k * step;
    ticks.push_back(static_cast<float>(std::fabs(t) < step * 1e-9 ? 0.0 : t));
  }
  c.out("domain", Tensor({static_cast<float>(a), static_cast<float>(b)}));
  Tensor tt = xt::empty<float>({ticks.size()});
  std::copy(ticks.begin(), ticks.end(), tt.begin());
  c.out("ticks", tt);
}

}  // namespace

void register_figure_ops(Registry& r) {
  r["axis_ticks"] = {"axis_ticks", {{"x"}},
                     {{"count", Int, Attr(5.0)}, {"include_zero", Bool, Attr(true)}, {"symmetric", Bool, Attr(false)}},
                     {"domain", "ticks"}, axis_ticks};
}

}  // namespace normlab
