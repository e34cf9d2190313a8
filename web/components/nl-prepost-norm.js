// <nl-prepost-norm> — Pre-Norm and Post-Norm residual blocks on x_A and
// x_B = factor * x_A: the normalized branch sees the same input, the Pre-Norm
// residual outputs still differ, and a final normalization keeps what is
// more than a common scale.
//
// Attributes: x ("1,2,3"), factor (10; 0.1..20), u ("1,0,0"; the sublayer's
//   update F(z) = u, taken constant here), norm (layer_norm | rms_norm), lang.
// Properties: the same; state (read-only): {x, factor, u, norm, xB,
//   normalized: {a, b}, pre: {a, b}, post: {a, b}, final: {a, b}, error}.
// Events: change. Keyboard: factor slider, norm select.
// Parts: figure, controls, slider, number, select, view, description, error.
// Numbers from the core: film (x_B), layer_norm / rms_norm, residual_block.
import { el } from './base.js';
import { NlFigure, figureCss } from './figure.js';

const vec = NlFigure.vec;

export class NlPrepostNorm extends NlFigure {
  static catalog = 'prepostNorm';
  static params = {
    x: { attr: 'x', kind: 'vector', minLength: 2, default: [1, 2, 3] },
    factor: { attr: 'factor', kind: 'number', default: 10, min: 0.1, max: 20, step: 0.1, control: 'slider' },
    u: { attr: 'u', kind: 'vector', minLength: 2, default: [1, 0, 0] },
    norm: { attr: 'norm', kind: 'choice', choices: ['layer_norm', 'rms_norm'], default: 'layer_norm', control: 'select' },
  };
  static css = figureCss + `
table.flow { width: 100%; margin-top: 4px; }
table.flow td, table.flow th { padding: 4px 8px; border-bottom: 1px solid var(--nl-grid); }
table.flow td.a { color: var(--nl-text-a, #3b5bdb); } table.flow td.b { color: var(--nl-text-b, #c2410c); }
@media (prefers-color-scheme: dark) { table.flow td.a { color: var(--nl-text-a, #91a7ff); } table.flow td.b { color: var(--nl-text-b, #ffa94d); } }
.same { color: var(--nl-c); font-weight: 600; }
`;

  buildView(view) {
    this._table = el('table', { class: 'flow' });
    view.append(this._table);
  }

  compute(core, { x, factor, u, norm }) {
    const d = x.length;
    if (u.length !== d) throw new Error(this.t('badU', { d, n: u.length }));
    const row = (a) => ({ shape: [1, d], data: a });
    const xB = this.op('film', { x: row(x), gamma: row(new Array(d).fill(factor)), beta: row(new Array(d).fill(0)) });
    const N = (v) => this.op(norm, { x: vec(v) }, { eps: 1e-5 });
    const W = { shape: [d, d], data: new Array(d * d).fill(0) }; // F(z) = z W^T + u = u
    const block = (v, placement) => this.op('residual_block', { x: vec(v), W, b: vec(u) }, { placement, norm, eps: 1e-5 });
    const pre = { a: block(x, 'pre'), b: block(xB, 'pre') };
    return {
      xB,
      normalized: { a: N(x), b: N(xB) },
      pre,
      post: { a: block(x, 'post'), b: block(xB, 'post') },
      final: { a: N(pre.a), b: N(pre.b) },
    };
  }

  draw(s) {
    const head = el('tr');
    head.append(el('th', { scope: 'col' }, this.t('step')), el('th', { scope: 'col' }, this.t('tokenA')), el('th', { scope: 'col' }, this.t('tokenB')));
    const rows = [
      ['rowInput', s.x, s.xB],
      ['rowNormalized', s.normalized.a, s.normalized.b],
      ['rowPre', s.pre.a, s.pre.b],
      ['rowPost', s.post.a, s.post.b],
      ['rowFinal', s.final.a, s.final.b],
    ].map(([label, a, b]) => {
      const tr = el('tr');
      tr.append(el('th', { scope: 'row' }, this.t(label, { norm: this.t(`choice_${s.norm}`) })));
      tr.append(el('td', { class: 'a' }, this.fmtList(a, 4)), el('td', { class: 'b' }, this.fmtList(b, 4)));
      return tr;
    });
    this._table.replaceChildren(head, ...rows);
  }

  describe(s) {
    return this.t('describe', {
      n: this.fmtList(s.normalized.a, 4), pa: this.fmtList(s.pre.a, 4), pb: this.fmtList(s.pre.b, 4),
      fa: this.fmtList(s.final.a, 3), fb: this.fmtList(s.final.b, 3), norm: this.t(`choice_${s.norm}`),
    });
  }
}
NlPrepostNorm.defineProperties();
