// A Sphinx site (Debian's python3-sphinx 5.3 with the Furo theme, as PyTorch-
// and NumPy-style docs are made) built from the packed tarball with the recipe
// in docs/examples/sphinx, served under a sub-path and checked in Chromium:
// figures compute on both pages, one .wasm download, no console message, and
// Furo's own light/dark toggle is followed both ways.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from '../../scripts/browser.mjs';
import { serveDir, transformerTrains, wasmCounts } from './helpers.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'normlab-sphinx-'));
let browser;

before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
});

test("Sphinx 5 + Furo: the recipe builds under /proj/, figures compute on both pages, Furo's toggle is followed both ways", async () => {
  const out = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8' }),
  );
  const dir = join(work, 'site');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'sphinx-site', private: true }));
  execFileSync(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', join(work, out[0].filename)],
    { cwd: dir },
  );
  // The recipe as the README tells it: its files, and a copy of the package's web/ and dist/ in _static/normlab/.
  const src = join(dir, 'src');
  cpSync(join(root, 'docs/examples/sphinx'), src, { recursive: true });
  for (const d of ['web', 'dist'])
    cpSync(join(dir, 'node_modules/normlab', d), join(src, '_static/normlab', d), { recursive: true });
  // a page of the site's own with the training figure (:orphan:, in no toctree, so -W has nothing to say)
  writeFileSync(
    join(src, 'training.rst'),
    ':orphan:\n\nTraining\n========\n\n.. raw:: html\n\n   <nl-transformer-training></nl-transformer-training>\n',
  );
  execFileSync('/usr/bin/python3', ['-m', 'sphinx', '-q', '-W', '-b', 'html', src, join(dir, 'out/proj')], {
    cwd: dir,
  });

  const { server, port: served } = serveDir(join(dir, 'out'));
  try {
    const port = await served;
    const context = await browser.newContext({ colorScheme: 'light' });
    const page = await context.newPage();
    const logged = [],
      wasm = [],
      missing = [];
    // Debian's furo links /javascript/normalize.css/... (a system path) and ships furo.js as an ES module source
    // loaded as a classic script: the theme's own 404 and syntax error, kept apart from the figures' messages.
    const furo = (text) => /Cannot use import statement outside a module/.test(text);
    page.on('pageerror', (e) => furo(e.message) || logged.push(`pageerror: ${e.message}`));
    page.on('response', (r) => {
      if (r.url().endsWith('.wasm')) wasm.push(`${r.status()} ${new URL(r.url()).pathname}`);
      if (r.status() >= 400) missing.push(new URL(r.url()).pathname);
    });
    page.on(
      'console',
      (m) =>
        ['warning', 'error'].includes(m.type()) &&
        !/^Failed to load resource/.test(m.text()) &&
        logged.push(`${m.type()}: ${m.text()}`),
    );
    await page.goto(`http://127.0.0.1:${port}/proj/index.html`);
    await page.waitForFunction(() => document.querySelector('nl-bar-compare')?.state?.current, null, {
      timeout: 30000,
    });
    assert.deepEqual(await page.evaluate(() => document.querySelector('nl-bar-compare').state.input), [1, 2, 3]);

    // Furo marks its choice on <body data-theme="light|dark|auto">; its button cycles through them.
    const bg = () =>
      page.evaluate(() =>
        getComputedStyle(document.querySelector('nl-bar-compare')).getPropertyValue('--nl-bg').trim(),
      );
    const setFuro = (v) => page.evaluate((v) => (document.body.dataset.theme = v), v);
    await setFuro('dark');
    await page.waitForFunction(
      () => getComputedStyle(document.querySelector('nl-bar-compare')).getPropertyValue('--nl-bg').trim() === '#161a22',
    );
    await page.emulateMedia({ colorScheme: 'dark' });
    await setFuro('light');
    await page.waitForFunction(
      () => getComputedStyle(document.querySelector('nl-bar-compare')).getPropertyValue('--nl-bg').trim() === '#ffffff',
    );
    // "auto" marks nothing: the figure takes the theme of what the page paints (Debian's Furo stays white here).
    await setFuro('auto');
    const pageBg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(
      await bg(),
      pageBg === 'rgb(255, 255, 255)' ? '#ffffff' : '#161a22',
      `auto, on a page painted ${pageBg}`,
    );

    // The second page, one level of links away, under the same sub-path.
    await page.getByRole('link', { name: 'The axis cube' }).first().click();
    await page.waitForFunction(() => document.querySelector('nl-axis-cube')?.state?.members, null, { timeout: 30000 });
    assert.equal(await page.evaluate(() => document.querySelector('nl-axis-cube').state.members.length), 6);
    assert.ok(
      wasm.length >= 1 && wasm.every((w) => /^200 \/proj\/_static\/normlab\/dist\/normlab-core\.wasm$/.test(w)),
      `the core from the site's copy: ${wasm}`,
    );
    // the training page: its Worker starts from the worker script in the site's copy of dist/, same-origin
    wasm.length = 0;
    await page.goto(`http://127.0.0.1:${port}/proj/training.html`);
    const t = await transformerTrains(page);
    console.log(`sphinx: transformer trained to step ${t.trained} in ${t.where}; .wasm ${wasm.join(', ')}`);
    assert.deepEqual([t.recorded, t.step], [true, 300], 'it draws its recorded runs first');
    assert.ok(t.trained >= 10, `play() trained ${t.trained} steps`);
    assert.equal(t.where, 'worker');
    assert.deepEqual(Object.values(wasmCounts(wasm)), [1, 1], `the core and the training module, each once: ${wasm}`);
    assert.ok(
      wasm.every((w) => /^200 \/proj\/_static\/normlab\/dist\/normlab-(core|train)\.wasm$/.test(w)),
      `${wasm}`,
    );
    assert.deepEqual(logged, []);
    assert.deepEqual(
      missing.filter((p) => !p.startsWith('/javascript/normalize.css/')),
      [],
      'nothing else is missing',
    );
    await context.close();
  } finally {
    server.kill();
  }
});
