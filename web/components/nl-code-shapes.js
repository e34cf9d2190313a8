// <nl-code-shapes> — a PyTorch implementation of vector L2 normalization,
// token LayerNorm, RMSNorm and AdaLN; each highlighted expression shows its
// shape for the sizes the reader sets, and its role.
//
// Attributes: sizes ("B=2,T=5,d=8,d_c=4"), selected (an expression id), lang.
// Properties: sizes ({B, T, d, d_c}), selected; state (read-only):
//   {sizes, expressions: [{id, code, shape, symbolic, role}], selected, error}.
// Events: change — after the reader selects an expression or edits a size.
// Keyboard: Tab reaches each expression; arrow keys, Home and End move
//   between them. Pointer: hover or tap an expression.
// CSS custom properties: --nl-code-bg, --nl-code-fg, --nl-expr, --nl-expr-active,
//   token colors --nl-tok-keyword, --nl-tok-number, --nl-tok-comment,
//   --nl-tok-function, --nl-tok-operator. Parts: figure, code, expression,
//   info, shape, role, controls, error.
// Shapes come from the core's reduce_shape and broadcast_shape. The symbolic
// form ([B, T, 1]) is the same computation run on distinct prime sizes and
// read back by name. Syntax colors come from Prism's tokenizer (tokens only,
// never HTML), loaded when the figure starts.
import { NlElement, el } from './base.js';

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
const condition = { matmul: [['B', 'd_c'], ['d_c', 'd']], keepdim: true }; // [B, 1, d]
export const EXPRESSIONS = [
  { id: 'l2-norm', code: 'x.float().pow(2).sum(-1, keepdim=True).sqrt()', recipe: stat('l2_normalize') },
  { id: 'l2-divide', code: 'x.float() / norm.clamp_min(eps)', recipe: { broadcast: [X, stat('l2_normalize')] } },
  { id: 'ln-mean', code: 'xf.mean(-1, keepdim=True)', recipe: stat('layer_norm') },
  { id: 'ln-var', code: '(xf - mu).pow(2).mean(-1, keepdim=True)', recipe: stat('layer_norm') },
  { id: 'ln-hat', code: '(xf - mu) * torch.rsqrt(var + eps)', recipe: { broadcast: [X, stat('layer_norm')] } },
  { id: 'ln-affine', code: 'x_hat * gamma + beta', recipe: { broadcast: [X, param('layer_norm', 'scale')] } },
  { id: 'rms-ms', code: 'xf.pow(2).mean(-1, keepdim=True)', recipe: stat('rms_norm') },
  { id: 'rms-out', code: 'xf * torch.rsqrt(ms + eps) * gamma', recipe: { broadcast: [{ broadcast: [X, stat('rms_norm')] }, param('rms_norm', 'scale')] } },
  { id: 'ada-scale', code: '(c @ W_scale).unsqueeze(1)', recipe: condition },
  { id: 'ada-shift', code: '(c @ W_shift).unsqueeze(1)', recipe: condition },
  { id: 'ada-var', code: 'xf.var(-1, keepdim=True, unbiased=False)', recipe: stat('ada_layer_norm') },
  { id: 'ada-out', code: '(1 + scale) * x_hat + shift', recipe: { broadcast: [condition, X] } },
];

const SIZE_NAMES = ['B', 'T', 'd', 'd_c'];
const DEFAULT_SIZES = { B: 2, T: 5, d: 8, d_c: 4 };
// Distinct primes stand in for the names, so a shape computed from them can
// be read back symbolically.
const SYMBOL_SIZES = { B: 1009, T: 1013, d: 1019, d_c: 1021 };
const MAX_SIZE = 4096;

// Where each expression sits in the snippet (first occurrence after the
// previous expression, so repeated text maps to the intended place).
function locate() {
  let from = 0;
  return EXPRESSIONS.map((e) => {
    const start = SNIPPET.indexOf(e.code, from);
    if (start < 0) throw new Error(`nl-code-shapes: expression ${e.id} not found in the snippet`);
    from = start + e.code.length;
    return { ...e, start, end: from };
  });
}

export class NlCodeShapes extends NlElement {
  static catalog = 'codeShapes';
  static observedAttributes = ['sizes', 'selected', 'lang'];
  static css = `
:host {
  --nl-code-bg: #f6f7f9; --nl-code-fg: #24292f; --nl-expr: rgba(232, 89, 12, 0.08); --nl-expr-active: rgba(232, 89, 12, 0.16);
  --nl-tok-keyword: #6639ba; --nl-tok-number: #0550ae; --nl-tok-comment: #57606a; --nl-tok-function: #953800;
  --nl-tok-operator: #a40e26; --nl-tok-string: #0a3069;
}
@media (prefers-color-scheme: dark) {
  :host {
    --nl-code-bg: #0d1117; --nl-code-fg: #e6edf3; --nl-expr: rgba(255, 146, 43, 0.14); --nl-expr-active: rgba(255, 146, 43, 0.34);
    --nl-tok-keyword: #d2a8ff; --nl-tok-number: #79c0ff; --nl-tok-comment: #8b949e; --nl-tok-function: #ffa657;
    --nl-tok-operator: #ff7b72; --nl-tok-string: #a5d6ff;
  }
}
.layout { display: grid; grid-template-columns: minmax(0, 1fr) 250px; gap: 12px; align-items: start; }
@container (max-width: 640px) { .layout { grid-template-columns: minmax(0, 1fr); } }
.controls { display: flex; flex-wrap: wrap; gap: 8px 14px; margin-bottom: 8px; align-items: center; }
.control { display: flex; gap: 4px; align-items: center; font-family: ui-monospace, monospace; }
.control input { width: 64px; padding: 2px 6px; }
pre {
  margin: 0; padding: 10px 12px; overflow-x: auto; background: var(--nl-code-bg); color: var(--nl-code-fg);
  border-radius: 6px; font: 13px/1.55 ui-monospace, "SFMono-Regular", Menlo, Consolas, "Noto Sans Mono", monospace; tab-size: 4;
}
.expr { background: var(--nl-expr); border-radius: 3px; cursor: pointer; box-shadow: inset 0 -1px 0 var(--nl-tok-function); }
.expr.active { background: var(--nl-expr-active); }
.expr:focus-visible { outline: 2px solid var(--nl-focus); outline-offset: 1px; }
.token.keyword, .token.boolean, .token.builtin { color: var(--nl-tok-keyword); }
.token.number { color: var(--nl-tok-number); }
.token.comment { color: var(--nl-tok-comment); font-style: italic; }
.token.function { color: var(--nl-tok-function); }
.token.operator { color: var(--nl-tok-operator); }
.token.string { color: var(--nl-tok-string); }
.info { position: sticky; top: 8px; border: 1px solid var(--nl-grid); border-radius: 6px; padding: 10px; font-size: 0.9em; }
.info code { font: 12px ui-monospace, monospace; overflow-wrap: anywhere; }
.info .shape { font: 600 15px ui-monospace, monospace; margin: 8px 0; }
.info .role { margin: 0; }
.info .title { margin: 0 0 6px; font-size: 0.95em; font-weight: 600; }
`;

  constructor() {
    super();
    this._sizes = { ...DEFAULT_SIZES };
    this._selected = EXPRESSIONS[0].id;
    this._attrErrors = new Map();
    this._state = null;
    this._exprs = locate();
    this._shapes = new Map();
  }

  get sizes() {
    return { ...this._sizes };
  }
  set sizes(v) {
    this.setAttribute('sizes', SIZE_NAMES.map((k) => `${k}=${v[k] ?? this._sizes[k]}`).join(','));
  }

  _parseAttribute(name, value) {
    this._attrErrors.delete(name);
    if (name === 'sizes') {
      if (value === null) return void (this._sizes = { ...DEFAULT_SIZES });
      const next = { ...this._sizes };
      for (const part of value.split(',')) {
        const [k, v] = part.split('=').map((s) => s.trim());
        const n = Number(v);
        if (!SIZE_NAMES.includes(k) || !Number.isInteger(n) || n < 1 || n > MAX_SIZE) {
          return void this._attrErrors.set(name, this.t('badSizes', { value, max: MAX_SIZE }));
        }
        next[k] = n;
      }
      this._sizes = next;
    } else if (name === 'selected') {
      if (value === null) return;
      if (!EXPRESSIONS.some((e) => e.id === value)) return void this._attrErrors.set(name, this.t('badSelected', { value }));
      this._selected = value;
    }
  }

  build(root) {
    for (const name of ['sizes', 'selected']) if (this.hasAttribute(name)) this._parseAttribute(name, this.getAttribute(name));
    const wrap = el('div', { part: 'figure', role: 'group', class: 'wrap', 'aria-describedby': 'info' });
    this._wrap = wrap;
    this._status = el('p', { class: 'status muted', role: 'status' });
    const controls = el('div', { class: 'controls', part: 'controls' });
    this._sizeLabel = el('span');
    controls.append(this._sizeLabel);
    this._sizeInputs = {};
    for (const k of SIZE_NAMES) {
      const label = el('label', { class: 'control' });
      const input = el('input', { type: 'number', min: 1, max: MAX_SIZE, step: 1, part: 'number' });
      input.addEventListener('change', () => {
        const n = Number(input.value);
        if (!Number.isInteger(n) || n < 1 || n > MAX_SIZE) {
          this._attrErrors.set('sizes', this.t('badSize', { name: k, value: input.value, max: MAX_SIZE }));
          this._updateState();
          this.render();
          return;
        }
        this._attrErrors.delete('sizes');
        this._sizes = { ...this._sizes, [k]: n };
        this.reflect('sizes', SIZE_NAMES.map((name) => `${name}=${this._sizes[name]}`).join(','));
        this.refresh();
        this.emitChange();
      });
      label.append(el('span', {}, k), input);
      this._sizeInputs[k] = input;
      controls.append(label);
    }
    const layout = el('div', { class: 'layout' });
    this._pre = el('pre', { part: 'code' });
    this._code = el('code', { class: 'language-python' });
    this._pre.append(this._code);
    this._info = el('div', { class: 'info', part: 'info', id: 'info', 'aria-live': 'polite' });
    this._infoTitle = el('p', { class: 'title' });
    this._infoCode = el('code');
    this._infoShape = el('p', { class: 'shape', part: 'shape' });
    this._infoRole = el('p', { class: 'role', part: 'role' });
    this._info.append(this._infoTitle, this._infoCode, this._infoShape, this._infoRole);
    layout.append(this._pre, this._info);
    this._error = el('p', { class: 'error', part: 'error', role: 'alert' });
    wrap.append(this._status, controls, this._error, layout);
    root.append(wrap);
    this._renderCode(null); // plain text until the highlighter arrives
  }

  start() {
    super.start();
    if (!this._highlighted) {
      this._highlighted = true;
      import('../../dist/vendor/prism.js').then(
        (m) => this._renderCode(m.default),
        () => {}, // without the highlighter the code stays plain, and still works
      );
    }
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
    this._exprs.forEach((e, k) => exprAt.fill(k, e.start, e.end));
    const frag = [];
    this._exprNodes = [];
    let i = 0;
    while (i < n) {
      const k = exprAt[i];
      let j = i;
      while (j < n && exprAt[j] === k) j++;
      const container = k >= 0 ? el('span', { class: 'expr', part: 'expression', tabindex: '0', role: 'button' }) : null;
      const target = [];
      let a = i;
      while (a < j) {
        let b = a;
        while (b < j && cls[b] === cls[a]) b++;
        const text = SNIPPET.slice(a, b);
        target.push(cls[a] ? el('span', { class: cls[a] }, text) : document.createTextNode(text));
        a = b;
      }
      if (container) {
        container.dataset.id = this._exprs[k].id;
        container.append(...target);
        this._wireExpr(container, k);
        this._exprNodes.push(container);
        frag.push(container);
      } else frag.push(...target);
      i = j;
    }
    this._code.replaceChildren(...frag);
    this.render();
  }

  _wireExpr(node, k) {
    const select = () => this._select(this._exprs[k].id, true);
    node.addEventListener('pointerenter', (e) => e.pointerType === 'mouse' && select());
    node.addEventListener('click', select);
    node.addEventListener('focus', select);
    node.addEventListener('keydown', (e) => {
      const moves = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1, Home: -Infinity, End: Infinity };
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        return select();
      }
      if (!(e.key in moves)) return;
      e.preventDefault();
      const m = moves[e.key];
      const next = m === -Infinity ? 0 : m === Infinity ? this._exprNodes.length - 1
        : Math.max(0, Math.min(this._exprNodes.length - 1, k + m));
      this._exprNodes[next].focus();
    });
  }

  _select(id, byUser) {
    if (this._selected === id && this._state?.selected === id) return;
    this._selected = id;
    this._attrErrors.delete('selected');
    if (byUser) this.reflect('selected', id);
    this._updateState();
    this.render();
    if (byUser) this.emitChange();
  }

  applyLanguage() {
    super.applyLanguage();
    if (!this._wrap) return;
    this._wrap.setAttribute('aria-label', this.t('name'));
    this._sizeLabel.textContent = this.t('sizes');
    for (const k of SIZE_NAMES) this._sizeInputs[k].setAttribute('aria-label', this.t('sizeLabel', { name: k }));
    this._pre.setAttribute('aria-label', this.t('codeLabel'));
    if (this._state) this._updateState();
    this.render();
  }

  // ---- shapes from the core ----------------------------------------------------------
  _shapeOf(recipe, sizes) {
    const core = this._core;
    if (Array.isArray(recipe)) return recipe.map((s) => sizes[s]);
    if (recipe.stat) return core.describe(recipe.stat, { shape: this._shapeOf(recipe.of, sizes) }).group.statShape;
    if (recipe.param) return core.describe(recipe.param, { shape: this._shapeOf(recipe.of, sizes) }).params[recipe.role].view;
    if (recipe.reduce) {
      return core.run('reduce_shape', {}, { shape: this._shapeOf(recipe.reduce, sizes), axes: recipe.axes, keepdim: recipe.keepdim }).shape.data;
    }
    if (recipe.broadcast) {
      const [a, b] = recipe.broadcast.map((r) => this._shapeOf(r, sizes));
      return core.run('broadcast_shape', {}, { a, b }).shape.data;
    }
    if (recipe.matmul) {
      // [n, k] @ [k, m]: products broadcast as [n, k, 1] * [k, m], then the k axis is summed
      const [a, b] = recipe.matmul.map((r) => this._shapeOf(r, sizes));
      const prod = core.run('broadcast_shape', {}, { a: [...a, 1], b }).shape.data;
      return core.run('reduce_shape', {}, { shape: prod, axes: [-2], keepdim: recipe.keepdim }).shape.data;
    }
    throw new Error('nl-code-shapes: unknown recipe');
  }

  refresh() {
    if (!this._built) return;
    for (const k of SIZE_NAMES) {
      if (this.shadowRoot.activeElement !== this._sizeInputs[k]) this._sizeInputs[k].value = String(this._sizes[k]);
    }
    if (!this._core) return;
    this._coreError = '';
    try {
      const byPrime = new Map(Object.entries(SYMBOL_SIZES).map(([k, v]) => [v, k]));
      this._shapes = new Map(
        this._exprs.map((e) => [
          e.id,
          {
            shape: Array.from(this._shapeOf(e.recipe, this._sizes)),
            symbolic: Array.from(this._shapeOf(e.recipe, SYMBOL_SIZES), (v) => byPrime.get(v) ?? String(v)),
          },
        ]),
      );
    } catch (e) {
      this._coreError = e.message;
    }
    this._updateState();
    this.render();
  }

  _updateState() {
    const errors = [...this._attrErrors.values()];
    if (this._coreError) errors.push(this._coreError);
    this._state = Object.freeze({
      sizes: { ...this._sizes },
      expressions: this._exprs.map((e) => ({
        id: e.id,
        code: e.code,
        shape: this._shapes.get(e.id)?.shape ?? null,
        symbolic: this._shapes.get(e.id)?.symbolic ?? null,
        role: this.t(`role_${e.id}`),
      })),
      selected: this._selected,
      error: errors.length ? errors.join(' ') : null,
    });
  }

  render() {
    if (!this._state || !this._exprNodes) return;
    const s = this._state;
    this._error.textContent = s.error ?? '';
    for (const node of this._exprNodes) {
      const on = node.dataset.id === s.selected;
      node.classList.toggle('active', on);
      node.setAttribute('aria-pressed', String(on));
      const e = s.expressions.find((x) => x.id === node.dataset.id);
      node.setAttribute('aria-label', e.shape ? this.t('exprLabel', { code: e.code, shape: fmtShape(e.shape) }) : e.code);
    }
    const e = s.expressions.find((x) => x.id === s.selected);
    this._infoTitle.textContent = this.t('infoTitle');
    this._infoCode.textContent = e.code;
    this._infoShape.textContent = e.shape ? `${fmtShape(e.symbolic)} → ${fmtShape(e.shape)}` : '';
    this._infoRole.textContent = e.role;
  }
}
NlCodeShapes.attributeProperties({ selected: ['selected', (el) => el._selected] });

function fmtShape(s) {
  return `[${s.join(', ')}]`;
}
