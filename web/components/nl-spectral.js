// <nl-spectral> — a 2x2 matrix maps the unit circle to an ellipse whose
// longest semi-axis is its spectral norm; power iteration finds that norm step
// by step, and dividing by it leaves an ellipse that fits in the unit circle.
//
// Attributes: matrix ("3,0,0,1", row-major), steps (1; 1..30), lang.
// Properties: matrix, steps; state (read-only): {matrix, steps, sigma, u,
//   singular, normalizedSingular, error}.
// Events: change. Keyboard: the steps slider, "Next step", "Sheared matrix",
//   "Diagonal (3, 1)".
// Parts: figure, controls, slider, number, button, view, description, error.
// Numbers from the core: unit_circle, linear_map, spectral_norm,
// singular_values, film (sigma * u), axis_ticks.
import { el } from './base.js';
import { NlFigure, figureCss } from './figure.js';
import { arrow, line, scale, xAxis, yAxis } from './plot.js';

const vec = NlFigure.vec;

export class NlSpectral extends NlFigure {
  static catalog = 'spectral';
  static params = {
    matrix: { attr: 'matrix', kind: 'vector', length: 4, default: [3, 0, 0, 1] },
    steps: { attr: 'steps', kind: 'number', integer: true, default: 1, min: 1, max: 30, step: 1, control: 'slider' },
  };
  static css = figureCss;

  buildControls(box) {
    super.buildControls(box);
    const set = (m) => () => {
      this._values.matrix = m;
      this._values.steps = 1;
      this._attrErrors.delete('matrix');
      this.reflect('matrix', m.join(','));
      this.reflect('steps', 1);
    };
    box.append(
      this.button('nextStep', () => {
        this._values.steps = Math.min(30, this._values.steps + 1);
        this.reflect('steps', this._values.steps);
      }),
      this.button('presetDiagonal', set([3, 0, 0, 1])),
      this.button('presetSheared', set([2, 1.5, 0.5, 1])),
    );
  }

  buildView(view) {
    this.panels(view, 2, 260, 260);
  }

  compute(core, { matrix, steps }) {
    const W = { shape: [2, 2], data: matrix };
    const circle = core.run('unit_circle', {}, { count: 96 }).points;
    const ellipse = this.op('linear_map', { W, points: circle });
    const sn = core.run('spectral_norm', { W }, { n_power_iterations: steps });
    const sigma = sn.sigma.data[0];
    const u = Array.from(sn.u.data);
    const normalizedW = { shape: [2, 2], data: sn.w.data };
    const normalized = this.op('linear_map', { W: normalizedW, points: circle });
    const estimate = this.op('film', { x: { shape: [1, 2], data: u }, gamma: { shape: [1, 2], data: [sigma, sigma] }, beta: { shape: [1, 2], data: [0, 0] } });
    const all = [...ellipse, 1, -1];
    return {
      circle: Array.from(circle.data), ellipse, normalized, sigma, u, estimate,
      singular: this.op('singular_values', { W }),
      normalizedSingular: this.op('singular_values', { W: normalizedW }),
      ...this.axisFields('domain', 'ticks', all, { symmetric: true, count: 4 }),
      ...this.axisFields('unitDomain', 'unitTicks', [1.2], { symmetric: true, count: 4 }),
    };
  }

  _panel(target, title, domain, ticks, shapes) {
    const W = 260, m = 34;
    const p = scale(domain, [m, W - 12]);
    const q = scale(domain, [W - m, 12]);
    const f = (v) => this.fmt(v, 3);
    const pts = (flat) => {
      const out = [];
      for (let i = 0; i < flat.length; i += 2) out.push([p(flat[i]), q(flat[i + 1])]);
      out.push(out[0]);
      return out;
    };
    const items = [xAxis(ticks, p, 12, W - m, f), yAxis(ticks, q, m, W - 12, f)];
    for (const [flat, cls] of shapes) items.push(line(pts(flat), cls));
    items.push(el('text', { class: 'panel-title', x: m, y: 26 }, title));
    target.replaceChildren(...items);
    return { p, q };
  }

  draw(s) {
    const { p, q } = this._panel(this._svgs[0], this.t('leftTitle'), s.domain, s.ticks, [[s.circle, 'curve ref'], [s.ellipse, 'curve']]);
    this._svgs[0].append(arrow(p(0), q(0), p(s.estimate[0]), q(s.estimate[1]), 'b'));
    this._panel(this._svgs[1], this.t('rightTitle'), s.unitDomain, s.unitTicks, [[s.circle, 'curve ref'], [s.normalized, 'curve c']]);
    this._numbers.textContent = this.t('numbers', {
      steps: s.steps, sigma: this.fmt(s.sigma, 6), top: this.fmt(s.singular[0], 6),
      s: this.fmtList(s.singular), n: this.fmtList(s.normalizedSingular),
    });
  }

  describe(s) {
    return this.t('describe', {
      steps: s.steps, sigma: this.fmt(s.sigma, 5), top: this.fmt(s.singular[0], 5),
      a: this.fmt(s.normalizedSingular[0], 4), b: this.fmt(s.normalizedSingular[1], 4),
    });
  }
}
NlSpectral.defineProperties();
