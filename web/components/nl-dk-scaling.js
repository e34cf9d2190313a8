// <nl-dk-scaling> — the spread of q·k scores for random queries and keys as
// the head width d_k grows: unscaled it grows like sqrt(d_k), divided by
// sqrt(d_k) it stays near 1, and QK-Norm with a learned scale g fixes it by g.
//
// Attributes: dk (64; a power of two from 1 to 1024), mode (raw | scaled |
//   qk_norm), g (8; QK-Norm's scale), seed (1), lang.
// Properties: dk, mode, g, seed; state (read-only): {dk, mode, g, seed, std,
//   scores, series: {dks, raw, scaled, qk_norm}, error}.
// Events: change. Keyboard: the d_k slider, the mode select, "New draw".
// Parts: figure, controls, slider, select, number, button, view, description, error.
// Every draw comes from the core's seeded generator (score_spread, random_normal).
import { el } from './base.js';
import { NlFigure, figureCss } from './figure.js';
import { dots, line, scale, svg, yAxis } from './plot.js';

const vec = NlFigure.vec;
const DKS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];
const SHOWN = 240;

export class NlDkScaling extends NlFigure {
  static catalog = 'dkScaling';
  static params = {
    dk: { attr: 'dk', kind: 'choice', choices: DKS.map(String), default: '64' },
    mode: { attr: 'mode', kind: 'choice', choices: ['raw', 'scaled', 'qk_norm'], default: 'scaled', control: 'select' },
    g: { attr: 'g', kind: 'number', default: 8, min: 0.1, max: 40, step: 0.1, control: 'slider' },
    seed: { attr: 'seed', kind: 'number', integer: true, default: 1, min: 0, max: 1e9 },
  };
  static css = figureCss + `
.strip .dots { stroke: var(--nl-b); stroke-width: 5.2; stroke-opacity: 0.55; }
.legend { display: flex; gap: 14px; font-size: 0.85em; color: var(--nl-muted); margin: 4px 0 0; }
.sw { display: inline-block; width: 14px; height: 3px; vertical-align: middle; margin-right: 4px; }
.sw.raw { background: var(--nl-b); } .sw.scaled { background: var(--nl-a); } .sw.qk_norm { background: var(--nl-c); }
`;

  buildControls(box) {
    // d_k moves over the powers of two: the slider holds the position in DKS.
    const label = el('label', { class: 'control' });
    const text = el('span');
    const range = el('input', { type: 'range', min: 0, max: DKS.length - 1, step: 1, part: 'slider' });
    const out = el('output');
    range.addEventListener('input', () => this.setByUser('dk', String(DKS[Number(range.value)])));
    label.append(text, range, out);
    this._dk = { text, range, out };
    box.append(label);
    super.buildControls(box);
    box.append(this.button('newDraw', () => {
      this._values.seed += 1;
      this.reflect('seed', this._values.seed);
    }));
  }

  languageChanged() {
    this._dk.text.textContent = this.t('dk');
    this._dk.range.setAttribute('aria-label', this.t('dk'));
  }

  _syncControls() {
    super._syncControls();
    this._dk.range.value = String(DKS.indexOf(Number(this._values.dk)));
    this._dk.range.setAttribute('aria-valuetext', this._values.dk);
    this._dk.out.textContent = this._values.dk;
    this._controls.g.text.parentElement.hidden = this._values.mode !== 'qk_norm';
  }

  buildView(view) {
    const panels = el('div', { class: 'panels' });
    this._lines = svg(340, 230);
    this._strip = svg(340, 230, 'strip');
    panels.append(this._lines, this._strip);
    this._legend = el('p', { class: 'legend' });
    view.append(panels, this._legend);
  }

  compute(core, { dk, mode, g, seed }) {
    // QK-Norm's score is g times a cosine of the same draws, so the core draws
    // with g = 1 once and scales by g (linear_map with W = [[g]]); moving g
    // redraws nothing.
    if (this._seriesSeed !== seed) {
      const series = { dks: DKS };
      for (const m of ['raw', 'scaled', 'qk_norm']) {
        series[m] = DKS.map((d) => this.op('score_spread', {}, { d_k: d, count: 400, seed, mode: m, g: 1 }, 'std')[0]);
      }
      this._base = series;
      this._seriesSeed = seed;
    }
    const byG = (v) => this.op('linear_map', { W: { shape: [1, 1], data: [g] }, points: { shape: [v.length, 1], data: v } });
    const series = { ...this._base, qk_norm: byG(this._base.qk_norm) };
    const base = this._draw(dk, mode, seed);
    this._prefetch(mode, seed);
    const [std, ...scores] = mode === 'qk_norm' ? byG([base.std, ...base.scores]) : [base.std, ...base.scores];
    const jitter = this._jitter?.seed === seed ? this._jitter.values : (this._jitter = { seed, values: this.op('random_normal', {}, { shape: [SHOWN], seed: seed + 1000, std: 0.35 }) }).values;
    const all = [...series.raw, ...series.scaled, ...series.qk_norm];
    return {
      std, scores, jitter, series,
      lineAxis: this.axis(all), stripAxis: this.axis(scores, { symmetric: true }),
    };
  }

  // One seeded draw of the core's score_spread (g = 1). Draws are kept per
  // (d_k, mode, seed) — the same numbers the core gives again — so moving back
  // and forth along the slider never waits for 800 x 1024 new normals.
  _draw(dk, mode, seed) {
    const key = `${dk}:${mode}:${seed}`;
    this._draws ??= new Map();
    let d = this._draws.get(key);
    if (!d) {
      const out = this._core.run('score_spread', {}, { d_k: Number(dk), count: 800, seed, mode, g: 1 });
      d = { std: out.std.data[0], scores: Array.from(out.scores.data.subarray(0, SHOWN)) };
      if (this._draws.size > 200) this._draws.clear();
      this._draws.set(key, d);
    }
    return d;
  }

  // Draw the other widths of the current mode while the page is idle, one per
  // idle slot, so that the first drag to d_k = 1024 is instant too.
  _prefetch(mode, seed) {
    const idle = globalThis.requestIdleCallback ?? ((f) => setTimeout(f, 30));
    const todo = DKS.filter((d) => !this._draws.has(`${d}:${mode}:${seed}`));
    if (!todo.length || this._prefetching) return;
    this._prefetching = true;
    const next = () => {
      const d = todo.shift();
      if (d === undefined || !this.isConnected || !this._core) return void (this._prefetching = false);
      this._draw(String(d), mode, seed);
      idle(next);
    };
    idle(next);
  }

  draw(s) {
    const W = 340, H = 230, m = { l: 40, r: 10, t: 24, b: 34 };
    const f = (v) => this.fmt(v, 3);
    const x = scale([0, DKS.length - 1], [m.l, W - m.r]);
    const y = scale(s.lineAxis.domain, [H - m.b, m.t]);
    const items = [el('text', { class: 'panel-title', x: m.l, y: 14 }, this.t('linesTitle')), yAxis(s.lineAxis.ticks, y, m.l, W - m.r, f)];
    DKS.forEach((d, i) => {
      if (i % 2 === 0) items.push(el('text', { class: 'tick', x: x(i), y: H - m.b + 14, 'text-anchor': 'middle' }, String(d)));
    });
    items.push(el('text', { class: 'tick', x: W - m.r, y: H - 4, 'text-anchor': 'end' }, 'd_k'));
    for (const [mode, cls] of [['raw', 'curve b'], ['scaled', 'curve'], ['qk_norm', 'curve c']]) {
      items.push(line(s.series[mode].map((v, i) => [x(i), y(v)]), cls));
    }
    const i = DKS.indexOf(Number(s.dk));
    items.push(el('circle', { class: 'marker', cx: x(i), cy: y(s.series[s.mode][i]), r: 6 }));
    this._lines.replaceChildren(...items);
    const sx = scale(s.stripAxis.domain, [m.l, W - m.r]);
    const strip = [el('text', { class: 'panel-title', x: m.l, y: 14 }, this.t('stripTitle', { dk: s.dk }))];
    strip.push(...s.stripAxis.ticks.map((t) => el('text', { class: 'tick', x: sx(t), y: H - m.b + 14, 'text-anchor': 'middle' }, f(t))));
    strip.push(dots(s.scores.map((v, k) => [sx(v), (H - m.b + m.t) / 2 + s.jitter[k] * 40]), 'scores'));
    this._strip.replaceChildren(...strip);
    this._legend.replaceChildren(...['raw', 'scaled', 'qk_norm'].map((mode) => {
      const span = el('span');
      span.append(el('span', { class: `sw ${mode}` }), this.t(`choice_${mode}`));
      return span;
    }));
  }

  describe(s) {
    const i = DKS.indexOf(Number(s.dk));
    return this.t('describe', {
      dk: s.dk, raw: this.fmt(s.series.raw[i], 3), scaled: this.fmt(s.series.scaled[i], 3),
      g: this.fmt(s.g), qk: this.fmt(s.series.qk_norm[i], 3), std: this.fmt(s.std, 3), mode: this.t(`choice_${s.mode}`),
    });
  }
}
NlDkScaling.defineProperties();
