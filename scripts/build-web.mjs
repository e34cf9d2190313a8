// Bundle the third-party code the figures use into dist/vendor/ as ES
// modules, so pages need no bundler and no CDN. Skips when up to date.
import { build } from 'esbuild';
import { cpSync, existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundles = [
  { entry: 'scripts/vendor/prism.cjs', out: 'dist/vendor/prism.js' },
  { entry: 'scripts/vendor/katex.mjs', out: 'dist/vendor/katex.js' },
];

for (const { entry, out } of bundles) {
  const target = root + out;
  const inputs = [root + entry, root + 'package-lock.json', fileURLToPath(import.meta.url)];
  if (existsSync(target) && inputs.every((f) => statSync(f).mtimeMs <= statSync(target).mtimeMs)) continue;
  await build({
    entryPoints: [root + entry],
    outfile: target,
    bundle: true,
    format: 'esm',
    minify: true,
    legalComments: 'eof',
    target: 'es2020',
    logLevel: 'warning',
  });
  console.log(`build-web: ${out} (${statSync(target).size} bytes)`);
}

// KaTeX's stylesheet and fonts, next to its module, for the article page.
const katexDir = root + 'dist/vendor/katex/';
if (!existsSync(katexDir + 'katex.min.css')) {
  cpSync(root + 'node_modules/katex/dist/katex.min.css', katexDir + 'katex.min.css');
  cpSync(root + 'node_modules/katex/dist/fonts', katexDir + 'fonts', { recursive: true });
  console.log('build-web: dist/vendor/katex/ (stylesheet and fonts)');
}
