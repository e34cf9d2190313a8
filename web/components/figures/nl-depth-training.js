// <nl-depth-training> — a deep residual network trained in the page by the
// core, four ways at once: no normalization, Post-Norm, Pre-Norm and Pre-Norm
// with a final norm, on the same seeded start and the same two-spiral data.
// The reader picks the depth, the learning rate, the optimizer and the gate,
// or a preset, and presses Play: the loss curves grow side by side (the default
// settings open on their recorded run, web/components/data/depth-training-frame.js
// from scripts/gen-training-frame.mjs, which Play trains again step for step), and the
// panels show the gradient reaching each layer at the first step (Post-Norm's
// fades toward the input) and the size of the residual stream at each layer
// now (Pre-Norm's grows with depth).
//
// Attributes: depth (24; 1..32), lr (0.06; 0.001..0.2), optimizer (sgd | adam),
//   gate (none | zero | layer_scale), norm (layer_norm | rms_norm), warmup
//   (steps of linear learning-rate warm-up, 0; 0..200), steps (the
//   run's length, 300; 10..2000), seed (1), lang.
// Properties: those; state (read-only): {depth, lr, optimizer, gate, norm,
//   steps, seed, variants: [{placement, enabled (its Compare box), loss: [...], status ('training' |
//   'done' | 'diverged'), accuracy, gradFirst: [...] (|dL/dh_l| at step 1,
//   l = 0..depth), actNorm: [...] (RMS of h_l at the last step)}], step (the
//   steps taken by the furthest variant), playing, chance (ln 2, the loss of a
//   coin flip), axes, error}.
// Methods: play(), pause(), stepOnce(), reset().
// Events: change (the reader changed a setting, a preset, or reset).
// Keyboard: every control; Play/Pause, Step and Reset are buttons.
// Colours: --nl-reference no normalization (and the chance line), the chosen
//   norm's colour (--nl-layer-norm or --nl-rms-norm) Post-Norm, whose stream
//   is the norm's output (dashed), --nl-input Pre-Norm, --nl-fg Pre-Norm with a
//   final norm (dotted): four colours apart in light, dark and colour-blind
//   vision. Loss, gradient and stream RMS on log axis. The data and the
//   decision map are drawn in the text colour: class 0 hollow, class 1 filled,
//   shading darker where the network gives class 1.
// Parts: figure, controls, slider, number, select, button, view, description, error.
// Numbers from the core: train_data, train_init, train_step (every loss,
//   gradient and activation norm) and train_predict from the training module
//   (loadTrainer); row_entropy (ln 2), log_axis and axis_ticks from the core.
import { nextTask } from '../../core/normlab.js';
import { el, formatPower } from '../lib/base.js';
import { textWidth } from '../lib/text.js';
import { NlFigure, figureCss } from '../lib/figure.js';
import { scale, svg, xAxis, yAxis } from '../lib/plot.js';
import { FRAME } from '../data/depth-training-frame.js';

export const PLACEMENTS = ['none', 'post', 'pre', 'pre_final'];
export const POINTS = 128,
  WIDTH = 16;
/** The decision map's grid, 20 x 20 cell centres over [-1.25, 1.25]^2, from the ticks linspace gives. */
export function FRAME_GRID(ticks) {
  const grid = new Float32Array(2 * ticks.length * ticks.length);
  ticks.forEach((gy, r) => ticks.forEach((gx, c) => grid.set([gx, gy], 2 * (r * ticks.length + c))));
  return { shape: [ticks.length * ticks.length, 2], data: grid };
}
FRAME_GRID.ticks = { start: -1.25, stop: 1.25, count: 20 };
const fromBase64 = (s) => {
  const bytes = Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
  return Array.from(new Float32Array(bytes.buffer));
};
// The recorded run, decoded once: a figure that returns to the default settings draws the same arrays again, so
// its panels and axes are recognised as unchanged and not drawn or asked again
let recordedRun = null;
const decodedFrame = () =>
  (recordedRun ??= FRAME.variants.map((r) => ({
    placement: r.placement,
    accuracy: r.accuracy,
    diverged: r.diverged,
    loss: fromBase64(r.loss),
    gradFirst: fromBase64(r.gradFirst),
    actNorm: fromBase64(r.actNorm),
    map: fromBase64(r.map),
  })));
const STALL_STEPS = 50; // steps near a coin flip's loss before the text calls a run stuck
const PRESETS = {
  deep: { depth: 24, lr: 0.01, optimizer: 'adam', gate: 'none', warmup: 0 },
  zeroGate: { depth: 24, lr: 0.01, optimizer: 'adam', gate: 'zero', warmup: 0 },
  sgd: { depth: 24, lr: 0.1, optimizer: 'sgd', gate: 'none', warmup: 0 },
};

export class NlDepthTraining extends NlFigure {
  static catalog = 'depthTraining';
  static summary =
    'A deep residual network trained in the page four ways: no norm, Post-Norm, Pre-Norm, Pre-Norm + final norm.';
  static minHeight = 1024; // px kept by normlab/styles.css (measured at 960 px, default attributes)
  static phoneMinHeight = { en: 1984, zh: 1928 }; // px kept up to 600 px wide (measured at 360 px, default attributes)
  static stateDoc =
    '`variants` (per placement `none`, `post`, `pre`, `pre_final`: `loss` per step, `status`, `accuracy`, `gradFirst`, `actNorm`), `step`, `playing`, `chance`'; // `state` keys beyond the attributes (README)
  static trainer = true; // train_* come from the training module (loadTrainer), the rest from the core
  static params = {
    depth: {
      attr: 'depth',
      kind: 'number',
      integer: true,
      default: 24,
      min: 1,
      max: 32,
      step: 1,
      control: 'slider',
      doc: 'residual blocks',
    },
    lr: {
      attr: 'lr',
      kind: 'number',
      default: 0.06,
      min: 0.001,
      max: 0.2,
      step: 0.001,
      control: 'slider',
      doc: 'learning rate',
    },
    optimizer: {
      attr: 'optimizer',
      kind: 'choice',
      default: 'sgd',
      choices: ['adam', 'sgd'],
      control: 'select',
      doc: 'the optimizer',
    },
    gate: {
      attr: 'gate',
      kind: 'choice',
      default: 'none',
      choices: ['none', 'zero', 'layer_scale'],
      control: 'select',
      doc: 'what multiplies each residual branch',
    },
    norm: {
      attr: 'norm',
      kind: 'choice',
      default: 'layer_norm',
      choices: ['layer_norm', 'rms_norm'],
      control: 'select',
      doc: 'the normalization the placements use',
    },
    warmup: {
      attr: 'warmup',
      kind: 'number',
      integer: true,
      default: 0,
      min: 0,
      max: 200,
      step: 10,
      control: 'slider',
      doc: 'steps of linear learning-rate warm-up',
    },
    steps: {
      attr: 'steps',
      kind: 'number',
      integer: true,
      default: 300,
      min: 10,
      max: 2000,
      doc: "the run's length in steps",
    },
    seed: {
      attr: 'seed',
      kind: 'number',
      integer: true,
      default: 1,
      min: 0,
      max: 1e6,
      doc: 'seed of the data and the initial weights',
    },
  };
  static css = `${figureCss}
.dt-panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 360px), 1fr)); gap: 10px; }
.presets { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
input[type=checkbox] { width: 24px; height: 24px; margin: 0; flex: none; } /* a touch-sized target */
.run { display: flex; flex-wrap: wrap; gap: 6px; }
/* Four copies, four colours and three dash patterns: gray, the norm's colour (dashed), blue, and the text colour
   (dotted) for Pre-Norm + final, the one token that stays apart from the other three in light and dark and under
   simulated protan, deutan and tritan vision (CIELAB distance 34 or more, against 3 for the amber token). */
.v-none { stroke: var(--nl-reference); } .v-post { stroke: var(--nl-norm); } .v-pre { stroke: var(--nl-input); }
.v-pre_final { stroke: var(--nl-fg); }
.f-none { fill: var(--nl-reference); } .f-post { fill: var(--nl-norm); } .f-pre { fill: var(--nl-input); }
.f-pre_final { fill: var(--nl-fg); }
.series { fill: none; stroke-width: 2.2; }
.v-post.series { stroke-dasharray: 7 3; } .v-pre_final.series { stroke-dasharray: 2 3; stroke-width: 2.6; }
.cell { fill: var(--nl-fg); stroke: none; shape-rendering: crispEdges; }
/* the data: class 0 a ring, class 1 a filled dot with a halo, both in the data colour, which keeps 3:1 against the
   darkest and the lightest cell in light and dark (the cells' shade stops at 0.28 of the text colour for that) */
.pt0 { fill: var(--nl-bg); stroke: var(--nl-input); stroke-width: 1.6; }
.pt1 { fill: var(--nl-input); stroke: var(--nl-bg); stroke-width: 1; }
.chance { stroke: var(--nl-reference); stroke-dasharray: 3 3; stroke-width: 1.5; }
.chance-label { font-size: var(--nl-small-size); fill: var(--nl-reference); }
.key { font-size: var(--nl-small-size); }
.recorded { margin: 0 0 6px; font-size: 0.9em; }
.panel-note { margin: 2px 0 0; font-size: 0.85em; }
details.settings > summary { cursor: pointer; min-height: 44px; display: flex; align-items: center; font-weight: 600; }
details.settings > summary::before { content: '▸'; margin-inline-end: 6px; }
details.settings[open] > summary::before { content: '▾'; }
details.settings[open] > summary { margin-bottom: 6px; }
.controls { flex-direction: column; align-items: stretch; }
.settings-body { display: flex; flex-wrap: wrap; gap: 8px 18px; align-items: center; }
/* A phone: one setting a row, names in one column and every slider, box and menu lined up beside them;
   the presets two a row, the four Compare boxes two by two. */
@container (max-width: 600px) {
  .settings-body { display: grid; grid-template-columns: minmax(0, 1fr); gap: 8px; }
  .settings-body > .control { display: grid; grid-template-columns: minmax(min-content, 6em) minmax(0, 1fr) 4.5em; gap: 8px; }
  .settings-body > .control > select { grid-column: 2 / -1; width: 100%; }
  .settings-body > .control > input[type=range] { width: 100%; max-width: none; margin: 0; }
  .settings-body > .control > input[type=number] { width: 100%; }
  .settings-body > .control > .invalid-note { grid-column: 1 / -1; }
  .presets { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 6px 10px; }
  .presets > span:first-child { grid-column: 1 / -1; }
  .presets > button { padding-inline: 4px; }
  .presets > button:last-child:nth-child(even) { grid-column: 1 / -1; }
}
.cross { stroke-width: 2.5; }
`;

  constructor() {
    super();
    this._playing = false;
    this._frame = 0;
  }

  buildControls(outer) {
    // Play, Step and Reset first; the settings behind a disclosure, closed, so that the first screen shows
    // the picture; its summary says what they are now
    const run = el('div', { class: 'run' });
    outer.append(run);
    const details = el('details', { class: 'settings' });
    this._settingsSummary = el('summary');
    const box = el('div', { class: 'settings-body' });
    details.append(this._settingsSummary, box);
    this._settingsBox = details;
    outer.append(details);
    const presets = el('div', { class: 'presets' });
    this._presetLabel = el('span');
    presets.append(this._presetLabel);
    for (const [name, values] of Object.entries(PRESETS)) {
      presets.append(
        this.button(`preset_${name}`, () => {
          this.pause();
          for (const [k, v] of Object.entries(values)) {
            this._values[k] = v;
            this.reflect(this.constructor.params[k].attr, String(v));
            this._attrErrors.delete(k);
          }
        }),
      );
    }
    box.append(presets);
    // which copies train and are drawn: a view choice that neither stops nor restarts the others
    const compare = el('div', { class: 'presets', role: 'group' });
    this._compareLabel = el('span');
    compare.append(this._compareLabel);
    this._enabled = new Set(PLACEMENTS);
    this._checks = PLACEMENTS.map((p) => {
      const label = el('label', { class: 'control' });
      const box = el('input', { type: 'checkbox', part: 'checkbox', value: p });
      box.checked = true;
      box.addEventListener('change', () => {
        if (box.checked) this._enabled.add(p);
        else this._enabled.delete(p);
        const flag = (v) => ({ ...v, enabled: this._enabled.has(v.placement) });
        if (this._work) this._work = this._work.map(flag); // the copies a playing run is stepping
        if (this._state && !this._state.error) {
          this._state = Object.freeze({ ...this._state, variants: this._state.variants.map(flag) });
          this.render();
        }
        this.emitChange();
      });
      const text = el('span');
      label.append(box, text);
      compare.append(label);
      return { box, text, p };
    });
    this._compareGroup = compare;
    box.append(compare);
    super.buildControls(box);
    this._playButton = el('button', { type: 'button', part: 'button', 'aria-pressed': 'false' });
    this._playButton.addEventListener('click', () => (this._playing ? this.pause() : this.play()));
    const step = el('button', { type: 'button', part: 'button' });
    step.addEventListener('click', () => this.stepOnce());
    this._stepButton = step;
    run.append(
      this._playButton,
      step,
      this.button('reset', () => this.pause()),
    );
  }

  buildView(view) {
    this._note = el('p', { class: 'recorded muted' });
    const box = el('div', { class: 'dt-panels' });
    this._svgs = ['loss', 'grad', 'act', 'map'].map((k) => svg(320, 260, k));
    // the two per-layer panels each say in a line what they show, in numbers
    this._gradNote = el('p', { class: 'panel-note muted' });
    this._actNote = el('p', { class: 'panel-note muted' });
    const withNote = (svgEl, note) => {
      const d = el('div');
      d.append(svgEl, note);
      return d;
    };
    box.append(
      this._svgs[0],
      withNote(this._svgs[1], this._gradNote),
      withNote(this._svgs[2], this._actNote),
      this._svgs[3],
    );
    // which variant's decision map the fourth panel shows: a view choice, not a setting (training goes on)
    const label = el('label', { class: 'control' });
    this._showText = el('span');
    this._showSelect = el('select', { part: 'select' });
    for (const p of PLACEMENTS) this._showSelect.append(el('option', { value: p }));
    // Pre-Norm by default: the map of a copy that learned shows what the task is; the loss curves show who did not
    this._showSelect.value = this._show = 'pre';
    this._showSelect.addEventListener('change', () => {
      this._show = this._showSelect.value;
      if (this._state && !this._state.error) {
        this._state = Object.freeze({ ...this._state, ...this._decision() });
        this.render();
      }
    });
    label.append(this._showText, this._showSelect);
    view.append(this._note, box, label);
    this.pauseWhenHidden(); // training stops when the figure leaves the screen
  }

  disconnectedCallback() {
    this.pause();
    super.disconnectedCallback();
  }

  languageChanged() {
    this._compareLabel.textContent = this.t('compare');
    this._compareGroup.setAttribute('aria-label', this.t('compare'));
    for (const c of this._checks) c.text.textContent = this.t(`v_${c.p}`);
    this._showText.textContent = this.t('show');
    this._showSelect.setAttribute('aria-label', this.t('show'));
    for (const o of this._showSelect.options) o.textContent = this.t(`v_${o.value}`);
    this._presetLabel.textContent = this.t('presets');
    this._stepButton.textContent = this.t('step');
    this._syncSummary(this._values);
    this._syncPlay();
  }

  _syncPlay() {
    if (!this._playButton) return;
    this._playButton.textContent = this.t(this._playing ? 'pause' : 'play');
    this._playButton.setAttribute('aria-pressed', String(this._playing));
  }

  _model(s, placement) {
    return { depth: s.depth, width: WIDTH, placement, norm: s.norm, gate: s.gate };
  }

  compute(core, v) {
    this.pause();
    const data = this._trainer.run('train_data', {}, { count: POINTS, seed: v.seed });
    this._data = data;
    // The copies' weights are drawn when training starts (Play or Step), not here: a figure nobody
    // trains holds no parameters or optimizer state.
    this._runs = null;
    const ticks = this.op('linspace', {}, FRAME_GRID.ticks);
    this._grid = FRAME_GRID(ticks);
    const coin = core.run('row_entropy', { p: { shape: [1, 2], data: new Float32Array([0.5, 0.5]) } }).entropy.data[0];
    // The default settings open on their recorded run (scripts/gen-training-frame.mjs, the same training
    // module): finished curves without pressing Play. Play and Step train it again, live.
    const live = this._goLive;
    this._goLive = false;
    const recorded = !live && FRAME && Object.entries(FRAME.settings).every(([k, d]) => v[k] === d);
    this._recordedMaps = null; // (the base state's map is the data alone)
    const base = {
      variants: PLACEMENTS.map((placement) => ({
        placement,
        enabled: this._enabled?.has(placement) ?? true,
        loss: [],
        status: 'training',
        accuracy: 0,
        gradFirst: [],
        actNorm: [],
        lossLog: [],
        gradLog: [],
        actLog: [],
      })),
      lossAxis: null,
      gradAxis: null,
      actAxis: null,
      chanceLog: null,
      step: 0,
      playing: false,
      chance: coin,
      gridTicks: ticks,
      points: Array.from(data.x.data),
      labels: Array.from(data.labels.data),
      ...this._decision(v),
      stepAxis: this.axis([0, v.steps], { count: 5, include_zero: true }),
      layerAxis: this.axis([0, v.depth], { count: Math.min(6, v.depth), include_zero: true }),
      recorded: Boolean(recorded),
    };
    if (!recorded) return base;
    const frame = decodedFrame();
    this._recordedMaps = frame.map((r) => r.map);
    const variants = frame.map((r) => ({
      placement: r.placement,
      enabled: this._enabled?.has(r.placement) ?? true,
      loss: r.loss,
      accuracy: r.accuracy,
      status: r.diverged ? 'diverged' : 'done',
      gradFirst: r.gradFirst,
      actNorm: r.actNorm,
    }));
    const s = this._withVariants({ ...v, ...base }, variants);
    return { ...s, ...this._decision(s) };
  }

  /** The copies' seeded starting weights and empty optimizer states, made once per run. */
  _ensureRuns(s) {
    this._runs ??= PLACEMENTS.map((placement) => {
      const start = this._trainer.run('train_init', {}, { ...this._model(s, placement), seed: s.seed });
      return { placement, params: start.params, state: start.state };
    });
    return this._runs;
  }

  /** `n` steps of variant i from its run; a new variant record. */
  _stepVariant(s, vs, i, n) {
    const run = this._ensureRuns(s)[i];
    const out = this._trainer.run(
      'train_step',
      { params: run.params, state: run.state, x: this._data.x, labels: this._data.labels },
      { ...this._model(s, vs.placement), steps: n, optimizer: s.optimizer, lr: s.lr, warmup: s.warmup },
    );
    run.params = out.params;
    run.state = out.state;
    const loss = vs.loss.concat(Array.from(out.loss.data));
    return {
      placement: vs.placement,
      enabled: true,
      loss,
      accuracy: out.accuracy.data[0],
      status: out.status.data[0] === 1 ? 'diverged' : loss.length >= s.steps ? 'done' : 'training',
      gradFirst: vs.gradFirst.length ? vs.gradFirst : Array.from(out.grad_norm.data),
      actNorm: Array.from(out.act_norm.data),
    };
  }

  /** Up to `k` steps of every variant still training (the Step button); the state is rebuilt and drawn. */
  _advance(k) {
    const s = this._state;
    if (!s || s.error) return false;
    const variants = s.variants.map((vs, i) =>
      vs.status !== 'training' || !vs.enabled ? vs : this._stepVariant(s, vs, i, Math.min(k, s.steps - vs.loss.length)),
    );
    return this._publish(variants, true);
  }

  /** A new state from the variants (axes from the core), the decision map when asked, and one drawing. */
  _publish(variants, withMap) {
    this._state = Object.freeze(this._withVariants(this._state, variants));
    // the map after the state, so that its step is the step its parameters have reached
    if (withMap) this._state = Object.freeze({ ...this._state, ...this._decision() });
    this.render();
    return variants.some((v) => v.enabled && v.status === 'training');
  }

  /** State `s` with `variants`, their logarithms and the axes (from the core). */
  _withVariants(s, variants) {
    const step = Math.max(...variants.map((v) => v.loss.length));
    // loss, gradient and the stream's RMS on logarithmic axes (the core's log_axis): they span many decades
    // (a stream of RMS 1 beside one of 10⁹ is a flat line at zero on a linear axis)
    // asked again only when its lists changed: the recorded run's arrays keep their identity
    const memo = (this._logMemo ??= {});
    const logs = (kind, lists, extra = []) => {
      const hit = memo[kind];
      if (
        hit &&
        hit.lists.length === lists.length &&
        hit.lists.every((l, i) => l === lists[i] && l.length === hit.lengths[i]) &&
        hit.extra.join() === extra.join()
      )
        return hit.out;
      const out = compute(lists, extra);
      memo[kind] = { lists, lengths: lists.map((l) => l.length), extra, out };
      return out;
    };
    const compute = (lists, extra) => {
      const flat = Float32Array.from([...lists.flat(), ...extra]);
      const out = this._core.run('log_axis', { x: { shape: [flat.length], data: flat } }, { count: 5 });
      const y = Array.from(out.y.data);
      let at = 0;
      const split = lists.map((l) => y.slice(at, (at += l.length)));
      return {
        split,
        extra: y.slice(at),
        axis: { domain: Array.from(out.domain.data), ticks: Array.from(out.ticks.data) },
      };
    };
    const loss = logs(
      'loss',
      variants.map((v) => v.loss),
      [s.chance],
    );
    // the first step's gradients and their axis do not change after it: computed once
    const grad =
      s.gradAxis && variants.every((v, i) => v.gradFirst === s.variants[i].gradFirst)
        ? { split: s.variants.map((v) => v.gradLog), axis: s.gradAxis }
        : logs(
            'grad',
            variants.map((v) => v.gradFirst),
          );
    const act = logs(
      'act',
      variants.map((v) => v.actNorm),
    );
    return {
      ...s,
      step,
      playing: this._playing,
      variants: variants.map((v, i) => ({
        ...v,
        lossLog: loss.split[i],
        gradLog: grad.split[i],
        actLog: act.split[i],
      })),
      chanceLog: loss.extra[0],
      lossAxis: loss.axis,
      gradAxis: grad.axis,
      actAxis: act.axis,
    };
  }

  /** The shown variant's probability of class 1 at each grid cell (train_predict). */
  _decision(v = this._state) {
    const i = PLACEMENTS.indexOf(this._show ?? 'pre');
    if (!this._runs && this._recordedMaps)
      return { show: PLACEMENTS[i], map: this._recordedMaps[i], mapStep: v.variants[i].loss.length };
    if (!this._runs) return { show: PLACEMENTS[i], map: [], mapStep: 0 }; // nothing trained yet: the data alone
    const p = this._trainer.run(
      'train_predict',
      { params: this._runs[i].params, points: this._grid },
      this._model(v, PLACEMENTS[i]),
    ).p;
    return { show: PLACEMENTS[i], map: Array.from(p.data), mapStep: v.variants?.[i]?.loss.length ?? 0 };
  }

  /** From the recorded frame, a fresh live run of the same settings (Play and Step train it again). */
  _leaveRecorded() {
    if (!this._state?.recorded || this._state.error) return;
    this._goLive = true;
    this.updateNow();
  }

  play() {
    if (this._playing || !this._state || this._state.error) return;
    this._leaveRecorded();
    if (!this._state.variants.some((v) => v.enabled && v.status === 'training')) return;
    this._playing = true;
    this._syncPlay();
    // Training runs in tasks of about 6 ms (single steps of the copies in turn), each followed by
    // a yield, so a reader's input waits at most for one of them; the charts are drawn at most
    // every 100 ms (drawing and painting every frame cost more than the steps), and the decision
    // map every 10 steps.
    let next = 0,
      mapAt = this._state.step,
      drawn = performance.now();
    this._work = [...this._state.variants];
    const tick = () => {
      if (!this._playing) return;
      let more = false;
      try {
        const s = this._state,
          work = this._work;
        const step = Math.max(...work.map((v) => v.loss.length));
        more = work.some((v) => v.enabled && v.status === 'training');
        if (!more || performance.now() - drawn > 100) {
          // a task that only draws (and, every 10 steps, another that only maps): none of them long
          if (more && step - mapAt >= 10 && !this._mapDue) this._mapDue = true;
          this._publish(work, !more);
          this._work = [...this._state.variants];
          drawn = performance.now();
        } else if (this._mapDue) {
          this._mapDue = false;
          mapAt = step;
          this._state = Object.freeze({ ...s, ...this._decision() });
          this.render();
        } else {
          const t0 = performance.now();
          for (let tries = 0; tries < work.length && performance.now() - t0 < 6;) {
            const i = next++ % work.length,
              v = work[i];
            if (!v.enabled || v.status !== 'training') {
              tries++;
              continue;
            }
            tries = 0;
            work[i] = this._stepVariant(s, v, i, 1);
          }
          more = true; // the next task draws what this one did, finished or not
        }
      } catch (e) {
        this._showCoreError(e);
      }
      if (more) this._frame = nextTask(tick);
      else this.pause();
    };
    this._frame = nextTask(tick);
  }

  pause() {
    if (this._frame) this._frame();
    this._frame = 0;
    if (!this._playing) return;
    this._playing = false;
    this._syncPlay();
    // steps taken since the last drawing are shown now
    if (this._work && this._state && !this._state.error && this._work.some((v, i) => v !== this._state.variants[i]))
      this._publish(this._work, true);
    this._work = null;
    if (this._state) this._state = Object.freeze({ ...this._state, playing: false });
  }

  stepOnce() {
    this.pause();
    if (!this._core) return;
    try {
      this._leaveRecorded();
      this._advance(1);
    } catch (e) {
      this._showCoreError(e);
    }
  }

  /** A core error while training (Step or Play): shown in the reader's language, the last drawing kept. */
  _showCoreError(e) {
    this._coreError = this.coreMessage(e);
    this.render();
  }

  reset() {
    this.pause();
    this.refresh();
    this.emitChange();
  }

  /** Under the per-layer panels, their numbers in words: the gradient at the input and at the top at the
   * first step, and the stream's RMS at the top now, per copy shown. */
  _panelNotes(s) {
    const on = s.variants.filter((v) => v.enabled && v.gradFirst.length && v.actNorm.length);
    this._gradNote.textContent = on.length
      ? this.t('gradNote', {
          list: this._list(
            on.map((v) =>
              this.t('gradItem', {
                name: this._label(v.placement),
                a: this._loss(v.gradFirst[0]),
                b: this._loss(v.gradFirst.at(-1)),
              }),
            ),
          ),
        })
      : '';
    this._actNote.textContent = on.length
      ? this.t('actNote', {
          list: this._list(
            on.map((v) => this.t('actItem', { name: this._label(v.placement), v: this._loss(v.actNorm.at(-1)) })),
          ),
        })
      : '';
  }

  _label(p) {
    return this.t(`v_${p}`);
  }

  /** Names joined as the reader's language lists them ("A, B and C"; "A、B 和 C"). */
  _list(names) {
    if (names.length < 2) return names.join('');
    return names.slice(0, -1).join(this.t('listSep')) + this.t('listAnd') + names.at(-1);
  }

  /** A loss as the reader reads it: 3 significant digits, in powers of ten once it has blown up. */
  _loss(v) {
    return v >= 1e5 ? formatPower(v, this.lang, 3) : this.fmt(v, 3);
  }

  /** The closed settings say what they are: the values the curves were trained with. */
  _syncSummary(v) {
    this._settingsSummary.textContent = this.t('settingsNow', {
      L: v.depth,
      opt: this.t(`choice_${v.optimizer}`),
      lr: this.fmt(v.lr, 3),
      norm: this.t(`choice_${v.norm}`),
    });
  }

  draw(s) {
    const f = (v) => this.fmt(v, 3);
    this._syncSummary(s);
    // what the curves are: the recorded run, or trained here (the line stays, so the figure keeps its height)
    this._note.textContent = this.t(s.recorded ? 'recordedNote' : s.step ? 'liveNote' : 'idleNote', {
      k: s.step,
      n: s.steps,
    });
    this._view.style.setProperty('--nl-norm', s.norm === 'rms_norm' ? 'var(--nl-rms-norm)' : 'var(--nl-layer-norm)');
    // Panels whose content did not change are not drawn again (the map and the first step's gradients
    // change rarely while training runs; drawing them every frame took half a frame).
    const same = (key, parts) => {
      const last = (this._drawn ??= {})[key];
      this._drawn[key] = parts;
      return last && parts.length === last.length && parts.every((p, i) => p === last[i]);
    };
    const axisKey = (a) => (a ? a.domain.join() + '|' + a.ticks.join() : '');
    const [W0, W1, W2, W3] = this._svgs.map((e) => this.widthOf(e));
    const seriesKey = (key) => s.variants.flatMap((v) => [v.enabled, v.status, v[key]]);
    // 1. loss against step (log scale), every variant; a cross where a run diverged
    if (
      !same('loss', [
        s.lossAxis,
        s.chanceLog,
        s.step,
        this.lang,
        W0,
        axisKey(s.stepAxis),
        ...seriesKey('lossLog'),
        ...s.variants.map((v) => v.accuracy),
      ])
    ) {
      const svgEl = this._svgs[0];
      const W = this.fit(svgEl, 320, 260);
      const left = 46,
        right = 10,
        top = 96,
        bottom = 220;
      const x = scale(s.stepAxis.domain, [left, W - right]);
      const items = [xAxis(s.stepAxis.ticks, x, top, bottom, (v) => this.fmt(v, 4))];
      if (s.lossAxis) {
        const y = scale(s.lossAxis.domain, [bottom, top]);
        items.push(yAxis(s.lossAxis.ticks, y, left, W - right, (k) => this._decade(k)));
        items.push(
          el('line', {
            class: 'chance',
            x1: left,
            x2: W - right,
            y1: y(s.chanceLog).toFixed(1),
            y2: y(s.chanceLog).toFixed(1),
          }),
        );
        items.push(
          el(
            'text',
            { class: 'chance-label', x: W - right, y: (y(s.chanceLog) - 5).toFixed(1), 'text-anchor': 'end' },
            this.t('chance', { v: f(s.chance) }),
          ),
        );
        for (const v of s.variants) {
          if (!v.enabled || !v.lossLog.length) continue;
          items.push(
            el('path', {
              class: `series v-${v.placement}`,
              d: this._path(v.lossLog, [W, axisKey(s.stepAxis), axisKey(s.lossAxis)], (l, i) => [x(i + 1), y(l)]),
            }),
          );
          // after one step a line has one point and draws nothing: a dot shows it
          if (v.lossLog.length === 1)
            items.push(
              el('circle', { class: `f-${v.placement}`, cx: x(1).toFixed(1), cy: y(v.lossLog[0]).toFixed(1), r: 3.5 }),
            );
          if (v.status === 'diverged') {
            const cx = x(v.loss.length),
              cy = y(v.lossLog[v.lossLog.length - 1]);
            items.push(
              el('path', {
                class: `cross v-${v.placement}`,
                d: `M${cx - 6},${cy - 6}L${cx + 6},${cy + 6}M${cx - 6},${cy + 6}L${cx + 6},${cy - 6}`,
              }),
            );
          }
        }
      } else {
        items.push(
          el(
            'text',
            { class: 'tick', x: (left + W - right) / 2, y: (top + bottom) / 2, 'text-anchor': 'middle' },
            this.t('notYet'),
          ),
        );
      }
      items.push(el('text', { class: 'panel-title', x: left, y: 16 }, this.t('lossTitle', { k: s.step })));
      // the key: a variant a line, each with its line's colour and dashes
      s.variants.forEach((v, i) => {
        const last = v.loss.length ? this._loss(v.loss[v.loss.length - 1]) : '–';
        const text = !v.enabled
          ? this.t('keyOff', { name: this._label(v.placement) })
          : v.status === 'diverged'
            ? this.t('keyDiverged', { name: this._label(v.placement), k: v.loss.length + 1 })
            : this.t('key', { name: this._label(v.placement), v: last });
        // a sample of the copy's line, in its colour and dashes
        const ky = 34 + 14 * i;
        items.push(el('line', { class: `series v-${v.placement}`, x1: left, x2: left + 24, y1: ky - 4, y2: ky - 4 }));
        items.push(el('text', { class: `key f-${v.placement}`, x: left + 30, y: ky }, text));
      });
      items.push(
        el(
          'text',
          { class: 'tick', x: (left + W - right) / 2, y: bottom + 30, 'text-anchor': 'middle' },
          this.t('stepAxis'),
        ),
      );
      svgEl.setAttribute('viewBox', `0 0 ${W} 260`);
      svgEl.replaceChildren(...items);
    }
    // 2 and 3. per layer: the gradient at step 1 (log scale), the stream's RMS now
    const perLayer = (svgEl, title, key, axisDef, fmtTick) => {
      const W = this.fit(svgEl, 320, 260);
      const left = 46,
        right = 10,
        top = 40,
        bottom = 220;
      const items = [el('text', { class: 'panel-title', x: left, y: 16 }, title)];
      if (axisDef) {
        const x = scale(s.layerAxis.domain, [left, W - right]),
          y = scale(axisDef.domain, [bottom, top]);
        items.push(
          yAxis(axisDef.ticks, y, left, W - right, fmtTick),
          xAxis(s.layerAxis.ticks, x, top, bottom, (v) => this.fmt(v, 4)),
        );
        for (const v of s.variants) {
          const vals = v[key];
          if (!v.enabled || !vals.length) continue;
          items.push(
            el('path', {
              class: `series v-${v.placement}`,
              d: this._path(vals, [W, axisKey(s.layerAxis), axisKey(axisDef)], (g, l) => [x(l), y(g)]),
            }),
          );
        }
      } else {
        items.push(
          el(
            'text',
            { class: 'tick', x: (left + W - right) / 2, y: (top + bottom) / 2, 'text-anchor': 'middle' },
            this.t('notYet'),
          ),
        );
      }
      items.push(
        el(
          'text',
          { class: 'tick', x: (left + W - right) / 2, y: bottom + 30, 'text-anchor': 'middle' },
          this.t('layerAxis'),
        ),
      );
      svgEl.setAttribute('viewBox', `0 0 ${W} 260`);
      svgEl.replaceChildren(...items);
    };
    if (!same('grad', [s.gradAxis, this.lang, W1, axisKey(s.layerAxis), ...seriesKey('gradLog')]))
      perLayer(this._svgs[1], this.t('gradTitle'), 'gradLog', s.gradAxis, (k) => this._decade(k));
    if (!same('act', [s.actAxis, s.step, this.lang, W2, axisKey(s.layerAxis), ...seriesKey('actLog')]))
      perLayer(this._svgs[2], this.t('actTitle', { k: s.step }), 'actLog', s.actAxis, (k) => this._decade(k));
    this._panelNotes(s);
    // 4. the data and the shown variant's decision map. Its cells and points are made once per width, language
    // and data; choosing another copy's map, or a new step, only sets the cells' shades and the title.
    if (!same('map', [s.map, s.mapStep, s.show, this.lang, W3])) {
      const svgEl = this._svgs[3];
      const t = s.gridTicks;
      const m = this._mapNodes;
      const fresh =
        !m ||
        m.W !== W3 ||
        m.lang !== this.lang ||
        m.n !== t.length ||
        m.points.length !== s.points.length ||
        m.points.some((p, i) => p !== s.points[i]) ||
        m.labels.some((l, i) => l !== s.labels[i]);
      if (fresh) this._mapNodes = this._buildMap(svgEl, s);
      const nodes = this._mapNodes;
      nodes.title.textContent = this.t('mapTitle', { name: this._label(s.show), k: s.mapStep });
      // no map yet (nothing trained): the cells stay at the lightest shade, the data alone
      nodes.cellGroup.setAttribute('display', s.map.length ? 'inline' : 'none');
      if (s.map.length)
        nodes.cells.forEach((c, i) => {
          const o = (0.04 + 0.24 * s.map[i]).toFixed(3);
          if (nodes.shades[i] !== o) c.setAttribute('fill-opacity', (nodes.shades[i] = o));
        });
    }
  }

  /** The map panel's nodes for state `s`: title, key, a cell per grid point, a dot per data point. */
  _buildMap(svgEl, s) {
    const W = this.fit(svgEl, 320, 260);
    const side = Math.min(W - 20, 200),
      x0 = (W - side) / 2,
      y0 = 54;
    const t = s.gridTicks,
      cell = side / t.length;
    const x = scale([t[0] - (t[1] - t[0]) / 2, t[t.length - 1] + (t[1] - t[0]) / 2], [x0, x0 + side]);
    const y = scale([t[0] - (t[1] - t[0]) / 2, t[t.length - 1] + (t[1] - t[0]) / 2], [y0 + side, y0]);
    const title = el('text', { class: 'panel-title', x: 10, y: 16 });
    const items = [title];
    // the key draws the two marks as the data are drawn
    const k0 = this.t('mapKey0');
    items.push(
      el('circle', { class: 'pt0 key-mark', cx: 14, cy: 28, r: 3.2 }),
      el('text', { class: 'key', x: 21, y: 32 }, k0),
      el('circle', { class: 'pt1 key-mark', cx: 21 + textWidth(k0, 11) + 18, cy: 28, r: 3.7 }),
      el('text', { class: 'key', x: 21 + textWidth(k0, 11) + 25, y: 32 }, this.t('mapKey1')),
    );
    items.push(el('text', { class: 'key', x: 10, y: 46 }, this.t('mapKey2')));
    const cellGroup = el('g', { class: 'cells' });
    const cells = [];
    // cells tile exactly (each edge computed once, crisp): no seam, no overlap
    const ex = (k) => Number((x0 + k * cell).toFixed(2)),
      ey = (k) => Number((y0 + side - (k + 1) * cell).toFixed(2));
    for (let r = 0; r < t.length; r++)
      for (let c = 0; c < t.length; c++) {
        const rect = el('rect', {
          class: 'cell',
          x: ex(c),
          y: ey(r),
          width: (ex(c + 1) - ex(c)).toFixed(2),
          height: (ey(r - 1) - ey(r)).toFixed(2),
        });
        cells.push(rect);
      }
    cellGroup.append(...cells);
    items.push(cellGroup);
    for (let i = 0; i < s.labels.length; i++) {
      items.push(
        el('circle', {
          class: s.labels[i] ? 'pt1' : 'pt0',
          cx: x(s.points[2 * i]).toFixed(1),
          cy: y(s.points[2 * i + 1]).toFixed(1),
          r: s.labels[i] ? 3.1 : 2.6, // (the dot's halo takes half a pixel of its radius)
        }),
      );
    }
    svgEl.setAttribute('viewBox', `0 0 ${W} 260`);
    svgEl.replaceChildren(...items);
    return {
      W: this.widthOf(svgEl),
      lang: this.lang,
      n: t.length,
      points: s.points,
      labels: s.labels,
      title,
      cells,
      cellGroup,
      shades: [],
    };
  }

  /**
   * The path through `values` placed by `at(value, index)` → [x, y]; remembered per array and `key` (width, axes),
   * since a recorded run drawn again after a settings change has the same 300-point curves.
   */
  _path(values, key, at) {
    const k = key.join('/');
    const hit = (this._paths ??= new WeakMap()).get(values);
    if (hit?.k === k) return hit.d;
    const d = values
      .map((v, i) => {
        const [px, py] = at(v, i);
        return `${i ? 'L' : 'M'}${px.toFixed(1)},${py.toFixed(1)}`;
      })
      .join('');
    this._paths.set(values, { k, d });
    return d;
  }

  /** A tick of a logarithmic axis: the decade k as 10 to the k. */
  _decade(k) {
    const sup = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
    return `10${String(Math.round(k)).replace(/[-0-9]/g, (c) => sup[c])}`;
  }

  describe(s) {
    const f = (v) => this.fmt(v, 3);
    const parts = [
      this.t(s.warmup ? 'describeSetupWarmup' : 'describeSetup', {
        w: s.warmup,
        L: s.depth,
        lr: f(s.lr),
        opt: this.t(`choice_${s.optimizer}`),
        gate: this.t(`choice_${s.gate}`),
        norm: this.t(`choice_${s.norm}`),
        n: s.steps,
      }),
    ];
    const off = s.variants.filter((v) => !v.enabled).map((v) => this._label(v.placement));
    if (off.length) parts.push(this.t('describeOff', { list: off.join(this.t('listSep')) }));
    if (!s.step) {
      parts.push(this.t('describeIdle'));
      return parts.join(this.t('sentenceSep'));
    }
    parts.push(this.t(s.recorded ? 'describeRecorded' : 'describeLive'));
    for (const v of s.variants) {
      if (!v.enabled) continue;
      const last = v.loss[v.loss.length - 1] ?? 0;
      const k = v.loss.length;
      const vars = {
        name: this._label(v.placement),
        k,
        steps: this.t(k === 1 ? 'oneStep' : 'nSteps', { k }),
        v: this._loss(last),
        a: f(v.accuracy),
        c: f(s.chance),
      };
      if (v.status === 'diverged') parts.push(this.t('describeDiverged', { ...vars, k: v.loss.length + 1 }));
      else if (last > 10 * s.chance) parts.push(this.t('describeBlownUp', vars));
      // "stuck" only for a run that has had STALL_STEPS steps to leave the coin flip
      else if (last > 0.9 * s.chance && k >= STALL_STEPS) parts.push(this.t('describeStalled', vars));
      else parts.push(this.t('describeLoss', vars));
    }
    // a zero gate: every block starts as the identity, so at the first step the stream is the same at every layer
    if (s.gate === 'zero' && s.step === 1) {
      const same = s.variants.filter(
        (v) => v.enabled && v.actNorm.length && v.actNorm.every((a) => f(a) === f(v.actNorm[0])),
      );
      if (same.length)
        parts.push(
          this.t('describeIdentity', {
            names: this._list(same.map((v) => this._label(v.placement))),
            v: f(same[0].actNorm[0]),
          }),
        );
    }
    // what the run says about normalization: no norm training as well, or failing where a norm trains
    const on = s.variants.filter((v) => v.enabled && v.loss.length);
    const trained = (v) => v.status !== 'diverged' && v.loss[v.loss.length - 1] < 0.1 * s.chance;
    const none = on.find((v) => v.placement === 'none');
    const normed = on.filter((v) => v.placement !== 'none' && trained(v));
    if (none && s.step >= STALL_STEPS) {
      if (trained(none)) parts.push(this.t('describeNoneTrains'));
      else if (normed.length && (none.status === 'diverged' || none.loss[none.loss.length - 1] > 10 * s.chance))
        parts.push(this.t('describeNoneFails', { names: this._list(normed.map((v) => this._label(v.placement))) }));
    }
    if (on.length > 1 && on.every((v) => v.status !== 'training')) {
      const finite = on.filter((v) => v.status !== 'diverged');
      const best = finite.reduce((a, b) => (b.loss[b.loss.length - 1] < a.loss[a.loss.length - 1] ? b : a), finite[0]);
      if (best)
        parts.push(
          this.t('describeLowest', {
            name: this._label(best.placement),
            v: this._loss(best.loss[best.loss.length - 1]),
          }),
        );
    }
    const g = s.variants.find((v) => v.placement === 'post')?.gradFirst ?? [];
    if (s.variants.find((v) => v.placement === 'post')?.enabled && g.length > 1 && g[0] < g[g.length - 1] / 2)
      parts.push(this.t('describePostGrad', { g0: f(g[0]), gL: f(g[g.length - 1]) }));
    return parts.join(this.t('sentenceSep'));
  }
}

// The figure's strings, English and Chinese (t(key); a language added with registerLocale overrides them).
NlDepthTraining.strings = {
  en: {
    name: 'A deep residual network trained in the page, with and without normalization',
    depth: 'Depth (blocks)',
    lr: 'Learning rate',
    optimizer: 'Optimizer',
    gate: 'Gate on each branch',
    norm: 'Normalization',
    choice_adam: 'Adam',
    choice_sgd: 'SGD, momentum 0.9',
    choice_none: 'none (1)',
    choice_zero: 'zero at start (ReZero)',
    choice_layer_scale: 'LayerScale (0.1)',
    choice_layer_norm: 'LayerNorm',
    choice_rms_norm: 'RMSNorm',
    presets: 'Presets:',
    preset_deep: 'Deep, Adam',
    preset_zeroGate: 'Deep, zero gate',
    preset_sgd: 'SGD, large step',
    play: 'Play',
    pause: 'Pause',
    step: 'Step',
    reset: 'Reset',
    v_none: 'No norm',
    v_post: 'Post-Norm',
    v_pre: 'Pre-Norm',
    v_pre_final: 'Pre-Norm + final norm',
    chance: 'a coin flip: {v}',
    lossTitle: 'Training loss, step {k}',
    key: '{name}: {v}',
    keyDiverged: '{name}: diverged at {k}',
    stepAxis: 'step',
    gradTitle: 'Gradient ‖∂L/∂h‖ per layer, step 1',
    actTitle: 'Residual stream RMS, step {k}',
    layerAxis: 'layer (0 = input)',
    notYet: 'press Play or Step',
    show: 'Decision map of',
    mapTitle: '{name}: the two spirals, step {k}',
    mapKey0: 'class 0',
    mapKey1: 'class 1',
    mapKey2: 'shaded cells: the network says class 1',
    settingsNow: 'Settings: {L} blocks, {opt}, learning rate {lr}, {norm}',
    recordedNote:
      'Recorded run of these settings, {k} steps, drawn when the page opened. Play or Step trains it again here, step by step.',
    describeRecorded: 'This is the recorded run of these settings; Play trains it again, step for step.',
    describeLive: 'These curves were trained here, in your browser, step for step.',
    gradNote: 'Gradient at the input (layer 0) → at the top layer: {list}.',
    gradItem: '{name} {a} → {b}',
    actNote: 'RMS of the stream at the top layer: {list}.',
    actItem: '{name} {v}',
    liveNote: 'Trained here, in your browser: step {k} of {n}. Reset shows the recorded run, where there is one.',
    idleNote: 'Not trained yet: Play or Step trains these settings here, in your browser.',
    describeNoneTrains:
      'No normalization trains here too: with these settings the norms are not what makes the network learn.',
    describeNoneFails: 'Without a norm the loss blows up at this step size, while {names} train.',
    listSep: ', ',
    listAnd: ' and ',
    describeLowest: 'Lowest loss at the end: {name}, {v}.',
    compare: 'Compare:',
    keyOff: '{name}: not shown',
    describeOff: 'Not shown and not trained: {list}.',
    warmup: 'Warm-up (steps)',
    describeSetupWarmup:
      'Four copies of one {L}-block residual network of width 16 start from the same initial weights and learn to separate two spirals (128 points, 64 each): {opt}, learning rate {lr} reached after a linear warm-up of {w} steps, gate {gate}, {norm}, {n} steps.',
    describeIdentity:
      'With the gate at zero each branch adds nothing at first: at the first step {names} keep the residual stream at RMS {v} through every layer.',
    sentenceSep: ' ',
    describeSetup:
      'Four copies of one {L}-block residual network of width 16 start from the same initial weights and learn to separate two spirals (128 points, 64 each): {opt}, learning rate {lr}, gate {gate}, {norm}, {n} steps.',
    describeIdle: 'None has trained yet.',
    describeLoss: '{name} reaches loss {v} after {steps} (accuracy {a}).',
    describeStalled: '{name} is stuck near a coin flip’s loss {c}: {v} after {steps} (accuracy {a}).',
    oneStep: '1 step',
    nSteps: '{k} steps',
    describeBlownUp: '{name}’s loss has blown up to {v} after {steps} (accuracy {a}).',
    describeDiverged:
      '{name} diverged: its step {k} would have made the loss or a weight blow up, so training stopped there.',
    describePostGrad:
      'At the first step the gradient reaching Post-Norm’s input layer is {g0}, against {gL} at its top: every norm on the path scales it down.',
  },
  zh: {
    name: '在页面中训练一个深层 residual 网络：有无 normalization 的对比',
    depth: 'block 数',
    lr: '学习率',
    optimizer: '优化器',
    gate: '每个分支上的 gate',
    norm: 'normalization 方式',
    choice_adam: 'Adam',
    choice_sgd: 'SGD，momentum 0.9',
    choice_none: '无（恒为 1）',
    choice_zero: '从零开始（ReZero）',
    choice_layer_scale: 'LayerScale（0.1）',
    choice_layer_norm: 'LayerNorm',
    choice_rms_norm: 'RMSNorm',
    presets: '预设：',
    preset_deep: '深层，Adam',
    preset_zeroGate: '深层，零 gate',
    preset_sgd: 'SGD，大步长',
    play: '播放',
    pause: '暂停',
    step: '单步',
    reset: '重置',
    v_none: '无 norm',
    v_post: 'Post-Norm',
    v_pre: 'Pre-Norm',
    v_pre_final: 'Pre-Norm + 最终 norm',
    chance: '抛硬币：{v}',
    lossTitle: '训练 loss，第 {k} 步',
    key: '{name}：{v}',
    keyDiverged: '{name}：第 {k} 步发散',
    stepAxis: '步数',
    gradTitle: '每一层的 gradient ‖∂L/∂h‖（第 1 步）',
    actTitle: 'Residual stream 的 RMS，第 {k} 步',
    layerAxis: '层（0 = 输入）',
    notYet: '按“播放”或“单步”',
    show: '决策图：',
    mapTitle: '{name}：两条螺旋，第 {k} 步',
    mapKey0: '类别 0',
    mapKey1: '类别 1',
    mapKey2: '着色的格子：网络判为类别 1',
    settingsNow: '设置：{L} 个 block，{opt}，学习率 {lr}，{norm}',
    recordedNote:
      '这是按当前设置预先录好的一次训练（{k} 步），页面打开时就画出来。按“播放”或“单步”会在这里重新逐步训练。',
    describeRecorded: '这是按当前设置预先录好的训练；按“播放”会一步一步重新训练出同样的结果。',
    describeLive: '这些曲线是在你的浏览器里一步一步训练出来的。',
    gradNote: 'Gradient，输入处（第 0 层）→ 最上一层：{list}。',
    gradItem: '{name} {a} → {b}',
    actNote: '最上一层 residual stream 的 RMS：{list}。',
    actItem: '{name} {v}',
    liveNote: '在你的浏览器里训练：共 {n} 步，现在是第 {k} 步。有录好的训练时，按“重置”会回到它。',
    idleNote: '还没有训练：按“播放”或“单步”，就在你的浏览器里按这组设置训练。',
    describeNoneTrains: '这里不做 normalization 也能训练：在这组设置下，网络能否学会并不取决于 norm。',
    describeNoneFails: '在这个步长下，没有 norm 的 loss 会爆炸，而 {names} 都能训练。',
    listSep: '、',
    listAnd: ' 和 ',
    describeLowest: '最终 loss 最低的是 {name}：{v}。',
    compare: '对比：',
    keyOff: '{name}：未显示',
    describeOff: '未显示、也不训练：{list}。',
    warmup: 'warm-up 步数',
    describeSetupWarmup:
      '同一个 {L} 个 block、宽度 16 的 residual 网络的四个副本，从相同的初始 weights 出发，学习把 128 个点分到两条螺旋上（每条 64 个点）：{opt}，学习率经过 {w} 步线性 warm-up 达到 {lr}，gate 为 {gate}，{norm}，共 {n} 步。',
    describeIdentity:
      'Gate 为零时每个分支起初什么也不加：第 1 步时 {names} 的 residual stream 在每一层的 RMS 都是 {v}。',
    sentenceSep: '',
    describeSetup:
      '同一个 {L} 个 block、宽度 16 的 residual 网络的四个副本，从相同的初始 weights 出发，学习把 128 个点分到两条螺旋上（每条 64 个点）：{opt}，学习率 {lr}，gate 为 {gate}，{norm}，共 {n} 步。',
    describeIdle: '还没有开始训练。',
    describeLoss: '{name} 训练 {steps} 后 loss 为 {v}（准确率 {a}）。',
    describeStalled: '{name} 停在抛硬币的 loss {c} 附近：{steps} 后为 {v}（准确率 {a}）。',
    oneStep: '1 步',
    nSteps: '{k} 步',
    describeBlownUp: '{name} 的 loss 在 {steps} 后爆炸到 {v}（准确率 {a}）。',
    describeDiverged: '{name} 发散了：第 {k} 步会让 loss 或某个 weight 爆炸，训练在此停止。',
    describePostGrad:
      '第 1 步时，到达 Post-Norm 输入层的 gradient 为 {g0}，顶层为 {gL}：路径上的每个 norm 都把它缩小。',
  },
};
