// Operations: the article's hand-derived values, each family's key identity,
// and the errors bad input gets.
#include "helpers.hpp"

using namespace normlab;
using namespace nt;
using Catch::Contains;

static const double kR15 = std::sqrt(1.5);  // LN of (1,2,3): (-sqrt(3/2), 0, sqrt(3/2))

TEST_CASE("Article: LN of (1,2,3), (101,102,103) and (10,20,30) is (-1.2247, 0, 1.2247)", "[article][layer_norm]") {
  for (auto v : {std::vector<float>{1, 2, 3}, {101, 102, 103}, {10, 20, 30}}) {
    INFO("x = (" << v[0] << ", " << v[1] << ", " << v[2] << ")");
    expect_close(run("layer_norm", {{"x", vec(v)}}, {{"eps", 0.0}}).at("y").f, std::vector<double>{-kR15, 0, kR15},
                 1e-6);
  }
}

TEST_CASE("Article: RMS of (3,4) is sqrt(12.5) and RMSNorm gives (0.849, 1.131)", "[article][rms_norm]") {
  const auto y = run("rms_norm", {{"x", vec({3, 4})}}, {{"eps", 0.0}}).at("y").f;
  expect_close(y, std::vector<double>{3 / std::sqrt(12.5), 4 / std::sqrt(12.5)}, 1e-6);
  CHECK(y[0] == Approx(0.849).margin(5e-4));
  CHECK(y[1] == Approx(1.131).margin(5e-4));
}

TEST_CASE("Article: L2 of (3,4) is (0.6, 0.8)", "[article][l2_normalize]") {
  expect_close(run("l2_normalize", {{"x", vec({3, 4})}}).at("y").f, std::vector<double>{0.6, 0.8}, 1e-7);
}

TEST_CASE("Article: softmax of (1,0) and (10,0)", "[article][softmax]") {
  const auto a = run("softmax", {{"x", vec({1, 0})}}).at("y").f;
  const auto b = run("softmax", {{"x", vec({10, 0})}}).at("y").f;
  CHECK(a[0] == Approx(0.731).margin(5e-4));
  CHECK(b[0] == Approx(0.99995).margin(5e-6));
  CHECK(b[1] == Approx(0.0000454).margin(1e-6));
}

TEST_CASE("Article: AdaLN with scale (1,0), shift (0,3) sends (-1,1) to (-2,4)", "[article][ada_layer_norm]") {
  const Tensor x = tensor({1, 1, 2}, {-1, 1});
  const auto same =
      run("ada_layer_norm", {{"x", x}, {"scale", tensor({1, 2}, {0, 0})}, {"shift", tensor({1, 2}, {0, 0})}},
          {{"eps", 0.0}});
  expect_close(same.at("y").f, std::vector<double>{-1, 1});
  const auto mod =
      run("ada_layer_norm", {{"x", x}, {"scale", tensor({1, 2}, {1, 0})}, {"shift", tensor({1, 2}, {0, 3})}},
          {{"eps", 0.0}});
  expect_close(mod.at("y").f, std::vector<double>{-2, 4});
}

TEST_CASE("Article: AdaLN-Zero with gate 0 returns x", "[article][gated_residual]") {
  const Tensor x = tensor({1, 2, 2}, {1, 2, 3, 4});
  const auto h =
      run("gated_residual", {{"x", x}, {"update", tensor({1, 2, 2}, {9, 9, 9, 9})}, {"gate", tensor({1, 2}, {0, 0})}});
  expect_close(h.at("h").f, std::vector<double>{1, 2, 3, 4}, 0);
}

TEST_CASE("Article: Pre-Norm residual outputs (2,2,3) and (11,20,30) for u = (1,0,0)", "[article][residual_block]") {
  const Tensor W = xt::zeros<float>({3, 3});
  const Tensor b = vec({1, 0, 0});
  expect_close(run("residual_block", {{"x", vec({1, 2, 3})}, {"W", W}, {"b", b}}).at("y").f,
               std::vector<double>{2, 2, 3});
  expect_close(run("residual_block", {{"x", vec({10, 20, 30})}, {"W", W}, {"b", b}}).at("y").f,
               std::vector<double>{11, 20, 30});
}

TEST_CASE("Article: spectral norm of diag(3,1) is 3", "[article][spectral_norm]") {
  const auto out = run("spectral_norm", {{"W", tensor({2, 2}, {3, 0, 0, 1})}}, {{"n_power_iterations", 30.0}});
  CHECK(out.at("sigma").f[0] == Approx(3).epsilon(1e-6));
  expect_close(out.at("w").f, std::vector<double>{1, 0, 0, 1.0 / 3}, 1e-6);
}

TEST_CASE("Article: the L2 Jacobian removes the radial direction", "[article][l2_normalize_jacobian]") {
  const auto J = run("l2_normalize_jacobian", {{"x", vec({3, 4})}}).at("J").f;
  // J x = 0 (scaling x does not change x/|x|); J t = t/|x| for t perpendicular to x
  CHECK(J[0] * 3 + J[1] * 4 == Approx(0).margin(1e-7));
  CHECK(J[2] * 3 + J[3] * 4 == Approx(0).margin(1e-7));
  CHECK(J[0] * -4 + J[1] * 3 == Approx(-4.0 / 5).epsilon(1e-6));
}

TEST_CASE("BatchNorm: training updates running stats with the unbiased variance", "[batch_norm]") {
  // one channel, values 1 and 3: mean 2, biased var 1, unbiased var 2
  const auto out =
      run("batch_norm", {{"x", tensor({2, 1}, {1, 3})}, {"running_mean", vec({0})}, {"running_var", vec({1})}},
          {{"momentum", 0.5}, {"eps", 0.0}});
  expect_close(out.at("y").f, std::vector<double>{-1, 1});
  CHECK(out.at("running_mean").f[0] == Approx(1.0));
  CHECK(out.at("running_var").f[0] == Approx(1.5));
  // evaluation mode uses the given statistics and changes nothing
  const auto ev =
      run("batch_norm", {{"x", tensor({2, 1}, {1, 3})}, {"running_mean", vec({1})}, {"running_var", vec({4})}},
          {{"training", false}, {"eps", 0.0}});
  expect_close(ev.at("y").f, std::vector<double>{0, 1});
}

TEST_CASE("GroupNorm with G = C equals InstanceNorm; with G = 1 it standardizes the example", "[group_norm]") {
  const auto x = randoms(2 * 4 * 5, 3, -2, 2);
  const Tensor t = tensor({2, 4, 5}, x);
  expect_close(run("group_norm", {{"x", t}}, {{"num_groups", 4.0}}).at("y").f,
               run("instance_norm", {{"x", t}}).at("y").f, 1e-6);
  expect_close(run("group_norm", {{"x", t}}, {{"num_groups", 1.0}}).at("y").f,
               run("layer_norm", {{"x", t}}, {{"normalized_ndim", 2.0}}).at("y").f, 1e-6);
}

TEST_CASE("reduction_group sizes follow the method", "[reduction_group]") {
  const std::vector<double> shape{3, 4, 5}, index{1, 2, 3};
  auto count = [&](const std::string& m, double g = 0) {
    std::map<std::string, Attr> a{{"method", m}, {"shape", shape}, {"index", index}};
    if (g) a["num_groups"] = g;
    return run("reduction_group", {}, a).at("members").shape[0];
  };
  CHECK(count("layer_norm") == 5);  // one token's D features
  CHECK(count("rms_norm") == 5);
  CHECK(count("batch_norm") == 12);     // one feature over B*T
  CHECK(count("instance_norm") == 4);   // one (example, channel) over T
  CHECK(count("group_norm", 5) == 4);   // G = D: InstanceNorm's group
  CHECK(count("group_norm", 1) == 20);  // G = 1: the whole example
}

TEST_CASE("Bad input names the operation and the argument", "[errors]") {
  const Tensor x = vec({1, 2, 3});
  CHECK_THROWS_WITH(run("layer_norm", {{"x", vec({1, NAN, 3})}}),
                    Contains("layer_norm: x") && Contains("NaN") && Contains("index 1"));
  CHECK_THROWS_WITH(run("layer_norm", {{"x", x}}, {{"eps", -1.0}}), Contains("layer_norm: eps must be >= 0"));
  CHECK_THROWS_WITH(run("layer_norm", {{"x", x}, {"gamma", vec({1, 1})}}),
                    Contains("gamma has shape [2]") && Contains("[3]"));
  CHECK_THROWS_WITH(run("layer_norm", {{"x", xt::empty<float>({0})}}), Contains("layer_norm: x is empty"));
  CHECK_THROWS_WITH(run("softmaxx", {{"x", x}}), Contains("unknown operation 'softmaxx'"));
  CHECK_THROWS_WITH(run("softmax", {{"x", x}}, {{"dim", -1.0}}), Contains("softmax: unknown attribute 'dim'"));
  CHECK_THROWS_WITH(run("group_norm", {{"x", tensor({1, 6, 1}, {1, 2, 3, 4, 5, 6})}}, {{"num_groups", 4.0}}),
                    Contains("group_norm: num_groups (4) must divide the channel count C (6)"));
  CHECK_THROWS_WITH(run("batch_norm", {{"x", tensor({3, 1}, {1, 2, 3})}}, {{"momentum", 2.0}}), Contains("momentum"));
  CHECK_THROWS_WITH(run("rms_norm", {{"x", vec({1, 0})}, {"gamma", vec({3e38f, 3e38f})}}),
                    Contains("rms_norm: output y is not finite"));
  // still usable afterwards
  expect_close(run("layer_norm", {{"x", x}}, {{"eps", 0.0}}).at("y").f, std::vector<double>{-kR15, 0, kR15}, 1e-6);
}

TEST_CASE("Shapes beyond the element limit are rejected before allocation", "[errors][limits]") {
  CHECK_THROWS_WITH(checked_size({1u << 20, 1u << 20, 1u << 20}, "x"), Contains("limit"));
  CHECK_THROWS_WITH(checked_size({std::size_t(1) << 62, 8}, "x"), Contains("limit"));
  CHECK(checked_size({2, 3}, "x") == 6);
}

TEST_CASE("axis_ticks gives nice, covering ticks", "[figures]") {
  const auto out = run("axis_ticks", {{"x", vec({101, 102, 103})}}, {{"include_zero", true}});
  expect_close(out.at("domain").f, std::vector<double>{0, 150});
  expect_close(out.at("ticks").f, std::vector<double>{0, 50, 100, 150});
  const auto sym = run("axis_ticks", {{"x", vec({1.7320508f})}}, {{"symmetric", true}, {"count", 4.0}});
  expect_close(sym.at("domain").f, std::vector<double>{-2, 2});
}

TEST_CASE("Figure helpers: the article's angles, score spreads and singular values", "[figures]") {
  auto deg = [](std::vector<float> a, std::vector<float> b) {
    return run("angle_between", {{"a", vec(a)}, {"b", vec(b)}}).at("degrees").f[0];
  };
  CHECK(deg({1, 0}, {1, 1}) == Approx(45).epsilon(1e-6));
  CHECK(deg({10, 0}, {10, 1}) == Approx(5.7106).epsilon(1e-4));
  CHECK_THROWS_WITH(deg({0, 0}, {1, 1}), Contains("angle_between") && Contains("zero vector"));
  // unscaled spread grows like sqrt(d_k): about 4 at 16 and 8 at 64; scaled stays near 1
  auto spread = [](double dk, const char* mode) {
    return run("score_spread", {}, {{"d_k", dk}, {"count", 20000.0}, {"seed", 7.0}, {"mode", std::string(mode)}})
        .at("std")
        .f[0];
  };
  CHECK(spread(16, "raw") == Approx(4).epsilon(0.05));
  CHECK(spread(64, "raw") == Approx(8).epsilon(0.05));
  CHECK(spread(64, "scaled") == Approx(1).epsilon(0.05));
  CHECK(spread(64, "qk_norm") == Approx(1 / 8.0).epsilon(0.05));  // g = 1: cosine spread 1/sqrt(d_k)
  // the same seed gives the same draws
  const auto a = run("random_normal", {}, {{"shape", std::vector<double>{5}}, {"seed", 3.0}}).at("x").f;
  const auto b = run("random_normal", {}, {{"shape", std::vector<double>{5}}, {"seed", 3.0}}).at("x").f;
  CHECK(a == b);
  expect_close(run("singular_values", {{"W", tensor({2, 2}, {3, 0, 0, 1})}}).at("s").f, std::vector<double>{3, 1},
               1e-6);
  expect_close(run("singular_values", {{"W", tensor({2, 2}, {1, 1, 0, 1})}}).at("s").f,
               std::vector<double>{(1 + std::sqrt(5.0)) / 2, (std::sqrt(5.0) - 1) / 2}, 1e-6);
  const auto split = run("split_perturbation", {{"x", vec({3, 4})}, {"delta", vec({1, 0})}});
  expect_close(split.at("along").f, std::vector<double>{0.36, 0.48}, 1e-6);
  expect_close(split.at("across").f, std::vector<double>{0.64, -0.48}, 1e-6);
  expect_close(split.at("dy").f, std::vector<double>{0.128, -0.096}, 1e-6);  // (I - u u^T) delta / 5
  expect_close(run("linspace", {}, {{"start", -1.0}, {"stop", 1.0}, {"count", 5.0}}).at("x").f,
               std::vector<double>{-1, -0.5, 0, 0.5, 1});
  // x = (1, 2, 3, 6): mean 3, variance (4 + 1 + 0 + 9)/4 = 3.5, mean square (1 + 4 + 9 + 36)/4 = 12.5 = 3.5 + 3²
  const auto m = run("moments", {{"x", vec({1, 2, 3, 6})}});
  expect_close(m.at("mean").f, std::vector<double>{3}, 1e-7);
  expect_close(m.at("var").f, std::vector<double>{3.5}, 1e-7);
  expect_close(m.at("std").f, std::vector<double>{std::sqrt(3.5)}, 1e-7);
  expect_close(m.at("ms").f, std::vector<double>{12.5}, 1e-7);
  expect_close(m.at("rms").f, std::vector<double>{std::sqrt(12.5)}, 1e-7);
  expect_close(m.at("mean_sq").f, std::vector<double>{9}, 1e-7);
  CHECK_THROWS_WITH(run("moments", {{"x", tensor({2, 2}, {1, 2, 3, 4})}}), Contains("moments") && Contains("x"));
  // (−1, 0, 1): mean 0, variance 2/3; eps inside: 1/sqrt(2/3 + eps); outside: 1/(sqrt(2/3) + eps)
  auto last = [](double eps, const char* place) {
    return run("standardize_rows", {{"x", tensor({1, 3}, {-1, 0, 1})}},
               {{"eps", eps}, {"eps_place", std::string(place)}})
        .at("y")
        .f[2];
  };
  CHECK(last(0, "inside") == Approx(std::sqrt(1.5)).epsilon(1e-6));
  CHECK(last(0.5, "inside") == Approx(1 / std::sqrt(2.0 / 3 + 0.5)).epsilon(1e-6));
  CHECK(last(0.5, "outside") == Approx(1 / (std::sqrt(2.0 / 3) + 0.5)).epsilon(1e-6));
  CHECK_THROWS_WITH(run("standardize_rows", {{"x", tensor({1, 3}, {2, 2, 2})}}, {{"eps", 0.0}}),
                    Contains("standardize_rows") && Contains("zero spread"));
  CHECK_THROWS_WITH(run("standardize_rows", {{"x", tensor({1, 3}, {1, 2, 3})}}, {{"eps_place", std::string("middle")}}),
                    Contains("eps_place"));
  // entropy: uniform over 4 is log 4; (1, 0) is 0; (0.5, 0.5) is log 2
  const auto ent = run("row_entropy", {{"p", tensor({3, 4}, {0.25, 0.25, 0.25, 0.25, 1, 0, 0, 0, 0.5, 0.5, 0, 0})}});
  expect_close(ent.at("entropy").f, std::vector<double>{std::log(4.0), 0, std::log(2.0)}, 1e-6);
  expect_close(ent.at("max").f, std::vector<double>{0.25, 1, 0.5}, 1e-7);
  CHECK_THROWS_WITH(run("row_entropy", {{"p", tensor({1, 2}, {0.5, 0.6})}}),
                    Contains("row_entropy") && Contains("sums to"));
  // score_spread "all": the three modes from the same draws
  const auto all =
      run("score_spread", {}, {{"d_k", 16.0}, {"count", 300.0}, {"seed", 7.0}, {"mode", std::string("all")}});
  for (const auto* m : {"raw", "scaled", "qk_norm"}) {
    const auto one =
        run("score_spread", {}, {{"d_k", 16.0}, {"count", 300.0}, {"seed", 7.0}, {"mode", std::string(m)}});
    const std::size_t k = std::string(m) == "raw" ? 0 : std::string(m) == "scaled" ? 1 : 2;
    CHECK(all.at("std").f[k] == Approx(one.at("std").f[0]).epsilon(1e-6));
    CHECK(all.at("scores").f[k * 300 + 5] == one.at("scores").f[5]);
  }
  // every_width: widths 1..d_k from nested draws; the last width is the call without it
  const auto every =
      run("score_spread", {},
          {{"d_k", 16.0}, {"count", 300.0}, {"seed", 7.0}, {"mode", std::string("all")}, {"every_width", true}});
  CHECK(every.at("std").shape == Shape{16, 3});
  CHECK(every.at("scores").shape == Shape{16, 3, 300});
  for (std::size_t j = 0; j < 3 * 300; ++j) CHECK(every.at("scores").f[15 * 900 + j] == all.at("scores").f[j]);
  for (std::size_t k = 0; k < 3; ++k) CHECK(every.at("std").f[15 * 3 + k] == all.at("std").f[k]);
  for (std::size_t i = 0; i < 300; ++i) {
    // width 1: q.k / sqrt(1) is q.k, and the cosine of two 1-vectors is +-1
    CHECK(every.at("scores").f[300 + i] == every.at("scores").f[i]);
    CHECK(std::fabs(every.at("scores").f[600 + i]) == Approx(1).epsilon(1e-6));
    // width 4 (row 3): scaled is raw / 2
    CHECK(every.at("scores").f[3 * 900 + 300 + i] == Approx(every.at("scores").f[3 * 900 + i] / 2).epsilon(1e-6));
  }
  const auto one =
      run("score_spread", {},
          {{"d_k", 5.0}, {"count", 40.0}, {"seed", 2.0}, {"mode", std::string("scaled")}, {"every_width", true}});
  CHECK(one.at("std").shape == Shape{5, 1});
  CHECK(one.at("scores").shape == Shape{5, 40});
  CHECK_THROWS_WITH(run("score_spread", {}, {{"d_k", 4096.0}, {"count", 100000.0}, {"every_width", true}}),
                    Contains("score_spread") && Contains("limit"));
}

TEST_CASE("Huge sizes beside a zero size are rejected too (found by fuzzing)", "[errors][limits]") {
  const std::size_t huge = std::size_t(1) << 40;
  CHECK_THROWS_WITH(checked_size({huge, huge, 0}, "x"), Contains("limit"));
  CHECK(checked_size({0, 3}, "x") == 0);
}

TEST_CASE("log_axis: decades by hand, the floor for zeros, at most count + 1 ticks", "[figures]") {
  // log10 of 1e-3, 0.5, 20 is -3, -0.30103, 1.30103: decades -3..2
  auto r = nt::run("log_axis", {{"x", nt::vec({1e-3f, 0.5f, 20.0f})}});
  nt::expect_close(r.at("y").f, std::vector<float>{-3.0f, -0.30103f, 1.30103f}, 1e-5, 1e-5);
  nt::expect_close(r.at("domain").f, std::vector<float>{-3.0f, 2.0f}, 0, 0);
  nt::expect_close(r.at("ticks").f, std::vector<float>{-3, -2, -1, 0, 1, 2}, 0, 0);
  // a zero sits at the floor; 26 decades with count 6 take every 5th decade
  r = nt::run("log_axis", {{"x", nt::vec({0.0f, 1e13f})}}, {{"floor", 1e-12}});
  nt::expect_close(r.at("y").f, std::vector<float>{-12.0f, 13.0f}, 1e-5, 0);
  nt::expect_close(r.at("domain").f, std::vector<float>{-12.0f, 13.0f}, 0, 0);
  nt::expect_close(r.at("ticks").f, std::vector<float>{-12, -7, -2, 3, 8, 13}, 0, 0);
  // one value: one decade
  r = nt::run("log_axis", {{"x", nt::vec({100.0f})}});
  nt::expect_close(r.at("domain").f, std::vector<float>{2.0f, 3.0f}, 0, 0);
  CHECK_THROWS_WITH(nt::run("log_axis", {{"x", nt::vec({1.0f})}}, {{"floor", 0.0}}),
                    Catch::Contains("log_axis") && Catch::Contains("floor"));
}

TEST_CASE("bar_compare: the article's (1, 2, 3) under +100 and x10, by hand", "[figures]") {
  const double s14 = std::sqrt(14.0), r = std::sqrt(1.5);  // |(1,2,3)|; LayerNorm's ±sqrt(3/2)
  auto at = [](const std::vector<float>& v, std::size_t row) {
    return std::vector<float>(v.begin() + row * 3, v.begin() + row * 3 + 3);
  };
  // eps 0: exact values. Offset 100: (101, 102, 103).
  const auto o = run("bar_compare", {{"x", vec({1, 2, 3})}}, {{"offset", 100.0}, {"eps", 0.0}});
  expect_close(o.at("input").f, std::vector<double>{101, 102, 103});
  expect_close(at(o.at("reference").f, 0), std::vector<double>{1 / s14, 2 / s14, 3 / s14}, 1e-6);
  expect_close(at(o.at("reference").f, 1), std::vector<double>{-r, 0, r}, 1e-6);
  const double rms = std::sqrt(14.0 / 3);  // RMS of (1, 2, 3)
  expect_close(at(o.at("reference").f, 2), std::vector<double>{1 / rms, 2 / rms, 3 / rms}, 1e-6);
  const double n101 = std::sqrt(101.0 * 101 + 102.0 * 102 + 103.0 * 103);
  expect_close(at(o.at("current").f, 0), std::vector<double>{101 / n101, 102 / n101, 103 / n101}, 1e-6);
  expect_close(at(o.at("current").f, 1), std::vector<double>{-r, 0, r}, 1e-5);  // LayerNorm ignores the offset
  // |L2(101..103) - L2(1..3)|: a large move; LayerNorm's: none
  double d2 = 0;
  for (int i = 0; i < 3; ++i) d2 += std::pow((101.0 + i) / n101 - (1.0 + i) / s14, 2);
  CHECK(o.at("change").f[0] == Approx(std::sqrt(d2)).epsilon(1e-5));
  CHECK(o.at("change").f[1] < 1e-5);
  expect_close(o.at("mean").f, std::vector<double>{102}, 1e-9);
  expect_close(o.at("variance").f, std::vector<double>{2.0 / 3}, 1e-6);
  expect_close(o.at("centered").f, std::vector<double>{-1, 0, 1});
  expect_close(o.at("bound").f, std::vector<double>{std::sqrt(3.0)}, 1e-7);
  // scale 10: every output is unchanged (up to float32 rounding)
  const auto t = run("bar_compare", {{"x", vec({1, 2, 3})}}, {{"scale", 10.0}, {"eps", 0.0}});
  expect_close(t.at("input").f, std::vector<double>{10, 20, 30});
  for (std::size_t k = 0; k < 3; ++k) CHECK(t.at("change").f[k] < 1e-6);
  // eps reaches all three: LayerNorm of (1, 2, 3) with eps 1 divides by sqrt(2/3 + 1)
  const auto e = run("bar_compare", {{"x", vec({1, 2, 3})}}, {{"eps", 1.0}});
  CHECK(e.at("reference").f[5] == Approx(1 / std::sqrt(2.0 / 3 + 1)).epsilon(1e-6));
  CHECK(e.at("reference").f[8] == Approx(3 / std::sqrt(14.0 / 3 + 1)).epsilon(1e-6));
  CHECK(e.at("reference").f[2] == Approx(3 / s14).epsilon(1e-6));  // L2: max(|x|, eps), |x| > 1
  // bad input, named
  CHECK_THROWS_WITH(run("bar_compare", {{"x", tensor({1, 3}, {1, 2, 3})}}), Contains("bar_compare") && Contains("x"));
  CHECK_THROWS_WITH(run("bar_compare", {{"x", vec({2, 2, 2})}}, {{"eps", 0.0}}), Contains("bar_compare"));
  CHECK_THROWS_WITH(run("bar_compare", {{"x", vec({1, 2})}}, {{"scale", 1e38}, {"offset", 1e38}}),
                    Contains("bar_compare") && Contains("overflow"));
}
