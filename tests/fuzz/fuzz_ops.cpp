// libFuzzer harness over the core's public entry, run_op: arbitrary bytes
// become an operation, its inputs (shapes and values, including NaN, +-Inf,
// huge and tiny numbers, zero and huge sizes) and attributes. Bad input must
// come back as InputError; any other exception, crash, leak, hang or
// sanitizer report is a bug.
//   build: cmake -S . -B build/asan -DNORMLAB_SANITIZE=ON -DNORMLAB_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "normlab/ops.hpp"

using namespace normlab;

namespace {

struct Bytes {
  const std::uint8_t* p;
  std::size_t n;
  std::uint8_t next() {
    if (!n) return 0;
    --n;
    return *p++;
  }
  bool empty() const { return n == 0; }
};

const double kSpecial[] = {0.0,
                           -0.0,
                           1.0,
                           -1.0,
                           0.5,
                           3.0,
                           1e-5,
                           1e-12,
                           1e-38,
                           1e-45,
                           1e30,
                           3.4e38,
                           -3.4e38,
                           std::numeric_limits<double>::quiet_NaN(),
                           std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity(),
                           1000.0,
                           1e6,
                           -7.0,
                           100.0};

double number(Bytes& b) {
  const std::uint8_t k = b.next();
  if (k < 40) return kSpecial[k % (sizeof kSpecial / sizeof *kSpecial)];
  return (double(k) - 148.0) / 8.0 + double(b.next()) / 256.0;  // small values
}

std::size_t dim(Bytes& b) {
  const std::uint8_t k = b.next();
  if (k == 255) return std::size_t(1) << 40;  // huge: must be rejected
  if (k == 254) return 1024;
  if (k == 253) return 0;
  return k % 9;  // 0..8
}

// A string attribute's value: mostly one its op's table row lists (so the
// fuzzer reaches every branch behind the door), sometimes one the door must refuse.
std::string text(Bytes& b, const AttrSpec& a) {
  static const char* kBad[] = {"", "middle", "LAYER_NORM", "pre "};
  const std::uint8_t k = b.next();
  if (k < 32 || !a.values) return kBad[k % (sizeof kBad / sizeof *kBad)];
  if (!std::strcmp(a.values, kDescribedOps)) {  // the name of an op, described or not
    const Registry& reg = registry();
    auto it = reg.begin();
    std::advance(it, b.next() % reg.size());
    return it->first;
  }
  std::vector<std::string> options;
  for (const char *p = a.values, *bar;; p = bar + 1) {
    bar = std::strchr(p, '|');
    options.emplace_back(p, bar ? bar - p : std::strlen(p));
    if (!bar) break;
  }
  return options[k % options.size()];
}

Attr attribute(Bytes& b, const AttrSpec& a) {
  switch (a.kind) {
    case AttrKind::Number:
      return number(b);
    case AttrKind::Integer: {
      const std::uint8_t k = b.next();
      if (k > 250) return double(k == 255 ? 1e12 : k == 254 ? -1e12 : 2.5);
      return double(int(k % 12) - 2);
    }
    case AttrKind::Bool:
      return bool(b.next() & 1);
    case AttrKind::String:
      return text(b, a);
    case AttrKind::IntList: {
      std::vector<double> v(b.next() % 5);
      for (auto& e : v) e = double(int(b.next() % 12) - 3);
      return v;
    }
  }
  return 0.0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Bytes b{data, size};
  const Registry& reg = registry();
  std::vector<const OpSpec*> ops;
  for (const auto& kv : reg) ops.push_back(kv.second);
  const OpSpec& spec = *ops[b.next() % ops.size()];
  const std::uint8_t flags = b.next();

  if (flags & 0x20) {  // the door itself: raw caller numbers for sizes, odd names, wrong counts
    Request r;
    std::string op = spec.name;
    if (flags & 0x10) op.push_back(static_cast<char>(b.next()));  // a NUL, a space, a letter...
    r.op = {op, double(op.size()) + ((flags & 0x08) ? 1e8 : 0)};
    std::vector<std::vector<float>> keep;
    for (const auto& in : spec.inputs) {
      if (in.optional && !(b.next() & 1)) continue;
      Request::Input ri;
      ri.name = {in.name, double(std::string(in.name).size())};
      const std::size_t rank = b.next() % 5;
      double n = 1;
      for (std::size_t a = 0; a < rank; ++a) {
        const std::uint8_t k = b.next();
        const double d =
            k < 200 ? double(k % 7) : kSpecial[k % (sizeof kSpecial / sizeof *kSpecial)] * (k & 1 ? 4294967296.0 : 1.0);
        ri.dims.push_back(d);
        n *= d;
      }
      ri.rank = double(rank);
      const bool exact = n >= 0 && n <= 4096 && std::floor(n) == n;
      const std::size_t count = exact ? static_cast<std::size_t>(n) + (b.next() == 7 ? 1 : 0) : b.next() % 8;
      keep.emplace_back(count);
      for (auto& v : keep.back()) v = static_cast<float>(number(b));
      ri.data = keep.back().data();
      ri.count = double(count);
      r.inputs.push_back(std::move(ri));
    }
    for (const auto& a : spec.attrs)
      if (b.next() & 1) r.attrs.push_back({{a.name, double(std::string(a.name).size())}, attribute(b, a), 3});
    Outputs outs;
    try {
      execute_request(r, outs);
      for (const Output& o : outs.list)
        if (!o.integer)
          for (std::size_t k = 0; k < o.size(); ++k)
            if (!std::isfinite(o.data[k])) __builtin_trap();
    } catch (const InputError&) {
    }
    return 0;
  }

  std::map<std::string, Tensor> inputs;
  for (const auto& in : spec.inputs) {
    if (in.optional && !(b.next() & 1)) continue;
    Shape shape(b.next() % 5);
    for (auto& d : shape) d = dim(b);
    try {
      checked_size(shape, spec.name);  // the JS boundary rejects these before allocating
    } catch (const InputError&) {
      return 0;
    }
    Tensor t = xt::empty<float>(shape);
    for (auto& v : t) v = static_cast<float>(number(b));
    inputs[in.name] = std::move(t);
  }
  std::map<std::string, Attr> attrs;
  for (const auto& a : spec.attrs)
    if (b.next() & 1) attrs[a.name] = attribute(b, a);
  if (flags & 0x80) attrs["bogus"] = 1.0;  // unknown attribute
  if (flags & 0x40) inputs["bogus"] = xt::ones<float>({2});

  if (std::getenv("NORMLAB_FUZZ_SHOW")) {  // which op and shapes an input makes, for a slow or crashing one
    std::fprintf(stderr, "%s:", spec.name);
    for (const auto& [name, t] : inputs)
      std::fprintf(stderr, " %s%s", name.c_str(), shape_str(Shape(t.shape().begin(), t.shape().end())).c_str());
    for (const auto& [name, a] : attrs)
      if (const double* d = std::get_if<double>(&a))
        std::fprintf(stderr, " %s=%g", name.c_str(), *d);
      else if (const bool* f = std::get_if<bool>(&a))
        std::fprintf(stderr, " %s=%s", name.c_str(), *f ? "true" : "false");
      else if (const std::string* t = std::get_if<std::string>(&a))
        std::fprintf(stderr, " %s=\"%s\"", name.c_str(), t->c_str());
    std::fprintf(stderr, "\n");
  }
  try {
    const auto out = run_op(spec.name, std::move(inputs), attrs);
    for (const auto& [name, v] : out)  // outputs are never NaN or Inf: that would have been an error
      for (std::size_t k = 0; k < v.f.size(); ++k)
        if (!std::isfinite(v.f[k])) {
          std::fprintf(stderr, "%s: output %s[%zu] = %g is not finite\n", spec.name, name.c_str(), k, double(v.f[k]));
          __builtin_trap();
        }
  } catch (const InputError&) {
    // bad input: the expected outcome for most random bytes
  }
  return 0;
}
