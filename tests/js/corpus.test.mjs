// The transformer figure's training text (scripts/gen-corpus.mjs): current with
// the article page, in each language its own, with a held-out part that the
// training part does not contain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { source } from '../../scripts/gen-corpus.mjs';
import { CORPUS } from '../../web/components/data/transformer-corpus.js';

const html = readFileSync(new URL('../../web/index.html', import.meta.url), 'utf8');

test('the corpus file is what the article page gives now', () => {
  const now = readFileSync(new URL('../../web/components/data/transformer-corpus.js', import.meta.url), 'utf8');
  assert.equal(now, source(html), 'run node scripts/gen-corpus.mjs');
});

test('each language trains on its own reader text and holds out whole paragraphs', () => {
  const han = /[\u4e00-\u9fff]/g;
  for (const [lang, c] of Object.entries(CORPUS)) {
    assert.equal(c.vocab.at(-1), '\u2047', `${lang}: the stand-in for rare characters comes last`);
    assert.equal(new Set(c.vocab).size, c.vocab.length, `${lang}: no character twice`);
    assert.ok(
      c.vocab.every((ch) => [...ch].length === 1),
      `${lang}: one character per token`,
    );
    const hanShare = (c.train.match(han) ?? []).length / [...c.train].length;
    if (lang === 'zh') assert.ok(hanShare > 0.3, `zh: ${hanShare} of the text is Chinese`);
    else assert.equal(hanShare, 0, 'en: no Chinese');
    // a sentence from the page's opening paragraph in this language is in the training text
    assert.ok(c.train.includes(lang === 'en' ? 'hidden vector' : 'hidden vector 会漂移'), `${lang}: the opening`);
    assert.ok(c.val.length > 300, `${lang}: ${c.val.length} held-out characters`);
    const trainParas = new Set(c.train.split('\n'));
    for (const p of c.val.split('\n')) if (p.length > 40) assert.ok(!trainParas.has(p), `${lang}: "${p}" in both`);
    // no markup, TeX commands or figure captions leak into the text
    assert.doesNotMatch(c.train, /<|>|\\[a-z]|nl-[a-z]/, lang);
  }
});
