// JS <-> the door's values: the arena JS writes a call into, the reader that
// turns it into a Request (every offset checked), and the JSON a description
// and the registry cross as. See embind.cpp for the layout's story.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "bind.hpp"

namespace normlab {
namespace bind {

Arena arena;

namespace {

constexpr std::size_t kArenaMin = 4096;

}  // namespace

void drop_arena() {
  std::free(arena.base);
  arena = {};
}

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

namespace {

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

}  // namespace

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
             << std::to_string(most))
          .raise();
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
      case 0:
        a.value = rd.num();
        break;
      case 1:
        a.value = rd.num() != 0;
        break;
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

namespace {

// Names JS reads, in the order of the enums they name (engine.hpp, ops.hpp).
constexpr const char* kMeasureNames[] = {"mean_var", "mean_square", "sum_square", "sum_abs", "max_abs", "sum_exp"};
constexpr const char* kDenominatorNames[] = {"sqrt_spread_plus_eps", "max_sqrt_spread_eps", "max_spread_eps",
                                             "exp_over_spread", "sqrt_spread_then_plus_eps"};
constexpr const char* kPerNames[] = {"scalar",          "coordinate",         "channel",
                                     "example_channel", "example_coordinate", "element"};
constexpr const char* kKindNames[] = {"number", "integer", "boolean", "string", "integers"};
const char* measure_name(Measure m) { return kMeasureNames[static_cast<int>(m)]; }
const char* denominator_name(Denominator d) { return kDenominatorNames[static_cast<int>(d)]; }
const char* kind_name(AttrKind k) { return kKindNames[static_cast<int>(k)]; }
const char* per_name(Per p) { return kPerNames[static_cast<int>(p)]; }

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

// A parameter's view, the input axes it varies along and what it is per
// (the core decides: param_per).
std::string param(const char* name, const Shape& view, const Shape& x, int channel_axis) {
  if (!name) return "null";
  return Obj()
      .add("input", q(name))
      .add("view", numbers(view))
      .add("axes", numbers(param_axes(view, x)))
      .add("per", q(per_name(param_per(view, x, channel_axis))))
      .str();
}

}  // namespace

/// The five pieces of a normalization (core.describe) as JSON.
std::string description_json(const Request& r, const Description& d) {
  Shape x;
  for (const auto& in : r.inputs)
    if (in.name.text == registry().at(r.op.text)->inputs.begin()->name)
      for (double v : in.dims) x.push_back(static_cast<std::size_t>(v));
  const Group& g = d.group;
  const std::string group =
      Obj()
          .add("layout", numbers(g.layout))
          .add("reduced", numbers(g.reduced))
          .add("source", numbers(g.source))
          .add("axes", numbers(g.input_axes()))
          .add("statShape", numbers(g.stat_shape(x)))
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
  return Obj()
      .add("op", q(r.op.text))
      .add("shape", numbers(x))
      .add("group", group)
      .add("measure", q(measure_name(d.measure)))
      .add("transform", transform)
      .add("params", params)
      .add("mode", q(d.mode.running ? "running" : "current"))
      .add("channelAxis", num_str(d.channel_axis))
      .str();
}

// "a|b" as a JSON list of strings.
static std::string listed(const char* text) {
  std::string out = "[", item;
  for (const char* p = text;; ++p) {
    if (*p && *p != '|') {
      item += *p;
      continue;
    }
    out += (out.size() > 1 ? "," : "") + q(item.c_str());
    item.clear();
    if (!*p) break;
  }
  return out + "]";
}

/// Every op's inputs, attributes (kind, default or optional, range, values)
/// and outputs (with which hold integers and which need optional inputs), as JSON.
std::string registry_json() {
  std::string all = "{";
  for (const auto& [name, spec] : registry()) {
    const OpSpec& s = *spec;
    std::string inputs = "[", attrs = "[", outputs = "[", output_specs = "[";
    for (const auto& in : s.inputs)
      inputs += (inputs.size() > 1 ? "," : "") +
                Obj().add("name", q(in.name)).add("optional", in.optional ? "true" : "false").str();
    for (const auto& a : s.attrs) {
      Obj e;
      e.add("name", q(a.name)).add("kind", q(kind_name(a.kind)));
      switch (a.fallback.kind) {
        case Default::None:
          e.add("required", "true");
          break;
        case Default::Absent:
          e.add("optional", "true").add("note", q(a.fallback.text));
          break;
        case Default::Number:
          e.add("default", num_str(a.fallback.number));
          break;
        case Default::Flag:
          e.add("default", a.fallback.flag ? "true" : "false");
          break;
        case Default::Text:
          e.add("default", q(a.fallback.text));
          break;
      }
      if (const Range& r = a.range) {
        Obj range;
        if (r.has_lo) range.add("lo", num_str(r.lo)).add("loInclusive", r.lo_inclusive ? "true" : "false");
        if (r.has_hi) range.add("hi", num_str(r.hi)).add("hiInclusive", r.hi_inclusive ? "true" : "false");
        e.add("range", range.str());
      }
      if (a.values) e.add("values", std::strcmp(a.values, kDescribedOps) ? listed(a.values) : q("described"));
      attrs += (attrs.size() > 1 ? "," : "") + e.str();
    }
    for (const auto& o : s.outputs) {
      outputs += (outputs.size() > 1 ? "," : "") + q(o.name);
      Obj e;
      e.add("name", q(o.name)).add("integer", o.integer ? "true" : "false");
      if (o.when) e.add("when", listed(o.when));
      output_specs += (output_specs.size() > 1 ? "," : "") + e.str();
    }
    all += (all.size() > 1 ? "," : "") + q(name) + ":" +
           Obj()
               .add("name", q(name))
               .add("inputs", inputs + "]")
               .add("attrs", attrs + "]")
               .add("outputs", outputs + "]")
               .add("outputSpecs", output_specs + "]")
               .add("described", s.describe ? "true" : "false")
               .str();
  }
  return all + "}";
}

}  // namespace bind
}  // namespace normlab
