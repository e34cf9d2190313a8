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
// The second panel repeats its tip in a strip below its chart, magnified when
//   u is drawn shorter than 24 px (a long k·x), so that no inset covers its
//   grid; the first panel (a short x) needs one only when x is dragged long,
//   and then has it in the corner farthest from the arrows.
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
import { el } from '../lib/base.js';
import { NlFigure, figureCss } from '../lib/figure.js';
import { arrow } from '../lib/plot.js';
import {
  DragHandle,
  chartPanel,
  clipRect,
  fitSquare,
  fmtFixed,
  handleCss,
  paddedAxis,
  squareFrame,
} from '../lib/handles.js';

const vec = NlFigure.vec;

/** "only" describes a turn below this many degrees (and smaller than the other one). */
export const ONLY_BELOW = 10;
/** Below this many pixels u is shown again, magnified, in an inset. */
const MAGNIFY_BELOW = 24;

export class NlResidualTurn extends NlFigure {
  static catalog = 'residualTurn';
  static summary = 'The angle one residual update turns a state by, for a short and a long state.';
  static minHeight = 471; // px kept by normlab/styles.css (measured at 960 px, default attributes)
  static phoneMinHeight = { en: 827, zh: 827 }; // px kept up to 600 px wide (measured at 360 px, default attributes)
  static stateDoc = '`small`/`large`: `{start, end, angle}` (degrees)'; // `state` keys beyond the attributes (README)
  static params = {
    x: { attr: 'x', kind: 'vector', length: 2, default: [1, 0], doc: 'the state x (draggable)' },
    u: { attr: 'u', kind: 'vector', length: 2, default: [0, 1], doc: 'the update u (draggable)' },
    scale: {
      attr: 'scale',
      kind: 'number',
      default: 10,
      min: 0.1,
      max: 20,
      step: 0.1,
      control: 'slider',
      doc: 'how many times longer the long state is',
    },
  };
  static css =
    figureCss +
    handleCss +
    `
.inset-frame { fill: var(--nl-bg); stroke: var(--nl-grid); stroke-width: 1; }
.inset-label { font-size: var(--nl-small-size); fill: var(--nl-muted); }
`;

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
    const end = this.op('gated_residual', {
      x: { shape: [1, 1, 2], data: x },
      update: { shape: [1, 1, 2], data: u },
      gate: vec([1]),
    });
    const angle = this.op('angle_between', { a: vec(x), b: vec(end) })[0];
    const { domain, ticks } = paddedAxis(this, [...x, ...end]);
    return { start: x, end, angle, domain, ticks };
  }

  compute(core, { x, u, scale: k }) {
    const big = this.op('film', {
      x: { shape: [1, 2], data: x },
      gamma: { shape: [1, 2], data: [k, k] },
      beta: { shape: [1, 2], data: [0, 0] },
    });
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
        el(
          'text',
          {
            class: 'label input',
            x: (p(0) + p(c.start[0])) / 2,
            y: (q(0) + q(c.start[1])) / 2 + 16,
            'text-anchor': 'middle',
          },
          xName,
        ),
      );
      let inset;
      if (k === 1) {
        // the strip under the second chart: as wide as the chart, below its tick labels
        const h = Math.max(64, Math.round(fr.size * 0.3));
        const strip = { x: fr.p(c.domain[0]), y: fr.height + 8, w: fr.size, h };
        inset = this._inset(c, fr, k, strip);
        panel.svg.setAttribute('viewBox', `0 0 ${W} ${strip.y + h + 2}`);
      } else inset = this._inset(c, fr, k);
      if (inset) items.push(...inset.items);
      if (!inset?.magnified)
        items.push(
          el('text', { class: 'label update', x: p(c.end[0]) + 12, y: (q(c.start[1]) + q(c.end[1])) / 2 + 4 }, 'u'),
        );
      const title = k === 0 ? this.t('smallTitle') : this.t('largeTitle', { scale: this.fmt(s.scale) });
      items.push(
        el(
          'text',
          { class: 'panel-title', x: fr.p(c.domain[0]), y: 18 },
          this.t('panelTitle', { title, angle: this.fmtAngle(c.angle) }),
        ),
      );
      panel.plot.replaceChildren(...items);
      if (k === 0) {
        const toX = { toValue: (px, py) => [fr.pInv(px), fr.qInv(py)], bounds: fr.bounds };
        this._hx.place(p(c.start[0]), q(c.start[1]), toX, this.t('handleX', { v: this.fmtList(s.x) }));
        // the tip of x + u moves u: the pointer's point minus x
        const toU = {
          toValue: (px, py) => [fr.pInv(px) - s.x[0], fr.qInv(py) - s.x[1]],
          bounds: [
            [fr.bounds[0][0] - s.x[0], fr.bounds[0][1] - s.x[0]],
            [fr.bounds[1][0] - s.x[1], fr.bounds[1][1] - s.x[1]],
          ],
        };
        this._hu.place(p(c.end[0]), q(c.end[1]), toU, this.t('handleU', { v: this.fmtList(s.u) }));
      }
    });
  }

  // When u is drawn shorter than MAGNIFY_BELOW px (a long x on a wide axis),
  // the tip of the panel again, magnified, in the corner farthest from the
  // arrows: the same u, and the old and new directions barely apart.
  // `strip` ({x, y, w, h}): the place below the chart, always drawn, magnified only when needed.
  _inset(c, fr, panel, strip) {
    const { p, q, size } = fr;
    const ux = p(c.end[0]) - p(c.start[0]),
      uy = q(c.end[1]) - q(c.start[1]);
    const shown = Math.hypot(ux, uy);
    const magnified = shown < MAGNIFY_BELOW && shown >= 0.01;
    if (!magnified && !strip) return null;
    const L = Math.round(size * 0.4),
      pad = 6;
    const left = p(c.domain[0]),
      right = p(c.domain[1]),
      top = q(c.domain[1]),
      bottom = q(c.domain[0]);
    const pts = [
      [p(0), q(0)],
      [p(c.start[0]), q(c.start[1])],
      [p(c.end[0]), q(c.end[1])],
    ];
    const corners = [
      [left + pad, top + pad],
      [right - pad - L, top + pad],
      [left + pad, bottom - pad - L],
      [right - pad - L, bottom - pad - L],
    ];
    const clear = ([cx, cy]) => Math.min(...pts.map(([a, b]) => Math.hypot(a - (cx + L / 2), b - (cy + L / 2))));
    const [bx, by] = strip ? [strip.x, strip.y] : corners.reduce((best, cn) => (clear(cn) > clear(best) ? cn : best));
    const Lw = strip ? strip.w : L,
      Lh = strip ? strip.h : L;
    // inset pixels: the tip's neighbourhood, u about half the inset high (never shrunk)
    const zoom = magnified ? (Lh * 0.5) / shown : 1,
      mx = (p(c.start[0]) + p(c.end[0])) / 2,
      my = (q(c.start[1]) + q(c.end[1])) / 2;
    const ip = (px) => Lw / 2 + (px - mx) * zoom,
      iq = (py) => Lh / 2 + (py - my) * zoom;
    const [[ox, oy], [sx, sy], [ex, ey]] = pts.map(([a, b]) => [ip(a), iq(b)]);
    // drawn through a clip of the inset: the arrows start far outside it, at the origin
    const id = `clip-inset-${panel}`;
    const view = el('g', { class: 'inset', transform: `translate(${bx},${by})` });
    const inside = el('g', { 'clip-path': `url(#${id})` });
    inside.append(
      arrow(ox, oy, sx, sy, 'input'),
      arrow(ox, oy, ex, ey, 'result'),
      arrow(sx, sy, ex, ey, 'update'),
      el('text', { class: 'label update', x: ((sx + ex) / 2 + 8).toFixed(1), y: ((sy + ey) / 2 + 4).toFixed(1) }, 'u'),
    );
    view.append(clipRect(id, 0, 0, Lw, Lh), inside);
    return {
      magnified,
      items: [
        el('rect', { class: 'inset-frame', x: bx, y: by, width: Lw, height: Lh, rx: 4 }),
        view,
        // the strip's label at its far end from the origin's side, where the arrows come in
        strip
          ? el(
              'text',
              {
                class: 'inset-label',
                ...(ox < Lw / 2 ? { x: bx + Lw - 4, 'text-anchor': 'end' } : { x: bx + 4 }),
                y: by + Lh - 5,
              },
              this.t(magnified ? 'magnified' : 'tip'),
            )
          : el('text', { class: 'inset-label', x: bx + 4, y: by + Lh - 5 }, this.t('magnified')),
      ],
    };
  }

  describe(s) {
    const a = this.fmtAngle(s.small.angle),
      b = this.fmtAngle(s.large.angle);
    const vars = {
      u: this.fmtList(s.u),
      x: this.fmtList(s.small.start),
      a,
      big: this.fmtList(s.large.start),
      b,
      limit: ONLY_BELOW,
    };
    const first = a === this.fmtAngle(0) ? this.t('noTurn', vars) : this.t('turn', vars);
    let second;
    if (a === b) second = this.t('same', vars);
    else if (s.large.angle < s.small.angle)
      second = s.large.angle < ONLY_BELOW ? this.t('only', vars) : this.t('less', vars);
    else second = this.t('more', vars);
    return [first, second].join(this.lang === 'zh' ? '' : ' ');
  }
}
NlResidualTurn.defineProperties();

// The figure's strings, English and Chinese (t(key); a language added with registerLocale overrides them).
NlResidualTurn.strings = {
  en: {
    tip: 'the tip',
    magnified: 'the tip, magnified',
    name: 'How far one residual update turns the state',
    scale: 'Scale of x',
    smallTitle: 'x + u',
    largeTitle: '{scale}·x + u',
    panelTitle: '{title}: {angle}°',
    handleX: 'x = {v}. Arrow keys move it.',
    handleU: 'Tip of x + u, sets u = {v}. Arrow keys move it.',
    turn: 'Adding u = {u} to x = {x} turns the direction by {a}°;',
    noTurn: 'Adding u = {u} to x = {x} does not turn the direction (0°);',
    same: 'added to {big} it turns it by the same angle, {b}°.',
    only: 'added to {big} it turns it by only {b}° (under {limit}°).',
    less: 'added to {big} it turns it by less, {b}°.',
    more: 'added to {big} it turns it by more, {b}°: that copy of x is the shorter one.',
  },
  zh: {
    tip: '箭头端',
    magnified: '箭头端放大',
    name: '一次 residual update 让 state 转过多大角度',
    scale: 'x 的缩放',
    smallTitle: 'x + u',
    largeTitle: '{scale}·x + u',
    panelTitle: '{title}：{angle}°',
    handleX: 'x = {v}。方向键可移动。',
    handleU: 'x + u 的端点，设定 u = {v}。方向键可移动。',
    turn: '把 u = {u} 加到 x = {x} 上，方向转过 {a}°；',
    noTurn: '把 u = {u} 加到 x = {x} 上，方向不变（0°）；',
    same: '加到 {big} 上，转过的角度相同，也是 {b}°。',
    only: '加到 {big} 上，只转过 {b}°（小于 {limit}°）。',
    less: '加到 {big} 上，转得较少，为 {b}°。',
    more: '加到 {big} 上，转得更多，为 {b}°：这个 x 的副本更短。',
  },
};
