// The training ops of the depth figure: the backward passes of LayerNorm and
// RMSNorm as ops of their own, and train_init / train_data / train_grad /
// train_step / train_predict over the network and optimizers of
// training.hpp. The bodies check arguments and move tensors; the numbers are
// computed in double there, and tensors in and out are float32 like every op.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "normlab/norms.hpp"
#include "normlab/random.hpp"
#include "normlab/training.hpp"
#include "normlab/training_transformer.hpp"

namespace normlab {

namespace {

using namespace training;
using A = AttrSpec;
const AttrKind Num = AttrKind::Number, Int = AttrKind::Integer, Str = AttrKind::String, Bool = AttrKind::Bool;

std::vector<double> doubles(const Tensor& t) { return std::vector<double>(t.begin(), t.end()); }

Tensor floats(const std::vector<double>& v, Shape shape) {
  Tensor t = xt::empty<float>(shape);
  std::copy(v.begin(), v.end(), t.begin());
  return t;
}

// layer_norm_backward / rms_norm_backward: x and dy [..., D], weight [D].
// Row by row, in double, from the inputs in place into dx: beside x, dy and dx
// a call holds three rows and the parameter gradients, so any input within the
// element limit fits (a whole-tensor double copy of [4096, 4096] once needed
// ~900 MB and ran out of memory).
void norm_backward_op(Call& c, bool rms) {
  const View& x = c.view("x");
  c.expect_rank("x", x.shape, 1);
  const Shape& shape = x.shape;
  const View& dyv = c.view("dy");
  c.expect_shape("dy", dyv.shape, shape, "the shape of x");
  const std::size_t w = shape.back(), n = w ? x.size() / w : 0;
  if (w == 0) c.fail(Msg("out_of_range", "x") << "x has no numbers along its last axis");
  std::vector<double> gamma;
  if (const View* g = c.opt_view("weight")) {
    c.expect_shape("weight", g->shape, {w}, "the last axis of x");
    gamma.assign(g->data, g->data + w);
  }
  const double eps = c.num("eps");
  c.check_work(double(x.size()) * 40, "the backward pass");
  std::vector<double> xr(w), dyr(w), y(w), xhat(w), dxr(w), dg(w, 0.0), db(w, 0.0);
  double inv = 0;
  float* dx = c.output("dx", shape);
  for (std::size_t r = 0; r < n; ++r) {
    const float *xs = x.data + r * w, *ds = dyv.data + r * w;
    for (std::size_t i = 0; i < w; ++i) xr[i] = xs[i], dyr[i] = ds[i], dxr[i] = 0;
    norm_forward(xr.data(), 1, w, rms, eps, nullptr, nullptr, y.data(), xhat.data(), &inv);
    if (!std::isfinite(inv))
      c.fail(Msg("zero_spread", "eps") << "row " << std::to_string(r)
                                       << " has zero spread and eps is 0, so its gradient is undefined");
    norm_backward(dyr.data(), xhat.data(), &inv, 1, w, rms, gamma.empty() ? nullptr : gamma.data(), dxr.data(),
                  dg.data(), db.data());
    for (std::size_t i = 0; i < w; ++i) dx[r * w + i] = static_cast<float>(dxr[i]);
  }
  c.out("dweight", floats(dg, {w}));
  if (!rms) c.out("dbias", floats(db, {w}));
}

void layer_norm_backward(Call& c) { norm_backward_op(c, false); }
void rms_norm_backward(Call& c) { norm_backward_op(c, true); }

// ---- the network's ops ------------------------------------------------------

Model model_of(const Call& c) {
  Model m;
  const long long depth = c.integer("depth"), width = c.integer("width");
  m.L = std::size_t(depth), m.W = std::size_t(width);
  const std::string& p = c.str("placement");
  if (p == "none")
    m.place = Place::None;
  else if (p == "post")
    m.place = Place::Post;
  else if (p == "pre")
    m.place = Place::Pre;
  else  // the door allows only the values the table lists
    m.place = Place::PreFinal;
  m.rms = c.str("norm") == "rms_norm";
  const std::string& g = c.str("gate");
  m.gate = g == "zero" ? Gate::Zero : g == "layer_scale" ? Gate::LayerScale : Gate::None;
  m.eps = c.num("eps");
  return m;
}

struct Data {
  std::vector<double> x, labels;
  std::size_t N = 0;
};

Data data_of(const Call& c) {
  Data d;
  const Tensor &x = c.in("x"), &y = c.in("labels");
  c.expect_rank("x", x, 2, 2);
  if (x.shape()[1] != 2)
    c.fail(Msg("shape_mismatch", "x") << "x must have shape [N, 2] (points in the plane) but has shape "
                                      << shape_str(shape_of(x)));
  d.N = x.shape()[0];
  if (d.N == 0) c.fail(Msg("out_of_range", "x") << "x has no points");
  c.expect_shape("labels", y, {d.N}, "the number of points in x");
  for (std::size_t i = 0; i < d.N; ++i)
    if (y(i) != 0 && y(i) != 1)
      c.fail(Msg("out_of_range", "labels")
             << "labels must be 0 or 1 (got " << num_str(y(i)) << " at index " << std::to_string(i) << ")");
  d.x = doubles(x), d.labels = doubles(y);
  return d;
}

std::vector<double> params_of(const Call& c, const Model& m) {
  const Tensor& p = c.in("params");
  c.expect_shape("params", p, {m.size()}, "the model's parameter count (" + std::to_string(m.size()) + ")");
  return doubles(p);
}

// Multiply-adds of one forward and backward pass, weighted like the other ops' limits.
double step_work(const Model& m, std::size_t N) {
  return 24.0 * double(N) * double(m.L) * double(m.W) * double(m.W + 8);
}

void check_memory(const Call& c, const Model& m, std::size_t N) {
  if (double(m.L + 1) * double(N) * double(m.W) > 262144.0)
    c.fail(Msg("too_large", "x") << "(depth + 1) x points x width is "
                                 << num_str(double(m.L + 1) * double(N) * double(m.W))
                                 << " activations; at most 262144 are kept for the backward pass");
}

// act_norm[l]: the root mean square of the residual stream h_l; grad_norm[l]:
// the norm of dL/dh_l. A diverging run's numbers are shown capped at 1e30.
void stats_out(Call& c, const Model& m, const Pass& s, std::vector<double> dnorm) {
  auto cap = [](double v) { return v < 1e30 ? v : 1e30; };  // NaN too
  std::vector<double> act(m.L + 1);
  const std::size_t NW = s.N * m.W;
  for (std::size_t l = 0; l <= m.L; ++l) {
    double q = 0;
    for (std::size_t i = 0; i < NW; ++i) q += (s.h[l * NW + i] / 1e30) * (s.h[l * NW + i] / 1e30);
    act[l] = cap(1e30 * std::sqrt(q / double(NW)));
  }
  for (double& v : dnorm) v = cap(v);
  c.out("act_norm", floats(act, {m.L + 1}));
  c.out("grad_norm", floats(dnorm, {m.L + 1}));
}

void train_grad(Call& c) {
  const Model m = model_of(c);
  const Data d = data_of(c);
  check_memory(c, m, d.N);
  c.check_work(step_work(m, d.N), "one forward and backward pass");
  const std::vector<double> P = params_of(c, m);
  Pass s;
  forward(m, P.data(), d.x.data(), d.labels.data(), d.N, s);
  if (!std::isfinite(s.loss)) c.fail(Msg("overflow", "params") << "the loss is not finite for these parameters");
  std::vector<double> G(m.size()), dnorm(m.L + 1);
  backward(m, P.data(), d.x.data(), d.labels.data(), s, G.data(), dnorm.data());
  c.out("loss", floats({s.loss}, {1}));
  c.out("grad", floats(G, {m.size()}));
  stats_out(c, m, s, dnorm);
}

// `steps` optimizer steps from params and the optimizer's state [2P + 1]
// (first moments, second moments, steps taken), each computed in double from
// float32 parameters and moments and rounded back to float32. A step whose loss or
// gradient is not finite, or that would take a parameter past 1e30, is not
// taken: the run stops there with status 1 ("diverged").
void train_step(Call& c) {
  const Model m = model_of(c);
  const Data d = data_of(c);
  check_memory(c, m, d.N);
  const long long steps = c.integer("steps");
  c.check_work(double(steps) * step_work(m, d.N), std::to_string(steps) + " forward and backward passes");
  const std::string& opt = c.str("optimizer");
  Optimizer o;
  o.adam = opt == "adam";
  o.lr = c.num("lr"), o.momentum = c.num("momentum"), o.beta1 = c.num("beta1"), o.beta2 = c.num("beta2"),
  o.warmup = c.num("warmup");
  const double clip = c.num("clip");
  std::vector<double> P = params_of(c, m);
  const std::size_t n = m.size();
  const Tensor& st = c.in("state");
  c.expect_shape("state", st, {2 * n + 1}, "2 x the parameter count + 1");
  std::vector<double> S = doubles(st);
  const double t0 = S[2 * n];
  if (!(t0 >= 0 && t0 <= 1e9 && t0 == std::floor(t0)))
    c.fail(Msg("out_of_range", "state")
           << "state's last number counts steps taken and must be a whole number in [0, 1e9] (got " << num_str(t0)
           << ")");

  Pass s;
  std::vector<double> G(n), dnorm(m.L + 1), losses, next(n);
  long long status = 0;
  double accuracy = 0;
  for (long long k = 0; k < steps; ++k) {
    forward(m, P.data(), d.x.data(), d.labels.data(), d.N, s);
    if (!(s.loss < 1e30)) {
      status = 1;
      break;
    }
    backward(m, P.data(), d.x.data(), d.labels.data(), s, G.data(), dnorm.data());
    if (!clip_by_global_norm(G, clip) || !o.step(P, S, G, next)) {
      status = 1;
      break;
    }
    losses.push_back(s.loss);
    accuracy = s.accuracy;
  }
  if (losses.empty()) {  // diverged on the first step: the stream as it stands
    accuracy = s.accuracy;
    std::fill(dnorm.begin(), dnorm.end(), 0.0);
  }
  c.out("params", floats(P, {n}));
  c.out("state", floats(S, {2 * n + 1}));
  c.out("loss", floats(losses, {losses.size()}));
  c.out("accuracy", floats({accuracy}, {1}));
  stats_out(c, m, s, dnorm);
  c.out("status", Value::ints({1}, {status}));
}

// The probability of class 1 at each point: the figure's decision map.
void train_predict(Call& c) {
  const Model m = model_of(c);
  const Tensor& pts = c.in("points");
  c.expect_rank("points", pts, 2, 2);
  if (pts.shape()[1] != 2)
    c.fail(Msg("shape_mismatch", "points")
           << "points must have shape [M, 2] but has shape " << shape_str(shape_of(pts)));
  const std::size_t M = pts.shape()[0];
  c.check_work(step_work(m, M) / 3, "one forward pass");
  const std::vector<double> P = params_of(c, m), x = doubles(pts);
  std::vector<double> prob(M);
  Pass s;
  // In chunks of points, so that the residual stream kept stays under 2^18 numbers.
  const std::size_t chunk = std::max<std::size_t>(1, 262144 / ((m.L + 1) * m.W));
  for (std::size_t at = 0; at < M; at += chunk) {
    const std::size_t k = std::min(chunk, M - at);
    forward(m, P.data(), x.data() + 2 * at, nullptr, k, s, false);
    for (std::size_t r = 0; r < k; ++r) prob[at + r] = std::isfinite(s.p[r * 2 + 1]) ? s.p[r * 2 + 1] : 0.5;
  }
  c.out("p", floats(prob, {M}));
}

// P[at, at + count) drawn N(0, 1 / fan_in) from g, in order: both trainers' initializers.
static void fill_normal(std::vector<double>& P, Normal& g, std::size_t at, std::size_t count, double fan_in) {
  for (std::size_t i = 0; i < count; ++i) P[at + i] = g.next() / std::sqrt(fan_in);
}

// Seeded initial parameters: weights N(0, 1 / fan_in) drawn in layout order
// (E, then each block's W1 and W2, then H), biases and betas 0, gammas 1,
// gates 1 / 0 / 0.1; and a zero optimizer state.
void train_init(Call& c) {
  const Model m = model_of(c);
  const std::size_t W = m.W, n = m.size();
  Normal g{static_cast<std::uint64_t>(c.integer("seed"))};
  std::vector<double> P(n, 0.0);
  auto draw = [&](std::size_t at, std::size_t count, double fan_in) { fill_normal(P, g, at, count, fan_in); };
  draw(0, 2 * W, 2);
  for (std::size_t l = 0; l < m.L; ++l) {
    const std::size_t B = m.block(l);
    draw(B + m.w1(), W * W, double(W));
    draw(B + m.w2(), W * W, double(W));
    std::fill_n(P.begin() + B + m.gamma(), W, 1.0);
    std::fill_n(P.begin() + B + m.gate_at(), W, m.gate == Gate::None ? 1.0 : m.gate == Gate::Zero ? 0.0 : 0.1);
  }
  std::fill_n(P.begin() + m.final_norm(), W, 1.0);
  draw(m.head(), W * kClasses, double(W));
  c.out("params", floats(P, {n}));
  c.out("state", floats(std::vector<double>(2 * n + 1, 0.0), {2 * n + 1}));
}

// Two interleaved spirals in [-1, 1]^2: point i of class k (i = 0..N/2-1) at
// radius t = (i + 0.5) / (N/2) and angle turns * 2 pi t + k pi, plus
// noise * N(0, 1) on each coordinate (draws in point order, x then y).
void train_data(Call& c) {
  const long long count = c.integer("count");
  if (count % 2)  // [4, 4096] at the door
    c.fail(Msg("out_of_range", "count") << "count must be even (got " << std::to_string(count) << ")");
  const double turns = c.num("turns"), noise = c.num("noise");
  Normal g{static_cast<std::uint64_t>(c.integer("seed"))};
  const std::size_t half = std::size_t(count) / 2;
  std::vector<double> x(2 * static_cast<std::size_t>(count)), y(static_cast<std::size_t>(count));
  for (std::size_t k = 0; k < 2; ++k)
    for (std::size_t i = 0; i < half; ++i) {
      const std::size_t r = k * half + i;
      const double t = (double(i) + 0.5) / double(half), angle = turns * 2 * M_PI * t + double(k) * M_PI;
      x[2 * r] = t * std::cos(angle) + noise * g.next();
      x[2 * r + 1] = t * std::sin(angle) + noise * g.next();
      y[r] = double(k);
    }
  c.out("x", floats(x, {std::size_t(count), 2}));
  c.out("labels", floats(y, {std::size_t(count)}));
}

// ---- the transformer's ops (training_transformer.hpp) ------------------------

Tfm tfm_of(const Call& c) {
  Tfm m;
  m.V = std::size_t(c.integer("vocab")), m.D = std::size_t(c.integer("d_model"));
  m.H = std::size_t(c.integer("heads")), m.L = std::size_t(c.integer("layers"));
  m.S = std::size_t(c.integer("context")), m.R = std::size_t(c.integer("mlp_ratio"));
  if (m.D % m.H)
    c.fail(Msg("out_of_range", "heads") << "heads must divide d_model (got " << std::to_string(m.H)
                                        << " heads for d_model " << std::to_string(m.D) << ")");
  const std::string& p = c.str("placement");
  m.post = p == "post", m.final_norm = p == "pre_final";
  m.rms = c.str("norm") == "rms_norm";
  const std::string& q = c.str("qk_norm");
  m.qk = q == "l2" ? QkNorm::L2 : q == "layer_norm" ? QkNorm::Layer : q == "rms_norm" ? QkNorm::Rms : QkNorm::None;
  m.tied = c.flag("tied");
  m.relu = c.str("activation") == "relu";
  m.eps = c.num("eps"), m.z_loss = c.num("z_loss");
  if (double(m.size()) > 4194304.0)
    c.fail(Msg("too_large", "d_model") << "the model has " << std::to_string(m.size())
                                       << " parameters; at most 4194304 are allowed");
  return m;
}

std::vector<double> tfm_params(const Call& c, const Tfm& m) {
  const View& p = c.view("params");
  c.expect_shape("params", p.shape, {m.size()}, "the model's parameter count (" + std::to_string(m.size()) + ")");
  return std::vector<double>(p.data, p.data + m.size());
}

// Token ids: whole numbers in [0, vocab).
std::vector<double> token_ids(const Call& c, const char* name, const View& t, std::size_t V) {
  std::vector<double> ids(t.data, t.data + t.size());
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (!(ids[i] >= 0 && ids[i] < double(V) && ids[i] == std::floor(ids[i])))
      c.fail(Msg("out_of_range", name) << name << " must hold whole numbers in [0, " << std::to_string(V - 1)
                                       << "] (got " << num_str(ids[i]) << " at index " << std::to_string(i) << ")");
  return ids;
}

struct Batches {
  std::vector<double> tokens, targets;
  std::size_t K = 1, B = 0, T = 0;
};

// tokens and targets [B, T], or [K, B, T] with `batches`: K batches of B sequences of T <= context.
Batches batches_of(const Call& c, const Tfm& m, bool batches) {
  Batches d;
  const View &x = c.view("tokens"), &y = c.view("targets");
  c.expect_rank("tokens", x.shape, 2, batches ? 3 : 2);
  const std::size_t r = x.shape.size();
  d.K = r == 3 ? x.shape[0] : 1, d.B = x.shape[r - 2], d.T = x.shape[r - 1];
  if (d.K * d.B * d.T == 0) c.fail(Msg("out_of_range", "tokens") << "tokens has no positions");
  if (d.T > m.S)
    c.fail(Msg("out_of_range", "tokens") << "tokens has sequences of " << std::to_string(d.T)
                                         << " positions but the model's context is " << std::to_string(m.S));
  c.expect_shape("targets", y.shape, x.shape, "the shape of tokens");
  d.tokens = token_ids(c, "tokens", x, m.V), d.targets = token_ids(c, "targets", y, m.V);
  if (m.memory(d.B, d.T) > 8388608.0)
    c.fail(Msg("too_large", "tokens") << "one batch keeps " << num_str(m.memory(d.B, d.T))
                                      << " numbers for the backward pass; at most 8388608 are allowed");
  return d;
}

double cap(double v) { return v < 1e30 ? v : 1e30; }  // a diverging run's numbers, NaN too

// Seeded start: E and Pos N(0, 1/d_model), Wq Wk Wv Wo W1 N(0, 1/d_model), W2 N(0, 1/F), Wh N(0, 1/d_model),
// drawn in that order (per block); gammas 1, betas 0, g = log2(context^2 - context); a zero AdamW state.
void tfm_init(Call& c) {
  const Tfm m = tfm_of(c);
  const std::size_t D = m.D, n = m.size();
  Normal g{static_cast<std::uint64_t>(c.integer("seed"))};
  std::vector<double> P(n, 0.0);
  auto draw = [&](std::size_t at, std::size_t count, double fan_in) { fill_normal(P, g, at, count, fan_in); };
  draw(0, (m.V + m.S) * D, double(D));
  for (std::size_t l = 0; l < m.L; ++l) {
    const std::size_t B = m.block(l);
    for (std::size_t w : {m.wq(), m.wk(), m.wv(), m.wo()}) draw(B + w, D * D, double(D));
    draw(B + m.w1(), D * m.F(), double(D));
    draw(B + m.w2(), m.F() * D, double(m.F()));
    std::fill_n(P.begin() + B + m.n1(), D, 1.0);
    std::fill_n(P.begin() + B + m.n2(), D, 1.0);
    std::fill_n(P.begin() + B + m.qn(), m.hd(), 1.0);
    std::fill_n(P.begin() + B + m.qn() + 2 * m.hd(), m.hd(), 1.0);
    P[B + m.g()] = m.g0();
  }
  std::fill_n(P.begin() + m.nf(), D, 1.0);
  draw(m.head(), D * m.V, double(D));
  c.out("params", floats(P, {n}));
  c.out("state", floats(std::vector<double>(2 * n + 1, 0.0), {2 * n + 1}));
}

void metrics_out(Call& c, const Tfm& m, const std::vector<double>& maxl, const std::vector<double>& ent,
                 const std::vector<double>& rms, const std::vector<double>& gn, const std::vector<double>& lm,
                 Shape per_layer) {
  auto capped = [](std::vector<double> v) {
    for (double& x : v) x = cap(x);
    return v;
  };
  c.out("max_logit", floats(capped(maxl), per_layer));
  c.out("entropy", floats(capped(ent), per_layer));
  c.out("act_rms", floats(capped(rms), per_layer));
  c.out("grad_norm", floats(capped(gn), per_layer));
  Shape one = per_layer;
  one.back() = 1;
  if (one.size() == 2) one.pop_back();
  (void)m;
  c.out("logit_mean", floats(capped(lm), one));
}

void tfm_grad(Call& c) {
  const Tfm m = tfm_of(c);
  const Batches d = batches_of(c, m, false);
  c.check_work(m.work(d.B, d.T), "one forward and backward pass");
  const std::vector<double> P = tfm_params(c, m);
  TfmPass s;
  tfm_forward(m, P.data(), d.tokens.data(), d.targets.data(), d.B, d.T, s);
  if (!std::isfinite(s.loss)) c.fail(Msg("overflow", "params") << "the loss is not finite for these parameters");
  std::vector<double> G(m.size());
  tfm_backward(m, P.data(), d.tokens.data(), d.targets.data(), s, G.data());
  c.out("loss", floats({s.loss}, {1}));
  c.out("grad", floats(G, {m.size()}));
  c.out("logits", floats(s.logits, {d.B, d.T, m.V}));
  std::vector<double> maxl, ent;
  for (const TfmBlock& b : s.blocks) maxl.push_back(b.max_logit), ent.push_back(b.entropy);
  metrics_out(c, m, maxl, ent, s.act_rms, tfm_block_norms(m, G), {s.logit_mean}, {m.L});
  // every layer's attention probabilities, [layers, B, heads, T, T] (zero above the diagonal)
  std::vector<double> att;
  att.reserve(m.L * d.B * m.H * d.T * d.T);
  for (const TfmBlock& b : s.blocks) att.insert(att.end(), b.p.begin(), b.p.end());
  c.out("attention", floats(att, {m.L, d.B, m.H, d.T, d.T}));
}

// `steps` AdamW steps; step k trains on batch k mod K of tokens [K, B, T] (or the one batch [B, T]).
void tfm_step(Call& c) {
  const Tfm m = tfm_of(c);
  const Batches d = batches_of(c, m, true);
  const long long steps = c.integer("steps");
  c.check_work(double(steps) * m.work(d.B, d.T), std::to_string(steps) + " forward and backward passes");
  AdamW o;
  o.lr = c.num("lr"), o.beta1 = c.num("beta1"), o.beta2 = c.num("beta2"), o.eps = c.num("adam_eps");
  o.weight_decay = c.num("weight_decay"), o.warmup = c.num("warmup"), o.total = c.num("total");
  o.lr_min = c.num("lr_min");
  const double clip = c.num("clip");
  std::vector<double> P = tfm_params(c, m);
  const std::size_t n = m.size();
  const View& st = c.view("state");
  c.expect_shape("state", st.shape, {2 * n + 1}, "2 x the parameter count + 1");
  std::vector<double> S(st.data, st.data + 2 * n + 1);
  const double t0 = S[2 * n];
  if (!(t0 >= 0 && t0 <= 1e9 && t0 == std::floor(t0)))
    c.fail(Msg("out_of_range", "state")
           << "state's last number counts steps taken and must be a whole number in [0, 1e9] (got " << num_str(t0)
           << ")");
  TfmPass s;
  std::vector<double> G(n), next(n), losses, maxl, ent, rms, gn, lm;
  long long status = 0;
  const std::size_t per = d.B * d.T;
  for (long long k = 0; k < steps; ++k) {
    const std::size_t at = (std::size_t(k) % d.K) * per;
    tfm_forward(m, P.data(), d.tokens.data() + at, d.targets.data() + at, d.B, d.T, s);
    if (!(s.loss < 1e30)) {
      status = 1;
      break;
    }
    tfm_backward(m, P.data(), d.tokens.data() + at, d.targets.data() + at, s, G.data());
    const std::vector<double> norms = tfm_block_norms(m, G);
    if (!clip_by_global_norm(G, clip) || !o.step(P, S, G, next)) {
      status = 1;
      break;
    }
    losses.push_back(s.loss), lm.push_back(s.logit_mean);
    for (std::size_t l = 0; l < m.L; ++l)
      maxl.push_back(s.blocks[l].max_logit), ent.push_back(s.blocks[l].entropy), rms.push_back(s.act_rms[l]),
          gn.push_back(norms[l]);
  }
  c.out("params", floats(P, {n}));
  c.out("state", floats(S, {2 * n + 1}));
  c.out("loss", floats(losses, {losses.size()}));
  metrics_out(c, m, maxl, ent, rms, gn, lm, {losses.size(), m.L});
  c.out("status", Value::ints({1}, {status}));
}

// `count` tokens after prompt [T0]: each from the logits at the last position of the last `context` tokens,
// greedy (temperature 0: the first largest) or drawn from softmax(logits / temperature) with the seeded stream.
void tfm_sample(Call& c) {
  const Tfm m = tfm_of(c);
  const View& pv = c.view("prompt");
  c.expect_rank("prompt", pv.shape, 1, 1);
  if (pv.size() == 0) c.fail(Msg("out_of_range", "prompt") << "prompt has no tokens");
  std::vector<double> seq = token_ids(c, "prompt", pv, m.V);
  const long long count = c.integer("count");
  const std::size_t T = std::min(m.S, seq.size() + std::size_t(count));
  c.check_work(double(count) * m.work(1, T) / 3, std::to_string(count) + " forward passes");
  const double temp = c.num("temperature");
  const std::vector<double> P = tfm_params(c, m);
  Normal g{static_cast<std::uint64_t>(c.integer("seed"))};
  std::vector<std::int64_t> out;
  TfmPass s;
  for (long long k = 0; k < count; ++k) {
    const std::size_t len = std::min(m.S, seq.size());
    tfm_forward(m, P.data(), seq.data() + seq.size() - len, nullptr, 1, len, s);
    const double* lg = s.logits.data() + (len - 1) * m.V;
    std::size_t pick = 0;
    for (std::size_t v = 1; v < m.V; ++v)
      if (lg[v] > lg[pick]) pick = v;
    if (temp > 0 && std::isfinite(lg[pick])) {
      std::vector<double> w(m.V);
      double sum = 0;
      for (std::size_t v = 0; v < m.V; ++v) sum += (w[v] = std::exp((lg[v] - lg[pick]) / temp));
      double u = g.uniform() * sum;
      for (pick = 0; pick + 1 < m.V && u >= w[pick]; ++pick) u -= w[pick];
    }
    out.push_back(std::int64_t(pick));
    seq.push_back(double(pick));
  }
  c.out("tokens", Value::ints({out.size()}, out));
}

#define NORMLAB_MODEL_ATTRS                                                        \
  {"depth", Int, {}, within(1, 64)}, {"width", Int, Default(16.0), within(2, 64)}, \
      {"placement", Str, Default("pre"), {}, "none|post|pre|pre_final"},           \
      {"norm", Str, Default("layer_norm"), {}, "layer_norm|rms_norm"},             \
      {"gate", Str, Default("none"), {}, "none|zero|layer_scale"}, {               \
    "eps", Num, Default(1e-5), interval(0, 1, false, true)                         \
  }

#define NORMLAB_TFM_ATTRS                                                                                  \
  {"vocab", Int, {}, within(2, 1024)}, {"d_model", Int, Default(64.0), within(2, 512)},                    \
      {"heads", Int, Default(4.0), within(1, 64)}, {"layers", Int, Default(2.0), within(1, 16)},           \
      {"context", Int, Default(64.0), within(1, 1024)}, {"mlp_ratio", Int, Default(4.0), within(1, 8)},    \
      {"activation", Str, Default("gelu"), {}, "gelu|relu"},                                               \
      {"placement", Str, Default("pre_final"), {}, "post|pre|pre_final"},                                  \
      {"norm", Str, Default("layer_norm"), {}, "layer_norm|rms_norm"},                                     \
      {"qk_norm", Str, Default("none"), {}, "none|l2|layer_norm|rms_norm"}, {"tied", Bool, Default(true)}, \
      {"eps", Num, Default(1e-5), interval(0, 1, false, true)}, {                                          \
    "z_loss", Num, Default(0.0), within(0, 1)                                                              \
  }

}  // namespace

void register_training_ops(Registry& r) {
  static constexpr OpSpec ops[] = {
      {"layer_norm_backward",
       {{"x"}, {"dy"}, {"weight", true}},
       {{"eps", Num, Default(1e-5), at_least(0)}},
       {"dx", "dweight", "dbias"},
       layer_norm_backward},
      {"rms_norm_backward",
       {{"x"}, {"dy"}, {"weight", true}},
       {{"eps", Num, Default(1e-6), at_least(0)}},
       {"dx", "dweight"},
       rms_norm_backward},
      {"train_init", {}, {NORMLAB_MODEL_ATTRS, {"seed", Int, Default(0.0)}}, {"params", "state"}, train_init},
      {"train_data",
       {},
       {{"count", Int, Default(256.0), within(4, 4096)},
        {"turns", Num, Default(1.0), within(0, 4)},
        {"noise", Num, Default(0.05), within(0, 1)},
        {"seed", Int, Default(0.0)}},
       {"x", "labels"},
       train_data},
      {"train_grad",
       {{"params"}, {"x"}, {"labels"}},
       {NORMLAB_MODEL_ATTRS},
       {"loss", "grad", "act_norm", "grad_norm"},
       train_grad},
      {"train_step",
       {{"params"}, {"state"}, {"x"}, {"labels"}},
       {NORMLAB_MODEL_ATTRS,
        {"steps", Int, Default(1.0), within(1, 100000)},
        {"optimizer", Str, Default("adam"), {}, "sgd|adam"},
        {"lr", Num, Default(0.01), within(0, 100)},
        {"momentum", Num, Default(0.9), interval(0, 1, true, false)},
        {"beta1", Num, Default(0.9), interval(0, 1, true, false)},
        {"beta2", Num, Default(0.999), interval(0, 1, true, false)},
        {"clip", Num, Default(0.0), at_least(0)},
        {"warmup", Num, Default(0.0), within(0, 1e6)}},
       {"params", "state", "loss", "accuracy", "act_norm", "grad_norm", integers("status")},
       train_step},
      {"train_predict", {{"params"}, {"points"}}, {NORMLAB_MODEL_ATTRS}, {"p"}, train_predict},
      {"tfm_init", {}, {NORMLAB_TFM_ATTRS, {"seed", Int, Default(0.0)}}, {"params", "state"}, tfm_init},
      {"tfm_grad",
       {{"params"}, {"tokens"}, {"targets"}},
       {NORMLAB_TFM_ATTRS},
       {"loss", "grad", "logits", "max_logit", "entropy", "act_rms", "grad_norm", "logit_mean", "attention"},
       tfm_grad},
      {"tfm_step",
       {{"params"}, {"state"}, {"tokens"}, {"targets"}},
       {NORMLAB_TFM_ATTRS,
        {"steps", Int, Default(1.0), within(1, 100000)},
        {"lr", Num, Default(1e-3), within(0, 10)},
        {"beta1", Num, Default(0.9), interval(0, 1, true, false)},
        {"beta2", Num, Default(0.95), interval(0, 1, true, false)},
        {"adam_eps", Num, Default(1e-8), interval(0, 1, false, true)},
        {"weight_decay", Num, Default(0.0), within(0, 1)},
        {"warmup", Num, Default(0.0), within(0, 1e6)},
        {"total", Num, Default(0.0), within(0, 1e6)},
        {"lr_min", Num, Default(0.1), within(0, 1)},
        {"clip", Num, Default(1.0), at_least(0)}},
       {"params", "state", "loss", "max_logit", "entropy", "act_rms", "grad_norm", "logit_mean", integers("status")},
       tfm_step},
      {"tfm_sample",
       {{"params"}, {"prompt"}},
       {NORMLAB_TFM_ATTRS,
        {"count", Int, Default(32.0), within(1, 1024)},
        {"temperature", Num, Default(1.0), within(0, 10)},
        {"seed", Int, Default(0.0)}},
       {integers("tokens")},
       tfm_sample},
  };
  enter(r, ops);
}

}  // namespace normlab
