// The same C++ kernels the WASM build runs, compiled natively with g++ -O3:
// the ceiling the WASM build is compared with. Prints {"name": median_ms} as
// JSON for the bench's shapes.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "normlab/kernels.hpp"

using namespace normlab;

template <class F>
static double median_ms(int rounds, F&& f) {
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

// The bench's fill: the same numbers bench/run.mjs uses.
static std::vector<float> filled(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = float((i * 2654435761ull) % 1000) / 500.0f - 1.0f;
  return v;
}

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 7;
  const std::size_t ln = 8 * 512 * 768, sm = 96 * 128 * 128, gn = 8 * 32 * 64 * 64, qn = 8 * 12 * 128 * 64;
  const auto x = filled(ln), s = filled(sm), g = filled(gn), q = filled(qn);
  std::vector<float> y(std::max({ln, sm, gn})), out(qn), w(96 * 128 * 128), kt(128 * 64);
  std::printf("{\"layer_norm\": %.4f, ",
              median_ms(rounds, [&] { normalize_rows(x.data(), y.data(), 4096, 768, true, 1e-5, nullptr, nullptr); }));
  std::printf("\"rms_norm\": %.4f, ",
              median_ms(rounds, [&] { normalize_rows(x.data(), y.data(), 4096, 768, false, 1e-6, nullptr, nullptr); }));
  std::printf("\"softmax\": %.4f, ", median_ms(rounds, [&] { softmax_rows(s.data(), y.data(), 96 * 128, 128); }));
  std::printf("\"group_norm\": %.4f, ",
              median_ms(rounds, [&] { normalize_rows(g.data(), y.data(), 64, 16384, true, 1e-5, nullptr, nullptr); }));
  std::printf("\"attention\": %.4f, ", median_ms(rounds, [&] {
                for (std::size_t b = 0; b < 96; ++b)
                  attention_head(q.data() + b * 8192, q.data() + b * 8192, q.data() + b * 8192, out.data() + b * 8192,
                                 w.data() + b * 16384, 128, 128, 64, 64, 0.125f, kt.data());
              }));
  std::printf("\"copy\": %.4f}\n", median_ms(rounds, [&] { std::memcpy(y.data(), x.data(), ln * 4); }));
}
