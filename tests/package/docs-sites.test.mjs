// Docusaurus 3 and Astro 5 sites built from the packed tarball, as an author
// builds them: the recipes in docs/examples/, a production build served under
// /proj/, and the dev server with no normlab-specific configuration, each
// checked in Chromium. The two sites install in parallel (npm's network and
// disk time overlap); Astro's tests run while Docusaurus is still installing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from '../../scripts/browser.mjs';
import {
  devServer,
  freePort,
  layoutShift,
  recordProblems,
  run,
  serveDir,
  transformerTrains,
  watchLayoutShift,
  assertTrained,
} from './helpers.mjs';

const DOCUSAURUS = '3.10.2'; // latest 3.x (npm view @docusaurus/core version)
const REACT = '19.3.1';
const ASTRO = '5.18.2'; // latest 5.x; engines: node 18.20.8 || ^20.3.0 || >=22 (Astro 6+ needs Node 22)

const root = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'normlab-docs-sites-'));
const seconds = (t0) => ((Date.now() - t0) / 1000).toFixed(1);
let browser;
const installs = {};

const npmInstall = (dir, packages) => {
  const t0 = Date.now();
  const done = run(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...packages],
    dir,
  ).then(() => console.log(`npm install in ${dir.slice(work.length + 1)}: ${seconds(t0)} s`));
  done.catch(() => {}); // awaited (and reported) by the test that needs it
  return done;
};

/** A page that records its errors, document loads and .wasm responses. */
async function openPage(url) {
  const page = await browser.newPage();
  const seen = { errors: [], wasm: [], loads: 0 };
  recordProblems(page, seen.errors); // a 404 the loader causes would be a console error: none is allowed
  page.on('load', () => seen.loads++);
  page.on('response', (r) => r.url().endsWith('.wasm') && seen.wasm.push(`${r.status()} ${new URL(r.url()).pathname}`));
  await watchLayoutShift(page);
  await page.goto(url);
  return { page, seen };
}

/** Wait until the first `tag` on the page has computed; returns its state. A shown load error fails at once. */
async function computed(page, tag) {
  await page.locator(tag).first().scrollIntoViewIfNeeded({ timeout: 60000 });
  await page.waitForFunction(
    (t) => {
      const el = document.querySelector(t);
      if (/could not/.test(el?.shadowRoot?.textContent ?? '')) throw new Error(el.shadowRoot.textContent);
      return el?.state?.current ?? el?.state?.members;
    },
    tag,
    { timeout: 60000 },
  );
  return page.evaluate((t) => document.querySelector(t).state, tag);
}

before(async () => {
  const out = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8' }),
  );
  const tarball = join(work, out[0].filename);
  for (const [name, type, packages] of [
    ['astro-site', 'module', [`astro@${ASTRO}`]],
    [
      'docusaurus-site',
      undefined,
      [
        `@docusaurus/core@${DOCUSAURUS}`,
        `@docusaurus/preset-classic@${DOCUSAURUS}`,
        `react@${REACT}`,
        `react-dom@${REACT}`,
      ],
    ],
  ]) {
    mkdirSync(join(work, name), { recursive: true });
    writeFileSync(join(work, name, 'package.json'), JSON.stringify({ name, private: true, type }));
    installs[name] = npmInstall(join(work, name), [...packages, tarball]);
  }
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await Promise.allSettled(Object.values(installs));
  rmSync(work, { recursive: true, force: true }); // about 500 MB of node_modules
});

// ---- Astro ----------------------------------------------------------------

test('Astro 5: the recipe page in docs/examples/astro builds under /proj/ and the built page computes the figure', async () => {
  const dir = join(work, 'astro-site');
  await installs['astro-site'];
  mkdirSync(join(dir, 'src/pages'), { recursive: true });
  writeFileSync(
    join(dir, 'astro.config.mjs'),
    `import { defineConfig } from 'astro/config';\n\nexport default defineConfig({ base: '/proj' });\n`,
  );
  cpSync(join(root, 'docs/examples/astro/index.astro'), join(dir, 'src/pages/index.astro'));
  const t0 = Date.now();
  const log = await run(join(dir, 'node_modules/.bin/astro'), ['build', '--outDir', 'out/proj'], dir);
  console.log(`astro build: ${seconds(t0)} s`);
  const warnings = log.split('\n').filter((l) => /warn/i.test(l));
  assert.deepEqual(warnings, [], 'astro build prints no warning');
  const { server, port } = serveDir(join(dir, 'out'));
  try {
    const { page, seen } = await openPage(`http://127.0.0.1:${await port}/proj/`);
    assert.deepEqual((await computed(page, 'nl-bar-compare')).input, [1, 2, 3]);
    const shift = await layoutShift(page);
    console.log(`astro build: layout shift ${shift.toFixed(4)}`);
    assert.ok(shift < 0.01, `the figures starting moved the page: layout shift ${shift}`);
    // the recipe's training figure: the worker script is an asset Astro emitted under /proj/_astro/, same-origin
    assertTrained(await transformerTrains(page), 'worker', seen.wasm, 'astro build');
    assert.ok(
      seen.wasm.every((w) => /^200 \/proj\/_astro\/normlab-(core|train)\.[\w-]+\.wasm$/.test(w)),
      `${seen.wasm}`,
    );
    assert.deepEqual(seen.errors, []);
    await page.close();
  } finally {
    server.kill();
  }
});

test('Astro 5: astro dev computes the figure with no configuration (the loader finds the .wasm the pre-bundling moved away from)', async () => {
  const dir = join(work, 'astro-site');
  const dev = devServer(
    dir,
    join(dir, 'node_modules/.bin/astro'),
    ['dev', '--host', '127.0.0.1', '--port', String(await freePort())],
    /Local:?\s+(http:\/\/\S+)/,
  );
  try {
    const { page, seen } = await openPage(await dev.url);
    assert.deepEqual((await computed(page, 'nl-bar-compare')).input, [1, 2, 3]);
    assert.deepEqual(seen.errors, []);
    console.log(`astro dev: .wasm requests ${seen.wasm.join(', ')}`);
    // the pre-bundled module finds the worker script in node_modules/normlab/dist/ too, same-origin
    assertTrained(await transformerTrains(page), 'worker', seen.wasm, 'astro dev');
    assert.deepEqual(seen.wasm, [
      '200 /node_modules/normlab/dist/normlab-core.wasm',
      '200 /node_modules/normlab/dist/normlab-train.wasm',
    ]); // found at the first address tried: no 404 probes, which the browser logs as console errors
    assert.deepEqual(seen.errors, []);
    await page.close();
  } finally {
    dev.stop();
  }
});

// ---- Docusaurus -----------------------------------------------------------

const bars = `---
slug: /
---

# Bars

<nl-bar-compare vector="1,2,3"></nl-bar-compare>

[The cube](./cube.mdx)
`;
const cube = `# Cube

<nl-axis-cube method="layer_norm"></nl-axis-cube>

[Back to the bars](./index.mdx)
`;
const training = `# Training

<nl-transformer-training></nl-transformer-training>
`;

/** The training page opened on its own: the figure draws and trains; returns what the page saw and it did. */
async function trainDocusaurus(url) {
  const { page, seen } = await openPage(url);
  const t = await transformerTrains(page);
  await page.close();
  return { seen, t };
}

/** Open the site, check the bars, then navigate client-side to the cube and back twice; returns what the page saw. */
async function browseDocusaurus(url) {
  const { page, seen } = await openPage(url);
  assert.deepEqual((await computed(page, 'nl-bar-compare')).input, [1, 2, 3]);
  seen.shift = await layoutShift(page);
  for (const [link, tag] of [
    ['The cube', 'nl-axis-cube'],
    ['Back to the bars', 'nl-bar-compare'],
    ['The cube', 'nl-axis-cube'],
  ]) {
    await page.getByRole('link', { name: link }).first().click();
    const state = await computed(page, tag);
    if (tag === 'nl-axis-cube') assert.ok(state.method === 'layer_norm' && state.members.length > 0);
  }
  await page.close();
  return seen;
}

test(`Docusaurus 3: a site with docs/examples/docusaurus/normlab.client.js as a client module and the tags in MDX builds with no "Critical dependency" warning; served under /proj/, client-side navigation brings figures to life with one .wasm request`, async () => {
  const dir = join(work, 'docusaurus-site');
  await installs['docusaurus-site'];
  mkdirSync(join(dir, 'docs'), { recursive: true });
  mkdirSync(join(dir, 'src'), { recursive: true });
  cpSync(join(root, 'docs/examples/docusaurus/normlab.client.js'), join(dir, 'src/normlab.client.js'));
  writeFileSync(
    join(dir, 'docusaurus.config.js'),
    `module.exports = {
  title: 'normlab in Docusaurus',
  url: 'http://127.0.0.1',
  baseUrl: '/proj/',
  onBrokenLinks: 'throw',
  presets: [['classic', { docs: { routeBasePath: '/', sidebarPath: false }, blog: false }]],
  clientModules: [require.resolve('./src/normlab.client.js')],
};
`,
  );
  writeFileSync(join(dir, 'docs/index.mdx'), bars);
  writeFileSync(join(dir, 'docs/cube.mdx'), cube);
  writeFileSync(join(dir, 'docs/training.mdx'), training);
  const t0 = Date.now();
  const log = await run(join(dir, 'node_modules/.bin/docusaurus'), ['build', '--out-dir', 'out/proj'], dir);
  console.log(`docusaurus build: ${seconds(t0)} s`);
  assert.doesNotMatch(log, /Critical dependency/, log);
  assert.deepEqual(
    log.split('\n').filter((l) => /WARN/i.test(l)),
    [],
    'docusaurus build prints no warning',
  );
  // The server-rendered page holds the figure's tag itself, not a placeholder.
  assert.match(readFileSync(join(dir, 'out/proj/index.html'), 'utf8'), /<nl-bar-compare vector="1,2,3">/);
  // webpack keeps the recipe's `import 'normlab/styles.css'` (package.json lists the CSS in sideEffects; without it
  // webpack dropped the file and the figures had no reserved height)
  const css = readdirSync(join(dir, 'out/proj/assets/css')).map((f) =>
    readFileSync(join(dir, 'out/proj/assets/css', f), 'utf8'),
  );
  assert.ok(
    css.some((c) => /nl-bar-compare:not\(\[data-used\]\)\{min-height:\d+px/.test(c.replace(/\s/g, ''))),
    'styles.css is in the build',
  );
  const { server, port } = serveDir(join(dir, 'out'));
  try {
    const seen = await browseDocusaurus(`http://127.0.0.1:${await port}/proj/`);
    assert.equal(seen.loads, 1, 'client-side navigation: one document load for three page changes');
    assert.equal(seen.wasm.length, 1, `one .wasm request: ${seen.wasm}`);
    assert.match(seen.wasm[0], /^200 \/proj\/[\w.-]+\.wasm$/);
    assert.deepEqual(seen.errors, []);
    console.log(`docusaurus build: layout shift ${seen.shift.toFixed(4)} on the first page`);
    assert.ok(seen.shift < 0.01, `the figure starting moved the page: layout shift ${seen.shift}`);
    // webpack emits the worker script as an asset under /proj/ (new URL(..., import.meta.url)): same-origin
    const trained = await trainDocusaurus(`http://127.0.0.1:${await port}/proj/training/`);
    assertTrained(trained.t, 'worker', trained.seen.wasm, 'docusaurus build');
    assert.ok(
      trained.seen.wasm.every((w) => /^200 \/proj\/[\w.-]+\.wasm$/.test(w)),
      `${trained.seen.wasm}`,
    );
    assert.deepEqual(trained.seen.errors, []);
  } finally {
    server.kill();
  }
});

test('Docusaurus 3: docusaurus start computes the figures with no normlab-specific configuration', async () => {
  const dir = join(work, 'docusaurus-site');
  const dev = devServer(
    dir,
    join(dir, 'node_modules/.bin/docusaurus'),
    ['start', '--no-open', '--host', '127.0.0.1', '--port', String(await freePort())],
    /running at:\s+(http:\/\/\S+)/,
  );
  try {
    const seen = await browseDocusaurus(await dev.url);
    console.log(`docusaurus start: .wasm requests ${seen.wasm.join(', ')}`);
    assert.equal(seen.loads, 1);
    assert.deepEqual(seen.wasm.length, 1, `one .wasm request: ${seen.wasm}`);
    assert.match(seen.wasm[0], /^200 /);
    assert.deepEqual(seen.errors, []);
    const trained = await trainDocusaurus(`${await dev.url}training`);
    assertTrained(trained.t, 'worker', trained.seen.wasm, 'docusaurus start');
    assert.ok(
      trained.seen.wasm.every((w) => w.startsWith('200 ')),
      `${trained.seen.wasm}`,
    );
    assert.deepEqual(trained.seen.errors, []);
    assert.doesNotMatch(dev.log(), /Critical dependency/);
  } finally {
    dev.stop();
  }
});
