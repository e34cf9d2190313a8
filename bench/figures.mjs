// Figure timings in Chromium, for `npm run bench`: input-to-DOM latency of
// every control of every figure (median and p95 over 500 inputs), cold loads
// (first figure drawn, typeset math painted, layout shift; desktop and a
// throttled phone profile; median of 9 fresh contexts each), and the bytes the article page loads for the figures (raw
// and gzip; WASM, JS, CSS; math fonts excluded).
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { launch } from '../scripts/browser.mjs';
import { startServer } from '../scripts/serve.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// --only=nl-dk-scaling,nl-qk-norm: the input-to-DOM rows of those figures alone (no cold loads, nothing written)
const only = process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice(7)
  .split(',');
const { server, url } = await startServer({ port: 0 });
const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
const loaded = [];
page.on('response', (r) => loaded.push(new URL(r.url()).pathname));
await page.goto(url + 'web/index.html');

// First figure drawn: when the first figure publishes a state, polled every
// millisecond; cold loads in fresh contexts (no HTTP cache), median of 9.
const drawnAt = (p) =>
  p.evaluate(
    () =>
      new Promise((resolve) => {
        const check = () => {
          const f = [...document.querySelectorAll('figure > :first-child')].find((el) => el.state);
          if (f) resolve({ tag: f.localName, ms: performance.now() });
          else setTimeout(check, 1);
        };
        check();
      }),
  );
// A cold load in a fresh context: when the first figure is drawn, when the
// typeset math is first painted (first contentful paint: the math is HTML from
// the build), and the layout shift until then plus a second (figures reserve
// their height, so drawing them moves nothing). `slow` is a phone profile:
// 4x CPU throttling and a 200 KB/s, 150 ms network.
async function coldLoad(slow) {
  const context = await browser.newContext({
    viewport: slow ? { width: 360, height: 740 } : { width: 1200, height: 900 },
  });
  const p = await context.newPage();
  if (slow) {
    const cdp = await context.newCDPSession(p);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 150,
      downloadThroughput: 200 * 1024,
      uploadThroughput: 100 * 1024,
    });
  }
  await p.addInitScript(() => {
    window.__cls = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (!e.hadRecentInput) window.__cls += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await p.goto(url + 'web/index.html');
  // A figure starts when it comes into view: on a phone the first one sits below the
  // table of contents, so the reader scrolls to it (its time still counts from navigation).
  if (slow) await p.evaluate(() => document.querySelector('figure.figure > :first-child').scrollIntoView());
  const drawn = await drawnAt(p);
  await p.waitForTimeout(1000);
  const paint = await p.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    math: document.querySelectorAll('.math .katex-html').length,
    cls: window.__cls,
  }));
  await context.close();
  return { tag: drawn.tag, ms: drawn.ms, fcp: paint.fcp, math: paint.math, cls: paint.cls };
}
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const loads = {};
for (const slow of only ? [] : [false, true]) {
  const runs = [];
  for (let i = 0; i < 9; i++) {
    runs.push(await coldLoad(slow));
    process.stderr.write(
      `cold load ${slow ? 'phone' : 'desktop'} ${i + 1}/9: first figure ${runs[i].ms.toFixed(0)} ms\n`,
    );
  }
  loads[slow ? 'phone (4x CPU, 200 KB/s)' : 'desktop'] = {
    tag: runs[0].tag,
    firstDrawn: median(runs.map((r) => r.ms)),
    mathPainted: median(runs.map((r) => r.fcp)),
    maxShift: Math.max(...runs.map((r) => r.cls)),
    formulas: runs[0].math,
    samples: runs.length,
  };
}
const firstDrawn = only ? null : { tag: loads.desktop.tag, ms: loads.desktop.firstDrawn, samples: 9 };

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
server.close();

console.log(
  '\n| cold load (median of 9) | first figure drawn ms | typeset math painted ms | layout shift (worst) |\n|---|---|---|---|',
);
for (const [k, v] of Object.entries(loads))
  console.log(
    `| ${k} | ${v.firstDrawn.toFixed(0)} (${v.tag}) | ${v.mathPainted.toFixed(0)} (${v.formulas} formulas in the HTML) | ${v.maxShift.toFixed(4)} |`,
  );
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
