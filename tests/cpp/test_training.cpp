// Training ops: gradients against central differences of the loss (a check
// that needs nothing but the forward pass), the zero gate's identity start,
// and the optimizer's bookkeeping. PyTorch comparisons are in the
// conformance cases (tests/conformance/cases/training.json).
#include "helpers.hpp"

using namespace normlab;
using namespace nt;

namespace {

std::map<std::string, Attr> model(const std::string& placement, const std::string& norm, const std::string& gate,
                                  double depth = 3, double width = 5) {
  return {{"depth", depth}, {"width", width}, {"placement", placement}, {"norm", norm}, {"gate", gate}};
}

std::vector<float> floats(const Value& v) { return v.f; }

}  // namespace

TEST_CASE("Training: every gradient matches central differences of the loss", "[training]") {
  const auto data = run("train_data", {}, {{"count", 12.0}, {"seed", 3.0}, {"noise", 0.1}});
  for (const char* placement : {"none", "post", "pre", "pre_final"})
    for (const char* norm : {"layer_norm", "rms_norm"})
      for (const char* gate : {"none", "layer_scale"}) {
        auto attrs = model(placement, norm, gate);
        auto init_attrs = attrs;
        init_attrs["seed"] = 7.0;
        std::vector<float> p = floats(run("train_init", {}, init_attrs).at("params"));
        // move the gammas, betas and gates off their starting values, so that their gradients are generic
        for (std::size_t i = 0; i < p.size(); ++i) p[i] += 0.05f * float(int(i % 7) - 3);
        const Shape ps{p.size()};
        auto in = [&](const std::vector<float>& q) {
          return std::map<std::string, Tensor>{{"params", tensor(ps, q)},
                                               {"x", tensor({12, 2}, data.at("x").f)},
                                               {"labels", tensor({12}, data.at("labels").f)}};
        };
        const auto g = run("train_grad", in(p), attrs);
        INFO(placement << " / " << norm << " / " << gate);
        REQUIRE(g.at("grad").f.size() == p.size());
        for (std::size_t i = 0; i < p.size(); i += 3) {
          std::vector<float> a = p, b = p;
          a[i] += 2e-3f, b[i] -= 2e-3f;
          const double fd = (double(run("train_grad", in(a), attrs).at("loss").f[0]) -
                             double(run("train_grad", in(b), attrs).at("loss").f[0])) /
                            (double(a[i]) - double(b[i]));
          INFO("parameter " << i);
          CHECK(g.at("grad").f[i] == Approx(fd).margin(3e-4).epsilon(2e-2));
        }
      }
}

TEST_CASE("Training: a zero gate starts as the identity, so W2 gets no gradient on the first step", "[training]") {
  auto attrs = model("pre", "layer_norm", "zero", 4, 6);
  auto init = attrs;
  init["seed"] = 1.0;
  const auto p = run("train_init", {}, init).at("params").f;
  const auto data = run("train_data", {}, {{"count", 8.0}});
  const auto g =
      run("train_grad",
          {{"params", vec(p)}, {"x", tensor({8, 2}, data.at("x").f)}, {"labels", vec(data.at("labels").f)}}, attrs);
  // every block passes the stream through unchanged: the activation norm is the same at every layer
  const auto& act = g.at("act_norm").f;
  for (float a : act) CHECK(a == Approx(act[0]).epsilon(1e-6));
  // W2 of block 0 sits at 3W + W^2 + W in the layout; W = 6
  const std::size_t w2 = 3 * 6 + 36 + 6;
  for (std::size_t i = 0; i < 36; ++i) CHECK(g.at("grad").f[w2 + i] == 0.0f);
}

TEST_CASE("Training: steps count in the state, lr 0 leaves the parameters, bad input is named", "[training]") {
  auto attrs = model("post", "rms_norm", "none", 2, 4);
  auto init = attrs;
  const auto st = run("train_init", {}, init);
  const auto data = run("train_data", {}, {{"count", 10.0}});
  auto step = [&](double lr, double steps) {
    auto a = attrs;
    a["lr"] = lr, a["steps"] = steps;
    return run("train_step",
               {{"params", vec(st.at("params").f)},
                {"state", vec(st.at("state").f)},
                {"x", tensor({10, 2}, data.at("x").f)},
                {"labels", vec(data.at("labels").f)}},
               a);
  };
  const auto still = step(0.0, 3);
  expect_close(still.at("params").f, st.at("params").f, 0, 0);
  CHECK(still.at("state").f.back() == 3.0f);
  CHECK(still.at("loss").f.size() == 3);
  CHECK(still.at("status").i[0] == 0);
  const auto moved = step(0.05, 40);
  CHECK(moved.at("loss").f.back() < moved.at("loss").f.front());
  auto bad = attrs;
  bad["placement"] = std::string("middle");
  CHECK_THROWS_WITH(run("train_init", {}, bad), Catch::Contains("train_init") && Catch::Contains("placement"));
  bad = attrs;
  bad["depth"] = 65.0;
  CHECK_THROWS_WITH(run("train_init", {}, bad), Catch::Contains("depth must be in [1, 64]"));
}
