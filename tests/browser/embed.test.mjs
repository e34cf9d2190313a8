// The ways users embed normlab, each done as a user would: a plain static page
// served by a generic static server, the single-file build opened from disk,
// thirty figures sharing one WASM download, a custom theme through custom
// properties and ::part, and dark mode following prefers-color-scheme.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FIGURE_TAGS, setup, shotsDir, waitDrawn } from './helpers.mjs';
import { transformerTrains } from '../package/helpers.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
let env;
before(async () => {
  env = await setup();
});
after(() => env.close());

// A generic static server (Python's) over the repository, and a page opened on it.
async function withStaticServer(fn) {
  const port = 18000 + Math.floor(Math.random() * 3000);
  const server = spawn('/usr/bin/python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1'], {
    cwd: root,
    stdio: 'ignore',
  });
  const open = async (page, path) => {
    for (let i = 0; i < 100; i++) {
      try {
        return await page.goto(`http://127.0.0.1:${port}/${path}`);
      } catch {
        await new Promise((r) => setTimeout(r, 100)); // the server is still starting
      }
    }
    throw new Error('the static server did not start');
  };
  try {
    return await fn(open);
  } finally {
    server.kill();
  }
}

// Visit every figure on the page (they start when scrolled into view) and wait for its state.
async function startAll(page) {
  const figs = await page.locator('main > *:not(h1)').all();
  for (const f of figs) {
    await f.scrollIntoViewIfNeeded();
    await waitDrawn(f);
  }
  return figs.length;
}

test('a plain static page with one module script, served by a generic static server (python3 -m http.server)', () =>
  withStaticServer(async (open) => {
    const page = await env.browser.newPage();
    await open(page, 'tests/browser/pages/static.html');
    assert.equal(await startAll(page), 12);
    assert.equal(
      await page.evaluate(() => document.querySelector('nl-axis-cube').state.members.length),
      6,
      'the default 3x4x6 tensor, a LayerNorm row',
    );
    await page.close();
  }));

// A phone-sized site that links normlab/styles.css, every figure with its default attributes in a 340 px column:
// each keeps from the start (its CSS min-height) the height it then draws at (its own, min-height released),
// at most 2 px more (a gap) and at most 40 px less (the page below would move as it draws).
for (const lang of ['en', 'zh']) {
  test(`at 360 px (${lang}) normlab/styles.css keeps each figure's drawn height (reserved -2 px to +40 px)`, () =>
    withStaticServer(async (open) => {
      const context = await env.browser.newContext({
        viewport: { width: 360, height: 740 },
        isMobile: true,
        hasTouch: true,
      });
      const page = await context.newPage();
      await open(page, 'tests/browser/pages/phone.html');
      await page.waitForFunction((t) => t.every((tag) => customElements.get(tag)), FIGURE_TAGS);
      const rows = await page.evaluate(
        async ([tags, lang]) => {
          const box = Object.assign(document.createElement('div'), { lang });
          document.querySelector('main').append(box);
          const out = [];
          for (const tag of tags) {
            const el = box.appendChild(document.createElement(tag));
            const reserved = parseFloat(getComputedStyle(el).minHeight);
            el.start(); // now, not when scrolled into view
            const t0 = Date.now();
            while (!el.state && Date.now() - t0 < 20000) await new Promise((r) => setTimeout(r, 25));
            await el.updateComplete;
            await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
            el.style.minHeight = '0px';
            const drawn = el.getBoundingClientRect().height;
            el.style.minHeight = '';
            out.push({ tag, reserved, drawn, width: el.getBoundingClientRect().width, error: el.state?.error ?? null });
          }
          return out;
        },
        [FIGURE_TAGS, lang],
      );
      await context.close();
      console.log(rows.map((r) => `${r.tag} reserved ${r.reserved} drawn ${r.drawn.toFixed(0)}`).join('\n'));
      assert.equal(rows.length, FIGURE_TAGS.length);
      for (const r of rows) {
        assert.equal(r.error, null, `${r.tag} drew without error`);
        assert.equal(r.width, 340, `${r.tag} fills the 340 px column`);
      }
      const off = rows.filter((r) => r.drawn < r.reserved - 2 || r.drawn > r.reserved + 40);
      assert.deepEqual(
        off.map((r) => `${r.tag}: reserved ${r.reserved} px, drawn ${r.drawn.toFixed(1)} px`),
        [],
        'drawn height within [reserved - 2, reserved + 40]',
      );
    }));
}

// The reserved height is for the default state while it loads: once the reader has used the figure, a shorter
// state (a panel folded, a step back) leaves no gap below it. A page changing an attribute is no reader's use.
test('a figure keeps its reserved height until the reader uses it, then its own (normlab/styles.css, 360 px)', () =>
  withStaticServer(async (open) => {
    const context = await env.browser.newContext({ viewport: { width: 360, height: 740 }, hasTouch: true });
    const page = await context.newPage();
    await open(page, 'tests/browser/pages/phone.html');
    await page.waitForFunction(() => customElements.get('nl-bn-variants'));
    const minHeight = () => page.evaluate(() => getComputedStyle(document.querySelector('#used')).minHeight);
    await page.evaluate(async () => {
      const el = Object.assign(document.createElement('nl-bn-variants'), { id: 'used' });
      document.querySelector('main').append(el);
      el.start();
      while (!el.state) await new Promise((r) => setTimeout(r, 25));
    });
    const reserved = parseFloat(await minHeight());
    assert.ok(reserved > 500, `reserved ${reserved} px before use`);
    await page.evaluate(() => document.querySelector('#used').setAttribute('steps', '7'));
    assert.equal(parseFloat(await minHeight()), reserved, 'an attribute set by the page keeps the reservation');
    await page.locator('#used button[data-value=ghost]').tap();
    assert.equal(await page.evaluate(() => document.querySelector('#used').hasAttribute('data-used')), true);
    assert.equal(await minHeight(), '0px', 'released after the reader taps a control');
    await context.close();
  }));

test('the single-file build renders every figure from a page opened from disk (file://), with no network', async () => {
  const context = await env.browser.newContext();
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(join(root, 'tests/browser/pages/offline.html')).href);
  assert.equal(await startAll(page), 13);
  // The training figure trains in a Blob worker made from the worker text inlined in the single file: a page
  // from disk can fetch no worker script (and a file: worker would be cross-origin to its opaque origin).
  const t = await transformerTrains(page);
  console.log(`offline (file://): transformer trained to step ${t.trained} in ${t.where}`);
  assert.deepEqual([t.recorded, t.step], [true, 300], 'it draws its recorded runs first');
  assert.ok(t.trained >= 10, `play() trained ${t.trained} steps`);
  assert.equal(t.where, 'blob');
  const s = await page.evaluate(() => document.querySelector('nl-bar-compare').state);
  assert.ok(Math.abs(s.current.layer_norm[2] - Math.sqrt(1.5)) < 1e-4);
  assert.equal(
    await page.evaluate(
      () => document.querySelector('nl-code-shapes').shadowRoot.querySelectorAll('.token.keyword').length > 0,
    ),
    true,
    'the highlighter is inside the single file too',
  );
  assert.deepEqual(
    requests.filter((u) => !u.startsWith('file:') && !u.startsWith('blob:')),
    [],
    'no network request (the Blob worker is the page’s own)',
  );
  assert.deepEqual(errors, []);
  await page.screenshot({ path: join(shotsDir, 'offline-file.png') });
  await context.close();
});

test('thirty figures on one page load the WASM once', () =>
  withStaticServer(async (open) => {
    const page = await env.browser.newPage();
    const loads = [];
    page.on('request', (r) => r.url().endsWith('.wasm') && loads.push(r.url()));
    await open(page, 'tests/browser/pages/many.html');
    assert.equal(await startAll(page), 30);
    console.log(`many figures: 30 figures, ${loads.length} request(s) for the .wasm`);
    assert.equal(loads.length, 1);
    await page.close();
  }));

test('a custom theme through custom properties and ::part; dark mode follows prefers-color-scheme', () =>
  withStaticServer(async (open) => {
    for (const scheme of ['light', 'dark']) {
      const context = await env.browser.newContext({ colorScheme: scheme });
      const page = await context.newPage();
      await open(page, 'tests/browser/pages/theme.html');
      await startAll(page);
      const look = await page.evaluate(() => {
        const get = (id) => {
          const el = document.getElementById(id);
          const root = el.shadowRoot;
          return {
            bg: getComputedStyle(el).backgroundColor,
            ln: getComputedStyle(root.querySelector('rect.bar.current.layer_norm')).fill,
            button: getComputedStyle(root.querySelector('button')).backgroundColor,
            radius: getComputedStyle(root.querySelector('button')).borderTopLeftRadius,
            font: getComputedStyle(el).fontFamily,
          };
        };
        return { themed: get('themed'), plain: get('plain') };
      });
      assert.equal(look.themed.ln, 'rgb(0, 128, 0)');
      assert.equal(look.themed.button, 'rgb(30, 30, 120)');
      assert.equal(look.themed.radius, '999px');
      assert.match(look.themed.font, /Georgia/);
      assert.notEqual(look.plain.ln, 'rgb(0, 128, 0)');
      if (scheme === 'dark') assert.equal(look.plain.bg, 'rgb(22, 26, 34)', 'the default dark background');
      else assert.equal(look.plain.bg, 'rgb(255, 255, 255)');
      await page.screenshot({ path: join(shotsDir, `theme-${scheme}.png`), fullPage: true });
      await context.close();
    }
  }));

test('registerLocale adds a third language: figures switch at once, missing keys fall back to English, numbers follow the locale', () =>
  withStaticServer(async (open) => {
    const page = await env.browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await open(page, 'tests/browser/pages/locale.html');
    await startAll(page);
    const read = () =>
      page.evaluate(() => {
        const fig = document.querySelector('nl-residual-turn');
        return {
          lang: fig.lang,
          name: fig.getAttribute('aria-label'),
          number: fig.fmt(0.5, 3),
          en: document.querySelector('nl-softmax-sharpness').lang,
        };
      });
    const before = await read();
    assert.equal(before.lang, 'en', 'an unknown language reads as English');
    assert.equal(before.number, '0.5');
    await page.evaluate(() => window.registerFrench());
    const after = await read();
    assert.equal(after.lang, 'fr', 'fr-CA uses the fr catalog');
    assert.match(after.name, /^Virage résiduel/);
    assert.equal(after.number, '0,5', 'numbers in the French way');
    assert.equal(after.en, 'en', 'a figure with its own lang keeps it');
    const label = await page.evaluate(
      () => document.querySelector('nl-residual-turn').shadowRoot.querySelector('label span').textContent,
    );
    assert.ok(
      label.length > 0 && !/^[a-z]+[A-Z]/.test(label),
      `a key missing in French shows the English text, not the key (${label})`,
    );
    await assert.rejects(
      page.evaluate(() => import('/web/elements.js').then((m) => m.registerLocale('<b>', {}))),
      /language tag/,
    );
    assert.deepEqual(errors, []);
    await page.close();
  }));

test('the article as a folder (dist/site/) copied anywhere opens from disk: every figure, typeset math, both languages, no network', async () => {
  const { cpSync, mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const copy = join(mkdtempSync(join(tmpdir(), 'normlab-site-')), 'usb stick'); // a folder elsewhere, with a space in its name
  cpSync(join(root, 'dist/site'), copy, { recursive: true });
  const context = await env.browser.newContext();
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(pathToFileURL(join(copy, 'index.html')).href);
  let drawn = 0;
  for (const f of await page.locator('figure.figure > :first-child').all()) {
    await f.scrollIntoViewIfNeeded();
    await waitDrawn(f);
    drawn++;
  }
  assert.ok(drawn >= 12, `figures drawn: ${drawn}`);
  const math = await page.evaluate(() => ({
    formulas: document.querySelectorAll('.math .katex-html').length,
    fontLoaded: [...document.fonts].some((f) => /KaTeX/.test(f.family) && f.status === 'loaded'),
  }));
  assert.ok(math.formulas >= 60, `typeset formulas: ${math.formulas}`);
  assert.ok(math.fontLoaded, 'the math fonts come from the folder');
  // the article's training figure, from disk: a Blob worker from the worker text inlined in page.js (a file:
  // page can fetch no worker script)
  const t = await transformerTrains(page);
  console.log(`dist/site (file://): transformer trained to step ${t.trained} in ${t.where}`);
  assert.deepEqual([t.recorded, t.step], [true, 300], 'it draws its recorded runs first');
  assert.ok(t.trained >= 10, `play() trained ${t.trained} steps`);
  assert.equal(t.where, 'blob');
  await page.click('[data-set-lang="zh"]');
  assert.equal(await page.evaluate(() => document.querySelector('nl-bar-compare').lang), 'zh');
  assert.deepEqual(
    requests.filter((u) => !/^(file|data|blob):/.test(u)),
    [],
    'no network request',
  );
  assert.deepEqual(errors, []);
  await context.close();
});
