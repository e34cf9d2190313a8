// Normalizations of weights rather than activations: WeightNorm and Weight
// Standardization (engine groups over every axis but the output axis), and
// spectral normalization by power iteration.
#include <cmath>

#include "normlab/linalg.hpp"
#include "normlab/norms.hpp"

namespace normlab {

namespace {

using A = AttrSpec;
const AttrKind Num = AttrKind::Number, Int = AttrKind::Integer;

// One group per output unit o: every axis but 0. Axis 0 (the output units)
// plays the part of the channel axis: a per-output parameter is per channel.
Description per_output(const Call& c, const char* input, Measure m, const Transform& t) {
  const Shape& s = c.view(input).shape;
  if (s.empty())
    c.fail(Msg("bad_shape", input) << input << " must have rank at least 1 but has shape " << shape_str(s));
  Description d{c.op, layer_group(s, s.size() - 1), m, t, {}, {}};
  d.channel_axis = 0;
  return d;
}

// measure: L2 over the output's weights; no eps, so a zero row is an error
void describe_weight_norm(const Call& c, Description& d) {
  d = per_output(c, "v", Measure::SumSquare, {false, Denominator::MaxSqrtEps, 0.0});
  const Shape& s = c.view("v").shape;
  const View* g = c.opt_view("g");
  if (g) c.expect_shape("g", g->shape, {s[0]}, "one per output, O = " + std::to_string(s[0]));
  Shape view(s.size(), 1);
  view[0] = s[0];
  d.params.scale = g ? g->data : nullptr;
  d.params.scale_view = view;
  d.params.scale_name = "g";
}

void describe_weight_standardize(const Call& c, Description& d) {
  d = per_output(c, "w", Measure::MeanVar, {true, Denominator::SqrtPlusEps, c.num("eps")});
}

// The first input is not x, so the engine's messages would misname it: the
// door checks it, and these bodies run the description.
void weight_norm(Call& c) {
  Description d;
  describe_weight_norm(c, d);
  c.out("w", run(c.in("v"), d));
}

void weight_standardize(Call& c) {
  Description d;
  describe_weight_standardize(c, d);
  c.out("y", run(c.in("w"), d));
}

std::vector<double> normalized(std::vector<double> a, double eps) {
  double n = 0;
  for (double e : a) n += e * e;
  n = std::max(std::sqrt(n), eps);
  for (auto& e : a) e /= n;
  return a;
}

void spectral_norm(Call& c) {
  const Tensor& w = c.in("W");
  if (w.dimension() != 2) c.fail("W must have shape [m, n] but has shape " + shape_str(shape_of(w)));
  const std::size_t m = w.shape()[0], n = w.shape()[1];
  const double eps = c.num("eps");
  std::vector<double> u(m, 1.0 / std::sqrt(double(m)));
  if (const Tensor* u0 = c.opt("u0")) {
    c.expect_shape("u0", *u0, {m}, "one per row of W");
    u.assign(u0->begin(), u0->end());
  }
  const float* wd = w.data();  // raw rows and linalg's loops: xtensor's element access costs more than the math
  auto Wv = [&](const std::vector<double>& v) {
    std::vector<double> r(m);
    for (std::size_t i = 0; i < m; ++i) r[i] = dot(v.data(), wd + i * n, n);
    return r;
  };
  auto WTu = [&](const std::vector<double>& a) {
    std::vector<double> r(n, 0.0);
    for (std::size_t i = 0; i < m; ++i) axpy(a[i], wd + i * n, r.data(), n);
    return r;
  };
  std::vector<double> v(n, 0.0);
  const long long steps = c.integer("n_power_iterations");
  // W is read from memory twice a step: weighted so that the limit is about a second
  c.check_work(double(steps + 1) * 2 * double(m) * n * 6, "power iteration");
  for (long long s = 0; s < steps; ++s) {
    v = normalized(WTu(u), eps);
    u = normalized(Wv(v), eps);
  }
  const auto wv = Wv(v);
  double sigma = 0;
  for (std::size_t i = 0; i < m; ++i) sigma += u[i] * wv[i];
  if (!(std::fabs(sigma) > 0))
    c.fail("the estimated spectral norm is zero (W is zero or orthogonal to the start vector u0)");
  Tensor out = w / static_cast<float>(sigma);
  Tensor su = xt::empty<float>({m});
  for (std::size_t i = 0; i < m; ++i) su(i) = static_cast<float>(u[i]);
  c.out("w", out);
  c.out("sigma", Tensor({static_cast<float>(sigma)}));
  c.out("u", su);
}

}  // namespace

void register_weight_ops(Registry& r) {
  static constexpr OpSpec ops[] = {
      {"weight_norm", {{"v"}, {"g"}}, {}, {"w"}, weight_norm, describe_weight_norm},
      {"weight_standardize",
       {{"w"}},
       {{"eps", Num, Default(1e-5), at_least(0)}},
       {"y"},
       weight_standardize,
       describe_weight_standardize},
      {"spectral_norm",
       {{"W"}, {"u0", true}},
       {{"n_power_iterations", Int, Default(1.0), at_least(1).at_most(10000)},
        {"eps", Num, Default(1e-12), at_least(0)}},
       {"w", "sigma", "u"},
       spectral_norm},
  };
  enter(r, ops);
}

}  // namespace normlab
