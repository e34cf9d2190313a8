// Screenshot the article page: node scripts/screenshot.mjs OUT.png [--zh] [--dark] [--width N]
import { launch } from './browser.mjs';
import { startServer } from './serve.mjs';

const args = process.argv.slice(2);
const out = args.find((a) => a.endsWith('.png')) ?? 'screenshot.png';
const width = Number(args[args.indexOf('--width') + 1]) || 1100;
const { server, url } = await startServer({ port: 0 });
const browser = await launch();
const page = await browser.newPage({
  viewport: { width, height: 900 },
  colorScheme: args.includes('--dark') ? 'dark' : 'light',
});
page.on('console', (m) => m.type() === 'error' && console.error('console:', m.text()));
page.on('pageerror', (e) => console.error('pageerror:', e.message));
await page.goto(url + 'web/index.html');
if (args.includes('--zh')) await page.click('[data-set-lang="zh"]');
// figures start when they scroll into view: visit each one
for (const fig of await page.locator('figure.figure > :first-child').all()) {
  await fig.scrollIntoViewIfNeeded();
  await fig.evaluate(
    (el) =>
      new Promise((resolve) => {
        const check = () => (el.state ? resolve() : setTimeout(check, 20));
        check();
      }),
  );
}
await page.evaluate(() => window.scrollTo(0, 0));
await page.screenshot({ path: out, fullPage: true });
await browser.close();
server.close();
console.log('wrote', out);
