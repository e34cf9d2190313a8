// <nl-whitening> on the article page: the figure stands right after the text
// that introduces whitening (ZCA and its formula), in both languages, not two
// paragraphs and another figure further on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onArticlePage } from './helpers.mjs';

const TAG = 'nl-whitening';
const fig = onArticlePage(TAG);

test('the whitening figure follows the paragraphs about whitening in English and Chinese', async () => {
  const around = await fig.page.evaluate((t) => {
    const figure = document.querySelector(t).closest('figure');
    const prev = [];
    for (let e = figure.previousElementSibling; e && prev.length < 2; e = e.previousElementSibling)
      prev.push({ lang: e.dataset.lang ?? '', tag: e.localName, text: e.textContent.replace(/\s+/g, ' ') });
    const next = figure.nextElementSibling;
    return { prev, next: next ? { tag: next.localName, id: next.id, text: next.textContent.slice(0, 80) } : null };
  }, TAG);
  const [zh, en] = around.prev;
  assert.equal(zh.lang, 'zh', 'right after the Chinese text');
  assert.match(zh.text, /Whitening/);
  assert.match(zh.text, /ZCA/);
  assert.equal(en.lang, 'en', 'which follows the English one');
  assert.match(en.text, /Whitening goes further/);
  assert.match(en.text, /ZCA/);
  assert.ok(!/Min-max|Gradient clipping/.test(en.text + zh.text), 'no other topic between the text and the figure');
  assert.deepEqual(fig.problems, []);
});
