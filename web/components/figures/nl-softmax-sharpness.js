// <nl-softmax-sharpness> — scores multiplied by a common factor (the query
// scale): a positive factor keeps the ranking and sharpens or flattens the
// selection; factor 0 makes every key tie. With two keys the first weight is a
// sigmoid of the score gap, drawn as a curve that flattens far from 0.
//
// Attributes: scores ("1,0"; 2 to 12 numbers), factor (1; 0..20), lang.
// Properties: scores, factor; state (read-only): {scores, factor, scaled,
//   weights, reference (weights at factor 1), top (first index of the
//   largest weight), leaders (every index whose weight equals the largest
//   exactly), gap (factor · (s1 − s2), two keys only, else null), curve:
//   {gaps, weights, domain, ticks} | null, unitTicks, error}.
// Events: change (reader's actions only). Keyboard: the factor slider and its
//   number box; buttons set factor 1 and 10.
// CSS custom properties: --nl-input (weights at the chosen factor, the
//   curve), --nl-reference (weights at factor 1), --nl-chosen (the marker at
//   the chosen factor) and the shared --nl-*.
// Parts: figure, controls, slider, number, button, view, numbers,
//   description, error.
// The sentences name ties as ties: keys whose weights print the same (5
// significant digits, the digits shown everywhere; below 0.001 as a power of
// ten) are reported together.
// Numbers from the core: film (the scaling), softmax, linear_map (the gap),
// linspace and axis_ticks.
import { el } from '../lib/base.js';
import { NlFigure, figureCss } from '../lib/figure.js';
import { bar, line, scale, svg, xAxis, yAxis } from '../lib/plot.js';

const vec = NlFigure.vec;
export const MAX_SCORES = 12;

export class NlSoftmaxSharpness extends NlFigure {
  static catalog = 'softmaxSharpness';
  static summary = 'Scores under a common scale, and the two-key sigmoid.';
  static minHeight = 384; // px kept by normlab/styles.css (measured at 960 px, default attributes)
  static phoneMinHeight = { en: 815, zh: 770 }; // px kept up to 600 px wide (measured at 360 px, default attributes)
  static stateDoc = '`scaled`, `weights`, `reference`, `top`, `leaders` (tied leaders), `gap`, `curve`'; // `state` keys beyond the attributes (README)
  static params = {
    scores: {
      attr: 'scores',
      kind: 'vector',
      minLength: 2,
      maxLength: MAX_SCORES,
      default: [1, 0],
      doc: 'the attention scores',
    },
    factor: {
      attr: 'factor',
      kind: 'number',
      default: 1,
      min: 0,
      max: 20,
      step: 0.1,
      control: 'slider',
      doc: 'the common scale of the scores',
    },
  };
  static css = `${figureCss}
.panes { display: grid; grid-template-columns: repeat(auto-fit, minmax(240px, 1fr)); gap: 10px; }
.pane-title { font-size: var(--nl-title-size); font-weight: 600; margin: 0 0 2px; }
.cur { fill: var(--nl-input); }
.curve { stroke: var(--nl-input); }
.marker { fill: var(--nl-chosen); stroke: var(--nl-bg); }
.tick.lead { font-weight: 700; fill: var(--nl-fg); }
.axis-name { font-size: var(--nl-small-size); fill: var(--nl-muted); }
.control > span { white-space: nowrap; }
`;

  buildControls(box) {
    super.buildControls(box);
    box.append(
      this.button('factor1', () => this._set('factor', 1)),
      this.button('factor10', () => this._set('factor', 10)),
    );
  }

  _set(key, v) {
    this._attrErrors.delete(key);
    this._values[key] = v;
    this.reflect(this.constructor.params[key].attr, v);
  }

  buildView(view) {
    const panes = el('div', { class: 'panes' });
    const pane = () => {
      const box = el('div');
      const title = el('p', { class: 'pane-title' });
      const s = svg(320, 200);
      box.append(title, s);
      panes.append(box);
      return [title, s];
    };
    [this._barsTitle, this._barsSvg] = pane();
    [this._curveTitle, this._curveSvg] = pane();
    this._numbers = el('p', { class: 'numbers', part: 'numbers' });
    view.append(panes, this._numbers);
  }

  compute(core, { scores, factor }) {
    const n = scores.length;
    const row = (a) => ({ shape: [1, n], data: a });
    const scaled = this.op('film', {
      x: row(scores),
      gamma: row(new Array(n).fill(factor)),
      beta: row(new Array(n).fill(0)),
    });
    const weights = this.op('softmax', { x: vec(scaled) });
    const reference = this.op('softmax', { x: vec(scores) });
    // the largest weight by a loop (never spread a list into Math.max)
    let top = 0;
    for (let i = 1; i < n; i++) if (weights[i] > weights[top]) top = i;
    const leaders = [];
    for (let i = 0; i < n; i++) if (weights[i] === weights[top]) leaders.push(i);
    const unit = this.op('axis_ticks', { x: vec([0, 1]) }, { count: 2 }, 'ticks');
    let gap = null,
      curve = null;
    if (n === 2) {
      gap = this.op('linear_map', {
        W: { shape: [1, 2], data: [factor, -factor] },
        points: { shape: [1, 2], data: scores },
      })[0];
      const axis = this.axis([gap, 8], { symmetric: true, count: 4 });
      const gaps = this.op('linspace', {}, { start: axis.domain[0], stop: axis.domain[1], count: 121 });
      const w = this.op('softmax', { x: { shape: [gaps.length, 2], data: gaps.flatMap((g) => [g, 0]) } });
      curve = { gaps, weights: w.filter((_, i) => i % 2 === 0), domain: axis.domain, ticks: axis.ticks };
    }
    return { scaled, weights, reference, top, leaders, gap, curve, unitTicks: unit };
  }

  // ---- one formatter per quantity -------------------------------------------------
  /** A weight: 5 significant digits, below 0.001 as a power of ten (4.5398 × 10⁻⁵, not 0.000045398). */
  fmtW(v) {
    return this.fmtSig(v, 5);
  }
  fmtScore(v) {
    return this.fmt(v, 4);
  }
  fmtFactor(v) {
    return this.fmt(v, 4);
  }
  fmtGap(v) {
    return this.fmt(v, 4);
  }

  /** Keys whose weight prints as the largest one does: a tie on screen is a tie in words. */
  _leaders(ws) {
    let top = 0;
    for (let i = 1; i < ws.length; i++) if (ws[i] > ws[top]) top = i;
    const shown = this.fmtW(ws[top]);
    const out = [];
    for (let i = 0; i < ws.length; i++) if (this.fmtW(ws[i]) === shown) out.push(i);
    return out;
  }

  draw(s) {
    const f = (v) => this.fmt(v, 3);
    const H = 200,
      m = { l: 36, r: 10, t: 10, b: 34 };
    const y = scale([0, 1], [H - m.b, m.t]);
    // weights per key: gray at factor 1, coloured at the chosen factor
    // at scale 1 the gray bars are the coloured ones: the title names one scale
    this._barsTitle.textContent =
      s.factor === 1 ? this.t('weightsTitleOne') : this.t('weightsTitle', { factor: this.fmtFactor(s.factor) });
    const W = this.fit(this._barsSvg, 320, H);
    const n = s.weights.length;
    const gw = (W - m.l - m.r) / n,
      bw = Math.min(26, gw * 0.36);
    const lead = new Set(this._leaders(s.weights));
    const bars = [yAxis(s.unitTicks, y, m.l, W - m.r, f)];
    for (let i = 0; i < n; i++) {
      const cx = m.l + gw * (i + 0.5);
      bars.push(bar(cx - bw - 1, bw, y, s.reference[i], 'bar-ref'), bar(cx + 1, bw, y, s.weights[i], 'cur'));
      bars.push(
        el(
          'text',
          { class: `tick${lead.has(i) ? ' lead' : ''}`, x: cx.toFixed(1), y: H - 20, 'text-anchor': 'middle' },
          String(i + 1),
        ),
      );
    }
    bars.push(
      el(
        'text',
        { class: 'axis-name', x: (m.l + (W - m.r)) / 2, y: H - 4, 'text-anchor': 'middle' },
        this.t('keyAxis'),
      ),
    );
    this._barsSvg.replaceChildren(...bars);
    // two keys: weight of key 1 against the gap
    // the curve exists for two keys only: otherwise the pane says so, without an empty chart
    this._curveTitle.textContent = this.t(s.curve ? 'curveTitle' : 'curveTwoKeys');
    this._curveSvg.toggleAttribute('hidden', !s.curve);
    if (!s.curve) {
      this._curveSvg.replaceChildren();
    } else {
      this._drawCurve(s, H, m, y, f);
    }
    this._numbers.textContent = this.t('numbers', {
      scaled: `(${s.scaled.map((v) => this.fmtScore(v)).join(', ')})`,
      weights: `(${s.weights.map((v) => this.fmtW(v)).join(', ')})`,
    });
  }

  _drawCurve(s, H, m, y, f) {
    const Wc = this.fit(this._curveSvg, 320, H);
    const x = scale(s.curve.domain, [m.l, Wc - m.r]);
    this._curveSvg.replaceChildren(
      yAxis(s.unitTicks, y, m.l, Wc - m.r, f),
      xAxis(s.curve.ticks, x, m.t, H - m.b, f),
      line(
        s.curve.gaps.map((g, i) => [x(g), y(s.curve.weights[i])]),
        'curve',
      ),
      el('circle', { class: 'marker', cx: x(s.gap).toFixed(1), cy: y(s.weights[0]).toFixed(1), r: 6 }),
      el(
        'text',
        { class: 'axis-name', x: (m.l + (Wc - m.r)) / 2, y: H - 4, 'text-anchor': 'middle' },
        this.t('gapAxis'),
      ),
    );
  }

  _keys(list) {
    const names = list.map((i) => String(i + 1));
    return names.length === 2 ? names.join(this.t('and')) : names.join(this.t('listSep'));
  }

  describe(s) {
    const n = s.weights.length;
    const now = this._leaders(s.weights);
    const ref = this._leaders(s.reference);
    const factor = this.fmtFactor(s.factor);
    const w = this.fmtW(s.weights[now[0]]);
    const parts = [];
    if (now.length === n) parts.push(this.t(s.factor === 0 ? 'allTieZero' : 'allTie', { factor, n, w }));
    else if (now.length > 1) parts.push(this.t('someTie', { factor, keys: this._keys(now), w }));
    else parts.push(this.t('oneLeads', { factor, key: now[0] + 1, w }));
    if (s.factor === 1) parts.push(this.t('atOne'));
    else {
      const from = this.fmtW(s.reference[ref[0]]);
      const same = ref.length === now.length && ref.every((i, k) => i === now[k]);
      if (same && now.length < n) {
        const change = from === w ? 'same' : s.weights[now[0]] > s.reference[ref[0]] ? 'sharper' : 'flatter';
        const who = now.length === 1 ? this.t('keyOne', { k: now[0] + 1 }) : this.t('keyMany', { k: this._keys(now) });
        parts.push(this.t(`ref_${change}`, { from, who }));
      } else if (ref.length === n) parts.push(this.t('refAllTie', { from }));
      else if (ref.length > 1) parts.push(this.t('refSomeTie', { keys: this._keys(ref), from }));
      else parts.push(this.t('refOne', { key: ref[0] + 1, from }));
    }
    if (s.gap !== null) {
      // where the marker sits on the sigmoid, read from the weight of key 1
      const w1 = s.weights[0];
      const where = w1 >= 0.99 || w1 <= 0.01 ? 'gapFlat' : w1 >= 0.1 && w1 <= 0.9 ? 'gapSteep' : 'gapBend';
      parts.push(this.t(where, { gap: this.fmtGap(s.gap) }));
    }
    return parts.join(this.t('sentenceSep'));
  }
}
NlSoftmaxSharpness.defineProperties();

// The figure's strings, English and Chinese (t(key); a language added with registerLocale overrides them).
NlSoftmaxSharpness.strings = {
  en: {
    name: 'Softmax sharpness under a common scale of the scores',
    factor: 'Query scale',
    factor1: 'Scale 1',
    factor10: 'Scale 10',
    weightsTitleOne: 'Attention weights at scale 1',
    weightsTitle: 'Attention weights at scale {factor} (gray: scale 1)',
    keyAxis: 'key',
    gapAxis: 'scaled score gap s₁ − s₂',
    curveTitle: 'Two keys: weight of key 1 against the score gap',
    curveTwoKeys: 'The curve needs exactly two scores.',
    numbers: 'Scaled scores {scaled} → weights {weights}',
    and: ' and ',
    listSep: ', ',
    sentenceSep: ' ',
    keyOne: 'key {k}',
    keyMany: 'keys {k}',
    allTie: 'At scale {factor} all {n} keys tie: each gets weight {w}.',
    allTieZero: 'At scale 0 every scaled score is 0, so all {n} keys tie: each gets weight {w}.',
    someTie: 'At scale {factor}, keys {keys} tie for the largest weight, {w} each.',
    oneLeads: 'At scale {factor}, key {key} gets the largest weight, {w}.',
    atOne: 'This is scale 1, so the gray bars show the same weights.',
    ref_sharper: 'At scale 1 (gray) {who} also led, with {from}: the ranking is kept and the selection is now sharper.',
    ref_flatter: 'At scale 1 (gray) {who} also led, with {from}: the ranking is kept and the selection is now flatter.',
    ref_same: 'At scale 1 (gray) {who} also led, with {from} as well.',
    refAllTie: 'At scale 1 (gray) all keys tie at {from}.',
    refSomeTie: 'At scale 1 (gray), keys {keys} tie for the largest weight, {from} each.',
    refOne: 'At scale 1 (gray), key {key} led with {from}.',
    gapFlat:
      'The scaled score gap is {gap}: the marker sits on a flat tail of the sigmoid, where small score changes barely move the weight.',
    gapSteep:
      'The scaled score gap is {gap}: the marker sits on the steep middle of the sigmoid, where small score changes move the weight.',
    gapBend: 'The scaled score gap is {gap}: here the sigmoid is bending toward its flat tail.',
  },
  zh: {
    name: 'Scores 被共同缩放时 softmax 的尖锐程度',
    factor: 'Query 缩放',
    factor1: '缩放 1',
    factor10: '缩放 10',
    weightsTitleOne: '缩放 1 时的 attention weights',
    weightsTitle: '缩放 {factor} 时的 attention weights（灰色：缩放 1）',
    keyAxis: 'key',
    gapAxis: '缩放后的 score 差值 s₁ − s₂',
    curveTitle: '两个 keys：key 1 的 weight 随 score 差值变化',
    curveTwoKeys: '曲线需要恰好两个 scores。',
    numbers: '缩放后的 scores {scaled} → weights {weights}',
    and: ' 与 ',
    listSep: '、',
    sentenceSep: '',
    keyOne: 'key {k}',
    keyMany: 'keys {k}',
    allTie: '缩放为 {factor} 时，{n} 个 keys 打平：每个 weight 都是 {w}。',
    allTieZero: '缩放为 0 时，缩放后的 scores 全是 0，所以 {n} 个 keys 打平：每个 weight 都是 {w}。',
    someTie: '缩放为 {factor} 时，keys {keys} 并列最大 weight，各为 {w}。',
    oneLeads: '缩放为 {factor} 时，key {key} 的 weight 最大，为 {w}。',
    atOne: '当前就是缩放 1，灰色柱子显示的是同一组 weights。',
    ref_sharper: '缩放 1（灰色）时也是 {who} 领先，为 {from}：排名不变，选择更尖锐。',
    ref_flatter: '缩放 1（灰色）时也是 {who} 领先，为 {from}：排名不变，选择更平缓。',
    ref_same: '缩放 1（灰色）时也是 {who} 领先，同样为 {from}。',
    refAllTie: '缩放 1（灰色）时所有 keys 打平，各为 {from}。',
    refSomeTie: '缩放 1（灰色）时 keys {keys} 并列最大 weight，各为 {from}。',
    refOne: '缩放 1（灰色）时 key {key} 领先，为 {from}。',
    gapFlat: '缩放后的 score 差值为 {gap}：标记位于 sigmoid 平坦的尾部，score 的小变化几乎不改变 weight。',
    gapSteep: '缩放后的 score 差值为 {gap}：标记位于 sigmoid 陡峭的中段，score 的小变化会明显改变 weight。',
    gapBend: '缩放后的 score 差值为 {gap}：sigmoid 在这里逐渐转向平坦的尾部。',
  },
};
