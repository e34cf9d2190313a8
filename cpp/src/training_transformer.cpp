// The small causal transformer of training_transformer.hpp: forward pass,
// backward pass by hand, AdamW with warm-up and cosine decay. In double.
#include "normlab/training_transformer.hpp"

#include <algorithm>
#include <cmath>

#include "normlab/training.hpp"

namespace normlab {
namespace training {

namespace {

// C [n, m] (+)= A [n, k] B [k, m]
void mm(const double* A, const double* B, double* C, std::size_t n, std::size_t k, std::size_t m, bool add) {
  if (!add) std::fill(C, C + n * m, 0.0);
  for (std::size_t r = 0; r < n; ++r) {
    double* c = C + r * m;
    for (std::size_t i = 0; i < k; ++i) {
      const double a = A[r * k + i];
      const double* b = B + i * m;
      for (std::size_t j = 0; j < m; ++j) c[j] += a * b[j];
    }
  }
}

// C [n, m] += A [n, k] B^T, B [m, k]
void mm_bt(const double* A, const double* B, double* C, std::size_t n, std::size_t k, std::size_t m) {
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t j = 0; j < m; ++j) {
      const double *a = A + r * k, *b = B + j * k;
      double s = 0;
      for (std::size_t i = 0; i < k; ++i) s += a[i] * b[i];
      C[r * m + j] += s;
    }
}

// C [k, m] += A^T B, A [n, k], B [n, m]
void mm_at(const double* A, const double* B, double* C, std::size_t n, std::size_t k, std::size_t m) {
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t i = 0; i < k; ++i) {
      const double a = A[r * k + i];
      if (a == 0) continue;
      const double* b = B + r * m;
      double* c = C + i * m;
      for (std::size_t j = 0; j < m; ++j) c[j] += a * b[j];
    }
}

constexpr double kSqrt1_2 = 0.70710678118654752440, kInvSqrt2Pi = 0.39894228040143267794;

double act(bool relu, double x) { return relu ? (x > 0 ? x : 0.0) : 0.5 * x * (1 + std::erf(x * kSqrt1_2)); }
double act_grad(bool relu, double x) {
  if (relu) return x > 0 ? 1.0 : 0.0;
  return 0.5 * (1 + std::erf(x * kSqrt1_2)) + x * kInvSqrt2Pi * std::exp(-0.5 * x * x);
}

double score_scale(const Tfm& m, const double* blockP) {
  if (m.qk == QkNorm::L2) return blockP[m.g()] / double(m.hd());  // g (q/|q|).(k/|k|) with rms-normalized q, k
  return 1.0 / std::sqrt(double(m.hd()));
}

}  // namespace

double Tfm::g0() const { return S >= 2 ? std::log2(double(S) * double(S) - double(S)) : 1.0; }

double Tfm::memory(std::size_t B, std::size_t T) const {
  const double N = double(B) * double(T);
  return double(L) * (N * (17.0 * double(D) + 2.0 * double(F()) + 2.0 * double(H) + 2) +
                      double(B) * double(H) * double(T) * double(T)) +
         N * (3.0 * double(D) + 2.0 * double(V) + 2);
}

double Tfm::work(std::size_t B, std::size_t T) const {
  const double N = double(B) * double(T);
  const double per = N * (4.0 * D * D + 2.0 * D * F() + 30.0 * D) + 2.0 * double(B) * T * T * D;
  // forward and backward: 3 forward passes of multiply-adds, each weighted 2 (about a second at the limit)
  return 6.0 * (double(L) * per + N * double(D) * double(V) * 2 + N * double(V) * 10);
}

double tfm_forward(const Tfm& m, const double* P, const double* tokens, const double* targets, std::size_t B,
                   std::size_t T, TfmPass& s) {
  const std::size_t D = m.D, H = m.H, hd = m.hd(), F = m.F(), V = m.V, N = B * T;
  s.B = B, s.T = T;
  s.blocks.resize(m.L);
  s.act_rms.assign(m.L, 0.0);
  std::vector<double> h(N * D), att(N * D), mlp(N * D);
  for (std::size_t n = 0; n < N; ++n) {
    const std::size_t tok = std::size_t(tokens[n]), t = n % T;
    for (std::size_t i = 0; i < D; ++i) h[n * D + i] = P[tok * D + i] + P[(V + t) * D + i];
  }
  for (std::size_t l = 0; l < m.L; ++l) {
    TfmBlock& b = s.blocks[l];
    const double* W = P + m.block(l);
    b.h = h;
    b.n1hat.resize(N * D), b.n1inv.resize(N), b.n2hat.resize(N * D), b.n2inv.resize(N);
    // attention input
    if (m.post)
      b.u1 = h;
    else {
      b.u1.resize(N * D);
      norm_forward(h.data(), N, D, m.rms, m.eps, W + m.n1(), m.rms ? nullptr : W + m.n1() + D, b.u1.data(),
                   b.n1hat.data(), b.n1inv.data());
    }
    b.q.resize(N * D), b.k.resize(N * D), b.v.resize(N * D);
    mm(b.u1.data(), W + m.wq(), b.q.data(), N, D, D, false);
    mm(b.u1.data(), W + m.wk(), b.k.data(), N, D, D, false);
    mm(b.u1.data(), W + m.wv(), b.v.data(), N, D, D, false);
    if (m.qk == QkNorm::None) {
      b.qn = b.q, b.kn = b.k;
    } else {
      const bool rms = m.qk != QkNorm::Layer, affine = m.qk != QkNorm::L2;
      b.qh.resize(N * D), b.kh.resize(N * D), b.qinv.resize(N * H), b.kinv.resize(N * H);
      b.qn.resize(N * D), b.kn.resize(N * D);
      const double* qg = W + m.qn();
      norm_forward(b.q.data(), N * H, hd, rms, m.eps, affine ? qg : nullptr, affine && !rms ? qg + hd : nullptr,
                   b.qn.data(), b.qh.data(), b.qinv.data());
      norm_forward(b.k.data(), N * H, hd, rms, m.eps, affine ? qg + 2 * hd : nullptr,
                   affine && !rms ? qg + 3 * hd : nullptr, b.kn.data(), b.kh.data(), b.kinv.data());
    }
    const double scale = score_scale(m, W);
    b.p.assign(B * H * T * T, 0.0);
    b.ctx.assign(N * D, 0.0);
    double maxl = 0, ent = 0;
    std::vector<double> row(T);
    for (std::size_t bb = 0; bb < B; ++bb)
      for (std::size_t hh = 0; hh < H; ++hh)
        for (std::size_t i = 0; i < T; ++i) {
          const double* qi = b.qn.data() + (bb * T + i) * D + hh * hd;
          double mx = -1e300;
          for (std::size_t j = 0; j <= i; ++j) {
            const double* kj = b.kn.data() + (bb * T + j) * D + hh * hd;
            double dot = 0;
            for (std::size_t e = 0; e < hd; ++e) dot += qi[e] * kj[e];
            row[j] = scale * dot;
            mx = std::max(mx, row[j]);
            maxl = std::max(maxl, std::fabs(row[j]));
          }
          double sum = 0;
          for (std::size_t j = 0; j <= i; ++j) sum += (row[j] = std::exp(row[j] - mx));
          double* pr = b.p.data() + ((bb * H + hh) * T + i) * T;
          double* ci = b.ctx.data() + (bb * T + i) * D + hh * hd;
          for (std::size_t j = 0; j <= i; ++j) {
            const double pj = row[j] / sum;
            pr[j] = pj;
            if (pj > 0) ent -= pj * std::log(pj);
            const double* vj = b.v.data() + (bb * T + j) * D + hh * hd;
            for (std::size_t e = 0; e < hd; ++e) ci[e] += pj * vj[e];
          }
        }
    b.max_logit = maxl, b.entropy = ent / double(B * H * T);
    mm(b.ctx.data(), W + m.wo(), att.data(), N, D, D, false);
    b.mid.resize(N * D);
    for (std::size_t i = 0; i < N * D; ++i) b.mid[i] = h[i] + att[i];
    if (m.post) {
      std::vector<double> r = b.mid;
      norm_forward(r.data(), N, D, m.rms, m.eps, W + m.n1(), m.rms ? nullptr : W + m.n1() + D, b.mid.data(),
                   b.n1hat.data(), b.n1inv.data());
      b.u2 = b.mid;
    } else {
      b.u2.resize(N * D);
      norm_forward(b.mid.data(), N, D, m.rms, m.eps, W + m.n2(), m.rms ? nullptr : W + m.n2() + D, b.u2.data(),
                   b.n2hat.data(), b.n2inv.data());
    }
    b.f1.resize(N * F), b.a1.resize(N * F);
    mm(b.u2.data(), W + m.w1(), b.f1.data(), N, D, F, false);
    for (std::size_t i = 0; i < N * F; ++i) b.a1[i] = act(m.relu, b.f1[i]);
    mm(b.a1.data(), W + m.w2(), mlp.data(), N, F, D, false);
    for (std::size_t i = 0; i < N * D; ++i) h[i] = b.mid[i] + mlp[i];
    if (m.post) {
      std::vector<double> r = h;
      norm_forward(r.data(), N, D, m.rms, m.eps, W + m.n2(), m.rms ? nullptr : W + m.n2() + D, h.data(), b.n2hat.data(),
                   b.n2inv.data());
    }
    double q = 0;
    for (double x : h) q += (x / 1e30) * (x / 1e30);
    s.act_rms[l] = 1e30 * std::sqrt(q / double(N * D));
  }
  s.hL = h;
  s.nfhat.resize(N * D), s.nfinv.resize(N);
  if (m.final_norm) {
    s.z.resize(N * D);
    norm_forward(h.data(), N, D, m.rms, m.eps, P + m.nf(), m.rms ? nullptr : P + m.nf() + D, s.z.data(), s.nfhat.data(),
                 s.nfinv.data());
  } else {
    s.z = h;
  }
  s.logits.assign(N * V, 0.0);
  if (m.tied)
    mm_bt(s.z.data(), P, s.logits.data(), N, D, V);
  else
    mm(s.z.data(), P + m.head(), s.logits.data(), N, D, V, false);
  s.lse.resize(N);
  double loss = 0, zl = 0, lm = 0;
  for (std::size_t n = 0; n < N; ++n) {
    const double* lg = s.logits.data() + n * V;
    double mx = -1e300;
    for (std::size_t v = 0; v < V; ++v) mx = std::max(mx, lg[v]), lm += lg[v];
    double sum = 0;
    for (std::size_t v = 0; v < V; ++v) sum += std::exp(lg[v] - mx);
    s.lse[n] = mx + std::log(sum);
    if (targets) loss += s.lse[n] - lg[std::size_t(targets[n])], zl += s.lse[n] * s.lse[n];
  }
  s.logit_mean = lm / double(N * V);
  s.loss = targets ? (loss + m.z_loss * zl) / double(N) : 0.0;
  return s.loss;
}

void tfm_backward(const Tfm& m, const double* P, const double* tokens, const double* targets, const TfmPass& s,
                  double* G) {
  const std::size_t D = m.D, H = m.H, hd = m.hd(), F = m.F(), V = m.V, B = s.B, T = s.T, N = B * T;
  std::fill(G, G + m.size(), 0.0);
  // the head
  std::vector<double> dlog(N * V);
  for (std::size_t n = 0; n < N; ++n) {
    const double* lg = s.logits.data() + n * V;
    const double c = (1 + 2 * m.z_loss * s.lse[n]) / double(N);
    for (std::size_t v = 0; v < V; ++v) dlog[n * V + v] = c * std::exp(lg[v] - s.lse[n]);
    dlog[n * V + std::size_t(targets[n])] -= 1.0 / double(N);
  }
  std::vector<double> dz(N * D, 0.0), dh(N * D, 0.0);
  if (m.tied) {
    mm(dlog.data(), P, dz.data(), N, V, D, true);  // dz = dlog E
    mm_at(dlog.data(), s.z.data(), G, N, V, D);    // dE += dlog^T z
  } else {
    mm_bt(dlog.data(), P + m.head(), dz.data(), N, V, D);  // dz = dlog Wh^T
    mm_at(s.z.data(), dlog.data(), G + m.head(), N, D, V);
  }
  if (m.final_norm)
    norm_backward(dz.data(), s.nfhat.data(), s.nfinv.data(), N, D, m.rms, P + m.nf(), dh.data(), G + m.nf(),
                  m.rms ? nullptr : G + m.nf() + D);
  else
    dh = dz;
  std::vector<double> dmid(N * D), du(N * D), da(N * F), dctx(N * D), dq(N * D), dk(N * D), dv(N * D), dqn(N * D),
      dkn(N * D), drow(T);
  for (std::size_t l = m.L; l-- > 0;) {
    const TfmBlock& b = s.blocks[l];
    const double* W = P + m.block(l);
    double* GW = G + m.block(l);
    // ---- MLP: h = mid + MLP(u2) (pre), or N2(mid + MLP(mid)) (post)
    std::fill(dmid.begin(), dmid.end(), 0.0);
    if (m.post)
      norm_backward(dh.data(), b.n2hat.data(), b.n2inv.data(), N, D, m.rms, W + m.n2(), dmid.data(), GW + m.n2(),
                    m.rms ? nullptr : GW + m.n2() + D);
    else
      dmid = dh;
    const std::vector<double>& dm = dmid;  // the gradient at the MLP's output
    mm_at(b.a1.data(), dm.data(), GW + m.w2(), N, F, D);
    std::fill(da.begin(), da.end(), 0.0);
    mm_bt(dm.data(), W + m.w2(), da.data(), N, D, F);
    for (std::size_t i = 0; i < N * F; ++i) da[i] *= act_grad(m.relu, b.f1[i]);
    mm_at(b.u2.data(), da.data(), GW + m.w1(), N, D, F);
    std::fill(du.begin(), du.end(), 0.0);
    mm_bt(da.data(), W + m.w1(), du.data(), N, F, D);
    if (m.post)
      for (std::size_t i = 0; i < N * D; ++i) dmid[i] += du[i];
    else
      norm_backward(du.data(), b.n2hat.data(), b.n2inv.data(), N, D, m.rms, W + m.n2(), dmid.data(), GW + m.n2(),
                    m.rms ? nullptr : GW + m.n2() + D);
    // ---- attention: mid = h + Attn(u1) (pre), or N1(h + Attn(h)) (post)
    if (m.post) {
      std::fill(dh.begin(), dh.end(), 0.0);
      norm_backward(dmid.data(), b.n1hat.data(), b.n1inv.data(), N, D, m.rms, W + m.n1(), dh.data(), GW + m.n1(),
                    m.rms ? nullptr : GW + m.n1() + D);
    } else {
      dh = dmid;
    }
    const std::vector<double>& datt = dh;  // the residual sum's gradient is the attention output's
    mm_at(b.ctx.data(), datt.data(), GW + m.wo(), N, D, D);
    std::fill(dctx.begin(), dctx.end(), 0.0);
    mm_bt(datt.data(), W + m.wo(), dctx.data(), N, D, D);
    std::fill(dqn.begin(), dqn.end(), 0.0);
    std::fill(dkn.begin(), dkn.end(), 0.0);
    std::fill(dv.begin(), dv.end(), 0.0);
    const double scale = score_scale(m, W);
    double dscale = 0;
    for (std::size_t bb = 0; bb < B; ++bb)
      for (std::size_t hh = 0; hh < H; ++hh)
        for (std::size_t i = 0; i < T; ++i) {
          const double* pr = b.p.data() + ((bb * H + hh) * T + i) * T;
          const double* dci = dctx.data() + (bb * T + i) * D + hh * hd;
          double dot_pd = 0;
          for (std::size_t j = 0; j <= i; ++j) {
            const double* vj = b.v.data() + (bb * T + j) * D + hh * hd;
            double* dvj = dv.data() + (bb * T + j) * D + hh * hd;
            double d = 0;
            for (std::size_t e = 0; e < hd; ++e) d += dci[e] * vj[e], dvj[e] += pr[j] * dci[e];
            drow[j] = d;
            dot_pd += pr[j] * d;
          }
          const double* qi = b.qn.data() + (bb * T + i) * D + hh * hd;
          double* dqi = dqn.data() + (bb * T + i) * D + hh * hd;
          for (std::size_t j = 0; j <= i; ++j) {
            const double ds = pr[j] * (drow[j] - dot_pd);  // dL/ds_ij
            if (ds == 0) continue;
            const double* kj = b.kn.data() + (bb * T + j) * D + hh * hd;
            double* dkj = dkn.data() + (bb * T + j) * D + hh * hd;
            double dot = 0;
            for (std::size_t e = 0; e < hd; ++e) {
              dot += qi[e] * kj[e];
              dqi[e] += scale * ds * kj[e];
              dkj[e] += scale * ds * qi[e];
            }
            dscale += ds * dot;
          }
        }
    if (m.qk == QkNorm::None) {
      dq = dqn, dk = dkn;
    } else {
      const bool rms = m.qk != QkNorm::Layer, affine = m.qk != QkNorm::L2;
      std::fill(dq.begin(), dq.end(), 0.0);
      std::fill(dk.begin(), dk.end(), 0.0);
      const double* qg = W + m.qn();
      double* gq = GW + m.qn();
      norm_backward(dqn.data(), b.qh.data(), b.qinv.data(), N * H, hd, rms, affine ? qg : nullptr, dq.data(),
                    affine ? gq : nullptr, affine && !rms ? gq + hd : nullptr);
      norm_backward(dkn.data(), b.kh.data(), b.kinv.data(), N * H, hd, rms, affine ? qg + 2 * hd : nullptr, dk.data(),
                    affine ? gq + 2 * hd : nullptr, affine && !rms ? gq + 3 * hd : nullptr);
      if (m.qk == QkNorm::L2) GW[m.g()] += dscale / double(hd);
    }
    mm_at(b.u1.data(), dq.data(), GW + m.wq(), N, D, D);
    mm_at(b.u1.data(), dk.data(), GW + m.wk(), N, D, D);
    mm_at(b.u1.data(), dv.data(), GW + m.wv(), N, D, D);
    std::fill(du.begin(), du.end(), 0.0);
    mm_bt(dq.data(), W + m.wq(), du.data(), N, D, D);
    mm_bt(dk.data(), W + m.wk(), du.data(), N, D, D);
    mm_bt(dv.data(), W + m.wv(), du.data(), N, D, D);
    if (m.post)
      for (std::size_t i = 0; i < N * D; ++i) dh[i] += du[i];
    else
      norm_backward(du.data(), b.n1hat.data(), b.n1inv.data(), N, D, m.rms, W + m.n1(), dh.data(), GW + m.n1(),
                    m.rms ? nullptr : GW + m.n1() + D);
  }
  // the embeddings
  for (std::size_t n = 0; n < N; ++n) {
    const std::size_t tok = std::size_t(tokens[n]), t = n % T;
    for (std::size_t i = 0; i < D; ++i) G[tok * D + i] += dh[n * D + i], G[(V + t) * D + i] += dh[n * D + i];
  }
}

std::vector<double> tfm_block_norms(const Tfm& m, const std::vector<double>& G) {
  std::vector<double> out(m.L);
  for (std::size_t l = 0; l < m.L; ++l) {
    double q = 0;
    const double* g = G.data() + m.block(l);
    for (std::size_t i = 0; i < m.per_block(); ++i) q += g[i] * g[i];
    out[l] = std::sqrt(q);
  }
  return out;
}

double AdamW::rate(double t) const {
  if (warmup > 0 && t <= warmup) return lr * t / warmup;
  if (total <= warmup || total <= 0) return lr;
  const double progress = std::min(1.0, (t - warmup) / (total - warmup));
  return lr * (lr_min + (1 - lr_min) * 0.5 * (1 + std::cos(M_PI * progress)));
}

bool AdamW::step(std::vector<double>& P, std::vector<double>& S, const std::vector<double>& G,
                 std::vector<double>& next) const {
  const std::size_t n = P.size();
  const double t = S[2 * n] + 1, r = rate(t);
  const double c1 = 1 - std::pow(beta1, t), c2 = 1 - std::pow(beta2, t);
  for (std::size_t i = 0; i < n; ++i) {
    const double m1 = beta1 * S[i] + (1 - beta1) * G[i], m2 = beta2 * S[n + i] + (1 - beta2) * G[i] * G[i];
    next[i] = P[i] * (1 - r * weight_decay) - r * (m1 / c1) / (std::sqrt(m2 / c2) + eps);
    // the state is untouched too; a second moment past float32's range could not be carried to the next call
    if (!(std::fabs(next[i]) < 1e30) || !(m2 < 1e38)) return false;
  }
  for (std::size_t i = 0; i < n; ++i) {
    S[i] = float(beta1 * S[i] + (1 - beta1) * G[i]);
    S[n + i] = float(beta2 * S[n + i] + (1 - beta2) * G[i] * G[i]);
    next[i] = float(next[i]);
  }
  P.swap(next);
  S[2 * n] = t;
  return true;
}

}  // namespace training
}  // namespace normlab
