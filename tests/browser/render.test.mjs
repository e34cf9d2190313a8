// `normlab render` against the browser: each figure drawn in Node (the same
// core and drawing code, no browser) is a valid SVG that Chromium displays at
// its stated size, and it shows what the same figure shows in a page: the
// same state, the same description, every text of its charts, every number of
// its readouts and tables, and only colours and text sizes the page's own
// stylesheet gives its charts in that theme.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderFigure } from '../../web/render/index.js';
import { FIGURE_TAGS, setup } from './helpers.mjs';

let env, page;
before(async () => {
  env = await setup();
  page = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
  await page.goto(env.url + 'web/index.html');
  // the article loads a figure's code as it nears the view (web/page.js): every one now
  await page.evaluate((tags) => import('/dist/page.js').then((m) => m.defineAll(tags)), FIGURE_TAGS);
});
after(() => env.close());

// Default attributes in English and light, and a second state in Chinese and dark.
const CASES = [
  ...FIGURE_TAGS.map((tag) => [tag, {}, 'en', 'light']),
  ['nl-bar-compare', { vector: '2,-1,3', scale: '2' }, 'zh', 'dark'],
  ['nl-axis-cube', { method: 'group_norm', 'num-groups': '2' }, 'zh', 'dark'],
  ['nl-code-shapes', { selected: 'ln-var', sizes: 'B=3,T=7,d=16' }, 'zh', 'dark'],
  ['nl-softmax-sharpness', { factor: '0' }, 'zh', 'dark'],
  ['nl-spectral', { steps: '6' }, 'zh', 'dark'],
  ['nl-batch-dependence', {}, 'zh', 'dark'],
  ['nl-dk-scaling', {}, 'zh', 'dark'],
  ['nl-whitening', {}, 'zh', 'dark'],
  ['nl-prepost-norm', {}, 'zh', 'dark'],
  ['nl-l2-jacobian', {}, 'zh', 'dark'],
  ['nl-adaln', {}, 'zh', 'dark'],
  ['nl-residual-turn', {}, 'zh', 'dark'],
];

const decode = (s) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
const numbers = (s) => s.match(/[-−]?\d+(?:[.,]\d+)*/g) ?? [];

for (const [tag, attrs, lang, theme] of CASES) {
  test(`normlab render ${tag} ${JSON.stringify(attrs)} (${lang}, ${theme}) matches the figure in the page`, async () => {
    const r = await renderFigure(tag, attrs, { lang, theme });
    assert.doesNotMatch(
      r.svg,
      /var\(|\sclass=|\sstyle=|<script|NaN|undefined|Infinity/,
      'plain attributes only, every number finite',
    );
    await page.emulateMedia({ colorScheme: theme });
    const b = await page.evaluate(
      async ([tag, attrs, lang, svgText]) => {
        // the SVG: well-formed, in the SVG namespace, and displayed at its size
        const doc = new DOMParser().parseFromString(svgText, 'image/svg+xml');
        const parseError = doc.querySelector('parsererror')?.textContent ?? null;
        const img = new Image();
        img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgText)}`;
        await img.decode();
        // the same figure in the page
        document.body.replaceChildren();
        const el = document.createElement(tag);
        for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
        el.setAttribute('lang', lang);
        document.body.append(el);
        const t0 = Date.now();
        while (!el.state && Date.now() - t0 < 20000) await new Promise((r) => setTimeout(r, 10));
        await new Promise((r) => setTimeout(r, 300)); // the code figure's highlighter
        const root = el.shadowRoot;
        const hex = (c) => {
          const srgb = /^color\(srgb ([\d.]+) ([\d.]+) ([\d.]+)\)$/.exec(c);
          if (srgb)
            return (
              '#' +
              srgb
                .slice(1)
                .map((v) =>
                  Math.round(v * 255)
                    .toString(16)
                    .padStart(2, '0'),
                )
                .join('')
            );
          const m = /^rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)$/.exec(c);
          if (!m) return c;
          if (m[4] !== undefined && m[4] !== '1') return `rgba(${m[1]}, ${m[2]}, ${m[3]}, ${m[4]})`;
          return '#' + [m[1], m[2], m[3]].map((v) => Number(v).toString(16).padStart(2, '0')).join('');
        };
        const colours = new Set(),
          sizes = new Set();
        // every colour the figure paints: its charts' fills and strokes, its text, backgrounds and border
        for (const n of [el, ...root.querySelectorAll('*')]) {
          const cs = getComputedStyle(n);
          if (n.closest?.('svg')) colours.add(hex(cs.fill)).add(hex(cs.stroke));
          colours.add(hex(cs.color)).add(hex(cs.backgroundColor)).add(hex(cs.borderTopColor));
          if (n.localName === 'text') sizes.add(cs.fontSize);
        }
        // text as a reader sees it, one text node at a time (a table's cells do not run together)
        const textsOf = (node) => {
          const out = [],
            walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
          while (walker.nextNode()) out.push(walker.currentNode.data);
          return out;
        };
        return {
          parseError,
          rootName: doc.documentElement.localName,
          ns: doc.documentElement.namespaceURI,
          size: [img.naturalWidth, img.naturalHeight],
          state: JSON.stringify(el.state),
          description: root.querySelector('.description').textContent,
          texts: [...root.querySelectorAll('svg text')].map((t) => t.textContent),
          readouts: [...root.querySelectorAll('.numbers, .readout, table, .info')].flatMap(textsOf).join(' '),
          colours: [...colours],
          sizes: [...sizes],
        };
      },
      [tag, attrs, lang, r.svg],
    );

    assert.equal(b.parseError, null, 'the SVG parses');
    assert.equal(b.rootName, 'svg');
    assert.equal(b.ns, 'http://www.w3.org/2000/svg');
    assert.deepEqual(b.size, [r.width, r.height], 'Chromium shows it at its stated size');
    assert.equal(JSON.stringify(r.state), b.state, 'the same state as in the page');
    assert.equal(r.description, b.description, 'the same description');
    assert.match(
      r.svg,
      new RegExp(
        `<desc>${r.description
          .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
          .replace(/&/g, '&amp;')
          .replace(/</g, '&lt;')
          .replace(/>/g, '&gt;')
          .replace(/"/g, '&quot;')}</desc>`,
      ),
    );
    const nodeTexts = [...r.svg.matchAll(/<text[^>]*>([\s\S]*?)<\/text>/g)].map((m) =>
      decode(m[1].replace(/<[^>]+>/g, '')).replace(/\u00a0/g, ' '),
    );
    const missing = [...new Set(b.texts)].filter((t) => t.trim() && !nodeTexts.includes(t));
    assert.deepEqual(missing, [], "every text of the page's charts is drawn");
    const nodeNumbers = new Set(nodeTexts.flatMap(numbers));
    const lost = [...new Set(numbers(b.readouts))].filter((n) => !nodeNumbers.has(n));
    assert.deepEqual(lost, [], 'every number of the readouts and tables is written');
    const used = new Set(
      [...r.svg.matchAll(/ (?:fill|stroke)="([^"]+)"/g)].map((m) => m[1].toLowerCase()).filter((c) => c !== 'none'),
    );
    // the background and frame are the host's own colours; the rest must be the charts' colours in the page
    const inPage = new Set(b.colours.map((c) => c.toLowerCase()));
    const foreign = [...used].filter((c) => !inPage.has(c));
    assert.ok(used.size >= 3, `colours: ${[...used]}`);
    assert.deepEqual(foreign, [], `colours the page does not use (page: ${[...inPage]})`);
    const sizes = new Set([...r.svg.matchAll(/<text[^>]*font-size="([^"]+)"/g)].map((m) => m[1]));
    for (const s of sizes) assert.ok(parseFloat(s) >= 10, `text of ${s} is readable`);
  });
}
