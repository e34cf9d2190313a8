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

const defaultWasmUrl = () => new URL('../../dist/normlab-core.wasm', import.meta.url);

// The single-file build (dist/normlab.single.js) defines this as the WASM
// bytes in base64, so that a page opened from disk needs no second file.
/* global __NORMLAB_INLINE_WASM__ */
const inlineWasm = typeof __NORMLAB_INLINE_WASM__ === 'string' ? __NORMLAB_INLINE_WASM__ : null;

function inlineBytes() {
  const bin = atob(inlineWasm);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

/** An error reported by the core; `message` names the operation and argument. */
export class NormlabError extends Error {
  constructor(message) {
    super(message);
    this.name = 'NormlabError';
  }
}

const isNode = () =>
  typeof process !== 'undefined' && !!process.versions?.node && typeof window === 'undefined';

async function wasmBytesOrResponse(url) {
  if (url.protocol === 'file:' && isNode()) {
    const fsName = 'node:fs/promises';
    const { readFile } = await import(/* @vite-ignore */ fsName);
    return readFile(url);
  }
  const res = await fetch(url, { credentials: 'same-origin' });
  if (!res.ok) throw new NormlabError(`normlab: could not load the WASM core from ${url} (HTTP ${res.status})`);
  return res;
}

async function instantiate(url, imports) {
  const src = url ? await wasmBytesOrResponse(url) : inlineBytes();
  if (typeof Response !== 'undefined' && src instanceof Response) {
    if (WebAssembly.instantiateStreaming && src.headers.get('content-type') === 'application/wasm') {
      return WebAssembly.instantiateStreaming(src, imports);
    }
    return WebAssembly.instantiate(await src.arrayBuffer(), imports);
  }
  return WebAssembly.instantiate(src, imports);
}

function toDouble(v) {
  return typeof v === 'number' ? v : Number(v);
}

const camel = (s) => s.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
const snake = (s) => s.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());

/** The loaded core. Obtain it with loadCore(). */
export class Core {
  constructor(module) {
    this._m = module;
    /** Names of every operation the core provides. */
    this.ops = Object.freeze(module.opNames().split(','));
    this._specs = new Map();
    // Emscripten binds an export lazily: its first call swaps in the raw WASM
    // function. Call once (rows = 0 returns at once) and keep the raw one.
    module._nl_rows(0, 0, 0, 0, 0, 0, 0, 0);
    this._nlRows = module._nl_rows;
    this._heap = null;
    this._smallPtr = 0;
  }

  /** Bytes currently allocated inside the WASM heap (diagnostics and leak tests). */
  heapBytes() {
    return this._m.heapBytes();
  }

  /** Bytes of the WASM memory itself (it grows, up to 1 GiB, and never shrinks). */
  memoryBytes() {
    return this._m.HEAP8.length;
  }

  /** Inputs, attributes and outputs of an operation, as the core declares them. */
  spec(op) {
    let s = this._specs.get(op);
    if (!s) {
      const text = this._m.opSpec(op);
      if (!text) throw new NormlabError(`unknown operation '${op}'`);
      const [ins, attrs, outs] = text.split('|');
      s = {
        inputs: ins ? ins.split(',').map((n) => ({ name: n.replace('?', ''), optional: n.endsWith('?') })) : [],
        attrs: attrs ? attrs.split(',') : [],
        outputs: outs ? outs.split(',') : [],
      };
      this._specs.set(op, Object.freeze(s));
    }
    return s;
  }

  _call(fn) {
    try {
      return fn();
    } catch (e) {
      // The boundary catches every C++ exception; one that escaped anyway
      // arrives as a WebAssembly.Exception.
      if (typeof WebAssembly.Exception === 'function' && e instanceof WebAssembly.Exception) {
        throw new NormlabError('normlab: the core failed unexpectedly (an uncaught C++ exception)');
      }
      throw e;
    }
  }

  _scratch(values) {
    const m = this._m;
    const ptr = m.scratch(Math.max(values.length, 1));
    if (!ptr) throw new NormlabError(m.errorMessage());
    m.HEAPF64.set(values, ptr / 8);
  }

  /**
   * Run an operation of ops.md by name.
   * @param {string} op
   * @param {Record<string, {shape: number[], data: ArrayLike<number>} | null | undefined>} inputs
   * @param {Record<string, number | boolean | string | number[]>} attrs
   * @returns {Record<string, {shape: number[], data: Float32Array | number[]}>}
   */
  run(op, inputs = {}, attrs = {}) {
    if (typeof op !== 'string') throw new TypeError('normlab: the operation name must be a string');
    const m = this._m;
    return this._call(() => {
      m.request(op);
      try {
        for (const [name, t] of Object.entries(inputs ?? {})) {
          if (t == null) continue; // an omitted optional input
          const shape = Array.isArray(t.shape) ? t.shape.map(toDouble) : null;
          // A view of WASM memory itself (say, a resident tensor's data) is copied out
          // first: allocating the input below may grow the memory and detach it.
          const resident = t instanceof NlTensor ? t : t.resident instanceof NlTensor ? t.resident : null;
          const data = !resident && ArrayBuffer.isView(t.data) && t.data.buffer === m.HEAP8.buffer ? t.data.slice() : t.data;
          if (!shape || data == null || typeof data.length !== 'number') {
            throw new NormlabError(`${op}: input ${name} must be {shape: number[], data: number[] | Float32Array}`);
          }
          this._scratch(shape);
          const ptr = m.addInput(name, shape.length, data.length);
          const failed = m.errorMessage();
          if (failed) throw new NormlabError(failed);
          if (!data.length) continue; // an empty input: the core will name it
          const heap = m.HEAPF32;
          // Read again: addInput may have grown the memory under a resident tensor's view.
          const src = resident ? resident.data : data;
          if (src instanceof Float32Array) heap.set(src, ptr / 4);
          else for (let i = 0; i < src.length; i++) heap[ptr / 4 + i] = toDouble(src[i]);
        }
        for (const [name, v] of Object.entries(attrs ?? {})) {
          if (v === undefined) continue;
          if (typeof v === 'boolean') m.attrBool(name, v);
          else if (typeof v === 'number') m.attrNumber(name, v);
          else if (typeof v === 'string') m.attrString(name, v);
          else if (Array.isArray(v) || ArrayBuffer.isView(v)) {
            const list = Array.from(v, toDouble);
            this._scratch(list);
            m.attrList(name, list.length);
          } else {
            throw new NormlabError(`${op}: attribute ${name} must be a number, boolean, string or list of numbers`);
          }
        }
        if (!m.invoke()) throw new NormlabError(m.errorMessage());
        const out = {};
        const n = m.outputCount();
        for (let i = 0; i < n; i++) {
          const shape = [];
          for (let a = 0, r = m.outputRank(i); a < r; a++) shape.push(m.outputDim(i, a));
          const size = m.outputSize(i);
          const ptr = m.outputData(i);
          // Copy out: a view into WASM memory would break on the next growth.
          const data = m.outputIsInt(i)
            ? Array.from(m.HEAPF64.subarray(ptr / 8, ptr / 8 + size))
            : m.HEAPF32.slice(ptr / 4, ptr / 4 + size);
          out[m.outputName(i)] = { shape, data };
        }
        return out;
      } finally {
        m.release();
      }
    });
  }
}

// Named camelCase functions for the common operations. Each takes the main
// input as a Float32Array / number[] (1-D unless `shape` is given) or as
// {shape, data}; further inputs and attributes are options in camelCase.
// A single-output op returns its Float32Array; others return an object.
const named = {
  l2Normalize: 'l2_normalize', l1Normalize: 'l1_normalize', maxNormalize: 'max_normalize',
  scaleNorm: 'scale_norm', layerNorm: 'layer_norm', rmsNorm: 'rms_norm', batchNorm: 'batch_norm',
  instanceNorm: 'instance_norm', groupNorm: 'group_norm', adaLayerNorm: 'ada_layer_norm',
  adaptiveRmsNorm: 'adaptive_rms_norm', film: 'film', adain: 'adain', weightNorm: 'weight_norm',
  weightStandardize: 'weight_standardize', spectralNorm: 'spectral_norm', softmax: 'softmax',
  attention: 'scaled_dot_product_attention', qkNormAttention: 'qk_norm_attention',
  residualBlock: 'residual_block', clipGradNorm: 'clip_grad_norm', whiten: 'whiten',
};

function asTensor(v, shape) {
  if (v == null) return v;
  if (v instanceof NlTensor) return shape ? { shape, data: v.data, resident: v } : v;
  if (!ArrayBuffer.isView(v) && !Array.isArray(v) && v.shape) return v;
  return { shape: shape ?? [v.length], data: v };
}

/**
 * A float32 tensor kept in WASM memory (core.tensor). Named functions read
 * and write it in place, with no copy across the boundary; `data` is a view
 * of it (take it anew after any call: a growing WASM memory replaces views).
 */
export class NlTensor {
  constructor(core, shape, ptr, size) {
    Object.defineProperty(this, '_core', { value: core });
    Object.defineProperty(this, '_ptr', { value: ptr, writable: true });
    /** Its shape. */
    this.shape = Object.freeze(shape);
    /** Its number of elements. */
    this.size = size;
  }

  /** A Float32Array view of the tensor inside WASM memory. */
  get data() {
    if (!this._ptr) throw new NormlabError('tensor: this tensor was freed');
    const heap = this._core._m.HEAPF32;
    if (this._view?.buffer !== heap.buffer) {
      Object.defineProperty(this, '_view', { value: heap.subarray(this._ptr >> 2, (this._ptr >> 2) + this.size), configurable: true });
    }
    return this._view;
  }

  /** Give the memory back (also done when the tensor is garbage-collected). */
  free() {
    if (this._ptr) {
      this._core._m._free(this._ptr);
      tensorRegistry?.unregister(this);
      this._ptr = 0;
    }
  }
}

const tensorRegistry = typeof FinalizationRegistry === 'function' ? new FinalizationRegistry(([m, ptr]) => m._free(ptr)) : null;

/**
 * A tensor in WASM memory, zero-filled or holding a copy of `data`.
 * @param {readonly number[]} shape
 * @param {ArrayLike<number>} [data]
 */
Core.prototype.tensor = function (shape, data) {
  if (!Array.isArray(shape) || !shape.every((d) => Number.isInteger(d) && d >= 0)) {
    throw new NormlabError('tensor: shape must be a list of non-negative integers');
  }
  const size = shape.reduce((a, b) => a * b, 1);
  if (size > MAX_ELEMENTS) throw new NormlabError(`tensor: ${size} elements is more than the limit of ${MAX_ELEMENTS}`);
  if (data != null && data.length !== size) {
    throw new NormlabError(`tensor: data has ${data.length} numbers but shape [${shape.join(', ')}] holds ${size}`);
  }
  const ptr = this._m._malloc(Math.max(size, 1) * 4);
  if (!ptr) throw new NormlabError(`tensor: out of WASM memory for ${size} elements`);
  const t = new NlTensor(this, [...shape], ptr, size);
  tensorRegistry?.register(t, [this._m, ptr], t);
  if (data != null) t.data.set(data);
  else t.data.fill(0);
  return t;
};

// The hot paths of the named functions: one direct WASM export per family
// (nl_rows: LayerNorm / RMSNorm / L2 / softmax over rows, GroupNorm as rows;
// nl_attention). Resident tensors are used in place; arrays go through a
// reused staging buffer. Anything a direct export is unsure about (-1), and
// any option it does not handle, is repeated through core.run, which owns the
// checks and error messages: results and errors are the same either way.
const prod = (s, from = 0) => {
  let p = 1;
  for (let i = from; i < s.length; i++) p *= s[i];
  return p;
};
const dataOf = (v) => (v instanceof NlTensor || ArrayBuffer.isView(v) || Array.isArray(v) ? v : v?.data);
const shapeOf = (v) => (v instanceof NlTensor || !(ArrayBuffer.isView(v) || Array.isArray(v)) ? v?.shape : null);
const isFloat32 = (v) => v instanceof Float32Array;
const MAX_ELEMENTS = 2 ** 25; // the core's limit per tensor (tensor.hpp)
const lengthOf = (d) => (d instanceof NlTensor ? d.size : d.length);

// Where a direct call's tensors live. Pass every argument (an array or an
// NlTensor, null for none) with its length, then `pointers()`.
class Placement {
  constructor(core) {
    this.core = core;
    this.items = [];
    this.staged = 0;
  }
  add(v, n) {
    const resident = v instanceof NlTensor;
    if (resident && (v.size !== n || !v._ptr)) return false;
    // A view of WASM memory (not the tensor itself) would detach if staging grows the memory: copy it.
    if (!resident && ArrayBuffer.isView(v) && v.buffer === this.core._m.HEAP8.buffer) v = v.slice();
    this.items.push([v, n, resident]);
    if (v && !resident) this.staged += n;
    return true;
  }
  pointers() {
    const c = this.core, m = c._m;
    if (this.staged > (c._stageLen ?? 0)) {
      if (c._stage) m._free(c._stage);
      c._stage = 0;
      c._stageLen = Math.max(this.staged, 1024);
      c._stage = m._malloc(c._stageLen * 4);
      if (!c._stage) return (c._stageLen = 0), null;
    }
    const heap = m.HEAPF32;
    let at = c._stage;
    const ptrs = [];
    for (const [v, n, resident] of this.items) {
      if (!v) ptrs.push(0);
      else if (resident) ptrs.push(v._ptr);
      else {
        ptrs.push(at);
        if (v !== OUTPUT) {
          if (n < 16) for (let i = 0, o = at >> 2; i < n; i++) heap[o + i] = v[i];
          else heap.set(v, at >> 2);
        }
        at += n * 4;
      }
    }
    return ptrs;
  }
}
// Marks a staged output (nothing to copy in).
const OUTPUT = { length: 0 };

// The result at `ptr` (n floats): into `out` when it is a resident tensor (already there) or a Float32Array of
// the right length, else a new Float32Array.
function result(m, ptr, n, out) {
  if (out instanceof NlTensor) return out;
  const heap = m.HEAPF32, o = ptr >> 2;
  const y = isFloat32(out) && out.length === n ? out : new Float32Array(n);
  if (n < 16) for (let i = 0; i < n; i++) y[i] = heap[o + i];
  else y.set(heap.subarray(o, o + n));
  return y;
}

const ROWS = {
  layerNorm: { kind: 0, eps: 1e-5, keys: ['eps', 'gamma', 'beta', 'shape', 'out', 'normalizedNdim'] },
  rmsNorm: { kind: 1, eps: 1e-6, keys: ['eps', 'gamma', 'shape', 'out', 'normalizedNdim'] },
  l2Normalize: { kind: 2, eps: 1e-12, keys: ['eps', 'shape', 'out', 'axis'] },
  softmax: { kind: 3, eps: 0, keys: ['shape', 'out', 'axis'] },
  groupNorm: { kind: 0, eps: 1e-5, keys: ['eps', 'shape', 'out', 'numGroups'] },
};

// A parameter for rows of `width` read as the last `k` axes of `shape`.
function rowParam(p, width, k, shape) {
  if (p == null) return true;
  const s = shapeOf(p), d = dataOf(p);
  if (!d || lengthOf(d) !== width) return false;
  if (!s) return k === 1;
  return s.length === k && s.every((e, i) => e === shape[shape.length - k + i]);
}

Core.prototype._rows = function (method, x, options) {
  const spec = ROWS[method];
  for (const key in options) if (!spec.keys.includes(key)) return null;
  const data = dataOf(x);
  const shape = options.shape ?? shapeOf(x) ?? (data ? [data.length] : null);
  if (!data || !Array.isArray(shape) || shape.length < 1 || (options.shape && shapeOf(x))) return null;
  const n = lengthOf(data);
  if (n === 0 || n !== prod(shape) || n > MAX_ELEMENTS) return null; // the checked path names the limit
  let rows, width;
  if (method === 'groupNorm') {
    const g = options.numGroups;
    if (shape.length < 2 || !Number.isInteger(g) || g < 1 || shape[1] % g !== 0) return null;
    rows = shape[0] * g;
  } else {
    let k = 1;
    if (method === 'layerNorm' || method === 'rmsNorm') {
      k = options.normalizedNdim ?? 1;
      if (!Number.isInteger(k) || k < 1 || k > shape.length) return null;
    } else if (options.axis !== undefined && options.axis !== -1 && options.axis !== shape.length - 1) return null;
    width = prod(shape, shape.length - k);
    rows = n / width;
    if (!rowParam(options.gamma, width, k, shape) || !rowParam(options.beta, width, k, shape)) return null;
  }
  width = n / rows;
  if (!Number.isInteger(width) || width < 1) return null;
  const eps = options.eps ?? spec.eps;
  if (typeof eps !== 'number') return null;
  const out = options.out;
  if (out != null && !(isFloat32(out) && out.length === n) && !(out instanceof NlTensor && out.size === n)) return null;
  const place = new Placement(this);
  if (!place.add(data, n) || !place.add(out instanceof NlTensor ? out : OUTPUT, n)) return null;
  if (!place.add(dataOf(options.gamma) ?? null, width) || !place.add(dataOf(options.beta) ?? null, width)) return null;
  const ptrs = place.pointers();
  if (!ptrs) return null;
  const [xp, yp, gp, bp] = ptrs;
  if (this._m._nl_rows(spec.kind, xp, yp, rows, width, eps, gp, bp) !== 0) return null;
  return result(this._m, yp, n, out);
};

Core.prototype._attention = function (q, options) {
  for (const key in options) if (!['k', 'v', 'scale', 'causal', 'out', 'outWeights'].includes(key)) return null;
  if (options.causal) return null;
  const { k, v } = options;
  const qs = shapeOf(q), ks = shapeOf(k), vs = shapeOf(v);
  const qd = dataOf(q), kd = dataOf(k), vd = dataOf(v);
  if (!qs || !ks || !vs || !qd || !kd || !vd || qs.length < 2 || ks.length !== qs.length || vs.length !== qs.length) return null;
  const r = qs.length;
  for (let a = 0; a < r - 2; a++) if (ks[a] !== qs[a] || vs[a] !== qs[a]) return null;
  const batch = prod(qs.slice(0, r - 2)), tq = qs[r - 2], dk = qs[r - 1], tk = ks[r - 2], dv = vs[r - 1];
  if (ks[r - 1] !== dk || vs[r - 2] !== tk || !(batch * tq * tk * dk * dv > 0)) return null;
  if (lengthOf(qd) !== batch * tq * dk || lengthOf(kd) !== batch * tk * dk || lengthOf(vd) !== batch * tk * dv) return null;
  // No scale: NaN tells the core to use its default, 1/sqrt(dk). A given scale must be finite (else the checked path names it).
  const scale = options.scale === undefined ? NaN : options.scale;
  if (options.scale !== undefined && !(typeof scale === 'number' && Number.isFinite(scale))) return null;
  const no = batch * tq * dv, nw = batch * tq * tk;
  if (no > MAX_ELEMENTS || nw > MAX_ELEMENTS) return null; // the checked path names the limits (and the work one)
  const { out, outWeights } = options;
  for (const [o, len] of [[out, no], [outWeights, nw]]) {
    if (o != null && !(isFloat32(o) && o.length === len) && !(o instanceof NlTensor && o.size === len)) return null;
    if (o != null && (o === q || o === k || o === v)) return null; // the kernel does not work in place
  }
  if (out != null && out === outWeights) return null;
  const place = new Placement(this);
  if (!place.add(qd, lengthOf(qd)) || !place.add(kd, lengthOf(kd)) || !place.add(vd, lengthOf(vd))) return null;
  if (!place.add(out instanceof NlTensor ? out : OUTPUT, no) || !place.add(outWeights instanceof NlTensor ? outWeights : OUTPUT, nw)) return null;
  const ptrs = place.pointers();
  if (!ptrs) return null;
  const [qp, kp, vp, op, wp] = ptrs;
  if (this._m._nl_attention(qp, kp, vp, op, wp, batch, tq, tk, dk, dv, scale) !== 0) return null;
  return { out: result(this._m, op, no, out), weights: result(this._m, wp, nw, outWeights) };
};

// The per-call lane for the interactive case: a short 1-D Float32Array or
// list through LayerNorm / RMSNorm / L2 with at most eps, gamma, beta and
// out. No objects are made besides the result; a fixed region of WASM memory
// (taken once per core) holds the numbers.
const SMALL = 64;
const SMALL_KIND = { layerNorm: 0, rmsNorm: 1, l2Normalize: 2 };

Core.prototype._small = function (kind, eps, x, options) {
  const n = x.length;
  let out = null, gamma = null, beta = null;
  for (const key in options) {
    const v = options[key];
    if (key === 'eps') eps = v;
    else if (key === 'out') out = v;
    else if (key === 'gamma' && kind !== 2) gamma = v;
    else if (key === 'beta' && kind === 0) beta = v;
    else return null;
  }
  if (typeof eps !== 'number') return null;
  if ((gamma && !(gamma.length === n && (ArrayBuffer.isView(gamma) || Array.isArray(gamma)))) ||
      (beta && !(beta.length === n && (ArrayBuffer.isView(beta) || Array.isArray(beta))))) return null;
  if (out !== null && !(out instanceof Float32Array && out.length === n)) return null;
  let base = this._smallPtr;
  if (!base) base = this._smallPtr = this._m._malloc(SMALL * 4 * 4);
  if (!base) return null;
  // The Module object is large (slow property reads): keep the view and the
  // export on this core, and take the view anew only after a memory growth.
  let heap = this._heap;
  if (!heap || heap.length === 0) heap = this._heap = this._m.HEAPF32;
  const o = base >> 2;
  for (let i = 0; i < n; i++) heap[o + i] = x[i];
  if (gamma) for (let i = 0; i < n; i++) heap[o + 2 * SMALL + i] = gamma[i];
  if (beta) for (let i = 0; i < n; i++) heap[o + 3 * SMALL + i] = beta[i];
  if (this._nlRows(kind, base, base + SMALL * 4, 1, n, eps, gamma ? base + SMALL * 8 : 0, beta ? base + SMALL * 12 : 0) !== 0) return null;
  if (!out) return heap.slice(o + SMALL, o + SMALL + n); // cheaper than new Float32Array(n) and a loop
  for (let i = 0; i < n; i++) out[i] = heap[o + SMALL + i];
  return out;
};

// Copy a checked-path result into the caller's `out` (an array or resident tensor).
// A target that does not fit is an error naming the function and the option.
function into(out, y, method, option) {
  if (out == null) return y;
  if (isFloat32(out) && out.length === y.length) return out.set(y), out;
  if (out instanceof NlTensor && out.size === y.length) return out.data.set(y), out;
  const got = out instanceof NlTensor ? `a resident tensor of ${out.size}` : isFloat32(out) ? `a Float32Array of ${out.length}` : typeof out === 'object' ? 'another kind of object' : String(out);
  throw new NormlabError(`${method}: ${option} must be a Float32Array or resident tensor of ${y.length} elements (got ${got})`);
}

for (const [method, op] of Object.entries(named)) {
  const small = SMALL_KIND[method], smallEps = ROWS[method]?.eps;
  Core.prototype[method] = function (x, options = {}) {
    if (small !== undefined && x && x.length <= SMALL && x.length > 0 && (x instanceof Float32Array || Array.isArray(x))) {
      const y = this._small(small, smallEps, x, options);
      if (y) return y;
    }
    if (ROWS[method] || method === 'attention') {
      const y = method === 'attention' ? this._attention(x, options) : this._rows(method, x, options);
      if (y) return y;
    }
    const { out, outWeights, ...rest } = options;
    if (out !== undefined || outWeights !== undefined) {
      const y = this[method](x, rest);
      if (y instanceof Float32Array && outWeights === undefined) return into(out, y, method, 'out');
      if (y?.out && y?.weights) return { ...y, out: into(out, y.out, method, 'out'), weights: into(outWeights, y.weights, method, 'outWeights') };
      throw new NormlabError(`${method}: ${outWeights === undefined ? 'out' : 'outWeights'} is not an option here ` +
        `(out is for functions with one result and for the attentions, outWeights for the attentions)`);
    }
    const spec = this.spec(op);
    const { shape, ...attrsIn } = rest;
    const inputs = { [spec.inputs[0].name]: asTensor(x, shape) };
    const attrs = {};
    for (const [key, value] of Object.entries(attrsIn)) {
      const name = snake(key);
      if (spec.inputs.some((i) => i.name === name || i.name === key)) {
        inputs[spec.inputs.find((i) => i.name === name || i.name === key).name] = asTensor(value);
      } else attrs[name] = value;
    }
    const res = this.run(op, inputs, attrs);
    const names = Object.keys(res);
    if (names.length === 1) return res[names[0]].data;
    return Object.fromEntries(names.map((n) => [camel(n), res[n].data]));
  };
}

// The C exports of cpp/bindings/boundary.cpp under the names the rest of this
// file uses. Strings go in as NUL-terminated UTF-8 written into a reused WASM
// buffer and come out as pointers decoded here.
function adapt(mod) {
  const enc = new TextEncoder(), dec = new TextDecoder();
  let buf = 0, cap = 0;
  const cstrs = (...list) => {
    const bytes = list.map((s) => enc.encode(String(s)));
    const need = bytes.reduce((a, b) => a + b.length + 1, 0);
    if (need > cap) {
      if (buf) mod._free(buf);
      cap = Math.max(need, 256);
      buf = mod._malloc(cap);
      if (!buf) throw new NormlabError('normlab: out of WASM memory');
    }
    const heap = mod.HEAPU8, ptrs = [];
    let at = buf;
    for (const b of bytes) {
      ptrs.push(at);
      heap.set(b, at);
      heap[at + b.length] = 0;
      at += b.length + 1;
    }
    return ptrs;
  };
  const read = (ptr) => {
    const heap = mod.HEAPU8;
    let end = ptr;
    while (heap[end]) end++;
    return dec.decode(heap.subarray(ptr, end));
  };
  const u = (v) => v >>> 0; // pointers and sizes are unsigned
  return Object.assign(mod, {
    scratch: (n) => u(mod._nl_scratch(n)),
    request: (op) => mod._nl_request(...cstrs(op)),
    addInput: (name, ndim, count) => u(mod._nl_add_input(...cstrs(name), ndim, count)),
    attrNumber: (name, v) => mod._nl_attr_number(...cstrs(name), v),
    attrBool: (name, v) => mod._nl_attr_bool(...cstrs(name), v ? 1 : 0),
    attrString: (name, v) => mod._nl_attr_string(...cstrs(name, v)),
    attrList: (name, n) => mod._nl_attr_list(...cstrs(name), n),
    invoke: () => mod._nl_invoke() !== 0,
    errorMessage: () => read(mod._nl_error_message()),
    outputCount: () => u(mod._nl_output_count()),
    outputName: (i) => read(mod._nl_output_name(i)),
    outputIsInt: (i) => mod._nl_output_is_int(i) !== 0,
    outputRank: (i) => u(mod._nl_output_rank(i)),
    outputDim: (i, a) => mod._nl_output_dim(i, a),
    outputSize: (i) => u(mod._nl_output_size(i)),
    outputData: (i) => u(mod._nl_output_data(i)),
    release: () => mod._nl_release(),
    opSpec: (op) => read(mod._nl_op_spec(...cstrs(op))),
    opNames: () => read(mod._nl_op_names()),
    heapBytes: () => mod._nl_heap_bytes(),
    benchAlloc: (n) => u(mod._malloc(n)),
    benchFree: (p) => mod._free(p),
    benchCopy: (d, s, n) => mod._nl_bench_copy(d, s, n),
  });
}

let shared = null;

/**
 * Load the WASM core once and return it; later calls return the same core.
 * @param {{wasmUrl?: string | URL}} [options] where the .wasm file lives, for unusual hosts
 * @returns {Promise<Core>}
 */
export function loadCore(options = {}) {
  if (!shared) {
    const url = options.wasmUrl
      ? new URL(options.wasmUrl, globalThis.location?.href ?? import.meta.url)
      : inlineWasm ? null : defaultWasmUrl();
    shared = new Promise((resolve, reject) => {
      createNormlabCore({
        locateFile: () => (url ? url.href : 'inline.wasm'),
        instantiateWasm(imports, receive) {
          instantiate(url, imports).then((r) => receive(r.instance, r.module), reject);
          return {};
        },
        onAbort: (what) => reject(new NormlabError(`normlab: the WASM core aborted (${what})`)),
      }).then((m) => resolve(new Core(adapt(m))), reject);
    }).catch((e) => {
      shared = null; // a failed load may be retried
      throw e;
    });
  }
  return shared;
}
