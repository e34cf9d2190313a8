// The `normlab` command as a user runs it: help and version, the figure list,
// `render` to stdout and to a file (the same bytes as renderFigure), and
// clear errors with exit code 2 for every kind of bad input. What the SVG shows
// is checked against the figure in Chromium (tests/browser/render.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderFigure } from '../../web/render/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const cli = join(root, pkg.bin.normlab);
const run = (...args) =>
  spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 60000, maxBuffer: 1 << 26 });

test('the package names the command, and --help and --version answer', () => {
  assert.equal(pkg.bin.normlab, 'bin/normlab.js');
  assert.ok(pkg.files.includes('bin/') && pkg.files.includes('web/render/'), 'the command and renderer are packed');
  const help = run('--help');
  assert.equal(help.status, 0);
  assert.match(help.stdout, /normlab render <tag>/);
  assert.match(help.stdout, /--lang/);
  assert.equal(run('--version').stdout.trim(), pkg.version);
  assert.equal(run().status, 0, 'no arguments prints the help');
});

test('normlab figures lists every figure with its attributes', async () => {
  const r = run('figures');
  assert.equal(r.status, 0);
  const lines = r.stdout.trim().split('\n');
  const { elements } = await import('../../web/elements.js');
  assert.deepEqual(
    lines.map((l) => l.split(/\s+/)[0]),
    Object.keys(elements),
  );
  assert.match(r.stdout, /^nl-bar-compare\s+.*\bvector\b/m);
  assert.match(r.stdout, /^nl-axis-cube\s+.*\bnum-groups\b/m);
});

test('render prints an SVG, and -o writes the same bytes renderFigure gives', async () => {
  const args = ['render', 'nl-spectral', 'steps=4', '--lang', 'zh', '--theme', 'dark'];
  const out = run(...args);
  assert.equal(out.status, 0, out.stderr);
  assert.match(out.stdout, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="\d+"/);
  assert.match(out.stdout, /<\/svg>\n$/);
  assert.match(out.stdout, /<desc>4 步 power iteration/, 'the description, in Chinese, after 4 steps');
  assert.match(out.stdout, /fill="#161a22"/, 'the dark background');
  const dir = mkdtempSync(join(tmpdir(), 'normlab-render-'));
  const file = join(dir, 'fig.svg');
  const written = run(...args, '-o', file);
  assert.equal(written.status, 0, written.stderr);
  assert.equal(written.stdout, '');
  assert.equal(readFileSync(file, 'utf8'), out.stdout);
  const direct = await renderFigure('nl-spectral', { steps: 4 }, { lang: 'zh', theme: 'dark' });
  assert.equal(direct.svg, out.stdout, 'the command and the function agree, byte for byte');
  assert.equal(direct.state.steps, 4);
});

test('bad input: a clear message naming what is wrong, exit code 2, no stack trace', () => {
  const cases = [
    [['render'], /needs a figure tag/],
    [['render', 'nl-nope'], /unknown figure "nl-nope"; one of nl-[a-z-]+, .*\bnl-bar-compare\b/],
    [['render', 'nl-bar-compare', 'values=1,2'], /nl-bar-compare has no attribute "values"; it takes vector/],
    [['render', 'nl-bar-compare', 'vector=1,x'], /nl-bar-compare: .*vector.*"1,x"/],
    [['render', 'nl-bar-compare', 'vector'], /expected attr=value, got "vector"/],
    [['render', 'nl-bar-compare', '--theme', 'sepia'], /theme must be "light" or "dark", got "sepia"/],
    [['render', 'nl-bar-compare', '--width', '12'], /width must be 200\.\.4000 px, got 12/],
    [['render', 'nl-bar-compare', '--lang'], /--lang needs a value/],
    [['render', 'nl-bar-compare', '--colour', 'red'], /unknown option --colour/],
    [['draw'], /unknown command "draw"/],
    [['render', 'nl-axis-cube', 'shape=2,3,5', 'method=group_norm', 'num-groups=2'], /nl-axis-cube: .*G = 2/],
  ];
  for (const [args, message] of cases) {
    const r = run(...args);
    assert.equal(r.status, 2, `${args.join(' ')}: exit code (stderr: ${r.stderr})`);
    assert.match(r.stderr, message, args.join(' '));
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    assert.equal(r.stdout, '', 'nothing half-written on stdout');
  }
});

test('a reader closing the pipe early does not crash the command', () => {
  const r = spawnSync('/bin/sh', ['-c', `"${process.execPath}" "${cli}" render nl-whitening | head -c 10`], {
    encoding: 'utf8',
    timeout: 60000,
  });
  assert.equal(r.stdout, '<svg xmlns');
  assert.doesNotMatch(r.stderr, /EPIPE|Error/);
});

test('rendering in Node leaves the language of other renders alone and can run in parallel', async () => {
  const [en, zh] = await Promise.all([
    renderFigure('nl-residual-turn', {}, { lang: 'en' }),
    renderFigure('nl-residual-turn', {}, { lang: 'zh' }),
  ]);
  assert.match(en.description, /^Adding u = /);
  assert.match(zh.description, /^把 u = /);
  assert.deepEqual(en.state, zh.state, 'the language changes words, not numbers');
});

test("the README's pictures of figures are what the command draws today", async () => {
  const { PICTURES, picture } = await import('../../scripts/gen-readme-figures.mjs');
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  for (const [file, args] of PICTURES) {
    assert.ok(readme.includes(`](docs/figures/${file})`), `README shows docs/figures/${file}`);
    assert.equal(
      readFileSync(join(root, 'docs/figures', file), 'utf8'),
      picture(args),
      `docs/figures/${file} is current: run node scripts/gen-readme-figures.mjs`,
    );
  }
});

test('normlab/render works when the figures were imported first, before any DOM existed', () => {
  const r = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `
    const { elements } = await import(${JSON.stringify(join(root, 'web/elements.js'))});
    const { renderFigure } = await import(${JSON.stringify(join(root, 'web/render/index.js'))});
    const a = await renderFigure('nl-residual-turn', { x: '3,4' });
    console.log(JSON.stringify({ n: Object.keys(elements).length, desc: a.description, svg: a.svg.startsWith('<svg') }));
  `,
    ],
    { encoding: 'utf8', timeout: 60000 },
  );
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.ok(out.svg);
  // u = (0, 1) added to x = (3, 4) turns it by atan2(5, 3) − atan2(4, 3) = 5.91°
  assert.match(out.desc, /^Adding u = \(0, 1\) to x = \(3, 4\) turns the direction by 5\.91°/);
});

test("the README's table of sections and figures matches the article page", () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const html = readFileSync(join(root, 'web/index.html'), 'utf8');
  const rows = [...readme.matchAll(/^\| [^|]+ \(`([\w-]+)`\) \| ([^|]+) \|/gm)].map((m) => [
    m[1],
    [...m[2].matchAll(/`(nl-[\w-]+)`/g)].map((t) => t[1]),
  ]);
  assert.ok(rows.length >= 12, `${rows.length} rows`);
  const inTable = new Set();
  for (const [id, tags] of rows) {
    const start = html.indexOf(`<section id="${id}">`);
    assert.ok(start >= 0, `section ${id} exists`);
    const section = html.slice(start, html.indexOf('</section>', start));
    const onPage = [...section.matchAll(/<(nl-[\w-]+)[\s>]/g)].map((m) => m[1]);
    assert.deepEqual(tags, onPage, `section ${id}: the README names the figures it holds, in order`);
    tags.forEach((t) => inTable.add(t));
  }
  const everyFigure = [...html.matchAll(/<figure class="figure" id="[\w-]+">\s*<(nl-[\w-]+)/g)].map((m) => m[1]);
  assert.deepEqual(
    everyFigure.filter((t) => !inTable.has(t)),
    [],
    'every figure of the page is in the table',
  );
});

test('renderState() says where a figure stands: a refused attribute, a drawing, its description', async () => {
  const { figureTags } = await import('../../web/render/index.js');
  await figureTags(); // the small document the figures run in, in Node
  const { elements } = await import('../../web/elements.js');
  const until = async (test) => {
    const t0 = Date.now();
    while (!test()) {
      assert.ok(Date.now() - t0 < 20000, 'the figure settles within 20 s');
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const bad = new elements['nl-spectral']();
  bad.setAttribute('steps', '99');
  document.append(bad);
  bad.connectedCallback();
  await until(() => bad.renderState().error);
  const refused = bad.renderState();
  assert.match(refused.error, /steps/, 'the message names the attribute');
  assert.equal(refused.loadError, null);
  assert.equal(refused.description, '', 'no description under an error');
  bad.remove();

  const code = new elements['nl-code-shapes']();
  document.append(code);
  code.connectedCallback();
  await until(() => code.state && !code.renderState().busy);
  const drawn = code.renderState();
  assert.equal(drawn.error, '');
  assert.ok(drawn.description.length > 20, `a description: "${drawn.description}"`);
  code.disconnectedCallback();
  code.remove();
});
