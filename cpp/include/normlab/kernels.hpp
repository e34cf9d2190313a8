// normlab core: fast paths for the hottest description — statistics over
// contiguous rows (LayerNorm and RMSNorm over the last axes) with an optional
// per-coordinate scale and shift. Explicit SIMD (GCC/Clang vector extensions,
// which become wasm simd128 or SSE), several accumulators, the mean summed in
// double. The engine uses them behind the same Description and the tests
// compare them with the generic path on random inputs.
#pragma once

#include <cstddef>

namespace normlab {

/// y[r, :] = (x[r, :] - mean) / sqrt(var + eps) * gamma + beta for each row r
/// (center = true; mean/var of the row), or x / sqrt(mean(x^2) + eps) * gamma
/// (center = false). gamma / beta may be null. Returns the index of the first
/// row whose denominator is zero, or rows when none is.
std::size_t normalize_rows(const float* x, float* y, std::size_t rows, std::size_t width, bool center, double eps,
                           const float* gamma, const float* beta);

}  // namespace normlab
