// Per-figure entry points: `normlab/define/<tag>` defines one figure and a bundler ships only the figures a
// page imports; defineElements(tags) defines only those tags. Sizes are measured with esbuild, minified and
// gzipped as a bundler would ship them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { figures } from '../../web/figures.manifest.js';

test('every figure has an entry that exports its class and imports without a DOM (Node, SSR)', async () => {
  const { elements } = await import('normlab/elements');
  for (const f of figures) {
    const m = await import(`normlab/define/${f.tag}`);
    assert.equal(m[f.className], elements[f.tag], f.tag);
  }
});

test('defineElements(tags) defines only those tags, once; an unknown tag is refused by name', async () => {
  const { defineElements } = await import('normlab/elements');
  const defined = new Map();
  const registry = { get: (t) => defined.get(t), define: (t, c) => defined.set(t, c) };
  defineElements(['nl-bar-compare', 'nl-axis-cube'], registry);
  assert.deepEqual([...defined.keys()], ['nl-bar-compare', 'nl-axis-cube']);
  defineElements(['nl-bar-compare'], registry); // again: nothing new, no throw
  assert.equal(defined.size, 2);
  defineElements(registry); // the older spelling: every figure
  assert.equal(defined.size, figures.length);
  assert.throws(
    () => defineElements(['nl-bar-compare', 'nl-nope'], registry),
    /defineElements: unknown figure "?nl-nope/,
  );
});

async function gzBytes(source) {
  const r = await build({
    stdin: { contents: source, resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    logLevel: 'silent',
    platform: 'browser',
    external: ['*.wasm'],
  });
  const js = r.outputFiles.map((f) => f.text).join('');
  return { gz: gzipSync(js, { level: 9 }).length, js };
}

// Issue 24's target: at most 60 kB. Each figure carries its own strings (NlName.strings), so the pair ships its two
// figures' strings and the shared ones (web/i18n/en.js, zh.js: common), not all 23 figures' in both languages:
// 68,272 B gzip with the whole catalogs, 42,488 B with the strings per figure (esbuild 0.28).
test('a page with two figures ships only those two and their strings: at most 60 kB of gzip JavaScript', async () => {
  const two = await gzBytes("import 'normlab/define/nl-bar-compare'; import 'normlab/define/nl-axis-cube';");
  const all = await gzBytes("import 'normlab/auto';");
  console.log(`two figures: ${two.gz} B gzip; every figure: ${all.gz} B gzip`);
  assert.ok(two.gz <= 60_000, `two figures: ${two.gz} B gzip`);
  assert.ok(two.gz < all.gz * 0.5, `two figures ${two.gz} B against every figure ${all.gz} B`);
  assert.ok(two.js.includes('nl-bar-compare') && two.js.includes('nl-axis-cube'));
  for (const other of ['nl-depth-training', 'nl-code-shapes', 'nl-whitening'])
    assert.ok(!two.js.includes(other), `${other} is not in the two-figure bundle`);
  // the strings: the pair's own (English names as written; esbuild escapes the Chinese) and no other figure's
  const { elements } = await import('normlab/elements');
  const name = (tag) => elements[tag].strings.en.name;
  for (const tag of ['nl-bar-compare', 'nl-axis-cube']) assert.ok(two.js.includes(name(tag)), `${tag}'s strings`);
  for (const tag of Object.keys(elements).filter((t) => t !== 'nl-bar-compare' && t !== 'nl-axis-cube'))
    assert.ok(!two.js.includes(name(tag)), `${tag}'s strings are not in the two-figure bundle`);
});
