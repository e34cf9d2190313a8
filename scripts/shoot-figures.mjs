// Screenshot each figure of the article page on its own:
//   node scripts/shoot-figures.mjs OUTDIR [--zh] [--dark] [--width N]
import { mkdirSync } from 'node:fs';
import { launch } from './browser.mjs';
import { startServer } from './serve.mjs';

const args = process.argv.slice(2);
const outDir = args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a)) ?? 'test-results/figures';
const width = Number(args[args.indexOf('--width') + 1]) || 1100;
const tag = `${args.includes('--zh') ? 'zh' : 'en'}${args.includes('--dark') ? '-dark' : ''}-${width}`;
mkdirSync(outDir, { recursive: true });
const { server, url } = await startServer({ port: 0 });
const browser = await launch();
const page = await browser.newPage({
  viewport: { width, height: 2400 } /* taller than any figure: element shots of tall figures lost their last line */,
  colorScheme: args.includes('--dark') ? 'dark' : 'light',
});
page.on('pageerror', (e) => console.error('pageerror:', e.message));
await page.goto(url + 'web/index.html');
if (args.includes('--zh')) await page.click('[data-set-lang="zh"]');
// the sticky site header would cover the top of a figure taller than the viewport
await page.evaluate(() => document.querySelector('header.site')?.style.setProperty('position', 'static', 'important')); // (CSP: no inline <style>)
for (const fig of await page.locator('figure.figure').all()) {
  await fig.scrollIntoViewIfNeeded();
  const id = await fig.getAttribute('id');
  await page.waitForFunction((i) => document.querySelector(`#${i} > *`)?.state, id);
  await page.waitForTimeout(150);
  await fig.screenshot({ path: `${outDir}/${id}-${tag}.png` });
  console.log(`${outDir}/${id}-${tag}.png`);
}
await browser.close();
server.close();
