// normlab core: fast paths for the hottest descriptions, in explicit SIMD
// (GCC/Clang vector extensions, which become wasm simd128 or SSE) with several
// accumulators and wider accumulation where accuracy needs it — no global
// fast-math. The ops use them behind the same checks as the generic engine,
// and the tests compare both paths on random inputs:
//   - statistics over contiguous rows (LayerNorm, RMSNorm, GroupNorm without
//     per-channel parameters) with an optional per-coordinate scale and shift;
//   - the L2 / L1 / max norms over contiguous rows;
//   - softmax over contiguous rows;
//   - one head of scaled dot-product attention, with an optional mask and
//     causal masking.
#pragma once

#include <cmath>
#include <cstddef>

namespace normlab {

/// y[r, :] = (x[r, :] - mean) / sqrt(var + eps) * gamma + beta for each row r
/// (center = true; mean/var of the row), or x / sqrt(mean(x^2) + eps) * gamma
/// (center = false). gamma / beta may be null; y may alias x. Returns the
/// index of the first row whose denominator is zero, or rows when none is.
std::size_t normalize_rows(const float* x, float* y, std::size_t rows, std::size_t width, bool center, double eps,
                           const float* gamma, const float* beta);

/// y[r, :] = softmax(x[r, :]) for each row (max subtracted first). Returns
/// the index of the first row holding a non-finite number (y unspecified
/// from there), or rows.
std::size_t softmax_rows(const float* x, float* y, std::size_t rows, std::size_t width);

/// The vector norms over contiguous rows: y = x / max(||x||_2, eps) (L2),
/// x / max(sum |x|, eps) (L1) or x / max(max |x|, eps) (Max). y may alias x.
/// Returns the index of the first row that is not finite or whose
/// denominator is zero, or rows.
enum class RowNorm { L2, L1, Max };
std::size_t scale_rows(const float* x, float* y, std::size_t rows, std::size_t width, RowNorm kind, double eps);

/// Scaled dot-product attention's default scale, 1 / sqrt(dk).
inline double default_attention_scale(std::size_t dk) { return 1.0 / std::sqrt(double(dk)); }

/// One head: weights = softmax(scale * q k^T), out = weights v, for
/// q [tq, dk], k [tk, dk], v [tk, dv], all row-major; `scratch` holds tk * dk
/// floats. With `mask` ([tq, tk], nonzero = visible) and/or `causal` (key j
/// visible to query i when j <= i) hidden keys get weight exactly 0. Returns
/// false when a visible score is not finite or a query sees no key (the
/// caller's careful path then decides and names the problem).
bool attention_head(const float* q, const float* k, const float* v, float* out, float* weights, std::size_t tq,
                    std::size_t tk, std::size_t dk, std::size_t dv, float scale, float* scratch,
                    const float* mask = nullptr, bool causal = false);

}  // namespace normlab
