// <nl-rms-decomposition> — RMS² = σ² + μ² read as an angle. The vector (|μ|, σ)
// has length RMS, so the identity is a right triangle with legs |μ| and σ; its
// angle θ = atan(σ / |μ|) says how much of the RMS is spread. It opens on
// x = (1, 2, 3) itself, θ = 22.2°, the triangle open. Shifting every
// coordinate of x by c moves the mean and leaves σ alone: one button goes to
// the article's c = 100, (101, 102, 103), where the angle is under half a
// degree (the unshifted triangle stays drawn as a dashed reference), the RMS
// is |μ| to five digits, and RMSNorm divides by little more than the mean,
// while LayerNorm, which removes μ first, does not change at all. The triangle is drawn with its hypotenuse at one fixed length,
// so it never runs off the panel; when the σ leg is too short to see, a
// magnifier shows the corner where it stands.
//
// Attributes: x ("1,2,3"; 2..8 numbers), shift (0; −110..110), lang.
// Properties: x, shift; state (read-only): {x, shift, shifted (x + c), mean,
//   absMean (|μ|), variance, std, meanSquare (RMS²), rms, meanSq (μ²), theta (θ in
//   degrees; null when x + c is all zeros), unit ((|μ|, σ) / RMS = (cos θ, sin θ)),
//   layerNorm, rmsNorm, base: {absMean, std, theta, unit} (the same for x
//   itself, c = 0), inDomain, inTicks, outDomain, outTicks, error}.
// Events: change (the reader moved the slider or pressed a preset).
// Keyboard: the shift slider; presets "Add 100: (101, 102, 103)" (the
//   article's shifted example), "(1, 2, 3)" and "mean 0: (−1, 0, 1)".
// Colours: --nl-input x + c, --nl-fg the mean (line and μ leg: a measurement, not a method),
//   --nl-layer-norm the σ leg and LayerNorm's output, --nl-rms-norm the RMS
//   hypotenuse and RMSNorm's output, --nl-reference the triangle of x itself
//   (c = 0) when c is not 0.
// Parts: figure, controls, slider, number, button, view, description, error.
// Numbers from the core: film (x + c), moments (μ, |μ|, σ², σ, RMS², RMS, μ²),
// angle_between (θ), l2_normalize (cos θ, sin θ), layer_norm, rms_norm, axis_ticks.
import { el } from '../lib/base.js';
import { NlFigure, figureCss } from '../lib/figure.js';
import { scale, svg, yAxis } from '../lib/plot.js';
import { subscript } from '../lib/text.js';
import { numberLocale } from '../../i18n/index.js';

const SIG = 5; // significant digits of the three terms of RMS² = σ² + μ² and of cos θ, all alike
const sigFormats = new Map();

export class NlRmsDecomposition extends NlFigure {
  static catalog = 'rmsDecomposition';
  static summary = 'RMS² = σ² + μ² as the angle θ = atan(σ/|μ|); a shift c of the mean changes RMSNorm, not LayerNorm.';
  static minHeight = 516; // px kept by normlab/styles.css (measured at 960 px, default attributes)
  static phoneMinHeight = { en: 1398, zh: 1324 }; // px kept up to 600 px wide (measured at 360 px, default attributes)
  static stateDoc =
    '`shifted`, `mean`, `absMean`, `variance`, `std`, `meanSquare`, `rms`, `meanSq`, `theta`, `unit`, `layerNorm`, `rmsNorm`, `base`'; // `state` keys beyond the attributes (README)
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
      doc: 'a common shift c added to every coordinate of x',
    },
  };
  static css = `${figureCss}
.rms-panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(240px, 1fr)); gap: 10px; }
.bar.input { fill: var(--nl-input); } .bar.layer_norm { fill: var(--nl-layer-norm); } .bar.rms_norm { fill: var(--nl-rms-norm); }
.mean-line { stroke: var(--nl-fg); stroke-width: 2; stroke-dasharray: 5 3; }
.leg { stroke-width: 3.5; stroke-linecap: round; fill: none; }
.leg.mu { stroke-width: 6; } /* under the hypotenuse: at a small θ the two lie on one another, both seen */
.leg.mu { stroke: var(--nl-fg); } .leg.rms { stroke-width: 2.5; } .leg.sigma { stroke: var(--nl-layer-norm); } .leg.rms { stroke: var(--nl-rms-norm); }
.label.mu { fill: var(--nl-fg); } .label.sigma { fill: var(--nl-layer-norm); } .label.rms { fill: var(--nl-rms-norm); }
.label.mean, .label.theta { fill: var(--nl-fg); }
.label { font-size: var(--nl-label-size); }
.dial { fill: none; stroke: var(--nl-grid); stroke-width: 1.5; }
.angle { fill: none; stroke: var(--nl-fg); stroke-width: 1.5; }
.lens { fill: var(--nl-bg); stroke: var(--nl-muted); stroke-width: 1.2; }
.lens-mark { fill: none; stroke: var(--nl-muted); stroke-width: 1.2; }
.ref-leg { fill: none; stroke: var(--nl-reference); stroke-width: 2; stroke-dasharray: 5 4; }
.label.ref { fill: var(--nl-muted); }
.leader { stroke: var(--nl-muted); stroke-width: 1; stroke-dasharray: 2 2; }
.identity { font-size: var(--nl-label-size); font-variant-numeric: tabular-nums; }
.tok { font-size: var(--nl-small-size); fill: var(--nl-muted); }
.key { font-size: var(--nl-small-size); }
.key.layer_norm { fill: var(--nl-layer-norm); } .key.rms_norm { fill: var(--nl-rms-norm); }
@container (max-width: 520px) {
  button, select, input[type=number] { min-height: 44px; }
  input[type=range] { height: 44px; }
}
`;

  buildControls(box) {
    super.buildControls(box);
    const preset = (label, x, shift) => this.button(label, () => this.setValues({ x, shift }));
    box.append(
      preset('presetLarge', [1, 2, 3], 100),
      preset('presetSmall', [1, 2, 3], 0),
      preset('presetCentered', [-1, 0, 1], 0),
    );
  }

  buildView(view) {
    const box = el('div', { class: 'rms-panels' });
    this._svgs = ['input', 'triangle', 'outputs'].map((k) => svg(260, 240, k)); // about the drawn height at any width
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
    const absMean = core.run('moments', { x: NlFigure.vec([one('mean')]) }).rms.data[0]; // the RMS of one number is its size
    // (|μ|, σ) has length RMS: its angle to the μ axis is θ, its direction (cos θ, sin θ).
    const legs = NlFigure.vec([absMean, one('std')]);
    const flat = one('rms') === 0; // x + c all zeros: no triangle, no angle
    const theta = flat ? null : this.op('angle_between', { a: legs, b: NlFigure.vec([1, 0]) })[0];
    const unit = flat ? null : this.op('l2_normalize', { x: legs });
    // the same triangle for x itself (c = 0): the reference the shift is compared with
    const m0 = core.run('moments', { x: NlFigure.vec(x) });
    const base = {
      absMean: core.run('moments', { x: NlFigure.vec([m0.mean.data[0]]) }).rms.data[0],
      std: m0.std.data[0],
    };
    const baseLegs = NlFigure.vec([base.absMean, base.std]);
    const baseFlat = m0.rms.data[0] === 0;
    base.theta = baseFlat ? null : this.op('angle_between', { a: baseLegs, b: NlFigure.vec([1, 0]) })[0];
    base.unit = baseFlat ? null : this.op('l2_normalize', { x: baseLegs });
    const layerNorm = this.op('layer_norm', { x: row(shifted) });
    const rmsNorm = this.op('rms_norm', { x: row(shifted) });
    const inAxis = this.axis([...shifted, one('mean')], { include_zero: true, count: 4 });
    const outAxis = this.axis([...layerNorm, ...rmsNorm, -2, 2], { symmetric: true, count: 4 });
    return {
      shifted,
      mean: one('mean'),
      absMean,
      variance: one('var'),
      std: one('std'),
      meanSquare: one('ms'),
      rms: one('rms'),
      meanSq: one('mean_sq'),
      theta,
      unit,
      layerNorm,
      rmsNorm,
      base,
      inDomain: inAxis.domain,
      inTicks: inAxis.ticks,
      outDomain: outAxis.domain,
      outTicks: outAxis.ticks,
    };
  }

  /** 4 significant digits for the statistics, the angle and the outputs, */
  num(v) {
    return this.fmt(v, 4);
  }

  /** and exactly SIG, trailing zeros kept, for RMS², σ², μ² and cos θ: one precision for the terms of one sum. */
  sig(v) {
    const locale = numberLocale(this.lang);
    let f = sigFormats.get(locale);
    if (!f)
      sigFormats.set(
        locale,
        (f = new Intl.NumberFormat(locale, { minimumSignificantDigits: SIG, maximumSignificantDigits: SIG })),
      );
    return f.format(v);
  }

  draw(s) {
    const d = s.x.length;
    const tick = (v) => this.fmt(v, 3);
    // 1. the shifted input and its mean
    {
      const svgEl = this._svgs[0];
      const W = this.fit(svgEl, 260, 240);
      const left = 42,
        right = 8,
        top = 44,
        bottom = 206;
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
            `x${subscript(i + 1)} + c`,
          ),
        );
      });
      items.push(
        el('line', { class: 'mean-line', x1: left, x2: W - right, y1: y(s.mean).toFixed(1), y2: y(s.mean).toFixed(1) }),
      );
      items.push(el('text', { class: 'label mean', x: left, y: 33 }, `μ = ${this.num(s.mean)}`));
      items.push(el('text', { class: 'panel-title', x: left, y: 16 }, this.t('inputTitle', { c: this.num(s.shift) })));
      svgEl.replaceChildren(...items);
    }
    // 2. the triangle of (|μ|, σ) with its hypotenuse RMS at one fixed length R, and the angle θ
    {
      const svgEl = this._svgs[1];
      const W = this.fit(svgEl, 260, 240);
      const left = 14,
        top = 54,
        R = Math.max(120, Math.min(W - left - 78, 170)); // room for the RMS label past the tip
      const ox = left,
        oy = top + R; // the right angle's far corner O; the μ axis runs right, the σ axis up
      const items = [
        el('text', { class: 'panel-title', x: left, y: 16 }, this.t('triangleTitle')),
        el('text', { class: 'label mu', x: left, y: 33 }, `|μ| = ${this.num(s.absMean)}`),
        el('text', { class: 'label sigma', x: left + 88, y: 33 }, `σ = ${this.num(s.std)}`),
        el('path', { class: 'dial', d: `M${ox + R},${oy}A${R},${R} 0 0 0 ${ox},${oy - R}` }),
        el('line', { class: 'zero', x1: ox, x2: ox + R + 8, y1: oy, y2: oy }),
        el('line', { class: 'zero', x1: ox, x2: ox, y1: oy, y2: oy - R - 8 }),
        // what the arc is, at its top end (θ = 90°, where no tip of a vector with |μ| > 0 reaches)
        el('text', { class: 'label ref', x: ox + 6, y: oy - R - 4 }, this.t('dialLabel')),
      ];
      if (s.unit && s.base.unit && s.shift !== 0) {
        // x itself (c = 0), dashed behind: what the shift changed
        const [bx, by] = s.base.unit;
        const tx = ox + R * bx,
          ty = oy - R * by;
        items.push(
          el('path', { class: 'ref-leg', d: `M${ox},${oy}L${tx.toFixed(1)},${ty.toFixed(1)}V${oy}` }),
          el(
            'text',
            // outside the quarter circle, beyond the tip
            { class: 'label ref', x: (ox + (R + 6) * bx).toFixed(1), y: (oy - (R + 6) * by - 4).toFixed(1) },
            this.t('refLabel', { theta: this.num(s.base.theta) }),
          ),
        );
      }
      if (s.unit) {
        const [cx, sy] = s.unit; // cos θ, sin θ from the core
        const fx = ox + R * cx,
          py = oy - R * sy; // F, the foot of σ; P = (fx, py), the tip
        items.push(
          el('path', { class: 'leg mu', d: `M${ox},${oy}H${fx.toFixed(1)}` }),
          el('path', { class: 'leg sigma', d: `M${fx.toFixed(1)},${oy}V${py.toFixed(1)}` }),
          el('path', { class: 'leg rms', d: `M${ox},${oy}L${fx.toFixed(1)},${py.toFixed(1)}` }),
        );
        // the angle at O, from the μ axis up to the hypotenuse
        const r = 32;
        items.push(
          el('path', {
            class: 'angle',
            d: `M${ox + r},${oy}A${r},${r} 0 0 0 ${(ox + r * cx).toFixed(1)},${(oy - r * sy).toFixed(1)}`,
          }),
        );
        // θ's glyph on the bisector of the angle, never lower than 10 px above the μ leg
        const bx = 1 + cx,
          by = sy,
          bl = Math.hypot(bx, by) || 1;
        items.push(
          el(
            'text',
            {
              class: 'label theta',
              x: (ox + (46 * bx) / bl).toFixed(1),
              y: Math.min(oy - (46 * by) / bl + 4, oy - 10).toFixed(1),
              'text-anchor': 'middle',
            },
            'θ',
          ),
        );
        items.push(
          el(
            'text',
            // beside the tip: above it, or below it when the tip is high (θ near 90°) and the key is above
            {
              class: 'label rms',
              x: (fx + 8).toFixed(1),
              y: (sy > 0.6 ? py + 16 : Math.min(py - 6, oy - 22)).toFixed(1),
            },
            `RMS = ${this.num(s.rms)}`,
          ),
        );
        const sigmaPx = R * sy;
        if (sigmaPx >= 18 || s.std === 0) {
          items.push(
            el(
              'text',
              { class: 'label sigma', x: (fx + 6).toFixed(1), y: (oy - sigmaPx / 2 + 4).toFixed(1) },
              s.std === 0 ? '' : 'σ',
            ),
          );
        } else {
          // too short to see: a magnifier over the corner F, the σ leg in it drawn 44 px tall
          const lr = 34,
            lx = Math.max(ox + lr + 4, fx - lr - 30),
            ly = oy - R * 0.5;
          const k = 44,
            half = k / 2;
          items.push(
            el('circle', { class: 'lens-mark', cx: fx.toFixed(1), cy: oy, r: 6 }),
            el('line', { class: 'leader', x1: fx.toFixed(1), y1: oy - 6, x2: lx.toFixed(1), y2: ly + lr }),
            el('circle', { class: 'lens', cx: lx.toFixed(1), cy: ly.toFixed(1), r: lr }),
            el('path', {
              class: 'leg mu',
              d: `M${(lx - lr + 4).toFixed(1)},${(ly + half).toFixed(1)}H${lx.toFixed(1)}`,
            }),
            el('path', {
              class: 'leg sigma',
              d: `M${lx.toFixed(1)},${(ly + half).toFixed(1)}V${(ly - half).toFixed(1)}`,
            }),
            el('path', {
              class: 'leg rms',
              d: `M${(lx - lr + 4).toFixed(1)},${(ly - half).toFixed(1)}L${lx.toFixed(1)},${(ly - half).toFixed(1)}`,
            }),
            el('text', { class: 'label sigma', x: (lx + 6).toFixed(1), y: (ly + 4).toFixed(1) }, 'σ'),
          );
        }
        items.push(
          el(
            'text',
            { class: 'label mu', x: (ox + R * cx * 0.5).toFixed(1), y: oy + 17, 'text-anchor': 'middle' },
            '|μ|',
          ),
        );
      }
      items.push(
        el(
          'text',
          { class: 'identity', x: left, y: oy + 40 },
          s.theta === null
            ? this.t('thetaNone')
            : this.t('thetaLine', { theta: this.num(s.theta), cos: this.sig(s.unit[0]) }),
        ),
        el(
          'text',
          { class: 'identity', x: left, y: oy + 58 },
          this.t('identity', { ms: this.sig(s.meanSquare), v: this.sig(s.variance), m2: this.sig(s.meanSq) }),
        ),
      );
      svgEl.setAttribute('viewBox', `0 0 ${W} ${oy + 66}`);
      svgEl.replaceChildren(...items);
    }
    // 3. LayerNorm and RMSNorm of the shifted input, side by side per coordinate
    {
      const svgEl = this._svgs[2];
      const W = this.fit(svgEl, 260, 240);
      const left = 42,
        right = 8,
        top = 44,
        bottom = 206;
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
          el(
            'text',
            { class: 'tok', x: cx.toFixed(1), y: bottom + 16, 'text-anchor': 'middle' },
            `x${subscript(i + 1)} + c`,
          ),
        );
      }
      items.push(el('text', { class: 'panel-title', x: left, y: 16 }, this.t('outputTitle')));
      items.push(
        el('text', { class: 'key layer_norm', x: left, y: 33 }, 'LayerNorm'),
        el('text', { class: 'key rms_norm', x: left + 80, y: 33 }, 'RMSNorm'),
      );
      svgEl.replaceChildren(...items);
    }
  }

  describe(s) {
    const list = (vs) => this.fmtList(vs, 4);
    const vars = {
      c: this.num(s.shift),
      x: list(s.shifted),
      mean: this.num(s.mean),
      absMean: this.num(s.absMean),
      std: this.num(s.std),
      rms: this.num(s.rms),
      ms: this.sig(s.meanSquare),
      v: this.sig(s.variance),
      m2: this.sig(s.meanSq),
      theta: s.theta === null ? '' : this.num(s.theta),
      cos: s.unit ? this.sig(s.unit[0]) : '',
      theta0: s.base.theta === null ? '' : this.num(s.base.theta),
      absMean0: this.num(s.base.absMean),
      ln: list(s.layerNorm),
      rn: list(s.rmsNorm),
    };
    const parts = [this.t('describeStats', vars)];
    if (s.theta === null) parts.push(this.t('describeZero', vars));
    else {
      parts.push(this.t('describeTheta', vars));
      if (this.num(s.mean) === this.num(0)) parts.push(this.t('describeCentered', vars));
      else if (s.absMean <= s.std) parts.push(this.t('describeSpreadWins', vars));
      else {
        const oneSign = s.rmsNorm.every((v) => v > 0) || s.rmsNorm.every((v) => v < 0);
        parts.push(this.t(oneSign ? 'describeMeanWins' : 'describeMeanWinsMixed', vars));
      }
    }
    // what the shift did, against x itself (the dashed triangle)
    if (s.shift !== 0 && s.theta !== null && s.base.theta !== null) {
      const same = this.num(s.theta) === this.num(s.base.theta);
      parts.push(
        this.t(
          same ? 'describeShiftSame' : s.theta < s.base.theta ? 'describeShiftClosed' : 'describeShiftOpened',
          vars,
        ),
      );
    }
    // at c = 0 with a mean ≥ 0, a larger c only makes |μ| larger and θ smaller
    if (s.shift === 0 && s.theta !== null && s.mean >= 0)
      parts.push(this.t('describeTry', { button: this.t('presetLarge') }));
    return parts.join(this.t('sentenceSep'));
  }
}
NlRmsDecomposition.defineProperties();

// The figure's strings, English and Chinese (t(key); a language added with registerLocale overrides them).
NlRmsDecomposition.strings = {
  en: {
    name: 'RMS² = σ² + μ² as an angle: a shift c changes RMSNorm and not LayerNorm',
    shift: 'Add c to every coordinate',
    presetSmall: 'Use (1, 2, 3)',
    presetLarge: 'Add 100: (101, 102, 103)',
    presetCentered: 'Use mean 0: (−1, 0, 1)',
    inputTitle: 'x + c, c = {c}',
    triangleTitle: 'RMS² = σ² + μ², θ = atan(σ / |μ|)',
    thetaLine: 'θ = {theta}°, cos θ = |μ| / RMS = {cos}',
    thetaNone: 'x + c is all zeros: no angle',
    identity: 'RMS² = σ² + μ²: {ms} = {v} + {m2}',
    outputTitle: 'Outputs',
    sentenceSep: ' ',
    describeStats:
      'x + c = {x} has mean μ = {mean}, standard deviation σ = {std} and RMS {rms}; RMS² = σ² + μ² reads {ms} = {v} + {m2}.',
    describeTheta:
      'The hypotenuse RMS makes the angle θ = atan(σ / |μ|) = {theta}° with the leg |μ|, so |μ| is cos θ = {cos} of the RMS.',
    describeZero: 'Every coordinate of x + c is 0: there is nothing to normalize and no angle.',
    describeCentered: 'With mean 0 the RMS is all spread, so RMSNorm and LayerNorm agree: {ln} and {rn}.',
    describeMeanWins:
      'θ is under 45°, so the RMS is mostly the mean, RMS = |μ| / cos θ, and RMSNorm gives {rn}, all of one sign, while LayerNorm, which removes μ before dividing by σ, gives {ln} at every shift.',
    describeMeanWinsMixed:
      'θ is under 45°, so the RMS is mostly the mean, RMS = |μ| / cos θ, and RMSNorm gives {rn}, while LayerNorm, which removes μ before dividing by σ, gives {ln} at every shift.',
    describeSpreadWins:
      'θ is at least 45°, so the RMS is mostly spread: RMSNorm gives {rn}, which keeps more of the pattern that LayerNorm gives at every shift, {ln}.',
    refLabel: 'c = 0: θ = {theta}°',
    dialLabel: 'arc of radius RMS: the tip moves on it',
    describeShiftClosed:
      'Adding c = {c} to every coordinate left σ at {std} but took |μ| from {absMean0} to {absMean}, so θ closed from {theta0}° (the dashed triangle, c = 0) to {theta}°.',
    describeShiftOpened:
      'Adding c = {c} to every coordinate left σ at {std} but took |μ| from {absMean0} to {absMean}, so θ opened from {theta0}° (the dashed triangle, c = 0) to {theta}°.',
    describeShiftSame:
      'Adding c = {c} to every coordinate left σ at {std} and |μ| at {absMean}: θ is {theta}°, as at c = 0 (the dashed triangle).',
    describeTry: 'Slide c up, or press “{button}”, and watch θ close: σ stays, |μ| grows.',
  },
  zh: {
    name: '把 RMS² = σ² + μ² 看作一个角：平移 c 会改变 RMSNorm，不会改变 LayerNorm',
    shift: '每个坐标加上平移量 c',
    presetSmall: '取 (1, 2, 3)',
    presetLarge: '加 100：(101, 102, 103)',
    presetCentered: '取 mean 为 0：(−1, 0, 1)',
    inputTitle: 'x + c，c = {c}',
    triangleTitle: 'RMS² = σ² + μ²，θ = atan(σ / |μ|)',
    thetaLine: 'θ = {theta}°，cos θ = |μ| / RMS = {cos}',
    thetaNone: 'x + c 全为 0：没有角度',
    identity: 'RMS² = σ² + μ²: {ms} = {v} + {m2}',
    outputTitle: '输出',
    sentenceSep: '',
    describeStats:
      'x + c = {x} 的 mean μ = {mean}，标准差 σ = {std}，RMS 为 {rms}；RMS² = σ² + μ² 即 {ms} = {v} + {m2}。',
    describeTheta: '直角边 |μ| 与斜边 RMS 的夹角为 θ = atan(σ / |μ|) = {theta}°，所以 |μ| 是 RMS 的 cos θ = {cos} 倍。',
    describeZero: 'x + c 的每个坐标都是 0：没有可归一化的内容，也没有角度。',
    describeCentered: '当 mean 为 0 时，RMS 全部来自离散程度，所以 RMSNorm 与 LayerNorm 一致：{ln} 与 {rn}。',
    describeMeanWins:
      'θ 小于 45°，RMS 主要就是 mean，RMS = |μ| / cos θ，RMSNorm 给出 {rn}，符号全部相同；LayerNorm 先去掉 μ 再除以 σ，无论怎样平移都给出 {ln}。',
    describeMeanWinsMixed:
      'θ 小于 45°，RMS 主要就是 mean，RMS = |μ| / cos θ，RMSNorm 给出 {rn}；LayerNorm 先去掉 μ 再除以 σ，无论怎样平移都给出 {ln}。',
    describeSpreadWins:
      'θ 不小于 45°，RMS 主要来自离散程度：RMSNorm 给出 {rn}，保留了较多 LayerNorm 在任何平移下都给出的模式 {ln}。',
    refLabel: 'c = 0：θ = {theta}°',
    dialLabel: '半径为 RMS 的圆弧：顶点沿它移动',
    describeShiftClosed:
      '每个坐标加上 c = {c} 后，σ 仍是 {std}，|μ| 却从 {absMean0} 变为 {absMean}，所以 θ 从 {theta0}°（虚线三角形，c = 0）收窄到 {theta}°。',
    describeShiftOpened:
      '每个坐标加上 c = {c} 后，σ 仍是 {std}，|μ| 却从 {absMean0} 变为 {absMean}，所以 θ 从 {theta0}°（虚线三角形，c = 0）张大到 {theta}°。',
    describeShiftSame:
      '每个坐标加上 c = {c} 后，σ 仍是 {std}，|μ| 仍是 {absMean}：θ 与 c = 0 时（虚线三角形）一样，是 {theta}°。',
    describeTry: '把 c 往上拖，或点“{button}”，看 θ 收窄：σ 不变，|μ| 变大。',
  },
};
