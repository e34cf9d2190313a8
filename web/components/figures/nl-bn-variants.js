// <nl-bn-variants> — one batch of eight examples with two features, and what
// the BatchNorm family does to the first example, (1, 10): plain BatchNorm in
// training (statistics of all eight) and in evaluation (the running
// statistics), Ghost BatchNorm (statistics of small chunks of the batch),
// Batch Renorm (training statistics corrected toward the running ones, the
// correction clipped by r_max and d_max) and Switchable Norm (a learned mix of
// the InstanceNorm, LayerNorm and BatchNorm statistics).
//
// Attributes: vbs (Ghost BN's virtual batch size: "2", "4" or "8"), rmax
//   (Batch Renorm's r_max, 3; 1..5), bn-logit (Switchable Norm's logit for the
//   BatchNorm statistics, 0; −4..4; the other two are 0), lang.
// Properties: vbs, rmax, bnLogit; state (read-only): {vbs, rmax, bnLogit, batch
//   [8·2], running: {mean, var}, outputs: {train, eval, ghost, renorm,
//   switchable} (the first example's two outputs), mix (Switchable's weights
//   for IN, LN, BN), chunk (the examples in the first example's ghost batch),
//   axis, error}.
// Events: change (the reader moved a control). Keyboard: the select and sliders.
// Colours: --nl-batch-norm the training-time variants, --nl-reference
//   evaluation with the running statistics.
// Parts: figure, controls, slider, number, select, view, description, error.
// Numbers from the core: batch_norm, ghost_batch_norm, batch_renorm,
// switchable_norm, softmax (Switchable's weights), axis_ticks.
import { el } from '../lib/base.js';
import { NlFigure, figureCss } from '../lib/figure.js';
import { scale, svg, yAxis } from '../lib/plot.js';

const BATCH = [1, 10, 3, 20, 5, 30, 2, 12, 4, 18, 6, 25, 0, 8, 7, 33];
const RUNNING = { mean: [3, 15], var: [4, 60] }; // saved from earlier batches
const VARIANTS = ['train', 'eval', 'ghost', 'renorm', 'switchable'];

export class NlBnVariants extends NlFigure {
  static catalog = 'bnVariants';
  static summary = 'Ghost BN, Batch Renorm and Switchable Norm against plain BatchNorm on one batch.';
  static minHeight = 477; // px kept by normlab/styles.css (measured at 960 px, default attributes)
  static stateDoc = '`outputs` (`train`, `eval`, `ghost`, `renorm`, `switchable`), `mix`, `chunk`'; // `state` keys beyond the attributes (README)
  static params = {
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
      default: 3,
      min: 1,
      max: 5,
      step: 0.1,
      control: 'slider',
      doc: "Batch Renorm's r_max",
    },
    bnLogit: {
      attr: 'bn-logit',
      kind: 'number',
      default: 0,
      min: -4,
      max: 4,
      step: 0.1,
      control: 'slider',
      doc: "Switchable Norm's logit for the BatchNorm statistics (the other two are 0)",
    },
  };
  static css = `${figureCss}
.bar.train, .bar.ghost, .bar.renorm, .bar.switchable { fill: var(--nl-batch-norm); }
.bar.eval { fill: var(--nl-reference); }
.bar.f2 { fill: none; stroke-width: 2; }
.bar.f2.train, .bar.f2.ghost, .bar.f2.renorm, .bar.f2.switchable { stroke: var(--nl-batch-norm); } .bar.f2.eval { stroke: var(--nl-reference); }
.vlabel { font-size: var(--nl-small-size); fill: var(--nl-fg); text-anchor: middle; }
.vnote { font-size: var(--nl-small-size); fill: var(--nl-muted); text-anchor: middle; }
.key { font-size: var(--nl-small-size); fill: var(--nl-muted); }
`;

  buildView(view) {
    this._svg = svg(640, 256, 'variants');
    view.append(this._svg);
  }

  compute(core, { vbs, rmax, bnLogit }) {
    const x = { shape: [8, 2], data: BATCH };
    const rm = NlFigure.vec(RUNNING.mean),
      rv = NlFigure.vec(RUNNING.var);
    const first = (y) => Array.from(y.slice(0, 2));
    const logits = NlFigure.vec([0, 0, bnLogit]);
    const x4 = { shape: [8, 2, 1, 1], data: BATCH };
    const outputs = {
      train: first(this.op('batch_norm', { x }, { training: true }, 'y')),
      eval: first(this.op('batch_norm', { x, running_mean: rm, running_var: rv }, { training: false }, 'y')),
      ghost: first(this.op('ghost_batch_norm', { x }, { virtual_batch_size: Number(vbs) })),
      renorm: first(this.op('batch_renorm', { x, running_mean: rm, running_var: rv }, { r_max: rmax, d_max: 5 })),
      switchable: first(this.op('switchable_norm', { x: x4, mean_logits: logits, var_logits: logits })),
    };
    const mix = this.op('softmax', { x: logits });
    const chunk = Array.from({ length: Number(vbs) }, (_, i) => [BATCH[2 * i], BATCH[2 * i + 1]]);
    return {
      batch: BATCH,
      running: RUNNING,
      outputs,
      mix,
      chunk,
      axis: this.axis([...Object.values(outputs).flat(), -1.5, 1.5], { symmetric: true, count: 4 }),
    };
  }

  draw(s) {
    const W = this.fit(this._svg, 640, 276);
    const narrow = W < 520; // a phone: short names under the bars, the notes left to the description
    const left = 40,
      right = 10,
      top = 56,
      bottom = 212;
    const y = scale(s.axis.domain, [bottom, top]);
    const slot = (W - left - right) / VARIANTS.length,
      bw = Math.min(26, slot / 3);
    const items = [
      yAxis(s.axis.ticks, y, left, W - right, (v) => this.fmt(v, 3)),
      el('line', { class: 'zero', x1: left, x2: W - right, y1: y(0), y2: y(0) }),
    ];
    VARIANTS.forEach((k, j) => {
      const cx = left + (j + 0.5) * slot;
      s.outputs[k].forEach((v, f) => {
        items.push(
          el('rect', {
            class: `bar ${k}${f ? ' f2' : ''}`,
            x: (cx - bw + f * bw).toFixed(1),
            width: (bw - 2).toFixed(1),
            y: Math.min(y(v), y(0)).toFixed(1),
            height: Math.abs(y(v) - y(0)).toFixed(1),
            rx: 2,
          }),
        );
      });
      items.push(
        el('text', { class: 'vlabel', x: cx.toFixed(1), y: bottom + 18 }, this.t(`${narrow ? 'short' : 'v'}_${k}`)),
      );
      if (!narrow) items.push(el('text', { class: 'vnote', x: cx.toFixed(1), y: bottom + 33 }, this._note(s, k)));
    });
    items.push(el('text', { class: 'panel-title', x: left, y: 16 }, this.t('title')));
    items.push(
      el('text', { class: 'key', x: left, y: 31 }, this.t('keyBars')),
      el('text', { class: 'key', x: left, y: 46 }, this.t('key')),
    );
    this._svg.setAttribute('viewBox', `0 0 ${W} ${bottom + 44}`);
    this._svg.replaceChildren(...items);
  }

  _note(s, k) {
    const f = (v) => this.fmt(v, 2);
    if (k === 'ghost') return this.t('n_ghost', { vbs: s.vbs });
    if (k === 'renorm') return this.t('n_renorm', { r: this.fmt(s.rmax, 2) });
    if (k === 'switchable') return this.t('n_switchable', { w: f(s.mix[2]) });
    return this.t(`n_${k}`);
  }

  describe(s) {
    const L = (v) => this.fmtList(v, 3);
    const vars = {
      train: L(s.outputs.train),
      eval: L(s.outputs.eval),
      ghost: L(s.outputs.ghost),
      renorm: L(s.outputs.renorm),
      sw: L(s.outputs.switchable),
      vbs: s.vbs,
      chunk: s.chunk.map((c) => L(c)).join(this.t('listSep')),
      r: this.fmt(s.rmax, 2),
      mix: L(s.mix),
    };
    const renormKey = vars.renorm === vars.eval ? 'describeRenormSame' : 'describeRenorm'; // nothing clipped: the running statistics' output
    return [
      this.t('describeBase', vars),
      this.t(s.vbs === '8' ? 'describeGhostAll' : 'describeGhost', vars),
      this.t(renormKey, vars),
      this.t('describeSwitch', vars),
    ].join(this.t('sentenceSep'));
  }
}
NlBnVariants.defineProperties();
