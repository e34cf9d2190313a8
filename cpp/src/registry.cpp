// The operation registry: name lookup and every check made at the door.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "normlab/ops.hpp"

namespace normlab {

namespace {

const char* kind_name(AttrKind k) {
  switch (k) {
    case AttrKind::Number: return "a number";
    case AttrKind::Integer: return "an integer";
    case AttrKind::Bool: return "a boolean";
    case AttrKind::String: return "a string";
    case AttrKind::IntList: return "a list of integers";
  }
  return "?";
}

// Index of the first NaN or +-Inf in p[0..n), or n: exponent bits all ones.
// Written as a branch-free OR over blocks so that it vectorizes.
std::size_t first_non_finite(const float* p, std::size_t n) {
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    std::uint32_t any = 0;
    for (std::size_t k = 0; k < 64; ++k) {
      std::uint32_t b;
      std::memcpy(&b, p + i + k, 4);
      any |= ((b & 0x7f800000u) == 0x7f800000u);
    }
    if (any) break;
  }
  for (; i < n; ++i)
    if (!std::isfinite(p[i])) return i;
  return n;
}

}  // namespace

Attr Default::value() const {
  if (kind == Flag) return flag;
  if (kind == Text) return std::string(text);
  return number;
}

namespace {

bool whole(double v) { return std::isfinite(v) && std::floor(v) == v && std::fabs(v) < 9e15; }

template <class T>
std::string names(const std::initializer_list<T>& v) {
  std::string s;
  for (const auto& e : v) {
    if (!s.empty()) s += ", ";
    s += e.name;
  }
  return s.empty() ? "none" : s;
}

// Range rules shared by every operation, by attribute name.
void check_range(const std::string& op, const std::string& name, double v) {
  auto bad = [&](const std::string& rule) {
    throw InputError(op + ": " + name + " must be " + rule + " (got " + num_str(v) + ")");
  };
  if (name == "eps" && v < 0) bad(">= 0");
  if (name == "momentum" && (v < 0 || v > 1)) bad("in [0, 1]");
  if ((name == "num_groups" || name == "virtual_batch_size" || name == "size" ||
       name == "normalized_ndim" || name == "n_power_iterations") && v < 1)
    bad(">= 1");
  if (name == "n_power_iterations" && v > 10000) bad("<= 10000");
  if ((name == "r_max" || name == "d_max") && v < (name == "r_max" ? 1 : 0))
    bad(name == "r_max" ? ">= 1" : ">= 0");
}

}  // namespace

// ---- Call --------------------------------------------------------------

const Tensor& Call::in(const std::string& name) const {
  auto it = inputs_.find(name);
  if (it == inputs_.end()) fail("missing input '" + name + "'");
  return it->second;
}

const Tensor* Call::opt(const std::string& name) const {
  auto it = inputs_.find(name);
  return it == inputs_.end() ? nullptr : &it->second;
}

bool Call::has(const std::string& name) const { return attrs_.count(name) > 0; }

double Call::num(const std::string& name) const {
  auto it = attrs_.find(name);
  if (it == attrs_.end()) fail("missing attribute '" + name + "'");
  return std::get<double>(it->second);
}

long long Call::integer(const std::string& name) const {
  return static_cast<long long>(num(name));
}

bool Call::flag(const std::string& name) const {
  auto it = attrs_.find(name);
  if (it == attrs_.end()) fail("missing attribute '" + name + "'");
  return std::get<bool>(it->second);
}

const std::string& Call::str(const std::string& name) const {
  auto it = attrs_.find(name);
  if (it == attrs_.end()) fail("missing attribute '" + name + "'");
  return std::get<std::string>(it->second);
}

std::vector<long long> Call::ints(const std::string& name) const {
  auto it = attrs_.find(name);
  if (it == attrs_.end()) fail("missing attribute '" + name + "'");
  std::vector<long long> out;
  for (double v : std::get<std::vector<double>>(it->second)) out.push_back(static_cast<long long>(v));
  return out;
}

void Call::fail(const std::string& msg) const { throw InputError(op + ": " + msg); }

void Call::check_work(double work, const std::string& what) const {
  if (work > kMaxWork)
    fail(what + " needs about " + num_str(work) + " operations, more than the limit of " + num_str(kMaxWork));
}

void Call::expect_shape(const std::string& input, const Tensor& t, const Shape& want,
                        const std::string& what) const {
  Shape got(t.shape().begin(), t.shape().end());
  if (got != want)
    fail(input + " has shape " + shape_str(got) + " but must have shape " + shape_str(want) +
         (what.empty() ? "" : " (" + what + ")"));
}

void Call::expect_rank(const std::string& input, const Tensor& t, std::size_t lo,
                       std::size_t hi) const {
  const std::size_t r = t.dimension();
  if (r < lo || (hi && r > hi)) {
    std::string want = hi == lo ? std::to_string(lo)
                       : hi     ? std::to_string(lo) + " to " + std::to_string(hi)
                                : "at least " + std::to_string(lo);
    fail(input + " must have rank " + want + " but has shape " +
         shape_str(Shape(t.shape().begin(), t.shape().end())));
  }
}

// ---- registry ------------------------------------------------------------

const Registry& registry() {
  static const Registry r = [] {
    Registry reg;
    register_norm_ops(reg);
    register_conditioning_ops(reg);
    register_weight_ops(reg);
    register_attention_ops(reg);
    register_gradient_ops(reg);
    register_preprocessing_ops(reg);
    register_shape_ops(reg);
    register_figure_ops(reg);
    return reg;
  }();
  return r;
}

std::map<std::string, Value> run_op(const std::string& op, std::map<std::string, Tensor> inputs,
                                    const std::map<std::string, Attr>& given) {
  const auto& reg = registry();
  auto it = reg.find(op);
  if (it == reg.end()) throw InputError("unknown operation '" + op + "'");
  const OpSpec& spec = *it->second;

  // Inputs: known names, required ones present, non-empty, finite.
  for (const auto& [name, t] : inputs) {
    bool known = false;
    for (const auto& s : spec.inputs) known |= s.name == name;
    if (!known)
      throw InputError(op + ": unknown input '" + name + "' (inputs: " + names(spec.inputs) + ")");
    if (t.size() == 0)
      throw InputError(op + ": " + name + " is empty (shape " +
                       shape_str(Shape(t.shape().begin(), t.shape().end())) + ")");
    if (const std::size_t k = first_non_finite(t.data(), t.size()); k < t.size())
      throw InputError(op + ": " + name + " has a non-finite value (" + num_str(t.data()[k]) + ") at index " +
                       std::to_string(k));
  }
  for (const auto& s : spec.inputs)
    if (!s.optional && !inputs.count(s.name))
      throw InputError(op + ": missing input '" + s.name + "'");

  // Attributes: known names, right kinds, finite, in range; defaults filled in.
  std::map<std::string, Attr> attrs;
  for (const auto& [name, a] : given) {
    const AttrSpec* spec_a = nullptr;
    for (const auto& s : spec.attrs)
      if (s.name == name) spec_a = &s;
    if (!spec_a)
      throw InputError(op + ": unknown attribute '" + name + "' (attributes: " +
                       names(spec.attrs) + ")");
    const AttrKind k = spec_a->kind;
    const bool ok = ((k == AttrKind::Number || k == AttrKind::Integer) &&
                     std::holds_alternative<double>(a)) ||
                    (k == AttrKind::Bool && std::holds_alternative<bool>(a)) ||
                    (k == AttrKind::String && std::holds_alternative<std::string>(a)) ||
                    (k == AttrKind::IntList && std::holds_alternative<std::vector<double>>(a));
    if (!ok) throw InputError(op + ": attribute " + name + " must be " + kind_name(k));
    if (auto* d = std::get_if<double>(&a)) {
      if (!std::isfinite(*d))
        throw InputError(op + ": " + name + " must be finite (got " + num_str(*d) + ")");
      if (k == AttrKind::Integer && !whole(*d))
        throw InputError(op + ": " + name + " must be an integer (got " + num_str(*d) + ")");
      check_range(op, name, *d);
    }
    if (auto* l = std::get_if<std::vector<double>>(&a))
      for (double v : *l)
        if (!whole(v))
          throw InputError(op + ": " + name + " must hold integers (got " + num_str(v) + ")");
    attrs[name] = a;
  }
  for (const auto& s : spec.attrs)
    if (!attrs.count(s.name) && s.fallback) attrs[s.name] = s.fallback.value();

  Call call(op, inputs, attrs);
  spec.body(call);

  for (const auto& [name, v] : call.outputs)
    if (!v.integer)
      if (const std::size_t k = first_non_finite(v.f.data(), v.f.size()); k < v.f.size())
        throw InputError(op + ": output " + name + " is not finite at index " + std::to_string(k) +
                         " (float32 overflow)");
  return std::move(call.outputs);
}

}  // namespace normlab
