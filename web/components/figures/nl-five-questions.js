// <nl-five-questions> — the article's five questions, answered for a chosen
// method from the core's own description of it (core.describe): which numbers
// are measured together, what is measured, how the group is transformed,
// which parameters follow, and whether the current or saved statistics are
// used. Beside the answers, a small [B, T, d] tensor with the chosen element
// and the members of its group (the core's reduction_group).
//
// Attributes: method (one of METHODS; default "layer_norm"), index ("0,1,2":
//   b, t, d of the chosen element in a [2, 4, 6] tensor), lang.
// Properties: method, index; state (read-only): {method, index, op, shape,
//   description (core.describe's value), names (axis names in the op's own
//   layout), members ([[b, t, d], ...]), error}.
// Events: change (the reader chose a method or an element).
// Keyboard: the method select; the tensor is focusable: arrow keys move the
//   chosen element along t and d, Page Up / Page Down along b. Pointer: click
//   or tap a cell.
// Colours: --nl-chosen the chosen element, --nl-group the members of its group.
// Parts: figure, controls, select, view, answers, description, error.
// Numbers and answers from the core: describe, reduction_group.
import { el, touchSized } from '../lib/base.js';
import { NlFigure, figureCss } from '../lib/figure.js';
import { svg } from '../lib/plot.js';

const SHAPE = [2, 4, 6];
// method → [op, attrs]; BatchNorm twice (training, evaluation)
const METHODS = {
  layer_norm: ['layer_norm', {}],
  rms_norm: ['rms_norm', {}],
  batch_norm_train: ['batch_norm', { training: true }],
  batch_norm_eval: ['batch_norm', { training: false }],
  instance_norm: ['instance_norm', {}],
  group_norm: ['group_norm', { num_groups: 2 }],
  l2_normalize: ['l2_normalize', {}],
  l1_normalize: ['l1_normalize', {}],
  max_normalize: ['max_normalize', {}],
  scale_norm: ['scale_norm', {}],
  softmax: ['softmax', {}],
  ada_layer_norm: ['ada_layer_norm', {}],
  adaptive_rms_norm: ['adaptive_rms_norm', {}],
};

export class NlFiveQuestions extends NlFigure {
  static catalog = 'fiveQuestions';
  static summary = "The five questions answered from core.describe, with the chosen element's group in a small tensor.";
  static minHeight = 305; // px kept by normlab/styles.css (measured at 960 px, default attributes)
  static phoneMinHeight = { en: 1196, zh: 998 }; // px kept up to 600 px wide (measured at 360 px, default attributes)
  static stateDoc = '`description` (`core.describe`), `members`, `names`'; // `state` keys beyond the attributes (README)
  static params = {
    method: {
      attr: 'method',
      kind: 'choice',
      default: 'layer_norm',
      choices: Object.keys(METHODS),
      control: 'select',
      doc: 'the normalization asked about',
    },
    index: {
      attr: 'index',
      kind: 'vector',
      length: 3,
      default: [0, 1, 2],
      doc: 'b, t, d of the chosen element in a [2, 4, 6] tensor',
    },
  };
  static css = `${figureCss}
.five { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 14px; align-items: start; }
@container (max-width: 620px) { .five { grid-template-columns: minmax(0, 1fr); } }
dl.answers { margin: 0; display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 6px 12px; font-size: 0.95em; }
dl.answers dt { font-weight: 600; }
dl.answers dd { margin: 0; }
.cell { fill: var(--nl-bg); stroke: var(--nl-grid); stroke-width: 1; }
.cell.member { fill: var(--nl-group); fill-opacity: 0.75; stroke: var(--nl-group); }
.cell.chosen { fill: var(--nl-chosen); stroke: var(--nl-chosen); }
.tensor { cursor: pointer; outline: none; }
.tensor:focus-visible .frame { stroke: var(--nl-focus); stroke-width: 2.5; }
.frame { fill: none; stroke: none; }
.axis-name { font-size: var(--nl-small-size); fill: var(--nl-muted); }
`;

  buildView(view) {
    const box = el('div', { class: 'five' });
    this._answers = el('dl', { class: 'answers', part: 'answers' });
    this._svg = svg(300, 190, 'tensor', { tabindex: '0', role: 'application', 'aria-hidden': null });
    box.append(this._answers, this._svg);
    view.append(box);
    this._svg.addEventListener('click', (e) => {
      const cell = e.target.closest?.('[data-index]');
      if (cell) this.setByUser('index', cell.dataset.index.split(',').map(Number));
    });
    this._svg.addEventListener('keydown', (e) => {
      const moves = {
        ArrowLeft: [0, 0, -1],
        ArrowRight: [0, 0, 1],
        ArrowUp: [0, -1, 0],
        ArrowDown: [0, 1, 0],
        PageUp: [-1, 0, 0],
        PageDown: [1, 0, 0],
      };
      const m = moves[e.key];
      if (!m) return;
      e.preventDefault();
      const next = this._values.index.map((v, i) => Math.min(SHAPE[i] - 1, Math.max(0, v + m[i])));
      if (next.some((v, i) => v !== this._values.index[i])) this.setByUser('index', next);
    });
  }

  /** An index is three whole numbers inside the [2, 4, 6] tensor. */
  parseValue(key, text) {
    const r = super.parseValue(key, text);
    if (key === 'index' && r.value && r.value.some((v, i) => !Number.isInteger(v) || v < 0 || v >= SHAPE[i])) {
      return { error: this.t('badIndex', { value: text, shape: SHAPE.join(', ') }) };
    }
    return r;
  }

  compute(core, { method, index }) {
    const [op, attrs] = METHODS[method];
    const { d, names } = this._described(core, method);
    const m = core.run(
      'reduction_group',
      {},
      { method: op, shape: SHAPE, index, ...(op === 'group_norm' ? { num_groups: attrs.num_groups } : {}) },
    ).members;
    const members = [];
    for (let i = 0; i < m.shape[0]; i++) members.push([m.data[3 * i], m.data[3 * i + 1], m.data[3 * i + 2]]);
    return { op, shape: d.shape, description: structuredClone(d), names: [...names], members }; // copies: the cache stays the core's
  }

  /**
   * The method's description for the [B, T, d] tensor in the op's own layout
   * (channel-first ops read it as [B, d, T]: channels = features), and the axis
   * names of that layout. It does not depend on the chosen element, so it is
   * asked of the core once per method, not on every click.
   */
  _described(core, method) {
    this._descriptions ??= new Map();
    if (!this._descriptions.has(method)) {
      const [op, attrs] = METHODS[method];
      const probe = core.describe(op, { shape: SHAPE, attrs });
      const channelFirst = probe.channelAxis === 1;
      const d = channelFirst ? core.describe(op, { shape: [SHAPE[0], SHAPE[2], SHAPE[1]], attrs }) : probe;
      this._descriptions.set(method, {
        d: JSON.parse(JSON.stringify(d)),
        names: channelFirst ? ['B', 'd', 'T'] : ['B', 'T', 'd'],
      });
    }
    return this._descriptions.get(method);
  }

  /** The five answers as [question, answer] pairs, in words, from the description. */
  answers(s) {
    const d = s.description,
      t = (k, v) => this.t(k, v);
    const axes = d.group.axes.map((a) => s.names[a]).join(', ');
    // GroupNorm's layout splits d into [G, d/G]: the block of features is its third extent
    const group = t(s.op === 'group_norm' ? 'groupBlock' : 'groupAxes', {
      axes,
      size: d.group.size,
      count: d.group.count,
      per: d.group.layout[2],
    });
    const measure = t(`measure_${d.measure}`);
    const center = d.transform.center ? (d.measure === 'sum_exp' ? 'centerMax' : 'center') : 'noCenter';
    // ε in the page's notation: 1e-5 as 10⁻⁵ (its own exponential spelling, no arithmetic)
    const [mant, exp] = d.transform.eps.toExponential().split('e');
    const sup = (x) => [...x.replace('+', '')].map((c) => (c === '-' ? '⁻' : '⁰¹²³⁴⁵⁶⁷⁸⁹'[c])).join('');
    const eps = d.transform.eps === 0 ? '0' : `${mant === '1' ? '' : `${mant}·`}10${sup(exp)}`;
    const transform =
      t(center) + t('sep') + t(`denominator_${d.transform.denominator}`, { eps, of: t(`of_${d.measure}`) });
    const param = (p) => (p ? t(`per_${p.per}`, { name: p.input }) : null);
    const parts = [param(d.params.scale), param(d.params.shift)].filter(Boolean);
    let params = parts.length ? parts.join(t('sep')) : t('noParams');
    if (d.params.scaleOffset === 1) params += t('sep') + t('scaleOffset');
    return [
      ['qGroup', group],
      ['qMeasure', measure],
      ['qTransform', transform],
      ['qParams', params],
      ['qMode', t(`mode_${d.mode}`)],
    ];
  }

  draw(s) {
    this._answers.replaceChildren(...this.answers(s).flatMap(([q, a]) => [el('dt', {}, this.t(q)), el('dd', {}, a)]));
    const [B, T, D] = SHAPE,
      gap = 18,
      left = 22,
      top = 30;
    // With a mouse on a wide screen a cell is 24 px (22 px drawn: a target read and hit at a glance); where a finger is the pointer (base.js TOUCH_MEDIA) each cell
    // is a 44 px target (46 px apart), the two batches side by side if they fit, else one above the other.
    const c = touchSized() ? 46 : 24;
    const ideal = left + B * D * c + (B - 1) * gap + 8;
    const stacked = ideal > (this.widthOf(this._svg) || ideal);
    const block = T * c + top; // one batch's height with its name above it, when stacked
    const height = stacked ? B * block + 30 : top + T * c + 30;
    const W = this.fit(this._svg, stacked ? left + D * c + 8 : ideal, height);
    const member = new Set(s.members.map((m) => m.join(',')));
    const chosen = s.index.join(',');
    const items = [el('rect', { class: 'frame', x: 1, y: 1, width: W - 2, height: height - 2, rx: 6 })];
    const bottom = stacked ? B * block : top + T * c; // the axes note goes under the cells
    for (let b = 0; b < B; b++) {
      const x0 = stacked ? left : left + b * (D * c + gap);
      const y0 = stacked ? top + b * block : top;
      items.push(el('text', { class: 'axis-name', x: x0, y: y0 - 16 }, `b = ${b}`));
      if (stacked || b === 0) items.push(el('text', { class: 'axis-name', x: 4, y: y0 + 14 }, 't'));
      for (let t = 0; t < T; t++) {
        for (let d = 0; d < D; d++) {
          const key = `${b},${t},${d}`;
          const r = el('rect', {
            class: `cell${member.has(key) ? ' member' : ''}${key === chosen ? ' chosen' : ''}`,
            x: x0 + d * c + 1,
            y: y0 + t * c + 1,
            width: c - 2,
            height: c - 2,
            rx: 3,
          });
          r.dataset.index = key;
          items.push(r);
        }
      }
    }
    items.push(el('text', { class: 'axis-name', x: left, y: bottom + 16 }, this.t('axesNote')));
    this._svg.replaceChildren(...items);
    this._svg.setAttribute('aria-label', this.t('tensorLabel', { index: s.index.join(', '), n: s.members.length }));
  }

  describe(s) {
    const a = Object.fromEntries(this.answers(s));
    return this.t('describe', {
      method: this.t(`choice_${s.method}`),
      n: s.members.length,
      index: s.index.join(', '),
      group: a.qGroup,
      measure: a.qMeasure,
      transform: a.qTransform,
      params: a.qParams,
      mode: a.qMode,
    });
  }
}
NlFiveQuestions.defineProperties();

// The figure's strings, English and Chinese (t(key); a language added with registerLocale overrides them).
NlFiveQuestions.strings = {
  en: {
    name: 'Five questions for any normalization, answered for each method',
    method: 'Method',
    choice_layer_norm: 'LayerNorm',
    choice_rms_norm: 'RMSNorm',
    choice_batch_norm_train: 'BatchNorm (training)',
    choice_batch_norm_eval: 'BatchNorm (evaluation)',
    choice_instance_norm: 'InstanceNorm',
    choice_group_norm: 'GroupNorm (G = 2)',
    choice_l2_normalize: 'L2 normalization',
    choice_l1_normalize: 'L1 normalization',
    choice_max_normalize: 'max-norm scaling',
    choice_scale_norm: 'ScaleNorm',
    choice_softmax: 'softmax',
    choice_ada_layer_norm: 'AdaLN',
    choice_adaptive_rms_norm: 'adaptive RMSNorm',
    qGroup: 'Which numbers?',
    qMeasure: 'What is measured?',
    qTransform: 'What transform?',
    qParams: 'Which parameters?',
    qMode: 'Which statistics?',
    groupAxes: '{size} numbers along {axes}, measured together; {count} such groups',
    groupBlock: '{size} numbers: a block of {per} features of d, along T; {count} such groups',
    measure_mean_var: 'mean and variance',
    measure_mean_square: 'mean of the squares (RMS²)',
    measure_sum_square: 'sum of the squares (squared L2 length)',
    measure_sum_abs: 'sum of |x| (L1 length)',
    measure_max_abs: 'the largest |x|',
    measure_sum_exp: 'sum of the exponentials',
    center: 'subtract the mean',
    centerMax: 'subtract the maximum (for stability)',
    noCenter: 'no centering',
    sep: '; ',
    denominator_sqrt_spread_plus_eps: 'divide by √({of} + ε), ε = {eps}',
    denominator_max_sqrt_spread_eps: 'divide by max(√{of}, ε), ε = {eps}',
    denominator_max_spread_eps: 'divide by max({of}, ε), ε = {eps}',
    of_mean_var: 'variance',
    of_mean_square: 'mean square',
    of_sum_square: 'sum of squares',
    of_sum_abs: 'sum of |x|',
    of_max_abs: 'largest |x|',
    of_sum_exp: 'sum',
    denominator_exp_over_spread: 'exponentiate and divide by the sum',
    per_coordinate: '{name}: one per feature',
    per_channel: '{name}: one per channel (feature)',
    per_scalar: '{name}: a single number',
    per_example_coordinate: '{name}: predicted from a condition, one per example and feature',
    noParams: 'none',
    scaleOffset: 'the scale enters as 1 + scale',
    mode_current: 'the current input’s own statistics',
    mode_running: 'running statistics saved during training',
    axesNote: 'each block: rows t (4 tokens), columns d (6 features)',
    tensorLabel:
      'A [2, 4, 6] tensor; element ({index}) chosen, {n} elements in its group. Arrow keys and Page Up/Down choose another.',
    badIndex: 'index must be three whole numbers inside the [{shape}] tensor (got "{value}").',
    describe:
      '{method}, for element ({index}) of a [2, 4, 6] tensor: its group is {n} elements. Which numbers: {group}. Measured: {measure}. Transform: {transform}. Parameters: {params}. Statistics: {mode}.',
  },
  zh: {
    name: '面对任何 normalization 的五个问题：每种方法的回答',
    method: '方法',
    choice_layer_norm: 'LayerNorm',
    choice_rms_norm: 'RMSNorm',
    choice_batch_norm_train: 'BatchNorm（训练）',
    choice_batch_norm_eval: 'BatchNorm（评估）',
    choice_instance_norm: 'InstanceNorm',
    choice_group_norm: 'GroupNorm（G = 2）',
    choice_l2_normalize: 'L2 normalization',
    choice_l1_normalize: 'L1 normalization',
    choice_max_normalize: 'max-norm 缩放',
    choice_scale_norm: 'ScaleNorm',
    choice_softmax: 'softmax',
    choice_ada_layer_norm: 'AdaLN',
    choice_adaptive_rms_norm: 'adaptive RMSNorm',
    qGroup: '哪些数？',
    qMeasure: '测量什么？',
    qTransform: '怎样变换？',
    qParams: '哪些参数？',
    qMode: '用哪种统计量？',
    groupAxes: '沿 {axes} 的 {size} 个数一起测量；共 {count} 个这样的组',
    groupBlock: '{size} 个数：d 中连续 {per} 个 features 构成的块，沿 T 汇集；共 {count} 个这样的组',
    measure_mean_var: 'mean 与 variance',
    measure_mean_square: '平方的平均（RMS²）',
    measure_sum_square: '平方和（L2 长度的平方）',
    measure_sum_abs: '|x| 之和（L1 长度）',
    measure_max_abs: '最大的 |x|',
    measure_sum_exp: '指数之和',
    center: '减去 mean',
    centerMax: '减去最大值（为了数值稳定）',
    noCenter: '不做 centering',
    sep: '；',
    denominator_sqrt_spread_plus_eps: '除以 √({of} + ε)，ε = {eps}',
    denominator_max_sqrt_spread_eps: '除以 max(√{of}, ε)，ε = {eps}',
    denominator_max_spread_eps: '除以 max({of}, ε)，ε = {eps}',
    of_mean_var: 'variance',
    of_mean_square: '平方的平均',
    of_sum_square: '平方和',
    of_sum_abs: '|x| 之和',
    of_max_abs: '最大的 |x|',
    of_sum_exp: '总和',
    denominator_exp_over_spread: '取指数后除以总和',
    per_coordinate: '{name}：每个 feature 一个',
    per_channel: '{name}：每个 channel（feature）一个',
    per_scalar: '{name}：一个数',
    per_example_coordinate: '{name}：由 condition 预测，每个 example 与 feature 一个',
    noParams: '无',
    scaleOffset: 'scale 以 1 + scale 的形式作用',
    mode_current: '当前输入自身的统计量',
    mode_running: '训练时保存的 running statistics',
    axesNote: '每个块：行为 t（4 个 tokens），列为 d（6 个 features）',
    tensorLabel: '一个 [2, 4, 6] tensor；选中元素 ({index})，它的组有 {n} 个元素。方向键与 Page Up/Down 选择其他元素。',
    badIndex: 'index 必须是 [{shape}] tensor 内的三个整数（收到的是“{value}”）。',
    describe:
      '{method}，[2, 4, 6] tensor 的元素 ({index})：它的组有 {n} 个元素。哪些数：{group}。测量：{measure}。变换：{transform}。参数：{params}。统计量：{mode}。',
  },
};
