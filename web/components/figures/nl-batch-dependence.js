// <nl-batch-dependence> — BatchNorm in training and in evaluation. The
// article's batch (1, 10), (3, 20), (5, 30) is batch 1; batch 2 holds the same
// example of interest with other companions. In training each example is
// normalized with its own batch's statistics, so the example's output changes
// with its companions; in evaluation the running statistics are used, so both
// batches give it the same output. Training steps update the running
// statistics with momentum (PyTorch: unbiased batch variance in the update,
// biased variance for the normalization itself).
//
// Attributes: batch ("1,10,3,20,5,30": rows of two features, 2..8 rows),
//   companions ("-3,16,2,4": the other rows of batch 2, 1..7 rows),
//   chosen (0: the row of `batch` that is the example of interest),
//   steps (5; 0..100: training steps on batch 1 taken when the figure opens or
//   the attribute changes), momentum (0.1; 0..1), lang.
// Properties: batch, companions, chosen, steps, momentum; state (read-only):
//   {batch, companions, chosen, momentum, eps, rows: [rows of batch 1, rows
//   of batch 2] (each [[f1, f2], ...]), train: [outputs per row, per batch],
//   eval: [same in evaluation mode], chosenRow: [row index of the example in
//   batch 1, in batch 2], chosenTrain: [its output in batch 1, in batch 2],
//   chosenEval: [same in evaluation], running: {mean, var}, initial (true
//   while the running statistics are mean 0, variance 1), batchStats:
//   [{mean, var (biased), unbiased}], steps, domain, ticks, clipped: [[bool
//   per output value] per panel: train 1, train 2, eval 1, eval 2], error}.
// Events: change (reader's actions only). Keyboard: the example select, the
//   momentum slider, buttons "Training step on batch 1/2" and "Reset running
//   statistics".
// CSS custom properties: --nl-batch-norm (BatchNorm outputs: feature 1 solid,
//   feature 2 outlined), --nl-chosen (frame of the example of interest), and
//   the shared --nl-*.
// Parts: figure, controls, slider, number, select, button, view, legend,
//   description, error.
// The y-axis is fixed for a given batch: it covers the training outputs and
// the evaluation outputs under either batch's own statistics, so training
// steps never rescale it; evaluation values beyond it (e.g. before any
// update, when evaluation returns about the raw input) are drawn cut off at
// the edge with a notch.
// Numbers from the core: batch_norm (training and evaluation; with momentum 1
// from mean 0, variance 1 it reports a batch's mean and unbiased variance),
// covariance (the biased variance), axis_ticks.
import { el } from '../lib/base.js';
import { NlFigure, figureCss } from '../lib/figure.js';
import { scale, svg, yAxis } from '../lib/plot.js';

const vec = NlFigure.vec;
const MAX_ROWS = 8;
const INITIAL = { mean: [0, 0], var: [1, 1] };
const EPS = 1e-5;

/** Rows of two features from a flat list. */
const rowsOf = (flat) => Array.from({ length: flat.length / 2 }, (_, i) => [flat[2 * i], flat[2 * i + 1]]);

export class NlBatchDependence extends NlFigure {
  static catalog = 'batchDependence';
  static summary = 'BatchNorm in training and evaluation, and its running statistics.';
  static minHeight = 781; // px kept by normlab/styles.css (measured at 960 px, default attributes)
  static phoneMinHeight = { en: 1570, zh: 1486 }; // px kept up to 600 px wide (measured at 360 px, default attributes)
  static stateDoc =
    '`rows`, `train`, `eval`, `chosenTrain`, `chosenEval`, `batchStats`, `running`, `initial`, `steps`, `clipped`'; // `state` keys beyond the attributes (README)
  static params = {
    batch: {
      attr: 'batch',
      kind: 'vector',
      minLength: 4,
      maxLength: 2 * MAX_ROWS,
      default: [1, 10, 3, 20, 5, 30],
      doc: 'batch 1: rows of two features, 2 to 8 rows',
    },
    companions: {
      attr: 'companions',
      kind: 'vector',
      minLength: 2,
      maxLength: 2 * (MAX_ROWS - 1),
      default: [-3, 16, 2, 4],
      doc: 'the other rows of batch 2, 1 to 7 rows',
    },
    chosen: {
      attr: 'chosen',
      kind: 'number',
      integer: true,
      default: 0,
      min: 0,
      max: MAX_ROWS - 1,
      doc: 'the row of batch 1 followed through both batches',
    },
    steps: {
      attr: 'steps',
      kind: 'number',
      integer: true,
      default: 5,
      min: 0,
      max: 100,
      doc: 'training steps on batch 1 taken when the figure opens (or this attribute changes)',
    },
    momentum: {
      attr: 'momentum',
      kind: 'number',
      default: 0.1,
      min: 0,
      max: 1,
      step: 0.05,
      control: 'slider',
      doc: 'momentum of the running statistics',
    },
  };
  static css = `${figureCss}
:host { --nl-feature-fill-2: color-mix(in srgb, var(--nl-batch-norm) 22%, var(--nl-bg)); }
.f1 { fill: var(--nl-batch-norm); }
.f2 { fill: var(--nl-feature-fill-2); stroke: var(--nl-batch-norm); stroke-width: 1.5; }
.cut { stroke: var(--nl-bg); stroke-width: 2.5; }
.chosen-frame { fill: none; stroke: var(--nl-chosen); stroke-width: 2; }
.tick.chosen { fill: var(--nl-chosen); font-weight: 700; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: var(--nl-small-size); color: var(--nl-muted); margin: 4px 0; }
.legend span { display: inline-flex; align-items: center; gap: 5px; }
.swatch { width: 14px; height: 12px; border-radius: 2px; display: inline-block; }
.swatch.f1 { background: var(--nl-batch-norm); }
.swatch.f2 { background: var(--nl-feature-fill-2); border: 1.5px solid var(--nl-batch-norm); }
.swatch.frame { border: 2px solid var(--nl-chosen); }
.steps { display: flex; flex-wrap: wrap; gap: 8px; }
.table-wrap { overflow-x: auto; max-width: 100%; }
td { white-space: nowrap; }
th, td { padding-right: 6px; }
.table-wrap .numbers { font-size: 0.8em; }
caption { text-align: left; color: var(--nl-muted); padding-bottom: 2px; }
/* a phone: the four columns fit 360 px without scrolling (the header's long word may wrap) */
@container (max-width: 400px) { th, td { padding-right: 2px; } th { white-space: normal; } .table-wrap .numbers { font-size: 0.7em; } }
th[scope=row] { font-weight: 600; }
`;

  constructor() {
    super();
    this._running = structuredClone(INITIAL);
    this._steps = 0;
  }

  /** Lists of two features: an odd count is refused with a localized message. */
  parseValue(key, text) {
    const r = super.parseValue(key, text);
    if (!r.error && (key === 'batch' || key === 'companions') && r.value.length % 2) {
      return { error: this.t('badRows', { name: key, value: text }) };
    }
    return r;
  }

  buildControls(box) {
    const label = el('label', { class: 'control' });
    this._chosenText = el('span');
    this._select = el('select', { part: 'select' });
    this._select.addEventListener('change', () => this.setByUser('chosen', this._select.value));
    label.append(this._chosenText, this._select);
    box.append(label);
    super.buildControls(box);
    const steps = el('div', { class: 'steps' });
    steps.append(
      this.button('step1', () => this._step(0)),
      this.button('step2', () => this._step(1)),
      this.button('resetStats', () => {
        this._running = structuredClone(INITIAL);
        this._steps = 0;
      }),
    );
    box.append(steps);
  }

  languageChanged() {
    this._chosenText.textContent = this.t('chosen');
    this._select.setAttribute('aria-label', this.t('chosen'));
    this._legend.replaceChildren(
      ...[
        ['f1', 'feature1'],
        ['f2', 'feature2'],
        ['frame', 'legendChosen'],
      ].map(([cls, key]) => {
        const s = el('span');
        s.append(el('i', { class: `swatch ${cls}`, 'aria-hidden': 'true' }), this.t(key));
        return s;
      }),
    );
  }

  /** The rows of batch k (0: the article's batch; 1: the example with other companions). */
  _batch(k) {
    const { batch, companions, chosen } = this._values;
    const data = k === 0 ? batch : [batch[2 * chosen], batch[2 * chosen + 1], ...companions];
    return { shape: [data.length / 2, 2], data };
  }

  // One training forward pass: the core returns the updated running statistics.
  _step(k) {
    // while the figure shows an error it shows the last good state: a step would change numbers nobody sees
    if (this._attrErrors.size || this._coreError) return;
    try {
      const out = this._core.run(
        'batch_norm',
        {
          x: this._batch(k),
          running_mean: vec(this._running.mean),
          running_var: vec(this._running.var),
        },
        { training: true, momentum: this._values.momentum, eps: EPS },
      );
      this._running = { mean: Array.from(out.running_mean.data), var: Array.from(out.running_var.data) };
      this._steps += 1;
    } catch {
      // compute() runs the same call next and shows the core's message
    }
  }

  buildView(view) {
    this._svg = svg(640, 340);
    this._legend = el('p', { class: 'legend', part: 'legend' });
    this._table = el('table', { class: 'numbers' });
    const wrap = el('div', { class: 'table-wrap' });
    wrap.append(this._table);
    this._readout = el('p', { class: 'numbers' });
    this._formula = el('p', { class: 'numbers' });
    view.append(this._legend, this._svg, this._readout, wrap, this._formula);
  }

  compute(core, { chosen, momentum, steps }) {
    const n = this._values.batch.length / 2;
    if (chosen >= n) {
      throw Object.assign(new Error(`chosen (${chosen}) must name a row of the batch (0..${n - 1})`), {
        code: 'chosenRange',
        detail: { chosen, last: n - 1 },
      });
    }
    // the figure opens `steps` training steps into batch 1, where evaluation's outputs are already on the axis
    // (at 0 steps it returns about the raw input, cut off past the axis); a new `steps` starts over from there
    if (this._openedAt !== steps) {
      this._openedAt = steps;
      this._running = structuredClone(INITIAL);
      this._steps = 0;
      for (let i = 0; i < steps; i++) this._step(0);
    }
    const batches = [this._batch(0), this._batch(1)];
    const bn = (x, stats, training) =>
      rowsOf(
        Array.from(
          this._core.run(
            'batch_norm',
            {
              x,
              running_mean: vec(stats.mean),
              running_var: vec(stats.var),
            },
            { training, momentum, eps: EPS },
          ).y.data,
        ),
      );
    const train = batches.map((x) => bn(x, this._running, true));
    const evalOut = batches.map((x) => bn(x, this._running, false));
    // momentum 1 from (0, 1): the running statistics become the batch's mean and unbiased variance
    const batchStats = batches.map((x) => {
      const o = this._core.run(
        'batch_norm',
        { x, running_mean: vec(INITIAL.mean), running_var: vec(INITIAL.var) },
        { momentum: 1, eps: EPS },
      );
      const cov = this.op('covariance', { x });
      return { mean: Array.from(o.running_mean.data), var: [cov[0], cov[3]], unbiased: Array.from(o.running_var.data) };
    });
    // The axis depends on the data only: training outputs and evaluation under
    // either batch's own statistics. Steps and momentum never rescale it.
    const settled = batchStats.flatMap((st) => batches.map((x) => bn(x, { mean: st.mean, var: st.unbiased }, false)));
    const axis = this.axis([...train.flat(2), ...settled.flat(2)], { symmetric: true, count: 4 });
    const [lo, hi] = axis.domain;
    const panels = [train[0], train[1], evalOut[0], evalOut[1]];
    const chosenRow = [chosen, 0];
    return {
      eps: EPS,
      rows: batches.map((x) => rowsOf(x.data)),
      train,
      eval: evalOut,
      chosenRow,
      chosenTrain: train.map((t, k) => t[chosenRow[k]]),
      chosenEval: evalOut.map((t, k) => t[chosenRow[k]]),
      running: structuredClone(this._running),
      initial: this._running.mean.every((v) => v === 0) && this._running.var.every((v) => v === 1),
      batchStats,
      steps: this._steps,
      domain: axis.domain,
      ticks: axis.ticks,
      clipped: panels.map((p) => p.map((row) => row.map((v) => v < lo || v > hi))),
    };
  }

  // ---- formatting: one formatter per quantity ------------------------------------
  fmtIn(v) {
    return this.fmt(v, 4);
  }
  fmtOut(v) {
    return this.fmt(v, 4);
  }
  fmtStat(v) {
    return this.fmt(v, 4);
  }
  fmtM(v) {
    return this.fmt(v, 3);
  }
  rowText(row, f = (v) => this.fmtIn(v)) {
    return `(${row.map(f).join(', ')})`;
  }
  outText(row) {
    return this.rowText(row, (v) => this.fmtOut(v));
  }
  statText(row) {
    return this.rowText(row, (v) => this.fmtStat(v));
  }

  _syncControls() {
    super._syncControls();
    if (!this._select) return;
    const rows = rowsOf(this._values.batch);
    const labels = rows.map((r) => this.rowText(r));
    if (
      this._select.options.length !== labels.length ||
      labels.some((l, i) => this._select.options[i].textContent !== l)
    ) {
      this._select.replaceChildren(...labels.map((l, i) => el('option', { value: i }, l)));
    }
    if (!this._attrErrors.has('chosen') && this._values.chosen < rows.length)
      this._select.value = String(this._values.chosen);
  }

  draw(s) {
    const narrow = (this.widthOf(this._svg) || 640) < 480;
    const cols = narrow ? 1 : 2,
      ph = 150,
      gap = 14;
    const H = (4 / cols) * ph + (4 / cols - 1) * gap;
    const W = this.fit(this._svg, 640, H);
    const pw = (W - (cols - 1) * gap) / cols;
    const m = { l: 40, r: 6, t: 24, b: 30 };
    const [lo, hi] = s.domain;
    const clamp = (v) => Math.min(hi, Math.max(lo, v));
    const items = [];
    const panels = [
      ['trainTitle', 0, s.train[0]],
      ['trainTitle', 1, s.train[1]],
      ['evalTitle', 0, s.eval[0]],
      ['evalTitle', 1, s.eval[1]],
    ];
    panels.forEach(([title, k, out], p) => {
      const x0 = (p % cols) * (pw + gap),
        y0 = Math.floor(p / cols) * (ph + gap);
      const y = scale(s.domain, [y0 + ph - m.b, y0 + m.t]);
      const g = el('g', { class: `panel panel-${p}` });
      g.append(el('text', { class: 'panel-title', x: x0 + m.l, y: y0 + 14 }, this.t(title, { k: k + 1 })));
      g.append(yAxis(s.ticks, y, x0 + m.l, x0 + pw - m.r, (v) => this.fmt(v, 3)));
      g.append(el('line', { class: 'zero', x1: x0 + m.l, x2: x0 + pw - m.r, y1: y(0), y2: y(0) }));
      const rows = s.rows[k];
      const gw = (pw - m.l - m.r) / rows.length;
      const bw = Math.min(18, gw * 0.3);
      rows.forEach((row, i) => {
        const cx = x0 + m.l + gw * (i + 0.5);
        const chosen = i === s.chosenRow[k];
        if (chosen) {
          g.append(
            el('rect', {
              class: 'chosen-frame',
              x: (cx - gw / 2 + 2).toFixed(1),
              width: (gw - 4).toFixed(1),
              y: y0 + m.t - 4,
              // down past the row's label (baseline ph − 10, descenders 3 px below it): the frame holds it whole
              height: ph - m.t - m.b + 8 + 24,
              rx: 4,
            }),
          );
        }
        out[i].forEach((v, f) => {
          const bx = cx + (f === 0 ? -bw - 1 : 1);
          const top = Math.min(y(clamp(v)), y(0)),
            height = Math.abs(y(clamp(v)) - y(0));
          const r = el('rect', {
            class: `bar f${f + 1}`,
            x: bx.toFixed(1),
            width: bw.toFixed(1),
            y: top.toFixed(1),
            height: height.toFixed(1),
            rx: 1.5,
          });
          r.dataset.value = String(v);
          g.append(r);
          if (s.clipped[p][i][f]) {
            // a notch across the bar near its cut end
            const ye = y(clamp(v)) + (v > hi ? 7 : -7);
            g.append(
              el('path', {
                class: 'cut',
                d: `M${(bx - 1).toFixed(1)},${(ye + 2).toFixed(1)}L${(bx + bw + 1).toFixed(1)},${(ye - 2).toFixed(1)}`,
              }),
            );
          }
        });
        g.append(
          el(
            'text',
            { class: `tick${chosen ? ' chosen' : ''}`, x: cx.toFixed(1), y: y0 + ph - 10, 'text-anchor': 'middle' },
            this.rowText(row),
          ),
        );
      });
      items.push(g);
    });
    this._svg.replaceChildren(...items);

    const head = el('tr');
    for (const h of ['colStats', 'colMean', 'colVar', 'colUnbiased'])
      head.append(el('th', { scope: 'col' }, this.t(h)));
    const rows = [
      ['batchStats', s.batchStats[0], 1],
      ['batchStats', s.batchStats[1], 2],
      ['runningStats', s.running, 0],
    ].map(([label, st, k]) => {
      const tr = el('tr');
      tr.append(
        el('th', { scope: 'row' }, this.t(label, { k, steps: this._stepsText(s.steps) })),
        el('td', {}, this.statText(st.mean)),
      );
      if (st.unbiased) tr.append(el('td', {}, this.statText(st.var)), el('td', {}, this.statText(st.unbiased)));
      else tr.append(el('td', {}, '—'), el('td', {}, this.statText(st.var)));
      return tr;
    });
    this._table.replaceChildren(
      el('caption', {}, this.t('tableCaption', { steps: this._stepsText(s.steps) })),
      head,
      ...rows,
    );
    this._readout.textContent = this.t('readout', {
      x: this.rowText(s.rows[0][s.chosenRow[0]]),
      t1: this.outText(s.chosenTrain[0]),
      t2: this.outText(s.chosenTrain[1]),
      e1: this.outText(s.chosenEval[0]),
      e2: this.outText(s.chosenEval[1]),
    });
    this._formula.textContent = this.t('formula', { m: this.fmtM(s.momentum) });
  }

  _stepsText(n) {
    return this.t(n === 1 ? 'stepsOne' : 'stepsMany', { n });
  }

  describe(s) {
    const x = this.rowText(s.rows[0][s.chosenRow[0]]);
    const others = (k) =>
      s.rows[k]
        .filter((_, i) => i !== s.chosenRow[k])
        .map((r) => this.rowText(r))
        .join(this.t('listSep'));
    const [t1, t2] = s.chosenTrain.map((r) => this.outText(r));
    const [e1, e2] = s.chosenEval.map((r) => this.outText(r));
    const parts = [];
    parts.push(
      t1 === t2
        ? this.t('describeTrainSame', { x, t: t1, c1: others(0), c2: others(1) })
        : this.t('describeTrain', { x, t1, t2, c1: others(0), c2: others(1) }),
    );
    const e = e1 === e2 ? this.t('bothBatches', { e: e1 }) : this.t('eachBatch', { e1, e2 });
    if (s.initial) {
      parts.push(this.t('describeEvalInitial', { e }));
      if (s.steps > 0) parts.push(this.t('momentumZero', { steps: this._stepsText(s.steps) }));
    } else {
      parts.push(
        this.t('describeEval', {
          steps: this._stepsText(s.steps),
          mean: this.statText(s.running.mean),
          var: this.statText(s.running.var),
          e,
        }),
      );
    }
    if (s.clipped.flat(2).some(Boolean)) parts.push(this.t('describeCut'));
    return parts.join(this.t('sentenceSep'));
  }
}
NlBatchDependence.defineProperties();

// The figure's strings, English and Chinese (t(key); a language added with registerLocale overrides them).
NlBatchDependence.strings = {
  en: {
    name: 'BatchNorm in training and in evaluation',
    chosen: 'Example of interest',
    momentum: 'Momentum',
    step1: 'Training step on batch 1',
    step2: 'Training step on batch 2',
    resetStats: 'Reset running statistics',
    trainTitle: 'Training, batch {k}',
    evalTitle: 'Evaluation, batch {k}',
    feature1: 'feature 1',
    feature2: 'feature 2',
    legendChosen: 'example of interest (bars cut off past the axis carry a notch)',
    colStats: 'statistics',
    colMean: 'mean',
    colVar: 'variance',
    colUnbiased: 'unbiased variance',
    batchStats: 'batch {k}',
    runningStats: 'running',
    tableCaption: 'Statistics per feature, (feature 1, feature 2); running ones after {steps}.',
    stepsOne: '1 training step',
    stepsMany: '{n} training steps',
    readout: 'Example {x}: training {t1} in batch 1, {t2} in batch 2; evaluation {e1} in batch 1, {e2} in batch 2.',
    formula:
      'Each training step: running = (1 − {m}) · running + {m} · batch statistic, using the unbiased variance; the batch itself is normalized with the biased one.',
    listSep: ', ',
    sentenceSep: ' ',
    describeTrain:
      'In training, example {x} becomes {t1} next to {c1} (batch 1) and {t2} next to {c2} (batch 2): its output depends on its companions.',
    describeTrainSame: 'In training, example {x} becomes {t} both next to {c1} (batch 1) and next to {c2} (batch 2).',
    bothBatches: '{e} in both batches',
    eachBatch: '{e1} in batch 1 and {e2} in batch 2',
    describeEvalInitial:
      'Evaluation uses the running statistics, which start at mean (0, 0) and variance (1, 1) before any update, so it returns about the raw input: {e}.',
    momentumZero: 'With momentum 0, {steps} left the running statistics unchanged.',
    describeEval:
      'Evaluation uses the running statistics after {steps} (mean {mean}, variance {var}) and gives {e}: the companions no longer matter.',
    describeCut: 'Values beyond the axis are drawn cut off, with a notch.',
    badRows: '{name} must list pairs of numbers, two features per example (got "{value}").',
    error_chosenRange: 'chosen ({chosen}) must name a row of the batch, from 0 to {last}.',
  },
  zh: {
    name: 'BatchNorm 的训练模式与评估模式',
    chosen: '关注的 example',
    momentum: '动量',
    step1: '在 batch 1 上训练一步',
    step2: '在 batch 2 上训练一步',
    resetStats: '重置 running statistics',
    trainTitle: '训练，batch {k}',
    evalTitle: '评估，batch {k}',
    feature1: 'feature 1',
    feature2: 'feature 2',
    legendChosen: '关注的 example（超出坐标轴的柱子被截断，带缺口）',
    colStats: '统计量',
    colMean: 'mean',
    colVar: 'variance',
    colUnbiased: '无偏 variance',
    batchStats: 'batch {k}',
    runningStats: 'running',
    tableCaption: '各 feature 的统计量（feature 1, feature 2）；running statistics 为{steps}之后的值。',
    stepsOne: '训练 1 步',
    stepsMany: '训练 {n} 步',
    readout:
      'Example {x}：训练模式在 batch 1 中为 {t1}，在 batch 2 中为 {t2}；评估模式在 batch 1 中为 {e1}，在 batch 2 中为 {e2}。',
    formula:
      '每个训练步：running = (1 − {m}) · running + {m} · batch 统计量，variance 用无偏估计；batch 自身的标准化用有偏 variance。',
    listSep: '、',
    sentenceSep: '',
    describeTrain:
      '训练模式下，example {x} 与 {c1} 同在 batch 1 时变为 {t1}，与 {c2} 同在 batch 2 时变为 {t2}：输出取决于同伴。',
    describeTrainSame: '训练模式下，example {x} 与 {c1} 同在 batch 1、与 {c2} 同在 batch 2 时都变为 {t}。',
    bothBatches: '两个 batch 中都是 {e}',
    eachBatch: 'batch 1 中为 {e1}，batch 2 中为 {e2}',
    describeEvalInitial:
      '评估模式使用 running statistics；尚未更新时它们是 mean (0, 0)、variance (1, 1)，所以输出约等于原始输入：{e}。',
    momentumZero: '动量为 0，{steps}后 running statistics 仍未改变。',
    describeEval: '评估模式使用{steps}后的 running statistics（mean {mean}，variance {var}），{e}：同伴不再起作用。',
    describeCut: '超出坐标轴的值画成截断的柱子，带缺口。',
    badRows: '{name} 需要成对的数，每个 example 两个 features（收到的是“{value}”）。',
    error_chosenRange: 'chosen（{chosen}）必须是 batch 中的一行，从 0 到 {last}。',
  },
};
