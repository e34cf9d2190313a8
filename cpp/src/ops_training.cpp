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

namespace normlab {

namespace {

using namespace training;
using A = AttrSpec;
const AttrKind Num = AttrKind::Number, Int = AttrKind::Integer, Str = AttrKind::String;

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

// Seeded initial parameters: weights N(0, 1 / fan_in) drawn in layout order
// (E, then each block's W1 and W2, then H), biases and betas 0, gammas 1,
// gates 1 / 0 / 0.1; and a zero optimizer state.
void train_init(Call& c) {
  const Model m = model_of(c);
  const std::size_t W = m.W, n = m.size();
  Normal g{static_cast<std::uint64_t>(c.integer("seed"))};
  std::vector<double> P(n, 0.0);
  auto draw = [&](std::size_t at, std::size_t count, double fan_in) {
    for (std::size_t i = 0; i < count; ++i) P[at + i] = g.next() / std::sqrt(fan_in);
  };
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

#define NORMLAB_MODEL_ATTRS                                                        \
  {"depth", Int, {}, within(1, 64)}, {"width", Int, Default(16.0), within(2, 64)}, \
      {"placement", Str, Default("pre"), {}, "none|post|pre|pre_final"},           \
      {"norm", Str, Default("layer_norm"), {}, "layer_norm|rms_norm"},             \
      {"gate", Str, Default("none"), {}, "none|zero|layer_scale"}, {               \
    "eps", Num, Default(1e-5), interval(0, 1, false, true)                         \
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
  };
  enter(r, ops);
}

}  // namespace normlab
