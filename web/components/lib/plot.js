// Drawing helpers: linear scales from data to pixels, axes, arrows, bars.
// Presentation only — every plotted value comes from the core.
import { el } from './base.js';

/** A linear map from [d0, d1] to [r0, r1]. */
export function scale([d0, d1], [r0, r1]) {
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  return (v) => r0 + (v - d0) * k;
}

/** Horizontal grid lines and labels for `ticks` on a vertical axis. */
export function yAxis(ticks, y, x0, x1, fmt) {
  const g = el('g', { class: 'axis' });
  for (const t of ticks) {
    g.append(el('line', { x1: x0, x2: x1, y1: y(t), y2: y(t) }));
    g.append(el('text', { x: x0 - 5, y: y(t) + 4, 'text-anchor': 'end' }, fmt(t)));
  }
  return g;
}

/** Vertical grid lines and labels for `ticks` on a horizontal axis. */
export function xAxis(ticks, x, y0, y1, fmt) {
  const g = el('g', { class: 'axis' });
  for (const t of ticks) {
    g.append(el('line', { x1: x(t), x2: x(t), y1: y0, y2: y1 }));
    g.append(el('text', { x: x(t), y: y1 + 14, 'text-anchor': 'middle' }, fmt(t)));
  }
  return g;
}

/** An arrow from (x1, y1) to (x2, y2) with a head of `size` pixels. */
export function arrow(x1, y1, x2, y2, cls, size = 8) {
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const ux = (x2 - x1) / len,
    uy = (y2 - y1) / len;
  const hx = x2 - ux * size,
    hy = y2 - uy * size;
  const d =
    `M${x1.toFixed(1)},${y1.toFixed(1)}L${x2.toFixed(1)},${y2.toFixed(1)}` +
    `M${(hx - uy * size * 0.5).toFixed(1)},${(hy + ux * size * 0.5).toFixed(1)}L${x2.toFixed(1)},${y2.toFixed(1)}` +
    `L${(hx + uy * size * 0.5).toFixed(1)},${(hy - ux * size * 0.5).toFixed(1)}`;
  return el('path', { class: `arrow ${cls}`, d });
}

/** A polyline through points [[x, y], ...]. */
export function line(points, cls) {
  return el('path', {
    class: cls,
    d: points.map(([x, y], i) => `${i ? 'L' : 'M'}${x.toFixed(1)},${y.toFixed(1)}`).join(''),
  });
}

/** A bar from the zero line to value v. */
export function bar(x, width, y, v, cls) {
  const top = Math.min(y(v), y(0));
  const r = el('rect', {
    class: cls,
    x: x.toFixed(1),
    width: width.toFixed(1),
    y: top.toFixed(1),
    height: Math.abs(y(v) - y(0)).toFixed(1),
    rx: 2,
  });
  r.dataset.value = String(v);
  return r;
}

/** An <svg> with a viewBox, hidden from assistive technology (the text description speaks for it). */
export function svg(width, height, cls = '', attrs = {}) {
  const node = el('svg', { viewBox: `0 0 ${width} ${height}`, class: cls, 'aria-hidden': 'true', ...attrs });
  // Its height from the start, so that the figure keeps its place before the first drawing
  // (NlFigure.render then keeps it equal to each drawing's viewBox height).
  node.style.height = `${height}px`;
  return node;
}

/**
 * Many dots as one <path> of zero-length round-capped strokes ("Mx,yh0"): one
 * DOM node for a whole cloud instead of one per point, so a drag redraws in
 * well under a millisecond. Style it with stroke, stroke-width (the diameter)
 * and stroke-linecap: round (the `dots` class in figureCss).
 */
export function dots(points, cls) {
  let d = '';
  for (const [x, y] of points) d += `M${x.toFixed(1)},${y.toFixed(1)}h0`;
  return el('path', { class: `dots ${cls}`, d });
}
