// <nl-qk-norm> — growing logits and QK-Norm. Queries and keys are scaled by a
// common factor α (their norms grow, as they can during training): scaled
// dot-product attention's logits q·k/√d grow with α², its softmax sharpens and
// its entropy falls toward 0, one key taking almost all the weight. QK-Norm
// L2-normalizes q and k and multiplies their cosine by a learned scale g, so
// its logits stay within ±g whatever the norms: the same attention at every α.
//
// Attributes: alpha (2; 0.25..8), g (QK-Norm's scale, 5; 1..20), seed (1), lang.
// Properties: alpha, g, seed; state (read-only): {alpha, g, seed, alphas (the
//   grid), entropy: {plain, qk} and largest: {plain, qk} (mean over the
//   queries, per α on the grid), here: {plain, qk} (entropy and largest weight
//   at alpha, and one query's weights), maxEntropy (log of the key count, the
//   uniform row's entropy), uniformWeight (1/16 from softmax), axes, error}.
// Events: change (the reader moved a slider or drew again).
// Keyboard: the α and g sliders; "New draw" draws other queries and keys.
// Colours: --nl-input attention without QK-Norm, --nl-l2 with QK-Norm (an L2
//   normalization of q and k), --nl-reference the uniform attention.
// Parts: figure, controls, slider, number, button, view, description, error.
// Numbers from the core: random_normal, linspace, film (α·q, α·k, all 32 α
// of the grid in one batch), scaled_dot_product_attention, qk_norm_attention,
// row_entropy, z_score_fit (means over the queries), softmax (the uniform
// row), axis_ticks.
import { el } from '../lib/base.js';
import { NlFigure, figureCss } from '../lib/figure.js';
import { scale, svg, xAxis, yAxis } from '../lib/plot.js';

const Q = 8,
  K = 16,
  D = 16;

export class NlQkNorm extends NlFigure {
  static catalog = 'qkNorm';
  static summary = 'Growing q and k norms sharpen attention; QK-Norm keeps it the same.';
  static minHeight = 374; // px kept by normlab/styles.css (measured at 960 px, default attributes)
  static phoneMinHeight = { en: 1100, zh: 1076 }; // px kept up to 600 px wide (measured at 360 px, default attributes)
  static stateDoc = '`entropy`, `largest` (`{plain, qk}` per α), `here`, `maxEntropy`, `uniformWeight`'; // `state` keys beyond the attributes (README)
  static params = {
    alpha: {
      attr: 'alpha',
      kind: 'number',
      default: 2,
      min: 0.25,
      max: 8,
      step: 0.25,
      control: 'slider',
      doc: 'the factor α the q and k norms grow by',
    },
    g: { attr: 'g', kind: 'number', default: 5, min: 1, max: 20, step: 0.5, control: 'slider', doc: "QK-Norm's scale" },
    seed: {
      attr: 'seed',
      kind: 'number',
      integer: true,
      default: 1,
      min: 0,
      max: 1e6,
      doc: 'seed of the random q and k',
    },
  };
  static css = `${figureCss}
.qk-panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 260px), 1fr)); gap: 10px; }
.s-plain { fill: none; stroke: var(--nl-input); stroke-width: 2.5; }
.s-qk { fill: none; stroke: var(--nl-l2); stroke-width: 2.5; stroke-dasharray: 6 3; }
.m-plain { fill: var(--nl-input); } .m-qk { fill: var(--nl-l2); } .mk { stroke: var(--nl-bg); stroke-width: 2; }
.b-plain { fill: var(--nl-input); } .b-qk { fill: var(--nl-l2); }
.uniform { stroke: var(--nl-reference); stroke-dasharray: 3 3; stroke-width: 1.5; }
.uniform-label { font-size: var(--nl-small-size); fill: var(--nl-reference); }
.key { font-size: var(--nl-small-size); } .key.plain { fill: var(--nl-input); } .key.qk { fill: var(--nl-l2); }
`;

  buildControls(box) {
    super.buildControls(box);
    box.append(this.newDrawButton());
  }

  buildView(view) {
    const box = el('div', { class: 'qk-panels' });
    this._svgs = ['entropy', 'largest', 'weights'].map((k) => svg(300, 220, k));
    box.append(...this._svgs);
    view.append(box);
  }

  /**
   * Attention at every factor of `alphas` at once: queries [A, Q, D] and keys [A, K, D], block a
   * scaled by alphas[a] (film), both ways, one core call per step. Per α and way: the mean over
   * the queries of each row's entropy and largest weight, and the first query's row.
   */
  _sweep(q, k, alphas, g) {
    const A = alphas.length;
    const scaled = (x, n) => {
      const size = n * D,
        data = new Float32Array(A * size),
        gamma = new Float32Array(A * size);
      for (let a = 0; a < A; a++) {
        data.set(x.data, a * size); // the same draws in every block (copies, no arithmetic)
        gamma.fill(alphas[a], a * size, (a + 1) * size);
      }
      const shape = [A, size];
      const y = this._core.run('film', {
        x: { shape, data },
        gamma: { shape, data: gamma },
        beta: { shape, data: new Float32Array(A * size) },
      }).y;
      return { shape: [A, n, D], data: y.data };
    };
    const qa = scaled(q, Q),
      ka = scaled(k, K),
      v = { shape: [A, K, 1], data: new Float32Array(A * K) };
    const means = (rows) => this.blockMeans(rows, A, Q); // [A, Q] -> the mean over the queries per α
    const out = {};
    for (const [kind, op, attrs] of [
      ['plain', 'scaled_dot_product_attention', {}],
      ['qk', 'qk_norm_attention', { g }],
    ]) {
      const w = this._core.run(op, { q: qa, k: ka, v }, attrs).weights.data; // [A, Q, K]
      const r = this._core.run('row_entropy', { p: { shape: [A * Q, K], data: w } });
      out[kind] = {
        entropy: means(r.entropy.data),
        largest: means(r.max.data),
        row: (a) => ({
          entropy: r.entropy.data[a * Q],
          largest: r.max.data[a * Q],
          weights: Array.from(w.slice(a * Q * K, a * Q * K + K)),
        }),
      };
    }
    return out;
  }

  compute(core, { alpha, g, seed }) {
    // The curves over α depend on g and the draws only: kept per (g, seed), so that moving α asks nothing new.
    const key = `${g}:${seed}`;
    this._curves ??= new Map();
    let c = this._curves.get(key);
    if (!c) {
      const q = core.run('random_normal', {}, { shape: [Q, D], seed: seed + 31 }).x;
      const k = core.run('random_normal', {}, { shape: [K, D], seed: seed + 977 }).x;
      const alphas = this.op('linspace', {}, { start: 0.25, stop: 8, count: 32 });
      c = { q, k, alphas, sweep: this._sweep(q, k, alphas, g) };
      if (this._curves.size > 200) this._curves.clear();
      this._curves.set(key, c);
    }
    const { alphas, sweep } = c;
    const entropy = { plain: sweep.plain.entropy, qk: sweep.qk.entropy },
      largest = { plain: sweep.plain.largest, qk: sweep.qk.largest };
    // α on the grid (every slider position) reads its row of the sweep; any other α gets a sweep of its own
    const i = alphas.indexOf(alpha);
    const one = i >= 0 ? null : this._sweep(c.q, c.k, [alpha], g);
    const here = {};
    for (const kind of ['plain', 'qk']) {
      const row = one ? one[kind].row(0) : sweep[kind].row(i);
      here[kind] = {
        entropy: one ? one[kind].entropy[0] : entropy[kind][i],
        largest: one ? one[kind].largest[0] : largest[kind][i],
        row: { entropy: row.entropy, largest: row.largest },
        weights: row.weights,
      };
    }
    // the uniform row (softmax of equal logits): the most spread attention can be
    const uniform = core.run('softmax', { x: { shape: [1, K], data: new Float32Array(K) } }).y.data;
    const maxEntropy = core.run('row_entropy', { p: { shape: [1, K], data: uniform } }).entropy.data[0];
    return {
      alphas,
      entropy,
      largest,
      here,
      maxEntropy,
      uniformWeight: uniform[0],
      alphaAxis: this.axis([0, 8], { count: 4 }),
      entropyAxis: this.axis([0, maxEntropy], { count: 4 }),
      weightAxis: this.axis([0, 1], { count: 4 }),
    };
  }

  draw(s) {
    const f = (v) => this.fmt(v, 3);
    const chart = (svgEl, title, series, yAxisDef, uniform, uniformLabel) => {
      const W = this.fit(svgEl, 300, 220);
      const left = 38,
        right = 10,
        top = 46,
        bottom = 180;
      const x = scale(s.alphaAxis.domain, [left, W - right]),
        y = scale(yAxisDef.domain, [bottom, top]);
      const items = [yAxis(yAxisDef.ticks, y, left, W - right, f), xAxis(s.alphaAxis.ticks, x, top, bottom, f)];
      items.push(
        el('line', { class: 'uniform', x1: left, x2: W - right, y1: y(uniform).toFixed(1), y2: y(uniform).toFixed(1) }),
      );
      // above its line, or below it when the line runs near the top of the plot (the entropy's ceiling)
      const below = y(uniform) - top < 16;
      items.push(
        el(
          'text',
          {
            class: 'uniform-label',
            x: W - right,
            y: (y(uniform) + (below ? 13 : -5)).toFixed(1),
            'text-anchor': 'end',
          },
          uniformLabel,
        ),
      );
      for (const kind of ['plain', 'qk']) {
        items.push(
          el('path', {
            class: `s-${kind}`,
            d: s.alphas.map((a, i) => `${i ? 'L' : 'M'}${x(a).toFixed(1)},${y(series[kind][i]).toFixed(1)}`).join(''),
          }),
        );
        items.push(
          el('circle', { class: `mk m-${kind}`, cx: x(s.alpha).toFixed(1), cy: y(series.here[kind]).toFixed(1), r: 5 }),
        );
      }
      items.push(el('text', { class: 'panel-title', x: 8, y: 16 }, title));
      items.push(
        el('text', { class: 'key plain', x: left, y: 32 }, this.t('keyPlain')),
        el('text', { class: 'key qk', x: W - right, y: 32, 'text-anchor': 'end' }, this.t('keyQk', { g: f(s.g) })),
      );
      items.push(
        el(
          'text',
          { class: 'tick', x: (left + W - right) / 2, y: bottom + 30, 'text-anchor': 'middle' },
          this.t('alphaAxis'),
        ),
      );
      svgEl.setAttribute('viewBox', `0 0 ${W} 220`);
      svgEl.replaceChildren(...items);
    };
    chart(
      this._svgs[0],
      this.t('entropyTitle'),
      { ...s.entropy, here: { plain: s.here.plain.entropy, qk: s.here.qk.entropy } },
      s.entropyAxis,
      s.maxEntropy,
      this.t('uniformEntropy', { v: f(s.maxEntropy) }),
    );
    chart(
      this._svgs[1],
      this.t('largestTitle'),
      { ...s.largest, here: { plain: s.here.plain.largest, qk: s.here.qk.largest } },
      s.weightAxis,
      s.uniformWeight,
      this.t('uniformWeight', { v: f(s.uniformWeight) }),
    );
    // one query's weights over the 16 keys, both ways
    const svgEl = this._svgs[2];
    const W = this.fit(svgEl, 300, 220);
    const left = 38,
      right = 10,
      top = 58,
      bottom = 180;
    const y = scale(s.weightAxis.domain, [bottom, top]);
    const slot = (W - left - right) / K,
      bw = Math.max(2, slot / 2 - 1);
    const items = [yAxis(s.weightAxis.ticks, y, left, W - right, f)];
    for (let j = 0; j < K; j++) {
      for (const [kind, off] of [
        ['plain', 0],
        ['qk', bw],
      ]) {
        const v = s.here[kind].weights[j];
        items.push(
          el('rect', {
            class: `b-${kind}`,
            x: (left + j * slot + off + 1).toFixed(1),
            y: y(v).toFixed(1),
            width: (bw - 0.5).toFixed(1),
            height: Math.max(0, y(0) - y(v)).toFixed(1),
          }),
        );
      }
    }
    items.push(el('text', { class: 'panel-title', x: 8, y: 16 }, this.t('weightsTitle', { a: f(s.alpha) })));
    // this query's own largest weights (the other panels average over the eight queries)
    items.push(
      el('text', { class: 'key plain', x: left, y: 32 }, this.t('keyPlainRow', { m: f(s.here.plain.row.largest) })),
      el('text', { class: 'key qk', x: left, y: 45 }, this.t('keyQkRow', { m: f(s.here.qk.row.largest) })),
    ); // one a line: a narrow panel
    items.push(
      el(
        'text',
        { class: 'tick', x: (left + W - right) / 2, y: bottom + 16, 'text-anchor': 'middle' },
        this.t('keysAxis'),
      ),
    );
    svgEl.setAttribute('viewBox', `0 0 ${W} 220`);
    svgEl.replaceChildren(...items);
  }

  describe(s) {
    const f = (v) => this.fmt(v, 3);
    const vars = {
      a: f(s.alpha),
      g: f(s.g),
      h: f(s.here.plain.entropy),
      m: f(s.here.plain.largest),
      h2: f(s.here.qk.entropy),
      m2: f(s.here.qk.largest),
      hmax: f(s.maxEntropy),
    };
    const parts = [this.t('describePlain', vars)];
    if (s.here.plain.largest > 0.9) parts.push(this.t('collapsed', vars));
    parts.push(this.t('describeQk', vars));
    return parts.join(this.t('sentenceSep'));
  }
}
NlQkNorm.defineProperties();

// The figure's strings, English and Chinese (t(key); a language added with registerLocale overrides them).
NlQkNorm.strings = {
  en: {
    name: 'Growing query and key norms sharpen attention; QK-Norm keeps it the same',
    alpha: 'Scale α of q and k',
    g: 'QK-Norm scale g',
    newDraw: 'New draw',
    entropyTitle: 'Spread: entropy, mean of 8 queries',
    largestTitle: 'Peak: largest weight, mean of 8',
    weightsTitle: 'Query 1: weights on 16 keys, α = {a}',
    keyPlainRow: 'without: largest {m}',
    keyQkRow: 'QK-Norm: largest {m}',
    keyPlain: 'without QK-Norm',
    keyQk: 'QK-Norm, g = {g}',
    alphaAxis: 'α (q and k scaled by α)',
    keysAxis: '16 keys',
    uniformEntropy: 'uniform: {v}',
    uniformWeight: 'uniform: {v}',
    sentenceSep: ' ',
    describePlain:
      'With q and k scaled by α = {a}, attention without QK-Norm has mean entropy {h} (at most {hmax}, the uniform row) and mean largest weight {m}: its logits q·k/√d grow with α², so the softmax sharpens as α grows.',
    collapsed: 'It has nearly collapsed onto one key per query.',
    describeQk:
      'With QK-Norm the logits are g times a cosine, within ±{g} whatever the norms: entropy {h2} and largest weight {m2}, the same at every α.',
  },
  zh: {
    name: 'Query 与 key 的范数增大会让 attention 变尖锐；QK-Norm 让它保持不变',
    alpha: 'q 与 k 的缩放 α',
    g: 'QK-Norm 的 scale g',
    newDraw: '重新抽样',
    entropyTitle: '分散程度：8 个 query 的平均熵',
    largestTitle: '集中程度：8 个 query 平均的最大 weight',
    weightsTitle: '第 1 个 query 的 16 个 weight（α = {a}）',
    keyPlainRow: '不用：最大 {m}',
    keyQkRow: 'QK-Norm：最大 {m}',
    keyPlain: '不用 QK-Norm',
    keyQk: 'QK-Norm，g = {g}',
    alphaAxis: 'α（q 与 k 都乘以 α）',
    keysAxis: '16 个 keys',
    uniformEntropy: '均匀：{v}',
    uniformWeight: '均匀：{v}',
    sentenceSep: '',
    describePlain:
      'q 与 k 都乘以 α = {a} 时，不用 QK-Norm 的 attention 平均熵为 {h}（最大为 {hmax}，即均匀分布），平均最大 weight 为 {m}：它的 logits q·k/√d 随 α² 增长，所以 α 越大 softmax 越尖锐。',
    collapsed: '每个 query 几乎都只关注一个 key。',
    describeQk:
      '用 QK-Norm 时 logits 是 g 乘以一个 cosine，无论范数多大都在 ±{g} 之内：熵为 {h2}，最大 weight 为 {m2}，对每个 α 都相同。',
  },
};
