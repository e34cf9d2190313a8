// Shapes and groups: which elements share statistics (reduction_group, built
// from the very Groups the normalizations run on), and shape inference for
// reductions and broadcasting.
#include <algorithm>
#include <array>

#include "normlab/norms.hpp"

namespace normlab {

namespace {

using A = AttrSpec;
const AttrKind Int = AttrKind::Integer, Bool = AttrKind::Bool, Str = AttrKind::String, List = AttrKind::IntList;

Value shape_value(const Shape& s) { return Value::ints({s.size()}, std::vector<std::int64_t>(s.begin(), s.end())); }

// Members of the group holding element `index` of a [B, T, D] tensor, read
// from the method's description. A method whose channels sit on axis 1
// (BatchNorm, InstanceNorm, GroupNorm: [N, C, L]) reads the sequence as
// [B, D, T], as x.transpose(1, 2) hands it to them.
void reduction_group(Call& c) {
  const Shape s = c.sizes("shape", 1);
  if (s.size() != 3) c.fail("shape must be [B, T, D] (3 sizes) but has " + std::to_string(s.size()));
  if (checked_size(s, c.op + ": shape") > (1u << 20))
    c.fail(Msg() << "shape " << shape_str(s) << " has more than 2^20 elements; a group listing is for figures");
  const auto idx = c.ints("index");
  if (idx.size() != 3) c.fail("index must be [b, t, d] (3 numbers) but has " + std::to_string(idx.size()));
  for (std::size_t a = 0; a < 3; ++a)
    if (idx[a] < 0 || idx[a] >= static_cast<long long>(s[a]))
      c.fail(Msg() << "index[" << std::to_string(a) << "] (" << std::to_string(idx[a]) << ") is out of range for shape "
                   << shape_str(s));
  const std::string& m = c.str("method");
  const std::size_t B = s[0], T = s[1], D = s[2];
  const Shape cf{B, D, T};
  std::map<std::string, Attr> attrs;
  if (c.has("num_groups")) attrs["num_groups"] = c.num("num_groups");
  // The method's description on [B, D, T] says where its channels are: an op
  // with channels on axis 1 reads the sequence so; any other reads [B, T, D].
  // (The ops without channels check ranks and attributes, not which size sits
  // where, so reading [B, D, T] first refuses nothing [B, T, D] would take.)
  Description d;
  bool channels_first = false;
  try {
    d = describe_op(m, cf, attrs);
    channels_first = d.channel_axis == 1;
    if (!channels_first) d = describe_op(m, s, attrs);
  } catch (const InputError& e) {
    c.fail(Msg(e.code, e.argument) << "method " << e.what());  // the method's code (not_divisible, …) carried through
  }
  const std::size_t b = idx[0], t = idx[1], dd = idx[2];
  const Group& g = d.group;
  const std::size_t off = channels_first ? (b * D + dd) * T + t : (b * T + t) * D + dd;
  std::vector<std::array<std::int64_t, 3>> members;
  for (std::size_t o : g.offsets(g.stat_of(off))) {
    if (!channels_first)
      members.push_back({std::int64_t(o / (T * D)), std::int64_t(o / D % T), std::int64_t(o % D)});
    else
      members.push_back({std::int64_t(o / (D * T)), std::int64_t(o % T), std::int64_t(o / T % D)});
  }
  std::sort(members.begin(), members.end());
  std::vector<std::int64_t> flat;
  for (const auto& e : members) flat.insert(flat.end(), e.begin(), e.end());
  c.out("members", Value::ints({members.size(), 3}, flat));
}

void reduce_shape(Call& c) {
  const Shape s = c.sizes("shape", 0);
  std::vector<bool> reduced(s.size(), false);
  for (long long a : c.ints("axes")) {
    const std::size_t ax = norm_axis(a, s.size(), c.op + ": axes entry");
    if (reduced[ax]) c.fail(Msg() << "axes lists axis " << std::to_string(ax) << " twice");
    reduced[ax] = true;
  }
  const bool keep = c.flag("keepdim");
  Shape out;
  for (std::size_t a = 0; a < s.size(); ++a)
    if (!reduced[a])
      out.push_back(s[a]);
    else if (keep)
      out.push_back(1);
  c.out("shape", shape_value(out));
}

void broadcast_shape(Call& c) {
  const Shape a = c.sizes("a", 0), b = c.sizes("b", 0);
  const std::size_t r = std::max(a.size(), b.size());
  Shape out(r);
  for (std::size_t k = 0; k < r; ++k) {  // align from the right
    const std::size_t x = k < r - a.size() ? 1 : a[k - (r - a.size())];
    const std::size_t y = k < r - b.size() ? 1 : b[k - (r - b.size())];
    if (x != y && x != 1 && y != 1)
      c.fail(Msg() << "a " << shape_str(a) << " and b " << shape_str(b) << " are incompatible at axis "
                   << std::to_string(long(k) - long(r)) << " (" << std::to_string(x) << " vs " << std::to_string(y)
                   << ")");
    out[k] = x == 1 ? y : x;
  }
  c.out("shape", shape_value(out));
}

}  // namespace

void register_shape_ops(Registry& r) {
  static constexpr OpSpec ops[] = {
      {"reduction_group",
       {},
       {{"method", Str, {}, {}, kDescribedOps},
        {"shape", List, {}},
        {"index", List, {}},
        {"num_groups", Int, Default::optional("only method group_norm takes it (and needs it)"), at_least(1)}},
       {integers("members")},
       reduction_group},
      {"reduce_shape",
       {},
       {{"shape", List, {}}, {"axes", List, {}}, {"keepdim", Bool, Default(false)}},
       {integers("shape")},
       reduce_shape},
      {"broadcast_shape", {}, {{"a", List, {}}, {"b", List, {}}}, {integers("shape")}, broadcast_shape},
  };
  enter(r, ops);
}

}  // namespace normlab
