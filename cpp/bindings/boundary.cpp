// The boundary between JavaScript and the core: plain C exports (numbers and
// pointers only, no Embind), which keep the module and its JS glue small.
//
// A call is staged: nl_request(op), then inputs (shape in the scratch area,
// data written by JS straight into the buffer nl_add_input returns) and
// attributes, then nl_invoke(). Outputs stay in C++ until the next request;
// JS copies them out (never keeps a view). Strings come in as NUL-terminated
// UTF-8 that JS writes into WASM memory, and go out as pointers JS decodes.
// Every C++ exception is caught here and kept as a message that the JS layer
// throws as an Error.
#include <emscripten/emscripten.h>

#include <malloc.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

#include "normlab/ops.hpp"

using namespace normlab;

namespace {

struct Staged {
  std::string op;
  std::map<std::string, Tensor> inputs;
  std::map<std::string, Attr> attrs;
  std::map<std::string, Value> outputs;
  std::vector<std::string> output_names;
  std::string error;
};

Staged& staged() {
  static Staged s;
  return s;
}

std::vector<double>& scratch() {
  static std::vector<double> s(64);
  return s;
}

// Run f; on any exception keep its message and return the fallback.
template <class F, class R>
R guarded(F&& f, R fallback) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    staged().error = staged().op + ": out of memory";
  } catch (const std::exception& e) {
    staged().error = e.what();
  } catch (...) {
    staged().error = staged().op + ": unknown failure";
  }
  return fallback;
}

std::uintptr_t scratch_ptr(std::size_t n) {
  return guarded([&] {
    if (scratch().size() < n) scratch().resize(n);
    return reinterpret_cast<std::uintptr_t>(scratch().data());
  }, std::uintptr_t(0));
}

void request(const std::string& op) {
  Staged& s = staged();
  s.op = op;
  s.inputs.clear();
  s.attrs.clear();
  s.outputs.clear();
  s.output_names.clear();
  s.error.clear();
}

// Shape: `ndim` numbers in the scratch area; `count` values will follow.
// Returns the data buffer to write them into (or 0, with the error kept).
std::uintptr_t add_input(const std::string& name, std::size_t ndim, double count) {
  return guarded([&] {
    Shape shape;
    for (std::size_t a = 0; a < ndim; ++a) {
      const double d = scratch()[a];
      if (!(d >= 0) || d != static_cast<double>(static_cast<std::size_t>(d)) || d > 1e15)
        throw InputError(staged().op + ": " + name + " has an invalid size " + num_str(d) + " at axis " +
                         std::to_string(a));
      shape.push_back(static_cast<std::size_t>(d));
    }
    const std::size_t n = checked_size(shape, staged().op + ": " + name);  // before any allocation
    if (count != static_cast<double>(n))
      throw InputError(staged().op + ": " + name + " has " + num_str(count) + " values but shape " +
                       shape_str(shape) + " needs " + std::to_string(n));
    Tensor& t = staged().inputs[name];
    t = xt::empty<float>(shape);
    return reinterpret_cast<std::uintptr_t>(t.data());
  }, std::uintptr_t(0));
}

void attr_number(const std::string& name, double v) { staged().attrs[name] = v; }
void attr_bool(const std::string& name, bool v) { staged().attrs[name] = v; }
void attr_string(const std::string& name, const std::string& v) { staged().attrs[name] = v; }
void attr_list(const std::string& name, std::size_t n) {
  staged().attrs[name] = std::vector<double>(scratch().begin(), scratch().begin() + n);
}

bool invoke() {
  Staged& s = staged();
  if (!s.error.empty()) return false;
  return guarded([&] {
    s.outputs = run_op(s.op, std::move(s.inputs), s.attrs);
    s.inputs.clear();
    for (const char* name : registry().at(s.op)->outputs)
      if (s.outputs.count(name)) s.output_names.push_back(name);
    return true;
  }, false);
}

// The text handed to JS lives here until the next string result.
const char* text(std::string s) {
  static std::string keep;
  keep = std::move(s);
  return keep.c_str();
}

std::string error_message() { return staged().error; }
std::size_t output_count() { return staged().output_names.size(); }
std::string output_name(std::size_t i) { return staged().output_names.at(i); }
const Value& out(std::size_t i) { return staged().outputs.at(staged().output_names.at(i)); }
bool output_is_int(std::size_t i) { return out(i).integer; }
std::size_t output_rank(std::size_t i) { return out(i).shape.size(); }
double output_dim(std::size_t i, std::size_t a) { return static_cast<double>(out(i).shape.at(a)); }
std::size_t output_size(std::size_t i) { return out(i).size(); }
// Integers are widened to double so JS reads them exactly.
std::uintptr_t output_data(std::size_t i) {
  const Value& v = out(i);
  if (!v.integer) return reinterpret_cast<std::uintptr_t>(v.f.data());
  auto& sc = scratch();
  if (sc.size() < v.i.size()) sc.resize(v.i.size());
  for (std::size_t k = 0; k < v.i.size(); ++k) sc[k] = static_cast<double>(v.i[k]);
  return reinterpret_cast<std::uintptr_t>(sc.data());
}

// Drop the outputs once JS has copied them.
void release() {
  staged().outputs.clear();
  staged().output_names.clear();
  staged().inputs.clear();
}

// "x,gamma?,beta?|normalized_ndim,eps|y": how JS maps named options.
std::string op_spec(const std::string& op) {
  auto it = registry().find(op);
  if (it == registry().end()) return "";
  std::string s;
  auto list = [&](const auto& items, auto name) {
    bool first = true;
    for (const auto& e : items) {
      if (!first) s += ",";
      s += name(e);
      first = false;
    }
  };
  list(it->second->inputs, [](const InputSpec& i) { return std::string(i.name) + (i.optional ? "?" : ""); });
  s += "|";
  list(it->second->attrs, [](const AttrSpec& a) { return std::string(a.name); });
  s += "|";
  list(it->second->outputs, [](const char* o) { return std::string(o); });
  return s;
}

std::string op_names() {
  std::string s;
  for (const auto& entry : registry()) {
    if (!s.empty()) s += ",";
    s += entry.first;
  }
  return s;
}

// Bytes the allocator has handed out and not taken back (for leak tests).
double heap_bytes() { return static_cast<double>(mallinfo().uordblks); }


}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE std::uintptr_t nl_scratch(std::size_t n) { return scratch_ptr(n); }
EMSCRIPTEN_KEEPALIVE void nl_request(const char* op) { request(op); }
EMSCRIPTEN_KEEPALIVE std::uintptr_t nl_add_input(const char* name, std::size_t ndim, double count) {
  return add_input(name, ndim, count);
}
EMSCRIPTEN_KEEPALIVE void nl_attr_number(const char* name, double v) { attr_number(name, v); }
EMSCRIPTEN_KEEPALIVE void nl_attr_bool(const char* name, int v) { attr_bool(name, v != 0); }
EMSCRIPTEN_KEEPALIVE void nl_attr_string(const char* name, const char* v) {
  guarded([&] { return attr_string(name, v), 0; }, 0);
}
EMSCRIPTEN_KEEPALIVE void nl_attr_list(const char* name, std::size_t n) {
  guarded([&] { return attr_list(name, n), 0; }, 0);
}
EMSCRIPTEN_KEEPALIVE int nl_invoke() { return invoke() ? 1 : 0; }
EMSCRIPTEN_KEEPALIVE const char* nl_error_message() { return text(error_message()); }
EMSCRIPTEN_KEEPALIVE std::size_t nl_output_count() { return output_count(); }
EMSCRIPTEN_KEEPALIVE const char* nl_output_name(std::size_t i) { return text(output_name(i)); }
EMSCRIPTEN_KEEPALIVE int nl_output_is_int(std::size_t i) { return output_is_int(i) ? 1 : 0; }
EMSCRIPTEN_KEEPALIVE std::size_t nl_output_rank(std::size_t i) { return output_rank(i); }
EMSCRIPTEN_KEEPALIVE double nl_output_dim(std::size_t i, std::size_t a) { return output_dim(i, a); }
EMSCRIPTEN_KEEPALIVE std::size_t nl_output_size(std::size_t i) { return output_size(i); }
EMSCRIPTEN_KEEPALIVE std::uintptr_t nl_output_data(std::size_t i) {
  return guarded([&] { return output_data(i); }, std::uintptr_t(0));
}
EMSCRIPTEN_KEEPALIVE void nl_release() { release(); }
EMSCRIPTEN_KEEPALIVE const char* nl_op_spec(const char* op) { return text(op_spec(op)); }
EMSCRIPTEN_KEEPALIVE const char* nl_op_names() { return text(op_names()); }
EMSCRIPTEN_KEEPALIVE double nl_heap_bytes() { return heap_bytes(); }

}  // extern "C"
