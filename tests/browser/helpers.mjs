// Browser-test helpers: one server per test file, and the Chromium `npm test`
// shares among its files (or one of the file's own when run alone).
import { after, before } from 'node:test';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { browserFor } from '../../scripts/browser.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { figures } from '../../web/figures.manifest.js';

export const shotsDir = fileURLToPath(new URL('../../test-results/', import.meta.url));
mkdirSync(shotsDir, { recursive: true });

export async function setup(launchOptions = {}) {
  const { server, url } = await startServer({ port: 0 });
  const browser = await browserFor(launchOptions);
  return {
    url,
    browser,
    async close() {
      await browser.close();
      server.close();
    },
  };
}

/**
 * A page that records console errors, page errors and CSP violations. `beforeLoad(page)`, if given, runs
 * before the page is loaded (to listen from the first request on).
 */
export async function openPage(browser, url, options = {}, beforeLoad = null) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, ...options });
  const page = await context.newPage();
  await beforeLoad?.(page);
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  await page.goto(url);
  return { page, context, problems };
}

/** Set attributes `attrs` ({ name: value }) of the first `tag` on `page`, in one task (one batched update). */
export const setAttributes = (page, tag, attrs) =>
  page.evaluate(
    ([t, a]) => {
      const f = document.querySelector(t);
      for (const [k, v] of Object.entries(a)) f.setAttribute(k, v);
    },
    [tag, attrs],
  );

/**
 * Resolves once the figure `handle` (a Locator or ElementHandle) has a state: it starts as it nears the
 * view, after its code has loaded. Rejects naming the figure after `ms`.
 */
export const waitDrawn = (handle, ms = 20000) =>
  handle.evaluate(
    (el, limit) =>
      new Promise((resolve, reject) => {
        const t0 = Date.now();
        const check = () =>
          el.state
            ? resolve()
            : Date.now() - t0 > limit
              ? reject(new Error(`${el.localName} never drew`))
              : setTimeout(check, 25);
        check();
      }),
    ms,
  );

/** Every figure's tag (all of them are on the article page). */
export const FIGURE_TAGS = figures.map((f) => f.tag);

/**
 * Figure helpers on the page `getPage()` returns (a test file opens it in
 * before()): ready(tag) scrolls the first such figure into view and waits
 * until it has drawn without error; state(tag) is a plain copy of its state.
 */
export function figureHelpers(getPage) {
  return {
    async ready(tag) {
      await getPage().locator(tag).scrollIntoViewIfNeeded();
      await getPage().waitForFunction(
        (t) => document.querySelector(t)?.state && !document.querySelector(t).state.error,
        tag,
      );
      return getPage().locator(tag);
    },
    state: (tag) => getPage().evaluate((t) => JSON.parse(JSON.stringify(document.querySelector(t).state)), tag),
  };
}

/**
 * The elements of a [B, T, D] tensor that share statistics with [b, t, d]
 * under `method` (G groups for GroupNorm), written from the definitions: the
 * tests' oracle for the cube, never the figure's code.
 */
export function cubeGroup(method, [B, T, D], [b, t, d], G) {
  const out = [];
  for (let bb = 0; bb < B; bb++)
    for (let tt = 0; tt < T; tt++)
      for (let dd = 0; dd < D; dd++) {
        const same = {
          batch_norm: dd === d,
          layer_norm: bb === b && tt === t,
          rms_norm: bb === b && tt === t,
          instance_norm: bb === b && dd === d,
          group_norm: bb === b && Math.floor(dd / (D / G)) === Math.floor(d / (D / G)),
        }[method];
        if (same) out.push([bb, tt, dd]);
      }
  return out;
}

/**
 * A test file about one figure on the article page: opens the page before the
 * tests (the figure scrolled into view, drawn, in English) and closes it after.
 * Returns { page, problems, snap } (page and problems once the file's tests run);
 * snap() reads the figure as a reader meets it: its state, description, error,
 * readout, the texts of its charts, any NaN in the drawing, and for the
 * five-questions figure its answers and highlighted cells.
 */
export function onArticlePage(tag) {
  const fig = { page: null, problems: null };
  before(async () => {
    fig.env = await setup();
    ({ page: fig.page, problems: fig.problems } = await openPage(fig.env.browser, fig.env.url + 'web/index.html'));
    await fig.page.locator(tag).scrollIntoViewIfNeeded();
    await fig.page.waitForFunction((t) => document.querySelector(t)?.state, tag);
    await fig.page.evaluate((t) => document.querySelector(t).setAttribute('lang', 'en'), tag);
  });
  after(() => fig.env.close());
  fig.snap = () =>
    fig.page.evaluate((t) => {
      const f = document.querySelector(t),
        r = f.shadowRoot;
      return {
        state: JSON.parse(JSON.stringify(f.state)),
        desc: r.querySelector('[part=description]').textContent,
        error: r.querySelector('[part=error]').textContent,
        readout: r.querySelector('[part=readout]')?.textContent ?? '',
        svg: [...r.querySelectorAll('svg text')].map((x) => x.textContent),
        bad: [...r.querySelectorAll('svg *')].flatMap((n) =>
          [...n.attributes].filter((a) => /NaN|Infinity|undefined/.test(a.value)).map((a) => a.name),
        ),
        answers: [...r.querySelectorAll('dl.answers dd')].map((d) => d.textContent),
        chosen: [...r.querySelectorAll('.cell.chosen')].map((c) => c.dataset.index),
        members: [...r.querySelectorAll('.cell.member, .cell.chosen')].map((c) => c.dataset.index).sort(),
      };
    }, tag);
  return fig;
}
