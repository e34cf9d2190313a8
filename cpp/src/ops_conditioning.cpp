// Conditioning: normalizations whose scale and shift are predicted from a
// condition (AdaLN, adaptive RMSNorm, FiLM, conditional BN, AdaIN, SPADE) and
// the gated residual of AdaLN-Zero / LayerScale / ReZero. Same engine; only
// the params piece changes (per example, per channel, or per position).
#include <cmath>

#include "normlab/norms.hpp"

namespace normlab {

namespace {

using A = AttrSpec;
const AttrKind Num = AttrKind::Number, Bool = AttrKind::Bool;

const float* data_of(const View* v) { return v ? v->data : nullptr; }

void need_btd(const Call& c, const Tensor& x) {
  if (x.dimension() != 3) c.fail("x must have shape [B, T, d] but has shape " + shape_str(shape_of(x)));
}

void need_nc(const Call& c, const Shape& x, std::size_t lo) {
  if (x.size() < lo)
    c.fail(Msg() << "x must have rank at least " << std::to_string(lo) << " ([N, C, ...]) but has shape "
                 << shape_str(x));
}

// x [B, T, d]; a [B, d] condition broadcasts over the T tokens as [B, 1, d].
Shape token_condition(const Call& c, const Shape& s, const char* name, const View* t) {
  if (t) c.expect_shape(name, t->shape, {s[0], s[2]}, "[B, d], one per example and feature");
  return {s[0], 1, s[2]};
}

void adaptive(const Call& c, Description& d, Measure m, bool center) {
  const Shape& s = c.view("x").shape;
  if (s.size() != 3) c.fail("x must have shape [B, T, d] but has shape " + shape_str(s));
  Params p;
  const View *scale = c.opt_view("scale"), *shift = c.opt_view("shift");
  p.scale = scale ? scale->data : nullptr;
  p.shift = shift ? shift->data : nullptr;
  p.scale_view = token_condition(c, s, "scale", scale);
  p.shift_view = token_condition(c, s, "shift", shift);
  p.scale_offset = 1.0f;  // (1 + scale): a zero prediction leaves features unchanged
  p.scale_name = "scale";
  p.shift_name = "shift";
  d = {c.op, layer_group(s, 1), m, {center, Denominator::SqrtPlusEps, c.num("eps")}, p, {}};
}

void gated_residual(Call& c) {
  const Tensor& x = c.in("x");
  need_btd(c, x);
  const Shape s = shape_of(x);
  c.expect_shape("update", c.in("update"), s, "the shape of x");
  const Tensor& gate = c.in("gate");
  const Shape gs = shape_of(gate);
  Shape view;
  if (gs == Shape{s[0], s[2]})
    view = {s[0], 1, s[2]};  // AdaLN-Zero: per example
  else if (gs == Shape{s[2]})
    view = {s[2]};  // LayerScale: per feature
  else if (gs == Shape{1})
    view = {1};  // ReZero: one scalar
  else
    c.fail(Msg() << "gate has shape " << shape_str(gs) << " but must be [B, d] = " << shape_str({s[0], s[2]})
                 << ", [d] = " << shape_str({s[2]}) << " or [1]");
  Tensor u = c.in("update");
  apply_params(u, Params{gate.data(), nullptr, view, {}, 0.0f});
  c.out("h", Tensor(x + u));
}

// x [N, C, ...]; an [N, C] parameter (when given) broadcasts as [N, C, 1, ...].
Shape per_example_channel(const Call& c, const Shape& s, const char* name) {
  if (const View* t = c.opt_view(name))
    c.expect_shape(name, t->shape, {s[0], s[1]}, "[N, C], one per example and channel");
  return example_channel_view(s.size(), s[0], s[1]);
}

void film(Call& c) {
  const Tensor& x = c.in("x");
  need_nc(c, shape_of(x), 2);
  const Shape view = per_example_channel(c, shape_of(x), "gamma");
  per_example_channel(c, shape_of(x), "beta");
  Tensor y = x;
  apply_params(y, Params{c.in("gamma").data(), c.in("beta").data(), view, view, 0.0f});
  c.out("y", y);
}

// BatchNorm's statistics; gamma and beta per example and channel.
void describe_conditional_batch_norm(const Call& c, Description& d) {
  const Shape& s = c.view("x").shape;
  need_nc(c, s, 2);
  const Shape view = per_example_channel(c, s, "gamma");
  per_example_channel(c, s, "beta");
  describe_batch_statistics(c, d);
  d.params = {data_of(c.opt_view("gamma")), data_of(c.opt_view("beta")), view, view, 0.0f, "gamma", "beta"};
}

void conditional_batch_norm(Call& c) {
  Description d;
  describe_conditional_batch_norm(c, d);
  run_batch_norm(c, d);
}

// InstanceNorm whose scale and shift are the style's own statistics per
// (n, c): sigma (no eps) and mu.
void describe_adain(const Call& c, Description& d) {
  const Shape& s = c.view("x").shape;
  need_nc(c, s, 3);
  if (const View* style = c.opt_view("style")) {
    const Shape& ss = style->shape;
    if (ss.size() < 3 || ss[0] != s[0] || ss[1] != s[1])
      c.fail(Msg() << "style has shape " << shape_str(ss) << " but must be [N, C, ...] with N = "
                   << std::to_string(s[0]) << " and C = " << std::to_string(s[1]) << " like x");
  }
  Params p;
  p.scale_view = p.shift_view = example_channel_view(s.size(), s[0], s[1]);
  p.scale_name = p.shift_name = "style";
  d = {c.op, instance_group(s), Measure::MeanVar, {true, Denominator::SqrtPlusEps, c.num("eps")}, p, {}};
  d.channel_axis = 1;
}

void adain(Call& c) {
  Description d;
  describe_adain(c, d);
  const Tensor& x = c.in("x");
  const Tensor& style = c.in("style");
  const Stats st = measure(style.data(), instance_group(shape_of(style)), Measure::MeanVar);
  Tensor scale = xt::empty<float>({x.shape()[0], x.shape()[1]}), shift = xt::empty<float>({x.shape()[0], x.shape()[1]});
  for (std::size_t q = 0; q < st.center.size(); ++q) {
    scale.data()[q] = static_cast<float>(std::sqrt(st.spread[q]));
    shift.data()[q] = static_cast<float>(st.center[q]);
  }
  d.params.scale = scale.data();
  d.params.shift = shift.data();
  c.out("y", run(x, d));
}

// BatchNorm's statistics; gamma and beta maps per element, (1 + gamma).
void spade(const Call& c, Description& d) {
  const Shape& s = c.view("x").shape;
  if (s.size() != 4) c.fail("x must have shape [N, C, H, W] but has shape " + shape_str(s));
  const View *g = c.opt_view("gamma_map"), *b = c.opt_view("beta_map");
  if (g) c.expect_shape("gamma_map", g->shape, s, "the shape of x");
  if (b) c.expect_shape("beta_map", b->shape, s, "the shape of x");
  d = {c.op,
       batch_group(s, s[0]),
       Measure::MeanVar,
       {true, Denominator::SqrtPlusEps, c.num("eps")},
       {data_of(g), data_of(b), s, s, 1.0f, "gamma_map", "beta_map"},
       {}};
  d.channel_axis = 1;
  if (d.group.members() < 2 && !c.describing())
    c.fail(Msg() << "batch statistics need more than one value per channel (x has shape " << shape_str(s) << ")");
}

}  // namespace

void register_conditioning_ops(Registry& r) {
  static constexpr OpSpec ops[] = {
      {"ada_layer_norm",
       {{"x"}, {"scale"}, {"shift"}},
       {{"eps", Num, Default(1e-5), at_least(0)}},
       {"y"},
       nullptr,
       [](const Call& c, Description& d) { adaptive(c, d, Measure::MeanVar, true); }},
      {"adaptive_rms_norm",
       {{"x"}, {"scale"}, {"shift", true}},
       {{"eps", Num, Default(1e-6), at_least(0)}},
       {"y"},
       nullptr,
       [](const Call& c, Description& d) { adaptive(c, d, Measure::MeanSquare, false); }},
      {"gated_residual", {{"x"}, {"update"}, {"gate"}}, {}, {"h"}, gated_residual},
      {"film", {{"x"}, {"gamma"}, {"beta"}}, {}, {"y"}, film},
      {"conditional_batch_norm",
       {{"x"}, {"gamma"}, {"beta"}, {"running_mean", true}, {"running_var", true}},
       {{"training", Bool, Default(true)},
        {"momentum", Num, Default(0.1), within(0, 1)},
        {"eps", Num, Default(1e-5), at_least(0)}},
       {"y", given_with("running_mean", "running_mean|running_var"),
        given_with("running_var", "running_mean|running_var")},
       conditional_batch_norm,
       describe_conditional_batch_norm},
      {"adain", {{"x"}, {"style"}}, {{"eps", Num, Default(1e-5), at_least(0)}}, {"y"}, adain, describe_adain},
      {"spade",
       {{"x"}, {"gamma_map"}, {"beta_map"}},
       {{"eps", Num, Default(1e-5), at_least(0)}},
       {"y"},
       nullptr,
       spade},
  };
  enter(r, ops);
}

}  // namespace normlab
