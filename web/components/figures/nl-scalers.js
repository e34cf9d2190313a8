// <nl-scalers> — one feature scaled three ways before it reaches a model:
// min-max to [0, 1], z-score, and robust scaling (median and interquartile
// range). The reader drags one value out of the crowd and watches the others:
// the outlier sets min-max's range and inflates the standard deviation, while
// the median and the IQR barely move. The three scaled rows share one axis,
// so the widths of their bands compare at a glance (min-max squeezes the eight
// ordinary values into a fifth of a unit, robust scaling spreads them over
// two). A second data set shows why token IDs
// are not scaled at all: an ID names a vocabulary entry, its size and
// nearness mean nothing.
//
// Attributes: values (the other values, "2.1,2.5,2.8,3,3.2,3.4,3.7,4"; 3..12
//   numbers), outlier (12; −30..40; draggable), data ("measurements" |
//   "token_ids"), ids (the token IDs, "17,318,319,1169,2045,6894,11,50256"),
//   lang.
// Properties: the same; state (read-only): {values, outlier, data, ids, x (the
//   numbers scaled), minMax: {min, max, y}, zScore: {mean, std, y}, robust:
//   {median, iqr, y}, spans: {raw, minMax, zScore, robust} ([lo, hi] of the
//   other values, measurements only), outside (the outlier lies outside the
//   others' range), widths: {minMax, zScore, robust} (hi − lo of the spans),
//   axes (raw: its own; minMax, zScore and robust: one shared axis, also
//   scaled), error}.
// Events: change (the reader dragged, used the slider or chose the data).
// Keyboard: the outlier slider and the data select; the outlier's dot is
//   focusable, Left and Right move it by 0.1 (Shift: by 1).
// Colours: --nl-input the values, --nl-chosen the outlier (the value the
//   reader moves), --nl-group the band the other values span.
// Parts: figure, controls, slider, number, select, view, description, error.
// Numbers from the core: min_max_fit, min_max_apply, z_score_fit,
// z_score_apply, robust_fit, robust_apply (the spans are min_max_fit of the
// scaled values), axis_ticks.
import { el } from '../lib/base.js';
import { NlFigure, figureCss } from '../lib/figure.js';
import { scale, svg } from '../lib/plot.js';
import { DragHandle, handleCss } from '../lib/handles.js';

const ROWS = ['raw', 'minMax', 'zScore', 'robust'];

export class NlScalers extends NlFigure {
  static catalog = 'scalers';
  static summary =
    'Min-max, z-score and robust scaling of one feature with a draggable outlier; token IDs are not amounts.';
  static minHeight = 528; // px kept by normlab/styles.css (measured at 960 px, default attributes)
  static phoneMinHeight = { en: 825, zh: 759 }; // px kept up to 600 px wide (measured at 360 px, default attributes)
  static stateDoc =
    '`minMax`, `zScore`, `robust` (statistics and outputs), `spans` of the other values and their `widths`, `outside`, `axes` (one shared by the scaled rows)'; // `state` keys beyond the attributes (README)
  static params = {
    values: {
      attr: 'values',
      kind: 'vector',
      minLength: 3,
      maxLength: 12,
      default: [2.1, 2.5, 2.8, 3, 3.2, 3.4, 3.7, 4],
      doc: 'the other values of the feature',
    },
    outlier: {
      attr: 'outlier',
      kind: 'number',
      default: 12,
      min: -30,
      max: 40,
      step: 0.1,
      control: 'slider',
      doc: 'the outlier (draggable)',
    },
    data: {
      attr: 'data',
      kind: 'choice',
      default: 'measurements',
      choices: ['measurements', 'token_ids'],
      control: 'select',
      doc: 'measurements, or token IDs that are not amounts',
    },
    ids: {
      attr: 'ids',
      kind: 'vector',
      minLength: 3,
      maxLength: 12,
      default: [17, 318, 319, 1169, 2045, 6894, 11, 50256],
      doc: 'the token IDs',
    },
  };
  static css = `${figureCss}${handleCss}
.row-title { font-size: var(--nl-title-size); font-weight: 600; }
.row-note { font-size: var(--nl-small-size); fill: var(--nl-muted); }
.pt { fill: var(--nl-input); stroke: var(--nl-bg); stroke-width: 1.5; }
.pt.out { fill: var(--nl-chosen); }
.span-band { fill: var(--nl-group); fill-opacity: 0.16; stroke: var(--nl-group); stroke-width: 1.5; }
.handle.chosen .dot { fill: var(--nl-chosen); }
.grid-line.origin { stroke: var(--nl-muted); }

`;

  buildView(view) {
    this._svg = svg(640, 376, 'scalers', { 'aria-hidden': 'false' }); // its drawn height at any width
    this._plot = el('g', { class: 'plot', 'aria-hidden': 'true' });
    this._svg.append(this._plot);
    view.append(this._svg);
    this._handle = new DragHandle(this, {
      cls: 'chosen',
      axes: 'x',
      step: 0.1,
      get: () => [this._values.outlier, 0],
      set: ([v]) => this.setByUser('outlier', v),
    });
    this._svg.append(this._handle.node);
  }

  compute(core, { values, outlier, data, ids }) {
    const tokens = data === 'token_ids';
    const x = tokens ? ids : [...values, outlier];
    const X = { shape: [x.length, 1], data: x };
    const col = (out) => out.data[0];
    const mm = core.run('min_max_fit', { x: X });
    const zs = core.run('z_score_fit', { x: X });
    const rb = core.run('robust_fit', { x: X });
    const minMax = {
      min: col(mm.min),
      max: col(mm.max),
      y: this.op('min_max_apply', { x: X, min: mm.min, max: mm.max }),
    };
    const zScore = {
      mean: col(zs.mean),
      std: col(zs.std),
      y: this.op('z_score_apply', { x: X, mean: zs.mean, std: zs.std }),
    };
    const robust = {
      median: col(rb.median),
      iqr: col(rb.iqr),
      y: this.op('robust_apply', { x: X, median: rb.median, iqr: rb.iqr }),
    };
    // where the other values land: [lo, hi] of each row without the outlier
    const span = (ys) => {
      const f = core.run('min_max_fit', { x: { shape: [ys.length - 1, 1], data: ys.slice(0, -1) } });
      return [col(f.min), col(f.max)];
    };
    const spans = tokens
      ? null
      : { raw: span(x), minMax: span(minMax.y), zScore: span(zScore.y), robust: span(robust.y) };
    const outside = !tokens && (outlier < spans.raw[0] || outlier > spans.raw[1]);
    // one axis for the three scaled rows (they are all unitless), so their bands compare; raw keeps its units
    const scaled = this.axis([...minMax.y, ...zScore.y, ...robust.y, -1, 1], { count: 6 });
    const axes = {
      raw: this.axis(x, { include_zero: false, count: 5 }),
      scaled,
      minMax: scaled,
      zScore: scaled,
      robust: scaled,
    };
    const widths = tokens
      ? null
      : Object.fromEntries(['minMax', 'zScore', 'robust'].map((k) => [k, spans[k][1] - spans[k][0]]));
    return { x, minMax, zScore, robust, spans, widths, outside, axes };
  }

  draw(s) {
    const W = this.fit(this._svg, 640, 400);
    const left = 16,
      right = 16,
      rowH = 92;
    const tokens = s.data === 'token_ids';
    const n = s.x.length;
    const items = [];
    ROWS.forEach((row, k) => {
      const top = 8 + k * rowH,
        lineY = top + 48;
      // while the outlier is dragged the raw line keeps its scale, so the dot stays under the pointer
      const held = row === 'raw' && this._dragging && this._heldRaw;
      const ax = held || s.axes[row];
      if (row === 'raw' && !held) this._heldRaw = ax;
      const p = scale(ax.domain, [left + 8, W - right - 8]);
      const ys = row === 'raw' ? s.x : s[row].y;
      items.push(el('text', { class: 'row-title', x: left, y: top + 14 }, this.t(`row_${row}`)));
      items.push(el('text', { class: 'row-note', x: left, y: top + 29 }, this._note(s, row)));
      items.push(el('line', { class: 'zero', x1: left, x2: W - right, y1: lineY, y2: lineY }));
      const reach = row === 'raw' ? 4 : 12; // the shared axis's ticks stand taller, to be read across the rows
      for (const t of ax.ticks) {
        items.push(
          el('line', {
            class: `grid-line${row !== 'raw' && t === 0 ? ' origin' : ''}`,
            x1: p(t).toFixed(1),
            x2: p(t).toFixed(1),
            y1: lineY - reach,
            y2: lineY + reach,
          }),
        );
        items.push(
          el('text', { class: 'tick', x: p(t).toFixed(1), y: lineY + 25, 'text-anchor': 'middle' }, this.fmt(t, 4)),
        );
      }
      if (!tokens) {
        const [lo, hi] = s.spans[row];
        items.push(
          el('rect', {
            class: 'span-band',
            x: (p(lo) - 5).toFixed(1),
            y: lineY - 11,
            width: Math.max(10, p(hi) - p(lo) + 10).toFixed(1),
            height: 22,
            rx: 11,
          }),
        );
      }
      ys.forEach((v, i) => {
        const last = !tokens && i === n - 1;
        if (row === 'raw' && last) return; // the outlier on the raw line is the draggable handle
        // smaller dots on a narrow line, so that eight close values stay eight dots
        items.push(
          el('circle', {
            class: `pt${last ? ' out' : ''}`,
            cx: p(v).toFixed(1),
            cy: lineY,
            r: last ? 6.5 : W < 480 ? 3.2 : 5,
          }),
        );
      });
      if (row === 'raw') this._rawFrame = { p, lineY, domain: ax.domain };
    });
    this._plot.replaceChildren(...items);
    this._svg.setAttribute('viewBox', `0 0 ${W} ${8 + ROWS.length * rowH}`);
    const f = this._rawFrame;
    if (tokens) {
      this._handle.node.setAttribute('hidden', '');
      this._handle.node.setAttribute('display', 'none');
    } else {
      this._handle.node.removeAttribute('hidden');
      this._handle.node.removeAttribute('display');
      const inv = scale([left + 8, W - right - 8], f.domain);
      const lo = this.constructor.params.outlier.min,
        hi = this.constructor.params.outlier.max;
      this._handle.place(
        f.p(s.outlier),
        f.lineY,
        {
          toValue: (px) => [inv(px), 0],
          bounds: [
            [lo, hi],
            [0, 0],
          ],
        },
        this.t('handle', { v: this.fmt(s.outlier, 4) }),
      );
    }
    const c = this._controls.outlier;
    if (c) c.range.closest('label').hidden = tokens;
  }

  /** The line under a row's title: its statistics, from the core. */
  _note(s, row) {
    // 6 significant digits: a token ID such as 50256 reads exactly, 0.9 does not turn into 0.9000001
    const f = (v) => this.fmt(v, 6),
      g = (v) => this.fmt(v, 4);
    if (row === 'raw') return this.t(s.data === 'token_ids' ? 'note_rawIds' : 'note_raw', { n: s.x.length });
    if (row === 'minMax') return this.t('note_minMax', { min: f(s.minMax.min), max: f(s.minMax.max) });
    if (row === 'zScore') return this.t('note_zScore', { mean: g(s.zScore.mean), std: g(s.zScore.std) });
    return this.t('note_robust', { median: f(s.robust.median), iqr: f(s.robust.iqr) });
  }

  describe(s) {
    const f = (v) => this.fmt(v, 4);
    if (s.data === 'token_ids') {
      // the two smallest IDs (neighbours after scaling) and the largest (scaled to 1)
      const order = s.x.map((id, i) => [id, s.minMax.y[i]]).sort((u, v) => u[0] - v[0]);
      const [a, b] = order,
        top = order[order.length - 1];
      return this.t('describeTokens', { a: a[0], ya: f(a[1]), b: b[0], yb: f(b[1]), top: top[0], ytop: f(top[1]) });
    }
    const span = (k) => ({ lo: f(s.spans[k][0]), hi: f(s.spans[k][1]) });
    const vars = {
      v: f(s.outlier),
      n: s.x.length - 1,
      rawLo: span('raw').lo,
      rawHi: span('raw').hi,
      mmLo: span('minMax').lo,
      mmHi: span('minMax').hi,
      zLo: span('zScore').lo,
      zHi: span('zScore').hi,
      rLo: span('robust').lo,
      rHi: span('robust').hi,
      std: f(s.zScore.std),
      median: f(s.robust.median),
      iqr: f(s.robust.iqr),
    };
    vars.mmW = f(s.widths.minMax);
    vars.zW = f(s.widths.zScore);
    vars.rW = f(s.widths.robust);
    const parts = [this.t('describeSpans', vars), this.t('describeWidths', vars)];
    parts.push(this.t(s.outside ? 'describeOutside' : 'describeInside', vars));
    return parts.join(this.t('sentenceSep'));
  }
}
NlScalers.defineProperties();

// The figure's strings, English and Chinese (t(key); a language added with registerLocale overrides them).
NlScalers.strings = {
  en: {
    name: 'Min-max, z-score and robust scaling of one feature with an outlier, and why token IDs are not scaled',
    outlier: 'Outlier',
    data: 'Data',
    choice_measurements: 'a measured feature',
    choice_token_ids: 'token IDs',
    row_raw: 'Raw values',
    row_minMax: 'Min-max to [0, 1]',
    row_zScore: 'Z-score',
    row_robust: 'Robust: (x − median) / IQR',
    note_raw: '{n} values; drag the large dot',
    note_rawIds: '{n} token IDs: names of vocabulary entries, not amounts',
    note_minMax: 'min {min}, max {max}',
    note_zScore: 'mean {mean}, standard deviation {std}',
    note_robust: 'median {median}, IQR {iqr}',
    handle: 'Outlier at {v}. Left and Right arrows move it.',
    sentenceSep: ' ',
    describeSpans:
      'With the extra value at {v}, the other {n} values span {rawLo} to {rawHi}; min-max puts them between {mmLo} and {mmHi}, z-scoring between {zLo} and {zHi}, robust scaling between {rLo} and {rHi}.',
    describeWidths:
      'On the common axis their band is {mmW} wide under min-max, {zW} under z-scoring and {rW} under robust scaling.',
    describeOutside:
      "Lying outside them, the extra value sets min-max's range and inflates the standard deviation to {std}, so those two squeeze the others together; the median {median} and the IQR {iqr} hardly notice it.",
    describeInside: 'It lies among them, so no scaler is pulled by it.',
    describeTokens:
      'These are token IDs. Min-max puts {a} at {ya} and {b} at {yb}, side by side, and {top} at {ytop}; but an ID names an entry of the vocabulary, and its size and its nearness to other IDs mean nothing. Models look IDs up in an embedding table instead of scaling them.',
  },
  zh: {
    name: '带 outlier 的单个 feature 的 min-max、z-score 与 robust 缩放，以及为什么不缩放 token ID',
    outlier: 'outlier 的值',
    data: '数据',
    choice_measurements: '测量得到的 feature',
    choice_token_ids: 'token ID',
    row_raw: '原始值',
    row_minMax: 'Min-max 到 [0, 1]',
    row_zScore: 'Z-score',
    row_robust: 'Robust：(x − median) / IQR',
    note_raw: '{n} 个值；拖动较大的那个点',
    note_rawIds: '{n} 个 token ID：词表条目的名字，不是数量',
    note_minMax: '最小值 {min}，最大值 {max}',
    note_zScore: 'mean {mean}，标准差 {std}',
    note_robust: 'median {median}，IQR {iqr}',
    handle: 'Outlier 位于 {v}。左右方向键移动它。',
    sentenceSep: '',
    describeSpans:
      '额外的值位于 {v} 时，其余 {n} 个值分布在 {rawLo} 到 {rawHi}；min-max 把它们放在 {mmLo} 到 {mmHi}，z-score 放在 {zLo} 到 {zHi}，robust 缩放放在 {rLo} 到 {rHi}。',
    describeWidths: '在共同的坐标轴上，它们的区间宽度在 min-max 下为 {mmW}，z-score 下为 {zW}，robust 缩放下为 {rW}。',
    describeOutside:
      '它落在其余值之外，决定了 min-max 的范围，并把标准差撑大到 {std}，所以这两种缩放把其余值挤在一起；median {median} 与 IQR {iqr} 几乎不受影响。',
    describeInside: '它落在其余值之间，所以没有哪种缩放被它拉偏。',
    describeTokens:
      '这些是 token ID。Min-max 把 {a} 放在 {ya}、{b} 放在 {yb}，彼此相邻，把 {top} 放在 {ytop}；但 ID 只是词表中条目的名字，它的大小以及与其他 ID 的远近都没有意义。模型用 embedding 表查找 ID，而不是缩放它们。',
  },
};
