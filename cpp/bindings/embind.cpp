// The binding layer: Embind (docs/design.md, "Layering").
//
// Bound here: the registry (`registry`, as JSON), the door (`invoke`,
// `describe`, `lastError`, `release`), the arena JS places a call in
// (`reserve`), the resident tensor (class `Resident`, freed by delete()) and
// `heapBytes`.
//
// A call travels as plain numbers and bytes in one reused block of WASM
// memory, the arena: a header of doubles (names by length, shapes as the
// caller's numbers, where each input's data is, attributes, output targets),
// then the names' UTF-8 bytes, then the input data. JS writes it once; C++
// reads it with every offset checked and hands a Request to the core's one
// door (execute_request), which checks everything a caller can get wrong.
// Results stay in C++ until the next call or release(): `invoke` lists where
// they are and JS copies them out once.
#include <emscripten/bind.h>

#include <malloc.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <new>
#include <stdexcept>
#include <string>

#include "normlab/ops.hpp"

using namespace normlab;

namespace {

// ---- the arena ------------------------------------------------------------

struct Arena {
  std::uint8_t* base = nullptr;
  std::size_t capacity = 0;
};
Arena arena;
constexpr std::size_t kArenaMin = 4096;
constexpr std::size_t kArenaKeep = 1 << 20;  // kept between calls; larger ones go back

std::string last_error;
std::string last_code;      // InputError::code, or the failure kind ("too_large", "out_of_memory", "internal")
std::string last_argument;  // the input or attribute at fault, when known

void fail_with(const char* code, std::string message, std::string argument = {}) {
  last_error = std::move(message);
  last_code = code;
  last_argument = std::move(argument);
}
Outputs results;       // the last call's outputs, until release()

void drop_arena() {
  std::free(arena.base);
  arena = {};
}

/// A block of at least `bytes` for JS to write a call into (0: out of memory,
/// with the error kept). Its contents do not survive a reserve that grows it.
double reserve(double bytes) {
  if (!(bytes >= 0) || bytes > double(std::size_t(1) << 30)) {
    fail_with("too_large", "normlab: a call of " + num_str(bytes) + " bytes is more than the core takes at once");
    return 0;
  }
  const std::size_t need = std::max<std::size_t>(static_cast<std::size_t>(bytes), kArenaMin);
  if (need > arena.capacity) {
    drop_arena();
    void* p = std::aligned_alloc(16, (need + 15) & ~std::size_t(15));
    if (!p) {
      fail_with("out_of_memory", "normlab: out of memory for a call of " + num_str(bytes) + " bytes");
      return 0;
    }
    arena = {static_cast<std::uint8_t*>(p), need};
  }
  return double(reinterpret_cast<std::uintptr_t>(arena.base));
}

// Resident tensors' memory, by id (ids are never reused).
struct Block {
  float* data;
  std::size_t size;
};
std::map<double, Block> residents;
double next_id = 1;

// ---- reading a request --------------------------------------------------------

struct Malformed {};

struct Reader {
  const double* h;
  std::size_t n, i = 0;
  const std::uint8_t* text;
  std::size_t tn, ti = 0;

  double num() {
    if (i >= n) throw Malformed{};
    return h[i++];
  }
  std::size_t count(std::size_t most) {
    const double v = num();
    if (!(v >= 0) || v > double(most) || std::floor(v) != v) throw Malformed{};
    return static_cast<std::size_t>(v);
  }
  Request::Name name() {
    Request::Name out;
    out.length = num();
    const std::size_t bytes = count(4 * (kMaxName + 1));
    if (ti + bytes > tn) throw Malformed{};
    out.text.assign(reinterpret_cast<const char*>(text + ti), bytes);
    ti += bytes;
    return out;
  }
};

const float* arena_floats(double offset, double count) {
  // input data lies inside the arena, after the header and the names
  if (!(offset >= 0) || !(count >= 0) || std::floor(offset) != offset) throw Malformed{};
  if ((offset + count) * 4 > double(arena.capacity)) throw Malformed{};
  return reinterpret_cast<const float*>(arena.base) + static_cast<std::size_t>(offset);
}

const Block* resident(double id) {
  auto it = residents.find(id);
  return it == residents.end() ? nullptr : &it->second;
}

// The header (at byte offset `at`, `header` doubles, then `text_bytes` of
// names): op name; inputs: count, then each: name, rank, min(rank, kMaxRank+1)
// sizes, source (0 arena, 1 resident, 2 shape only), where (float offset or
// id), count; attributes: count, then each: name, kind (0 number, 1 boolean,
// 2 string, 3 list) and value (a number; a name-like text; n and n numbers);
// targets: count, then each: output name, resident id (0: JS copies into an array).
Request parse(double at, double header, double text_bytes, bool describing) {
  if (!(at >= 0) || std::fmod(at, 8) != 0 || !(header >= 0) || !(text_bytes >= 0) ||
      at + header * 8 + text_bytes > double(arena.capacity))
    throw Malformed{};
  const std::size_t hn = static_cast<std::size_t>(header);
  const std::uint8_t* h = arena.base + static_cast<std::size_t>(at);
  Reader rd{reinterpret_cast<const double*>(h), hn, 0, h + hn * 8, static_cast<std::size_t>(text_bytes)};
  Request r;
  r.op = rd.name();
  // how many of each: more than a call can name is the caller's mistake, said as such
  auto how_many = [&](std::size_t most, const char* what) {
    const double v = rd.num();
    if (!(v >= 0) || std::floor(v) != v) throw Malformed{};
    if (v > double(most))
      (Msg() << r.op.text.substr(0, kMaxName) << ": " << num_str(v) << " " << what << ", more than "
             << std::to_string(most)).raise();
    return static_cast<std::size_t>(v);
  };
  const std::size_t inputs = how_many(64, "inputs");
  for (std::size_t k = 0; k < inputs; ++k) {
    Request::Input in;
    in.name = rd.name();
    in.rank = rd.num();
    const std::size_t dims = in.rank >= 0 && in.rank <= double(kMaxRank + 1) && std::floor(in.rank) == in.rank
                                 ? static_cast<std::size_t>(in.rank)
                                 : kMaxRank + 1;
    for (std::size_t a = 0; a < dims; ++a) in.dims.push_back(rd.num());
    const std::size_t source = rd.count(2);
    const double where = rd.num();
    in.count = rd.num();
    if (source == 0) {
      in.scratch = const_cast<float*>(arena_floats(where, in.count));  // the arena is the core's own scratch
      in.data = in.scratch;
    } else if (source == 1) {
      const Block* b = resident(where);
      if (!b) (Msg() << r.op.text << ": input " << in.name.text << " is a resident tensor that was freed").raise();
      in.data = b->data;
      in.count = double(b->size);
    } else if (!describing) {
      throw Malformed{};
    }
    r.inputs.push_back(std::move(in));
  }
  const std::size_t attrs = how_many(64, "attributes");
  for (std::size_t k = 0; k < attrs; ++k) {
    Request::Attribute a;
    a.name = rd.name();
    switch (rd.count(3)) {
      case 0: a.value = rd.num(); break;
      case 1: a.value = rd.num() != 0; break;
      case 2: {
        Request::Name t = rd.name();
        a.text_length = t.length;
        a.value = std::move(t.text);
        break;
      }
      default: {  // the caller's length, then the entries that crossed (at most kMaxList + 1)
        a.text_length = rd.num();
        const std::size_t n = rd.count(kMaxList + 1);
        std::vector<double> list(n);
        for (auto& e : list) e = rd.num();
        a.value = std::move(list);
      }
    }
    r.attrs.push_back(std::move(a));
  }
  const std::size_t targets = how_many(16, "output targets");
  for (std::size_t k = 0; k < targets; ++k) {
    Request::Name name = rd.name();
    const double id = rd.num();  // 0: a Float32Array that JS fills from the result itself
    const Block* b = id == 0 ? nullptr : resident(id);
    if (id != 0 && !b)
      (Msg() << r.op.text << ": the target for output " << name.text << " is a resident tensor that was freed").raise();
    r.targets.push_back({std::move(name), b ? Target{"", b->data, b->size} : Target{}});
  }
  if (rd.i != rd.n || rd.ti != rd.tn) throw Malformed{};  // JS and this reader disagree about the layout
  return r;
}

// ---- the door ----------------------------------------------------------------


template <class F>
bool guarded(const std::string& op, F&& f) {
  try {
    f();
    return true;
  } catch (const Malformed&) {
    fail_with("internal", "normlab: a malformed request reached the core (a bug in normlab's JS layer)");
  } catch (const std::length_error&) {
    fail_with("too_large", (op.size() <= kMaxName ? op : std::string("normlab")) + ": a result would be too large");
  } catch (const std::bad_alloc&) {
    fail_with("out_of_memory", (op.size() <= kMaxName ? op : std::string("normlab")) + ": out of memory");
  } catch (const InputError& e) {
    fail_with(e.code, e.what(), e.argument);
  } catch (const std::exception& e) {
    fail_with("internal", e.what());
  } catch (...) {
    fail_with("internal", "normlab: unknown failure");
  }
  return false;
}

// ---- resident tensors -------------------------------------------------------


/// A float32 tensor kept in WASM memory. JS owns it through its handle:
/// delete() (NlTensor.free) gives the memory back at once; a finalizer does
/// it for forgotten ones. Its shape is read from the arena (`rank` doubles at
/// byte offset `at`) and checked like any input's; when it is bad or memory
/// runs out, id() is 0 and lastError says why.
class Resident {
 public:
  Resident(double at, double rank) {
    last_error.clear();
    guarded("tensor", [&] {
      if (!(at >= 0) || std::floor(at) != at || !(rank >= 0) || (at + 8 * std::min(rank, 64.0)) > double(arena.capacity))
        throw Malformed{};
      const double* dims = reinterpret_cast<const double*>(arena.base + static_cast<std::size_t>(at));
      const Shape shape = caller_shape("tensor: shape", dims, rank);  // the same rules as any input's shape
      const std::size_t n = checked_size(shape, "tensor: shape");
      float* p = new float[std::max<std::size_t>(n, 1)];
      std::memset(p, 0, std::max<std::size_t>(n, 1) * sizeof(float));
      id_ = next_id++;
      residents[id_] = {p, n};
    });
  }
  ~Resident() { release(); }
  Resident(const Resident&) = delete;
  Resident& operator=(const Resident&) = delete;

  double id() const { return id_; }
  /// Byte address of the data in WASM memory (0 once freed).
  double pointer() const {
    auto it = residents.find(id_);
    return it == residents.end() ? 0 : double(reinterpret_cast<std::uintptr_t>(it->second.data));
  }
  double size() const {
    auto it = residents.find(id_);
    return it == residents.end() ? 0 : double(it->second.size);
  }
  void release() {
    auto it = residents.find(id_);
    if (it == residents.end()) return;
    delete[] it->second.data;
    residents.erase(it);
  }

 private:
  double id_ = 0;
};

/// Run the call in the arena. Returns the byte address of a listing of the
/// outputs (doubles: their count, then for each: index in the op's outputs,
/// integer flag, rank, sizes, byte address, element count), or 0 (see
/// lastError). The listing lives apart from the arena, which may hold outputs.
std::vector<double> listing;

double run_call(double at, double header, double text_bytes) {
  results.clear();
  last_error.clear();
  std::string op;
  const bool ok = guarded(op, [&] {
    const Request r = parse(at, header, text_bytes, false);
    op = r.op.text;
    execute_request(r, results);
    const OpSpec& spec = *registry().at(op);
    listing.assign(1, double(results.list.size()));
    for (const Output& o : results.list) {
      double index = 0;
      for (const char* name : spec.outputs) {
        if (o.name == name) break;
        ++index;
      }
      listing.push_back(index);
      listing.push_back(o.integer ? 1 : 0);
      listing.push_back(double(o.shape.size()));
      for (auto d : o.shape) listing.push_back(double(d));
      listing.push_back(double(reinterpret_cast<std::uintptr_t>(
          o.integer ? static_cast<const void*>(o.ints.data()) : static_cast<const void*>(o.data))));
      listing.push_back(double(o.size()));
    }
  });
  if (!ok) {
    results.clear();
    return 0;
  }
  return double(reinterpret_cast<std::uintptr_t>(listing.data()));
}

/// Give the last call's results back (JS has copied them); a large arena too.
void release() {
  results.clear();
  if (arena.capacity > kArenaKeep) drop_arena();
}

std::string error() { return last_error; }
/// "code\nargument" of the last error (README, "Error codes").
std::string error_info() { return last_code + "\n" + last_argument; }

// Names JS reads, in the order of the enums they name (engine.hpp, ops.hpp).
constexpr const char* kMeasureNames[] = {"mean_var", "mean_square", "sum_square", "sum_abs", "max_abs", "sum_exp"};
constexpr const char* kDenominatorNames[] = {"sqrt_spread_plus_eps", "max_sqrt_spread_eps", "max_spread_eps",
                                             "exp_over_spread"};
constexpr const char* kKindNames[] = {"number", "integer", "boolean", "string", "integers"};
const char* measure_name(Measure m) { return kMeasureNames[static_cast<int>(m)]; }
const char* denominator_name(Denominator d) { return kDenominatorNames[static_cast<int>(d)]; }
const char* kind_name(AttrKind k) { return kKindNames[static_cast<int>(k)]; }

// Small JSON writers: the registry and descriptions cross as JSON text
// (JSON.parse on the JS side), which keeps Embind's val templates and their
// code out of the module.
__attribute__((noinline)) std::string q(const std::string& s) { return "\"" + s + "\""; }  // names are identifiers

template <class V>
__attribute__((noinline)) std::string numbers(const V& v) {
  std::string a = "[";
  for (std::size_t i = 0; i < v.size(); ++i) a += (i ? "," : "") + num_str(double(v[i]));
  return a + "]";
}

struct Obj {
  std::string s = "{";
  __attribute__((noinline)) Obj& add(const char* key, const std::string& json) {
    s += (s.size() > 1 ? ",\"" : "\"") + std::string(key) + "\":" + json;
    return *this;
  }
  std::string str() const { return s + "}"; }
};

// A parameter's view, and what it is per (coordinate, channel, example and
// channel, example and coordinate, scalar, element), from the view alone.
std::string param(const char* name, const Shape& view, const Shape& x, int channel_axis) {
  if (!name) return "null";
  // right-aligned against x: which axes of x does the parameter vary along
  std::vector<std::size_t> along;
  for (std::size_t k = 0; k < view.size(); ++k)
    if (view[view.size() - 1 - k] != 1) along.push_back(x.size() - 1 - k);
  std::sort(along.begin(), along.end());
  auto is = [&](std::vector<std::size_t> want) { return along == want; };
  const char* per = "coordinate";
  if (along.empty()) per = "scalar";
  else if (channel_axis >= 0 && is({std::size_t(channel_axis)})) per = "channel";
  else if (channel_axis >= 0 && is({0, std::size_t(channel_axis)})) per = "example_channel";
  else if (along.size() == x.size()) per = "element";
  else if (along.front() == 0) per = "example_coordinate";
  return Obj().add("input", q(name)).add("view", numbers(view)).add("axes", numbers(along)).add("per", q(per)).str();
}

/// The five pieces of a normalization (core.describe) as JSON, or "" (see lastError).
std::string describe_call(double at, double header, double text_bytes) {
  last_error.clear();
  std::string out;
  guarded("describe", [&] {
    const Request r = parse(at, header, text_bytes, true);
    const Description d = describe_request(r);
    Shape x;
    for (const auto& in : r.inputs)
      if (in.name.text == registry().at(r.op.text)->inputs.begin()->name)
        for (double v : in.dims) x.push_back(static_cast<std::size_t>(v));
    const Group& g = d.group;
    // the input axes a group spans (wholly or in part, as GroupNorm spans C)
    std::vector<std::size_t> axes;
    for (std::size_t a : g.reduced)
      if (axes.empty() || axes.back() != g.source[a]) axes.push_back(g.source[a]);
    Shape kept = x;  // the statistics' shape with keepdim: reduced input axes -> 1
    for (std::size_t a : g.reduced) {
      if (g.layout[a] == x[g.source[a]]) kept[g.source[a]] = 1;
      else kept[g.source[a]] /= g.layout[a];  // a split axis keeps its groups
    }
    const std::string group =
        Obj()
            .add("layout", numbers(g.layout))
            .add("reduced", numbers(g.reduced))
            .add("source", numbers(g.source))
            .add("axes", numbers(axes))
            .add("statShape", numbers(kept))
            .add("extents", numbers(std::vector<std::size_t>{g.stat_outer, g.reduce_outer, g.stat_inner, g.reduce_inner}))
            .add("count", num_str(double(g.stats())))
            .add("size", num_str(double(g.members())))
            .str();
    const std::string transform = Obj()
                                      .add("center", d.transform.center ? "true" : "false")
                                      .add("denominator", q(denominator_name(d.transform.denominator)))
                                      .add("eps", num_str(d.transform.eps))
                                      .str();
    const std::string params = Obj()
                                   .add("scale", param(d.params.scale_name, d.params.scale_view, x, d.channel_axis))
                                   .add("shift", param(d.params.shift_name, d.params.shift_view, x, d.channel_axis))
                                   .add("scaleOffset", num_str(d.params.scale_offset))
                                   .str();
    out = Obj()
              .add("op", q(r.op.text))
              .add("shape", numbers(x))
              .add("group", group)
              .add("measure", q(measure_name(d.measure)))
              .add("transform", transform)
              .add("params", params)
              .add("mode", q(d.mode.running ? "running" : "current"))
              .add("channelAxis", num_str(d.channel_axis))
              .str();
  });
  return out;
}

// ---- the registry -------------------------------------------------------------

/// Every op's inputs, attributes (kind and default) and outputs, as JSON.
std::string registry_json() {
  std::string all = "{";
  for (const auto& [name, spec] : registry()) {
    const OpSpec& s = *spec;
    std::string inputs = "[", attrs = "[", outputs = "[";
    for (const auto& in : s.inputs)
      inputs += (inputs.size() > 1 ? "," : "") +
                Obj().add("name", q(in.name)).add("optional", in.optional ? "true" : "false").str();
    for (const auto& a : s.attrs) {
      Obj e;
      e.add("name", q(a.name)).add("kind", q(kind_name(a.kind)));
      switch (a.fallback.kind) {
        case Default::None: e.add("required", "true"); break;
        case Default::Number: e.add("default", num_str(a.fallback.number)); break;
        case Default::Flag: e.add("default", a.fallback.flag ? "true" : "false"); break;
        case Default::Text: e.add("default", q(a.fallback.text)); break;
      }
      attrs += (attrs.size() > 1 ? "," : "") + e.str();
    }
    for (const char* o : s.outputs) outputs += (outputs.size() > 1 ? "," : "") + q(o);
    all += (all.size() > 1 ? "," : "") + q(name) + ":" +
           Obj()
               .add("name", q(name))
               .add("inputs", inputs + "]")
               .add("attrs", attrs + "]")
               .add("outputs", outputs + "]")
               .add("described", s.describe ? "true" : "false")
               .str();
  }
  return all + "}";
}

/// Bytes the allocator has handed out and not taken back (leak tests).
double heap_bytes() { return static_cast<double>(mallinfo().uordblks); }

}  // namespace

EMSCRIPTEN_BINDINGS(normlab) {
  using namespace emscripten;
  function("reserve", &reserve);
  function("invoke", &run_call);
  function("release", &release);
  function("lastError", &error);
  function("lastErrorInfo", &error_info);
  function("describe", &describe_call);
  function("registry", &registry_json);
  function("heapBytes", &heap_bytes);
  function("maxElements", +[]() { return double(kMaxElements); });
  class_<Resident>("Resident")
      .constructor<double, double>()
      .function("id", &Resident::id)
      .function("pointer", &Resident::pointer)
      .function("size", &Resident::size);
}
