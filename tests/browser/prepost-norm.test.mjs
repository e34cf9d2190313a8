// <nl-prepost-norm> as a reader types into it: a layer count outside 1..32 typed
// into the number box is refused beside the box, in the reader's language and
// naming the range; the box is marked invalid; the charts stay as they were
// (drawn, not dimmed) and the other controls keep working; a good value clears
// it all. Then the same for Chinese.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onArticlePage } from './helpers.mjs';

const TAG = 'nl-prepost-norm';
const fig = onArticlePage(TAG);

/** What a reader sees around the layers box. */
const look = () =>
  fig.page.evaluate((t) => {
    const f = document.querySelector(t),
      r = f.shadowRoot;
    const box = r.querySelector('input[type=number]');
    const note = r.querySelector('.invalid-note');
    const view = r.querySelector('[part=view]');
    return {
      state: JSON.parse(JSON.stringify(f.state)),
      invalid: box.getAttribute('aria-invalid'),
      errormessage: box.getAttribute('aria-errormessage'),
      note: note && !note.hidden && note.getClientRects().length ? note.textContent : '',
      noteId: note?.id ?? null,
      error: r.querySelector('[part=error]').textContent,
      opacity: Number(getComputedStyle(view).opacity),
      paths: r.querySelectorAll('svg path').length,
      circles: r.querySelectorAll('svg circle').length,
    };
  }, TAG);

async function type(value) {
  const box = fig.page.locator(`${TAG} >> input[type=number]`);
  await box.fill(String(value));
  await box.press('Enter');
}

test('48 layers typed: a short message beside the box names 1 to 32; the charts stay drawn; 20 clears it', async () => {
  const before = await look();
  assert.equal(before.state.layers, 12);
  assert.equal(before.invalid, null);
  await type(48);
  const bad = await look();
  assert.equal(bad.note, 'Layers L takes a whole number from 1 to 32.');
  assert.equal(bad.invalid, 'true');
  assert.equal(bad.errormessage, bad.noteId, 'the box points at its message');
  assert.equal(bad.error, '', 'no second, raw message under the charts');
  assert.equal(bad.opacity, 1, 'the last good charts are not dimmed');
  assert.equal(bad.state.layers, 12, 'the last good value is kept');
  assert.equal(bad.paths, before.paths, 'the same charts are drawn');
  assert.equal(bad.circles, before.circles);
  // another control still works while the box holds the refused value
  await fig.page.locator(`${TAG} >> select`).selectOption('rms_norm');
  const other = await look();
  assert.equal(other.state.norm, 'rms_norm');
  assert.equal(other.state.layers, 12);
  assert.equal(other.note, 'Layers L takes a whole number from 1 to 32.');
  await type(20);
  const good = await look();
  assert.equal(good.state.layers, 20);
  assert.equal(good.invalid, null);
  assert.equal(good.note, '');
  assert.equal(good.state.error, null);
  await fig.page.locator(`${TAG} >> select`).selectOption('layer_norm');
  assert.deepEqual(fig.problems, []);
});

test('Chinese: the message is Chinese, and follows a language switch; 0 and 2.5 are refused too', async () => {
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('lang', 'zh'), TAG);
  await type(0);
  let sn = await look();
  assert.equal(sn.note, '层数 L 只能取 1 到 32 之间的整数。');
  assert.equal(sn.invalid, 'true');
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('lang', 'en'), TAG);
  sn = await look();
  assert.equal(sn.note, 'Layers L takes a whole number from 1 to 32.');
  await type(2.5);
  assert.equal((await look()).note, 'Layers L takes a whole number from 1 to 32.');
  await type(12);
  sn = await look();
  assert.equal(sn.note, '');
  assert.equal(sn.state.layers, 12);
  // a page's bad attribute still gets the author's message under the charts
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('layers', '99'), TAG);
  assert.match((await look()).error, /layers must be a number from 1 to 32 \(got "99"\)/);
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('layers', '12'), TAG);
  assert.equal((await look()).error, '');
  assert.deepEqual(fig.problems, []);
});
