// <nl-axis-cube> — the elements of a [B, T, D] tensor that share statistics
// with one chosen element, for BatchNorm, LayerNorm, RMSNorm, InstanceNorm and
// GroupNorm, drawn as a rotatable 3-D grid of points.
//
// Attributes: shape ("3,4,6" = sizes of the three axes; whole numbers 1..12;
//   the default's last axis has the divisors 1, 2, 3, 6, so GroupNorm has
//   several G to show), method (batch_norm | layer_norm | rms_norm |
//   instance_norm | group_norm; layer_norm), num-groups (G for GroupNorm,
//   1..12; 1; one the core refuses for this shape keeps the last good drawing
//   with a localized message naming the G it accepts), index ("0,1,2": the
//   chosen element, each 0..11; clamped into the shape), reading (sequence:
//   axes [B, T, d] = sequences, tokens, features | image: axes [N, HW, C] =
//   images, flattened positions, channels), lang (en | zh).
// Properties: shape, method, numGroups, index, reading (lists as number[]);
//   state (read-only, frozen): {shape, method, numGroups, index (clamped),
//   reading, members ([b, t, d] triples, sorted, from the core), axes (the
//   three axis names of the reading), varying (axes along which members
//   differ), partial (those of them the group covers only in part), geometry
//   ('point' | 'line' | 'plane' | 'block'), groupCount (how many such groups
//   the tensor has), groupSize (members per group), channelsPerGroup
//   (GroupNorm's D/G, else null), measure ('mean_var' | 'mean_square'),
//   groupChoices (the G the core accepts for this D), yaw, pitch (degrees;
//   -18 and 20 at first and after "Reset view"), error}.
// Events: change — after the reader picks a method, G, reading or element,
//   rotates the view or resets it (never after programmatic sets).
// Keyboard: the view is focusable; arrow keys rotate it (Shift: small steps).
//   Method, G (only the values the core accepts) and reading are selects;
//   the element is three number inputs (arrow keys step them); "Reset view"
//   restores the angle (animated unless prefers-reduced-motion).
// Pointer: a horizontal drag on the view turns the grid (mouse: vertical drag
//   tilts it); on touch, vertical swipes scroll the page (touch-action: pan-y
//   on the view only). Clicking or tapping a point chooses it (the front-most
//   point under the pointer, else the nearest within a finger's reach).
// Drawing: points far to near (painter's order); the chosen element last,
//   larger and outlined, so no point hides it.
// CSS custom properties: --nl-group (members of the chosen element's group),
//   --nl-chosen (the chosen element), --nl-reference (the other elements),
//   --nl-muted (axes), and the shared --nl-* theme.
// Parts: figure, controls, select, number, button, view, point, description,
//   error.
// Ops used: reduction_group (the members), core.describe (group count and
//   size, the statistics measured, GroupNorm's channels per group), and
//   reduction_group probes for the G choices (the G the core accepts). No
//   group is computed here: the view is presentation only (a rotation and an
//   orthographic projection).
import { el } from '../lib/base.js';
import { NlFigure, figureCss } from '../lib/figure.js';
import { onDrag } from '../lib/handles.js';

const METHODS = ['batch_norm', 'layer_norm', 'rms_norm', 'instance_norm', 'group_norm'];
const VIEW = { yaw: -18, pitch: 20 };
const MAX_SIDE = 12;
const AXES = { sequence: ['B', 'T', 'd'], image: ['N', 'HW', 'C'] };
// core.describe takes each op's own layout: LayerNorm and RMSNorm reduce the
// last axis of [B, T, D]; the channel norms read [N, C, spatial].
const DESCRIBE_LAYOUT = {
  layer_norm: 'btd',
  rms_norm: 'btd',
  batch_norm: 'bdt',
  instance_norm: 'bdt',
  group_norm: 'bdt',
};

export class NlAxisCube extends NlFigure {
  static catalog = 'axisCube';
  static summary = 'The reduction group of one element of a [B, T, D] tensor, in 3-D.';
  static minHeight = 489; // px kept by normlab/styles.css (measured at 960 px, default attributes)
  static stateDoc =
    '`members` ([b, t, d] each), `axes`, `varying`, `partial`, `geometry`, `groupCount`, `groupSize`, `channelsPerGroup`, `measure`, `groupChoices`, `yaw`, `pitch`'; // `state` keys beyond the attributes (README)
  static params = {
    shape: {
      attr: 'shape',
      kind: 'vector',
      length: 3,
      default: [3, 4, 6],
      doc: 'B, T, D, each 1 to 12; D = 6 lets GroupNorm show G = 1, 2, 3 and 6',
    },
    method: {
      attr: 'method',
      kind: 'choice',
      choices: METHODS,
      default: 'layer_norm',
      control: 'select',
      doc: 'the normalization whose group is shown',
    },
    numGroups: {
      attr: 'num-groups',
      kind: 'number',
      integer: true,
      min: 1,
      max: MAX_SIDE,
      default: 1,
      doc: 'G for GroupNorm; the select offers only the G the core accepts, and a refused one keeps the last drawing with a message naming them',
    },
    index: {
      attr: 'index',
      kind: 'vector',
      length: 3,
      default: [0, 1, 2],
      doc: 'the chosen element (b, t, d), clamped into the shape',
    },
    reading: {
      attr: 'reading',
      kind: 'choice',
      choices: ['sequence', 'image'],
      default: 'sequence',
      control: 'select',
      doc: 'sequence ([B, T, d]: tokens, hidden width) or image ([N, HW, C]: positions, channels); the labels follow',
    },
  };
  static css = `${figureCss}
.controls { gap: 8px 14px; }
.control select { min-height: 36px; max-width: 100%; }
.index { flex-wrap: wrap; }
.control.index input { width: 56px; min-height: 36px; padding: 2px 6px; }
button { min-height: 36px; }
.view { touch-action: pan-y; cursor: grab; border-radius: 6px; user-select: none; -webkit-user-select: none; }
.view:active { cursor: grabbing; }
.view svg { max-width: 560px; margin: 0 auto; }
.point { stroke: var(--nl-bg); stroke-width: 1; cursor: pointer; }
.point.other { fill: var(--nl-reference); fill-opacity: 0.45; stroke-opacity: 0.6; }
.point.member { fill: var(--nl-group); }
.point.chosen { fill: var(--nl-chosen); stroke: var(--nl-group); stroke-width: 3; }
.halo { fill: none; stroke: var(--nl-bg); stroke-width: 7; pointer-events: none; }
.axis-line { stroke: var(--nl-muted); stroke-width: 1.5; }
.axis-label { font-size: var(--nl-label-size); fill: var(--nl-muted); font-weight: 600; }
.hint { font-size: var(--nl-small-size); color: var(--nl-muted); margin: 2px 0 0; }
`;

  constructor() {
    super();
    this._yaw = VIEW.yaw;
    this._pitch = VIEW.pitch;
    this._choiceCache = new Map();
    this._placed = [];
    this._anim = 0;
  }

  // ---- parameters --------------------------------------------------------------
  /** shape and index are three whole numbers: say so in the reader's language. */
  parseValue(key, text) {
    const r = super.parseValue(key, text);
    if (key !== 'shape' && key !== 'index') return r;
    if (r.error && text.split(',', 4).length > 3) return r; // the base's "at most" message
    const bad =
      r.error ||
      r.value.some(
        (n) => !Number.isInteger(n) || n < (key === 'shape' ? 1 : 0) || n > (key === 'shape' ? MAX_SIDE : MAX_SIDE - 1),
      );
    if (bad)
      return {
        error: this.t(key === 'shape' ? 'badShape' : 'badIndex', {
          value: text,
          max: key === 'shape' ? MAX_SIDE : MAX_SIDE - 1,
        }),
      };
    return r;
  }

  /** The G the core accepts for a channel count D (asked once per D). */
  groupChoices(core, D) {
    if (!this._choiceCache.has(D)) {
      const ok = [];
      for (let g = 1; g <= D; g++) {
        try {
          core.run('reduction_group', {}, { method: 'group_norm', shape: [1, 1, D], index: [0, 0, 0], num_groups: g });
          ok.push(g);
        } catch {
          /* not a valid G for this D */
        }
      }
      this._choiceCache.set(D, ok);
    }
    return this._choiceCache.get(D);
  }

  /**
   * A core error in the reader's language. A G the core refuses for this D
   * (code not_divisible) is named with the G it accepts; anything else goes
   * the base's way (error_<code>, coreError).
   */
  coreMessage(e) {
    const v = this._values;
    if (this._core && e?.code === 'not_divisible' && v.method === 'group_norm') {
      const choices = this.groupChoices(this._core, v.shape[2]);
      if (!choices.includes(v.numGroups)) {
        return this.t('groupsInvalid', {
          g: this.fmt(v.numGroups),
          d: this.fmt(v.shape[2]),
          axis: this.axisNames(v.reading)[2],
          choices: this.list(choices),
        });
      }
    }
    return super.coreMessage(e);
  }

  axisNames(reading) {
    return AXES[reading] ?? AXES.sequence;
  }

  list(values) {
    return values.map((v) => this.fmt(v)).join(this.t('listSep'));
  }

  // ---- computation: every group comes from the core --------------------------------
  compute(core, v) {
    const shape = [...v.shape];
    const index = v.index.map((i, a) => Math.min(i, shape[a] - 1));
    const attrs = { method: v.method, shape, index };
    if (v.method === 'group_norm') attrs.num_groups = v.numGroups;
    const flat = core.run('reduction_group', {}, attrs).members.data;
    const members = [];
    for (let i = 0; i + 2 < flat.length; i += 3) members.push([flat[i], flat[i + 1], flat[i + 2]]);
    const [B, T, D] = shape;
    const dShape = DESCRIBE_LAYOUT[v.method] === 'btd' ? [B, T, D] : [B, D, T];
    const desc = core.describe(v.method, {
      shape: dShape,
      attrs: v.method === 'group_norm' ? { num_groups: v.numGroups } : {},
    });
    // Presentation of the core's set: along which axes its members differ.
    const spread = [0, 1, 2].map((a) => new Set(members.map((m) => m[a])).size);
    const varying = [0, 1, 2].filter((a) => spread[a] > 1);
    const partial = varying.filter((a) => spread[a] < shape[a]);
    return {
      shape,
      index,
      members,
      axes: this.axisNames(v.reading),
      varying,
      partial,
      geometry: ['point', 'line', 'plane', 'block'][varying.length],
      groupCount: desc.group.count,
      groupSize: desc.group.size,
      // GroupNorm's layout splits C into [G, C/G]: the channels in one group.
      channelsPerGroup: v.method === 'group_norm' ? desc.group.layout[2] : null,
      measure: desc.measure,
      groupChoices: this.groupChoices(core, D),
      yaw: this._yaw,
      pitch: this._pitch,
    };
  }

  // ---- DOM -----------------------------------------------------------------------
  buildControls(box) {
    const method = this.select('method');
    // G: a select of the values the core accepts for the current D.
    this._gLabel = el('label', { class: 'control groups' });
    this._gText = el('span');
    this._gSelect = el('select', { part: 'select' });
    this._gSelect.addEventListener('change', () => this.setByUser('numGroups', this._gSelect.value));
    this._gLabel.append(this._gText, this._gSelect);
    // The chosen element: one stepper per axis.
    const indexBox = el('span', { class: 'control index', role: 'group' });
    this._indexLabel = el('span');
    indexBox.append(this._indexLabel);
    this._indexInputs = [0, 1, 2].map((axis) => {
      const input = el('input', { type: 'number', min: 0, step: 1, inputmode: 'numeric', part: 'number' });
      input.addEventListener('change', () => {
        const n = Number(input.value);
        const s = this._state;
        if (!s || input.value.trim() === '' || !Number.isInteger(n)) return this._syncIndex();
        const idx = [...s.index];
        idx[axis] = Math.max(0, Math.min(s.shape[axis] - 1, n));
        this.setByUser('index', idx);
      });
      indexBox.append(input);
      return input;
    });
    const reading = this.select('reading');
    this._resetBtn = el('button', { type: 'button', part: 'button' });
    this._resetBtn.addEventListener('click', () => this._resetView());
    box.append(method, this._gLabel, indexBox, reading, this._resetBtn);
  }

  buildView(view) {
    view.setAttribute('tabindex', '0');
    view.setAttribute('role', 'img');
    this._svg = el('svg', { viewBox: '0 0 460 340', 'aria-hidden': 'true' });
    this._axesG = el('g');
    this._pointsG = el('g');
    this._svg.append(this._axesG, this._pointsG);
    view.append(this._svg);
    this._hint = el('p', { class: 'hint' });
    view.after(this._hint); // the base placed the view in the figure already
    this._wireView(view);
  }

  _wireView(v) {
    v.addEventListener('keydown', (e) => {
      const step = e.shiftKey ? 2 : 10;
      const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
      if (!moves[e.key] || !this._state) return;
      e.preventDefault();
      this._rotate(...moves[e.key]);
      this.emitChange();
    });
    // A drag turns the grid; a tap (under 5 px of travel) chooses the element under it.
    let drag = null;
    onDrag(
      v,
      (e) => {
        if (!this._state) return null;
        drag = {
          x: e.clientX,
          y: e.clientY,
          x0: e.clientX,
          y0: e.clientY,
          moved: false,
          touch: e.pointerType !== 'mouse',
        };
        return (ev) => {
          if (!drag.moved && Math.hypot(ev.clientX - drag.x0, ev.clientY - drag.y0) > 5) drag.moved = true;
          const dx = ev.clientX - drag.x,
            dy = ev.clientY - drag.y;
          drag.x = ev.clientX;
          drag.y = ev.clientY;
          // Touch: only the horizontal part turns the grid (vertical swipes scroll the page).
          if (drag.moved) this._rotate(dx * 0.6, drag.touch ? 0 : -dy * 0.6);
        };
      },
      (e, cancelled) => {
        const d = drag;
        drag = null;
        if (d.moved) return this.emitChange();
        if (cancelled) return;
        const hit = this._pointAt(e.clientX, e.clientY, d.touch);
        if (hit) this.setByUser('index', hit);
      },
    );
  }

  /** The element under a pointer: the front-most point drawn there, else the nearest within reach. */
  _pointAt(clientX, clientY, touch) {
    const box = this._svg.getBoundingClientRect();
    const vb = this._svg.viewBox.baseVal;
    if (!box.width || !vb?.width) return null;
    const x = ((clientX - box.left) * vb.width) / box.width,
      y = ((clientY - box.top) * vb.height) / box.height;
    let under = null,
      near = null,
      nearDist = touch ? 22 : 10;
    for (const p of this._placed) {
      const dist = Math.hypot(p.x - x, p.y - y);
      if (dist <= p.r && (!under || p.order > under.order)) under = p;
      if (dist < nearDist) ((near = p), (nearDist = dist));
    }
    const hit = under ?? near;
    return hit ? [hit.b, hit.t, hit.d] : null;
  }

  _rotate(dYaw, dPitch) {
    cancelAnimationFrame(this._anim);
    this._setAngles(((this._yaw + dYaw + 540) % 360) - 180, Math.max(-89, Math.min(89, this._pitch + dPitch)));
  }

  /** The view angle is part of the state: replace it, then draw from the new state. */
  _setAngles(yaw, pitch) {
    this._yaw = Math.round(yaw * 100) / 100;
    this._pitch = Math.round(pitch * 100) / 100;
    if (!this._state) return;
    this._state = Object.freeze({ ...this._state, yaw: this._yaw, pitch: this._pitch });
    this._turning = true;
    try {
      this.draw(this._state);
    } finally {
      this._turning = false;
    }
  }

  _resetView() {
    if (!this._state) return;
    const from = { yaw: this._yaw, pitch: this._pitch };
    const reduce = typeof matchMedia !== 'undefined' && matchMedia('(prefers-reduced-motion: reduce)').matches;
    const done = () => {
      this._setAngles(VIEW.yaw, VIEW.pitch);
      this.emitChange();
    };
    cancelAnimationFrame(this._anim);
    if (reduce) return done();
    const t0 = performance.now();
    const frame = (now) => {
      const k = Math.min(1, (now - t0) / 300);
      const ease = 1 - (1 - k) ** 3;
      if (k < 1) {
        this._setAngles(from.yaw + (VIEW.yaw - from.yaw) * ease, from.pitch + (VIEW.pitch - from.pitch) * ease);
        this._anim = requestAnimationFrame(frame);
      } else done();
    };
    this._anim = requestAnimationFrame(frame);
  }

  languageChanged() {
    this._gText.textContent = this.t('numGroups');
    this._gSelect.setAttribute('aria-label', this.t('numGroups'));
    this._indexLabel.textContent = this.t('element');
    this._resetBtn.textContent = this.t('resetView');
    this._hint.textContent = this.t('hint');
    this._syncIndex();
    this._syncGroups();
  }

  _syncControls() {
    super._syncControls();
    this._gLabel.hidden = this._values.method !== 'group_norm';
    this._syncIndex();
    this._syncGroups();
  }

  /** The index steppers follow the state (clamped into its shape) and name the reading's axes. */
  _syncIndex() {
    const s = this._state;
    const shape = this._attrErrors.has('shape') && s ? s.shape : this._values.shape;
    const index = s && !this._attrErrors.has('index') ? s.index : this._values.index;
    const names = this.axisNames(this._attrErrors.has('reading') && s ? s.reading : this._values.reading);
    this._indexInputs.forEach((input, a) => {
      input.max = String(shape[a] - 1);
      input.setAttribute('aria-label', this.t('indexAxis', { axis: names[a], max: this.fmt(shape[a] - 1) }));
      if (this.shadowRoot.activeElement !== input || input.value === '')
        input.value = String(Math.min(index[a], shape[a] - 1));
    });
  }

  /** G offers what the core accepts for the current D; a G it refuses stays visible, marked. */
  _syncGroups() {
    if (!this._core || this._attrErrors.has('shape')) return;
    const D = this._values.shape[2],
      G = this._values.numGroups;
    const choices = this.groupChoices(this._core, D);
    const sel = this._gSelect;
    const opts = choices.map((g) => el('option', { value: g }, this.fmt(g)));
    if (!choices.includes(G) && !this._attrErrors.has('numGroups')) {
      opts.unshift(el('option', { value: G, disabled: '' }, this.t('groupsInvalidOption', { g: this.fmt(G) })));
    }
    sel.replaceChildren(...opts); // at most 13 options
    sel.value = String(G);
  }

  render() {
    super.render();
    this._syncIndex();
    this._syncGroups();
  }

  // ---- drawing -------------------------------------------------------------------------
  draw(s) {
    const svg = this._svg;
    // The width is measured once and kept by the base (a layout of the article
    // page costs milliseconds); the base redraws on width changes.
    if (!this._turning || !this._size) {
      const w0 = this.widthOf(svg) || 460;
      const H = Math.round(Math.min(340, Math.max(240, w0 * 0.74)));
      this._size = { W: this.fit(svg, 460, H), H };
    }
    const { W, H } = this._size;
    const [B, T, D] = s.shape;
    const yaw = (s.yaw * Math.PI) / 180,
      pitch = (s.pitch * Math.PI) / 180;
    const cy = Math.cos(yaw),
      sy = Math.sin(yaw),
      cp = Math.cos(pitch),
      sp = Math.sin(pitch);
    // Grid coordinates: d to the right, t downward (rows), b into the screen.
    const rot = (b, t, d) => {
      const X = d - (D - 1) / 2,
        Y = (T - 1) / 2 - t,
        Z = (B - 1) / 2 - b;
      const x1 = cy * X + sy * Z,
        z1 = -sy * X + cy * Z;
      return { x: x1, y: -(cp * Y - sp * z1), depth: sp * Y + cp * z1 };
    };
    // One arrow per axis, along the grid edge parallel to it that lies
    // farthest out on screen (so it never runs through the points), pointing
    // the way the index grows.
    const sizes = [B, T, D];
    const at = (a, along, u, v) => {
      const c = [0, 0, 0];
      const [i, j] = [0, 1, 2].filter((k) => k !== a);
      c[a] = along;
      c[i] = u ? sizes[i] - 1 + 0.7 : -0.7;
      c[j] = v ? sizes[j] - 1 + 0.7 : -0.7;
      return rot(...c);
    };
    const edges = [0, 1, 2].map((a) => {
      let best = null;
      for (const [u, v] of [
        [0, 0],
        [0, 1],
        [1, 0],
        [1, 1],
      ]) {
        const p0 = at(a, -0.3, u, v),
          p1 = at(a, sizes[a] - 1 + 0.3, u, v);
        const mx = (p0.x + p1.x) / 2,
          my = (p0.y + p1.y) / 2;
        const far = Math.hypot(mx, my);
        if (!best || far > best.far + 1e-9) best = { p0, p1, far, mx, my };
      }
      return best;
    });
    // Fit the rotated grid and its arrows (labels need room) into W x H.
    const corners = edges.flatMap((e) => [e.p0, e.p1]);
    const xs = corners.map((c) => c.x),
      ys = corners.map((c) => c.y);
    const minX = Math.min(...xs),
      maxX = Math.max(...xs),
      minY = Math.min(...ys),
      maxY = Math.max(...ys);
    const padX = 52,
      padY = 26;
    const unit = Math.min((W - 2 * padX) / Math.max(maxX - minX, 1), (H - 2 * padY) / Math.max(maxY - minY, 1), 70);
    const cx = W / 2 - ((minX + maxX) / 2) * unit,
      cyy = H / 2 - ((minY + maxY) / 2) * unit;
    const px = (p) => ({ x: cx + p.x * unit, y: cyy + p.y * unit, depth: p.depth });
    const span = Math.max(B, T, D, 2);
    const r0 = Math.max(3.5, Math.min(9, unit * 0.24));

    const axisItems = [];
    const centre = px({ x: 0, y: 0 });
    edges.forEach((e, a) => {
      const S = px(e.p0),
        E = px(e.p1),
        M = px({ x: e.mx, y: e.my });
      const len = Math.hypot(E.x - S.x, E.y - S.y);
      const ux = len > 1 ? (E.x - S.x) / len : 0,
        uy = len > 1 ? (E.y - S.y) / len : 0;
      const olen = Math.hypot(M.x - centre.x, M.y - centre.y) || 1;
      const ox = (M.x - centre.x) / olen,
        oy = (M.y - centre.y) / olen;
      const f = (v) => v.toFixed(1);
      axisItems.push(el('line', { class: 'axis-line', x1: f(S.x), y1: f(S.y), x2: f(E.x), y2: f(E.y) }));
      if (len > 10) {
        const ax = E.x - ux * 7,
          ay = E.y - uy * 7; // arrowhead
        axisItems.push(
          el('path', {
            class: 'axis-line',
            fill: 'none',
            d: `M${f(ax - uy * 4)},${f(ay + ux * 4)}L${f(E.x)},${f(E.y)}L${f(ax + uy * 4)},${f(ay - ux * 4)}`,
          }),
        );
      }
      // The label past the arrow's tip, pushed outward.
      const dx = ux * 8 + ox * 6,
        dy = uy * 8 + oy * 6;
      const dl = Math.hypot(dx, dy) || 1;
      const anchor = dx / dl > 0.4 ? 'start' : dx / dl < -0.4 ? 'end' : 'middle';
      const ly = E.y + dy + (dy / dl > 0.4 ? 11 : dy / dl < -0.4 ? -2 : 4);
      axisItems.push(
        el(
          'text',
          { class: 'axis-label', x: f(E.x + dx), y: f(ly), 'text-anchor': anchor },
          `${s.axes[a]} (${this.fmt(s.shape[a])})`,
        ),
      );
    });
    this._axesG.replaceChildren(...axisItems); // at most nine items

    // Points, far to near (painter's order); the chosen element last, on top.
    const key = s.shape.join('x');
    if (this._pointsKey !== key) {
      this._pointsKey = key;
      this._points = [];
      for (let b = 0; b < B; b++)
        for (let t = 0; t < T; t++)
          for (let d = 0; d < D; d++) {
            const c = el('circle', { part: 'point' });
            Object.assign(c.dataset, { b: String(b), t: String(t), d: String(d) });
            this._points.push({ c, b, t, d });
          }
      this._halo = el('circle', { class: 'halo', 'aria-hidden': 'true' });
    }
    const members = new Set(s.members.map((m) => m.join(',')));
    const chosen = s.index.join(',');
    const placed = this._points.map((pt) => ({ pt, pos: px(rot(pt.b, pt.t, pt.d)), id: `${pt.b},${pt.t},${pt.d}` }));
    placed.sort((a, b) => (a.id === chosen) - (b.id === chosen) || a.pos.depth - b.pos.depth);
    const frag = document.createDocumentFragment();
    this._placed = [];
    placed.forEach(({ pt, pos, id }, order) => {
      const isChosen = id === chosen;
      const scaleR = 1 + (0.18 * pos.depth) / span; // nearer points a little larger
      const r = isChosen ? r0 * 1.55 : r0 * scaleR;
      pt.c.setAttribute('cx', pos.x.toFixed(1));
      pt.c.setAttribute('cy', pos.y.toFixed(1));
      pt.c.setAttribute('r', r.toFixed(1));
      pt.c.setAttribute('class', `point ${members.has(id) ? 'member' : 'other'}${isChosen ? ' chosen' : ''}`);
      if (isChosen) {
        this._halo.setAttribute('cx', pos.x.toFixed(1));
        this._halo.setAttribute('cy', pos.y.toFixed(1));
        this._halo.setAttribute('r', r.toFixed(1));
        frag.append(this._halo);
      }
      frag.append(pt.c);
      this._placed.push({ x: pos.x, y: pos.y, r: r + 1, order, b: pt.b, t: pt.t, d: pt.d });
    });
    this._pointsG.replaceChildren(frag);
    this._view.setAttribute(
      'aria-label',
      this.t('viewLabel', { yaw: this.fmt(Math.round(s.yaw)), pitch: this.fmt(Math.round(s.pitch)) }),
    );
  }

  // ---- text --------------------------------------------------------------------------------
  describe(s) {
    const names = s.axes;
    const method = this.t(`choice_${s.method}`);
    const count = s.members.length;
    const where = this.t('elementAt', { index: s.index.map((i) => this.fmt(i)).join(', '), axes: names.join(', ') });
    const axisText = s.varying.map((a) =>
      s.partial.includes(a)
        ? this.t('partOf', {
            axis: names[a],
            k: this.fmt(new Set(s.members.map((m) => m[a])).size),
            n: this.fmt(s.shape[a]),
          })
        : this.t('wholeAxis', { axis: names[a], n: this.fmt(s.shape[a]) }),
    );
    const summary =
      count === 1
        ? this.t('summary_alone', { method, where })
        : this.t('summary', {
            method,
            where,
            count: this.fmt(count),
            geometry: this.t(`geometry_${s.geometry}`, { axes: axisText.join(this.t('and')) }),
          });
    const stats = this.t(s.measure === 'mean_square' ? 'stat_mean_square' : 'stat_mean_var');
    const groups =
      s.groupCount === 1
        ? this.t('groups_one', { shape: s.shape.map((n) => this.fmt(n)).join(', '), stats })
        : this.t('groups', { shape: s.shape.map((n) => this.fmt(n)).join(', '), n: this.fmt(s.groupCount), stats });
    const meaning = this.t(`meaning_${s.reading}_${s.method}`, {
      g: this.fmt(s.numGroups),
      size: this.fmt(s.channelsPerGroup ?? s.shape[2]),
    });
    return [summary, groups, meaning].join(this.t('sentenceSep'));
  }
}
NlAxisCube.defineProperties();
