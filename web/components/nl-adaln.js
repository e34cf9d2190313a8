// <nl-adaln> — AdaLN: a condition predicts a scale and a shift for the
// normalized features, (1 + scale) * LN(x) + shift; AdaLN-Zero adds a gate on
// the residual branch, so a zero gate returns x unchanged.
//
// Attributes: features ("-1,1"), scale ("0,0"), shift ("0,0"), gate (1; 0..1), lang.
// Properties: the same; state (read-only): {features, scale, shift, gate,
//   normalized, modulated, output, error}.
// Events: change. Keyboard: sliders for each scale and shift component and
//   the gate; presets "No modulation" and "Scale (1, 0), shift (0, 3)".
// Parts: figure, controls, slider, number, button, view, description, error.
// Numbers from the core: layer_norm, ada_layer_norm, gated_residual, axis_ticks.
import { el } from './base.js';
import { NlFigure, figureCss } from './figure.js';
import { svg } from './plot.js';

const vec = NlFigure.vec;

export class NlAdaln extends NlFigure {
  static catalog = 'adaln';
  static params = {
    features: { attr: 'features', kind: 'vector', length: 2, default: [-1, 1] },
    scale: { attr: 'scale', kind: 'vector', length: 2, default: [0, 0] },
    shift: { attr: 'shift', kind: 'vector', length: 2, default: [0, 0] },
    gate: { attr: 'gate', kind: 'number', default: 1, min: 0, max: 1, step: 0.05, control: 'slider' },
  };
  static css = figureCss;

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
    );
  }

  _preset(sc, sh) {
    this._values.scale = sc;
    this._values.shift = sh;
    this._attrErrors.delete('scale');
    this._attrErrors.delete('shift');
    this.reflect('scale', sc.join(','));
    this.reflect('shift', sh.join(','));
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
      p.range.value = String(this._values[p.key][p.i]);
      p.out.textContent = this.fmt(this._values[p.key][p.i]);
    }
  }

  buildView(view) {
    this._svg = svg(640, 220);
    this._numbers = el('p', { class: 'numbers' });
    view.append(this._svg, this._numbers);
  }

  compute(core, { features, scale: sc, shift, gate }) {
    const x = { shape: [1, 1, 2], data: features };
    const normalized = this.op('layer_norm', { x: vec(features) }, { eps: 0 });
    const modulated = this.op('ada_layer_norm', { x, scale: { shape: [1, 2], data: sc }, shift: { shape: [1, 2], data: shift } }, { eps: 0 });
    const output = this.op('gated_residual', { x, update: { shape: [1, 1, 2], data: modulated }, gate: vec([gate]) });
    const all = [...features, ...normalized, ...modulated, ...output];
    return {
      normalized, modulated, output,
      ...this.axisFields('domain', 'ticks', all, { symmetric: true, count: 4 }),
    };
  }

  draw(s) {
    this.groupedBars(this._svg, this.t('chartTitle'), [['rowInput', s.features, 'bar-ref'], ['rowNormalized', s.normalized, 'bar-a'], ['rowModulated', s.modulated, 'bar-b'], ['rowOutput', s.output, 'bar-c']], { domain: s.domain, ticks: s.ticks });
    this._numbers.textContent = this.t('numbers', {
      n: this.fmtList(s.normalized), y: this.fmtList(s.modulated), h: this.fmtList(s.output), g: this.fmt(s.gate),
    });
  }

  describe(s) {
    return this.t('describe', {
      scale: this.fmtList(s.scale), shift: this.fmtList(s.shift), n: this.fmtList(s.normalized),
      y: this.fmtList(s.modulated), g: this.fmt(s.gate), h: this.fmtList(s.output),
    });
  }
}
NlAdaln.defineProperties();
