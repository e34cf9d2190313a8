// The docs-site recipes: the MkDocs Material file runs in a page that swaps its
// content the way instant navigation does; the VitePress and Docusaurus files
// are compiled (esbuild) so that they at least parse and import what they say.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';
import { setup } from './helpers.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
let env;
before(async () => {
  env = await setup();
});
after(() => env.close());

test('MkDocs Material: figures in pages swapped in by instant navigation come alive, in the page language', async () => {
  const port = 21000 + Math.floor(Math.random() * 1000);
  const server = spawn('/usr/bin/python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1'], { cwd: root, stdio: 'ignore' });
  try {
    const page = await env.browser.newPage();
    // Material's document$ stands in as a tiny observable; each "navigation" replaces the content.
    await page.addInitScript(() => {
      const subs = [];
      window.document$ = { subscribe: (fn) => (subs.push(fn), fn()) };
      window.__navigate = (html, lang) => {
        document.documentElement.lang = lang;
        const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
        document.querySelector('main').replaceChildren(...doc.body.childNodes);
        subs.forEach((fn) => fn());
      };
    });
    for (let i = 0; i < 100; i++) {
      try {
        await page.goto(`http://127.0.0.1:${port}/tests/browser/pages/single.html?tag=nl-softmax-sharpness`);
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    await page.addScriptTag({ type: 'module', url: `http://127.0.0.1:${port}/docs/examples/mkdocs/normlab.js` });
    await page.evaluate(() => window.__navigate('<h1>Page 2</h1><nl-residual-turn></nl-residual-turn>', 'zh'));
    await page.waitForFunction(() => document.querySelector('nl-residual-turn')?.state);
    assert.equal(await page.evaluate(() => document.querySelector('nl-residual-turn').getAttribute('lang')), 'zh');
    assert.match(await page.locator('nl-residual-turn').locator('.description').textContent(), /转过/);
  } finally {
    server.kill();
  }
});

test('VitePress and Docusaurus recipes compile and import normlab on the client only', () => {
  for (const [file, loader] of [['docs/examples/vitepress/.vitepress/theme/index.js', 'js'], ['docs/examples/vitepress/.vitepress/config.js', 'js'],
    ['docs/examples/docusaurus/NormlabFigure.jsx', 'jsx']]) {
    const src = readFileSync(root + file, 'utf8');
    assert.doesNotThrow(() => transformSync(src, { loader, format: 'esm' }), file);
  }
  assert.match(readFileSync(root + 'docs/examples/vitepress/.vitepress/theme/index.js', 'utf8'), /if \(!import\.meta\.env\.SSR\)[\s\S]*import\('normlab\/elements'\)/);
  assert.match(readFileSync(root + 'docs/examples/docusaurus/NormlabFigure.jsx', 'utf8'), /<BrowserOnly[\s\S]*import\('normlab\/elements'\)|import\('normlab\/elements'\)[\s\S]*<BrowserOnly/);
});
