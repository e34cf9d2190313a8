// <nl-rms-decomposition> — RMS² = σ² + μ² as a right triangle. Shifting every
// coordinate of x by m moves the mean μ and leaves the spread σ alone, so the
// triangle's horizontal leg grows while its vertical one stays: RMSNorm, which
// divides by the hypotenuse, changes with the shift, and LayerNorm, which
// subtracts μ and divides by σ, does not.
//
// Attributes: x ("1,2,3"; 2..8 numbers), shift (0; −110..110), lang.
// Properties: x, shift; state (read-only): {x, shift, shifted (x + m), mean,
//   variance, std, meanSquare (RMS²), rms, meanSq (μ²), layerNorm, rmsNorm,
//   inDomain, inTicks, outDomain, outTicks, legDomain, legTicks, error}.
// Events: change (the reader moved the slider or pressed a preset).
// Keyboard: the shift slider; presets "(1, 2, 3)", "(101, 102, 103)" (the
//   article's pair) and "mean 0: (−1, 0, 1)".
// Colours: --nl-input x + m, --nl-fg the mean (line and μ leg: a measurement, not a method),
//   --nl-layer-norm the σ leg and LayerNorm's output, --nl-rms-norm the RMS
//   hypotenuse and RMSNorm's output.
// Parts: figure, controls, slider, number, button, view, description, error.
// Numbers from the core: film (x + m), moments (μ, σ², σ, RMS², RMS, μ²),
// layer_norm, rms_norm, axis_ticks.
import { el } from '../lib/base.js';
import { NlFigure, figureCss } from '../lib/figure.js';
import { scale, svg, xAxis, yAxis } from '../lib/plot.js';

export class NlRmsDecomposition extends NlFigure {
  static catalog = 'rmsDecomposition';
  static summary = 'RMS² = σ² + μ² as a triangle; a shift of the mean changes RMSNorm, not LayerNorm.';
  static minHeight = 442; // px kept by normlab/styles.css (measured at 960 px, default attributes)
  static stateDoc = '`shifted`, `mean`, `variance`, `std`, `meanSquare`, `rms`, `meanSq`, `layerNorm`, `rmsNorm`'; // `state` keys beyond the attributes (README)
  static params = {
    x: { attr: 'x', kind: 'vector', minLength: 2, maxLength: 8, default: [1, 2, 3], doc: 'the input vector' },
    shift: {
      attr: 'shift',
      kind: 'number',
      default: 0,
      min: -110,
      max: 110,
      step: 0.5,
      control: 'slider',
      doc: 'a common shift m added to x',
    },
  };
  static css = `${figureCss}
.rms-panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(230px, 1fr)); gap: 10px; }
.bar.input { fill: var(--nl-input); } .bar.layer_norm { fill: var(--nl-layer-norm); } .bar.rms_norm { fill: var(--nl-rms-norm); }
.mean-line { stroke: var(--nl-fg); stroke-width: 2; stroke-dasharray: 5 3; }
.leg { stroke-width: 3.5; stroke-linecap: round; fill: none; }
.leg.mu { stroke: var(--nl-fg); } .leg.sigma { stroke: var(--nl-layer-norm); } .leg.rms { stroke: var(--nl-rms-norm); }
.label.mu { fill: var(--nl-fg); } .label.sigma { fill: var(--nl-layer-norm); } .label.rms { fill: var(--nl-rms-norm); }
.label.mean { fill: var(--nl-fg); }
.label { font-size: var(--nl-small-size); }
.identity { font-size: var(--nl-label-size); }
.tok { font-size: var(--nl-small-size); fill: var(--nl-muted); }
.key { font-size: var(--nl-small-size); }
.key.layer_norm { fill: var(--nl-layer-norm); } .key.rms_norm { fill: var(--nl-rms-norm); }
`;

  buildControls(box) {
    super.buildControls(box);
    const preset = (label, x, shift) =>
      this.button(label, () => {
        this._values.x = x;
        this._values.shift = shift;
        this._attrErrors.delete('x');
        this._attrErrors.delete('shift');
        this.reflect('x', x.join(','));
        this.reflect('shift', shift);
      });
    box.append(
      preset('presetSmall', [1, 2, 3], 0),
      preset('presetLarge', [1, 2, 3], 100),
      preset('presetCentered', [-1, 0, 1], 0),
    );
  }

  buildView(view) {
    const box = el('div', { class: 'rms-panels' });
    this._svgs = ['input', 'triangle', 'outputs'].map((k) => svg(260, 230, k)); // about the drawn height at any width
    box.append(...this._svgs);
    view.append(box);
  }

  compute(core, { x, shift }) {
    const d = x.length;
    const row = (v) => ({ shape: [1, d], data: v });
    const shifted = this.op('film', {
      x: row(x),
      gamma: row(new Array(d).fill(1)),
      beta: row(new Array(d).fill(shift)),
    });
    const m = core.run('moments', { x: NlFigure.vec(shifted) });
    const one = (k) => m[k].data[0];
    const layerNorm = this.op('layer_norm', { x: row(shifted) });
    const rmsNorm = this.op('rms_norm', { x: row(shifted) });
    const inAxis = this.axis([...shifted, one('mean')], { include_zero: true, count: 4 });
    const outAxis = this.axis([...layerNorm, ...rmsNorm, -2, 2], { symmetric: true, count: 4 });
    const legAxis = this.axis([0, one('rms')], { count: 4 });
    return {
      shifted,
      mean: one('mean'),
      variance: one('var'),
      std: one('std'),
      meanSquare: one('ms'),
      rms: one('rms'),
      meanSq: one('mean_sq'),
      layerNorm,
      rmsNorm,
      inDomain: inAxis.domain,
      inTicks: inAxis.ticks,
      outDomain: outAxis.domain,
      outTicks: outAxis.ticks,
      legDomain: legAxis.domain,
      legTicks: legAxis.ticks,
    };
  }

  /** One formatter per quantity: 4 significant digits for the statistics and outputs, */
  num(v) {
    return this.fmt(v, 4);
  }

  /** and 7 (all a float32 holds) for the three terms of RMS² = σ² + μ², so the sum reads true at any shift. */
  exact(v) {
    return this.fmt(v, 7);
  }

  draw(s) {
    const d = s.x.length;
    const tick = (v) => this.fmt(v, 3);
    // 1. the shifted input and its mean
    {
      const svgEl = this._svgs[0];
      const W = this.fit(svgEl, 260, 230);
      const left = 42,
        right = 8,
        top = 44,
        bottom = 196;
      const y = scale(s.inDomain, [bottom, top]);
      const slot = (W - left - right) / d;
      const items = [
        yAxis(s.inTicks, y, left, W - right, tick),
        el('line', { class: 'zero', x1: left, x2: W - right, y1: y(0), y2: y(0) }),
      ];
      s.shifted.forEach((v, i) => {
        items.push(
          el('rect', {
            class: 'bar input',
            x: (left + i * slot + slot * 0.2).toFixed(1),
            width: (slot * 0.6).toFixed(1),
            y: Math.min(y(v), y(0)).toFixed(1),
            height: Math.abs(y(v) - y(0)).toFixed(1),
            rx: 2,
          }),
        );
        items.push(
          el(
            'text',
            { class: 'tok', x: (left + (i + 0.5) * slot).toFixed(1), y: bottom + 16, 'text-anchor': 'middle' },
            `x${i + 1}`,
          ),
        );
      });
      items.push(
        el('line', { class: 'mean-line', x1: left, x2: W - right, y1: y(s.mean).toFixed(1), y2: y(s.mean).toFixed(1) }),
      );
      items.push(el('text', { class: 'label mean', x: left, y: 31 }, `μ = ${this.num(s.mean)}`));
      items.push(el('text', { class: 'panel-title', x: left, y: 16 }, this.t('inputTitle', { m: this.num(s.shift) })));
      svgEl.replaceChildren(...items);
    }
    // 2. the triangle: legs |μ| (horizontal) and σ (vertical), hypotenuse RMS, on one scale
    {
      const svgEl = this._svgs[1];
      const W = this.fit(svgEl, 260, 230);
      const left = 42,
        right = 14,
        top = 46,
        size = Math.min(W - left - right, 150);
      const p = scale(s.legDomain, [left, left + size]),
        q = scale(s.legDomain, [top + size, top]);
      const mu = Math.abs(s.mean);
      const items = [xAxis(s.legTicks, p, top, top + size, tick), yAxis(s.legTicks, q, left, left + size, tick)];
      items.push(
        el('path', { class: 'leg mu', d: `M${p(0).toFixed(1)},${q(0).toFixed(1)}H${p(mu).toFixed(1)}` }),
        el('path', { class: 'leg sigma', d: `M${p(mu).toFixed(1)},${q(0).toFixed(1)}V${q(s.std).toFixed(1)}` }),
        el('path', {
          class: 'leg rms',
          d: `M${p(0).toFixed(1)},${q(0).toFixed(1)}L${p(mu).toFixed(1)},${q(s.std).toFixed(1)}`,
        }),
        // a key, not labels on the legs: a flat triangle (large mean) has no room beside them
        el('text', { class: 'label mu', x: 8, y: 31 }, `|μ| = ${this.num(mu)}`),
        el('text', { class: 'label sigma', x: 86, y: 31 }, `σ = ${this.num(s.std)}`),
        el('text', { class: 'label rms', x: 164, y: 31 }, `RMS = ${this.num(s.rms)}`),
      );
      items.push(el('text', { class: 'panel-title', x: left, y: 16 }, this.t('triangleTitle')));
      items.push(
        el(
          'text',
          { class: 'identity', x: left, y: top + size + 36 },
          this.t('identity', { ms: this.exact(s.meanSquare), v: this.exact(s.variance), m2: this.exact(s.meanSq) }),
        ),
      );
      svgEl.setAttribute('viewBox', `0 0 ${W} ${top + size + 46}`);
      svgEl.replaceChildren(...items);
    }
    // 3. LayerNorm and RMSNorm of the shifted input, side by side per coordinate
    {
      const svgEl = this._svgs[2];
      const W = this.fit(svgEl, 260, 230);
      const left = 42,
        right = 8,
        top = 44,
        bottom = 196;
      const y = scale(s.outDomain, [bottom, top]);
      const slot = (W - left - right) / d,
        bw = Math.min(16, slot * 0.36);
      const items = [
        yAxis(s.outTicks, y, left, W - right, tick),
        el('line', { class: 'zero', x1: left, x2: W - right, y1: y(0), y2: y(0) }),
      ];
      for (let i = 0; i < d; i++) {
        const cx = left + (i + 0.5) * slot;
        [
          ['layer_norm', s.layerNorm[i], -1],
          ['rms_norm', s.rmsNorm[i], 0],
        ].forEach(([k, v, off]) => {
          items.push(
            el('rect', {
              class: `bar ${k}`,
              x: (cx + off * bw).toFixed(1),
              width: (bw - 1).toFixed(1),
              y: Math.min(y(v), y(0)).toFixed(1),
              height: Math.abs(y(v) - y(0)).toFixed(1),
              rx: 2,
            }),
          );
        });
        items.push(
          el('text', { class: 'tok', x: cx.toFixed(1), y: bottom + 16, 'text-anchor': 'middle' }, `x${i + 1}`),
        );
      }
      items.push(el('text', { class: 'panel-title', x: left, y: 16 }, this.t('outputTitle')));
      items.push(
        el('text', { class: 'key layer_norm', x: left, y: 32 }, 'LayerNorm'),
        el('text', { class: 'key rms_norm', x: left + 80, y: 32 }, 'RMSNorm'),
      );
      svgEl.replaceChildren(...items);
    }
  }

  describe(s) {
    const list = (vs) => this.fmtList(vs, 4);
    const vars = {
      x: list(s.shifted),
      mean: this.num(s.mean),
      std: this.num(s.std),
      rms: this.num(s.rms),
      ms: this.exact(s.meanSquare),
      v: this.exact(s.variance),
      m2: this.exact(s.meanSq),
      ln: list(s.layerNorm),
      rn: list(s.rmsNorm),
    };
    const parts = [this.t('describeStats', vars)];
    if (this.num(s.mean) === this.num(0)) parts.push(this.t('describeCentered', vars));
    else if (Math.abs(s.mean) <= s.std) parts.push(this.t('describeSpreadWins', vars));
    else {
      const oneSign = s.rmsNorm.every((v) => v > 0) || s.rmsNorm.every((v) => v < 0);
      parts.push(this.t(oneSign ? 'describeMeanWins' : 'describeMeanWinsMixed', vars));
    }
    return parts.join(this.t('sentenceSep'));
  }
}
NlRmsDecomposition.defineProperties();
