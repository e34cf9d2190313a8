// The optimizers of the depth figure's network (training.hpp): clipping by
// global norm, SGD with momentum, Adam, linear warm-up.
#include <algorithm>
#include <cmath>

#include "normlab/training.hpp"

namespace normlab {
namespace training {

bool clip_by_global_norm(std::vector<double>& G, double clip) {
  double total = 0;
  for (double g : G) total += g * g;
  total = std::sqrt(total);
  if (!std::isfinite(total)) return false;
  if (clip > 0 && total > clip)
    for (double& g : G) g *= clip / (total + 1e-6);
  return true;
}

bool Optimizer::step(std::vector<double>& P, std::vector<double>& S, const std::vector<double>& G,
                     std::vector<double>& next) const {
  const std::size_t n = P.size();
  const double t = S[2 * n] + 1;
  const double rate = lr * (warmup > 0 ? std::min(1.0, t / warmup) : 1.0);
  const double c1 = 1 - std::pow(beta1, t), c2 = 1 - std::pow(beta2, t);  // Adam's bias corrections
  bool ok = true;
  for (std::size_t i = 0; i < n; ++i) {
    double& m1 = S[i];
    double step;
    if (adam) {
      double& m2 = S[n + i];
      m1 = beta1 * m1 + (1 - beta1) * G[i];
      m2 = beta2 * m2 + (1 - beta2) * G[i] * G[i];
      step = rate * (m1 / c1) / (std::sqrt(m2 / c2) + 1e-8);
    } else {
      m1 = momentum * m1 + G[i];
      step = rate * m1;
    }
    next[i] = P[i] - step;
    ok = ok && std::fabs(next[i]) < 1e30;
  }
  if (!ok) return false;
  for (std::size_t i = 0; i < n; ++i) next[i] = float(next[i]), S[i] = float(S[i]), S[n + i] = float(S[n + i]);
  P.swap(next);
  S[2 * n] = t;
  return true;
}

}  // namespace training
}  // namespace normlab
