// normlab core: the tensor and value types every operation shares.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include <xtensor/xarray.hpp>
#include <xtensor/xbuilder.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xtensor.hpp>
#include <xtensor/xview.hpp>

namespace normlab {

/// A float32 tensor, row-major. xtensor supplies storage, shapes and broadcasting.
using Tensor = xt::xarray<float>;
using Shape = std::vector<std::size_t>;

/// Largest element count one tensor may have (2^25, 128 MiB of float32).
/// Shapes over it are rejected before anything is allocated.
constexpr std::size_t kMaxElements = std::size_t(1) << 25;

/// Most arithmetic one call may do (about 2^30 multiply-adds, a second or
/// two): operations whose cost grows faster than their inputs check it first.
constexpr double kMaxWork = 1073741824.0;

/// An operation's result: float32 data or integers (indices, shapes).
struct Value {
  Shape shape;
  std::vector<float> f;
  std::vector<std::int64_t> i;
  bool integer = false;

  static Value of(const Tensor& t);
  static Value ints(Shape shape, std::vector<std::int64_t> data);
  std::size_t size() const { return integer ? i.size() : f.size(); }
};

/// An attribute value: number, boolean, string or list of numbers.
using Attr = std::variant<double, bool, std::string, std::vector<double>>;

/// Bad input from a user: the message names the operation and the argument.
struct InputError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// "[2, 3, 4]"
std::string shape_str(const Shape& s);
/// Shortest round-trip text for a number ("0.1", "1e-05", "NaN").
std::string num_str(double v);
/// Element count of a shape, with overflow and kMaxElements checked.
std::size_t checked_size(const Shape& s, const std::string& what);
/// Python-style axis (negative counts from the end), checked against rank.
std::size_t norm_axis(long long axis, std::size_t rank, const std::string& what);

}  // namespace normlab
