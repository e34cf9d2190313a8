// Figure timings in Chromium, for `npm run bench`: input-to-DOM latency of
// every control of every figure (median and p95 over 500 inputs), cold loads
// (first paint, first figure interactive, layout shift; desktop and a
// throttled phone profile; median of 9 fresh contexts each, served with gzip as
// a static host serves it), the phone's waterfall, and the bytes the article
// page loads for the figures (raw and gzip; WASM, JS, CSS; math fonts excluded).
//   --cold           the cold loads and the waterfall only (nothing written)
//   --runs=N         fresh contexts per profile (default 9)
//   --compare=DIR    also cold-load the article of another built tree (a checkout with its dist/), the two
//                    interleaved in one run and printed side by side
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { launch } from '../scripts/browser.mjs';
import { startServer } from '../scripts/serve.mjs';
import { watchLayoutShift } from '../scripts/layout-shift.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
// --only=nl-dk-scaling,nl-qk-norm: the input-to-DOM rows of those figures alone (no cold loads, nothing written)
const only = arg('only')?.split(',');
const coldOnly = process.argv.includes('--cold');
const RUNS = Number(arg('runs') ?? 9);
const compare = arg('compare');
const { server, url } = await startServer({ port: 0, compress: true });
const trees = [{ name: 'this tree', url, server }];
if (compare) {
  const other = await startServer({ port: 0, compress: true, root: compare });
  trees.push({ name: basename(resolve(compare)), url: other.url, server: other.server });
}
const browser = await launch();

// The phone profile: a Lighthouse-like mobile (4x CPU slowdown; 1.6 Mbit/s down, 750 kbit/s up, 150 ms).
const PHONE = { rate: 4, latency: 150, downloadThroughput: 200000, uploadThroughput: 93750 };
// A cold load in a fresh context (no HTTP cache): first contentful paint, when
// the first figure of the article is interactive (it publishes a state: drawn
// from the core, its controls live; polled every millisecond), the layout
// shift until then plus a second (figures reserve their height, so drawing
// them moves nothing), and every resource's timing. On the phone the reader
// goes straight to the first figure, which sits below the table of contents:
// the page is scrolled to it at first paint (its time still counts from navigation).
async function coldLoad(base, slow) {
  const context = await browser.newContext({
    viewport: slow ? { width: 360, height: 740 } : { width: 1200, height: 900 },
    ...(slow ? { isMobile: true, hasTouch: true } : {}),
  });
  const p = await context.newPage();
  if (slow) {
    const cdp = await context.newCDPSession(p);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.rate });
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, ...PHONE });
  }
  await p.addInitScript(watchLayoutShift);
  await p.addInitScript((scroll) => {
    window.__interactive = new Promise((resolve) => {
      const check = () => {
        const f = document.querySelector('figure.figure > :first-child');
        if (f?.state) resolve({ tag: f.localName, ms: performance.now() });
        else setTimeout(check, 1);
      };
      check();
    });
    if (scroll)
      new PerformanceObserver((list, observer) => {
        if (!list.getEntriesByName('first-contentful-paint').length) return;
        observer.disconnect();
        const go = () => {
          const f = document.querySelector('figure.figure > :first-child');
          if (f) f.scrollIntoView();
          else setTimeout(go, 10);
        };
        go();
      }).observe({ type: 'paint', buffered: true });
  }, slow);
  await p.goto(base + 'web/index.html', { waitUntil: 'commit' });
  const drawn = await p.evaluate(() => window.__interactive);
  await p.waitForTimeout(1000);
  const info = await p.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    math: document.querySelectorAll('.math .katex-html').length,
    cls: window.__cls,
    resources: [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')].map(
      (e) => ({
        name: new URL(e.name).pathname,
        bytes: e.encodedBodySize,
        raw: e.decodedBodySize,
        start: e.startTime,
        end: e.responseEnd,
      }),
    ),
  }));
  await context.close();
  return { tag: drawn.tag, ms: drawn.ms, fcp: info.fcp, math: info.math, cls: info.cls, resources: info.resources };
}
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const loads = {};
const waterfalls = {};
for (const slow of only ? [] : [false, true]) {
  const profile = slow ? 'phone (4x CPU, 1.6 Mbit/s, 150 ms)' : 'desktop';
  const runs = trees.map(() => []);
  for (let i = 0; i < RUNS; i++) {
    for (const [k, tree] of trees.entries()) {
      const r = await coldLoad(tree.url, slow);
      runs[k].push(r);
      process.stderr.write(
        `cold load ${profile} ${tree.name} ${i + 1}/${RUNS}: first paint ${r.fcp.toFixed(0)} ms, ` +
          `first figure ${r.ms.toFixed(0)} ms\n`,
      );
    }
  }
  for (const [k, tree] of trees.entries()) {
    const rs = runs[k];
    const mid = [...rs].sort((a, b) => a.ms - b.ms)[rs.length >> 1];
    // on the critical path: what had arrived by the time the first figure was interactive
    const critical = mid.resources.filter((r) => r.end <= mid.ms);
    loads[`${profile}${trees.length > 1 ? `, ${tree.name}` : ''}`] = {
      tag: rs[0].tag,
      firstInteractive: median(rs.map((r) => r.ms)),
      firstPaint: median(rs.map((r) => r.fcp)),
      maxShift: Math.max(...rs.map((r) => r.cls)),
      formulas: rs[0].math,
      criticalBytes: critical.reduce((n, r) => n + r.bytes, 0),
      criticalRequests: critical.length,
      samples: rs.length,
    };
    if (slow) waterfalls[tree.name] = mid;
  }
}
if (!only) {
  console.log(
    `\n| cold load (median of ${RUNS}, compressed) | first paint ms | first figure interactive ms | on the critical path | layout shift (worst) |\n|---|---|---|---|---|`,
  );
  for (const [k, v] of Object.entries(loads))
    console.log(
      `| ${k} | ${v.firstPaint.toFixed(0)} | ${v.firstInteractive.toFixed(0)} (${v.tag}) | ` +
        `${(v.criticalBytes / 1000).toFixed(1)} KB compressed in ${v.criticalRequests} requests | ${v.maxShift.toFixed(4)} |`,
    );
  for (const [name, w] of Object.entries(waterfalls)) {
    console.log(
      `\nPhone waterfall (${name}; the median run: first paint ${w.fcp.toFixed(0)} ms, ` +
        `first figure interactive ${w.ms.toFixed(0)} ms):\n\n| resource | size (compressed) | start ms | end ms |\n|---|---|---|---|`,
    );
    const kb = (b) => (b >= 1000 ? `${(b / 1000).toFixed(1)} KB` : `${b} B`);
    for (const r of [...w.resources].sort((a, b) => a.start - b.start).filter((r) => r.start <= w.ms + 1000))
      console.log(
        `| ${r.name.replace(/^\/(web|dist)\//, '$1/')} | ${kb(r.bytes)} | ${r.start.toFixed(0)} | ${r.end.toFixed(0)} |`,
      );
  }
}
if (coldOnly) {
  await browser.close();
  for (const t of trees) t.server.close();
  process.exit(0);
}
const desktop = Object.values(loads)[0];
const firstDrawn = only
  ? null
  : { tag: desktop.tag, ms: desktop.firstInteractive, firstPaint: desktop.firstPaint, samples: RUNS };

const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
const loaded = [];
page.on('response', (r) => loaded.push(new URL(r.url()).pathname));
await page.goto(url + 'web/index.html');

// Every control of every figure: sliders by input events, number boxes and
// selects by change events, the cube's rotation by arrow keys; each 500 times.
const rows = [];
for (const fig of await page.locator('figure.figure > :first-child').all()) {
  if (only && !only.includes(await fig.evaluate((el) => el.localName))) continue;
  await fig.scrollIntoViewIfNeeded();
  const t0 = Date.now();
  process.stderr.write(`input→DOM: ${await fig.evaluate((el) => el.localName)} … `);
  const r = await fig.evaluate(async (el) => {
    const t0 = performance.now();
    while (!el.state && performance.now() - t0 < 10000) await new Promise((res) => setTimeout(res, 20));
    if (!el.state) return [{ tag: el.localName, control: 'no state after 10 s', p50: NaN, p95: NaN }];
    const root = el.shadowRoot;
    const controls = [
      ...[...root.querySelectorAll('input[type=range]')].map((c, i) => ['slider ' + (i + 1), c, 'input']),
      ...[...root.querySelectorAll('input[type=number]')]
        .filter((c) => !c.closest('label')?.querySelector('input[type=range]'))
        .map((c, i) => ['number ' + (i + 1), c, 'change']),
      ...[...root.querySelectorAll('select')].map((c, i) => ['select ' + (i + 1), c, 'change']),
    ];
    const view = root.querySelector('[part=view] [tabindex], [tabindex="0"]');
    const out = [];
    for (const [name, c, kind] of controls) {
      if (c.closest('[hidden]')) continue;
      const times = [];
      const options = c.tagName === 'SELECT' ? [...c.options].map((o) => o.value) : null;
      const min = Number(c.min || 0),
        max = Number(c.max || (c.tagName === 'INPUT' && c.type === 'number' ? Number(c.min || 0) + 6 : 1));
      const before = c.value;
      for (let i = 0; i < 500; i++) {
        if (options) c.value = options[i % options.length];
        else if (c.type === 'number') c.value = String(min + (i % (Math.min(max, min + 6) - min + 1)));
        else c.value = String(min + ((max - min) * ((i * 37) % 100)) / 100);
        const t0 = performance.now();
        c.dispatchEvent(new Event(kind, { bubbles: true }));
        times.push(performance.now() - t0); // the figure recomputes and updates its DOM synchronously
      }
      c.value = before;
      c.dispatchEvent(new Event(kind, { bubbles: true }));
      times.sort((a, b) => a - b);
      out.push({ tag: el.localName, control: name, p50: times[250], p95: times[475] });
    }
    if (el.localName === 'nl-axis-cube' && view) {
      const times = [];
      for (let i = 0; i < 500; i++) {
        const t0 = performance.now();
        view.dispatchEvent(new KeyboardEvent('keydown', { key: i % 2 ? 'ArrowLeft' : 'ArrowUp', bubbles: true }));
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      out.push({ tag: el.localName, control: 'rotate (keys)', p50: times[250], p95: times[475] });
    }
    return out;
  });
  rows.push(...r);
  process.stderr.write(`${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
}

const files = [...new Set(loaded)].filter((p) => /\.(wasm|js|mjs|css)$/.test(p) && !p.includes('katex'));
const bytes = { wasm: [0, 0], js: [0, 0], css: [0, 0] };
for (const p of files) {
  const f = root + p.replace(/^\//, '');
  if (!existsSync(f)) continue;
  const data = readFileSync(f);
  const kind = p.endsWith('.wasm') ? 'wasm' : p.endsWith('.css') ? 'css' : 'js';
  bytes[kind][0] += data.length;
  bytes[kind][1] += gzipSync(data, { level: 9 }).length;
}
await browser.close();
for (const t of trees) t.server.close();

console.log('\n| figure | control | input→DOM median ms | p95 ms |\n|---|---|---|---|');
for (const r of rows) console.log(`| ${r.tag} | ${r.control} | ${r.p50.toFixed(2)} | ${r.p95.toFixed(2)} |`);
console.log('\n| bytes for the figures | raw | gzip |\n|---|---|---|');
for (const [k, [raw, gz]] of Object.entries(bytes)) console.log(`| ${k} | ${raw} | ${gz} |`);
// What the peers would ship for the same job, measured from their packages:
// tfjs-core + its WASM backend (SIMD build), onnxruntime-web's WASM build.
const sizeOf = (files) =>
  files.reduce(
    ([raw, gz], f) => {
      const d = readFileSync(root + 'node_modules/' + f);
      return [raw + d.length, gz + gzipSync(d, { level: 9 }).length];
    },
    [0, 0],
  );
const peers = {
  'tfjs-core + tfjs-backend-wasm': sizeOf([
    '@tensorflow/tfjs-core/dist/tf-core.min.js',
    '@tensorflow/tfjs-backend-wasm/dist/tf-backend-wasm.min.js',
    '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm',
  ]),
  'onnxruntime-web (wasm)': sizeOf([
    'onnxruntime-web/dist/ort.wasm.min.mjs',
    'onnxruntime-web/dist/ort-wasm-simd-threaded.wasm',
  ]),
};
const ours = Object.values(bytes).reduce(([r, g], [a, b]) => [r + a, g + b], [0, 0]);
console.log('\n| what a page loads | raw | gzip |\n|---|---|---|');
console.log(`| normlab, all figures | ${ours[0]} | ${ours[1]} |`);
for (const [k, [raw, gz]] of Object.entries(peers)) console.log(`| ${k} | ${raw} | ${gz} |`);
if (only) process.exit(0);
const out = root + 'bench/results.json';
const prev = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : {};
writeFileSync(
  out,
  JSON.stringify({ ...prev, figures: { firstDrawn, loads, latency: rows, bytes, peer_bytes: peers } }, null, 2),
);
