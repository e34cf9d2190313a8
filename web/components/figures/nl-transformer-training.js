// <nl-transformer-training> — a small causal transformer trained on the article's own text, character by
// character, four ways: Post-LN, Pre-LN, Pre-RMSNorm, and Pre-RMSNorm with QK-Norm (RMSNorm on each head's
// queries and keys). At a large learning rate the attention logits of the variants without QK-Norm grow
// tenfold and more while QK-Norm keeps them small, and Post-LN stalls. The figure opens on its recorded runs
// (web/components/data/transformer-opening.js from scripts/gen-transformer-opening.mjs: the same training
// module through the same driver), which Play trains again, step for step, in a Web Worker.
//
// Attributes: lr (one of the sweep's six rates, 0.1), layers (2; 1..4), text (auto | en | zh: the text it
//   trains on; auto follows the figure's language), lang.
// Properties: those; state (read-only): {lr, layers, text, language (the text trained on), chance (ln of the
//   vocabulary's size), variants: [{id, enabled, loss (every step), val (every 10 steps), maxLogit, entropy
//   (per 10 steps, one number per layer), status ('training' | 'done' | 'diverged'), sample, attention, T}],
//   step, playing, recorded, sweep: [{variant, lr, val, peak, status}], sweepRunning, where, error}.
// Methods: play(), pause(), stepOnce() (10 steps), reset(), runSweep().
// Events: change (a setting, Reset).
// Keyboard: every control; Play/Pause, Step, Reset and Sweep are buttons.
// Colours: Post-LN --nl-reference (dashed), Pre-LN --nl-layer-norm, Pre-RMS --nl-rms-norm (dotted),
//   Pre-RMS + QK-Norm --nl-input (thick). Attention weights shaded in the text colour.
// Parts: figure, controls, select, button, view, description, error.
// Numbers from the core: tfm_init, tfm_step, tfm_grad and tfm_sample from the training module in a Worker
//   (trainerWorker); log_axis and axis_ticks from the core.
import { el } from '../lib/base.js';
import { NlFigure, figureCss } from '../lib/figure.js';
import { dots, line, scale, svg, xAxis, yAxis } from '../lib/plot.js';
import { trainerWorker } from '../../core/normlab.js';
import { CHUNK, LRS, PROMPT, VARIANTS, probe, tokens, train } from '../lib/transformer.js';

// The recorded sweep (196 KB of numbers) is a module of its own, fetched when the figure starts (preload
// below), so a bundle that imports the figure does not carry it in the figure's chunk.
let OPENING = null;
let openingLoad = null;

const IDS = Object.keys(VARIANTS);
const STEPS = 300;
const BEHIND = 0.25; // held-out loss above the best shown variant's at which the text says a variant falls behind
const lrText = (v) => String(v);
const PANEL = { left: 44, right: 10, top: 92, bottom: 240 }; // the margins of the panels against step

export class NlTransformerTraining extends NlFigure {
  static catalog = 'transformerTraining';
  static summary =
    'A small transformer trained on the article in a Worker: Post-LN, Pre-LN, Pre-RMS, Pre-RMS + QK-Norm.';
  static preload() {
    return (openingLoad ??= import('../data/transformer-opening.js').then(
      (m) => void (OPENING = m.OPENING),
      (e) => {
        openingLoad = null; // a failed fetch is tried again at the next start
        throw e;
      },
    ));
  }

  static minHeight = 1279; // px kept by normlab/styles.css (measured at 960 px, default attributes)
  static phoneMinHeight = { en: 2514, zh: 2523 }; // px kept up to 600 px wide (measured at 360 px, default attributes)
  static stateDoc =
    '`variants` (per variant `post_ln`, `pre_ln`, `pre_rms`, `pre_rms_qk`: `loss`, `val`, `maxLogit`, `entropy`, `status`, `sample`), `step`, `playing`, `recorded`, `sweep`, `where`';
  static params = {
    lr: {
      attr: 'lr',
      kind: 'choice',
      default: '0.1',
      choices: LRS.map(lrText),
      control: 'select',
      doc: 'the learning rate (peak, after 30 warm-up steps)',
    },
    layers: {
      attr: 'layers',
      kind: 'choice',
      default: '2',
      choices: ['1', '2', '3', '4'],
      control: 'select',
      doc: 'transformer blocks',
    },
    text: {
      attr: 'text',
      kind: 'choice',
      default: 'auto',
      choices: ['auto', 'en', 'zh'],
      doc: "the text it learns: the article's English or Chinese (auto: the figure's language)",
    },
  };
  static css = `${figureCss}
.tt-panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 300px), 1fr)); gap: 10px; }
.run, .variants { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: center; }
.variants label { min-height: 44px; }
input[type=checkbox] { width: 24px; height: 24px; margin: 0; flex: none; }
.controls { flex-direction: column; align-items: stretch; }
.settings { display: flex; flex-wrap: wrap; gap: 8px 18px; align-items: center; }
.v-post_ln { stroke: var(--nl-reference); } .v-pre_ln { stroke: var(--nl-layer-norm); }
.v-pre_rms { stroke: var(--nl-rms-norm); } .v-pre_rms_qk { stroke: var(--nl-input); }
.f-post_ln { fill: var(--nl-reference); } .f-pre_ln { fill: var(--nl-layer-norm); }
.f-pre_rms { fill: var(--nl-rms-norm); } .f-pre_rms_qk { fill: var(--nl-input); }
.c-post_ln { color: var(--nl-reference); } .c-pre_ln { color: var(--nl-layer-norm); }
.c-pre_rms { color: var(--nl-rms-norm); } .c-pre_rms_qk { color: var(--nl-input); }
.series { fill: none; stroke-width: 2; }
.v-post_ln.series { stroke-dasharray: 7 3; } .v-pre_rms.series { stroke-dasharray: 2 3; stroke-width: 2.4; }
.v-pre_rms_qk.series { stroke-width: 2.8; }
.dots.held-dots { stroke-opacity: 1; stroke-width: 5.2; }
.series.batch { stroke-width: 1; stroke-opacity: 0.35; stroke-dasharray: none; }
.chance { stroke: var(--nl-reference); stroke-dasharray: 3 3; stroke-width: 1.5; }
.key { font-size: var(--nl-small-size); }
.cell { fill: var(--nl-input); shape-rendering: crispEdges; } /* more colour, more weight (light and dark alike) */
.cell-frame { fill: none; stroke: var(--nl-grid); }
.recorded { margin: 0 0 6px; font-size: 0.9em; }
.samples { margin: 8px 0 0; padding: 0; list-style: none; font-size: 0.9em; }
.samples li { margin: 2px 0; overflow-wrap: anywhere; }
.samples code { font-family: var(--nl-mono, ui-monospace, monospace); white-space: pre-wrap; }
.swatch { display: inline-block; width: 0.8em; height: 0.8em; border-radius: 2px; background: currentColor; margin-inline-end: 4px; }
.progress { font-size: 0.9em; }
`;

  constructor() {
    super();
    this._playing = false;
    this._pool = null;
    this._runs = null;
    this._enabled = new Set(IDS);
  }

  buildControls(outer) {
    const run = el('div', { class: 'run' });
    this._playButton = el('button', { type: 'button', part: 'button', 'aria-pressed': 'false' });
    this._playButton.addEventListener('click', () => (this._playing ? this.pause() : this.play()));
    this._stepButton = el('button', { type: 'button', part: 'button' });
    this._stepButton.addEventListener('click', () => this.stepOnce());
    this._resetButton = el('button', { type: 'button', part: 'button' });
    this._resetButton.addEventListener('click', () => this.reset());
    this._sweepButton = el('button', { type: 'button', part: 'button' });
    this._sweepButton.addEventListener('click', () => this.runSweep());
    run.append(this._playButton, this._stepButton, this._resetButton, this._sweepButton);
    const variants = el('div', { class: 'variants', role: 'group' });
    this._variantGroup = variants;
    this._checks = IDS.map((id) => {
      const label = el('label', { class: `control c-${id}` });
      const box = el('input', { type: 'checkbox', part: 'checkbox', value: id });
      box.checked = true;
      box.addEventListener('change', () => {
        if (box.checked) this._enabled.add(id);
        else this._enabled.delete(id);
        if (this._state && !this._state.error) {
          this._state = Object.freeze({
            ...this._state,
            variants: this._state.variants.map((v) => ({ ...v, enabled: this._enabled.has(v.id) })),
          });
          this.render();
        }
        this.emitChange();
      });
      const text = el('span');
      label.append(el('span', { class: 'swatch', 'aria-hidden': 'true' }), box, text);
      variants.append(label);
      return { box, text, id };
    });
    const settings = el('div', { class: 'settings' });
    super.buildControls(settings);
    outer.append(run, variants, settings);
  }

  buildView(view) {
    this._note = el('p', { class: 'recorded muted' });
    const box = el('div', { class: 'tt-panels' });
    this._svgs = ['loss', 'logit', 'sweep', 'map'].map((k) => svg(340, 280, k));
    box.append(...this._svgs);
    const label = el('label', { class: 'control' });
    this._headText = el('span');
    this._headSelect = el('select', { part: 'select' });
    this._headSelect.addEventListener('change', () => {
      this._head = Number(this._headSelect.value);
      this.render();
    });
    label.append(this._headText, this._headSelect);
    this._head = 0;
    this._samples = el('ul', { class: 'samples' });
    this._progress = el('p', { class: 'progress muted', role: 'status' });
    view.append(this._note, box, label, this._progress, this._samples);
    this.pauseWhenHidden(); // training stops when the figure leaves the screen
  }

  disconnectedCallback() {
    this.pause();
    this._stopSweep();
    this._pool?.then((p) => p.forEach((w) => w.close()));
    this._pool = null;
    super.disconnectedCallback();
  }

  languageChanged() {
    this._variantGroup.setAttribute('aria-label', this.t('variantsLabel'));
    for (const c of this._checks) c.text.textContent = this.t(`v_${c.id}`);
    this._stepButton.textContent = this.t('step');
    this._resetButton.textContent = this.t('reset');
    this._headText.textContent = this.t('headLabel');
    this._headSelect.setAttribute('aria-label', this.t('headLabel'));
    this._syncButtons();
    // the text trained on follows the language when `text` is auto: a new opening (queued, so that a switch
    // there and back in one task is one compute)
    if (
      this._state &&
      !this._state.error &&
      this._values.text === 'auto' &&
      this._state.language !== this._language()
    ) {
      this.pause();
      this._stopSweep();
      this._goLive = false;
      this.refresh();
    }
  }

  _language() {
    return this._values.text === 'auto' ? (this.lang === 'zh' ? 'zh' : 'en') : this._values.text;
  }

  _syncButtons() {
    if (!this._playButton) return;
    this._playButton.textContent = this.t(this._playing ? 'pause' : 'play');
    this._playButton.setAttribute('aria-pressed', String(this._playing));
    this._sweepButton.textContent = this.t(this._sweeping ? 'sweepStop' : 'sweep');
    this._sweepButton.setAttribute('aria-pressed', String(Boolean(this._sweeping)));
  }

  compute(core, v) {
    this.pause();
    this._stopSweep();
    const language = this._language();
    const lr = Number(v.lr),
      layers = Number(v.layers);
    const vocab = tokens(language).vocab.length;
    // ln(vocab), the loss of a uniform guess: the entropy of softmax(0, ..., 0) over the vocabulary
    const uniform = core.run('softmax', { x: { shape: [1, vocab], data: new Float32Array(vocab) } }).y;
    const lnVocab = core.run('row_entropy', { p: uniform }).entropy.data[0];
    this._token = (this._token ?? 0) + 1; // chunks of an earlier run still out are dropped
    const live = this._goLive;
    this._goLive = false;
    this._runs = null;
    const recorded = !live && layers === 2 && OPENING?.[language] ? OPENING[language] : null;
    // the axes that do not change with training: computed once here, not at every drawing
    const lrLog = core.run('log_axis', { x: { shape: [LRS.length], data: Float32Array.from(LRS) } }, { count: 6 });
    const base = {
      stepAxis: this.axis([0, STEPS], { count: 4, include_zero: true }),
      lrLog: Array.from(lrLog.y.data),
      // the axis spans the six rates themselves (0.001 to 0.3), not the decades around them: no empty run past 0.3
      lrDomain: [lrLog.y.data[0], lrLog.y.data[LRS.length - 1]],
      lr,
      layers,
      language,
      chance: lnVocab,
      step: 0,
      playing: false,
      recorded: false,
      sweepRunning: false,
      where: this._where ?? null,
      prompt: PROMPT[language],
      variants: IDS.map((id) => ({
        id,
        enabled: this._enabled.has(id),
        loss: [],
        val: [],
        maxLogit: [],
        entropy: [],
        status: 'training',
        sample: '',
        attention: null,
        T: 0,
      })),
      sweep:
        layers === 2 && OPENING?.[language] ? OPENING[language].map((r) => this._sweepPoint(r.variant, r.lr, r)) : [],
    };
    if (!recorded) return this._withAxes(base);
    const variants = base.variants.map((vs) => {
      const r = recorded.find((k) => k.variant === vs.id && k.lr === lr);
      if (!r) return vs;
      return {
        ...vs,
        loss: r.loss,
        val: r.val,
        maxLogit: r.maxLogit,
        entropy: r.entropy,
        status: r.status,
        sample: r.sample ?? '',
        attention: r.attention ? r.attention.map((p) => p / 100) : null,
        T: r.T ?? 0,
      };
    });
    const step = Math.max(...variants.map((x) => x.loss.length));
    return this._withAxes({ ...base, variants, step, recorded: step > 0 });
  }

  /** A sweep point: the run's last validation loss and its largest attention logit (any layer, every 10 steps). */
  _sweepPoint(variant, lr, r) {
    return {
      variant,
      lr,
      val: r.val.at(-1) ?? NaN,
      peak: Math.max(0, ...r.maxLogit.flat()),
      status: r.status,
    };
  }

  /** State `s` with its axes (the core's axis_ticks and log_axis). */
  _withAxes(s) {
    const on = s.variants.filter((v) => v.loss.length);
    const losses = on.flatMap((v) => [...v.loss, ...v.val]).filter(Number.isFinite);
    const lossAxis = this.axis([...losses, s.chance], { count: 5, include_zero: false });
    // attention logits span decades (2 to 3,000): a log axis
    const logits = on.flatMap((v) => v.maxLogit.flat()).filter((x) => x > 0);
    const logOf = (values) => {
      const flat = Float32Array.from(values.length ? values : [1, 10]);
      const out = this._core.run('log_axis', { x: { shape: [flat.length], data: flat } }, { count: 4 });
      return { y: Array.from(out.y.data), domain: Array.from(out.domain.data), ticks: Array.from(out.ticks.data) };
    };
    const logit = logOf(logits);
    let at = 0;
    const variants = s.variants.map((v) => {
      const n = v.maxLogit.flat().filter((x) => x > 0).length;
      const ys = logit.y.slice(at, (at += n));
      return { ...v, maxLogitLog: ys };
    });
    const sweepVals = s.sweep.map((p) => p.val).filter(Number.isFinite);
    const sweepAxis = this.axis([...sweepVals], { count: 4, include_zero: false });
    return {
      ...s,
      variants,
      lossAxis,
      logitAxis: { domain: logit.domain, ticks: logit.ticks },
      sweep: s.sweep,
      sweepAxis,
    };
  }

  // ---- training ------------------------------------------------------------------------------
  /** The workers: one per variant up to the cores the browser reports, less one for the page. */
  _workers() {
    this._pool ??= (async () => {
      const n = Math.max(1, Math.min(IDS.length, (globalThis.navigator?.hardwareConcurrency ?? 2) - 1));
      const first = await trainerWorker();
      this._where = first.where;
      if (first.where === 'main') return [first];
      const rest = await Promise.all(Array.from({ length: n - 1 }, () => trainerWorker()));
      return [first, ...rest];
    })();
    this._pool.catch(() => (this._pool = null));
    return this._pool;
  }

  /** From the recorded runs, a fresh live start of the same settings. */
  _leaveRecorded() {
    if (!this._state?.recorded || this._state.error) return;
    this._goLive = true;
    this.updateNow();
  }

  /** Each variant's run (its driver, in its worker), made at the first Play or Step. */
  async _ensureRuns() {
    if (this._runs) return this._runs;
    const pool = await this._workers();
    const s = this._state;
    this._runs = IDS.map((id, i) => ({
      id,
      worker: pool[i % pool.length],
      gen: train(pool[i % pool.length].run, {
        variant: id,
        lr: s.lr,
        layers: s.layers,
        lang: s.language,
        steps: STEPS,
      }),
      params: null,
      busy: null,
    }));
    return this._runs;
  }

  /** One chunk (10 steps) of variant run `r`; folds it into the state. */
  async _chunk(r, token) {
    const { value, done } = await r.gen.next();
    if (token !== this._token) return false;
    const s = this._state;
    const i = IDS.indexOf(r.id);
    const v = s.variants[i];
    if (done || !value) return false;
    r.params = value.params;
    const layers = s.layers;
    const measures = { maxLogit: v.maxLogit.slice(), entropy: v.entropy.slice() };
    value.loss.forEach((_, k) => {
      const step = value.step - value.loss.length + k + 1;
      if (step % CHUNK === 0) {
        measures.maxLogit.push(value.maxLogit[k].slice(0, layers));
        measures.entropy.push(value.entropy[k].slice(0, layers));
      }
    });
    const next = {
      ...v,
      loss: v.loss.concat(value.loss),
      val: value.val === undefined ? v.val : v.val.concat(value.val),
      ...measures,
      status: value.status,
    };
    if (value.status !== 'training') {
      const p = await probe(r.worker.run, r.params, { variant: r.id, layers, lang: s.language });
      if (token !== this._token) return false;
      next.sample = p.sample;
      next.attention = p.attention;
      next.T = p.T;
    }
    this._commit(i, next);
    return next.status === 'training';
  }

  _commit(i, v) {
    const s = this._state;
    const variants = s.variants.slice();
    variants[i] = v;
    const step = Math.max(...variants.map((x) => x.loss.length));
    this._state = Object.freeze({ ...s, variants, step, playing: this._playing, where: this._where });
    this._stale = true;
    this._drawSoon();
  }

  /** A drawing of the newest state: its axes first, when chunks came in since the last. */
  render() {
    if (this._stale && this._state && !this._state.error) this._state = Object.freeze(this._withAxes(this._state));
    this._stale = false;
    super.render();
  }

  // The axes and one drawing at most every 200 ms (chunks from four workers arrive together): each is a task
  // of a few milliseconds, so the page's thread stays free while training.
  _drawSoon() {
    if (this._drawPending) return;
    this._drawPending = true;
    setTimeout(() => {
      this._drawPending = false;
      if (this._state && !this._state.error) this.render();
    }, 200);
  }

  async _drive(runs, token, once) {
    await Promise.all(
      runs.map(async (r) => {
        const v = () => this._state.variants[IDS.indexOf(r.id)];
        // a chunk still out (Step pressed while playing) comes back before this run asks for another
        while (r.busy) await r.busy;
        while (token === this._token && v().enabled && v().status === 'training') {
          r.busy = this._chunk(r, token);
          const more = await r.busy;
          r.busy = null;
          if (!more || once || !this._playing) break;
        }
      }),
    );
  }

  async _go(once) {
    const token = this._token;
    try {
      const runs = await this._ensureRuns();
      if (token !== this._token) return;
      await this._drive(runs, token, once);
    } catch (e) {
      if (token === this._token) this._showCoreError(e);
    }
    if (token === this._token && this._playing) {
      this._playing = false;
      this._syncButtons();
      this._state = Object.freeze({ ...this._state, playing: false });
      this.render();
    }
  }

  /** Train every shown variant on to step 300, in the workers. */
  play() {
    if (this._playing || !this._state || this._state.error) return;
    this._leaveRecorded();
    this._playing = true;
    this._syncButtons();
    this._state = Object.freeze({ ...this._state, playing: true });
    return this._go(false);
  }

  /**
   * Stops asking for steps. The steps already asked of a worker are kept when they come back: the returned
   * promise resolves then, with the state that holds them.
   */
  pause() {
    if (this._playing) {
      this._playing = false;
      this._syncButtons();
      if (this._state) this._state = Object.freeze({ ...this._state, playing: false });
    }
    return Promise.all((this._runs ?? []).map((r) => r.busy)).then(() => this._state);
  }

  /** Ten more steps of every shown variant. */
  stepOnce() {
    this.pause();
    if (!this._state || this._state.error) return;
    this._leaveRecorded();
    return this._go(true);
  }

  /** Back to what the page last set, and to its recorded runs. */
  reset(emit = true) {
    this.pause();
    this._stopSweep();
    this._goLive = false;
    if (emit) this.setValues(this.pageValues);
    this.updateNow();
    if (emit) this.emitChange();
  }

  _showCoreError(e) {
    this._coreError = this.coreMessage(e);
    this.render();
  }

  // ---- the sweep ---------------------------------------------------------------------------------
  /** Train all 24 runs (four variants x six rates) of the current depth and text in the workers. */
  async runSweep() {
    if (this._sweeping) return this._stopSweep();
    if (!this._state || this._state.error) return;
    const token = (this._sweepToken = (this._sweepToken ?? 0) + 1);
    this._sweeping = true;
    this._syncButtons();
    const s = this._state;
    this._state = Object.freeze({ ...s, sweep: [], sweepRunning: true });
    this.render();
    try {
      const pool = await this._workers();
      const jobs = IDS.flatMap((variant) => LRS.map((lr) => ({ variant, lr })));
      let next = 0;
      await Promise.all(
        pool.map(async (w) => {
          while (next < jobs.length && token === this._sweepToken) {
            const job = jobs[next++];
            const rec = { val: [], maxLogit: [], status: 'training' };
            for await (const c of train(w.run, { ...job, layers: s.layers, lang: s.language, steps: STEPS })) {
              if (token !== this._sweepToken) return;
              if (c.val !== undefined) rec.val.push(c.val);
              c.loss.forEach((_, k) => {
                if ((c.step - c.loss.length + k + 1) % CHUNK === 0) rec.maxLogit.push(c.maxLogit[k]);
              });
              rec.status = c.status;
            }
            if (token !== this._sweepToken) return;
            const sweep = [...this._state.sweep, this._sweepPoint(job.variant, job.lr, rec)];
            this._state = Object.freeze({ ...this._state, sweep });
            this._stale = true;
            this._drawSoon();
          }
        }),
      );
    } catch (e) {
      if (token === this._sweepToken) this._showCoreError(e);
    }
    if (token === this._sweepToken) this._stopSweep();
  }

  _stopSweep() {
    if (!this._sweeping) return;
    this._sweeping = false;
    this._sweepToken = (this._sweepToken ?? 0) + 1;
    this._syncButtons();
    if (this._state) {
      this._state = Object.freeze({ ...this._state, sweepRunning: false });
      this.render();
    }
  }

  // ---- drawing -------------------------------------------------------------------------------------
  _name(id) {
    return this.t(`v_${id}`);
  }

  /**
   * A panel against step: its axes on `axis` (y ticks written by `yFmt`), its title, what `body(x, y, items, W)`
   * draws, and the variants' key with the text `body` returns for each (a hidden variant says so).
   */
  _stepPanel(i, s, axis, yFmt, title, body) {
    const svgEl = this._svgs[i];
    const W = this.fit(svgEl, 340, 280);
    const { left, right, top, bottom } = PANEL;
    const x = scale(s.stepAxis.domain, [left, W - right]);
    const y = scale(axis.domain, [bottom, top]);
    const items = [
      xAxis(s.stepAxis.ticks, x, top, bottom, (v) => this.fmt(v, 4)),
      yAxis(axis.ticks, y, left, W - right, yFmt),
      el('text', { class: 'panel-title', x: 4, y: 16 }, title),
    ];
    const keyText = body(x, y, items, W);
    this._key(items, s, keyText);
    items.push(
      el('text', { class: 'tick', x: (left + W) / 2, y: bottom + 30, 'text-anchor': 'middle' }, this.t('stepAxis')),
    );
    svgEl.replaceChildren(...items);
  }

  /** The variants' key at the top left of a panel: a line in each one's colour and dashes, and `text(v)`. */
  _key(items, s, text) {
    s.variants.forEach((v, i) => {
      const ky = 34 + 14 * i;
      items.push(el('line', { class: `series v-${v.id}`, x1: 4, x2: 26, y1: ky - 4, y2: ky - 4 }));
      items.push(
        el(
          'text',
          { class: `key f-${v.id}`, x: 32, y: ky },
          v.enabled ? text(v) : this.t('keyOff', { name: this._name(v.id) }),
        ),
      );
    });
  }

  draw(s) {
    const f3 = (v) => this.fmt(v, 3);
    this._note.textContent = s.recorded ? this.t('recordedNote', { k: s.step }) : '';
    this._note.hidden = !s.recorded;
    this._syncButtons();
    this._progress.textContent = s.sweepRunning
      ? this.t('sweepProgress', { k: s.sweep.length, n: IDS.length * LRS.length })
      : '';
    const shown = s.variants.filter((v) => v.enabled);
    // 1. training loss (faint) and held-out loss (line and dots) against step
    this._stepPanel(
      0,
      s,
      s.lossAxis,
      (v) => this.fmt(v, 3),
      this.t('lossTitle', { k: s.step }),
      (x, y, items, W) => {
        const { left, right, top, bottom } = PANEL;
        items.push(
          el('line', { class: 'chance', x1: left, x2: W - right, y1: y(s.chance), y2: y(s.chance) }),
          el(
            'text',
            { class: 'tick', x: W - right, y: y(s.chance) - 5, 'text-anchor': 'end' },
            this.t('chance', { v: f3(s.chance) }),
          ),
        );
        for (const v of shown) {
          if (!v.loss.length) continue;
          items.push(
            line(
              v.loss.map((l, i) => [x(i + 1), y(l)]),
              `series batch v-${v.id}`,
            ),
          );
          // the held-out loss, every 10 steps: the curve to read (the training loss of single batches is noisy);
          // its dots one path per variant, not 30 circles: fewer nodes to lay out while it trains
          const held = v.val.map((l, i) => [x((i + 1) * CHUNK), y(l)]);
          if (held.length > 1) items.push(line(held, `series held v-${v.id}`));
          items.push(dots(held, `held-dots v-${v.id}`));
        }
        if (!s.step)
          items.push(
            el(
              'text',
              { class: 'tick', x: (left + W) / 2, y: (top + bottom) / 2, 'text-anchor': 'middle' },
              this.t('notYet'),
            ),
          );
        return (v) => this.t('lossKey', { name: this._name(v.id), v: v.val.length ? f3(v.val.at(-1)) : '–' });
      },
    );
    // 2. the largest attention logit (block 1) against step, log axis
    this._stepPanel(
      1,
      s,
      s.logitAxis,
      (k) => this.fmt(10 ** k, 4),
      this.t('logitTitle'),
      (x, y, items) => {
        for (const v of shown) {
          if (!v.maxLogit.length) continue;
          // block 1's value of each tenth step (maxLogitLog holds every layer's positive values in order)
          const pts = [];
          let at = 0;
          v.maxLogit.forEach((row, i) => {
            if (row[0] > 0) pts.push([x((i + 1) * CHUNK), y(v.maxLogitLog[at])]);
            at += row.filter((z) => z > 0).length;
          });
          items.push(line(pts, `series v-${v.id}`));
        }
        return (v) =>
          this.t('logitKey', {
            name: this._name(v.id),
            v: v.maxLogit.length ? this.fmt(Math.max(...v.maxLogit.map((r) => r[0])), 3) : '–',
          });
      },
    );
    // 3. the sweep: held-out loss at the end against learning rate, per variant (drawn again only when it changes:
    // a training chunk leaves it as it was)
    const same = (i, key) => {
      const k = JSON.stringify([key, this.lang, this.widthOf(this._svgs[i])]);
      if (this._drawnKeys?.[i] === k) return true;
      (this._drawnKeys ??= [])[i] = k;
      return false;
    };
    if (!same(2, [s.sweep, s.lr, s.sweepAxis, [...this._enabled]])) {
      const svgEl = this._svgs[2];
      const W = this.fit(svgEl, 340, 280);
      const left = 44,
        right = 14,
        top = 92,
        bottom = 240;
      const x = scale(s.lrDomain, [left + 8, W - right - 8]);
      const y = scale(s.sweepAxis.domain, [bottom, top]);
      const items = [
        yAxis(s.sweepAxis.ticks, y, left, W - right, (v) => this.fmt(v, 3)),
        el('text', { class: 'panel-title', x: 4, y: 16 }, this.t('sweepTitle')),
      ];
      LRS.forEach((lr, i) => {
        items.push(
          el('text', { class: 'tick', x: x(s.lrLog[i]), y: bottom + 14, 'text-anchor': 'middle' }, this.fmt(lr, 3)),
        );
        if (lr === s.lr)
          items.push(el('line', { class: 'chance', x1: x(s.lrLog[i]), x2: x(s.lrLog[i]), y1: top, y2: bottom }));
      });
      for (const id of IDS) {
        if (!this._enabled.has(id)) continue;
        const pts = s.sweep
          .filter((p) => p.variant === id && Number.isFinite(p.val))
          .sort((a, b) => a.lr - b.lr)
          .map((p) => [x(s.lrLog[LRS.indexOf(p.lr)]), y(p.val)]);
        if (pts.length > 1) items.push(line(pts, `series v-${id}`));
        for (const [px, py] of pts) items.push(el('circle', { class: `f-${id}`, cx: px, cy: py, r: 3.2 }));
      }
      this._key(items, s, (v) => {
        const here = s.sweep.find((p) => p.variant === v.id && p.lr === s.lr && Number.isFinite(p.val));
        return this.t('sweepKey', {
          name: this._name(v.id),
          v: here ? this.fmt(here.val, 3) : '–',
          lr: this.fmt(s.lr, 3),
        });
      });
      items.push(
        el('text', { class: 'tick', x: (left + W) / 2, y: bottom + 30, 'text-anchor': 'middle' }, this.t('lrAxis')),
      );
      svgEl.replaceChildren(...items);
    }
    // 4. one head's attention on the prompt: Pre-RMS beside Pre-RMS + QK-Norm
    // (the maps are new arrays whenever a run is probed: compared by identity)
    const maps = ['pre_rms', 'pre_rms_qk'].map((id) => s.variants.find((v) => v.id === id)?.attention);
    const mapsSame = this._drawnMaps?.every((m, i) => m === maps[i]);
    this._drawnMaps = maps;
    if (!same(3, [this._head, s.layers]) || !mapsSame) {
      const svgEl = this._svgs[3];
      const W = this.fit(svgEl, 340, 280);
      const heads = 2;
      const options = [];
      for (let l = 0; l < s.layers; l++) for (let h = 0; h < heads; h++) options.push([l, h]);
      if (this._headSelect.options.length !== options.length || this._headLang !== this.lang) {
        this._headLang = this.lang;
        this._headSelect.replaceChildren(
          ...options.map(([l, h], i) => el('option', { value: i }, this.t('headOption', { l: l + 1, h: h + 1 }))),
        );
        this._head = Math.min(this._head, options.length - 1);
      }
      this._headSelect.value = String(this._head);
      const [layer, head] = options[this._head] ?? [0, 0];
      const items = [
        el('text', { class: 'panel-title', x: 4, y: 16 }, this.t('mapTitle', { l: layer + 1, h: head + 1 })),
      ];
      const pair = ['pre_rms', 'pre_rms_qk'].map((id) => s.variants.find((v) => v.id === id));
      const size = Math.min((W - 24) / 2, 220);
      pair.forEach((v, k) => {
        const x0 = 4 + k * (size + 16),
          y0 = 50;
        items.push(el('text', { class: `key f-${v.id}`, x: x0, y: y0 - 8 }, this._name(v.id)));
        items.push(el('rect', { class: 'cell-frame', x: x0, y: y0, width: size, height: size }));
        if (!v.attention) {
          items.push(
            el(
              'text',
              { class: 'tick', x: x0 + size / 2, y: y0 + size / 2, 'text-anchor': 'middle' },
              this.t('mapLater'),
            ),
          );
          return;
        }
        const T = v.T,
          c = size / T;
        const base = (layer * heads + head) * T * T;
        // shaded in ten steps of weight, one path a step (a 32 x 32 map is 10 nodes, not 528)
        for (let q = 1; q <= 10; q++) {
          let path = '';
          for (let i = 0; i < T; i++)
            for (let j = 0; j <= i; j++) {
              const p = v.attention[base + i * T + j];
              if (Math.ceil(p * 10 - 1e-9) !== q) continue;
              path += `M${(x0 + j * c).toFixed(1)},${(y0 + i * c).toFixed(1)}h${c.toFixed(2)}v${c.toFixed(2)}h${(-c).toFixed(2)}z`;
            }
          if (path) items.push(el('path', { class: 'cell', d: path, 'fill-opacity': (q / 10).toFixed(1) }));
        }
      });
      items.push(el('text', { class: 'tick', x: 4, y: 50 + size + 18 }, this.t('mapKey')));
      items.push(el('text', { class: 'tick prompt', x: 4, y: 50 + size + 34 }, `«${s.prompt}»`));
      svgEl.setAttribute('viewBox', `0 0 ${W} ${Math.round(50 + size + 42)}`);
      svgEl.replaceChildren(...items);
    }
    // the samples
    this._samples.replaceChildren(
      ...shown
        .filter((v) => v.sample)
        .map((v) => {
          const li = el('li', { class: `c-${v.id}` });
          li.append(
            el('span', { class: 'swatch', 'aria-hidden': 'true' }),
            el('span', {}, this.t('sampleLabel', { name: this._name(v.id), k: v.loss.length })),
            // (the vocabulary's stand-in for a rare character, '⁇', as a box most fonts have)
            el('code', {}, `${s.prompt}▸${v.sample.replaceAll('⁇', '□')}`),
          );
          return li;
        }),
    );
  }

  describe(s) {
    const f = (v) => this.fmt(v, 3);
    const parts = [
      this.t('describeSetup', {
        L: s.layers,
        lr: f(s.lr),
        text: this.t(`text_${s.language}`),
        n: STEPS,
      }),
    ];
    if (s.recorded) parts.push(this.t('describeRecorded'));
    if (!s.step) parts.push(this.t('describeIdle'));
    const on = s.variants.filter((v) => v.enabled && v.loss.length);
    // a variant more than BEHIND above the best held-out loss among those shown (after 100 steps) falls behind
    const ends = on.filter((v) => v.val.length && v.status !== 'diverged').map((v) => v.val.at(-1));
    const best = Math.min(...ends);
    for (const v of on) {
      const peak = Math.max(0, ...v.maxLogit.map((r) => r[0]));
      const vars = { name: this._name(v.id), k: v.loss.length, v: f(v.val.at(-1) ?? v.loss.at(-1)), m: f(peak) };
      if (v.status === 'diverged') parts.push(this.t('describeDiverged', { ...vars, k: v.loss.length + 1 }));
      else if (ends.length > 1 && v.val.at(-1) > best + BEHIND && v.loss.length >= 100)
        parts.push(this.t('describeBehind', { ...vars, b: f(best) }));
      else parts.push(this.t('describeLoss', vars));
    }
    // what QK-Norm does to the logits, when both sides are shown
    const qk = on.find((v) => v.id === 'pre_rms_qk');
    const others = on.filter((v) => v.id !== 'pre_rms_qk' && v.maxLogit.length);
    if (qk?.maxLogit.length && others.length) {
      const peakOf = (v) => Math.max(0, ...v.maxLogit.map((r) => r[0]));
      const top = others.reduce((a, b) => (peakOf(b) > peakOf(a) ? b : a));
      if (peakOf(top) > 2 * peakOf(qk))
        parts.push(
          this.t('describeQk', {
            name: this._name(top.id),
            m: f(peakOf(top)),
            q: f(peakOf(qk)),
          }),
        );
      else parts.push(this.t('describeQkSmall', { q: f(peakOf(qk)), m: f(peakOf(top)) }));
    }
    // the sweep's shape: each variant's held-out loss at the largest rate against its best
    const sw = s.sweep.filter((p) => Number.isFinite(p.val) && this._enabled.has(p.variant));
    if (sw.length && !s.sweepRunning) {
      const per = IDS.filter((id) => sw.some((p) => p.variant === id)).map((id) => {
        const pts = sw.filter((p) => p.variant === id).sort((a, b) => a.lr - b.lr);
        const best = pts.reduce((a, b) => (b.val < a.val ? b : a));
        return { id, best, last: pts.at(-1) };
      });
      const least = per.reduce((a, b) => (b.last.val - b.best.val < a.last.val - a.best.val ? b : a));
      parts.push(
        this.t('describeSweep', {
          name: this._name(least.id),
          lr: f(least.last.lr),
          v: f(least.last.val),
          b: f(least.best.val),
          blr: f(least.best.lr),
        }),
      );
      // where each variant falls behind the best of the others at the same rate, and stays behind
      const bestAt = new Map(LRS.map((lr) => [lr, Math.min(...sw.filter((p) => p.lr === lr).map((p) => p.val))]));
      for (const { id } of per) {
        const pts = sw.filter((p) => p.variant === id).sort((a, b) => a.lr - b.lr);
        const behind = pts.map((p) => p.val > bestAt.get(p.lr) + BEHIND);
        const from = behind.findIndex((b, i) => behind.slice(i).every(Boolean));
        if (from > 0)
          parts.push(
            this.t('describeSweepBehind', { name: this._name(id), ok: f(pts[from - 1].lr), lr: f(pts[from].lr) }),
          );
      }
    }
    return parts.join(this.t('sentenceSep'));
  }
}
NlTransformerTraining.defineProperties();

NlTransformerTraining.strings = {
  en: {
    name: 'A small transformer trained on this article: where the norm sits, and QK-Norm',
    lr: 'Learning rate',
    layers: 'Blocks',
    text: 'Text',
    choice_auto: 'the page’s language',
    choice_en: 'English',
    choice_zh: 'Chinese',
    'choice_0.001': '0.001',
    'choice_0.003': '0.003',
    'choice_0.01': '0.01',
    'choice_0.03': '0.03',
    'choice_0.1': '0.1',
    'choice_0.3': '0.3',
    choice_1: '1',
    choice_2: '2',
    choice_3: '3',
    choice_4: '4',
    text_en: 'the article’s English text',
    text_zh: 'the article’s Chinese text',
    variantsLabel: 'Variants',
    v_post_ln: 'Post-LN',
    v_pre_ln: 'Pre-LN',
    v_pre_rms: 'Pre-RMS',
    v_pre_rms_qk: 'Pre-RMS + QK-Norm',
    play: 'Play',
    pause: 'Pause',
    step: 'Step (10)',
    reset: 'Reset',
    sweep: 'Run the sweep',
    sweepStop: 'Stop the sweep',
    sweepProgress: 'Sweep: {k} of {n} runs done.',
    chance: 'uniform guess: {v}',
    lossTitle: 'Loss, step {k} (dots: held-out text)',
    lossKey: '{name}: held-out {v}',
    keyOff: '{name}: not shown',
    stepAxis: 'step',
    notYet: 'press Play or Step',
    logitTitle: 'Largest attention logit, block 1',
    logitKey: '{name}: peak {v}',
    sweepTitle: 'Held-out loss after 300 steps',
    sweepKey: '{name}: {v} at {lr}',
    lrAxis: 'learning rate',
    headLabel: 'Attention head',
    headOption: 'block {l}, head {h}',
    mapTitle: 'Attention, block {l} head {h}',
    mapLater: 'after training',
    mapKey: 'row: a position of the prompt; more colour: more weight',
    sampleLabel: '{name} after {k} steps: ',
    recordedNote:
      'Recorded runs of these settings, {k} steps, drawn when the page opened. Play trains them again here, step for step.',
    describeSetup:
      'Four copies of one {L}-block transformer (width 32, 2 heads, 32 characters of context) start from the same weights and learn to predict the next character of {text}: AdamW, peak learning rate {lr}, {n} steps.',
    describeRecorded: 'These are the recorded runs; Play trains them again, step for step.',
    describeIdle: 'None has trained yet.',
    describeLoss: '{name}: held-out loss {v} after {k} steps; its largest attention logit in block 1 reached {m}.',
    describeBehind:
      '{name} falls behind: held-out loss {v} after {k} steps, against {b} for the best variant shown; its largest attention logit in block 1 reached {m}.',
    describeDiverged: '{name} diverged at step {k}: the loss or a weight would have blown up, so training stopped.',
    describeQk: 'With QK-Norm the largest attention logit stays at {q}; without it {name}’s reaches {m}.',
    describeSweepBehind: '{name} keeps up with the others up to rate {ok} and falls behind from {lr} on.',
    describeQkSmall:
      'At this rate the attention logits stay small with or without QK-Norm ({q} against {m}): raise the learning rate to see them grow.',
    describeSweep:
      'Across the sweep, {name} loses least at the largest rates: held-out {v} at rate {lr}, against its best {b} at {blr}.',
    sentenceSep: ' ',
  },
  zh: {
    name: '在这篇文章上训练一个小 transformer：norm 放在哪里，以及 QK-Norm',
    lr: '学习率',
    layers: 'block 数',
    text: '文本',
    choice_auto: '跟随页面语言',
    choice_en: '英文',
    choice_zh: '中文',
    'choice_0.001': '0.001',
    'choice_0.003': '0.003',
    'choice_0.01': '0.01',
    'choice_0.03': '0.03',
    'choice_0.1': '0.1',
    'choice_0.3': '0.3',
    choice_1: '1',
    choice_2: '2',
    choice_3: '3',
    choice_4: '4',
    text_en: '文章的英文文本',
    text_zh: '文章的中文文本',
    variantsLabel: '变体',
    v_post_ln: 'Post-LN',
    v_pre_ln: 'Pre-LN',
    v_pre_rms: 'Pre-RMS',
    v_pre_rms_qk: 'Pre-RMS + QK-Norm',
    play: '播放',
    pause: '暂停',
    step: '单步（10 步）',
    reset: '重置',
    sweep: '运行扫描',
    sweepStop: '停止扫描',
    sweepProgress: '扫描：已完成 {n} 次中的 {k} 次。',
    chance: '均匀猜测：{v}',
    lossTitle: 'Loss，第 {k} 步（点：留出）',
    lossKey: '{name}：留出 {v}',
    keyOff: '{name}：未显示',
    stepAxis: '步数',
    notYet: '按“播放”或“单步”',
    logitTitle: '最大 attention logit（block 1）',
    logitKey: '{name}：峰值 {v}',
    sweepTitle: '300 步后的留出 loss',
    sweepKey: '{name}：学习率 {lr} 时 {v}',
    lrAxis: '学习率',
    headLabel: 'Attention head',
    headOption: '第 {l} 个 block，第 {h} 个 head',
    mapTitle: 'Attention（block {l}，head {h}）',
    mapLater: '训练后显示',
    mapKey: '每行是提示词的一个位置；颜色越浓 weight 越大',
    sampleLabel: '{name} 训练 {k} 步后：',
    recordedNote: '这是按当前设置预先录好的训练（{k} 步），页面打开时就画出来。按“播放”会在这里一步一步重新训练。',
    describeSetup:
      '同一个 {L} 个 block 的 transformer（宽度 32，2 个 head，context 为 32 个字符）的四个副本，从相同的 weights 出发，学习预测 {text} 的下一个字符：AdamW，峰值学习率 {lr}，共 {n} 步。',
    describeRecorded: '这是预先录好的训练；按“播放”会一步一步重新训练出同样的结果。',
    describeIdle: '还没有开始训练。',
    describeLoss: '{name}：训练 {k} 步后留出 loss 为 {v}；第 1 个 block 的最大 attention logit 达到 {m}。',
    describeBehind:
      '{name} 落在后面：训练 {k} 步后留出 loss 为 {v}，而所显示的最好变体为 {b}；第 1 个 block 的最大 attention logit 达到 {m}。',
    describeDiverged: '{name} 在第 {k} 步发散：loss 或某个 weight 会爆炸，训练在此停止。',
    describeQk: '有 QK-Norm 时，最大的 attention logit 保持在 {q}；没有 QK-Norm 时，{name} 的达到 {m}。',
    describeSweepBehind: '{name} 在学习率 {ok} 及以下与其他变体相当，从 {lr} 起落在后面。',
    describeQkSmall:
      '在这个学习率下，有无 QK-Norm 的 attention logit 都不大（{q} 对 {m}）：调高学习率就能看到它们增长。',
    describeSweep:
      '在整个扫描中，{name} 在最大的学习率下损失最少：学习率 {lr} 时留出 loss 为 {v}，它的最好结果是学习率 {blr} 时的 {b}。',
    sentenceSep: '',
  },
};
