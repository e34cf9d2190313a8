// <nl-residual-turn>: the magnified tip of the second panel lies below its
// chart, so no grid line or tick label of that chart is covered (boxes measured
// in the page), at 1100 and 360 px and for several scales; it is labelled
// "magnified" only when it magnifies.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, setup } from './helpers.mjs';

const TAG = 'nl-residual-turn';
let env;
before(async () => {
  env = await setup();
});
after(() => env.close());

function covered(el) {
  const svgEl = el.shadowRoot.querySelectorAll('svg')[1];
  const frame = svgEl.querySelector('rect.inset-frame');
  if (!frame) return { frame: false, hits: [], label: '' };
  const b = frame.getBBox();
  const hits = [];
  for (const n of svgEl.querySelectorAll('.axis line, .axis text')) {
    const r = n.getBBox();
    if (r.x < b.x + b.width && r.x + r.width > b.x && r.y < b.y + b.height && r.y + r.height > b.y)
      hits.push(`${n.localName} ${n.textContent || ''} at (${r.x.toFixed(0)}, ${r.y.toFixed(0)})`);
  }
  return { frame: true, hits, label: svgEl.querySelector('.inset-label').textContent };
}

for (const width of [1100, 360]) {
  test(`${width} px: the second panel's inset covers none of its grid`, async () => {
    const { page, context, problems } = await openPage(env.browser, env.url + 'web/index.html', {
      viewport: { width, height: 800 },
    });
    await page.locator(TAG).scrollIntoViewIfNeeded();
    await page.waitForFunction((t) => document.querySelector(t)?.state, TAG);
    await page.waitForTimeout(100);
    for (const [scale, label] of [
      ['10', 'the tip, magnified'],
      ['20', 'the tip, magnified'],
      ['6', 'the tip, magnified'],
      ['0.5', 'the tip'],
    ]) {
      await page.evaluate(([t, k]) => document.querySelector(t).setAttribute('scale', k), [TAG, scale]);
      await page.locator(TAG).evaluate((el) => void el.state); // the queued update first
      const r = await page.locator(TAG).evaluate(covered);
      assert.ok(r.frame, `scale ${scale}: the second panel shows its tip`);
      assert.deepEqual(r.hits, [], `scale ${scale}`);
      assert.equal(r.label, label, `scale ${scale}`);
    }
    await page.evaluate((t) => document.querySelector(t).setAttribute('scale', '10'), TAG);
    assert.deepEqual(problems, []);
    await context.close();
  });
}
