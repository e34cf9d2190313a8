// normlab training module: a small decoder-only transformer, forward and
// backward by hand, in double (training_transformer.cpp), and AdamW with
// warm-up and cosine decay (training_optim.cpp). The ops tfm_init / tfm_grad /
// tfm_step / tfm_sample (ops_training.cpp) check arguments and call these.
//
// For tokens x [B, T] (N = B T positions), with D = d_model, H heads of
// hd = D / H, F = mlp_ratio D:
//   h_0 = E[x] + Pos[t]
//   block l, placement "post":            "pre" / "pre_final":
//     h' = N1(h + Attn(h))                h' = h + Attn(N1(h))
//     h  = N2(h' + MLP(h'))               h  = h' + MLP(N2(h'))
//   z = N_f(h_L) for "pre_final", else h_L;  logits = z E^T (tied) or z Wh
//   loss = mean cross-entropy of the next-token targets + z_loss mean(lse^2)
// Attn(u): q = u Wq, k = u Wk, v = u Wv, per head with the causal mask
//   qk_norm "none":               s = q.k / sqrt(hd)
//           "l2":                 s = g (q/|q|).(k/|k|), |q| = sqrt(q.q + hd eps),
//                                 g a learned scalar
//           "layer_norm"/"rms_norm": s = Nq(q).Nk(k) / sqrt(hd), Nq and Nk over
//                                 the head's hd numbers, weights [hd] shared by
//                                 the heads
//   P = softmax(s), out = concat_h(P v) Wo.   MLP(u) = act(u W1) W2 (GELU, erf form, or ReLU).
// No biases in the projections; N is LayerNorm (gamma, beta) or RMSNorm
// (gamma) over D.
//
// The flat parameter vector, in order: E [V, D], Pos [S, D]; per block
// n1_gamma, n1_beta [D], Wq, Wk, Wv, Wo [D, D], q_gamma, q_beta, k_gamma,
// k_beta [hd], g [1], n2_gamma, n2_beta [D], W1 [D, F], W2 [F, D]; then
// nf_gamma, nf_beta [D] and Wh [D, V]. Slots a configuration does not use
// (betas of RMSNorm, Wh when tied, ...) keep their values and get zero gradient.
#pragma once

#include <cstddef>
#include <vector>

namespace normlab {
namespace training {

enum class QkNorm { None, L2, Layer, Rms };

struct Tfm {
  std::size_t V = 11, D = 8, H = 2, L = 2, S = 8, R = 4;  // vocab, d_model, heads, layers, max context, mlp ratio
  bool post = false, final_norm = true, rms = false, tied = true, relu = false;
  QkNorm qk = QkNorm::None;
  double eps = 1e-5, z_loss = 0;

  std::size_t hd() const { return D / H; }
  std::size_t F() const { return R * D; }
  std::size_t per_block() const { return 4 * D + 4 * D * D + 4 * hd() + 1 + 2 * D * F(); }
  std::size_t block(std::size_t l) const { return (V + S) * D + l * per_block(); }
  // offsets within a block
  std::size_t n1() const { return 0; }
  std::size_t wq() const { return 2 * D; }
  std::size_t wk() const { return 2 * D + D * D; }
  std::size_t wv() const { return 2 * D + 2 * D * D; }
  std::size_t wo() const { return 2 * D + 3 * D * D; }
  std::size_t qn() const { return 2 * D + 4 * D * D; }  // q_gamma, q_beta, k_gamma, k_beta
  std::size_t g() const { return qn() + 4 * hd(); }
  std::size_t n2() const { return g() + 1; }
  std::size_t w1() const { return n2() + 2 * D; }
  std::size_t w2() const { return w1() + D * F(); }
  std::size_t nf() const { return block(L); }
  std::size_t head() const { return nf() + 2 * D; }
  std::size_t size() const { return head() + D * V; }
  /// g's starting value: log2(S^2 - S) (Henry et al. 2020), 1 for S = 1.
  double g0() const;
  /// Doubles one forward pass keeps for the backward pass of N positions in B sequences of T.
  double memory(std::size_t B, std::size_t T) const;
  /// Weighted work of one forward and backward pass.
  double work(std::size_t B, std::size_t T) const;
};

// Everything a forward pass keeps, per block.
struct TfmBlock {
  std::vector<double> h;                   // [N, D] the block's input
  std::vector<double> n1hat, n1inv, u1;    // norm 1: its xhat [N, D], inv [N]; the attention's input [N, D]
  std::vector<double> q, k, v;             // [N, D] projections
  std::vector<double> qh, kh, qinv, kinv;  // qk-norm: xhat [N, D], inv [N H]
  std::vector<double> qn, kn;              // [N, D] what enters the dot products
  std::vector<double> p;                   // [B, H, T, T] attention probabilities
  std::vector<double> ctx;                 // [N, D] concat of P v
  std::vector<double> mid;                 // [N, D] h' (after norm 1 for post)
  std::vector<double> n2hat, n2inv, u2;    // norm 2, and the MLP's input
  std::vector<double> f1, a1;              // [N, F] pre- and post-activation
  double max_logit = 0, entropy = 0;
};

struct TfmPass {
  std::size_t B = 0, T = 0;
  std::vector<TfmBlock> blocks;
  std::vector<double> hL;               // [N, D] the last block's output
  std::vector<double> nfhat, nfinv, z;  // the final norm, the head's input
  std::vector<double> logits;           // [N, V]
  std::vector<double> lse;              // [N]
  std::vector<double> act_rms;          // [L] RMS of each block's output
  double loss = 0, logit_mean = 0;
};

/// The forward pass over tokens [B, T] (values in [0, V)); with targets, the
/// loss. Returns the loss (0 without targets).
double tfm_forward(const Tfm& m, const double* P, const double* tokens, const double* targets, std::size_t B,
                   std::size_t T, TfmPass& s);

/// dL/dP into G (overwritten, size m.size()).
void tfm_backward(const Tfm& m, const double* P, const double* tokens, const double* targets, const TfmPass& s,
                  double* G);

/// The norm of each block's slice of G.
std::vector<double> tfm_block_norms(const Tfm& m, const std::vector<double>& G);

/// AdamW (torch.optim.AdamW's update: decoupled decay on every parameter) with
/// linear warm-up over `warmup` steps and cosine decay from lr to lr_min * lr
/// at step `total` (0: no decay). State [2P + 1]: first and second moments,
/// steps taken. Parameters and moments are rounded to float32 after each
/// step. False, and P and S untouched, when a parameter would pass 1e30 or a
/// second moment 1e38 (past float32's range in the next call's state).
struct AdamW {
  double lr = 1e-3, beta1 = 0.9, beta2 = 0.95, eps = 1e-8, weight_decay = 0.0, warmup = 0, total = 0, lr_min = 0.1;
  double rate(double t) const;
  bool step(std::vector<double>& P, std::vector<double>& S, const std::vector<double>& G,
            std::vector<double>& next) const;
};

}  // namespace training
}  // namespace normlab
