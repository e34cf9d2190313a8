// <nl-shared-stats> — the article's tokens A = (1, 2, 3) and B = (10, 20, 30)
// through a token-wise LayerNorm. Statistics are shared along a row (each
// token's three coordinates subtract one mean and divide by one spread);
// parameters are shared down a column (coordinate i of every token uses the
// same γᵢ and βᵢ). After normalization A and B are the same vector, and the
// same learned γ, β keep them the same: the affine step gives the layer an
// output range, it cannot give back A's scale 1 and B's scale 10.
//
// Attributes: a ("1,2,3"), b ("10,20,30"), gamma ("2,1,1"), beta ("0,0,0"),
//   cell ("0,0": token 0 = A or 1 = B, coordinate 0..2), lang.
// Properties: the same; state (read-only): {a, b, gamma, beta, cell, stats:
//   [{mean, std}, {mean, std}] (A, B), normalized [A, B] (LN₀), output [A, B]
//   (with γ, β), sameNormalized, sameOutput (A and B read alike), error}.
// Events: change (the reader chose a cell or moved γ₁, β₁).
// Keyboard: sliders for γ₁ and β₁; the grid is focusable, arrow keys choose a
//   cell. Pointer: click or tap a cell.
// Colours: --nl-chosen the chosen cell, --nl-group the cells sharing its
//   statistics (its token's row), --nl-update the cells sharing its parameters
//   (its coordinate's column), --nl-layer-norm the outputs.
// Parts: figure, controls, slider, number, view, description, error.
// Numbers from the core: moments, layer_norm (eps 0: the article's idealized example).
import { el, joinLines } from '../lib/base.js';
import { NlFigure, figureCss } from '../lib/figure.js';
import { svg } from '../lib/plot.js';

const TOKENS = ['A', 'B'];

export class NlSharedStats extends NlFigure {
  static catalog = 'sharedStats';
  static summary =
    "Tokens share parameters, a token's coordinates share statistics; the affine step cannot restore the scale.";
  static minHeight = 394; // px kept by normlab/styles.css (measured at 960 px, default attributes)
  static phoneMinHeight = { en: 736, zh: 688 }; // px kept up to 600 px wide (measured at 360 px, default attributes)
  static stateDoc = '`stats`, `normalized`, `output`, `sameNormalized`, `sameOutput`'; // `state` keys beyond the attributes (README)
  static params = {
    a: { attr: 'a', kind: 'vector', length: 3, default: [1, 2, 3], doc: 'token A' },
    b: { attr: 'b', kind: 'vector', length: 3, default: [10, 20, 30], doc: 'token B' },
    gamma: { attr: 'gamma', kind: 'vector', length: 3, default: [2, 1, 1], doc: 'γ, shared by both tokens' },
    beta: { attr: 'beta', kind: 'vector', length: 3, default: [0, 0, 0], doc: 'β, shared by both tokens' },
    gamma1: {
      attr: 'gamma1',
      kind: 'number',
      default: null,
      min: -3,
      max: 3,
      step: 0.1,
      control: 'slider',
      doc: "γ₁ on a slider (default: gamma's first)",
    },
    beta1: {
      attr: 'beta1',
      kind: 'number',
      default: null,
      min: -3,
      max: 3,
      step: 0.1,
      control: 'slider',
      doc: "β₁ on a slider (default: beta's first)",
    },
    cell: {
      attr: 'cell',
      kind: 'vector',
      length: 2,
      default: [0, 0],
      doc: 'the chosen cell: token (0 = A, 1 = B), coordinate 0 to 2',
    },
  };
  static css = `${figureCss}
.grid { cursor: pointer; outline: none; }
.grid:focus-visible .frame { stroke: var(--nl-focus); stroke-width: 2.5; }
.frame { fill: none; stroke: none; }
:is(.cell, .cell-key) { fill: var(--nl-bg); stroke: var(--nl-grid); stroke-width: 1.5; }
:is(.cell, .cell-key).stats { fill: var(--nl-group); fill-opacity: 0.18; stroke: var(--nl-group); }
:is(.cell, .cell-key).params { fill: var(--nl-update); fill-opacity: 0.16; stroke: var(--nl-update); }
:is(.cell, .cell-key).chosen { fill: var(--nl-chosen); fill-opacity: 0.12; stroke: var(--nl-chosen); stroke-width: 3; }
.val { font-size: var(--nl-label-size); text-anchor: middle; pointer-events: none; } /* a click on the number reaches its cell */
.row-label { font-size: var(--nl-label-size); font-weight: 600; }
.stat { font-size: var(--nl-label-size); fill: var(--nl-group); }
.par { font-size: var(--nl-label-size); fill: var(--nl-update); text-anchor: middle; }
.out { font-size: var(--nl-label-size); fill: var(--nl-layer-norm); }
.head { font-size: var(--nl-label-size); fill: var(--nl-muted); }
/* wide: the grid uses the whole width, its labels a size up */
.wide .val, .wide .row-label, .wide .out { font-size: 15px; }
.wide .stat, .wide .par, .wide .head { font-size: 13px; }
`;

  /** γ₁ and β₁ sliders edit the first entries of gamma and beta. */
  _effective(v = this._values) {
    const gamma = [...v.gamma],
      beta = [...v.beta];
    if (v.gamma1 !== null) gamma[0] = v.gamma1;
    if (v.beta1 !== null) beta[0] = v.beta1;
    return { gamma, beta };
  }

  parseValue(key, text) {
    const r = super.parseValue(key, text);
    if (
      key === 'cell' &&
      r.value &&
      !(
        Number.isInteger(r.value[0]) &&
        r.value[0] >= 0 &&
        r.value[0] <= 1 &&
        Number.isInteger(r.value[1]) &&
        r.value[1] >= 0 &&
        r.value[1] <= 2
      )
    ) {
      return { error: this.t('badCell', { value: text }) };
    }
    return r;
  }

  _syncControls() {
    super._syncControls();
    const { gamma, beta } = this._effective();
    for (const [key, v] of [
      ['gamma1', gamma[0]],
      ['beta1', beta[0]],
    ]) {
      const c = this._controls[key];
      if (!c || this._attrErrors.has(key)) continue;
      c.range.value = String(v);
      if (this.shadowRoot.activeElement !== c.box) c.box.value = String(v);
    }
  }

  buildView(view) {
    this._svg = svg(640, 240, 'grid', { tabindex: '0', role: 'application', 'aria-hidden': null }); // its drawn height when wide; taller on a phone, inside the space kept for it
    view.append(this._svg);
    this._svg.addEventListener('click', (e) => {
      const c = e.target.closest?.('[data-cell]');
      if (c) this.setByUser('cell', c.dataset.cell.split(',').map(Number));
    });
    this._svg.addEventListener('keydown', (e) => {
      const m = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[e.key];
      if (!m) return;
      e.preventDefault();
      const [t, i] = this._values.cell;
      const next = [Math.min(1, Math.max(0, t + m[0])), Math.min(2, Math.max(0, i + m[1]))];
      if (next[0] !== t || next[1] !== i) this.setByUser('cell', next);
    });
  }

  compute(core, v) {
    const { gamma, beta } = this._effective(v);
    const x = { shape: [2, 3], data: [...v.a, ...v.b] };
    const stats = [v.a, v.b].map((row) => {
      const m = core.run('moments', { x: NlFigure.vec(row) });
      return { mean: m.mean.data[0], std: m.std.data[0] };
    });
    const n = this.op('layer_norm', { x }, { eps: 0 });
    const y = this.op('layer_norm', { x, gamma: NlFigure.vec(gamma), beta: NlFigure.vec(beta) }, { eps: 0 });
    const normalized = [n.slice(0, 3), n.slice(3)],
      output = [y.slice(0, 3), y.slice(3)];
    const reads = (r) => this.fmtList(r, 4);
    return {
      gamma,
      beta,
      stats,
      normalized,
      output,
      sameNormalized: reads(normalized[0]) === reads(normalized[1]),
      sameOutput: reads(output[0]) === reads(output[1]),
    };
  }

  draw(s) {
    const W = this.fit(this._svg, 640, 214);
    const f = (v) => this.fmt(v, 4);
    // wide: labels left of the rows, outputs right of them; narrow (a phone): labels above, outputs below
    const narrow = W < 560;
    this._svg.classList.toggle('wide', !narrow);
    // wide: token labels on the left, the three cells across the middle, the outputs in the right part (room
    // for "(-2.449, 0, 1.225)" at 15 px)
    const left = narrow ? 8 : 150,
      cw = narrow ? (W - 16) / 3 : Math.min(190, (W - left - 230) / 3),
      ch = narrow ? 46 : 54;
    const rowH = narrow ? ch + 52 : ch + 24,
      top = narrow ? 70 : 66;
    const [ct, ci] = s.cell;
    const items = [];
    // the heading in two lines on a phone: it would not fit in one
    const head = this.t('inputHead').split('\n');
    if (narrow) head.forEach((line, k) => items.push(el('text', { class: 'head', x: 8, y: 14 + k * 14 }, line)));
    else items.push(el('text', { class: 'head', x: 8, y: 16 }, joinLines(head)));
    if (!narrow) items.push(el('text', { class: 'head', x: left + 3 * cw + 20, y: 40 }, this.t('outputHead')));
    for (let i = 0; i < 3; i++) {
      const sub = '₁₂₃'[i],
        x = left + (i + 0.5) * cw;
      items.push(
        el('text', { class: 'par', x, y: narrow ? 44 : 40 }, `γ${sub} = ${f(s.gamma[i])}`),
        el('text', { class: 'par', x, y: narrow ? 58 : 56 }, `β${sub} = ${f(s.beta[i])}`),
      );
    }
    [s.a, s.b].forEach((row, t) => {
      const y0 = top + t * rowH + (narrow ? 20 : 0);
      const label = this.t('token', { name: TOKENS[t] }),
        stat = `μ = ${f(s.stats[t].mean)}, σ = ${f(s.stats[t].std)}`;
      if (narrow) {
        items.push(
          el('text', { class: 'row-label', x: 8, y: y0 - 6 }, label),
          el('text', { class: 'stat', x: 80, y: y0 - 6 }, stat),
        );
      } else {
        items.push(
          el('text', { class: 'row-label', x: 8, y: y0 + 22 }, label),
          el('text', { class: 'stat', x: 8, y: y0 + 42 }, stat),
        );
      }
      row.forEach((v, i) => {
        const cls = t === ct && i === ci ? 'chosen' : t === ct ? 'stats' : i === ci ? 'params' : '';
        const r = el('rect', { class: `cell ${cls}`, x: left + i * cw + 2, y: y0, width: cw - 4, height: ch, rx: 5 });
        r.dataset.cell = `${t},${i}`;
        items.push(r, el('text', { class: 'val', x: left + (i + 0.5) * cw, y: y0 + ch / 2 + 5 }, f(v)));
      });
      const out = this.fmtList(s.output[t], 4);
      if (narrow)
        items.push(
          el(
            'text',
            { class: 'out', x: 8, y: y0 + ch + 18, 'text-anchor': 'start' },
            `${this.t('outputHead')} = ${out}`,
          ),
        );
      else
        items.push(
          el('text', { class: 'out', x: left + 3 * cw + 20, y: y0 + ch / 2 + 5, 'text-anchor': 'start' }, out),
        );
    });
    // the legend, each line after a swatch drawn as the cells it names (chosen, tinted row, tinted column);
    // wide, the three side by side
    const end = top + 2 * rowH + (narrow ? 14 : 10);
    const keys = ['chosen', 'stats', 'params'];
    const lines = this.t('legend').split('\n');
    const colW = (W - 16) / keys.length;
    lines.forEach((line, k) => {
      const x = narrow ? 8 : 8 + k * colW,
        y = narrow ? end + k * 20 : end;
      items.push(
        el('rect', { class: `cell-key ${keys[k]}`, x, y: y - 11, width: 22, height: 14, rx: 3 }),
        el('text', { class: 'head', x: x + 30, y }, line),
      );
    });
    const H = (narrow ? end + 20 * (lines.length - 1) : end) + 10;
    items.unshift(el('rect', { class: 'frame', x: 1, y: 1, width: W - 2, height: H - 2, rx: 6 }));
    this._svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    this._svg.replaceChildren(...items);
    this._svg.setAttribute('aria-label', this.t('gridLabel', { token: TOKENS[ct], i: ci + 1 }));
  }

  describe(s) {
    const f = (v) => this.fmt(v, 4);
    const [t, i] = s.cell,
      other = TOKENS[1 - t];
    const vars = {
      token: TOKENS[t],
      other,
      i: i + 1,
      sub: '₁₂₃'[i],
      x: f([s.a, s.b][t][i]),
      mean: f(s.stats[t].mean),
      std: f(s.stats[t].std),
      g: f(s.gamma[i]),
      b: f(s.beta[i]),
      n: this.fmtList(s.normalized[0], 4),
      gamma: this.fmtList(s.gamma, 4),
      beta: this.fmtList(s.beta, 4),
      ya: this.fmtList(s.output[0], 4),
      yb: this.fmtList(s.output[1], 4),
    };
    const parts = [this.t('describeCell', vars)];
    parts.push(
      this.t(s.sameNormalized ? (s.sameOutput ? 'describeSame' : 'describeSameNorm') : 'describeDiffer', vars),
    );
    return parts.join(this.t('sentenceSep'));
  }
}
NlSharedStats.defineProperties();

// The figure's strings, English and Chinese (t(key); a language added with registerLocale overrides them).
NlSharedStats.strings = {
  en: {
    name: 'Sharing statistics against sharing parameters: tokens A and B through LayerNorm',
    gamma1: 'γ₁',
    beta1: 'β₁',
    inputHead: 'input: each row shares statistics,\neach column shares γᵢ, βᵢ',
    outputHead: 'γ ⊙ LN₀(x) + β',
    token: 'token {name}',
    legend: 'framed: the chosen cell\ntinted row: the same statistics\ntinted column: the same γᵢ and βᵢ',
    gridLabel: 'Coordinate {i} of token {token} chosen. Arrow keys choose another cell.',
    badCell: 'cell must be a token (0 or 1) and a coordinate (0 to 2), such as "0,2" (got "{value}").',
    sentenceSep: ' ',
    describeCell:
      'Coordinate {i} of token {token} ({x}) shares its statistics (μ = {mean}, σ = {std}) with the other coordinates of {token}, and its parameters (γ{sub} = {g}, β{sub} = {b}) with coordinate {i} of token {other}.',
    describeSame:
      'Normalized, both tokens read {n}; with γ = {gamma} and β = {beta} both become {ya}. The shared γ and β give the layer an output range, but they cannot give back what told A and B apart, their scale and level: that was removed with the statistics.',
    describeSameNorm: 'Normalized, both tokens read {n}; with γ and β they become {ya} and {yb}.',
    describeDiffer:
      'These two tokens differ by more than a scale and a shift, so their normalized forms differ too: after γ and β, {ya} and {yb}.',
  },
  zh: {
    name: '共享统计量与共享参数：tokens A 与 B 经过 LayerNorm',
    gamma1: 'γ₁',
    beta1: 'β₁',
    inputHead: '输入：同一行共享统计量，\n同一列共享 γᵢ、βᵢ',
    outputHead: 'γ ⊙ LN₀(x) + β',
    token: 'token {name}',
    legend: '加框：选中的格子\n同色的行：统计量相同\n同色的列：γᵢ 与 βᵢ 相同',
    gridLabel: '选中 token {token} 的第 {i} 个坐标。方向键选择其他格子。',
    badCell: 'cell 必须是一个 token（0 或 1）和一个坐标（0 到 2），例如“0,2”（收到的是“{value}”）。',
    sentenceSep: '',
    describeCell:
      'Token {token} 的第 {i} 个坐标（{x}）与 {token} 的其他坐标共享统计量（μ = {mean}，σ = {std}），与 token {other} 的第 {i} 个坐标共享参数（γ{sub} = {g}，β{sub} = {b}）。',
    describeSame:
      '经过 normalization 之后两个 tokens 都是 {n}；γ = {gamma}、β = {beta} 时两者都变为 {ya}。共享的 γ 与 β 给出了该层的输出范围，却无法找回区分 A 与 B 的尺度与水平：它们已随统计量一起被去掉。',
    describeSameNorm: '经过 normalization 之后两个 tokens 都是 {n}；经过 γ 与 β 分别变为 {ya} 与 {yb}。',
    describeDiffer:
      '这两个 tokens 的差别不只是尺度与平移，所以经过 normalization 之后也不同：经过 γ 与 β 分别为 {ya} 与 {yb}。',
  },
};
