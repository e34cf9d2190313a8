// <nl-dk-scaling> — the spread of q·k scores for random queries and keys
// (entries N(0, 1)) as the head width d_k grows, and what it does to softmax:
// unscaled the spread grows like √d_k and one key takes almost all the
// weight; divided by √d_k it stays near 1; QK-Norm's g·cos(q, k) spreads like
// g/√d_k for random vectors.
//
// Attributes: dk (64; 1..256, linear), mode (raw | scaled | qk_norm: the
//   series whose detail, marker and scores are shown), g (8; 0.1..40, QK-Norm's
//   scale), seed (1), lang.
// Properties: dk, mode, g, seed; state (read-only): {dk, mode, g, seed, count,
//   keys, std (the chosen series at dk), scores (its draws at dk), uniform
//   (1/keys), series: {dks, raw, scaled, qk_norm, sqrt}, peak: {raw, scaled,
//   qk_norm} (mean largest softmax weight over `keys` keys, at each of dks),
//   at (index of dk in dks), stdAxis, detailAxis, stripAxis, error}.
// Events: change. Keyboard: the d_k and g sliders (arrows, Home/End), the
//   mode select, "New draw".
// Colours: --nl-reference the raw q·k (before any scaling), --nl-input the
//   scaled q·k/√d_k, --nl-l2 QK-Norm (an L2 normalization of q and k);
//   --nl-muted dashes for the √d_k and uniform-weight references.
// Parts: figure, controls, slider, number, select, button, view, description, error.
// Numbers from the core: score_spread (std and draws at every width, from one
// nested drawing per seed), random_normal (q, k),
// scaled_dot_product_attention (scale 1 and 1/√d_k: softmax weights),
// l2_normalize and linear_map (QK-Norm's cosines of queries and keys), film
// (g times them), softmax (QK-Norm's weights, the uniform weight), row_entropy
// (each query's largest weight), z_score_fit (their mean),
// linear_map (times g), clip_grad_norm (√d_k as ‖1‖), axis_ticks.
import { el } from '../lib/base.js';
import { NlFigure, figureCss } from '../lib/figure.js';
import { line, scale, svg, xAxis, yAxis } from '../lib/plot.js';
import { textWidth } from '../lib/text.js';

const LABEL_SIZE = 11; // --nl-small-size, the reference labels' font size

/**
 * Where a curve's drawn points [[x, y], ...] (x increasing) pass between x0 and x1: [lowest, highest] y in
 * pixels, or null when it does not reach there. Layout only: pixel positions, no shown number.
 */
function spanOver(points, x0, x1) {
  let lo = Infinity,
    hi = -Infinity;
  const take = (y) => {
    lo = Math.min(lo, y);
    hi = Math.max(hi, y);
  };
  for (let i = 0; i < points.length; i++) {
    const [x, y] = points[i];
    if (x >= x0 && x <= x1) take(y);
    const next = points[i + 1];
    if (!next) continue;
    // where a segment crosses either edge of the box
    for (const edge of [x0, x1]) {
      if ((x - edge) * (next[0] - edge) < 0) take(y + ((next[1] - y) * (edge - x)) / (next[0] - x));
    }
  }
  return lo <= hi ? [lo, hi] : null;
}

const vec = NlFigure.vec;
const GRID = [1, 8, 16, 32, 48, 64, 96, 128, 160, 192, 224, 256];
const COUNT = 500; // q/k pairs per standard deviation
const QUERIES = 200; // queries per softmax
const KEYS = 16; // keys each query attends over
const MODES = ['raw', 'scaled', 'qk_norm'];

export class NlDkScaling extends NlFigure {
  static catalog = 'dkScaling';
  static summary = 'The spread of q·k scores against the head width, and the largest softmax weight.';
  static minHeight = 674; // px kept by normlab/styles.css (measured at 960 px, default attributes)
  static phoneMinHeight = { en: 1455, zh: 1408 }; // px kept up to 600 px wide (measured at 360 px, default attributes)
  static stateDoc =
    '`std`, `scores`, `series: {dks, raw, scaled, qk_norm, sqrt}`, `peak: {raw, scaled, qk_norm}` (mean largest softmax weight over `keys` keys)'; // `state` keys beyond the attributes (README)
  static params = {
    dk: {
      attr: 'dk',
      kind: 'number',
      integer: true,
      default: 64,
      min: 1,
      max: 256,
      step: 1,
      control: 'slider',
      doc: 'the head width d_k',
    },
    mode: {
      attr: 'mode',
      kind: 'choice',
      choices: MODES,
      default: 'scaled',
      control: 'select',
      doc: 'the series whose detail, marker and scores are shown',
    },
    g: {
      attr: 'g',
      kind: 'number',
      default: 8,
      min: 0.1,
      max: 40,
      step: 0.1,
      control: 'slider',
      doc: "QK-Norm's scale",
    },
    seed: {
      attr: 'seed',
      kind: 'number',
      integer: true,
      default: 1,
      min: 0,
      max: 1e9,
      doc: 'seed of the random q and k',
    },
  };
  static css =
    figureCss +
    `
.s-raw { fill: none; stroke: var(--nl-reference); stroke-width: 2.5; }
.s-scaled { fill: none; stroke: var(--nl-input); stroke-width: 2.5; }
.s-qk_norm { fill: none; stroke: var(--nl-l2); stroke-width: 2.5; }
.s-ref { fill: none; stroke: var(--nl-muted); stroke-width: 1.2; stroke-dasharray: 4 4; }
.m-raw { fill: var(--nl-reference); } .m-scaled { fill: var(--nl-input); } .m-qk_norm { fill: var(--nl-l2); }
.mk { stroke: var(--nl-bg); stroke-width: 2; }
.rug { fill: none; stroke-width: 1; stroke-opacity: 0.18; }
.rug.raw { stroke: var(--nl-reference); } .rug.scaled { stroke: var(--nl-input); } .rug.qk_norm { stroke: var(--nl-l2); }
.sd { stroke-width: 2; } .sd.raw { stroke: var(--nl-reference); } .sd.scaled { stroke: var(--nl-input); } .sd.qk_norm { stroke: var(--nl-l2); }
.ref-label { font-size: var(--nl-small-size); fill: var(--nl-muted); }
.panels { grid-template-columns: repeat(2, minmax(0, 1fr)); }
@container (max-width: 600px) { .panels { grid-template-columns: minmax(0, 1fr); } }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: var(--nl-label-size); color: var(--nl-muted); margin: 6px 0 0; padding: 0; list-style: none; }
.sw { display: inline-block; width: 18px; height: 0; border-top: 3px solid; vertical-align: middle; margin-right: 5px; }
.sw.raw { border-color: var(--nl-reference); } .sw.scaled { border-color: var(--nl-input); } .sw.qk_norm { border-color: var(--nl-l2); }
.sw.ref { border-top: 2px dashed var(--nl-muted); }
`;

  buildControls(box) {
    super.buildControls(box);
    box.append(this.newDrawButton());
  }

  buildView(view) {
    const box = el('div', { class: 'panels' });
    [this._stdSvg, this._detailSvg, this._stripSvg, this._peakSvg] = [0, 1, 2, 3].map(() => svg(340, 220));
    box.append(this._stdSvg, this._detailSvg, this._stripSvg, this._peakSvg);
    this._legend = el('ul', { class: 'legend' });
    view.append(box, this._legend);
  }

  // Everything at one width d that does not depend on g: the spread and
  // draws of the three scores (QK-Norm with g = 1), √d, and the mean largest
  // softmax weight of raw and scaled scores. Kept per (d, seed): the same
  // numbers the core would give again.
  _at(d, seed) {
    const key = `${d}:${seed}`;
    this._cache ??= new Map();
    let c = this._cache.get(key);
    if (!c) {
      c = { std: {}, scores: {} };
      // the three modes at this width: row d - 1 of the drawing for every width (std [3], scores [3, COUNT] in MODES order)
      const out = this._spread(seed);
      MODES.forEach((m, k) => {
        c.std[m] = out.std.data[(d - 1) * 3 + k];
        c.scores[m] = out.scores.data.subarray(((d - 1) * 3 + k) * COUNT, ((d - 1) * 3 + k + 1) * COUNT);
      });
      c.sqrt = this._core.run(
        'clip_grad_norm',
        { g: vec(new Array(d).fill(1)) },
        { max_norm: 1e30 },
      ).total_norm.data[0];
      c.q = this._core.run('random_normal', {}, { shape: [QUERIES, d], seed: seed + 104729 }).x;
      c.k = this._core.run('random_normal', {}, { shape: [KEYS, d], seed: seed + 7919 }).x;
      c.peak = {
        raw: this._peak('scaled_dot_product_attention', c, { scale: 1 }),
        scaled: this._peak('scaled_dot_product_attention', c, {}),
      };
      // QK-Norm's scores are g times these cosines (every query with every key), so a new g
      // needs no new product of q and k
      const unit = (x) => this._core.run('l2_normalize', { x }).y;
      c.cos = this._core.run('linear_map', { W: unit(c.k), points: unit(c.q) }).y.data; // [QUERIES, KEYS]
      c.qk = new Map(); // g -> QK-Norm's mean largest weight
      delete c.q; // the draws are not needed again (a width of 256 holds 200 KB of them)
      delete c.k;
      if (this._cache.size > 400) this._cache.clear();
      this._cache.set(key, c);
    }
    return c;
  }

  // The spread and draws of the three scores at every width 1..256 from one
  // nested drawing (width d uses the first d coordinates of the same 500
  // pairs): one call per seed, so a width the slider reaches for the first
  // time costs no new drawing.
  _spread(seed) {
    if (this._spreadSeed !== seed) {
      this._spreadOut = this._core.run(
        'score_spread',
        {},
        { d_k: GRID[GRID.length - 1], count: COUNT, seed, mode: 'all', g: 1, every_width: true },
      );
      this._spreadSeed = seed;
    }
    return this._spreadOut;
  }

  // Mean over the queries of each query's largest softmax weight.
  _peak(op, c, attrs) {
    const v = { shape: [KEYS, 1], data: new Float32Array(KEYS) };
    const w = this._core.run(op, { q: c.q, k: c.k, v }, attrs).weights; // [QUERIES, KEYS]
    return this.blockMeans(this._core.run('row_entropy', { p: w }).max.data, 1, QUERIES)[0]; // each query's largest weight, averaged
  }

  // QK-Norm's mean largest weight at every width for one g. Each cell keeps its peaks per g; the
  // cells that lack g are done in one pass: the rows of softmax(g · cos) of those cells stacked,
  // their largest weights (row_entropy's max) and the mean over the queries per cell (blockMeans).
  _qkPeaks(cells, g) {
    const todo = cells.filter((c) => !c.qk.has(g));
    if (todo.length) {
      const n = todo.length,
        rows = n * QUERIES,
        shape = [rows, KEYS];
      const cos = new Float32Array(rows * KEYS);
      todo.forEach((c, i) => cos.set(c.cos, i * QUERIES * KEYS));
      const scores = this._core.run('film', {
        x: { shape, data: cos },
        gamma: { shape, data: new Float32Array(rows * KEYS).fill(g) },
        beta: { shape, data: new Float32Array(rows * KEYS) },
      }).y;
      const w = this._core.run('softmax', { x: scores }).y;
      const max = this._core.run('row_entropy', { p: w }).max.data; // [n * QUERIES]: each query's largest weight
      const peaks = this.blockMeans(max, n, QUERIES);
      todo.forEach((c, i) => {
        if (c.qk.size > 400) c.qk.clear();
        c.qk.set(g, peaks[i]);
      });
    }
    return cells.map((c) => c.qk.get(g));
  }

  _byG(g, values) {
    return this.op('linear_map', {
      W: { shape: [1, 1], data: [g] },
      points: { shape: [values.length, 1], data: Array.from(values) },
    });
  }

  compute(core, { dk, mode, g, seed }) {
    const dks = GRID.includes(dk) ? GRID : [...GRID, dk].sort((a, b) => a - b);
    const cells = dks.map((d) => this._at(d, seed));
    const series = {
      dks,
      raw: cells.map((c) => c.std.raw),
      scaled: cells.map((c) => c.std.scaled),
      qk_norm: this._byG(
        g,
        cells.map((c) => c.std.qk_norm),
      ),
      sqrt: cells.map((c) => c.sqrt),
    };
    const peak = {
      raw: cells.map((c) => c.peak.raw),
      scaled: cells.map((c) => c.peak.scaled),
      qk_norm: this._qkPeaks(cells, g),
    };
    const at = dks.indexOf(dk);
    const here = cells[at];
    const scores = mode === 'qk_norm' ? this._byG(g, here.scores.qk_norm) : Array.from(here.scores[mode]);
    const uniform = this.op('softmax', { x: vec(new Array(KEYS).fill(0)) })[0];
    return {
      count: COUNT,
      keys: KEYS,
      series,
      peak,
      at,
      uniform,
      scores,
      std: series[mode][at],
      stdAxis: this.axis([...series.raw, ...series.scaled, ...series.qk_norm, ...series.sqrt], { include_zero: true }),
      detailAxis: this.axis(series[mode], { include_zero: true }),
      stripAxis: this.axis(scores, { symmetric: true }),
    };
  }

  // One formatter per quantity.
  fmtStd(v) {
    return this.fmt(v, 3);
  }
  fmtW(v) {
    return this.fmt(v, 3);
  }

  _frame(svgEl, H, m, title) {
    const W = this.fit(svgEl, 340, H);
    return { W, items: [el('text', { class: 'panel-title', x: 4, y: 15 }, title)] };
  }

  // A chart over d_k (linear axis 0..256) of some series; marker on the chosen one.
  _overDk(svgEl, s, title, axis, lines, refs, markAt) {
    const H = 220,
      m = { l: 40, r: 12, t: 28, b: 36 };
    const { W, items } = this._frame(svgEl, H, m, title);
    const x = scale([0, 256], [m.l, W - m.r]);
    const y = scale(axis.domain, [H - m.b, m.t]);
    items.push(yAxis(axis.ticks, y, m.l, W - m.r, (v) => this.fmt(v, 3)));
    items.push(xAxis(W < 300 ? [0, 128, 256] : [0, 64, 128, 192, 256], x, m.t, H - m.b, (v) => this.fmt(v)));
    items.push(el('text', { class: 'tick', x: W - m.r, y: H - 4, 'text-anchor': 'end' }, 'd_k'));
    const curves = lines.map(([, values]) => s.series.dks.map((d, i) => [x(d), y(values[i])]));
    const marker = [x(s.dk), y(markAt)];
    const labels = [];
    for (const [values, label, below] of refs) {
      const pts = s.series.dks.map((d, i) => [x(d), y(values[i])]);
      items.push(line(pts, 's-ref'));
      labels.push(this._refLabel(label, pts, below, curves, marker, W, m, H - m.b));
    }
    for (const [k, [mode]] of lines.entries()) items.push(line(curves[k], `s-${mode}`));
    items.push(el('circle', { class: `mk m-${s.mode}`, cx: marker[0].toFixed(1), cy: marker[1].toFixed(1), r: 6 }));
    items.push(...labels); // over the curves, but placed clear of them
    svgEl.replaceChildren(...items);
  }

  /**
   * A reference line's label, beside its line in the plot (above the x axis) where no curve and not the
   * marker passes: tried by the line's end, its start, its middle and its quarters, at every height between
   * the curves there; the clear place nearest the line wins (by the line's end on a tie, on the side
   * `below` asks for), else the place right by the line's end.
   */
  _refLabel(label, pts, below, curves, marker, W, m, bottom) {
    const w = textWidth(label, LABEL_SIZE) + 4,
      h = LABEL_SIZE + 1;
    const [mx, my] = marker;
    let best = null;
    [1, 0, 0.5, 0.25, 0.75].forEach((at, k) => {
      const x0 = m.l + 4 + at * (W - m.r - 6 - w - (m.l + 4)),
        x1 = x0 + w;
      const line = spanOver(pts, x0, x1); // the reference line under the box
      // what the box must not touch there: the curves, the marker, its own line (2 px around each)
      const blocks = [...curves.map((c) => spanOver(c, x0 - 2, x1 + 2)), line];
      if (mx + 8 > x0 && mx - 8 < x1) blocks.push([my - 8, my + 8]);
      const free = (top) =>
        top >= m.t - 14 && top + h <= bottom - 2 && blocks.every((b) => !b || b[1] < top - 2 || b[0] > top + h + 2);
      // heights to try: right by the line, and right by each obstacle's edges
      const tops = [line[1] + 3, line[0] - 3 - h];
      for (const b of blocks) if (b) tops.push(b[1] + 3, b[0] - 3 - h);
      for (const top of tops) {
        if (!free(top)) continue;
        const side = top > line[1] ? 1 : -1;
        const score = Math.abs(top + h / 2 - (line[0] + line[1]) / 2) + 8 * k + (side === (below ? 1 : -1) ? 0 : 4);
        if (!best || score < best.score) best = { score, x0, x1, y1: top + h };
      }
    });
    if (!best) {
      const x0 = W - m.r - 2 - w,
        line = spanOver(pts, x0, x0 + w);
      best = { x0, y1: below ? line[1] + 3 + h : line[0] - 3 };
    }
    const b = best;
    return el(
      'text',
      { class: 'ref-label', x: (b.x0 + 2).toFixed(1), y: (b.y1 - 2).toFixed(1), 'text-anchor': 'start' },
      label,
    );
  }

  draw(s) {
    const modeName = this.t(`choice_${s.mode}`);
    this._overDk(
      this._stdSvg,
      s,
      this.t('stdTitle'),
      s.stdAxis,
      MODES.map((m) => [m, s.series[m]]),
      [[s.series.sqrt, '√d_k']],
      s.std,
    );
    this._overDk(
      this._detailSvg,
      s,
      this.t('detailTitle', { mode: modeName }),
      s.detailAxis,
      [[s.mode, s.series[s.mode]]],
      [],
      s.std,
    );
    this._overDk(
      this._peakSvg,
      s,
      this.t('peakTitle', { keys: s.keys }),
      { domain: [0, 1], ticks: [0, 0.25, 0.5, 0.75, 1] },
      MODES.map((m) => [m, s.peak[m]]),
      [[s.series.dks.map(() => s.uniform), this.t('uniformLabel', { w: this.fmtW(s.uniform) }), true]],
      s.peak[s.mode][s.at],
    );
    this._drawStrip(s, modeName);
    this._legend.replaceChildren(
      ...[...MODES.map((m) => [m, `legend_${m}`]), ['ref', 'legendRef']].map(([cls, key]) => {
        const li = el('li');
        li.append(el('span', { class: `sw ${cls}` }), this.t(key, { g: this.fmt(s.g) }));
        return li;
      }),
    );
  }

  // The draws as a rug: one short tick per score on one line, no jitter;
  // the standard deviation as two taller ticks at ±std around the mean 0.
  _drawStrip(s, modeName) {
    const H = 220,
      m = { l: 16, r: 16, t: 28, b: 36 };
    const { W, items } = this._frame(
      this._stripSvg,
      H,
      m,
      this.t('stripTitle', { dk: s.dk, mode: modeName, count: s.count }),
    );
    const x = scale(s.stripAxis.domain, [m.l, W - m.r]);
    const mid = (H - m.b + m.t) / 2;
    items.push(
      xAxis(
        s.stripAxis.ticks.filter((_, i, a) => W >= 300 || a.length <= 5 || i % 2 === 0),
        x,
        m.t,
        H - m.b,
        (v) => this.fmt(v, 3),
      ),
    );
    let d = '';
    for (const v of s.scores) d += `M${x(v).toFixed(1)},${(mid - 22).toFixed(1)}v44`;
    items.push(el('path', { class: `rug ${s.mode}`, d }));
    for (const v of [-s.std, s.std])
      items.push(
        el('line', {
          class: `sd ${s.mode}`,
          x1: x(v).toFixed(1),
          x2: x(v).toFixed(1),
          y1: (mid - 34).toFixed(1),
          y2: (mid + 34).toFixed(1),
        }),
      );
    items.push(
      el(
        'text',
        { class: 'label', x: x(s.std).toFixed(1), y: (mid - 40).toFixed(1), 'text-anchor': 'middle' },
        `±${this.fmtStd(s.std)}`,
      ),
    );
    this._stripSvg.replaceChildren(...items);
  }

  describe(s) {
    const i = s.at;
    const vars = {
      dk: s.dk,
      sqrt: this.fmtStd(s.series.sqrt[i]),
      g: this.fmt(s.g),
      keys: s.keys,
      raw: this.fmtStd(s.series.raw[i]),
      scaled: this.fmtStd(s.series.scaled[i]),
      qk: this.fmtStd(s.series.qk_norm[i]),
      praw: this.fmtW(s.peak.raw[i]),
      pscaled: this.fmtW(s.peak.scaled[i]),
      pqk: this.fmtW(s.peak.qk_norm[i]),
      uniform: this.fmtW(s.uniform),
    };
    return this.t('describeSpread', vars) + this.t('sentenceGap') + this.t('describePeak', vars);
  }
}
NlDkScaling.defineProperties();

// The figure's strings, English and Chinese (t(key); a language added with registerLocale overrides them).
NlDkScaling.strings = {
  en: {
    name: 'Spread of query-key scores against the head width d_k, and the softmax it gives',
    dk: 'Head width d_k',
    mode: 'Detail',
    g: 'QK-Norm scale g',
    choice_raw: 'raw q·k',
    choice_scaled: 'q·k / √d_k',
    choice_qk_norm: 'QK-Norm',
    legend_raw: 'raw q·k',
    legend_scaled: 'q·k / √d_k',
    legend_qk_norm: 'QK-Norm: {g}·cos(q, k)',
    legendRef: 'dashed: √d_k and the uniform weight',
    newDraw: 'New draw',
    stdTitle: 'Standard deviation of the scores',
    detailTitle: '{mode} on its own scale',
    peakTitle: 'Largest softmax weight over {keys} keys',
    stripTitle: '{count} {mode} scores, d_k = {dk}',
    uniformLabel: 'uniform {w}',
    describeSpread:
      'At d_k = {dk} (√d_k = {sqrt}), raw q·k scores of random unit-variance queries and keys have standard deviation {raw}; divided by √d_k, {scaled}; with QK-Norm and g = {g}, {qk}.',
    describePeak:
      'Over {keys} keys, the largest softmax weight averages {praw} for raw scores, {pscaled} for scaled ones and {pqk} for QK-Norm; uniform attention would give each key {uniform}.',
    sentenceGap: ' ',
  },
  zh: {
    name: 'Query-key scores 的离散程度与 head 宽度 d_k，以及由此得到的 softmax',
    dk: 'Head 宽度 d_k',
    mode: '细看',
    g: 'QK-Norm 缩放 g',
    choice_raw: '未缩放 q·k',
    choice_scaled: 'q·k / √d_k',
    choice_qk_norm: 'QK-Norm',
    legend_raw: '未缩放 q·k',
    legend_scaled: 'q·k / √d_k',
    legend_qk_norm: 'QK-Norm：{g}·cos(q, k)',
    legendRef: '虚线：√d_k 与均匀 weight',
    newDraw: '重新抽样',
    stdTitle: 'Scores 的标准差',
    detailTitle: '{mode}（单独的纵轴）',
    peakTitle: '{keys} 个 keys 中最大的 softmax weight',
    stripTitle: 'd_k = {dk} 时 {count} 个 {mode} scores',
    uniformLabel: '均匀 {w}',
    describeSpread:
      'd_k = {dk}（√d_k = {sqrt}）时，随机单位方差 queries 与 keys 的未缩放 q·k scores 标准差为 {raw}；除以 √d_k 后为 {scaled}；用 QK-Norm 且 g = {g} 时为 {qk}。',
    describePeak:
      '在 {keys} 个 keys 上，最大的 softmax weight 平均为：未缩放 {praw}，缩放后 {pscaled}，QK-Norm {pqk}；均匀 attention 给每个 key {uniform}。',
    sentenceGap: '',
  },
};
