// <nl-whitening> — a correlated 2-D point cloud, z-scored (each feature to
// mean 0 and std 1, correlation kept) and ZCA-whitened (covariance ≈ I).
//
// Attributes: mixing (0.8; -1.5..1.5, how much feature 2 follows feature 1:
//   the cloud is W·z + (3, −1) with W = [[2, 0], [2·mixing, 0.6]] and z
//   standard normal), count (300; 10..2000), seed (1), lang.
// Properties: the same; state (read-only): {mixing, count, seed, points,
//   covariance: {raw, zscore, whitened}, mean, std, handle, axisLine, error}.
// Events: change (slider, handle, "New sample").
// Pointer: drag the dark handle in the raw panel up or down: it sits at
//   (3, −1) + W·(0.5, 0), so its height above the centre (3, −1) is the
//   mixing; mouse and touch.
// Keyboard: the mixing slider, "New sample"; the handle is focusable: Up and
//   Down move the mixing by 0.05, Shift + arrow by 0.5.
// Colours: raw points --nl-input, z-scored points --nl-batch-norm (per-feature
//   statistics over the samples, as BatchNorm), whitened points --nl-fg (the
//   result), the cloud's axis --nl-reference, the handle --nl-chosen.
// Words: covariance entries read with 3 decimals in the tables and the
//   description. The sample counts as nearly uncorrelated when the z-scored
//   off-diagonal (the correlation) is below NEARLY_UNCORRELATED (0.1) in
//   size; whitening "removes" the correlation only when it reads 0.000,
//   otherwise it "reduces" it.
// Parts: figure, controls, slider, number, button, view, description, error.
// Numbers from the core: random_normal, linear_map, film, z_score_fit,
// z_score_apply, whiten, covariance, axis_ticks.
import { el } from '../lib/base.js';
import { NlFigure, figureCss } from '../lib/figure.js';
import { dots, line } from '../lib/plot.js';
import { DragHandle, chartPanel, fitSquare, fmtFixed, handleCss, squareFrame } from '../lib/handles.js';

/** The centre of the raw cloud (the shift added to W·z). */
const SHIFT = [3, -1];
/** Below this |correlation| the text calls the sample nearly uncorrelated. */
export const NEARLY_UNCORRELATED = 0.1; // about two standard errors of r for 300 points

export class NlWhitening extends NlFigure {
  static catalog = 'whitening';
  static summary = 'Z-scoring and ZCA whitening of a correlated cloud.';
  static minHeight = 490; // px kept by normlab/styles.css (measured at 960 px, default attributes)
  static phoneMinHeight = { en: 1456, zh: 1409 }; // px kept up to 600 px wide (measured at 360 px, default attributes)
  static stateDoc = '`covariance: {raw, zscore, whitened}`, `mean`, `std`, `points`'; // `state` keys beyond the attributes (README)
  static params = {
    mixing: {
      attr: 'mixing',
      kind: 'number',
      default: 0.8,
      min: -1.5,
      max: 1.5,
      step: 0.05,
      control: 'slider',
      doc: 'how much feature 2 follows feature 1 (draggable)',
    },
    count: {
      attr: 'count',
      kind: 'number',
      integer: true,
      default: 300,
      min: 10,
      max: 2000,
      doc: 'points in the cloud',
    },
    seed: { attr: 'seed', kind: 'number', integer: true, default: 1, min: 0, max: 1e9, doc: 'seed of the cloud' },
  };
  static css =
    figureCss +
    handleCss +
    `
.dots.raw { stroke: var(--nl-input); } .dots.zscore { stroke: var(--nl-batch-norm); } .dots.whitened { stroke: var(--nl-fg); }
.handle.chosen .dot { fill: var(--nl-chosen); }
.guide.cloud-axis { stroke: var(--nl-chosen); stroke-width: 1.5; stroke-dasharray: 5 3; }
.cov { font-size: 0.85em; margin-top: 4px; }
.cov table { margin: 0 auto; }
.cov caption { color: var(--nl-muted); white-space: nowrap; }
.cov td { min-width: 5em; }
`;

  buildControls(box) {
    super.buildControls(box);
    box.append(this.newDrawButton('newSample'));
  }

  buildView(view) {
    const panels = el('div', { class: 'geo-panels' });
    this._panels = ['raw', 'zscore', 'whitened'].map((k) => chartPanel(`cloud ${k}`));
    // each cloud with its covariance matrix below it (on a phone the clouds stack)
    this._covSlots = this._panels.map(() => el('div', { class: 'cov' }));
    panels.append(
      ...this._panels.map((c, i) => {
        const cell = el('div', { class: 'cell' });
        cell.append(c.svg, this._covSlots[i]);
        return cell;
      }),
    );
    view.append(panels);
    const p = this.constructor.params.mixing;
    this._handle = new DragHandle(this, {
      cls: 'chosen',
      axes: 'y',
      step: p.step,
      get: () => [0, this._values.mixing],
      set: ([, m]) => this.setByUser('mixing', Math.min(p.max, Math.max(p.min, m))),
    });
    this._panels[0].svg.append(this._handle.node);
  }

  compute(core, { mixing, count, seed }) {
    // The sample depends on count and seed only: moving the mixing slider reuses it.
    if (this._sample?.key !== `${count}:${seed}`) {
      this._sample = { key: `${count}:${seed}`, z: core.run('random_normal', {}, { shape: [count, 2], seed }).x };
    }
    const z = this._sample.z;
    const W = { shape: [2, 2], data: [2, 0, mixing * 2, 0.6] };
    const mixed = core.run('linear_map', { W, points: z }).y;
    const shift = { shape: [count, 2], data: new Array(count).fill(SHIFT).flat() };
    // the cloud's first axis, centre ± W·(0.5, 0); the handle is its upper end
    const ends = core.run('linear_map', { W, points: { shape: [2, 2], data: [0.5, 0, -0.5, 0] } }).y;
    const axisLine = this.op('film', {
      x: ends,
      gamma: { shape: [2, 2], data: [1, 1, 1, 1] },
      beta: { shape: [2, 2], data: [...SHIFT, ...SHIFT] },
    });
    const ones = { shape: [count, 2], data: new Array(count * 2).fill(1) };
    const raw = core.run('film', { x: mixed, gamma: ones, beta: shift }).y;
    const fit = core.run('z_score_fit', { x: raw });
    const zs = core.run('z_score_apply', { x: raw, mean: fit.mean, std: fit.std }).y;
    const wh = core.run('whiten', { x: raw }, { eps: 1e-5 });
    const cov = (t) => Array.from(core.run('covariance', { x: t }).cov.data);
    const axis = (data, symmetric) => this.axis(data, { symmetric, include_zero: symmetric, count: 4 });
    const std = new Float32Array(zs.data.length + wh.z.data.length);
    std.set(zs.data);
    std.set(wh.z.data, zs.data.length);
    return {
      points: { raw: Array.from(raw.data), zscore: Array.from(zs.data), whitened: Array.from(wh.z.data) },
      covariance: { raw: cov(raw), zscore: cov(zs), whitened: cov(wh.z) },
      mean: Array.from(fit.mean.data),
      std: Array.from(fit.std.data),
      axes: { raw: axis([...raw.data, ...axisLine], false), unit: axis(std, true) },
      axisLine,
      handle: axisLine.slice(0, 2),
    };
  }

  /** One formatter for covariance entries: 3 decimals everywhere. */
  fmtCov(v) {
    return fmtFixed(this, v, 3, 3);
  }

  draw(s) {
    const f = (v) => this.fmt(v, 3);
    ['raw', 'zscore', 'whitened'].forEach((k, i) => {
      const panel = this._panels[i];
      const W = fitSquare(this, panel.svg, 280);
      const axis = k === 'raw' ? s.axes.raw : s.axes.unit;
      // the raw panel holds its frame while the handle is dragged
      const held = k === 'raw' && this._dragging && this._held;
      const fr = held || squareFrame(this, W, axis.domain, axis.ticks);
      if (k === 'raw') this._held = fr;
      const { p, q } = fr;
      const pts = s.points[k];
      const xy = [];
      for (let j = 0; j < pts.length; j += 2) xy.push([p(pts[j]), q(pts[j + 1])]);
      const items = [...fr.axes, dots(xy, k)];
      if (k === 'raw')
        items.push(
          line(
            [
              [p(s.axisLine[2]), q(s.axisLine[3])],
              [p(s.axisLine[0]), q(s.axisLine[1])],
            ],
            'guide cloud-axis',
          ),
        );
      items.push(el('text', { class: 'panel-title', x: fr.p(fr.bounds[0][0]), y: 18 }, this.t(`title_${k}`)));
      panel.plot.replaceChildren(...items);
      if (k === 'raw') {
        this._handle.place(
          p(s.handle[0]),
          q(s.handle[1]),
          {
            toValue: (px, py) => [0, fr.qInv(py) - SHIFT[1]],
            bounds: [
              [0, 0],
              [this.constructor.params.mixing.min, this.constructor.params.mixing.max],
            ],
          },
          this.t('handle', { v: f(s.mixing) }),
        );
      }
    });
    ['raw', 'zscore', 'whitened'].forEach((k, i) => this._covSlots[i].replaceChildren(this._covTable(s, k)));
  }

  /** A cloud's covariance matrix as a small table. */
  _covTable(s, k) {
    const c = s.covariance[k];
    const table = el('table');
    table.append(el('caption', {}, this.t('covCaption', { name: this.t(`title_${k}`) })));
    for (const r of [0, 1]) {
      const tr = el('tr');
      tr.append(el('td', {}, this.fmtCov(c[2 * r])), el('td', {}, this.fmtCov(c[2 * r + 1])));
      table.append(tr);
    }
    return table;
  }

  describe(s) {
    const c = s.covariance;
    const v = {
      r1: this.fmtCov(c.raw[0]),
      r2: this.fmtCov(c.raw[3]),
      rc: this.fmtCov(c.raw[1]),
      z1: this.fmtCov(c.zscore[0]),
      z2: this.fmtCov(c.zscore[3]),
      zoff: this.fmtCov(c.zscore[1]),
      w1: this.fmtCov(c.whitened[0]),
      w2: this.fmtCov(c.whitened[3]),
      woff: this.fmtCov(c.whitened[1]),
    };
    const raw = this.t('describeRaw', v);
    const zs = Math.abs(c.zscore[1]) < NEARLY_UNCORRELATED ? this.t('describeNearly', v) : this.t('describeKept', v);
    const wh = v.woff === this.fmtCov(0) ? this.t('describeRemoved', v) : this.t('describeReduced', v);
    return [raw, zs, wh].join(this.lang === 'zh' ? '' : ' ');
  }
}
NlWhitening.defineProperties();

// The figure's strings, English and Chinese (t(key); a language added with registerLocale overrides them).
NlWhitening.strings = {
  en: {
    name: 'Z-scoring and ZCA whitening of a correlated point cloud',
    mixing: 'Mixing: feature 2 follows feature 1',
    newSample: 'New sample',
    title_raw: 'raw',
    title_zscore: 'z-scored',
    title_whitened: 'ZCA-whitened',
    covCaption: 'covariance, {name}',
    handle: 'Shape of the cloud: mixing {v}. Up and Down arrows change it.',
    describeRaw: 'Raw covariance: variances {r1} and {r2}, covariance {rc}.',
    describeKept:
      'Z-scoring makes the variances {z1} and {z2} but keeps the correlation {zoff}, so the cloud stays tilted.',
    describeNearly: 'Z-scoring makes the variances {z1} and {z2}; the correlation, {zoff}, is already near 0.',
    describeRemoved: 'ZCA whitening removes the correlation ({woff}) and leaves variances {w1} and {w2}.',
    describeReduced: 'ZCA whitening reduces the correlation to {woff} and leaves variances {w1} and {w2}.',
  },
  zh: {
    name: '相关点云的 z-score 与 ZCA whitening',
    mixing: '混合系数：feature 2 跟随 feature 1',
    newSample: '重新采样',
    title_raw: '原始',
    title_zscore: 'z-score 之后',
    title_whitened: 'ZCA whitening 之后',
    covCaption: 'covariance，{name}',
    handle: '点云形状：mixing {v}。上下方向键可调整。',
    describeRaw: '原始 covariance：variance {r1} 与 {r2}，covariance {rc}。',
    describeKept: 'Z-score 让 variance 变为 {z1} 与 {z2}，但相关系数 {zoff} 仍在，点云依旧倾斜。',
    describeNearly: 'Z-score 让 variance 变为 {z1} 与 {z2}；相关系数 {zoff} 本来就接近 0。',
    describeRemoved: 'ZCA whitening 去掉了相关性（{woff}），variance 为 {w1} 与 {w2}。',
    describeReduced: 'ZCA whitening 把相关系数降到 {woff}，variance 为 {w1} 与 {w2}。',
  },
};
