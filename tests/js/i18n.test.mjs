// The string catalogs: the same keys in every language, and Chinese written by
// the rules of docs/glossary.md (no space between Chinese characters, one space
// between Chinese and Latin letters, digits or a {placeholder}). Every string is
// checked: the shared ones (web/i18n/en.js, zh.js) and each figure's own
// (`NlName.strings` in its module), gathered into one catalog per language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import enShared from '../../web/i18n/en.js';
import zhShared from '../../web/i18n/zh.js';
import { collectCatalog, lookup, registerLocale } from '../../web/i18n/index.js';
import { elements } from '../../web/elements.js';
import { figures } from '../../web/figures.manifest.js';

const classes = Object.values(elements);
const en = collectCatalog('en', classes);
const zh = collectCatalog('zh', classes);

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

test('every figure has its strings, with a name, in English and Chinese, written in one place', () => {
  assert.equal(classes.length, figures.length);
  for (const f of figures) {
    const Cls = elements[f.tag];
    assert.equal(Cls.catalog, f.catalog, f.tag);
    assert.ok(en[f.catalog]?.name && zh[f.catalog]?.name, `${f.tag}: a name in en and zh`);
    if (Cls.strings) {
      assert.deepEqual(Object.keys(Cls.strings).sort(), ['en', 'zh'], `${f.tag}: its own strings in en and zh`);
      // a section both in the figure and in en.js/zh.js would be two copies that drift apart
      for (const [lang, shared] of [
        ['en', enShared],
        ['zh', zhShared],
      ])
        assert.equal(shared[f.catalog], undefined, `${f.tag}: its strings are in its class and in ${lang}.js`);
    }
  }
  assert.equal(new Set(figures.map((f) => f.catalog)).size, figures.length, 'one section per figure');
  assert.ok(enShared.common && zhShared.common, 'the shared strings');
});

test("lookup: a registered language overrides a figure's own strings, then falls back to them, common, English", () => {
  const own = { en: { a: 'A', b: 'B' }, zh: { a: '甲' } };
  assert.equal(lookup('en', 'nowhere', own, 'a'), 'A');
  assert.equal(lookup('zh', 'nowhere', own, 'a'), '甲');
  assert.equal(lookup('zh', 'nowhere', own, 'b'), 'B', 'a key zh lacks is English');
  assert.equal(lookup('zh', 'nowhere', own, 'loading'), zhShared.common.loading, 'common in the language');
  assert.equal(lookup('en', 'nowhere', own, 'no-such-key'), undefined);
  registerLocale('xq', { common: { loading: 'xq-loading' }, nowhere: { a: 'xq-A' } });
  assert.equal(lookup('xq', 'nowhere', own, 'a'), 'xq-A', 'the registered section wins');
  assert.equal(lookup('xq', 'nowhere', own, 'b'), 'B', 'then the figure (in English: it has no xq)');
  assert.equal(lookup('xq', 'nowhere', own, 'loading'), 'xq-loading');
  assert.equal(lookup('xq', 'nowhere', own, 'badChoice'), enShared.common.badChoice);
  // registering zh again (a site fixing one string) overrides the figure's own Chinese for that key only
  const zhBefore = collectCatalog('zh');
  registerLocale('zh', { ...zhBefore, nowhere: { a: '乙' } });
  try {
    assert.equal(lookup('zh', 'nowhere', own, 'a'), '乙');
    const name = lookup('zh', 'barCompare', elements['nl-bar-compare'].strings, 'name');
    assert.equal(name, zh.barCompare.name, 'other figures keep their own Chinese');
  } finally {
    registerLocale('zh', zhBefore);
  }
});

test('a figure speaks its own strings in Node: t() in both languages', () => {
  const Cls = elements['nl-spectral'];
  // t() as the element runs it, with only what it reads (no DOM here): its language and its class
  const t = (lang, key, vars) => Cls.prototype.t.call({ lang, constructor: Cls }, key, vars);
  assert.equal(t('zh', 'name'), zh.spectral.name);
  assert.equal(t('en', 'name'), en.spectral.name);
  assert.notEqual(zh.spectral.name, en.spectral.name);
  assert.equal(t('zh', 'loading'), zhShared.common.loading, 'common strings still reach the figure');
  assert.equal(t('en', 'no-such-key'), 'no-such-key');
});

test('web/i18n/en.js and zh.js hold only the strings every figure shares; each figure carries its own', () => {
  assert.deepEqual(Object.keys(enShared), ['common']);
  assert.deepEqual(Object.keys(zhShared), ['common']);
  for (const f of figures) assert.ok(elements[f.tag].strings?.en?.name, `${f.tag}: NlName.strings in its module`);
});
