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

// A non-negative integer of up to 1,536 bits, just what shortest-digit printing
// needs: the scaled value, its scale and its rounding margins (Steele & White's
// and Burger & Dybvig's free-format algorithm, the exact idea behind
// JavaScript's Number#toString).
struct Big {
  static constexpr int kWords = 48;
  std::uint32_t w[kWords] = {};
  int n = 0;  // words in use; w[n - 1] != 0 unless n == 0

  explicit Big(std::uint64_t v = 0) {
    while (v) w[n++] = static_cast<std::uint32_t>(v), v >>= 32;
  }
  void mul(std::uint32_t k) {
    std::uint64_t carry = 0;
    for (int i = 0; i < n; ++i) {
      const std::uint64_t t = std::uint64_t(w[i]) * k + carry;
      w[i] = static_cast<std::uint32_t>(t);
      carry = t >> 32;
    }
    if (carry) w[n++] = static_cast<std::uint32_t>(carry);
  }
  void shl(int bits) {  // *= 2^bits
    for (; bits >= 31; bits -= 31) mul(1u << 31);
    if (bits) mul(1u << bits);
  }
  void pow10(int k) {  // *= 10^k
    for (; k >= 9; k -= 9) mul(1000000000u);
    for (; k > 0; --k) mul(10);
  }
  static int cmp(const Big& a, const Big& b) {
    if (a.n != b.n) return a.n < b.n ? -1 : 1;
    for (int i = a.n - 1; i >= 0; --i)
      if (a.w[i] != b.w[i]) return a.w[i] < b.w[i] ? -1 : 1;
    return 0;
  }
  static Big add(const Big& a, const Big& b) {
    Big r;
    std::uint64_t carry = 0;
    const int n = a.n > b.n ? a.n : b.n;
    for (int i = 0; i < n; ++i) {
      const std::uint64_t t = std::uint64_t(i < a.n ? a.w[i] : 0) + (i < b.n ? b.w[i] : 0) + carry;
      r.w[i] = static_cast<std::uint32_t>(t);
      carry = t >> 32;
    }
    r.n = n;
    if (carry) r.w[r.n++] = static_cast<std::uint32_t>(carry);
    return r;
  }
  void sub(const Big& b) {  // *this -= b, b <= *this
    std::int64_t borrow = 0;
    for (int i = 0; i < n; ++i) {
      std::int64_t t = std::int64_t(w[i]) - (i < b.n ? b.w[i] : 0) - borrow;
      borrow = t < 0;
      w[i] = static_cast<std::uint32_t>(t + (borrow << 32));
    }
    while (n && !w[n - 1]) --n;
  }
};

// The shortest digits d (no trailing zeros) and exponent k with a == 0.d * 10^k
// that read back as a (round half to even, as every parser does).
void shortest_digits(double a, std::string& digits, int& k) {
  std::uint64_t bits;
  std::memcpy(&bits, &a, sizeof bits);
  const int biased = static_cast<int>(bits >> 52 & 0x7ff);
  std::uint64_t f = bits & ((std::uint64_t(1) << 52) - 1);
  int e = biased ? biased - 1075 : -1074;
  if (biased) f |= std::uint64_t(1) << 52;
  const bool even = (f & 1) == 0;
  // a == r / s; the neighbours are halfway at r - mminus and r + mplus.
  const bool lower_closer = biased > 1 && f == (std::uint64_t(1) << 52);
  Big r(f), s(1), mplus(1), mminus(1);
  if (e >= 0) {
    r.shl(e + 1 + lower_closer);
    s = Big(lower_closer ? 4 : 2);
    mplus.shl(e + lower_closer);
    mminus.shl(e);
  } else {
    r.shl(1 + lower_closer);
    s.shl(1 - e + lower_closer);
    if (lower_closer) mplus = Big(2);
  }
  k = static_cast<int>(std::ceil(std::log10(a) - 1e-10));
  if (k >= 0) {
    s.pow10(k);
  } else {
    r.pow10(-k);
    mplus.pow10(-k);
    mminus.pow10(-k);
  }
  // Settle k so that the upper neighbour's midpoint lies below s * 10^0.
  auto high_reaches = [&](const Big& top) { return Big::cmp(Big::add(r, mplus), top) >= (even ? 0 : 1); };
  while (high_reaches(s)) s.mul(10), ++k;
  for (;;) {
    Big r10 = Big::add(r, mplus);
    r10.mul(10);
    if (Big::cmp(r10, s) >= (even ? 0 : 1)) break;
    r.mul(10), mplus.mul(10), mminus.mul(10), --k;
  }
  digits.clear();
  for (;;) {
    r.mul(10), mplus.mul(10), mminus.mul(10);
    int d = 0;
    while (Big::cmp(r, s) >= 0) r.sub(s), ++d;
    const bool low = Big::cmp(r, mminus) <= (even ? 0 : -1);
    const bool high = high_reaches(s);
    if (!low && !high) {
      digits += char('0' + d);
      continue;
    }
    if (low && high) {
      Big twice = r;
      twice.mul(2);
      const int c = Big::cmp(twice, s);  // a tie goes to the even digit, as in JavaScript
      if (c > 0 || (c == 0 && d % 2)) ++d;
    } else if (high) {
      ++d;
    }
    digits += char('0' + d);
    break;
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
}

}  // namespace

// The shortest decimal that reads back as v, laid out as JavaScript's
// Number#toString does ("0.1", "20", "1e-7", "1e+21"). Written out by hand:
// printf would pull ~18 KB of long-double formatting into the WASM module, and
// Emscripten's libc++ has no floating-point std::to_chars.
std::string num_str(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (v == 0) return std::signbit(v) ? "-0" : "0";
  std::string digits;
  int k = 0;
  shortest_digits(std::fabs(v), digits, k);
  const int e = k - 1;  // the exponent of the leading digit
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
