// Seeded standard normals shared by the ops that draw (random_normal,
// score_spread, train_init, train_data): splitmix64 bits and Marsaglia's
// polar method in double. The stream is part of those ops' contract (the
// PyTorch references replay it), so it must not change.
#pragma once

#include <cmath>
#include <cstdint>

namespace normlab {

struct Normal {
  std::uint64_t state;
  double spare = 0;
  bool has_spare = false;
  /// A uniform number in (0, 1).
  double uniform() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double(z >> 11) + 0.5) * (1.0 / 9007199254740992.0);
  }
  /// Two normals per accepted pair, no sin/cos (about half the cost of
  /// Box-Muller for the d_k figure's 1.6M draws).
  double next() {
    if (has_spare) return has_spare = false, spare;
    double u, v, r;
    do {
      u = 2 * uniform() - 1;
      v = 2 * uniform() - 1;
      r = u * u + v * v;
    } while (r >= 1 || r == 0);
    const double f = std::sqrt(-2 * std::log(r) / r);
    spare = v * f, has_spare = true;
    return u * f;
  }
};

}  // namespace normlab
