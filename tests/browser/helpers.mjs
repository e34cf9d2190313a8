// Browser-test helpers: one server and one Chromium per test file.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launch } from '../../scripts/browser.mjs';
import { startServer } from '../../scripts/serve.mjs';

export const shotsDir = fileURLToPath(new URL('../../test-results/', import.meta.url));
mkdirSync(shotsDir, { recursive: true });

export async function setup(launchOptions = {}) {
  const { server, url } = await startServer({ port: 0 });
  const browser = await launch(launchOptions);
  return {
    url,
    browser,
    async close() {
      await browser.close();
      server.close();
    },
  };
}

/** A page that records console errors, page errors and CSP violations. */
export async function openPage(browser, url, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, ...options });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.goto(url);
  return { page, context, problems };
}

/** Every figure's tag (all of them are on the article page). */
export const FIGURE_TAGS = ['nl-bar-compare', 'nl-axis-cube', 'nl-code-shapes', 'nl-softmax-sharpness', 'nl-residual-turn', 'nl-dk-scaling',
  'nl-batch-dependence', 'nl-adaln', 'nl-spectral', 'nl-l2-jacobian', 'nl-prepost-norm', 'nl-whitening', 'nl-causal-leak',
  'nl-rms-decomposition', 'nl-scalers', 'nl-vector-norms',
  'nl-five-questions'];

/**
 * Figure helpers on the page `getPage()` returns (a test file opens it in
 * before()): ready(tag) scrolls the first such figure into view and waits
 * until it has drawn without error; state(tag) is a plain copy of its state.
 */
export function figureHelpers(getPage) {
  return {
    async ready(tag) {
      await getPage().locator(tag).scrollIntoViewIfNeeded();
      await getPage().waitForFunction((t) => document.querySelector(t)?.state && !document.querySelector(t).state.error, tag);
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
