// <nl-epsilon> — what ε does. Rows x = s·(−1, 0, 1) with spreads s from 10
// down to 10⁻⁶, and a constant row (s = 0), standardized with ε inside the
// square root, (x − μ)/√(σ² + ε) as LayerNorm does, and outside it,
// (x − μ)/(σ + ε). While σ² is far above ε every row comes out the same,
// √(3/2) for its last coordinate; once the spread is near √ε (inside) or ε
// (outside), ε sets the denominator and the output shrinks toward 0. With ε = 0
// the constant row has nothing to divide by, and the core refuses it.
//
// Attributes: eps (one of EPS, default "1e-5"), lang.
// Properties: eps; state (read-only): {eps, spreads, inside, outside (the last
//   coordinate of each row's output, the constant row last), reference (the
//   widest row's output), constant: {inside, outside} (the constant row's
//   output, or null with `constantError` when ε = 0), summary: {inside,
//   outside}: {kept, departs, collapsed} (the narrowest spread down to which
//   every row is within DEPART of that curve's widest row, the first spread
//   past it or null, the widest spread whose output is below 0.1 or null),
//   axis, error}.
// Events: change (the reader chose ε). Keyboard: the ε select.
// Colours: --nl-layer-norm ε inside the root (LayerNorm's choice), --nl-update
//   ε outside it, --nl-reference the value without ε.
// Parts: figure, controls, select, view, description, error.
// Numbers from the core: film (the rows), standardize_rows, z_score_apply
//   (each output's relative distance from the widest row), log_axis, axis_ticks.
import { el } from '../lib/base.js';
import { NlFigure, figureCss } from '../lib/figure.js';
import { scale, svg, yAxis } from '../lib/plot.js';

const vec = NlFigure.vec;
export const EPS = ['0', '1e-12', '1e-8', '1e-6', '1e-5', '1e-4', '1e-3', '1e-2', '1e-1'];
const SPREADS = [10, 3, 1, 0.3, 0.1, 0.03, 0.01, 0.003, 0.001, 3e-4, 1e-4, 3e-5, 1e-5, 3e-6, 1e-6];
// how each spread is written (its own spelling, no arithmetic)
const SPREAD_LABELS = [
  '10',
  '3',
  '1',
  '0.3',
  '0.1',
  '0.03',
  '0.01',
  '0.003',
  '0.001',
  '3·10⁻⁴',
  '10⁻⁴',
  '3·10⁻⁵',
  '10⁻⁵',
  '3·10⁻⁶',
  '10⁻⁶',
];
/** A curve "departs" from its widest row where an output is more than 1% away from it (2 px on the chart). */
export const DEPART = 0.01;
const EXPONENTS = [1, 0, -1, -2, -3, -4, -5, -6]; // decade ticks of the spread axis, 10^k
const sup = (text) => [...text].map((c) => (c === '-' ? '⁻' : '⁰¹²³⁴⁵⁶⁷⁸⁹'[c])).join('');

export class NlEpsilon extends NlFigure {
  static catalog = 'epsilon';
  static summary = 'Rows of shrinking spread standardized with ε inside and outside the square root.';
  static minHeight = 464; // px kept by normlab/styles.css (measured at 960 px, default attributes)
  static phoneMinHeight = { en: 638, zh: 591 }; // px kept up to 600 px wide (measured at 360 px, default attributes)
  static stateDoc =
    '`inside`, `outside` (last coordinate per spread), `spreadLog` (log10 of each spread, for the axis), `reference`, `constant` or `constantError`, `summary`'; // `state` keys beyond the attributes (README)
  static params = {
    eps: {
      attr: 'eps',
      kind: 'choice',
      default: '1e-5',
      choices: EPS,
      control: 'select',
      doc: 'ε, inside and outside the square root',
    },
  };
  static css = `${figureCss}
.c-inside { fill: none; stroke: var(--nl-layer-norm); stroke-width: 2.5; }
.c-outside { fill: none; stroke: var(--nl-update); stroke-width: 2.5; stroke-dasharray: 6 4; }
.p-inside { fill: var(--nl-layer-norm); } .p-outside { fill: var(--nl-update); }
.ref-line { stroke: var(--nl-reference); stroke-dasharray: 3 3; stroke-width: 1.5; }
.ref-label { font-size: var(--nl-small-size); fill: var(--nl-reference); }
.key { font-size: var(--nl-small-size); } .key.inside { fill: var(--nl-layer-norm); } .key.outside { fill: var(--nl-update); }
.constant-note { font-size: var(--nl-small-size); fill: var(--nl-error); }
`;

  buildView(view) {
    this._svg = svg(640, 316, 'eps');
    view.append(this._svg);
  }

  compute(core, { eps }) {
    const e = Number(eps);
    const n = SPREADS.length;
    const rows = this.op('film', {
      x: { shape: [n, 3], data: new Array(n).fill([-1, 0, 1]).flat() },
      gamma: { shape: [n, 3], data: SPREADS.flatMap((s) => [s, s, s]) },
      beta: { shape: [n, 3], data: new Array(3 * n).fill(0) },
    });
    const run = (place, data, m) =>
      this.op('standardize_rows', { x: { shape: [m, 3], data } }, { eps: e, eps_place: place });
    const last = (y) => y.filter((_, i) => i % 3 === 2);
    const inside = last(run('inside', rows, n)),
      outside = last(run('outside', rows, n));
    let constant = null,
      constantError = null;
    try {
      constant = { inside: run('inside', [5, 5, 5], 1)[2], outside: run('outside', [5, 5, 5], 1)[2] };
    } catch (err) {
      constantError = this.coreMessage(err);
    }
    const ref = inside[0];
    // each curve against its own widest row: down to which spread it stays within 1% of it (the relative
    // distances (y − y₀)/y₀ from the core), from which spread it departs, from which it is below 0.1
    const summary = (ys) => {
      const rel = this.op('z_score_apply', { x: { shape: [n, 1], data: ys }, mean: vec([ys[0]]), std: vec([ys[0]]) });
      const out = rel.findIndex((r) => r > DEPART || r < -DEPART);
      return {
        kept: out === -1 ? SPREADS.at(-1) : SPREADS[out - 1],
        departs: out === -1 ? null : SPREADS[out],
        collapsed: SPREADS.find((s, i) => ys[i] < 0.1) ?? null,
      };
    };
    // positions on the logarithmic spread axis: log10 of each spread, from the core
    const spreadLog = this.op('log_axis', { x: { shape: [n], data: SPREADS } }, {}, 'y');
    return {
      spreads: SPREADS,
      spreadLog,
      inside,
      outside,
      reference: ref,
      constant,
      constantError,
      summary: { inside: summary(inside), outside: summary(outside) },
      axis: this.axis([0, ref], { count: 4 }),
    };
  }

  /** One formatter for an output: 4 significant digits. */
  fmtOut(v) {
    return this.fmt(v, 4);
  }

  /** '1e-5' as 10⁻⁵ (the select's values are the numbers' own spelling). */
  fmtEps(text) {
    return text === '0' ? '0' : `10${sup(text.slice(2))}`;
  }

  draw(s) {
    const W = this.fit(this._svg, 640, 316);
    const left = 44,
      right = 16,
      top = 64,
      bottom = 256;
    const y = scale(s.axis.domain, [bottom, top]);
    // the spread axis is logarithmic: a decade per tick; the spreads' logarithms come from the core
    const k = scale([EXPONENTS[0], EXPONENTS.at(-1)], [W - right - 10, left + 10]);
    const xOf = (i) => k(s.spreadLog[i]);
    const items = [yAxis(s.axis.ticks, y, left, W - right, (v) => this.fmt(v, 3))];
    const sparse = W < 420; // on a phone every other decade is labelled (the grid keeps them all)
    for (const e of EXPONENTS) {
      items.push(el('line', { class: 'grid-line', x1: k(e).toFixed(1), x2: k(e).toFixed(1), y1: top, y2: bottom }));
      if (sparse && e % 2 !== 0) continue;
      items.push(
        el(
          'text',
          { class: 'tick', x: k(e).toFixed(1), y: bottom + 16, 'text-anchor': 'middle' },
          e === 0 ? '1' : e === 1 ? '10' : `10${sup(String(e))}`,
        ),
      );
    }
    items.push(
      el(
        'text',
        { class: 'tick', x: (left + W - right) / 2, y: bottom + 34, 'text-anchor': 'middle' },
        this.t('spreadAxis'),
      ),
    );
    items.push(
      el('line', {
        class: 'ref-line',
        x1: left,
        x2: W - right,
        y1: y(s.reference).toFixed(1),
        y2: y(s.reference).toFixed(1),
      }),
    );
    items.push(
      el(
        'text',
        { class: 'ref-label', x: left + 6, y: (y(s.reference) - 6).toFixed(1) },
        this.t('refLabel', { v: this.fmtOut(s.reference) }),
      ),
    );
    for (const place of ['outside', 'inside']) {
      const pts = s[place].map((v, i) => `${i ? 'L' : 'M'}${xOf(i).toFixed(1)},${y(v).toFixed(1)}`).join('');
      items.push(el('path', { class: `c-${place}`, d: pts }));
      s[place].forEach((v, i) =>
        items.push(el('circle', { class: `p-${place}`, cx: xOf(i).toFixed(1), cy: y(v).toFixed(1), r: 3 })),
      );
    }
    items.push(
      el(
        'text',
        { class: 'panel-title', x: left, y: 16 },
        this.t(sparse ? 'titleShort' : 'title', { eps: this.fmtEps(s.eps) }),
      ),
    ); // the long title is clipped on a phone
    // a key with line samples, one entry per line so it fits a phone
    items.push(
      el('path', { class: 'c-inside', d: `M${left},30h22` }),
      el('text', { class: 'key inside', x: left + 28, y: 34 }, this.t('keyInside')),
      el('path', { class: 'c-outside', d: `M${left},46h22` }),
      el('text', { class: 'key outside', x: left + 28, y: 50 }, this.t('keyOutside')),
    );
    const note = s.constantError
      ? this.t('constantRefused')
      : this.t('constantZero', { v: this.fmtOut(s.constant.inside) });
    items.push(el('text', { class: s.constantError ? 'constant-note' : 'tick', x: left, y: bottom + 52 }, note));
    this._svg.setAttribute('viewBox', `0 0 ${W} ${bottom + 60}`);
    this._svg.replaceChildren(...items);
  }

  describe(s) {
    const f = (v) => SPREAD_LABELS[SPREADS.indexOf(v)];
    const sum = (p) => s.summary[p];
    const parts = [];
    for (const place of ['inside', 'outside']) {
      const { kept, departs, collapsed } = sum(place);
      const vars = {
        eps: this.fmtEps(s.eps),
        ref: this.fmtOut(s[place][0]),
        kept: f(kept),
        departs: departs === null ? '' : f(departs),
        collapsed: collapsed === null ? '' : f(collapsed),
      };
      const key = departs === null ? 'describeAll' : collapsed === null ? 'describeDeparts' : 'describeCollapse';
      parts.push(this.t(`${key}_${place}`, vars));
    }
    parts.push(
      s.constantError
        ? this.t('describeRefused', { message: s.constantError })
        : this.t('describeConstant', { v: this.fmtOut(s.constant.inside) }),
    );
    return parts.join(this.t('sentenceSep'));
  }
}
NlEpsilon.defineProperties();

// The figure's strings, English and Chinese (t(key); a language added with registerLocale overrides them).
NlEpsilon.strings = {
  en: {
    name: 'What ε does: rows of shrinking spread standardized with ε inside and outside the square root',
    eps: 'ε',
    choice_0: '0',
    'choice_1e-12': '10⁻¹²',
    'choice_1e-8': '10⁻⁸',
    'choice_1e-6': '10⁻⁶',
    'choice_1e-5': '10⁻⁵',
    'choice_1e-4': '10⁻⁴',
    'choice_1e-3': '10⁻³',
    'choice_1e-2': '10⁻²',
    'choice_1e-1': '10⁻¹',
    title: 'Standardized last coordinate, ε = {eps}',
    titleShort: 'Last coordinate, ε = {eps}',
    keyInside: 'ε inside: √(σ² + ε), as LayerNorm',
    keyOutside: 'ε outside: σ + ε',
    spreadAxis: 'spread s of the row s·(−1, 0, 1)',
    refLabel: 'widest row: {v}',
    constantRefused: 'constant row (s = 0): refused, nothing to divide by',
    constantZero: 'constant row (s = 0): {v}',
    sentenceSep: ' ',
    describeCollapse_inside:
      'With ε = {eps} inside the root, rows down to spread {kept} come out within 1% of the widest row ({ref}); from spread {collapsed} down the output is below 0.1: ε, not the data, sets the denominator.',
    describeDeparts_inside:
      'With ε = {eps} inside the root, rows down to spread {kept} come out within 1% of the widest row ({ref}); from spread {departs} down ε lowers the output.',
    describeAll_inside:
      'With ε = {eps} inside the root, every row, down to spread {kept}, comes out within 1% of the widest row ({ref}).',
    describeCollapse_outside:
      'Outside the root the same ε matters only at spreads near ε itself: rows down to {kept} stay within 1% of {ref}, and from {collapsed} down the output is below 0.1.',
    describeDeparts_outside:
      'Outside the root the same ε matters only at spreads near ε itself: rows down to {kept} stay within 1% of {ref}, and from {departs} down the output drops.',
    describeAll_outside: 'Outside the root every row, down to spread {kept}, stays within 1% of {ref}.',
    describeRefused: 'With ε = 0 the constant row has nothing to divide by, so there is no output: {message}',
    describeConstant: 'The constant row comes out as {v}: ε keeps its division finite.',
  },
  zh: {
    name: 'ε 的作用：离散程度逐渐缩小的各行，ε 放在平方根内与平方根外的标准化',
    eps: 'ε',
    choice_0: '0',
    'choice_1e-12': '10⁻¹²',
    'choice_1e-8': '10⁻⁸',
    'choice_1e-6': '10⁻⁶',
    'choice_1e-5': '10⁻⁵',
    'choice_1e-4': '10⁻⁴',
    'choice_1e-3': '10⁻³',
    'choice_1e-2': '10⁻²',
    'choice_1e-1': '10⁻¹',
    title: '标准化后的最后一个坐标，ε = {eps}',
    titleShort: '最后一个坐标，ε = {eps}',
    keyInside: 'ε 在根号内：√(σ² + ε)，LayerNorm 的做法',
    keyOutside: 'ε 在根号外：σ + ε',
    spreadAxis: '行 s·(−1, 0, 1) 的离散程度 s',
    refLabel: '最宽的行：{v}',
    constantRefused: '常数行（s = 0）：被拒绝，没有可除的量',
    constantZero: '常数行（s = 0）：{v}',
    sentenceSep: '',
    describeCollapse_inside:
      'ε = {eps} 放在根号内时，离散程度不小于 {kept} 的行与最宽的行（{ref}）相差不到 1%；从 {collapsed} 开始输出低于 0.1：分母由 ε 而不是数据决定。',
    describeDeparts_inside:
      'ε = {eps} 放在根号内时，离散程度不小于 {kept} 的行与最宽的行（{ref}）相差不到 1%；从 {departs} 开始 ε 把输出压低。',
    describeAll_inside: 'ε = {eps} 放在根号内时，直到离散程度 {kept}，每一行都与最宽的行（{ref}）相差不到 1%。',
    describeCollapse_outside:
      '放在根号外时，同样的 ε 只在离散程度接近 ε 本身时才起作用：不小于 {kept} 的行与 {ref} 相差不到 1%，从 {collapsed} 开始输出低于 0.1。',
    describeDeparts_outside:
      '放在根号外时，同样的 ε 只在离散程度接近 ε 本身时才起作用：不小于 {kept} 的行与 {ref} 相差不到 1%，从 {departs} 开始输出下降。',
    describeAll_outside: '放在根号外时，直到离散程度 {kept}，每一行都与 {ref} 相差不到 1%。',
    describeRefused: 'ε = 0 时常数行没有可除的量，因此没有输出：{message}',
    describeConstant: '常数行的输出为 {v}：ε 让这次除法保持有限。',
  },
};
