// <nl-vector-norms> — two embeddings a and b under four ways of fixing a
// vector's size: L2 (onto the unit circle, direction kept), L1 (onto the
// diamond |x₁| + |x₂| = 1), max-norm (onto the square max|xᵢ| = 1) and
// ScaleNorm (onto a circle of learned radius g). Below, the dot product of the
// raw vectors mixes length and alignment; after L2 normalization it is the
// cosine of their angle, whatever the lengths.
//
// Attributes: a ("3,1"), b ("1,2"), g (ScaleNorm's scale, 2; 0.5..3), lang.
// Properties: a, b, g; state (read-only): {a, b, g, l2, l1, max, scale
//   ({a, b} each), lengths [‖a‖, ‖b‖], dot (a·b), cosine (â·b̂), angle
//   (degrees), domain, ticks, circle, error}.
// Events: change (the reader dragged a or b, or moved the slider).
// Keyboard: the g slider; the tips of a and b in the first panel are
//   focusable, arrow keys move them by 0.1 (Shift: by 1).
// Colours: --nl-reference the raw vectors in the result panels, --nl-input a
//   and b in the first panel, --nl-l2 the L2 results, --nl-fg the L1, max-norm
//   and ScaleNorm results (a result without a method colour of its own),
//   --nl-grid the set each method maps onto.
// Parts: figure, controls, slider, number, view, readout, description, error.
// Numbers from the core: l2_normalize, l1_normalize, max_normalize,
// scale_norm, linear_map (dot products, the radius-g circle), clip_grad_norm
// (lengths), angle_between, unit_circle, linear_map and axis_ticks (frames).
import { el } from '../lib/base.js';
import { NlFigure, figureCss } from '../lib/figure.js';
import { arrow } from '../lib/plot.js';
import { DragHandle, chartPanel, fitSquare, fmtFixed, handleCss, paddedAxis, squareFrame } from '../lib/handles.js';

const vec = NlFigure.vec;
const METHODS = ['l2', 'l1', 'max', 'scale'];

export class NlVectorNorms extends NlFigure {
  static catalog = 'vectorNorms';
  static summary = 'L2, L1, max-norm and ScaleNorm on two embeddings, and cosine similarity.';
  static minHeight = 819; // px kept by normlab/styles.css (measured at 960 px, default attributes)
  static phoneMinHeight = { en: 810, zh: 762 }; // px kept up to 600 px wide (measured at 360 px, default attributes)
  static stateDoc = '`l2`, `l1`, `max`, `scale` (`{a, b}` each), `lengths`, `dot`, `cosine`, `angle`'; // `state` keys beyond the attributes (README)
  static params = {
    a: { attr: 'a', kind: 'vector', length: 2, default: [3, 1], doc: 'embedding a (draggable)' },
    b: { attr: 'b', kind: 'vector', length: 2, default: [1, 2], doc: 'embedding b (draggable)' },
    g: {
      attr: 'g',
      kind: 'number',
      default: 2,
      min: 0.5,
      max: 3,
      step: 0.1,
      control: 'slider',
      doc: "ScaleNorm's scale",
    },
  };
  static css = `${figureCss}${handleCss}
.vn-panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 300px), 1fr)); gap: 10px; }
/* a phone: a 2 × 2 grid, not four panels stacked 1,800 px tall */
@container (max-width: 620px) { .vn-panels { grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 6px; } }
.panel-sub { font-size: var(--nl-small-size); fill: var(--nl-muted); }
.ball { fill: none; stroke: var(--nl-muted); stroke-width: 1.5; stroke-dasharray: 4 3; }
.arrow.fg { stroke: var(--nl-fg); }
.label.fg { fill: var(--nl-fg); }
`;

  buildView(view) {
    const box = el('div', { class: 'vn-panels' });
    this._panels = METHODS.map((m) => chartPanel(m));
    box.append(...this._panels.map((c) => c.svg));
    this._numbers = el('p', { class: 'readout', part: 'readout' });
    view.append(box, this._numbers);
    this._handles = ['a', 'b'].map(
      (k) => new DragHandle(this, { cls: 'input', get: () => this._values[k], set: (v) => this.setByUser(k, v) }),
    );
    this._panels[0].svg.append(...this._handles.map((h) => h.node));
  }

  compute(core, { a, b, g }) {
    const both = (op, attrs = {}, extra = {}) => ({
      a: this.op(op, { x: vec(a), ...extra }, attrs),
      b: this.op(op, { x: vec(b), ...extra }, attrs),
    });
    const l2 = both('l2_normalize'),
      l1 = both('l1_normalize'),
      max = both('max_normalize');
    const scaleOut = both('scale_norm', {}, { g: vec([g]) });
    const dot = (u, v) =>
      this.op('linear_map', { W: { shape: [1, 2], data: u }, points: { shape: [1, 2], data: v } })[0];
    const length = (v) => core.run('clip_grad_norm', { g: vec(v) }, { max_norm: 1e30 }).total_norm.data[0];
    const unit = core.run('unit_circle', {}, { count: 120 }).points;
    const circleG = this.op('linear_map', { W: { shape: [2, 2], data: [g, 0, 0, g] }, points: unit });
    const frame = paddedAxis(this, [...a, ...b, g, g, -g, -g]);
    return {
      l2,
      l1,
      max,
      scale: scaleOut,
      lengths: [length(a), length(b)],
      dot: dot(a, b),
      cosine: dot(l2.a, l2.b),
      angle: this.op('angle_between', { a: vec(a), b: vec(b) })[0],
      circle: Array.from(unit.data),
      circleG,
      domain: frame.domain,
      ticks: frame.ticks,
    };
  }

  fmtVec(v) {
    return `(${v.map((c) => fmtFixed(this, c, 3)).join(', ')})`;
  }

  draw(s) {
    // the shape each method maps onto: unit circle, diamond, square, circle of radius g (outline points, no math)
    const shapes = {
      l2: s.circle,
      l1: [1, 0, 0, 1, -1, 0, 0, -1, 1, 0],
      max: [1, 1, -1, 1, -1, -1, 1, -1, 1, 1],
      scale: s.circleG,
    };
    METHODS.forEach((m, k) => {
      const panel = this._panels[k];
      // two panels a row on a phone: a narrow panel's title takes two lines (the method, then the set)
      const narrow = (this.widthOf(panel.svg) || 260) < 240;
      const margins = narrow ? { left: 30, top: 40, right: 6 } : undefined;
      const W = fitSquare(this, panel.svg, 260, margins);
      const held = this._dragging && k === 0 && this._frame0;
      const fr = held || squareFrame(this, W, s.domain, s.ticks, margins);
      if (k === 0) this._frame0 = fr;
      const { p, q } = fr;
      const pts = shapes[m];
      let d = '';
      for (let i = 0; i < pts.length; i += 2)
        d += `${i ? 'L' : 'M'}${p(pts[i]).toFixed(1)},${q(pts[i + 1]).toFixed(1)}`;
      const items = [...fr.axes, el('path', { class: 'ball', d: d + (m === 'l2' || m === 'scale' ? 'Z' : '') })];
      const cls = m === 'l2' ? 'l2' : 'fg';
      for (const key of ['a', 'b']) {
        const x = s[key],
          y = s[m][key];
        items.push(arrow(p(0), q(0), p(x[0]), q(x[1]), k === 0 ? 'input' : 'ref'));
        items.push(arrow(p(0), q(0), p(y[0]), q(y[1]), cls));
        items.push(
          el(
            'text',
            { class: `label ${k === 0 ? 'input' : 'ref'}`, x: (p(x[0]) + 8).toFixed(1), y: (q(x[1]) - 8).toFixed(1) },
            key,
          ),
        );
      }
      const title = this.t(`title_${m}`, { g: this.fmt(s.g, 3) });
      const cut = narrow ? title.search(/[:：]/) : -1;
      if (cut < 0) items.push(el('text', { class: 'panel-title', x: fr.p(s.domain[0]), y: 18 }, title));
      else
        items.push(
          el('text', { class: 'panel-title', x: 2, y: 14 }, title.slice(0, cut)),
          el('text', { class: 'panel-sub', x: 2, y: 30 }, title.slice(cut + 1).trim()),
        );
      panel.plot.replaceChildren(...items);
    });
    const fr = this._frame0;
    const toValue = { toValue: (px, py) => [fr.pInv(px), fr.qInv(py)], bounds: fr.bounds };
    ['a', 'b'].forEach((key, i) =>
      this._handles[i].place(
        fr.p(s[key][0]),
        fr.q(s[key][1]),
        toValue,
        this.t('handle', { name: key, v: this.fmtVec(s[key]) }),
      ),
    );
    this._numbers.textContent = this.t('readout', this._vars(s));
  }

  _vars(s) {
    const f = (v) => this.fmt(v, 4);
    return {
      a: this.fmtVec(s.a),
      b: this.fmtVec(s.b),
      la: f(s.lengths[0]),
      lb: f(s.lengths[1]),
      dot: f(s.dot),
      cos: f(s.cosine),
      angle: fmtFixed(this, s.angle, 2),
      g: this.fmt(s.g, 3),
      l2a: this.fmtVec(s.l2.a),
      l2b: this.fmtVec(s.l2.b),
      l1a: this.fmtVec(s.l1.a),
      l1b: this.fmtVec(s.l1.b),
      maxa: this.fmtVec(s.max.a),
      maxb: this.fmtVec(s.max.b),
      sa: this.fmtVec(s.scale.a),
      sb: this.fmtVec(s.scale.b),
    };
  }

  describe(s) {
    return this.t('describe', this._vars(s));
  }
}
NlVectorNorms.defineProperties();

// The figure's strings, English and Chinese (t(key); a language added with registerLocale overrides them).
NlVectorNorms.strings = {
  en: {
    name: 'L2, L1, max-norm and ScaleNorm on the same two embeddings, and cosine similarity',
    g: 'ScaleNorm scale g',
    title_l2: 'L2: onto the unit circle',
    title_l1: 'L1: onto |x₁| + |x₂| = 1',
    title_max: 'max-norm: onto max|xᵢ| = 1',
    title_scale: 'ScaleNorm: radius g = {g}',
    handle: 'Embedding {name} = {v}. Arrow keys move it.',
    readout:
      'a·b = {dot} (lengths {la} and {lb}, angle {angle}°); the dot product of the two L2-normalized vectors is {cos}, the cosine of {angle}°.',
    describe:
      'L2 keeps each direction and sets length 1: a becomes {l2a}, b {l2b}. L1 divides by |x₁| + |x₂|: {l1a} and {l1b}. Max-norm divides by the largest |xᵢ|: {maxa} and {maxb}. ScaleNorm sets length g = {g}: {sa} and {sb}. The raw dot product a·b = {dot} mixes length and alignment; after L2 normalization it is the cosine, {cos}, whatever the lengths.',
  },
  zh: {
    name: '同一对 embeddings 的 L2、L1、max-norm 与 ScaleNorm，以及 cosine similarity',
    g: 'ScaleNorm 的 scale g',
    title_l2: 'L2：落到单位圆上',
    title_l1: 'L1：落到 |x₁| + |x₂| = 1 上',
    title_max: 'max-norm：落到 max|xᵢ| = 1 上',
    title_scale: 'ScaleNorm：半径 g = {g}',
    handle: 'Embedding {name} = {v}。方向键移动它。',
    readout:
      'a·b = {dot}（长度 {la} 与 {lb}，夹角 {angle}°）；两个向量做 L2 normalization 之后的 dot product 为 {cos}，即 {angle}° 的 cosine。',
    describe:
      'L2 保留每个方向并把长度设为 1：a 变为 {l2a}，b 变为 {l2b}。L1 除以 |x₁| + |x₂|：{l1a} 与 {l1b}。Max-norm 除以最大的 |xᵢ|：{maxa} 与 {maxb}。ScaleNorm 把长度设为 g = {g}：{sa} 与 {sb}。原始 dot product a·b = {dot} 混合了长度与方向一致程度；L2 normalization 之后它就是 cosine，{cos}，与长度无关。',
  },
};
