#include "normlab/tensor.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
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

Msg& Msg::operator<<(const char* s) {
  text += s;
  return *this;
}

Msg& Msg::operator<<(const std::string& s) {
  text += s;
  return *this;
}

void Msg::raise() const { throw InputError(text, code, argument); }

std::string shape_str(const Shape& s) {
  std::string out = "[";
  for (std::size_t a = 0; a < s.size(); ++a) out += (a ? ", " : "") + std::to_string(s[a]);
  return out + "]";
}

namespace {

// a * 10^k without overflowing the power on the way.
double times_pow10(double a, int k) {
  while (k > 300) a *= 1e300, k -= 300;
  while (k < -300) a /= 1e300, k += 300;
  return k >= 0 ? a * std::pow(10.0, k) : a / std::pow(10.0, -k);
}

}  // namespace

// The shortest decimal (up to 17 significant digits) that reads back as v,
// laid out as JavaScript's Number#toString does ("0.1", "20", "1e-7",
// "1e+21"); when 17 digits are needed the last may differ by one (double
// rounding). Written out by hand, as printf would pull ~18 KB of long-double
// formatting into the WASM module for the numbers in error messages.
std::string num_str(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (v == 0) return std::signbit(v) ? "-0" : "0";
  const double a = std::fabs(v);
  int e = static_cast<int>(std::floor(std::log10(a)));
  std::uint64_t m = 0;
  int p = 1;
  for (; p <= 17; ++p) {
    double scaled = std::round(times_pow10(a, p - 1 - e));
    if (scaled >= std::pow(10.0, p)) {  // log10 fell short: one more digit before the point
      ++e;
      scaled = std::round(times_pow10(a, p - 1 - e));
    }
    m = static_cast<std::uint64_t>(scaled);
    if (p == 17 || times_pow10(scaled, e - p + 1) == a) break;
  }
  std::string digits = std::to_string(m);
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  std::string out = v < 0 ? "-" : "";
  if (e < -6 || e >= 21) {  // scientific, where JavaScript switches to it
    out += digits[0];
    if (digits.size() > 1) out += "." + digits.substr(1);
    out += e < 0 ? "e-" : "e+";
    return out + std::to_string(e < 0 ? -e : e);
  }
  if (e < 0) return out + "0." + std::string(static_cast<std::size_t>(-e - 1), '0') + digits;
  if (digits.size() <= static_cast<std::size_t>(e) + 1)
    return out + digits + std::string(static_cast<std::size_t>(e) + 1 - digits.size(), '0');
  return out + digits.substr(0, e + 1) + "." + digits.substr(e + 1);
}

std::size_t checked_size(const Shape& s, const std::string& what) {
  // Every size counts, even beside a zero: strides are products of sizes.
  std::size_t n = 1;
  for (auto d : s) {
    const std::size_t f = d ? d : 1;
    if (d > kMaxElements || n > kMaxElements / f)
      (Msg() << what << " has shape " << shape_str(s) << ", more than the limit of " << std::to_string(kMaxElements)
             << " elements")
          .raise();
    n *= f;
  }
  for (auto d : s)
    if (d == 0) return 0;
  return n;
}

std::size_t norm_axis(long long axis, std::size_t rank, const std::string& what) {
  const long long r = static_cast<long long>(rank);
  if (axis < -r || axis >= r)
    (Msg() << what << " (" << std::to_string(axis) << ") is out of range for rank " << std::to_string(rank)).raise();
  return static_cast<std::size_t>(axis < 0 ? axis + r : axis);
}

}  // namespace normlab
