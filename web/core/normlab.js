// normlab — the core API (package entry `normlab`).
//
//   const core = await loadCore();            // one shared WASM core per page
//   core.run('layer_norm', { x: { shape: [2, 3], data } }, { eps: 1e-5 });
//   core.layerNorm(new Float32Array([1, 2, 3]), { eps: 0 });
//
// Importing this module touches no DOM global; the WASM loads on the first
// loadCore() call. Every number comes from the C++ core: this file only moves
// data across the boundary and turns core errors into JS Errors.
import createNormlabCore from '../../dist/normlab-core.mjs';

// Two modules, one glue: the core (every op but training) and the training
// module, which only loadTrainer() fetches. build-wasm.sh links both from the
// same objects and checks that they take the same glue.
const MODULES = {
  core: {
    file: 'normlab-core.wasm',
    url: () => new URL('../../dist/normlab-core.wasm', import.meta.url),
    load: 'loadCore',
  },
  train: {
    file: 'normlab-train.wasm',
    url: () => new URL('../../dist/normlab-train.wasm', import.meta.url),
    load: 'loadTrainer',
  },
};

// The single-file build (dist/normlab.single.js) defines these as the WASM
// bytes in base64, so that a page opened from disk needs no second file.
/* global __NORMLAB_INLINE_WASM__, __NORMLAB_INLINE_TRAIN_WASM__ */
const inlineWasm = {
  core: typeof __NORMLAB_INLINE_WASM__ === 'string' ? __NORMLAB_INLINE_WASM__ : null,
  train: typeof __NORMLAB_INLINE_TRAIN_WASM__ === 'string' ? __NORMLAB_INLINE_TRAIN_WASM__ : null,
};

function inlineBytes(b64) {
  const bin = atob(b64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

/** An error reported by the core; `message` names the operation and argument. */
/**
 * Every error the core or its API raises. `code` is a stable key (README,
 * "Error codes") for showing the message in the reader's language; `op` and
 * `argument` name the operation and the input or attribute at fault, when known.
 */
export class NormlabError extends Error {
  constructor(message, code = 'invalid', argument = '') {
    super(message);
    this.name = 'NormlabError';
    this.code = code;
    this.op = /^([a-z][a-z0-9_]*|[a-zA-Z]+): /.exec(message)?.[1] ?? '';
    this.argument = argument;
  }
}

/** The core's last error as a NormlabError with its code and argument. */
function coreError(m) {
  const [code, argument] = String(m.lastErrorInfo()).split('\n');
  return new NormlabError(m.lastError(), code || 'invalid', argument ?? '');
}

const isNode = () => typeof process !== 'undefined' && !!process.versions?.node && typeof window === 'undefined';

const MAGIC = [0x00, 0x61, 0x73, 0x6d]; // "\0asm"
const isWasm = (bytes) => bytes.length >= 4 && MAGIC.every((b, i) => bytes[i] === b);

/**
 * Where the .wasm is when this module was moved by a dev server's dependency
 * pre-bundling (Vite, VitePress and Astro put it in node_modules/.vite/deps/
 * or .vitepress/cache/deps/, and the relative URL then points nowhere):
 * node_modules/normlab/dist/ under a folder above the module. The folder that
 * holds node_modules/.vite or .vitepress comes first, as that is where the
 * package is installed: a right first guess means no 404 for the browser to
 * log as a console error. Then the other folders, nearest first. Empty for a
 * module that is not in such a deps folder.
 */
function preBundledCandidates(moduleUrl, file) {
  const u = new URL(moduleUrl);
  if (!/\/deps(_[^/]*)?\/[^/]*$/.test(u.pathname)) return [];
  const home = /^(.*?)\/(?:node_modules\/\.vite|\.vitepress\/cache)\/deps(?:_[^/]*)?\/[^/]*$/.exec(u.pathname)?.[1];
  const parts = u.pathname.split('/').slice(0, -1);
  const dirs = [];
  for (let i = parts.length; i >= 1; i--) {
    const dir = parts.slice(0, i).join('/');
    if (!dir.endsWith('/node_modules')) dirs.push(dir); // would be node_modules/node_modules
  }
  if (home !== undefined) dirs.sort((a, b) => (b === home) - (a === home));
  return dirs.map((dir) => new URL(`${dir}/node_modules/normlab/dist/${file}`, u.origin));
}

async function fetchWasm(url) {
  let res;
  try {
    res = await fetch(url, { credentials: 'same-origin' });
  } catch (e) {
    // refused, unreachable, a scheme fetch does not take: said as the cause's code when there is one
    return { status: e?.cause?.code ?? (e?.cause ? thrown(e.cause) : thrown(e)) };
  }
  if (!res.ok) return { status: `HTTP ${res.status}` };
  if (res.headers.get('content-type') === 'application/wasm' && WebAssembly.instantiateStreaming) return { res };
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (!isWasm(bytes)) return { status: `not WebAssembly: ${res.headers.get('content-type') || 'no content type'}` };
  return { bytes };
}

// A file: URL read in Node, as fetchWasm reads the others.
async function readWasm(url) {
  const fsName = 'node:fs/promises';
  const { readFile } = await import(/* webpackIgnore: true */ /* @vite-ignore */ fsName);
  let bytes;
  try {
    bytes = await readFile(url);
  } catch (e) {
    return { status: e?.code ?? thrown(e) }; // ENOENT, EISDIR, EACCES
  }
  return isWasm(bytes) ? { bytes } : { status: 'not WebAssembly' };
}

const moduleName = (kind) => (kind === 'core' ? 'core' : 'training module');

async function wasmSource(url, defaulted, kind) {
  // A pre-bundled module tries the installed package first and its own relative address last.
  const moved = defaulted ? preBundledCandidates(import.meta.url, MODULES[kind].file) : [];
  const tried = [];
  for (const at of [...moved, url]) {
    const r = at.protocol === 'file:' && isNode() ? await readWasm(at) : await fetchWasm(at);
    if (!r.status) return r.res ?? r.bytes;
    tried.push(`${short(at.href)} (${r.status})`);
  }
  const { file, load } = MODULES[kind];
  throw new NormlabError(
    `normlab: could not load the WASM ${moduleName(kind)}; tried ${tried.join(', ')}. ` +
      `Serve normlab's dist/${file} and pass its address as ${load}({ wasmUrl }) before the first figure starts ` +
      "(README, 'Install and embed').",
    'load_failed',
  );
}

// The training module compiled once (a WebAssembly.Module), for loadTrainer() and every trainerWorker() alike:
// a page with both kinds of training figure downloads normlab-train.wasm once. A failed compile may be retried.
let compiledTrainer = null;
function compileTrainer(url, defaulted) {
  compiledTrainer ??= (async () => {
    const src = url ? await wasmSource(url, defaulted, 'train') : inlineBytes(inlineWasm.train);
    try {
      if (typeof Response !== 'undefined' && src instanceof Response) return await WebAssembly.compileStreaming(src);
      return await WebAssembly.compile(src);
    } catch (e) {
      throw new NormlabError(
        `normlab: could not load the WASM training module from ${url ? short(url.href) : 'the inline bytes'} (${thrown(e)})`,
        'load_failed',
      );
    }
  })().catch((e) => {
    compiledTrainer = null;
    throw e;
  });
  return compiledTrainer;
}

async function instantiate(url, defaulted, imports, kind) {
  const src =
    kind === 'train'
      ? await compileTrainer(url, defaulted)
      : url
        ? await wasmSource(url, defaulted, kind)
        : inlineBytes(inlineWasm[kind]);
  try {
    if (src instanceof WebAssembly.Module)
      return { module: src, instance: await WebAssembly.instantiate(src, imports) };
    if (typeof Response !== 'undefined' && src instanceof Response)
      return await WebAssembly.instantiateStreaming(src, imports);
    return await WebAssembly.instantiate(src, imports);
  } catch (e) {
    // bytes that begin as WebAssembly but do not compile or link (a truncated or foreign file)
    throw new NormlabError(
      `normlab: could not load the WASM ${moduleName(kind)} from ${url ? short(url.href) : 'the inline bytes'} (${thrown(e)})`,
      'load_failed',
    );
  }
}

// ---- reading what a caller passes ------------------------------------------
// Every value a caller hands in is read exactly once, here, into plain data
// before the core is entered: a getter or valueOf that calls the core runs to
// completion before this call touches WASM memory. JS checks only what it
// must to carry the data (kinds of value it cannot carry); every rule about
// sizes, names, limits and values is the core's (cpp/src/registry.cpp).

const NAME_KEEP = 65; // characters of a name that cross; the core judges the rest by its length
const RANK_KEEP = 33; // sizes of a shape that cross; the core judges the rest by the rank
const LIST_KEEP = 65; // entries of a list attribute that cross

/**
 * Run `fn` in a task of its own, soon: a message to itself, which browsers do not delay, where a
 * chain of setTimeout(0) is held back 4 ms a call after the fifth (HTML's timer nesting rule: the
 * depth figure's 6 ms training slices stood idle 40% of the time). The figures' training loops and
 * the trainer's main-thread fallback yield through it. Returns a function that cancels it.
 * @param {() => void} fn
 * @returns {() => void}
 */
export function nextTask(fn) {
  if (typeof MessageChannel === 'undefined') {
    const t = setTimeout(fn, 0);
    return () => clearTimeout(t);
  }
  const channel = new MessageChannel();
  let live = true;
  channel.port1.onmessage = () => {
    channel.port1.close();
    if (live) fn();
  };
  channel.port2.postMessage(0);
  return () => {
    live = false;
    channel.port1.close();
  };
}

/**
 * A caller's value as a message quotes it: on one line (line breaks and other
 * control characters become U+FFFD), and at most about 80 characters of it —
 * a longer one keeps its start and end around an ellipsis and gives its
 * length. The API's errors, the CLI's and the figures' all quote through this.
 * @param {unknown} value
 */
export function short(value) {
  let s = typeof value === 'string' ? value : String(value);
  const n = s.length;
  if (n > 80) {
    let head = s.slice(0, 60),
      tail = s.slice(-16);
    // not half of a surrogate pair at either cut
    if (/[\ud800-\udbff]$/.test(head)) head = head.slice(0, -1);
    if (/^[\udc00-\udfff]/.test(tail)) tail = tail.slice(1);
    s = `${head}…${tail} (${n} characters)`;
  }
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '\ufffd');
}
const camel = (s) => s.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
const snake = (s) => s.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());

// A number from whatever the caller gave (NaN for what is not one; the core names it).
// A valueOf that throws is not NaN: it propagates, and reading() names the argument.
function num(v) {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v === null || v === undefined || typeof v === 'boolean' || typeof v === 'symbol') return NaN; // not silently 0 or 1
  return Number(v);
}

const isList = (v) => Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView));

// A typed array's own length, buffer, offset and set, not what its (overridable) properties say.
const TypedArrayProto = Object.getPrototypeOf(Float32Array.prototype);
const typedGet = (key) => Object.getOwnPropertyDescriptor(TypedArrayProto, key).get;
const typedLength = typedGet('length'),
  typedBuffer = typedGet('buffer'),
  typedOffset = typedGet('byteOffset');
const typedSet = TypedArrayProto.set;

// A list's length, read once (a Proxy may answer differently each time, or with no count at all).
function lengthOf(op, what, v) {
  if (ArrayBuffer.isView(v)) return typedLength.call(v);
  const n = num(v.length);
  if (Number.isInteger(n) && n >= 0) return n;
  throw new NormlabError(`${op}: ${what} has a length that is not a count (${short(n)})`);
}

// Read one argument of the caller's. A getter, valueOf or Proxy trap of theirs
// that throws (or a revoked Proxy) becomes a NormlabError naming the op and the argument.
function reading(op, what, name, read) {
  try {
    return read();
  } catch (e) {
    if (e instanceof NormlabError) throw e;
    throw new NormlabError(`${op}: reading ${what} ${short(name)} threw: ${thrown(e)}`, 'invalid', name);
  }
}

// What a caller's code threw, shortened (its message may itself be a throwing getter).
function thrown(e) {
  try {
    return short(e instanceof Error ? e.message : String(e));
  } catch {
    return 'a value that cannot be printed';
  }
}

// Resident tensors: NlTensor -> its Embind handle, out of reach of callers.
const handles = new WeakMap();
const loaded = new Set(); // the loaded Cores (the core, and the training module once asked for)
let maxElements = Infinity; // elements one tensor may hold, from the core (the same in both modules)
// The Core whose WASM memory `a` is a view of (its buffer changes as it grows), or null.
const wasmView = (a) => {
  for (const c of loaded) if (typedBuffer.call(a) === c._m.HEAP8.buffer) return c;
  return null;
};

/**
 * A float32 tensor kept in WASM memory (core.tensor). Ops read it and write
 * into it in place, with no copy across the boundary; `data` is a view of it
 * (take it anew after any call: a growing WASM memory replaces views).
 */
const made = Symbol('core.tensor'); // only core.tensor makes tensors: a handle is never taken from a caller

function handleOf(t) {
  const h = handles.get(t);
  if (!h) throw new NormlabError('tensor: not a tensor made by core.tensor');
  return h;
}

export class NlTensor {
  constructor(core, shape, handle, key) {
    if (key !== made) throw new NormlabError('tensor: make tensors with core.tensor(shape, data)');
    Object.defineProperty(this, '_core', { value: core });
    handles.set(this, { handle, id: handle.id(), ptr: handle.pointer(), view: null, core });
    /** Its shape. */
    this.shape = Object.freeze(shape);
    /** Its number of elements. */
    this.size = handle.size();
    Object.freeze(this);
  }

  /** A Float32Array view of the tensor inside WASM memory. */
  get data() {
    const h = handleOf(this);
    if (!h.ptr) throw new NormlabError('tensor: this tensor was freed');
    const heap = this._core._m.HEAPF32;
    if (h.view?.buffer !== heap.buffer) h.view = heap.subarray(h.ptr >> 2, (h.ptr >> 2) + this.size);
    return h.view;
  }

  /** Whether free() was called. */
  get freed() {
    return !handleOf(this).ptr;
  }

  /** Give the memory back now (also done, later, when the tensor is garbage-collected). */
  free() {
    const h = handleOf(this);
    if (!h.ptr) return;
    this._core._live.delete(h.ptr);
    h.ptr = 0;
    h.view = null;
    tensorRegistry?.unregister(this);
    h.handle.delete();
  }
}

const tensorRegistry =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry(({ handle, ptr, live }) => {
        if (live.get(ptr)?.deref() === undefined) live.delete(ptr);
        if (!handle.isDeleted()) handle.delete();
      })
    : null;

// {shape, data} | NlTensor -> an input the request can carry.
function readInput(op, name, t) {
  const resident = handles.get(t);
  if (resident) return { shape: Array.from(t.shape), resident };
  if (t instanceof NlTensor) throw new NormlabError(`${op}: input ${short(name)} is not a tensor made by core.tensor`);
  if (t === null || typeof t !== 'object') {
    throw new NormlabError(
      `${op}: input ${short(name)} must be {shape, data}, a resident tensor, a Float32Array or a list of numbers`,
      'invalid',
      name,
    );
  }
  const shapeIn = t.shape,
    dataIn = t.data;
  const { shape, rank } = readShape(op, name, shapeIn);
  const res = handles.get(dataIn);
  if (res) return { shape, rank, resident: res };
  const data = floats(op, name, dataIn);
  return { shape, rank, data, n: typedLength.call(data) };
}

function readShape(op, name, shape) {
  if (!isList(shape))
    throw new NormlabError(`${op}: the shape of ${short(name)} must be a list of sizes`, 'invalid', name);
  const rank = lengthOf(op, `the shape of ${short(name)}`, shape); // read once: a valueOf below may change it
  const dims = [];
  for (let a = 0; a < Math.min(rank, RANK_KEEP); a++) dims.push(num(shape[a]));
  return { shape: dims, rank };
}

// The numbers of an input as a Float32Array that is not a view of WASM memory
// (a growing memory would detach such a view in the middle of the call): the
// caller's own Float32Array, or a copy made with one read of the length and
// one of each number.
function floats(op, name, d) {
  if (handles.has(d)) return Float32Array.from(d.data);
  if (!isList(d))
    throw new NormlabError(
      `${op}: input ${short(name)} needs data (a Float32Array, a list of numbers or a resident tensor)`,
      'invalid',
      name,
    );
  const n = lengthOf(op, `input ${short(name)}`, d);
  if (n > maxElements) {
    // no tensor holds more (the core's own limit, read from it at load): refused before anything is copied
    throw new NormlabError(
      `${op}: input ${short(name)} has ${n} numbers, more than the limit of ${maxElements} elements`,
      'too_large',
      name,
    );
  }
  if (d instanceof Float32Array) return wasmView(d) ? new Float32Array(d) : d;
  const f = new Float32Array(n);
  for (let i = 0; i < n; i++) f[i] = num(d[i]);
  return f;
}

function readAttr(op, name, v) {
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'bigint') return Number(v);
  if (isList(v)) {
    // lists hold sizes, axes or an index: at most 65 entries cross; the core judges the rest by the length
    const length = lengthOf(op, `attribute ${short(name)}`, v); // read once
    const kept = new Float64Array(Math.min(length, LIST_KEEP));
    for (let i = 0; i < kept.length; i++) kept[i] = num(v[i]);
    return { list: kept, length };
  }
  throw new NormlabError(
    `${op}: attribute ${short(name)} must be a number, boolean, string or list of numbers`,
    'invalid',
    name,
  );
}

// Where an output goes: a resident tensor (written by the core in place) or a
// Float32Array (copied into once; a view of WASM memory is written through a
// fresh view of the same bytes after the call, so a growing memory cannot lose it).
function readTarget(method, option, output, t) {
  const resident = handles.get(t);
  if (resident) return { resident, tensor: t };
  if (ArrayBuffer.isView(t) && t instanceof Float32Array) {
    // (a real one: its length and buffer are read below)
    const core = wasmView(t);
    if (core) {
      // A view of WASM memory is written only when it is exactly a live tensor's data (then as that tensor).
      const owner = core._live.get(typedOffset.call(t))?.deref();
      if (owner && !owner.freed && owner.size === typedLength.call(t))
        return { resident: handles.get(owner), tensor: owner, view: true };
      throw new NormlabError(
        `${method}: ${short(option)} is a view of WASM memory that is not a live tensor's data; pass the tensor itself`,
        'invalid',
        option,
      );
    }
    // where it lies, read now: the overlap and detach checks use this, not the caller's properties
    const buffer = typedBuffer.call(t),
      offset = typedOffset.call(t),
      length = typedLength.call(t);
    return { array: t, method, option, buffer, offset, length };
  }
  const got = t === null ? 'null' : typeof t === 'object' ? 'another kind of object' : short(String(t));
  throw new NormlabError(
    `${method}: ${short(option)} must be a Float32Array or resident tensor for output ${short(output)} (got ${got})`,
    'invalid',
    option,
  );
}

function deepFreeze(o) {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

// ---- the request: data, a header of doubles, names as bytes ------------------
// Layout in the arena (see cpp/bindings/embind.cpp): input data first (each
// input 16-byte aligned), then the header, then the names' UTF-8 bytes.

const encoder = new TextEncoder();

class Request {
  constructor(op) {
    this.h = [];
    this.texts = [];
    this.textBytes = 0;
    this.data = []; // [Float32Array, float offset]
    this.floats = 0;
    this.name(op);
  }
  name(s) {
    const kept = s.length > NAME_KEEP ? s.slice(0, NAME_KEEP) : s;
    let bytes = kept; // ASCII (every real name) is written byte for byte; anything else as UTF-8
    for (let i = 0; i < kept.length; i++) {
      if (kept.charCodeAt(i) > 0x7f) {
        bytes = encoder.encode(kept);
        break;
      }
    }
    this.h.push(s.length, bytes.length);
    this.texts.push(bytes);
    this.textBytes += bytes.length;
  }
  inputs(list, describing) {
    this.h.push(list.length);
    for (const [name, t] of list) {
      this.name(name);
      this.h.push(t.rank ?? t.shape.length);
      for (const d of t.shape) this.h.push(d);
      if (t.resident) this.h.push(1, t.resident.ptr ? t.resident.id : -1, 0);
      else if (t.data) {
        this.h.push(0, this.floats, t.n);
        this.data.push([t.data, this.floats, t.n]);
        this.floats += (t.n + 3) & ~3;
      } else this.h.push(describing ? 2 : 0, 0, 0);
    }
  }
  attrs(list) {
    this.h.push(list.length);
    for (const [name, v] of list) {
      this.name(name);
      if (typeof v === 'number') this.h.push(0, v);
      else if (typeof v === 'boolean') this.h.push(1, v ? 1 : 0);
      else if (typeof v === 'string') {
        this.h.push(2);
        this.name(v);
      } else {
        this.h.push(3, v.length, v.list.length);
        for (let i = 0; i < v.list.length; i++) this.h.push(v.list[i]);
      }
    }
  }
  // Every target crosses (the core checks its name); a resident one by id, an array as 0 (copied into here).
  targets(list) {
    this.h.push(list.length);
    for (const [name, t] of list) {
      this.name(name);
      this.h.push(t.resident ? (t.resident.ptr ? t.resident.id : -1) : 0);
    }
  }
  // Write it into the arena; returns [base, headerAt, headerCount, textBytes].
  place(m, arena) {
    const headerAt = this.floats * 4;
    const base = arena.reserve(headerAt + this.h.length * 8 + this.textBytes);
    const f32 = m.HEAPF32,
      f64 = m.HEAPF64,
      u8 = m.HEAPU8;
    // (lengths checked after the last read; a view detached before it was read has none and is not touched)
    for (const [d, at, n] of this.data) if (n) f32.set(d, (base >> 2) + at);
    f64.set(this.h, (base + headerAt) >> 3);
    let t = base + headerAt + this.h.length * 8;
    for (const b of this.texts) {
      if (typeof b === 'string') for (let i = 0; i < b.length; i++) u8[t + i] = b.charCodeAt(i);
      else u8.set(b, t);
      t += b.length;
    }
    return [base, headerAt, this.h.length, this.textBytes];
  }
}

// A caller's getter, valueOf or Proxy that throws (or a revoked Proxy) while
// its arguments are read, outside any one argument (reading() names that one):
// a NormlabError naming the op, not a raw TypeError.
function foreign(e, label) {
  if (e instanceof NormlabError) return e;
  return new NormlabError(`${label}: could not read the arguments (${thrown(e)})`);
}

// Every C++ exception is caught in the core; one that escaped anyway arrives as a WebAssembly.Exception.
function unexpected(e) {
  if (typeof WebAssembly.Exception === 'function' && e instanceof WebAssembly.Exception) {
    return new NormlabError('normlab: the core failed unexpectedly (an uncaught C++ exception)');
  }
  return e;
}

// The arena as JS sees it: the block the last reserve() returned, used again
// while it is large enough (an Embind call saved per op call). After a call
// that moved much data, release() hands the core's results back (and the core
// gives a large arena back), so the block is asked for anew.
class ArenaView {
  constructor(m) {
    this.m = m;
    this.base = 0;
    this.bytes = 0;
  }
  reserve(bytes) {
    if (this.base && bytes <= this.bytes) return this.base;
    this.base = 0;
    const base = this.m.reserve(bytes);
    if (!base) throw coreError(this.m);
    this.base = base;
    this.bytes = bytes;
    return base;
  }
  // After a call: small calls keep their (small) results until the next one.
  done(floats) {
    if (floats < 65536 && this.bytes < 1 << 20) return;
    this.m.release();
    this.base = 0;
  }
}

/** The loaded core. Obtain it with loadCore(). */
export class Core {
  constructor(module) {
    this._m = module;
    this._arena = new ArenaView(module);
    loaded.add(this);
    // byte address -> WeakRef(NlTensor), to recognise a tensor's data view given as `out`
    this._live = new Map();
    maxElements = module.maxElements();
    this._specs = deepFreeze(JSON.parse(module.registry()));
    /** Names of every operation the core provides. */
    this.ops = Object.freeze(Object.keys(this._specs));
    // One camelCase function per op, made from the registry (attention is
    // also scaledDotProductAttention).
    for (const op of this.ops) {
      const method = camel(op);
      Object.defineProperty(this, method, { value: (x, options) => this._named(op, method, x, options) });
    }
    Object.defineProperty(this, 'attention', {
      value: (q, options) => this._named('scaled_dot_product_attention', 'attention', q, options),
    });
  }

  /** Bytes currently allocated inside the WASM heap (diagnostics and leak tests). */
  heapBytes() {
    return this._m.heapBytes();
  }

  /** Bytes of the WASM memory itself (it grows, up to 1 GiB, and never shrinks). */
  memoryBytes() {
    return this._m.HEAP8.length;
  }

  /** Inputs, attributes (kind, default) and outputs of an operation, as the core declares them. */
  spec(op) {
    if (typeof op === 'string' && Object.hasOwn(this._specs, op)) return this._specs[op];
    throw new NormlabError(`unknown operation '${typeof op === 'string' ? short(op) : typeof op}'`, 'unknown_op');
  }

  /**
   * Run an operation of docs/ops.md by name.
   * @param {string} op
   * @param {Record<string, {shape: number[], data: ArrayLike<number> | NlTensor} | NlTensor | null | undefined>} inputs
   * @param {Record<string, number | boolean | string | number[]>} attrs
   * @param {{out?: Record<string, NlTensor | Float32Array>}} options where outputs go
   * @returns {Record<string, {shape: number[], data: Float32Array | number[] | NlTensor}>}
   */
  run(op, inputs = {}, attrs = {}, options = {}) {
    if (typeof op !== 'string') throw new NormlabError(`run: the operation name must be a string (got ${typeof op})`);
    const label = short(op);
    const ins = [],
      ats = [],
      outs = [];
    try {
      if (inputs != null) {
        if (typeof inputs !== 'object') throw new NormlabError(`${label}: inputs must be an object of named tensors`);
        for (const name of Object.keys(inputs)) {
          const t = reading(label, 'input', name, () => inputs[name]);
          if (t != null) ins.push([name, reading(label, 'input', name, () => readInput(label, name, t))]);
        }
      }
      if (attrs != null) {
        if (typeof attrs !== 'object') throw new NormlabError(`${label}: attributes must be an object`);
        for (const name of Object.keys(attrs)) {
          const v = reading(label, 'attribute', name, () => attrs[name]);
          if (v !== undefined) ats.push([name, reading(label, 'attribute', name, () => readAttr(label, name, v))]);
        }
      }
      const targets = options == null || typeof options !== 'object' ? undefined : options.out;
      if (targets != null) {
        if (typeof targets !== 'object') throw new NormlabError(`${label}: out must be an object of outputs`);
        for (const name of Object.keys(targets)) {
          const t = reading(label, 'out', name, () => targets[name]);
          if (t != null)
            outs.push([name, reading(label, 'out', name, () => readTarget('run', `out.${name}`, name, t))]);
        }
      }
    } catch (e) {
      throw foreign(e, label);
    }
    return this._call(op, ins, ats, outs);
  }

  // Enter the core once with what was read: place, run, copy out, release.
  _call(op, ins, ats, outs) {
    const m = this._m;
    // A resident tensor lives in one module's memory; its id means nothing to the other.
    for (const [name, t] of ins) {
      if (t.resident && t.resident.core !== this) throw this._foreignTensor(op, `input ${short(name)}`, name);
    }
    for (const [name, t] of outs) {
      if (t.resident && t.resident.core !== this)
        throw this._foreignTensor(op, `the target for output ${short(name)}`, name);
    }
    // A caller's array detached or resized by their own code after it was read (a
    // valueOf that transfers its buffer): named now, before the core is entered.
    for (const [name, t] of ins) {
      if (t.data && typedLength.call(t.data) !== t.n) {
        throw new NormlabError(
          `${op}: input ${short(name)} was detached or resized while the arguments were read`,
          'invalid',
          name,
        );
      }
    }
    for (const [, t] of outs) {
      if (t.array && typedLength.call(t.array) !== t.length) {
        throw new NormlabError(
          `${t.method}: ${short(t.option)} was detached or resized while the arguments were read`,
          'invalid',
          t.option,
        );
      }
    }
    // Two array targets sharing memory would silently overwrite each other.
    const arrays = outs.filter(([, t]) => t.array);
    for (let i = 0; i < arrays.length; i++) {
      for (let j = 0; j < i; j++) {
        const a = arrays[i][1],
          b = arrays[j][1];
        if (a.buffer === b.buffer && a.offset < b.offset + 4 * b.length && b.offset < a.offset + 4 * a.length) {
          throw new NormlabError(
            `${op}: the targets for outputs ${short(arrays[j][0])} and ${short(arrays[i][0])} overlap`,
          );
        }
      }
    }
    const req = new Request(op);
    req.inputs(ins, false);
    req.attrs(ats);
    req.targets(outs);
    let moved = req.floats; // numbers that crossed, in and out: a large call gives its memory back after
    try {
      const [, headerAt, headerCount, textBytes] = req.place(m, this._arena);
      const listing = m.invoke(headerAt, headerCount, textBytes);
      if (!listing) throw coreError(m);
      const outputs = this._specs[op].outputs;
      const f64 = m.HEAPF64,
        f32 = m.HEAPF32;
      const result = {};
      let at = listing >> 3;
      const n = f64[at++];
      // every array target is checked against its output before any is written
      for (let i = 0, k = at; i < n; i++) {
        const name = outputs[f64[k]],
          rank = f64[k + 2],
          size = f64[k + 4 + rank];
        k += 5 + rank;
        for (const [o, t] of outs) {
          if (o === name && t.array && t.length !== size) {
            throw new NormlabError(
              `${t.method}: ${short(t.option)} must be a Float32Array or resident tensor of ${size} elements (got a Float32Array of ${t.length})`,
            );
          }
        }
      }
      for (let i = 0; i < n; i++) {
        const name = outputs[f64[at]];
        const integer = f64[at + 1] === 1,
          rank = f64[at + 2];
        const shape = [];
        for (let a = 0; a < rank; a++) shape.push(f64[at + 3 + a]);
        at += 3 + rank;
        const ptr = f64[at],
          size = f64[at + 1];
        at += 2;
        moved += size;
        let target = null;
        for (const [o, t] of outs) if (o === name) target = t;
        let data;
        if (integer) data = Array.from(f64.subarray(ptr / 8, ptr / 8 + size));
        else if (target?.resident)
          data = target.view ? target.tensor.data : target.tensor; // a view given: a fresh one back
        else if (target) {
          data = target.array;
          typedSet.call(data, f32.subarray(ptr >> 2, (ptr >> 2) + size)); // not a `set` of the caller's
        } else data = f32.slice(ptr >> 2, (ptr >> 2) + size);
        result[name] = { shape, data };
      }
      return result;
    } catch (e) {
      throw unexpected(e);
    } finally {
      this._arena.done(moved);
    }
  }

  _foreignTensor(op, what, name) {
    return new NormlabError(
      `${op}: ${what} is a tensor of the other module (loadCore() and loadTrainer() each ` +
        'keep their own memory); pass its data instead',
      'invalid',
      name,
    );
  }

  /**
   * The five pieces of a normalization for an input of `shape` — group
   * (layout, reduced axes, statistics' shape), measurement, transform (eps
   * and where it goes), parameter views and mode — the very description the
   * core runs.
   * @param {string} op
   * @param {{shape: number[], attrs?: Record<string, unknown>, inputs?: Record<string, number[]>}} options
   */
  describe(op, options = {}) {
    if (typeof op !== 'string')
      throw new NormlabError(`describe: the operation name must be a string (got ${typeof op})`);
    const label = short(op);
    if (options == null || typeof options !== 'object')
      throw new NormlabError(`${label}: describe takes {shape, attrs}`);
    const first = Object.hasOwn(this._specs, op) ? (this._specs[op].inputs[0]?.name ?? 'x') : 'x';
    const ins = [],
      ats = [];
    try {
      const { shape, attrs, inputs } = options;
      if (shape != null) ins.push([first, reading(label, 'input', first, () => readShape(label, first, shape))]);
      if (inputs != null && typeof inputs === 'object') {
        for (const name of Object.keys(inputs))
          ins.push([name, reading(label, 'input', name, () => readShape(label, name, inputs[name]))]);
      }
      if (attrs != null && typeof attrs === 'object') {
        for (const name of Object.keys(attrs)) {
          const v = reading(label, 'attribute', name, () => attrs[name]);
          if (v !== undefined)
            ats.push([snake(name), reading(label, 'attribute', snake(name), () => readAttr(label, name, v))]); // numGroups or num_groups
        }
      }
    } catch (e) {
      throw foreign(e, label);
    }
    const m = this._m;
    const req = new Request(op);
    req.inputs(ins, true);
    req.attrs(ats);
    req.targets([]);
    try {
      const [, headerAt, headerCount, textBytes] = req.place(m, this._arena);
      const json = m.describe(headerAt, headerCount, textBytes);
      if (!json) throw coreError(m);
      return deepFreeze(JSON.parse(json));
    } catch (e) {
      throw unexpected(e);
    } finally {
      this._arena.done(0);
    }
  }

  // The camelCase spelling, sugar over the same door: the first input
  // positional (a Float32Array, list, {shape, data} or resident tensor), the
  // rest options — other inputs and attributes by camelCase or snake_case
  // name, `shape` for the first input (an attribute for ops without inputs),
  // `out` for the first output and
  // `out<Name>` for the others. One output comes back as its data, several as
  // an object of camelCase names.
  _named(op, method, x, options) {
    const spec = this._specs[op];
    if (!spec.inputs.length) {
      if (options !== undefined && x !== undefined)
        throw new NormlabError(`${op}: ${method} takes one argument, its options (the op has no inputs)`);
      if (options === undefined) [x, options] = [undefined, x];
    }
    if (options == null) options = {};
    const ins = [],
      ats = [],
      outs = [];
    try {
      if (typeof options !== 'object') throw new NormlabError(`${method}: options must be an object`);
      // Each option read once, in order, into entries (not into an object, where an
      // own `__proto__` key, as JSON.parse makes, would become its prototype and vanish).
      const entries = [];
      for (const key of Object.keys(options)) entries.push([key, reading(op, 'option', key, () => options[key])]);
      const reshape = spec.inputs.length ? entries.find(([key]) => key === 'shape')?.[1] : undefined;
      // A list (copied here, its length read once) or a resident tensor as {shape, data}.
      const tensorOf = (name, v, shape) => {
        if (handles.has(v)) return { shape: shape ?? v.shape, data: v };
        if (!isList(v)) return v;
        const data = floats(op, name, v);
        return { shape: shape ?? [typedLength.call(data)], data };
      };
      if (spec.inputs.length) {
        const first = spec.inputs[0].name;
        if (x == null) throw new NormlabError(`${method}: the first argument is the input ${first}`);
        ins.push([
          first,
          reading(op, 'input', first, () => {
            const given =
              reshape !== undefined && x && typeof x === 'object' && !isList(x) && !handles.has(x)
                ? { shape: reshape, data: x.data }
                : tensorOf(first, x, reshape);
            return readInput(op, first, given);
          }),
        ]);
      }
      for (const [key, v] of entries) {
        if ((key === 'shape' && spec.inputs.length) || v === undefined) continue; // `shape` reshapes the first input
        if (key === 'out' || /^out[A-Z]/.test(key)) {
          const output = key === 'out' ? spec.outputs[0] : snake(key.slice(3)).replace(/^_/, '');
          if (v !== null) outs.push([output, reading(method, 'option', key, () => readTarget(method, key, output, v))]);
          continue;
        }
        const name = snake(key);
        const input = spec.inputs.find((i) => i.name === name || i.name === key);
        const attr = spec.attrs.find((a) => a.name === name || a.name === key);
        // A name the op does not know goes as an input when it holds a tensor (the core names it either way).
        const tensorLike = reading(
          op,
          'option',
          key,
          () => handles.has(v) || (v !== null && typeof v === 'object' && !isList(v) && 'shape' in v),
        );
        if (input || (!attr && tensorLike)) {
          const inName = input?.name ?? name;
          if (v !== null)
            ins.push([inName, reading(op, 'input', inName, () => readInput(op, inName, tensorOf(inName, v)))]);
        } else {
          const atName = attr?.name ?? name;
          ats.push([atName, reading(op, 'attribute', atName, () => readAttr(op, atName, v))]);
        }
      }
    } catch (e) {
      throw foreign(e, op);
    }
    const res = this._call(op, ins, ats, outs);
    if (spec.outputs.length === 1) return res[spec.outputs[0]].data;
    return Object.fromEntries(Object.keys(res).map((n) => [camel(n), res[n].data]));
  }
}

/**
 * A tensor in WASM memory, zero-filled or holding a copy of `data`.
 * @param {readonly number[]} shape
 * @param {ArrayLike<number>} [data]
 */
Core.prototype.tensor = function (shape, data) {
  let dims, values;
  try {
    dims = reading('tensor', 'argument', 'shape', () => readShape('tensor', 'shape', shape));
    values = data == null ? null : reading('tensor', 'argument', 'data', () => floats('tensor', 'data', data));
  } catch (e) {
    throw foreign(e, 'tensor');
  }
  const m = this._m;
  let handle;
  try {
    const base = this._arena.reserve(8 * (dims.shape.length + 1));
    m.HEAPF64.set(dims.shape, base >> 3);
    handle = new m.Resident(0, dims.rank);
  } catch (e) {
    throw unexpected(e);
  }
  if (!handle.id()) {
    handle.delete();
    throw coreError(m);
  }
  const t = new NlTensor(this, dims.shape.slice(), handle, made);
  const ptr = handles.get(t).ptr;
  this._live.set(ptr, new WeakRef(t));
  tensorRegistry?.register(t, { handle, ptr, live: this._live }, t);
  if (values) {
    const n = typedLength.call(values); // (values may be the caller's own Float32Array)
    if (n !== t.size) {
      t.free();
      throw new NormlabError(`tensor: data has ${n} numbers but shape [${dims.shape.join(', ')}] holds ${t.size}`);
    }
    typedSet.call(t.data, values);
  }
  return t;
};

const shared = { core: null, train: null };
const given = { train: null }; // loadCore({ trainerUrl }): where loadTrainer() will look

// A location the caller gave, as a URL (relative to the page), or a load_failed NormlabError naming it.
function locationOf(kind, option, value, base) {
  try {
    return new URL(value, base);
  } catch {
    let text;
    try {
      text = String(value);
    } catch {
      text = typeof value;
    }
    throw new NormlabError(
      `normlab: could not load the WASM ${moduleName(kind)}: ${option} '${short(text)}' is not a URL`,
      'load_failed',
      option,
    );
  }
}

// One module, loaded once; a failed load may be retried.
function load(kind, options) {
  if (options == null || typeof options !== 'object') options = {};
  const base = globalThis.location?.href ?? import.meta.url;
  try {
    if (kind === 'core' && options.trainerUrl)
      given.train = locationOf('train', 'trainerUrl', options.trainerUrl, base);
    if (!shared[kind])
      return start(kind, options.wasmUrl ? locationOf(kind, 'wasmUrl', options.wasmUrl, base) : given[kind]);
  } catch (e) {
    return Promise.reject(
      e instanceof NormlabError
        ? e
        : new NormlabError(
            `normlab: could not read the options of ${MODULES[kind].load} (${thrown(e)})`,
            'load_failed',
          ),
    );
  }
  return shared[kind];
}

// Load it from `explicit`, else next to this module (or from the inline bytes).
function start(kind, explicit) {
  const url = explicit ?? (inlineWasm[kind] ? null : MODULES[kind].url());
  shared[kind] = new Promise((resolve, reject) => {
    createNormlabCore({
      locateFile: () => (url ? url.href : 'inline.wasm'),
      instantiateWasm(imports, receive) {
        instantiate(url, !explicit, imports, kind).then((r) => receive(r.instance, r.module), reject);
        return {};
      },
      onAbort: (what) => reject(new NormlabError(`normlab: the WASM ${moduleName(kind)} aborted (${short(what)})`)),
    }).then((m) => resolve(new Core(m)), reject);
  }).catch((e) => {
    shared[kind] = null;
    throw e instanceof NormlabError
      ? e
      : new NormlabError(`normlab: could not load the WASM ${moduleName(kind)} (${thrown(e)})`, 'load_failed');
  });
  return shared[kind];
}

/**
 * Load the WASM core once and return it; later calls return the same core.
 * It holds every op but the training ones (loadTrainer).
 * @param {{wasmUrl?: string | URL, trainerUrl?: string | URL}} [options] where the .wasm file
 *   lives, for unusual hosts; trainerUrl: where normlab-train.wasm lives, for a later
 *   loadTrainer() (nothing is fetched for it now)
 * @returns {Promise<Core>}
 */
export function loadCore(options = {}) {
  return load('core', options);
}

/**
 * Load the training module once and return it: a second core, with its own
 * memory, holding the training ops (train_init, train_step, ...) and the norm
 * backward passes. It is a separate download (dist/normlab-train.wasm) so
 * that pages without <nl-depth-training> do not pay for it. Its resident
 * tensors are its own: pass data, not tensors, between the two.
 * @param {{wasmUrl?: string | URL}} [options] where normlab-train.wasm lives, for unusual hosts
 * @returns {Promise<Core>}
 */
export function loadTrainer(options = {}) {
  return load('train', options);
}

// ---- the training module in Web Workers --------------------------------------
// The single-file build defines this as the worker's own script (dist/normlab-worker.js), for a Blob worker.
/* global __NORMLAB_INLINE_WORKER__ */
const inlineWorker = typeof __NORMLAB_INLINE_WORKER__ === 'string' ? __NORMLAB_INLINE_WORKER__ : null;

// The training module compiled once, from where loadTrainer() would load it (the same compile as its).
function trainerModule(options) {
  const base = globalThis.location?.href ?? import.meta.url;
  const explicit = options?.wasmUrl ? locationOf('train', 'wasmUrl', options.wasmUrl, base) : given.train;
  const url = explicit ?? (inlineWasm.train ? null : MODULES.train.url());
  return compileTrainer(url, !explicit);
}

// A worker that has taken the module and said it is ready, or null (it could not start here).
function startWorker(make, module) {
  return new Promise((resolve) => {
    let w;
    try {
      w = make();
    } catch {
      return resolve(null); // no Worker, a content security policy that forbids this kind, a bad address
    }
    const done = (ok) => {
      w.onmessage = w.onerror = null;
      if (!ok) w.terminate();
      resolve(ok ? w : null);
    };
    w.onmessage = ({ data }) => done(Boolean(data?.ready));
    w.onerror = (e) => {
      e.preventDefault?.();
      done(false);
    };
    w.postMessage({ module });
  });
}

// Where the worker's script is: beside this module's dist/ (or the installed package's, when a bundler
// pre-bundled this file elsewhere); its text, for a Blob worker, when it is there but not same-origin.
async function workerScript() {
  if (inlineWorker) return { text: inlineWorker };
  let own;
  try {
    own = new URL('../../dist/normlab-worker.js', import.meta.url);
  } catch {
    return {};
  }
  for (const at of [...preBundledCandidates(import.meta.url, 'normlab-worker.js'), own]) {
    let res;
    try {
      res = await fetch(at, { credentials: 'same-origin' });
    } catch {
      continue;
    }
    if (!res.ok || !/javascript/.test(res.headers.get('content-type') ?? '')) continue;
    if (globalThis.location && at.origin === globalThis.location.origin) return { url: at };
    return { text: await res.text() };
  }
  return {};
}

/**
 * The training module in a Web Worker of its own, so that training never holds up the page: `run(op,
 * inputs, attrs)` is core.run in the worker, returning a promise of its outputs ({shape, data} with
 * Float32Array data). It starts from the worker script beside the package's dist/, else as a Blob
 * worker, else (no Worker, or a content security policy that allows neither) on the main thread
 * (`where` says which: 'worker', 'blob' or 'main'). Each call of trainerWorker() starts another worker:
 * a pool trains runs side by side. close() stops it.
 * @param {{wasmUrl?: string | URL}} [options] where normlab-train.wasm lives, as for loadTrainer
 * @returns {Promise<{where: 'worker' | 'blob' | 'main', run(op: string, inputs?: object, attrs?: object): Promise<Record<string, {shape: number[], data: Float32Array}>>, close(): void}>}
 */
export async function trainerWorker(options = {}) {
  let w = null,
    where = 'main';
  if (typeof Worker !== 'undefined') {
    const module = await trainerModule(options);
    const script = await workerScript();
    if (script.url) {
      w = await startWorker(() => new Worker(script.url), module);
      where = 'worker';
    }
    if (!w && script.text !== undefined) {
      const blob = URL.createObjectURL(new Blob([script.text], { type: 'text/javascript' }));
      w = await startWorker(() => new Worker(blob), module);
      URL.revokeObjectURL(blob);
      where = 'blob';
    }
  }
  if (!w) {
    const trainer = await loadTrainer(options);
    // a call a task: the caller's loop yields between calls as it would for a worker
    return {
      where: 'main',
      run: (op, inputs, attrs) =>
        new Promise((resolve, reject) =>
          nextTask(() => {
            try {
              resolve(trainer.run(op, inputs, attrs));
            } catch (e) {
              reject(e);
            }
          }),
        ),
      close() {},
    };
  }
  const waiting = new Map();
  let next = 1;
  w.onmessage = ({ data }) => {
    const p = waiting.get(data.id);
    if (!p) return;
    waiting.delete(data.id);
    if (data.error) {
      const e = new NormlabError(data.error.message, data.error.code, data.error.argument);
      p.reject(e);
    } else p.resolve(data.result);
  };
  return {
    where,
    run(op, inputs = {}, attrs = {}) {
      return new Promise((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve, reject });
        try {
          w.postMessage({ id, op, inputs, attrs });
        } catch (e) {
          waiting.delete(id);
          reject(
            new NormlabError(
              `${typeof op === 'string' ? short(op) : 'run'}: could not send the call to the worker (${thrown(e)})`,
            ),
          );
        }
      });
    },
    close() {
      w.terminate();
      for (const p of waiting.values())
        p.reject(new NormlabError('normlab: the training worker was closed', 'invalid'));
      waiting.clear();
    },
  };
}
