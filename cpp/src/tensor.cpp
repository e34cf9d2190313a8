#include "normlab/tensor.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

namespace normlab {

Value Value::of(const Tensor& t) {
  Value v;
  v.shape.assign(t.shape().begin(), t.shape().end());
  v.f.assign(t.data(), t.data() + t.size());  // contiguous row-major: one memcpy
  return v;
}

Value Value::ints(Shape shape, std::vector<std::int64_t> data) {
  Value v;
  v.shape = std::move(shape);
  v.i = std::move(data);
  v.integer = true;
  return v;
}

std::string shape_str(const Shape& s) {
  std::string out = "[";
  for (std::size_t a = 0; a < s.size(); ++a) out += (a ? ", " : "") + std::to_string(s[a]);
  return out + "]";
}

std::string num_str(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  char buf[32];
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

std::size_t checked_size(const Shape& s, const std::string& what) {
  // Every size counts, even beside a zero: strides are products of sizes.
  std::size_t n = 1;
  for (auto d : s) {
    const std::size_t f = d ? d : 1;
    if (d > kMaxElements || n > kMaxElements / f)
      throw InputError(what + " has shape " + shape_str(s) + ", more than the limit of " +
                       std::to_string(kMaxElements) + " elements");
    n *= f;
  }
  for (auto d : s)
    if (d == 0) return 0;
  return n;
}

std::size_t norm_axis(long long axis, std::size_t rank, const std::string& what) {
  const long long r = static_cast<long long>(rank);
  if (axis < -r || axis >= r)
    throw InputError(what + " (" + std::to_string(axis) + ") is out of range for rank " +
                     std::to_string(rank));
  return static_cast<std::size_t>(axis < 0 ? axis + r : axis);
}

}  // namespace normlab
