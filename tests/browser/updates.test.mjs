// The batched update cycle (lib/base.js requestUpdate): values a page sets in
// one task, and a language switch, reach the core and the drawing once; the
// state read right after a set already holds it; updateComplete resolves once
// nothing is queued; a reader's own input updates at once.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { FIGURE_TAGS, figureHelpers, openPage, setup } from './helpers.mjs';

let env, page;
const { ready } = figureHelpers(() => page);
before(async () => {
  env = await setup();
  ({ page } = await openPage(env.browser, env.url + 'web/index.html'));
});
after(() => env.close());

// Count compute() and draw() of one figure from now on.
const counting = (tag) =>
  page.evaluate((t) => {
    const el = document.querySelector(t);
    const counts = { compute: 0, draw: 0 };
    for (const name of ['compute', 'draw']) {
      const own = el[name];
      el[name] = function (...args) {
        counts[name]++;
        return own.apply(this, args);
      };
    }
    window.__counts = counts;
  }, tag);

test('three property sets in one task: one compute, one drawing, and state holds all three at once', async () => {
  await ready('nl-bar-compare');
  await counting('nl-bar-compare');
  const r = await page.evaluate(async () => {
    const el = document.querySelector('nl-bar-compare');
    el.vector = [2, 4, 6, 8];
    el.scale = 3;
    el.offset = 10;
    const before = { ...window.__counts };
    const s = el.state; // read at once: the queued update is done first
    const read = { vector: [...s.vector], scale: s.scale, offset: s.offset, input: [...s.input] };
    const afterRead = { ...window.__counts };
    const done = await el.updateComplete;
    return { before, afterRead, read, done, after: { ...window.__counts } };
  });
  assert.deepEqual(r.before, { compute: 0, draw: 0 }, 'nothing computed while the page is still setting values');
  assert.deepEqual(r.afterRead, { compute: 1, draw: 1 });
  assert.deepEqual(r.after, { compute: 1, draw: 1 }, 'the microtask finds nothing left to do');
  assert.equal(r.done, true);
  assert.deepEqual(r.read.vector, [2, 4, 6, 8]);
  assert.equal(r.read.scale, 3);
  assert.equal(r.read.offset, 10);
  assert.deepEqual(r.read.input, [16, 22, 28, 34], 'input = scale x vector + offset');
});

test('updateComplete: resolves after the queued update, with the values drawn', async () => {
  const r = await page.evaluate(async () => {
    const el = document.querySelector('nl-bar-compare');
    window.__counts.compute = window.__counts.draw = 0;
    el.setAttribute('scale', '2');
    el.setAttribute('offset', '0');
    await el.updateComplete;
    return { counts: { ...window.__counts }, desc: el.renderState().description };
  });
  assert.deepEqual(r.counts, { compute: 1, draw: 1 });
  assert.ok(r.desc.length > 0);
});

for (const tag of FIGURE_TAGS.filter((t) => t !== 'nl-depth-training')) {
  test(`${tag}: a language switch there and back in one task is one compute and one drawing`, async () => {
    await ready(tag);
    // e.g. the code figure's syntax colours, which arrive later and draw once more
    await page.waitForFunction((t) => !document.querySelector(t).renderState().busy, tag);
    await counting(tag);
    const r = await page.evaluate(async (t) => {
      const el = document.querySelector(t);
      el.lang = 'zh';
      el.lang = 'en';
      await el.updateComplete;
      const once = { ...window.__counts };
      el.lang = 'zh';
      await el.updateComplete;
      const name = el.getAttribute('aria-label');
      el.removeAttribute('lang');
      await el.updateComplete;
      return { once, name, error: el.state.error };
    }, tag);
    assert.deepEqual(r.once, { compute: 1, draw: 1 });
    assert.match(r.name, /[\u4e00-\u9fff]/, 'the figure is named in Chinese after the switch');
    assert.equal(r.error, null);
  });
}

test("a reader's input updates at once: the change event's state is the new one", async () => {
  await ready('nl-bar-compare');
  const r = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const el = document.querySelector('nl-bar-compare');
        el.addEventListener('change', (e) => resolve({ scale: e.detail.scale, now: el.state.scale }), { once: true });
        const slider = [...el.shadowRoot.querySelectorAll('input[type=range]')].find(
          (i) => i.closest('label')?.textContent.includes('scale') || i.getAttribute('aria-label')?.includes('scale'),
        );
        slider.value = '5';
        slider.dispatchEvent(new Event('input', { bubbles: true }));
      }),
  );
  assert.equal(r.scale, 5);
  assert.equal(r.now, 5);
});
