// <nl-residual-turn> — the same update u added to x and to a scaled copy of
// x: the larger the state, the less the update turns its direction.
//
// Attributes: x ("1,0"), u ("0,1"), scale (10; 0.1..20), lang.
// Properties: x, u, scale; state (read-only): {x, u, scale, small: {start,
//   end, angle}, large: {start, end, angle}, error}.
// Events: change. Keyboard: the scale slider. CSS: --nl-a (x), --nl-c (u),
//   --nl-b (x + u). Parts: figure, controls, slider, number, view, description, error.
// Numbers from the core: film (scaling x), gated_residual (x + u),
// angle_between, axis_ticks.
import { el } from './base.js';
import { NlFigure, figureCss } from './figure.js';
import { arrow, scale, xAxis, yAxis } from './plot.js';

const vec = NlFigure.vec;

export class NlResidualTurn extends NlFigure {
  static catalog = 'residualTurn';
  static params = {
    x: { attr: 'x', kind: 'vector', length: 2, default: [1, 0] },
    u: { attr: 'u', kind: 'vector', length: 2, default: [0, 1] },
    scale: { attr: 'scale', kind: 'number', default: 10, min: 0.1, max: 20, step: 0.1, control: 'slider' },
  };
  static css = figureCss;

  buildView(view) {
    this.panels(view, 2, 260, 260, false);
  }

  _case(core, x, u) {
    const end = this.op('gated_residual', { x: { shape: [1, 1, 2], data: x }, update: { shape: [1, 1, 2], data: u }, gate: vec([1]) });
    const angle = this.op('angle_between', { a: vec(x), b: vec(end) })[0];
    const all = [0, ...x, ...end];
    const domain = this.op('axis_ticks', { x: vec(all) }, { count: 4 }, 'domain');
    const ticks = this.op('axis_ticks', { x: vec(all) }, { count: 4 }, 'ticks');
    return { start: x, end, angle, domain, ticks };
  }

  compute(core, { x, u, scale: k }) {
    const big = this.op('film', { x: { shape: [1, 2], data: x }, gamma: { shape: [1, 2], data: [k, k] }, beta: { shape: [1, 2], data: [0, 0] } });
    return { small: this._case(core, x, u), large: this._case(core, big, u) };
  }

  draw(s) {
    [s.small, s.large].forEach((c, k) => {
      const W = 260, m = 34;
      const p = scale(c.domain, [m, W - 12]);
      const q = scale(c.domain, [W - m, 12]);
      const f = (v) => this.fmt(v, 3);
      const items = [xAxis(c.ticks, p, 12, W - m, f), yAxis(c.ticks, q, m, W - 12, f)];
      items.push(arrow(p(0), q(0), p(c.start[0]), q(c.start[1]), 'a'));
      items.push(arrow(p(c.start[0]), q(c.start[1]), p(c.end[0]), q(c.end[1]), 'c'));
      items.push(arrow(p(0), q(0), p(c.end[0]), q(c.end[1]), 'b'));
      const title = k === 0 ? this.t('smallTitle') : this.t('largeTitle', { scale: this.fmt(s.scale) });
      items.push(el('text', { class: 'panel-title', x: m, y: 24 }, `${title}: ${this.fmt(c.angle, 3)}°`));
      this._svgs[k].replaceChildren(...items);
    });
  }

  describe(s) {
    return this.t('describe', {
      u: this.fmtList(s.u), x: this.fmtList(s.small.start), a: this.fmt(s.small.angle, 3),
      big: this.fmtList(s.large.start), b: this.fmt(s.large.angle, 3),
    });
  }
}
NlResidualTurn.defineProperties();
