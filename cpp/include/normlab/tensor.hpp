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

/// An input as the door hands it to an operation: float32 data it does not
/// own (the boundary's arena, a resident tensor, a native caller's tensor).
struct View {
  const float* data = nullptr;  // null when only the shape is known (core.describe)
  Shape shape;
  /// The same numbers when the caller hands them over as scratch (the
  /// boundary's arena): an op may write its output over them.
  float* scratch = nullptr;
  std::size_t size() const {
    std::size_t n = 1;
    for (auto d : shape) n *= d;
    return n;
  }
};

/// An operation's result as native callers receive it: float32 data or
/// integers (indices, shapes).
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
/// `code` is a stable key (README, "Error codes") that pages use to show the
/// message in their language; `argument` names the input or attribute at fault.
struct InputError : std::invalid_argument {
  explicit InputError(const std::string& what, const char* code = "invalid", std::string argument = {})
      : std::invalid_argument(what), code(code), argument(std::move(argument)) {}
  const char* code;
  std::string argument;
};

/// An error message built piece by piece, out of line: string sums written
/// inline at every throw would cost the WASM module many kilobytes.
class Msg {
 public:
  Msg& operator<<(const char* s);
  Msg& operator<<(const std::string& s);
  Msg() = default;
  /// A message of a given error code, about `argument` (an input or attribute name).
  explicit Msg(const char* code, std::string argument = {}) : code(code), argument(std::move(argument)) {}
  /// Throws InputError with the message.
  [[noreturn]] void raise() const;
  std::string text;
  const char* code = "invalid";
  std::string argument;
};

/// "[2, 3, 4]"
std::string shape_str(const Shape& s);
/// Shortest round-trip text for a number, as JavaScript writes it ("0.1",
/// "20", "1e-7", "NaN").
std::string num_str(double v);
/// Index of the first NaN or +-Inf in p[0..n), or n.
std::size_t first_non_finite(const float* p, std::size_t n);
/// Element count of a shape, with overflow and kMaxElements checked.
std::size_t checked_size(const Shape& s, const std::string& what);
/// Python-style axis (negative counts from the end), checked against rank.
std::size_t norm_axis(long long axis, std::size_t rank, const std::string& what);

}  // namespace normlab
