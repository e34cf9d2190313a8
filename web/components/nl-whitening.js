// <nl-whitening> — a correlated 2-D point cloud, z-scored (each feature to
// mean 0 and std 1, correlation kept) and ZCA-whitened (covariance = I).
//
// Attributes: mixing (0.8; -1.5..1.5, how much feature 2 follows feature 1),
//   count (300; 10..2000), seed (1), lang.
// Properties: the same; state (read-only): {mixing, count, seed, covariance:
//   {raw, zscore, whitened}, mean, std, error}.
// Events: change. Keyboard: the mixing slider, "New sample".
// Parts: figure, controls, slider, number, button, view, description, error.
// Numbers from the core: random_normal, linear_map, film, z_score_fit,
// z_score_apply, whiten, covariance, axis_ticks.
import { el } from './base.js';
import { NlFigure, figureCss } from './figure.js';
import { dots, scale, svg, xAxis, yAxis } from './plot.js';

const vec = NlFigure.vec;

export class NlWhitening extends NlFigure {
  static catalog = 'whitening';
  static params = {
    mixing: { attr: 'mixing', kind: 'number', default: 0.8, min: -1.5, max: 1.5, step: 0.05, control: 'slider' },
    count: { attr: 'count', kind: 'number', integer: true, default: 300, min: 10, max: 2000 },
    seed: { attr: 'seed', kind: 'number', integer: true, default: 1, min: 0, max: 1e9 },
  };
  static css = figureCss + `
.cloud.raw .dots { stroke: var(--nl-a); } .cloud.zscore .dots { stroke: var(--nl-b); } .cloud.whitened .dots { stroke: var(--nl-c); }
.cov { display: grid; grid-template-columns: repeat(auto-fit, minmax(220px, 1fr)); gap: 10px; font-size: 0.85em; }
.cov table { margin: 0 auto; }
.cov caption { color: var(--nl-muted); white-space: nowrap; }
.cov td { min-width: 5em; }
`;

  buildControls(box) {
    super.buildControls(box);
    box.append(this.button('newSample', () => {
      this._values.seed += 1;
      this.reflect('seed', this._values.seed);
    }));
  }

  buildView(view) {
    const panels = el('div', { class: 'panels' });
    this._svgs = ['raw', 'zscore', 'whitened'].map((k) => svg(240, 240, `cloud ${k}`));
    panels.append(...this._svgs);
    this._cov = el('div', { class: 'cov' });
    view.append(panels, this._cov);
  }

  compute(core, { mixing, count, seed }) {
    // The sample depends on count and seed only: moving the mixing slider reuses it.
    if (this._sample?.key !== `${count}:${seed}`) {
      this._sample = { key: `${count}:${seed}`, z: core.run('random_normal', {}, { shape: [count, 2], seed }).x };
    }
    const z = this._sample.z;
    const mixed = core.run('linear_map', { W: { shape: [2, 2], data: [2, 0, mixing * 2, 0.6] }, points: z }).y;
    const shift = { shape: [count, 2], data: new Array(count).fill([3, -1]).flat() };
    const ones = { shape: [count, 2], data: new Array(count * 2).fill(1) };
    const raw = core.run('film', { x: mixed, gamma: ones, beta: shift }).y;
    const fit = core.run('z_score_fit', { x: raw });
    const zs = core.run('z_score_apply', { x: raw, mean: fit.mean, std: fit.std }).y;
    const wh = core.run('whiten', { x: raw }, { eps: 1e-5 });
    const cov = (t) => Array.from(core.run('covariance', { x: t }).cov.data);
    const axis = (data, symmetric) => this.axis(data, { symmetric, include_zero: symmetric });
    const std = new Float32Array(zs.data.length + wh.z.data.length);
    std.set(zs.data);
    std.set(wh.z.data, zs.data.length);
    return {
      points: { raw: Array.from(raw.data), zscore: Array.from(zs.data), whitened: Array.from(wh.z.data) },
      covariance: { raw: cov(raw), zscore: cov(zs), whitened: cov(wh.z) },
      mean: Array.from(fit.mean.data), std: Array.from(fit.std.data),
      axes: { raw: axis(raw.data, false), unit: axis(std, true) },
    };
  }

  draw(s) {
    const W = 240, m = 30;
    const f = (v) => this.fmt(v, 3);
    ['raw', 'zscore', 'whitened'].forEach((k, i) => {
      const axis = k === 'raw' ? s.axes.raw : s.axes.unit;
      const p = scale(axis.domain, [m, W - 8]);
      const q = scale(axis.domain, [W - m, 8]);
      const items = [xAxis(axis.ticks, p, 8, W - m, f), yAxis(axis.ticks, q, m, W - 8, f)];
      const pts = s.points[k];
      const xy = [];
      for (let j = 0; j < pts.length; j += 2) xy.push([p(pts[j]), q(pts[j + 1])]);
      items.push(dots(xy, k));
      items.push(el('text', { class: 'panel-title', x: m + 4, y: 22 }, this.t(`title_${k}`)));
      this._svgs[i].replaceChildren(...items);
    });
    this._cov.replaceChildren(...['raw', 'zscore', 'whitened'].map((k) => {
      const c = s.covariance[k];
      const table = el('table');
      table.append(el('caption', {}, this.t('covCaption', { name: this.t(`title_${k}`) })));
      for (const r of [0, 1]) {
        const tr = el('tr');
        tr.append(el('td', {}, f(c[2 * r])), el('td', {}, f(c[2 * r + 1])));
        table.append(tr);
      }
      return table;
    }));
  }

  describe(s) {
    const c = s.covariance;
    return this.t('describe', {
      raw: `${this.fmt(c.raw[0], 3)}, ${this.fmt(c.raw[1], 3)}, ${this.fmt(c.raw[3], 3)}`,
      zoff: this.fmt(c.zscore[1], 3), woff: this.fmt(c.whitened[1], 2), wd: `${this.fmt(c.whitened[0], 4)}, ${this.fmt(c.whitened[3], 4)}`,
    });
  }
}
NlWhitening.defineProperties();
