// normlab core: the groups the named normalizations use, shared by the
// operations themselves and by reduction_group (the axis-cube figure).
#pragma once

#include "normlab/engine.hpp"
#include "normlab/ops.hpp"

namespace normlab {

Shape shape_of(const Tensor& t);
/// [1, C, 1, ...] for a rank-`rank` input: how a per-channel parameter broadcasts.
Shape channel_view(std::size_t rank, std::size_t c);
/// [N, C, 1, ...]: how a per-example, per-channel parameter broadcasts.
Shape example_channel_view(std::size_t rank, std::size_t n, std::size_t c);

/// LayerNorm / RMSNorm: the last `ndim` axes of every leading position.
Group layer_group(const Shape& x, std::size_t ndim);
/// BatchNorm: per channel over the batch (in chunks) and spatial axes of [N, C, ...].
Group batch_group(const Shape& x, std::size_t chunk);
/// InstanceNorm: per (n, c) over the spatial axes of [N, C, ...].
Group instance_group(const Shape& x);
/// GroupNorm: per (n, group of C/G channels) over those channels and spatial axes.
Group channel_group(const Shape& x, std::size_t groups);

/// BatchNorm's description without its params (shared with conditional BN),
/// and its body: running statistics in evaluation, their update in training.
void describe_batch_statistics(const Call& c, Description& d);
void run_batch_norm(Call& c, Description d);

}  // namespace normlab
