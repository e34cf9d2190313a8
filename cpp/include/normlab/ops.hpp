// normlab core: the operation registry. Every operation of shared/ops.md is
// registered here by name with its inputs, attributes (and defaults) and
// outputs; the registry checks names, kinds, ranges and finiteness at the door,
// so the operation bodies only compute.
#pragma once

#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "normlab/tensor.hpp"

namespace normlab {

enum class AttrKind { Number, Integer, Bool, String, IntList };

/// A default attribute value as plain data (the registry is a table of
/// literals: no strings or variants to build at start-up, little code).
struct Default {
  enum Kind : unsigned char { None, Number, Flag, Text } kind = None;  // None: required
  double number = 0;
  bool flag = false;
  const char* text = nullptr;
  constexpr Default() = default;
  constexpr Default(double v) : kind(Number), number(v) {}
  constexpr Default(bool v) : kind(Flag), flag(v) {}
  constexpr Default(const char* s) : kind(Text), text(s) {}
  explicit operator bool() const { return kind != None; }
  Attr value() const;
};

struct AttrSpec {
  const char* name;
  AttrKind kind;
  Default fallback;
};

struct InputSpec {
  const char* name;
  bool optional = false;
};

/// One validated invocation, handed to an operation body.
class Call {
 public:
  Call(const std::string& op, std::map<std::string, Tensor>& inputs,
       const std::map<std::string, Attr>& attrs)
      : op(op), inputs_(inputs), attrs_(attrs) {}

  const std::string& op;

  const Tensor& in(const std::string& name) const;
  const Tensor* opt(const std::string& name) const;
  double num(const std::string& name) const;
  long long integer(const std::string& name) const;
  bool flag(const std::string& name) const;
  const std::string& str(const std::string& name) const;
  std::vector<long long> ints(const std::string& name) const;
  bool has(const std::string& name) const;

  [[noreturn]] void fail(const std::string& msg) const;
  /// Fails unless t has exactly `want`, naming the input and `what` it must match.
  void expect_shape(const std::string& input, const Tensor& t, const Shape& want,
                    const std::string& what) const;
  void expect_rank(const std::string& input, const Tensor& t, std::size_t lo,
                   std::size_t hi = 0) const;

  /// Fails when an operation would do more than kMaxWork arithmetic.
  void check_work(double work, const std::string& what) const;

  void out(const std::string& name, const Tensor& t) { outputs[name] = Value::of(t); }
  void out(const std::string& name, Value v) { outputs[name] = std::move(v); }

  std::map<std::string, Value> outputs;

 private:
  std::map<std::string, Tensor>& inputs_;
  const std::map<std::string, Attr>& attrs_;
};

/// One operation: a literal in a constexpr table of its ops_*.cpp file, so the
/// whole registry is data in the module, not code that builds it.
struct OpSpec {
  const char* name;
  std::initializer_list<InputSpec> inputs;
  std::initializer_list<AttrSpec> attrs;
  std::initializer_list<const char*> outputs;
  void (*body)(Call&);
};

using Registry = std::map<std::string, const OpSpec*>;

/// Enter a table of operations into the registry.
template <std::size_t N>
void enter(Registry& r, const OpSpec (&ops)[N]) {
  for (const OpSpec& o : ops) r[o.name] = &o;
}

/// Every operation, registered once.
const Registry& registry();

/// Run an operation by name. Throws InputError for bad input.
std::map<std::string, Value> run_op(const std::string& op, std::map<std::string, Tensor> inputs,
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

}  // namespace normlab
