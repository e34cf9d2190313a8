// normlab core: the operation registry. Every operation of docs/ops.md is
// registered here by name with its inputs, attributes (and defaults) and
// outputs; the registry checks names, kinds, ranges and finiteness at the door,
// so the operation bodies only compute.
#pragma once

#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "normlab/engine.hpp"
#include "normlab/tensor.hpp"

namespace normlab {

enum class AttrKind { Number, Integer, Bool, String, IntList };

/// A default attribute value as plain data (the registry is a table of
/// literals: no strings or variants to build at start-up, little code).
struct Default {
  // None: required. Absent: optional without a default (the op does without
  // it; `text` says what then happens).
  enum Kind : unsigned char { None, Absent, Number, Flag, Text } kind = None;
  double number = 0;
  bool flag = false;
  const char* text = nullptr;
  constexpr Default() = default;
  constexpr Default(double v) : kind(Number), number(v) {}
  constexpr Default(bool v) : kind(Flag), flag(v) {}
  constexpr Default(const char* s) : kind(Text), text(s) {}
  /// No default, and the op does without the attribute: `note` says how.
  static constexpr Default optional(const char* note) {
    Default d;
    d.kind = Absent;
    d.text = note;
    return d;
  }
  /// Whether there is a value to use when the attribute is not given.
  explicit operator bool() const { return kind >= Number; }
  Attr value() const;
};

/// The numbers a Number or Integer attribute may take, as the door checks
/// them: a lower and/or an upper end, each inclusive or not. The door's
/// message names the end crossed ("eps must be >= 0"), or both ends when the
/// range is an `interval` ("momentum must be in [0, 1]").
struct Range {
  double lo = 0, hi = 0;
  bool has_lo = false, has_hi = false;
  bool lo_inclusive = true, hi_inclusive = true;
  bool interval = false;
  constexpr Range at_most(double v, bool inclusive = true) const {
    Range r = *this;
    r.hi = v;
    r.has_hi = true;
    r.hi_inclusive = inclusive;
    return r;
  }
  explicit constexpr operator bool() const { return has_lo || has_hi; }
};

/// v and up (above v when not inclusive).
constexpr Range at_least(double v, bool inclusive = true) {
  Range r;
  r.lo = v;
  r.has_lo = true;
  r.lo_inclusive = inclusive;
  return r;
}

/// From lo to hi, both inclusive: the message states the interval.
constexpr Range within(double lo, double hi) {
  Range r = at_least(lo).at_most(hi);
  r.interval = true;
  return r;
}

/// From lo to hi with either end open: "(0, 1]", "[0, 1)".
constexpr Range interval(double lo, double hi, bool lo_inclusive, bool hi_inclusive) {
  Range r = at_least(lo, lo_inclusive).at_most(hi, hi_inclusive);
  r.interval = true;
  return r;
}

/// The values of a String attribute that stand for "the name of an op with a
/// description" (reduction_group's method): too many to list in a row.
inline constexpr char kDescribedOps[] = "(described)";

struct AttrSpec {
  const char* name;
  AttrKind kind;
  Default fallback;
  Range range = {};              // Number and Integer attributes: checked at the door
  const char* values = nullptr;  // String attributes: "a|b|c" (checked at the door), or kDescribedOps
};

struct InputSpec {
  const char* name;
  bool optional = false;
};

/// An output: its name, whether it holds integers (it comes back as numbers,
/// takes no target), and the optional inputs ("a|b") it is given only with.
struct OutputSpec {
  const char* name;
  bool integer = false;
  const char* when = nullptr;
  constexpr OutputSpec(const char* name, bool integer = false, const char* when = nullptr)
      : name(name), integer(integer), when(when) {}
};

/// An output that holds integers.
constexpr OutputSpec integers(const char* name) { return {name, true}; }
/// An output given only when the optional inputs `inputs` ("a|b") are given.
constexpr OutputSpec given_with(const char* name, const char* inputs) { return {name, false, inputs}; }

/// A float output as the door hands it back: in a caller's target (a resident
/// tensor) or in a buffer the door owns until the caller has copied it.
struct Output {
  std::string name;
  Shape shape;
  float* data = nullptr;     // float outputs
  std::vector<double> ints;  // integer outputs, widened so that JS reads them exactly
  bool integer = false;
  bool checked = false;  // its finiteness was already checked (by the engine)
  std::size_t size() const {
    std::size_t n = 1;
    for (auto d : shape) n *= d;
    return n;
  }
};

/// Where a caller wants an output written (a resident tensor).
struct Target {
  std::string name;
  float* data = nullptr;
  std::size_t size = 0;
};

/// The outputs of one call, and the memory they live in.
class Outputs {
 public:
  std::vector<Output> list;
  std::vector<Target> targets;
  /// Input ranges: a target overlapping one is written after the op, from a buffer.
  std::vector<std::pair<const float*, std::size_t>> inputs;

  /// A buffer for output `name` of `shape`: its target, or one owned here.
  float* allocate(const std::string& op, const std::string& name, const Shape& shape, bool checked);
  /// The same for an output of x's shape that may be written over x itself
  /// (kernels that read each element before writing it): x's scratch numbers
  /// or a target that is exactly x, when no other input shares its memory.
  float* allocate_over(const std::string& op, const std::string& name, const View& x);
  Output& add_ints(const std::string& name, const Shape& shape, const std::vector<std::int64_t>& v);
  /// Copy results staged beside an overlapping target into it.
  void finish();
  /// Give every owned buffer back.
  void clear();

 private:
  std::vector<std::unique_ptr<float[]>> owned_;
  std::vector<std::pair<float*, const float*>> pending_;  // target <- staged
  std::vector<std::size_t> pending_size_;
};

/// One validated invocation, handed to an operation body.
class Call {
 public:
  Call(const std::string& op, const std::map<std::string, View>& inputs, const std::map<std::string, Attr>& attrs,
       Outputs* outputs)
      : op(op), inputs_(inputs), attrs_(attrs), outputs_(outputs) {}

  const std::string& op;

  /// An input in place (no copy): the hot ops read these.
  const View& view(const std::string& name) const;
  const View* opt_view(const std::string& name) const;
  /// An input as a tensor (copied once, on first use): the generic ops read these.
  const Tensor& in(const std::string& name) const;
  const Tensor* opt(const std::string& name) const;
  double num(const std::string& name) const;
  long long integer(const std::string& name) const;
  bool flag(const std::string& name) const;
  const std::string& str(const std::string& name) const;
  std::vector<long long> ints(const std::string& name) const;
  /// A list attribute of sizes: whole numbers from `lo` up to kMaxElements.
  Shape sizes(const std::string& name, std::size_t lo) const;
  bool has(const std::string& name) const;
  /// True when the call only describes (core.describe): no data, no outputs.
  bool describing() const { return outputs_ == nullptr; }

  [[noreturn]] void fail(const std::string& msg) const;
  /// Fails with the message's code and argument, prefixed by the op's name.
  [[noreturn]] void fail(const Msg& msg) const;
  /// Fails unless t has exactly `want`, naming the input and `what` it must match.
  void expect_shape(const std::string& input, const Shape& got, const Shape& want, const std::string& what) const;
  void expect_shape(const std::string& input, const Tensor& t, const Shape& want, const std::string& what) const;
  void expect_rank(const std::string& input, const Tensor& t, std::size_t lo, std::size_t hi = 0) const;
  void expect_rank(const std::string& input, const Shape& shape, std::size_t lo, std::size_t hi = 0) const;

  /// Fails when an operation would do more than kMaxWork arithmetic.
  void check_work(double work, const std::string& what) const;

  /// The buffer a float output is written into (no copy afterwards);
  /// `checked`: the writer guarantees finite values.
  float* output(const std::string& name, const Shape& shape, bool checked = false);
  /// An output of x's shape that may be written over x (see Outputs::allocate_over).
  float* output_over(const std::string& name, const View& x);
  /// A finished tensor as an output (one copy).
  void out(const std::string& name, const Tensor& t);
  /// A native Value as an output (integers, or floats copied).
  void out(const std::string& name, const Value& v);

 private:
  const std::map<std::string, View>& inputs_;
  const std::map<std::string, Attr>& attrs_;
  Outputs* outputs_;
  mutable std::map<std::string, Tensor> tensors_;
};

/// One operation: a literal in a constexpr table of its ops_*.cpp file, so the
/// whole registry is data in the module, not code that builds it.
/// An op that is a normalization has a `describe`: its five pieces from the
/// shapes and attributes alone. With no `body` the engine runs the
/// description on the first input into output "y" (no copies); with one, the
/// body runs and `describe` serves core.describe and reduction_group.
struct OpSpec {
  const char* name;
  std::initializer_list<InputSpec> inputs;
  std::initializer_list<AttrSpec> attrs;
  std::initializer_list<OutputSpec> outputs;
  void (*body)(Call&);
  void (*describe)(const Call&, Description&) = nullptr;
};

using Registry = std::map<std::string, const OpSpec*>;

/// Enter a table of operations into the registry.
template <std::size_t N>
void enter(Registry& r, const OpSpec (&ops)[N]) {
  for (const OpSpec& o : ops) r[o.name] = &o;
}

/// Every operation, registered once.
const Registry& registry();

/// A call as it arrives at the door, before any check: names with the length
/// the caller had (only a prefix is kept), sizes as the caller's numbers.
struct Request {
  struct Name {
    std::string text;   // at most kMaxName + 1 characters of it
    double length = 0;  // the caller's length
  };
  struct Input {
    Name name;
    std::vector<double> dims;
    double rank = 0;  // the caller's rank (dims holds at most kMaxRank + 1)
    const float* data = nullptr;
    float* scratch = nullptr;  // data the caller hands over (an op may write over it)
    double count = 0;          // numbers the caller supplied
  };
  struct Attribute {
    Name name;
    Attr value;
    double text_length = 0;  // of a string value, or the caller's length of a list
  };
  Name op;
  std::vector<Input> inputs;
  std::vector<Attribute> attrs;
  std::vector<std::pair<Name, Target>> targets;
};

constexpr std::size_t kMaxName = 64;
constexpr std::size_t kMaxRank = 32;
constexpr std::size_t kMaxList = 64;  // entries of a list attribute (sizes, axes, an index)

/// A shape as a caller gave it (`rank` sizes as doubles), checked: rank at
/// most kMaxRank, whole sizes from 0 to kMaxElements. `what` starts messages.
Shape caller_shape(const std::string& what, const double* dims, double rank);

/// The one door: check everything about a request, run it, leave the results
/// in `outs`. Throws InputError (the message names the op and the argument).
void execute_request(const Request& r, Outputs& outs);
/// The description an operation runs with, from shapes and attributes alone
/// (inputs without data). Throws InputError, also for ops that are not
/// normalizations.
Description describe_request(const Request& r);
/// The names of every op with a description.
std::vector<std::string> described_ops();

/// Native convenience over the door. Throws InputError for bad input.
std::map<std::string, Value> run_op(const std::string& op, const std::map<std::string, Tensor>& inputs,
                                    const std::map<std::string, Attr>& attrs);

// Registration, one function per concern (cpp/src/ops_*.cpp).
void register_norm_ops(Registry& r);
void register_conditioning_ops(Registry& r);
void register_weight_ops(Registry& r);
void register_attention_ops(Registry& r);
void register_gradient_ops(Registry& r);
void register_preprocessing_ops(Registry& r);
void register_shape_ops(Registry& r);
void register_figure_ops(Registry& r);
void register_training_ops(Registry& r);

/// The ops one build holds, defined by exactly one file of cpp/sets/: all.cpp
/// (native library, tests, fuzzing), core.cpp (the WASM core every figure
/// loads) or training.cpp (the training module, loaded only by loadTrainer()).
void register_op_set(Registry& r);

// ---- describing from shapes (engine) --------------------------------------

/// The description `op` runs with on a first input of shape x (no data), its
/// attributes checked as the door checks them (through describe_request):
/// for native callers such as reduction_group. Throws InputError.
Description describe_op(const std::string& op, const Shape& x, const std::map<std::string, Attr>& attrs);

}  // namespace normlab
