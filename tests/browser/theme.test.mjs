// Figures follow the theme their site marks, by the conventions of common docs
// frameworks, live when the site's toggle flips, both ways; `theme` overrides.
// The palette a figure uses is read back as its computed --nl-bg.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './helpers.mjs';

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>a site with a toggle</title>
<script type="module" src="/web/auto.js"></script></head><body><main>
<nl-softmax-sharpness id="fig"></nl-softmax-sharpness><nl-softmax-sharpness id="pinned" theme="light"></nl-softmax-sharpness>
</main></body></html>`;

const LIGHT_BG = '#ffffff';
const DARK_BG = '#161a22';
let env, page, problems;
before(async () => {
  env = await setup();
  // A page of a site with its own toggle, at an address of the test server (which serves web/ and dist/ only).
  const context = await env.browser.newContext();
  await context.route(env.url + 'web/host-theme.html', (r) => r.fulfill({ contentType: 'text/html', body: PAGE }));
  page = await context.newPage();
  problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => ['warning', 'error'].includes(m.type()) && problems.push(`console: ${m.text()}`));
  await page.goto(env.url + 'web/host-theme.html');
  await page.waitForFunction(
    () => customElements.get('nl-softmax-sharpness') && document.querySelector('#fig').shadowRoot,
  );
});
after(() => env.close());

/** Set the system scheme and the site's markers, then read both figures' backgrounds. */
async function look(system, marks) {
  await page.emulateMedia({ colorScheme: system });
  return page.evaluate(async (marks) => {
    for (const n of [document.documentElement, document.body]) {
      n.removeAttribute('class');
      n.removeAttribute('style');
      for (const a of ['data-theme', 'data-md-color-scheme', 'data-bs-theme']) n.removeAttribute(a);
    }
    for (const [where, attr, value] of marks) {
      const n = where === 'html' ? document.documentElement : document.body;
      n.setAttribute(attr, value);
    }
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))); // the observer runs after the change
    const bg = (id) => getComputedStyle(document.getElementById(id)).getPropertyValue('--nl-bg').trim();
    return { fig: bg('fig'), pinned: bg('pinned') };
  }, marks);
}

const cases = [
  // [what, system scheme, markers, expected background]
  ['no marker: the system light', 'light', [], LIGHT_BG],
  ['no marker: the system dark', 'dark', [], DARK_BG],
  ['Docusaurus data-theme=dark on a light system', 'light', [['html', 'data-theme', 'dark']], DARK_BG],
  ['Docusaurus data-theme=light on a dark system', 'dark', [['html', 'data-theme', 'light']], LIGHT_BG],
  ['MkDocs Material slate on a light system', 'light', [['body', 'data-md-color-scheme', 'slate']], DARK_BG],
  ['MkDocs Material default on a dark system', 'dark', [['body', 'data-md-color-scheme', 'default']], LIGHT_BG],
  ['Furo body data-theme=light on a dark system', 'dark', [['body', 'data-theme', 'light']], LIGHT_BG],
  ['Furo body data-theme=auto follows the system', 'dark', [['body', 'data-theme', 'auto']], DARK_BG],
  ['Bootstrap data-bs-theme=dark on a light system', 'light', [['html', 'data-bs-theme', 'dark']], DARK_BG],
  ['a page color-scheme: dark on a light system', 'light', [['html', 'style', 'color-scheme: dark']], DARK_BG],
  [
    'a page color-scheme: light dark leaves it to the system',
    'dark',
    [['html', 'style', 'color-scheme: light dark']],
    DARK_BG,
  ],
  [
    'a page that paints a dark background on a light system',
    'light',
    [['body', 'style', 'background: #111418']],
    DARK_BG,
  ],
  [
    'a page that paints a light background on a dark system',
    'dark',
    [['body', 'style', 'background: #fafafa']],
    LIGHT_BG,
  ],
  ['html.light on a dark system', 'dark', [['html', 'class', 'light']], LIGHT_BG],
  // Last: once a site has marked dark with a class on <html>, its absence means light (VitePress marks light so).
  ['VitePress html.dark on a light system', 'light', [['html', 'class', 'dark']], DARK_BG],
  ['VitePress toggled back to light (no class) on a dark system', 'dark', [], LIGHT_BG],
];

for (const [what, system, marks, want] of cases) {
  test(`${what}: ${want === DARK_BG ? 'dark' : 'light'}`, async () => {
    const got = await look(system, marks);
    assert.equal(got.fig, want);
    assert.equal(got.pinned, LIGHT_BG, 'theme="light" overrides the site and the system');
  });
}

test('the site toggle is followed live, both ways, and theme="dark"/"auto" switch at once', async () => {
  assert.equal((await look('light', [['html', 'class', 'dark']])).fig, DARK_BG);
  assert.equal((await look('dark', [])).fig, LIGHT_BG, 'VitePress back to light on a dark system');
  assert.equal((await look('dark', [['html', 'class', 'dark']])).fig, DARK_BG);
  await look('light', []);
  const set = (v) =>
    page.evaluate((v) => {
      const f = document.getElementById('pinned');
      if (v === null) f.removeAttribute('theme');
      else f.setAttribute('theme', v);
      return getComputedStyle(f).getPropertyValue('--nl-bg').trim();
    }, v);
  assert.equal(await set('dark'), DARK_BG);
  assert.equal(await set('auto'), LIGHT_BG, 'auto: the site (unmarked) and the light system');
  await page.emulateMedia({ colorScheme: 'dark' });
  assert.equal(await set(null), LIGHT_BG, 'no theme attribute: the site, light by its missing class');
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  assert.equal(await set(null), DARK_BG, 'and dark with it');
  assert.equal(await set('light'), LIGHT_BG);
  assert.deepEqual(problems, []);
});
