// <nl-softmax-sharpness> — scores multiplied by a common factor (the query
// scale): the preferred key stays, the selection sharpens. With two keys the
// first weight is a sigmoid of the score gap, drawn as a curve that flattens.
//
// Attributes: scores ("1,0"; two or more numbers), factor (1; 0..20), lang.
// Properties: scores, factor; state (read-only): {scores, factor, scaled,
//   weights, reference, top, gap, curve: {gaps, weights} | null, error}.
// Events: change. Keyboard: the factor slider; buttons set factor 1 and 10.
// CSS custom properties: --nl-a, --nl-b, --nl-reference and the shared --nl-*.
// Parts: figure, controls, slider, number, button, view, description, error.
// Numbers from the core: film (the scaling), softmax, linear_map (the gap),
// linspace and axis_ticks.
import { el } from './base.js';
import { NlFigure, figureCss } from './figure.js';
import { bar, line, scale, xAxis, yAxis } from './plot.js';

const vec = NlFigure.vec;

export class NlSoftmaxSharpness extends NlFigure {
  static catalog = 'softmaxSharpness';
  static params = {
    scores: { attr: 'scores', kind: 'vector', minLength: 2, default: [1, 0] },
    factor: { attr: 'factor', kind: 'number', default: 1, min: 0, max: 20, step: 0.1, control: 'slider' },
  };
  static css = figureCss;

  buildControls(box) {
    super.buildControls(box);
    box.append(this.button('factor1', () => this._set('factor', 1)), this.button('factor10', () => this._set('factor', 10)));
  }

  _set(key, v) {
    this._values[key] = v;
    this.reflect(this.constructor.params[key].attr, v);
  }

  buildView(view) {
    [this._barsSvg, this._curveSvg] = this.panels(view, 2, 320, 210);
  }

  compute(core, { scores, factor }) {
    const n = scores.length;
    const row = (a) => ({ shape: [1, n], data: a });
    const scaled = this.op('film', { x: row(scores), gamma: row(new Array(n).fill(factor)), beta: row(new Array(n).fill(0)) });
    const weights = this.op('softmax', { x: vec(scaled) });
    const reference = this.op('softmax', { x: vec(scores) });
    const top = weights.indexOf(Math.max(...weights));
    const unit = this.op('axis_ticks', { x: vec([0, 1]) }, { count: 2 }, 'ticks');
    let gap = null, curve = null;
    if (n === 2) {
      gap = this.op('linear_map', { W: { shape: [1, 2], data: [factor, -factor] }, points: { shape: [1, 2], data: scores } })[0];
      const dom = this.op('axis_ticks', { x: vec([gap, 8]) }, { symmetric: true, count: 4 }, 'domain');
      const ticks = this.op('axis_ticks', { x: vec([gap, 8]) }, { symmetric: true, count: 4 }, 'ticks');
      const gaps = this.op('linspace', {}, { start: dom[0], stop: dom[1], count: 121 });
      const w = this.op('softmax', { x: { shape: [gaps.length, 2], data: gaps.flatMap((g) => [g, 0]) } });
      curve = { gaps, weights: w.filter((_, i) => i % 2 === 0), domain: dom, ticks };
    }
    return { scaled, weights, reference, top, gap, curve, unitTicks: unit };
  }

  draw(s) {
    const f = (v) => this.fmt(v, 3);
    // weights per key: gray at factor 1, colored now
    const W = 320, H = 210, m = { l: 40, r: 10, t: 22, b: 30 };
    const y = scale([0, 1], [H - m.b, m.t]);
    const n = s.weights.length;
    const gw = (W - m.l - m.r) / n, bw = Math.min(26, gw * 0.36);
    const bars = [el('text', { class: 'panel-title', x: m.l, y: 14 }, this.t('weightsTitle')), yAxis(s.unitTicks, y, m.l, W - m.r, f)];
    s.weights.forEach((w, i) => {
      const cx = m.l + gw * (i + 0.5);
      bars.push(bar(cx - bw - 1, bw, y, s.reference[i], 'bar-ref'), bar(cx + 1, bw, y, w, i === s.top ? 'bar-b' : 'bar-a'));
      bars.push(el('text', { class: 'tick', x: cx, y: H - 12, 'text-anchor': 'middle' }, this.t('key', { i: i + 1 })));
    });
    this._barsSvg.replaceChildren(...bars);
    // two keys: weight of key 1 against the gap
    const curve = [el('text', { class: 'panel-title', x: m.l, y: 14 }, this.t('curveTitle'))];
    if (s.curve) {
      const x = scale(s.curve.domain, [m.l, W - m.r]);
      curve.push(yAxis(s.unitTicks, y, m.l, W - m.r, f), xAxis(s.curve.ticks, x, m.t, H - m.b, f));
      curve.push(line(s.curve.gaps.map((g, i) => [x(g), y(s.curve.weights[i])]), 'curve'));
      curve.push(el('circle', { class: 'marker', cx: x(s.gap), cy: y(s.weights[0]), r: 6 }));
    } else curve.push(el('text', { class: 'tick', x: m.l, y: 60 }, this.t('curveTwoKeys')));
    this._curveSvg.replaceChildren(...curve);
    this._numbers.textContent = this.t('numbers', { scaled: this.fmtList(s.scaled), weights: this.fmtList(s.weights, 5) });
  }

  describe(s) {
    const text = this.t('describe', {
      factor: this.fmt(s.factor),
      key: s.top + 1,
      from: this.fmt(s.reference[s.top], 4),
      to: this.fmt(s.weights[s.top], 5),
    });
    return s.gap === null ? text : `${text} ${this.t('describeGap', { gap: this.fmt(s.gap, 4) })}`;
  }
}
NlSoftmaxSharpness.defineProperties();
