// Servers the package tests start: a site's dev server and a static server over a built folder.
// Their timers are unref'd so a finished test file exits at once instead of waiting them out.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** The environment for the tools the tests run: no colours, no update notices, no telemetry. */
export const env = {
  ...process.env,
  NO_COLOR: '1',
  FORCE_COLOR: '0',
  NO_UPDATE_NOTIFIER: '1',
  ASTRO_TELEMETRY_DISABLED: '1',
};

/** Run a command; resolves with its stdout + stderr, rejects (with them) on a non-zero exit. */
export function run(command, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${out}`)),
    );
  });
}

/** A port nobody listens on now (for servers that take no --port 0, like docusaurus start). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/**
 * A dev server (vite, vitepress dev, astro dev, docusaurus start) started in `cwd`, in its own process group;
 * `url` resolves with the first URL its output matches once the server answers there (Docusaurus prints its
 * URL before it listens). `server.kill()` stops the server, `stop()` its whole group.
 */
export function devServer(cwd, command, args, pattern = /Local:\s+(http:\/\/\S+)/) {
  const server = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const printed = new Promise((resolve, reject) => {
    const onData = (d) => {
      log += String(d);
      // eslint-disable-next-line no-control-regex -- the ANSI colour escapes a dev server prints
      const m = log.replace(/\x1b\[[0-9;]*m/g, '').match(pattern);
      if (m) resolve(m[1].endsWith('/') ? m[1] : m[1] + '/');
    };
    server.stdout.on('data', onData);
    server.stderr.on('data', onData);
    server.on('exit', (code) => reject(new Error(`dev server exited (${code}): ${log}`)));
    setTimeout(() => reject(new Error(`no URL from the dev server: ${log}`)), 120000).unref();
  });
  const url = printed.then(async (u) => {
    for (let i = 0; i < 240; i++) {
      if (
        await fetch(u).then(
          () => true,
          () => false,
        )
      )
        return u;
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error(`the dev server does not answer at ${u}: ${log}`);
  });
  const stop = () => {
    try {
      process.kill(-server.pid);
    } catch {
      /* already gone */
    }
  };
  return { server, url, stop, log: () => log };
}

/** Serve a folder with Python's static server; `port` resolves with its port. */
export function serveDir(dir) {
  const server = spawn('/usr/bin/python3', ['-m', 'http.server', '0', '--bind', '127.0.0.1'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const port = new Promise((resolve, reject) => {
    const onData = (d) => {
      const m = String(d).match(/port (\d+)/);
      if (m) resolve(Number(m[1]));
    };
    server.stdout.on('data', onData);
    server.stderr.on('data', onData);
    setTimeout(() => reject(new Error('no port from http.server')), 10000).unref();
  });
  return { server, port };
}

/**
 * Sum the page's layout shifts (CLS without session windows: every shift not caused by input) from its first
 * paint; call before `page.goto`, then read with `layoutShift(page)`. Embedding a figure must move nothing.
 */
export async function watchLayoutShift(page) {
  await page.addInitScript(() => {
    window.__layoutShift = 0;
    window.__layoutShifts = [];
    const name = (n) =>
      n ? `${n.nodeName.toLowerCase()}${n.id ? '#' + n.id : ''}${n.className ? '.' + n.className : ''}` : '?';
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.hadRecentInput) continue;
        window.__layoutShift += e.value;
        window.__layoutShifts.push(
          `${e.value.toFixed(4)} at ${Math.round(e.startTime)} ms: ${e.sources.map((s) => name(s.node)).join(', ')}`,
        );
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/**
 * The layout shift so far, after two frames (a shift is reported after the frame that made it); logs each shift
 * with the elements that moved when there was any.
 */
export async function layoutShift(page) {
  const [sum, shifts] = await page.evaluate(
    () =>
      new Promise((done) =>
        requestAnimationFrame(() => requestAnimationFrame(() => done([window.__layoutShift, window.__layoutShifts]))),
      ),
  );
  if (shifts.length) console.log(`layout shifts: ${shifts.join('; ')}`);
  return sum;
}

/**
 * Record on `errors` what a reader's console would show as a problem: page errors, console errors and warnings,
 * and every response of status 400 or more with its address (the browser logs those as console errors without
 * one). The test sites have no favicon, so the browser's own /favicon.ico request is not counted.
 */
export function recordProblems(page, errors) {
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (/^(error|warning)$/.test(m.type()) && !/^Failed to load resource/.test(m.text()))
      errors.push(`console.${m.type()}: ${m.text()}`);
  });
  page.on('response', (r) => {
    const path = new URL(r.url()).pathname;
    if (r.status() >= 400 && !path.endsWith('/favicon.ico')) errors.push(`HTTP ${r.status()} ${path}`);
  });
}

/**
 * <nl-transformer-training> on `page`, as a reader meets it: scrolled into view, it draws its recorded runs
 * (state.recorded, step 300); play() then trains it live until step 10 or more, and pause() stops it. Returns
 * what it drew ({recorded, step}), the state's `where` ('worker' | 'blob' | 'main': where its training ran)
 * and the step training reached. A shown load error fails at once.
 */
export async function transformerTrains(page) {
  const tag = 'nl-transformer-training';
  await page.locator(tag).first().scrollIntoViewIfNeeded({ timeout: 60000 });
  const drawn = await (
    await page.waitForFunction(
      (t) => {
        const el = document.querySelector(t);
        const text = el?.shadowRoot?.textContent ?? '';
        if (/could not/.test(text) || el?.state?.error) throw new Error(el.state?.error ?? text);
        return el?.state?.recorded ? { recorded: el.state.recorded, step: el.state.step } : null;
      },
      tag,
      { timeout: 60000 },
    )
  ).jsonValue();
  await page.evaluate((t) => void document.querySelector(t).play(), tag); // not awaited: it resolves at step 300
  // the live run starts at step 0 (recorded false); the first step seen at 10 or more, where it trained
  const live = await (
    await page.waitForFunction(
      (t) => {
        const el = document.querySelector(t);
        const text = el.shadowRoot.textContent;
        if (/could not/.test(text) || el.state.error) throw new Error(el.state.error ?? text);
        if (el.state.recorded || el.state.step < 10) return null;
        el.pause();
        return { trained: el.state.step, where: el.state.where };
      },
      tag,
      { timeout: 120000, polling: 100 },
    )
  ).jsonValue();
  return { ...drawn, ...live };
}

/**
 * The .wasm responses seen (entries as the tests record them, "200 /path/file.wasm" or a URL), counted per
 * address: each module is fetched from one address once, so a page with the training figure has two addresses
 * (the core's and the training module's; webpack names them by hash alone), each seen once.
 */
export function wasmCounts(wasm) {
  const counts = {};
  for (const w of wasm) {
    const at = w.replace(/^\d+ /, '');
    counts[at] = (counts[at] ?? 0) + 1;
  }
  return counts;
}

/**
 * What transformerTrains() returned, checked: the recorded runs drawn, ten or more steps trained live `where`
 * it should, and each .wasm (the core's, the training module's) fetched from one address once: the workers
 * get the compiled training module by postMessage, the depth figure's loadTrainer() shares its compile.
 */
export function assertTrained(t, where, wasm, label) {
  console.log(`${label}: transformer trained to step ${t.trained} in ${t.where}; .wasm ${wasm.join(', ')}`);
  assert.deepEqual([t.recorded, t.step], [true, 300], 'it draws its recorded runs first');
  assert.ok(t.trained >= 10, `play() trained ${t.trained} steps`);
  assert.equal(t.where, where, 'where it trained');
  assert.deepEqual(Object.values(wasmCounts(wasm)), [1, 1], `the core and the training module, each once: ${wasm}`);
}
