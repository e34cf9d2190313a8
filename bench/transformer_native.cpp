// Milliseconds per tfm_step of one of bench/transformer.mjs's models, in the
// core compiled natively (g++ -O3, build/native's library).
// argv: rounds vocab d_model heads layers context qk_norm (batch 8 x context).
// Prints the median ms per step.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "normlab/ops.hpp"

using namespace normlab;

int main(int argc, char** argv) {
  if (argc != 8) {
    std::fprintf(stderr, "usage: transformer_native rounds vocab d_model heads layers context qk_norm\n");
    return 2;
  }
  const int rounds = std::atoi(argv[1]), steps = 3;
  const std::size_t B = 8, V = std::size_t(std::atoi(argv[2])), T = std::size_t(std::atoi(argv[6]));
  std::map<std::string, Attr> attrs{{"vocab", double(V)},          {"d_model", std::atof(argv[3])},
                                    {"heads", std::atof(argv[4])}, {"layers", std::atof(argv[5])},
                                    {"context", double(T)},        {"qk_norm", std::string(argv[7])}};
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
