// Attention and the residual block: softmax, scaled dot-product attention,
// QK-Norm attention and Pre-/Post-Norm residual blocks.
#include <cmath>

#include "normlab/kernels.hpp"
#include "normlab/linalg.hpp"
#include "normlab/norms.hpp"

namespace normlab {

namespace {

using A = AttrSpec;
const AttrKind Num = AttrKind::Number, Int = AttrKind::Integer, Bool = AttrKind::Bool,
               Str = AttrKind::String;

// Stable softmax of n numbers spaced `stride` apart: subtract the max first.
void softmax_into(const float* x, float* y, std::size_t n, std::size_t stride) {
  double m = x[0];
  for (std::size_t j = 1; j < n; ++j) m = std::max(m, double(x[j * stride]));
  double z = 0;
  for (std::size_t j = 0; j < n; ++j) z += std::exp(x[j * stride] - m);
  for (std::size_t j = 0; j < n; ++j) y[j * stride] = static_cast<float>(std::exp(x[j * stride] - m) / z);
}

void softmax(Call& c) {
  const Tensor& x = c.in("x");
  const Shape s = shape_of(x);
  const std::size_t axis = norm_axis(c.integer("axis"), s.size(), c.op + ": axis");
  const Group g = Group::along(s, axis);  // one softmax per group
  Tensor y = xt::empty<float>(s);
  // Along the last axis the rows are contiguous: the SIMD kernel.
  if (g.stat_inner == 1 && softmax_rows(x.data(), y.data(), g.stat_outer, g.reduce_outer)) return c.out("y", y);
  for (std::size_t i = 0; i < g.stat_outer; ++i)
    for (std::size_t k = 0; k < g.stat_inner; ++k) {
      const std::size_t off = i * g.reduce_outer * g.stat_inner + k;
      softmax_into(x.data() + off, y.data() + off, g.reduce_outer, g.stat_inner);
    }
  c.out("y", y);
}

struct Heads {
  std::size_t batch, tq, tk, dk, dv;
};

Heads check_qkv(const Call& c, const Tensor& q, const Tensor& k, const Tensor& v) {
  c.expect_rank("q", q, 2);
  const Shape qs = shape_of(q), ks = shape_of(k), vs = shape_of(v);
  const std::size_t r = qs.size();
  const Shape lead(qs.begin(), qs.end() - 2);
  auto same_lead = [&](const char* name, const Shape& s) {
    if (s.size() != r || !std::equal(lead.begin(), lead.end(), s.begin()))
      c.fail(std::string(name) + " has shape " + shape_str(s) + " but must have rank " +
             std::to_string(r) + " and leading axes " + shape_str(lead) + " like q " + shape_str(qs));
  };
  same_lead("k", ks);
  same_lead("v", vs);
  if (ks[r - 1] != qs[r - 1])
    c.fail("k has width " + std::to_string(ks[r - 1]) + " but q has width dk = " + std::to_string(qs[r - 1]));
  if (vs[r - 2] != ks[r - 2])
    c.fail("v has " + std::to_string(vs[r - 2]) + " positions but k has Tk = " + std::to_string(ks[r - 2]));
  std::size_t b = 1;
  for (auto d : lead) b *= d;
  return {b, qs[r - 2], ks[r - 2], qs[r - 1], vs[r - 1]};
}

// The SIMD kernel head by head; false when a visible score overflowed or a
// query sees no key, and the careful double path below then decides.
bool attention_heads(const float* q, const float* k, const float* v, float* out, float* w, const Heads& h,
                     double scale, const float* mask, bool causal) {
  std::vector<float> scratch(h.tk * h.dk);
  for (std::size_t b = 0; b < h.batch; ++b)
    if (!attention_head(q + b * h.tq * h.dk, k + b * h.tk * h.dk, v + b * h.tk * h.dv, out + b * h.tq * h.dv,
                        w + b * h.tq * h.tk, h.tq, h.tk, h.dk, h.dv, static_cast<float>(scale), scratch.data(),
                        mask, causal))
      return false;
  return true;
}

// softmax(scale * q k^T + masking) v; unit rows first when qk_norm.
void attend(Call& c, double scale, bool qk_norm) {
  Tensor q = c.in("q"), k = c.in("k");
  const Tensor& v = c.in("v");
  const Heads h = check_qkv(c, q, k, v);
  const Tensor* mask = c.opt("mask");
  if (mask) {
    c.expect_shape("mask", *mask, {h.tq, h.tk}, "[Tq, Tk]");
    for (std::size_t e = 0; e < mask->size(); ++e)
      if (mask->data()[e] != 0 && mask->data()[e] != 1)
        c.fail("mask must hold 0 (hidden) or 1 (visible) but has " + num_str(mask->data()[e]) +
               " at index " + std::to_string(e));
  }
  const bool causal = c.flag("causal");
  c.check_work(double(h.batch) * h.tq * h.tk * double(h.dk + h.dv), "attention over these shapes");
  if (qk_norm) {  // L2 along the head axis, as F.normalize
    const Transform t{false, Denominator::MaxSqrtEps, 1e-12};
    for (Tensor* z : {&q, &k}) {
      const Group g = Group::rows(z->size() / h.dk, h.dk);
      const Stats st = measure(z->data(), g, Measure::SumSquare);
      standardize(z->data(), z->data(), g, st, t, denominators(st, t, c.op));
    }
  }
  Shape os = shape_of(q), ws = shape_of(q);
  os.back() = h.dv;
  ws.back() = h.tk;
  Tensor out = xt::zeros<float>(os), weights = xt::zeros<float>(ws);
  if (attention_heads(q.data(), k.data(), v.data(), out.data(), weights.data(), h, scale,
                      mask ? mask->data() : nullptr, causal)) {
    c.out("out", out);
    c.out("weights", weights);
    return;
  }
  out.fill(0.0f);  // the careful path writes visible weights only
  weights.fill(0.0f);
  std::vector<double> sc(h.tk);
  std::vector<char> vis(h.tk);
  for (std::size_t b = 0; b < h.batch; ++b)
    for (std::size_t i = 0; i < h.tq; ++i) {
      const float* qi = q.data() + (b * h.tq + i) * h.dk;
      double m = -INFINITY;
      bool any = false;
      for (std::size_t j = 0; j < h.tk; ++j) {
        vis[j] = (!causal || j <= i) && (!mask || mask->data()[i * h.tk + j] != 0);
        if (!vis[j]) continue;
        const float* kj = k.data() + (b * h.tk + j) * h.dk;
        double dot = 0;
        for (std::size_t e = 0; e < h.dk; ++e) dot += double(qi[e]) * kj[e];
        sc[j] = scale * dot;
        m = std::max(m, sc[j]);
        any = true;
      }
      if (!any) c.fail("query row " + std::to_string(i) + " has no visible key (mask and causal hide all)");
      double z = 0;
      for (std::size_t j = 0; j < h.tk; ++j)
        if (vis[j]) z += (sc[j] = std::exp(sc[j] - m));
      float* wi = weights.data() + (b * h.tq + i) * h.tk;
      float* oi = out.data() + (b * h.tq + i) * h.dv;
      std::vector<double> acc(h.dv, 0.0);
      for (std::size_t j = 0; j < h.tk; ++j) {
        if (!vis[j]) continue;
        const double w = sc[j] / z;
        wi[j] = static_cast<float>(w);
        const float* vj = v.data() + (b * h.tk + j) * h.dv;
        for (std::size_t e = 0; e < h.dv; ++e) acc[e] += w * vj[e];
      }
      for (std::size_t e = 0; e < h.dv; ++e) oi[e] = static_cast<float>(acc[e]);
    }
  c.out("out", out);
  c.out("weights", weights);
}

void sdpa(Call& c) {
  const std::size_t dk = c.in("q").shape().back();
  const double scale = c.has("scale") ? c.num("scale") : default_attention_scale(dk);
  attend(c, scale, false);
}

// Pre-Norm: x + F(N(x)); Post-Norm: N(x + F(x)); F(z) = z W^T + b.
void residual_block(Call& c) {
  const Tensor& x = c.in("x");
  c.expect_rank("x", x, 1);
  const Shape s = shape_of(x);
  const std::size_t d = s.back();
  const Tensor& w = c.in("W");
  c.expect_shape("W", w, {d, d}, "[d, d] with d = " + std::to_string(d));
  const Tensor* b = c.opt("b");
  if (b) c.expect_shape("b", *b, {d}, "[d]");
  const std::string& placement = c.str("placement");
  const std::string& norm = c.str("norm");
  if (placement != "pre" && placement != "post")
    c.fail("placement must be \"pre\" or \"post\" (got \"" + placement + "\")");
  if (norm != "layer_norm" && norm != "rms_norm")
    c.fail("norm must be \"layer_norm\" or \"rms_norm\" (got \"" + norm + "\")");
  const bool ln = norm == "layer_norm";
  c.check_work(double(x.size()) * double(d), "the d x d linear map");
  const Description nd{c.op, layer_group(s, 1), ln ? Measure::MeanVar : Measure::MeanSquare,
                       {ln, Denominator::SqrtPlusEps, c.num("eps")}, {}, {}};
  auto linear = [&](const Tensor& z) {
    Tensor r = xt::empty<float>(s);
    for (std::size_t row = 0; row < z.size() / d; ++row)
      for (std::size_t o = 0; o < d; ++o)
        r.data()[row * d + o] = static_cast<float>((b ? double(b->data()[o]) : 0.0) + dot(z.data() + row * d, w.data() + o * d, d));
    return r;
  };
  if (placement == "pre") c.out("y", Tensor(x + linear(run(x, nd))));
  else c.out("y", run(Tensor(x + linear(x)), nd));
}


}  // namespace

void register_attention_ops(Registry& r) {
  static constexpr OpSpec ops[] = {
    {"softmax", {{"x"}}, {{"axis", Int, Default(-1.0)}}, {"y"}, softmax},
    {"scaled_dot_product_attention", {{"q"}, {"k"}, {"v"}, {"mask", true}}, {{"causal", Bool, Default(false)}, {"scale", Num, {}}},
            {"out", "weights"}, sdpa},
    {"qk_norm_attention", {{"q"}, {"k"}, {"v"}, {"mask", true}}, {{"g", Num, {}}, {"causal", Bool, Default(false)}},
            {"out", "weights"}, [](Call& c) { attend(c, c.num("g"), true); }},
    {"residual_block", {{"x"}, {"W"}, {"b", true}},
            {{"placement", Str, Default("pre")}, {"norm", Str, Default("layer_norm")},
             {"eps", Num, Default(1e-5)}},
            {"y"}, residual_block},
  };
  enter(r, ops);
}

}  // namespace normlab
