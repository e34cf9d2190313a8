// Direct WASM exports for the hot per-call path of the named functions
// (layerNorm, rmsNorm, l2Normalize on contiguous rows): plain pointers and
// numbers, no Embind conversion, no allocation. Any doubt (bad input, a zero
// denominator, an overflow) returns -1 and the JS layer repeats the call
// through the checked generic path, which produces the error message.
#include <emscripten/emscripten.h>

#include <cmath>
#include <cstddef>

#include "normlab/kernels.hpp"

namespace {

bool finite_all(const float* p, int n) {
  for (int i = 0; i < n; ++i)
    if (!std::isfinite(p[i])) return false;
  return true;
}

}  // namespace

extern "C" {

/// kind 0: layer_norm, 1: rms_norm, 2: l2_normalize, each over rows of `width`.
/// Returns 0 on success, -1 when the checked path must decide.
EMSCRIPTEN_KEEPALIVE int nl_rows(int kind, const float* x, float* y, int rows, int width, double eps,
                                 const float* gamma, const float* beta) {
  if (rows < 1 || width < 1 || !(eps >= 0) || !std::isfinite(eps)) return -1;
  const int n = rows * width;
  if (!finite_all(x, n) || (gamma && !finite_all(gamma, width)) || (beta && !finite_all(beta, width))) return -1;
  if (kind == 2) {
    for (int r = 0; r < rows; ++r) {
      double s = 0;
      for (int i = 0; i < width; ++i) s += double(x[r * width + i]) * x[r * width + i];
      const double d = std::fmax(std::sqrt(s), eps);
      if (!(d > 0)) return -1;
      for (int i = 0; i < width; ++i) y[r * width + i] = static_cast<float>(x[r * width + i] / d);
    }
  } else {
    const std::size_t bad = normlab::normalize_rows(x, y, rows, width, kind == 0, eps, gamma, beta);
    if (bad < static_cast<std::size_t>(rows)) return -1;
  }
  return finite_all(y, n) ? 0 : -1;
}

}  // extern "C"
