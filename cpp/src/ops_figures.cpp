// Helpers the figures need (docs/ops.md, "Figure helpers"), so that no number
// they show is computed in JavaScript: axis ticks, angles, seeded random draws, score
// spreads, linear maps, singular values, covariance, perturbation splits.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "normlab/linalg.hpp"
#include "normlab/norms.hpp"
#include "normlab/random.hpp"

namespace normlab {

namespace {

using A = AttrSpec;
const AttrKind Num = AttrKind::Number, Int = AttrKind::Integer, Bool = AttrKind::Bool, Str = AttrKind::String,
               List = AttrKind::IntList;

// A "nice" step (1, 2 or 5 times a power of ten) giving about `count` ticks.
double nice_step(double span, long long count) {
  const double raw = span / double(std::max(count, 1LL));
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / p;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

Tensor from(const std::vector<double>& v, Shape shape) {
  Tensor t = xt::empty<float>(shape);
  for (std::size_t i = 0; i < v.size(); ++i) t.data()[i] = static_cast<float>(v[i]);
  return t;
}

// domain [lo, hi] covering [lo, hi] (and 0 when include_zero, and -hi..hi
// when symmetric), rounded out to a nice step; ticks at every step.
std::vector<double> nice_axis(double lo, double hi, long long count, bool include_zero, bool symmetric,
                              std::vector<double>& ticks) {
  if (include_zero) lo = std::min(lo, 0.0), hi = std::max(hi, 0.0);
  if (symmetric) hi = std::max(std::fabs(lo), std::fabs(hi)), lo = -hi;
  if (hi - lo < 1e-12 * std::max(1.0, std::fabs(hi))) {  // constant data: widen by 1, or by 0.1% far from zero
    const double pad = std::max(1.0, 1e-3 * std::fabs(hi));
    lo -= pad, hi += pad;
  }
  const double step = nice_step(hi - lo, count);
  const double a = std::floor(lo / step + 1e-9) * step, b = std::ceil(hi / step - 1e-9) * step;
  ticks.clear();
  for (long long k = 0; a + k * step <= b + step * 1e-9; ++k) {
    const double t = a + k * step;
    ticks.push_back(std::fabs(t) < step * 1e-9 ? 0.0 : t);
  }
  return {a, b};
}

void axis_ticks(Call& c) {
  const Tensor& x = c.in("x");
  std::vector<double> ticks;
  const auto domain =
      nice_axis(xt::amin(x)(), xt::amax(x)(), c.integer("count"), c.flag("include_zero"), c.flag("symmetric"), ticks);
  c.out("domain", from(domain, {2}));
  c.out("ticks", from(ticks, {ticks.size()}));
}

double norm2(const float* v, std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i) s += double(v[i]) * v[i];
  return std::sqrt(s);
}

// A logarithmic axis: y = log10(max(x, floor)) for every value, the domain
// rounded out to whole decades (at least one), and ticks at every k-th decade
// so that there are at most `count` + 1 of them.
void log_axis(Call& c) {
  const Tensor& x = c.in("x");
  const double floor_v = c.num("floor");
  const long long count = c.integer("count");
  if (x.size() == 0) c.fail(Msg("empty", "x") << "x is empty");
  c.check_work(double(x.size()) * 128, "a logarithm a value");  // ~120 ns a log10 in WASM
  Tensor y = xt::empty<float>(x.shape());
  double lo = 1e300, hi = -1e300;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double v = std::log10(std::max(double(x.data()[i]), floor_v));
    y.data()[i] = static_cast<float>(v);
    lo = std::min(lo, v), hi = std::max(hi, v);
  }
  double a = std::floor(lo + 1e-9), b = std::ceil(hi - 1e-9);
  if (b <= a) b = a + 1;
  const double step = std::ceil((b - a) / double(count));
  b = a + step * std::ceil((b - a) / step);
  std::vector<double> ticks;
  for (double t = a; t <= b + 1e-9; t += step) ticks.push_back(t);
  c.out("y", y);
  c.out("domain", from({a, b}, {2}));
  c.out("ticks", from(ticks, {ticks.size()}));
}

// The angle between a and b, in degrees.
void angle_between(Call& c) {
  const Tensor &a = c.in("a"), &b = c.in("b");
  c.expect_rank("a", a, 1, 1);
  c.expect_shape("b", b, shape_of(a), "the shape of a");
  const double na = norm2(a.data(), a.size()), nb = norm2(b.data(), b.size());
  if (!(na > 0) || !(nb > 0)) c.fail(Msg("zero_vector") << "a zero vector has no direction");
  double dot = 0;
  for (std::size_t i = 0; i < a.size(); ++i) dot += double(a(i)) * b(i);
  const double cosv = std::max(-1.0, std::min(1.0, dot / (na * nb)));
  c.out("degrees", from({std::acos(cosv) * 180.0 / M_PI}, {1}));
}

void random_normal(Call& c) {
  const Shape s = c.sizes("shape", 1);
  const std::size_t n = checked_size(s, c.op + ": shape");
  c.check_work(double(n) * 48, "drawing normals");  // ~30 ns a normal in WASM
  Normal g{static_cast<std::uint64_t>(c.integer("seed"))};
  const double mean = c.num("mean"), std = c.num("std");
  std::vector<double> v(n);
  for (auto& e : v) e = mean + std * g.next();
  c.out("x", from(v, s));
}

// Dot-product scores of `count` random query/key pairs of width d_k:
// raw q.k, scaled q.k / sqrt(d_k), or QK-Norm g * (q/|q|).(k/|k|); mode "all"
// gives the three from the same draws at once (std [3], scores [3, count], in
// that order), a third of the drawing for a figure that shows all three.
// every_width: the same for every width w = 1..d_k at once, each from the
// first w coordinates of the same pairs (nested draws: one drawing for all
// widths); the outputs gain a leading axis of d_k widths, whose last row is
// the call without it.
void score_spread(Call& c) {
  const long long dk = c.integer("d_k"), count = c.integer("count");
  const std::string& mode = c.str("mode");
  const double g = c.num("g");
  const bool every = c.flag("every_width");
  const std::size_t n = static_cast<std::size_t>(count), widths = every ? static_cast<std::size_t>(dk) : 1;
  const std::size_t kinds = mode == "all" ? 3 : 1;
  // ~25 ns a normal in WASM: weighted so that the limit is about a second
  c.check_work(double(count) * double(dk) * (64 + (every ? 8.0 * double(kinds) : 0.0)), "drawing count * d_k normals");
  checked_size({widths, kinds, n}, c.op + ": scores");
  Normal rng{static_cast<std::uint64_t>(c.integer("seed"))};
  const std::size_t first = mode == "all" || mode == "raw" ? 0 : mode == "scaled" ? 1 : 2;
  // kept[(w * kinds + kind - first) * count + i]: width index w, kind raw / scaled / qk_norm, pair i
  std::vector<double> kept(widths * kinds * n), q(dk), k(dk);
  for (std::size_t i = 0; i < n; ++i) {
    double dot = 0, nq = 0, nk = 0;
    for (long long e = 0; e < dk; ++e) q[e] = rng.next(), k[e] = rng.next();
    for (long long e = 0; e < dk; ++e) {
      dot += q[e] * k[e], nq += q[e] * q[e], nk += k[e] * k[e];
      if (!every && e + 1 < dk) continue;
      const double three[3] = {dot, dot / std::sqrt(double(e + 1)), g * dot / std::sqrt(nq * nk)};
      double* at = kept.data() + (every ? std::size_t(e) : 0) * kinds * n + i;
      for (std::size_t kind = 0; kind < kinds; ++kind) at[kind * n] = three[first + kind];
    }
  }
  auto spread = [&](const double* s) {
    double m = 0, v = 0;
    for (std::size_t i = 0; i < n; ++i) m += s[i];
    m /= double(count);
    for (std::size_t i = 0; i < n; ++i) v += (s[i] - m) * (s[i] - m);
    return std::sqrt(v / double(count));
  };
  std::vector<double> std_out(widths * kinds);
  for (std::size_t r = 0; r < widths * kinds; ++r) std_out[r] = spread(kept.data() + r * n);
  Shape std_shape{kinds}, score_shape{kinds, n};
  if (kinds == 1) score_shape = {n};
  if (every) std_shape.insert(std_shape.begin(), widths), score_shape.insert(score_shape.begin(), widths);
  c.out("std", from(std_out, std_shape));
  c.out("scores", from(kept, score_shape));
}

// points [k, n] mapped by W [m, n]: each row p becomes W p.
void linear_map(Call& c) {
  const Tensor &w = c.in("W"), &p = c.in("points");
  c.expect_rank("W", w, 2, 2);
  c.expect_rank("points", p, 2, 2);
  const std::size_t m = w.shape()[0], n = w.shape()[1], k = p.shape()[0];
  c.check_work(1.5 * double(k) * m * n, "mapping the points");  // a multiply-add in double, and the stores
  checked_size({k, m}, c.op + ": the mapped points");
  if (p.shape()[1] != n)
    c.fail(Msg() << "points have width " << std::to_string(p.shape()[1]) << " but W has " << std::to_string(n)
                 << " columns");
  std::vector<double> out(k * m, 0.0);
  for (std::size_t r = 0; r < k; ++r)
    for (std::size_t i = 0; i < m; ++i) out[r * m + i] = dot(w.data() + i * n, p.data() + r * n, n);
  c.out("y", from(out, {k, m}));
}

// Singular values of W, largest first (square roots of the eigenvalues of W^T W).
void singular_values(Call& c) {
  const Tensor& w = c.in("W");
  c.expect_rank("W", w, 2, 2);
  const std::size_t m = w.shape()[0], n = w.shape()[1];
  if (n > 256) c.fail(Msg() << "W has " << std::to_string(n) << " columns; at most 256 are supported");
  c.check_work(1.5 * double(m) * n * n + 8 * double(n) * n * n, "W^T W and its eigenvalues");
  // W^T W is the covariance of W's rows around 0, times m.
  std::vector<double> g = covariance_of(w.data(), m, n, std::vector<double>(n, 0.0)), vecs;
  for (double& e : g) e *= double(m);
  jacobi_eigen(g, n, vecs);
  std::vector<double> s;
  for (std::size_t a = 0; a < n; ++a) s.push_back(std::sqrt(std::max(g[a * n + a], 0.0)));
  std::sort(s.rbegin(), s.rend());
  s.resize(std::min(m, n));
  c.out("s", from(s, {s.size()}));
}

void covariance(Call& c) {
  const Tensor& x = c.in("x");
  if (x.dimension() != 2) c.fail("x must have shape [n, f] but has shape " + shape_str(shape_of(x)));
  const std::size_t n = x.shape()[0], f = x.shape()[1];
  checked_size({f, f}, c.op + ": the covariance matrix");  // before any of it is made
  c.check_work(double(n) * f * f, "the covariance of x");
  Group columns;  // each of the f columns measured over the n rows
  columns.reduce_outer = n;
  columns.stat_inner = f;
  const Stats st = measure(x.data(), columns, Measure::MeanVar);
  c.out("cov", from(covariance_of(x.data(), n, f, st.center), {f, f}));
}

// A perturbation delta of x, split into the part along x (which L2
// normalization removes) and the part across it; dy = J delta.
void split_perturbation(Call& c) {
  const View &x = c.view("x"), &d = c.view("delta");
  c.expect_rank("x", x.shape, 1, 1);
  c.expect_shape("delta", d.shape, x.shape, "the shape of x");
  const std::size_t n = x.size();
  const double nx = norm2(x.data, n);
  if (!(nx > 0)) c.fail(Msg("zero_vector", "x") << "x is zero, so it has no direction to split along");
  double proj = 0;
  for (std::size_t i = 0; i < n; ++i) proj += double(d.data[i]) * x.data[i] / nx;
  // dy = J delta with J = (I - x x^T / |x|^2) / |x|, L2 normalization's
  // Jacobian at eps 0: the part across x, divided by |x|. Written as that
  // product's closed form it needs no n x n matrix, and it stays finite
  // wherever the answer is (x = (1e-45, 0) has a float32 Jacobian of 1e45 but
  // dy = 0 for delta along x). Written straight into the outputs: beside the
  // inputs a call holds nothing of size n.
  float *along = c.output("along", x.shape), *across = c.output("across", x.shape), *dy = c.output("dy", x.shape);
  for (std::size_t i = 0; i < n; ++i) {
    const double a = proj * x.data[i] / nx, r = d.data[i] - a;
    along[i] = static_cast<float>(a), across[i] = static_cast<float>(r), dy[i] = static_cast<float>(r / nx);
  }
}

// count evenly spaced numbers from start to stop (both included).
void linspace(Call& c) {
  const double a = c.num("start"), b = c.num("stop");
  const long long n = c.integer("count");
  std::vector<double> v(n);
  for (long long i = 0; i < n; ++i) v[i] = a + (b - a) * double(i) / double(n - 1);
  c.out("x", from(v, {static_cast<std::size_t>(n)}));
}

// count points (cos t, sin t) around the unit circle, the first at t = 0.
void unit_circle(Call& c) {
  const long long n = c.integer("count");
  std::vector<double> v(2 * n);
  for (long long i = 0; i < n; ++i) v[2 * i] = std::cos(2 * M_PI * i / n), v[2 * i + 1] = std::sin(2 * M_PI * i / n);
  c.out("points", from(v, {static_cast<std::size_t>(n), 2}));
}

// Mean, population variance and standard deviation, mean square, root mean
// square and squared mean of a vector: the statistics the figures name (RMS² = σ² + μ²),
// measured by the engine over one group (in double, two-pass for the variance).
void moments(Call& c) {
  const Tensor& x = c.in("x");
  c.expect_rank("x", x, 1, 1);
  const Group all = Group::rows(1, x.size());
  const Stats mv = measure(x.data(), all, Measure::MeanVar), sq = measure(x.data(), all, Measure::MeanSquare);
  const double mean = mv.center[0], var = mv.spread[0], ms = sq.spread[0];
  c.out("mean", from({mean}, {1}));
  c.out("var", from({var}, {1}));
  c.out("std", from({std::sqrt(var)}, {1}));
  c.out("ms", from({ms}, {1}));
  c.out("rms", from({std::sqrt(ms)}, {1}));
  c.out("mean_sq", from({mean * mean}, {1}));  // so that ms = var + mean_sq reads from the core alone
}

// LayerNorm's description on each row of x [n, d], with eps inside the square
// root, (x - mean) / sqrt(var + eps), or outside it, (x - mean) / (std + eps);
// with eps = 0 a constant row has nothing to divide by and is an error.
void standardize_rows(const Call& c, Description& d) {
  const Shape& s = c.view("x").shape;
  if (s.size() != 2) c.fail(Msg("bad_shape", "x") << "x must have rank 2 but has shape " << shape_str(s));
  const double eps = c.num("eps");
  const std::string& place = c.str("eps_place");
  const Denominator den = place == "inside" ? Denominator::SqrtPlusEps : Denominator::SqrtThenEps;
  d = {c.op, Group::rows(s[0], s[1]), Measure::MeanVar, {true, den, eps}, {}, {}};
}

// Entropy (natural log) and largest value of each row of probabilities p [n, k]:
// how spread out an attention row is. Rows must be non-negative and sum to 1
// (within 1e-4); 0 · log 0 counts as 0.
void row_entropy(Call& c) {
  const Tensor& p = c.in("p");
  c.expect_rank("p", p, 2, 2);
  const std::size_t n = p.shape()[0], k = p.shape()[1];
  std::vector<double> h(n), mx(n);
  for (std::size_t r = 0; r < n; ++r) {
    double sum = 0, e = 0, m = 0;
    for (std::size_t j = 0; j < k; ++j) {
      const double v = p(r, j);
      if (v < 0)
        c.fail(Msg("out_of_range", "p") << "row " << std::to_string(r) << " has a negative value (" << num_str(v)
                                        << ")");
      sum += v, m = std::max(m, v);
      if (v > 0) e -= v * std::log(v);
    }
    if (std::fabs(sum - 1) > 1e-4)
      c.fail(Msg("out_of_range", "p") << "row " << std::to_string(r) << " sums to " << num_str(sum) << ", not 1");
    h[r] = e, mx[r] = m;
  }
  c.out("entropy", from(h, {n}));
  c.out("max", from(mx, {n}));
}

// The bar comparison's numbers in one call: the input scale * x + offset (in
// float32, as the figure shows it) and, for both x and that input, L2
// normalization, LayerNorm and RMSNorm over the whole vector with one eps (the
// descriptions those ops run, through the engine); how far each output moved
// (Euclidean distance, in double); LayerNorm's pieces for the input (mean,
// population variance, input - mean); sqrt(d), the largest |value| RMSNorm
// gives (a one-hot vector), which bounds LayerNorm's too. (The figure's four
// axes are axis_ticks calls: here they cost more of the core's size budget.)
void bar_compare(Call& c) {
  const View& x = c.view("x");
  c.expect_rank("x", x.shape, 1, 1);
  const std::size_t d = x.size();
  c.check_work(double(d) * 256, "seven passes over x and eight outputs of its size");  // up to 2^22 numbers
  const double scale = c.num("scale"), offset = c.num("offset"), eps = c.num("eps");
  const Shape row{1, d}, rows{3, d};
  float* input = c.output("input", {d});
  for (std::size_t i = 0; i < d; ++i) input[i] = static_cast<float>(scale * x.data[i] + offset);
  for (std::size_t i = 0; i < d; ++i)
    if (!std::isfinite(input[i]))
      c.fail(Msg("overflow", "scale") << "scale * x + offset overflows float32 at index " << std::to_string(i));
  // l2_normalize, layer_norm and rms_norm over the whole vector, as those ops describe themselves
  const Measure measures[3] = {Measure::SumSquare, Measure::MeanVar, Measure::MeanSquare};
  const char* names[3] = {": l2_normalize", ": layer_norm", ": rms_norm"};  // a zero spread is named by its part
  Description nd{c.op, Group::rows(1, d), Measure::MeanVar, {false, Denominator::MaxSqrtEps, eps}, {}, {}};
  float *ref = c.output("reference", rows), *cur = c.output("current", rows);
  Stats st;
  for (std::size_t k = 0; k < 3; ++k) {
    nd.measure = measures[k];
    nd.op = c.op + names[k];
    nd.transform.center = k == 1;
    if (k) nd.transform.denominator = Denominator::SqrtPlusEps;
    execute(nd, x.data, ref + k * d, row);
    execute(nd, input, cur + k * d, row, k == 1 ? &st : nullptr);
  }
  std::vector<double> change(3);
  for (std::size_t k = 0; k < 3; ++k) {
    double s2 = 0;
    for (std::size_t i = 0; i < d; ++i)
      s2 += (double(cur[k * d + i]) - ref[k * d + i]) * (double(cur[k * d + i]) - ref[k * d + i]);
    change[k] = std::sqrt(s2);
  }
  const double mean = st.center[0];
  float* centered = c.output("centered", {d});
  for (std::size_t i = 0; i < d; ++i) centered[i] = static_cast<float>(input[i] - mean);
  const double bound = std::sqrt(double(d));
  c.out("change", from(change, {3}));
  c.out("mean", from({mean}, {1}));
  c.out("variance", from({st.spread[0]}, {1}));
  c.out("bound", from({bound}, {1}));
}

}  // namespace

void register_figure_ops(Registry& r) {
  static constexpr OpSpec ops[] = {
      {"axis_ticks",
       {{"x"}},
       {{"count", Int, Default(5.0), within(1, 50)},
        {"include_zero", Bool, Default(true)},
        {"symmetric", Bool, Default(false)}},
       {"domain", "ticks"},
       axis_ticks},
      {"angle_between", {{"a"}, {"b"}}, {}, {"degrees"}, angle_between},
      {"log_axis",
       {{"x"}},
       {{"floor", Num, Default(1e-12), at_least(0, false)}, {"count", Int, Default(6.0), within(1, 50)}},
       {"y", "domain", "ticks"},
       log_axis},
      {"random_normal",
       {},
       {{"shape", List, {}},
        {"seed", Int, Default(0.0)},
        {"mean", Num, Default(0.0)},
        {"std", Num, Default(1.0), at_least(0)}},
       {"x"},
       random_normal},
      {"score_spread",
       {},
       {{"d_k", Int, {}, within(1, 4096)},
        {"count", Int, Default(2000.0), within(2, 100000)},
        {"seed", Int, Default(0.0)},
        {"mode", Str, Default("raw"), {}, "raw|scaled|qk_norm|all"},
        {"g", Num, Default(1.0)},
        {"every_width", Bool, Default(false)}},
       {"std", "scores"},
       score_spread},
      {"linear_map", {{"W"}, {"points"}}, {}, {"y"}, linear_map},
      {"singular_values", {{"W"}}, {}, {"s"}, singular_values},
      {"covariance", {{"x"}}, {}, {"cov"}, covariance},
      {"linspace",
       {},
       {{"start", Num, {}}, {"stop", Num, {}}, {"count", Int, Default(50.0), within(2, 100000)}},
       {"x"},
       linspace},
      {"unit_circle", {}, {{"count", Int, Default(64.0), within(3, 100000)}}, {"points"}, unit_circle},
      {"split_perturbation", {{"x"}, {"delta"}}, {}, {"along", "across", "dy"}, split_perturbation},
      {"moments", {{"x"}}, {}, {"mean", "var", "std", "ms", "rms", "mean_sq"}, moments},
      {"standardize_rows",
       {{"x"}},
       {{"eps", Num, Default(1e-5), at_least(0)}, {"eps_place", Str, Default("inside"), {}, "inside|outside"}},
       {"y"},
       nullptr,
       standardize_rows},
      {"row_entropy", {{"p"}}, {}, {"entropy", "max"}, row_entropy},
      {"bar_compare",
       {{"x"}},
       {{"scale", Num, Default(1.0)}, {"offset", Num, Default(0.0)}, {"eps", Num, Default(1e-5), at_least(0)}},
       {"input", "reference", "current", "change", "mean", "variance", "centered", "bound"},
       bar_compare},
  };
  enter(r, ops);
}

}  // namespace normlab
