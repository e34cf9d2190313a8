// <nl-prepost-norm> — a stack of L residual layers, each with its own fixed
// seeded linear sub-layer F_l(z) = W_l z (d = 16, W_l entries N(0, 1/16)), run
// three ways on one seeded input x_0:
//   Post-Norm            x_{l+1} = N(x_l + F_l(x_l))
//   Pre-Norm             x_{l+1} = x_l + F_l(N(x_l))
//   Pre-Norm + final N   the Pre-Norm stream, then N(x_L) before the head.
// The first chart is the L2 norm of the residual stream after each layer; the
// second is how far each layer turns the stream (the angle between x_l and
// x_{l+1}). Pre-Norm adds every update to an un-normalized sum, so its norm
// grows with depth and later layers turn it less; Post-Norm holds it at √d.
//
// Attributes: layers (12; 1..32), norm (layer_norm | rms_norm), seed (1; new
//   draws of x_0 and every W_l), lang.
// Properties: layers, norm, seed; state (read-only): {layers, norm, seed, d,
//   sqrtD, pre: {norms [L+1], turns [L]}, post: {norms [L+1], turns [L]},
//   finalNorm, postRange: [min, max] over layers 1..L, normAxis, turnAxis,
//   layerAxis, error}.
// Events: change. Keyboard: the layers slider (arrows, Home/End), the norm
//   select, the "New draw" button.
// Colours: --nl-input the Pre-Norm stream (an un-normalized sum of x_0 and
//   updates), --nl-layer-norm / --nl-rms-norm (the chosen N) the Post-Norm
//   stream and the final normalization (both are N's output), --nl-reference
//   the √d line.
// Parts: figure, controls, slider, number, select, button, view, description, error.
// Numbers from the core: random_normal (x_0, W), residual_block (each layer),
// layer_norm / rms_norm (the final N), clip_grad_norm (total_norm: the L2
// norm of a vector), angle_between, min_max_fit, axis_ticks.
import { el } from '../lib/base.js';
import { NlFigure, figureCss } from '../lib/figure.js';
import { arrow, line, scale, xAxis, yAxis } from '../lib/plot.js';

const vec = NlFigure.vec;
const D = 16; // width of the residual stream
const W_STD = 0.25; // 1/√D: F_l keeps a vector's length on average
const MAX_LAYERS = 32;
const EPS = 1e-5;
const colourOf = { layer_norm: 'var(--nl-layer-norm)', rms_norm: 'var(--nl-rms-norm)' };

export class NlPrepostNorm extends NlFigure {
  static catalog = 'prepostNorm';
  static summary = "The residual stream's norm through L layers: Post-Norm, Pre-Norm and Pre-Norm + final norm.";
  static minHeight = 410; // px kept by normlab/styles.css (measured at 960 px, default attributes)
  static phoneMinHeight = { en: 997, zh: 974 }; // px kept up to 600 px wide (measured at 360 px, default attributes)
  static stateDoc = '`pre`, `post`: `{norms, turns}` per layer; `finalNorm`, `postRange`, `d`, `sqrtD`'; // `state` keys beyond the attributes (README)
  static params = {
    layers: {
      attr: 'layers',
      kind: 'number',
      integer: true,
      default: 12,
      min: 1,
      max: MAX_LAYERS,
      step: 1,
      control: 'slider',
      doc: 'the number of layers L',
    },
    norm: {
      attr: 'norm',
      kind: 'choice',
      choices: ['layer_norm', 'rms_norm'],
      default: 'layer_norm',
      control: 'select',
      doc: 'the normalization in each block',
    },
    seed: {
      attr: 'seed',
      kind: 'number',
      integer: true,
      default: 1,
      min: 0,
      max: 1e9,
      doc: 'seed of x₀ and every W_l',
    },
  };
  static css =
    figureCss +
    `
.s-pre { fill: none; stroke: var(--nl-input); stroke-width: 2.5; }
.s-post { fill: none; stroke: var(--nl-norm); stroke-width: 2.5; }
.s-final { stroke: var(--nl-norm); stroke-dasharray: 5 3; }
.s-ref { fill: none; stroke: var(--nl-reference); stroke-width: 1.5; stroke-dasharray: 4 4; }
.p-pre { fill: var(--nl-input); } .p-post { fill: var(--nl-norm); }
.p-final { fill: var(--nl-bg); stroke: var(--nl-norm); stroke-width: 2.5; }
.end-label { font-size: var(--nl-label-size); }
.end-label.pre { fill: var(--nl-input); } .end-label.post, .end-label.final { fill: var(--nl-norm); }
.end-label.ref { fill: var(--nl-reference); }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: var(--nl-label-size); color: var(--nl-muted); margin: 6px 0 0; padding: 0; list-style: none; }
.sw { display: inline-block; width: 18px; height: 0; border-top: 3px solid; vertical-align: middle; margin-right: 5px; }
.sw.pre { border-color: var(--nl-input); } .sw.post { border-color: var(--nl-norm); }
.sw.final { border-top-style: dashed; border-color: var(--nl-norm); } .sw.ref { border-top: 2px dashed var(--nl-reference); }
`;

  buildControls(box) {
    super.buildControls(box);
    box.append(this.newDrawButton());
  }

  buildView(view) {
    [this._normSvg, this._turnSvg] = this.panels(view, 2, 340, 230, false);
    this._legend = el('ul', { class: 'legend' });
    view.append(this._legend);
  }

  // x_0 and the weights of all MAX_LAYERS layers, drawn once per seed: layer
  // l's weights do not depend on how many layers are shown.
  _draws(seed) {
    if (this._drawn?.seed !== seed) {
      const x0 = this.op('random_normal', {}, { shape: [D], seed });
      const W = this._core.run('random_normal', {}, { shape: [MAX_LAYERS, D, D], seed: seed + 7919, std: W_STD }).x
        .data;
      const Ws = Array.from({ length: MAX_LAYERS }, (_, l) => ({
        shape: [D, D],
        data: Array.from(W.subarray(l * D * D, (l + 1) * D * D)),
      }));
      this._drawn = { seed, x0, Ws };
    }
    return this._drawn;
  }

  _norm(v) {
    return this.op('clip_grad_norm', { g: vec(v) }, { max_norm: 1e30 }, 'total_norm')[0];
  }

  _stack(x0, Ws, L, placement, norm) {
    const stream = [x0];
    for (let l = 0; l < L; l++) {
      stream.push(this.op('residual_block', { x: vec(stream[l]), W: Ws[l] }, { placement, norm, eps: EPS }));
    }
    return {
      stream,
      norms: stream.map((v) => this._norm(v)),
      turns: stream.slice(1).map((v, l) => this.op('angle_between', { a: vec(stream[l]), b: vec(v) })[0]),
    };
  }

  // Both stacks run to MAX_LAYERS once per (seed, norm): the first L layers of
  // a deeper stack are the L-layer stack (layer l's weights do not depend on
  // L), so moving the depth slider only reads a prefix.
  _stacks(seed, norm) {
    const key = `${seed}|${norm}`;
    this._stacked ??= new Map();
    let st = this._stacked.get(key);
    if (!st) {
      const { x0, Ws } = this._draws(seed);
      st = { pre: this._stack(x0, Ws, MAX_LAYERS, 'pre', norm), post: this._stack(x0, Ws, MAX_LAYERS, 'post', norm) };
      if (this._stacked.size >= 8) this._stacked.clear();
      this._stacked.set(key, st);
    }
    return st;
  }

  compute(core, { layers: L, norm, seed }) {
    const full = this._stacks(seed, norm);
    const prefix = (st) => ({ norms: st.norms.slice(0, L + 1), turns: st.turns.slice(0, L) });
    const pre = prefix(full.pre),
      post = prefix(full.post);
    const finalNorm = this._norm(this.op(norm, { x: vec(full.pre.stream[L]) }, { eps: EPS }));
    const sqrtD = this._norm(new Array(D).fill(1));
    const after = post.norms.slice(1);
    const range = core.run('min_max_fit', { x: { shape: [after.length, 1], data: after } });
    const layerTicks = this.axis([0, L], { count: Math.min(L, 4), include_zero: true });
    return {
      d: D,
      sqrtD,
      finalNorm,
      pre: { norms: pre.norms, turns: pre.turns },
      post: { norms: post.norms, turns: post.turns },
      postRange: [range.min.data[0], range.max.data[0]],
      normAxis: this.axis([...pre.norms, ...post.norms, sqrtD, finalNorm], { include_zero: true }),
      turnAxis: this.axis([...pre.turns, ...post.turns], { include_zero: true }),
      // integer layer ticks only (axis_ticks may step by 0.5 for small L)
      layerAxis: { domain: [0, L], ticks: layerTicks.ticks.filter((t) => Number.isInteger(t) && t <= L) },
    };
  }

  // One formatter per quantity: norms and degrees to 3 significant digits.
  fmtNorm(v) {
    return this.fmt(v, 3);
  }
  fmtDeg(v) {
    return this.fmt(v, 3);
  }

  _chart(svgEl, s, series, axis, title, extra) {
    const H = 230,
      m = { l: 40, r: 80, t: 26, b: 36 };
    const W = this.fit(svgEl, 340, H);
    const x = scale(s.layerAxis.domain, [m.l, W - m.r]);
    const y = scale(axis.domain, [H - m.b, m.t]);
    const items = [
      el('text', { class: 'panel-title', x: 4, y: 15 }, title),
      yAxis(axis.ticks, y, m.l, W - m.r, (v) => this.fmt(v, 3)),
      xAxis(s.layerAxis.ticks, x, m.t, H - m.b, (v) => this.fmt(v)),
      el('text', { class: 'tick', x: W - m.r, y: H - 4, 'text-anchor': 'end' }, this.t('layerAxis')),
    ];
    for (const [cls, values, first] of series) {
      const pts = values.map((v, i) => [x(i + first), y(v)]);
      items.push(line(pts, `s-${cls}`));
      if (pts.length <= 33)
        for (const [px, py] of pts)
          items.push(el('circle', { class: `p-${cls}`, cx: px.toFixed(1), cy: py.toFixed(1), r: 2.5 }));
    }
    extra?.(items, x, y, W, m);
    svgEl.replaceChildren(...items);
  }

  // End labels at the right edge, nudged apart so they never overlap.
  _endLabels(items, labels, W, m) {
    labels.sort((a, b) => a.y - b.y);
    for (let i = 1; i < labels.length; i++) if (labels[i].y - labels[i - 1].y < 13) labels[i].y = labels[i - 1].y + 13;
    // x: clear of the final norm's dot (6 px right of the last layer, radius 4)
    for (const l of labels)
      items.push(el('text', { class: `end-label ${l.cls}`, x: W - m.r + 14, y: (l.y + 4).toFixed(1) }, l.text));
  }

  draw(s) {
    this._view.style.setProperty('--nl-norm', colourOf[s.norm]);
    const L = s.layers,
      N = this.t(`choice_${s.norm}`);
    this._chart(
      this._normSvg,
      s,
      [
        ['pre', s.pre.norms, 0],
        ['post', s.post.norms, 0],
      ],
      s.normAxis,
      this.t('normTitle'),
      (items, x, y, W, m) => {
        items.splice(
          3,
          0,
          line(
            [
              [m.l, y(s.sqrtD)],
              [W - m.r, y(s.sqrtD)],
            ],
            's-ref',
          ),
        );
        // the final normalization: from the Pre-Norm stream's end down to N(x_L)
        const fx = x(L) + 6;
        items.push(arrow(fx, y(s.pre.norms[L]), fx, y(s.finalNorm) - 5, 's-final', 6));
        items.push(el('circle', { class: 'p-final', cx: fx.toFixed(1), cy: y(s.finalNorm).toFixed(1), r: 4 }));
        this._endLabels(
          items,
          [
            { cls: 'pre', y: y(s.pre.norms[L]), text: this.t('endPre') },
            { cls: 'post', y: y(s.finalNorm), text: this.t('endPost') },
          ],
          W,
          m,
        );
      },
    );
    this._chart(
      this._turnSvg,
      s,
      [
        ['pre', s.pre.turns, 1],
        ['post', s.post.turns, 1],
      ],
      s.turnAxis,
      this.t('turnTitle'),
      (items, x, y, W, m) => {
        this._endLabels(
          items,
          [
            { cls: 'pre', y: y(s.pre.turns[L - 1]), text: this.t('endPre') },
            { cls: 'post', y: y(s.post.turns[L - 1]), text: this.t('endPost') },
          ],
          W,
          m,
        );
      },
    );
    this._legend.replaceChildren(
      ...[
        ['pre', 'legendPre'],
        ['post', 'legendPost'],
        ['final', 'legendFinal'],
        ['ref', 'legendRef'],
      ].map(([cls, key]) => {
        const li = el('li');
        li.append(el('span', { class: `sw ${cls}` }), this.t(key, { norm: N, sqrtD: this.fmtNorm(s.sqrtD) }));
        return li;
      }),
    );
  }

  describe(s) {
    const L = s.layers,
      N = this.t(`choice_${s.norm}`);
    const a = this.fmtNorm(s.pre.norms[0]),
      b = this.fmtNorm(s.pre.norms[L]);
    const preKey = a === b ? 'preSame' : s.pre.norms[L] > s.pre.norms[0] ? 'preGrows' : 'preShrinks';
    const [lo, hi] = s.postRange.map((v) => this.fmtNorm(v));
    const postKey = L === 1 ? 'postOne' : lo === hi ? 'postSame' : 'postRange';
    const t1 = this.fmtDeg(s.pre.turns[0]),
      tL = this.fmtDeg(s.pre.turns[L - 1]);
    const turnKey = L === 1 ? 'turnOne' : 'turnMany';
    const vars = {
      L,
      norm: N,
      a,
      b,
      lo,
      hi,
      sqrtD: this.fmtNorm(s.sqrtD),
      final: this.fmtNorm(s.finalNorm),
      layers: this.t(L === 1 ? 'layerOne' : 'layerMany', { L }),
      t1,
      tL,
      p1: this.fmtDeg(s.post.turns[0]),
      pL: this.fmtDeg(s.post.turns[L - 1]),
    };
    return [preKey, postKey, 'final', turnKey].map((k) => this.t(k, vars)).join(this.t('sentenceGap'));
  }
}
NlPrepostNorm.defineProperties();

// The figure's strings, English and Chinese (t(key); a language added with registerLocale overrides them).
NlPrepostNorm.strings = {
  en: {
    name: 'Residual stream norm through a stack of Pre-Norm and Post-Norm layers',
    layers: 'Layers L',
    norm: 'Normalization N',
    choice_layer_norm: 'LayerNorm',
    choice_rms_norm: 'RMSNorm',
    newDraw: 'New draw',
    normTitle: 'Norm of the residual stream ‖x_l‖',
    turnTitle: 'Turn of the stream per layer (°)',
    layerAxis: 'layer l',
    endPre: 'Pre-Norm',
    endPost: 'Post-Norm',
    legendPre: 'Pre-Norm: x + F({norm}(x))',
    legendPost: 'Post-Norm: {norm}(x + F(x))',
    legendFinal: 'Pre-Norm + final {norm} (arrow)',
    legendRef: '√d = {sqrtD}',
    layerOne: '1 layer',
    layerMany: '{L} layers',
    preGrows:
      'Over {layers}, the Pre-Norm stream grows from norm {a} to {b}: each layer adds its update to a sum that is never normalized.',
    preShrinks: 'Over {layers}, the Pre-Norm stream shrinks from norm {a} to {b}: its updates point partly against it.',
    preSame: 'Over {layers}, the Pre-Norm stream keeps norm {a}.',
    postSame:
      'Post-Norm normalizes after every addition, so its stream has norm {hi} after every layer (√d = {sqrtD}).',
    postRange:
      'Post-Norm normalizes after every addition, so its stream stays between norm {lo} and {hi} (√d = {sqrtD}).',
    postOne: 'Post-Norm normalizes after the addition, so its stream has norm {hi} (√d = {sqrtD}).',
    final: 'A final {norm} brings the Pre-Norm output to norm {final} before the head.',
    turnMany:
      'The first Pre-Norm layer turns the stream by {t1}°, the last by {tL}°; in Post-Norm the first turns it by {p1}°, the last by {pL}°.',
    turnOne: 'The one layer turns the Pre-Norm stream by {t1}° and the Post-Norm stream by {p1}°.',
    sentenceGap: ' ',
  },
  zh: {
    name: 'Pre-Norm 与 Post-Norm 层层堆叠时 residual stream 的范数',
    layers: '层数 L',
    norm: 'Normalization N',
    choice_layer_norm: 'LayerNorm',
    choice_rms_norm: 'RMSNorm',
    newDraw: '重新抽样',
    normTitle: 'Residual stream 的范数 ‖x_l‖',
    turnTitle: '每层让 stream 转过的角度（°）',
    layerAxis: '第 l 层',
    endPre: 'Pre-Norm',
    endPost: 'Post-Norm',
    legendPre: 'Pre-Norm：x + F({norm}(x))',
    legendPost: 'Post-Norm：{norm}(x + F(x))',
    legendFinal: 'Pre-Norm + 最后的 {norm}（箭头）',
    legendRef: '√d = {sqrtD}',
    layerOne: '1 层',
    layerMany: '{L} 层',
    preGrows: '经过 {layers}，Pre-Norm stream 的范数从 {a} 增长到 {b}：每层都把 update 加到一个从不归一化的和上。',
    preShrinks: '经过 {layers}，Pre-Norm stream 的范数从 {a} 降到 {b}：它的 updates 部分指向相反方向。',
    preSame: '经过 {layers}，Pre-Norm stream 的范数保持 {a}。',
    postSame: 'Post-Norm 在每次相加后都归一化，因此每层之后 stream 的范数都是 {hi}（√d = {sqrtD}）。',
    postRange: 'Post-Norm 在每次相加后都归一化，因此 stream 的范数保持在 {lo} 到 {hi} 之间（√d = {sqrtD}）。',
    postOne: 'Post-Norm 在相加后归一化，因此 stream 的范数是 {hi}（√d = {sqrtD}）。',
    final: '最后的 {norm} 把 Pre-Norm 输出的范数变为 {final}，再交给 head。',
    turnMany:
      'Pre-Norm 第一层让 stream 转过 {t1}°，最后一层转过 {tL}°；Post-Norm 第一层转过 {p1}°，最后一层转过 {pL}°。',
    turnOne: '这一层让 Pre-Norm stream 转过 {t1}°，让 Post-Norm stream 转过 {p1}°。',
    sentenceGap: '',
  },
};
