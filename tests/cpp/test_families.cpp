// One block per op family: identities that tie the family to its definition
// or to a sibling, on grids of inputs. Failures report index and both values.
#include "helpers.hpp"

using namespace normlab;
using namespace nt;
using Catch::Contains;

static std::vector<float> out(const std::string& op, std::map<std::string, Tensor> in,
                              std::map<std::string, Attr> attrs = {}, const std::string& name = "y") {
  return run(op, std::move(in), std::move(attrs)).at(name).f;
}

TEST_CASE("Vector norms: the result has unit L2 / L1 / max norm along the axis", "[family][vector]") {
  for (std::size_t n : {1u, 3u, 33u, 1025u}) {
    const auto x = randoms(2 * n, unsigned(n), -4, 4);
    const Tensor t = tensor({2, n}, x);
    const auto l2 = out("l2_normalize", {{"x", t}}), l1 = out("l1_normalize", {{"x", t}}),
               mx = out("max_normalize", {{"x", t}});
    for (std::size_t r = 0; r < 2; ++r) {
      double s2 = 0, s1 = 0, m = 0;
      for (std::size_t i = 0; i < n; ++i) {
        s2 += double(l2[r * n + i]) * l2[r * n + i];
        s1 += std::fabs(l1[r * n + i]);
        m = std::max(m, std::fabs(double(mx[r * n + i])));
      }
      INFO("n = " << n << ", row " << r);
      CHECK(s2 == Approx(1).epsilon(1e-5));
      CHECK(s1 == Approx(1).epsilon(1e-5));
      CHECK(m == Approx(1).epsilon(1e-6));
    }
  }
}

TEST_CASE("RMSNorm equals sqrt(d) times L2 normalization", "[family][rms_norm]") {
  for (std::size_t n : {3u, 33u, 1025u}) {
    const auto x = randoms(n, unsigned(3 * n), -2, 5);
    const auto rms = out("rms_norm", {{"x", vec(x)}}, {{"eps", 0.0}});
    auto l2 = out("l2_normalize", {{"x", vec(x)}}, {{"eps", 0.0}});
    for (auto& v : l2) v *= std::sqrt(float(n));
    INFO("n = " << n);
    expect_close(rms, l2, 1e-5, 1e-5);
  }
}

TEST_CASE("BatchNorm family: renorm with r_max 1, d_max 0 and ghost BN with one virtual batch equal BatchNorm",
          "[family][batch_norm]") {
  const auto x = randoms(6 * 3 * 4, 11, -3, 3);
  const Tensor t = tensor({6, 3, 4}, x);
  const auto bn = out("batch_norm", {{"x", t}});
  expect_close(out("ghost_batch_norm", {{"x", t}}, {{"virtual_batch_size", 6.0}}), bn, 1e-6);
  expect_close(out("batch_renorm", {{"x", t}, {"running_mean", vec({5, -5, 0})}, {"running_var", vec({9, 0.1f, 1})}},
                   {{"r_max", 1.0}, {"d_max", 0.0}}),
               bn, 1e-5);
  // ghost BN with chunks of 2 equals BatchNorm on each chunk
  const auto ghost = out("ghost_batch_norm", {{"x", t}}, {{"virtual_batch_size", 2.0}});
  for (std::size_t c = 0; c < 3; ++c) {
    const std::vector<float> chunk(x.begin() + c * 24, x.begin() + (c + 1) * 24);
    const auto want = out("batch_norm", {{"x", tensor({2, 3, 4}, chunk)}});
    expect_close(std::vector<float>(ghost.begin() + c * 24, ghost.begin() + (c + 1) * 24), want, 1e-6);
  }
}

TEST_CASE("Switchable norm with one-hot weights is IN, LN or BN", "[family][switchable_norm]") {
  const Tensor t = tensor({2, 3, 2, 2}, randoms(24, 4, -2, 2));
  auto sw = [&](float a, float b, float c) {
    return out("switchable_norm", {{"x", t}, {"mean_logits", vec({a, b, c})}, {"var_logits", vec({a, b, c})}});
  };
  expect_close(sw(60, 0, 0), out("instance_norm", {{"x", t}}), 1e-5);
  expect_close(sw(0, 60, 0), out("layer_norm", {{"x", t}}, {{"normalized_ndim", 3.0}}), 1e-5);
  expect_close(sw(0, 0, 60), out("batch_norm", {{"x", t}}), 1e-5);
}

TEST_CASE("Conditioning: FiLM, AdaIN and AdaLN follow their parameters", "[family][conditioning]") {
  const Tensor x = tensor({1, 2, 3}, {1, 2, 3, 10, 20, 30});
  expect_close(out("film", {{"x", x}, {"gamma", tensor({1, 2}, {2, -1})}, {"beta", tensor({1, 2}, {1, 0})}}),
               std::vector<double>{3, 5, 7, -10, -20, -30});
  // AdaIN takes the style's per-channel mean and std
  const Tensor style = tensor({1, 2, 2}, {4, 6, -1, -1});
  const auto y = out("adain", {{"x", x}, {"style", style}}, {{"eps", 0.0}});
  const double r = std::sqrt(1.5);
  expect_close(y, std::vector<double>{5 - r, 5, 5 + r, -1, -1, -1}, 1e-5);
  // adaptive RMSNorm with zero scale and shift is plain RMSNorm
  const Tensor h = tensor({1, 2, 3}, {1, 2, 3, 4, 5, 6});
  expect_close(out("adaptive_rms_norm", {{"x", h}, {"scale", tensor({1, 3}, {0, 0, 0})}}), out("rms_norm", {{"x", h}}),
               1e-7);
}

TEST_CASE("Weights: WeightNorm rows have norm g, standardized rows have mean 0", "[family][weights]") {
  const auto v = randoms(4 * 9, 8, -3, 3);
  const auto w = out("weight_norm", {{"v", tensor({4, 3, 3}, v)}, {"g", vec({1, 2, 3, 0.5f})}}, {}, "w");
  const auto ws = out("weight_standardize", {{"w", tensor({4, 9}, v)}}, {{"eps", 0.0}});
  const double g[] = {1, 2, 3, 0.5};
  for (std::size_t o = 0; o < 4; ++o) {
    double ss = 0, m = 0, var = 0;
    for (std::size_t i = 0; i < 9; ++i) ss += double(w[o * 9 + i]) * w[o * 9 + i], m += ws[o * 9 + i];
    for (std::size_t i = 0; i < 9; ++i) var += double(ws[o * 9 + i]) * ws[o * 9 + i];
    INFO("row " << o);
    CHECK(std::sqrt(ss) == Approx(g[o]).epsilon(1e-5));
    CHECK(m == Approx(0).margin(1e-5));
    CHECK(var / 9 == Approx(1).epsilon(1e-5));
  }
  // spectral norm: the normalized matrix has spectral norm 1 (power iteration converged)
  const auto sn = run("spectral_norm", {{"W", tensor({2, 2}, {2, 1, 1, 3})}}, {{"n_power_iterations", 100.0}});
  const double top = (5 + std::sqrt(5.0)) / 2;  // largest eigenvalue of [[2,1],[1,3]]
  CHECK(sn.at("sigma").f[0] == Approx(top).epsilon(1e-6));
}

TEST_CASE("Attention: causal rows see no future key, weights sum to 1, QK-Norm scores stay within g",
          "[family][attention]") {
  const std::size_t T = 5, dk = 4;
  const Tensor q = tensor({T, dk}, randoms(T * dk, 1, -3, 3)), k = tensor({T, dk}, randoms(T * dk, 2, -3, 3));
  const Tensor v = tensor({T, 2}, randoms(T * 2, 3));
  const auto w =
      run("scaled_dot_product_attention", {{"q", q}, {"k", k}, {"v", v}}, {{"causal", true}}).at("weights").f;
  for (std::size_t i = 0; i < T; ++i) {
    double s = 0;
    for (std::size_t j = 0; j < T; ++j) {
      if (j > i) CHECK(w[i * T + j] == 0.0f);
      s += w[i * T + j];
    }
    CHECK(s == Approx(1).epsilon(1e-6));
  }
  // with g = 0 every score is 0: uniform weights over the visible keys
  const auto u =
      run("qk_norm_attention", {{"q", q}, {"k", k}, {"v", v}}, {{"g", 0.0}, {"causal", true}}).at("weights").f;
  CHECK(u[2 * T + 0] == Approx(1.0 / 3));
  // softmax is unchanged by a common offset
  expect_close(out("softmax", {{"x", vec({1001, 1000})}}), out("softmax", {{"x", vec({1, 0})}}), 1e-7);
}

TEST_CASE("Preprocessing: z-scored columns have mean 0 and std 1; whitened data has identity covariance",
          "[family][preprocessing]") {
  const std::size_t n = 200;
  std::vector<float> x(n * 2);
  const auto a = randoms(n, 21, -1, 1), b = randoms(n, 22, -1, 1);
  for (std::size_t i = 0; i < n; ++i) x[2 * i] = 3 * a[i] + 5, x[2 * i + 1] = a[i] + 0.5f * b[i] - 2;
  const Tensor t = tensor({n, 2}, x);
  const auto fit = run("z_score_fit", {{"x", t}});
  const auto z =
      out("z_score_apply", {{"x", t}, {"mean", tensor({2}, fit.at("mean").f)}, {"std", tensor({2}, fit.at("std").f)}});
  const auto w = run("whiten", {{"x", t}}, {{"eps", 0.0}}).at("z").f;
  for (const auto* d : {&z, &w}) {
    double m0 = 0, m1 = 0, c00 = 0, c01 = 0, c11 = 0;
    for (std::size_t i = 0; i < n; ++i) m0 += (*d)[2 * i], m1 += (*d)[2 * i + 1];
    m0 /= n, m1 /= n;
    for (std::size_t i = 0; i < n; ++i) {
      const double p = (*d)[2 * i] - m0, q = (*d)[2 * i + 1] - m1;
      c00 += p * p / n, c01 += p * q / n, c11 += q * q / n;
    }
    CHECK(m0 == Approx(0).margin(1e-5));
    CHECK(c00 == Approx(1).epsilon(1e-4));
    CHECK(c11 == Approx(1).epsilon(1e-4));
    if (d == &w)
      CHECK(c01 == Approx(0).margin(1e-4));  // whitening decorrelates
    else
      CHECK(std::fabs(c01) > 0.5);  // z-scoring does not
  }
  // robust scaler: median and IQR of 1..5 are 3 and 2
  const auto rf = run("robust_fit", {{"x", tensor({5, 1}, {5, 1, 4, 2, 3})}});
  CHECK(rf.at("median").f[0] == 3.0f);
  CHECK(rf.at("iqr").f[0] == 2.0f);
}

TEST_CASE("Shapes: reduce_shape and broadcast_shape follow NumPy", "[family][shapes]") {
  auto shape = [](const std::string& op, std::map<std::string, Attr> a) { return run(op, {}, a).at("shape").i; };
  CHECK(shape("reduce_shape",
              {{"shape", std::vector<double>{2, 5, 8}}, {"axes", std::vector<double>{-1}}, {"keepdim", true}}) ==
        std::vector<std::int64_t>{2, 5, 1});
  CHECK(shape("reduce_shape", {{"shape", std::vector<double>{2, 5, 8}}, {"axes", std::vector<double>{0, 2}}}) ==
        std::vector<std::int64_t>{5});
  CHECK(shape("broadcast_shape", {{"a", std::vector<double>{2, 1, 8}}, {"b", std::vector<double>{2, 5, 1}}}) ==
        std::vector<std::int64_t>{2, 5, 8});
  CHECK_THROWS_WITH(shape("broadcast_shape", {{"a", std::vector<double>{2, 3}}, {"b", std::vector<double>{4}}}),
                    Contains("incompatible at axis -1 (3 vs 4)"));
}

TEST_CASE("Gradients: the LayerNorm Jacobian annihilates constant shifts; clipping caps the norm",
          "[family][gradients]") {
  const std::size_t d = 5;
  const auto J = out("layer_norm_jacobian", {{"x", vec(randoms(d, 9, -2, 2))}}, {}, "J");
  for (std::size_t i = 0; i < d; ++i) {
    double row = 0;  // J * (1,...,1) = 0: adding a constant changes nothing
    for (std::size_t j = 0; j < d; ++j) row += J[i * d + j];
    CHECK(row == Approx(0).margin(1e-5));
  }
  const auto c = run("clip_grad_norm", {{"g", vec({3, 4})}}, {{"max_norm", 1.0}});
  CHECK(c.at("total_norm").f[0] == Approx(5));
  expect_close(c.at("y").f, std::vector<double>{0.6, 0.8}, 1e-6);
}
