// <nl-norm-geometry> — the article's running example in 3-D: x = (1, 2, 3),
// x + 100 = (101, 102, 103) and 10x = (10, 20, 30), and where L2
// normalization, RMSNorm and LayerNorm put each of them. L2's outputs lie on
// the unit sphere, RMSNorm's on the sphere of radius √d = √3, both on the ray
// of their input; LayerNorm's lie on the circle where the plane ⊥ (1, 1, 1)
// meets the √3 sphere, because it removes the component along (1, 1, 1) (the
// mean) before it scales. The picture is drawn with (1, 1, 1) pointing up, so
// that plane is the circle's "equator" and the offset pushes a ray toward the
// pole, while scaling leaves every ray where it was.
//
// Attributes: vector ("1,2,3", three numbers), offset (100; −1000..1000,
//   slider −200..200), scale (10; 0.1..100, slider 0.1..20), eps (1e-5; ε of
//   the three normalizations, 0..1), yaw (−60) and pitch (20) (the view, in
//   degrees: yaw −180..180 turns about (1, 1, 1), pitch −89..89 tilts toward
//   it), lang.
// Properties: vector, offset, scale, eps, yaw, pitch; state (read-only,
//   frozen): {vector, offset, scale, eps, yaw, pitch,
//     inputs   {x, shifted, scaled}: each {input, norm (‖input‖₂), mean,
//              angle (degrees between input and (1, 1, 1)), l2, rms_norm,
//              layer_norm, dropped (the RMSNorm output less its component
//              along (1, 1, 1): where the dashed drop meets the plane)},
//     change   {shifted, scaled}: each {l2, rms_norm, layer_norm}, the
//              Euclidean distance of that output from x's; "unchanged" in the
//              text means a distance ≤ UNCHANGED_TOL (1e-4),
//     between  {l2, rms_norm, layer_norm}: distances between the outputs of
//              x + offset and scale·x (which outputs the picture merges),
//     radii    {l2, rms_norm}: the radii of the two spheres (1 and √3),
//     ones     (1, 1, 1)/√3, the direction drawn upward,
//     error}.
// Events: change — after the reader moves a slider, turns the view (drag or
//   arrow keys; once per drag) or presses Reset (never after programmatic sets).
// Keyboard: the view is focusable; arrow keys turn it by 10° (Shift: 2°).
//   Sliders and boxes as usual; Reset restores every value the page set.
// Pointer: dragging the view turns it (horizontal: about (1, 1, 1); vertical,
//   mouse and pen only: the tilt); on touch vertical swipes scroll the page.
// Depth: orthographic view; points nearer the reader are drawn larger and
//   after farther ones; what lies behind the origin (the far half of the
//   circle, of the axis, a ray pointing away) is drawn faint and behind the
//   spheres' translucent discs.
// Labels: placed greedily around their points, never over another label or a
//   point, inside the picture.
// CSS custom properties: --nl-input (inputs), --nl-l2, --nl-rms-norm,
//   --nl-layer-norm (outputs and their sphere or circle), --nl-muted (the
//   (1, 1, 1) axis), and the shared --nl-* theme.
// Parts: figure, controls, slider, number, button, view, stage (the picture), legend, readout,
//   description, error.
// Ops used (every number comes from the core): film (x + offset, scale·x,
//   differences), l2_normalize, rms_norm, layer_norm, z_score_fit and
//   z_score_apply (means; the drop onto the plane), clip_grad_norm (lengths
//   and distances), angle_between, unit_circle and linear_map (the circle
//   from two LayerNorm outputs; every point into the view frame and through
//   the camera). The camera's rotation matrix (cos and sin of yaw and pitch)
//   is the only thing made here, as in nl-axis-cube.
import { el } from '../lib/base.js';
import { NlFigure, figureCss } from '../lib/figure.js';
import { onDrag } from '../lib/handles.js';

const vec = NlFigure.vec;
const INPUTS = ['x', 'shifted', 'scaled'];
const METHODS = ['l2', 'rms_norm', 'layer_norm'];
/** "Unchanged" (and "the same point" in the picture): within this Euclidean distance. */
export const UNCHANGED_TOL = 1e-4;
const CIRCLE_POINTS = 96;
// Lengths in the view, in units of the coordinates: rays are drawn to RAY, the
// (1, 1, 1) axis from -AXIS_DOWN to AXIS_UP; the view holds EXTENT around the origin.
// (1, 1, 1) points up, and what the inputs and offsets make lies mostly above the plane: the view
// holds WIDE either side of the origin, TOP above and BOTTOM below it.
const RAY = 2.3,
  AXIS_UP = 2.65,
  AXIS_DOWN = 2.0,
  WIDE = 2.45,
  TOP = 2.75,
  BOTTOM = 1.95;
// distances (px beyond a point's clearance) at which a label is tried, nearest first; past the third a leader line joins it to its point
const RINGS = [2, 10, 20, 32, 46, 62];
const LABEL = 12,
  LINE = 14; // label font size (--nl-label-size) and line height, px

/**
 * A label's width in px, on the generous side (lib/text.js's estimate is for
 * body text; capitals, as in "RMSNorm", run wider): labels must never touch.
 */
const labelWidth = (s, size) =>
  [...s].reduce(
    (w, c) =>
      w +
      (/[\u2e80-\u9fff\uff00-\uffef]/.test(c) ? 1.02 : /[A-Z]/.test(c) ? 0.74 : /[ ,.:;()'·]/.test(c) ? 0.38 : 0.62),
    0,
  ) * size;

const formatters = new Map();
function formatter(lang, options) {
  const key = lang + JSON.stringify(options);
  if (!formatters.has(key)) formatters.set(key, new Intl.NumberFormat(lang === 'zh' ? 'zh-CN' : 'en-US', options));
  return formatters.get(key);
}

export class NlNormGeometry extends NlFigure {
  static catalog = 'normGeometry';
  static summary =
    'x, x + 100 and 10x in 3-D with the unit sphere (L2), the √3 sphere (RMSNorm) and the LayerNorm circle ⊥ (1, 1, 1).';
  static minHeight = 928; // px kept by normlab/styles.css (measured at 960 px, default attributes)
  static phoneMinHeight = { en: 1341, zh: 1193 }; // px kept up to 600 px wide (measured at 360 px, default attributes)
  static stateDoc =
    '`inputs` (`{x, shifted, scaled}`, each `{input, norm, mean, angle, l2, rms_norm, layer_norm, dropped}`), `change`, `between`, `radii`, `ones`'; // `state` keys beyond the attributes (README)
  static params = {
    vector: { attr: 'vector', kind: 'vector', length: 3, default: [1, 2, 3], doc: 'the vector x (three numbers)' },
    offset: {
      attr: 'offset',
      kind: 'number',
      default: 100,
      min: -1000,
      max: 1000,
      step: 1,
      control: 'slider',
      range: [-200, 200],
      doc: 'the common offset of the second input, x + offset (slider −200 to 200)',
    },
    scale: {
      attr: 'scale',
      kind: 'number',
      default: 10,
      min: 0.1,
      max: 100,
      step: 0.1,
      control: 'slider',
      range: [0.1, 20],
      doc: 'the common scale of the third input, scale · x (slider 0.1 to 20)',
    },
    eps: { attr: 'eps', kind: 'number', default: 1e-5, min: 0, max: 1, doc: 'ε of the three normalizations' },
    yaw: {
      attr: 'yaw',
      kind: 'number',
      default: -60,
      min: -180,
      max: 180,
      doc: 'the view: degrees about (1, 1, 1), which points up',
    },
    pitch: {
      attr: 'pitch',
      kind: 'number',
      default: 20,
      min: -89,
      max: 89,
      doc: 'the view: degrees the eye sits above the plane ⊥ (1, 1, 1)',
    },
  };
  static css = `${figureCss}
.controls { gap: 8px 18px; }
.control { flex-wrap: wrap; max-width: 100%; }
.control input[type=range] { width: min(160px, 36vw); }
.stage { touch-action: pan-y; cursor: grab; user-select: none; -webkit-user-select: none; border-radius: 6px; }
.stage:active { cursor: grabbing; }
.stage svg { max-width: 620px; margin: 0 auto; }
.disc { stroke-width: 1.5; }
.disc.l2 { fill: var(--nl-l2); fill-opacity: 0.1; stroke: var(--nl-l2); }
.disc.rms_norm { fill: var(--nl-rms-norm); fill-opacity: 0.07; stroke: var(--nl-rms-norm); stroke-opacity: 0.8; }
.ring { fill: none; stroke: var(--nl-layer-norm); stroke-width: 2.5; }
.ring.back { stroke-width: 1.5; stroke-dasharray: 4 4; }
.ones { stroke: var(--nl-muted); stroke-width: 1.5; stroke-dasharray: 6 4; fill: none; }
.ones.head { stroke-dasharray: none; }
.ray { stroke: var(--nl-input); stroke-width: 2; fill: none; }
.drop { stroke: var(--nl-layer-norm); stroke-width: 1.5; stroke-dasharray: 3 3; fill: none; }
.back { opacity: 0.45; }
.dot { stroke: var(--nl-bg); stroke-width: 1.5; }
.dot.l2 { fill: var(--nl-l2); }
.dot.rms_norm { fill: var(--nl-rms-norm); }
.dot.layer_norm { fill: var(--nl-layer-norm); }
.origin { fill: var(--nl-muted); }
.leader { stroke-width: 1; fill: none; stroke: var(--nl-muted); }
.leader.l2 { stroke: var(--nl-l2); } .leader.rms_norm { stroke: var(--nl-rms-norm); }
.leader.layer_norm { stroke: var(--nl-layer-norm); } .leader.input { stroke: var(--nl-input); }
.label { font-size: var(--nl-label-size); paint-order: stroke; stroke: var(--nl-bg); stroke-width: 3.5px; stroke-linejoin: round; }
.label.input { fill: var(--nl-input); font-weight: 600; }
.label.ones { fill: var(--nl-muted); }
.label.l2 { fill: var(--nl-l2); }
.label.rms_norm { fill: var(--nl-rms-norm); }
.label.layer_norm { fill: var(--nl-layer-norm); font-weight: 600; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: var(--nl-small-size); color: var(--nl-muted); margin: 4px 0 0; padding: 0; list-style: none; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 50%; margin-right: 4px; vertical-align: -1px; }
.swatch.l2 { background: var(--nl-l2); }
.swatch.rms_norm { background: var(--nl-rms-norm); }
.swatch.layer_norm { background: var(--nl-layer-norm); }
.swatch.input { border-radius: 0; width: 16px; height: 0; background: none; border-top: 2px solid var(--nl-input); }
.swatch.drop { border-radius: 0; width: 16px; height: 0; background: none; border-top: 2px dashed var(--nl-layer-norm); }
.hint { font-size: var(--nl-small-size); color: var(--nl-muted); margin: 4px 0 0; }
.table-box { overflow-x: auto; max-width: 100%; margin-top: 8px; }
table { font-size: 0.85em; }
th, td { padding: 2px 10px 2px 0; white-space: nowrap; }
caption { text-align: left; color: var(--nl-muted); padding-bottom: 2px; caption-side: top; }
td.l2 { color: var(--nl-l2); } td.rms_norm { color: var(--nl-rms-norm); } td.layer_norm { color: var(--nl-layer-norm); }
/* Narrower than the table's seven columns: each input's row stacks, "x (1, 2, 3) ‖·‖₂ 3.742" over one line per
   method, so no column is cut off or hides behind a sideways scroll. */
@container (max-width: 800px) {
  .readout, .readout tbody { display: block; }
  .readout thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  .readout caption { display: block; }
  .readout tr { display: grid; grid-template-columns: max-content 1fr max-content; column-gap: 10px;
    padding: 4px 0; border-top: 1px solid var(--nl-grid); }
  .readout th, .readout td { padding: 1px 0; text-align: left; }
  .readout td.norm::before { content: attr(data-label) " "; color: var(--nl-muted); }
  .readout td.l2, .readout td.rms_norm, .readout td.layer_norm { grid-column: 1 / -1; display: flex;
    justify-content: space-between; gap: 10px; }
  .readout td.l2::before, .readout td.rms_norm::before, .readout td.layer_norm::before { content: attr(data-label); }
}
@container (max-width: 440px) {
  .control { width: 100%; flex-wrap: nowrap; }
  .control input[type=range] { flex: 1 1 60px; width: auto; min-width: 44px; max-width: none; }
  .control input[type=number] { width: 76px; flex: none; }
  table { font-size: var(--nl-small-size); }
}
`;

  constructor() {
    super();
    this._scene = null;
    this._labelBoxes = [];
  }

  // ---- controls -------------------------------------------------------------
  buildControls(box) {
    for (const [key, p] of Object.entries(this.constructor.params)) {
      if (p.control !== 'slider') continue;
      box.append(this.slider(key));
      // the slider covers the useful range; the box beside it takes the whole attribute range
      this._controls[key].range.min = String(p.range[0]);
      this._controls[key].range.max = String(p.range[1]);
    }
    box.append(this.button('reset', () => this.setValues(this.pageValues)));
  }

  // ---- view -------------------------------------------------------------------
  buildView(view) {
    // The stage (the picture) is what turns: focusable, dragged. The legend, hint and table
    // sit below it in the view, so they too stay hidden until the first drawing (figureCss)
    // and nothing moves when the picture takes its height.
    this._stage = el('div', { class: 'stage', part: 'stage', tabindex: 0, role: 'img' });
    this._svg = el('svg', { 'aria-hidden': 'true' });
    this._layers = ['back', 'discs', 'front', 'labels'].map((name) => el('g', { class: `layer-${name}` }));
    this._svg.append(...this._layers);
    // a list: each entry a line of its own in the still picture too (normlab/render)
    this._legend = el('ul', { class: 'legend', part: 'legend' });
    this._hint = el('p', { class: 'hint' }); // how to use it (a still picture leaves it out)
    this._table = el('table', { class: 'readout', part: 'readout' });
    const tableBox = el('div', { class: 'table-box' });
    tableBox.append(this._table);
    this._stage.append(this._svg);
    view.append(this._stage, this._legend, this._hint, tableBox);
    this._wireView(this._stage);
  }

  _wireView(v) {
    v.addEventListener('keydown', (e) => {
      const step = e.shiftKey ? 2 : 10;
      const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
      if (!moves[e.key] || !this._state) return;
      e.preventDefault();
      this._turn(...moves[e.key]);
      this.emitChange();
    });
    let drag = null;
    onDrag(
      v,
      (e) => {
        if (!this._state) return null;
        drag = { x: e.clientX, y: e.clientY, moved: false, touch: e.pointerType === 'touch' };
        return (ev) => {
          const dx = ev.clientX - drag.x,
            dy = ev.clientY - drag.y;
          if (!dx && !dy) return;
          drag.x = ev.clientX;
          drag.y = ev.clientY;
          drag.moved = true;
          // touch: only the horizontal part turns the view (vertical swipes scroll the page)
          this._turn(dx * 0.5, drag.touch ? 0 : dy * 0.5);
        };
      },
      () => {
        const moved = drag?.moved;
        drag = null;
        if (moved) this.emitChange();
      },
    );
  }

  /** Turn the view by dYaw, dPitch degrees (yaw wraps around, pitch stops at ±89). */
  _turn(dYaw, dPitch) {
    const v = this._values;
    const yaw = Math.round((((v.yaw + dYaw + 540) % 360) - 180) * 100) / 100;
    const pitch = Math.round(Math.max(-89, Math.min(89, v.pitch + dPitch)) * 100) / 100;
    this.setValues({ yaw, pitch });
    this.updateNow();
  }

  languageChanged() {
    this._hint.textContent = this.t('hint');
  }

  // ---- computation: every number from the core -----------------------------------
  length(v) {
    return this.op('clip_grad_norm', { g: vec(v) }, { max_norm: 1e30 }, 'total_norm')[0];
  }

  /** ‖b − a‖₂: the difference by the core's FiLM (−1 · a + b), its length by clip_grad_norm. */
  distance(a, b) {
    const row = (d) => ({ shape: [1, d.length], data: d });
    const diff = this.op('film', { x: row(a), gamma: row(a.map(() => -1)), beta: row(b) });
    return this.length(diff);
  }

  compute(core, { vector, offset, scale, eps, yaw, pitch }) {
    const row = (d) => ({ shape: [1, 3], data: d });
    const same = (k) => row([k, k, k]);
    const film = (g, b) => this.op('film', { x: row(vector), gamma: same(g), beta: same(b) });
    const column = (d) => ({ shape: [3, 1], data: d });
    const mean = (d) => this.op('z_score_fit', { x: column(d) }, {}, 'mean');
    const ones = [1, 1, 1];
    const inputs = {};
    for (const [key, x] of [
      ['x', film(1, 0)],
      ['shifted', film(1, offset)],
      ['scaled', film(scale, 0)],
    ]) {
      const t = { x: vec(x) };
      const rms = this.op('rms_norm', t, { eps });
      inputs[key] = {
        input: x,
        norm: this.length(x),
        mean: mean(x)[0],
        angle: this.op('angle_between', { a: vec(x), b: vec(ones) })[0],
        l2: this.op('l2_normalize', t, { eps }),
        rms_norm: rms,
        layer_norm: this.op('layer_norm', t, { eps }),
        // the RMSNorm output less its mean along (1, 1, 1): the foot of the drop onto the plane
        dropped: this.op('z_score_apply', { x: column(rms), mean: vec(mean(rms)), std: vec([1]) }),
      };
    }
    const change = {},
      between = {};
    for (const key of ['shifted', 'scaled']) {
      change[key] = Object.fromEntries(METHODS.map((m) => [m, this.distance(inputs.x[m], inputs[key][m])]));
    }
    for (const m of METHODS) between[m] = this.distance(inputs.shifted[m], inputs.scaled[m]);
    // The spheres' radii: the length of L2's and RMSNorm's output for (1, 0, 0).
    const e1 = vec([1, 0, 0]);
    const radii = {
      l2: this.length(this.op('l2_normalize', { x: e1 })),
      rms_norm: this.length(this.op('rms_norm', { x: e1 }, { eps: 0 })),
    };
    const onesDir = this.op('l2_normalize', { x: vec(ones) });
    this._scene = this._project(core, { inputs, onesDir, yaw, pitch });
    return { inputs, change, between, radii, ones: onesDir };
  }

  /**
   * Every point of the picture in view coordinates [right, up, toward the
   * reader], through two of the core's linear maps: into a frame whose third
   * axis is (1, 1, 1) and whose first two span the plane ⊥ (1, 1, 1) (unit
   * vectors along LayerNorm's outputs for (1, 0, 0) and (0, 1, −1)), then
   * through the camera (yaw about that axis, then pitch).
   */
  _project(core, { inputs, onesDir, yaw, pitch }) {
    // Two perpendicular radii of LayerNorm's circle (ε = 0: exactly on the √3 sphere).
    const ca = this.op('layer_norm', { x: vec([1, 0, 0]) }, { eps: 0 });
    const cb = this.op('layer_norm', { x: vec([0, 1, -1]) }, { eps: 0 });
    const fa = this.op('l2_normalize', { x: vec(ca) }),
      fb = this.op('l2_normalize', { x: vec(cb) });
    const frame = { shape: [3, 3], data: [...fa, ...fb, ...onesDir] };
    // The circle: [ca cb] · (cos t, sin t) for the core's points around the unit circle.
    const circle2 = core.run('unit_circle', {}, { count: CIRCLE_POINTS }).points;
    const circle = this.op('linear_map', {
      W: { shape: [3, 2], data: [ca[0], cb[0], ca[1], cb[1], ca[2], cb[2]] },
      points: circle2,
    });
    // Points: the origin, (1, 1, 1)/√3, per input its three outputs and the foot of its drop, the circle.
    const pts = [0, 0, 0, ...onesDir];
    for (const k of INPUTS)
      pts.push(...inputs[k].l2, ...inputs[k].rms_norm, ...inputs[k].layer_norm, ...inputs[k].dropped);
    pts.push(...circle);
    const n = pts.length / 3;
    const inFrame = this.op('linear_map', { W: frame, points: { shape: [n, 3], data: pts } });
    // The camera (presentation only, as nl-axis-cube turns its grid): yaw about the frame's
    // third axis, then the eye raised by `pitch` above the plane.
    const y = (yaw * Math.PI) / 180,
      p = (pitch * Math.PI) / 180;
    const cy = Math.cos(y),
      sy = Math.sin(y),
      cp = Math.cos(p),
      sp = Math.sin(p);
    const camera = { shape: [3, 3], data: [cy, -sy, 0, -sp * sy, -sp * cy, cp, cp * sy, cp * cy, sp] };
    const view = this.op('linear_map', { W: camera, points: { shape: [n, 3], data: inFrame } });
    const at = (i) => ({ x: view[3 * i], y: view[3 * i + 1], z: view[3 * i + 2] });
    const scene = { origin: at(0), ones: at(1), inputs: {}, circle: [] };
    INPUTS.forEach((k, j) => {
      const b = 2 + 4 * j;
      scene.inputs[k] = { l2: at(b), rms_norm: at(b + 1), layer_norm: at(b + 2), dropped: at(b + 3) };
    });
    for (let i = 2 + 4 * INPUTS.length; i < n; i++) scene.circle.push(at(i));
    return scene;
  }

  // ---- formatting ----------------------------------------------------------------------
  /** 4 significant digits, no digit grouping (a comma inside "(1,010, …)" would read as a separator), −0 as 0. */
  num(v) {
    return formatter(this.lang, { maximumSignificantDigits: 4, useGrouping: false }).format(v === 0 ? 0 : v);
  }

  tuple(values) {
    return `(${values.map((v) => this.num(v)).join(', ')})`;
  }

  /** The inputs' short names: x, x + 100, 10x. */
  inputName(key, s) {
    if (key === 'x') return 'x';
    if (key === 'scaled') return this.t('scaledName', { s: this.num(s.scale) });
    return s.offset < 0
      ? this.t('shiftedNameMinus', { o: this.num(-s.offset) })
      : this.t('shiftedName', { o: this.num(s.offset) });
  }

  /** Inputs whose `method` outputs coincide (within UNCHANGED_TOL), in order: [['x', 'scaled'], ['shifted']]. */
  static groups(s, method) {
    const dist = (a, b) => {
      if (a === b) return 0;
      if (a === 'x') return s.change[b][method];
      if (b === 'x') return s.change[a][method];
      return s.between[method];
    };
    const groups = [];
    for (const k of INPUTS) {
      const g = groups.find((members) => dist(members[0], k) <= UNCHANGED_TOL);
      if (g) g.push(k);
      else groups.push([k]);
    }
    return groups;
  }

  /** Which outputs of `key` (shifted or scaled) stay at x's and which moved. */
  static verdict(s, key) {
    const same = METHODS.filter((m) => s.change[key][m] <= UNCHANGED_TOL);
    return { same, moved: METHODS.filter((m) => !same.includes(m)) };
  }

  _join(names) {
    if (names.length <= 2) return names.join(this.t('and'));
    return names.slice(0, -1).join(this.t('listSep')) + this.t('and') + names.at(-1);
  }

  // ---- text ------------------------------------------------------------------------------
  describe(s) {
    const name = (k) => this.inputName(k, s);
    const method = (m) => this.t(m);
    const parts = [
      this.t('describeInputs', {
        x: this.tuple(s.inputs.x.input),
        shiftedName: name('shifted'),
        shifted: this.tuple(s.inputs.shifted.input),
        scaledName: name('scaled'),
        scaled: this.tuple(s.inputs.scaled.input),
      }),
    ];
    for (const key of ['scaled', 'shifted']) {
      const { same, moved } = NlNormGeometry.verdict(s, key);
      const action =
        key === 'scaled'
          ? this.t('actionScale', { s: this.num(s.scale) })
          : this.t(s.offset < 0 ? 'actionSubtract' : 'actionAdd', { o: this.num(Math.abs(s.offset)) });
      if (!moved.length) {
        parts.push(this.t(key === 'scaled' ? 'noneMovedScale' : 'noneMoved', { action, name: name(key) }));
        continue;
      }
      // The L2 and RMSNorm outputs lie on the input's ray: say which way it turned against (1, 1, 1).
      const from = s.inputs.x.angle,
        to = s.inputs[key].angle;
      const direction = this.t(to < from ? 'dirTowards' : to > from ? 'dirAway' : 'dirAround');
      const angles = { direction, from: this.num(from), to: this.num(to) };
      if (same.length === 1 && same[0] === 'layer_norm') {
        parts.push(this.t('lnStays', { action, ...angles, ln: this.tuple(s.inputs[key].layer_norm) }));
        continue;
      }
      const turn = moved.some((m) => m !== 'layer_norm') ? this.t('turn', angles) : '';
      const stayed = same.length ? this.t('stayed', { names: this._join(same.map(method)) }) : '';
      parts.push(this.t('moved', { action, names: this._join(moved.map(method)) }) + turn + stayed + this.t('period'));
    }
    return parts.join(this.t('space'));
  }

  // ---- drawing --------------------------------------------------------------------------------
  draw(s) {
    const sc = this._scene;
    if (!sc) return;
    const w0 = this.widthOf(this._svg) || 560;
    const H = Math.round(Math.min(540, Math.max(340, w0 * 1.0)));
    const W = this.fit(this._svg, 560, H);
    const unit = Math.min((W - 16) / (2 * WIDE), (H - 36) / (TOP + BOTTOM));
    const cx = W / 2,
      cy = 18 + TOP * unit + (H - 36 - (TOP + BOTTOM) * unit) / 2;
    const P = (p, k = 1) => ({ x: cx + p.x * k * unit, y: cy - p.y * k * unit, z: p.z * k });
    const f = (v) => v.toFixed(1);
    const back = [],
      front = [],
      discs = [];
    const layerOf = (z) => (z < -1e-9 ? back : front);
    const R = { l2: s.radii.l2, rms_norm: s.radii.rms_norm };
    const labels = [],
      obstacles = [];
    /** Lines are obstacles of lower weight: a label may cross one only where nothing else is free. */
    const path = (pts) => {
      for (let i = 1; i < pts.length; i++) {
        const a = pts[i - 1],
          b = pts[i];
        const n = Math.ceil(Math.hypot(b.x - a.x, b.y - a.y) / 6);
        for (let k = 0; k <= n; k++) {
          const x = a.x + ((b.x - a.x) * k) / n,
            y = a.y + ((b.y - a.y) * k) / n;
          obstacles.push({ x: x - 2, y: y - 2, w: 4, h: 4, weight: 3 });
        }
      }
      return pts.map((p, i) => `${i ? 'L' : 'M'}${f(p.x)},${f(p.y)}`).join('');
    };
    const arrowHead = (a, b, cls) => {
      const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
      const ux = (b.x - a.x) / len,
        uy = (b.y - a.y) / len,
        k = 8;
      const hx = b.x - ux * k,
        hy = b.y - uy * k;
      return el('path', {
        class: cls,
        d: `M${f(hx - uy * k * 0.5)},${f(hy + ux * k * 0.5)}L${f(b.x)},${f(b.y)}L${f(hx + uy * k * 0.5)},${f(hy - ux * k * 0.5)}`,
      });
    };
    const O = P(sc.origin);

    // The spheres: discs in orthographic view, the larger first.
    for (const m of ['rms_norm', 'l2']) {
      discs.push(el('circle', { class: `disc ${m}`, cx: f(O.x), cy: f(O.y), r: f(R[m] * unit) }));
    }
    discs.push(el('circle', { class: 'origin', cx: f(O.x), cy: f(O.y), r: 2.5 }));

    // The (1, 1, 1) axis: the half pointing away from the reader behind the discs.
    const top = P(sc.ones, AXIS_UP),
      bottom = P(sc.ones, -AXIS_DOWN);
    for (const end of [top, bottom]) {
      const seg = el('path', { class: `ones${end.z < 0 ? ' back' : ''}`, d: path([O, end]) });
      layerOf(end.z).push(seg);
    }
    layerOf(top.z).push(arrowHead(O, top, `ones head${top.z < 0 ? ' back' : ''}`));
    obstacles.push({ x: top.x - 6, y: top.y - 6, w: 12, h: 12 });

    // LayerNorm's circle, cut where it passes behind the origin's plane of depth.
    let run = [];
    const flush = (z) => {
      if (run.length > 1) layerOf(z).push(el('path', { class: `ring${z < 0 ? ' back' : ''}`, d: path(run) }));
    };
    const ring = [...sc.circle, sc.circle[0]].map((p) => P(p));
    ring.forEach((p, i) => {
      if (i && Math.sign(p.z) !== Math.sign(ring[i - 1].z)) {
        run.push(p);
        flush(ring[i - 1].z);
        run = [];
      }
      run.push(p);
    });
    flush(ring.at(-1).z);

    // Drops (under the rays, which they may run along): from each RMSNorm output along −(1, 1, 1) onto the plane, then out to LayerNorm's output.
    for (const group of NlNormGeometry.groups(s, 'rms_norm')) {
      const q = sc.inputs[group[0]];
      const a = P(q.rms_norm),
        b = P(q.dropped),
        c = P(q.layer_norm);
      const z = (a.z + c.z) / 2;
      layerOf(z).push(el('path', { class: `drop${z < 0 ? ' back' : ''}`, d: path([a, b, c]) }));
    }

    // Rays: one per direction (inputs whose L2 outputs coincide share one).
    const name = (k) => this.inputName(k, s);
    for (const group of NlNormGeometry.groups(s, 'l2')) {
      const dir = sc.inputs[group[0]].l2;
      const end = P(dir, RAY);
      const cls = `ray${end.z < 0 ? ' back' : ''}`;
      layerOf(end.z).push(el('path', { class: cls, d: path([O, end]) }), arrowHead(O, end, `${cls} head`));
      obstacles.push({ x: end.x - 6, y: end.y - 6, w: 12, h: 12 }); // the arrowhead: no label over it
      labels.push({
        cls: 'input',
        bold: true,
        at: end,
        clear: 6,
        prefer: Math.atan2(end.y - O.y, end.x - O.x),
        lines: group.map((k) => this.t('inputLabel', { name: name(k), value: this.tuple(s.inputs[k].input) })),
        rank: 0,
      });
    }
    // The (1, 1, 1) label at the axis' upper end.
    labels.push({
      cls: 'ones',
      at: top,
      clear: 13, // clear of its own arrowhead and of the ray along it
      prefer: -0.5, // up and right of the tip: above it is where a ray along (1, 1, 1) puts its input’s label, and below it that ray’s own arrowhead
      lines: [this.t('onesLabel'), this.t('onesNote')],
      rank: 1,
    });

    // Output points, far to near, each group of coinciding outputs one point with one label.
    const dots = [];
    for (const m of METHODS) {
      for (const group of NlNormGeometry.groups(s, m)) {
        const p = P(sc.inputs[group[0]][m]);
        dots.push({ m, p, group, all: group.length === INPUTS.length });
      }
    }
    const rMax = R.rms_norm;
    dots.sort((a, b) => a.p.z - b.p.z);
    for (const d of dots) {
      const r = (m) => (m === 'layer_norm' ? 6.5 : 5.5) * (1 + (0.22 * d.p.z) / rMax); // nearer: larger
      const rad = r(d.m);
      layerOf(d.p.z).push(
        el('circle', { class: `dot ${d.m}${d.p.z < 0 ? ' back' : ''}`, cx: f(d.p.x), cy: f(d.p.y), r: f(rad) }),
      );
      const m = rad + 2.5; // the point, its outline and a hair of air
      obstacles.push({ x: d.p.x - m, y: d.p.y - m, w: 2 * m, h: 2 * m });
      labels.push({
        cls: d.m,
        at: d.p,
        clear: rad + 2,
        // beside the point, on the side away from the (1, 1, 1) axis (LayerNorm's: away from the origin)
        prefer: d.m === 'layer_norm' ? Math.atan2(d.p.y - O.y, d.p.x - O.x) : d.p.x < top.x - 0.5 ? Math.PI : 0,
        // a label names the method and the inputs whose output the point is, L2(x, 10x) beside L2(x + 100) (a reader
        // could not tell two points named L2 apart), or says that all three inputs share the point; the inputs are a
        // function's arguments, ", " in both languages (a Chinese reader read "L2(x、10x)" as prose)
        lines: [
          d.all
            ? this.t('dotLabelAll', { method: this.t(d.m) })
            : this.t('dotLabel', { method: this.t(d.m), inputs: d.group.map(name).join(', ') }),
        ],
        bold: d.m === 'layer_norm',
        rank: d.m === 'layer_norm' ? 0 : 2,
      });
    }
    obstacles.push({ x: O.x - 3, y: O.y - 3, w: 6, h: 6, weight: 8 });
    this._layers[0].replaceChildren(...back);
    this._layers[1].replaceChildren(...discs);
    this._layers[2].replaceChildren(...front);
    this._layers[3].replaceChildren(...this._placeLabels(labels, obstacles, W, H));

    this._stage.setAttribute(
      'aria-label',
      this.t('viewLabel', { yaw: this.fmt(Math.round(s.yaw)), pitch: this.fmt(Math.round(s.pitch)) }),
    );
    this._drawLegend(s);
    this._drawTable(s);
  }

  /** One greedy placement of the labels in `order`: {out (the SVG nodes), total (its cost), clash, placed}. */
  _placeOrder(order, obstacles, W, H) {
    const placed = [];
    const overlap = (a, b) =>
      Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x)) *
      Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));
    const frame = { x: 2, y: 2, w: W - 4, h: H - 4 };
    const HARD = 1000; // per px² over another label, a point or the picture's edge: worse than any distance
    const out = [];
    let total = 0,
      clash = 0;
    for (const lab of order) {
      // the box holds the text with 4 px on every side, so two boxes apart keep 8 px between texts
      const w = Math.max(...lab.lines.map((l) => labelWidth(l, LABEL * (lab.bold ? 1.14 : 1)))) + 8;
      const h = lab.lines.length * LINE + 8;
      let best = null;
      for (const ring of RINGS) {
        for (let k = 0; k < 16; k++) {
          const step = Math.ceil(k / 2) * (k % 2 ? 1 : -1);
          const a = lab.prefer + (step * Math.PI) / 8;
          const ca = Math.cos(a),
            sa = Math.sin(a);
          const d = lab.clear + ring;
          const box = {
            x: lab.at.x + ca * d - w / 2 + (ca * w) / 2,
            y: lab.at.y + sa * d - h / 2 + (sa * h) / 2,
            w,
            h,
          };
          let hard = w * h - overlap(box, frame); // the part outside the picture
          for (const o of placed) hard += overlap(box, o);
          let soft = Math.abs(step) * 2 + ring * 3;
          for (const o of obstacles) {
            const v = overlap(box, o);
            if (o.weight) soft += v * o.weight;
            else hard += v;
          }
          const cost = hard * HARD + soft;
          if (!best || cost < best.cost) best = { box, cost, ring, hard };
        }
        if (best.cost < HARD) break; // nothing hard in the way: nearer rings win
      }
      total += best.cost;
      clash += best.hard;
      placed.push(best.box);
      const b = best.box;
      if (best.ring > RINGS[2]) {
        // far from its point: a thin leader from the point to the nearest point of the box
        const nx = Math.max(b.x + 4, Math.min(lab.at.x, b.x + b.w - 4)),
          ny = Math.max(b.y + 4, Math.min(lab.at.y, b.y + b.h - 4));
        const len = Math.hypot(nx - lab.at.x, ny - lab.at.y) || 1;
        const sx = lab.at.x + ((nx - lab.at.x) * lab.clear) / len,
          sy = lab.at.y + ((ny - lab.at.y) * lab.clear) / len;
        out.push(
          el('path', {
            class: `leader ${lab.cls}`,
            d: `M${sx.toFixed(1)},${sy.toFixed(1)}L${nx.toFixed(1)},${ny.toFixed(1)}`,
          }),
        );
      }
      lab.lines.forEach((line, i) =>
        out.push(
          el(
            'text',
            { class: `label ${lab.cls}`, x: (b.x + 4).toFixed(1), y: (b.y + 4 + (i + 1) * LINE - 3).toFixed(1) },
            line,
          ),
        ),
      );
    }
    return { out, total, clash, placed };
  }

  /**
   * Labels around their points: each tries 16 directions from its preferred one
   * at growing distances and takes the cheapest: nothing over another label, a
   * point or the picture's edge if at all possible, then as near and as little
   * over a line as may be; far ones get a leader line. Greedy, so a few orders
   * are tried (by rank, then the mean's axis first, then the points first) and
   * the cheapest whole placement is drawn.
   */
  _placeLabels(labels, obstacles, W, H) {
    const byRank = [...labels].sort((a, b) => a.rank - b.rank);
    const orders = [
      byRank,
      [...byRank.filter((l) => l.cls === 'ones'), ...byRank.filter((l) => l.cls !== 'ones')],
      [...byRank.filter((l) => l.cls !== 'input'), ...byRank.filter((l) => l.cls === 'input')],
    ];
    let best = null;
    for (const order of orders) {
      const r = this._placeOrder(order, obstacles, W, H);
      if (!best || r.total < best.total) best = r;
      if (best.clash === 0) break; // nothing over anything: no need to try another order
    }
    this._labelBoxes = best.placed;
    return best.out;
  }

  _drawLegend(s) {
    const item = (cls, text) => {
      const span = el('li');
      span.append(el('span', { class: `swatch ${cls}` }), text);
      return span;
    };
    this._legend.replaceChildren(
      item('l2', this.t('legendL2', { r: this.num(s.radii.l2) })),
      item('rms_norm', this.t('legendRms', { r: this.num(s.radii.rms_norm) })),
      item('layer_norm', this.t('legendLn')),
      item('drop', this.t('legendDrop')),
      // the arrows are directions: one length for all three inputs, whose lengths differ (47-fold by default)
      item(
        'input',
        this.t('legendArrows', {
          list: ['x', 'shifted', 'scaled']
            .map((k) => `‖${this.inputName(k, s)}‖₂ = ${this.num(s.inputs[k].norm)}`)
            .join(this.t('listSep')),
        }),
      ),
    );
  }

  _drawTable(s) {
    const head = el('tr');
    head.append(el('th', { scope: 'col' }, this.t('nameColumn')), el('th', { scope: 'col' }, this.t('inputColumn')));
    head.append(el('th', { scope: 'col' }, this.t('normColumn')));
    for (const m of METHODS) head.append(el('th', { scope: 'col' }, this.t(m)));
    const thead = el('thead');
    thead.append(head);
    const body = el('tbody');
    for (const k of INPUTS) {
      const q = s.inputs[k];
      const tr = el('tr');
      // data-label: the column's name, shown beside the value where the rows stack (a narrow figure)
      tr.append(
        el('th', { scope: 'row' }, this.inputName(k, s)),
        el('td', { class: 'coords', 'data-label': this.t('inputColumn') }, this.tuple(q.input)),
        el('td', { class: 'norm', 'data-label': this.t('normColumn') }, this.num(q.norm)),
      );
      for (const m of METHODS) tr.append(el('td', { class: m, 'data-label': this.t(m) }, this.tuple(q[m])));
      body.append(tr);
    }
    this._table.replaceChildren(el('caption', {}, this.t('tableCaption')), thead, body);
  }
}
NlNormGeometry.defineProperties();

// The figure's strings, English and Chinese (t(key); a language added with registerLocale overrides them).
NlNormGeometry.strings = {
  en: {
    name: 'L2 normalization, RMSNorm and LayerNorm as geometry in 3-D',
    vector: 'Vector x',
    offset: 'Shift added to every coordinate',
    scale: 'Factor multiplying x',
    eps: 'eps',
    yaw: 'Turn',
    pitch: 'Tilt',
    reset: 'Reset',
    hint: 'Drag the picture, or focus it and use the arrow keys, to turn it.',
    viewLabel:
      'x, x + offset and scale · x with their L2, RMSNorm and LayerNorm outputs in 3-D, turned {yaw}° and tilted {pitch}°; the arrow keys turn the view',
    l2: 'L2',
    rms_norm: 'RMSNorm',
    layer_norm: 'LayerNorm',
    scaledName: '{s}x',
    shiftedName: 'x + {o}',
    shiftedNameMinus: 'x − {o}',
    inputLabel: '{name} = {value}',
    onesLabel: '(1, 1, 1):',
    onesNote: 'direction of the mean',
    dotLabel: '{method}({inputs})',
    dotLabelAll: '{method}: all three inputs',
    and: ' and ',
    listSep: ', ',
    legendL2: 'L2 output: on the unit sphere (radius {r})',
    legendRms: 'RMSNorm output: on the sphere of radius √3 = {r}',
    legendLn: 'LayerNorm output: on the circle where the plane ⊥ (1, 1, 1) cuts that sphere',
    legendDrop: 'dashed: the mean taken away (the part along (1, 1, 1))',
    legendArrows: 'arrows: the inputs’ directions, all drawn one length, not to scale ({list})',
    tableCaption: 'The three inputs and their outputs, rounded to 4 significant digits',
    nameColumn: 'input',
    inputColumn: 'coordinates',
    normColumn: '‖·‖₂',
    describeInputs: 'Inputs: x = {x}, {shiftedName} = {shifted} and {scaledName} = {scaled}.',
    actionScale: 'Multiplying x by {s}',
    actionAdd: 'Adding {o} to every coordinate',
    actionSubtract: 'Subtracting {o} from every coordinate',
    noneMovedScale: '{action} changes none of the three outputs: {name} points the same way as x.',
    noneMoved: '{action} changes none of the three outputs.',
    dirTowards: 'toward (1, 1, 1)',
    dirAway: 'away from (1, 1, 1)',
    dirAround: 'around (1, 1, 1)',
    lnStays:
      "{action} moves the L2 and RMSNorm outputs {direction} (the angle to (1, 1, 1) goes from {from}° to {to}°), but LayerNorm's output stays at {ln}: LayerNorm removes the component along (1, 1, 1), the mean, before it scales.",
    moved: '{action} moves the output of {names}',
    turn: ' (the input turns {direction}: its angle to (1, 1, 1) goes from {from}° to {to}°)',
    stayed: '; the output of {names} does not move',
    period: '.',
    space: ' ',
  },
  zh: {
    name: 'L2 normalization、RMSNorm 与 LayerNorm 的三维几何',
    vector: '向量 x',
    offset: '加到每个坐标上的偏移',
    scale: '乘到 x 上的倍数',
    eps: 'eps',
    yaw: '水平转角',
    pitch: '俯仰角',
    reset: '重置',
    hint: '拖动图形，或聚焦后按方向键，即可旋转视角。',
    viewLabel:
      'x、x + offset 与 scale · x 及其 L2、RMSNorm、LayerNorm 输出的三维图，水平转角 {yaw}°，俯仰角 {pitch}°；方向键可旋转视角',
    l2: 'L2',
    rms_norm: 'RMSNorm',
    layer_norm: 'LayerNorm',
    scaledName: '{s}x',
    shiftedName: 'x + {o}',
    shiftedNameMinus: 'x − {o}',
    inputLabel: '{name} = {value}',
    onesLabel: '(1, 1, 1)：',
    onesNote: 'mean 的方向',
    dotLabel: '{method}({inputs})',
    dotLabelAll: '{method}：三个输入都落在这里',
    and: ' 与 ',
    listSep: '、',
    legendL2: 'L2 输出：在单位球面上（半径 {r}）',
    legendRms: 'RMSNorm 输出：在半径 √3 = {r} 的球面上',
    legendLn: 'LayerNorm 输出：在垂直于 (1, 1, 1) 的平面与该球面相交的圆上',
    legendDrop: '虚线：去掉 mean（沿 (1, 1, 1) 的分量）',
    legendArrows: '箭头：只表示输入的方向，画成同一长度，不按比例（{list}）',
    tableCaption: '三个输入及其输出，四舍五入到 4 位有效数字',
    nameColumn: '输入',
    inputColumn: '坐标',
    normColumn: '‖·‖₂',
    describeInputs: '输入：x = {x}，{shiftedName} = {shifted}，{scaledName} = {scaled}。',
    actionScale: '把 x 乘以 {s}',
    actionAdd: '每个坐标加 {o}',
    actionSubtract: '每个坐标减 {o}',
    noneMovedScale: '{action}，三个输出都不变：{name} 与 x 方向相同。',
    noneMoved: '{action}，三个输出都不变。',
    dirTowards: '移向 (1, 1, 1)',
    dirAway: '远离 (1, 1, 1)',
    dirAround: '绕 (1, 1, 1) 转动',
    lnStays:
      '{action}，L2 与 RMSNorm 的输出 {direction}（与 (1, 1, 1) 的夹角从 {from}° 变为 {to}°），LayerNorm 的输出却停在 {ln}：LayerNorm 先去掉沿 (1, 1, 1) 的分量，也就是 mean，再做缩放。',
    moved: '{action}，{names} 的输出改变',
    turn: '（输入 {direction}：与 (1, 1, 1) 的夹角从 {from}° 变为 {to}°）',
    stayed: '；{names} 的输出不变',
    period: '。',
    space: '',
  },
};
