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
    ['docs/examples/docusaurus/normlab.client.js', 'js'],
  ]) {
    const src = readFileSync(root + file, 'utf8');
    assert.doesNotThrow(() => transformSync(src, { loader, format: 'esm' }), file);
  }
  assert.match(
    readFileSync(root + 'docs/examples/vitepress/.vitepress/theme/index.js', 'utf8'),
    /if \(!import\.meta\.env\.SSR\)[\s\S]*import\('normlab\/elements'\)/,
  );
  // the client module imports the figures only where there is a DOM (never during the server render)
  assert.match(
    readFileSync(root + 'docs/examples/docusaurus/normlab.client.js', 'utf8'),
    /if \(ExecutionEnvironment\.canUseDOM\) \{\s*(\/\/.*\s*)*import\('normlab\/define\/nl-/,
  );
});
