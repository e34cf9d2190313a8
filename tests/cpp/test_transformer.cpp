// The transformer's training ops: shapes, the causal mask, gradients against
// central differences of the loss, AdamW's bookkeeping, sampling and bad
// input. PyTorch comparisons are in the conformance cases
// (tests/conformance/cases/transformer.json, scripts/gen_transformer_references.py).
#include "helpers.hpp"

using namespace normlab;
using namespace nt;

namespace {

std::map<std::string, Attr> tiny(const std::string& placement = "pre_final", const std::string& norm = "layer_norm",
                                 const std::string& qk = "none", bool tied = true) {
  return {{"vocab", 7.0},     {"d_model", 8.0},         {"heads", 2.0}, {"layers", 2.0}, {"context", 5.0},
          {"mlp_ratio", 2.0}, {"placement", placement}, {"norm", norm}, {"qk_norm", qk}, {"tied", tied}};
}

// Parameter count of the layout in training_transformer.hpp, derived by hand for the tiny model:
// V=7, D=8, H=2 (hd 4), S=5, F=16: E 56 + Pos 40 + 2 blocks of (4*8 + 4*64 + 4*4 + 1 + 2*8*16 = 561) + 16 + Wh 56.
constexpr std::size_t kTinyParams = 56 + 40 + 2 * 561 + 16 + 56;

std::vector<float> start(const std::map<std::string, Attr>& attrs, double seed, float jitter = 0.1f) {
  auto a = attrs;
  a["seed"] = seed;
  std::vector<float> p = run("tfm_init", {}, a).at("params").f;
  const auto noise = randoms(p.size(), unsigned(seed) + 17);
  for (std::size_t i = 0; i < p.size(); ++i) p[i] += jitter * noise[i];
  return p;
}

std::map<std::string, Tensor> batch(const std::vector<float>& p, const std::vector<float>& tokens,
                                    const std::vector<float>& targets, std::size_t B, std::size_t T) {
  return {{"params", vec(p)}, {"tokens", tensor({B, T}, tokens)}, {"targets", tensor({B, T}, targets)}};
}

const std::vector<float> kTokens{1, 4, 0, 6, 2, 3, 5, 5, 0, 1}, kTargets{4, 0, 6, 2, 3, 5, 5, 0, 1, 2};

}  // namespace

TEST_CASE("Transformer: tfm_init and tfm_grad give the documented shapes", "[transformer]") {
  const auto attrs = tiny();
  auto a = attrs;
  a["seed"] = 1.0;
  const auto init = run("tfm_init", {}, a);
  REQUIRE(init.at("params").f.size() == kTinyParams);
  REQUIRE(init.at("state").f.size() == 2 * kTinyParams + 1);
  for (float v : init.at("state").f) CHECK(v == 0.0f);
  const auto g = run("tfm_grad", batch(init.at("params").f, kTokens, kTargets, 2, 5), attrs);
  CHECK(g.at("loss").shape == Shape{1});
  CHECK(g.at("grad").shape == Shape{kTinyParams});
  CHECK(g.at("logits").shape == Shape{2, 5, 7});
  for (const char* name : {"max_logit", "entropy", "act_rms", "grad_norm"}) CHECK(g.at(name).shape == Shape{2});
  CHECK(g.at("logit_mean").shape == Shape{1});
  // the loss is the mean cross-entropy of the logits it returns (z_loss 0)
  double ce = 0;
  for (std::size_t n = 0; n < 10; ++n) {
    const float* lg = g.at("logits").f.data() + n * 7;
    double sum = 0;
    for (std::size_t v = 0; v < 7; ++v) sum += std::exp(double(lg[v]));
    ce += std::log(sum) - lg[std::size_t(kTargets[n])];
  }
  CHECK(g.at("loss").f[0] == Approx(ce / 10).epsilon(1e-5));
  // entropy of a causal row of i + 1 keys is at most log(i + 1): the mean over rows 0..4 at most their mean
  const double bound = (std::log(1.0) + std::log(2.0) + std::log(3.0) + std::log(4.0) + std::log(5.0)) / 5;
  for (float e : g.at("entropy").f) CHECK(e <= bound + 1e-6);
}

TEST_CASE("Transformer: changing a future token leaves every earlier position's logits unchanged", "[transformer]") {
  for (const char* placement : {"post", "pre", "pre_final"})
    for (const char* qk : {"none", "l2", "layer_norm"}) {
      const auto attrs = tiny(placement, "layer_norm", qk);
      const auto p = start(attrs, 3);
      std::vector<float> other = kTokens;
      other[3] = 5;  // sequence 0, position 3
      const auto a = run("tfm_grad", batch(p, kTokens, kTargets, 2, 5), attrs).at("logits").f;
      const auto b = run("tfm_grad", batch(p, other, kTargets, 2, 5), attrs).at("logits").f;
      INFO(placement << " / " << qk);
      for (std::size_t i = 0; i < 3 * 7; ++i) CHECK(a[i] == b[i]);  // positions 0..2 of sequence 0
      double moved = 0;
      for (std::size_t i = 3 * 7; i < 5 * 7; ++i) moved += std::fabs(a[i] - b[i]);
      CHECK(moved > 1e-3);
      for (std::size_t i = 5 * 7; i < 10 * 7; ++i) CHECK(a[i] == b[i]);  // the other sequence
    }
}

TEST_CASE("Transformer: every gradient matches central differences of the loss", "[transformer]") {
  for (const char* placement : {"post", "pre", "pre_final"})
    for (const char* norm : {"layer_norm", "rms_norm"})
      for (const char* qk : {"none", "l2", "layer_norm", "rms_norm"})
        for (bool tied : {true, false}) {
          // GELU only: central differences straddle ReLU's kink (ReLU is checked against torch.autograd)
          auto attrs = tiny(placement, norm, qk, tied);
          if (tied) attrs["z_loss"] = 0.05;
          const auto p = start(attrs, 7, 0.2f);
          const auto g = run("tfm_grad", batch(p, kTokens, kTargets, 2, 5), attrs).at("grad").f;
          INFO(placement << " / " << norm << " / " << qk << " / tied " << tied);
          REQUIRE(g.size() == kTinyParams);
          for (std::size_t i = 0; i < p.size(); i += 7) {
            std::vector<float> a = p, b = p;
            a[i] += 2e-3f, b[i] -= 2e-3f;
            const double la = run("tfm_grad", batch(a, kTokens, kTargets, 2, 5), attrs).at("loss").f[0];
            const double lb = run("tfm_grad", batch(b, kTokens, kTargets, 2, 5), attrs).at("loss").f[0];
            const double fd = (la - lb) / (double(a[i]) - double(b[i]));
            INFO("parameter " << i);
            CHECK(g[i] == Approx(fd).margin(5e-4).epsilon(3e-2));
          }
        }
}

TEST_CASE("Transformer: AdamW counts steps, lr 0 leaves the parameters, training lowers the loss", "[transformer]") {
  const auto attrs = tiny("pre_final", "rms_norm", "l2");
  auto a = attrs;
  a["seed"] = 2.0;
  const auto init = run("tfm_init", {}, a);
  auto step = [&](double lr, double steps, double warmup, double total) {
    auto s = attrs;
    s["lr"] = lr, s["steps"] = steps, s["warmup"] = warmup, s["total"] = total, s["weight_decay"] = 0.0;
    auto in = batch(init.at("params").f, kTokens, kTargets, 2, 5);
    in["state"] = vec(init.at("state").f);
    return run("tfm_step", in, s);
  };
  const auto still = step(0.0, 3, 0, 0);
  expect_close(still.at("params").f, init.at("params").f, 0, 0);
  CHECK(still.at("state").f.back() == 3.0f);
  CHECK(still.at("loss").shape == Shape{3});
  CHECK(still.at("max_logit").shape == (Shape{3, 2}));
  CHECK(still.at("logit_mean").shape == Shape{3});
  CHECK(still.at("status").i[0] == 0);
  // parameters unchanged: every step sees the same loss
  CHECK(still.at("loss").f[2] == still.at("loss").f[0]);
  const auto moved = step(0.03, 40, 5, 40);
  CHECK(moved.at("loss").f.back() < 0.5f * moved.at("loss").f.front());
  // warm-up: the first step moves no parameter by more than lr / warmup (Adam's step is at most ~lr)
  const auto first = step(0.05, 1, 10, 0);
  double most = 0;
  for (std::size_t i = 0; i < kTinyParams; ++i)
    most = std::max(most, std::fabs(double(first.at("params").f[i]) - double(init.at("params").f[i])));
  CHECK(most <= 0.05 / 10 * 1.001);
  CHECK(most > 0.05 / 10 * 0.5);
}

TEST_CASE("Transformer: a step that would leave float32's range is not taken: status 1, nothing moves",
          "[transformer]") {
  const auto attrs = tiny("pre");
  const auto p = start(attrs, 6);
  std::vector<float> state(2 * p.size() + 1, 0.0f);
  state[p.size() + 3] = 3e38f;  // a second moment near float32's largest: beta2 * it is still past 1e38
  state.back() = 5;
  auto in = batch(p, kTokens, kTargets, 2, 5);
  in["state"] = vec(state);
  auto s = attrs;
  s["steps"] = 4.0;
  const auto out = run("tfm_step", in, s);
  CHECK(out.at("status").i[0] == 1);
  CHECK(out.at("loss").f.empty());
  CHECK(out.at("max_logit").shape == (Shape{0, 2}));
  expect_close(out.at("params").f, p, 0, 0);
  expect_close(out.at("state").f, state, 0, 0);
}

TEST_CASE("Transformer: one call of K batches equals K calls of one", "[transformer]") {
  const auto attrs = tiny("post");
  const auto p = start(attrs, 4);
  const std::vector<float> state(2 * p.size() + 1, 0.0f);
  auto s = attrs;
  s["lr"] = 0.01, s["steps"] = 2.0;
  std::vector<float> tok2 = kTokens, tar2 = kTargets;
  tok2.insert(tok2.end(), kTargets.begin(), kTargets.end());
  tar2.insert(tar2.end(), kTokens.begin(), kTokens.end());
  const auto both = run("tfm_step",
                        {{"params", vec(p)},
                         {"state", vec(state)},
                         {"tokens", tensor({2, 2, 5}, tok2)},
                         {"targets", tensor({2, 2, 5}, tar2)}},
                        s);
  s["steps"] = 1.0;
  auto one = batch(p, kTokens, kTargets, 2, 5);
  one["state"] = vec(state);
  const auto r1 = run("tfm_step", one, s);
  auto two = batch(r1.at("params").f, kTargets, kTokens, 2, 5);
  two["state"] = vec(r1.at("state").f);
  const auto r2 = run("tfm_step", two, s);
  expect_close(both.at("params").f, r2.at("params").f, 0, 0);
  expect_close(both.at("state").f, r2.at("state").f, 0, 0);
  CHECK(both.at("loss").f[1] == r2.at("loss").f[0]);
}

TEST_CASE("Transformer: sampling is seeded, greedy is the argmax, tokens stay in the vocabulary", "[transformer]") {
  const auto attrs = tiny("pre", "layer_norm", "rms_norm");
  const auto p = start(attrs, 5, 0.5f);
  auto s = attrs;
  s["count"] = 12.0, s["temperature"] = 0.0;
  const std::map<std::string, Tensor> in{{"params", vec(p)}, {"prompt", vec({1, 2})}};
  const auto greedy = run("tfm_sample", in, s).at("tokens").i;
  REQUIRE(greedy.size() == 12);
  // greedy's first token is the argmax of tfm_grad's logits at the prompt's last position
  const auto lg = run("tfm_grad", batch(p, {1, 2}, {0, 0}, 1, 2), attrs).at("logits").f;
  std::size_t best = 0;
  for (std::size_t v = 1; v < 7; ++v)
    if (lg[7 + v] > lg[7 + best]) best = v;
  CHECK(greedy[0] == std::int64_t(best));
  s["temperature"] = 2.0, s["seed"] = 9.0;
  const auto a = run("tfm_sample", in, s).at("tokens").i, b = run("tfm_sample", in, s).at("tokens").i;
  CHECK(a == b);
  for (auto t : a) CHECK((t >= 0 && t < 7));
  s["seed"] = 10.0;
  CHECK(run("tfm_sample", in, s).at("tokens").i != a);
}

TEST_CASE("Transformer: bad input is refused with the op and the argument named", "[transformer]") {
  const auto attrs = tiny();
  const auto p = start(attrs, 1);
  auto bad = attrs;
  bad["heads"] = 3.0;
  CHECK_THROWS_WITH(run("tfm_init", {}, bad), Catch::Contains("tfm_init") && Catch::Contains("heads must divide"));
  bad = attrs;
  bad["qk_norm"] = std::string("cosine");
  CHECK_THROWS_WITH(run("tfm_init", {}, bad), Catch::Contains("qk_norm"));
  bad = attrs;
  bad["layers"] = 17.0;
  CHECK_THROWS_WITH(run("tfm_init", {}, bad), Catch::Contains("layers must be in [1, 16]"));
  std::vector<float> tok = kTokens;
  tok[4] = 7;
  CHECK_THROWS_WITH(run("tfm_grad", batch(p, tok, kTargets, 2, 5), attrs),
                    Catch::Contains("tfm_grad: tokens must hold whole numbers in [0, 6] (got 7 at index 4)"));
  tok[4] = 1.5f;
  CHECK_THROWS_WITH(run("tfm_grad", batch(p, tok, kTargets, 2, 5), attrs), Catch::Contains("got 1.5"));
  CHECK_THROWS_WITH(run("tfm_grad", batch(p, kTokens, kTargets, 1, 10), attrs),
                    Catch::Contains("tokens") && Catch::Contains("context is 5"));
  std::vector<float> shorter(p.begin(), p.end() - 1);
  CHECK_THROWS_WITH(run("tfm_grad", batch(shorter, kTokens, kTargets, 2, 5), attrs),
                    Catch::Contains("tfm_grad") && Catch::Contains("params"));
  auto in = batch(p, kTokens, kTargets, 2, 5);
  in["targets"] = tensor({5, 2}, kTargets);
  CHECK_THROWS_WITH(run("tfm_grad", in, attrs), Catch::Contains("targets"));
  in = batch(p, kTokens, kTargets, 2, 5);
  in["state"] = vec({0, 0, 0});
  CHECK_THROWS_WITH(run("tfm_step", in, attrs), Catch::Contains("tfm_step") && Catch::Contains("state"));
  in["state"] = vec(std::vector<float>(2 * p.size() + 1, 0.0f));
  in["state"](2 * p.size()) = 0.5f;
  CHECK_THROWS_WITH(run("tfm_step", in, attrs), Catch::Contains("state's last number"));
  CHECK_THROWS_WITH(run("tfm_sample", {{"params", vec(p)}, {"prompt", vec({})}}, attrs),
                    Catch::Contains("tfm_sample: prompt is empty"));
  // a model past the work limit is refused before any arithmetic
  auto big = attrs;
  big["d_model"] = 512.0, big["heads"] = 8.0, big["layers"] = 16.0, big["vocab"] = 1024.0, big["context"] = 1024.0;
  CHECK_THROWS_WITH(run("tfm_init", {}, big), Catch::Contains("tfm_init") && Catch::Contains("parameters"));
  CHECK_NOTHROW(run("tfm_grad", batch(p, kTokens, kTargets, 2, 5), attrs));
}
