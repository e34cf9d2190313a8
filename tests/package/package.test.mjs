// The package as users get it: `npm pack` ships only what they need (size
// printed), the tarball installs into a fresh Vite project, `vite build` works,
// and the built page renders the figures in Chromium; server-rendering docs
// sites can import the entries in plain Node.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { launch } from '../../scripts/browser.mjs';
import {
  devServer,
  layoutShift,
  recordProblems,
  serveDir,
  transformerTrains,
  watchLayoutShift,
  assertTrained,
} from './helpers.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'normlab-package-'));
let tarball, browser;

before(async () => {
  const out = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8' }),
  );
  tarball = join(work, out[0].filename);
  browser = await launch();
});
after(() => browser?.close());

test('npm pack ships only what users need', () => {
  const [info] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: root, encoding: 'utf8' }));
  const files = info.files.map((f) => f.path);
  console.log(`npm pack: ${files.length} files, ${info.size} bytes packed, ${info.unpackedSize} bytes unpacked`);
  for (const need of [
    'dist/normlab-core.wasm',
    'dist/normlab-train.wasm',
    'dist/normlab-core.mjs',
    'dist/normlab-worker.js',
    'dist/normlab.single.js',
    'dist/vendor/prism.js',
    'web/core/normlab.js',
    'web/core/normlab.d.ts',
    'web/elements.js',
    'web/elements.d.ts',
    'web/react.d.ts',
    'web/preact.d.ts',
    'web/solid.d.ts',
    'web/vue.d.ts',
    'web/auto.js',
    'web/styles/normlab.css',
    'bin/normlab.js',
    'web/render/index.js',
    'web/render/index.d.ts',
    'web/render/dom.js',
    'web/render/css.js',
    'CHANGELOG.md',
  ]) {
    assert.ok(files.includes(need), `ships ${need}`);
  }
  for (const f of files)
    assert.ok(!/^(cpp|tests|scripts|build|node_modules)\//.test(f) && !f.includes('katex'), `does not ship ${f}`);
  const wasm = readFileSync(join(root, 'dist/normlab-core.wasm'));
  const glue = readFileSync(join(root, 'dist/normlab-core.mjs'));
  const train = readFileSync(join(root, 'dist/normlab-train.wasm'));
  const gz = (b) => gzipSync(b, { level: 9 }).length;
  console.log(
    `core: wasm ${wasm.length} bytes (${gz(wasm)} gzip), glue ${glue.length} bytes (${gz(glue)} gzip); ` +
      `training module ${train.length} bytes (${gz(train)} gzip)`,
  );
  // Issue 12's budget: what every page with a figure downloads, the core and its glue, at most 95 KB gzip.
  assert.ok(gz(wasm) + gz(glue) <= 95_000, `core + glue: ${gz(wasm) + gz(glue)} bytes gzip, over the 95 KB budget`);
});

test('server-rendering docs sites can import normlab and normlab/elements in plain Node', async () => {
  const dir = join(work, 'ssr');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'ssr-check', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], {
    cwd: dir,
  });
  const out = execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `
    const api = await import('normlab');
    const el = await import('normlab/elements');
    el.defineElements();
    const core = await api.loadCore();
    console.log(JSON.stringify({ elements: Object.keys(el.elements), ln: Array.from(core.layerNorm([1, 2, 3], { eps: 0 })) }));
  `,
    ],
    { cwd: dir, encoding: 'utf8' },
  );
  const r = JSON.parse(out);
  const { elements } = await import('../../web/elements.js');
  assert.deepEqual(r.elements, Object.keys(elements), 'the installed package holds every figure of the repository');
  assert.ok(Math.abs(r.ln[2] - Math.sqrt(1.5)) < 1e-6);
});

test('npx normlab from the installed tarball: --help, and render writes an SVG of the figure', () => {
  const dir = join(work, 'ssr'); // installed by the test above
  const npx = (...args) =>
    execFileSync('npx', ['--no-install', 'normlab', ...args], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.match(npx('--help'), /normlab render <tag>/);
  const svg = npx('render', 'nl-residual-turn', 'x=3,4', '--lang', 'zh');
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  // adding u = (0, 1) to x = (3, 4) turns it by atan2(5, 3) − atan2(4, 3) = 59.036° − 53.130° = 5.91°
  assert.match(
    svg,
    /<desc>把 u = \(0, 1\) 加到 x = \(3, 4\) 上，方向转过 5\.91°/,
    'the state asked for, described in Chinese',
  );
  const api = execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `
    const { renderFigure } = await import('normlab/render');
    const r = await renderFigure('nl-softmax-sharpness', { factor: 0 });
    console.log(JSON.stringify(r.state.weights));
  `,
    ],
    { cwd: dir, encoding: 'utf8' },
  );
  console.log(`normlab/render from the tarball: softmax at factor 0 → ${api.trim()}`);
  const w = JSON.parse(api);
  assert.ok(Array.isArray(w) && w.every((v) => Math.abs(v - 1 / w.length) < 1e-6), 'factor 0 ties every weight at 1/n');
});

/** <nl-depth-training> on `page` scrolled into view, its state awaited, and one Step pressed: the steps its copies took. */
async function trains(page) {
  const fig = page.locator('nl-depth-training');
  await fig.scrollIntoViewIfNeeded();
  await page.waitForFunction(
    () => {
      const el = document.querySelector('nl-depth-training');
      if (/could not/.test(el?.shadowRoot?.textContent ?? '')) throw new Error(el.shadowRoot.textContent);
      return el?.state;
    },
    null,
    { timeout: 30000 },
  );
  return fig.evaluate((el) => {
    el.stepOnce();
    const lengths = new Set(el.state.variants.map((v) => v.loss.length));
    if (el.state.variants.some((v) => !(v.loss[0] > 0)))
      throw new Error(`no first loss: ${JSON.stringify(el.state.variants)}`);
    return lengths.size === 1 ? [...lengths][0] : [...lengths];
  });
}

/** Open `url`, wait for each figure's state; returns the page errors and the .wasm requests. */
async function figuresRender(url, tags, more) {
  const page = await browser.newPage();
  const errors = [],
    wasm = [];
  recordProblems(page, errors); // a 404 the loader causes would be a console error: none is allowed
  page.on('response', (r) => r.url().endsWith('.wasm') && wasm.push(`${r.status()} ${new URL(r.url()).pathname}`));
  await page.goto(url);
  const states = {};
  for (const tag of tags) {
    await page.locator(tag).first().scrollIntoViewIfNeeded();
    await page.waitForFunction(
      (t) => {
        const el = document.querySelector(t);
        if (/could not/.test(el?.shadowRoot?.textContent ?? '')) throw new Error(el.shadowRoot.textContent);
        return el?.state;
      },
      tag,
      { timeout: 30000 },
    );
    states[tag] = await page.evaluate((t) => document.querySelector(t).state, tag);
  }
  const extra = more ? await more(page) : undefined;
  await page.close();
  return { errors, wasm, states, extra };
}

test('VitePress: the recipe in docs/examples/vitepress builds (server render included) and the figure renders', async () => {
  const dir = join(work, 'vitepress-site');
  mkdirSync(dir, { recursive: true });
  cpSync(join(root, 'docs/examples/vitepress/.vitepress'), join(dir, '.vitepress'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'vitepress-site', private: true, type: 'module' }));
  writeFileSync(
    join(dir, 'index.md'),
    '# normlab in VitePress\n\n<nl-bar-compare vector="1,2,3"></nl-bar-compare>\n\nText after the figure stays put.\n',
  );
  writeFileSync(join(dir, 'training.md'), '# Training\n\n<nl-transformer-training></nl-transformer-training>\n');
  execFileSync(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', 'vitepress@1.6.4', tarball],
    { cwd: dir },
  );
  execFileSync(join(dir, 'node_modules/.bin/vitepress'), ['build', '.'], { cwd: dir, stdio: 'ignore' });
  const { server, port } = serveDir(join(dir, '.vitepress/dist'));
  try {
    const page = await browser.newPage();
    const errors = [],
      wasm = [];
    recordProblems(page, errors);
    page.on('request', (r) => r.url().endsWith('.wasm') && wasm.push(new URL(r.url()).pathname));
    await watchLayoutShift(page);
    await page.goto(`http://127.0.0.1:${await port}/`);
    await page.locator('nl-bar-compare').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelector('nl-bar-compare')?.state?.current, null, {
      timeout: 20000,
    });
    assert.deepEqual(await page.evaluate(() => document.querySelector('nl-bar-compare').state.input), [1, 2, 3]);
    // a page without the training figure downloads the core only
    assert.equal(wasm.length, 1, `${wasm}`);
    assert.match(wasm[0], /normlab-core[.\w-]*\.wasm$/);
    assert.deepEqual(errors, []);
    const shift = await layoutShift(page);
    console.log(`vitepress build: layout shift ${shift.toFixed(4)}`);
    assert.ok(shift < 0.01, `the figure starting moved the page: layout shift ${shift}`);
    await page.close();
    // the training figure's page: its Worker starts from the bundled worker script, same-origin
    const training = await browser.newPage();
    const trainingErrors = [],
      trainingWasm = [];
    recordProblems(training, trainingErrors);
    training.on(
      'response',
      (r) => r.url().endsWith('.wasm') && trainingWasm.push(`${r.status()} ${new URL(r.url()).pathname}`),
    );
    await training.goto(`http://127.0.0.1:${await port}/training.html`);
    assertTrained(await transformerTrains(training), 'worker', trainingWasm, 'vitepress build');
    assert.deepEqual(trainingErrors, []);
    await training.close();
  } finally {
    server.kill();
  }
});

test('the tarball in a fresh Vite project: vite build, then the built page renders the figures', async () => {
  const dir = join(work, 'vite-app');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'vite-app', private: true, type: 'module' }));
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>normlab in Vite</title></head>
<body><main><h1>normlab in a Vite app</h1>
<nl-bar-compare vector="1,2,3"></nl-bar-compare>
<nl-axis-cube method="batch_norm"></nl-axis-cube>
<nl-code-shapes></nl-code-shapes>
<nl-depth-training depth="4" steps="20"></nl-depth-training>
<nl-transformer-training></nl-transformer-training>
</main><script type="module" src="/main.js"></script></body></html>`,
  );
  writeFileSync(
    join(dir, 'main.js'),
    `import { defineElements } from 'normlab/elements';\nimport 'normlab/styles.css';\ndefineElements();\n`,
  );
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], {
    cwd: dir,
  });
  // Vite itself comes from this repository's devDependencies: the test needs no further download.
  execFileSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: dir,
    stdio: 'inherit',
  });
  const { server, port: served } = serveDir(join(dir, 'dist'));
  try {
    const port = await served;
    const page = await browser.newPage();
    const errors = [],
      wasm = [];
    recordProblems(page, errors);
    page.on('response', (r) => r.url().endsWith('.wasm') && wasm.push(`${r.status()} ${new URL(r.url()).pathname}`));
    await watchLayoutShift(page);
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.waitForFunction(() => document.querySelector('nl-bar-compare')?.state, null, { timeout: 20000 });
    const shift = await layoutShift(page);
    console.log(`vite build: layout shift ${shift.toFixed(4)}`);
    assert.ok(shift < 0.01, `the figures starting moved the page: layout shift ${shift}`);
    for (const tag of ['nl-bar-compare', 'nl-axis-cube', 'nl-code-shapes']) {
      await page.locator(tag).scrollIntoViewIfNeeded();
      await page.waitForFunction((t) => document.querySelector(t)?.state, tag, { timeout: 20000 });
    }
    const s = await page.evaluate(() => document.querySelector('nl-axis-cube').state);
    assert.equal(s.members.length, 12, 'BatchNorm group of the default 3x4x6 tensor: one channel over B x T');
    assert.deepEqual(await trains(page), 1);
    assert.ok(
      wasm.some((w) => /^200 .*normlab-train[.\w-]*\.wasm$/.test(w)),
      `the training module was served: ${wasm}`,
    );
    // Vite emits the worker script as an asset beside the page: a same-origin Worker
    assertTrained(await transformerTrains(page), 'worker', wasm, 'vite build');
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    server.kill();
  }
});

test('dev servers need no configuration: vite and vitepress dev compute the figures', async () => {
  // The Vite app and the VitePress site of the tests above, run as an author runs them while writing.
  const app = devServer(join(work, 'vite-app'), process.execPath, [
    join(root, 'node_modules/vite/bin/vite.js'),
    '--port',
    '0',
    '--strictPort',
    'false',
  ]);
  try {
    const r = await figuresRender(await app.url, ['nl-bar-compare', 'nl-axis-cube', 'nl-code-shapes'], async (p) => [
      await trains(p),
      await transformerTrains(p),
    ]);
    assert.deepEqual(r.errors, []);
    assert.deepEqual(r.states['nl-bar-compare'].input, [1, 2, 3]);
    assert.ok(
      r.wasm.length > 0 && r.wasm.every((w) => w.startsWith('200 ')),
      `every .wasm request found its file at the first address: ${r.wasm}`,
    );
    assert.equal(r.extra[0], 1, 'the training figure took a step with the training module');
    // the pre-bundled module finds the worker script in node_modules/normlab/dist/, same-origin
    assertTrained(r.extra[1], 'worker', r.wasm, 'vite dev');
    assert.ok(
      r.wasm.some((w) => /^200 .*normlab-train\.wasm$/.test(w)),
      `the training module was served: ${r.wasm}`,
    );
    console.log(`vite dev: .wasm requests ${r.wasm.join(', ')}`);
  } finally {
    app.server.kill();
  }
  const site = devServer(join(work, 'vitepress-site'), join(work, 'vitepress-site/node_modules/.bin/vitepress'), [
    'dev',
    '.',
    '--port',
    '0',
  ]);
  try {
    const r = await figuresRender(await site.url, ['nl-bar-compare']);
    assert.deepEqual(r.errors, []);
    assert.deepEqual(r.states['nl-bar-compare'].input, [1, 2, 3]);
    console.log(`vitepress dev: .wasm requests ${r.wasm.join(', ')}`);
    assert.ok(
      r.wasm.length === 1 && r.wasm[0].startsWith('200 '),
      `one .wasm request, found at the first address: ${r.wasm}`,
    );
    // the training page: the worker script from .vitepress/cache/deps' installed package, same-origin
    const t = await figuresRender(`${await site.url}training.html`, [], transformerTrains);
    assert.deepEqual(t.errors, []);
    assert.ok(
      t.wasm.every((w) => w.startsWith('200 ')),
      `every .wasm found at the first address: ${t.wasm}`,
    );
    assertTrained(t.extra, 'worker', t.wasm, 'vitepress dev');
  } finally {
    site.server.kill();
  }
});

test('MkDocs Material (Debian mkdocs 1.4, material 8.2): the recipe builds a real site under a sub-path; instant navigation brings figures to life with one .wasm download', async () => {
  const dir = join(work, 'mkdocs-site');
  const docs = join(dir, 'docs');
  mkdirSync(join(docs, 'javascripts'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'mkdocs-site', private: true }));
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], {
    cwd: dir,
  });
  // The recipe as the README tells it: its three files, and a copy of the package's web/ and dist/.
  cpSync(join(root, 'docs/examples/mkdocs/mkdocs.yml'), join(dir, 'mkdocs.yml'));
  for (const f of ['normlab-loader.js', 'normlab-mkdocs.js'])
    cpSync(join(root, 'docs/examples/mkdocs', f), join(docs, 'javascripts', f));
  for (const d of ['web', 'dist'])
    cpSync(join(dir, 'node_modules/normlab', d), join(docs, 'javascripts/normlab', d), { recursive: true });
  writeFileSync(
    join(docs, 'index.md'),
    '# Bars\n\n<nl-bar-compare vector="1,2,3"></nl-bar-compare>\n\n[The cube](cube.md)\n',
  );
  writeFileSync(
    join(docs, 'cube.md'),
    '# Cube\n\n<nl-axis-cube method="layer_norm"></nl-axis-cube>\n\n[Back to the bars](index.md)\n',
  );
  writeFileSync(join(docs, 'training.md'), '# Training\n\n<nl-transformer-training></nl-transformer-training>\n');
  execFileSync('mkdocs', ['build', '--quiet', '--site-dir', join(dir, 'out/proj')], { cwd: dir });
  const { server, port: served } = serveDir(join(dir, 'out'));
  try {
    const port = await served;
    const page = await browser.newPage();
    const errors = [],
      wasm = [];
    let loads = 0;
    recordProblems(page, errors);
    page.on('load', () => loads++);
    page.on('request', (r) => r.url().endsWith('.wasm') && wasm.push(r.url()));
    await watchLayoutShift(page);
    await page.goto(`http://127.0.0.1:${port}/proj/`);
    await page.waitForFunction(() => document.querySelector('nl-bar-compare')?.state?.current, null, {
      timeout: 30000,
    });
    const shift = await layoutShift(page);
    console.log(`mkdocs: layout shift ${shift.toFixed(4)}`);
    assert.ok(shift < 0.01, `the figure starting moved the page: layout shift ${shift}`);
    assert.deepEqual(await page.evaluate(() => document.querySelector('nl-bar-compare').state.input), [1, 2, 3]);
    for (const [link, tag] of [
      ['The cube', 'nl-axis-cube'],
      ['Back to the bars', 'nl-bar-compare'],
      ['The cube', 'nl-axis-cube'],
    ]) {
      await page.getByRole('link', { name: link }).first().click();
      await page.waitForFunction((t) => document.querySelector(t)?.state, tag, { timeout: 30000 });
    }
    assert.equal(loads, 1, 'instant navigation: one document load for three page changes');
    assert.equal(wasm.length, 1, `one .wasm download: ${wasm}`);
    assert.match(wasm[0], /\/proj\/javascripts\/normlab\/dist\/normlab-core\.wasm$/);
    assert.deepEqual(errors, []);
    await page.close();
    // the training page: the worker script from the site's copy of dist/, same-origin
    const t = await figuresRender(`http://127.0.0.1:${port}/proj/training/`, [], transformerTrains);
    assert.deepEqual(t.errors, []);
    assert.ok(
      t.wasm.every((w) => /^200 \/proj\/javascripts\/normlab\/dist\/normlab-(core|train)\.wasm$/.test(w)),
      `${t.wasm}`,
    );
    assertTrained(t.extra, 'worker', t.wasm, 'mkdocs');
  } finally {
    server.kill();
  }
});
