// Bundle the third-party code the figures use into dist/vendor/ as ES
// modules, so pages need no bundler and no CDN. Skips when up to date.
import { build } from 'esbuild';
import { cpSync, existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
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

// The single-file build: every figure and the WASM core (inlined as base64) in
// one classic script, for pages opened straight from disk (file://).
const single = root + 'dist/normlab.single.js';
const webFiles = [root + 'dist/normlab-core.wasm', root + 'dist/normlab-core.mjs', root + 'dist/vendor/prism.js'];
const newest = (dir) => {
  let t = 0;
  for (const f of readdirRecursive(dir)) t = Math.max(t, statSync(f).mtimeMs);
  return t;
};
function readdirRecursive(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? readdirRecursive(`${dir}/${e.name}`) : [`${dir}/${e.name}`]);
}
const inputTime = Math.max(newest(root + 'web'), ...webFiles.map((f) => statSync(f).mtimeMs), statSync(fileURLToPath(import.meta.url)).mtimeMs);
// One bundle of the web sources, rebuilt when any input is newer than it.
async function bundleWeb(entry, out, options) {
  if (existsSync(out) && statSync(out).mtimeMs >= inputTime) return;
  await build({ entryPoints: [root + entry], outfile: out, bundle: true, minify: true, target: 'es2020', logLevel: 'error', ...options });
  console.log(`build-web: ${out.slice(root.length)} (${statSync(out).size} bytes)`);
}

await bundleWeb('web/auto.js', single, {
  format: 'iife',
  define: { __NORMLAB_INLINE_WASM__: JSON.stringify(readFileSync(root + 'dist/normlab-core.wasm').toString('base64')) },
  banner: { js: '/* normlab single-file build: the figures and the WASM core in one classic script. */' },
});

// The article page as one minified module: one request instead of a waterfall
// of 25 imports. KaTeX and Prism stay separate files, loaded when needed.
await bundleWeb('web/page.js', root + 'dist/page.js', {
  format: 'esm',
  plugins: [{
    name: 'vendor-external',
    setup(b) {
      b.onResolve({ filter: /dist\/vendor\/(prism|katex)\.js$/ }, (a) => ({ path: './vendor/' + a.path.split('/').pop(), external: true }));
    },
  }],
  banner: { js: '/* normlab article page: the figures and the page script (source: web/page.js). */' },
});
