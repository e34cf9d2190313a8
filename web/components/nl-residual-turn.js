// <nl-residual-turn> — the same update u added to x and to a scaled copy of
// x: the larger the state, the less the update turns its direction.
//
// Attributes: x ("1,0"), u ("0,1"), scale (10; 0.1..20), lang.
// Properties: x, u, scale; state (read-only): {x, u, scale, small: {start,
//   end, angle, domain, ticks}, large: {start, end, angle, domain, ticks},
//   error}.
// Events: change (the reader moved a handle or the slider).
// Pointer: drag the tip of x (blue) or the tip of x + u, which moves u
//   (violet), in the left panel; mouse and touch.
// Keyboard: the scale slider; the two handles are focusable: arrow keys move
//   them by 0.1, Shift + arrow by 1.
// Colours: x and k·x --nl-input, u --nl-update, the result x + u --nl-fg
//   (solid foreground: "the result" in the geometry figures).
// Words: the angle reads with at most 2 decimals everywhere (titles,
//   description). The description calls two angles equal when they read the
//   same; it says "only" when the second angle is smaller than the first and
//   below 10° (ONLY_BELOW), "less"/"more" otherwise; an angle that reads 0 is
//   "does not turn".
// Parts: figure, controls, slider, number, view, description, error.
// Numbers from the core: film (k·x), gated_residual (x + u), angle_between,
// linear_map (the 25 % margin around the points), axis_ticks.
//
// This file also exports the draggable point (DragHandle, handleCss) and the
// padded chart frame (paddedAxis) that the other geometry figures
// (nl-l2-jacobian, nl-spectral, nl-whitening) share; they belong in
// figure.js once the lead moves them there.
import { el } from './base.js';
import { NlFigure, figureCss } from './figure.js';
import { arrow, scale, xAxis, yAxis } from './plot.js';

const vec = NlFigure.vec;

/** "only" describes a turn below this many degrees (and smaller than the other one). */
export const ONLY_BELOW = 10;

/** Styles of DragHandle and of the square chart panels. */
export const handleCss = `
.geo-panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(220px, 280px)); gap: 10px; justify-content: center; }
.handle { cursor: grab; touch-action: none; outline: none; }
.handle.dragging { cursor: grabbing; }
.handle .hit { fill: transparent; }
.handle .dot { stroke: var(--nl-bg); stroke-width: 2; }
.handle .ring { fill: none; stroke: none; }
.handle:focus-visible .ring, .handle.dragging .ring { stroke: var(--nl-focus); stroke-width: 2.5; }
.handle.input .dot { fill: var(--nl-input); }
.handle.update .dot { fill: var(--nl-update); }
.handle.result .dot { fill: var(--nl-fg); }
.arrow.input { stroke: var(--nl-input); } .arrow.update { stroke: var(--nl-update); }
.arrow.result { stroke: var(--nl-fg); } .arrow.l2 { stroke: var(--nl-l2); }
.arrow.update.part { stroke-dasharray: 5 3; }
.arrow.ref { stroke: var(--nl-reference); stroke-dasharray: 5 4; }
.curve.ref { stroke: var(--nl-reference); stroke-dasharray: 4 3; }
.curve.input { stroke: var(--nl-input); } .curve.result { stroke: var(--nl-fg); }
.guide { stroke: var(--nl-reference); stroke-dasharray: 2 3; fill: none; }
.label.input { fill: var(--nl-input); } .label.update { fill: var(--nl-update); } .label.l2 { fill: var(--nl-l2); }
.label.result { fill: var(--nl-fg); } .label.ref { fill: var(--nl-reference); }
.label { font-size: var(--nl-label-size); paint-order: stroke; stroke: var(--nl-bg); stroke-width: 3px; stroke-linejoin: round; }
.readout { font-variant-numeric: tabular-nums; font-size: 0.9em; margin: 6px 0 0; }
`;

// Formatters with a fixed number of decimals (the base's fmt counts significant
// digits): one per locale and digits, made once.
const fixedFormats = new Map();
/** `v` with at most `digits` decimals in the figure's locale; never "-0". */
export function fmtFixed(fig, v, digits, min = 0) {
  const locale = fig.lang === 'zh' ? 'zh-CN' : 'en-US';
  const key = `${locale}:${digits}:${min}`;
  let f = fixedFormats.get(key);
  if (!f) fixedFormats.set(key, (f = new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: min, signDisplay: 'negative' })));
  return f.format(v);
}

/** Round to the handle's step (a UI grid, like a slider's step) and drop float dust. */
const snap = (v, step) => Number((Math.round(v / step) * step).toFixed(6));

/**
 * A focusable point that the reader drags (mouse, touch, pen) or moves with
 * the arrow keys. It lives in its <svg> across redraws (so focus and pointer
 * capture survive); the figure calls place() after each draw with the pixel
 * position and a frame { toValue(px, py) -> [a, b], bounds: [[lo, hi], [lo, hi]] }
 * that turns a pointer position into the value the handle controls.
 *   new DragHandle(figure, { cls, get: () => [a, b], set: ([a, b]) => ..., step, axes: 'xy' | 'y' })
 */
export class DragHandle {
  constructor(fig, { cls, get, set, step = 0.1, axes = 'xy' }) {
    this.fig = fig;
    this.get = get;
    this.set = set;
    this.step = step;
    this.axes = axes;
    this.frame = null;
    this.node = el('g', { class: `handle ${cls}`, tabindex: 0, role: 'application' });
    this.node.append(el('circle', { class: 'hit', r: 17 }), el('circle', { class: 'ring', r: 10 }), el('circle', { class: 'dot', r: 6.5 }));
    let drag = null;
    this.node.addEventListener('pointerdown', (e) => {
      if (!this.frame || (e.pointerType === 'mouse' && e.button !== 0)) return;
      e.preventDefault();
      this.node.focus({ preventScroll: true });
      const [px, py] = this._userPoint(e);
      drag = { id: e.pointerId, dx: this.px - px, dy: this.py - py };
      this.node.setPointerCapture?.(e.pointerId);
      this.node.classList.add('dragging');
      fig._dragging = this;
    });
    this.node.addEventListener('pointermove', (e) => {
      if (!drag || e.pointerId !== drag.id || !this.frame) return;
      const [px, py] = this._userPoint(e);
      const [lx, hx] = this.frame.bounds[0], [ly, hy] = this.frame.bounds[1];
      const [a, b] = this.frame.toValue(px + drag.dx, py + drag.dy);
      const cur = this.get();
      const v = [
        this.axes === 'y' ? cur[0] : Math.min(hx, Math.max(lx, snap(a, this.step))),
        Math.min(hy, Math.max(ly, snap(b, this.step))),
      ];
      if (v[0] !== cur[0] || v[1] !== cur[1]) this.set(v);
    });
    const end = (e) => {
      if (!drag || e.pointerId !== drag.id) return;
      drag = null;
      this.node.releasePointerCapture?.(e.pointerId);
      this.node.classList.remove('dragging');
      fig._dragging = null;
      fig.render(); // refit the frame that was held still during the drag
    };
    this.node.addEventListener('pointerup', end);
    this.node.addEventListener('pointercancel', end);
    this.node.addEventListener('keydown', (e) => {
      const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowDown: [0, -1], ArrowUp: [0, 1] };
      const m = moves[e.key];
      if (!m || (this.axes === 'y' && m[1] === 0)) return;
      e.preventDefault();
      const k = e.shiftKey ? 10 : 1;
      const cur = this.get();
      this.set([snap(cur[0] + m[0] * k * this.step, this.step), snap(cur[1] + m[1] * k * this.step, this.step)]);
    });
  }

  _userPoint(e) {
    const svgEl = this.node.ownerSVGElement;
    const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(svgEl.getScreenCTM().inverse());
    return [pt.x, pt.y];
  }

  /** Put the handle at pixel (px, py), with the frame of the last drawing and its spoken label. */
  place(px, py, frame, label) {
    this.px = px;
    this.py = py;
    this.frame = frame;
    this.node.setAttribute('transform', `translate(${px.toFixed(1)},${py.toFixed(1)})`);
    this.node.setAttribute('aria-label', label);
  }
}

/**
 * A square chart frame for 2-D points: a nice symmetric axis (axis_ticks)
 * that covers the points with a 25 % margin (the core scales them by 1.25),
 * so a dragged point always has room to move outward.
 */
export function paddedAxis(fig, flat, attrs = {}) {
  const pts = fig.op('linear_map', { W: { shape: [2, 2], data: [1.25, 0, 0, 1.25] }, points: { shape: [flat.length / 2, 2], data: flat } });
  const a = fig.axis([...flat, ...pts], { symmetric: true, count: 4, ...attrs });
  return a;
}

/** A square svg panel whose drawing sits in an aria-hidden group, with room for handles after it. */
export function chartPanel(cls = '') {
  const s = el('svg', { class: cls, viewBox: '0 0 300 300' });
  const plot = el('g', { class: 'plot', 'aria-hidden': 'true' });
  s.append(plot);
  return { svg: s, plot };
}

/** A square frame over `domain` in an svg of width W: the scales both ways and the axes. */
export function squareFrame(fig, W, domain, ticks, { left = 34, top = 30, right = 10 } = {}) {
  const size = W - left - right;
  const p = scale(domain, [left, left + size]);
  const q = scale(domain, [top + size, top]);
  const f = (v) => fig.fmt(v, 3);
  return {
    p, q, size, height: top + size + 22,
    axes: [xAxis(ticks, p, top, top + size, f), yAxis(ticks, q, left, left + size, f)],
    pInv: scale([left, left + size], domain), qInv: scale([top + size, top], domain),
    bounds: [domain, domain],
  };
}

/** fit() for a square chart: the svg's width W, and a viewBox W wide and as tall as the square needs. */
export function fitSquare(fig, svgEl, ideal, margins) {
  const W = fig.fit(svgEl, ideal, ideal);
  const h = W - (margins?.left ?? 34) - (margins?.right ?? 10) + (margins?.top ?? 30) + 22;
  svgEl.setAttribute('viewBox', `0 0 ${W} ${h}`);
  return W;
}

export class NlResidualTurn extends NlFigure {
  static catalog = 'residualTurn';
  static params = {
    x: { attr: 'x', kind: 'vector', length: 2, default: [1, 0] },
    u: { attr: 'u', kind: 'vector', length: 2, default: [0, 1] },
    scale: { attr: 'scale', kind: 'number', default: 10, min: 0.1, max: 20, step: 0.1, control: 'slider' },
  };
  static css = figureCss + handleCss;

  buildView(view) {
    const box = el('div', { class: 'geo-panels' });
    this._panels = [chartPanel('small'), chartPanel('large')];
    box.append(...this._panels.map((c) => c.svg));
    view.append(box);
    this._hx = new DragHandle(this, { cls: 'input', get: () => this._values.x, set: (v) => this.setByUser('x', v) });
    this._hu = new DragHandle(this, { cls: 'update', get: () => this._values.u, set: (v) => this.setByUser('u', v) });
    this._panels[0].svg.append(this._hx.node, this._hu.node);
  }

  _case(x, u) {
    const end = this.op('gated_residual', { x: { shape: [1, 1, 2], data: x }, update: { shape: [1, 1, 2], data: u }, gate: vec([1]) });
    const angle = this.op('angle_between', { a: vec(x), b: vec(end) })[0];
    const { domain, ticks } = paddedAxis(this, [...x, ...end]);
    return { start: x, end, angle, domain, ticks };
  }

  compute(core, { x, u, scale: k }) {
    const big = this.op('film', { x: { shape: [1, 2], data: x }, gamma: { shape: [1, 2], data: [k, k] }, beta: { shape: [1, 2], data: [0, 0] } });
    return { small: this._case(x, u), large: this._case(big, u) };
  }

  /** One formatter per quantity. */
  fmtAngle(v) {
    return fmtFixed(this, v, 2);
  }

  draw(s) {
    [s.small, s.large].forEach((c, k) => {
      const panel = this._panels[k];
      const W = fitSquare(this, panel.svg, 300);
      // While a handle is dragged its panel keeps its frame, so the point stays under the pointer.
      const held = this._dragging && k === 0 && this._frame0;
      const fr = held || squareFrame(this, W, c.domain, c.ticks);
      if (k === 0) this._frame0 = fr;
      const { p, q } = fr;
      const items = [...fr.axes];
      items.push(arrow(p(0), q(0), p(c.start[0]), q(c.start[1]), 'input'));
      items.push(arrow(p(c.start[0]), q(c.start[1]), p(c.end[0]), q(c.end[1]), 'update'));
      items.push(arrow(p(0), q(0), p(c.end[0]), q(c.end[1]), 'result'));
      const xName = k === 0 ? 'x' : `${this.fmt(s.scale)}·x`;
      items.push(
        el('text', { class: 'label input', x: (p(0) + p(c.start[0])) / 2, y: (q(0) + q(c.start[1])) / 2 + 16, 'text-anchor': 'middle' }, xName),
        el('text', { class: 'label update', x: p(c.end[0]) + 12, y: (q(c.start[1]) + q(c.end[1])) / 2 + 4 }, 'u'),
      );
      const title = k === 0 ? this.t('smallTitle') : this.t('largeTitle', { scale: this.fmt(s.scale) });
      items.push(el('text', { class: 'panel-title', x: fr.p(c.domain[0]), y: 18 }, this.t('panelTitle', { title, angle: this.fmtAngle(c.angle) })));
      panel.plot.replaceChildren(...items);
      if (k === 0) {
        const toX = { toValue: (px, py) => [fr.pInv(px), fr.qInv(py)], bounds: fr.bounds };
        this._hx.place(p(c.start[0]), q(c.start[1]), toX, this.t('handleX', { v: this.fmtList(s.x) }));
        // the tip of x + u moves u: the pointer's point minus x
        const toU = { toValue: (px, py) => [fr.pInv(px) - s.x[0], fr.qInv(py) - s.x[1]],
          bounds: [[fr.bounds[0][0] - s.x[0], fr.bounds[0][1] - s.x[0]], [fr.bounds[1][0] - s.x[1], fr.bounds[1][1] - s.x[1]]] };
        this._hu.place(p(c.end[0]), q(c.end[1]), toU, this.t('handleU', { v: this.fmtList(s.u) }));
      }
    });
  }

  describe(s) {
    const a = this.fmtAngle(s.small.angle), b = this.fmtAngle(s.large.angle);
    const vars = { u: this.fmtList(s.u), x: this.fmtList(s.small.start), a, big: this.fmtList(s.large.start), b, limit: ONLY_BELOW };
    const first = a === this.fmtAngle(0) ? this.t('noTurn', vars) : this.t('turn', vars);
    let second;
    if (a === b) second = this.t('same', vars);
    else if (s.large.angle < s.small.angle) second = s.large.angle < ONLY_BELOW ? this.t('only', vars) : this.t('less', vars);
    else second = this.t('more', vars);
    return [first, second].join(this.lang === 'zh' ? '' : ' ');
  }
}
NlResidualTurn.defineProperties();
