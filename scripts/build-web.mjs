// Bundle the third-party code the figures use into dist/vendor/ as ES
// modules, so pages need no bundler and no CDN. Skips when up to date.
import { build } from 'esbuild';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundles = [{ entry: 'scripts/vendor/prism.cjs', out: 'dist/vendor/prism.js' }];

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
