// <nl-adaln> — AdaLN: a condition predicts a scale s and a shift b for the
// normalized features, y = (1 + s) ⊙ LN₀(x) + b; AdaLN-Zero adds a gate g on
// the residual branch, h = x + g · F(y), so a zero gate returns x unchanged.
// Here the sublayer F is the identity, so the branch output is y itself.
//
// Attributes: features ("-1,1"), scale ("0,0"), shift ("0,0"), gate (1; 0..1), lang.
// Properties: the same; state (read-only): {features, scale, shift, gate,
//   normalized (LN₀(x), eps 0), modulated (y), output (h), domain, ticks, error}.
// Events: change (reader's actions only). Keyboard: sliders for each scale and
//   shift component (−4..4) and the gate; presets "No modulation",
//   "Scale (1, 0), shift (0, 3)" (the article's example) and "AdaLN-Zero start"
//   (everything 0).
// CSS custom properties: --nl-input (x), --nl-layer-norm (LN₀(x)), --nl-update
//   (what the condition does: y, and the gated part g·y of h), and the shared --nl-*.
// Parts: figure, controls, slider, number, button, view, description, error.
// Layout: one row per quantity, a label above its two bars (feature 1 and 2)
// and the values at the right, drawn at the width the svg gets (fit), so
// labels keep 11–13 CSS px on a phone. The axis always covers −3..3 and
// widens only when a value leaves it.
// Numbers from the core: layer_norm, ada_layer_norm, gated_residual, axis_ticks.
import { el } from '../lib/base.js';
import { NlFigure, figureCss } from '../lib/figure.js';
import { scale, svg } from '../lib/plot.js';

const vec = NlFigure.vec;
// [catalog label, bar class]: x, LN₀(x), y, h
const ROWS = [
  ['rowInput', 'in'],
  ['rowNormalized', 'ln'],
  ['rowModulated', 'mod'],
  ['rowOutput', 'out'],
];

export class NlAdaln extends NlFigure {
  static catalog = 'adaln';
  static summary = 'AdaLN modulation and the AdaLN-Zero gate.';
  static minHeight = 504; // px kept by normlab/styles.css (measured at 960 px, default attributes)
  static stateDoc = '`normalized`, `modulated`, `output`'; // `state` keys beyond the attributes (README)
  static params = {
    features: { attr: 'features', kind: 'vector', length: 2, default: [-1, 1], doc: 'the two features x' },
    scale: {
      attr: 'scale',
      kind: 'vector',
      length: 2,
      default: [0, 0],
      doc: 'the scale s the condition predicts, one per feature',
    },
    shift: {
      attr: 'shift',
      kind: 'vector',
      length: 2,
      default: [0, 0],
      doc: 'the shift b the condition predicts, one per feature',
    },
    gate: {
      attr: 'gate',
      kind: 'number',
      default: 1,
      min: 0,
      max: 1,
      step: 0.05,
      control: 'slider',
      doc: "AdaLN-Zero's gate g on the residual branch",
    },
  };
  static css = `${figureCss}
.b-in { fill: var(--nl-input); }
.b-ln { fill: var(--nl-layer-norm); }
.b-mod { fill: var(--nl-update); }
.b-base { fill: var(--nl-input); fill-opacity: 0.35; }
.b-gated { fill: var(--nl-update); }
.h-mark { stroke: var(--nl-fg); stroke-width: 2; }
.axis line.zero { stroke: var(--nl-muted); }
.row-label { font-size: var(--nl-label-size); font-weight: 600; }
.feat, .val { font-size: var(--nl-small-size); fill: var(--nl-muted); font-variant-numeric: tabular-nums; }
.control output { min-width: 2.5em; font-variant-numeric: tabular-nums; }
.control > span { white-space: nowrap; }
`;

  buildControls(box) {
    this._parts = [];
    for (const key of ['scale', 'shift']) {
      for (const i of [0, 1]) {
        const label = el('label', { class: 'control' });
        const text = el('span');
        const range = el('input', { type: 'range', min: -4, max: 4, step: 0.1, part: 'slider' });
        const out = el('output');
        range.addEventListener('input', () => {
          const v = [...this._values[key]];
          v[i] = Number(range.value);
          this.setByUser(key, v);
        });
        label.append(text, range, out);
        this._parts.push({ key, i, text, range, out });
        box.append(label);
      }
    }
    super.buildControls(box);
    box.append(
      this.button('presetNone', () => this._preset([0, 0], [0, 0])),
      this.button('presetArticle', () => this._preset([1, 0], [0, 3])),
      this.button('presetZero', () => this._preset([0, 0], [0, 0], 0)),
    );
  }

  _preset(sc, sh, gate) {
    const set = (key, v) => {
      this._values[key] = v;
      this._attrErrors.delete(key);
      this.reflect(key, Array.isArray(v) ? v.join(',') : v);
    };
    set('scale', sc);
    set('shift', sh);
    if (gate !== undefined) set('gate', gate);
  }

  languageChanged() {
    for (const p of this._parts) {
      const name = this.t(`${p.key}Part`, { i: p.i + 1 });
      p.text.textContent = name;
      p.range.setAttribute('aria-label', name);
    }
  }

  _syncControls() {
    super._syncControls();
    for (const p of this._parts) {
      if (this._attrErrors.has(p.key)) continue;
      p.range.value = String(this._values[p.key][p.i]);
      p.out.textContent = this.fmtMod(this._values[p.key][p.i]);
    }
  }

  buildView(view) {
    this._svg = svg(640, 260);
    this._numbers = el('p', { class: 'numbers' });
    view.append(this._svg, this._numbers);
  }

  compute(core, { features, scale: sc, shift, gate }) {
    const x = { shape: [1, 1, 2], data: features };
    const normalized = this.op('layer_norm', { x: vec(features) }, { eps: 0 });
    const modulated = this.op(
      'ada_layer_norm',
      { x, scale: { shape: [1, 2], data: sc }, shift: { shape: [1, 2], data: shift } },
      { eps: 0 },
    );
    const output = this.op('gated_residual', { x, update: { shape: [1, 1, 2], data: modulated }, gate: vec([gate]) });
    // ±3 always in view, so small moves of a slider do not rescale the chart
    const all = [-3, 3, ...features, ...normalized, ...modulated, ...output];
    return { normalized, modulated, output, ...this.axisFields('domain', 'ticks', all, { symmetric: true, count: 6 }) };
  }

  // ---- one formatter per quantity -------------------------------------------------
  fmtVal(v) {
    return this.fmt(v, 4);
  }
  fmtMod(v) {
    return this.fmt(v, 4);
  }
  fmtGate(v) {
    return this.fmt(v, 3);
  }
  list(vs, f = (v) => this.fmtVal(v)) {
    return `(${vs.map(f).join(', ')})`;
  }

  draw(s) {
    const rowH = 58,
      top = 4,
      axisH = 18;
    const H = top + ROWS.length * rowH + axisH;
    const W = this.fit(this._svg, 640, H);
    const m = { l: 22, r: 58 };
    const x = scale(s.domain, [m.l, W - m.r]);
    const items = [];
    // vertical grid in each row's bar band (never across a row label), tick labels at the bottom
    const axis = el('g', { class: 'axis' });
    for (const t of s.ticks) {
      for (let r = 0; r < ROWS.length; r++) {
        const y0 = top + r * rowH;
        axis.append(
          el('line', {
            class: t === 0 ? 'zero' : null,
            x1: x(t).toFixed(1),
            x2: x(t).toFixed(1),
            y1: y0 + 17,
            y2: y0 + rowH - 3,
          }),
        );
      }
      axis.append(el('text', { x: x(t).toFixed(1), y: H - 4, 'text-anchor': 'middle' }, this.fmt(t, 3)));
    }
    items.push(axis);
    const rect = (a, b, y0, h, cls) =>
      el('rect', {
        class: cls,
        x: Math.min(x(a), x(b)).toFixed(1),
        width: Math.abs(x(b) - x(a)).toFixed(1),
        y: y0.toFixed(1),
        height: h,
        rx: 1.5,
      });
    ROWS.forEach(([label, cls], r) => {
      const y0 = top + r * rowH;
      items.push(el('text', { class: 'row-label', x: 0, y: y0 + 13 }, this.t(label)));
      const values = [s.features, s.normalized, s.modulated, s.output][r];
      values.forEach((v, f) => {
        const by = y0 + 19 + f * 18;
        items.push(el('text', { class: 'feat', x: 4, y: by + 11 }, String(f + 1)));
        if (cls === 'out') {
          // h = x + g·y: the residual x (faint) and the gated branch from x to h
          items.push(rect(0, s.features[f], by, 14, 'b-base'), rect(s.features[f], v, by + 3, 8, 'b-gated'));
          items.push(
            el('line', { class: 'h-mark', x1: x(v).toFixed(1), x2: x(v).toFixed(1), y1: by - 1, y2: by + 15 }),
          );
        } else {
          const bar = rect(0, v, by, 14, `b-${cls}`);
          bar.dataset.value = String(v);
          items.push(bar);
        }
        items.push(el('text', { class: 'val', x: W - 2, y: by + 11, 'text-anchor': 'end' }, this.fmtVal(v)));
      });
    });
    this._svg.replaceChildren(...items);
    this._numbers.textContent = this.t('numbers', {
      n: this.list(s.normalized),
      y: this.list(s.modulated),
      h: this.list(s.output),
      g: this.fmtGate(s.gate),
    });
  }

  describe(s) {
    // "already normalized" when LN₀ gives back x as the figure writes it (the article's example, (−1, 1))
    const x = this.list(s.features),
      n = this.list(s.normalized);
    const parts = [this.t(x === n ? 'describeLnSame' : 'describeLn', { x, n })];
    const sc = this.list(s.scale, (v) => this.fmtMod(v)),
      sh = this.list(s.shift, (v) => this.fmtMod(v));
    const none = s.scale.every((v) => v === 0) && s.shift.every((v) => v === 0);
    parts.push(this.t(none ? 'describeNone' : 'describeMod', { scale: sc, shift: sh, y: this.list(s.modulated) }));
    s.scale.forEach((v, i) => {
      if (v === -1) parts.push(this.t('zeroed', { i: i + 1 }));
      else if (v < -1) parts.push(this.t('flipped', { i: i + 1 }));
    });
    const g = this.fmtGate(s.gate),
      h = this.list(s.output);
    parts.push(this.t(s.gate === 0 ? 'gateZero' : s.gate === 1 ? 'gateOne' : 'gateSome', { g, h }));
    return parts.join(this.t('sentenceSep'));
  }
}
NlAdaln.defineProperties();
