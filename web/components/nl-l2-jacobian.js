// <nl-l2-jacobian> — a small change delta of x splits into a part along x,
// which L2 normalization removes, and a part across x, which it keeps
// (divided by |x|): J delta with J = (I - u u^T) / |x|.
//
// Attributes: x ("3,4"), delta ("1,0"), lang.
// Properties: x, delta; state (read-only): {x, delta, u, along, across, dy,
//   moved, error}.
// Events: change. Keyboard: sliders for the two components of delta.
// Parts: figure, controls, slider, view, description, error.
// Numbers from the core: split_perturbation (along, across, J delta),
// l2_normalize, gated_residual (x + delta), axis_ticks.
import { el } from './base.js';
import { NlFigure, figureCss } from './figure.js';
import { arrow, line, scale, xAxis, yAxis } from './plot.js';

const vec = NlFigure.vec;

export class NlL2Jacobian extends NlFigure {
  static catalog = 'l2Jacobian';
  static params = {
    x: { attr: 'x', kind: 'vector', length: 2, default: [3, 4] },
    delta: { attr: 'delta', kind: 'vector', length: 2, default: [1, 0] },
  };
  static css = figureCss;

  buildControls(box) {
    this._parts = [0, 1].map((i) => {
      const label = el('label', { class: 'control' });
      const text = el('span');
      const range = el('input', { type: 'range', min: -3, max: 3, step: 0.1, part: 'slider' });
      const out = el('output');
      range.addEventListener('input', () => {
        const v = [...this._values.delta];
        v[i] = Number(range.value);
        this.setByUser('delta', v);
      });
      label.append(text, range, out);
      box.append(label);
      return { i, text, range, out };
    });
  }

  languageChanged() {
    for (const p of this._parts) {
      p.text.textContent = this.t('deltaPart', { i: p.i + 1 });
      p.range.setAttribute('aria-label', this.t('deltaPart', { i: p.i + 1 }));
    }
  }

  _syncControls() {
    super._syncControls();
    for (const p of this._parts) {
      p.range.value = String(this._values.delta[p.i]);
      p.out.textContent = this.fmt(this._values.delta[p.i]);
    }
  }

  buildView(view) {
    this.panels(view, 2, 260, 260);
  }

  compute(core, { x, delta }) {
    const split = core.run('split_perturbation', { x: vec(x), delta: vec(delta) });
    const along = Array.from(split.along.data), across = Array.from(split.across.data), dy = Array.from(split.dy.data);
    const u = this.op('l2_normalize', { x: vec(x) });
    const add = (a, b) => this.op('gated_residual', { x: { shape: [1, 1, 2], data: a }, update: { shape: [1, 1, 2], data: b }, gate: vec([1]) });
    const tip = add(x, delta), alongTip = add(x, along), uMoved = add(u, dy);
    const moved = this.op('l2_normalize', { x: vec(tip) });
    const all = [0, ...x, ...tip, ...alongTip];
    return {
      u, along, across, dy, tip, alongTip, uMoved, moved,
      ...this.axisFields('domain', 'ticks', all, { symmetric: true, count: 3 }),
      ...this.axisFields('unitDomain', 'unitTicks', [1.3], { symmetric: true, count: 4 }),
      circle: Array.from(core.run('unit_circle', {}, { count: 96 }).points.data),
    };
  }

  _frame(target, domain, ticks, title) {
    const W = 260, m = 34;
    const p = scale(domain, [m, W - 12]);
    const q = scale(domain, [W - m, 12]);
    const f = (v) => this.fmt(v, 3);
    target.replaceChildren(xAxis(ticks, p, 12, W - m, f), yAxis(ticks, q, m, W - 12, f), el('text', { class: 'panel-title', x: m, y: 26 }, title));
    return { p, q };
  }

  draw(s) {
    let { p, q } = this._frame(this._svgs[0], s.domain, s.ticks, this.t('leftTitle'));
    this._svgs[0].append(
      arrow(p(0), q(0), p(s.x[0]), q(s.x[1]), 'a'),
      arrow(p(s.x[0]), q(s.x[1]), p(s.alongTip[0]), q(s.alongTip[1]), 'ref'),
      arrow(p(s.alongTip[0]), q(s.alongTip[1]), p(s.tip[0]), q(s.tip[1]), 'c'),
      arrow(p(s.x[0]), q(s.x[1]), p(s.tip[0]), q(s.tip[1]), 'b', 6),
    );
    ({ p, q } = this._frame(this._svgs[1], s.unitDomain, s.unitTicks, this.t('rightTitle')));
    const circle = [];
    for (let i = 0; i < s.circle.length; i += 2) circle.push([p(s.circle[i]), q(s.circle[i + 1])]);
    circle.push(circle[0]);
    this._svgs[1].append(
      line(circle, 'curve ref'),
      arrow(p(0), q(0), p(s.u[0]), q(s.u[1]), 'a'),
      arrow(p(s.u[0]), q(s.u[1]), p(s.uMoved[0]), q(s.uMoved[1]), 'c'),
      el('circle', { class: 'marker', cx: p(s.moved[0]), cy: q(s.moved[1]), r: 4 }),
    );
    this._numbers.textContent = this.t('numbers', {
      along: this.fmtList(s.along, 3), across: this.fmtList(s.across, 3), dy: this.fmtList(s.dy, 3), moved: this.fmtList(s.moved, 4),
    });
  }

  describe(s) {
    return this.t('describe', {
      delta: this.fmtList(s.delta), x: this.fmtList(s.x), along: this.fmtList(s.along, 3),
      across: this.fmtList(s.across, 3), dy: this.fmtList(s.dy, 3),
    });
  }
}
NlL2Jacobian.defineProperties();
