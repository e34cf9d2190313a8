// Training a small residual network in the core, for the depth figure: the
// backward passes of LayerNorm and RMSNorm (also as ops of their own), a
// forward and backward pass of a whole network, and SGD-with-momentum or Adam
// steps with optional clipping by global norm and linear warm-up. Everything
// is computed in double; tensors in and out are float32 like every op.
//
// The network classifies 2-D points into two classes:
//   h_0     = x E + e                                   x [N, 2], E [2, W]
//   block l: F(u) = tanh(u W1 + b1) W2 + b2
//     none:      h_{l+1} = h_l + a * F(h_l)
//     post:      h_{l+1} = Norm(h_l + a * F(h_l))
//     pre:       h_{l+1} = h_l + a * F(Norm(h_l))
//     pre_final: pre, and Norm(h_L) before the head
//   logits  = h_L H + c,  loss = mean softmax cross-entropy
// a is the gate: 1 and fixed ("none"), learned from 0 ("zero": ReZero /
// AdaLN-Zero's identity start) or learned from 0.1 ("layer_scale").
// The flat parameter vector holds, in order: E, e, then per block W1, b1,
// W2, b2, the norm's gamma and beta and the gate a (each [W]), then the final
// norm's gamma and beta, H [W, 2] and c [2]. Slots a configuration does not
// use keep their values and get zero gradient.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "normlab/norms.hpp"
#include "normlab/random.hpp"

namespace normlab {

namespace {

using A = AttrSpec;
const AttrKind Num = AttrKind::Number, Int = AttrKind::Integer, Str = AttrKind::String;

constexpr std::size_t kClasses = 2;

// ---- normalization backward, one row at a time ---------------------------

// y = xhat * gamma + beta with xhat = (x - mean) * inv (LayerNorm) or x * inv
// (RMSNorm); keeps xhat and inv for the backward pass. The engine's measure
// and standardize on rows, in double (the network's numbers). The denominator
// is sqrt(spread + eps) as the engine's, but a zero or NaN one is not thrown
// here: it leaves inv non-finite, which the callers report in their terms
// (the backward op's zero spread, a training step's non-finite loss).
void norm_forward(const double* x, std::size_t n, std::size_t w, bool rms, double eps, const double* gamma,
                  const double* beta, double* y, double* xhat, double* inv) {
  const Group g = Group::rows(n, w);
  const Transform t{!rms, Denominator::SqrtPlusEps, eps};
  const Stats st = measure(x, g, rms ? Measure::MeanSquare : Measure::MeanVar);
  std::vector<double> denom(n);
  for (std::size_t r = 0; r < n; ++r) denom[r] = std::sqrt(st.spread[r] + eps);
  standardize(x, xhat, g, st, t, denom);
  for (std::size_t r = 0; r < n; ++r) {
    inv[r] = 1.0 / denom[r];
    for (std::size_t i = 0; i < w; ++i)
      y[r * w + i] = xhat[r * w + i] * (gamma ? gamma[i] : 1.0) + (beta ? beta[i] : 0.0);
  }
}

// dx += dL/dx; dgamma, dbeta += their gradients (when not null).
//   LayerNorm: dx = inv * (g - mean(g) - xhat * mean(g * xhat)),  g = dy * gamma
//   RMSNorm:   dx = inv * (g - xhat * mean(g * xhat))
void norm_backward(const double* dy, const double* xhat, const double* inv, std::size_t n, std::size_t w, bool rms,
                   const double* gamma, double* dx, double* dgamma, double* dbeta) {
  for (std::size_t r = 0; r < n; ++r) {
    const double *d = dy + r * w, *xh = xhat + r * w;
    double mg = 0, mgx = 0;
    for (std::size_t i = 0; i < w; ++i) {
      const double g = d[i] * (gamma ? gamma[i] : 1.0);
      mg += g, mgx += g * xh[i];
      if (dgamma) dgamma[i] += d[i] * xh[i];
      if (dbeta) dbeta[i] += d[i];
    }
    mg = rms ? 0.0 : mg / double(w), mgx /= double(w);
    for (std::size_t i = 0; i < w; ++i)
      dx[r * w + i] += inv[r] * (d[i] * (gamma ? gamma[i] : 1.0) - mg - xh[i] * mgx);
  }
}

std::vector<double> doubles(const Tensor& t) { return std::vector<double>(t.begin(), t.end()); }

Tensor floats(const std::vector<double>& v, Shape shape) {
  Tensor t = xt::empty<float>(shape);
  std::copy(v.begin(), v.end(), t.begin());
  return t;
}

// layer_norm_backward / rms_norm_backward: x and dy [..., D], weight [D].
void norm_backward_op(Call& c, bool rms) {
  const Tensor& x = c.in("x");
  c.expect_rank("x", x, 1);
  const Shape shape = shape_of(x);
  c.expect_shape("dy", c.in("dy"), shape, "the shape of x");
  const std::size_t w = shape.back(), n = w ? x.size() / w : 0;
  if (w == 0) c.fail(Msg("out_of_range", "x") << "x has no numbers along its last axis");
  std::vector<double> gamma;
  if (const Tensor* g = c.opt("weight")) {
    c.expect_shape("weight", *g, {w}, "the last axis of x");
    gamma = doubles(*g);
  }
  const double eps = c.num("eps");
  if (!(eps >= 0)) c.fail(Msg("out_of_range", "eps") << "eps must be at least 0 (got " << num_str(eps) << ")");
  c.check_work(double(x.size()) * 40, "the backward pass");
  const std::vector<double> xd = doubles(x), dy = doubles(c.in("dy"));
  std::vector<double> y(xd.size()), xhat(xd.size()), inv(n), dx(xd.size(), 0.0), dg(w, 0.0), db(w, 0.0);
  norm_forward(xd.data(), n, w, rms, eps, nullptr, nullptr, y.data(), xhat.data(), inv.data());
  for (std::size_t r = 0; r < n; ++r)
    if (!std::isfinite(inv[r]))
      c.fail(Msg("zero_spread", "eps") << "row " << std::to_string(r) << " has zero spread and eps is 0, so its gradient is undefined");
  norm_backward(dy.data(), xhat.data(), inv.data(), n, w, rms, gamma.empty() ? nullptr : gamma.data(), dx.data(),
                dg.data(), db.data());
  c.out("dx", floats(dx, shape));
  c.out("dweight", floats(dg, {w}));
  if (!rms) c.out("dbias", floats(db, {w}));
}

void layer_norm_backward(Call& c) { norm_backward_op(c, false); }
void rms_norm_backward(Call& c) { norm_backward_op(c, true); }

// ---- the network ---------------------------------------------------------

enum class Place { None, Post, Pre, PreFinal };
enum class Gate { None, Zero, LayerScale };

struct Model {
  std::size_t L = 0, W = 0;
  Place place = Place::Pre;
  bool rms = false;
  Gate gate = Gate::None;
  double eps = 1e-5;

  std::size_t per_block() const { return 2 * W * W + 5 * W; }
  std::size_t block(std::size_t l) const { return 3 * W + l * per_block(); }
  // within a block
  std::size_t w1() const { return 0; }
  std::size_t b1() const { return W * W; }
  std::size_t w2() const { return W * W + W; }
  std::size_t b2() const { return 2 * W * W + W; }
  std::size_t gamma() const { return 2 * W * W + 2 * W; }
  std::size_t beta() const { return 2 * W * W + 3 * W; }
  std::size_t gate_at() const { return 2 * W * W + 4 * W; }
  std::size_t final_norm() const { return block(L); }
  std::size_t head() const { return final_norm() + 2 * W; }
  std::size_t size() const { return head() + W * kClasses + kClasses; }
  bool pre() const { return place == Place::Pre || place == Place::PreFinal; }
  bool normed() const { return place != Place::None; }
};

Model model_of(const Call& c) {
  Model m;
  const long long depth = c.integer("depth"), width = c.integer("width");
  if (depth < 1 || depth > 64) c.fail(Msg("out_of_range", "depth") << "depth must be in [1, 64] (got " << std::to_string(depth) << ")");
  if (width < 2 || width > 64) c.fail(Msg("out_of_range", "width") << "width must be in [2, 64] (got " << std::to_string(width) << ")");
  m.L = std::size_t(depth), m.W = std::size_t(width);
  const std::string& p = c.str("placement");
  if (p == "none") m.place = Place::None;
  else if (p == "post") m.place = Place::Post;
  else if (p == "pre") m.place = Place::Pre;
  else if (p == "pre_final") m.place = Place::PreFinal;
  else c.fail(Msg("out_of_range", "placement") << "placement must be \"none\", \"post\", \"pre\" or \"pre_final\" (got \"" << p << "\")");
  const std::string& n = c.str("norm");
  if (n == "rms_norm") m.rms = true;
  else if (n != "layer_norm") c.fail(Msg("out_of_range", "norm") << "norm must be \"layer_norm\" or \"rms_norm\" (got \"" << n << "\")");
  const std::string& g = c.str("gate");
  if (g == "zero") m.gate = Gate::Zero;
  else if (g == "layer_scale") m.gate = Gate::LayerScale;
  else if (g != "none") c.fail(Msg("out_of_range", "gate") << "gate must be \"none\", \"zero\" or \"layer_scale\" (got \"" << g << "\")");
  m.eps = c.num("eps");
  if (!(m.eps > 0) || m.eps > 1) c.fail(Msg("out_of_range", "eps") << "eps must be in (0, 1] (got " << num_str(m.eps) << ")");
  return m;
}

// tanh from exp, which the module has anyway (std::tanh would add its own
// code): 1 - 2 / (e^2z + 1), within 1e-16 of tanh absolutely.
double tanh_of(double z) { return 1 - 2 / (std::exp(2 * z) + 1); }

// y [n, m] = x [n, k] W [k, m] (+ b [m]); accumulate when `add`.
void affine(const double* x, const double* w, const double* b, double* y, std::size_t n, std::size_t k, std::size_t m,
            bool add = false) {
  for (std::size_t r = 0; r < n; ++r) {
    double* yr = y + r * m;
    if (!add)
      for (std::size_t j = 0; j < m; ++j) yr[j] = b ? b[j] : 0.0;
    for (std::size_t i = 0; i < k; ++i) {
      const double xv = x[r * k + i];
      const double* wr = w + i * m;
      for (std::size_t j = 0; j < m; ++j) yr[j] += xv * wr[j];
    }
  }
}

// Given dy [n, m] of y = x W + b: dW += x^T dy, db += sum dy, dx = dy W^T (when dx).
void affine_backward(const double* x, const double* w, const double* dy, double* dw, double* db, double* dx,
                     std::size_t n, std::size_t k, std::size_t m) {
  for (std::size_t r = 0; r < n; ++r) {
    const double* d = dy + r * m;
    for (std::size_t i = 0; i < k; ++i) {
      const double xv = x[r * k + i];
      double* dwr = dw + i * m;
      const double* wr = w + i * m;
      double s = 0;
      for (std::size_t j = 0; j < m; ++j) dwr[j] += xv * d[j], s += d[j] * wr[j];
      if (dx) dx[r * k + i] = s;
    }
    if (db)
      for (std::size_t j = 0; j < m; ++j) db[j] += d[j];
  }
}

// Everything one forward pass keeps for the backward pass.
struct Pass {
  std::size_t N = 0;
  std::vector<double> h;           // [L + 1, N, W]: the residual stream at each block's input, and the last
  std::vector<double> u, uhat;     // [L, N, W]: the branch input (Norm(h) for pre, else h) and its xhat
  std::vector<double> a1, f;       // [L, N, W]: tanh(u W1 + b1) and F(u)
  std::vector<double> rhat;        // [L, N, W]: post: xhat of h + a F
  std::vector<double> inv;         // [L, N]: the norm's 1 / denominator
  std::vector<double> z, zhat, zinv, p;  // the head's input [N, W], its xhat and inv, probabilities [N, 2]
  double loss = 0, accuracy = 0;
};

double forward(const Model& m, const double* P, const double* x, const double* labels, std::size_t N, Pass& s,
               bool keep = true) {
  const std::size_t W = m.W, L = m.L, NW = N * W;
  s.N = N;
  s.h.assign((L + 1) * NW, 0.0);
  if (keep) {
    s.u.assign(L * NW, 0.0), s.uhat.assign(m.pre() ? L * NW : 0, 0.0), s.a1.assign(L * NW, 0.0), s.f.assign(L * NW, 0.0);
    s.rhat.assign(m.place == Place::Post ? L * NW : 0, 0.0), s.inv.assign(L * N, 0.0);
  } else {
    s.u.assign(NW, 0.0), s.uhat.assign(NW, 0.0), s.a1.assign(NW, 0.0), s.f.assign(NW, 0.0), s.rhat.assign(NW, 0.0);
    s.inv.assign(N, 0.0);
  }
  affine(x, P, P + 2 * W, s.h.data(), N, 2, W);
  for (std::size_t l = 0; l < L; ++l) {
    const double* B = P + m.block(l);
    const std::size_t at = keep ? l * NW : 0, iat = keep ? l * N : 0;
    const double* h = s.h.data() + l * NW;
    double* hn = s.h.data() + (l + 1) * NW;
    double *u = s.u.data() + at, *a1 = s.a1.data() + at, *f = s.f.data() + at;
    if (m.pre())
      norm_forward(h, N, W, m.rms, m.eps, B + m.gamma(), m.rms ? nullptr : B + m.beta(), u, s.uhat.data() + at,
                   s.inv.data() + iat);
    else
      std::copy(h, h + NW, u);
    affine(u, B + m.w1(), B + m.b1(), a1, N, W, W);
    for (std::size_t i = 0; i < NW; ++i) a1[i] = tanh_of(a1[i]);
    affine(a1, B + m.w2(), B + m.b2(), f, N, W, W);
    const double* g = B + m.gate_at();
    for (std::size_t r = 0; r < N; ++r)
      for (std::size_t i = 0; i < W; ++i) hn[r * W + i] = h[r * W + i] + (m.gate == Gate::None ? 1.0 : g[i]) * f[r * W + i];
    if (m.place == Place::Post) {
      std::vector<double> res(hn, hn + NW);
      norm_forward(res.data(), N, W, m.rms, m.eps, B + m.gamma(), m.rms ? nullptr : B + m.beta(), hn,
                   s.rhat.data() + at, s.inv.data() + iat);
    }
  }
  const double* top = s.h.data() + L * NW;
  s.z.assign(top, top + NW);
  if (m.place == Place::PreFinal) {
    s.zhat.assign(NW, 0.0), s.zinv.assign(N, 0.0);
    const double* F = P + m.final_norm();
    norm_forward(top, N, W, m.rms, m.eps, F, m.rms ? nullptr : F + W, s.z.data(), s.zhat.data(), s.zinv.data());
  }
  s.p.assign(N * kClasses, 0.0);
  affine(s.z.data(), P + m.head(), P + m.head() + W * kClasses, s.p.data(), N, W, kClasses);
  double loss = 0, right = 0;
  for (std::size_t r = 0; r < N; ++r) {
    double* pr = s.p.data() + r * kClasses;
    const double top_logit = std::max(pr[0], pr[1]);
    const double e0 = std::exp(pr[0] - top_logit), e1 = std::exp(pr[1] - top_logit), sum = e0 + e1;
    const std::size_t y = labels ? std::size_t(labels[r]) : 0;
    loss += std::log(sum) + top_logit - pr[y];
    right += (pr[1] > pr[0]) == (y == 1);
    pr[0] = e0 / sum, pr[1] = e1 / sum;
  }
  s.loss = loss / double(N), s.accuracy = right / double(N);
  return s.loss;
}

// The gradient of the loss for every parameter; dnorm[l]: the Frobenius norm
// of dL/dh_l, the gradient reaching the residual stream at block l's input
// (l = 0..L).
void backward(const Model& m, const double* P, const double* x, const double* labels, const Pass& s, double* G,
              double* dnorm) {
  const std::size_t W = m.W, L = m.L, N = s.N, NW = N * W;
  std::fill(G, G + m.size(), 0.0);
  std::vector<double> dlogit(N * kClasses), dz(NW, 0.0), dh(NW, 0.0), dr(NW), df(NW), da1(NW), du(NW);
  for (std::size_t r = 0; r < N; ++r)
    for (std::size_t k = 0; k < kClasses; ++k)
      dlogit[r * kClasses + k] = (s.p[r * kClasses + k] - (std::size_t(labels[r]) == k)) / double(N);
  affine_backward(s.z.data(), P + m.head(), dlogit.data(), G + m.head(), G + m.head() + W * kClasses, dz.data(), N, W,
                  kClasses);
  if (m.place == Place::PreFinal) {
    const double* F = P + m.final_norm();
    norm_backward(dz.data(), s.zhat.data(), s.zinv.data(), N, W, m.rms, F, dh.data(), G + m.final_norm(),
                  m.rms ? nullptr : G + m.final_norm() + W);
  } else {
    dh = dz;
  }
  auto frob = [&](const std::vector<double>& v) {
    double q = 0;
    for (double e : v) q += e * e;
    return std::sqrt(q);
  };
  dnorm[L] = frob(dh);
  for (std::size_t l = L; l-- > 0;) {
    const double* B = P + m.block(l);
    double* GB = G + m.block(l);
    const std::size_t at = l * NW;
    if (m.place == Place::Post) {
      std::fill(dr.begin(), dr.end(), 0.0);
      norm_backward(dh.data(), s.rhat.data() + at, s.inv.data() + l * N, N, W, m.rms, B + m.gamma(), dr.data(),
                    GB + m.gamma(), m.rms ? nullptr : GB + m.beta());
    } else {
      dr = dh;
    }
    const double* g = B + m.gate_at();
    const double* f = s.f.data() + at;
    for (std::size_t r = 0; r < N; ++r)
      for (std::size_t i = 0; i < W; ++i) {
        df[r * W + i] = dr[r * W + i] * (m.gate == Gate::None ? 1.0 : g[i]);
        if (m.gate != Gate::None) GB[m.gate_at() + i] += dr[r * W + i] * f[r * W + i];
      }
    const double* a1 = s.a1.data() + at;
    affine_backward(a1, B + m.w2(), df.data(), GB + m.w2(), GB + m.b2(), da1.data(), N, W, W);
    for (std::size_t i = 0; i < NW; ++i) da1[i] *= 1 - a1[i] * a1[i];
    affine_backward(s.u.data() + at, B + m.w1(), da1.data(), GB + m.w1(), GB + m.b1(), du.data(), N, W, W);
    dh = dr;  // the identity path
    if (m.pre())
      norm_backward(du.data(), s.uhat.data() + at, s.inv.data() + l * N, N, W, m.rms, B + m.gamma(), dh.data(),
                    GB + m.gamma(), m.rms ? nullptr : GB + m.beta());
    else
      for (std::size_t i = 0; i < NW; ++i) dh[i] += du[i];
    dnorm[l] = frob(dh);
  }
  affine_backward(x, P, dh.data(), G, G + 2 * W, nullptr, N, 2, W);
}

// ---- the ops -------------------------------------------------------------

struct Data {
  std::vector<double> x, labels;
  std::size_t N = 0;
};

Data data_of(const Call& c) {
  Data d;
  const Tensor &x = c.in("x"), &y = c.in("labels");
  c.expect_rank("x", x, 2, 2);
  if (x.shape()[1] != 2) c.fail(Msg("shape_mismatch", "x") << "x must have shape [N, 2] (points in the plane) but has shape " << shape_str(shape_of(x)));
  d.N = x.shape()[0];
  if (d.N == 0) c.fail(Msg("out_of_range", "x") << "x has no points");
  c.expect_shape("labels", y, {d.N}, "the number of points in x");
  for (std::size_t i = 0; i < d.N; ++i)
    if (y(i) != 0 && y(i) != 1) c.fail(Msg("out_of_range", "labels") << "labels must be 0 or 1 (got " << num_str(y(i)) << " at index " << std::to_string(i) << ")");
  d.x = doubles(x), d.labels = doubles(y);
  return d;
}

std::vector<double> params_of(const Call& c, const Model& m) {
  const Tensor& p = c.in("params");
  c.expect_shape("params", p, {m.size()}, "the model's parameter count (" + std::to_string(m.size()) + ")");
  return doubles(p);
}

// Multiply-adds of one forward and backward pass, weighted like the other ops' limits.
double step_work(const Model& m, std::size_t N) { return 24.0 * double(N) * double(m.L) * double(m.W) * double(m.W + 8); }

void check_memory(const Call& c, const Model& m, std::size_t N) {
  if (double(m.L + 1) * double(N) * double(m.W) > 262144.0)
    c.fail(Msg("too_large", "x") << "depth x points x width is " << num_str(double(m.L) * double(N) * double(m.W))
                                 << "; at most 262144 activations are kept for the backward pass");
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
  if (steps < 1 || steps > 100000) c.fail(Msg("out_of_range", "steps") << "steps must be in [1, 100000] (got " << std::to_string(steps) << ")");
  c.check_work(double(steps) * step_work(m, d.N), std::to_string(steps) + " forward and backward passes");
  const std::string& opt = c.str("optimizer");
  const bool adam = opt == "adam";
  if (!adam && opt != "sgd") c.fail(Msg("out_of_range", "optimizer") << "optimizer must be \"sgd\" or \"adam\" (got \"" << opt << "\")");
  const double lr = c.num("lr"), mom = c.num("momentum"), b1 = c.num("beta1"), b2 = c.num("beta2"),
               clip = c.num("clip"), warmup = c.num("warmup");
  if (!(lr >= 0) || lr > 100) c.fail(Msg("out_of_range", "lr") << "lr must be in [0, 100] (got " << num_str(lr) << ")");
  if (!(mom >= 0 && mom < 1)) c.fail(Msg("out_of_range", "momentum") << "momentum must be in [0, 1) (got " << num_str(mom) << ")");
  if (!(b1 >= 0 && b1 < 1)) c.fail(Msg("out_of_range", "beta1") << "beta1 must be in [0, 1) (got " << num_str(b1) << ")");
  if (!(b2 >= 0 && b2 < 1)) c.fail(Msg("out_of_range", "beta2") << "beta2 must be in [0, 1) (got " << num_str(b2) << ")");
  if (!(clip >= 0)) c.fail(Msg("out_of_range", "clip") << "clip must be at least 0, 0 for no clipping (got " << num_str(clip) << ")");
  if (!(warmup >= 0 && warmup <= 1e6)) c.fail(Msg("out_of_range", "warmup") << "warmup must be in [0, 1e6] steps (got " << num_str(warmup) << ")");
  std::vector<double> P = params_of(c, m);
  const std::size_t n = m.size();
  const Tensor& st = c.in("state");
  c.expect_shape("state", st, {2 * n + 1}, "2 x the parameter count + 1");
  std::vector<double> S = doubles(st);
  const double t0 = S[2 * n];
  if (!(t0 >= 0 && t0 <= 1e9 && t0 == std::floor(t0))) c.fail(Msg("out_of_range", "state") << "state's last number counts steps taken and must be a whole number in [0, 1e9] (got " << num_str(t0) << ")");

  Pass s;
  std::vector<double> G(n), dnorm(m.L + 1), losses, next(n);
  long long status = 0;
  double accuracy = 0;
  for (long long k = 0; k < steps; ++k) {
    forward(m, P.data(), d.x.data(), d.labels.data(), d.N, s);
    if (!(s.loss < 1e30)) { status = 1; break; }
    backward(m, P.data(), d.x.data(), d.labels.data(), s, G.data(), dnorm.data());
    double total = 0;
    for (double g : G) total += g * g;
    total = std::sqrt(total);
    if (!std::isfinite(total)) { status = 1; break; }
    if (clip > 0 && total > clip)
      for (double& g : G) g *= clip / (total + 1e-6);
    const double t = S[2 * n] + 1;
    const double rate = lr * (warmup > 0 ? std::min(1.0, t / warmup) : 1.0);
    const double c1 = 1 - std::pow(b1, t), c2 = 1 - std::pow(b2, t);  // Adam's bias corrections
    bool ok = true;
    for (std::size_t i = 0; i < n; ++i) {
      double& m1 = S[i];
      double step;
      if (adam) {
        double& m2 = S[n + i];
        m1 = b1 * m1 + (1 - b1) * G[i];
        m2 = b2 * m2 + (1 - b2) * G[i] * G[i];
        step = rate * (m1 / c1) / (std::sqrt(m2 / c2) + 1e-8);
      } else {
        m1 = mom * m1 + G[i];
        step = rate * m1;
      }
      next[i] = P[i] - step;
      ok = ok && std::fabs(next[i]) < 1e30;
    }
    if (!ok) { status = 1; break; }
    // Parameters and moments are kept in float32 between steps, as the
    // tensors that carry them between calls are: a run split into calls of
    // any size takes exactly the same steps.
    for (std::size_t i = 0; i < n; ++i) next[i] = float(next[i]), S[i] = float(S[i]), S[n + i] = float(S[n + i]);
    P.swap(next);
    S[2 * n] = t;
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
  if (pts.shape()[1] != 2) c.fail(Msg("shape_mismatch", "points") << "points must have shape [M, 2] but has shape " << shape_str(shape_of(pts)));
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
  if (count < 4 || count > 4096 || count % 2) c.fail(Msg("out_of_range", "count") << "count must be even and in [4, 4096] (got " << std::to_string(count) << ")");
  const double turns = c.num("turns"), noise = c.num("noise");
  if (!(turns >= 0 && turns <= 4)) c.fail(Msg("out_of_range", "turns") << "turns must be in [0, 4] (got " << num_str(turns) << ")");
  if (!(noise >= 0 && noise <= 1)) c.fail(Msg("out_of_range", "noise") << "noise must be in [0, 1] (got " << num_str(noise) << ")");
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

#define NORMLAB_MODEL_ATTRS                                                                              \
  {"depth", Int, {}}, {"width", Int, Default(16.0)}, {"placement", Str, Default("pre")},                \
      {"norm", Str, Default("layer_norm")}, {"gate", Str, Default("none")}, {"eps", Num, Default(1e-5)}

}  // namespace

void register_training_ops(Registry& r) {
  static constexpr OpSpec ops[] = {
    {"layer_norm_backward", {{"x"}, {"dy"}, {"weight", true}}, {{"eps", Num, Default(1e-5)}},
            {"dx", "dweight", "dbias"}, layer_norm_backward},
    {"rms_norm_backward", {{"x"}, {"dy"}, {"weight", true}}, {{"eps", Num, Default(1e-6)}},
            {"dx", "dweight"}, rms_norm_backward},
    {"train_init", {}, {NORMLAB_MODEL_ATTRS, {"seed", Int, Default(0.0)}}, {"params", "state"}, train_init},
    {"train_data", {}, {{"count", Int, Default(256.0)}, {"turns", Num, Default(1.0)}, {"noise", Num, Default(0.05)},
             {"seed", Int, Default(0.0)}}, {"x", "labels"}, train_data},
    {"train_grad", {{"params"}, {"x"}, {"labels"}}, {NORMLAB_MODEL_ATTRS}, {"loss", "grad", "act_norm", "grad_norm"},
            train_grad},
    {"train_step", {{"params"}, {"state"}, {"x"}, {"labels"}},
            {NORMLAB_MODEL_ATTRS, {"steps", Int, Default(1.0)}, {"optimizer", Str, Default("adam")},
             {"lr", Num, Default(0.01)}, {"momentum", Num, Default(0.9)}, {"beta1", Num, Default(0.9)},
             {"beta2", Num, Default(0.999)}, {"clip", Num, Default(0.0)}, {"warmup", Num, Default(0.0)}},
            {"params", "state", "loss", "accuracy", "act_norm", "grad_norm", "status"}, train_step},
    {"train_predict", {{"params"}, {"points"}}, {NORMLAB_MODEL_ATTRS}, {"p"}, train_predict},
  };
  enter(r, ops);
}

}  // namespace normlab
