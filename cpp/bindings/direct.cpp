// Direct WASM exports for the hot paths of the named JS functions: plain
// pointers and numbers, no Embind conversion, no allocation. The pointers may
// be the JS layer's staging buffer or tensors the user keeps in WASM memory
// (core.tensor), so resident data is read and written in place. Any doubt
// (bad input, a zero denominator, an overflow, an unsupported layout) returns
// -1 and the JS layer repeats the call through the checked generic path,
// which produces the error message; results and errors are the same either way.
#include <emscripten/emscripten.h>

#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <cstring>

#include "normlab/kernels.hpp"
#include "normlab/tensor.hpp"

namespace {

typedef float f4 __attribute__((vector_size(16)));

// x * 0 is 0 for every finite x and NaN otherwise.
bool finite_all(const float* p, std::size_t n) {
  f4 acc = {0, 0, 0, 0};
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    f4 v;
    std::memcpy(&v, p + i, sizeof v);
    acc += v * 0.0f;
  }
  float bad = (acc[0] + acc[1]) + (acc[2] + acc[3]);
  for (; i < n; ++i) bad += p[i] * 0.0f;
  return bad == 0;
}

float max_abs(const float* p, std::size_t n) {
  float m = 0;
  for (std::size_t i = 0; i < n; ++i) m = std::fmax(m, std::fabs(p[i]));
  return m;
}

}  // namespace

extern "C" {

/// kind 0: layer_norm, 1: rms_norm, 2: l2_normalize, 3: softmax, each over
/// contiguous rows of `width`. Returns 0 on success, -1 when the checked path
/// must decide.
EMSCRIPTEN_KEEPALIVE int nl_rows(int kind, const float* x, float* y, int rows, int width, double eps,
                                 const float* gamma, const float* beta) {
  if (rows < 1 || width < 1 || !(eps >= 0) || !std::isfinite(eps)) return -1;
  const std::size_t n = std::size_t(rows) * std::size_t(width), w = std::size_t(width);
  if (n > normlab::kMaxElements) return -1;  // the checked path names the limit
  if (kind == 3) return normlab::softmax_rows(x, y, rows, w) ? 0 : -1;
  if ((gamma && !finite_all(gamma, w)) || (beta && !finite_all(beta, w))) return -1;
  if (kind == 2) {
    if (!finite_all(x, n)) return -1;
    for (std::size_t r = 0; r < std::size_t(rows); ++r) {
      double s = 0;
      for (std::size_t i = 0; i < w; ++i) s += double(x[r * w + i]) * x[r * w + i];
      const double d = std::fmax(std::sqrt(s), eps);
      if (!(d > 0)) return -1;
      for (std::size_t i = 0; i < w; ++i) y[r * w + i] = static_cast<float>(x[r * w + i] / d);
    }
    return finite_all(y, n) ? 0 : -1;
  }
  // The kernel's sums turn any non-finite input into a failed row.
  if (normlab::normalize_rows(x, y, rows, w, kind == 0, eps, gamma, beta) < std::size_t(rows)) return -1;
  if (w < 16 && rows == 1) return finite_all(y, w) ? 0 : -1;  // the per-call case: a plain check is cheapest
  // |x - mean| / sqrt(var + eps) <= sqrt(width): the output cannot overflow
  // unless gamma / beta are huge, and only then is it scanned.
  const double bound = std::sqrt(double(w)) * (gamma ? max_abs(gamma, w) : 1.0) + (beta ? max_abs(beta, w) : 0.0);
  return bound < 1e37 || finite_all(y, n) ? 0 : -1;
}

/// Scaled dot-product attention without a mask over `batch` heads:
/// q [batch, tq, dk], k [batch, tk, dk], v [batch, tk, dv]; scale NaN means
/// the op's default, 1 / sqrt(dk).
EMSCRIPTEN_KEEPALIVE int nl_attention(const float* q, const float* k, const float* v, float* out, float* weights,
                                      int batch, int tq, int tk, int dk, int dv, double scale) {
  if (std::isnan(scale) && dk >= 1) scale = normlab::default_attention_scale(dk);
  if (batch < 1 || tq < 1 || tk < 1 || dk < 1 || dv < 1 || !std::isfinite(scale)) return -1;
  // The same limits as the checked path (which names them): sizes, and work.
  const double b = batch;
  if (b * tq * dk > normlab::kMaxElements || b * tk * dk > normlab::kMaxElements || b * tk * dv > normlab::kMaxElements ||
      b * tq * tk > normlab::kMaxElements || b * tq * dv > normlab::kMaxElements ||
      b * tq * tk * double(dk + dv) > normlab::kMaxWork)
    return -1;
  // NaN or infinity in q or k makes a score non-finite, which the kernel
  // reports; v is checked here.
  if (!finite_all(v, std::size_t(batch) * tk * dv)) return -1;
  float* scratch = static_cast<float*>(std::malloc(std::size_t(tk) * dk * sizeof(float)));
  if (!scratch) return -1;
  int status = 0;
  for (std::size_t b = 0; b < std::size_t(batch) && status == 0; ++b)
    if (!normlab::attention_head(q + b * tq * dk, k + b * tk * dk, v + b * tk * dv, out + b * tq * dv,
                                 weights + b * tq * tk, tq, tk, dk, dv, static_cast<float>(scale), scratch))
      status = -1;
  std::free(scratch);
  return status;
}

/// For the benchmarks: a plain copy of the same bytes (memory.copy with bulk
/// memory), the machine's copy bandwidth inside WASM.
EMSCRIPTEN_KEEPALIVE void nl_bench_copy(void* dst, const void* src, std::size_t bytes) { std::memcpy(dst, src, bytes); }

}  // extern "C"
