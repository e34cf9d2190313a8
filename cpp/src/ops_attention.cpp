// Attention and the residual block: softmax, scaled dot-product attention,
// QK-Norm attention and Pre-/Post-Norm residual blocks.
#include <cmath>

#include "normlab/kernels.hpp"
#include "normlab/linalg.hpp"
#include "normlab/norms.hpp"

namespace normlab {

namespace {

using A = AttrSpec;
const AttrKind Num = AttrKind::Number, Int = AttrKind::Integer, Bool = AttrKind::Bool, Str = AttrKind::String;

// Softmax is a description too: along its axis, the max is the center and
// the sum of exp(x - max) the spread.
void softmax(const Call& c, Description& d) {
  const Shape& s = c.view("x").shape;
  const std::size_t axis = norm_axis(c.integer("axis"), s.size(), c.op + ": axis");
  d = {c.op, Group::along(s, axis), Measure::SumExp, {true, Denominator::Exp, 0.0}, {}, {}};
}

struct Heads {
  std::size_t batch, tq, tk, dk, dv;
};

Heads check_qkv(const Call& c, const Shape& qs, const Shape& ks, const Shape& vs) {
  if (qs.size() < 2) c.fail("q must have rank at least 2 but has shape " + shape_str(qs));
  const std::size_t r = qs.size();
  const Shape lead(qs.begin(), qs.end() - 2);
  auto same_lead = [&](const char* name, const Shape& s) {
    if (s.size() != r || !std::equal(lead.begin(), lead.end(), s.begin()))
      c.fail(Msg() << std::string(name) << " has shape " << shape_str(s) << " but must have rank " << std::to_string(r)
                   << " and leading axes " << shape_str(lead) << " like q " << shape_str(qs));
  };
  same_lead("k", ks);
  same_lead("v", vs);
  if (ks[r - 1] != qs[r - 1])
    c.fail(Msg() << "k has width " << std::to_string(ks[r - 1])
                 << " but q has width dk = " << std::to_string(qs[r - 1]));
  if (vs[r - 2] != ks[r - 2])
    c.fail(Msg() << "v has " << std::to_string(vs[r - 2]) << " positions but k has Tk = " << std::to_string(ks[r - 2]));
  std::size_t b = 1;
  for (auto d : lead) b *= d;
  return {b, qs[r - 2], ks[r - 2], qs[r - 1], vs[r - 1]};
}

// The SIMD kernel head by head; false when a visible score overflowed or a
// query sees no key, and the careful double path below then decides.
bool attention_heads(const float* q, const float* k, const float* v, float* out, float* w, const Heads& h, double scale,
                     const float* mask, bool causal) {
  std::vector<float> scratch(h.tk * h.dk);
  for (std::size_t b = 0; b < h.batch; ++b)
    if (!attention_head(q + b * h.tq * h.dk, k + b * h.tk * h.dk, v + b * h.tk * h.dv, out + b * h.tq * h.dv,
                        w + b * h.tq * h.tk, h.tq, h.tk, h.dk, h.dv, static_cast<float>(scale), scratch.data(), mask,
                        causal))
      return false;
  return true;
}

// softmax(scale * q k^T + masking) v; unit rows first when qk_norm. q, k
// and v are read in place and the results written straight into the
// outputs' buffers.
void attend(Call& c, double scale, bool qk_norm) {
  const View &qv = c.view("q"), &kv = c.view("k"), &vv = c.view("v");
  const Heads h = check_qkv(c, qv.shape, kv.shape, vv.shape);
  const View* mv = c.opt_view("mask");
  const float* mask = mv ? mv->data : nullptr;
  if (mv) {
    c.expect_shape("mask", mv->shape, {h.tq, h.tk}, "[Tq, Tk]");
    for (std::size_t e = 0; e < mv->size(); ++e)
      if (mask[e] != 0 && mask[e] != 1)
        c.fail(Msg() << "mask must hold 0 (hidden) or 1 (visible) but has " << num_str(mask[e]) << " at index "
                     << std::to_string(e));
  }
  const bool causal = c.flag("causal");
  c.check_work(double(h.batch) * h.tq * h.tk * double(h.dk + h.dv), "attention over these shapes");
  const float *q = qv.data, *k = kv.data, *v = vv.data;
  Tensor qn, kn;
  if (qk_norm) {  // L2 along the head axis, as F.normalize
    qn = c.in("q");
    kn = c.in("k");
    const Transform t{false, Denominator::MaxSqrtEps, 1e-12};
    for (Tensor* z : {&qn, &kn}) {
      const Group g = Group::trailing(shape_of(*z), 1);
      const Stats st = measure(z->data(), g, Measure::SumSquare);
      standardize(z->data(), z->data(), g, st, t, denominators(st, t, c.op));
    }
    q = qn.data();
    k = kn.data();
  }
  Shape os = qv.shape, ws = qv.shape;
  os.back() = h.dv;
  ws.back() = h.tk;
  float* out = c.output("out", os);
  float* weights = c.output("weights", ws);
  if (attention_heads(q, k, v, out, weights, h, scale, mask, causal)) return;
  // The careful path, in double; it writes visible weights only.
  std::fill(out, out + h.batch * h.tq * h.dv, 0.0f);
  std::fill(weights, weights + h.batch * h.tq * h.tk, 0.0f);
  std::vector<double> sc(h.tk);
  std::vector<char> vis(h.tk);
  for (std::size_t b = 0; b < h.batch; ++b)
    for (std::size_t i = 0; i < h.tq; ++i) {
      const float* qi = q + (b * h.tq + i) * h.dk;
      double m = -INFINITY;
      bool any = false;
      for (std::size_t j = 0; j < h.tk; ++j) {
        vis[j] = (!causal || j <= i) && (!mask || mask[i * h.tk + j] != 0);
        if (!vis[j]) continue;
        const float* kj = k + (b * h.tk + j) * h.dk;
        double dot = 0;
        for (std::size_t e = 0; e < h.dk; ++e) dot += double(qi[e]) * kj[e];
        sc[j] = scale * dot;
        m = std::max(m, sc[j]);
        any = true;
      }
      if (!any) c.fail(Msg() << "query row " << std::to_string(i) << " has no visible key (mask and causal hide all)");
      double z = 0;
      for (std::size_t j = 0; j < h.tk; ++j)
        if (vis[j]) z += (sc[j] = std::exp(sc[j] - m));
      float* wi = weights + (b * h.tq + i) * h.tk;
      float* oi = out + (b * h.tq + i) * h.dv;
      std::vector<double> acc(h.dv, 0.0);
      for (std::size_t j = 0; j < h.tk; ++j) {
        if (!vis[j]) continue;
        const double w = sc[j] / z;
        wi[j] = static_cast<float>(w);
        const float* vj = v + (b * h.tk + j) * h.dv;
        for (std::size_t e = 0; e < h.dv; ++e) acc[e] += w * vj[e];
      }
      for (std::size_t e = 0; e < h.dv; ++e) oi[e] = static_cast<float>(acc[e]);
    }
}

void sdpa(Call& c) {
  const Shape& qs = c.view("q").shape;
  const std::size_t dk = qs.empty() ? 1 : qs.back();  // a rank-0 q is refused by attend
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
  const bool ln = norm == "layer_norm";
  // the d x d map, plus the norm and the sums around it (~32 operations a number)
  c.check_work(double(x.size()) * double(d + 32), "the d x d linear map");
  const Description nd{c.op,
                       layer_group(s, 1),
                       ln ? Measure::MeanVar : Measure::MeanSquare,
                       {ln, Denominator::SqrtPlusEps, c.num("eps")},
                       {},
                       {}};
  auto linear = [&](const Tensor& z) {
    Tensor r = xt::empty<float>(s);
    for (std::size_t row = 0; row < z.size() / d; ++row)
      for (std::size_t o = 0; o < d; ++o)
        r.data()[row * d + o] =
            static_cast<float>((b ? double(b->data()[o]) : 0.0) + dot(z.data() + row * d, w.data() + o * d, d));
    return r;
  };
  if (placement == "pre")
    c.out("y", Tensor(x + linear(run(x, nd))));
  else
    c.out("y", run(Tensor(x + linear(x)), nd));
}

}  // namespace

void register_attention_ops(Registry& r) {
  static constexpr OpSpec ops[] = {
      {"softmax", {{"x"}}, {{"axis", Int, Default(-1.0)}}, {"y"}, nullptr, softmax},
      {"scaled_dot_product_attention",
       {{"q"}, {"k"}, {"v"}, {"mask", true}},
       {{"causal", Bool, Default(false)},
        {"scale", Num, Default::optional("by default 1/sqrt(d_k), d_k the last size of q")}},
       {"out", "weights"},
       sdpa},
      {"qk_norm_attention",
       {{"q"}, {"k"}, {"v"}, {"mask", true}},
       {{"g", Num, {}}, {"causal", Bool, Default(false)}},
       {"out", "weights"},
       [](Call& c) { attend(c, c.num("g"), true); }},
      {"residual_block",
       {{"x"}, {"W"}, {"b", true}},
       {{"placement", Str, Default("pre"), {}, "pre|post"},
        {"norm", Str, Default("layer_norm"), {}, "layer_norm|rms_norm"},
        {"eps", Num, Default(1e-5), at_least(0)}},
       {"y"},
       residual_block},
  };
  enter(r, ops);
}

}  // namespace normlab
