// Every op in one registry: the native library, its tests and the fuzzer.
#define NORMLAB_SET_ALL
#include "core.cpp"

namespace normlab {

void register_op_set(Registry& reg) {
  register_core_ops(reg);
  register_training_ops(reg);
}

}  // namespace normlab
