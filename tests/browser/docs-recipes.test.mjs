// The docs-site recipes compile (esbuild) and import normlab on the client
// only. The sites themselves are built from the packed tarball in
// tests/package/package.test.mjs (VitePress, MkDocs Material).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('VitePress and Docusaurus recipes compile and import normlab on the client only', () => {
  for (const [file, loader] of [
    ['docs/examples/vitepress/.vitepress/theme/index.js', 'js'],
    ['docs/examples/vitepress/.vitepress/config.js', 'js'],
    ['docs/examples/docusaurus/NormlabFigure.jsx', 'jsx'],
  ]) {
    const src = readFileSync(root + file, 'utf8');
    assert.doesNotThrow(() => transformSync(src, { loader, format: 'esm' }), file);
  }
  assert.match(
    readFileSync(root + 'docs/examples/vitepress/.vitepress/theme/index.js', 'utf8'),
    /if \(!import\.meta\.env\.SSR\)[\s\S]*import\('normlab\/elements'\)/,
  );
  assert.match(
    readFileSync(root + 'docs/examples/docusaurus/NormlabFigure.jsx', 'utf8'),
    /<BrowserOnly[\s\S]*import\('normlab\/elements'\)|import\('normlab\/elements'\)[\s\S]*<BrowserOnly/,
  );
});
