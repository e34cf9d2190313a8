// <nl-l2-jacobian> — a small change δ of x splits into a part along x,
// which L2 normalization removes, and a part across x, which it keeps
// divided by |x|: J·δ with J = (I − u uᵀ) / |x|. Drag x outward and the gain
// 1/|x| falls: a long input receives small gradients.
//
// Attributes: x ("3,4"), delta ("1,0"), lang.
// Properties: x, delta; state (read-only): {x, delta, norm (|x|), gain
//   (1/|x|, the largest singular value of J), u, along, across, dy (J·δ),
//   tip (x + δ), moved (the exact new direction), ..., error}.
// Events: change (the reader moved a handle).
// Pointer: drag the tip of x (left panel) or the tip of δ (middle panel);
//   mouse and touch. Keyboard: both handles are focusable; arrow keys move
//   them by 0.1, Shift + arrow by 1.
// Panels: 1. x in the plane with the unit circle and u; 2. around the tip of
//   x, zoomed to δ: δ = along + across (axes read offsets from the tip);
//   3. around u, zoomed to J·δ (axes read offsets from u): J·δ and where u
//   really lands; below, a bar of the gain 1/|x| on a fixed 0..1 scale.
// Colours: x --nl-input, δ and its across part --nl-update (the part dashed),
//   the along part --nl-reference (removed), u and J·δ --nl-l2 (outputs of
//   L2 normalization), x + δ --nl-fg (the result).
// Words: vectors read with at most 3 decimals, |x| and 1/|x| with 4
//   significant digits, the same in the readout and the description. A part
//   that reads (0, 0) is named as such: δ along x ("all removed"), δ across x
//   ("nothing removed"), δ zero.
// Parts: figure, controls, view, description, error.
// Numbers from the core: split_perturbation (along, across, J·δ),
// l2_normalize_jacobian + singular_values (the gain 1/|x|), clip_grad_norm
// (its total_norm is |x|), l2_normalize, gated_residual (sums and
// differences), film (−x, −u), linear_map, unit_circle, axis_ticks.
import { el } from '../lib/base.js';
import { NlFigure, figureCss } from '../lib/figure.js';
import { arrow, line, scale, xAxis } from '../lib/plot.js';
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

/**
 * Where a label of the segment a→b goes (pixels): at fraction `at` along it,
 * 14 px off the segment on the side away from the third corner c of the
 * triangle, so the labels of δ, its along part and its across part never sit
 * on each other or on an arrow. Returns [x, y].
 */
function outside(a, b, c, at = 0.5, gap = 14) {
  const mx = a[0] + (b[0] - a[0]) * at,
    my = a[1] + (b[1] - a[1]) * at;
  const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
  let nx = -(b[1] - a[1]) / len,
    ny = (b[0] - a[0]) / len;
  if ((mx - c[0]) * nx + (my - c[1]) * ny < 0) {
    nx = -nx;
    ny = -ny;
  }
  return [mx + nx * gap, my + ny * gap + 4];
}

export class NlL2Jacobian extends NlFigure {
  static catalog = 'l2Jacobian';
  static summary = 'A change of x split along and across x, and J·δ.';
  static minHeight = 481; // px kept by normlab/styles.css (measured at 960 px, default attributes)
  static phoneMinHeight = { en: 1285, zh: 1214 }; // px kept up to 600 px wide (measured at 360 px, default attributes)
  static stateDoc = '`norm`, `gain` (1/|x|), `u`, `along`, `across`, `dy` (= J·δ), `moved`'; // `state` keys beyond the attributes (README)
  static params = {
    x: { attr: 'x', kind: 'vector', length: 2, default: [3, 4], doc: 'the point x (draggable)' },
    delta: { attr: 'delta', kind: 'vector', length: 2, default: [1, 0], doc: 'the change δ (draggable)' },
  };
  static css =
    figureCss +
    handleCss +
    `
.gain rect.bar { fill: var(--nl-l2); } .gain rect.track { fill: var(--nl-grid); }
.marker.moved { fill: var(--nl-bg); stroke: var(--nl-l2); stroke-width: 2; }
.hint { margin: 0; font-size: 0.9em; color: var(--nl-muted); }
`;

  buildControls(box) {
    this._hint = el('p', { class: 'hint' });
    box.append(this._hint);
  }

  languageChanged() {
    this._hint.textContent = this.t('hint');
  }

  buildView(view) {
    const box = el('div', { class: 'geo-panels' });
    this._panels = [chartPanel('plane'), chartPanel('zoom'), chartPanel('unit')];
    box.append(...this._panels.map((c) => c.svg));
    this._gain = el('svg', { class: 'gain', viewBox: '0 0 600 44', 'aria-hidden': 'true' });
    this._numbers = el('p', { class: 'readout', part: 'readout' });
    view.append(box, this._gain, this._numbers);
    this._hx = new DragHandle(this, { cls: 'input', get: () => this._values.x, set: (v) => this.setByUser('x', v) });
    this._hd = new DragHandle(this, {
      cls: 'update',
      get: () => this._values.delta,
      set: (v) => this.setByUser('delta', v),
    });
    this._panels[0].svg.append(this._hx.node);
    this._panels[1].svg.append(this._hd.node);
  }

  compute(core, { x, delta }) {
    const split = core.run('split_perturbation', { x: vec(x), delta: vec(delta) });
    const along = Array.from(split.along.data),
      across = Array.from(split.across.data),
      dy = Array.from(split.dy.data);
    const u = this.op('l2_normalize', { x: vec(x) });
    const J = core.run('l2_normalize_jacobian', { x: vec(x) }).J;
    const gain = this.op('singular_values', { W: J })[0];
    const norm = core.run('clip_grad_norm', { g: vec(x) }, { max_norm: 1e30 }).total_norm.data[0];
    const add = (a, b, g = 1) =>
      this.op('gated_residual', {
        x: { shape: [1, 1, 2], data: a },
        update: { shape: [1, 1, 2], data: b },
        gate: vec([g]),
      });
    const neg = (a) =>
      this.op('film', {
        x: { shape: [1, 2], data: a },
        gamma: { shape: [1, 2], data: [-1, -1] },
        beta: { shape: [1, 2], data: [0, 0] },
      });
    const tip = add(x, delta);
    const moved = this.op('l2_normalize', { x: vec(tip) });
    const movedOffset = add(moved, u, -1); // where u lands, seen from u
    const circle = core.run('unit_circle', {}, { count: 180 }).points;
    const n = circle.shape[0];
    const minusU = neg(u);
    // the unit circle seen from u: circle − u (FiLM with shift −u on every point)
    const circleFromU = this.op('film', {
      x: circle,
      gamma: { shape: [n, 2], data: new Array(2 * n).fill(1) },
      beta: { shape: [n, 2], data: new Array(n).fill(minusU).flat() },
    });
    return {
      norm,
      gain,
      u,
      along,
      across,
      dy,
      tip,
      moved,
      movedOffset,
      originFromTip: neg(x),
      originFromU: minusU,
      circle: Array.from(circle.data),
      circleFromU,
      plane: paddedAxis(this, [...x, ...tip, 1, 1]),
      zoom: paddedAxis(this, [...delta, ...along, 0.1, 0.1], { count: 5 }),
      unit: paddedAxis(this, [...dy, ...movedOffset, 0.02, 0.02], { count: 5 }),
      gainAxis: this.axis([0, 1, gain], { count: 4 }),
    };
  }

  /** One formatter per quantity: vectors with at most 3 decimals, lengths and gains with 4 significant digits. */
  fmtVec(v) {
    return `(${v.map((c) => fmtFixed(this, c, 3)).join(', ')})`;
  }

  fmtLen(v) {
    return this.fmt(v, 4);
  }

  _frame(k, W, axis) {
    const held = this._dragging && this._held?.[k];
    const fr = held || squareFrame(this, W, axis.domain, axis.ticks);
    (this._held ??= [])[k] = fr;
    return fr;
  }

  draw(s) {
    const W = fitSquare(this, this._panels[0].svg, 300);
    for (const c of this._panels.slice(1)) fitSquare(this, c.svg, 300);
    const pointsOf = (flat, p, q) => {
      const out = [];
      for (let i = 0; i < flat.length; i += 2) out.push([p(flat[i]), q(flat[i + 1])]);
      return out;
    };
    const title = (fr, key) => el('text', { class: 'panel-title', x: fr.p(fr.bounds[0][0]), y: 18 }, this.t(key));
    const label = (cls, x, y, text, anchor = 'start') =>
      el('text', { class: `label ${cls}`, x, y, 'text-anchor': anchor }, text);

    // 1. the plane: x, the unit circle and u
    const f0 = this._frame(0, W, s.plane);
    let { p, q } = f0;
    const circle = pointsOf(s.circle, p, q);
    circle.push(circle[0]);
    this._panels[0].plot.replaceChildren(
      ...f0.axes,
      line(circle, 'curve ref'),
      arrow(p(0), q(0), p(s.x[0]), q(s.x[1]), 'input'),
      arrow(p(s.x[0]), q(s.x[1]), p(s.tip[0]), q(s.tip[1]), 'update', 6),
      arrow(p(0), q(0), p(s.u[0]), q(s.u[1]), 'l2', 6),
      label('input', (p(0) + p(s.x[0])) / 2 + 8, (q(0) + q(s.x[1])) / 2 + 4, 'x'),
      label('l2', p(s.u[0]) + 6, q(s.u[1]) + 14, 'u'),
      title(f0, 'planeTitle'),
    );
    this._hx.place(
      p(s.x[0]),
      q(s.x[1]),
      { toValue: (px, py) => [f0.pInv(px), f0.qInv(py)], bounds: f0.bounds },
      this.t('handleX', { v: this.fmtVec(s.x) }),
    );

    // 2. around the tip of x: δ = along + across
    const f1 = this._frame(1, W, s.zoom);
    ({ p, q } = f1);
    const size = f1.size;
    const clip1 = clipRect('clip-zoom', p(f1.bounds[0][0]), q(f1.bounds[1][1]), size, size);
    const inside1 = el('g', { 'clip-path': 'url(#clip-zoom)' });
    inside1.append(
      arrow(p(s.originFromTip[0]), q(s.originFromTip[1]), p(0), q(0), 'input'),
      arrow(p(0), q(0), p(s.along[0]), q(s.along[1]), 'ref', 6),
      arrow(p(s.along[0]), q(s.along[1]), p(s.delta[0]), q(s.delta[1]), 'update part', 6),
      arrow(p(0), q(0), p(s.delta[0]), q(s.delta[1]), 'update'),
    );
    this._panels[1].plot.replaceChildren(
      ...f1.axes,
      clip1,
      inside1,
      label(
        'ref',
        ...outside([p(0), q(0)], [p(s.along[0]), q(s.along[1])], [p(s.delta[0]), q(s.delta[1])]),
        this.t('along'),
        'middle',
      ),
      label(
        'update',
        ...outside([p(s.along[0]), q(s.along[1])], [p(s.delta[0]), q(s.delta[1])], [p(0), q(0)]),
        this.t('across'),
        'middle',
      ),
      label(
        'update',
        ...outside([p(0), q(0)], [p(s.delta[0]), q(s.delta[1])], [p(s.along[0]), q(s.along[1])], 0.9),
        'δ',
        'middle',
      ),
      title(f1, 'zoomTitle'),
    );
    this._hd.place(
      p(s.delta[0]),
      q(s.delta[1]),
      { toValue: (px, py) => [f1.pInv(px), f1.qInv(py)], bounds: f1.bounds },
      this.t('handleDelta', { v: this.fmtVec(s.delta) }),
    );

    // 3. around u: J·δ and where u really lands
    const f2 = this._frame(2, W, s.unit);
    ({ p, q } = f2);
    const arc = pointsOf(s.circleFromU, p, q);
    arc.push(arc[0]);
    const clip2 = clipRect('clip-unit', p(f2.bounds[0][0]), q(f2.bounds[1][1]), size, size);
    const inside2 = el('g', { 'clip-path': 'url(#clip-unit)' });
    inside2.append(
      line(arc, 'curve ref'),
      arrow(p(s.originFromU[0]), q(s.originFromU[1]), p(0), q(0), 'l2'),
      arrow(p(0), q(0), p(s.dy[0]), q(s.dy[1]), 'l2'),
      el('circle', { class: 'marker moved', cx: p(s.movedOffset[0]), cy: q(s.movedOffset[1]), r: 4 }),
    );
    this._panels[2].plot.replaceChildren(
      ...f2.axes,
      clip2,
      inside2,
      label('l2', p(s.dy[0]) + 8, q(s.dy[1]) - 8, 'J·δ'),
      title(f2, 'unitTitle'),
    );

    // the gain 1/|x| on a fixed axis
    const G = this.fit(this._gain, 600, 44);
    const left = 12,
      right = G - 16;
    const gx = scale(s.gainAxis.domain, [left, right]);
    this._gain.replaceChildren(
      el(
        'text',
        { class: 'label', x: left, y: 12 },
        this.t('gainLabel', { gain: this.fmtLen(s.gain), norm: this.fmtLen(s.norm) }),
      ),
      el('rect', {
        class: 'track',
        x: gx(s.gainAxis.domain[0]),
        y: 17,
        width: gx(s.gainAxis.domain[1]) - gx(s.gainAxis.domain[0]),
        height: 8,
        rx: 2,
      }),
      el('rect', { class: 'bar', x: gx(0), y: 17, width: Math.max(0, gx(s.gain) - gx(0)), height: 8, rx: 2 }),
      xAxis(s.gainAxis.ticks, gx, 15, 27, (v) => this.fmt(v, 3)),
    );
    this._gain.setAttribute('viewBox', `0 0 ${G} 46`);

    this._numbers.textContent = this.t('numbers', {
      norm: this.fmtLen(s.norm),
      gain: this.fmtLen(s.gain),
      along: this.fmtVec(s.along),
      across: this.fmtVec(s.across),
      dy: this.fmtVec(s.dy),
      moved: this.fmtVec(s.moved),
    });
  }

  describe(s) {
    const zero = this.fmtVec([0, 0]);
    const v = {
      x: this.fmtVec(s.x),
      norm: this.fmtLen(s.norm),
      gain: this.fmtLen(s.gain),
      delta: this.fmtVec(s.delta),
      along: this.fmtVec(s.along),
      across: this.fmtVec(s.across),
      dy: this.fmtVec(s.dy),
    };
    const first = this.t('describeX', v);
    let second;
    if (v.delta === zero) second = this.t('describeZero', v);
    else if (v.across === zero) second = this.t('describeAlong', v);
    else if (v.along === zero) second = this.t('describeAcross', v);
    else second = this.t('describeSplit', v);
    return [first, second].join(this.lang === 'zh' ? '' : ' ');
  }
}
NlL2Jacobian.defineProperties();

// The figure's strings, English and Chinese (t(key); a language added with registerLocale overrides them).
NlL2Jacobian.strings = {
  en: {
    name: 'What L2 normalization does to a small change of x',
    hint: 'Drag the blue point (x) or the violet point (δ); a focused point moves with the arrow keys.',
    planeTitle: 'x, the unit circle and u = x/|x|',
    zoomTitle: 'δ at the tip of x (zoomed)',
    unitTitle: 'J·δ at u (zoomed further)',
    along: 'along',
    across: 'across',
    handleX: 'x = {v}. Arrow keys move it.',
    handleDelta: 'δ = {v}. Arrow keys move it.',
    gainLabel: 'gain 1/|x| = {gain} (|x| = {norm})',
    numbers: '|x| = {norm}, 1/|x| = {gain}; along x {along}, across {across}, J·δ {dy}; exact new direction {moved}',
    describeX: 'x = {x} has length |x| = {norm}, so J shrinks what it keeps by 1/|x| = {gain}.',
    describeSplit:
      'The change δ = {delta} splits into {along} along x, which normalization removes, and {across} across it; to first order u moves by J·δ = {dy}, the across part times {gain}.',
    describeAlong: 'The change δ = {delta} points along x: normalization removes all of it, and J·δ = {dy}.',
    describeAcross:
      'The change δ = {delta} is across x: nothing is removed, and u moves by J·δ = {dy}, δ times {gain}.',
    describeZero: 'The change δ is {delta}: u does not move.',
  },
  zh: {
    name: 'L2 normalization 如何对待 x 的微小变化',
    hint: '拖动蓝点（x）或紫点（δ）；选中的点可用方向键移动。',
    planeTitle: 'x、单位圆与 u = x/|x|',
    zoomTitle: 'x 端点处的 δ（放大）',
    unitTitle: 'u 处的 J·δ（再放大）',
    along: '沿 x',
    across: '垂直',
    handleX: 'x = {v}。方向键可移动。',
    handleDelta: 'δ = {v}。方向键可移动。',
    gainLabel: '增益 1/|x| = {gain}（|x| = {norm}）',
    numbers: '|x| = {norm}，1/|x| = {gain}；沿 x {along}，垂直 {across}，J·δ {dy}；精确的新方向 {moved}',
    describeX: 'x = {x} 的长度 |x| = {norm}，所以 J 把保留的部分乘以 1/|x| = {gain}。',
    describeSplit:
      '变化 δ = {delta} 分成沿 x 的 {along}（被 normalization 去掉）与垂直于 x 的 {across}；一阶近似下 u 移动 J·δ = {dy}，即垂直部分乘以 {gain}。',
    describeAlong: '变化 δ = {delta} 沿着 x：normalization 把它全部去掉，J·δ = {dy}。',
    describeAcross: '变化 δ = {delta} 垂直于 x：没有部分被去掉，u 移动 J·δ = {dy}，即 δ 乘以 {gain}。',
    describeZero: '变化 δ 为 {delta}：u 不动。',
  },
};
