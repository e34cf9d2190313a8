// <nl-bar-compare> — one vector under a common scale and offset, and what
// L2 normalization, LayerNorm and RMSNorm make of it.
//
// Attributes: vector ("1,2,3"; two or more numbers), scale (1), offset (0),
//   eps (1e-5; the eps of all three normalizations), lang (en | zh).
// Properties: vector (number[]), scale, offset, eps; state (read-only):
//   {vector, scale, offset, eps, input, reference: {input, l2, layer_norm,
//   rms_norm}, current: {…same keys}, error}.
// Events: change — after the reader moves a control or presses a button.
// CSS custom properties: --nl-fg, --nl-bg, --nl-muted, --nl-grid,
//   --nl-reference (gray bars), --nl-input, --nl-l2, --nl-layer-norm,
//   --nl-rms-norm (colored bars), --nl-focus, --nl-error, --nl-font.
// Parts: figure, controls, chart, panel, bar-reference, bar-current, axis,
//   table, description, error.
// Every number shown comes from the WASM core: the input is the core's FiLM
// (gamma = scale, beta = offset), the outputs its l2_normalize, layer_norm and
// rms_norm, the axes its axis_ticks.
import { NlElement, el } from './base.js';

const PANELS = ['input', 'l2', 'layer_norm', 'rms_norm'];
const DEFAULTS = { vector: [1, 2, 3], scale: 1, offset: 0, eps: 1e-5 };
const PANEL_H = 210;
const MARGIN = { top: 30, right: 10, bottom: 26, left: 44 };

export class NlBarCompare extends NlElement {
  static catalog = 'barCompare';
  static observedAttributes = ['vector', 'scale', 'offset', 'eps', 'lang'];
  static css = `
:host { --nl-input: #4c6ef5; --nl-l2: #0c8599; --nl-layer-norm: #d9480f; --nl-rms-norm: #9c36b5; }
@media (prefers-color-scheme: dark) {
  :host { --nl-input: #91a7ff; --nl-l2: #3bc9db; --nl-layer-norm: #ff922b; --nl-rms-norm: #da77f2; }
}
.controls { display: flex; flex-wrap: wrap; gap: 8px 18px; align-items: center; margin-bottom: 8px; }
.control { display: flex; align-items: center; gap: 6px; }
.control input[type=range] { width: 140px; }
.control input[type=number] { width: 104px; padding: 2px 6px; }
.buttons { display: flex; flex-wrap: wrap; gap: 8px; }
.legend { display: flex; gap: 16px; font-size: 0.85em; color: var(--nl-muted); margin: 2px 0 0; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 4px; vertical-align: baseline; }
.swatch.reference { background: var(--nl-reference); }
.swatch.current { background: linear-gradient(90deg, var(--nl-input), var(--nl-l2), var(--nl-layer-norm), var(--nl-rms-norm)); }
.bar.reference { fill: var(--nl-reference); }
.bar.current.input { fill: var(--nl-input); }
.bar.current.l2 { fill: var(--nl-l2); }
.bar.current.layer_norm { fill: var(--nl-layer-norm); }
.bar.current.rms_norm { fill: var(--nl-rms-norm); }
.axis line, .zero { stroke: var(--nl-grid); }
.zero { stroke: var(--nl-muted); }
.axis text, .coord { font-size: 11px; fill: var(--nl-muted); }
.title { font-size: 13px; font-weight: 600; }
.subtitle { font-size: 10px; fill: var(--nl-muted); }
.has-error .chart .current { opacity: 0.25; }
table { border-collapse: collapse; font-size: 0.85em; margin-top: 8px; font-variant-numeric: tabular-nums; }
caption { text-align: left; color: var(--nl-muted); padding-bottom: 2px; }
th, td { padding: 2px 10px 2px 0; text-align: right; }
th:first-child { text-align: left; }
td .ref { color: var(--nl-muted); }
`;

  constructor() {
    super();
    this._vector = DEFAULTS.vector;
    this._scale = DEFAULTS.scale;
    this._offset = DEFAULTS.offset;
    this._eps = DEFAULTS.eps;
    this._initial = null;
    this._attrErrors = new Map();
    this._state = null;
    this._columns = 4;
  }


  // ---- attributes --------------------------------------------------------
  _parseAttribute(name, value) {
    this._attrErrors.delete(name);
    if (name === 'vector') {
      if (value === null) return void (this._vector = DEFAULTS.vector);
      const parts = value.split(',').map((s) => s.trim());
      const nums = parts.map(Number);
      if (parts.length < 2 || parts.some((s) => s === '') || nums.some((n) => !Number.isFinite(n))) {
        this._attrErrors.set(name, this.t('badVector', { value }));
        return;
      }
      this._vector = nums;
    } else if (name === 'scale' || name === 'offset' || name === 'eps') {
      if (value === null) return void (this['_' + name] = DEFAULTS[name]);
      const n = value.trim() === '' ? NaN : Number(value);
      if (!Number.isFinite(n)) {
        this._attrErrors.set(name, this.t('badNumber', { name, value }));
        return;
      }
      this['_' + name] = n;
    }
  }

  // ---- DOM ---------------------------------------------------------------
  build(root) {
    for (const name of ['vector', 'scale', 'offset', 'eps']) {
      if (this.hasAttribute(name)) this._parseAttribute(name, this.getAttribute(name));
    }
    this._initial = { scale: this._scale, offset: this._offset, eps: this._eps };
    const wrap = el('div', { part: 'figure', role: 'group', class: 'wrap' });
    this._wrap = wrap;
    this._status = el('p', { class: 'status muted', role: 'status' });

    const controls = el('div', { class: 'controls', part: 'controls' });
    this._inputs = {};
    const slider = (key, min, max, step) => {
      const label = el('label', { class: 'control' });
      const name = el('span');
      const range = el('input', { type: 'range', min, max, step, part: 'slider' });
      const box = el('input', { type: 'number', step: 'any', part: 'number' });
      range.addEventListener('input', () => this._userSet(key, Number(range.value), range));
      box.addEventListener('change', () => this._userSet(key, box.value.trim() === '' ? NaN : Number(box.value), box));
      label.append(name, range, box);
      this._inputs[key] = { label: name, range, box };
      return label;
    };
    controls.append(slider('scale', -20, 20, 0.1), slider('offset', -200, 200, 1));
    const epsLabel = el('label', { class: 'control' });
    const epsName = el('span');
    const epsBox = el('input', { type: 'number', step: 'any', min: 0, part: 'number' });
    epsBox.addEventListener('change', () => this._userSet('eps', epsBox.value.trim() === '' ? NaN : Number(epsBox.value), epsBox));
    epsLabel.append(epsName, epsBox);
    this._inputs.eps = { label: epsName, box: epsBox };
    controls.append(epsLabel);

    const buttons = el('div', { class: 'buttons' });
    this._buttons = {
      add100: el('button', { type: 'button', part: 'button' }),
      times10: el('button', { type: 'button', part: 'button' }),
      reset: el('button', { type: 'button', part: 'button' }),
    };
    this._buttons.add100.addEventListener('click', () => this._preset(1, 100));
    this._buttons.times10.addEventListener('click', () => this._preset(10, 0));
    this._buttons.reset.addEventListener('click', () => {
      this._eps = this._initial.eps;
      this._preset(this._initial.scale, this._initial.offset);
    });
    buttons.append(this._buttons.add100, this._buttons.times10, this._buttons.reset);
    controls.append(buttons);

    this._svg = el('svg', { class: 'chart', part: 'chart', 'aria-hidden': 'true' });
    this._legend = el('p', { class: 'legend' });
    this._legendRef = el('span');
    this._legendCur = el('span');
    this._legend.append(this._legendRef, this._legendCur);
    this._error = el('p', { class: 'error', part: 'error', role: 'alert' });
    this._desc = el('p', { class: 'description', part: 'description', id: 'desc', 'aria-live': 'polite' });
    this._table = el('table', { part: 'table' });
    wrap.setAttribute('aria-describedby', 'desc');
    wrap.append(this._status, controls, this._svg, this._legend, this._error, this._desc, this._table);
    root.append(wrap);

    if (typeof ResizeObserver !== 'undefined') {
      this._resize = new ResizeObserver(([entry]) => {
        const cols = entry.contentRect.width < 520 ? 2 : 4;
        if (cols !== this._columns) {
          this._columns = cols;
          this._layout = null;
          this.render();
        }
      });
    }
  }

  connectedCallback() {
    super.connectedCallback();
    this._resize?.observe(this);
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this._resize?.disconnect();
  }

  applyLanguage() {
    super.applyLanguage();
    if (!this._wrap) return;
    this._wrap.setAttribute('aria-label', this.t('name'));
    this._inputs.scale.label.textContent = this.t('scale');
    this._inputs.offset.label.textContent = this.t('offset');
    this._inputs.eps.label.textContent = this.t('eps');
    for (const k of ['scale', 'offset']) {
      this._inputs[k].range.setAttribute('aria-label', this.t(k));
      this._inputs[k].box.setAttribute('aria-label', this.t(k));
    }
    this._inputs.eps.box.setAttribute('aria-label', this.t('eps'));
    this._buttons.add100.textContent = this.t('add100');
    this._buttons.times10.textContent = this.t('times10');
    this._buttons.reset.textContent = this.t('reset');
    this._legendRef.replaceChildren(el('span', { class: 'swatch reference' }), this.t('legendReference'));
    this._legendCur.replaceChildren(el('span', { class: 'swatch current' }), this.t('legendCurrent'));
    this._layout = null; // panel titles are text in the SVG
  }

  // ---- interaction -------------------------------------------------------
  _userSet(key, value, source) {
    if (!Number.isFinite(value)) {
      this._attrErrors.set(key, this.t('badNumber', { name: this.t(key), value: source.value }));
      this.render();
      return;
    }
    this._attrErrors.delete(key);
    this['_' + key] = value;
    this.reflect(key, value);
    this.refresh();
    this.emitChange();
  }

  _preset(scale, offset) {
    this._attrErrors.delete('scale');
    this._attrErrors.delete('offset');
    this._scale = scale;
    this._offset = offset;
    for (const k of ['scale', 'offset', 'eps']) this.reflect(k, this['_' + k]);
    this.refresh();
    this.emitChange();
  }

  // ---- computation (all in the core) ------------------------------------
  _normalize(x) {
    const core = this._core;
    const t = { x: { shape: [x.length], data: x } };
    const eps = this._eps;
    return {
      input: Array.from(x),
      l2: Array.from(core.run('l2_normalize', t, { eps }).y.data),
      layer_norm: Array.from(core.run('layer_norm', t, { eps }).y.data),
      rms_norm: Array.from(core.run('rms_norm', t, { eps }).y.data),
    };
  }

  _compute() {
    const core = this._core;
    const v = this._vector;
    const d = v.length;
    const row = (data) => ({ shape: [1, d], data });
    // input = scale * vector + offset, by the core's FiLM
    const input = core.run('film', { x: row(v), gamma: row(new Array(d).fill(this._scale)), beta: row(new Array(d).fill(this._offset)) }).y.data;
    const reference = this._normalize(core.run('film', { x: row(v), gamma: row(new Array(d).fill(1)), beta: row(new Array(d).fill(0)) }).y.data);
    const current = this._normalize(input);
    // Output axis shared by the three panels: +-max of RMSNorm(one-hot) = sqrt(d),
    // the largest value RMSNorm or LayerNorm can produce for this d.
    const oneHot = new Array(d).fill(0);
    oneHot[0] = 1;
    const bound = core.run('rms_norm', { x: { shape: [d], data: oneHot } }, { eps: 0 }).y.data;
    const outAxis = core.run('axis_ticks', { x: { shape: [d], data: bound } }, { symmetric: true, count: 4 });
    const both = [...reference.input, ...current.input];
    const inAxis = core.run('axis_ticks', { x: { shape: [both.length], data: both } }, { include_zero: true, count: 4 });
    const axis = (a) => ({ domain: Array.from(a.domain.data), ticks: Array.from(a.ticks.data) });
    return { input: current.input, reference, current, axes: { input: axis(inAxis), output: axis(outAxis) } };
  }

  refresh() {
    if (!this._built) return;
    this._syncControls();
    if (!this._core) return;
    const base = { vector: [...this._vector], scale: this._scale, offset: this._offset, eps: this._eps };
    try {
      const r = this._compute();
      this._state = Object.freeze({ ...base, input: r.input, reference: r.reference, current: r.current, error: null });
      this._axes = r.axes;
      this._coreError = '';
    } catch (e) {
      this._coreError = e.message;
      this._state = Object.freeze({ ...(this._state ?? {}), ...base, error: e.message });
    }
    this.render();
  }

  _syncControls() {
    for (const k of ['scale', 'offset']) {
      const { range, box } = this._inputs[k];
      if (!this._attrErrors.has(k)) {
        range.value = String(this['_' + k]);
        if (this.shadowRoot.activeElement !== box) box.value = String(this['_' + k]);
      }
    }
    const eb = this._inputs.eps.box;
    if (!this._attrErrors.has('eps') && this.shadowRoot.activeElement !== eb) eb.value = String(this._eps);
  }

  // ---- drawing (a pure function of state and axes) -----------------------
  render() {
    const errors = [...this._attrErrors.values()];
    if (this._coreError) errors.push(this._coreError);
    this._error.textContent = errors.join(' ');
    this._wrap.classList.toggle('has-error', errors.length > 0);
    const s = this._state;
    if (!s || !s.current || !this._axes) return;
    const d = s.vector.length;
    if (!this._layout || this._layout.d !== d) this._buildLayout(d);
    const L = this._layout;
    for (const p of PANELS) {
      const axis = p === 'input' ? this._axes.input : this._axes.output;
      const panel = L.panels[p];
      const [lo, hi] = axis.domain;
      const y = (v) => MARGIN.top + ((hi - v) / (hi - lo)) * L.plotH;
      panel.zero.setAttribute('y1', y(0));
      panel.zero.setAttribute('y2', y(0));
      this._drawTicks(panel, axis, y, p === 'input' || p === 'l2' || this._columns === 2);
      for (let i = 0; i < d; i++) {
        for (const [kind, values] of [['reference', s.reference[p]], ['current', s.current[p]]]) {
          const rect = panel.bars[kind][i];
          const v = values[i];
          const top = Math.min(y(v), y(0));
          rect.setAttribute('y', top.toFixed(2));
          rect.setAttribute('height', Math.abs(y(v) - y(0)).toFixed(2));
          rect.dataset.value = String(v);
        }
      }
    }
    this._renderTable(s);
    this._desc.textContent = this._describe(s);
  }

  _buildLayout(d) {
    const cols = this._columns;
    const W = cols === 4 ? 760 : 400;
    const pw = W / cols;
    const rows = Math.ceil(PANELS.length / cols);
    this._svg.setAttribute('viewBox', `0 0 ${W} ${rows * PANEL_H}`);
    this._svg.replaceChildren();
    const plotW = pw - MARGIN.left - MARGIN.right;
    const plotH = PANEL_H - MARGIN.top - MARGIN.bottom;
    const panels = {};
    PANELS.forEach((p, k) => {
      const g = el('g', { class: `panel ${p}`, part: 'panel', transform: `translate(${(k % cols) * pw},${Math.floor(k / cols) * PANEL_H})` });
      g.dataset.panel = p;
      g.append(el('text', { class: 'title', x: MARGIN.left, y: 14 }, this.t(p)));
      g.append(el('text', { class: 'subtitle', x: MARGIN.left, y: 25 }, p === 'input' ? this.t('ownAxis') : this.t('sharedAxis')));
      const axis = el('g', { class: 'axis', part: 'axis' });
      const zero = el('line', { class: 'zero', x1: MARGIN.left, x2: MARGIN.left + plotW });
      const bars = { reference: [], current: [] };
      const gw = plotW / d;
      const bw = Math.min(gw * 0.36, 28);
      const barsG = el('g');
      for (let i = 0; i < d; i++) {
        const cx = MARGIN.left + gw * (i + 0.5);
        for (const [kind, x] of [['reference', cx - bw - 1], ['current', cx + 1]]) {
          const r = el('rect', { class: `bar ${kind} ${p} animated`, part: `bar-${kind}`, x: x.toFixed(2), width: bw.toFixed(2), rx: 2 });
          r.dataset.index = String(i);
          bars[kind].push(r);
          barsG.append(r);
        }
        if (d <= 12) g.append(el('text', { class: 'coord', x: cx, y: PANEL_H - 8, 'text-anchor': 'middle' }, this.t('coordinate', { i: i + 1 })));
      }
      g.append(axis, barsG, zero);
      this._svg.append(g);
      panels[p] = { g, axis, zero, bars, plotW };
    });
    this._layout = { d, panels, plotH, cols };
  }

  _drawTicks(panel, axis, y, labels) {
    const key = axis.ticks.join(',') + (labels ? 'L' : '') + this.lang;
    if (panel.tickKey === key) return;
    panel.tickKey = key;
    panel.axis.replaceChildren();
    for (const t of axis.ticks) {
      panel.axis.append(el('line', { x1: MARGIN.left - 4, x2: MARGIN.left + panel.plotW, y1: y(t), y2: y(t) }));
      if (labels) panel.axis.append(el('text', { x: MARGIN.left - 7, y: y(t) + 4, 'text-anchor': 'end' }, this.fmt(t, 3)));
    }
  }

  _renderTable(s) {
    const d = s.vector.length;
    const caption = el('caption', {}, this.t('tableCaption'));
    const head = el('tr', {}, undefined);
    head.append(el('th', { scope: 'col' }, this.t('panelColumn')));
    for (let i = 0; i < d; i++) head.append(el('th', { scope: 'col' }, this.t('coordinate', { i: i + 1 })));
    const body = el('tbody');
    for (const p of PANELS) {
      const tr = el('tr');
      tr.append(el('th', { scope: 'row' }, this.t(p)));
      for (let i = 0; i < d; i++) {
        const td = el('td', {}, this.fmt(s.current[p][i]) + ' ');
        td.append(el('span', { class: 'ref' }, `(${this.fmt(s.reference[p][i])})`));
        tr.append(td);
      }
      body.append(tr);
    }
    this._table.replaceChildren(caption, el('thead'), body);
    this._table.querySelector('thead').append(head);
  }

  _describe(s) {
    const same = [];
    const diff = [];
    for (const p of PANELS.slice(1)) {
      const moved = s.current[p].some((v, i) => Math.abs(v - s.reference[p][i]) > 1e-4);
      (moved ? diff : same).push(this.t(p));
    }
    const join = (names) => (names.length <= 2 ? names.join(this.t('and')) : names.slice(0, -1).join(this.t('listSep')) + this.t('and') + names.at(-1));
    const parts = [];
    if (same.length) parts.push(this.t('unchanged', { names: join(same) }));
    if (diff.length) parts.push(this.t('changed', { names: join(diff) }));
    const list = (a) => a.map((v) => this.fmt(v)).join(', ');
    return `${this.t('describeInput', { values: list(s.input), scale: this.fmt(s.scale), vector: list(s.vector), offset: this.fmt(s.offset) })} ${parts.join(this.t('sentenceSep'))}${this.t('end')}`;
  }
}
NlBarCompare.attributeProperties({
  vector: ['vector', (el) => el._vector],
  scale: ['scale', (el) => el._scale],
  offset: ['offset', (el) => el._offset],
  eps: ['eps', (el) => el._eps],
});
