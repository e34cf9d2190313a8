// <nl-causal-leak> — a short sequence of tokens, each with three features.
// The reader edits one feature of a later token and watches the earlier ones:
// BatchNorm pooled over the sequence (statistics per feature over every token)
// changes the outputs of tokens that came before the edit, so the past learns
// about the future; LayerNorm and RMSNorm compute statistics inside each token
// and leave every other token's output exactly as it was, bit for bit.
//
// It opens with the edit already made (token 6's first feature moved from 1.5
// to 5), so the first picture is the leak itself; "Undo the edit" puts the
// token's own value back and every ≠ turns into =.
//
// Attributes: tokens (18 numbers: six tokens of three features, default
//   "1,2,0.5, 0,-1,2, 2,1,-1, -1,0.5,1, 0.5,-2,1.5, 1.5,0,-0.5"), edit (the
//   edited token, 2..6; default 6), value (its first feature, −6..6; default
//   5), lang.
// Properties: the same; state (read-only): {tokens, edit, value, original
//   (the token's own first feature), edited (value differs from it), input
//   [6·3], outputs: {batch_norm, layer_norm, rms_norm} [6·3], baseline (the
//   same for the unedited tokens), changed: {method: [6 booleans]} (a token
//   whose three outputs differ from the baseline in any bit), earlierChanged:
//   {method: count of tokens before the edit that changed}, domain, ticks,
//   error}.
// Events: change (the reader moved a slider or pressed a button).
// Keyboard: a slider for the edited token and one for the value (choosing
//   another token carries the value over to it); "Undo the edit" gives the
//   edited token its own value back; Reset returns to the page's values.
// Colours: --nl-input the tokens, --nl-batch-norm / --nl-layer-norm /
//   --nl-rms-norm the outputs, --nl-reference a tick at each unedited value,
//   --nl-chosen the edited token's column, --nl-update the marks under tokens
//   whose output changed.
// Parts: figure, controls, slider, number, button, view, description, error.
// Numbers from the core: batch_norm (training, statistics over the six tokens),
// layer_norm, rms_norm, axis_ticks.
import { el } from '../lib/base.js';
import { NlFigure, figureCss } from '../lib/figure.js';
import { scale, svg, yAxis } from '../lib/plot.js';

const T = 6,
  D = 3;
const METHODS = ['batch_norm', 'layer_norm', 'rms_norm'];
const DEFAULT_TOKENS = [1, 2, 0.5, 0, -1, 2, 2, 1, -1, -1, 0.5, 1, 0.5, -2, 1.5, 1.5, 0, -0.5];

export class NlCausalLeak extends NlFigure {
  static catalog = 'causalLeak';
  static summary =
    'Editing a later token changes earlier outputs under BatchNorm over the sequence, never under LayerNorm or RMSNorm.';
  static minHeight = 580; // px kept by normlab/styles.css (measured at 960 px, default attributes; a second row of controls)
  static phoneMinHeight = { en: 1328, zh: 1257 }; // px kept up to 600 px wide (measured at 360 px, default attributes)
  static stateDoc = '`outputs`, `baseline` per method, `changed`, `earlierChanged`'; // `state` keys beyond the attributes (README)
  static params = {
    tokens: {
      attr: 'tokens',
      kind: 'vector',
      length: T * D,
      default: DEFAULT_TOKENS,
      doc: 'six tokens of three features',
    },
    edit: {
      attr: 'edit',
      kind: 'number',
      integer: true,
      default: T,
      min: 2,
      max: T,
      step: 1,
      control: 'slider',
      doc: 'the edited token',
    },
    value: {
      attr: 'value',
      kind: 'number',
      default: 5,
      min: -6,
      max: 6,
      step: 0.1,
      control: 'slider',
      doc: "the edited token's first feature (token 6's own is 1.5)",
    },
  };
  static css = `${figureCss}
.leak-panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 340px), 1fr)); gap: 10px; }
.bar.input { fill: var(--nl-input); }
.bar.edited { stroke: var(--nl-chosen); stroke-width: 2; }
.bar.batch_norm { fill: var(--nl-batch-norm); } .bar.layer_norm { fill: var(--nl-layer-norm); } .bar.rms_norm { fill: var(--nl-rms-norm); }
.was { stroke: var(--nl-reference); stroke-width: 2.5; }
.edited-band { fill: var(--nl-chosen); fill-opacity: 0.08; stroke: var(--nl-chosen); stroke-opacity: 0.5; stroke-dasharray: 3 3; }
.tok { font-size: var(--nl-small-size); fill: var(--nl-muted); }
.tok.edited { fill: var(--nl-fg); font-weight: 600; }
.mark { font-size: var(--nl-label-size); font-weight: 600; }
.mark.changed { fill: var(--nl-update); } .mark.same { fill: var(--nl-muted); }
.verdict { font-size: var(--nl-small-size); fill: var(--nl-muted); }
`;

  /** The edited feature's value (a property set to null means the token's own value). */
  _value(v = this._values) {
    return v.value ?? v.tokens[(v.edit - 1) * D];
  }

  buildControls(box) {
    super.buildControls(box);
    const undo = this.button('undo', () => this.setValues({ value: this._values.tokens[(this._values.edit - 1) * D] }));
    box.append(
      undo,
      this.button('reset', () => this.setValues(this.pageValues)),
    );
  }

  buildView(view) {
    const box = el('div', { class: 'leak-panels' });
    this._svgs = ['input', ...METHODS].map((k) => svg(320, 210, `leak ${k}`)); // the drawn height at any width
    box.append(...this._svgs);
    view.append(box);
  }

  _syncControls() {
    super._syncControls();
    // a value of null (set as a property) shows the token's own value
    const c = this._controls.value;
    if (c && !this._attrErrors.has('value')) {
      c.range.value = String(this._value());
      if (this.shadowRoot.activeElement !== c.box) c.box.value = String(this._value());
    }
  }

  compute(core, v) {
    const original = v.tokens[(v.edit - 1) * D];
    const value = this._value(v);
    const input = [...v.tokens];
    input[(v.edit - 1) * D] = value;
    const run = (data) => {
      const x = { shape: [T, D], data };
      return {
        // training mode, no running statistics: each feature is standardized over the six tokens
        batch_norm: this.op('batch_norm', { x }, { training: true }, 'y'),
        layer_norm: this.op('layer_norm', { x }),
        rms_norm: this.op('rms_norm', { x }),
      };
    };
    const outputs = run(input),
      baseline = run(v.tokens);
    const changed = {},
      earlierChanged = {};
    for (const m of METHODS) {
      changed[m] = Array.from({ length: T }, (_, t) =>
        [0, 1, 2].some((f) => !Object.is(outputs[m][t * D + f], baseline[m][t * D + f])),
      );
      earlierChanged[m] = changed[m].slice(0, v.edit - 1).filter(Boolean).length;
    }
    // one fixed axis for every panel and every position of the sliders: the inputs' range and ±√5,
    // the largest |z| six numbers can give
    const { domain, ticks } = this.axis([-6, 6], { symmetric: true, count: 6 });
    const out = this.axis([-2.3, 2.3], { symmetric: true, count: 5 });
    return {
      value,
      original,
      edited: !Object.is(value, original),
      input,
      outputs,
      baseline,
      changed,
      earlierChanged,
      domain,
      ticks,
      outDomain: out.domain,
      outTicks: out.ticks,
    };
  }

  draw(s) {
    const panels = [
      ['input', s.input, s.tokens, s.domain, s.ticks],
      ...METHODS.map((m) => [m, s.outputs[m], s.baseline[m], s.outDomain, s.outTicks]),
    ];
    panels.forEach(([kind, values, before, domain, ticks], k) => {
      const svgEl = this._svgs[k];
      const W = this.fit(svgEl, 320, 210);
      const left = 34,
        right = 8,
        top = 44,
        bottom = 160;
      const y = scale(domain, [bottom, top]);
      const slot = (W - left - right) / T;
      const items = [yAxis(ticks, y, left, W - right, (v) => this.fmt(v, 3))];
      items.push(el('line', { class: 'zero', x1: left, x2: W - right, y1: y(0), y2: y(0) }));
      const e = s.edit - 1;
      items.push(
        el('rect', {
          class: 'edited-band',
          x: (left + e * slot + 1).toFixed(1),
          y: top - 4,
          width: (slot - 2).toFixed(1),
          height: bottom - top + 8,
          rx: 4,
        }),
      );
      const bw = Math.min(12, (slot - 10) / D);
      for (let t = 0; t < T; t++) {
        const x0 = left + t * slot + (slot - bw * D) / 2;
        for (let f = 0; f < D; f++) {
          const v = values[t * D + f],
            b = before[t * D + f];
          const top0 = Math.min(y(v), y(0));
          const mark = kind === 'input' && t === e && f === 0 ? ' edited' : ''; // the feature the reader moves
          items.push(
            el('rect', {
              class: `bar ${kind}${mark}`,
              x: (x0 + f * bw).toFixed(1),
              y: top0.toFixed(1),
              width: (bw - 1.5).toFixed(1),
              height: Math.abs(y(v) - y(0)).toFixed(1),
              rx: 1.5,
            }),
          );
          if (!Object.is(v, b))
            items.push(
              el('line', {
                class: 'was',
                x1: (x0 + f * bw - 1).toFixed(1),
                x2: (x0 + (f + 1) * bw - 0.5).toFixed(1),
                y1: y(b).toFixed(1),
                y2: y(b).toFixed(1),
              }),
            );
        }
        const cx = left + (t + 0.5) * slot;
        items.push(
          el(
            'text',
            { class: `tok${t === e ? ' edited' : ''}`, x: cx.toFixed(1), y: bottom + 16, 'text-anchor': 'middle' },
            this.t('token', { t: t + 1 }),
          ),
        );
        if (kind !== 'input' && t < e) {
          const ch = s.changed[kind][t];
          items.push(
            el(
              'text',
              { class: `mark ${ch ? 'changed' : 'same'}`, x: cx.toFixed(1), y: bottom + 33, 'text-anchor': 'middle' },
              ch ? '≠' : '=',
            ),
          );
        }
      }
      const title = kind === 'input' ? this.t('inputTitle') : this.t(`title_${kind}`);
      items.push(el('text', { class: 'panel-title', x: left, y: 16 }, title));
      if (kind !== 'input') items.push(el('text', { class: 'verdict', x: left, y: 31 }, this._verdict(s, kind)));
      svgEl.replaceChildren(...items);
    });
  }

  /** "3 earlier tokens changed" / "earlier tokens unchanged", from the state. */
  _verdict(s, m) {
    const n = s.earlierChanged[m];
    return n === 0 ? this.t('verdictNone') : this.t(n === 1 ? 'verdictOne' : 'verdictSome', { n });
  }

  describe(s) {
    const vars = { t: s.edit, from: this.fmt(s.original), to: this.fmt(s.value), before: s.edit - 1, last: s.edit - 1 };
    if (!s.edited) return this.t('describeStill', vars);
    const parts = [this.t('describeEdit', vars)];
    const leaking = METHODS.filter((m) => s.earlierChanged[m] > 0);
    const sealed = METHODS.filter((m) => s.earlierChanged[m] === 0);
    for (const m of leaking) {
      const n = s.earlierChanged[m];
      parts.push(
        this.t(n === s.edit - 1 ? 'describeLeakAll' : 'describeLeakSome', { ...vars, method: this.t(`name_${m}`), n }),
      );
    }
    if (sealed.length)
      parts.push(
        this.t('describeSealed', { ...vars, methods: sealed.map((m) => this.t(`name_${m}`)).join(this.t('and')) }),
      );
    if (leaking.length) parts.push(this.t('describeUndo'));
    return parts.join(this.t('sentenceSep'));
  }
}
NlCausalLeak.defineProperties();

// The figure's strings, English and Chinese (t(key); a language added with registerLocale overrides them).
NlCausalLeak.strings = {
  en: {
    name: 'Does editing a later token change earlier outputs? BatchNorm over the sequence against LayerNorm and RMSNorm',
    edit: 'Token',
    value: 'Feature 1',
    undo: 'Undo the edit',
    reset: 'Reset',
    token: 't{t}',
    inputTitle: 'Input tokens (3 features each)',
    title_batch_norm: 'BatchNorm over (B, T)',
    title_layer_norm: 'LayerNorm',
    title_rms_norm: 'RMSNorm',
    name_batch_norm: 'BatchNorm pooled over the sequence',
    name_layer_norm: 'LayerNorm',
    name_rms_norm: 'RMSNorm',
    verdictNone: 'earlier tokens: unchanged',
    verdictOne: '1 earlier token changed',
    verdictSome: '{n} earlier tokens changed',
    and: ' and ',
    sentenceSep: ' ',
    describeStill:
      'Token {t} still has its own feature 1, {from}: every output is as it was. Move the value to edit this later token and watch tokens 1 to {last}.',
    describeEdit: 'Feature 1 of token {t} moved from {from} to {to}.',
    describeLeakAll:
      '{method} changed the outputs of all {n} earlier tokens: each feature’s mean and variance pool every token, later ones included, so the past sees the future.',
    describeLeakSome:
      '{method} changed the outputs of {n} of the {before} earlier tokens: its statistics pool every token, later ones included.',
    describeSealed:
      '{methods} left the outputs of tokens 1 to {last} exactly as they were, bit for bit: their statistics stay inside each token.',
    describeUndo: 'Undo the edit and every ≠ below the panels turns back into =.',
  },
  zh: {
    name: '修改后面的 token，会改变前面 tokens 的输出吗？沿序列的 BatchNorm 对比 LayerNorm 与 RMSNorm',
    edit: 'token',
    value: 'feature 1',
    undo: '撤销修改',
    reset: '重置',
    token: 't{t}',
    inputTitle: '输入 tokens（每个 3 个 features）',
    title_batch_norm: '沿 (B, T) 的 BatchNorm',
    title_layer_norm: 'LayerNorm',
    title_rms_norm: 'RMSNorm',
    name_batch_norm: '沿序列汇总统计量的 BatchNorm',
    name_layer_norm: 'LayerNorm',
    name_rms_norm: 'RMSNorm',
    verdictNone: '前面的 tokens：不变',
    verdictOne: '前面有 1 个 token 改变',
    verdictSome: '前面有 {n} 个 tokens 改变',
    and: ' 与 ',
    sentenceSep: '',
    describeStill:
      'Token {t} 的 feature 1 仍是原值 {from}：所有输出都没有变化。移动数值来修改这个后面的 token，再看 tokens 1 到 {last}。',
    describeEdit: 'Token {t} 的 feature 1 从 {from} 变为 {to}。',
    describeLeakAll:
      '{method} 改变了前面全部 {n} 个 tokens 的输出：它对每个 feature 的 mean 与 variance 汇总了所有 tokens，包括后面的，所以过去看到了未来。',
    describeLeakSome:
      '{method} 改变了前面 {before} 个 tokens 中 {n} 个的输出：它的统计量汇总了所有 tokens，包括后面的。',
    describeSealed: '{methods} 让 tokens 1 到 {last} 的输出与原来逐位完全相同：它们的统计量只在每个 token 内部计算。',
    describeUndo: '撤销修改后，各图下方的 ≠ 全部变回 =。',
  },
};
