// The engine: groups, measurements and transforms, checked against
// independent long-double loops over grids of sizes and eps.
#include <array>

#include "helpers.hpp"

using namespace normlab;
using namespace nt;
using Catch::Contains;

TEST_CASE("Group offsets and stat_of agree for every layout", "[engine][group]") {
  const std::vector<Group> layouts{Group::rows(4, 5),
                                   Group::along({2, 3, 4}, 1),
                                   Group::per_channel({4, 3, 2, 2}, 4),
                                   Group::per_channel({6, 2, 5}, 3),
                                   Group::of({2, 3, 4, 5}, {1, 3}),
                                   Group::of({4, 2, 3, 5}, {2, 3}, {0, 1, 1, 2})};
  for (const auto& g : layouts) {
    std::vector<int> seen(g.elements(), 0);
    for (std::size_t s = 0; s < g.stats(); ++s) {
      const auto offs = g.offsets(s);
      REQUIRE(offs.size() == g.members());
      for (auto o : offs) {
        REQUIRE(o < g.elements());
        CHECK(g.stat_of(o) == s);
        ++seen[o];
      }
    }
    for (int c : seen) CHECK(c == 1);  // the groups partition the tensor
  }
}

// The reference: mean and population variance in long double, two-pass.
static std::pair<long double, long double> mean_var(const float* x, std::size_t n) {
  long double m = 0, v = 0;
  for (std::size_t i = 0; i < n; ++i) m += x[i];
  m /= n;
  for (std::size_t i = 0; i < n; ++i) v += (x[i] - m) * (x[i] - m);
  return {m, v / n};
}

TEST_CASE("MeanVar matches a long-double two-pass reference over a grid", "[engine][measure]") {
  for (std::size_t n : {1u, 3u, 33u, 64u, 1025u}) {
    for (double offset : {0.0, 1000.0, -1e4}) {
      const auto x = randoms(2 * n, unsigned(n), offset - 1, offset + 1);
      const Stats st = measure(x.data(), Group::rows(2, n), Measure::MeanVar);
      for (std::size_t r = 0; r < 2; ++r) {
        const auto [m, v] = mean_var(&x[r * n], n);
        INFO("n = " << n << ", offset = " << offset << ", row " << r);
        CHECK(st.center[r] == Approx(double(m)).epsilon(1e-12));
        CHECK(st.spread[r] == Approx(double(v)).epsilon(1e-9).margin(1e-15));
      }
    }
  }
}

TEST_CASE("LayerNorm over a grid of sizes and eps matches the formula", "[engine][layer_norm]") {
  for (std::size_t n : {1u, 3u, 33u, 64u, 1025u})
    for (double eps : {0.0, 1e-6, 1e-1, 10.0}) {
      if (n == 1 && eps == 0) continue;
      const auto x = randoms(3 * n, unsigned(n + 7), -3, 5);
      const auto out = run("layer_norm", {{"x", tensor({3, n}, x)}}, {{"eps", eps}});
      std::vector<double> want(3 * n);
      for (std::size_t r = 0; r < 3; ++r) {
        const auto [m, v] = mean_var(&x[r * n], n);
        for (std::size_t i = 0; i < n; ++i) want[r * n + i] = double((x[r * n + i] - m) / std::sqrt(v + eps));
      }
      INFO("n = " << n << ", eps = " << eps);
      expect_close(out.at("y").f, want, 1e-5, 1e-5);
    }
}

TEST_CASE("A large common offset keeps LayerNorm accurate (1000 + small differences, d = 1025)", "[engine][numerics]") {
  const std::size_t n = 1025;
  auto x = randoms(n, 99, -1, 1);
  std::vector<float> shifted(n);
  for (std::size_t i = 0; i < n; ++i) shifted[i] = 1000.0f + x[i];
  const auto a = run("layer_norm", {{"x", vec(shifted)}}, {{"eps", 0.0}}).at("y").f;
  // the exact float32 differences from 1000, standardized in long double
  std::vector<long double> d(n);
  long double m = 0, v = 0;
  for (std::size_t i = 0; i < n; ++i) m += (d[i] = (long double)shifted[i] - 1000.0L);
  m /= n;
  for (auto e : d) v += (e - m) * (e - m);
  v /= n;
  std::vector<double> want(n);
  for (std::size_t i = 0; i < n; ++i) want[i] = double((d[i] - m) / std::sqrt(v));
  expect_close(a, want, 1e-4, 1e-4);
}

TEST_CASE("Tiny and huge scales keep RMSNorm and L2 accurate", "[engine][numerics]") {
  for (float scale : {1e-30f, 1e-3f, 1e3f, 1e30f}) {
    auto x = randoms(33, 5, -1, 1);
    for (auto& e : x) e *= scale;
    const auto y = run("l2_normalize", {{"x", vec(x)}}, {{"eps", 0.0}}).at("y").f;
    long double ss = 0;
    for (float e : x) ss += (long double)e * e;
    std::vector<double> want;
    for (float e : x) want.push_back(double(e / std::sqrt(ss)));
    INFO("scale " << scale);
    expect_close(y, want, 1e-6, 1e-5);
  }
}

TEST_CASE("Standardize uses given statistics in evaluation mode", "[engine][mode]") {
  const Tensor x = tensor({2, 2}, {1, 2, 3, 4});
  Stats given{{1.0, 2.0}, {4.0, 1.0}};  // per channel: mean, variance
  Description d{"test",  Group::per_channel({2, 2}, 2), Measure::MeanVar, {true, Denominator::SqrtPlusEps, 0.0}, {},
                {&given}};
  const Tensor y = normlab::run(x, d);
  expect_close(y, std::vector<double>{0.0, 0.0, 1.0, 2.0});
}

TEST_CASE("A zero denominator with eps 0 is an error, not a NaN", "[engine][errors]") {
  const Tensor x = tensor({1, 3}, {2, 2, 2});
  Description d{"layer_norm", Group::rows(1, 3), Measure::MeanVar, {true, Denominator::SqrtPlusEps, 0.0}, {}, {}};
  CHECK_THROWS_WITH(normlab::run(x, d), Catch::Contains("layer_norm") && Catch::Contains("zero"));
}

TEST_CASE("Groups come from axes: kept and reduced runs give the four extents", "[engine][group]") {
  const Group bn = Group::of({4, 3, 5}, {0, 2});
  CHECK((std::array<std::size_t, 4>{bn.stat_outer, bn.reduce_outer, bn.stat_inner, bn.reduce_inner}) ==
        std::array<std::size_t, 4>{1, 4, 3, 5});
  const Group ln = Group::trailing({2, 3, 4}, 2);
  CHECK((std::array<std::size_t, 4>{ln.stat_outer, ln.reduce_outer, ln.stat_inner, ln.reduce_inner}) ==
        std::array<std::size_t, 4>{2, 12, 1, 1});
  const Group along = Group::along({2, 3, 4}, 1);
  CHECK((std::array<std::size_t, 4>{along.stat_outer, along.reduce_outer, along.stat_inner, along.reduce_inner}) ==
        std::array<std::size_t, 4>{2, 3, 4, 1});
}

TEST_CASE("Every row kernel the engine picks matches the generic engine on random inputs", "[engine][fast]") {
  // L2 / L1 / max norms and softmax over rows take kernels of their own.
  const std::vector<std::pair<Measure, Transform>> kinds{{Measure::SumSquare, {false, Denominator::MaxSqrtEps, 1e-12}},
                                                         {Measure::SumAbs, {false, Denominator::MaxEps, 1e-12}},
                                                         {Measure::MaxAbs, {false, Denominator::MaxEps, 1e-12}},
                                                         {Measure::SumExp, {true, Denominator::Exp, 0.0}}};
  for (std::size_t width : {1u, 3u, 4u, 7u, 16u, 33u, 768u, 3000u})
    for (double scale : {1e-20, 1.0, 1e15})
      for (std::size_t k = 0; k < kinds.size(); ++k) {
        if (kinds[k].first == Measure::SumExp && scale != 1.0) continue;
        auto v = randoms(4 * width, unsigned(width * 3 + k), -3, 3);
        for (auto& e : v) e = float(e * scale);
        const Tensor x = tensor({4, width}, v), g = tensor({width}, randoms(width, 9, 0.5, 2));
        Description d{"t", Group::rows(4, width), kinds[k].first, kinds[k].second, {}, {}};
        INFO("width " << width << ", scale " << scale << ", kind " << k);
        expect_close(normlab::run(x, d), normlab::run_generic(x, d), 2e-6, 2e-5);
        d.params = {g.data(), nullptr, {width}, {}, 0.0f};
        expect_close(normlab::run(x, d), normlab::run_generic(x, d), 2e-6, 2e-5);
      }
}

TEST_CASE("Per-channel parameters stay per channel when C equals the row width", "[engine][params]") {
  // InstanceNorm rows are spatial planes: a [C] gamma with C == spatial must not be read per coordinate.
  const Tensor x = tensor({1, 3, 3}, {1, 2, 5, 1, 2, 5, 0, 1, 4});
  const auto plain = run("instance_norm", {{"x", x}}, {{"eps", 0.0}}).at("y").f;
  const auto scaled =
      run("instance_norm", {{"x", x}, {"gamma", vec({1, 2, 3})}, {"beta", vec({0, 10, 20})}}, {{"eps", 0.0}}).at("y").f;
  std::vector<double> want(9);
  for (std::size_t i = 0; i < 9; ++i) want[i] = plain[i] * double(i / 3 + 1) + 10.0 * double(i / 3);
  expect_close(scaled, want, 1e-6, 1e-6);
  const auto g = run("group_norm", {{"x", tensor({1, 4, 2}, {1, 2, 3, 4, 5, 6, 7, 9})}, {"gamma", vec({1, 2, 3, 4})}},
                     {{"num_groups", 2.0}, {"eps", 0.0}})
                     .at("y")
                     .f;
  const auto g0 =
      run("group_norm", {{"x", tensor({1, 4, 2}, {1, 2, 3, 4, 5, 6, 7, 9})}}, {{"num_groups", 2.0}, {"eps", 0.0}})
          .at("y")
          .f;
  for (std::size_t i = 0; i < 8; ++i) CHECK(g[i] == Approx(g0[i] * double(i / 2 + 1)).margin(1e-6));
}

TEST_CASE("The SIMD row fast path matches the generic engine on random inputs", "[engine][fast]") {
  for (std::size_t width : {1u, 3u, 4u, 7u, 16u, 33u, 64u, 768u, 1025u, 3000u}) {
    for (double offset : {0.0, 1000.0}) {
      for (bool center : {true, false}) {
        const std::size_t rows = 5;
        const Tensor x =
            tensor({rows, width}, randoms(rows * width, unsigned(width * 7 + center), offset - 2, offset + 3));
        const Tensor g = tensor({width}, randoms(width, 3, 0.5, 2)), b = tensor({width}, randoms(width, 4, -1, 1));
        for (double eps : {1e-6, 1e-1}) {
          Description d{"t",
                        Group::rows(rows, width),
                        center ? Measure::MeanVar : Measure::MeanSquare,
                        {center, Denominator::SqrtPlusEps, eps},
                        {g.data(), center ? b.data() : nullptr, {width}, {width}, 0.0f},
                        {}};
          INFO("width " << width << ", offset " << offset << ", center " << center << ", eps " << eps);
          expect_close(normlab::run(x, d), normlab::run_generic(x, d), 2e-5, 2e-5);
        }
      }
    }
  }
}

TEST_CASE("The row kernel stays exact when the first numbers of a row are far from its mean", "[engine][fast]") {
  // The kernel shifts by the mean of the first 16 numbers; here that shift is
  // thousands of standard deviations off, or the head is constant, so the
  // kernel must notice and take a full mean first.
  for (std::size_t width : {17u, 64u, 768u, 5000u}) {
    for (double head : {1e4, -3e6, 1.0}) {
      auto v = randoms(2 * width, unsigned(width + 3), -1e-2, 1e-2);
      for (std::size_t i = 0; i < 16; ++i) v[i] = float(head), v[width + i] = float(head) + float(i) * 1e-3f;
      const Tensor x = tensor({2, width}, v);
      for (double eps : {0.0, 1e-5}) {
        Description d{"t", Group::rows(2, width), Measure::MeanVar, {true, Denominator::SqrtPlusEps, eps}, {}, {}};
        INFO("width " << width << ", head " << head << ", eps " << eps);
        expect_close(normlab::run(x, d), normlab::run_generic(x, d), 2e-5, 2e-5);
      }
    }
  }
}

TEST_CASE("A row holding float's largest numbers of both signs normalizes to finite values (found by fuzzing)",
          "[engine][fast]") {
  // One number against n - 1 equal others standardizes to sqrt(n - 1) and
  // -1 / sqrt(n - 1) whatever the two values; at 3e38 and -3e38 each x - mean
  // is past float's largest number, so the kernel must not form it in float.
  for (std::size_t width : {16u, 40u, 768u}) {
    std::vector<float> v(width, -3e38f);
    v[0] = 3e38f;
    const Tensor x = tensor({1, width}, v);
    Description d{"t", Group::rows(1, width), Measure::MeanVar, {true, Denominator::SqrtPlusEps, 1e-5}, {}, {}};
    const Tensor y = normlab::run(x, d);
    const double m = std::sqrt(double(width) - 1);
    INFO("width " << width);
    CHECK(y(0, 0) == Approx(m).epsilon(1e-5));
    for (std::size_t i = 1; i < width; ++i) CHECK(y(0, i) == Approx(-1 / m).epsilon(1e-5));
  }
}

TEST_CASE("The SIMD softmax rows match the strided generic softmax", "[kernels][fast]") {
  // Along the last axis the op takes the kernel; along axis 0 of the
  // transpose it takes the generic double loop over the same numbers.
  for (std::size_t width : {1u, 2u, 7u, 8u, 9u, 128u, 1000u, 2050u}) {
    for (double spread : {1.0, 30.0, 200.0}) {
      const std::size_t rows = 3;
      const auto v = randoms(rows * width, unsigned(width * 13 + spread), -spread, spread);
      Tensor x = tensor({rows, width}, v), xt_ = xt::empty<float>({width, rows});
      for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < width; ++c) xt_(c, r) = x(r, c);
      const auto fast = nt::run("softmax", {{"x", x}})["y"].f;
      const auto slow = nt::run("softmax", {{"x", xt_}}, {{"axis", 0.0}})["y"].f;
      INFO("width " << width << ", spread " << spread);
      for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < width; ++c) {
          const double f = fast[r * width + c], s = slow[c * rows + r];
          INFO("row " << r << " column " << c << ": " << f << " vs " << s);
          REQUIRE(std::fabs(f - s) <= 1e-7 + 2e-6 * s);
        }
    }
  }
}

TEST_CASE("The SIMD attention heads match a long-double reference, with and without mask and causal",
          "[kernels][fast]") {
  for (auto dims : std::vector<std::array<std::size_t, 5>>{
           {1, 1, 1, 1, 1}, {2, 5, 7, 3, 9}, {3, 16, 16, 8, 8}, {2, 13, 33, 64, 17}, {1, 128, 128, 64, 64}}) {
    const auto [b, tq, tk, dk, dv] = dims;
    const Tensor q = tensor({b, tq, dk}, randoms(b * tq * dk, 11, -2, 2));
    const Tensor k = tensor({b, tk, dk}, randoms(b * tk * dk, 12, -2, 2));
    const Tensor v = tensor({b, tk, dv}, randoms(b * tk * dv, 13, -3, 3));
    auto bits = randoms(tq * tk, 14, 0, 1);
    for (auto& e : bits) e = e < 0.35f ? 0.0f : 1.0f;
    for (std::size_t i = 0; i < tq; ++i) bits[i * tk] = 1;  // every query sees key 0
    const Tensor mask = tensor({tq, tk}, bits);
    for (int variant = 0; variant < 3; ++variant) {  // plain, mask, causal
      const bool use_mask = variant == 1, causal = variant == 2;
      std::map<std::string, Tensor> in{{"q", q}, {"k", k}, {"v", v}};
      if (use_mask) in["mask"] = mask;
      auto got = nt::run("scaled_dot_product_attention", in, {{"causal", causal}});
      const long double scale = 1.0L / std::sqrt((long double)dk);
      std::vector<double> want_w(b * tq * tk, 0.0), want_o(b * tq * dv, 0.0);
      for (std::size_t h = 0; h < b; ++h)
        for (std::size_t i = 0; i < tq; ++i) {
          std::vector<long double> s(tk);
          long double m = -INFINITY, z = 0;
          auto visible = [&, tk = tk](std::size_t j) {
            return (!causal || j <= i) && (!use_mask || bits[i * tk + j] != 0);
          };
          for (std::size_t j = 0; j < tk; ++j) {
            if (!visible(j)) continue;
            long double dot = 0;
            for (std::size_t e = 0; e < dk; ++e)
              dot += (long double)q.data()[(h * tq + i) * dk + e] * k.data()[(h * tk + j) * dk + e];
            s[j] = dot * scale;
            m = std::max(m, s[j]);
          }
          for (std::size_t j = 0; j < tk; ++j)
            if (visible(j)) z += (s[j] = std::exp(s[j] - m));
          for (std::size_t j = 0; j < tk; ++j) {
            if (!visible(j)) continue;
            want_w[(h * tq + i) * tk + j] = double(s[j] / z);
            for (std::size_t e = 0; e < dv; ++e)
              want_o[(h * tq + i) * dv + e] += double(s[j] / z * v.data()[(h * tk + j) * dv + e]);
          }
        }
      INFO("b tq tk dk dv = " << b << " " << tq << " " << tk << " " << dk << " " << dv << ", variant " << variant);
      expect_close(got["out"].f, want_o, 2e-6, 2e-5);
      expect_close(got["weights"].f, want_w, 1e-7, 2e-5);
      for (std::size_t e = 0; e < want_w.size(); ++e)
        if (want_w[e] == 0) REQUIRE(got["weights"].f[e] == 0.0f);  // hidden keys weigh exactly 0
    }
  }
}

TEST_CASE("What a parameter is per, and the axes it varies along, from its view", "[engine][params]") {
  // x [N, C, L] = [2, 3, 4], channels on axis 1
  const Shape x{2, 3, 4};
  CHECK(param_axes({1, 3, 1}, x) == std::vector<std::size_t>{1});
  CHECK(param_per({1, 3, 1}, x, 1) == Per::Channel);
  CHECK(param_per({2, 3, 1}, x, 1) == Per::ExampleChannel);
  CHECK(param_per({2, 3, 4}, x, 1) == Per::Element);
  CHECK(param_per({1}, x, 1) == Per::Scalar);
  // no channel axis: [4] along the row, [2, 1, 4] per example and coordinate
  CHECK(param_per({4}, x, -1) == Per::Coordinate);
  CHECK(param_axes({2, 1, 4}, x) == std::vector<std::size_t>{0, 2});
  CHECK(param_per({2, 1, 4}, x, -1) == Per::ExampleCoordinate);
  // C = 4 = L: the view, not the count, says per channel ([1, 4, 1] against [2, 4, 4])
  CHECK(param_per({1, 4, 1}, {2, 4, 4}, 1) == Per::Channel);
  CHECK(param_per({4}, {2, 4, 4}, 1) == Per::Coordinate);
}

TEST_CASE("A group's input axes and statistics shape, a split axis keeping its groups", "[engine][group]") {
  // GroupNorm on [2, 6, 5] with 3 groups: layout [2, 3, 2, 5], reduced {2, 3}
  const Group gn = Group::of({2, 3, 2, 5}, {2, 3}, {0, 1, 1, 2});
  CHECK(gn.input_axes() == std::vector<std::size_t>{1, 2});
  CHECK(gn.stat_shape({2, 6, 5}) == Shape{2, 3, 1});
  // BatchNorm on [4, 3, 5]: per channel over N and L
  const Group bn = Group::per_channel({4, 3, 5}, 4);
  CHECK(bn.input_axes() == std::vector<std::size_t>{0, 2});
  CHECK(bn.stat_shape({4, 3, 5}) == Shape{1, 3, 1});
  // ghost batches of 2 out of 4: the batch axis keeps 2 groups
  CHECK(Group::per_channel({4, 3, 5}, 2).stat_shape({4, 3, 5}) == Shape{2, 3, 1});
}

TEST_CASE("describe_op describes from a shape and attributes, checked as the door checks them", "[engine][describe]") {
  const Description gn = describe_op("group_norm", {2, 6, 5}, {{"num_groups", 3.0}});
  CHECK(gn.group.stats() == 6);
  CHECK(gn.group.members() == 10);
  CHECK(gn.transform.eps == 1e-5);                                // the default, filled in by the door
  const Description wn = describe_op("weight_norm", {4, 3}, {});  // its first input is v, not x
  CHECK(wn.group.stats() == 4);
  CHECK(wn.channel_axis == 0);
  CHECK_THROWS_WITH(describe_op("group_norm", {2, 6, 5}, {{"num_groups", 0.0}}), Contains("num_groups must be >= 1"));
  CHECK_THROWS_WITH(describe_op("no_such_op", {3}, {}), Contains("unknown operation 'no_such_op'"));
  CHECK_THROWS_WITH(describe_op("spectral_norm", {3, 3}, {}), Contains("not a normalization"));
}
