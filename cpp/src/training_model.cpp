// The depth figure's network (training.hpp): LayerNorm / RMSNorm forward and
// backward on rows, the forward pass and the backward pass by hand.
#include <algorithm>
#include <cmath>

#include "normlab/engine.hpp"
#include "normlab/training.hpp"

namespace normlab {
namespace training {

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
    for (std::size_t i = 0; i < w; ++i) dx[r * w + i] += inv[r] * (d[i] * (gamma ? gamma[i] : 1.0) - mg - xh[i] * mgx);
  }
}

namespace {

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

}  // namespace

double forward(const Model& m, const double* P, const double* x, const double* labels, std::size_t N, Pass& s,
               bool keep) {
  const std::size_t W = m.W, L = m.L, NW = N * W;
  s.N = N;
  s.h.assign((L + 1) * NW, 0.0);
  if (keep) {
    s.u.assign(L * NW, 0.0), s.uhat.assign(m.pre() ? L * NW : 0, 0.0), s.a1.assign(L * NW, 0.0),
        s.f.assign(L * NW, 0.0);
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
      for (std::size_t i = 0; i < W; ++i)
        hn[r * W + i] = h[r * W + i] + (m.gate == Gate::None ? 1.0 : g[i]) * f[r * W + i];
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
}  // namespace training
}  // namespace normlab
