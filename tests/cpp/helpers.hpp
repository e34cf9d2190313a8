// Test helpers: build tensors, run ops, compare with a failure that names the
// element index and both values.
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "normlab/engine.hpp"
#include "normlab/ops.hpp"

namespace nt {

using normlab::Attr;
using normlab::Shape;
using normlab::Tensor;
using normlab::Value;

inline Tensor tensor(const Shape& shape, const std::vector<float>& data) {
  Tensor t = xt::empty<float>(shape);
  REQUIRE(t.size() == data.size());
  std::copy(data.begin(), data.end(), t.begin());
  return t;
}

inline Tensor vec(const std::vector<float>& data) { return tensor({data.size()}, data); }

inline std::map<std::string, Value> run(const std::string& op, std::map<std::string, Tensor> in,
                                        std::map<std::string, Attr> attrs = {}) {
  return normlab::run_op(op, std::move(in), attrs);
}

/// Every element within abs + rel*|want|; the first mismatch is reported with its index.
template <class Got, class Want>
void expect_close(const Got& got, const Want& want, double abs = 1e-5, double rel = 1e-5) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    const double g = got[i], w = want[i];
    if (!(std::fabs(g - w) <= abs + rel * std::fabs(w))) {
      std::ostringstream msg;
      msg.precision(10);
      msg << "element " << i << ": got " << g << ", want " << w << " (|diff| " << std::fabs(g - w) << ")";
      FAIL(msg.str());
    }
  }
  SUCCEED();
}

/// Deterministic pseudo-random floats in [lo, hi).
inline std::vector<float> randoms(std::size_t n, unsigned seed, double lo = -1, double hi = 1) {
  std::vector<float> v(n);
  unsigned s = seed * 2654435761u + 1;
  for (auto& e : v) {
    s = s * 1664525u + 1013904223u;
    e = static_cast<float>(lo + (hi - lo) * (s >> 8) / double(1 << 24));
  }
  return v;
}

}  // namespace nt
