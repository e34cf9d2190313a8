// The training module (dist/normlab-train.wasm, loadTrainer()): the backward
// passes and the small residual network of <nl-depth-training>.
#include "normlab/ops.hpp"

namespace normlab {

void register_op_set(Registry& reg) { register_training_ops(reg); }

}  // namespace normlab
