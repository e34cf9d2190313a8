// normlab core: the statistics engine.
//
// Every normalization is described by five pieces (see docs/design.md):
//   group      - which numbers are measured together,
//   measure    - what is measured over a group (mean & variance, RMS, L2, L1, max),
//   transform  - center or not, divide by what, where eps goes,
//   params     - learned scale and shift and how they broadcast over the input,
//   mode       - current (batch) statistics, or given (running) ones.
// A named normalization is a Description built in a few lines; execute() does
// the work and picks the kernel from the description; describe_op() hands the
// same description to JavaScript (core.describe) and to reduction_group.
#pragma once

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
/// The extents come from axes: a `layout` of the input (its shape, or the
/// shape with one axis split, as GroupNorm splits C into [G, C/G]) and the
/// layout axes reduced together (kept, reduced, kept, reduced runs at most).
struct Group {
  std::size_t stat_outer = 1, reduce_outer = 1, stat_inner = 1, reduce_inner = 1;
  Shape layout;                      // the input read as this shape
  std::vector<std::size_t> reduced;  // layout axes measured together, ascending
  std::vector<std::size_t> source;   // for each layout axis, the input axis it comes from

  std::size_t stats() const { return stat_outer * stat_inner; }
  std::size_t members() const { return reduce_outer * reduce_inner; }
  std::size_t elements() const { return stats() * members(); }
  bool rows() const { return stat_inner == 1 && reduce_inner == 1; }
  /// The statistic an element (flat offset) belongs to.
  std::size_t stat_of(std::size_t offset) const;
  /// Flat offsets of every element in statistic s, ascending.
  std::vector<std::size_t> offsets(std::size_t s) const;
  /// The input axes a group spans, wholly or in part (GroupNorm spans C), ascending.
  std::vector<std::size_t> input_axes() const;
  /// The statistics' shape against input shape x, as with keepdim: a reduced
  /// axis becomes 1, a split one keeps its groups (GroupNorm's C -> G).
  Shape stat_shape(const Shape& x) const;

  /// The group of `reduced` axes of `layout`; `source` maps layout axes to
  /// input axes (identity when empty).
  static Group of(const Shape& layout, std::vector<std::size_t> reduced, std::vector<std::size_t> source = {});
  /// `count` contiguous rows of `width` numbers.
  static Group rows(std::size_t count, std::size_t width) { return of({count, width}, {1}); }
  /// [N, C, spatial...]: per channel over the batch (in chunks of `chunk`
  /// examples, the layout splitting N into [N / chunk, chunk]) and space.
  static Group per_channel(const Shape& x, std::size_t chunk);
  /// Contiguous rows: the last `ndim` axes of x form a group.
  static Group trailing(const Shape& x, std::size_t ndim);
  /// One group per position outside `axis`, running along it.
  static Group along(const Shape& shape, std::size_t axis);
};

/// What is measured over a group. Results are accumulated in double.
enum class Measure {
  MeanVar,     // center = mean, spread = population variance
  MeanSquare,  // spread = mean(x^2)
  SumSquare,   // spread = sum(x^2)
  SumAbs,      // spread = sum |x|
  MaxAbs,      // spread = max |x|
  SumExp,      // center = max, spread = sum exp(x - max) (softmax)
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
  Exp,          // exp(x - center) / spread    softmax
  SqrtThenEps,  // sqrt(spread) + eps          eps outside the root (standardize_rows)
};

struct Transform {
  bool center = true;
  Denominator denominator = Denominator::SqrtPlusEps;
  double eps = 1e-5;
};

/// Learned (or predicted) scale and shift: y = y * (scale_offset + scale) + shift.
/// `*_view` is the shape the parameter is read as before broadcasting against
/// the input (aligned from the right), e.g. a per-channel [C] viewed as
/// [1, C, 1, 1]. The names are the inputs they come from (for core.describe);
/// a view may be set with a null pointer (the op has the parameter, this call
/// does not pass it).
/// What a parameter is per, from its view against the input and the channel
/// axis: one number (scalar), one per coordinate of a row, per channel, per
/// example and channel, per example and coordinate, or per element.
enum class Per { Scalar, Coordinate, Channel, ExampleChannel, ExampleCoordinate, Element };

/// The input axes (ascending) a parameter viewed as `view` varies along,
/// right-aligned against x's shape.
std::vector<std::size_t> param_axes(const Shape& view, const Shape& x);
/// What that parameter is per; `channel_axis` as in Description.
Per param_per(const Shape& view, const Shape& x, int channel_axis);

struct Params {
  const float* scale = nullptr;
  const float* shift = nullptr;
  Shape scale_view, shift_view;
  float scale_offset = 0.0f;
  const char* scale_name = nullptr;
  const char* shift_name = nullptr;
};

/// Where the statistics come from.
struct Mode {
  const Stats* given = nullptr;  // null: measure the input (training / per-sample)
  bool running = false;          // the given statistics are running ones (eval mode)
};

struct Description {
  std::string op;  // for messages
  Group group;
  Measure measure = Measure::MeanVar;
  Transform transform;
  Params params;
  Mode mode;
  /// The input axis whose entries are channels (per-channel params and
  /// statistics), or -1: BatchNorm-like ops read [N, C, ...].
  int channel_axis = -1;
};

/// Measure every group of x. The double overloads serve callers that keep
/// their numbers in double (the training network): the same loops.
Stats measure(const float* x, const Group& g, Measure m);
Stats measure(const double* x, const Group& g, Measure m);
/// Denominator for each statistic; a zero one is an error naming the op.
std::vector<double> denominators(const Stats& s, const Transform& t, const std::string& op);
/// y = (x - center) / denominator, group-wise (y may alias x).
void standardize(const float* x, float* y, const Group& g, const Stats& s, const Transform& t,
                 const std::vector<double>& denom);
void standardize(const double* x, double* y, const Group& g, const Stats& s, const Transform& t,
                 const std::vector<double>& denom);
/// y = y * (offset + scale) + shift, the parameters broadcast over y of `shape`.
void apply_params(float* y, const Shape& shape, const Params& p);
void apply_params(Tensor& y, const Params& p);

/// The whole pipeline on x (of `shape`) into y (y may equal x): measure
/// (unless given), standardize, params. The engine picks the kernel from the
/// description: contiguous rows of any measure take the SIMD row kernels
/// (kernels.hpp); everything else the generic path, which the tests compare
/// them against. `measured` receives the statistics when asked.
void execute(const Description& d, const float* x, float* y, const Shape& shape, Stats* measured = nullptr);
void execute_generic(const Description& d, const float* x, float* y, const Shape& shape, Stats* measured = nullptr);
/// The same on tensors, returning a new tensor.
Tensor run(const Tensor& x, const Description& d, Stats* measured = nullptr);
Tensor run_generic(const Tensor& x, const Description& d, Stats* measured = nullptr);

}  // namespace normlab
