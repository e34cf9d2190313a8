// normlab core: the statistics engine.
//
// Every normalization is described by five pieces (see shared/design.md):
//   group      - which numbers are measured together,
//   measure    - what is measured over a group (mean & variance, RMS, L2, L1, max),
//   transform  - center or not, divide by what, where eps goes,
//   params     - learned scale and shift and how they broadcast over the input,
//   mode       - current (batch) statistics, or given (running) ones.
// A named normalization is a Description built in a few lines; run() does the work.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "normlab/tensor.hpp"

namespace normlab {

/// Which numbers share statistics. The input is viewed as four extents
/// [stat_outer, reduce_outer, stat_inner, reduce_inner]; element
/// ((i*reduce_outer + j)*stat_inner + k)*reduce_inner + l belongs to statistic
/// i*stat_inner + k, and a group holds reduce_outer*reduce_inner numbers.
/// LayerNorm rows:  [rows, width, 1, 1]
/// along an axis:   [outer, axis, inner, 1]
/// BatchNorm:       [1, N, C, spatial]
/// GroupNorm:       [N*G, (C/G)*spatial, 1, 1]
struct Group {
  std::size_t stat_outer = 1, reduce_outer = 1, stat_inner = 1, reduce_inner = 1;

  std::size_t stats() const { return stat_outer * stat_inner; }
  std::size_t members() const { return reduce_outer * reduce_inner; }
  std::size_t elements() const { return stats() * members(); }
  /// The statistic an element (flat offset) belongs to.
  std::size_t stat_of(std::size_t offset) const;
  /// Flat offsets of every element in statistic s, ascending.
  std::vector<std::size_t> offsets(std::size_t s) const;

  /// Contiguous rows: the last `width` numbers form a group.
  static Group rows(std::size_t count, std::size_t width);
  /// One group per position outside `axis`, running along it.
  static Group along(const Shape& shape, std::size_t axis);
  /// One group per channel (axis 1) over batch and spatial axes, for
  /// chunks of `chunk` consecutive examples (chunk = N: ordinary BatchNorm).
  static Group per_channel(const Shape& nc_shape, std::size_t chunk);
};

/// What is measured over a group. Results are accumulated in double.
enum class Measure {
  MeanVar,     // center = mean, spread = population variance (two-pass)
  MeanSquare,  // spread = mean(x^2)
  SumSquare,   // spread = sum(x^2)
  SumAbs,      // spread = sum |x|
  MaxAbs,      // spread = max |x|
};

struct Stats {
  std::vector<double> center;  // subtracted when the transform centers
  std::vector<double> spread;  // turned into the denominator
};

/// How the spread becomes a denominator.
enum class Denominator {
  SqrtPlusEps,  // sqrt(spread + eps)          LayerNorm, RMSNorm, BatchNorm
  MaxSqrtEps,   // max(sqrt(spread), eps)      L2 normalization
  MaxEps,       // max(spread, eps)            L1 / max normalization
};

struct Transform {
  bool center = true;
  Denominator denominator = Denominator::SqrtPlusEps;
  double eps = 1e-5;
};

/// Learned (or predicted) scale and shift: y = y * (scale_offset + scale) + shift.
/// `view` is the shape the parameter is read as before broadcasting against
/// the input, e.g. a per-channel [C] viewed as [1, C, 1, 1].
struct Params {
  const Tensor* scale = nullptr;
  const Tensor* shift = nullptr;
  Shape scale_view, shift_view;
  float scale_offset = 0.0f;
};

/// Where the statistics come from.
struct Mode {
  const Stats* given = nullptr;  // null: measure the input (training / per-sample)
};

struct Description {
  std::string op;  // for messages
  Group group;
  Measure measure = Measure::MeanVar;
  Transform transform;
  Params params;
  Mode mode;
};

/// Measure every group of x.
Stats measure(const float* x, const Group& g, Measure m);
/// Denominator for each statistic; a zero one is an error naming the op.
std::vector<double> denominators(const Stats& s, const Transform& t, const std::string& op);
/// y = (x - center) / denominator, group-wise (y may alias x).
void standardize(const float* x, float* y, const Group& g, const Stats& s,
                 const Transform& t, const std::vector<double>& denom);
/// Apply params in place, broadcasting them over y.
void apply_params(Tensor& y, const Params& p);

/// The whole pipeline: measure (unless given), standardize, params.
/// The measured statistics are returned through `measured` when asked.
/// Contiguous-row LayerNorm/RMSNorm descriptions take a fused SIMD kernel
/// (kernels.hpp); run_generic is the reference path they are tested against.
Tensor run(const Tensor& x, const Description& d, Stats* measured = nullptr);
Tensor run_generic(const Tensor& x, const Description& d, Stats* measured = nullptr);
/// Whether run() will take the fast path for d (and the row parameters it would read).
bool fast_rows(const Description& d, const float** gamma, const float** beta);

}  // namespace normlab
