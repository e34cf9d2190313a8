// The WASM core (dist/normlab-core.wasm): every op but training, which lives
// in its own module (cpp/sets/training.cpp) so that pages without the training
// figure do not download it.
#include "normlab/ops.hpp"

namespace normlab {

void register_core_ops(Registry& reg) {
  register_norm_ops(reg);
  register_conditioning_ops(reg);
  register_weight_ops(reg);
  register_attention_ops(reg);
  register_gradient_ops(reg);
  register_preprocessing_ops(reg);
  register_shape_ops(reg);
  register_figure_ops(reg);
}

#ifndef NORMLAB_SET_ALL
void register_op_set(Registry& reg) { register_core_ops(reg); }
#endif

}  // namespace normlab
