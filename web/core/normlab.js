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
      // A C++ exception that escaped arrives as a pointer: decode it.
      if (typeof e === 'number') throw new NormlabError(this._m.exceptionMessage(e));
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
          const data = t.data;
          if (!shape || data == null || typeof data.length !== 'number') {
            throw new NormlabError(`${op}: input ${name} must be {shape: number[], data: number[] | Float32Array}`);
          }
          this._scratch(shape);
          const ptr = m.addInput(name, shape.length, data.length);
          const failed = m.errorMessage();
          if (failed) throw new NormlabError(failed);
          if (!data.length) continue; // an empty input: the core will name it
          const heap = m.HEAPF32;
          if (data instanceof Float32Array) heap.set(data, ptr / 4);
          else for (let i = 0; i < data.length; i++) heap[ptr / 4 + i] = toDouble(data[i]);
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
  if (!ArrayBuffer.isView(v) && !Array.isArray(v) && v.shape) return v;
  return { shape: shape ?? [v.length], data: v };
}

// The per-call fast path of layerNorm / rmsNorm / l2Normalize: the data goes
// straight into a reused WASM buffer and one direct export runs it. Anything
// it is unsure about (-1) is repeated through core.run, which owns the checks
// and the error messages; so results and errors are the same either way.
const DIRECT = { layerNorm: [0, 1e-5], rmsNorm: [1, 1e-6], l2Normalize: [2, 1e-12] };
const DIRECT_KEYS = new Set(['eps', 'gamma', 'beta', 'shape', 'out']);

Core.prototype._direct = function (kind, defaultEps, x, options) {
  const data = ArrayBuffer.isView(x) || Array.isArray(x) ? x : x?.data;
  const shape = options.shape ?? (ArrayBuffer.isView(x) || Array.isArray(x) ? [x.length] : x?.shape);
  if (!data || !Array.isArray(shape) || shape.length < 1) return null;
  for (const k of Object.keys(options)) if (!DIRECT_KEYS.has(k)) return null;
  if (kind === 2 && (options.gamma || options.beta)) return null;
  if (kind === 1 && options.beta) return null;
  const width = shape[shape.length - 1];
  const n = data.length;
  if (!(width >= 1) || n % width !== 0 || n === 0) return null;
  const gamma = options.gamma, beta = options.beta;
  if ((gamma && gamma.length !== width) || (beta && beta.length !== width)) return null;
  const eps = options.eps ?? defaultEps;
  if (typeof eps !== 'number') return null;
  const m = this._m;
  const need = 2 * n + 2 * width;
  if (!this._buf || this._bufLen < need) {
    if (this._buf) m._free(this._buf);
    this._bufLen = Math.max(need, 1024);
    this._buf = m._malloc(this._bufLen * 4);
    if (!this._buf) return null;
  }
  const heap = m.HEAPF32;
  const xp = this._buf, yp = xp + n * 4, gp = yp + n * 4, bp = gp + width * 4;
  heap.set(data, xp >> 2);
  if (gamma) heap.set(gamma.data ?? gamma, gp >> 2);
  if (beta) heap.set(beta.data ?? beta, bp >> 2);
  if (m._nl_rows(kind, xp, yp, n / width, width, eps, gamma ? gp : 0, beta ? bp : 0) !== 0) return null;
  const out = options.out;
  if (out instanceof Float32Array && out.length === n) {
    out.set(heap.subarray(yp >> 2, (yp >> 2) + n));
    return out;
  }
  return heap.slice(yp >> 2, (yp >> 2) + n);
};

for (const [method, op] of Object.entries(named)) {
  Core.prototype[method] = function (x, options = {}) {
    if (DIRECT[method]) {
      const y = this._direct(DIRECT[method][0], DIRECT[method][1], x, options);
      if (y) return y;
    }
    if ('out' in options) {
      const { out, ...rest } = options;
      const y = this[method](x, rest);
      if (out instanceof Float32Array && y instanceof Float32Array && out.length === y.length) return (out.set(y), out);
      return y;
    }
    const spec = this.spec(op);
    const { shape, ...rest } = options;
    const inputs = { [spec.inputs[0].name]: asTensor(x, shape) };
    const attrs = {};
    for (const [key, value] of Object.entries(rest)) {
      const name = snake(key);
      if (spec.inputs.some((i) => i.name === name || i.name === key)) {
        inputs[spec.inputs.find((i) => i.name === name || i.name === key).name] = asTensor(value);
      } else attrs[name] = value;
    }
    const out = this.run(op, inputs, attrs);
    const names = Object.keys(out);
    if (names.length === 1) return out[names[0]].data;
    return Object.fromEntries(names.map((n) => [camel(n), out[n].data]));
  };
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
      }).then((m) => resolve(new Core(m)), reject);
    }).catch((e) => {
      shared = null; // a failed load may be retried
      throw e;
    });
  }
  return shared;
}
