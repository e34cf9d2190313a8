// The operation registry: name lookup and every check made at the door.
#include <cmath>
#include <cstdint>
#include <cctype>
#include <cstring>

#include "normlab/ops.hpp"

namespace normlab {

namespace {

const char* kind_name(AttrKind k) {
  switch (k) {
    case AttrKind::Number:
      return "a number";
    case AttrKind::Integer:
      return "an integer";
    case AttrKind::Bool:
      return "a boolean";
    case AttrKind::String:
      return "a string";
    case AttrKind::IntList:
      return "a list of integers";
  }
  return "?";
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

// The range an op's table row declares for a number attribute.
__attribute__((noinline)) void check_declared_range(const std::string& op, const AttrSpec& a, double v) {
  const Range& r = a.range;
  const bool low = r.has_lo && !(r.lo_inclusive ? v >= r.lo : v > r.lo);
  const bool high = r.has_hi && !(r.hi_inclusive ? v <= r.hi : v < r.hi);
  if (!low && !high) return;
  Msg m("out_of_range", a.name);
  m << op << ": " << a.name << " must be ";
  if (r.interval)
    m << "in " << (r.lo_inclusive ? "[" : "(") << num_str(r.lo) << ", " << num_str(r.hi)
      << (r.hi_inclusive ? "]" : ")");
  else if (low)
    m << (r.lo_inclusive ? ">= " : "> ") << num_str(r.lo);
  else
    m << (r.hi_inclusive ? "<= " : "< ") << num_str(r.hi);
  (m << " (got " << num_str(v) << ")").raise();
}

}  // namespace

// ---- Outputs ------------------------------------------------------------

float* Outputs::allocate(const std::string& op, const std::string& name, const Shape& shape, bool checked) {
  std::size_t total = 1;  // the message is built only when it is needed
  bool within = true;
  for (auto d : shape) within = within && d <= kMaxElements && (total *= d ? d : 1) <= kMaxElements;
  if (!within) checked_size(shape, op + ": output " + name);
  Output o;
  o.name = name;
  o.shape = shape;
  o.checked = checked;
  const std::size_t n = o.size();
  for (const Target& t : targets) {
    if (t.name != name || !t.data) continue;  // no data: the caller copies the output out itself
    if (t.size != n)
      (Msg() << op << ": the target for output " << name << " holds " << std::to_string(t.size) << " numbers but "
             << name << " has " << std::to_string(n) << " (shape " << shape_str(shape) << ")")
          .raise();
    bool overlaps = false;
    for (const auto& [p, m] : inputs) overlaps |= p < t.data + t.size && t.data < p + m;
    if (!overlaps) {
      o.data = t.data;
      list.push_back(std::move(o));
      return t.data;
    }
    // Written beside the target, copied in when the op is done (an input may still be read).
    owned_.emplace_back(new float[std::max<std::size_t>(n, 1)]);
    pending_.emplace_back(t.data, owned_.back().get());
    pending_size_.push_back(n);
    o.data = owned_.back().get();
    list.push_back(std::move(o));
    return list.back().data;
  }
  owned_.emplace_back(new float[std::max<std::size_t>(n, 1)]);
  o.data = owned_.back().get();
  list.push_back(std::move(o));
  return list.back().data;
}

float* Outputs::allocate_over(const std::string& op, const std::string& name, const View& x) {
  const std::size_t n = x.size();
  const Target* target = nullptr;
  for (const Target& t : targets)
    if (t.name == name && t.data) target = &t;
  float* over = target ? (target->data == x.data && target->size == n ? target->data : nullptr) : x.scratch;
  std::size_t sharing = 0;  // inputs in x's memory: x itself, and any other is read while y is written
  for (const auto& [p, m] : inputs) sharing += p < x.data + n && x.data < p + m;
  if (sharing > 1) over = nullptr;
  if (!over) return allocate(op, name, x.shape, true);
  Output o;
  o.name = name;
  o.shape = x.shape;
  o.checked = true;
  o.data = over;
  list.push_back(std::move(o));
  return over;
}

Output& Outputs::add_ints(const std::string& name, const Shape& shape, const std::vector<std::int64_t>& v) {
  Output o;
  o.name = name;
  o.shape = shape;
  o.integer = true;
  o.checked = true;
  o.ints.assign(v.begin(), v.end());
  list.push_back(std::move(o));
  return list.back();
}

void Outputs::finish() {
  for (std::size_t k = 0; k < pending_.size(); ++k)
    std::memcpy(pending_[k].first, pending_[k].second, pending_size_[k] * sizeof(float));
  for (Output& o : list)
    for (std::size_t k = 0; k < pending_.size(); ++k)
      if (o.data == pending_[k].second) o.data = pending_[k].first;
  pending_.clear();
  pending_size_.clear();
}

// Capacity goes back too: a small block kept between calls could sit between
// two large ones and split the heap's free space for good (emmalloc does not
// move blocks).
void Outputs::clear() {
  std::vector<Output>().swap(list);
  std::vector<Target>().swap(targets);
  std::vector<std::pair<const float*, std::size_t>>().swap(inputs);
  std::vector<std::unique_ptr<float[]>>().swap(owned_);
  std::vector<std::pair<float*, const float*>>().swap(pending_);
  std::vector<std::size_t>().swap(pending_size_);
}

// ---- Call --------------------------------------------------------------

const View& Call::view(const std::string& name) const {
  auto it = inputs_.find(name);
  if (it == inputs_.end()) fail(Msg("missing_input", name) << "missing input '" << name << "'");
  return it->second;
}

const View* Call::opt_view(const std::string& name) const {
  auto it = inputs_.find(name);
  return it == inputs_.end() ? nullptr : &it->second;
}

const Tensor& Call::in(const std::string& name) const {
  const View& v = view(name);
  auto it = tensors_.find(name);
  if (it != tensors_.end()) return it->second;
  if (!v.data) fail("input " + name + " has no data here");
  Tensor t = xt::empty<float>(v.shape);
  std::memcpy(t.data(), v.data, v.size() * sizeof(float));
  return tensors_.emplace(name, std::move(t)).first->second;
}

const Tensor* Call::opt(const std::string& name) const { return inputs_.count(name) ? &in(name) : nullptr; }

bool Call::has(const std::string& name) const { return attrs_.count(name) > 0; }

double Call::num(const std::string& name) const {
  auto it = attrs_.find(name);
  if (it == attrs_.end()) fail(Msg("missing_attribute", name) << "missing attribute '" << name << "'");
  return std::get<double>(it->second);
}

long long Call::integer(const std::string& name) const { return static_cast<long long>(num(name)); }

bool Call::flag(const std::string& name) const {
  auto it = attrs_.find(name);
  if (it == attrs_.end()) fail(Msg("missing_attribute", name) << "missing attribute '" << name << "'");
  return std::get<bool>(it->second);
}

const std::string& Call::str(const std::string& name) const {
  auto it = attrs_.find(name);
  if (it == attrs_.end()) fail(Msg("missing_attribute", name) << "missing attribute '" << name << "'");
  return std::get<std::string>(it->second);
}

std::vector<long long> Call::ints(const std::string& name) const {
  auto it = attrs_.find(name);
  if (it == attrs_.end()) fail(Msg("missing_attribute", name) << "missing attribute '" << name << "'");
  std::vector<long long> out;
  for (double v : std::get<std::vector<double>>(it->second)) out.push_back(static_cast<long long>(v));
  return out;
}

Shape Call::sizes(const std::string& name, std::size_t lo) const {
  Shape s;
  for (long long v : ints(name)) {
    if (v < static_cast<long long>(lo))
      fail(Msg("out_of_range", name) << name << " has a size " << std::to_string(v)
                                     << "; sizes must be >= " << std::to_string(lo));
    if (v > static_cast<long long>(kMaxElements))
      fail(Msg("too_large", name) << name << " has a size " << std::to_string(v) << ", more than the limit of "
                                  << std::to_string(kMaxElements));
    s.push_back(static_cast<std::size_t>(v));
  }
  return s;
}

void Call::fail(const std::string& msg) const { (Msg() << op << ": " << msg).raise(); }
void Call::fail(const Msg& msg) const {
  Msg m(msg.code, msg.argument);
  (m << op << ": " << msg.text).raise();
}

void Call::check_work(double work, const std::string& what) const {
  if (work > kMaxWork)
    fail(Msg("too_large") << what << " needs about " << num_str(work) << " operations, more than the limit of "
                          << num_str(kMaxWork));
}

void Call::expect_shape(const std::string& input, const Shape& got, const Shape& want, const std::string& what) const {
  if (got != want)
    fail(Msg("bad_shape", input) << input << " has shape " << shape_str(got) << " but must have shape "
                                 << shape_str(want) << (what.empty() ? "" : " (" + what + ")"));
}

void Call::expect_shape(const std::string& input, const Tensor& t, const Shape& want, const std::string& what) const {
  expect_shape(input, Shape(t.shape().begin(), t.shape().end()), want, what);
}

void Call::expect_rank(const std::string& input, const Shape& shape, std::size_t lo, std::size_t hi) const {
  const std::size_t r = shape.size();
  if (r < lo || (hi && r > hi)) {
    std::string want = hi == lo ? std::to_string(lo)
                       : hi     ? std::to_string(lo) + " to " + std::to_string(hi)
                                : "at least " + std::to_string(lo);
    fail(Msg("bad_shape", input) << input << " must have rank " << want << " but has shape " << shape_str(shape));
  }
}

void Call::expect_rank(const std::string& input, const Tensor& t, std::size_t lo, std::size_t hi) const {
  expect_rank(input, Shape(t.shape().begin(), t.shape().end()), lo, hi);
}

float* Call::output_over(const std::string& name, const View& x) {
  if (!outputs_) fail("describing only: no output " + name);
  return outputs_->allocate_over(op, name, x);
}

float* Call::output(const std::string& name, const Shape& shape, bool checked) {
  if (!outputs_) fail("describing only: no output " + name);
  return outputs_->allocate(op, name, shape, checked);
}

void Call::out(const std::string& name, const Tensor& t) {
  float* y = output(name, Shape(t.shape().begin(), t.shape().end()));
  if (t.size()) std::memcpy(y, t.data(), t.size() * sizeof(float));
}

void Call::out(const std::string& name, const Value& v) {
  if (!v.integer) {
    float* y = output(name, v.shape);
    if (!v.f.empty()) std::memcpy(y, v.f.data(), v.f.size() * sizeof(float));
    return;
  }
  if (!outputs_) fail("describing only: no output " + name);
  outputs_->add_ints(name, v.shape, v.i);
}

// ---- registry ------------------------------------------------------------

const Registry& registry() {
  static const Registry r = [] {
    Registry reg;
    register_op_set(reg);  // which ops this build holds: cpp/sets/
    return reg;
  }();
  return r;
}

namespace {

// A caller's name, checked before it is used or printed: at most kMaxName
// letters, digits and underscores. A bad one is shown escaped and cut short.
std::string shown(const std::string& s) {
  std::string out;
  for (unsigned char ch : s.substr(0, 40)) {
    if (ch >= 0x20 && ch < 0x7f && ch != '\\' && ch != '\'')
      out += static_cast<char>(ch);
    else {
      const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[ch >> 4];
      out += hex[ch & 15];
    }
  }
  return s.size() > 40 ? out + "..." : out;
}

// The values an op's table row lists for a string attribute ("a|b|c"):
// anything else is refused with the list, as `op: mode must be "a", "b" or "c"`.
__attribute__((noinline)) void check_declared_values(const std::string& op, const AttrSpec& a, const std::string& v) {
  if (!a.values || !std::strcmp(a.values, kDescribedOps)) return;
  const std::string list = a.values;
  std::vector<std::string> options;
  for (std::size_t at = 0;;) {
    const std::size_t bar = list.find('|', at);
    options.push_back(list.substr(at, bar == std::string::npos ? std::string::npos : bar - at));
    if (options.back() == v) return;
    if (bar == std::string::npos) break;
    at = bar + 1;
  }
  Msg m("out_of_range", a.name);
  m << op << ": " << a.name << " must be ";
  for (std::size_t i = 0; i < options.size(); ++i)
    m << (i == 0 ? "" : i + 1 == options.size() ? " or " : ", ") << "\"" << options[i] << "\"";
  (m << " (got \"" << shown(v) << "\")").raise();
}

__attribute__((noinline)) void check_name(const std::string& prefix, const char* what, const Request::Name& n) {
  if (!(n.length >= 1)) (Msg() << prefix << what << " is empty").raise();
  if (n.length > kMaxName)
    (Msg() << prefix << what << " '" << shown(n.text) << "' is too long (" << num_str(n.length)
           << " characters; at most " << std::to_string(kMaxName) << ")")
        .raise();
  for (unsigned char ch : n.text)
    if (!(std::isalnum(ch) || ch == '_'))
      (Msg() << prefix << what << " '" << shown(n.text) << "' may hold only letters, digits and underscores").raise();
}

// A size or count from the caller: a whole number from 0 to 2^53.
bool whole_size(double d) { return d >= 0 && d <= 9007199254740992.0 && std::floor(d) == d; }

// An integer attribute whose row gives it a lower end of 0 or more and no
// upper end is a size or a count (num_groups, virtual_batch_size, size,
// normalized_ndim): no larger than the element limit, so no conversion can wrap.
// One with no range at all (axis, seed) only has to fit the 2^53 the kind checks.
__attribute__((noinline)) void check_size_attr(const std::string& op, const AttrSpec& a, double v) {
  const Range& r = a.range;
  if (r.has_lo && r.lo >= 0 && !r.has_hi && v > double(kMaxElements))
    (Msg("too_large", a.name) << op << ": " << a.name << " must be at most " << std::to_string(kMaxElements) << " (got "
                              << num_str(v) << ")")
        .raise();
}

}  // namespace

Shape caller_shape(const std::string& what, const double* dims, double rank) {
  const std::size_t colon = what.rfind(": ");
  const std::string arg = colon == std::string::npos ? what : what.substr(colon + 2);  // "op: x" -> "x"
  if (!(rank <= kMaxRank))
    (Msg("bad_shape", arg) << what << " has rank " << num_str(rank) << ", more than " << std::to_string(kMaxRank))
        .raise();
  Shape shape;
  for (std::size_t a = 0; a < static_cast<std::size_t>(rank); ++a) {
    const double d = dims[a];
    if (!whole_size(d))
      (Msg("bad_shape", arg) << what << " has an invalid size " << num_str(d) << " at axis " << std::to_string(a)
                             << " (sizes are whole numbers >= 0)")
          .raise();
    if (d > double(kMaxElements))
      (Msg("too_large", arg) << what << " has a size " << num_str(d) << " at axis " << std::to_string(a)
                             << ", more than the limit of " << std::to_string(kMaxElements) << " elements")
          .raise();
    shape.push_back(static_cast<std::size_t>(d));
  }
  return shape;
}

namespace {

struct Checked {
  const OpSpec* spec = nullptr;
  std::map<std::string, View> inputs;
  std::map<std::string, Attr> attrs;
};

Checked check(const Request& r, bool describing) {
  check_name("", "operation name", r.op);
  const auto& reg = registry();
  auto it = reg.find(r.op.text);
  if (it == reg.end()) (Msg("unknown_op") << "unknown operation '" << r.op.text << "'").raise();
  Checked c;
  c.spec = it->second;
  const OpSpec& spec = *c.spec;
  const std::string& op = r.op.text;
  const std::string at = op + ": ";

  for (const auto& in : r.inputs) {
    check_name(at, "input name", in.name);
    const std::string& name = in.name.text;
    bool known = false;
    for (const auto& s : spec.inputs) known |= s.name == name;
    if (!known)
      (Msg("unknown_input", name) << at << "unknown input '" << name << "' (inputs: " << names(spec.inputs) << ")")
          .raise();
    if (c.inputs.count(name)) (Msg() << at << "input " << name << " is given twice").raise();
    if (in.rank <= kMaxRank && in.dims.size() != in.rank)  // sizes missing: not what the caller's rank says
      (Msg("bad_shape", name) << at << name << " has rank " << num_str(in.rank) << " but "
                              << std::to_string(in.dims.size()) << " sizes")
          .raise();
    Shape shape = caller_shape(at + name, in.dims.data(), in.rank);
    // A description reads shapes only: no element limit beyond what its extents can count.
    double described = 1;
    for (auto d : shape) described *= double(d);
    if (describing && described > 2147483647.0)
      (Msg("too_large", name) << at << name << " has shape " << shape_str(shape)
                              << ", more than 2^31 elements to describe")
          .raise();
    const std::size_t n = describing ? static_cast<std::size_t>(described) : checked_size(shape, at + name);
    if (!describing && in.count != double(n))
      (Msg("bad_shape", name) << at << name << " has " << num_str(in.count) << " values but shape " << shape_str(shape)
                              << " needs " << std::to_string(n))
          .raise();
    if (n == 0) (Msg("empty", name) << at << name << " is empty (shape " << shape_str(shape) << ")").raise();
    if (!describing && !in.data) (Msg() << at << name << " has no data").raise();
    // Pure descriptions check their main input in the kernels, as they read it.
    const bool engine_checks = !spec.body && name == spec.inputs.begin()->name;
    if (in.data && !engine_checks)
      if (const std::size_t k = first_non_finite(in.data, n); k < n)
        (Msg("not_finite", name) << at << name << " has a non-finite value (" << num_str(in.data[k]) << ") at index "
                                 << std::to_string(k))
            .raise();
    c.inputs.emplace(name, View{in.data, std::move(shape), in.scratch});
  }
  for (const auto& s : spec.inputs)
    if (!s.optional && !c.inputs.count(s.name) && !(describing && s.name == spec.inputs.begin()->name))
      if (!describing) (Msg("missing_input", s.name) << at << "missing input '" << s.name << "'").raise();

  for (const auto& a : r.attrs) {
    check_name(at, "attribute name", a.name);
    const std::string& name = a.name.text;
    const AttrSpec* spec_a = nullptr;
    for (const auto& s : spec.attrs)
      if (s.name == name) spec_a = &s;
    if (!spec_a)
      (Msg("unknown_attribute", name) << at << "unknown attribute '" << name << "' (attributes: " << names(spec.attrs)
                                      << ")")
          .raise();
    if (c.attrs.count(name)) (Msg() << at << "attribute " << name << " is given twice").raise();
    const AttrKind k = spec_a->kind;
    const Attr& v = a.value;
    const bool ok = ((k == AttrKind::Number || k == AttrKind::Integer) && std::holds_alternative<double>(v)) ||
                    (k == AttrKind::Bool && std::holds_alternative<bool>(v)) ||
                    (k == AttrKind::String && std::holds_alternative<std::string>(v)) ||
                    (k == AttrKind::IntList && std::holds_alternative<std::vector<double>>(v));
    if (!ok) (Msg("bad_type", name) << at << "attribute " << name << " must be " << kind_name(k)).raise();
    if (auto* d = std::get_if<double>(&v)) {
      if (!std::isfinite(*d))
        (Msg("not_finite", name) << at << name << " must be finite (got " << num_str(*d) << ")").raise();
      if (k == AttrKind::Integer && !whole(*d))
        (Msg("out_of_range", name) << at << name << " must be an integer from -2^53 to 2^53 (got " << num_str(*d)
                                   << ")")
            .raise();
      if (k == AttrKind::Integer) check_size_attr(op, *spec_a, *d);
      if (spec_a->range) check_declared_range(op, *spec_a, *d);
    }
    if (auto* text = std::get_if<std::string>(&v)) {
      if (a.text_length > kMaxName)
        (Msg() << at << name << " is too long (" << num_str(a.text_length) << " characters; at most "
               << std::to_string(kMaxName) << ")")
            .raise();
      for (unsigned char ch : *text)
        if (ch < 0x20 || ch == 0x7f)
          (Msg() << at << name << " '" << shown(*text) << "' holds a control character").raise();
      check_declared_values(op, *spec_a, *text);
    }
    if (auto* l = std::get_if<std::vector<double>>(&v)) {
      if (a.text_length > kMaxList)
        (Msg() << at << name << " holds " << num_str(a.text_length) << " integers; lists hold at most "
               << std::to_string(kMaxList))
            .raise();
      for (double e : *l)
        if (!whole(e))
          (Msg() << at << name << " must hold integers from -2^53 to 2^53 (got " << num_str(e) << ")").raise();
    }
    c.attrs[name] = v;
  }
  for (const auto& s : spec.attrs)
    if (!c.attrs.count(s.name) && s.fallback) c.attrs[s.name] = s.fallback.value();
  return c;
}

// The body of an op that is a description: the engine, from x into y.
void run_description(Call& call, const OpSpec& spec) {
  Description d;
  spec.describe(call, d);
  const View& x = call.view(spec.inputs.begin()->name);
  float* y = call.output_over(spec.outputs.begin()->name, x);
  execute(d, x.data, y, x.shape);
}

}  // namespace

void execute_request(const Request& r, Outputs& outs) {
  const Checked c = check(r, false);
  const OpSpec& spec = *c.spec;
  const std::string& op = r.op.text;
  for (const auto& [name, target] : r.targets) {
    check_name(op + ": ", "output name", name);
    bool known = false;
    for (const auto& o : spec.outputs) known |= name.text == o.name;
    if (!known)
      (Msg() << op << ": no output named '" << name.text << "' (outputs: " << names(spec.outputs) << ")").raise();
    for (const Target& t : outs.targets) {
      if (t.name == name.text) (Msg() << op << ": output " << name.text << " has two targets").raise();
      if (t.data && target.data && t.data < target.data + target.size && target.data < t.data + t.size)
        (Msg() << op << ": the targets for outputs " << t.name << " and " << name.text << " overlap").raise();
    }
    Target t = target;
    t.name = name.text;
    outs.targets.push_back(t);
  }
  for (const auto& [name, v] : c.inputs) outs.inputs.emplace_back(v.data, v.size());

  Call call(op, c.inputs, c.attrs, &outs);
  if (spec.body)
    spec.body(call);
  else
    run_description(call, spec);

  for (const Target& t : outs.targets) {  // a target for what this call does not make is a mistake worth naming
    const Output* made = nullptr;
    for (const Output& o : outs.list)
      if (o.name == t.name) made = &o;
    if (!made) (Msg() << op << ": output " << t.name << " has a target but this call does not produce it").raise();
    if (made->integer) (Msg() << op << ": output " << t.name << " holds integers; it takes no target").raise();
  }
  for (const Output& o : outs.list)  // the table says which outputs hold integers; a body that disagrees is a bug
    for (const auto& s : spec.outputs)
      if (o.name == s.name && o.integer != s.integer)
        (Msg() << op << ": output " << o.name << (o.integer ? " holds" : " does not hold")
               << " integers, unlike its table row")
            .raise();
  for (const Output& o : outs.list)
    if (!o.integer && !o.checked)
      if (const std::size_t k = first_non_finite(o.data, o.size()); k < o.size())
        (Msg("overflow", o.name) << op << ": output " << o.name << " is not finite at index " << std::to_string(k)
                                 << " (float32 overflow)")
            .raise();
  outs.finish();
}

Description describe_request(const Request& r) {
  const Checked c = check(r, true);
  if (!c.spec->describe)  // the list of those that are is too long for a message: the registry has it
    (Msg() << r.op.text << ": not a normalization with a description (" << std::to_string(described_ops().size())
           << " ops have one; the registry marks them 'described')")
        .raise();
  if (!c.inputs.count(c.spec->inputs.begin()->name))
    (Msg() << r.op.text << ": describing needs the shape of " << c.spec->inputs.begin()->name).raise();
  Call call(r.op.text, c.inputs, c.attrs, nullptr);
  Description d;
  c.spec->describe(call, d);
  return d;
}

std::vector<std::string> described_ops() {
  std::vector<std::string> out;
  for (const auto& [name, spec] : registry())
    if (spec->describe) out.push_back(name);
  return out;
}

namespace {

// A native call as the door reads it: the op's name and its attributes.
Request native_request(const std::string& op, const std::map<std::string, Attr>& attrs) {
  Request r;
  r.op = {op, double(op.size())};
  for (const auto& [name, a] : attrs) {
    Request::Attribute at{{name, double(name.size())}, a, 0};
    if (auto* s = std::get_if<std::string>(&a)) at.text_length = double(s->size());
    if (auto* l = std::get_if<std::vector<double>>(&a)) at.text_length = double(l->size());
    r.attrs.push_back(std::move(at));
  }
  return r;
}

}  // namespace

Description describe_op(const std::string& op, const Shape& x, const std::map<std::string, Attr>& attrs) {
  Request r = native_request(op, attrs);
  const auto& reg = registry();
  const auto it = reg.find(op);  // an unknown op is the door's to name
  const std::string first = it != reg.end() && it->second->inputs.size() ? it->second->inputs.begin()->name : "x";
  Request::Input in;
  in.name = {first, double(first.size())};
  in.dims.assign(x.begin(), x.end());
  in.rank = double(in.dims.size());
  r.inputs.push_back(std::move(in));
  return describe_request(r);
}

std::map<std::string, Value> run_op(const std::string& op, const std::map<std::string, Tensor>& inputs,
                                    const std::map<std::string, Attr>& attrs) {
  Request r = native_request(op, attrs);
  for (const auto& [name, t] : inputs) {
    Request::Input in;
    in.name = {name, double(name.size())};
    in.dims.assign(t.shape().begin(), t.shape().end());
    in.rank = double(in.dims.size());
    in.data = t.data();
    in.count = double(t.size());
    r.inputs.push_back(std::move(in));
  }
  Outputs outs;
  execute_request(r, outs);
  std::map<std::string, Value> result;
  for (const Output& o : outs.list) {
    Value v;
    v.shape = o.shape;
    v.integer = o.integer;
    if (o.integer)
      v.i.assign(o.ints.begin(), o.ints.end());
    else
      v.f.assign(o.data, o.data + o.size());
    result[o.name] = std::move(v);
  }
  return result;
}

}  // namespace normlab
