// Direct manipulation, shared by the figures whose input is a point or a
// vector: a draggable, focusable handle (mouse, touch, pen, arrow keys), the
// square chart frames those points live in, and a fixed-decimals formatter.
// Presentation only: a handle turns a pointer position into the value it
// controls; every number drawn comes from the core.
import { el, touchSized } from './base.js';
import { numberLocale } from '../../i18n/index.js';
import { scale, xAxis, yAxis } from './plot.js';

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
  const locale = numberLocale(fig.lang);
  const key = `${locale}:${digits}:${min}`;
  let f = fixedFormats.get(key);
  if (!f)
    fixedFormats.set(
      key,
      (f = new Intl.NumberFormat(locale, {
        maximumFractionDigits: digits,
        minimumFractionDigits: min,
        signDisplay: 'negative',
      })),
    );
  return f.format(v);
}

/** Round to the handle's step (a UI grid, like a slider's step) and drop float dust. */
const snap = (v, step) => Number((Math.round(v / step) * step).toFixed(6));

/**
 * Pointer dragging of `node` (mouse, touch, pen), the one implementation every
 * draggable thing uses. At a press, `begin(event)` returns the drag's move
 * function (called with each pointermove of that pointer), or null to leave the
 * press alone. While dragging, the node has focus, the pointer is captured and
 * the node has the class `dragging`; `done(event, cancelled)` runs at release
 * (cancelled false) or at pointercancel (true).
 */
export function onDrag(node, begin, done) {
  let drag = null;
  node.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    const move = begin(e);
    if (!move) return;
    e.preventDefault();
    node.focus({ preventScroll: true });
    try {
      node.setPointerCapture(e.pointerId);
    } catch {
      // a synthetic event has no active pointer to capture; moves over the node still arrive
    }
    drag = { id: e.pointerId, move };
    node.classList.add('dragging');
  });
  node.addEventListener('pointermove', (e) => {
    if (drag && e.pointerId === drag.id) drag.move(e);
  });
  const end = (e, cancelled) => {
    if (!drag || e.pointerId !== drag.id) return;
    drag = null;
    if (node.hasPointerCapture?.(e.pointerId)) node.releasePointerCapture(e.pointerId);
    node.classList.remove('dragging');
    done?.(e, cancelled);
  };
  node.addEventListener('pointerup', (e) => end(e, false));
  node.addEventListener('pointercancel', (e) => end(e, true));
}

/** The invisible hit circle's radius with a mouse on a wide screen, in the svg's units (the dot's is 6.5). */
const HIT_MOUSE = 17;

/**
 * The radius, in `svgEl`'s units, of a hit circle that is at least 44 CSS px across where a finger is the pointer
 * (base.js TOUCH_MEDIA), however far the svg is scaled down to fit a phone; HIT_MOUSE elsewhere. The scale is
 * the svg's laid-out width (measured once per width, fig.widthOf) over its viewBox width.
 */
export function hitRadius(fig, svgEl) {
  if (!touchSized() || !svgEl) return HIT_MOUSE;
  const units = svgEl.viewBox?.baseVal?.width;
  const css = fig.widthOf(svgEl);
  const k = units > 0 && css > 0 ? css / units : 1;
  return Math.max(HIT_MOUSE, 22.5 / k); // half a pixel over 22: 44 px across after rounding
}

/**
 * A focusable point that the reader drags (mouse, touch, pen) or moves with
 * the arrow keys. It lives in its <svg> across redraws (so focus and pointer
 * capture survive); the figure calls place() after each draw with the pixel
 * position and a frame { toValue(px, py) -> [a, b], bounds: [[lo, hi], [lo, hi]] }
 * that turns a pointer position into the value the handle controls.
 *   new DragHandle(figure, { cls, get: () => [a, b], set: ([a, b]) => ..., step, axes: 'xy' | 'x' | 'y' })
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
    this.hit = el('circle', { class: 'hit', r: HIT_MOUSE });
    this.node.append(this.hit, el('circle', { class: 'ring', r: 10 }), el('circle', { class: 'dot', r: 6.5 }));
    onDrag(
      this.node,
      (e) => {
        if (!this.frame) return null;
        const [px, py] = this._userPoint(e);
        const dx = this.px - px,
          dy = this.py - py; // where on the dot it was taken
        fig._dragging = this;
        return (ev) => {
          if (!this.frame) return;
          const [qx, qy] = this._userPoint(ev);
          const [lx, hx] = this.frame.bounds[0],
            [ly, hy] = this.frame.bounds[1];
          const [a, b] = this.frame.toValue(qx + dx, qy + dy);
          const cur = this.get();
          const v = [
            this.axes === 'y' ? cur[0] : Math.min(hx, Math.max(lx, snap(a, this.step))),
            this.axes === 'x' ? cur[1] : Math.min(hy, Math.max(ly, snap(b, this.step))),
          ];
          if (v[0] !== cur[0] || v[1] !== cur[1]) this.set(v);
        };
      },
      () => {
        fig._dragging = null;
        fig.render(); // refit the frame that was held still during the drag
      },
    );
    this.node.addEventListener('keydown', (e) => {
      const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowDown: [0, -1], ArrowUp: [0, 1] };
      const m = moves[e.key];
      if (!m || (this.axes === 'y' && m[1] === 0) || (this.axes === 'x' && m[0] === 0)) return;
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
    this.hit.setAttribute('r', hitRadius(this.fig, this.node.ownerSVGElement).toFixed(1));
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
  const pts = fig.op('linear_map', {
    W: { shape: [2, 2], data: [1.25, 0, 0, 1.25] },
    points: { shape: [flat.length / 2, 2], data: flat },
  });
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

/** A <clipPath> (not among base.el's tags) holding one rectangle; a group draws through it with clip-path: url(#id) (ids are per shadow root). */
export function clipRect(id, x, y, w, h) {
  const ns = 'http://www.w3.org/2000/svg';
  const c = document.createElementNS(ns, 'clipPath');
  c.setAttribute('id', id);
  c.append(el('rect', { x, y, width: w, height: h }));
  return c;
}

/** A square frame over `domain` in an svg of width W: the scales both ways and the axes. */
export function squareFrame(fig, W, domain, ticks, { left = 34, top = 30, right = 10 } = {}) {
  const size = W - left - right;
  const p = scale(domain, [left, left + size]);
  const q = scale(domain, [top + size, top]);
  const f = (v) => fig.fmt(v, 3);
  return {
    p,
    q,
    size,
    height: top + size + 22,
    // the corner's value is read once, on the y axis (two labels there touched)
    axes: [
      xAxis(ticks, p, top, top + size, (v) => (v === domain[0] ? '' : f(v))),
      yAxis(ticks, q, left, left + size, f),
    ],
    pInv: scale([left, left + size], domain),
    qInv: scale([top + size, top], domain),
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
