// The string catalogs: the same keys in every language, and Chinese written by
// the rules of docs/glossary.md (no space between Chinese characters, one space
// between Chinese and Latin letters, digits or a {placeholder}).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import en from '../../web/i18n/en.js';
import zh from '../../web/i18n/zh.js';

const CJK = '\\u4e00-\\u9fff';
const PUNCT = '\\u3001-\\u3011\\uff01-\\uff1f\\u2018-\\u201d';

function* strings(catalog) {
  for (const [section, table] of Object.entries(catalog))
    for (const [key, s] of Object.entries(table)) yield [`${section}.${key}`, s];
}

test('every language has the keys of the English catalog', () => {
  for (const [section, table] of Object.entries(en)) {
    assert.ok(zh[section], `zh lacks section ${section}`);
    const missing = Object.keys(table).filter((k) => !(k in zh[section]));
    assert.deepEqual(missing, [], `zh.${section} lacks keys`);
  }
});

test('placeholders are the same in both languages', () => {
  const holes = (s) =>
    [...s.matchAll(/\{(\w+)\}/g)]
      .map((m) => m[1])
      .sort()
      .join(',');
  const bad = [];
  for (const [section, table] of Object.entries(en))
    for (const [key, s] of Object.entries(table))
      if (zh[section]?.[key] !== undefined && holes(s) !== holes(zh[section][key])) bad.push(`${section}.${key}`);
  assert.deepEqual(bad, []);
});

test('Chinese strings: no space between Chinese characters; a space between Chinese and Latin, digits or placeholders', () => {
  const stray = new RegExp(`[${CJK}${PUNCT}] +[${CJK}]|[${CJK}] +[${PUNCT}]`);
  const tight = new RegExp(`[${CJK}][A-Za-z0-9{]|[A-Za-z0-9}][${CJK}]`);
  // Placeholders that the figures fill with Chinese words (训练 3 步, mean 与 variance) read as Chinese.
  const CJK_VALUED = { axisCube: /\{stats\}/g, batchDependence: /\{steps\}/g };
  const bad = [];
  for (const [where, raw] of strings(zh)) {
    const pattern = CJK_VALUED[where.split('.')[0]];
    const s = pattern ? raw.replace(pattern, '字') : raw;
    if (stray.test(s)) bad.push(`${where}: stray space in "${raw}"`);
    if (tight.test(s)) bad.push(`${where}: no space in "${raw}"`);
  }
  assert.deepEqual(bad, []);
});

test('the rules can fail: they catch the mistakes they are for', () => {
  const tight = new RegExp(`[${CJK}][A-Za-z0-9{]|[A-Za-z0-9}][${CJK}]`);
  const stray = new RegExp(`[${CJK}${PUNCT}] +[${CJK}]|[${CJK}] +[${PUNCT}]`);
  assert.ok(tight.test('LayerNorm与RMSNorm'));
  assert.ok(tight.test('第{g}组'));
  assert.ok(stray.test('标准化， 所以'));
  assert.ok(!tight.test('LayerNorm 与 RMSNorm') && !stray.test('标准化，所以'));
});
