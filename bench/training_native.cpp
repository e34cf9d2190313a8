// Milliseconds per training step of <nl-depth-training>'s network, in the
// core compiled natively (g++ -O3, the library of build/native): the ceiling
// the WASM build is compared with in bench/training.mjs. Prints
// {"<placement>-<depth>": median ms per step} as JSON.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "normlab/ops.hpp"

using namespace normlab;

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 5, steps = 10;
  const auto data = run_op("train_data", {}, {{"count", 128.0}, {"seed", 1.0}});
  auto tensor = [](const Value& v) {
    Tensor t = xt::empty<float>(v.shape);
    std::copy(v.f.begin(), v.f.end(), t.begin());
    return t;
  };
  std::printf("{");
  bool first = true;
  for (double depth : {8.0, 16.0, 24.0})
    for (const char* placement : {"none", "post", "pre", "pre_final"}) {
      std::map<std::string, Attr> attrs{{"depth", depth}, {"width", 16.0}, {"placement", std::string(placement)}};
      const auto start = run_op("train_init", {}, attrs);
      Tensor params = tensor(start.at("params")), state = tensor(start.at("state"));
      attrs["steps"] = double(steps);
      std::vector<double> t;
      for (int r = 0; r < rounds; ++r) {
        const auto a = std::chrono::steady_clock::now();
        const auto out = run_op(
            "train_step",
            {{"params", params}, {"state", state}, {"x", tensor(data.at("x"))}, {"labels", tensor(data.at("labels"))}},
            attrs);
        t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count() / steps);
        params = tensor(out.at("params")), state = tensor(out.at("state"));
      }
      std::sort(t.begin(), t.end());
      std::printf("%s\"%s-%d\": %.4f", first ? "" : ", ", placement, int(depth), t[t.size() / 2]);
      first = false;
    }
  std::printf("}\n");
}
