// <nl-spectral> — a 2x2 matrix maps the unit circle to an ellipse whose
// longest semi-axis is its spectral norm; power iteration finds that norm step
// by step, and dividing by the estimate σ leaves an ellipse whose longest
// semi-axis is s1/σ: 1 (inside the unit circle) once the estimate converged.
//
// Attributes: matrix ("3,0,0,1", row-major), steps (1; 1..30), lang.
// Properties: matrix, steps; state (read-only): {matrix, steps, sigma, u,
//   singular, normalizedSingular, converged, ..., error}.
// Events: change (slider, buttons, handles).
// Pointer: drag the tips of W·e1 and W·e2 (the columns of W) in the left
//   panel; mouse and touch.
// Keyboard: the steps slider, "Next step", "Diagonal (3, 1)", "Sheared
//   matrix"; the two column handles are focusable: arrow keys move them by
//   0.1, Shift + arrow by 1.
// Colours: the columns of W and their ellipse --nl-input, the estimate σ·u
//   --nl-update (the current step), W/σ's ellipse --nl-fg (the result), the
//   unit circle --nl-reference.
// Words: converged means the longest semi-axis of W/σ is within TOLERANCE
//   (0.001) of 1; otherwise the text says how far outside (or inside) it is.
//   σ and the singular values of W read with 5 significant digits, the
//   semi-axes of W/σ with 4, the same in the readout and the description.
// Parts: figure, controls, slider, number, button, view, readout,
//   description, error.
// Numbers from the core: unit_circle, linear_map, spectral_norm,
// singular_values, film (σ·u), axis_ticks.
import { el } from '../lib/base.js';
import { NlFigure, figureCss } from '../lib/figure.js';
import { arrow, line } from '../lib/plot.js';
import { DragHandle, chartPanel, fitSquare, handleCss, paddedAxis, squareFrame } from '../lib/handles.js';

/** W/σ counts as converged when its longest semi-axis is within this of 1. */
export const TOLERANCE = 0.001;

export class NlSpectral extends NlFigure {
  static catalog = 'spectral';
  static summary = 'Spectral normalization by power iteration.';
  static minHeight = 448; // px kept by normlab/styles.css (measured at 960 px, default attributes)
  static phoneMinHeight = { en: 956, zh: 958 }; // px kept up to 600 px wide (measured at 360 px, default attributes)
  static stateDoc = '`sigma`, `u`, `singular`, `normalizedSingular`, `converged`'; // `state` keys beyond the attributes (README)
  static params = {
    matrix: {
      attr: 'matrix',
      kind: 'vector',
      length: 4,
      default: [3, 0, 0, 1],
      doc: 'the 2×2 matrix W, row-major (columns draggable)',
    },
    steps: {
      attr: 'steps',
      kind: 'number',
      integer: true,
      default: 1,
      min: 1,
      max: 30,
      step: 1,
      control: 'slider',
      doc: 'power-iteration steps',
    },
  };
  static css = figureCss + handleCss;

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
    const box = el('div', { class: 'geo-panels' });
    this._panels = [chartPanel('w'), chartPanel('normalized')];
    box.append(...this._panels.map((c) => c.svg));
    this._numbers = el('p', { class: 'readout', part: 'readout' });
    view.append(box, this._numbers);
    // column j of W (row-major [W00, W01, W10, W11]) is the image of e_j
    this._cols = [0, 1].map(
      (j) =>
        new DragHandle(this, {
          cls: 'input',
          get: () => [this._values.matrix[j], this._values.matrix[2 + j]],
          set: ([a, b]) => {
            const m = [...this._values.matrix];
            m[j] = a;
            m[2 + j] = b;
            this.setByUser('matrix', m);
          },
        }),
    );
    this._panels[0].svg.append(...this._cols.map((h) => h.node));
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
    const estimate = this.op('film', {
      x: { shape: [1, 2], data: u },
      gamma: { shape: [1, 2], data: [sigma, sigma] },
      beta: { shape: [1, 2], data: [0, 0] },
    });
    const normalizedSingular = this.op('singular_values', { W: normalizedW });
    const top = normalizedSingular[0];
    return {
      circle: Array.from(circle.data),
      ellipse,
      normalized,
      sigma,
      u,
      estimate,
      singular: this.op('singular_values', { W }),
      normalizedSingular,
      converged: Math.abs(top - 1) <= TOLERANCE,
      frame: paddedAxis(this, [...ellipse, ...matrix, 1, 1]),
      unitFrame: paddedAxis(this, [...normalized, 1, 1]),
    };
  }

  /** One formatter per quantity. */
  fmtSigma(v) {
    return this.fmt(v, 5);
  }

  fmtAxis(v) {
    return this.fmt(v, 4);
  }

  draw(s) {
    const pts = (flat, p, q) => {
      const out = [];
      for (let i = 0; i < flat.length; i += 2) out.push([p(flat[i]), q(flat[i + 1])]);
      out.push(out[0]);
      return out;
    };
    const W = fitSquare(this, this._panels[0].svg, 300);
    fitSquare(this, this._panels[1].svg, 300);
    const fr = (this._dragging && this._held) || squareFrame(this, W, s.frame.domain, s.frame.ticks);
    this._held = fr;
    let { p, q } = fr;
    const m = s.matrix;
    const title = (f, text) => el('text', { class: 'panel-title', x: f.p(f.bounds[0][0]), y: 18 }, text);
    this._panels[0].plot.replaceChildren(
      ...fr.axes,
      line(pts(s.circle, p, q), 'curve ref'),
      line(pts(s.ellipse, p, q), 'curve input'),
      arrow(p(0), q(0), p(m[0]), q(m[2]), 'input', 6),
      arrow(p(0), q(0), p(m[1]), q(m[3]), 'input', 6),
      arrow(p(0), q(0), p(s.estimate[0]), q(s.estimate[1]), 'update'),
      el('text', { class: 'label update', x: p(s.estimate[0]) + 6, y: q(s.estimate[1]) - 8 }, 'σ·u'),
      title(fr, this.t('leftTitle')),
    );
    const toValue = (px, py) => [fr.pInv(px), fr.qInv(py)];
    this._cols.forEach((h, j) =>
      h.place(
        p(m[j]),
        q(m[2 + j]),
        { toValue, bounds: fr.bounds },
        this.t('handleColumn', { j: j + 1, v: this.fmtList([m[j], m[2 + j]]) }),
      ),
    );
    const f2 = squareFrame(this, W, s.unitFrame.domain, s.unitFrame.ticks);
    ({ p, q } = f2);
    this._panels[1].plot.replaceChildren(
      ...f2.axes,
      line(pts(s.circle, p, q), 'curve ref'),
      line(pts(s.normalized, p, q), 'curve result'),
      title(f2, this.t('rightTitle')),
    );
    this._numbers.textContent = this.t('numbers', {
      steps: s.steps,
      sigma: this.fmtSigma(s.sigma),
      top: this.fmtSigma(s.singular[0]),
      s: `(${s.singular.map((v) => this.fmtSigma(v)).join(', ')})`,
      a: this.fmtAxis(s.normalizedSingular[0]),
      b: this.fmtAxis(s.normalizedSingular[1]),
    });
  }

  describe(s) {
    const v = {
      steps: s.steps,
      sigma: this.fmtSigma(s.sigma),
      top: this.fmtSigma(s.singular[0]),
      a: this.fmtAxis(s.normalizedSingular[0]),
      b: this.fmtAxis(s.normalizedSingular[1]),
      tol: this.fmt(TOLERANCE),
    };
    const first = this.t(s.steps === 1 ? 'describeOne' : 'describe', v);
    let second;
    if (s.converged) second = this.t('converged', v);
    else if (s.normalizedSingular[0] > 1) second = this.t('outside', v);
    else second = this.t('inside', v);
    return [first, second].join(this.lang === 'zh' ? '' : ' ');
  }
}
NlSpectral.defineProperties();

// The figure's strings, English and Chinese (t(key); a language added with registerLocale overrides them).
NlSpectral.strings = {
  en: {
    name: 'Spectral normalization by power iteration',
    steps: 'Power iterations',
    nextStep: 'Next step',
    presetDiagonal: 'Diagonal (3, 1)',
    presetSheared: 'Sheared matrix',
    leftTitle: 'W maps the unit circle',
    rightTitle: 'W / σ maps the unit circle',
    handleColumn: 'Column {j} of W, the image of e{j}: {v}. Arrow keys move it.',
    numbers: 'Steps: {steps}; σ ≈ {sigma}; singular values of W {s}; semi-axes of W/σ {a} and {b}',
    describeOne: 'After 1 power-iteration step the estimate is σ ≈ {sigma}; the largest singular value of W is {top}.',
    describe:
      'After {steps} power-iteration steps the estimate is σ ≈ {sigma}; the largest singular value of W is {top}.',
    converged:
      'Converged: W/σ has semi-axes {a} and {b}, the longest within {tol} of 1: its ellipse fits the unit circle to within {tol}.',
    outside:
      'Not converged yet: W/σ has semi-axes {a} and {b}, so its ellipse still reaches {a}, outside the unit circle.',
    inside:
      'σ is above the largest singular value: W/σ has semi-axes {a} and {b}, inside the unit circle with room to spare.',
  },
  zh: {
    name: '用 power iteration 做 spectral normalization',
    steps: 'power iteration 步数',
    nextStep: '下一步',
    presetDiagonal: '对角矩阵 (3, 1)',
    presetSheared: '剪切矩阵',
    leftTitle: 'W 作用于单位圆',
    rightTitle: 'W / σ 作用于单位圆',
    handleColumn: 'W 的第 {j} 列，即 e{j} 的像：{v}。方向键可移动。',
    numbers: '{steps} 步；σ ≈ {sigma}；W 的 singular values {s}；W/σ 的半轴 {a} 与 {b}',
    describeOne: '1 步 power iteration 之后估计值 σ ≈ {sigma}；W 的最大 singular value 为 {top}。',
    describe: '{steps} 步 power iteration 之后估计值 σ ≈ {sigma}；W 的最大 singular value 为 {top}。',
    converged: '已收敛：W/σ 的半轴为 {a} 与 {b}，最长的与 1 相差不超过 {tol}：椭圆在 {tol} 的误差内落在单位圆里。',
    outside: '尚未收敛：W/σ 的半轴为 {a} 与 {b}，椭圆仍伸到 {a}，超出单位圆。',
    inside: 'σ 大于最大 singular value：W/σ 的半轴为 {a} 与 {b}，椭圆在单位圆内还有余地。',
  },
};
