// Edges of the JS side an adversarial probe found: loads that fail in Node,
// arguments that change or throw while they are read, an own `__proto__` key,
// an `out` array detached during the call, and the command line's errors.
// Each case ends in a NormlabError (or a one-line CLI error) that names what
// was wrong and quotes at most about 80 characters of the caller's value.
//
// The load failures run first: a module that has loaded is shared, and a
// later loadCore() returns it whatever location it is given.
//
//   node --test tests/js/edges.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const { loadCore, loadTrainer, NormlabError, short } = await import('normlab');

const tmp = mkdtempSync(join(tmpdir(), 'normlab-edges-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const notWasm = join(tmp, 'not.wasm');
writeFileSync(notWasm, '{"this": "is JSON"}\n');
const brokenWasm = join(tmp, 'broken.wasm');
writeFileSync(brokenWasm, Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff]));
const ROOT3 = Math.sqrt(1.5); // layer_norm of (1, 2, 3) with eps 0 is (-r, 0, r), by hand

async function rejection(promise) {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  assert.fail('expected the load to fail, but it succeeded');
}

// What a bad location gives each loader: a one-line load_failed NormlabError naming the location.
const badLocations = {
  'a string that is not a URL': ['http://[not a url', /http:\/\/\[not a url/],
  'a missing file': [pathToFileURL(join(tmp, 'no-such.wasm')), /no-such\.wasm/],
  'a file that is not WebAssembly': [pathToFileURL(notWasm), /not\.wasm/],
  'a file with the magic but a broken body': [pathToFileURL(brokenWasm), /broken\.wasm/],
  'an address that refuses': ['http://127.0.0.1:1/normlab-core.wasm', /127\.0\.0\.1:1/],
  'a 100,000-character missing file name': [pathToFileURL(join(tmp, 'w'.repeat(100000))), /100\d{3} characters/],
};

for (const [kind, loader] of [
  ['core', loadCore],
  ['training module', loadTrainer],
]) {
  test(`a ${kind} that cannot be loaded is a one-line load_failed NormlabError, and a good location still loads after`, async () => {
    const failures = [];
    for (const [what, [wasmUrl, names]] of Object.entries(badLocations)) {
      const e = await rejection(loader({ wasmUrl }));
      if (!(e instanceof NormlabError))
        failures.push(`${what}: ${e?.constructor?.name}: ${String(e?.message).slice(0, 200)}`);
      else if (e.code !== 'load_failed') failures.push(`${what}: code ${e.code}`);
      else if (/[\n\r]/.test(e.message)) failures.push(`${what}: a message of several lines: ${e.message}`);
      else if (e.message.length > 400) failures.push(`${what}: a message of ${e.message.length} characters`);
      else if (!names.test(e.message))
        failures.push(`${what}: the message does not name the location (${names}): ${e.message}`);
    }
    assert.deepEqual(failures, []);
    const m = await loader();
    assert.equal(await loader(), m);
    if (kind === 'core') {
      const y = m.layerNorm([1, 2, 3], { eps: 0 });
      assert.ok(Math.abs(y[0] + ROOT3) < 1e-6 && Math.abs(y[2] - ROOT3) < 1e-6, `got [${Array.from(y)}]`);
    } else assert.ok(m.ops.includes('train_step'));
  });
}

test('short(): a value of at most 80 characters is kept, a longer one keeps its two ends and says its length, all on one line', () => {
  assert.equal(short('eps'), 'eps');
  assert.equal(short('a'.repeat(80)), 'a'.repeat(80));
  const s = short('a'.repeat(50) + 'b'.repeat(100) + 'c'.repeat(50));
  assert.ok(s.startsWith('a'.repeat(40)) && s.includes('…') && s.includes('c'.repeat(10)), s);
  assert.match(s, /\(200 characters\)$/);
  assert.ok(s.replace(/ \(200 characters\)$/, '').length <= 80, s);
  assert.equal(short('one\ntwo\r\u2028three'), 'one\ufffdtwo\ufffd\ufffdthree');
});

// ---- every argument read once, into a snapshot ------------------------------

/** A list of (1, 2, 3) whose length is 3 the first time it is read and `later` after; counts the reads. */
function shifty(later) {
  const reads = { length: 0 };
  const list = new Proxy([1, 2, 3], {
    get(t, k, r) {
      if (k === 'length') return ++reads.length === 1 ? 3 : later;
      return Reflect.get(t, k, r);
    },
  });
  return { list, reads };
}

const nearLayerNorm = (y) =>
  y.length === 3 && Math.abs(y[0] + ROOT3) < 1e-6 && Math.abs(y[1]) < 1e-6 && Math.abs(y[2] - ROOT3) < 1e-6;

test('a list whose length changes between reads is read once: one read of length, the numbers of that snapshot', async () => {
  const core = await loadCore();
  const cases = {
    'run data': () => core.run('layer_norm', { x: { shape: [3], data: list } }, { eps: 0 }).y.data,
    'layerNorm(list)': () => core.layerNorm(list, { eps: 0 }),
    'layerNorm({shape, data: list})': () => core.layerNorm({ shape: [3], data: list }, { eps: 0 }),
    'tensor(shape, list)': () => core.tensor([3], list).data.slice(),
  };
  let list, reads;
  for (const [what, f] of Object.entries(cases)) {
    ({ list, reads } = shifty(2e6));
    const t0 = performance.now();
    const y = f();
    const ms = performance.now() - t0;
    assert.equal(reads.length, 1, `${what}: length was read ${reads.length} times`);
    if (what.startsWith('tensor')) assert.deepEqual(Array.from(y), [1, 2, 3]);
    else assert.ok(nearLayerNorm(y), `${what}: got [${Array.from(y)}]`);
    assert.ok(ms < 500, `${what}: took ${ms.toFixed(0)} ms`);
  }
});

test('a throwing valueOf or getter in an input or attribute is a NormlabError naming the op and the argument', async () => {
  const core = await loadCore();
  const boom = {
    valueOf() {
      throw new Error('boom');
    },
  };
  const getterThrows = () => {
    const a = [1, 2, 3];
    Object.defineProperty(a, 1, {
      get() {
        throw new Error('boom');
      },
    });
    return a;
  };
  const cases = {
    'valueOf in run data': ['layer_norm', 'x', () => core.run('layer_norm', { x: { shape: [3], data: [1, boom, 3] } })],
    'valueOf in a shape': ['layer_norm', 'x', () => core.run('layer_norm', { x: { shape: [boom], data: [1, 2, 3] } })],
    'valueOf in the first input': ['layer_norm', 'x', () => core.layerNorm([1, boom, 3])],
    'valueOf in gamma': ['layer_norm', 'gamma', () => core.layerNorm([1, 2, 3], { gamma: [1, boom, 1] })],
    'valueOf in a list attribute': [
      'broadcast_shape',
      'a',
      () => core.run('broadcast_shape', {}, { a: [2, boom], b: [2] }),
    ],
    'valueOf in a list attribute, camelCase': [
      'broadcast_shape',
      'b',
      () => core.broadcastShape({ a: [2], b: [boom] }),
    ],
    'getter in an element of the data': ['layer_norm', 'x', () => core.layerNorm(getterThrows())],
    'getter for an attribute': [
      'layer_norm',
      'eps',
      () =>
        core.layerNorm([1, 2, 3], {
          get eps() {
            throw new Error('boom');
          },
        }),
    ],
    'getter for an input of run': [
      'layer_norm',
      'gamma',
      () =>
        core.run('layer_norm', {
          x: { shape: [3], data: [1, 2, 3] },
          get gamma() {
            throw new Error('boom');
          },
        }),
    ],
    'valueOf in describe shape': ['layer_norm', 'x', () => core.describe('layer_norm', { shape: [2, boom] })],
    'valueOf in tensor data': ['tensor', 'data', () => core.tensor([3], [1, boom, 3])],
  };
  const failures = [];
  for (const [what, [op, argument, f]] of Object.entries(cases)) {
    let e = null;
    try {
      f();
    } catch (err) {
      e = err;
    }
    if (!(e instanceof NormlabError))
      failures.push(`${what}: ${e ? `${e.constructor?.name}: ${e.message}` : 'returned'}`);
    else if (e.op !== op || e.argument !== argument)
      failures.push(`${what}: op '${e.op}', argument '${e.argument}': ${e.message}`);
    else if (!e.message.includes(argument) || !/boom/.test(e.message)) failures.push(`${what}: ${e.message}`);
  }
  assert.deepEqual(failures, []);
  assert.ok(nearLayerNorm(core.layerNorm([1, 2, 3], { eps: 0 })));
});

test('an own __proto__ key in the options is an argument like any other, never dropped', async () => {
  const core = await loadCore();
  const error = (f) => {
    try {
      f();
    } catch (e) {
      return e;
    }
    return null;
  };
  // as an attribute: the core's unknown-attribute error, in both spellings of the call
  for (const f of [
    () => core.layerNorm([1, 2, 3], JSON.parse('{"__proto__": 1}')),
    () => core.run('layer_norm', { x: { shape: [3], data: [1, 2, 3] } }, JSON.parse('{"__proto__": 1}')),
  ]) {
    const e = error(f);
    assert.ok(e instanceof NormlabError, String(e));
    assert.equal(e.code, 'unknown_attribute', e.message);
    assert.equal(e.argument, '__proto__');
  }
  // holding a tensor: an unknown input (today its `shape` was inherited and reshaped x instead)
  const e = error(() =>
    core.layerNorm([1, 2, 3, 4], JSON.parse('{"__proto__": {"shape": [2, 2], "data": [1, 2, 3, 4]}}')),
  );
  assert.ok(e instanceof NormlabError, String(e));
  assert.equal(e.code, 'unknown_input', e.message);
  assert.equal(e.argument, '__proto__');
  // beside a real attribute it changes nothing else
  const d = error(() => core.layerNorm([1, 2, 3], JSON.parse('{"eps": 0, "__proto__": {"eps": 1}}')));
  assert.equal(d?.argument, '__proto__');
});

test('an out array detached while the arguments are read is a NormlabError naming the method and out', async () => {
  const core = await loadCore();
  const out = new Float32Array(3);
  const detach = {
    valueOf() {
      structuredClone(out.buffer, { transfer: [out.buffer] });
      return 1;
    },
  };
  let e = null;
  try {
    core.layerNorm([1, 2, 3], { out, gamma: [detach, 1, 1] });
  } catch (err) {
    e = err;
  }
  assert.ok(e instanceof NormlabError, `${e?.constructor?.name}: ${e?.message}`);
  assert.equal(e.op, 'layerNorm');
  assert.equal(e.argument, 'out');
  assert.match(e.message, /\bout\b.*detached/);
  // an input's Float32Array detached the same way is named too
  const x = new Float32Array([1, 2, 3]);
  const detachX = {
    valueOf() {
      structuredClone(x.buffer, { transfer: [x.buffer] });
      return 1;
    },
  };
  let f = null;
  try {
    core.run('layer_norm', { x: { shape: [3], data: x }, gamma: { shape: [3], data: [detachX, 1, 1] } });
  } catch (err) {
    f = err;
  }
  assert.ok(f instanceof NormlabError, `${f?.constructor?.name}: ${f?.message}`);
  assert.equal(f.argument, 'x');
  assert.match(f.message, /detached/);
  assert.ok(nearLayerNorm(core.layerNorm([1, 2, 3], { eps: 0 })));
});

// ---- the command line ------------------------------------------------------------

const cli = fileURLToPath(new URL('../../bin/normlab.js', import.meta.url));
const runCli = (...args) =>
  spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 120000, cwd: tmp });

/** A failed command: exit code 2 and one short line on stderr, quoting at most ~80 characters of any value. */
function assertCliError(r, pattern, what) {
  assert.equal(r.status, 2, `${what}: exit code ${r.status}; stderr ${r.stderr.slice(0, 300)}`);
  const lines = r.stderr.split('\n').filter(Boolean);
  assert.equal(lines.length, 1, `${what}: stderr has ${lines.length} lines: ${r.stderr.slice(0, 600)}`);
  assert.match(lines[0], /^normlab: /, what);
  assert.match(lines[0], pattern, `${what}: ${lines[0].slice(0, 300)}`);
  assert.ok(
    !/(.)\1{80}/.test(lines[0]),
    `${what}: echoes more than 80 characters of a value: ${lines[0].slice(0, 300)}`,
  );
  assert.equal(r.stdout, '', what);
}

test('CLI: an output path that cannot be written is a one-line error, not a stack trace', () => {
  assertCliError(runCli('render', 'nl-bar-compare', '-o', tmp), /cannot write/, 'an existing folder');
  assertCliError(
    runCli('render', 'nl-bar-compare', '-o', 'missing-dir/x.svg'),
    /missing-dir\/x\.svg/,
    'a missing folder',
  );
  assert.equal(existsSync(join(tmp, 'missing-dir')), false);
});

test('CLI: names of built-in properties are unknown figures', () => {
  for (const tag of ['__proto__', 'constructor', 'toString', 'hasOwnProperty'])
    assertCliError(runCli('render', tag), /unknown figure/, tag);
});

test('CLI: a long value is quoted shortened, with its length', () => {
  const long = 'x'.repeat(100000); // (a single argument may hold at most 128 KiB on Linux)
  const cases = {
    'a bad attribute value': [['render', 'nl-bar-compare', `scale=${long}`], /100000 characters/],
    'a long tag': [['render', long], /unknown figure/],
    'a long attribute name': [['render', 'nl-bar-compare', `${long}=1`], /no attribute/],
    'a long option': [['render', '--' + long], /unknown option/],
    'a long theme': [['render', 'nl-bar-compare', '--theme', long], /theme/],
    'a long argument that is not attr=value': [['render', 'nl-bar-compare', '=' + long], /attr=value/],
    'a long command': [[long], /unknown command/],
  };
  for (const [what, [args, pattern]] of Object.entries(cases)) assertCliError(runCli(...args), pattern, what);
});
