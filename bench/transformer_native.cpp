// Milliseconds per tfm_step of the default transformer (bench/transformer.mjs
// states it), in the core compiled natively (g++ -O3, build/native's library).
// argv: rounds (the model is fixed here to match the script). Prints the
// median ms per step.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "normlab/ops.hpp"

using namespace normlab;

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 5, steps = 3;
  const std::size_t B = 8, T = 64, V = 80;
  std::map<std::string, Attr> attrs{{"vocab", double(V)}, {"d_model", 64.0}, {"heads", 4.0},
                                    {"layers", 2.0},      {"context", 64.0}, {"qk_norm", std::string("l2")}};
  auto tensor = [](const Value& v) {
    Tensor t = xt::empty<float>(v.shape);
    std::copy(v.f.begin(), v.f.end(), t.begin());
    return t;
  };
  const auto start = run_op("tfm_init", {}, attrs);
  Tensor params = tensor(start.at("params")), state = tensor(start.at("state"));
  Tensor tokens = xt::empty<float>({B, T}), targets = xt::empty<float>({B, T});
  for (std::size_t i = 0; i < B * T; ++i)
    tokens.data()[i] = float((i * 7 + i / 5) % V), targets.data()[i] = float((i * 7 + 7 + (i + 1) / 5) % V);
  std::vector<double> t;
  for (int r = 0; r < rounds; ++r) {
    const auto a = std::chrono::steady_clock::now();
    for (int k = 0; k < steps; ++k) {  // one step a call, as the page calls it (the work limit allows one)
      const auto out =
          run_op("tfm_step", {{"params", params}, {"state", state}, {"tokens", tokens}, {"targets", targets}}, attrs);
      params = tensor(out.at("params")), state = tensor(out.at("state"));
    }
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count() / steps);
  }
  std::sort(t.begin(), t.end());
  std::printf("%.4f\n", t[t.size() / 2]);
}
