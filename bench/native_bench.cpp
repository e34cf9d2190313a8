// The same core compiled natively (g++ -O3): the ceiling the WASM build is
// compared with. Prints {"name": median_ms, ...} as JSON.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "normlab/ops.hpp"

using namespace normlab;

static double median_ms(int rounds, const std::function<void()>& f) {
  std::vector<double> t;
  f();  // warm-up
  for (int i = 0; i < rounds; ++i) {
    const auto a = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

static Tensor filled(const Shape& s) {
  Tensor t = xt::empty<float>(s);
  for (std::size_t i = 0; i < t.size(); ++i) t.data()[i] = float((i * 2654435761u) % 1000) / 500.0f - 1.0f;
  return t;
}

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 7;
  const Tensor x = filled({8, 512, 768}), sm = filled({96 * 128, 128}), gn = filled({8, 32, 64, 64});
  const Tensor q = filled({8, 12, 128, 64});
  std::vector<float> dst(x.size());
  std::printf("{\"layer_norm\": %.4f, ", median_ms(rounds, [&] { run_op("layer_norm", {{"x", x}}, {}); }));
  std::printf("\"rms_norm\": %.4f, ", median_ms(rounds, [&] { run_op("rms_norm", {{"x", x}}, {}); }));
  std::printf("\"softmax\": %.4f, ", median_ms(rounds, [&] { run_op("softmax", {{"x", sm}}, {}); }));
  std::printf("\"group_norm\": %.4f, ", median_ms(rounds, [&] { run_op("group_norm", {{"x", gn}}, {{"num_groups", 8.0}}); }));
  std::printf("\"attention\": %.4f, ", median_ms(std::max(1, rounds / 3), [&] { run_op("scaled_dot_product_attention", {{"q", q}, {"k", q}, {"v", q}}, {}); }));
  std::printf("\"copy\": %.4f}\n", median_ms(rounds, [&] { std::memcpy(dst.data(), x.data(), x.size() * 4); }));
}
