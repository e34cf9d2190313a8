// <nl-adaln> — AdaLN as a diffusion transformer's block uses it. A condition c
// (a class label) goes through a small conditioning network with fixed
// weights: an embedding E, SiLU, and a final projection W that gives a scale
// s, a shift b and a gate g per feature. The block computes
//   y = (1 + s) ⊙ LN₀(x) + b,   h = x + g ⊙ F(y),
// LN₀ being LayerNorm without its own affine and F a fixed linear sublayer.
// The same x goes through every class at once, drawn first (top of the
// picture, first sentence of the text, its own axis numbers): per feature a
// row with x's tick on top and under it an arrow per class from x to that
// class's h (each class in its own sub-lane with its own marker, so no marker
// sits on another's arrow or on x's tick). AdaLN-Zero's initialization is named in x's
// key entry: the final projection at zero gives gate 0 and h = x, so the
// arrows would have no length. Then h of the chosen class.
// The steps from x to h (LN₀(x), y, F(y)) sit behind a disclosure. One
// prominent toggle sets the final projection to zero for every class. The
// grid of number boxes sits behind a disclosure under the picture.
//
// Attributes: features ("1,-2,5,2"), condition (cat | dog | ship | custom),
//   projection (trained | zero), scale ("0,0,0,0"), shift ("0,0,0,0"), gate
//   ("1,1,1,1") — scale, shift and gate are the reader's own, used when
//   condition is custom — lang.
// Properties: the same; state (read-only): {features, condition, projection,
//   scale, shift, gate, modulation {scale, shift, gate} (the ones in effect),
//   normalized (LN₀(x), eps 0), modulated (y), branch (F(y)), output (h),
//   classes [{name, scale, shift, gate, modulated, branch, output}] (the three
//   classes through the conditioning network), zero {scale, shift, gate,
//   output} (AdaLN-Zero's initialization: h = x, at x's tick), custom (your own s, b, g
//   through the block, when chosen), domain, ticks (both axes), error}.
// Events: change (reader's actions only). Keyboard: the condition buttons, the
//   AdaLN-Zero toggle (aria-pressed), the "Type x, s, b and g" disclosure with
//   a number box for every x, s, b, g; each x is also a handle on the
//   comparison, its tick (drag, or the arrow keys: ±0.5, Page keys ±2), with a
//   44 px hit circle; the "Step by step" disclosure.
// CSS custom properties: --nl-input (x), --nl-layer-norm (LN₀(x)), --nl-update
//   (what the condition does: y, F(y) and the gated part of h), shared --nl-*.
// Parts: figure, controls, number, button, zero-toggle, view, description, error.
// Layout: first the comparison: its key (x's tick; per class an arrow to its
//   marker, circle, square, triangle, filled for the chosen one), its axis
//   numbers, then one lane per feature (x's tick, then a sub-lane per class
//   with its arrow from x to h); your own s, b, g are not among the classes
//   (their h is the chart below). Then h of the chosen condition (a label
//   above four bars, values at the right, the axis numbers under them); in the
//   disclosure one such row per step. Drawn at the width the svg gets (fit).
// Numbers from the core: layer_norm, linear_map (E, W and F), softmax and film
//   (SiLU(z) = z · σ(z), σ(z) the first entry of softmax([z, 0])),
//   ada_layer_norm, gated_residual, axis_ticks.
import { el } from '../lib/base.js';
import { NlFigure, figureCss } from '../lib/figure.js';
import { onDrag } from '../lib/handles.js';
import { scale, svg } from '../lib/plot.js';
import { subscript, textWidth } from '../lib/text.js';

const D = 4; // features
export const CLASSES = ['cat', 'dog', 'ship'];
// The conditioning network's fixed weights (as if trained; the figure never changes them).
// E [hidden 3 × class 3]: class k's embedding is column k.
export const EMBED = [2, 0, -1, 0, 2, 1, 1, -1, 2];
// W [12 × (3 + 1)]: rows s1..s4, b1..b4, g1..g4; the last column is the bias.
export const PROJECTION = [
  [0.5, 0, -0.5, 0],
  [0, -0.5, 0.5, 0],
  [0.5, 0, 0, 0],
  [0, 0.5, -0.5, 0],
  [0, 1, 0, 0],
  [-1, 0, 0.5, 0],
  [0, 0, -1, 0],
  [0.5, -0.5, 0, 0],
  [0.5, 0.125, 0, 0.25],
  [0.5, 0.25, 0, 0],
  [0.25, 0.25, 0, 0.25],
  [0.5, 0, 0, 0.25],
].flat();
// F [4 × 4], the sublayer: each output is its feature of y plus half the next one (cyclically).
export const SUBLAYER = [1, 0.5, 0, 0, 0, 1, 0.5, 0, 0, 0, 1, 0.5, 0.5, 0, 0, 1];
const X_STEP = 0.5; // drag and arrow-key resolution of x
const X_LIMIT = 100;
// rows of the chosen condition: [catalog label, bar class, state key]; h under the comparison, the steps to it
// behind a disclosure
const OUT_ROW = ['rowOutput', 'out', 'output'];
const STEP_ROWS = [
  ['rowInput', 'in', 'features'],
  ['rowNormalized', 'ln', 'normalized'],
  ['rowModulated', 'mod', 'modulated'],
  ['rowBranch', 'mod', 'branch'],
];
const SUB = 14; // the comparison's sub-lane per series: x's tick, then cat, dog, ship (markers never coincide)
const HIT = 22; // an x handle's invisible hit circle: 44 px across
const T = (shape, data) => ({ shape, data: Float32Array.from(data) });
const snapX = (v) => Math.min(X_LIMIT, Math.max(-X_LIMIT, Number((Math.round(v / X_STEP) * X_STEP).toFixed(6))));

export class NlAdaln extends NlFigure {
  static catalog = 'adaln';
  static summary = 'AdaLN: a class mapped to scale, shift and gate; AdaLN-Zero returns x.';
  static minHeight = 945; // px kept by normlab/styles.css (measured at 960 px, default attributes; the number grid closed)
  static phoneMinHeight = { en: 1491, zh: 1418 }; // px kept up to 600 px wide (measured at 360 px, default attributes)
  static stateDoc = '`modulation`, `normalized`, `modulated`, `branch`, `output`, `classes`, `zero`'; // `state` keys beyond the attributes (README)
  static params = {
    features: { attr: 'features', kind: 'vector', length: D, default: [1, -2, 5, 2], doc: 'the features x' },
    condition: {
      attr: 'condition',
      kind: 'choice',
      default: 'cat',
      choices: [...CLASSES, 'custom'],
      doc: 'the class label c, or custom for your own s, b, g',
    },
    projection: {
      attr: 'projection',
      kind: 'choice',
      default: 'trained',
      choices: ['trained', 'zero'],
      control: 'select',
      doc: "the conditioning network's final projection: fixed weights, or zero (AdaLN-Zero's initialization)",
    },
    scale: { attr: 'scale', kind: 'vector', length: D, default: [0, 0, 0, 0], doc: 'your own scale s (custom)' },
    shift: { attr: 'shift', kind: 'vector', length: D, default: [0, 0, 0, 0], doc: 'your own shift b (custom)' },
    gate: { attr: 'gate', kind: 'vector', length: D, default: [1, 1, 1, 1], doc: 'your own gate g (custom)' },
  };
  static css = `${figureCss}
.b-in { fill: var(--nl-input); }
.b-ln { fill: var(--nl-layer-norm); }
.b-mod { fill: var(--nl-update); }
.b-base { fill: var(--nl-input); fill-opacity: 0.55; } /* 3:1 against the dark background too (0.35 gave 1.9:1) */
.pipeline { margin: 0 0 8px; font-size: var(--nl-small-size); color: var(--nl-muted); line-height: 1.5; }
.b-gated { fill: var(--nl-update); }
.h-mark { stroke: var(--nl-fg); stroke-width: 2; }
.axis line.zero { stroke: var(--nl-muted); }
.row-label { font-size: var(--nl-label-size); font-weight: 600; }
.feat, .val { font-size: var(--nl-small-size); fill: var(--nl-muted); font-variant-numeric: tabular-nums; }
.lane { fill: transparent; cursor: ew-resize; touch-action: none; outline: none; }
.xh .knob { fill: var(--nl-input); stroke: var(--nl-bg); stroke-width: 2; }
.xh .ring { fill: none; stroke: none; }
.xh:focus-visible .ring, .xh.dragging .ring { stroke: var(--nl-focus); stroke-width: 2.5; }
.xh { cursor: ew-resize; touch-action: none; outline: none; }
.mk { fill: var(--nl-bg); stroke: var(--nl-update); stroke-width: 1.8; }
.mk.on { fill: var(--nl-update); }
.arrow { fill: none; stroke: var(--nl-update); stroke-width: 1.5; stroke-linecap: round; stroke-linejoin: round; }
.knob-key { fill: var(--nl-input); }
.key { font-size: var(--nl-small-size); }
.conds { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
.conds button { min-width: 44px; }
.conds button[aria-pressed=true] { border-color: var(--nl-fg); font-weight: 600; box-shadow: inset 0 0 0 1px var(--nl-fg); }
.grid { display: grid; grid-template-columns: auto repeat(${D}, minmax(0, 1fr)); gap: 4px 6px; align-items: center; max-width: 440px; }
.grid input { width: 100%; min-width: 0; min-height: 36px; padding: 2px 3px; font-size: 0.9em; font-variant-numeric: tabular-nums; }
.controls > label.control { flex-wrap: wrap; }
.grid .rl { white-space: nowrap; font-size: 0.9em; }
.grid .ch { font-size: 0.8em; color: var(--nl-muted); text-align: center; }
.zero-toggle { font-weight: 600; border-width: 2px; }
.zero-toggle::before { content: '○ '; }
.zero-toggle[aria-pressed=true] { border-color: var(--nl-update); box-shadow: inset 0 0 0 1px var(--nl-update); }
.zero-toggle[aria-pressed=true]::before { content: '● '; color: var(--nl-update); }
details.numbers-box { margin-top: 6px; }
details.numbers-box > summary { cursor: pointer; min-height: 44px; display: flex; align-items: center; }
details.numbers-box > summary::before { content: '▸'; margin-inline-end: 6px; }
details.numbers-box[open] > summary::before { content: '▾'; }
details.numbers-box .grid { margin: 4px 0 8px; }
details.steps { margin-top: 4px; }
details.steps > summary { cursor: pointer; min-height: 44px; display: flex; align-items: center; font-weight: 600; }
details.steps > summary::before { content: '▸'; margin-inline-end: 6px; }
details.steps[open] > summary::before { content: '▾'; }
details.weights { font-size: 0.85em; margin-top: 6px; }
details.weights summary { cursor: pointer; min-height: 44px; display: flex; align-items: center; }
details.weights summary::before { content: '▸'; margin-inline-end: 6px; }
details.weights[open] summary::before { content: '▾'; }
details.weights table { margin: 4px 0 8px; }
details.weights caption { text-align: left; font-weight: 600; }
@media (max-width: 600px) { .grid input, .conds button, select { min-height: 44px; } .grid { gap: 4px; } .grid input { font-size: 0.8em; padding-inline: 2px; appearance: textfield; } .grid input::-webkit-inner-spin-button { display: none; } .grid .rl { font-size: 0.8em; } }
`;

  buildControls(box) {
    const conds = el('div', { class: 'conds', role: 'group' });
    this._condLabel = el('span');
    conds.append(this._condLabel);
    this._condButtons = [...CLASSES, 'custom'].map((c) => {
      const b = el('button', { type: 'button', part: 'button', 'aria-pressed': 'false' });
      b.dataset.value = c;
      b.addEventListener('click', () => {
        if (!this._core || this._values.condition === c) return;
        if (c === 'custom' && this._state && !this._state.error) this._toCustom({});
        else this.setByUser('condition', c);
      });
      conds.append(b);
      return b;
    });
    this._condGroup = conds;
    box.append(conds);
    // AdaLN-Zero's initialization, one press: the final projection W at zero, so s = b = g = 0 and h = x
    this._zero = el('button', {
      type: 'button',
      part: 'button zero-toggle',
      class: 'zero-toggle',
      'aria-pressed': 'false',
    });
    this._zero.addEventListener('click', () => {
      if (!this._core) return;
      this.setByUser('projection', this._values.projection === 'zero' ? 'trained' : 'zero');
    });
    box.append(this._zero);
    // x, s, b, g: a number box per feature, behind a disclosure (the picture comes first)
    this._gridBox = el('details', { class: 'numbers-box' });
    this._gridSummary = el('summary');
    const grid = el('div', { class: 'grid' });
    grid.append(el('span'));
    for (let i = 0; i < D; i++) grid.append(el('span', { class: 'ch' }, String(i + 1)));
    this._boxes = {};
    this._rowLabels = {};
    for (const key of ['features', 'scale', 'shift', 'gate']) {
      this._rowLabels[key] = el('span', { class: 'rl' });
      grid.append(this._rowLabels[key]);
      this._boxes[key] = Array.from({ length: D }, (_, i) => {
        const input = el('input', { type: 'number', step: key === 'features' ? X_STEP : 0.1, part: 'number' });
        input.addEventListener('change', () => this._typed(key, i, input.value));
        grid.append(input);
        return input;
      });
    }
    this._gridBox.append(this._gridSummary, grid);
    this._numbersSlot = this._gridBox; // placed under the picture (buildView)
  }

  /** A number typed in a box: x changes alone; s, b or g make the condition your own. */
  _typed(key, i, text) {
    const n = text.trim() === '' ? NaN : Number(text);
    if (key === 'features') {
      const v = [...this._values.features];
      v[i] = n;
      this.setByUser('features', Number.isFinite(n) ? v : v.map(String).join(','));
      return;
    }
    if (!this._state || this._state.error) return;
    this._toCustom({ [key]: [i, Number.isFinite(n) ? n : text] });
  }

  /** Custom from what the boxes show now (the values in effect, as written), with `change` {key: [i, value]}. */
  _toCustom(change) {
    const values = { condition: 'custom' };
    for (const key of ['scale', 'shift', 'gate']) values[key] = this._boxes[key].map((b) => Number(b.value));
    const [key] = Object.keys(change);
    if (key) values[key][change[key][0]] = change[key][1];
    if (key && !Number.isFinite(values[key][change[key][0]])) {
      this.setByUser(key, values[key].join(',')); // refused with its message
      return;
    }
    this.setValues(values);
    this.updateNow();
    this.emitChange();
  }

  languageChanged() {
    this._condLabel.textContent = this.t('conditionLabel');
    this._condGroup.setAttribute('aria-label', this.t('conditionLabel'));
    for (const b of this._condButtons) b.textContent = this.t(`cond_${b.dataset.value}`);
    for (const [key, label] of Object.entries(this._rowLabels)) label.textContent = this.t(`box_${key}`);
    for (const [key, boxes] of Object.entries(this._boxes))
      boxes.forEach((b, i) => b.setAttribute('aria-label', this.t(`boxPart_${key}`, { i: i + 1 })));
    this._zero.textContent = this.t('zeroToggle');
    this._pipeline.replaceChildren(el('span', {}, this.t('pipeline1')), el('br'), el('span', {}, this.t('pipeline2')));
    this._gridSummary.textContent = this.t('gridSummary');
    this._weightsSummary.textContent = this.t('weightsSummary');
    this._weightsNote.textContent = this.t('weightsNote');
    this._weightsFilled = null;
  }

  _syncControls() {
    super._syncControls();
    if (!this._boxes) return;
    for (const b of this._condButtons)
      b.setAttribute('aria-pressed', String(this._values.condition === b.dataset.value));
    this._zero.setAttribute('aria-pressed', String(this._values.projection === 'zero'));
    this._zero.toggleAttribute('hidden', this._values.condition === 'custom'); // the projection is the classes'
    this._syncBoxes();
  }

  /** x shows the attribute; s, b, g show what is in effect (for a class, the network's output, as written). */
  _syncBoxes() {
    const custom = this._values.condition === 'custom';
    const fromState = !custom && this._state?.modulation && this._state.condition === this._values.condition;
    if (!custom && !fromState) return; // a class before its numbers exist: filled at the drawing
    const shown = { ...(custom ? this._values : this._state.modulation), features: this._values.features };
    for (const [key, boxes] of Object.entries(this._boxes)) {
      if (this._attrErrors.has(key)) continue;
      boxes.forEach((b, i) => {
        if (this.shadowRoot.activeElement === b) return;
        const v = shown[key][i];
        b.value = key === 'features' || custom ? String(v) : this.fmt(v, 3).replace(/,/g, '');
      });
    }
  }

  buildView(view) {
    this._svg = svg(640, 300, '', { 'aria-hidden': null, role: 'group' }); // the x handles are reachable; the rest is aria-hidden
    // the chosen class's steps from x to h, behind a disclosure: the comparison and h come first
    this._steps = el('details', { class: 'steps' });
    this._stepsSummary = el('summary');
    this._stepsSvg = svg(640, 340, '');
    this._steps.append(this._stepsSummary, this._stepsSvg);
    this._steps.addEventListener('toggle', () => this._state && !this._state.error && this.draw(this._state));
    this._numbers = el('p', { class: 'numbers' });
    const details = el('details', { class: 'weights' });
    this._weightsSummary = el('summary');
    this._weightsNote = el('p', { class: 'muted' });
    this._weightsBody = el('div');
    details.append(this._weightsSummary, this._weightsNote, this._weightsBody);
    // every symbol the picture uses, named before it: the block in two lines, always in view
    this._pipeline = el('p', { class: 'pipeline' });
    view.append(this._pipeline, this._svg, this._numbers, this._steps, this._numbersSlot, details);
    this._handles = Array.from({ length: D }, (_, i) => {
      const lane = el('rect', { class: 'lane' });
      const g = el('g', {
        class: 'xh',
        tabindex: 0,
        role: 'slider',
        'aria-valuemin': -X_LIMIT,
        'aria-valuemax': X_LIMIT,
      });
      const ring = el('circle', { class: 'ring', r: 10 });
      const knob = el('rect', { class: 'knob', x: -3, y: -7, width: 6, height: 14, rx: 1.5 }); // x's tick
      g.append(el('circle', { class: 'hit', r: HIT, fill: 'transparent' }), ring, knob);
      const start = (e) => {
        if (!this._state || !this._xScale) return null;
        this._held = this._state.domain; // the axis keeps still while a value is dragged
        const move = (ev) => this._dragTo(i, ev);
        move(e);
        return move;
      };
      const done = () => {
        this._held = null;
        this.updateNow();
      };
      onDrag(lane, start, done);
      onDrag(g, start, done);
      g.addEventListener('keydown', (e) => {
        const delta = { ArrowUp: 1, ArrowRight: 1, ArrowDown: -1, ArrowLeft: -1, PageUp: 4, PageDown: -4 }[e.key];
        if (delta === undefined || !this._state) return;
        e.preventDefault();
        const v = [...this._values.features];
        v[i] = snapX(v[i] + delta * X_STEP);
        this.setByUser('features', v);
      });
      return { lane, g, knob, ring };
    });
  }

  /** The pointer's position on the x row, as the value it points at (a handle's job, not the figure's maths). */
  _dragTo(i, e) {
    const pt = this._svg.createSVGPoint?.();
    if (!pt) return;
    pt.x = e.clientX;
    pt.y = e.clientY;
    const ctm = this._svg.getScreenCTM();
    if (!ctm) return;
    const px = pt.matrixTransform(ctm.inverse()).x;
    const v = [...this._values.features];
    const next = snapX(this._xScale.invert(px));
    if (next === v[i]) return;
    v[i] = next;
    this.setByUser('features', v);
  }

  /** The conditioning network for the three classes: SiLU(E · onehot), then W (or 0) with its bias. */
  _network(zero) {
    const n = CLASSES.length;
    const onehot = Array.from({ length: n * n }, (_, k) => (k % (n + 1) === 0 ? 1 : 0));
    const e = this.op('linear_map', { W: T([3, n], EMBED), points: T([n, n], onehot) });
    // σ(z) = softmax([z, 0])[0]; SiLU(z) = z · σ(z) (film multiplies elementwise)
    const sm = this.op('softmax', {
      x: T(
        [e.length, 2],
        e.flatMap((z) => [z, 0]),
      ),
    });
    const sig = e.map((_, k) => sm[2 * k]);
    const a = this.op('film', {
      x: T([n, 3], e),
      gamma: T([n, 3], sig),
      beta: T(
        [n, 3],
        e.map(() => 0),
      ),
    });
    const W = zero ? PROJECTION.map(() => 0) : PROJECTION;
    const points = [];
    for (let k = 0; k < n; k++) points.push(...a.slice(3 * k, 3 * k + 3), 1);
    const m = this.op('linear_map', { W: T([3 * D, 4], W), points: T([n, 4], points) });
    return CLASSES.map((name, k) => ({
      name,
      embedding: e.slice(3 * k, 3 * k + 3),
      hidden: a.slice(3 * k, 3 * k + 3),
      scale: m.slice(3 * D * k, 3 * D * k + D),
      shift: m.slice(3 * D * k + D, 3 * D * k + 2 * D),
      gate: m.slice(3 * D * k + 2 * D, 3 * D * (k + 1)),
    }));
  }

  compute(core, { features, condition, projection, scale: sc, shift, gate }) {
    const normalized = this.op('layer_norm', { x: T([D], features) }, { eps: 0 });
    const classes = this._network(projection === 'zero');
    // AdaLN-Zero's initialization for comparison, drawn beside the classes: the final projection at zero (any class)
    const zeroStart = { ...this._network(true)[0], name: 'zero' };
    const mods = [...classes, { name: 'custom', scale: sc, shift, gate }, zeroStart];
    const B = mods.length;
    const xs = mods.flatMap(() => features);
    const y = this.op(
      'ada_layer_norm',
      {
        x: T([B, 1, D], xs),
        scale: T(
          [B, D],
          mods.flatMap((m) => m.scale),
        ),
        shift: T(
          [B, D],
          mods.flatMap((m) => m.shift),
        ),
      },
      { eps: 0 },
    );
    const F = this.op('linear_map', { W: T([D, D], SUBLAYER), points: T([B, D], y) });
    const h = this.op('gated_residual', {
      x: T([B, 1, D], xs),
      update: T([B, 1, D], F),
      gate: T(
        [B, D],
        mods.flatMap((m) => m.gate),
      ),
    });
    const rows = mods.map((m, k) => ({
      ...m,
      modulated: y.slice(D * k, D * (k + 1)),
      branch: F.slice(D * k, D * (k + 1)),
      output: h.slice(D * k, D * (k + 1)),
    }));
    const chosen = rows.find((r) => r.name === condition);
    const zeroRow = rows[rows.length - 1];
    const shown = condition === 'custom' ? rows.slice(0, -1) : rows.slice(0, CLASSES.length);
    const all = [
      -3,
      3,
      ...features,
      ...normalized,
      ...shown.flatMap((r) => [...r.modulated, ...r.branch, ...r.output]),
    ];
    // while x is dragged the axis only widens, so the value under the pointer stays under it
    if (this._held) all.push(...this._held);
    return {
      modulation: { scale: chosen.scale, shift: chosen.shift, gate: chosen.gate },
      normalized,
      modulated: chosen.modulated,
      branch: chosen.branch,
      output: chosen.output,
      classes: rows.slice(0, CLASSES.length),
      zero: { scale: zeroRow.scale, shift: zeroRow.shift, gate: zeroRow.gate, output: zeroRow.output },
      ...(condition === 'custom' ? { custom: rows[CLASSES.length] } : {}),
      ...this.axisFields('domain', 'ticks', all, { count: 6 }),
    };
  }

  // ---- one formatter per quantity -------------------------------------------------
  fmtVal(v) {
    return this.fmt(v, 3);
  }
  list(vs, f = (v) => this.fmtVal(v)) {
    return `(${vs.map(f).join(', ')})`;
  }

  /** Grid lines over each band [y1, y2] and the tick values at `ty`. */
  _axis(s, x, bands, ty, which = '') {
    const axis = el('g', { class: `axis ${which}`.trim() });
    for (const t of s.ticks) {
      for (const [y1, y2] of bands)
        axis.append(el('line', { class: t === 0 ? 'zero' : null, x1: x(t).toFixed(1), x2: x(t).toFixed(1), y1, y2 }));
      axis.append(el('text', { x: x(t).toFixed(1), y: ty, 'text-anchor': 'middle' }, this.fmt(t, 3)));
    }
    return axis;
  }

  /**
   * A key wrapped to the width W, its first line centred at `y`: per series [name, swatch(cx, cy), text, swatch
   * width, keep], the swatch drawn as the series is drawn; an entry marked keep starts a new line unless it and every
   * entry after it fit on the current one. Pushed to `out` as one group; returns the centre of its last line.
   */
  _key(which, entries, y, W, out) {
    const g = el('g', { class: `legend ${which}` });
    let kx = 0,
      ky = y;
    const width = ([, , text, sw = 10]) => sw + 6 + textWidth(text, 11);
    entries.forEach(([name, swatch, text, sw = 10, keep], i) => {
      const w = width(entries[i]);
      const rest = entries.slice(i).reduce((a, e) => a + width(e) + 10, -10);
      if (kx > 0 && (kx + w > W || (keep && kx + rest > W))) {
        kx = 0;
        ky += 16;
      }
      const entry = el('g', { class: 'entry', 'data-series': name });
      entry.append(swatch(kx + sw / 2, ky - 1), el('text', { class: 'key', x: kx + sw + 4, y: ky + 3 }, text));
      g.append(entry);
      kx += w + 10;
    });
    out.push(g);
    return ky;
  }

  /** One quantity of the chosen condition: its label, then a bar per feature with its value at the right. */
  _barRow(s, [key, cls, field], y0, x, W, label, out, barsTop = y0 + 19) {
    const barH = 12,
      lane = 16;
    const rect = (a, b, y, h, c) =>
      el('rect', {
        class: c,
        x: Math.min(x(a), x(b)).toFixed(1),
        width: Math.abs(x(b) - x(a)).toFixed(1),
        y: y.toFixed(1),
        height: h,
        rx: 1.5,
      });
    out.push(el('text', { class: 'row-label', x: 0, y: y0 + 13 }, this.t(key, { c: label })));
    s[field].forEach((v, f) => {
      const by = barsTop + f * lane;
      out.push(el('text', { class: 'feat', x: 4, y: by + 10 }, `h${subscript(f + 1)}`));
      if (cls === 'out') {
        // h = x + g ⊙ F(y): the residual x (faint) in the upper stripe, the gated branch from x to h in the lower,
        // so a branch that turns back over x (h₁ of cat) never hides it
        out.push(rect(0, s.features[f], by, 7, 'b-base'), rect(s.features[f], v, by + 7, barH - 7, 'b-gated'));
        out.push(
          el('line', { class: 'h-mark', x1: x(v).toFixed(1), x2: x(v).toFixed(1), y1: by - 1, y2: by + barH + 1 }),
        );
      } else {
        const bar = rect(0, v, by, barH, `b-${cls}`);
        bar.dataset.value = String(v);
        out.push(bar);
      }
      out.push(el('text', { class: 'val', x: W - 2, y: by + 10, 'text-anchor': 'end' }, this.fmtVal(v)));
    });
  }

  draw(s) {
    const rowH = 20 + D * 16,
      axisH = 18;
    const label = s.condition === 'custom' ? this.t('cond_custom') : this.t(`cond_${s.condition}`);
    const W = this.fit(this._svg, 640, 300);
    const m = { l: 22, r: 54 };
    const x = scale(s.domain, [m.l, W - m.r]);
    const x0 = s.domain[0],
      k = (W - m.r - m.l) / (s.domain[1] - s.domain[0]);
    this._xScale = { invert: (px) => x0 + (px - m.l) / k }; // pointer → value, for the x handles only
    const shapes = { cat: 'circle', dog: 'square', ship: 'triangle' };
    const R = 5; // a marker's radius
    const marker = (shape, cx, cy, on) => {
      const r = R;
      const d = {
        circle: `M${cx - r},${cy}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0`,
        square: `M${cx - r + 0.5},${cy - r + 0.5}h${2 * r - 1}v${2 * r - 1}h${1 - 2 * r}z`,
        triangle: `M${cx},${cy - r - 0.5}L${cx + r + 0.5},${cy + r - 0.5}L${cx - r - 0.5},${cy + r - 0.5}z`,
      }[shape];
      return el('path', { class: `mk ${shape}${on ? ' on' : ''}`, d });
    };
    // a class's arrow from x (x1) to its h (x2): the shaft ends under the marker at h, the head touches the marker
    const arrow = (x1, x2, y) => {
      const dir = x2 >= x1 ? 1 : -1,
        tip = x2 - dir * (R + 1.5);
      let d = `M${x1.toFixed(1)},${y}L${x2.toFixed(1)},${y}`;
      if (Math.abs(x2 - x1) > R + 7)
        d += `M${(tip - dir * 5).toFixed(1)},${y - 4}L${tip.toFixed(1)},${y}L${(tip - dir * 5).toFixed(1)},${y + 4}`;
      const a = el('path', { class: 'arrow', d });
      Object.assign(a.dataset, { from: x1.toFixed(1), to: x2.toFixed(1) });
      return a;
    };
    const tick = (cx, cy, cls) => el('rect', { class: cls, x: cx - 2.5, y: cy - 6, width: 5, height: 12, rx: 1.5 });
    const items = [el('text', { class: 'row-label', x: 0, y: 17 }, this.t('rowCompare'))];
    // the key, wrapped to the width: x's tick (where AdaLN-Zero's initialization leaves h), then each class's arrow to its marker
    const zeroIsX = s.zero.output.every((v, f) => v === s.features[f]);
    const ky = this._key(
      'compare',
      [
        ['x', (cx, cy) => tick(cx, cy, 'knob-key'), this.t(zeroIsX ? 'keyXZero' : 'keyX')],
        ...s.classes.map((c) => [
          c.name,
          (cx, cy) => {
            const g = el('g', { class: 'swatch' });
            g.append(arrow(cx - 11, cx + 6, cy), marker(shapes[c.name], cx + 6, cy, c.name === s.condition));
            return g;
          },
          this.t(`cond_${c.name}`),
          24,
          c === s.classes[0], // the classes' entries kept on one line together
        ]),
      ],
      33,
      W,
      items,
    );
    // per feature: x's tick in the first sub-lane, under it one sub-lane per class with its arrow from x to its h
    // (a marker never sits on another series' tick or shaft)
    const subs = ['x', ...s.classes.map((c) => c.name)];
    const pad = HIT - SUB / 2 - 3; // room above x's tick for its hit circle, inside its own lane
    const dotLane = pad + subs.length * SUB + 3;
    const cmpTicks = ky + 22; // the comparison's own axis numbers, between its key and its lanes
    const cmpBody = cmpTicks + 2,
      cmpEnd = cmpBody + D * dotLane;
    const outTop = cmpEnd + 6;
    // h's chart has its own key under its label: the residual x, the gated branch, h; its bars below the key
    const bar = (cls, h) => (cx, cy) =>
      el('rect', { class: cls, x: cx - 5, y: cy - h / 2, width: 10, height: h, rx: 1.5 });
    const barKey = [];
    const barsTop =
      this._key(
        'bars',
        [
          ['base', bar('b-base', 7), this.t('keyBase')],
          ['gated', bar('b-gated', 5), this.t('keyGated')],
          ['h', (cx, cy) => el('line', { class: 'h-mark', x1: cx, x2: cx, y1: cy - 6, y2: cy + 6 }), this.t('keyH')],
        ],
        outTop + 30,
        W,
        barKey,
      ) + 10;
    const barsEnd = barsTop + (D - 1) * 16 + 12;
    const H = barsEnd + 3 + axisH;
    this._svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    items.unshift(
      this._axis(s, x, [[cmpBody, cmpEnd]], cmpTicks, 'compare'),
      this._axis(s, x, [[barsTop - 2, barsEnd + 2]], H - 4, 'bars'),
    );
    this._barRow(s, OUT_ROW, outTop, x, W, label, items, barsTop);
    items.push(...barKey);
    const lanes = [];
    for (let f = 0; f < D; f++) {
      const y0 = cmpBody + f * dotLane;
      const cx = x(s.features[f]);
      const subY = (j) => y0 + pad + j * SUB + SUB / 2;
      // the row is feature f of x: x₁ … x₄, as the number grid names them
      items.push(el('text', { class: 'feat', x: 4, y: subY(2) + 4 }, `x${subscript(f + 1)}`));
      s.classes.forEach((c, j) => {
        const cy = subY(j + 1),
          hx = x(c.output[f]);
        const g = el('g', { class: 'h-arrow', 'data-series': c.name, 'data-feature': String(f) });
        g.append(arrow(cx, hx, cy), marker(shapes[c.name], Number(hx.toFixed(1)), cy, c.name === s.condition));
        items.push(g);
      });
      // x's handle on its line in the lane's middle: drag the knob, or press anywhere on the lane
      const hd = this._handles[f];
      const v = s.features[f];
      hd.lane.setAttribute('x', m.l);
      hd.lane.setAttribute('y', y0);
      hd.lane.setAttribute('width', Math.max(0, W - m.r - m.l));
      hd.lane.setAttribute('height', dotLane - 2);
      hd.g.setAttribute('transform', `translate(${cx.toFixed(1)},${subY(0).toFixed(1)})`);
      hd.g.setAttribute('aria-label', this.t('handle', { i: f + 1 }));
      hd.g.setAttribute('aria-valuenow', String(v));
      hd.g.setAttribute('aria-valuetext', this.fmtVal(v));
      lanes.push(hd.lane);
    }
    this._svg.setAttribute('aria-label', this.t('handles'));
    // the drawing is redrawn; the x lanes and handles above it stay (a focused or dragged handle keeps its focus)
    if (!this._deco) {
      this._deco = el('g', { 'aria-hidden': 'true' });
      this._svg.replaceChildren(this._deco, ...lanes, ...this._handles.map((hd) => hd.g));
    }
    this._deco.replaceChildren(...items);
    // the steps from x to h, behind their disclosure (drawn while it is open), on the same axis
    this._stepsSummary.textContent = this.t('stepsSummary', { c: label });
    if (this._steps.open) {
      const SH = STEP_ROWS.length * rowH + axisH;
      const W2 = this.fit(this._stepsSvg, 640, SH);
      const x2 = scale(s.domain, [m.l, W2 - m.r]);
      const bands = STEP_ROWS.map((_, r) => [r * rowH + 17, (r + 1) * rowH - 3]);
      const out = [this._axis(s, x2, bands, SH - 4)];
      STEP_ROWS.forEach((row, r) => this._barRow(s, row, r * rowH, x2, W2, label, out));
      this._stepsSvg.setAttribute('viewBox', `0 0 ${W2} ${SH}`);
      this._stepsSvg.replaceChildren(...out);
    }
    const mod = s.modulation;
    this._numbers.textContent = this.t('numbers', {
      c: label,
      s: this.list(mod.scale),
      b: this.list(mod.shift),
      g: this.list(mod.gate),
      h: this.list(s.output),
    });
    this._fillWeights();
    this._syncBoxes();
  }

  /** The conditioning network's weights, once per language: they never change. */
  _fillWeights() {
    if (this._weightsFilled === this.lang) return;
    this._weightsFilled = this.lang;
    const table = (title, rows, cols, data, rowNames, colNames) => {
      const t = el('table');
      const row = (head, cells, tag) => {
        const tr = el('tr');
        tr.append(el('th', {}, head), ...cells.map((c) => el(tag, {}, c)));
        return tr;
      };
      t.append(el('caption', {}, title), row('', colNames, 'th'));
      for (let r = 0; r < rows; r++)
        t.append(
          row(
            rowNames[r],
            data.slice(r * cols, (r + 1) * cols).map((v) => this.fmt(v, 3)),
            'td',
          ),
        );
      return t;
    };
    const feats = (p) => Array.from({ length: D }, (_, i) => `${p}${i + 1}`);
    this._weightsBody.replaceChildren(
      table(
        this.t('tableEmbed'),
        3,
        3,
        EMBED,
        ['e1', 'e2', 'e3'],
        CLASSES.map((c) => this.t(`cond_${c}`)),
      ),
      table(
        this.t('tableProjection'),
        3 * D,
        4,
        PROJECTION,
        [...feats('s'), ...feats('b'), ...feats('g')],
        ['a1', 'a2', 'a3', this.t('bias')],
      ),
      table(this.t('tableSublayer'), D, D, SUBLAYER, feats('F'), feats('y')),
    );
  }

  describe(s) {
    const x = this.list(s.features),
      n = this.list(s.normalized);
    const parts = [this.t(x === n ? 'describeLnSame' : 'describeLn', { x, n })];
    // the idea first: the same x under the three classes
    const outs = s.classes.map((c) => this.list(c.output));
    if (outs.every((o) => o === outs[0]))
      parts.unshift(this.t(outs[0] === x ? 'classesAllX' : 'classesSame', { h: outs[0] }));
    else
      parts.unshift(
        this.t('classesDiffer', {
          list: s.classes
            .map((c, i) => this.t('classOut', { c: this.t(`cond_${c.name}`), h: outs[i] }))
            .join(this.t('classSep')),
        }),
      );
    // and the other half of the idea, in x's key entry: a zero gate returns x
    if (s.projection !== 'zero') {
      const z = this.list(s.zero.output);
      parts.splice(1, 0, this.t(z === x ? 'zeroStart' : 'zeroStartOther', { z }));
    }

    const mod = s.modulation;
    const vars = {
      c: this.t(`cond_${s.condition}`),
      s: this.list(mod.scale),
      b: this.list(mod.shift),
      g: this.list(mod.gate),
      y: this.list(s.modulated),
      F: this.list(s.branch),
      h: this.list(s.output),
    };
    const zeroProjection = s.condition !== 'custom' && s.projection === 'zero';
    if (s.condition === 'custom') parts.push(this.t('describeCustom', vars));
    else if (zeroProjection) parts.push(this.t('describeZeroProjection', vars));
    else parts.push(this.t('describeClass', vars));
    parts.push(this.t('describeBranch', vars));
    const gateZero = mod.gate.every((v) => v === 0);
    if (gateZero) parts.push(this.t('gateZero', vars));
    else {
      const closed = mod.gate.map((v, i) => (v === 0 ? i + 1 : 0)).filter(Boolean);
      if (closed.length) parts.push(this.t('gateSomeZero', { list: closed.join(this.t('listSep')) }));
    }
    return parts.join(this.t('sentenceSep'));
  }
}
NlAdaln.defineProperties();

// The figure's strings, English and Chinese (t(key); a language added with registerLocale overrides them).
NlAdaln.strings = {
  en: {
    name: 'AdaLN: a condition sets scale, shift and gate; AdaLN-Zero starts at the identity',
    conditionLabel: 'Condition c:',
    cond_cat: 'cat',
    cond_dog: 'dog',
    cond_ship: 'ship',
    cond_custom: 'your own s, b, g',
    projection: 'Final projection W',
    choice_trained: 'fixed weights',
    choice_zero: 'zero (AdaLN-Zero initialization)',
    box_features: 'x',
    box_scale: 's (scale)',
    box_shift: 'b (shift)',
    box_gate: 'g (gate)',
    boxPart_features: 'x{i}',
    boxPart_scale: 'scale s{i}',
    boxPart_shift: 'shift b{i}',
    boxPart_gate: 'gate g{i}',
    handle: 'x{i}: drag, or use the arrow keys',
    handles: 'The features x: each value can be dragged',
    weightsSummary: 'The conditioning network’s weights',
    weightsNote:
      'Fixed numbers, as if already trained: nothing here changes them. The class picks a column of E, SiLU(z) = z·σ(z) is applied to it, and W (with a bias) turns the result a into s, b and g. F is the block’s sublayer.',
    tableEmbed: 'E: class → embedding',
    tableProjection: 'W: a = SiLU(embedding) → s, b, g',
    tableSublayer: 'F: y → F(y)',
    bias: 'bias',
    rowInput: 'x',
    rowNormalized: 'LN₀(x): LayerNorm without affine',
    rowModulated: 'y = (1 + s) ⊙ LN₀(x) + b ({c})',
    rowBranch: 'F(y): the sublayer',
    rowOutput: 'h = x + g ⊙ F(y)',
    rowCompare: 'From the same x to each class’s h',
    keyX: 'x (drag)',
    keyXZero: 'x (drag); at AdaLN-Zero’s initialization h stays here',
    keyBase: 'x, the residual',
    keyGated: 'g ⊙ F(y), the gated branch',
    keyH: 'h',
    stepsSummary: 'Step by step for {c}: LN₀(x), y and F(y)',
    zeroStart:
      'For comparison, at AdaLN-Zero’s initialization: with the final projection at zero every gate is 0, so h = {z}, x itself, and every arrow would have no length.',
    zeroStartOther:
      'For comparison, at AdaLN-Zero’s initialization: with the final projection at zero every gate is 0, and h = {z}.',
    numbers: 'For {c}: s = {s}, b = {b}, g = {g}; h = {h}.',
    sentenceSep: ' ',
    listSep: ', ',
    classSep: '; ',
    describeLn: 'LN₀ takes x = {x} to {n}: mean 0 and standard deviation 1, whatever the mean and spread of x.',
    describeLnSame: 'x = {x} already has mean 0 and standard deviation 1, so LN₀ gives it back: {n}.',
    describeClass:
      'The conditioning network maps the class {c} to s = {s} (the scale is 1 + s), shift b = {b} and gate g = {g}, so y = (1 + s) ⊙ LN₀(x) + b = {y}.',
    describeZeroProjection:
      'With the final projection W at zero, as AdaLN-Zero initializes it (E and F keep their weights), the class {c} gets s = {s}, b = {b} and g = {g}: y is LN₀(x) itself, {y}.',
    describeCustom:
      'With your own s = {s} (the scale is 1 + s), shift b = {b} and gate g = {g}, y = (1 + s) ⊙ LN₀(x) + b = {y}.',
    describeBranch: 'The sublayer gives F(y) = {F}, and the block outputs h = x + g ⊙ F(y) = {h}.',
    gateZero:
      'A zero gate returns x unchanged, and it blocks the branch’s gradient too: ∂h/∂F(y) = diag(g) = 0, so F, s and b receive none. The gate’s own gradient, ∂h/∂g = F(y) = {F} feature by feature, is not blocked, so training can move g away from 0.',
    gateSomeZero: 'The gate is 0 on feature {list}: there h equals x.',
    classesAllX:
      'Every class ends at h = x = {h}: the arrows have no length, each marker sits under x’s tick, and the condition has no effect yet.',
    classesSame: 'Every class ends at the same h = {h}.',
    classesDiffer: 'The same x ends in different places: {list}.',
    classOut: '{h} for {c}',
    zeroToggle: 'Initialize as AdaLN-Zero: every gate 0 (W = 0)',
    pipeline1: 'class c → a small network → per feature a scale s, a shift b and a gate g',
    pipeline2: 'y = (1 + s) ⊙ LN₀(x) + b, then h = x + g ⊙ F(y), F being the block’s sublayer',
    gridSummary: 'Type x, s, b and g',
  },
  zh: {
    name: 'AdaLN：condition 给出 scale、shift 与 gate；AdaLN-Zero 从恒等映射开始',
    conditionLabel: '条件 c：',
    cond_cat: '猫',
    cond_dog: '狗',
    cond_ship: '船',
    cond_custom: '自定 s、b、g',
    projection: '最后一层投影 W',
    choice_trained: '固定 weights',
    choice_zero: '零（AdaLN-Zero 初始）',
    box_features: 'x',
    box_scale: 's（scale）',
    box_shift: 'b（shift）',
    box_gate: 'g（gate）',
    boxPart_features: 'x{i}',
    boxPart_scale: 'scale s{i}',
    boxPart_shift: 'shift b{i}',
    boxPart_gate: 'gate g{i}',
    handle: 'x{i}：拖动，或用方向键',
    handles: 'Features x：每个值都可以拖动',
    weightsSummary: 'Conditioning 网络的 weights',
    weightsNote:
      '这些是固定的数值，相当于已经训练好，图中不会改变它们。类别选出 E 的一列，对它作用 SiLU(z) = z·σ(z)，再由 W（带 bias）把结果 a 变成 s、b 与 g。F 是 block 的 sublayer。',
    tableEmbed: 'E：类别 → embedding',
    tableProjection: 'W：a = SiLU(embedding) → s、b、g',
    tableSublayer: 'F：y → F(y)',
    bias: 'bias',
    rowInput: 'x',
    rowNormalized: 'LN₀(x)：不带 affine 的 LayerNorm',
    rowModulated: 'y = (1 + s) ⊙ LN₀(x) + b（{c}）',
    rowBranch: 'F(y)：sublayer',
    rowOutput: 'h = x + g ⊙ F(y)',
    rowCompare: '从同一个 x 到各个类别的 h',
    keyX: 'x（可拖动）',
    keyXZero: 'x（可拖动）；AdaLN-Zero 初始化时 h 停在这里',
    keyBase: 'x：residual',
    keyGated: 'g ⊙ F(y)：乘上 gate 的分支',
    keyH: 'h',
    stepsSummary: '逐步看“{c}”：LN₀(x)、y 与 F(y)',
    zeroStart:
      '作为对照，AdaLN-Zero 初始化时：最后一层投影为零，每个 gate 都是 0，所以 h = {z}，就是 x 本身，每个箭头的长度都会是零。',
    zeroStartOther: '作为对照，AdaLN-Zero 初始化时：最后一层投影为零，每个 gate 都是 0，h = {z}。',
    numbers: '{c}：s = {s}，b = {b}，g = {g}；h = {h}。',
    sentenceSep: '',
    listSep: '、',
    classSep: '；',
    describeLn: 'LN₀ 把 x = {x} 变为 {n}：不论 x 自身的 mean 与离散程度如何，结果的 mean 都是 0，标准差都是 1。',
    describeLnSame: 'x = {x} 的 mean 已经是 0、标准差已经是 1，所以 LN₀ 原样返回它：{n}。',
    describeClass:
      'Conditioning 网络把类别“{c}”映射为 s = {s}（scale 是 1 + s）、shift b = {b} 与 gate g = {g}，于是 y = (1 + s) ⊙ LN₀(x) + b = {y}。',
    describeZeroProjection:
      '最后一层投影 W 为零时（AdaLN-Zero 就是这样初始化的，E 与 F 保留各自的 weights），类别“{c}”得到 s = {s}、b = {b}、g = {g}：y 就是 LN₀(x) 本身，即 {y}。',
    describeCustom:
      '使用自定的 s = {s}（scale 是 1 + s）、shift b = {b} 与 gate g = {g} 时，y = (1 + s) ⊙ LN₀(x) + b = {y}。',
    describeBranch: 'Sublayer 给出 F(y) = {F}，block 输出 h = x + g ⊙ F(y) = {h}。',
    gateZero:
      'Gate 为零时 block 原样返回 x，也挡住了分支的 gradient：∂h/∂F(y) = diag(g) = 0，F、s 与 b 都得不到 gradient。Gate 自身的 gradient 不受影响，逐 feature 为 ∂h/∂g = F(y) = {F}，所以训练能让 g 离开 0。',
    gateSomeZero: 'Feature {list} 上的 gate 为 0：这些位置的 h 等于 x。',
    classesAllX: '每个类别都得到 h = x = {h}：箭头长度为零，每个标记都在 x 的刻度正下方，condition 暂时不起作用。',
    classesSame: '每个类别都得到相同的 h = {h}。',
    classesDiffer: '同一个 x 落到了不同的位置：{list}。',
    classOut: '“{c}”为 {h}',
    zeroToggle: '按 AdaLN-Zero 初始化：每个 gate 为 0（W = 0）',
    pipeline1: '类别 c → 一个小网络 → 每个 feature 的 scale s、shift b 与 gate g',
    pipeline2: 'y = (1 + s) ⊙ LN₀(x) + b，再得 h = x + g ⊙ F(y)，F 是 block 的 sublayer',
    gridSummary: '输入 x、s、b 与 g',
  },
};
