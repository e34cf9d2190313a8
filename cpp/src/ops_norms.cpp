// The named normalizations, each a Description fed to the engine.
// Read any op as: group, measure, transform, params, mode.
#include <cmath>

#include "normlab/linalg.hpp"
#include "normlab/norms.hpp"

namespace normlab {

Shape shape_of(const Tensor& t) { return Shape(t.shape().begin(), t.shape().end()); }

Shape channel_view(std::size_t rank, std::size_t c) {
  Shape s(rank, 1);
  s[1] = c;
  return s;
}

Shape example_channel_view(std::size_t rank, std::size_t n, std::size_t c) {
  Shape s(rank, 1);
  s[0] = n;
  s[1] = c;
  return s;
}

Group layer_group(const Shape& x, std::size_t ndim) { return Group::trailing(x, ndim); }

Group batch_group(const Shape& x, std::size_t chunk) { return Group::per_channel(x, chunk); }

Group instance_group(const Shape& x) {
  std::vector<std::size_t> reduced;
  for (std::size_t a = 2; a < x.size(); ++a) reduced.push_back(a);
  return Group::of(x, reduced);
}

// [N, C, spatial...] read as [N, G, C/G, spatial...]: the last axes from C/G on.
Group channel_group(const Shape& x, std::size_t groups) {
  Shape layout{x[0], groups, x[1] / groups};
  std::vector<std::size_t> source{0, 1, 1}, reduced{2};
  for (std::size_t a = 2; a < x.size(); ++a) {
    layout.push_back(x[a]);
    source.push_back(a);
    reduced.push_back(a + 1);
  }
  return Group::of(layout, reduced, source);
}

namespace {

using A = AttrSpec;
const AttrKind Num = AttrKind::Number, Int = AttrKind::Integer, Bool = AttrKind::Bool;

// ---- shared checks -------------------------------------------------------

void expect_channels(const Call& c, const char* name, const View* t, std::size_t ch) {
  if (t && !(t->shape.size() == 1 && t->shape[0] == ch))
    c.expect_shape(name, t->shape, {ch}, "one per channel, C = " + std::to_string(ch));
}

void expect_channels(const Call& c, const char* name, const Tensor* t, std::size_t ch) {
  if (t) c.expect_shape(name, *t, {ch}, "one per channel, C = " + std::to_string(ch));
}

const float* data_of(const View* v) { return v ? v->data : nullptr; }

std::size_t spatial_size(const Shape& x) {
  std::size_t s = 1;
  for (std::size_t a = 2; a < x.size(); ++a) s *= x[a];
  return s;
}

Params channel_affine(const Call& c, std::size_t rank, std::size_t ch) {
  Params p;
  const View *g = c.opt_view("gamma"), *b = c.opt_view("beta");
  expect_channels(c, "gamma", g, ch);
  expect_channels(c, "beta", b, ch);
  p.scale = data_of(g);
  p.shift = data_of(b);
  p.scale_view = p.shift_view = channel_view(rank, ch);
  p.scale_name = "gamma";
  p.shift_name = "beta";
  return p;
}

void need_rank(const Call& c, const Shape& x, std::size_t lo, const char* layout) {
  if (x.size() < lo)
    c.fail(Msg() << "x must have rank at least " << std::to_string(lo) << " (" << layout << ") but has shape "
                 << shape_str(x));
}

void need_rank(const Call& c, const Tensor& x, std::size_t lo, const char* layout) {
  need_rank(c, shape_of(x), lo, layout);
}

void check_nonnegative(const Call& c, const char* name, const Tensor& t) {
  for (std::size_t k = 0; k < t.size(); ++k)
    if (t.data()[k] < 0)
      c.fail(Msg() << std::string(name) << " has a negative value (" << num_str(t.data()[k]) << ") at index "
                   << std::to_string(k));
}

// ---- vector norms ---------------------------------------------------------

void vector_norm(const Call& c, Description& d, Measure m, Denominator den) {
  const Shape& s = c.view("x").shape;
  const long long a = c.integer("axis"), r = static_cast<long long>(s.size());
  const std::size_t axis =
      a >= -r && a < r ? static_cast<std::size_t>(a < 0 ? a + r : a) : norm_axis(a, s.size(), c.op + ": axis");
  d = {c.op, Group::along(s, axis), m, {false, den, c.num("eps")}, {}, {}};
  if (c.op == "scale_norm") {  // ScaleNorm: one learned scalar
    const View* g = c.opt_view("g");
    if (g) c.expect_shape("g", g->shape, {1}, "one learned scalar");
    d.params.scale = data_of(g);
    d.params.scale_view = {1};
    d.params.scale_name = "g";
  }
}

// ---- LayerNorm family -----------------------------------------------------

void layer_like(const Call& c, Description& d, Measure m, bool center) {
  const Shape& s = c.view("x").shape;
  const std::size_t k = static_cast<std::size_t>(c.integer("normalized_ndim"));
  if (k > s.size())
    c.fail(Msg() << "normalized_ndim (" << std::to_string(k) << ") exceeds the rank of x " << shape_str(s));
  const Shape norm_shape(s.end() - k, s.end());
  const View *g = c.opt_view("gamma"), *b = c.opt_view("beta");
  if (g && g->shape != norm_shape) c.expect_shape("gamma", g->shape, norm_shape, "the last normalized_ndim axes of x");
  if (b && b->shape != norm_shape) c.expect_shape("beta", b->shape, norm_shape, "the last normalized_ndim axes of x");
  Params p;
  p.scale = data_of(g);
  p.shift = data_of(b);
  p.scale_view = norm_shape;
  p.scale_name = "gamma";
  if (center) {
    p.shift_view = norm_shape;
    p.shift_name = "beta";
  }
  d = {c.op, layer_group(s, k), m, {center, Denominator::SqrtPlusEps, c.num("eps")}, p, {}};
}

// ---- BatchNorm family -----------------------------------------------------

struct Running {
  const Tensor* mean;
  const Tensor* var;
};

void describe_batch_norm(const Call& c, Description& d) {
  describe_batch_statistics(c, d);
  const Shape& s = c.view("x").shape;
  d.params = channel_affine(c, s.size(), s[1]);
}

Running running_inputs(const Call& c, std::size_t ch, bool required) {
  Running r{c.opt("running_mean"), c.opt("running_var")};
  if (!r.mean != !r.var) c.fail("running_mean and running_var must be given together");
  if (required && !r.mean) c.fail("evaluation mode (training = false) needs running_mean and running_var");
  expect_channels(c, "running_mean", r.mean, ch);
  expect_channels(c, "running_var", r.var, ch);
  if (r.var) check_nonnegative(c, "running_var", *r.var);
  return r;
}

Stats running_stats(const Running& r) {
  return Stats{std::vector<double>(r.mean->begin(), r.mean->end()), std::vector<double>(r.var->begin(), r.var->end())};
}

// PyTorch's update: biased variance normalizes, unbiased variance is stored.
void update_running(Call& c, const Running& r, const Stats& batch, double count) {
  const double m = c.num("momentum");
  Tensor mean = *r.mean, var = *r.var;
  for (std::size_t ch = 0; ch < mean.size(); ++ch) {
    mean(ch) = static_cast<float>((1 - m) * mean(ch) + m * batch.center[ch]);
    var(ch) = static_cast<float>((1 - m) * var(ch) + m * batch.spread[ch] * count / (count - 1));
  }
  c.out("running_mean", mean);
  c.out("running_var", var);
}

}  // namespace

// BatchNorm's statistics: per channel over batch and space; the params are
// the caller's (per channel, or per example and channel when conditioned).
void describe_batch_statistics(const Call& c, Description& d) {
  const Shape& s = c.view("x").shape;
  need_rank(c, s, 2, "[N, C, ...]");
  d = {c.op, batch_group(s, s[0]), Measure::MeanVar, {true, Denominator::SqrtPlusEps, c.num("eps")}, {}, {}};
  d.channel_axis = 1;
  d.mode.running = c.has("training") && !c.flag("training");
}

// batch_norm and conditional_batch_norm differ only in their params.
void run_batch_norm(Call& c, Description d) {
  const Tensor& x = c.in("x");
  const Shape s = shape_of(x);
  const bool training = !d.mode.running;
  const Running r = running_inputs(c, s[1], !training);
  const double count = static_cast<double>(d.group.members());
  if (training && count < 2)
    c.fail(Msg() << "training needs more than one value per channel (x has shape " << shape_str(s) << ")");
  Stats given;
  if (!training) {
    given = running_stats(r);
    d.mode.given = &given;
  }
  Stats batch;
  c.out("y", run(x, d, &batch));
  if (training && r.mean) update_running(c, r, batch, count);
  if (!training) {
    c.out("running_mean", *r.mean);
    c.out("running_var", *r.var);
  }
}

namespace {

void batch_norm(Call& c) {
  Description d;
  describe_batch_norm(c, d);
  run_batch_norm(c, d);
}

void instance_norm(const Call& c, Description& d) {
  const Shape& s = c.view("x").shape;
  need_rank(c, s, 3, "[N, C, spatial...]");
  if (spatial_size(s) < 2 && !c.describing())  // a group of one is still a group to draw
    c.fail(Msg() << "needs more than one spatial value per channel (x has shape " << shape_str(s) << ")");
  d = {c.op,
       instance_group(s),
       Measure::MeanVar,
       {true, Denominator::SqrtPlusEps, c.num("eps")},
       channel_affine(c, s.size(), s[1]),
       {}};
  d.channel_axis = 1;
}

void group_norm(const Call& c, Description& d) {
  const Shape& s = c.view("x").shape;
  need_rank(c, s, 2, "[N, C, ...]");
  const auto g = static_cast<std::size_t>(c.integer("num_groups"));
  if (s[1] % g)
    c.fail(Msg("not_divisible", "num_groups") << "num_groups (" << std::to_string(g)
                                              << ") must divide the channel count C (" << std::to_string(s[1]) << ")");
  d = {c.op,
       channel_group(s, g),
       Measure::MeanVar,
       {true, Denominator::SqrtPlusEps, c.num("eps")},
       channel_affine(c, s.size(), s[1]),
       {}};
  d.channel_axis = 1;
}

void ghost_batch_norm(const Call& c, Description& d) {
  const Shape& s = c.view("x").shape;
  need_rank(c, s, 2, "[N, C, ...]");
  const auto v = static_cast<std::size_t>(c.integer("virtual_batch_size"));
  if (s[0] % v)
    c.fail(Msg("not_divisible", "virtual_batch_size")
           << "virtual_batch_size (" << std::to_string(v) << ") must divide the batch size N (" << std::to_string(s[0])
           << ")");
  d = {c.op,
       batch_group(s, v),
       Measure::MeanVar,
       {true, Denominator::SqrtPlusEps, c.num("eps")},
       channel_affine(c, s.size(), s[1]),
       {}};
  d.channel_axis = 1;
  if (d.group.members() < 2 && !c.describing())
    c.fail(Msg() << "each virtual batch needs more than one value per channel (virtual_batch_size " << std::to_string(v)
                 << ", x shape " << shape_str(s) << ")");
}

// BatchNorm's description; in training the batch statistics are corrected
// toward the running ones (r, d per channel), folded into the params.
void batch_renorm(Call& c) {
  Description d;
  describe_batch_norm(c, d);
  const Tensor& x = c.in("x");
  const std::size_t ch = x.shape()[1];
  const Running r = running_inputs(c, ch, true);
  Stats given;
  if (d.mode.running) {
    given = running_stats(r);
    d.mode.given = &given;
    c.out("y", run(x, d));
    return;
  }
  if (d.group.members() < 2)
    c.fail(Msg() << "training needs more than one value per channel (x has shape " << shape_str(shape_of(x)) << ")");
  given = measure(x.data(), d.group, d.measure);
  const double eps = d.transform.eps, r_max = c.num("r_max"), d_max = c.num("d_max");
  Tensor scale = xt::ones<float>({ch}), shift = xt::zeros<float>({ch});
  for (std::size_t k = 0; k < ch; ++k) {
    const double sb = std::sqrt(given.spread[k] + eps), sr = std::sqrt((*r.var)(k) + eps);
    const double rr = std::min(std::max(sb / sr, 1 / r_max), r_max);
    const double dd = std::min(std::max((given.center[k] - (*r.mean)(k)) / sr, -d_max), d_max);
    const double gk = d.params.scale ? d.params.scale[k] : 1.0;
    const double bk = d.params.shift ? d.params.shift[k] : 0.0;
    scale(k) = static_cast<float>(gk * rr);
    shift(k) = static_cast<float>(gk * dd + bk);
  }
  d.params.scale = scale.data();  // gamma*r and gamma*d + beta, same views
  d.params.shift = shift.data();
  d.mode.given = &given;
  c.out("y", run(x, d));
}

std::vector<double> softmax3(const Call& c, const char* name) {
  const Tensor& l = c.in(name);
  c.expect_shape(name, l, {3}, "weights of IN, LN, BN");
  const double m = std::max({l(0), l(1), l(2)});
  std::vector<double> w{std::exp(l(0) - m), std::exp(l(1) - m), std::exp(l(2) - m)};
  const double z = w[0] + w[1] + w[2];
  for (auto& e : w) e /= z;
  return w;
}

// Per (n, c) statistics, each a learned mix of InstanceNorm's, LayerNorm's and
// BatchNorm's measured on the same input.
void describe_switchable_norm(const Call& c, Description& d) {
  const Shape& s = c.view("x").shape;
  if (s.size() != 4) c.fail("x must have shape [N, C, H, W] but has shape " + shape_str(s));
  d = {c.op,
       instance_group(s),
       Measure::MeanVar,
       {true, Denominator::SqrtPlusEps, c.num("eps")},
       channel_affine(c, 4, s[1]),
       {}};
  d.channel_axis = 1;
}

void switchable_norm(Call& c) {
  Description d;
  describe_switchable_norm(c, d);
  const Tensor& x = c.in("x");
  const Shape s = shape_of(x);
  const std::size_t n = s[0], ch = s[1];
  const auto wm = softmax3(c, "mean_logits"), wv = softmax3(c, "var_logits");
  const Stats in = measure(x.data(), d.group, d.measure);
  const Stats ln = measure(x.data(), layer_group(s, 3), d.measure);
  const Stats bn = measure(x.data(), batch_group(s, n), d.measure);
  Stats mixed{std::vector<double>(n * ch), std::vector<double>(n * ch)};
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < ch; ++k) {
      const std::size_t q = i * ch + k;
      mixed.center[q] = wm[0] * in.center[q] + wm[1] * ln.center[i] + wm[2] * bn.center[k];
      mixed.spread[q] = wv[0] * in.spread[q] + wv[1] * ln.spread[i] + wv[2] * bn.spread[k];
    }
  d.mode.given = &mixed;
  c.out("y", run(x, d));
}

// Not a group statistic: each channel sees a sliding window of neighbouring
// channels, so LRN is written out here rather than fed to the engine.
void local_response_norm(Call& c) {
  const Tensor& x = c.in("x");
  need_rank(c, x, 3, "[N, C, spatial...]");
  const Shape s = shape_of(x);
  const long long size = c.integer("size");
  const double alpha = c.num("alpha"), beta = c.num("beta"), k = c.num("k");
  const std::size_t n = s[0], ch = s[1], sp = spatial_size(s);
  // every channel plane of the window costs at least as much as one of 16 numbers
  // and a power per number costs ~100 ns
  c.check_work(double(n) * double(ch) * double(std::min<long long>(size, ch)) * double(std::max<std::size_t>(sp, 16)) +
                   double(x.size()) * 96,
               "the channel window");
  const long long before = size / 2, after = (size - 1) / 2;
  const long long C = static_cast<long long>(ch);
  Tensor y = xt::empty<float>(s);
  std::vector<double> sum(sp);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t q = 0; q < ch; ++q) {
      // the window, clipped to the channels that exist (zero padding adds nothing),
      // summed a whole channel plane at a time (contiguous, vectorized)
      const long long lo = std::max(0LL, static_cast<long long>(q) - before);
      const long long hi = std::min(C - 1, static_cast<long long>(q) + after);
      std::fill(sum.begin(), sum.end(), 0.0);
      for (long long cc = lo; cc <= hi; ++cc) add_squares(x.data() + (i * ch + cc) * sp, sum.data(), sp);
      for (std::size_t p = 0; p < sp; ++p) {
        const double base = k + alpha * sum[p] / static_cast<double>(size);
        if (!(base > 0)) c.fail("k + alpha * mean(x^2) is not positive, so its power is undefined");
        const std::size_t off = (i * ch + q) * sp + p;
        y.data()[off] = static_cast<float>(x.data()[off] / std::pow(base, beta));
      }
    }
  c.out("y", y);
}

// RMSNorm-like over each (n, c) plane (no centering), then the learned
// threshold tau: max(y, tau) per channel.
void describe_filter_response_norm(const Call& c, Description& d) {
  const Shape& s = c.view("x").shape;
  if (s.size() != 4) c.fail("x must have shape [N, C, H, W] but has shape " + shape_str(s));
  Params p = channel_affine(c, 4, s[1]);
  expect_channels(c, "tau", c.opt_view("tau"), s[1]);
  d = {c.op, instance_group(s), Measure::MeanSquare, {false, Denominator::SqrtPlusEps, c.num("eps")}, p, {}};
  d.channel_axis = 1;
}

void filter_response_norm(Call& c) {
  Description d;
  describe_filter_response_norm(c, d);
  const View& x = c.view("x");
  const Shape& s = x.shape;
  float* y = c.output("y", s);
  execute(d, x.data, y, s);
  // max(y, tau) per channel, in place (an xtensor broadcast at -Oz took seconds on 2^25 numbers)
  const float* tau = c.view("tau").data;
  const std::size_t ch = s[1], sp = s[2] * s[3];
  for (std::size_t off = 0, n = x.size(); off < n; ++off) y[off] = std::max(y[off], tau[(off / sp) % ch]);
}

}  // namespace

void register_norm_ops(Registry& r) {
  constexpr A axis{"axis", Int, Default(-1.0)}, eps12{"eps", Num, Default(1e-12), at_least(0)};
  static constexpr OpSpec ops[] = {
      {"l2_normalize",
       {{"x"}},
       {axis, eps12},
       {"y"},
       nullptr,
       [](const Call& c, Description& d) { vector_norm(c, d, Measure::SumSquare, Denominator::MaxSqrtEps); }},
      {"l1_normalize",
       {{"x"}},
       {axis, eps12},
       {"y"},
       nullptr,
       [](const Call& c, Description& d) { vector_norm(c, d, Measure::SumAbs, Denominator::MaxEps); }},
      {"max_normalize",
       {{"x"}},
       {axis, eps12},
       {"y"},
       nullptr,
       [](const Call& c, Description& d) { vector_norm(c, d, Measure::MaxAbs, Denominator::MaxEps); }},
      {"scale_norm",
       {{"x"}, {"g"}},
       {axis, {"eps", Num, Default(1e-5), at_least(0)}},
       {"y"},
       nullptr,
       [](const Call& c, Description& d) { vector_norm(c, d, Measure::SumSquare, Denominator::MaxSqrtEps); }},
      {"layer_norm",
       {{"x"}, {"gamma", true}, {"beta", true}},
       {{"normalized_ndim", Int, Default(1.0), at_least(1)}, {"eps", Num, Default(1e-5), at_least(0)}},
       {"y"},
       nullptr,
       [](const Call& c, Description& d) { layer_like(c, d, Measure::MeanVar, true); }},
      {"rms_norm",
       {{"x"}, {"gamma", true}},
       {{"normalized_ndim", Int, Default(1.0), at_least(1)}, {"eps", Num, Default(1e-6), at_least(0)}},
       {"y"},
       nullptr,
       [](const Call& c, Description& d) { layer_like(c, d, Measure::MeanSquare, false); }},
      {"batch_norm",
       {{"x"}, {"gamma", true}, {"beta", true}, {"running_mean", true}, {"running_var", true}},
       {{"training", Bool, Default(true)},
        {"momentum", Num, Default(0.1), within(0, 1)},
        {"eps", Num, Default(1e-5), at_least(0)}},
       {"y", given_with("running_mean", "running_mean|running_var"),
        given_with("running_var", "running_mean|running_var")},
       batch_norm,
       describe_batch_norm},
      {"instance_norm",
       {{"x"}, {"gamma", true}, {"beta", true}},
       {{"eps", Num, Default(1e-5), at_least(0)}},
       {"y"},
       nullptr,
       instance_norm},
      {"group_norm",
       {{"x"}, {"gamma", true}, {"beta", true}},
       {{"num_groups", Int, {}, at_least(1)}, {"eps", Num, Default(1e-5), at_least(0)}},
       {"y"},
       nullptr,
       group_norm},
      {"ghost_batch_norm",
       {{"x"}, {"gamma", true}, {"beta", true}},
       {{"virtual_batch_size", Int, {}, at_least(1)}, {"eps", Num, Default(1e-5), at_least(0)}},
       {"y"},
       nullptr,
       ghost_batch_norm},
      {"batch_renorm",
       {{"x"}, {"running_mean"}, {"running_var"}, {"gamma", true}, {"beta", true}},
       {{"r_max", Num, Default(3.0), at_least(1)},
        {"d_max", Num, Default(5.0), at_least(0)},
        {"training", Bool, Default(true)},
        {"eps", Num, Default(1e-5), at_least(0)}},
       {"y"},
       batch_renorm,
       describe_batch_norm},
      {"switchable_norm",
       {{"x"}, {"gamma", true}, {"beta", true}, {"mean_logits"}, {"var_logits"}},
       {{"eps", Num, Default(1e-5), at_least(0)}},
       {"y"},
       switchable_norm,
       describe_switchable_norm},
      {"local_response_norm",
       {{"x"}},
       {{"size", Int, {}, at_least(1)},
        {"alpha", Num, Default(1e-4)},
        {"beta", Num, Default(0.75)},
        {"k", Num, Default(1.0)}},
       {"y"},
       local_response_norm},
      {"filter_response_norm",
       {{"x"}, {"gamma"}, {"beta"}, {"tau"}},
       {{"eps", Num, Default(1e-6), at_least(0)}},
       {"y"},
       filter_response_norm,
       describe_filter_response_norm},
  };
  enter(r, ops);
}

}  // namespace normlab
