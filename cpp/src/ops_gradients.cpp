// Gradients: the Jacobians of L2 normalization and LayerNorm, and
// gradient-norm clipping.
#include <cmath>

#include "normlab/norms.hpp"

namespace normlab {

namespace {

using A = AttrSpec;
const AttrKind Num = AttrKind::Number;

void l2_jacobian(Call& c) {
  const Tensor& x = c.in("x");
  c.expect_rank("x", x, 1, 1);
  const std::size_t d = x.size();
  checked_size({d, d}, c.op + ": J");
  c.check_work(double(d) * double(d) * 40, "the d x d Jacobian");
  const double eps = c.num("eps");
  double n = 0;
  for (float v : x) n += double(v) * v;
  n = std::sqrt(n);
  Tensor j = xt::zeros<float>({d, d});
  if (n > eps) {  // (I - u u^T) / ||x||
    for (std::size_t a = 0; a < d; ++a)
      for (std::size_t b = 0; b < d; ++b) j(a, b) = static_cast<float>(((a == b) - (x(a) / n) * (x(b) / n)) / n);
  } else {  // the floor is active: y = x / eps
    if (!(eps > 0)) c.fail(Msg("zero_vector", "x") << "x is zero and eps is 0, so the Jacobian is undefined");
    for (std::size_t a = 0; a < d; ++a) j(a, a) = static_cast<float>(1 / eps);
  }
  c.out("J", j);
}

// d LN0(x)_i / d x_j = (delta_ij - 1/d - y_i y_j / d) / s, y = LN0(x), s = sqrt(var + eps)
void layer_norm_jacobian(Call& c) {
  const Tensor& x = c.in("x");
  c.expect_rank("x", x, 1, 1);
  const std::size_t d = x.size();
  checked_size({d, d}, c.op + ": J");
  c.check_work(double(d) * double(d) * 40, "the d x d Jacobian");
  const Stats st = measure(x.data(), Group::trailing({d}, 1), Measure::MeanVar);
  const double s = denominators(st, {true, Denominator::SqrtPlusEps, c.num("eps")}, c.op)[0];
  std::vector<double> y(d);
  for (std::size_t a = 0; a < d; ++a) y[a] = (x(a) - st.center[0]) / s;
  Tensor j = xt::empty<float>({d, d});
  for (std::size_t a = 0; a < d; ++a)
    for (std::size_t b = 0; b < d; ++b) j(a, b) = static_cast<float>(((a == b) - 1.0 / d - y[a] * y[b] / d) / s);
  c.out("J", j);
}

void clip_grad_norm(Call& c) {
  const Tensor& g = c.in("g");
  const double max_norm = c.num("max_norm"), p = c.num("norm_type");
  // a general power costs ~100 ns a number in WASM; p = 1 and 2 are plain sums
  if (p != 1 && p != 2) c.check_work(double(g.size()) * 96, "a p-norm with norm_type " + num_str(p));
  // ||g||_p = m * (sum (|g| / m)^p)^(1/p) with m = max |g|: no power underflows or overflows
  double m = 0;
  for (float v : g) m = std::max(m, std::fabs(double(v)));
  double total = 0;
  if (m > 0) {
    if (p == 2)
      for (float v : g) total += (double(v) / m) * (double(v) / m);
    else if (p == 1)
      for (float v : g) total += std::fabs(double(v)) / m;
    else
      for (float v : g) total += std::pow(std::fabs(double(v)) / m, p);
    total = m * std::pow(total, 1 / p);
  }
  const double coef = max_norm / (total + 1e-6);
  Tensor y = g;
  if (coef < 1) y *= static_cast<float>(coef);
  c.out("y", y);
  c.out("total_norm", Tensor({static_cast<float>(total)}));
}

}  // namespace

void register_gradient_ops(Registry& r) {
  static constexpr OpSpec ops[] = {
      {"l2_normalize_jacobian", {{"x"}}, {{"eps", Num, Default(1e-12), at_least(0)}}, {"J"}, l2_jacobian},
      {"layer_norm_jacobian", {{"x"}}, {{"eps", Num, Default(1e-5), at_least(0)}}, {"J"}, layer_norm_jacobian},
      {"clip_grad_norm",
       {{"g"}},
       {{"max_norm", Num, {}, at_least(0)}, {"norm_type", Num, Default(2.0), at_least(0, false)}},
       {"y", "total_norm"},
       clip_grad_norm},
  };
  enter(r, ops);
}

}  // namespace normlab
