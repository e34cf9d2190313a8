// The op table says what the door enforces: each number attribute's range is
// declared in its op's row (cpp/src/ops_*.cpp), and the door refuses a value
// just outside it, naming the op and the attribute, and takes the end value.
#include <cmath>
#include <limits>

#include "helpers.hpp"

using namespace normlab;
using Catch::Contains;

namespace {

// The rules the door applied by attribute name before the table held them
// (issue 23): every op that has such an attribute keeps exactly this range.
struct Rule {
  const char* name;
  Range range;
};
const Rule kRules[] = {
    {"eps", at_least(0)},
    {"momentum", within(0, 1)},
    {"num_groups", at_least(1)},
    {"virtual_batch_size", at_least(1)},
    {"size", at_least(1)},
    {"normalized_ndim", at_least(1)},
    {"n_power_iterations", at_least(1).at_most(10000)},
    {"r_max", at_least(1)},
    {"d_max", at_least(0)},
};

bool same(const Range& a, const Range& b) {
  return a.has_lo == b.has_lo && a.has_hi == b.has_hi && a.interval == b.interval &&
         (!a.has_lo || (a.lo == b.lo && a.lo_inclusive == b.lo_inclusive)) &&
         (!a.has_hi || (a.hi == b.hi && a.hi_inclusive == b.hi_inclusive));
}

// A description request with one attribute and no inputs: the door checks the
// attribute, then stops (no shape to describe, or no description at all).
Request with(const std::string& op, const std::string& name, double v) {
  Request r;
  r.op = {op, double(op.size())};
  r.attrs.push_back({{name, double(name.size())}, Attr(v), 0});
  return r;
}

// The door's message for v on the far side of the end it crosses.
std::string refusal(const std::string& op, const AttrSpec& a, double v, bool low) {
  const Range& r = a.range;
  std::string rule = r.interval ? "in " + std::string(r.lo_inclusive ? "[" : "(") + num_str(r.lo) + ", " +
                                      num_str(r.hi) + (r.hi_inclusive ? "]" : ")")
                     : low ? (r.lo_inclusive ? ">= " : "> ") + num_str(r.lo)
                           : (r.hi_inclusive ? "<= " : "< ") + num_str(r.hi);
  return op + ": " + a.name + " must be " + rule + " (got " + num_str(v) + ")";
}

// The first value past an end: the end itself when the end is open, else the
// next integer or double beyond it.
double outside(const AttrSpec& a, double end, bool low, bool inclusive) {
  if (!inclusive) return end;
  if (a.kind == AttrKind::Integer) return low ? end - 1 : end + 1;
  return std::nextafter(end, low ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity());
}

// The last value the door takes at an end: the end itself, or the next value inward.
double inside(const AttrSpec& a, double end, bool low, bool inclusive) {
  if (inclusive) return end;
  if (a.kind == AttrKind::Integer) return low ? end + 1 : end - 1;
  return std::nextafter(end, low ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity());
}

Request with_text(const std::string& op, const std::string& name, const std::string& v) {
  Request r;
  r.op = {op, double(op.size())};
  r.attrs.push_back({{name, double(name.size())}, Attr(v), double(v.size())});
  return r;
}

std::vector<std::string> split_values(const std::string& list) {
  std::vector<std::string> out;
  for (std::size_t at = 0;;) {
    const std::size_t bar = list.find('|', at);
    out.push_back(list.substr(at, bar == std::string::npos ? std::string::npos : bar - at));
    if (bar == std::string::npos) return out;
    at = bar + 1;
  }
}

}  // namespace

TEST_CASE("Table: the rules the door once applied by attribute name still hold for those attributes", "[registry]") {
  // The training ops state their own: eps in (0, 1] for the networks (the transformer's too), momentum and the
  // betas in [0, 1).
  std::size_t ranged = 0;
  for (const auto& [op, spec] : registry())
    for (const AttrSpec& a : spec->attrs) {
      const Rule* rule = nullptr;
      for (const Rule& r : kRules)
        if (std::string(a.name) == r.name) rule = &r;
      const bool number = a.kind == AttrKind::Number || a.kind == AttrKind::Integer;
      const bool own = (op.rfind("train_", 0) == 0 || op.rfind("tfm_", 0) == 0) &&
                       (std::string(a.name) == "eps" || std::string(a.name) == "momentum");
      INFO(op << "." << a.name);
      if (rule && number && !own) {
        CHECK(same(a.range, rule->range));
        ++ranged;
      }
    }
  CHECK(ranged >= 36);  // eps alone is in most normalizations
}

TEST_CASE("Table: every string attribute lists its values, and the door takes exactly those", "[registry]") {
  std::size_t listed = 0;
  for (const auto& [op, spec] : registry())
    for (const AttrSpec& a : spec->attrs) {
      if (a.kind != AttrKind::String) continue;
      INFO(op << "." << a.name);
      REQUIRE(a.values != nullptr);
      if (std::string(a.values) == kDescribedOps) continue;
      const auto values = split_values(a.values);
      std::string rule;
      for (std::size_t i = 0; i < values.size(); ++i)
        rule += (i == 0 ? "" : i + 1 == values.size() ? " or " : ", ") + ("\"" + values[i] + "\"");
      for (const std::string& bad : {std::string("nope"), values[0] + "x", std::string("")}) {
        try {
          describe_request(with_text(op, a.name, bad));
          FAIL("accepted");
        } catch (const InputError& e) {
          CHECK(std::string(e.code) == "out_of_range");
          CHECK(e.argument == a.name);
          CHECK(std::string(e.what()) == op + ": " + a.name + " must be " + rule + " (got \"" + bad + "\")");
        }
      }
      for (const std::string& good : values) {
        INFO("the listed value " << good);
        try {
          describe_request(with_text(op, a.name, good));
        } catch (const InputError& e) {  // stopped later: no shape, or no description
          CHECK_THAT(std::string(e.what()), !Contains(std::string(a.name) + " must be"));
        }
      }
      ++listed;
    }
  CHECK(listed >= 9);
}

TEST_CASE("Table: the door refuses a value just outside each declared range and takes the end value", "[registry]") {
  std::size_t checked = 0;
  for (const auto& [op, spec] : registry())
    for (const AttrSpec& a : spec->attrs) {
      if (!a.range) continue;
      for (const bool low : {true, false}) {
        if (low ? !a.range.has_lo : !a.range.has_hi) continue;
        const double end = low ? a.range.lo : a.range.hi;
        const bool inclusive = low ? a.range.lo_inclusive : a.range.hi_inclusive;
        const double bad = outside(a, end, low, inclusive), good = inside(a, end, low, inclusive);
        INFO(op << "." << a.name << " = " << num_str(bad));
        try {
          describe_request(with(op, a.name, bad));
          FAIL("accepted");
        } catch (const InputError& e) {
          CHECK(std::string(e.code) == "out_of_range");
          CHECK(e.argument == a.name);
          CHECK(std::string(e.what()) == refusal(op, a, bad, low));
        }
        INFO("the last value taken " << num_str(good));
        try {
          describe_request(with(op, a.name, good));
        } catch (const InputError& e) {  // stopped later: no shape, or no description
          CHECK_THAT(std::string(e.what()), !Contains(std::string(a.name) + " must be"));
          CHECK(std::string(e.code) != "out_of_range");
        }
        ++checked;
      }
    }
  CHECK(checked >= 40);
}

TEST_CASE("Table: the door's range messages, by hand", "[registry]") {
  auto message = [](const std::string& op, const std::string& name, double v) {
    try {
      describe_request(with(op, name, v));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(message("layer_norm", "eps", -1) == "layer_norm: eps must be >= 0 (got -1)");
  CHECK(message("batch_norm", "momentum", 1.5) == "batch_norm: momentum must be in [0, 1] (got 1.5)");
  CHECK(message("conditional_batch_norm", "momentum", -0.5) ==
        "conditional_batch_norm: momentum must be in [0, 1] (got -0.5)");
  CHECK(message("train_step", "momentum", 1) == "train_step: momentum must be in [0, 1) (got 1)");
  CHECK(message("train_step", "beta2", 1) == "train_step: beta2 must be in [0, 1) (got 1)");
  CHECK(message("train_init", "eps", 0) == "train_init: eps must be in (0, 1] (got 0)");
  CHECK(message("train_step", "lr", 101) == "train_step: lr must be in [0, 100] (got 101)");
  CHECK(message("train_data", "count", 2) == "train_data: count must be in [4, 4096] (got 2)");
  CHECK(message("axis_ticks", "count", 51) == "axis_ticks: count must be in [1, 50] (got 51)");
  CHECK(message("log_axis", "floor", 0) == "log_axis: floor must be > 0 (got 0)");
  CHECK(message("clip_grad_norm", "norm_type", 0) == "clip_grad_norm: norm_type must be > 0 (got 0)");
  CHECK(message("score_spread", "d_k", 4097) == "score_spread: d_k must be in [1, 4096] (got 4097)");
  // a size with no upper end of its own stops at the element limit
  CHECK_THAT(message("group_norm", "num_groups", 1e15), Contains("group_norm: num_groups must be at most"));
  CHECK(message("group_norm", "num_groups", 0) == "group_norm: num_groups must be >= 1 (got 0)");
  CHECK(message("spectral_norm", "n_power_iterations", 0) == "spectral_norm: n_power_iterations must be >= 1 (got 0)");
  CHECK(message("spectral_norm", "n_power_iterations", 10001) ==
        "spectral_norm: n_power_iterations must be <= 10000 (got 10001)");
  CHECK(message("batch_renorm", "r_max", 0.5) == "batch_renorm: r_max must be >= 1 (got 0.5)");
  CHECK(message("batch_renorm", "d_max", -1) == "batch_renorm: d_max must be >= 0 (got -1)");
  CHECK(message("local_response_norm", "size", 0) == "local_response_norm: size must be >= 1 (got 0)");
  auto text = [](const std::string& op, const std::string& name, const std::string& v) {
    try {
      describe_request(with_text(op, name, v));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(text("score_spread", "mode", "qk") ==
        "score_spread: mode must be \"raw\", \"scaled\", \"qk_norm\" or \"all\" (got \"qk\")");
  CHECK(text("train_step", "optimizer", "adamw") ==
        "train_step: optimizer must be \"sgd\" or \"adam\" (got \"adamw\")");
  CHECK(text("residual_block", "placement", "pre_final") ==
        "residual_block: placement must be \"pre\" or \"post\" (got \"pre_final\")");
  // no range declared: the door takes any finite number (the op judges it later)
  CHECK_THAT(message("min_max_apply", "low", -1e30), !Contains("must be"));
}
