// The figure manifest (web/figures.manifest.js) and the files written from it
// (web/elements.js, the marked parts of web/elements.d.ts, web/styles/normlab.css
// and README.md) are generated from the figure classes by scripts/gen-figures.mjs:
// the committed files must be what the classes give now, and the manifest must
// describe what the elements really are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { outputs } from '../../scripts/gen-figures.mjs';
import { figures } from '../../web/figures.manifest.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('every file written from the figure classes is current', async () => {
  for (const [path, want] of await outputs()) {
    const got = readFileSync(join(root, path), 'utf8');
    if (got === want) continue;
    const a = got.split('\n'),
      b = want.split('\n');
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    assert.fail(
      `${path} is out of date with the figure classes: run \`node scripts/gen-figures.mjs\`.\n` +
        `First difference at line ${i + 1}:\n  committed: ${a[i] ?? '(end of file)'}\n  generated: ${b[i] ?? '(end of file)'}`,
    );
  }
});

test('--check fails, naming the file, when a generated file is edited by hand', (t) => {
  // A copy of what the generator reads and writes, with one README row taken out.
  const dir = mkdtempSync(join(tmpdir(), 'normlab-gen-figures-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(join(root, 'web'), join(dir, 'web'), { recursive: true });
  cpSync(join(root, 'scripts/gen-figures.mjs'), join(dir, 'scripts/gen-figures.mjs'));
  cpSync(join(root, 'dist/normlab-core.mjs'), join(dir, 'dist/normlab-core.mjs')); // imported by web/core/normlab.js
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const edited = readme.replace(/^\| `<nl-spectral>`.*\n/m, '');
  assert.notEqual(edited, readme, 'the row was there to take out');
  writeFileSync(join(dir, 'README.md'), edited);
  const check = (cwd) =>
    spawnSync(process.execPath, [join(cwd, 'scripts/gen-figures.mjs'), '--check'], {
      encoding: 'utf8',
      timeout: 60000,
    });
  const stale = check(dir);
  assert.equal(stale.status, 1, stale.stderr);
  assert.match(stale.stderr, /not current: README\.md; run node scripts\/gen-figures\.mjs/);
  assert.equal(readFileSync(join(dir, 'README.md'), 'utf8'), edited, '--check writes nothing');
  const fresh = check(root);
  assert.equal(fresh.status, 0, fresh.stderr);
  assert.match(fresh.stdout, /every file is current/);
});

test('the manifest is plain data: importing it needs no DOM and no other module', () => {
  const text = readFileSync(join(root, 'web/figures.manifest.js'), 'utf8');
  assert.doesNotMatch(text, /^\s*import\b|\bimport\(/m, 'no imports');
  const r = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `
    const { figures } = await import(${JSON.stringify(join(root, 'web/figures.manifest.js'))});
    console.log(figures.length, typeof globalThis.document, typeof globalThis.customElements);
  `,
    ],
    { encoding: 'utf8', timeout: 30000 },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), `${figures.length} undefined undefined`);
});

test('the manifest lists every figure module once, and each entry matches its element', async () => {
  const files = readdirSync(join(root, 'web/components/figures'))
    .filter((f) => f.endsWith('.js'))
    .sort();
  assert.deepEqual(
    figures.map((f) => f.module),
    files.map((f) => `components/figures/${f}`),
  );
  assert.equal(new Set(figures.map((f) => f.tag)).size, figures.length, 'tags are unique');
  const { elements } = await import('../../web/elements.js');
  assert.deepEqual(
    Object.keys(elements),
    figures.map((f) => f.tag),
    "normlab/elements defines exactly the manifest's tags",
  );
  // the figures' strings, wherever they are written (each class's own, or a section of en.js/zh.js)
  const { collectCatalog } = await import('../../web/i18n/index.js');
  const en = collectCatalog('en', Object.values(elements));
  const zh = collectCatalog('zh', Object.values(elements));
  for (const f of figures) {
    const Cls = elements[f.tag];
    assert.equal(Cls.name, f.className, f.tag);
    assert.deepEqual(
      [...Cls.observedAttributes].sort(),
      [...f.attributes.map((a) => a.name), 'lang', 'theme'].sort(),
      `${f.tag}: the attributes it observes`,
    );
    assert.ok(
      en[f.catalog]?.name && zh[f.catalog]?.name,
      `${f.tag}: its catalog "${f.catalog}" has a name in en and zh`,
    );
    assert.ok(f.minHeight >= 200 && f.minHeight <= 2000, `${f.tag}: a plausible reserved height (${f.minHeight} px)`);
    for (const a of f.attributes) {
      assert.ok(a.description.length > 3, `${f.tag} ${a.name}: a description`);
      if (a.choices) assert.ok(a.choices.includes(a.default), `${f.tag} ${a.name}: its default is one of its choices`);
      if (a.min !== undefined && typeof a.default === 'number')
        assert.ok(a.default >= a.min && a.default <= a.max, `${f.tag} ${a.name}: default in range`);
    }
  }
});

test("normlab/styles.css gives every figure its room, and the browser tests use the manifest's tags", () => {
  const css = readFileSync(join(root, 'web/styles/normlab.css'), 'utf8');
  for (const f of figures) {
    assert.match(
      css,
      new RegExp(`^${f.tag}:not\\(\\[data-used\\]\\) \\{ min-height: ${f.minHeight}px; \\}$`, 'm'),
      f.tag,
    );
    assert.match(css, new RegExp(`[(, ]${f.tag}[,)]`), `${f.tag} is spaced like the others`);
    // and on a phone, inside the one max-width: 600px block, the larger of its two heights
    const phone = css.slice(css.indexOf('@media (max-width: 600px) {'));
    const { en, zh } = f.phoneMinHeight;
    assert.ok(en > f.minHeight * 0.8 && zh > f.minHeight * 0.6, `${f.tag}: a plausible phone height (${en}, ${zh})`);
    assert.match(
      phone,
      new RegExp(`^  ${f.tag}:not\\(\\[data-used\\]\\) \\{ min-height: ${Math.max(en, zh)}px; \\}$`, 'm'),
      f.tag,
    );
  }
  const helpers = readFileSync(join(root, 'tests/browser/helpers.mjs'), 'utf8');
  assert.match(helpers, /FIGURE_TAGS = figures\.map\(/, 'no copied list of tags');
});

// The depth-training figure opens on a recorded run (web/components/data/depth-training-frame.js): it
// must be what the training module gives for the default settings now, or Play would not reproduce it.
test('the depth-training opening frame is the training module’s default run', () => {
  const r = spawnSync(process.execPath, [join(root, 'scripts/gen-training-frame.mjs'), '--check'], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr || r.stdout);
});
