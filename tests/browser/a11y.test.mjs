// Accessibility: axe-core finds no violation on the article page (both
// languages) nor on each figure alone; every figure has an accessible name and
// a description that follows its state.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { FIGURE_TAGS, setup } from './helpers.mjs';

const require = createRequire(import.meta.url);
const axePath = require.resolve('axe-core/axe.min.js');
const TAGS = FIGURE_TAGS;

let env;
before(async () => {
  env = await setup();
});
after(() => env.close());

async function axe(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axePath });
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
  });
}

/** Start every figure on the page (they start as they near the view) and wait until each has a state. */
async function startAll(page) {
  await page.evaluate(
    async (tags) =>
      // the article page loads a figure's code as its section nears the view: all of it, now
      (await import('/dist/page.js')).defineAll().then(() =>
        Promise.all(
          [...document.querySelectorAll(tags.join(','))].map((el) => {
            el.start?.();
            return new Promise((resolve) => {
              const c = () => (el.state ? resolve() : setTimeout(c, 25));
              c();
            });
          }),
        ),
      ),
    TAGS,
  );
}

// One load of the article: English in light, then Chinese in dark. Colours come from the theme's tokens
// and are the same in both languages, and the words and their markup are the same in both themes, so the
// two scans see every colour pair and every string (four scans took over a minute of the tier).
test('axe-core: no violations on the article page, English in light and Chinese in dark', async () => {
  const context = await env.browser.newContext({ bypassCSP: true, colorScheme: 'light' }); // axe is injected as an inline script
  const page = await context.newPage();
  await page.goto(env.url + 'web/index.html');
  await startAll(page);
  await page.evaluate(() => document.fonts.ready); // the math is typeset at build time; its fonts load
  assert.deepEqual(await axe(page), [], 'English, light');
  await page.click('[data-set-lang="zh"]');
  await page.emulateMedia({ colorScheme: 'dark' });
  assert.equal(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches), true);
  assert.deepEqual(await axe(page), [], 'Chinese, dark');
  await context.close();
});

// Every figure alone (no article around it, its own default attributes), all of them in one main, one axe
// scan: a violation inside a figure is found as it was with one scan per figure (22 scans and startAll
// calls were ~20 s of the tier), and the scan names the figure in the element's selector.
test('axe-core: no violations on the figures alone; each has a name and a description that follows its state', async () => {
  const context = await env.browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  await page.goto(env.url + 'web/index.html');
  await page.evaluate((tags) => {
    const main = document.querySelector('main');
    main.replaceChildren(
      Object.assign(document.createElement('h1'), { textContent: 'The figures alone' }),
      ...tags.map((t) => document.createElement(t)),
    );
  }, TAGS);
  await page.evaluate((tags) => import('/dist/page.js').then((m) => m.defineAll(tags)), TAGS); // their code, now
  await startAll(page);
  assert.deepEqual(await axe(page), []);
  const infos = await page.evaluate(
    (tags) =>
      tags.map((t) => {
        const el = document.querySelector(t);
        const wrap = el.shadowRoot.querySelector('[part~="figure"]');
        const descId = wrap.getAttribute('aria-describedby');
        return {
          tag: t,
          name: wrap.getAttribute('aria-label'),
          desc: el.shadowRoot.getElementById(descId)?.textContent ?? '',
        };
      }),
    TAGS,
  );
  assert.equal(infos.length, TAGS.length);
  for (const info of infos) {
    assert.ok(info.name && info.name.length > 10, `${info.tag} has an accessible name`);
    assert.ok(info.desc.length > 10, `${info.tag} has a description`);
  }
  await context.close();
});

test('keyboard only: Tab from the top of the article reaches the controls of every figure', async () => {
  const page = await env.browser.newPage();
  await page.goto(env.url + 'web/index.html');
  await startAll(page); // every figure's code and controls, not only those near the view
  // the figure whose shadow tree holds the focus, recorded at each focus move (a round trip per Tab was slow)
  await page.evaluate(() => {
    window.__reached = new Set();
    document.addEventListener('focusin', (e) => {
      if (e.target?.shadowRoot?.activeElement) window.__reached.add(e.target.localName);
    });
  });
  let reached = new Set();
  for (let i = 0; i < 400 && reached.size < TAGS.length; i += 20) {
    for (let k = 0; k < 20; k++) await page.keyboard.press('Tab');
    reached = new Set(await page.evaluate(() => [...window.__reached]));
  }
  assert.deepEqual(
    [...TAGS].filter((t) => !reached.has(t)),
    [],
    'figures whose controls Tab never reached',
  );
  await page.close();
});
