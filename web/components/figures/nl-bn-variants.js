// <nl-bn-variants> — one batch x [8, 2, 3] (8 examples, 2 channels, 3
// positions each) drawn row by row, and what the BatchNorm family does to
// example 1. It opens on one comparison: BatchNorm in training (each channel's
// 24 numbers of this batch) against BatchNorm in evaluation (the running
// statistics, traced from their start at mean 0 and variance 1 over the
// training steps so far). Five steps in, the running mean is still far from the
// batch's, so the same example gets two different outputs. The top strips follow
// example 1's channel 1, (1, 2, 3), the numbers the sentences follow: one dot a
// position, in the row's colour (the training-time variants green, evaluation
// grey), each row labelled on its left in two lines (the variant, in its dots'
// colour, then where its statistics come from); a thin line joins each output in
// training to the same output in evaluation, between the two strips, where no
// text is. Step buttons then add one variant at a time, each with the one
// setting that matters for it: Ghost BatchNorm (the statistics of the example's
// own chunk of the batch, outlined in the drawing with each chunk's means; the
// chunk size), Batch Renorm (the batch statistics corrected toward the running
// ones, the correction clipped by r_max and d_max) and Switchable Norm (a mix of
// the InstanceNorm, LayerNorm and BatchNorm statistics; the mix), or all five
// at once. A line above the picture says, from the state, what the step's
// variant changes relative to BatchNorm, following example 1's first number, 1
// (ringed in the strips and in the batch). On every variant's row after
// evaluation's, the outputs of BatchNorm in training stand faint behind, so each
// variant reads as its departure from it. The strips' key is one line: the ring,
// and the faint dots when a variant's row is shown; the batch's key draws each
// series' own marker in its colour. The description follows example 1's
// channel 1 through the rows shown; the batch panel shows both channels, the
// state keeps both channels' outputs. The running statistics are four small plots (mean and variance, rows;
// channel 1 and 2, columns), each on its own scale; in both panels this batch's statistic is a dashed green line
// and the running one a solid grey line.
//
// Attributes: show (the step: "bn" training vs evaluation, "ghost", "renorm"
//   or "switchable" adding that variant's row, "all"; "bn"), steps (training
//   steps taken on this batch, 5; 0..50), vbs (Ghost BN's virtual batch size:
//   "2", "4" or "8"), rmax (Batch Renorm's r_max, 1.2; 1..5), dmax (its d_max,
//   5; 0.5..10), mix (Switchable Norm's weights: "equal", or leaning 0.79 toward
//   "in", "ln" or "bn"), lang.
// Properties: show, steps, vbs, rmax, dmax, mix; state (read-only): {show,
//   steps, vbs, rmax, dmax, mix, rows (the variants drawn, in order), settings
//   (the controls shown), shape, batch [48], batchMean, batchVar (population),
//   unbiasedVar, trace ({mean, var}: per step 0..steps, per channel), running
//   ({mean, var} after `steps`), clipped ({r, d}: whether r_max, d_max clips),
//   outputs ({train, eval, ghost, renorm, switchable}: example 1's six outputs,
//   channel 1's three positions then channel 2's; all five at every step),
//   chunks ([{first, last, mean}]: examples 1-based), weights (Switchable's for
//   IN, LN, BN), components ({in: example 1's channel means, ln: example 1's
//   mean, bn: the channel means}), axes (`out`, the strips': channel 1's
//   outputs under all five, and 0), error}.
// Events: change (the reader moved a control). Keyboard: the step buttons
//   (Tab, Enter or Space), the selects and sliders.
// Colours: --nl-input the batch, --nl-group Ghost BN's chunks and their means,
//   --nl-batch-norm the batch's means and the training-time variants,
//   --nl-reference the running statistics and evaluation with them.
// Parts: figure, controls, button (the steps), slider, number, select, lede
//   (the step's sentence), view, description, error.
// Numbers from the core: batch_norm (training, evaluation, every step's running
// statistics; momentum 1 gives the unbiased variance they approach),
// ghost_batch_norm, batch_renorm, switchable_norm, moments (every mean drawn),
// softmax (Switchable's weights), axis_ticks.
import { el } from '../lib/base.js';
import { NlFigure, figureCss } from '../lib/figure.js';
import { scale, svg, xAxis, yAxis, line } from '../lib/plot.js';
import { textWidth } from '../lib/text.js';

// x[n][c][l]: channel 1 is example n's small numbers, channel 2 its large ones.
const CH1 = [
  [1, 2, 3],
  [4, 5, 6],
  [0, 2, 1],
  [3, 5, 4],
  [6, 8, 7],
  [5, 7, 9],
  [2, 4, 3],
  [8, 6, 7],
];
const CH2 = [
  [10, 20, 30],
  [14, 18, 22],
  [12, 16, 14],
  [20, 24, 22],
  [26, 30, 28],
  [18, 22, 32],
  [16, 20, 18],
  [30, 34, 26],
];
const N = 8,
  C = 2,
  L = 3;
const BATCH = CH1.flatMap((row, n) => [...row, ...CH2[n]]);
const LOGITS = { equal: [0, 0, 0], in: [2, 0, 0], ln: [0, 2, 0], bn: [0, 0, 2] };
const VARIANTS = ['train', 'eval', 'ghost', 'renorm', 'switchable'];
const MAX_STEPS = 50;
// The steps of the reveal: the rows each one draws and the settings it shows (the steps are the comparison's own).
const SHOW = ['bn', 'ghost', 'renorm', 'switchable', 'all'];
const ROWS = {
  bn: ['train', 'eval'],
  ghost: ['train', 'eval', 'ghost'],
  renorm: ['train', 'eval', 'renorm'],
  switchable: ['train', 'eval', 'switchable'],
  all: VARIANTS,
};
const SETTINGS = {
  bn: ['steps'],
  ghost: ['steps', 'vbs'],
  renorm: ['steps', 'rmax', 'dmax'],
  switchable: ['steps', 'mix'],
  all: ['steps', 'vbs', 'rmax', 'dmax', 'mix'],
};

export class NlBnVariants extends NlFigure {
  static catalog = 'bnVariants';
  static summary =
    'A batch of 8 and its running statistics: BatchNorm in training against evaluation on its first example, then Ghost BN, Batch Renorm and Switchable Norm one step at a time.';
  static minHeight = 744; // px kept by normlab/styles.css (measured at 960 px, default attributes: the comparison alone)
  static phoneMinHeight = { en: 1444, zh: 1392 }; // px kept up to 600 px wide (measured at 360 px, default attributes)
  static stateDoc =
    '`rows`, `settings`, `batch`, `batchMean`, `batchVar`, `unbiasedVar`, `trace`, `running`, `outputs` (`train`, `eval`, `ghost`, `renorm`, `switchable`), `clipped`, `chunks`, `weights`, `components`'; // `state` keys beyond the attributes (README)
  static params = {
    show: {
      attr: 'show',
      kind: 'choice',
      default: 'bn',
      choices: SHOW,
      control: 'steps',
      doc: 'what is compared: BatchNorm in training against evaluation ("bn"), that and one variant ("ghost", "renorm", "switchable"), or all five',
    },
    steps: {
      attr: 'steps',
      kind: 'number',
      default: 5,
      min: 0,
      max: MAX_STEPS,
      step: 1,
      integer: true,
      control: 'slider',
      doc: 'training steps taken on this batch, each updating the running statistics',
    },
    vbs: {
      attr: 'vbs',
      kind: 'choice',
      default: '2',
      choices: ['2', '4', '8'],
      control: 'select',
      doc: "Ghost BN's virtual batch size",
    },
    rmax: {
      attr: 'rmax',
      kind: 'number',
      default: 1.2,
      min: 1,
      max: 5,
      step: 0.1,
      control: 'slider',
      doc: "Batch Renorm's r_max",
    },
    dmax: {
      attr: 'dmax',
      kind: 'number',
      default: 5,
      min: 0.5,
      max: 10,
      step: 0.5,
      control: 'slider',
      doc: "Batch Renorm's d_max",
    },
    mix: {
      attr: 'mix',
      kind: 'choice',
      default: 'equal',
      choices: ['equal', 'in', 'ln', 'bn'],
      control: 'select',
      doc: "Switchable Norm's weights: equal, or leaning toward InstanceNorm, LayerNorm or BatchNorm",
    },
  };
  static css = `${figureCss}
.bn-top { display: grid; grid-template-columns: repeat(auto-fit, minmax(280px, 1fr)); gap: 10px; margin-top: 10px; }
.pt { stroke-width: 1.6; }
.pt.c1 { fill: var(--nl-input); stroke: var(--nl-input); } .pt.c2 { fill: var(--nl-bg); stroke: var(--nl-input); }
.pt.train.c1, .pt.ghost.c1, .pt.renorm.c1, .pt.switchable.c1 { fill: var(--nl-batch-norm); }
.pt.train, .pt.ghost, .pt.renorm, .pt.switchable { stroke: var(--nl-batch-norm); }
.pt.eval { stroke: var(--nl-reference); } .pt.eval.c1 { fill: var(--nl-reference); }
.ring { fill: none; stroke: var(--nl-fg); stroke-width: 1.4; }
.ex1 { fill: var(--nl-fg); fill-opacity: 0.06; }
.link { stroke: var(--nl-muted); stroke-width: 1; stroke-opacity: 0.7; }
.chunk { fill: var(--nl-group); fill-opacity: 0.07; stroke: var(--nl-group); stroke-width: 1.4; }
.chunk.mine { stroke-width: 2.4; fill-opacity: 0.14; }
.cmean { stroke: var(--nl-group); stroke-width: 3; stroke-linecap: round; }
.bmean { stroke: var(--nl-batch-norm); stroke-width: 1.6; stroke-dasharray: 5 3; }
/* one style per kind in both panels: this batch's statistic dashed green, the running one solid grey */
.rmean { stroke: var(--nl-reference); stroke-width: 1.6; }
.trace { fill: none; stroke: var(--nl-reference); stroke-width: 2; }
.target { stroke: var(--nl-batch-norm); stroke-width: 1.6; stroke-dasharray: 5 3; }
.now { fill: var(--nl-reference); stroke: var(--nl-bg); stroke-width: 1.5; }
.rowlab { font-size: var(--nl-small-size); fill: var(--nl-muted); text-anchor: end; }
.rowlab.mine { fill: var(--nl-fg); font-weight: 600; }
.vlabel { font-size: var(--nl-small-size); fill: var(--nl-fg); }
.vlabel.new { font-weight: 600; }
.vlabel.row { fill: var(--nl-batch-norm); } .vlabel.row.eval { fill: var(--nl-reference); }
.vlabel.note { fill: var(--nl-muted); }
/* (over the grid on a phone, where the labels sit above their strips) */
.variants .vlabel { paint-order: stroke; stroke: var(--nl-bg); stroke-width: 3px; stroke-linejoin: round; }
.key { font-size: var(--nl-small-size); fill: var(--nl-muted); }
.key.group { fill: var(--nl-group); } .key.bn { fill: var(--nl-batch-norm); } .key.ref { fill: var(--nl-reference); }
.pt.faint { fill: var(--nl-batch-norm); stroke: var(--nl-batch-norm); fill-opacity: 0.22; stroke-opacity: 0.3; }
.pt.faint.c2 { fill-opacity: 0; }
.mark-line { stroke-width: 2; fill: none; }
.strip { stroke: var(--nl-grid); }
.reveal { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; flex-basis: 100%; }
.reveal button { border-radius: 999px; min-width: 44px; }
.reveal button[aria-pressed=true] { border-color: var(--nl-fg); font-weight: 600; box-shadow: inset 0 0 0 1px var(--nl-fg); }
.lede { margin: 0 0 10px; line-height: 1.45; max-width: 72ch; }
@container (max-width: 520px) {
  button, select, input[type=number] { min-height: 44px; }
  input[type=range] { height: 44px; }
  .reveal button { padding-inline: 9px; }
}
`;

  /** The step buttons (one pressed), then the settings, each shown only at the steps it matters for. */
  buildControls(box) {
    this._reveal = el('div', { class: 'reveal', role: 'group' });
    this._stepButtons = SHOW.map((v) => {
      const b = el('button', { type: 'button', part: 'button', 'aria-pressed': 'false' });
      b.dataset.value = v;
      b.addEventListener('click', () => {
        if (this._values.show !== v) this.setByUser('show', v);
      });
      this._reveal.append(b);
      return b;
    });
    box.append(this._reveal);
    super.buildControls(box); // a slider or select per setting, in the params' order
  }

  buildView(view) {
    this._lede = el('p', { class: 'lede', part: 'lede' });
    const top = el('div', { class: 'bn-top' });
    this._svgs = [svg(420, 250, 'batch'), svg(420, 250, 'running'), svg(640, 270, 'variants')];
    top.append(this._svgs[0], this._svgs[1]);
    // the comparison first, under its sentence; the batch and the running statistics that explain it below
    view.append(this._lede, this._svgs[2], top);
  }

  languageChanged() {
    this._reveal.setAttribute('aria-label', this.t('showLabel'));
    for (const b of this._stepButtons) b.textContent = this.t(`step_${b.dataset.value}`);
  }

  _syncControls() {
    super._syncControls();
    if (!this._stepButtons) return;
    const show = this._values.show;
    for (const b of this._stepButtons) b.setAttribute('aria-pressed', String(b.dataset.value === show));
    for (const [key, c] of Object.entries(this._controls))
      c.text.parentElement.toggleAttribute('hidden', !SETTINGS[show].includes(key));
  }

  compute(core, { show, steps, vbs, rmax, dmax, mix }) {
    const x = { shape: [N, C, L], data: BATCH };
    const vec = NlFigure.vec;
    const mean = (vs) => core.run('moments', { x: vec(vs) }).mean.data[0];
    const first = (y) => Array.from(y.slice(0, C * L)); // example 1: channel 1's positions, then channel 2's
    const chan = (c, rows = CH1.map((_, n) => n)) => rows.flatMap((n) => (c ? CH2 : CH1)[n]);
    // what does not depend on the settings (the batch is fixed), or only on one of them, is asked once per value
    const once = (key, fn) => {
      const m = (this._once ??= new Map());
      if (!m.has(key)) m.set(key, fn());
      return m.get(key);
    };
    const bmom = once('moments', () => [0, 1].map((c) => core.run('moments', { x: vec(chan(c)) })));
    const batchMean = bmom.map((m) => m.mean.data[0]),
      batchVar = bmom.map((m) => m.var.data[0]);
    // momentum 1 stores the batch's own statistics: the unbiased variance the running one approaches
    const unbiasedVar = once('unbiased', () =>
      this.op(
        'batch_norm',
        { x, running_mean: vec([0, 0]), running_var: vec([0, 0]) },
        { training: true, momentum: 1 },
        'running_var',
      ),
    );
    // the running statistics, from PyTorch's start (mean 0, variance 1), one training step at a time. The batch
    // never changes, so the trace of every step up to the slider's end is asked once and cut at `steps`.
    this._fullTrace ??= (() => {
      let rm = [0, 0],
        rv = [1, 1];
      const t = { mean: [rm], var: [rv] };
      for (let k = 0; k < MAX_STEPS; k++) {
        const o = core.run(
          'batch_norm',
          { x, running_mean: vec(rm), running_var: vec(rv) },
          { training: true, momentum: 0.1 },
        );
        rm = Array.from(o.running_mean.data);
        rv = Array.from(o.running_var.data);
        t.mean.push(rm);
        t.var.push(rv);
      }
      return t;
    })();
    const trace = { mean: this._fullTrace.mean.slice(0, steps + 1), var: this._fullTrace.var.slice(0, steps + 1) };
    const rm = trace.mean[steps],
      rv = trace.var[steps];
    const running = { running_mean: vec(rm), running_var: vec(rv) };
    const logits = vec(LOGITS[mix]);
    const size = Number(vbs);
    const outputs = {
      train: once('train', () => first(this.op('batch_norm', { x }, { training: true }, 'y'))),
      eval: first(this.op('batch_norm', { x, ...running }, { training: false }, 'y')),
      ghost: once(`ghost ${size}`, () => first(this.op('ghost_batch_norm', { x }, { virtual_batch_size: size }))),
      renorm: first(this.op('batch_renorm', { x, ...running }, { r_max: rmax, d_max: dmax })),
      switchable: once(`switchable ${mix}`, () =>
        first(
          this.op('switchable_norm', {
            x: { shape: [N, C, L, 1], data: BATCH },
            mean_logits: logits,
            var_logits: logits,
          }),
        ),
      ),
    };
    // which limit bites: with the other limit lifted, a limit that clips nothing gives evaluation's output
    const renormWith = (r, d) => first(this.op('batch_renorm', { x, ...running }, { r_max: r, d_max: d }));
    const differs = (a) => a.some((v, i) => Math.abs(v - outputs.eval[i]) > 1e-5);
    const clipped = { r: differs(renormWith(rmax, 1e9)), d: differs(renormWith(1e9, dmax)) };
    const chunks = once(`chunks ${size}`, () => {
      const out = [];
      for (let s = 0; s < N; s += size) {
        const rows = Array.from({ length: size }, (_, i) => s + i);
        out.push({ first: s + 1, last: s + size, mean: [0, 1].map((c) => mean(chan(c, rows))) });
      }
      return out;
    });
    const components = once('components', () => ({
      in: [CH1[0], CH2[0]].map(mean), // one example's channel over its 3 positions
      ln: mean([...CH1[0], ...CH2[0]]), // one example's 6 numbers
      bn: batchMean, // one channel's 24 numbers
    }));
    return {
      rows: ROWS[show],
      settings: SETTINGS[show],
      shape: [N, C, L],
      batch: BATCH,
      batchMean,
      batchVar,
      unbiasedVar,
      trace,
      running: { mean: rm, var: rv },
      outputs,
      clipped,
      chunks,
      weights: once(`weights ${mix}`, () => this.op('softmax', { x: logits })),
      components,
      axes: {
        batch: once('batch axis', () => this.axis([...BATCH], { include_zero: true, count: 5 })),
        // the strips draw channel 1 (example 1's 1, 2, 3) under all five variants: the axis spans just those and 0
        out: this.axis(
          Object.values(outputs).flatMap((o) => o.slice(0, L)),
          { include_zero: true, count: 4 },
        ),
        steps: this.axis([0, Math.max(steps, 1)], { count: 5 }), // the steps so far: the trace fills the panel at any step
        // a scale per channel: on one scale channel 1's statistics (mean 4.5) lay flat under channel 2's (21.8)
        mean: [0, 1].map((c) =>
          this.axis([...trace.mean.map((m) => m[c]), batchMean[c]], { include_zero: true, count: 3 }),
        ),
        var: [0, 1].map((c) =>
          this.axis([...trace.var.map((v) => v[c]), unbiasedVar[c]], { include_zero: true, count: 3 }),
        ),
      },
    };
  }

  /**
   * Key items [text, class, marker] in rows that fit `W` from `x0`: each marker is drawn
   * as its series is (the same shape, line style and colour), then its text.
   */
  _keys(items, x0, y0, W) {
    const out = [];
    let x = x0,
      y = y0;
    for (const [text, cls, marker] of items) {
      const mw = marker ? 18 : 0;
      const w = mw + textWidth(text, 11);
      if (x > x0 && x + w > W - 4) {
        x = x0;
        y += 16;
      }
      if (marker) out.push(this._marker(marker, x, y - 4));
      out.push(el('text', { class: `key ${cls}`, x: (x + mw).toFixed(1), y }, text));
      x += w + 14;
    }
    return { items: out, bottom: y };
  }

  /** A legend marker centred at (x + 7, y). */
  _marker(kind, x, y) {
    const cx = x + 7;
    const dot = (cls) => el('circle', { class: `pt legend ${cls}`, cx: cx.toFixed(1), cy: y.toFixed(1), r: 4.2 });
    const h = (cls) => el('line', { class: `legend mark-line ${cls}`, x1: x, x2: x + 14, y1: y, y2: y });
    const v = (cls) => el('line', { class: `legend ${cls}`, x1: cx, x2: cx, y1: y - 6, y2: y + 6 });
    switch (kind) {
      case 'c1':
      case 'c2':
        return dot(kind);
      case 'faint':
        return dot('faint c1');
      case 'ring':
        return el('circle', { class: 'legend ring', cx: cx.toFixed(1), cy: y.toFixed(1), r: 6.5 });
      case 'chunk':
        return el('rect', { class: 'legend chunk mine', x, y: y - 6, width: 14, height: 12, rx: 3 });
      case 'cmean':
      case 'bmean':
      case 'rmean':
        return v(kind);
      case 'trace':
        return h('trace');
      default:
        return h('target');
    }
  }

  draw(s) {
    this._lede.textContent = this.lede(s);
    const ghostShown = s.rows.includes('ghost');
    const tick = (v) => this.fmt(v, 3);
    const pt = (cx, cy, cls) => el('circle', { class: `pt ${cls}`, cx: cx.toFixed(1), cy: cy.toFixed(1), r: 4.2 });
    const ring = (cx, cy) => el('circle', { class: 'ring', cx: cx.toFixed(1), cy: cy.toFixed(1), r: 6.5 });
    // 1. the batch: a row per example, channel 1 filled, channel 2 hollow; the batch's and the running means, and
    // Ghost BN's chunks with their means when its row is shown. The steps slider moves only the running means:
    // the rest is drawn again only when the width, the language or the chunks change.
    const batchKey = [this.widthOf(this._svgs[0]), this.lang, ghostShown, s.vbs].join('|');
    if (this._batchDrawn?.key === batchKey) {
      const xs = this._batchDrawn.xs;
      this._batchDrawn.rmeans.forEach((l, c) => {
        l.setAttribute('x1', xs(s.running.mean[c]));
        l.setAttribute('x2', xs(s.running.mean[c]));
      });
    } else {
      const svgEl = this._svgs[0];
      const W = this.fit(svgEl, 420, 250);
      const left = 34,
        right = 10;
      const keys = this._keys(
        [
          [this.t('keyChannel1'), '', 'c1'],
          [this.t('keyChannel2'), '', 'c2'],
          ...(ghostShown
            ? [
                [this.t('keyChunk'), 'group', 'chunk'],
                [this.t('keyChunkMean'), 'group', 'cmean'],
              ]
            : []),
          [this.t('keyBatchMean'), 'bn', 'bmean'],
          [this.t('keyRunningMean'), 'ref', 'rmean'],
        ],
        8,
        33,
        W,
      );
      const top = keys.bottom + 14,
        rowH = 20,
        bottom = top + N * rowH;
      const xs = scale(s.axes.batch.domain, [left + 6, W - right - 6]);
      const rowY = (n) => top + (n + 0.5) * rowH;
      const items = [
        el('text', { class: 'panel-title', x: 8, y: 16 }, this.t('batchTitle')),
        ...keys.items,
        xAxis(s.axes.batch.ticks, xs, top, bottom, tick),
        el('rect', { class: 'ex1', x: left - 22, y: top + 1, width: W - right - left + 22, height: rowH - 2, rx: 4 }),
      ];
      if (ghostShown)
        s.chunks.forEach((ch, i) => {
          const y0 = top + (ch.first - 1) * rowH + 2,
            y1 = top + ch.last * rowH - 2;
          items.push(
            el('rect', {
              class: `chunk${i === 0 ? ' mine' : ''}`,
              x: left,
              y: y0,
              width: W - right - left,
              height: y1 - y0,
              rx: 5,
            }),
          );
          for (const m of ch.mean)
            items.push(el('line', { class: 'cmean', x1: xs(m), x2: xs(m), y1: y0 + 3, y2: y1 - 3 }));
        });
      const rmeans = [];
      for (let c = 0; c < C; c++) {
        rmeans.push(
          el('line', {
            class: 'rmean',
            x1: xs(s.running.mean[c]),
            x2: xs(s.running.mean[c]),
            y1: top - 4,
            y2: bottom + 2,
          }),
        );
        items.push(
          el('line', { class: 'bmean', x1: xs(s.batchMean[c]), x2: xs(s.batchMean[c]), y1: top - 4, y2: bottom + 2 }),
          rmeans[c],
        );
      }
      for (let n = 0; n < N; n++) {
        items.push(el('text', { class: `rowlab${n ? '' : ' mine'}`, x: left - 6, y: rowY(n) + 4 }, String(n + 1)));
        for (let c = 0; c < C; c++)
          for (let l = 0; l < L; l++) items.push(pt(xs(s.batch[(n * C + c) * L + l]), rowY(n), `c${c + 1}`));
      }
      items.push(ring(xs(s.batch[0]), rowY(0))); // example 1's first number, the one the text follows
      svgEl.setAttribute('viewBox', `0 0 ${W} ${bottom + 22}`);
      svgEl.replaceChildren(...items);
      this._batchDrawn = { key: batchKey, xs, rmeans };
    }
    // 2. the running statistics over the steps so far, with the values they approach: a small plot per statistic
    // (rows) and channel (columns), each on its own scale, so channel 1's mean of 4.5 is not a flat line under
    // channel 2's 21.8. Running is a solid grey line and this batch a dashed green one, as in the batch panel.
    // The steps slider moves the traces and the evaluation rows: the legends, labels and every axis whose ticks
    // stay put are kept from the last drawing (reuse), so a step builds a few nodes, not the panels.
    const at = `${this.lang}|`;
    {
      const svgEl = this._svgs[1];
      const W = this.fit(svgEl, 420, 250);
      const keys = this.reuse(`${at}${W} running keys`, () =>
        this._keys(
          [
            [this.t('keyTrace'), 'ref', 'trace'],
            [this.t('keyTarget'), 'bn', 'target'],
          ],
          8,
          33,
          W,
        ),
      );
      // each column: its y labels, then the plot, then room for the last step's label
      const yAxisW = 28,
        right = 10,
        half = (W - 8 - right) / 2;
      const col = (c) => [8 + c * half + yAxisW, 8 + (c + 1) * half - 12];
      const head = keys.bottom + 34;
      const plotH = 78;
      const items = [
        el('text', { class: 'panel-title', x: 8, y: 16 }, this.t('runningTitle', this._vars(s))),
        ...this.reuse(`${at}${W} running labels`, () => [
          ...keys.items,
          el('text', { class: 'key', x: 8, y: keys.bottom + 15 }, this.t('keyRule')),
          ...[0, 1].map((c) => el('text', { class: 'vlabel col', x: col(c)[0], y: head }, this.t(`keyTrace${c + 1}`))),
          ...['runningMean', 'runningVar'].map((label, r) =>
            el('text', { class: 'vlabel', x: 8, y: head + 6 + r * (plotH + 24) + 10 }, this.t(label)),
          ),
          el(
            'text',
            { class: 'key', x: W - right, y: head + 6 + 2 * (plotH + 24) + 2, 'text-anchor': 'end' },
            this.t('stepsAxis'),
          ),
        ]),
      ];
      let y0 = head + 6;
      for (const [k, target] of [
        ['mean', s.batchMean],
        ['var', s.unbiasedVar],
      ]) {
        for (let c = 0; c < C; c++) {
          const [l0, l1] = col(c);
          const xs = scale(s.axes.steps.domain, [l0, l1]);
          const ys = scale(s.axes[k][c].domain, [y0 + plotH, y0 + 18]);
          const g = el('g', { class: 'sub', 'data-stat': k, 'data-channel': c + 1 });
          const ya = s.axes[k][c],
            xa = s.axes.steps;
          g.append(
            this.reuse(`${at}${W} y ${k} ${c} ${ya.domain} ${ya.ticks}`, () => yAxis(ya.ticks, ys, l0, l1, tick)),
            this.reuse(`${at}${W} x ${k} ${c} ${xa.domain} ${xa.ticks}`, () =>
              xAxis(xa.ticks, xs, y0 + plotH, y0 + plotH, tick),
            ),
            el('line', { class: 'target', x1: l0, x2: l1, y1: ys(target[c]), y2: ys(target[c]) }),
          );
          const pts = s.trace[k].map((v, t) => [xs(t), ys(v[c])]);
          g.append(line(pts, 'trace'));
          const [px, py] = pts[pts.length - 1];
          g.append(el('circle', { class: 'now', cx: px.toFixed(1), cy: py.toFixed(1), r: 4 }));
          items.push(g);
        }
        y0 += plotH + 24;
      }
      svgEl.setAttribute('viewBox', `0 0 ${W} ${y0 + 8}`);
      svgEl.replaceChildren(...items);
    }
    // 3. example 1's channel 1 (1, 2, 3, the numbers the sentences follow) under the variants of this step: a strip
    // per variant, labelled on its left in two lines (the variant in its dots' colour, then where its statistics
    // come from), so the lines joining each output in training to the same output in evaluation, between the two
    // strips, cross no text. The axis covers channel 1 under all five at every step, and the label column is as
    // wide as all five labels need, so a dot stays where it was when a row is added.
    {
      const svgEl = this._svgs[2];
      const W = this.fit(svgEl, 640, 270);
      const left = 8,
        right = 12;
      const label = (k) => [this.t(`v_${k}`), this._note(s, k)];
      // On a phone the label column took half the width: each strip's label goes on two lines of its own
      // instead, above the strip, and evaluation's below it (the lines from training arrive from above)
      const stacked = W < 480;
      const column = stacked
        ? 0
        : Math.min(Math.max(...VARIANTS.flatMap(label).map((t) => textWidth(t, 11))) + 12, Math.round(W * 0.45));
      const x0 = left + column;
      const xs = scale(s.axes.out.domain, [x0 + 6, W - right - 6]);
      const ch1 = (k) => s.outputs[k].slice(0, L);
      // the rows after evaluation keep BatchNorm in training faint behind them; evaluation has the joining lines
      const faintRows = s.rows.filter((k) => k !== 'train' && k !== 'eval');
      const keys = this.reuse(`${at}${W} out keys ${faintRows.length > 0}`, () =>
        this._keys(
          [[this.t('keyRing'), '', 'ring'], ...(faintRows.length ? [[this.t('keyFaint'), 'bn', 'faint']] : [])],
          8,
          33,
          W,
        ),
      );
      const top = keys.bottom + 12,
        rowH = 38;
      // each row: its strip's y and its two label lines' baselines
      const place = [];
      if (!stacked) s.rows.forEach((k, j) => place.push({ y: top + (j + 0.5) * rowH, dy: [-3, 10] }));
      else
        s.rows.reduce((at, k, j) => {
          if (j === 1) {
            const y = at + 34;
            place.push({ y, dy: [18, 31] });
            return y + 40;
          }
          place.push({ y: at + 38, dy: [-24, -11] });
          return at + 38 + 14;
        }, top);
      const stripY = (j) => place[j].y;
      const bottom = stacked ? place.at(-1).y + (s.rows.length === 2 ? 40 : 14) : top + s.rows.length * rowH;
      const oa = s.axes.out;
      const items = [
        el('text', { class: 'panel-title', x: 8, y: 16 }, this.t('outTitle', this._vars(s))),
        ...keys.items,
        this.reuse(`${at}${W} out axis ${oa.domain} ${oa.ticks} ${top} ${bottom} ${stacked && place.length}`, () => {
          if (!stacked) return xAxis(oa.ticks, xs, top, bottom, tick);
          // the grid as a short mark across each strip: full-height lines would run through the labels
          const g = el('g', { class: 'axis' });
          for (const t of oa.ticks) {
            for (const { y } of place) g.append(el('line', { x1: xs(t), x2: xs(t), y1: y - 7, y2: y + 7 }));
            g.append(el('text', { x: xs(t), y: bottom + 14, 'text-anchor': 'middle' }, tick(t)));
          }
          return g;
        }),
      ];
      // each output in training joined to the same output in evaluation: one example, two places
      ch1('train').forEach((v, i) =>
        items.push(
          el('line', {
            class: 'link',
            x1: xs(v).toFixed(1),
            x2: xs(s.outputs.eval[i]).toFixed(1),
            y1: stripY(0),
            y2: stripY(1),
          }),
        ),
      );
      // the row this step adds is the one its sentence is about
      const added = s.show === 'bn' || s.show === 'all' ? null : s.show;
      s.rows.forEach((k, j) => {
        const y = stripY(j);
        const [name, note] = label(k);
        const faint = faintRows.includes(k) ? ch1('train') : [];
        // a row is kept while its label, its place and its dots' places are the same (most rows on a step)
        const dots = [...faint, ...ch1(k)].map((v) => xs(v).toFixed(1));
        const [d0, d1] = place[j].dy;
        const key = `${at}${W} row ${k} ${j} ${k === added} ${name} ${note} ${x0} ${y} ${d0} ${faint.length} ${dots}`;
        items.push(
          ...this.reuse(key, () => [
            el('text', { class: `vlabel row ${k}${k === added ? ' new' : ''}`, x: left, y: y + d0 }, name),
            el('text', { class: 'vlabel note', x: left, y: y + d1 }, note),
            el('line', { class: 'strip', x1: x0, x2: W - right, y1: y, y2: y }),
            ...faint.map((v) => pt(xs(v), y, 'faint c1')),
            ...ch1(k).map((v) => pt(xs(v), y, `${k} c1`)),
            ring(xs(s.outputs[k][0]), y),
          ]),
        );
      });
      svgEl.setAttribute('viewBox', `0 0 ${W} ${bottom + 22}`);
      svgEl.replaceChildren(...items);
    }
  }

  _note(s, k) {
    const f = (v) => this.fmt(v, 2);
    if (k === 'ghost') return this.t(s.vbs === '8' ? 'n_ghostAll' : 'n_ghost', { vbs: s.vbs });
    if (k === 'renorm') return this.t('n_renorm', { r: this.fmt(s.rmax, 2), d: this.fmt(s.dmax, 2) });
    if (k === 'switchable') return this.t('n_switchable', { w: s.weights.map(f).join(this.t('listSep')) });
    return this.t(`n_${k}`);
  }

  /** The numbers the sentences use, formatted. */
  _vars(s) {
    const L3 = (v) => this.fmtList(v, 3);
    const f3 = (v) => this.fmt(v, 3);
    // example 1's channel 1: the lists for the description, its first number for the step's sentence
    const vars = {};
    for (const k of VARIANTS) {
      vars[`${k}1`] = L3(s.outputs[k].slice(0, L));
      vars[k] = f3(s.outputs[k][0]);
    }
    const { r, d } = s.clipped;
    return {
      ...vars,
      bm1: f3(s.batchMean[0]),
      x1: s.batch.slice(0, L).map(f3).join(this.t('listSep')), // example 1's channel 1, as the strips draw it
      k: this.fmt(s.steps, 3),
      rm: L3(s.running.mean),
      rv: L3(s.running.var),
      rm1: f3(s.running.mean[0]),
      vbs: s.vbs,
      cm1: f3(s.chunks[0].mean[0]),
      r: this.fmt(s.rmax, 2),
      d: this.fmt(s.dmax, 2),
      wIN: f3(s.weights[0]),
      wLN: f3(s.weights[1]),
      wBN: f3(s.weights[2]),
      inMean: f3(s.components.in[0]),
      lnMean: f3(s.components.ln),
      bnMean: f3(s.components.bn[0]),
      renormKey: r && d ? 'Both' : r ? 'R' : d ? 'D' : 'Same',
    };
  }

  /** The step's sentence: what its variant changes relative to BatchNorm, on example 1's first number. */
  lede(s) {
    const v = this._vars(s);
    switch (s.show) {
      case 'bn': {
        // the two agree to the digits shown only once the running statistics have caught up
        const eval1 = s.steps === 0 ? 'ledeEval0' : v.train === v.eval ? 'ledeEvalSame' : 'ledeEval';
        return [this.t('ledeTrain', v), this.t(eval1, v)].join(this.t('sentenceSep'));
      }
      case 'ghost':
        return this.t(s.vbs === '8' ? 'ledeGhostAll' : 'ledeGhost', v);
      case 'renorm':
        return [this.t('ledeRenorm', v), this.t(`ledeRenorm${v.renormKey}`, v)].join(this.t('sentenceSep'));
      case 'switchable':
        return this.t('ledeSwitch', v);
      default:
        return this.t('ledeAll', v);
    }
  }

  /** Example 1's channel 1 through the rows shown, as the strips draw it. */
  describe(s) {
    const v = this._vars(s);
    const sentence = {
      train: () => this.t('describeBatch', v),
      eval: () => this.t(s.steps === 0 ? 'describeRunning0' : 'describeRunning', v),
      ghost: () => this.t(s.vbs === '8' ? 'describeGhostAll' : 'describeGhost', v),
      renorm: () => this.t(`describeRenorm${v.renormKey}`, v),
      switchable: () => this.t('describeSwitch', v),
    };
    return s.rows.map((k) => sentence[k]()).join(this.t('sentenceSep'));
  }
}
NlBnVariants.defineProperties();

// The figure's strings, English and Chinese (t(key); a language added with registerLocale overrides them).
NlBnVariants.strings = {
  en: {
    name: 'A batch of eight under BatchNorm in training and in evaluation, then Ghost BN, Batch Renorm and Switchable Norm',
    showLabel: 'Compare',
    step_bn: 'Train vs eval',
    step_ghost: '+ Ghost BN',
    step_renorm: '+ Batch Renorm',
    step_switchable: '+ Switchable Norm',
    step_all: 'All',
    steps: 'Training steps',
    vbs: 'Ghost BN chunk size',
    choice_2: '2',
    choice_4: '4',
    choice_8: '8',
    rmax: 'Batch Renorm r_max',
    dmax: 'Batch Renorm d_max',
    mix: 'Switchable Norm weights',
    choice_equal: 'equal',
    choice_in: 'mostly IN',
    choice_ln: 'mostly LN',
    choice_bn: 'mostly BN',
    keyChannel1: 'channel 1',
    keyChannel2: 'channel 2 (3 positions each)',
    keyChunkMean: 'its means',
    keyFaint: 'faint: training',
    batchTitle: 'The batch of 8 examples',
    keyChunk: 'Ghost BN chunk',
    keyBatchMean: 'batch means',
    keyRunningMean: 'running means',
    keyRing: "example 1's first number",
    runningTitle: 'Running statistics at step {k}',
    keyTrace: 'running statistic',
    keyTrace1: 'channel 1',
    keyTrace2: 'channel 2',
    keyTarget: "this batch's statistic",
    keyRule: 'each step: running ← 0.9 · running + 0.1 · batch',
    runningMean: 'running mean',
    runningVar: 'running variance',
    stepsAxis: 'training step',
    outTitle: "Where example 1's {x1} go",
    v_train: 'BatchNorm, training',
    v_eval: 'BatchNorm, evaluation',
    v_ghost: 'Ghost BN',
    v_renorm: 'Batch Renorm',
    v_switchable: 'Switchable Norm',
    n_train: "this batch's statistics",
    n_eval: 'running statistics',
    n_ghost: 'its chunk of {vbs}',
    n_ghostAll: 'one chunk of 8',
    n_renorm: 'r_max {r}, d_max {d}',
    n_switchable: 'weights {w}',
    listSep: ', ',
    sentenceSep: ' ',
    ledeTrain:
      "Same example, two outputs. In training BatchNorm uses this batch's statistics (channel 1's mean {bm1}): example 1's first number, 1, becomes {train}.",
    ledeEval:
      "In evaluation it uses the running statistics, a tenth of the way closer to the batch's at each step: at step {k} their mean is {rm1}, not yet {bm1}, so the same 1 becomes {eval}.",
    ledeEval0:
      'In evaluation it uses the running statistics, still at their start (mean 0, variance 1) before any training step, so the same 1 becomes {eval}.',
    ledeEvalSame:
      "In evaluation it uses the running statistics, which at step {k} have come to mean {rm1}, close to the batch's {bm1}, so the same 1 becomes {eval} too.",
    ledeGhost:
      "Ghost BN splits the batch into chunks of {vbs} and normalizes each with its own statistics: example 1's chunk, examples 1 to {vbs}, has channel 1's mean {cm1} instead of the batch's {bm1}, so 1 becomes {ghost} where BatchNorm in training gives {train}.",
    ledeGhostAll:
      'With chunks of 8 the one chunk is the whole batch, so Ghost BN gives what BatchNorm in training gives: {ghost}. Smaller chunks each use their own statistics.',
    ledeRenorm:
      'Batch Renorm trains with the batch statistics corrected toward the running ones, so that training already sees what evaluation will use.',
    ledeRenormSame:
      'Here r_max = {r} and d_max = {d} clip nothing, so 1 becomes {renorm}, exactly what evaluation gives.',
    ledeRenormR:
      'Here r_max = {r} clips the correction of the scale (d_max = {d} clips nothing), so 1 becomes {renorm}: training gives {train}, evaluation {eval}.',
    ledeRenormD:
      'Here d_max = {d} clips the correction of the mean (r_max = {r} clips nothing), so 1 becomes {renorm}: training gives {train}, evaluation {eval}.',
    ledeRenormBoth:
      'Here r_max = {r} clips the correction of the scale and d_max = {d} that of the mean, so 1 becomes {renorm}: training gives {train}, evaluation {eval}.',
    ledeSwitch:
      "Switchable Norm mixes three statistics instead of using the batch's alone: weights {wIN}, {wLN} and {wBN} on InstanceNorm's (mean {inMean} over example 1's 3 positions), LayerNorm's ({lnMean} over its 6 numbers) and BatchNorm's ({bnMean}). So 1 becomes {switchable} where BatchNorm in training gives {train}.",
    ledeAll:
      "Example 1's first number, 1, under all five: training {train}, evaluation {eval}, Ghost BN {ghost}, Batch Renorm {renorm}, Switchable Norm {switchable}. Each keeps BatchNorm's formula and changes where the statistics come from.",
    describeBatch:
      "BatchNorm in training pools each channel of the 8 examples over its 24 numbers (channel 1's mean is {bm1}), so example 1's channel 1, (1, 2, 3), becomes {train1}.",
    describeRunning0:
      'Evaluation uses the running statistics instead; no training step has run yet, so they are still mean (0, 0) and variance (1, 1), and it gives {eval1}.',
    describeRunning:
      "Evaluation uses the running statistics instead, which move a tenth of the way toward the batch's at each training step; at step {k} they are mean {rm} and variance {rv}, so it gives {eval1}.",
    describeGhost:
      "Ghost BN uses example 1's own chunk, examples 1 to {vbs} (channel 1's mean there is {cm1}): {ghost1}.",
    describeGhostAll: 'Ghost BN with a chunk of 8 uses the whole batch, as BatchNorm does: {ghost1}.',
    describeRenormSame:
      'Batch Renorm corrects the batch statistics toward the running ones; with r_max = {r} and d_max = {d} nothing is clipped, so it gives what evaluation gives: {renorm1}.',
    describeRenormR:
      'Batch Renorm corrects the batch statistics toward the running ones, but r_max = {r} clips the correction of the scale (d_max = {d} clips nothing): {renorm1}.',
    describeRenormD:
      'Batch Renorm corrects the batch statistics toward the running ones, but d_max = {d} clips the correction of the mean (r_max = {r} clips nothing): {renorm1}.',
    describeRenormBoth:
      'Batch Renorm corrects the batch statistics toward the running ones, but r_max = {r} clips the correction of the scale and d_max = {d} that of the mean: {renorm1}.',
    describeSwitch:
      "Switchable Norm mixes three statistics with weights {wIN}, {wLN} and {wBN}: InstanceNorm's (mean {inMean} over these 3 positions), LayerNorm's ({lnMean} over example 1's 6 numbers) and BatchNorm's ({bnMean} over the channel's 24). It gives {switchable1}.",
  },
  zh: {
    name: '一个八个 examples 的 batch 在训练与评估模式下的 BatchNorm，以及 Ghost BN、Batch Renorm 与 Switchable Norm 下的结果',
    showLabel: '比较',
    step_bn: '训练与评估',
    step_ghost: '+ Ghost BN',
    step_renorm: '+ Batch Renorm',
    step_switchable: '+ Switchable Norm',
    step_all: '全部',
    steps: '已训练步数',
    vbs: 'Ghost BN 块大小',
    choice_2: '2',
    choice_4: '4',
    choice_8: '8',
    rmax: 'Batch Renorm r_max',
    dmax: 'Batch Renorm d_max',
    mix: 'Switchable Norm 的 weights',
    choice_equal: '相等',
    choice_in: '偏向 IN',
    choice_ln: '偏向 LN',
    choice_bn: '偏向 BN',
    keyChannel1: 'channel 1',
    keyChannel2: 'channel 2（各 3 个位置）',
    keyChunkMean: '块内 mean',
    keyFaint: '淡色：训练模式',
    batchTitle: '8 个 examples 组成的 batch',
    keyChunk: 'Ghost BN 的块',
    keyBatchMean: 'batch mean',
    keyRunningMean: 'running mean',
    keyRing: 'example 1 的第一个数',
    runningTitle: '{k} 步之后的 running statistics',
    keyTrace: 'running 统计量',
    keyTrace1: 'channel 1',
    keyTrace2: 'channel 2',
    keyTarget: '这个 batch 的统计量',
    keyRule: '每一步：running ← 0.9 · running + 0.1 · batch',
    runningMean: 'running mean',
    runningVar: 'running variance',
    stepsAxis: '训练步数',
    outTitle: 'example 1 的 {x1} 归一化后落在哪里',
    v_train: 'BatchNorm 训练',
    v_eval: 'BatchNorm 评估',
    v_ghost: 'Ghost BN',
    v_renorm: 'Batch Renorm',
    v_switchable: 'Switchable Norm',
    n_train: '这个 batch 的统计量',
    n_eval: 'running statistics',
    n_ghost: '所在的 {vbs} 个一块',
    n_ghostAll: '8 个一块',
    n_renorm: 'r_max {r}、d_max {d}',
    n_switchable: 'weight {w}',
    listSep: '、',
    sentenceSep: '',
    ledeTrain:
      '同一个 example，两个输出。训练时 BatchNorm 用这个 batch 的统计量归一化（channel 1 的 mean 为 {bm1}），example 1 的第一个数 1 变为 {train}。',
    ledeEval:
      '评估时改用 running statistics，它们每一步向 batch 的统计量靠近十分之一：{k} 步之后 mean 为 {rm1}，还没到 {bm1}，于是同一个 1 变为 {eval}。',
    ledeEval0:
      '评估时改用 running statistics；还没有训练过一步，它们仍是初始的 mean 0、variance 1，于是同一个 1 变为 {eval}。',
    ledeEvalSame:
      '评估时改用 running statistics，{k} 步之后 mean 为 {rm1}，已接近 batch 的 {bm1}，于是同一个 1 同样变为 {eval}。',
    ledeGhost:
      'Ghost BN 把 batch 分成每块 {vbs} 个 examples，每块用自己的统计量归一化：example 1 所在的块（examples 1 到 {vbs}）中 channel 1 的 mean 为 {cm1}，而不是整个 batch 的 {bm1}，于是 1 变为 {ghost}，训练模式下的 BatchNorm 则给出 {train}。',
    ledeGhostAll:
      '块大小为 8 时，唯一的一块就是整个 batch，所以 Ghost BN 与训练模式下的 BatchNorm 相同：{ghost}。块更小时，每块各用自己的统计量。',
    ledeRenorm: 'Batch Renorm 在训练时把 batch 统计量向 running statistics 校正，让训练提前看到评估时会用的统计量。',
    ledeRenormSame: '这里 r_max = {r}、d_max = {d} 都没有截断，于是 1 变为 {renorm}，正是评估模式的结果。',
    ledeRenormR:
      '这里 r_max = {r} 截断了尺度的校正（d_max = {d} 没有截断），于是 1 变为 {renorm}；训练模式给出 {train}，评估模式给出 {eval}。',
    ledeRenormD:
      '这里 d_max = {d} 截断了 mean 的校正（r_max = {r} 没有截断），于是 1 变为 {renorm}；训练模式给出 {train}，评估模式给出 {eval}。',
    ledeRenormBoth:
      '这里 r_max = {r} 截断了尺度的校正，d_max = {d} 截断了 mean 的校正，于是 1 变为 {renorm}；训练模式给出 {train}，评估模式给出 {eval}。',
    ledeSwitch:
      'Switchable Norm 不只用 batch 的统计量，而是混合三种：weights {wIN}、{wLN}、{wBN} 分别给 InstanceNorm 的（example 1 这 3 个位置的 mean 为 {inMean}）、LayerNorm 的（它的 6 个数：{lnMean}）与 BatchNorm 的（{bnMean}）。于是 1 变为 {switchable}，训练模式下的 BatchNorm 则给出 {train}。',
    ledeAll:
      'example 1 的第一个数 1 在五种变体下：训练 {train}，评估 {eval}，Ghost BN {ghost}，Batch Renorm {renorm}，Switchable Norm {switchable}。它们都保留 BatchNorm 的公式，只改变统计量的来源。',
    describeBatch:
      '训练模式下的 BatchNorm 把 8 个 examples 中每个 channel 的 24 个数汇集在一起（channel 1 的 mean 为 {bm1}），于是 example 1 的 channel 1 (1, 2, 3) 变为 {train1}。',
    describeRunning0:
      '评估模式改用 running statistics；还没有训练过一步，它们仍是 mean (0, 0)、variance (1, 1)，于是给出 {eval1}。',
    describeRunning:
      '评估模式改用 running statistics，它们每个训练步向 batch 的统计量靠近十分之一；{k} 步之后为 mean {rm}、variance {rv}，于是给出 {eval1}。',
    describeGhost:
      'Ghost BN 只用 example 1 所在的块，即 examples 1 到 {vbs}（其中 channel 1 的 mean 为 {cm1}）：{ghost1}。',
    describeGhostAll: '每块 8 个的 Ghost BN 用的是整个 batch，与 BatchNorm 相同：{ghost1}。',
    describeRenormSame:
      'Batch Renorm 把 batch 统计量向 running statistics 校正；r_max = {r}、d_max = {d} 时没有截断，所以结果与评估模式相同：{renorm1}。',
    describeRenormR:
      'Batch Renorm 把 batch 统计量向 running statistics 校正，但 r_max = {r} 截断了尺度的校正（d_max = {d} 没有截断）：{renorm1}。',
    describeRenormD:
      'Batch Renorm 把 batch 统计量向 running statistics 校正，但 d_max = {d} 截断了 mean 的校正（r_max = {r} 没有截断）：{renorm1}。',
    describeRenormBoth:
      'Batch Renorm 把 batch 统计量向 running statistics 校正，但 r_max = {r} 截断了尺度的校正，d_max = {d} 截断了 mean 的校正：{renorm1}。',
    describeSwitch:
      'Switchable Norm 以 weights {wIN}、{wLN}、{wBN} 混合三种统计量：InstanceNorm 的（这 3 个位置的 mean 为 {inMean}）、LayerNorm 的（example 1 的 6 个数：{lnMean}）与 BatchNorm 的（这个 channel 的 24 个数：{bnMean}）。结果为 {switchable1}。',
  },
};
