// <nl-code-shapes> — a PyTorch implementation of vector L2 normalization,
// token LayerNorm, RMSNorm and AdaLN (four snippets, one function each); each
// highlighted expression shows its shape for the sizes the reader sets, in a
// callout anchored at the expression and in a panel with its role.
//
// Attributes: sizes ("B=2,T=5,d=8,d_c=4"; names left out keep their value),
//   b, t, d, d-c (one size each, whole numbers 1..4096; they override the same
//   name in `sizes`), selected (an expression id, default "l2-norm"), lang.
//   A reader's change rewrites `sizes` (and any per-size attribute present).
// Properties: sizes ({B, T, d, d_c}), B, T, d, d_c, selected; state
//   (read-only): {B, T, d, d_c, selected, sizes, snippet, expressions: [{id,
//   code, snippet, shape, symbolic, role}], error}; `snippet` is the function
//   holding the selected expression.
// Events: change — after the reader selects an expression or edits a size.
// Keyboard: Tab reaches each expression; arrow keys, Home and End move
//   between them; the callout follows focus and Escape closes it. Each size
//   has a slider and a number box. Pointer: hover (mouse) or tap an expression.
// Colours: the chosen expression is outlined and tinted in --nl-chosen (the
//   element the reader chose); the axes that come from x's sizes (B, T, d and
//   their numbers) are written in --nl-input; a size-1 axis made by keepdim or
//   unsqueeze stays in the text colour. Syntax is set in weight and gray, not
//   hue (--nl-tok-keyword, --nl-tok-comment, --nl-tok-number,
//   --nl-tok-function, --nl-tok-operator, --nl-tok-string), so a hue keeps its
//   one meaning; --nl-code-bg, --nl-code-fg theme the code block.
// Parts: figure, controls, slider, number, view, code, expression, callout,
//   scroll-hint, info, shape, role, description, error.
// On a narrow screen the code scrolls sideways inside its block (a fade and
//   "scroll" hint show that more code lies to the side).
// Shapes come from the core: core.describe (statistics' keepdim shape,
// parameter views), reduce_shape and broadcast_shape. The symbolic form
// ([B, T, 1]) is the same computation run on distinct prime sizes and read
// back by name. Syntax classes come from Prism's tokenizer (tokens only, never
// HTML), loaded when the figure starts.
import { TOUCH_MEDIA, el } from '../lib/base.js';
import { NlFigure, figureCss } from '../lib/figure.js';

export const SNIPPET = `import torch


def l2_normalize(x, eps=1e-12):
    # x: [B, T, d]; one length per token, summed in float32
    norm = x.float().pow(2).sum(-1, keepdim=True).sqrt()
    return (x.float() / norm.clamp_min(eps)).to(x.dtype)


def layer_norm(x, gamma, beta, eps=1e-5):
    # statistics per token over its d features; gamma, beta: [d]
    xf = x.float()
    mu = xf.mean(-1, keepdim=True)
    var = (xf - mu).pow(2).mean(-1, keepdim=True)
    x_hat = (xf - mu) * torch.rsqrt(var + eps)
    return (x_hat * gamma + beta).to(x.dtype)


def rms_norm(x, gamma, eps=1e-6):
    # no centering: divide by the root mean square
    xf = x.float()
    ms = xf.pow(2).mean(-1, keepdim=True)
    return (xf * torch.rsqrt(ms + eps) * gamma).to(x.dtype)


def ada_layer_norm(x, c, W_scale, W_shift, eps=1e-6):
    # c: [B, d_c] condition -> scale and shift for every token of its example
    scale = (c @ W_scale).unsqueeze(1)
    shift = (c @ W_shift).unsqueeze(1)
    xf = x.float()
    mu = xf.mean(-1, keepdim=True)
    var = xf.var(-1, keepdim=True, unbiased=False)
    x_hat = (xf - mu) * torch.rsqrt(var + eps)
    return ((1 + scale) * x_hat + shift).to(x.dtype)
`;

// Symbolic operands and how each expression's shape is obtained from the core.
const X = ['B', 'T', 'd'];
// The statistics' shape (keepdim) and the parameters' views come from the
// core's description of each normalization (core.describe): no axes here.
const stat = (op) => ({ stat: op, of: X }); // [B, T, 1] for the per-token norms
const param = (op, role) => ({ param: op, role, of: X }); // e.g. gamma's [d]
const condition = {
  matmul: [
    ['B', 'd_c'],
    ['d_c', 'd'],
  ],
  keepdim: true,
}; // [B, 1, d]
export const EXPRESSIONS = [
  { id: 'l2-norm', code: 'x.float().pow(2).sum(-1, keepdim=True).sqrt()', recipe: stat('l2_normalize') },
  { id: 'l2-divide', code: 'x.float() / norm.clamp_min(eps)', recipe: { broadcast: [X, stat('l2_normalize')] } },
  { id: 'ln-mean', code: 'xf.mean(-1, keepdim=True)', recipe: stat('layer_norm') },
  { id: 'ln-var', code: '(xf - mu).pow(2).mean(-1, keepdim=True)', recipe: stat('layer_norm') },
  { id: 'ln-hat', code: '(xf - mu) * torch.rsqrt(var + eps)', recipe: { broadcast: [X, stat('layer_norm')] } },
  { id: 'ln-affine', code: 'x_hat * gamma + beta', recipe: { broadcast: [X, param('layer_norm', 'scale')] } },
  { id: 'rms-ms', code: 'xf.pow(2).mean(-1, keepdim=True)', recipe: stat('rms_norm') },
  {
    id: 'rms-out',
    code: 'xf * torch.rsqrt(ms + eps) * gamma',
    recipe: { broadcast: [{ broadcast: [X, stat('rms_norm')] }, param('rms_norm', 'scale')] },
  },
  { id: 'ada-scale', code: '(c @ W_scale).unsqueeze(1)', recipe: condition },
  { id: 'ada-shift', code: '(c @ W_shift).unsqueeze(1)', recipe: condition },
  { id: 'ada-var', code: 'xf.var(-1, keepdim=True, unbiased=False)', recipe: stat('ada_layer_norm') },
  { id: 'ada-out', code: '(1 + scale) * x_hat + shift', recipe: { broadcast: [condition, X] } },
];

export const SIZE_NAMES = ['B', 'T', 'd', 'd_c'];
const SIZE_ATTRS = { B: 'b', T: 't', d: 'd', d_c: 'd-c' };
const DEFAULT_SIZES = { B: 2, T: 5, d: 8, d_c: 4 };
const SIZE_DOCS = {
  B: 'the batch size B',
  T: 'the sequence length T',
  d: 'the hidden width d',
  d_c: 'the condition width d_c',
};
// Distinct primes stand in for the names, so a shape computed from them can
// be read back symbolically.
const SYMBOL_SIZES = { B: 1009, T: 1013, d: 1019, d_c: 1021 };
const BY_PRIME = new Map(Object.entries(SYMBOL_SIZES).map(([k, v]) => [v, k]));
export const MAX_SIZE = 4096;

// Where each expression sits in the snippet (first occurrence after the
// previous expression, so repeated text maps to the intended place), and the
// function (snippet) it belongs to.
function locate() {
  let from = 0;
  return EXPRESSIONS.map((e) => {
    const start = SNIPPET.indexOf(e.code, from);
    if (start < 0) throw new Error(`nl-code-shapes: expression ${e.id} not found in the snippet`);
    from = start + e.code.length;
    const def = SNIPPET.lastIndexOf('\ndef ', start) + 5;
    return { ...e, start, end: from, snippet: SNIPPET.slice(def, SNIPPET.indexOf('(', def)) };
  });
}
const LOCATED = locate();

const fmtShape = (s) => `[${s.join(', ')}]`;

export class NlCodeShapes extends NlFigure {
  static catalog = 'codeShapes';
  static summary = 'PyTorch normalization code with the shape of each expression.';
  static minHeight = 896; // px kept by normlab/styles.css (measured at 960 px, default attributes)
  static phoneMinHeight = { en: 1781, zh: 1757 }; // px kept up to 600 px wide (measured at 360 px, default attributes)
  static stateDoc = '`sizes`, `expressions` (`{id, code, shape, symbolic, role, snippet}`), `snippet`'; // `state` keys beyond the attributes (README)
  static params = {
    ...Object.fromEntries(
      SIZE_NAMES.map((k) => [
        k,
        {
          attr: SIZE_ATTRS[k],
          kind: 'number',
          integer: true,
          min: 1,
          max: MAX_SIZE,
          step: 1,
          default: DEFAULT_SIZES[k],
          control: 'slider',
          doc: `${SIZE_DOCS[k]}; overrides ${k} in sizes`,
        },
      ]),
    ),
    selected: {
      attr: 'selected',
      kind: 'choice',
      choices: EXPRESSIONS.map((e) => e.id),
      default: EXPRESSIONS[0].id,
      doc: 'the expression shown beside the code',
    },
  };

  /** Attributes beyond the parameters (read by the figure manifest too). */
  static extraAttributes = {
    sizes: {
      type: 'string',
      default: SIZE_NAMES.map((k) => `${k}=${DEFAULT_SIZES[k]}`).join(','),
      doc: 'the sizes the shapes are computed for (names left out keep their value)',
    },
  };

  static get observedAttributes() {
    return [...super.observedAttributes, ...Object.keys(this.extraAttributes)];
  }

  static css =
    figureCss +
    `
:host {
  --nl-code-bg: #f6f7f9; --nl-code-fg: #24292f;
  --nl-tok-keyword: var(--nl-code-fg); --nl-tok-comment: var(--nl-muted); --nl-tok-number: var(--nl-code-fg);
  --nl-tok-function: var(--nl-code-fg); --nl-tok-operator: var(--nl-code-fg); --nl-tok-string: var(--nl-muted);
}
@media (prefers-color-scheme: dark) { :host { --nl-code-bg: #0d1117; --nl-code-fg: #e6edf3; } }
.controls { gap: 6px 16px; }
.sizes-label { font-weight: 600; }
.control > span { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; min-width: 2.2em; }
.control input[type=range] { width: 120px; }
.control input[type=number] { width: 76px; }
.layout { display: grid; grid-template-columns: minmax(0, 1fr) 250px; gap: 12px; align-items: start; }
@container (max-width: 640px) { .layout { grid-template-columns: minmax(0, 1fr); } }
.code-box { position: relative; min-width: 0; }
.scroll-hint { display: block; text-align: right; font-size: var(--nl-small-size); color: var(--nl-muted); margin: 0 0 2px; }
.code-box:not(.overflows) .scroll-hint { display: none; }
.code-box::before, .code-box::after {
  content: ''; position: absolute; bottom: 0; width: 28px; height: var(--pre-height, 0); pointer-events: none;
  border-radius: 6px; opacity: 0; transition: opacity 120ms;
}
.code-box::before { left: 0; background: linear-gradient(to left, transparent, var(--nl-code-bg)); }
.code-box::after { right: 0; background: linear-gradient(to right, transparent, var(--nl-code-bg)); }
.code-box.more-left::before, .code-box.more-right::after { opacity: 1; }
pre {
  margin: 0; padding: 10px 12px; overflow-x: auto; background: var(--nl-code-bg); color: var(--nl-code-fg);
  border-radius: 6px; font: 13px/1.6 ui-monospace, "SFMono-Regular", Menlo, Consolas, "Noto Sans Mono", monospace; tab-size: 4;
}
.expr {
  border-radius: 3px; cursor: pointer; padding: 3px 0;
  background: color-mix(in srgb, var(--nl-code-fg) 7%, transparent);
  text-decoration: underline dotted var(--nl-muted); text-underline-offset: 3px;
}
.expr.active {
  background: color-mix(in srgb, var(--nl-chosen) 12%, transparent); text-decoration: none;
  outline: 1.5px solid var(--nl-chosen); outline-offset: 0;
}
.expr:focus-visible { outline: 2px solid var(--nl-focus); outline-offset: 1px; }
.token.keyword, .token.boolean, .token.builtin { color: var(--nl-tok-keyword); font-weight: 700; }
.token.number { color: var(--nl-tok-number); }
.token.comment { color: var(--nl-tok-comment); font-style: italic; }
.token.function { color: var(--nl-tok-function); }
.token.operator { color: var(--nl-tok-operator); }
.token.string { color: var(--nl-tok-string); }
@container (max-width: 480px) {
  .controls { display: grid; grid-template-columns: minmax(0, 1fr); }
  .control input[type=range] { flex: 1 1 auto; width: auto; max-width: none; min-width: 0; }
  /* taller rows and padded expressions: an easier target in a narrow column */
  pre { line-height: 2; }
  .expr { padding: 5px 0; }
}
/* Where a finger is the pointer (base.js TOUCH_MEDIA) each expression is a 44 px tall target: a line that holds one
   is 44 px tall, the other lines keep theirs, and the highlight stays a band around the text (drawn by ::before).
   The code keeps its lines and scrolls sideways in its box on a phone. */
@media ${TOUCH_MEDIA} {
  .expr {
    display: inline-block; position: relative; isolation: isolate; padding: 13px 0; line-height: 18px;
    background: none; outline: none;
  }
  .expr::before {
    content: ''; position: absolute; inset: 9px -1px; z-index: -1; border-radius: 3px;
    background: color-mix(in srgb, var(--nl-code-fg) 7%, transparent);
  }
  .expr.active { background: none; outline: none; }
  .expr.active::before {
    background: color-mix(in srgb, var(--nl-chosen) 12%, transparent); outline: 1.5px solid var(--nl-chosen);
  }
  .expr:focus-visible { outline: none; }
  .expr:focus-visible::before { outline: 2px solid var(--nl-focus); outline-offset: 1px; }
}
.callout {
  position: absolute; z-index: 1; left: 0; top: 0; max-width: calc(100% - 8px); white-space: nowrap;
  padding: 3px 8px; border: 1.5px solid var(--nl-chosen); border-radius: 6px; background: var(--nl-bg); color: var(--nl-fg);
  font: 600 var(--nl-label-size)/1.4 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace;
  box-shadow: 0 2px 6px color-mix(in srgb, var(--nl-fg) 22%, transparent); pointer-events: none;
}
.callout::before {
  content: ''; position: absolute; left: var(--arrow, 12px); width: 8px; height: 8px; background: var(--nl-bg);
  border: solid var(--nl-chosen); transform: translateX(-50%) rotate(45deg);
}
.callout.below::before { top: -5.5px; border-width: 1.5px 0 0 1.5px; }
.callout.above::before { bottom: -5.5px; border-width: 0 1.5px 1.5px 0; }
.dim { color: var(--nl-input); }
.info { border: 1px solid var(--nl-grid); border-left: 3px solid var(--nl-chosen); border-radius: 6px; padding: 10px; font-size: 0.9em; min-width: 0; }
@container (min-width: 641px) { .info { position: sticky; top: 8px; } }
.info code { font: 12px ui-monospace, monospace; overflow-wrap: anywhere; }
.info .shape { font: 600 15px ui-monospace, monospace; margin: 8px 0; overflow-wrap: anywhere; }
.info .role { margin: 0; }
.info .title { margin: 0 0 2px; font-size: 0.95em; font-weight: 600; }
.info .where { margin: 0 0 6px; color: var(--nl-muted); font-size: 0.9em; }
`;

  constructor() {
    super();
    this._calloutOpen = false;
    this._exprNodes = [];
    this._badText = new Map(); // key -> the text refused, so its message follows the language
  }

  get sizes() {
    return Object.fromEntries(SIZE_NAMES.map((k) => [k, this._values[k]]));
  }
  /** An object ({B: 3, d: 16}) or the attribute's text ('B=3,d=16'); names left out keep their value. */
  set sizes(v) {
    const text = typeof v === 'string' ? v : SIZE_NAMES.map((k) => `${k}=${v?.[k] ?? this._values[k]}`).join(',');
    this.setAttribute('sizes', text);
  }

  // ---- parameters ---------------------------------------------------------------------
  /** A size's message names the size as written in the code (B, d_c), not its attribute. */
  parseValue(key, text) {
    const r = super.parseValue(key, text);
    if (r.error) this._badText.set(key, text); // to say it again in another language
    if (r.error && SIZE_NAMES.includes(key))
      return { error: this.t('badSize', { name: key, value: text, max: MAX_SIZE }) };
    return r;
  }

  _sizesText() {
    return SIZE_NAMES.map((k) => `${k}=${this._values[k]}`).join(',');
  }

  /** Read `sizes="B=2,d=16"`: {values} for the names it gives (each checked), or {error}. */
  _readSizes(value) {
    const bad = { error: this.t('badSizes', { value: value.slice(0, 80), max: MAX_SIZE }) };
    const parts = value.split(',', SIZE_NAMES.length + 1);
    if (value.length > 200 || parts.length > SIZE_NAMES.length) return bad;
    const values = {};
    for (const part of parts) {
      const m = /^\s*([A-Za-z_]+)\s*=(.*)$/.exec(part);
      if (!m || !SIZE_NAMES.includes(m[1])) return bad;
      const r = this.parseValue(m[1], m[2].trim());
      if (r.error) return r;
      values[m[1]] = r.value;
    }
    return { values };
  }

  /** `sizes` changed: the sizes it names take its values; the others keep theirs. */
  _parseSizes(value) {
    this._attrErrors.delete('sizes');
    if (value === null) return;
    const r = this._readSizes(value);
    if (r.error) {
      this._badText.set('sizes', value);
      return void this._attrErrors.set('sizes', r.error);
    }
    Object.assign(this._values, r.values);
    for (const k of Object.keys(r.values)) this._attrErrors.delete(k);
  }

  /** Keep every size attribute present in step with the sizes. */
  _reflectSizes(always) {
    if (always || this.hasAttribute('sizes')) this.reflect('sizes', this._sizesText());
    for (const k of SIZE_NAMES) {
      const attr = SIZE_ATTRS[k];
      if (this.hasAttribute(attr) && !this._attrErrors.has(k) && this.getAttribute(attr) !== String(this._values[k])) {
        this.reflect(attr, String(this._values[k]));
      }
    }
  }

  attributeChanged(name, value) {
    if (name === 'sizes') {
      this._parseSizes(value);
      if (!this._attrErrors.has('sizes')) this._reflectSizes(false);
      return this.refresh();
    }
    const key = this._paramByAttr(name)?.[0];
    if (!SIZE_NAMES.includes(key)) return super.attributeChanged(name, value);
    this._parseAttribute(key, value);
    // A per-size attribute removed: back to what `sizes` says, else the default.
    if (value === null && this.hasAttribute('sizes'))
      this._values[key] = this._readSizes(this.getAttribute('sizes')).values?.[key] ?? this._values[key];
    if (!this._attrErrors.has(key) && !this._attrErrors.has('sizes')) this._reflectSizes(false);
    this.refresh();
  }

  setByUser(key, value) {
    if (!SIZE_NAMES.includes(key)) return super.setByUser(key, value);
    const r = this.parseValue(key, String(value));
    if (r.error) {
      this._attrErrors.set(key, r.error);
      return this.refresh();
    }
    this._attrErrors.delete(key);
    this._attrErrors.delete('sizes'); // `sizes` is rewritten whole below
    this._values[key] = r.value;
    this._reflectSizes(true);
    this.refresh();
    this.emitChange();
  }

  // ---- DOM ------------------------------------------------------------------------------
  build(root) {
    if (this.hasAttribute('sizes')) this._parseSizes(this.getAttribute('sizes'));
    super.build(root); // then the per-size attributes, which override `sizes`
  }

  buildControls(box) {
    this._sizesLabel = el('span', { class: 'sizes-label' });
    box.append(this._sizesLabel);
    super.buildControls(box); // a slider and a number box per size
  }

  buildView(view) {
    const layout = el('div', { class: 'layout' });
    this._box = el('div', { class: 'code-box' });
    this._hint = el('span', { class: 'scroll-hint', part: 'scroll-hint', 'aria-hidden': 'true' });
    this._pre = el('pre', { part: 'code' });
    this._code = el('code', { class: 'language-python' });
    this._pre.append(this._code);
    this._callout = el('div', { class: 'callout below', part: 'callout', 'aria-hidden': 'true', hidden: '' });
    this._box.append(this._hint, this._pre, this._callout);
    this._info = el('div', { class: 'info', part: 'info' });
    this._infoTitle = el('p', { class: 'title' });
    this._infoWhere = el('p', { class: 'where' });
    this._infoCode = el('code');
    this._infoShape = el('p', { class: 'shape', part: 'shape' });
    this._infoRole = el('p', { class: 'role', part: 'role' });
    this._info.append(this._infoTitle, this._infoWhere, this._infoCode, this._infoShape, this._infoRole);
    layout.append(this._box, this._info);
    view.append(layout);
    this._pre.addEventListener('scroll', () => this._place(), { passive: true });
    this._box.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && this._calloutOpen) {
        this._calloutOpen = false;
        this._place();
      }
    });
    // Focus leaving the code (a tap elsewhere, Tab past the last expression) closes the callout.
    this._box.addEventListener('focusout', (e) => {
      if (this._calloutOpen && !this._box.contains(e.relatedTarget)) {
        this._calloutOpen = false;
        this._place();
      }
    });
    this._renderCode(this._prism ?? null); // plain text until the highlighter arrives
  }

  start() {
    super.start();
    if (!this._highlighting) {
      this._highlighting = true;
      import('../../../dist/vendor/prism.js').then(
        (m) => {
          this._prism = m.default;
          if (this._built) this._renderCode(this._prism);
        },
        () => {}, // without the highlighter the code stays plain, and still works
      );
    }
  }

  /** Busy while the syntax highlighter is on its way (its colours are part of the drawing). */
  renderState() {
    return { ...super.renderState(), busy: Boolean(this._highlighting && !this._prism) };
  }

  // The code as DOM: Prism token classes per character, expression spans around ranges.
  _renderCode(prism) {
    const n = SNIPPET.length;
    const cls = new Array(n).fill('');
    if (prism) {
      let pos = 0;
      const walk = (tokens, inherited) => {
        for (const tok of tokens) {
          if (typeof tok === 'string') {
            cls.fill(inherited, pos, pos + tok.length);
            pos += tok.length;
          } else {
            const c = `token ${tok.type}${tok.alias ? ' ' + [].concat(tok.alias).join(' ') : ''}`;
            if (Array.isArray(tok.content)) walk(tok.content, c);
            else walk([String(tok.content)], c);
          }
        }
      };
      walk(prism.tokenize(SNIPPET), '');
    }
    const exprAt = new Array(n).fill(-1);
    LOCATED.forEach((e, k) => exprAt.fill(k, e.start, e.end));
    const frag = [];
    const focused = this.shadowRoot?.activeElement?.dataset?.id;
    this._exprNodes = [];
    let i = 0;
    while (i < n) {
      const k = exprAt[i];
      let j = i;
      while (j < n && exprAt[j] === k) j++;
      const target = [];
      for (let a = i; a < j;) {
        let b = a;
        while (b < j && cls[b] === cls[a]) b++;
        const text = SNIPPET.slice(a, b);
        target.push(cls[a] ? el('span', { class: cls[a] }, text) : document.createTextNode(text));
        a = b;
      }
      if (k >= 0) {
        const node = el('span', { class: 'expr', part: 'expression', tabindex: '0', role: 'button' });
        node.dataset.id = LOCATED[k].id;
        for (const t of target) node.append(t);
        this._wireExpr(node, k);
        this._exprNodes.push(node);
        frag.push(node);
      } else for (const t of target) frag.push(t);
      i = j;
    }
    this._code.replaceChildren(...frag); // a few hundred nodes at most
    if (focused) this._exprNodes.find((x) => x.dataset.id === focused)?.focus();
    if (this._state) this.requestUpdate(false);
  }

  _wireExpr(node, k) {
    const choose = () => this._choose(LOCATED[k].id);
    node.addEventListener('pointerenter', (e) => e.pointerType === 'mouse' && choose());
    node.addEventListener('click', choose);
    node.addEventListener('focus', choose);
    node.addEventListener('keydown', (e) => {
      const moves = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1, Home: -Infinity, End: Infinity };
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        return choose();
      }
      if (!(e.key in moves)) return;
      e.preventDefault();
      const m = moves[e.key];
      const last = this._exprNodes.length - 1;
      const next = m === -Infinity ? 0 : m === Infinity ? last : Math.max(0, Math.min(last, k + m));
      this._exprNodes[next].focus();
    });
  }

  /** The reader chose an expression: open the callout at it; a new choice goes through setByUser. */
  _choose(id) {
    this._calloutOpen = true;
    if (this._values.selected === id && this._state?.selected === id && !this._attrErrors.has('selected'))
      return this._place();
    this.setByUser('selected', id);
  }

  languageChanged() {
    // Messages about refused input, again in the new language.
    for (const key of this._attrErrors.keys()) {
      const text = this._badText.get(key);
      if (text === undefined) continue;
      const r = key === 'sizes' ? this._readSizes(text) : this.parseValue(key, text);
      if (r.error) this._attrErrors.set(key, r.error);
    }
    if (this._state?.error) {
      this._state = Object.freeze({
        ...this._state,
        error: [...this._attrErrors.values(), ...(this._coreError ? [this._coreError] : [])].join(' '),
      });
    }
    this._sizesLabel.textContent = this.t('sizes');
    // The slider and box are named "size B"; the visible label is the name as in the code.
    for (const k of SIZE_NAMES) {
      const c = this._controls[k];
      c.text.textContent = k;
      for (const input of [c.range, c.box]) input.setAttribute('aria-label', this.t('sizeLabel', { name: k }));
    }
    this._pre.setAttribute('aria-label', this.t('codeLabel'));
    this._hint.textContent = this.t('scrollHint');
    this._infoTitle.textContent = this.t('infoTitle');
  }

  // ---- shapes from the core ---------------------------------------------------------------
  /** The shape of a recipe for these sizes, asked of the core (each distinct recipe once per `memo`). */
  _shapeOf(recipe, sizes, memo) {
    if (Array.isArray(recipe)) return recipe.map((s) => sizes[s]);
    const key = JSON.stringify(recipe);
    if (!memo.has(key)) memo.set(key, Array.from(this._askCore(recipe, sizes, memo)));
    return memo.get(key);
  }

  _askCore(recipe, sizes, memo) {
    const core = this._core;
    const of = (r) => this._shapeOf(r, sizes, memo);
    if (recipe.stat) return core.describe(recipe.stat, { shape: of(recipe.of) }).group.statShape;
    if (recipe.param) return core.describe(recipe.param, { shape: of(recipe.of) }).params[recipe.role].view;
    if (recipe.broadcast) {
      const [a, b] = recipe.broadcast.map(of);
      return core.run('broadcast_shape', {}, { a, b }).shape.data;
    }
    if (recipe.matmul) {
      // [n, k] @ [k, m]: products broadcast as [n, k, 1] * [k, m], then the k axis is summed
      const [a, b] = recipe.matmul.map(of);
      const prod = core.run('broadcast_shape', {}, { a: [...a, 1], b }).shape.data;
      return core.run('reduce_shape', {}, { shape: prod, axes: [-2], keepdim: recipe.keepdim }).shape.data;
    }
    throw new Error('nl-code-shapes: unknown recipe');
  }

  compute(core, values) {
    const sizes = Object.fromEntries(SIZE_NAMES.map((k) => [k, values[k]]));
    // Shapes depend on the sizes only: asked once per size setting, not per hover.
    const key = SIZE_NAMES.map((k) => sizes[k]).join(',');
    if (this._shapesCore !== core || this._shapesKey !== key) {
      const symbolicMemo = new Map(),
        memo = new Map();
      this._symbolic ??= LOCATED.map((e) =>
        this._shapeOf(e.recipe, SYMBOL_SIZES, symbolicMemo).map((v) => BY_PRIME.get(v) ?? String(v)),
      );
      this._shapes = LOCATED.map((e) => this._shapeOf(e.recipe, sizes, memo));
      this._shapesKey = key;
      this._shapesCore = core;
    }
    const expressions = LOCATED.map((e, i) => ({
      id: e.id,
      code: e.code,
      snippet: e.snippet,
      shape: this._shapes[i],
      symbolic: this._symbolic[i],
      role: this.t(`role_${e.id}`),
    }));
    return { sizes, snippet: LOCATED.find((e) => e.id === values.selected).snippet, expressions };
  }

  // ---- drawing, from state only ------------------------------------------------------------
  /** "[B, T, 1] → [2, 5, 1]" with the axes from x's sizes in --nl-input. */
  _shapeNodes(e) {
    const part = (dims) => {
      const out = [document.createTextNode('[')];
      dims.forEach((v, i) => {
        if (i) out.push(document.createTextNode(', '));
        out.push(e.symbolic[i] === '1' ? document.createTextNode(String(v)) : el('span', { class: 'dim' }, String(v)));
      });
      out.push(document.createTextNode(']'));
      return out;
    };
    return [...part(e.symbolic), document.createTextNode(' → '), ...part(e.shape)];
  }

  draw(s) {
    const e = s.expressions.find((x) => x.id === s.selected);
    for (const node of this._exprNodes) {
      const on = node.dataset.id === s.selected;
      node.classList.toggle('active', on);
      node.setAttribute('aria-pressed', String(on));
      const x = s.expressions.find((y) => y.id === node.dataset.id);
      node.setAttribute(
        'aria-label',
        this.t('exprLabel', { code: x.code, shape: fmtShape(x.symbolic), numbers: fmtShape(x.shape) }),
      );
    }
    this._infoWhere.textContent = this.t('inSnippet', { snippet: this.t(`snippet_${e.snippet}`) });
    this._infoCode.textContent = e.code;
    this._infoShape.replaceChildren(...this._shapeNodes(e));
    this._infoRole.textContent = e.role;
    this._callout.replaceChildren(...this._shapeNodes(e));
    this._place();
  }

  /** Pixel layout only: the callout under (or above) the chosen expression, and the overflow hint. */
  _place() {
    const pre = this._pre;
    if (!pre) return;
    const overflow = pre.scrollWidth - pre.clientWidth;
    this._box.classList.toggle('overflows', overflow > 1);
    this._box.classList.toggle('more-left', overflow > 1 && pre.scrollLeft > 1);
    this._box.classList.toggle('more-right', overflow > 1 && pre.scrollLeft < overflow - 1);
    this._box.style.setProperty('--pre-height', `${pre.offsetHeight}px`);
    const c = this._callout;
    const node = this._state && this._exprNodes.find((x) => x.dataset.id === this._state.selected);
    if (!this._calloutOpen || !node) return void (c.hidden = true);
    const box = this._box.getBoundingClientRect(),
      p = pre.getBoundingClientRect(),
      r = node.getBoundingClientRect();
    // Hidden while its expression is scrolled out of the code block's view.
    if (r.right < p.left + 8 || r.left > p.right - 8) return void (c.hidden = true);
    c.hidden = false;
    const w = c.offsetWidth,
      h = c.offsetHeight,
      gap = 7;
    const left = Math.max(p.left + 2, Math.min(r.left, p.right - w - 2)) - box.left;
    // a 44 px tall expression (a finger's target) draws its band inset by its ::before: point at the band
    const inset = parseFloat(getComputedStyle(node, '::before').top) || 0;
    const below = r.bottom - inset - box.top + gap;
    const above = r.top + inset - box.top - gap - h;
    // Below the expression, unless that leaves the code block or the screen and above fits.
    const room = (typeof window !== 'undefined' ? window.innerHeight : Infinity) - box.top;
    const flip = (below + h > box.height || below + h > room) && above >= 0 && box.top + above >= 0;
    c.classList.toggle('below', !flip);
    c.classList.toggle('above', flip);
    c.style.left = `${left}px`;
    c.style.top = `${flip ? above : below}px`;
    const tip = Math.max(10, Math.min(w - 10, r.left + Math.min(r.width / 2, 18) - box.left - left));
    c.style.setProperty('--arrow', `${tip}px`);
  }

  describe(s) {
    const e = s.expressions.find((x) => x.id === s.selected);
    // The sizes that appear in the shape, in its order (a size-1 axis names none).
    const named = e.symbolic.filter((v) => SIZE_NAMES.includes(v));
    const sizes = named.map((k) => this.t('sizeIs', { name: k, value: String(s.sizes[k]) })).join(this.t('listSep'));
    return this.t(named.length ? 'describe' : 'describeNoSizes', {
      snippet: this.t(`snippet_${e.snippet}`),
      code: e.code,
      symbolic: fmtShape(e.symbolic),
      shape: fmtShape(e.shape),
      sizes,
    });
  }
}
NlCodeShapes.defineProperties();

// The figure's strings, English and Chinese (t(key); a language added with registerLocale overrides them).
NlCodeShapes.strings = {
  en: {
    name: 'PyTorch code with the shape of each highlighted expression',
    sizes: 'Sizes:',
    sizeLabel: 'size {name}',
    codeLabel: 'PyTorch implementation of L2 normalization, LayerNorm, RMSNorm and AdaLN',
    scrollHint: 'the code scrolls sideways ↔',
    infoTitle: 'Selected expression',
    inSnippet: 'in {snippet}',
    exprLabel: '{code}, shape {shape} = {numbers}',
    badSizes: 'sizes must look like "B=2,T=5,d=8,d_c=4" with whole numbers from 1 to {max} (got "{value}").',
    badSize: '{name} must be a whole number from 1 to {max} (got "{value}").',
    badChoice: 'selected must name one of the highlighted expressions: {choices} (got "{value}").',
    snippet_l2_normalize: 'l2_normalize (L2 normalization)',
    snippet_layer_norm: 'layer_norm (LayerNorm)',
    snippet_rms_norm: 'rms_norm (RMSNorm)',
    snippet_ada_layer_norm: 'ada_layer_norm (AdaLN)',
    sizeIs: '{name} = {value}',
    listSep: ', ',
    describe: 'In {snippet}, the selected expression {code} has shape {symbolic}; with {sizes}, that is {shape}.',
    describeNoSizes: 'In {snippet}, the selected expression {code} has shape {symbolic}, that is {shape}.',
    'role_l2-norm': 'Sum of squares over the last axis d, kept as a size-1 axis: one length per token, [B, T, 1].',
    'role_l2-divide':
      "The [B, T, 1] lengths broadcast over each token's d coordinates: every coordinate is divided by its own token's length.",
    'role_ln-mean':
      'Mean over d for each token; keepdim=True leaves [B, T, 1] so the mean can be subtracted from all d coordinates.',
    'role_ln-var': 'Center first, then square and average: the population variance of each token, again [B, T, 1].',
    'role_ln-hat':
      "Both [B, T, 1] statistics repeat across the token's d coordinates; eps sits inside the square root.",
    'role_ln-affine': 'gamma and beta are [d]: one learned scale and shift per coordinate, shared by every token.',
    'role_rms-ms': 'Mean of squares over d for each token, with no centering: [B, T, 1].',
    'role_rms-out': 'One [B, T, 1] divisor per token, then a learned [d] gain per coordinate.',
    'role_ada-scale':
      'The condition [B, d_c] predicts a [B, d] scale; unsqueeze(1) makes it [B, 1, d], so it repeats over the T tokens of its example.',
    'role_ada-shift':
      'The predicted shift, also [B, 1, d]: one shift per example and feature, the same for every token.',
    'role_ada-var': 'Population variance (unbiased=False), the one LayerNorm uses: [B, T, 1].',
    'role_ada-out':
      'The [B, 1, d] modulation broadcasts over tokens, while the [B, T, 1] statistics broadcast over features: two different singleton axes.',
  },
  zh: {
    name: '带有每个高亮表达式 shape 的 PyTorch 代码',
    sizes: '尺寸：',
    sizeLabel: '尺寸 {name}',
    codeLabel: 'L2 normalization、LayerNorm、RMSNorm 与 AdaLN 的 PyTorch 实现',
    scrollHint: '代码可左右滚动 ↔',
    infoTitle: '选中的表达式',
    inSnippet: '位于 {snippet}',
    exprLabel: '{code}，shape {shape} = {numbers}',
    badSizes: 'sizes 的格式应为“B=2,T=5,d=8,d_c=4”，取 1 到 {max} 的整数（收到的是“{value}”）。',
    badSize: '{name} 必须是 1 到 {max} 的整数（收到的是“{value}”）。',
    badChoice: 'selected 必须是某个高亮表达式的名字：{choices}（收到的是“{value}”）。',
    snippet_l2_normalize: 'l2_normalize（L2 normalization）',
    snippet_layer_norm: 'layer_norm（LayerNorm）',
    snippet_rms_norm: 'rms_norm（RMSNorm）',
    snippet_ada_layer_norm: 'ada_layer_norm（AdaLN）',
    sizeIs: '{name} = {value}',
    listSep: '、',
    describe: '在 {snippet} 中，选中的表达式 {code} 的 shape 是 {symbolic}；当 {sizes} 时为 {shape}。',
    describeNoSizes: '在 {snippet} 中，选中的表达式 {code} 的 shape 是 {symbolic}，即 {shape}。',
    'role_l2-norm': '沿最后一个 axis d 求平方和，并保留长度为 1 的 axis：每个 token 一个长度，[B, T, 1]。',
    'role_l2-divide':
      '[B, T, 1] 的长度沿每个 token 的 d 个 coordinates broadcast：每个 coordinate 除以自己 token 的长度。',
    'role_ln-mean': '每个 token 沿 d 求 mean；keepdim=True 留下 [B, T, 1]，以便从全部 d 个 coordinates 中减去。',
    'role_ln-var': '先 centering，再平方并平均：每个 token 的 population variance，仍是 [B, T, 1]。',
    'role_ln-hat': '两个 [B, T, 1] 统计量在该 token 的 d 个 coordinates 上重复使用；eps 位于平方根之内。',
    'role_ln-affine': 'gamma 与 beta 是 [d]：每个 coordinate 一个学到的 scale 与 shift，所有 tokens 共用。',
    'role_rms-ms': '每个 token 沿 d 求平方的平均，不做 centering：[B, T, 1]。',
    'role_rms-out': '每个 token 一个 [B, T, 1] 除数，再乘以每个 coordinate 的 [d] gain。',
    'role_ada-scale':
      'Condition [B, d_c] 预测出 [B, d] 的 scale；unsqueeze(1) 把它变成 [B, 1, d]，在该 example 的 T 个 tokens 上重复。',
    'role_ada-shift': '预测出的 shift，同样是 [B, 1, d]：每个 example 与 feature 一个 shift，所有 tokens 相同。',
    'role_ada-var': 'Population variance（unbiased=False），即 LayerNorm 使用的 variance：[B, T, 1]。',
    'role_ada-out':
      '[B, 1, d] 的 modulation 沿 tokens broadcast，而 [B, T, 1] 的统计量沿 features broadcast：两个作用不同的长度为 1 的 axis。',
  },
};
