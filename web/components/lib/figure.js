// NlFigure: the shared machinery of the parameter-driven figures.
//
// A figure declares its parameters (attribute, kind, default, range), the
// controls the reader gets, and four functions: compute(core) asks the core for
// every number, draw(state) updates the DOM, describe(state) returns the text
// description, and buildView(root) creates the drawing once. Parsing
// attributes, reflecting the reader's changes, errors shown in place, the
// `change` event and the language switch are handled here.
import { NlElement, el } from './base.js';
import { svg } from './plot.js';

const toCamel = (s) => s.replace(/-([a-z])/g, (_, c) => c.toUpperCase());

export class NlFigure extends NlElement {
  /** { key: { attr, kind: 'number' | 'vector' | 'choice', default, min, max, step, length, choices } } */
  static params = {};

  static get observedAttributes() {
    return [...Object.values(this.params).map((p) => p.attr), 'lang', 'theme'];
  }

  /** Define a property per parameter on the class (no DOM is touched). */
  static defineProperties() {
    return this.attributeProperties(
      Object.fromEntries(Object.entries(this.params).map(([key, p]) => [key, [p.attr, (el) => el._values[key]]])),
    );
  }

  constructor() {
    super();
    const params = this.constructor.params;
    this._values = Object.fromEntries(Object.entries(params).map(([k, p]) => [k, p.default]));
    this._attrErrors = new Map();
    this._inputErrors = new Set(); // keys of _attrErrors a reader typed into a control (shown beside it)
    this._coreError = '';
    this._state = null;
    this._controls = {};
  }

  // ---- parameters -------------------------------------------------------------
  _paramByAttr(attr) {
    return Object.entries(this.constructor.params).find(([, p]) => p.attr === attr);
  }

  /** Parse text into a parameter value, or return an error message. */
  parseValue(key, text) {
    const p = this.constructor.params[key];
    if (p.kind === 'choice') {
      return p.choices.includes(text)
        ? { value: text }
        : { error: this.t('badChoice', { name: p.attr, value: text, choices: p.choices.join(', ') }) };
    }
    if (p.kind === 'vector') {
      // A figure shows a handful of numbers: refuse long lists before parsing them.
      const max = p.maxLength ?? p.length ?? 16;
      if (text.length > max * 32 || text.split(',', max + 1).length > max) {
        return { error: this.t('tooLong', { name: p.attr, max }) };
      }
      const parts = text.split(',').map((s) => s.trim());
      const nums = parts.map((s) => (s === '' ? NaN : Number(s)));
      const okLength = p.length ? nums.length === p.length : nums.length >= (p.minLength ?? 1);
      if (!okLength || nums.some((n) => !Number.isFinite(n))) {
        return {
          error: this.t('badVector', { name: p.attr, value: text, length: p.length ?? `${p.minLength ?? 1}+` }),
        };
      }
      return { value: nums };
    }
    const n = text.trim() === '' ? NaN : Number(text);
    if (
      !Number.isFinite(n) ||
      (p.integer && !Number.isInteger(n)) ||
      (p.min !== undefined && n < p.min) ||
      (p.max !== undefined && n > p.max)
    ) {
      return { error: this.t('badNumber', { name: p.attr, value: text, min: p.min ?? '−∞', max: p.max ?? '∞' }) };
    }
    return { value: n };
  }

  attributeChanged(name, value) {
    const entry = this._paramByAttr(name);
    if (entry) {
      this._parseAttribute(entry[0], value);
      // The page set it (a reader's change is reflected without coming here): Reset returns to it.
      if (!this._attrErrors.has(entry[0])) this._pageValues[entry[0]] = structuredClone(this._values[entry[0]]);
    }
    this.refresh();
  }

  /** The values the page last set (its attributes and properties), which Reset returns to. */
  get pageValues() {
    return structuredClone(this._pageValues);
  }

  _parseAttribute(key, value) {
    const p = this.constructor.params[key];
    this._attrErrors.delete(key);
    this._inputErrors.delete(key);
    if (value === null) {
      this._values[key] = p.default;
      return;
    }
    const r = this.parseValue(key, value);
    if (r.error) this._setBad(key, value, r.error);
    else this._values[key] = r.value;
  }

  /** Remember a refused value with its message (written again when the language changes). */
  _setBad(key, text, message) {
    this._attrErrors.set(key, message);
    (this._badText ??= new Map()).set(key, text);
  }

  /** The reader changed a parameter: validate, reflect, recompute, fire `change`. */
  /** Set several parameters at once, each reflected to its attribute (presets, Reset); one update follows. */
  setValues(values) {
    for (const [key, v] of Object.entries(values)) {
      const p = this.constructor.params[key];
      this._values[key] = Array.isArray(v) ? [...v] : v;
      this._attrErrors.delete(key);
      this._inputErrors.delete(key);
      this.reflect(p.attr, Array.isArray(v) ? v.join(',') : String(v));
    }
  }

  setByUser(key, value) {
    const p = this.constructor.params[key];
    const text = Array.isArray(value) ? value.join(',') : String(value);
    const r = this.parseValue(key, text);
    if (r.error) {
      // A number typed into a control: a reader's message beside it, naming the range in the reader's words
      // (the attribute's message is for page authors). The figure keeps the last good drawing meanwhile.
      const note = this._controls[key]?.note;
      this._setBad(key, text, note ? this.inputMessage(key) : r.error);
      if (note) this._inputErrors.add(key);
      this.updateNow();
      return;
    }
    this._attrErrors.delete(key);
    this._inputErrors.delete(key);
    this._values[key] = r.value;
    this.reflect(p.attr, text);
    this.updateNow();
    this.emitChange();
  }

  // ---- DOM ----------------------------------------------------------------------
  build(root) {
    for (const [key, p] of Object.entries(this.constructor.params)) {
      if (this.hasAttribute(p.attr)) this._parseAttribute(key, this.getAttribute(p.attr));
    }
    this._pageValues = structuredClone(this._values);
    this._wrap = el('div', { part: 'figure', role: 'group', class: 'wrap', 'aria-describedby': 'desc' });
    this._status = el('p', { class: 'status muted', role: 'status' });
    this._controlsBox = el('div', { class: 'controls', part: 'controls' });
    this._view = el('div', { class: 'view', part: 'view' });
    this._error = el('p', { class: 'error', part: 'error', role: 'alert' });
    this._desc = el('p', { class: 'description', part: 'description', id: 'desc', 'aria-live': 'polite' });
    this._wrap.append(this._status, this._controlsBox, this._view, this._error, this._desc);
    root.append(this._wrap);
    this.buildControls(this._controlsBox);
    this.buildView(this._view);
    // Charts are drawn at the width they get (fit), so a label of 12 px is 12 px
    // on a phone too: redraw when that width changes.
    if (typeof ResizeObserver !== 'undefined') {
      let last = 0;
      this._resize = new ResizeObserver(([entry]) => {
        const w = Math.round(entry.contentRect.width);
        if (w !== last && (last = w)) {
          this._widths?.clear(); // measure each chart again at the new width
          if (this._state) this.requestUpdate(false);
        }
      });
      this._resize.observe(this._view);
    }
    // The controls show the attributes' values (and hide what they do not apply to) before the
    // first drawing, so the figure does not change its layout when it draws. A page that defines a
    // figure after its attributes are set (the article loads each figure's code as it nears the
    // view) gets no attribute change to do this later.
    this._syncControls();
  }

  connectedCallback() {
    this._widths?.clear(); // a move may change every chart's width
    super.connectedCallback();
    this._resize?.observe(this._view); // again after a move (observing twice is a no-op)
    this._seen?.observe(this);
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this._resize?.disconnect();
    this._seen?.disconnect();
  }

  /** Figures that train: pause() whenever the figure leaves the screen, so that it never trains unseen. */
  pauseWhenHidden() {
    if (typeof IntersectionObserver === 'undefined') return;
    this._seen = new IntersectionObserver(([e]) => {
      if (!e.isIntersecting) this.pause();
    });
    this._seen.observe(this);
  }

  /**
   * Size an <svg> to the CSS pixels it is given: its viewBox becomes
   * [0, 0, W, height] with W its rendered width (`ideal` before layout), so
   * one user unit is one CSS pixel and text keeps its size on any screen.
   * Returns W; lay the chart out in it.
   */
  fit(svgEl, ideal, height) {
    const W = Math.max(160, this.widthOf(svgEl) || ideal);
    svgEl.setAttribute('viewBox', `0 0 ${W} ${height}`);
    (this._fitted ??= new Set()).add(svgEl);
    return W;
  }

  /**
   * The CSS width `el` is laid out at, measured once and kept until the view's
   * width changes (the ResizeObserver above). Reading layout on every drawing
   * would force a layout of the whole page for every input: measured, about
   * half of a figure's update time on the article page. 0 before layout.
   */
  widthOf(el) {
    this._widths ??= new Map();
    let w = this._widths.get(el);
    if (w === undefined) {
      w = Math.round(el.getBoundingClientRect?.().width || 0);
      if (w > 0) this._widths.set(el, w); // not laid out yet: ask again next time
    }
    return w;
  }

  /** Subclasses: the controls (defaults to a slider per number parameter marked `control`). */
  buildControls(box) {
    for (const [key, p] of Object.entries(this.constructor.params)) {
      if (p.control === 'slider') box.append(this.slider(key));
      if (p.control === 'select') box.append(this.select(key));
    }
  }

  /** A labelled range input with a numeric box beside it. */
  slider(key) {
    const p = this.constructor.params[key];
    const label = el('label', { class: 'control' });
    const text = el('span');
    const range = el('input', { type: 'range', min: p.min, max: p.max, step: p.step ?? 'any', part: 'slider' });
    const box = el('input', { type: 'number', min: p.min, max: p.max, step: p.step ?? 'any', part: 'number' });
    range.addEventListener('input', () => this.setByUser(key, range.value));
    box.addEventListener('change', () => this.setByUser(key, box.value));
    label.append(text, range, box);
    this._controls[key] = { text, range, box, note: this.invalidNote(key, box) };
    return label;
  }

  /**
   * The place beside a typed input where a value it refuses is explained (`inputMessage`): the input is
   * marked aria-invalid and points at the note while it shows. Returns the note, placed after `input`.
   */
  invalidNote(key, input) {
    const id = `invalid-${key}`;
    const note = el('span', { class: 'invalid-note', part: 'invalid', id, role: 'alert', hidden: '' });
    input.setAttribute('aria-errormessage', id);
    input.after(note);
    return note;
  }

  /** A reader's message for a refused typed number: the control's name and the range it takes. */
  inputMessage(key) {
    const p = this.constructor.params[key];
    const range = {
      label: this.t(toCamel(p.attr)),
      min: p.min === undefined ? '−∞' : this.fmt(p.min, 6),
      max: p.max === undefined ? '∞' : this.fmt(p.max, 6),
    };
    return this.t(p.integer ? 'inputWhole' : 'inputRange', range);
  }

  /** A labelled select over a choice parameter. */
  select(key) {
    const p = this.constructor.params[key];
    const label = el('label', { class: 'control' });
    const text = el('span');
    const sel = el('select', { part: 'select' });
    for (const c of p.choices) sel.append(el('option', { value: c }));
    sel.addEventListener('change', () => this.setByUser(key, sel.value));
    label.append(text, sel);
    this._controls[key] = { text, select: sel };
    return label;
  }

  /** A button that runs `fn` (a user action) and fires `change` after it. */
  button(labelKey, fn) {
    const b = el('button', { type: 'button', part: 'button' });
    b.dataset.label = labelKey;
    b.addEventListener('click', () => {
      if (!this._core) return;
      fn();
      this.updateNow();
      this.emitChange();
    });
    (this._buttons ??= []).push(b);
    return b;
  }

  /** A button that draws new random data: the next `seed`, as a reader's change (figures with a seed parameter). */
  newDrawButton(labelKey = 'newDraw') {
    return this.button(labelKey, () => {
      this._values.seed += 1;
      this.reflect('seed', this._values.seed);
    });
  }

  applyLanguage() {
    // Messages about bad attributes are written again in the new language.
    for (const key of [...this._attrErrors.keys()]) {
      if (!this.constructor.params[key] || !this._badText?.has(key)) continue; // a figure's own keys are its own to redo
      const r = this.parseValue(key, this._badText.get(key));
      if (r.error) this._attrErrors.set(key, this._inputErrors.has(key) ? this.inputMessage(key) : r.error);
    }
    super.applyLanguage();
    if (!this._wrap) return;
    this._wrap.setAttribute('aria-label', this.t('name'));
    for (const [key, c] of Object.entries(this._controls)) {
      c.text.textContent = this.t(toCamel(this.constructor.params[key].attr));
      for (const input of [c.range, c.box, c.select])
        input?.setAttribute('aria-label', this.t(toCamel(this.constructor.params[key].attr)));
      if (c.select) for (const o of c.select.options) o.textContent = this.t(`choice_${o.value}`);
    }
    for (const b of this._buttons ?? []) b.textContent = this.t(b.dataset.label);
    this.languageChanged?.();
    if (this._state) this.requestUpdate(false);
  }

  _syncControls() {
    for (const [key, c] of Object.entries(this._controls)) {
      if (this._attrErrors.has(key)) continue;
      const v = this._values[key];
      if (v == null) continue; // no value of its own yet: the figure's override shows what it starts from
      // (written only when they differ: setting a control's value, even to the same, costs a style pass)
      const text = String(v);
      if (c.range && c.range.value !== text) c.range.value = text;
      if (c.box && c.box.value !== text && this.shadowRoot.activeElement !== c.box) c.box.value = text;
      if (c.select && c.select.value !== text) c.select.value = text;
    }
  }

  // ---- computation and drawing ------------------------------------------------------
  performUpdate() {
    if (!this._built) return;
    this._syncControls();
    if (!this._core) return;
    this._coreError = '';
    // A refused typed value leaves the last good one in _values: the figure still computes (other controls work).
    if ([...this._attrErrors.keys()].every((k) => this._inputErrors.has(k))) {
      try {
        this._state = Object.freeze({
          ...structuredClone(this._values),
          ...this.compute(this._core, this._values),
          error: null,
        });
      } catch (e) {
        this._coreError = this.coreMessage(e);
      }
    }
    const errors = [...this._attrErrors.values(), ...(this._coreError ? [this._coreError] : [])];
    if (errors.length && this._state) this._state = Object.freeze({ ...this._state, error: errors.join(' ') });
    this.render();
  }

  render() {
    // A value a reader typed and the figure refused is explained beside its control, which is marked invalid;
    // the charts stay as they were (the last good value's) and undimmed. Every other error is the figure's line.
    const errors = [
      ...[...this._attrErrors].filter(([k]) => !this._inputErrors.has(k)).map(([, m]) => m),
      ...(this._coreError ? [this._coreError] : []),
    ];
    for (const [key, c] of Object.entries(this._controls)) {
      if (!c.note) continue;
      const bad = this._inputErrors.has(key) && this._attrErrors.has(key);
      c.note.textContent = bad ? this._attrErrors.get(key) : '';
      c.note.hidden = !bad;
      // the box holds the refused text; the slider still shows the value in use
      if (bad) c.box?.setAttribute('aria-invalid', 'true');
      else c.box?.removeAttribute('aria-invalid');
    }
    this._error.textContent = errors.join(' ');
    this._wrap.classList.toggle('has-error', errors.length > 0);
    if (!this._state) return;
    this.draw(this._state);
    // what this drawing kept (reuse) is what the next one may keep
    this._kept = this._keeping ?? null;
    this._keeping = null;
    // A fitted svg is as tall as its final viewBox says (set after draw: a figure may
    // change the height once it knows its layout), never following a width measured
    // a moment too early.
    for (const svgEl of this._fitted ?? []) {
      const h = svgEl.viewBox?.baseVal?.height;
      if (h > 0) svgEl.style.height = `${h}px`;
    }
    // The view and description are shown from the first drawing on (figureCss).
    this._wrap.classList.add('drawn');
    this._drawnLang = this.lang;
    this._desc.textContent = errors.length ? '' : this.describe(this._state);
  }

  renderState() {
    return {
      ...super.renderState(),
      error: this._error?.textContent ?? '',
      description: this._desc?.textContent ?? '',
    };
  }

  // ---- helpers for subclasses ----------------------------------------------------------
  /**
   * The mean of each of `blocks` consecutive blocks of `per` values: z_score_fit's column
   * means of the values laid out as [per, blocks] (the transpose moves numbers, no arithmetic).
   */
  blockMeans(values, blocks, per) {
    const t = new Float32Array(blocks * per);
    for (let b = 0; b < blocks; b++) for (let i = 0; i < per; i++) t[i * blocks + b] = values[b * per + i];
    return Array.from(this._core.run('z_score_fit', { x: { shape: [per, blocks], data: t } }).mean.data);
  }

  /** Run an op and return one output's data as a plain array. */
  op(name, inputs, attrs, output) {
    const out = this._core.run(name, inputs, attrs);
    return Array.from(out[output ?? Object.keys(out)[0]].data);
  }

  /** A nice axis covering `values`: {domain, ticks}, from the core's axis_ticks. */
  axis(values, attrs = {}) {
    const out = this._core.run('axis_ticks', { x: { shape: [values.length], data: values } }, { count: 4, ...attrs });
    return { domain: Array.from(out.domain.data), ticks: Array.from(out.ticks.data) };
  }

  /** Side-by-side SVG panels of one size in `view`, and a line of numbers below when asked. */
  panels(view, count, width, height, numbers = true) {
    const box = el('div', { class: 'panels' });
    this._svgs = Array.from({ length: count }, () => svg(width, height));
    box.append(...this._svgs);
    view.append(box);
    if (numbers) view.append((this._numbers = el('p', { class: 'numbers' })));
    return this._svgs;
  }

  /**
   * A part of the drawing (a node, or what a builder returns) kept from the last drawing when `key`, a string
   * naming everything it depends on, is the same; built by `build` otherwise. A slider that moves one line leaves
   * the axes and the other rows as they were instead of building them again. A key names one part of one drawing;
   * what a drawing does not ask for is dropped after it.
   */
  reuse(key, build) {
    const part = this._kept?.get(key) ?? build();
    (this._keeping ??= new Map()).set(key, part);
    return part;
  }

  /** The same axis as state fields named `domainKey` and `ticksKey`. */
  axisFields(domainKey, ticksKey, values, attrs) {
    const a = this.axis(values, attrs);
    return { [domainKey]: a.domain, [ticksKey]: a.ticks };
  }

  /** A 1-D tensor. */
  static vec(data) {
    return { shape: [data.length], data };
  }

  /** Format a list of numbers in the figure's locale: "(0.731, 0.269)". */
  fmtList(values, digits = 4) {
    return `(${values.map((v) => this.fmt(v, digits)).join(', ')})`;
  }
}

/** Shared styles of the parameter-driven figures. */
export const figureCss = `
/* Until its first drawing a figure shows its controls (the keyboard can reach them: focusing one scrolls the
   figure into view and starts it) but not its view or description, whose coming would move things visibly. */
.wrap:not(.drawn) > .view, .wrap:not(.drawn) > .description { visibility: hidden; }
.controls { display: flex; flex-wrap: wrap; gap: 8px 18px; align-items: center; margin-bottom: 8px; }
.control { display: flex; align-items: center; gap: 6px; }
.control input[type=range] { width: 150px; }
.control input[type=number] { width: 84px; padding: 2px 6px; }
.control input[aria-invalid=true] { border-color: var(--nl-error); outline: 1px solid var(--nl-error); }
.control:has(> .invalid-note:not([hidden])) { flex-wrap: wrap; }
.invalid-note { color: var(--nl-error); font-size: var(--nl-label-size); font-weight: 600; flex-basis: 100%; }
select { padding: 2px 6px; }
.panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(220px, 1fr)); gap: 10px; }
.panel-title { font-size: var(--nl-title-size); font-weight: 600; }
.axis line, .grid-line { stroke: var(--nl-grid); }
.axis text, .tick { font-size: var(--nl-small-size); fill: var(--nl-muted); }
.zero { stroke: var(--nl-muted); }
.curve { fill: none; stroke: var(--nl-input); stroke-width: 2; }
.curve.ref { stroke: var(--nl-reference); stroke-dasharray: 4 3; }
.marker { fill: var(--nl-chosen); stroke: var(--nl-bg); stroke-width: 1.5; }
.dots { fill: none; stroke: var(--nl-input); stroke-linecap: round; stroke-width: 4.4; stroke-opacity: 0.5; }
.bar-ref { fill: var(--nl-reference); }
.arrow { stroke-width: 2.5; fill: none; }
.arrow.ref { stroke: var(--nl-reference); stroke-dasharray: 5 4; }
.label { font-size: var(--nl-label-size); }
.numbers { font-variant-numeric: tabular-nums; font-size: 0.9em; margin: 6px 0 0; }
.has-error .view { opacity: 0.35; }
table { border-collapse: collapse; font-size: 0.85em; font-variant-numeric: tabular-nums; }
th, td { padding: 2px 10px 2px 0; text-align: right; }
th:first-child { text-align: left; }
`;
