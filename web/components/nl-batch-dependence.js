// <nl-batch-dependence> — BatchNorm in training and in evaluation: the same
// example A normalized alongside two different sets of companions, and the
// running-statistics update (momentum, unbiased variance) step by step.
//
// Attributes: example ("2,10"), momentum (0.1; 0..1), lang.
// Properties: example, momentum; state (read-only): {example, momentum,
//   batches, train: [A in batch 1, A in batch 2], eval: [..], running:
//   {mean, var}, batchStats: [{mean, var}], steps, error}.
// Events: change. Keyboard: the momentum slider; buttons "Training step on
//   batch 1/2" and "Reset running statistics".
// Parts: figure, controls, slider, number, button, view, description, error.
// Numbers from the core: batch_norm in both modes (with momentum 1 it also
// reports a batch's mean and unbiased variance), axis_ticks.
import { el } from './base.js';
import { NlFigure, figureCss } from './figure.js';
import { svg } from './plot.js';

const vec = NlFigure.vec;
const COMPANIONS = [
  [[0, 8], [4, 14], [2, 6]],
  [[6, 30], [8, 26], [10, 34]],
];

export class NlBatchDependence extends NlFigure {
  static catalog = 'batchDependence';
  static params = {
    example: { attr: 'example', kind: 'vector', length: 2, default: [2, 10] },
    momentum: { attr: 'momentum', kind: 'number', default: 0.1, min: 0, max: 1, step: 0.05, control: 'slider' },
  };
  static css = figureCss;

  constructor() {
    super();
    this._running = { mean: [0, 0], var: [1, 1] };
    this._steps = 0;
  }

  buildControls(box) {
    super.buildControls(box);
    box.append(this.button('step1', () => this._step(0)), this.button('step2', () => this._step(1)),
      this.button('resetStats', () => {
        this._running = { mean: [0, 0], var: [1, 1] };
        this._steps = 0;
      }));
  }

  _batch(k) {
    return { shape: [4, 2], data: [...this._values.example, ...COMPANIONS[k].flat()] };
  }

  // One training forward pass: the core returns the updated running statistics.
  _step(k) {
    const out = this._core.run('batch_norm', {
      x: this._batch(k), running_mean: vec(this._running.mean), running_var: vec(this._running.var),
    }, { training: true, momentum: this._values.momentum });
    this._running = { mean: Array.from(out.running_mean.data), var: Array.from(out.running_var.data) };
    this._steps += 1;
  }

  buildView(view) {
    this._svg = svg(640, 220);
    this._table = el('table', { class: 'numbers' });
    this._formula = el('p', { class: 'numbers' });
    view.append(this._svg, this._table, this._formula);
  }

  compute() {
    const run = (k, training) => this._core.run('batch_norm', {
      x: this._batch(k), running_mean: vec(this._running.mean), running_var: vec(this._running.var),
    }, { training, momentum: this._values.momentum });
    const rowA = (out) => Array.from(out.y.data.slice(0, 2));
    const train = [0, 1].map((k) => rowA(run(k, true)));
    const evalOut = [0, 1].map((k) => rowA(run(k, false)));
    // momentum 1 from (0, 1): the running statistics become the batch's mean and unbiased variance
    const batchStats = [0, 1].map((k) => {
      const o = this._core.run('batch_norm', { x: this._batch(k), running_mean: vec([0, 0]), running_var: vec([1, 1]) }, { momentum: 1 });
      return { mean: Array.from(o.running_mean.data), var: Array.from(o.running_var.data) };
    });
    const all = [...train.flat(), ...evalOut.flat()];
    return {
      batches: [0, 1].map((k) => this._batch(k).data),
      train, eval: evalOut, running: { ...this._running }, batchStats, steps: this._steps,
      ...this.axisFields('domain', 'ticks', all, { symmetric: true, count: 4 }),
    };
  }

  draw(s) {
    this.groupedBars(this._svg, this.t('chartTitle'), [['trainBatch1', s.train[0], 'bar-a'], ['trainBatch2', s.train[1], 'bar-b'], ['evalBatch1', s.eval[0], 'bar-c'], ['evalBatch2', s.eval[1], 'bar-d']], { domain: s.domain, ticks: s.ticks });
    const head = el('tr');
    for (const h of ['colStats', 'colMean', 'colVar']) head.append(el('th', { scope: 'col' }, this.t(h)));
    const rows = [
      ['batch1Stats', s.batchStats[0]], ['batch2Stats', s.batchStats[1]], ['runningStats', s.running],
    ].map(([label, st]) => {
      const tr = el('tr');
      tr.append(el('th', { scope: 'row' }, this.t(label, { steps: s.steps })), el('td', {}, this.fmtList(st.mean)), el('td', {}, this.fmtList(st.var)));
      return tr;
    });
    this._table.replaceChildren(head, ...rows);
    this._formula.textContent = this.t('formula', { m: this.fmt(s.momentum) });
  }

  describe(s) {
    return this.t('describe', {
      a: this.fmtList(s.example), t1: this.fmtList(s.train[0], 3), t2: this.fmtList(s.train[1], 3), e: this.fmtList(s.eval[0], 3),
    });
  }
}
NlBatchDependence.defineProperties();
