// The README's pictures of figures (docs/figures/*.svg), made by the packaged
// command exactly as a user would run it: `normlab render <tag> ... -o file`.
// `node scripts/gen-readme-figures.mjs` rewrites them; tests/js/render.test.mjs
// checks that they are current.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** [file, arguments to `normlab render`] */
export const PICTURES = [
  ['bar-compare.svg', ['nl-bar-compare', 'vector=2,-1,3']],
  ['axis-cube.svg', ['nl-axis-cube', 'method=group_norm', 'num-groups=2']],
  ['spectral.zh.dark.svg', ['nl-spectral', 'steps=3', '--lang', 'zh', '--theme', 'dark']],
];

/** Run the command for one picture and return the SVG it prints. */
export function picture(args) {
  const r = spawnSync(process.execPath, [root + 'bin/normlab.js', 'render', ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`normlab render ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(root + 'docs/figures', { recursive: true });
  for (const [file, args] of PICTURES) {
    const out = root + 'docs/figures/' + file;
    const r = spawnSync(process.execPath, [root + 'bin/normlab.js', 'render', ...args, '-o', out], {
      stdio: 'inherit',
    });
    if (r.status !== 0) process.exit(r.status ?? 1);
    console.log(`docs/figures/${file}: ${readFileSync(out).length} bytes`);
  }
}
