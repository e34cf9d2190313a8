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
