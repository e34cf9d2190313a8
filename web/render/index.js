// normlab/render — draw a figure's initial state as one standalone SVG in
// Node, with the same core and the same drawing code as in a page (no
// browser): the figure runs in the small document of dom.js, its own
// stylesheets are applied by css.js, and its panels, code and readouts are
// written out as SVG with every colour and size a plain attribute.
//
//   import { renderFigure } from 'normlab/render';
//   const { svg, state } = await renderFigure('nl-bar-compare', { values: '1,2,3' }, { lang: 'zh', theme: 'dark' });
//
// The command `normlab render <tag> [attr=value ...]` prints the same.
import { installDom, ShadowRoot, Text } from './dom.js';
import { computeStyle, INHERITED, parseCss, rootStyle } from './css.js';
import { textWidth } from '../components/lib/text.js';
import { short } from '../core/normlab.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const PAD = 12,
  GAP = 10;
// Properties written onto the SVG's elements (where they differ from the parent's).
const PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-opacity',
  'opacity',
  'font-size',
  'font-weight',
  'font-family',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'paint-order',
];
const SKIP_ATTRS = /^(class|style|tabindex|part|role|data-.*|aria-.*|id)$/;
const FORM = new Set(['button', 'input', 'select', 'textarea', 'label']);
const TEXT_BLOCKS = new Set([
  'p',
  'caption',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'li',
  'figcaption',
  'dt',
  'dd',
  'legend',
]);

const escapeXml = (s) =>
  String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

let loaded = null;
async function figureClasses() {
  installDom();
  loaded ??= Promise.all([import('../components/lib/base.js'), import('../elements.js')]).then(([base, m]) => {
    installDom(globalThis, base.NodeBase); // in case the figures were imported before this module
    m.defineElements(globalThis.customElements);
    return m;
  });
  return loaded;
}

/** Tag names `renderFigure` knows, with each figure's attributes. */
export async function figureTags() {
  const { elements } = await figureClasses();
  return Object.fromEntries(Object.entries(elements).map(([tag, Cls]) => [tag, Cls.observedAttributes ?? []]));
}

function waitFor(test, ms) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const check = () => (test() || Date.now() - t0 > ms ? resolve() : setTimeout(check, 5));
    check();
  });
}

/**
 * Render `tag` with `attributes` ({ name: value }) to an SVG string.
 * Options: lang ('en', 'zh' or a registered locale), theme ('light' | 'dark'),
 * width (the widest row of panels, CSS px; default 720).
 * Returns { svg, width, height, state, description, name }. A bad tag,
 * attribute or option throws an Error naming it.
 */
export async function renderFigure(
  tag,
  attributes = {},
  { lang = 'en', theme = 'light', width = 720, caption = true } = {},
) {
  const { elements } = await figureClasses();
  // (own keys only: __proto__, constructor or toString are not figures)
  const Cls = typeof tag === 'string' && Object.hasOwn(elements, tag) ? elements[tag] : null;
  if (!Cls) throw new Error(`render: unknown figure "${short(tag)}"; one of ${Object.keys(elements).join(', ')}`);
  if (theme !== 'light' && theme !== 'dark')
    throw new Error(`render: theme must be "light" or "dark", got "${short(theme)}"`);
  if (!Number.isFinite(width) || width < 200 || width > 4000)
    throw new Error(`render: width must be 200..4000 px, got ${short(width)}`);
  const known = Cls.observedAttributes ?? [];
  const host = new Cls();
  for (const [name, value] of Object.entries(attributes)) {
    if (!known.includes(name))
      throw new Error(`render: ${tag} has no attribute "${short(name)}"; it takes ${known.join(', ')}`);
    host.setAttribute(name, String(value));
  }
  host.setAttribute('lang', lang);
  document.append(host);
  host.connectedCallback();
  // Only the figure's public surface is read: state and renderState() (lib/base.js).
  await waitFor(() => {
    const r = host.renderState();
    return host.state || r.loadError || r.error;
  }, 20000);
  await waitFor(() => !host.renderState().busy, 3000); // e.g. the code figure's syntax colours
  const { loadError, error } = host.renderState();
  if (loadError) throw new Error(`render: ${tag}: the core did not load: ${loadError}`);
  if (!host.state || error) throw new Error(`render: ${tag}: ${error || 'drew nothing'}`);
  try {
    return draw(host, { theme, width, caption });
  } finally {
    host.disconnectedCallback();
    host.remove();
  }
}

function draw(host, { theme, width, caption }) {
  const root = host.shadowRoot;
  const env = { dark: theme === 'dark', width };
  const rules = root.adoptedStyleSheets.flatMap((s) => parseCss(s.cssText, env));
  const hostStyle = computeStyle(host, rootStyle(), rules, host);
  const styles = new Map([[host, hostStyle]]);
  const styleOf = (node) => {
    if (!styles.has(node)) {
      const parent = node.parentNode instanceof ShadowRoot ? host : node.parentNode;
      styles.set(node, computeStyle(node, styleOf(parent), rules, host));
    }
    return styles.get(node);
  };
  const visible = (node) => styleOf(node).get('display') !== 'none' && styleOf(node).get('visibility') !== 'hidden';

  // 1. What the figure shows, in order: chart panels, code, text blocks.
  const items = [];
  const skip = (n) =>
    ['controls', 'status', 'description', 'error', 'hint', 'scroll-hint', 'callout'].some((c) =>
      n.classList.contains(c),
    ) || n.getAttribute('part') === 'controls';
  const walk = (node) => {
    for (const n of node.children) {
      if (skip(n) || !visible(n) || FORM.has(n.localName)) continue;
      if (n.localName === 'svg') items.push({ kind: 'svg', node: n });
      else if (n.localName === 'pre') items.push({ kind: 'code', node: n });
      else if (n.localName === 'table') items.push({ kind: 'table', node: n });
      else if (TEXT_BLOCKS.has(n.localName) || n.childNodes.some((c) => c instanceof Text && c.data.trim())) {
        if (n.textContent.trim()) items.push({ kind: 'text', node: n });
      } else walk(n);
    }
  };
  walk(root);
  const { description } = host.renderState();
  const descNode = description && findPart(root, 'description');
  if (caption && descNode) items.push({ kind: 'caption', node: descNode });

  // 2. Lay them out: panels flow in rows up to `width`, other items take a row each.
  const out = [];
  let x = PAD,
    y = PAD,
    rowH = 0,
    right = 0;
  const newRow = () => {
    if (rowH) y += rowH + GAP;
    x = PAD;
    rowH = 0;
  };
  for (const item of items) {
    if (item.kind === 'svg') {
      const vb = item.node.viewBox.baseVal;
      const w = vb.width || 300,
        h = parseFloat(item.node.style.height) || vb.height || 150;
      if (x > PAD && x + w > PAD + width) newRow();
      out.push(svgMarkup(item.node, styleOf, { x, y, w, h }));
      x += w + GAP;
      rowH = Math.max(rowH, h);
      right = Math.max(right, x - GAP);
      continue;
    }
    newRow();
    // text wraps at the width of the drawing above it (a caption as wide as the cube, not the page)
    const measure = Math.min(width, Math.max(400, right - PAD));
    const block =
      item.kind === 'code'
        ? codeBlock(item.node, styleOf, y)
        : item.kind === 'table'
          ? tableBlock(item.node, styleOf, y, measure)
          : textBlock(spacedText(item.node), styleOf(item.node), y, measure, item.kind === 'caption' ? 6 : 0);
    out.push(block.markup);
    rowH = block.height;
    right = Math.max(right, PAD + block.width);
    newRow();
  }
  newRow();
  const W = Math.ceil(Math.max(right + PAD, 200)),
    H = Math.ceil(y - GAP + PAD);
  const name = host.getAttribute('aria-label') ?? host.localName;
  const inherited = `fill="${escapeXml(hostStyle.get('color') ?? '#000000')}" font-family="${escapeXml(hostStyle.get('font-family') ?? 'sans-serif')}" font-size="${escapeXml(hostStyle.get('font-size') ?? '16px')}"`;
  const svg =
    `<svg xmlns="${SVG_NS}" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" ${inherited}>` +
    `<title>${escapeXml(name)}</title><desc>${escapeXml(description)}</desc>` +
    `<rect width="${W}" height="${H}" rx="8" fill="${escapeXml(hostStyle.get('--nl-bg') ?? '#ffffff')}" stroke="${escapeXml(hostStyle.get('--nl-grid') ?? '#d9dde5')}"/>` +
    out.join('') +
    '</svg>\n';
  return { svg, width: W, height: H, state: host.state, description, name };
}

/** The first element under `node` with part="`name`" (a figure's parts are public: README, "Theming"). */
function findPart(node, name) {
  for (const n of node.children) {
    if (n.getAttribute('part') === name) return n;
    const found = findPart(n, name);
    if (found) return found;
  }
  return null;
}

/** An element's own presentation: the properties whose computed value differs from its parent's. */
function presentation(node, styleOf, force = false) {
  const s = styleOf(node),
    p = node.parentNode && !force ? styleOf(node.parentNode) : null;
  let attrs = '';
  for (const prop of PROPS) {
    const v = s.get(prop);
    if (v === undefined || v === '') continue;
    if (prop === 'opacity' ? v === '1' : p && INHERITED.has(prop) && p.get(prop) === v) continue;
    attrs += ` ${prop}="${escapeXml(v)}"`;
  }
  return attrs;
}

function svgMarkup(svg, styleOf, { x, y, w, h }) {
  const write = (node, top) => {
    if (node instanceof Text) return escapeXml(node.data);
    if (styleOf(node).get('display') === 'none') return '';
    let attrs = '';
    for (const { name, value } of node.attributes) {
      if (SKIP_ATTRS.test(name) || PROPS.includes(name)) continue;
      if (top && ['x', 'y', 'width', 'height'].includes(name)) continue;
      attrs += ` ${name}="${escapeXml(value)}"`;
    }
    if (top) attrs += ` x="${x}" y="${y}" width="${w}" height="${h}" overflow="visible"`;
    attrs += presentation(node, styleOf, top);
    const inner = node.childNodes.map((c) => write(c, false)).join('');
    return `<${node.localName}${attrs}>${inner}</${node.localName}>`;
  };
  return write(svg, true);
}

// ---- HTML blocks as SVG text ------------------------------------------------------
const px = (s, fallback) => parseFloat(s) || fallback;

function wrap(text, size, width) {
  const words = text.split(/(?<=[\s\u3000-\u303f\uff0c\uff1b\uff1a])|(?=[\u4e00-\u9fff])/);
  const lines = [];
  let line = '';
  for (const w of words) {
    if (line && textWidth(line + w, size) > width) {
      lines.push(line.trimEnd());
      line = w.trimStart();
    } else line += w;
  }
  if (line.trim()) lines.push(line.trimEnd());
  return lines;
}

/** An element's text as a reader sees it: sibling elements set apart by a space. */
function spacedText(node) {
  let out = '';
  for (const c of node.childNodes) {
    if (!(c instanceof Text) && (c.hidden || c.classList.contains('hint'))) continue; // how-to-use words: not in a picture
    const t = c instanceof Text ? c.data : spacedText(c);
    if (!(c instanceof Text) && out && !/\s$/.test(out) && t && !/^[\s,.;:)，。；：）]/.test(t)) out += ' ';
    out += t;
  }
  return out.replace(/\s+/g, ' ');
}

function textBlock(text, style, y, width, top = 0) {
  const size = px(style.get('font-size'), 14),
    lh = Math.round(size * 1.4);
  const lines = wrap(text.trim(), size, width);
  y += top;
  const fill = escapeXml(style.get('color') ?? '#000');
  const weight = style.get('font-weight') ?? '400';
  const markup = lines
    .map(
      (l, i) =>
        `<text x="${PAD}" y="${(y + size + i * lh).toFixed(1)}" fill="${fill}" font-size="${size}px"` +
        `${weight !== '400' ? ` font-weight="${escapeXml(weight)}"` : ''}>${escapeXml(l)}</text>`,
    )
    .join('');
  return { markup, height: top + lines.length * lh, width: Math.max(0, ...lines.map((l) => textWidth(l, size))) };
}

function tableBlock(table, styleOf, y, width) {
  const rows = [];
  const collect = (n) => {
    for (const c of n.children) {
      if (c.localName === 'tr') rows.push(c.children.map((cell) => spacedText(cell).trim()));
      else if (c.localName === 'caption') rows.push([c.textContent.replace(/\s+/g, ' ').trim()]);
      else collect(c);
    }
  };
  collect(table);
  const style = styleOf(table),
    size = px(style.get('font-size'), 13),
    lh = Math.round(size * 1.45);
  const cols = Math.max(...rows.filter((r) => r.length > 1).map((r) => r.length), 1);
  const colW = Array.from(
    { length: cols },
    (_, j) => Math.max(...rows.filter((r) => r.length > 1).map((r) => textWidth(r[j] ?? '', size)), 0) + 14,
  );
  const fill = escapeXml(style.get('color') ?? '#000');
  let markup = '',
    line = 0;
  for (const r of rows) {
    if (r.length === 1 && cols > 1) {
      for (const l of wrap(r[0], size, width))
        markup += `<text x="${PAD}" y="${(y + size + line++ * lh).toFixed(1)}" fill="${fill}" font-size="${size}px" font-style="italic">${escapeXml(l)}</text>`;
      continue;
    }
    let cx = PAD;
    markup += r
      .map((cell, j) => {
        const t = `<text x="${cx.toFixed(1)}" y="${(y + size + line * lh).toFixed(1)}" fill="${fill}" font-size="${size}px">${escapeXml(cell)}</text>`;
        cx += colW[j];
        return t;
      })
      .join('');
    line++;
  }
  return { markup, height: line * lh, width: colW.reduce((a, b) => a + b, 0) };
}

/** A code block: one <text> per line, a <tspan> per run of one colour and weight. */
function codeBlock(pre, styleOf, y) {
  const base = styleOf(pre),
    size = px(base.get('font-size'), 13),
    lh = Math.round(size * 1.5);
  const lines = [[]];
  const walk = (n) => {
    for (const c of n.childNodes) {
      if (c instanceof Text) {
        const s = styleOf(c.parentNode);
        c.data.split('\n').forEach((part, i) => {
          if (i) lines.push([]);
          // spaces kept as no-break spaces: indentation survives every SVG reader
          if (part)
            lines[lines.length - 1].push({
              text: part.replace(/ /g, '\u00a0'),
              fill: s.get('color'),
              weight: s.get('font-weight'),
            });
        });
      } else if (styleOf(c).get('display') !== 'none') walk(c);
    }
  };
  walk(pre);
  while (lines.length && !lines[lines.length - 1].length) lines.pop();
  const family = escapeXml(base.get('font-family') ?? 'monospace');
  const bg = base.get('background-color') ?? base.get('background');
  const longest = Math.max(0, ...lines.map((runs) => runs.reduce((n, r) => n + r.text.length, 0)));
  const w = longest * size * 0.6 + 16,
    h = lines.length * lh + 12;
  let markup =
    bg && bg !== 'none' && bg !== 'transparent'
      ? `<rect x="${PAD}" y="${y}" width="${w.toFixed(0)}" height="${h}" rx="6" fill="${escapeXml(bg)}"/>`
      : '';
  markup += `<g font-family="${family}" font-size="${size}px">`;
  lines.forEach((runs, i) => {
    if (!runs.length) return;
    markup +=
      `<text x="${PAD + 8}" y="${(y + 6 + size + i * lh).toFixed(1)}">` +
      runs
        .map(
          (r) =>
            `<tspan fill="${escapeXml(r.fill ?? '#000')}"${r.weight && r.weight !== '400' ? ` font-weight="${escapeXml(r.weight)}"` : ''}>${escapeXml(r.text)}</tspan>`,
        )
        .join('') +
      '</text>';
  });
  markup += '</g>';
  return { markup, height: h, width: w };
}
