// <nl-dk-scaling> as a phone reader meets it: at 360 px, in Chinese and dark,
// and at 1100 px, no reference label ("均匀 0.0625", "√d_k") lies on a curve or
// the marker or the x axis (its box measured in the page against points sampled
// along every drawn curve, the axis line and the tick labels), the Chinese says "weight" as the rest of the page does, and the
// caption speaks of random draws in a reader's words.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, setup } from './helpers.mjs';

const TAG = 'nl-dk-scaling';
let env;
before(async () => {
  env = await setup();
});
after(() => env.close());

/** Every reference label's box (user units) against points every 1 px along every curve of its chart. */
function overlaps(el) {
  const hits = [];
  for (const svgEl of el.shadowRoot.querySelectorAll('svg')) {
    const curves = [...svgEl.querySelectorAll('path.s-raw, path.s-scaled, path.s-qk_norm')];
    const marks = [...svgEl.querySelectorAll('circle.mk')];
    for (const label of svgEl.querySelectorAll('text.ref-label')) {
      const b = label.getBBox();
      const inside = (x, y, pad = 1) =>
        x >= b.x - pad && x <= b.x + b.width + pad && y >= b.y - pad && y <= b.y + b.height + pad;
      for (const c of curves) {
        const n = Math.ceil(c.getTotalLength());
        for (let i = 0; i <= n; i++) {
          const p = c.getPointAtLength(i);
          if (inside(p.x, p.y)) {
            hits.push(`"${label.textContent}" on ${c.getAttribute('class')} at (${p.x.toFixed(0)}, ${p.y.toFixed(0)})`);
            break;
          }
        }
      }
      // nor on the chart's x axis (its baseline) or its tick labels
      const lines = [...svgEl.querySelectorAll('.axis line')].filter(
        (l) => l.getAttribute('y1') === l.getAttribute('y2'),
      );
      const baseline = Math.max(...lines.map((l) => Number(l.getAttribute('y1'))));
      if (b.y < baseline && b.y + b.height > baseline) hits.push(`"${label.textContent}" on the x axis`);
      for (const t of svgEl.querySelectorAll('.axis text')) {
        const r = t.getBBox();
        if (r.x < b.x + b.width && r.x + r.width > b.x && r.y < b.y + b.height && r.y + r.height > b.y)
          hits.push(`"${label.textContent}" on the tick label ${t.textContent}`);
      }
      for (const m of marks) {
        const cx = Number(m.getAttribute('cx')),
          cy = Number(m.getAttribute('cy')),
          r = Number(m.getAttribute('r'));
        if (inside(cx, cy, r)) hits.push(`"${label.textContent}" on the marker`);
      }
    }
  }
  return hits;
}

for (const [width, lang, scheme] of [
  [360, 'zh', 'dark'],
  [360, 'en', 'light'],
  [1100, 'zh', 'light'],
]) {
  test(`${width} px, ${lang}, ${scheme}: reference labels clear of the curves, for several d_k and g`, async () => {
    const { page, context, problems } = await openPage(env.browser, env.url + 'web/index.html', {
      viewport: { width, height: 800 },
      colorScheme: scheme,
    });
    if (lang === 'zh') await page.click('[data-set-lang="zh"]');
    await page.locator(TAG).scrollIntoViewIfNeeded();
    await page.waitForFunction((t) => document.querySelector(t)?.state, TAG);
    await page.waitForTimeout(100); // the redraw at the measured width
    const bad = [];
    for (const attrs of [{}, { dk: '256' }, { dk: '16', g: '2' }, { g: '40' }, { mode: 'raw', dk: '200' }]) {
      await page.evaluate(
        ([t, a]) => {
          const f = document.querySelector(t);
          for (const k of ['dk', 'g', 'mode']) f.setAttribute(k, a[k] ?? { dk: '64', g: '8', mode: 'scaled' }[k]);
        },
        [TAG, attrs],
      );
      const labels = await page.locator(TAG).evaluate((el) => {
        el.state; // the queued update first
        return [...el.shadowRoot.querySelectorAll('text.ref-label')].map((t) => t.textContent);
      });
      assert.equal(labels.length, 2, 'the √d_k and the uniform-weight labels');
      if (lang === 'zh') assert.ok(labels.includes('均匀 0.0625'), `the uniform weight 1/16: ${labels}`);
      bad.push(...(await page.locator(TAG).evaluate(overlaps)).map((h) => `${JSON.stringify(attrs)}: ${h}`));
    }
    assert.deepEqual(bad, []);
    // the legend: every entry whole inside the figure, on no chart (so on none of its curves), none over another
    const legend = await page.locator(TAG).evaluate((el) => {
      const out = [];
      const box = el.getBoundingClientRect();
      const charts = [...el.shadowRoot.querySelectorAll('svg')].map((x) => x.getBoundingClientRect());
      const items = [...el.shadowRoot.querySelectorAll('.legend li')].map((li) => [
        li.textContent,
        li.getBoundingClientRect(),
      ]);
      const hit = (a, b) =>
        Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
        Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
      items.forEach(([t, r], i) => {
        if (r.left < box.left || r.right > box.right || r.top < box.top || r.bottom > box.bottom)
          out.push(`"${t}" cut off`);
        if (charts.some((c) => hit(r, c))) out.push(`"${t}" over a chart`);
        items.slice(i + 1).forEach(([u, q]) => hit(r, q) && out.push(`"${t}" over "${u}"`));
      });
      return { out, count: items.length };
    });
    assert.equal(legend.count, 4, 'three series and the dashed references');
    assert.deepEqual(legend.out, []);
    if (lang === 'zh') {
      const text = await page.locator(TAG).evaluate((el) => {
        const r = el.shadowRoot;
        return [...r.querySelectorAll('svg text, li, [part=description]')].map((t) => t.textContent).join(' ');
      });
      assert.ok(!text.includes('权重'), 'softmax weights are "weight" in Chinese, as on the rest of the page');
      assert.match(text, /softmax weight/);
    }
    const caption = await page.evaluate(() =>
      [...document.querySelectorAll('#fig-dk figcaption span')].map((s) => s.textContent).join(' '),
    );
    assert.doesNotMatch(caption, /\bcore\b|seeded|核心|种子/, 'no developer talk in the caption');
    assert.match(caption, /the same random draws every time/);
    assert.deepEqual(problems, []);
    await context.close();
  });
}
