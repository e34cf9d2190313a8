// The cascade for `normlab render`: the figures' own stylesheets applied to
// the small document of dom.js, so a rendered SVG carries its colours and
// sizes as plain attributes (no <style>, no custom properties: it shows the
// same in a browser, an RSS reader, a README and librsvg).
//
// It covers the CSS the figures are written in: rules and selector lists;
// type, class, attribute, :host, :host(...), :not(...), :first-child and
// :last-child selectors with descendant and child combinators; @media and
// @container on colour scheme, reduced motion and width; custom properties
// with var() and fallbacks; inheritance; !important; inline styles.
// Interaction states (:hover, :focus-visible, ...) never match a picture.
import { ShadowRoot } from './dom.js';

const INHERITED = new Set([
  'color',
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-opacity',
  'font-size',
  'font-family',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'paint-order',
  'visibility',
  'letter-spacing',
  'font-variant-numeric',
  'white-space',
]);
const INITIAL = {
  color: '#000000',
  fill: '#000000',
  stroke: 'none',
  'font-size': '16px',
  'font-weight': '400',
  display: 'inline',
  visibility: 'visible',
  opacity: '1',
};

/** Parse a stylesheet into rules [{ selectors, decls, order }] that apply in `env` ({ dark, width }). */
export function parseCss(text, env, rules = [], counter = { n: 0 }) {
  const css = text.replace(/\/\*[\s\S]*?\*\//g, '');
  let i = 0;
  while (i < css.length) {
    const open = css.indexOf('{', i);
    if (open < 0) break;
    const prelude = css.slice(i, open).trim();
    const close = matchingBrace(css, open);
    const body = css.slice(open + 1, close);
    i = close + 1;
    if (prelude.startsWith('@')) {
      const [, kind, cond] = /^@([\w-]+)\s*(.*)$/s.exec(prelude) ?? [];
      if ((kind === 'media' || kind === 'container') && conditionHolds(cond, env)) parseCss(body, env, rules, counter);
      else if (kind === 'supports') parseCss(body, env, rules, counter);
      continue;
    }
    const decls = [];
    for (const d of splitTop(body, ';')) {
      const k = d.indexOf(':');
      if (k < 0) continue;
      let value = d.slice(k + 1).trim();
      const important = /!\s*important$/.test(value);
      if (important) value = value.replace(/!\s*important$/, '').trim();
      decls.push({ prop: d.slice(0, k).trim(), value, important });
    }
    const selectors = splitTop(prelude, ',').map(parseSelector).filter(Boolean);
    if (selectors.length && decls.length) rules.push({ selectors, decls, order: counter.n++ });
  }
  return rules;
}

function matchingBrace(s, open) {
  let depth = 0;
  for (let j = open; j < s.length; j++) {
    if (s[j] === '{') depth++;
    else if (s[j] === '}' && --depth === 0) return j;
  }
  return s.length;
}

/** Split on `sep` outside parentheses, brackets and quotes. */
function splitTop(s, sep) {
  const out = [];
  let depth = 0,
    quote = '',
    start = 0;
  for (let j = 0; j < s.length; j++) {
    const c = s[j];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === sep && depth === 0) {
      out.push(s.slice(start, j).trim());
      start = j + 1;
    }
  }
  out.push(s.slice(start).trim());
  return out.filter(Boolean);
}

function conditionHolds(cond, { dark, width }) {
  return splitTop(cond, ',').some((alt) =>
    alt.split(/\s+and\s+/).every((part) => {
      part = part.trim();
      if (part === 'screen' || part === 'all') return true;
      if (part === 'print') return false;
      const m = /^\(\s*([\w-]+)\s*:\s*([^)]+?)\s*\)$/.exec(part);
      if (!m) return false;
      const [, feature, value] = m;
      if (feature === 'prefers-color-scheme') return (value === 'dark') === dark;
      if (feature === 'prefers-reduced-motion') return value === 'reduce'; // a picture does not move
      const px = parseFloat(value);
      if (feature === 'max-width') return width <= px;
      if (feature === 'min-width') return width >= px;
      return false;
    }),
  );
}

// ---- selectors ------------------------------------------------------------------
// A selector is a list of compounds joined by combinators, kept right to left:
// [{ compound, combinator }] where combinator joins it to the next one leftwards.
function parseSelector(text) {
  const parts = [];
  let j = 0,
    combinator = null;
  while (j < text.length) {
    if (/\s/.test(text[j]) || text[j] === '>' || text[j] === '+' || text[j] === '~') {
      let c = ' ';
      while (j < text.length && /[\s>+~]/.test(text[j])) {
        if (text[j] !== ' ' && text[j] !== '\n' && text[j] !== '\t') c = text[j];
        j++;
      }
      combinator = c;
      continue;
    }
    const [compound, next] = parseCompound(text, j);
    if (!compound) return null;
    parts.push({ compound, combinator });
    combinator = null;
    j = next;
  }
  if (!parts.length) return null;
  // right to left; each compound keeps the combinator that joins it to its left neighbour
  const chain = parts.reverse();
  return { chain, specificity: specificity(chain) };
}

function parseCompound(text, j) {
  const c = { tag: null, classes: [], attrs: [], pseudos: [], host: null, pseudoElement: false };
  const start = j;
  while (j < text.length && !/[\s>+~]/.test(text[j])) {
    const ch = text[j];
    if (ch === '*') j++;
    else if (ch === '.' || ch === '#') {
      const m = /^[\w-]+/.exec(text.slice(j + 1));
      if (!m) return [null, j];
      if (ch === '.') c.classes.push(m[0]);
      else c.attrs.push({ name: 'id', value: m[0] });
      j += 1 + m[0].length;
    } else if (ch === '[') {
      const end = text.indexOf(']', j);
      const m = /^\[\s*([\w-]+)\s*(?:([~|^$*]?=)\s*(?:"([^"]*)"|'([^']*)'|([^\]\s]*)))?\s*\]$/.exec(
        text.slice(j, end + 1),
      );
      if (!m) return [null, j];
      c.attrs.push({ name: m[1], op: m[2], value: m[3] ?? m[4] ?? m[5] });
      j = end + 1;
    } else if (ch === ':') {
      if (text[j + 1] === ':') {
        c.pseudoElement = true;
        const m = /^::[\w-]+/.exec(text.slice(j));
        j += m ? m[0].length : 2;
        continue;
      }
      const m = /^:([\w-]+)/.exec(text.slice(j));
      if (!m) return [null, j];
      j += m[0].length;
      let arg = null;
      if (text[j] === '(') {
        let depth = 0,
          k = j;
        for (; k < text.length; k++) {
          if (text[k] === '(') depth++;
          else if (text[k] === ')' && --depth === 0) break;
        }
        arg = text.slice(j + 1, k);
        j = k + 1;
      }
      if (m[1] === 'host') c.host = arg ? splitTop(arg, ',').map(parseSelector) : [];
      else c.pseudos.push({ name: m[1], arg: arg && (m[1] === 'not' ? splitTop(arg, ',').map(parseSelector) : arg) });
    } else {
      const m = /^[\w-]+/.exec(text.slice(j));
      if (!m) return [null, j];
      c.tag = m[0].toLowerCase();
      j += m[0].length;
    }
  }
  return [j > start ? c : null, j];
}

function specificity(chain) {
  let a = 0,
    b = 0,
    c = 0;
  for (const { compound: k } of chain) {
    a += k.attrs.filter((x) => x.name === 'id' && !x.op).length;
    b += k.classes.length + k.attrs.filter((x) => !(x.name === 'id' && !x.op)).length;
    for (const p of k.pseudos) {
      if (p.name === 'not' && p.arg) {
        const s = Math.max(...p.arg.map((x) => x?.specificity ?? 0));
        a += Math.floor(s / 1e6);
        b += Math.floor(s / 1e3) % 1e3;
        c += s % 1e3;
      } else b++;
    }
    if (k.host) b++;
    if (k.tag) c++;
  }
  return a * 1e6 + b * 1e3 + c;
}

/** The parent for matching: inside a shadow tree the host stands above the root's children. */
const parentOf = (el) =>
  el.parentNode instanceof ShadowRoot ? el.parentNode.host : el.parentNode?.localName ? el.parentNode : null;

function matchesCompound(el, k, host) {
  if (k.pseudoElement) return false;
  if (k.host) {
    if (el !== host) return false;
    if (k.host.length && !k.host.some((s) => s && matchesSelector(el, s, null))) return false;
  } else if (host && el === host) return false;
  if (k.tag && el.localName !== k.tag) return false;
  const classes = (el.getAttribute('class') ?? '').split(/\s+/);
  if (!k.classes.every((c) => classes.includes(c))) return false;
  for (const a of k.attrs) {
    const v = el.getAttribute(a.name);
    if (v === null) return false;
    if (a.op === '=' && v !== a.value) return false;
    if (a.op === '~=' && !v.split(/\s+/).includes(a.value)) return false;
    if (a.op && !['=', '~='].includes(a.op)) return false;
  }
  for (const p of k.pseudos) {
    const siblings = el.parentNode?.children ?? [];
    if (p.name === 'not') {
      if (p.arg.some((s) => s && matchesSelector(el, s, host))) return false;
    } else if (p.name === 'first-child') {
      if (siblings[0] !== el) return false;
    } else if (p.name === 'last-child') {
      if (siblings[siblings.length - 1] !== el) return false;
    } else if (p.name === 'empty') {
      if (el.childNodes.length) return false;
    } else return false; // :hover, :focus-visible, :active...: never in a picture
  }
  return true;
}

function matchesSelector(el, { chain }, host) {
  const step = (node, i) => {
    if (!matchesCompound(node, chain[i].compound, host)) return false;
    if (i === chain.length - 1) return true;
    const comb = chain[i].combinator;
    if (comb === '>') {
      const p = parentOf(node);
      return Boolean(p) && step(p, i + 1);
    }
    if (comb === '+' || comb === '~') {
      const sibs = node.parentNode?.children ?? [];
      const at = sibs.indexOf(node);
      const cands = comb === '+' ? sibs.slice(Math.max(0, at - 1), at) : sibs.slice(0, at);
      return cands.some((s) => step(s, i + 1));
    }
    for (let p = parentOf(node); p; p = parentOf(p)) if (step(p, i + 1)) return true;
    return false;
  };
  return step(el, 0);
}

// ---- computed values ---------------------------------------------------------------
/**
 * Computed style of `el` given its parent's: the winning declaration of each
 * property (importance, specificity, order), else a presentation attribute,
 * else the inherited or initial value; var() and currentColor resolved.
 */
export function computeStyle(el, parentStyle, rules, host) {
  const winners = new Map();
  const consider = (prop, value, rank) => {
    const w = winners.get(prop);
    if (!w || rank >= w.rank) winners.set(prop, { value, rank });
  };
  for (const rule of rules) {
    for (const sel of rule.selectors) {
      if (!matchesSelector(el, sel, host)) continue;
      for (const d of rule.decls)
        consider(d.prop, d.value, (d.important ? 2e12 : 0) + sel.specificity * 1e5 + rule.order);
    }
  }
  for (const [prop, value] of el.style?._props ?? []) consider(prop, value, 1e12);
  const style = new Map();
  for (const [k, v] of parentStyle) if (k.startsWith('--') || INHERITED.has(k)) style.set(k, v);
  for (const k of ['display', 'opacity']) style.set(k, INITIAL[k]);
  // presentation attributes, below every rule
  for (const { name, value } of el.attributes) if (INHERITED.has(name) || name === 'opacity') style.set(name, value);
  // custom properties first: other values may read them
  for (const [prop, { value }] of winners) if (prop.startsWith('--')) style.set(prop, resolveVars(value, style));
  for (const [prop, { value }] of winners) {
    if (prop.startsWith('--')) continue;
    let v = resolveVars(value, style);
    if (prop === 'font') {
      // the shorthand: [style] [weight] size[/line-height] family
      const m =
        /^(?:(italic|oblique|normal)\s+)?(?:(\d{3}|bold|normal)\s+)?([\d.]+(?:px|em|rem|%))(?:\/\S+)?\s+(.+)$/.exec(v);
      if (m) {
        if (m[1]) style.set('font-style', m[1]);
        style.set('font-weight', m[2] === 'bold' ? '700' : m[2] && m[2] !== 'normal' ? m[2] : '400');
        style.set('font-size', m[3]);
        style.set('font-family', m[4]);
      }
      continue;
    }
    if (v === 'inherit') v = parentStyle.get(prop) ?? INITIAL[prop];
    else if (v === 'initial' || v === 'unset') v = INITIAL[prop];
    if (v !== undefined) style.set(prop, v);
  }
  if (style.get('font-size')?.endsWith('em')) {
    style.set(
      'font-size',
      `${+(parseFloat(style.get('font-size')) * parseFloat(parentStyle.get('font-size') ?? '16')).toFixed(2)}px`,
    );
  }
  for (const [k, v] of style) if (!k.startsWith('--') && v.includes('color-mix(')) style.set(k, mixColors(v));
  for (const k of ['fill', 'stroke']) {
    if (/^currentcolor$/i.test(style.get(k) ?? '')) style.set(k, style.get('color'));
    if (style.get(k) === 'transparent') style.set(k, 'none'); // the same in a still picture, and valid SVG 1.1
  }
  return style;
}

/** color-mix(in srgb, A p%, B [q%]) with hex colours or transparent, as #rrggbb or rgba(). */
function mixColors(value) {
  return value.replace(
    /color-mix\(\s*in srgb\s*,\s*([^,()]+?)\s*(?:(\d+(?:\.\d+)?)%)?\s*,\s*([^,()]+?)\s*(?:(\d+(?:\.\d+)?)%)?\s*\)/g,
    (whole, a, pa, b, pb) => {
      const ca = rgba(a),
        cb = rgba(b);
      if (!ca || !cb) return whole;
      let wa = pa !== undefined ? pa / 100 : pb !== undefined ? 1 - pb / 100 : 0.5;
      const wb = pb !== undefined ? pb / 100 : 1 - wa;
      wa /= wa + wb || 1;
      // premultiplied alpha, as CSS Color 5 mixes
      const alpha = ca[3] * wa + cb[3] * (1 - wa);
      const ch = (i) => (alpha ? (ca[i] * ca[3] * wa + cb[i] * cb[3] * (1 - wa)) / alpha : 0);
      const rgb = [0, 1, 2].map((i) => Math.round(ch(i)));
      return alpha >= 1
        ? `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`
        : `rgba(${rgb.join(', ')}, ${+alpha.toFixed(3)})`;
    },
  );
}

function rgba(c) {
  c = c.trim().toLowerCase();
  if (c === 'transparent') return [0, 0, 0, 0];
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/.exec(c);
  if (!m) return null;
  const h = m[1].length === 3 ? [...m[1]].map((x) => x + x).join('') : m[1];
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)).concat(1);
}

function resolveVars(value, style, depth = 0) {
  if (depth > 8 || !value.includes('var(')) return value;
  return resolveVars(
    value.replace(
      /var\(\s*(--[\w-]+)\s*(?:,\s*([^()]*(?:\([^()]*\)[^()]*)*))?\)/g,
      (_, name, fallback) => style.get(name) ?? fallback ?? '',
    ),
    style,
    depth + 1,
  );
}

/** A style for the document's root: the initial values. */
export function rootStyle() {
  return new Map(Object.entries(INITIAL));
}

export { INHERITED };
