// normlab core: the small residual network the depth figure trains
// (training_model.cpp) and its optimizers (training_optim.cpp); the ops that
// check their arguments and call them are in ops_training.cpp. Everything is
// computed in double.
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
#pragma once

#include <cstddef>
#include <vector>

namespace normlab {
namespace training {

constexpr std::size_t kClasses = 2;

// ---- normalization, one row at a time (the engine's pieces, in double) ----

// y = xhat * gamma + beta with xhat = (x - mean) * inv (LayerNorm) or x * inv
// (RMSNorm); keeps xhat and inv for the backward pass. The engine's measure
// and standardize on rows, in double (the network's numbers). The denominator
// is sqrt(spread + eps) as the engine's, but a zero or NaN one is not thrown
// here: it leaves inv non-finite, which the callers report in their terms
// (the backward op's zero spread, a training step's non-finite loss).
void norm_forward(const double* x, std::size_t n, std::size_t w, bool rms, double eps, const double* gamma,
                  const double* beta, double* y, double* xhat, double* inv);

// dx += dL/dx; dgamma, dbeta += their gradients (when not null).
//   LayerNorm: dx = inv * (g - mean(g) - xhat * mean(g * xhat)),  g = dy * gamma
//   RMSNorm:   dx = inv * (g - xhat * mean(g * xhat))
void norm_backward(const double* dy, const double* xhat, const double* inv, std::size_t n, std::size_t w, bool rms,
                   const double* gamma, double* dx, double* dgamma, double* dbeta);

// ---- the network ------------------------------------------------------------

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

// Everything one forward pass keeps for the backward pass.
struct Pass {
  std::size_t N = 0;
  std::vector<double> h;                 // [L + 1, N, W]: the residual stream at each block's input, and the last
  std::vector<double> u, uhat;           // [L, N, W]: the branch input (Norm(h) for pre, else h) and its xhat
  std::vector<double> a1, f;             // [L, N, W]: tanh(u W1 + b1) and F(u)
  std::vector<double> rhat;              // [L, N, W]: post: xhat of h + a F
  std::vector<double> inv;               // [L, N]: the norm's 1 / denominator
  std::vector<double> z, zhat, zinv, p;  // the head's input [N, W], its xhat and inv, probabilities [N, 2]
  double loss = 0, accuracy = 0;
};

/// One forward pass of N points; returns the mean cross-entropy (also in
/// s.loss). With keep = false only one block's intermediates are kept (no
/// backward pass follows: train_predict).
double forward(const Model& m, const double* P, const double* x, const double* labels, std::size_t N, Pass& s,
               bool keep = true);

// The gradient of the loss for every parameter; dnorm[l]: the Frobenius norm
// of dL/dh_l, the gradient reaching the residual stream at block l's input
// (l = 0..L).
void backward(const Model& m, const double* P, const double* x, const double* labels, const Pass& s, double* G,
              double* dnorm);

// ---- optimizers -------------------------------------------------------------

/// Scales G to global norm `clip` when it is longer (clip = 0: never).
/// False when G's norm is not finite (the step is not taken).
bool clip_by_global_norm(std::vector<double>& G, double clip);

/// SGD with momentum or Adam, with linear warm-up of the rate over `warmup`
/// steps. The state S [2P + 1] holds first moments, second moments and the
/// steps taken.
struct Optimizer {
  bool adam = true;
  double lr = 0.01, momentum = 0.9, beta1 = 0.9, beta2 = 0.999, warmup = 0;
  /// One step of P by gradient G, through `next` (scratch of P's size).
  /// Parameters and moments are rounded to float32 after it, as the tensors
  /// that carry them between calls are: a run split into calls of any size
  /// takes exactly the same steps. False, and P untouched, when a parameter
  /// would pass 1e30.
  bool step(std::vector<double>& P, std::vector<double>& S, const std::vector<double>& G,
            std::vector<double>& next) const;
};

}  // namespace training
}  // namespace normlab
