// <nl-bar-compare> — one vector under a common scale and offset, and what
// L2 normalization, LayerNorm and RMSNorm make of it; LayerNorm's two steps
// (subtract the mean, divide by the spread) shown one at a time.
//
// Attributes:
//   vector  "1,2,3"  2 to 12 numbers (a longer list is refused at once with the
//                    localized 'tooLong' message; the last good drawing stays)
//   scale   1        common scale of the input, −1000..1000 (slider −20..20)
//   offset  0        common offset of the input, −10000..10000 (slider −200..200)
//   eps     1e-5     ε of all three normalizations, 0..1000
//   step    0        which LayerNorm step the step chart shows: 0 the input,
//                    1 after subtracting the mean, 2 after dividing by the spread
//   lang    en | zh  (nearest `lang` otherwise)
// Properties: vector (number[]), scale, offset, eps, step; state (read-only,
//   frozen): {vector, scale, offset, eps, step,
//     input            scale · vector + offset (float32, from the core),
//     reference        {input, l2, layer_norm, rms_norm} of the original vector,
//     current          {input, l2, layer_norm, rms_norm} of the current input,
//     change           {l2, layer_norm, rms_norm}: Euclidean distance between
//                      current and reference output; "unchanged" in the text
//                      means change ≤ UNCHANGED_TOL (1e-4),
//     steps            {mean, variance, centered, output}: LayerNorm's pieces
//                      for the current input (output = current.layer_norm),
//     axes             {input, output, centering, dividing}: {domain, ticks},
//     error}           the message shown, else null.
//   (Changes from the old element: attributes are range-checked, `step`, `change`,
//   `steps`, `axes` are new; the other state fields are unchanged.)
// Events: change — after the reader moves a control, drags a bar, presses a key
//   on a bar or presses a button (never after programmatic sets).
// Keyboard: sliders and boxes as usual; each gray input bar (the original
//   vector's coordinate) is a focusable slider: ArrowUp/ArrowRight +0.1,
//   ArrowDown/ArrowLeft −0.1, PageUp/PageDown ±1 (coordinates kept in ±1000).
//   Mouse and touch: drag the handle on a gray input bar up or down.
// Reset restores the vector, scale, offset, eps and step the page set (the old
//   Reset left the vector alone: it could not be changed by the reader then).
// Numbers: one formatter, num(): 4 significant digits, no digit grouping, −0 as
//   0, the same string in the table, the description, the step caption and the
//   handles' labels; axis ticks 3 digits (compact from 10 000).
// Motion: "Play" walks the LayerNorm steps with animated bars; under
//   prefers-reduced-motion it is hidden and "Next step" moves one step at a time
//   (also offered with motion).
// CSS custom properties: --nl-fg, --nl-bg, --nl-muted, --nl-grid,
//   --nl-reference (gray: original / before), --nl-input, --nl-l2,
//   --nl-layer-norm, --nl-rms-norm, --nl-focus, --nl-error, --nl-font,
//   --nl-label-size, --nl-small-size, --nl-title-size.
// Parts: figure, controls, slider, number, button, view, chart, panel, axis,
//   bar-reference, bar-current, handle, steps, steps-chart, steps-caption,
//   table, description, error.
// Ops used (every number comes from the WASM core): bar_compare, once per
//   update: the input scale · vector + offset in float32, L2, LayerNorm and
//   RMSNorm of the original and the current input, the distances, LayerNorm's
//   mean, σ² and x − mean (docs/ops.md, "Figure helpers"); axis_ticks for the
//   four axes.
import { el, formatPower } from '../lib/base.js';
import { NlFigure, figureCss } from '../lib/figure.js';
import { scale as linear } from '../lib/plot.js';
import { hitRadius, onDrag } from '../lib/handles.js';
import { textWidth } from '../lib/text.js';

const vec = NlFigure.vec;
const PANELS = ['input', 'l2', 'layer_norm', 'rms_norm'];
const OUTPUTS = ['l2', 'layer_norm', 'rms_norm'];
/** "Unchanged" means: the output is within this Euclidean distance of the original vector's output. */
export const UNCHANGED_TOL = 1e-4;
export const MAX_LENGTH = 12;
const COORD_STEP = 0.1; // arrow keys and drag resolution on a vector coordinate
const COORD_LIMIT = 1000;
const PLAY_MS = 1300; // time per LayerNorm step when playing

// Intl.NumberFormat objects are costly to make: one per language and options.
const formatters = new Map();
function formatter(lang, options) {
  const key = lang + JSON.stringify(options);
  if (!formatters.has(key)) formatters.set(key, new Intl.NumberFormat(lang === 'zh' ? 'zh-CN' : 'en-US', options));
  return formatters.get(key);
}

/** Label every k-th coordinate so that labels "x12" (11 px, about 6.5 px a character) never touch. */
const labelEvery = (gw, d) => Math.ceil((6.5 * (1 + String(d).length) + 6) / gw);

/** Round to the coordinate step without binary noise (1.1 + 0.1 → 1.2, not 1.2000000000000002). */
const snap = (v) => Number((Math.round(v / COORD_STEP) * COORD_STEP).toFixed(6));

export class NlBarCompare extends NlFigure {
  static catalog = 'barCompare';
  static summary = 'L2, LayerNorm and RMSNorm of one vector under a common scale and offset.';
  static minHeight = 949; // px kept by normlab/styles.css (measured at 960 px, default attributes)
  static phoneMinHeight = { en: 1426, zh: 1262 }; // px kept up to 600 px wide (measured at 360 px, default attributes)
  static stateDoc =
    '`input`, `reference` and `current` (`{input, l2, layer_norm, rms_norm}`), `change`, `steps`, `axes`'; // `state` keys beyond the attributes (README)
  static params = {
    vector: {
      attr: 'vector',
      kind: 'vector',
      minLength: 2,
      maxLength: MAX_LENGTH,
      default: [1, 2, 3],
      doc: "the input vector (a longer list is refused at once, in the reader's language)",
    },
    scale: {
      attr: 'scale',
      kind: 'number',
      default: 1,
      min: -1000,
      max: 1000,
      step: 0.1,
      control: 'slider',
      range: [-20, 20],
      doc: 'common scale of the input (slider −20 to 20)',
    },
    offset: {
      attr: 'offset',
      kind: 'number',
      default: 0,
      min: -10000,
      max: 10000,
      step: 1,
      control: 'slider',
      range: [-200, 200],
      doc: 'common offset of the input (slider −200 to 200)',
    },
    eps: {
      attr: 'eps',
      kind: 'number',
      default: 1e-5,
      min: 0,
      max: 1000,
      control: 'box',
      doc: 'ε of all three normalizations',
    },
    step: {
      attr: 'step',
      kind: 'number',
      integer: true,
      default: 0,
      min: 0,
      max: 2,
      doc: 'the LayerNorm step the step chart shows: 0 the input, 1 minus the mean, 2 divided by the spread',
    },
  };
  static css = `${figureCss}
.control { flex-wrap: wrap; max-width: 100%; }
.control input[type=range] { width: min(150px, 34vw); }
.control input[type=number] { width: 108px; }
.buttons { display: flex; flex-wrap: wrap; gap: 8px; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: var(--nl-small-size); color: var(--nl-muted); margin: 2px 0 0; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 4px; }
.swatch.reference { background: var(--nl-reference); }
.swatch.current { background: linear-gradient(90deg, var(--nl-input) 25%, var(--nl-l2) 25% 50%, var(--nl-layer-norm) 50% 75%, var(--nl-rms-norm) 75%); }
.swatch.layer-norm { background: var(--nl-layer-norm); }
.bar.reference { fill: var(--nl-reference); }
.bar.current.input { fill: var(--nl-input); }
.bar.current.l2 { fill: var(--nl-l2); }
.bar.current.layer_norm { fill: var(--nl-layer-norm); }
.bar.current.rms_norm { fill: var(--nl-rms-norm); }
.title { font-size: var(--nl-title-size); font-weight: 600; }
.subtitle, .coord, .mean-label { font-size: var(--nl-small-size); fill: var(--nl-muted); }
.mean-label { paint-order: stroke; stroke: var(--nl-bg); stroke-width: 4px; stroke-linejoin: round; }
.handle { touch-action: none; cursor: ns-resize; outline: none; }
.handle .hit { fill: transparent; }
.handle .knob { stroke: var(--nl-fg); stroke-width: 3; stroke-linecap: round; }
.handle:hover .knob { stroke-width: 4; }
/* the grip: a round handle on the gray bar's top, found at a glance even when the bar is a sliver */
.handle .grip { fill: var(--nl-bg); stroke: var(--nl-fg); stroke-width: 2; }
.handle .grip-arrows { fill: var(--nl-fg); }
.handle:hover .grip { stroke-width: 3; }
.handle:focus-visible .ring { fill: none; stroke: var(--nl-focus); stroke-width: 2; }
.handle .ring { fill: none; stroke: none; }
.steps { margin-top: 12px; border-top: 1px solid var(--nl-grid); padding-top: 8px; }
.steps-head { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 12px; }
.steps-title { font-size: var(--nl-title-size); font-weight: 600; margin: 0; }
.steps-caption { margin: 6px 0 0; font-variant-numeric: tabular-nums; }
.step-bar.before { fill: var(--nl-reference); opacity: 0.6; }
.step-bar.now { fill: var(--nl-layer-norm); }
.step-bar.now.at-input { fill: var(--nl-input); }
.mean-line { stroke: var(--nl-muted); stroke-dasharray: 5 4; stroke-width: 1.5; }
@media (prefers-reduced-motion: no-preference) {
  .step-anim { transition: y 450ms ease-in-out, height 450ms ease-in-out; }
  .mean-anim { transition: transform 450ms ease-in-out; }
}
@media (prefers-reduced-motion: reduce) { .play { display: none; } }
.table-box { overflow-x: auto; max-width: 100%; margin-top: 8px; }
table { font-size: 0.85em; }
th, td { padding: 2px 8px; vertical-align: top; }
th:first-child { padding-left: 0; }
tr.distance > * { border-top: 1px solid var(--nl-grid); }
@container (max-width: 440px) {
  .control { flex-wrap: nowrap; width: 100%; }
  .control input[type=range] { flex: 1 1 60px; width: auto; min-width: 0; max-width: none; }
  .control input[type=number] { width: 84px; flex: none; }
  .control.eps input[type=number] { width: 108px; }
  table { font-size: var(--nl-small-size); }
  th, td { padding: 2px 4px; }
}
caption { text-align: left; color: var(--nl-muted); padding-bottom: 2px; caption-side: top; }
td .ref { display: block; color: var(--nl-muted); font-size: var(--nl-small-size); }
.has-error .view { opacity: 1; }
.has-error .chart .current, .has-error .steps-chart .now { opacity: 0.3; }
`;

  constructor() {
    super();
    this._timers = [];
    this._layout = null;
    this._stepLayout = null;
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this._stopPlay();
  }

  // ---- controls -------------------------------------------------------------
  buildControls(box) {
    for (const [key, p] of Object.entries(this.constructor.params)) {
      if (p.control === 'slider') {
        const label = this.slider(key);
        // the slider covers the useful range; the box beside it takes the whole attribute range
        this._controls[key].range.min = String(p.range[0]);
        this._controls[key].range.max = String(p.range[1]);
        box.append(label);
      } else if (p.control === 'box') box.append(this._numberBox(key));
    }
    const buttons = el('div', { class: 'buttons' });
    buttons.append(
      this.button('add100', () => this._setPreset({ scale: 1, offset: 100 })),
      this.button('times10', () => this._setPreset({ scale: 10, offset: 0 })),
      this.button('reset', () => this._setPreset(this.pageValues)),
    );
    box.append(buttons);
  }

  _numberBox(key) {
    const p = this.constructor.params[key];
    const label = el('label', { class: `control ${key}` });
    const text = el('span');
    const input = el('input', { type: 'number', min: p.min, max: p.max, step: 'any', part: 'number' });
    input.addEventListener('change', () => this.setByUser(key, input.value));
    label.append(text, input);
    this._controls[key] = { text, box: input, note: this.invalidNote(key, input) };
    return label;
  }

  /** Set several parameters at once (the buttons); the base then recomputes and fires `change`. */
  _setPreset(values) {
    this._stopPlay();
    this.setValues(values);
  }

  // ---- view ------------------------------------------------------------------
  buildView(view) {
    this._svg = el('svg', { class: 'chart', part: 'chart' });
    const legend = el('p', { class: 'legend' });
    this._legendRef = el('span');
    this._legendCur = el('span');
    this._legendHint = el('span', { class: 'hint' }); // how to use it (a still picture leaves it out)
    legend.append(this._legendRef, this._legendCur, this._legendHint);

    const steps = el('section', { class: 'steps', part: 'steps' });
    const head = el('div', { class: 'steps-head' });
    this._stepsTitle = el('p', { class: 'steps-title' });
    this._play = el('button', { type: 'button', part: 'button', class: 'play' });
    this._next = el('button', { type: 'button', part: 'button', class: 'next' });
    this._play.addEventListener('click', () => this._startPlay());
    this._next.addEventListener('click', () => {
      if (!this._state) return;
      this._stopPlay();
      this.setByUser('step', (this._state.step + 1) % 3);
    });
    head.append(this._stepsTitle, this._play, this._next);
    this._stepSvg = el('svg', { class: 'steps-chart', part: 'steps-chart', 'aria-hidden': 'true' });
    this._stepLegend = el('p', { class: 'legend' });
    this._stepCaption = el('p', { class: 'steps-caption', part: 'steps-caption', 'aria-live': 'polite' });
    steps.append(head, this._stepSvg, this._stepLegend, this._stepCaption);

    this._table = el('table', { part: 'table' });
    const tableBox = el('div', { class: 'table-box' });
    this._tableNote = el('p', { class: 'legend table-note' });
    tableBox.append(this._table, this._tableNote);
    view.append(this._svg, legend, tableBox, steps);
  }

  languageChanged() {
    this._legendRef.replaceChildren(this._swatched('reference', this.t('legendReference')));
    this._legendCur.replaceChildren(this._swatched('current', this.t('legendCurrent')));
    this._legendHint.textContent = this.t('dragHint');
    this._stepsTitle.textContent = this.t('stepsTitle');
    this._play.textContent = this.t('play');
    this._stepLegend.replaceChildren(
      this._swatched('reference', this.t('legendBefore')),
      this._swatched('layer-norm', this.t('legendAfter')),
    );
    this._tableNote.textContent = this.t('tableNote', { tol: this.dist(UNCHANGED_TOL) });
    this._layout = null; // titles and labels are text in the SVG
    this._stepLayout = null;
  }

  /** A legend entry: a colour swatch and its text. */
  _swatched(cls, text) {
    const span = el('span');
    span.append(el('span', { class: `swatch ${cls}` }), text);
    return span;
  }

  // ---- LayerNorm animation ---------------------------------------------------------
  _reducedMotion() {
    return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
  }

  _startPlay() {
    if (!this._state) return;
    this._stopPlay();
    if (this._reducedMotion()) {
      // discrete steps only: one step per press
      this.setByUser('step', (this._state.step + 1) % 3);
      return;
    }
    this.setByUser('step', 0);
    for (const k of [1, 2]) this._timers.push(setTimeout(() => this.setByUser('step', k), k * PLAY_MS));
  }

  _stopPlay() {
    for (const id of this._timers) clearTimeout(id);
    this._timers = [];
  }

  // ---- computation (every number from the core) -------------------------------------
  /** The core's bar_compare (the input, both sets of outputs, the distances, LayerNorm's pieces) and four axis_ticks. */
  compute(core, { vector, scale, offset, eps }) {
    const out = core.run('bar_compare', { x: vec(vector) }, { scale, offset, eps });
    const d = vector.length;
    const a = (name) => Array.from(out[name].data);
    const rows = (name) => {
      const all = a(name);
      return Object.fromEntries(OUTPUTS.map((p, k) => [p, all.slice(k * d, (k + 1) * d)]));
    };
    const input = a('input');
    const change = Object.fromEntries(OUTPUTS.map((p, k) => [p, out.change.data[k]]));
    const current = { input, ...rows('current') };
    const reference = { input: [...vector], ...rows('reference') }; // the page's or the reader's own numbers
    const centered = a('centered');
    return {
      input,
      reference,
      current,
      change,
      steps: { mean: out.mean.data[0], variance: out.variance.data[0], centered, output: current.layer_norm },
      axes: {
        input: this.axis([...reference.input, ...input], { include_zero: true }),
        output: this.axis([out.bound.data[0]], { symmetric: true }),
        centering: this.axis([...input, ...centered], { include_zero: true }),
        dividing: this.axis([...centered, ...current.layer_norm], { include_zero: true }),
      },
    };
  }

  /** bar_compare names the part that failed ("bar_compare: layer_norm: …"): the reader sees that op's name. */
  coreMessage(e) {
    const part = /^bar_compare: ([a-z0-9_]+): /.exec(e?.message ?? '');
    if (!part) return super.coreMessage(e);
    const message = e.message.slice('bar_compare: '.length);
    return super.coreMessage({ code: e.code, op: part[1], argument: e.argument, detail: e.detail, message });
  }

  // ---- formatting: one formatter per quantity -----------------------------------------
  /**
   * A value, mean, variance, distance or parameter: 4 significant digits, no
   * digit grouping (a comma inside "(1,010, 1,020)" would read as a separator),
   * and −0 shown as 0. The same string in the readout, the description, the
   * step caption and the handles' labels.
   */
  num(v) {
    return formatter(this.lang, { maximumSignificantDigits: 4, useGrouping: false }).format(v === 0 ? 0 : v);
  }

  /**
   * A distance, the threshold or ε: 3 significant digits, in powers of ten below 0.001 (5.96 × 10⁻⁸, not
   * 0.0000000596), so a row of distances reads at one precision however far apart they are.
   */
  dist(v) {
    const a = Math.abs(v);
    if (a !== 0 && a < 1e-3) return formatPower(v, this.lang, 3);
    return formatter(this.lang, { maximumSignificantDigits: 3, useGrouping: false }).format(v === 0 ? 0 : v);
  }

  list(values) {
    return values.map((v) => this.num(v)).join(', ');
  }

  /** Axis tick labels: 3 significant digits, compact from 10 000 on so they fit the margin. */
  tick(v) {
    const big = Math.abs(v) >= 1e4;
    return formatter(
      this.lang,
      big ? { maximumSignificantDigits: 3, notation: 'compact' } : { maximumSignificantDigits: 3 },
    ).format(v === 0 ? 0 : v);
  }

  _join(names) {
    if (names.length <= 2) return names.join(this.t('and'));
    return names.slice(0, -1).join(this.t('listSep')) + this.t('and') + names.at(-1);
  }

  /** Which outputs count as unchanged (distance ≤ UNCHANGED_TOL) and which changed. */
  static verdict(s) {
    const same = OUTPUTS.filter((p) => s.change[p] <= UNCHANGED_TOL);
    return { same, moved: OUTPUTS.filter((p) => !same.includes(p)) };
  }

  describe(s) {
    const { same, moved } = NlBarCompare.verdict(s);
    const claims = [];
    if (same.length) claims.push(this.t('unchanged', { names: this._join(same.map((p) => this.t(p))) }));
    if (moved.length) claims.push(this.t('changed', { names: this._join(moved.map((p) => this.t(p))) }));
    return [
      this.t('describeInput', {
        values: this.list(s.input),
        scale: this.num(s.scale),
        vector: this.list(s.vector),
        offset: this.num(s.offset),
      }),
      this.t('compare', { tol: this.dist(UNCHANGED_TOL), claims: claims.join(this.t('sentenceSep')) }),
    ].join(this.t('space'));
  }

  stepCaption(s) {
    const st = s.steps;
    if (s.step === 0) return this.t('step0', { values: this.list(s.input), mean: this.num(st.mean) });
    if (s.step === 1) return this.t('step1', { mean: this.num(st.mean), values: this.list(st.centered) });
    return this.t('step2', { variance: this.num(st.variance), eps: this.dist(s.eps), values: this.list(st.output) });
  }

  // ---- drawing: a function of state ----------------------------------------------------
  /** A panel's zero line and tick grid (labels when asked) on the scale y; one drawing for both charts. */
  _axis(target, ticks, y, labels) {
    const y0 = y(0).toFixed(2);
    target.zero.setAttribute('y1', y0);
    target.zero.setAttribute('y2', y0);
    target.axis.replaceChildren();
    for (const t of ticks) {
      target.axis.append(el('line', { x1: target.x0 - 4, x2: target.x1, y1: y(t).toFixed(2), y2: y(t).toFixed(2) }));
      if (labels)
        target.axis.append(
          el('text', { x: target.x0 - 7, y: (y(t) + 4).toFixed(2), 'text-anchor': 'end' }, this.tick(t)),
        );
    }
  }

  draw(s) {
    this._drawChart(s);
    this._drawSteps(s);
    this._drawTable(s);
    this._stepCaption.textContent = this.stepCaption(s);
    this._next.textContent = this.t(s.step === 2 ? 'backToInput' : 'nextStep');
  }

  /** Panel boxes for a chart W wide: four in a row when there is room, else the input on top of the three outputs. */
  _boxes(W) {
    if (W >= 600) {
      const pw = W / 4;
      return {
        H: 220,
        boxes: PANELS.map((p, k) => ({ p, x: k * pw, y: 0, w: pw, h: 220, left: k < 2 ? 42 : 12, labels: k < 2 })),
      };
    }
    const lw = 40,
      ow = (W - lw) / 3;
    return {
      H: 400,
      boxes: [
        { p: 'input', x: 0, y: 0, w: W, h: 196, left: 42, labels: true },
        { p: 'l2', x: 0, y: 200, w: lw + ow, h: 200, left: lw, labels: true },
        { p: 'layer_norm', x: lw + ow, y: 200, w: ow, h: 200, left: 8, labels: false },
        { p: 'rms_norm', x: lw + 2 * ow, y: 200, w: ow, h: 200, left: 8, labels: false },
      ],
    };
  }

  _buildChart(d, W) {
    const { H, boxes } = this._boxes(W);
    this._svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    this._svg.replaceChildren();
    const panels = {};
    for (const b of boxes) {
      const x0 = b.x + b.left,
        x1 = b.x + b.w - 8,
        y0 = b.y + 40,
        y1 = b.y + b.h - 22;
      const g = el('g', { class: `panel ${b.p}`, part: 'panel' });
      g.dataset.panel = b.p;
      const deco = el('g', { 'aria-hidden': 'true' });
      deco.append(
        el('text', { class: 'title', x: x0, y: b.y + 15 }, this.t(b.p)),
        el('text', { class: 'subtitle', x: x0, y: b.y + 30 }, this.t(b.p === 'input' ? 'ownAxis' : 'sharedAxis')),
      );
      const axis = el('g', { class: 'axis', part: 'axis' });
      const zero = el('line', { class: 'zero', x1: x0, x2: x1 });
      const gw = (x1 - x0) / d;
      const bw = Math.min(gw * 0.36, 28);
      const bars = { reference: [], current: [] };
      const barsG = el('g');
      const every = labelEvery(gw, d);
      const centers = [];
      for (let i = 0; i < d; i++) {
        const cx = x0 + gw * (i + 0.5);
        centers.push(cx);
        for (const [kind, x] of [
          ['reference', cx - bw - 1],
          ['current', cx + 1],
        ]) {
          const r = el('rect', {
            class: `bar ${kind} ${b.p} animated`,
            part: `bar-${kind}`,
            x: x.toFixed(2),
            width: bw.toFixed(2),
            rx: 2,
            y: y1,
            height: 0,
          });
          r.dataset.index = String(i);
          bars[kind].push(r);
          barsG.append(r);
        }
        if (i % every === 0)
          deco.append(
            el(
              'text',
              { class: 'coord', x: cx.toFixed(2), y: b.y + b.h - 7, 'text-anchor': 'middle' },
              this.t('coordinate', { i: i + 1 }),
            ),
          );
      }
      deco.append(axis, barsG, zero);
      g.append(deco);
      const panel = { g, axis, zero, bars, x0, x1, y0, y1, labels: b.labels, gw, bw, centers };
      if (b.p === 'input') panel.handles = this._buildHandles(g, panel, d);
      this._svg.append(g);
      panels[b.p] = panel;
    }
    this._layout = { key: `${d}|${W}`, panels };
  }

  /** One draggable, focusable handle per coordinate of the original vector (the gray input bars). */
  _buildHandles(g, panel, d) {
    const box = el('g', { class: 'handles' });
    const handles = [];
    for (let i = 0; i < d; i++) {
      const h = el('g', {
        class: 'handle',
        part: 'handle',
        tabindex: 0,
        role: 'slider',
        'aria-valuemin': -COORD_LIMIT,
        'aria-valuemax': COORD_LIMIT,
        'aria-orientation': 'vertical',
      });
      const left = panel.centers[i] - panel.gw / 2;
      const hit = el('rect', { class: 'hit', x: left.toFixed(2), width: panel.gw.toFixed(2), height: 36 });
      const knobX1 = panel.centers[i] - panel.bw - 4,
        knobX2 = panel.centers[i] + 2;
      const knob = el('line', { class: 'knob', x1: knobX1.toFixed(2), x2: knobX2.toFixed(2) });
      const ring = el('rect', {
        class: 'ring',
        x: (knobX1 - 4).toFixed(2),
        width: (knobX2 - knobX1 + 8).toFixed(2),
        height: 14,
        rx: 4,
      });
      const grip = el('circle', { class: 'grip', cx: (panel.centers[i] - panel.bw / 2 - 1).toFixed(2), r: 7 });
      const arrows = el('path', { class: 'grip-arrows' });
      h.append(hit, ring, knob, grip, arrows);
      h.addEventListener('keydown', (e) => this._onKey(e, i));
      onDrag(h, (e) => this._dragStart(e, i));
      box.append(h);
      handles.push({ h, hit, knob, ring, grip, arrows });
    }
    g.append(box);
    return handles;
  }

  _setCoordinate(i, value) {
    const v = Math.min(COORD_LIMIT, Math.max(-COORD_LIMIT, snap(value)));
    const vector = [...this._values.vector];
    if (vector[i] === v) return;
    vector[i] = v;
    this.setByUser('vector', vector);
  }

  _onKey(e, i) {
    const delta = {
      ArrowUp: COORD_STEP,
      ArrowRight: COORD_STEP,
      ArrowDown: -COORD_STEP,
      ArrowLeft: -COORD_STEP,
      PageUp: 1,
      PageDown: -1,
    }[e.key];
    if (delta === undefined || !this._state) return;
    e.preventDefault();
    this._setCoordinate(i, this._values.vector[i] + delta);
  }

  /** A press on coordinate i's handle: the drag moves it by the pointer's vertical travel. */
  _dragStart(e, i) {
    if (!this._state) return null;
    // value per CSS pixel on the input axis at the start of the drag (1 user unit = 1 px, see fit)
    const [lo, hi] = this._state.axes.input.domain;
    const panel = this._layout.panels.input;
    const perPx = (hi - lo) / (panel.y1 - panel.y0);
    const start = { y: e.clientY, value: this._values.vector[i] };
    return (ev) => this._setCoordinate(i, start.value - (ev.clientY - start.y) * perPx);
  }

  _drawChart(s) {
    const d = s.vector.length;
    const W = this.fit(this._svg, 760, 1);
    if (!this._layout || this._layout.key !== `${d}|${W}`) this._buildChart(d, W);
    else this._svg.setAttribute('viewBox', `0 0 ${W} ${this._boxes(W).H}`);
    for (const p of PANELS) {
      const panel = this._layout.panels[p];
      const axis = p === 'input' ? s.axes.input : s.axes.output;
      const y = linear(axis.domain, [panel.y1, panel.y0]);
      this._axis(panel, axis.ticks, y, panel.labels);
      const y0 = y(0);
      for (const [kind, values] of [
        ['reference', s.reference[p]],
        ['current', s.current[p]],
      ]) {
        values.forEach((v, i) => {
          const rect = panel.bars[kind][i];
          rect.setAttribute('y', Math.min(y(v), y0).toFixed(2));
          rect.setAttribute('height', Math.abs(y(v) - y0).toFixed(2));
          rect.dataset.value = String(v);
        });
      }
      if (panel.handles) {
        // 36 px tall with a mouse; 44 CSS px or more where a finger is the pointer (lib/handles.js hitRadius)
        const half = Math.max(18, hitRadius(this, this._svg));
        panel.handles.forEach(({ h, hit, knob, ring, grip, arrows }, i) => {
          const yv = y(s.reference.input[i]);
          hit.setAttribute('y', (yv - half).toFixed(2));
          hit.setAttribute('height', (2 * half).toFixed(2));
          knob.setAttribute('y1', yv.toFixed(2));
          knob.setAttribute('y2', yv.toFixed(2));
          ring.setAttribute('y', (yv - 7).toFixed(2));
          // the grip sits on the bar's top, above it when the bar is short; an up and a down arrowhead inside
          const gy = yv - 9,
            gx = Number(grip.getAttribute('cx'));
          grip.setAttribute('cy', gy.toFixed(2));
          const [ax, up, down] = [gx - 3, gy - 1, gy + 1].map((v) => v.toFixed(2));
          arrows.setAttribute('d', `M${ax},${up}l3,-4l3,4z M${ax},${down}l3,4l3,-4z`);
          h.setAttribute('aria-valuenow', String(s.vector[i]));
          h.setAttribute('aria-valuetext', this.num(s.vector[i]));
          h.setAttribute('aria-label', this.t('handleLabel', { i: i + 1, value: this.num(s.vector[i]) }));
        });
      }
    }
  }

  _drawSteps(s) {
    const d = s.vector.length;
    // The mean's label sits in a right margin as wide as it is, never over a bar.
    const meanText = this.t('meanLabel', { mean: this.num(s.steps.mean) });
    const H = 170,
      left = 42,
      right = Math.ceil(12 + textWidth(meanText, 11)),
      top = 10,
      bottom = 22; // 11 px: --nl-small-size
    const W = this.fit(this._stepSvg, 760, H);
    if (!this._stepLayout || this._stepLayout.key !== `${d}|${W}|${right}`) {
      this._stepSvg.replaceChildren();
      const x0 = left,
        x1 = W - right;
      const gw = (x1 - x0) / d;
      const bw = Math.min(gw * 0.3, 30);
      const axis = el('g', { class: 'axis' });
      const zero = el('line', { class: 'zero', x1: x0, x2: x1 });
      const meanG = el('g', { class: 'mean-anim' });
      const meanLine = el('line', { class: 'mean-line', x1: x0, x2: x1, y1: 0, y2: 0 });
      const meanLabel = el('text', { class: 'mean-label', x: x1 + 4, y: 4 }); // in the right margin: never over a bar
      meanG.append(meanLine, meanLabel);
      const before = [],
        now = [];
      const barsG = el('g');
      const every = labelEvery(gw, d);
      for (let i = 0; i < d; i++) {
        const cx = x0 + gw * (i + 0.5);
        const b = el('rect', {
          class: 'step-bar before step-anim',
          x: (cx - bw - 1).toFixed(2),
          width: bw.toFixed(2),
          rx: 2,
          y: H - bottom,
          height: 0,
        });
        const n = el('rect', {
          class: 'step-bar now step-anim',
          x: (cx + 1).toFixed(2),
          width: bw.toFixed(2),
          rx: 2,
          y: H - bottom,
          height: 0,
        });
        before.push(b);
        now.push(n);
        barsG.append(b, n);
        if (i % every === 0)
          this._stepSvg.append(
            el(
              'text',
              { class: 'coord', x: cx.toFixed(2), y: H - 7, 'text-anchor': 'middle' },
              this.t('coordinate', { i: i + 1 }),
            ),
          );
      }
      this._stepSvg.append(axis, barsG, zero, meanG);
      this._stepLayout = { key: `${d}|${W}|${right}`, axis, zero, meanG, meanLabel, before, now, x0, x1 };
    }
    const L = this._stepLayout;
    const st = s.steps;
    const axis = s.step === 2 ? s.axes.dividing : s.axes.centering;
    const y = linear(axis.domain, [H - bottom, top]);
    this._axis(L, axis.ticks, y, true);
    const y0 = y(0);
    // gray: the vector before this step; colored: after it
    const beforeValues = s.step === 0 ? null : s.step === 1 ? s.input : st.centered;
    const nowValues = s.step === 0 ? s.input : s.step === 1 ? st.centered : st.output;
    for (let i = 0; i < d; i++) {
      const setBar = (rect, v) => {
        rect.setAttribute('y', Math.min(y(v), y0).toFixed(2));
        rect.setAttribute('height', Math.abs(y(v) - y0).toFixed(2));
        rect.dataset.value = String(v);
      };
      setBar(L.now[i], nowValues[i]);
      L.now[i].classList.toggle('at-input', s.step === 0);
      if (beforeValues) setBar(L.before[i], beforeValues[i]);
      else setBar(L.before[i], 0);
    }
    // the mean as a dashed line (steps 0 and 1: what is subtracted)
    L.meanG.style.display = s.step === 2 ? 'none' : '';
    L.meanG.setAttribute('transform', `translate(0,${y(st.mean).toFixed(2)})`);
    L.meanLabel.textContent = meanText;
    this._stepLegend.hidden = s.step === 0; // nothing is "before" the input
  }

  /** The readout: one row per coordinate, one column per panel, and the distances in the last row. */
  _drawTable(s) {
    const d = s.vector.length;
    const caption = el('caption', {}, this.t('tableCaption'));
    const thead = el('thead');
    const head = el('tr');
    head.append(el('th', { scope: 'col' }, this.t('coordinateColumn')));
    for (const p of PANELS) head.append(el('th', { scope: 'col' }, this.t(p)));
    thead.append(head);
    const body = el('tbody');
    for (let i = 0; i < d; i++) {
      const tr = el('tr');
      tr.append(el('th', { scope: 'row' }, this.t('coordinate', { i: i + 1 })));
      for (const p of PANELS) {
        const td = el('td', { class: 'value' }, this.num(s.current[p][i]));
        td.dataset.panel = p;
        td.append(el('span', { class: 'ref' }, `(${this.num(s.reference[p][i])})`));
        tr.append(td);
      }
      body.append(tr);
    }
    const last = el('tr', { class: 'distance' });
    last.append(el('th', { scope: 'row' }, this.t('changeColumn')), el('td'));
    for (const p of OUTPUTS) {
      const td = el('td', { class: 'change' }, this.dist(s.change[p]));
      td.dataset.panel = p;
      last.append(td);
    }
    body.append(last);
    this._table.replaceChildren(caption, thead, body);
  }
}
NlBarCompare.defineProperties();

// The figure's strings, English and Chinese (t(key); a language added with registerLocale overrides them).
NlBarCompare.strings = {
  en: {
    coordinateColumn: 'xᵢ',
    name: 'Bar comparison of L2 normalization, LayerNorm and RMSNorm',
    input: 'Input',
    l2: 'L2',
    layer_norm: 'LayerNorm',
    rms_norm: 'RMSNorm',
    scale: 'Common scale',
    offset: 'Common offset',
    eps: 'ε',
    add100: 'Add 100 only',
    times10: 'Multiply by 10 only',
    reset: 'Reset',
    legendReference: 'gray: original vector',
    legendCurrent: 'colored: current input',
    dragHint:
      'Drag a round handle on a gray input bar up or down, or focus it and use the arrow keys, to change the vector.',
    handleLabel: 'Original vector, coordinate x{i}: {value}',
    coordinate: 'x{i}',
    ownAxis: 'own axis',
    sharedAxis: 'shared axis',
    tableCaption: "Values shown: current, with the original vector's below in parentheses",
    tableNote: 'distance: ‖current − original‖₂; unchanged means a distance of at most {tol}.',
    changeColumn: 'distance',
    badVector: 'The vector attribute must list at least two numbers separated by commas (got "{value}").',
    describeInput: 'Input ({values}) = {scale} × ({vector}) + {offset}.',
    compare: 'Compared with the original vector (unchanged: within a distance of {tol}): {claims}.',
    unchanged: '{names} unchanged',
    changed: '{names} changed',
    and: ' and ',
    listSep: ', ',
    sentenceSep: '; ',
    space: ' ',
    stepsTitle: 'LayerNorm, one step at a time',
    play: 'Play',
    nextStep: 'Next step',
    backToInput: 'Back to the input',
    legendBefore: 'gray: before this step',
    legendAfter: 'colored: after it',
    meanLabel: 'mean {mean}',
    step0: 'The input ({values}); its mean is {mean}.',
    step1: 'Step 1 of 2: subtract the mean {mean} from every coordinate: ({values}).',
    step2: 'Step 2 of 2: divide by √(σ² + ε), with σ² = {variance} and ε = {eps}: ({values}), the LayerNorm output.',
  },
  zh: {
    coordinateColumn: 'xᵢ',
    name: 'L2 normalization、LayerNorm 与 RMSNorm 的柱状对比',
    input: '输入',
    l2: 'L2',
    layer_norm: 'LayerNorm',
    rms_norm: 'RMSNorm',
    scale: '共同缩放',
    offset: '共同偏移',
    eps: 'ε',
    add100: '只加 100',
    times10: '只乘 10',
    reset: '重置',
    legendReference: '灰色：原始向量',
    legendCurrent: '彩色：当前输入',
    dragHint: '上下拖动灰色输入柱上的圆形手柄，或聚焦后按方向键，即可改变向量。',
    handleLabel: '原始向量的坐标 x{i}：{value}',
    coordinate: 'x{i}',
    ownAxis: '独立坐标轴',
    sharedAxis: '共用坐标轴',
    tableCaption: '图中数值：当前值，下方括号内为原始向量的结果',
    tableNote: '距离：‖当前 − 原始‖₂；距离不超过 {tol} 即为不变。',
    changeColumn: '距离',
    badVector: 'vector 属性需要至少两个以逗号分隔的数（收到的是“{value}”）。',
    describeInput: '输入 ({values}) = {scale} × ({vector}) + {offset}。',
    compare: '与原始向量相比（“不变”指距离不超过 {tol}）：{claims}。',
    unchanged: '{names} 不变',
    changed: '{names} 改变',
    and: ' 与 ',
    listSep: '、',
    sentenceSep: '；',
    space: '',
    stepsTitle: 'LayerNorm 分步演示',
    play: '播放',
    nextStep: '下一步',
    backToInput: '回到输入',
    legendBefore: '灰色：这一步之前',
    legendAfter: '彩色：这一步之后',
    meanLabel: 'mean 为 {mean}',
    step0: '输入 ({values})；它的 mean 是 {mean}。',
    step1: '第 1 步（共 2 步）：每个坐标减去 mean {mean}，得到 ({values})。',
    step2:
      '第 2 步（共 2 步）：除以 √(σ² + ε)，其中 σ² = {variance}，ε = {eps}，得到 ({values})，即 LayerNorm 的输出。',
  },
};
