// <nl-axis-cube> — the elements of a [B, T, D] tensor that share statistics
// with one chosen element, for BatchNorm, LayerNorm, RMSNorm, InstanceNorm and
// GroupNorm, drawn as a rotatable 3-D grid of points.
//
// Attributes: shape ("3,4,5" = B,T,D; each 1..12), method (batch_norm |
//   layer_norm | rms_norm | instance_norm | group_norm), num-groups (1),
//   index ("0,1,2" = b,t,d), reading (sequence | image), lang (en | zh).
// Properties: the same (shape and index as number[]); state (read-only):
//   {shape, method, numGroups, index, members, reading, yaw, pitch, error}.
// Events: change — after the reader picks, rotates or edits something.
// Keyboard: arrow keys rotate the focused view; every control is a native
//   input. Pointer: drag to rotate (mouse or touch), click or tap a point.
// CSS custom properties: --nl-member (orange), --nl-other (gray), --nl-selected,
//   --nl-axis, plus the shared --nl-* theme. Parts: figure, controls, view,
//   point, description, error.
// The group is the core's reduction_group for the element; the 3-D view is
// presentation only (a rotation and an orthographic projection).
import { NlElement, el } from './base.js';

const METHODS = ['batch_norm', 'layer_norm', 'rms_norm', 'instance_norm', 'group_norm'];
const DEFAULTS = { shape: [3, 4, 5], method: 'layer_norm', numGroups: 1, index: [0, 1, 2], reading: 'sequence' };
const VIEW = { yaw: -38, pitch: 24 };
const MAX_SIDE = 12;
const W = 460, H = 340;

export class NlAxisCube extends NlElement {
  static catalog = 'axisCube';
  static observedAttributes = ['shape', 'method', 'num-groups', 'index', 'reading', 'lang'];
  static css = `
:host { --nl-member: #e8590c; --nl-other: #c3c8d2; --nl-selected: #1d2330; --nl-axis: #5b6475; }
@media (prefers-color-scheme: dark) {
  :host { --nl-member: #ff922b; --nl-other: #4a5366; --nl-selected: #ffffff; --nl-axis: #a3abba; }
}
.controls { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; margin-bottom: 6px; }
.control { display: flex; align-items: center; gap: 6px; }
.control input[type=number] { width: 64px; padding: 2px 6px; }
.index input { width: 52px; }
select { padding: 2px 6px; }
.view { touch-action: none; cursor: grab; border-radius: 6px; user-select: none; }
.view svg { max-width: 560px; margin: 0 auto; }
.view:active { cursor: grabbing; }
.point { stroke: var(--nl-bg); stroke-width: 1; cursor: pointer; }
.point.other { fill: var(--nl-other); }
.point.member { fill: var(--nl-member); }
.point.selected { stroke: var(--nl-selected); stroke-width: 3; }
.has-error .point.member { fill: var(--nl-other); }
.axis-line { stroke: var(--nl-axis); stroke-width: 1.5; }
.axis-label { font-size: 13px; fill: var(--nl-axis); font-weight: 600; }
.summary { margin: 6px 0 0; font-weight: 600; }
.hint { font-size: 0.8em; color: var(--nl-muted); margin: 2px 0 0; }
`;

  constructor() {
    super();
    this._shape = DEFAULTS.shape;
    this._method = DEFAULTS.method;
    this._numGroups = DEFAULTS.numGroups;
    this._index = DEFAULTS.index;
    this._reading = DEFAULTS.reading;
    this._yaw = VIEW.yaw;
    this._pitch = VIEW.pitch;
    this._attrErrors = new Map();
    this._state = null;
    this._members = [];
    this._anim = 0;
  }

  // ---- attributes ----------------------------------------------------------
  _parseAttribute(name, value) {
    this._attrErrors.delete(name);
    const ints = (s) => s.split(',').map((p) => (p.trim() === '' ? NaN : Number(p)));
    if (name === 'shape') {
      if (value === null) return void (this._shape = DEFAULTS.shape);
      const v = ints(value);
      if (v.length !== 3 || v.some((n) => !Number.isInteger(n) || n < 1 || n > MAX_SIDE)) {
        return void this._attrErrors.set(name, this.t('badShape', { value, max: MAX_SIDE }));
      }
      this._shape = v;
    } else if (name === 'index') {
      if (value === null) return void (this._index = DEFAULTS.index);
      const v = ints(value);
      if (v.length !== 3 || v.some((n) => !Number.isInteger(n) || n < 0)) {
        return void this._attrErrors.set(name, this.t('badIndex', { value }));
      }
      this._index = v;
    } else if (name === 'method') {
      if (value === null) return void (this._method = DEFAULTS.method);
      if (!METHODS.includes(value)) return void this._attrErrors.set(name, this.t('badMethod', { value }));
      this._method = value;
    } else if (name === 'num-groups') {
      if (value === null) return void (this._numGroups = DEFAULTS.numGroups);
      const n = value.trim() === '' ? NaN : Number(value);
      if (!Number.isInteger(n)) return void this._attrErrors.set(name, this.t('badGroups', { value }));
      this._numGroups = n; // whether it divides D is the core's call
    } else if (name === 'reading') {
      this._reading = value === 'image' ? 'image' : 'sequence';
    }
  }

  // ---- DOM -----------------------------------------------------------------
  build(root) {
    for (const name of NlAxisCube.observedAttributes) {
      if (name !== 'lang' && this.hasAttribute(name)) this._parseAttribute(name, this.getAttribute(name));
    }
    const wrap = el('div', { part: 'figure', role: 'group', class: 'wrap', 'aria-describedby': 'desc' });
    this._wrap = wrap;
    this._status = el('p', { class: 'status muted', role: 'status' });
    const controls = el('div', { class: 'controls', part: 'controls' });
    const labelled = (input, cls = 'control') => {
      const label = el('label', { class: cls });
      const text = el('span');
      label.append(text, input);
      return { label, text, input };
    };
    this._methodSel = labelled(el('select', { part: 'select' }));
    for (const m of METHODS) this._methodSel.input.append(el('option', { value: m }));
    this._methodSel.input.addEventListener('change', () => this._user(() => (this._method = this._methodSel.input.value)));
    this._groups = labelled(el('input', { type: 'number', min: 1, step: 1, part: 'number' }));
    this._groups.input.addEventListener('change', () => {
      const n = Number(this._groups.input.value);
      this._user(() => (this._numGroups = Number.isInteger(n) ? n : NaN));
    });
    this._readingSel = labelled(el('select', { part: 'select' }));
    for (const r of ['sequence', 'image']) this._readingSel.input.append(el('option', { value: r }));
    this._readingSel.input.addEventListener('change', () => this._user(() => (this._reading = this._readingSel.input.value)));
    const indexBox = el('span', { class: 'control index' });
    this._indexLabel = el('span');
    indexBox.append(this._indexLabel);
    this._indexInputs = [0, 1, 2].map((axis) => {
      const input = el('input', { type: 'number', min: 0, step: 1, part: 'number' });
      input.addEventListener('change', () => {
        const n = Number(input.value);
        if (!Number.isInteger(n)) return;
        this._user(() => {
          const idx = [...this._index];
          idx[axis] = Math.max(0, Math.min(this._shape[axis] - 1, n));
          this._index = idx;
        });
      });
      indexBox.append(input);
      return input;
    });
    this._resetBtn = el('button', { type: 'button', part: 'button' });
    this._resetBtn.addEventListener('click', () => this._resetView());
    controls.append(this._methodSel.label, this._groups.label, indexBox, this._readingSel.label, this._resetBtn);

    this._view = el('div', { class: 'view', part: 'view', tabindex: '0', role: 'group' });
    this._svg = el('svg', { viewBox: `0 0 ${W} ${H}`, 'aria-hidden': 'true' });
    this._axesG = el('g');
    this._pointsG = el('g');
    this._svg.append(this._axesG, this._pointsG);
    this._view.append(this._svg);
    this._hint = el('p', { class: 'hint' });
    this._summary = el('p', { class: 'summary', part: 'description', id: 'desc', 'aria-live': 'polite' });
    this._meaning = el('p', { class: 'description' });
    this._error = el('p', { class: 'error', part: 'error', role: 'alert' });
    wrap.append(this._status, controls, this._view, this._hint, this._error, this._summary, this._meaning);
    root.append(wrap);
    this._wireView();
  }

  _wireView() {
    const v = this._view;
    v.addEventListener('keydown', (e) => {
      const step = e.shiftKey ? 2 : 10;
      const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
      if (!moves[e.key]) return;
      e.preventDefault();
      this._rotate(...moves[e.key]);
      this.emitChange();
    });
    let drag = null;
    v.addEventListener('pointerdown', (e) => {
      drag = { x: e.clientX, y: e.clientY, moved: 0, target: e.target, id: e.pointerId };
      v.setPointerCapture?.(e.pointerId);
    });
    v.addEventListener('pointermove', (e) => {
      if (!drag || e.pointerId !== drag.id) return;
      const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      drag.moved += Math.abs(dx) + Math.abs(dy);
      drag.x = e.clientX;
      drag.y = e.clientY;
      if (drag.moved > 4) this._rotate(dx * 0.6, -dy * 0.6);
    });
    const end = (e) => {
      if (!drag || e.pointerId !== drag.id) return;
      const d = drag;
      drag = null;
      v.releasePointerCapture?.(e.pointerId);
      if (d.moved <= 4 && d.target?.classList?.contains('point')) {
        const { b, t, d: dd } = d.target.dataset;
        this._user(() => (this._index = [Number(b), Number(t), Number(dd)]));
      } else if (d.moved > 4) this.emitChange();
    };
    v.addEventListener('pointerup', end);
    v.addEventListener('pointercancel', end);
  }

  _user(fn) {
    fn();
    for (const k of ['method', 'num-groups', 'index', 'reading']) this._attrErrors.delete(k);
    this.reflect('method', this._method);
    if (Number.isFinite(this._numGroups)) this.reflect('num-groups', this._numGroups);
    this.reflect('index', this._index.join(','));
    this.reflect('reading', this._reading);
    this.refresh();
    this.emitChange();
  }

  _rotate(dYaw, dPitch) {
    cancelAnimationFrame?.(this._anim);
    this._yaw = ((this._yaw + dYaw + 540) % 360) - 180;
    this._pitch = Math.max(-89, Math.min(89, this._pitch + dPitch));
    this._updateState();
    this._draw();
  }

  _resetView() {
    const from = { yaw: this._yaw, pitch: this._pitch };
    const reduce = typeof matchMedia !== 'undefined' && matchMedia('(prefers-reduced-motion: reduce)').matches;
    const done = () => {
      this._yaw = VIEW.yaw;
      this._pitch = VIEW.pitch;
      this._updateState();
      this._draw();
      this.emitChange();
    };
    if (reduce || typeof requestAnimationFrame === 'undefined') return done();
    const t0 = performance.now();
    const stepFrame = (now) => {
      const k = Math.min(1, (now - t0) / 300);
      const ease = 1 - (1 - k) ** 3;
      this._yaw = from.yaw + (VIEW.yaw - from.yaw) * ease;
      this._pitch = from.pitch + (VIEW.pitch - from.pitch) * ease;
      this._draw();
      if (k < 1) this._anim = requestAnimationFrame(stepFrame);
      else done();
    };
    cancelAnimationFrame(this._anim);
    this._anim = requestAnimationFrame(stepFrame);
  }

  applyLanguage() {
    super.applyLanguage();
    if (!this._wrap) return;
    this._wrap.setAttribute('aria-label', this.t('name'));
    this._methodSel.text.textContent = this.t('method');
    for (const o of this._methodSel.input.options) o.textContent = this.t(o.value);
    this._groups.text.textContent = this.t('numGroups');
    this._readingSel.text.textContent = this.t('reading');
    for (const o of this._readingSel.input.options) o.textContent = this.t(`reading_${o.value}`);
    this._indexLabel.textContent = this.t('element');
    this._indexInputs.forEach((input, a) => input.setAttribute('aria-label', this.t('indexAxis', { axis: this._axisNames()[a] })));
    this._resetBtn.textContent = this.t('resetView');
    this._view.setAttribute('aria-label', this.t('viewLabel'));
    this._hint.textContent = this.t('hint');
    this._axesKey = null;
  }

  _axisNames() {
    return this._reading === 'image' ? ['B', 'HW', 'C'] : ['B', 'T', 'D'];
  }

  // ---- computation: the group comes from the core ------------------------------
  refresh() {
    if (!this._built) return;
    this._syncControls();
    if (!this._core) return;
    this._coreError = '';
    const blocking = ['shape', 'index', 'method', 'num-groups'].some((k) => this._attrErrors.has(k));
    if (!blocking) {
      this._index = this._index.map((v, a) => Math.min(v, this._shape[a] - 1));
      try {
        const attrs = { method: this._method, shape: this._shape, index: this._index };
        if (this._method === 'group_norm') attrs.num_groups = this._numGroups;
        const { members } = this._core.run('reduction_group', {}, attrs);
        const flat = members.data;
        this._members = [];
        for (let i = 0; i < flat.length; i += 3) this._members.push([flat[i], flat[i + 1], flat[i + 2]]);
      } catch (e) {
        this._coreError = e.message;
        this._members = [];
      }
    }
    this._updateState();
    this.render();
  }

  _updateState() {
    const errors = [...this._attrErrors.values()];
    if (this._coreError) errors.push(this._coreError);
    this._state = Object.freeze({
      shape: [...this._shape],
      method: this._method,
      numGroups: this._numGroups,
      index: [...this._index],
      members: this._members.map((m) => [...m]),
      reading: this._reading,
      yaw: Math.round(this._yaw * 100) / 100,
      pitch: Math.round(this._pitch * 100) / 100,
      error: errors.length ? errors.join(' ') : null,
    });
  }

  _syncControls() {
    this._methodSel.input.value = this._method;
    this._groups.input.value = Number.isFinite(this._numGroups) ? String(this._numGroups) : '';
    this._groups.input.max = String(this._shape[2]);
    this._groups.label.hidden = this._method !== 'group_norm';
    this._readingSel.input.value = this._reading;
    this._indexInputs.forEach((input, a) => {
      input.max = String(this._shape[a] - 1);
      input.value = String(Math.min(this._index[a], this._shape[a] - 1));
    });
  }

  // ---- drawing -----------------------------------------------------------------
  render() {
    const s = this._state;
    this._error.textContent = s.error ?? '';
    this._wrap.classList.toggle('has-error', !!s.error);
    this._draw();
    this._summary.textContent = s.error ? '' : this._describe(s);
    this._meaning.textContent = s.error ? '' : this.t(`meaning_${this._reading}_${this._method}`, { g: this._numGroups });
  }

  // Orthographic view of the grid: yaw about the vertical axis, then pitch.
  _project() {
    const [B, T, D] = this._shape;
    const yaw = (this._yaw * Math.PI) / 180, pitch = (this._pitch * Math.PI) / 180;
    const cy = Math.cos(yaw), sy = Math.sin(yaw), cp = Math.cos(pitch), sp = Math.sin(pitch);
    const span = Math.max(B, T, D);
    const unit = Math.min(W, H) / (span * 1.9);
    return (b, t, d) => {
      const X = d - (D - 1) / 2, Y = (T - 1) / 2 - t, Z = b - (B - 1) / 2;
      const x1 = cy * X + sy * Z, z1 = -sy * X + cy * Z;
      const y2 = cp * Y - sp * z1, z2 = sp * Y + cp * z1;
      return { x: W / 2 + x1 * unit, y: H / 2 - y2 * unit, depth: z2, unit };
    };
  }

  _draw() {
    if (!this._svg) return;
    const [B, T, D] = this._shape;
    const p = this._project();
    const key = this._shape.join('x');
    if (this._pointsKey !== key) {
      this._pointsKey = key;
      this._points = [];
      this._pointsG.replaceChildren();
      for (let b = 0; b < B; b++)
        for (let t = 0; t < T; t++)
          for (let d = 0; d < D; d++) {
            const c = el('circle', { class: 'point other', part: 'point' });
            Object.assign(c.dataset, { b: String(b), t: String(t), d: String(d) });
            this._points.push({ c, b, t, d });
          }
    }
    const members = new Set(this._members.map((m) => m.join(',')));
    const sel = this._index.join(',');
    const placed = this._points.map((pt) => ({ pt, pos: p(pt.b, pt.t, pt.d) }));
    placed.sort((a, b) => a.pos.depth - b.pos.depth);
    const r = Math.max(3.5, Math.min(9, placed[0]?.pos.unit * 0.22 || 6));
    for (const { pt, pos } of placed) {
      const id = `${pt.b},${pt.t},${pt.d}`;
      const inGroup = members.has(id);
      pt.c.setAttribute('cx', pos.x.toFixed(1));
      pt.c.setAttribute('cy', pos.y.toFixed(1));
      pt.c.setAttribute('r', (id === sel ? r * 1.25 : r).toFixed(1));
      pt.c.setAttribute('class', `point ${inGroup ? 'member' : 'other'}${id === sel ? ' selected' : ''}`);
      this._pointsG.append(pt.c); // painter's order: far to near
    }
    this._drawAxes(p);
  }

  _drawAxes(p) {
    const [B, T, D] = this._shape;
    const names = this._axisNames();
    this._axesG.replaceChildren();
    const origin = p(-0.8, T - 1 + 0.8, -0.8);
    const ends = [p(B - 1 + 1.2, T - 1 + 0.8, -0.8), p(-0.8, -1.2, -0.8), p(-0.8, T - 1 + 0.8, D - 1 + 1.2)];
    ends.forEach((end, a) => {
      this._axesG.append(el('line', { class: 'axis-line', x1: origin.x, y1: origin.y, x2: end.x, y2: end.y }));
      this._axesG.append(el('text', { class: 'axis-label', x: end.x + 4, y: end.y + 4 }, `${names[a]} (${this._shape[a]})`));
    });
  }

  _describe(s) {
    const names = this._axisNames();
    const vary = [0, 1, 2].filter((a) => new Set(s.members.map((m) => m[a])).size > 1);
    const partial = vary.filter((a) => new Set(s.members.map((m) => m[a])).size < s.shape[a]);
    const axisText = vary.map((a) => (partial.includes(a) ? this.t('partOf', { axis: names[a] }) : names[a]));
    const shapeWord = ['point', 'line', 'plane', 'block'][vary.length];
    return this.t('summary', {
      method: this.t(s.method),
      count: s.members.length,
      b: s.index[0], t: s.index[1], d: s.index[2],
      geometry: vary.length ? this.t(`geometry_${shapeWord}`, { axes: axisText.join(this.t('and')) }) : this.t('geometry_point'),
    });
  }
}
NlAxisCube.attributeProperties({
  shape: ['shape', (el) => el._shape],
  method: ['method', (el) => el._method],
  numGroups: ['num-groups', (el) => el._numGroups],
  index: ['index', (el) => el._index],
  reading: ['reading', (el) => el._reading],
});
