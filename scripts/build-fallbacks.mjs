// Figures for readers without JavaScript, and places kept for everyone.
//
// Run by build-web.mjs after the article is typeset (dist/index.html). Opens
// the page in Chromium, and for every figure:
//  - draws its panels into one standalone SVG, dist/figures/<id>.svg, with the
//    computed colours and sizes written as attributes (no stylesheet, no
//    script: it shows in RSS readers, reader modes, print without JS, search
//    engines, and a README), and puts it inside the element as a lazy <img>
//    with the figure's description as its alt text, plus the description as
//    text. A custom element's shadow root hides these once the script runs, and
//    a lazy image that is never shown is never fetched.
//  - measures its final height at three widths, in English and Chinese, and writes
//    dist/figure-space.css, so each figure keeps its place while scripts load
//    (no layout shift when it draws).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launch } from './browser.mjs';
import { startServer } from './serve.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const WIDTHS = [[360, '(max-width: 540px)'], [768, '(min-width: 541px) and (max-width: 900px)'], [1200, '(min-width: 901px)']];
const PROPS = ['fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-dasharray', 'stroke-linecap', 'stroke-linejoin', 'stroke-opacity',
  'opacity', 'font-size', 'font-weight', 'font-family', 'text-anchor', 'dominant-baseline'];

const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export async function buildFallbacks() {
  const { server, url } = await startServer({ port: 0 });
  const browser = await launch();
  try {
    const heights = {};
    let shots = null;
    for (const [width, , lang] of WIDTHS.flatMap(([w, q]) => [[w, q, 'en'], [w, q, 'zh']])) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(url + 'web/index.html');
      if (lang === 'zh') await page.click('[data-set-lang="zh"]');
      const figures = await page.locator('figure.figure[id] > :first-child').all();
      const out = [];
      for (const f of figures) {
        await f.scrollIntoViewIfNeeded();
        await f.evaluate((el) => new Promise((resolve, reject) => {
          const t0 = Date.now();
          const check = () => (el.state ? resolve() : Date.now() - t0 > 20000 ? reject(new Error(`${el.localName} never drew`)) : setTimeout(check, 25));
          check();
        }));
        await page.waitForTimeout(30);
        out.push(await f.evaluate((el, props) => {
          const id = el.parentElement.id;
          const host = el.getBoundingClientRect();
          const root = el.shadowRoot;
          const desc = root.querySelector('[part=description]')?.textContent ?? '';
          const panels = [...root.querySelectorAll('svg')].filter((s) => s.getClientRects().length && !s.closest('[hidden]'));
          let body = '', top = Infinity, bottom = 0, left = Infinity, right = 0;
          for (const s of panels) {
            const r = s.getBoundingClientRect();
            if (r.width < 2 || r.height < 2) continue;
            top = Math.min(top, r.top); bottom = Math.max(bottom, r.bottom); left = Math.min(left, r.left); right = Math.max(right, r.right);
          }
          for (const s of panels) {
            const r = s.getBoundingClientRect();
            if (r.width < 2 || r.height < 2) continue;
            const copy = s.cloneNode(true);
            const src = [s, ...s.querySelectorAll('*')], dst = [copy, ...copy.querySelectorAll('*')];
            src.forEach((n, i) => {
              const cs = getComputedStyle(n);
              for (const p of props) {
                const v = cs.getPropertyValue(p);
                if (v && v !== 'none' && !(p === 'opacity' && v === '1')) dst[i].setAttribute(p, v);
                else if (p === 'fill' || p === 'stroke') dst[i].setAttribute(p, 'none');
              }
              dst[i].removeAttribute('class');
              dst[i].removeAttribute('style');
              dst[i].removeAttribute('tabindex');
            });
            copy.setAttribute('x', (r.left - left).toFixed(1));
            copy.setAttribute('y', (r.top - top).toFixed(1));
            copy.setAttribute('width', r.width.toFixed(1));
            copy.setAttribute('height', r.height.toFixed(1));
            copy.removeAttribute('aria-hidden');
            body += new XMLSerializer().serializeToString(copy);
          }
          const bg = getComputedStyle(el).backgroundColor;
          return {
            id, tag: el.localName, desc, height: Math.ceil(host.height),
            svg: body && { width: Math.ceil(right - left), height: Math.ceil(bottom - top), body, bg },
          };
        }, PROPS));
      }
      for (const f of out) ((heights[f.id] ??= {})[lang] ??= {})[width] = f.height;
      if (width === 1200 && lang === 'en') shots = out;
      await page.close();
    }
    // the standalone pictures
    mkdirSync(root + 'dist/figures', { recursive: true });
    for (const f of shots) {
      if (!f.svg) continue;
      const { width, height, body, bg } = f.svg;
      writeFileSync(root + `dist/figures/${f.id}.svg`,
        `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">` +
        `<title>${escape(f.desc)}</title><rect width="100%" height="100%" fill="${bg}"/>${body}</svg>\n`);
    }
    // the places kept
    let css = '/* Generated by scripts/build-fallbacks.mjs: each figure\'s height as drawn, kept while it loads. */\n';
    // per language too: Chinese text takes other room than English
    for (const [width, query] of WIDTHS) {
      css += `@media ${query} {\n`;
      for (const [id, h] of Object.entries(heights)) {
        css += `  #${id} > :first-child { min-height: ${h.en[width]}px; }\n`;
        css += `  :root:lang(zh) #${id} > :first-child { min-height: ${h.zh[width]}px; }\n`;
      }
      css += '}\n';
    }
    writeFileSync(root + 'dist/figure-space.css', css);
    // the fallbacks inside the elements
    let html = readFileSync(root + 'dist/index.html', 'utf8');
    for (const f of shots) {
      const open = new RegExp(`(<figure class="figure" id="${f.id}">\\s*<${f.tag}\\b[^>]*>)(</${f.tag}>)`);
      const img = f.svg
        ? `<img class="nl-fallback" src="../dist/figures/${f.id}.svg" alt="${escape(f.desc)}" width="${f.svg.width}" height="${f.svg.height}" loading="lazy">`
        : '';
      html = html.replace(open, `$1${img}<p class="nl-fallback">${escape(f.desc)}</p>$2`);
    }
    html = html.replace('</head>', '  <link rel="stylesheet" href="../dist/figure-space.css">\n</head>');
    writeFileSync(root + 'dist/index.html', html);
    return shots.length;
  } finally {
    await browser.close();
    server.close();
  }
}
