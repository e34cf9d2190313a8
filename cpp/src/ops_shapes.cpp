// Shapes and groups: which elements share statistics (reduction_group, built
// from the very Groups the normalizations run on), and shape inference for
// reductions and broadcasting.
#include <algorithm>
#include <array>

#include "normlab/norms.hpp"

namespace normlab {

namespace {

using A = AttrSpec;
const AttrKind Int = AttrKind::Integer, Bool = AttrKind::Bool, Str = AttrKind::String,
               List = AttrKind::IntList;

Shape dims(const Call& c, const char* name, bool allow_zero) {
  Shape s;
  for (long long v : c.ints(name)) {
    if (v < (allow_zero ? 0 : 1))
      c.fail(std::string(name) + " has a size " + std::to_string(v) + "; sizes must be >= " +
             (allow_zero ? "0" : "1"));
    s.push_back(static_cast<std::size_t>(v));
  }
  return s;
}

Value shape_value(const Shape& s) {
  return Value::ints({s.size()}, std::vector<std::int64_t>(s.begin(), s.end()));
}

// Members of the group holding element index of a [B, T, D] tensor.
// LN / RMSNorm read it as [B, T, D]; BN / IN / GN take channels first, so
// the same numbers are laid out as [B, D, T] and their offsets mapped back.
void reduction_group(Call& c) {
  const Shape s = dims(c, "shape", false);
  if (s.size() != 3) c.fail("shape must be [B, T, D] (3 sizes) but has " + std::to_string(s.size()));
  if (checked_size(s, c.op + ": shape") > (1u << 20))
    c.fail("shape " + shape_str(s) + " has more than 2^20 elements; a group listing is for figures");
  const auto idx = c.ints("index");
  if (idx.size() != 3) c.fail("index must be [b, t, d] (3 numbers) but has " + std::to_string(idx.size()));
  for (std::size_t a = 0; a < 3; ++a)
    if (idx[a] < 0 || idx[a] >= static_cast<long long>(s[a]))
      c.fail("index[" + std::to_string(a) + "] (" + std::to_string(idx[a]) + ") is out of range for shape " +
             shape_str(s));
  const std::size_t B = s[0], T = s[1], D = s[2];
  const std::size_t b = idx[0], t = idx[1], d = idx[2];
  const std::string& m = c.str("method");
  const bool tokens = m == "layer_norm" || m == "rms_norm";
  const Shape cf{B, D, T};  // channels-first view for BN / IN / GN
  Group g;
  if (tokens) g = layer_group(s, 1);
  else if (m == "batch_norm") g = batch_group(cf, B);
  else if (m == "instance_norm") g = instance_group(cf);
  else if (m == "group_norm") {
    if (!c.has("num_groups")) c.fail("method group_norm needs the attribute num_groups");
    const auto G = static_cast<std::size_t>(c.integer("num_groups"));
    if (D % G)
      c.fail("num_groups (" + std::to_string(G) + ") must divide the channel count D (" + std::to_string(D) + ")");
    g = channel_group(cf, G);
  } else
    c.fail("method must be one of batch_norm, layer_norm, rms_norm, instance_norm, group_norm (got \"" + m + "\")");
  const std::size_t off = tokens ? (b * T + t) * D + d : (b * D + d) * T + t;
  std::vector<std::array<std::int64_t, 3>> members;
  for (std::size_t o : g.offsets(g.stat_of(off))) {
    if (tokens) members.push_back({std::int64_t(o / (T * D)), std::int64_t(o / D % T), std::int64_t(o % D)});
    else members.push_back({std::int64_t(o / (D * T)), std::int64_t(o % T), std::int64_t(o / T % D)});
  }
  std::sort(members.begin(), members.end());
  std::vector<std::int64_t> flat;
  for (const auto& e : members) flat.insert(flat.end(), e.begin(), e.end());
  c.out("members", Value::ints({members.size(), 3}, flat));
}

void reduce_shape(Call& c) {
  const Shape s = dims(c, "shape", true);
  std::vector<bool> reduced(s.size(), false);
  for (long long a : c.ints("axes")) {
    const std::size_t ax = norm_axis(a, s.size(), c.op + ": axes entry");
    if (reduced[ax]) c.fail("axes lists axis " + std::to_string(ax) + " twice");
    reduced[ax] = true;
  }
  const bool keep = c.flag("keepdim");
  Shape out;
  for (std::size_t a = 0; a < s.size(); ++a)
    if (!reduced[a]) out.push_back(s[a]);
    else if (keep) out.push_back(1);
  c.out("shape", shape_value(out));
}

void broadcast_shape(Call& c) {
  const Shape a = dims(c, "a", true), b = dims(c, "b", true);
  const std::size_t r = std::max(a.size(), b.size());
  Shape out(r);
  for (std::size_t k = 0; k < r; ++k) {  // align from the right
    const std::size_t x = k < r - a.size() ? 1 : a[k - (r - a.size())];
    const std::size_t y = k < r - b.size() ? 1 : b[k - (r - b.size())];
    if (x != y && x != 1 && y != 1)
      c.fail("a " + shape_str(a) + " and b " + shape_str(b) + " are incompatible at axis " +
             std::to_string(long(k) - long(r)) + " (" + std::to_string(x) + " vs " + std::to_string(y) + ")");
    out[k] = x == 1 ? y : x;
  }
  c.out("shape", shape_value(out));
}


}  // namespace

void register_shape_ops(Registry& r) {
  static constexpr OpSpec ops[] = {
    {"reduction_group", {},
            {{"method", Str, {}}, {"shape", List, {}}, {"index", List, {}}, {"num_groups", Int, {}}},
            {"members"}, reduction_group},
    {"reduce_shape", {}, {{"shape", List, {}}, {"axes", List, {}}, {"keepdim", Bool, Default(false)}},
            {"shape"}, reduce_shape},
    {"broadcast_shape", {}, {{"a", List, {}}, {"b", List, {}}}, {"shape"}, broadcast_shape},
  };
  enter(r, ops);
}

}  // namespace normlab
