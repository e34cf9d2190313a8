#!/usr/bin/env node
// Writes web/core/ops.generated.d.ts — the per-operation part of the core
// API's TypeScript declarations — from the core's own registry (core.spec of
// every op), so that the declarations cannot drift from it:
//
//   bash build-wasm.sh && node scripts/gen-types.mjs
//
// tests/js/types-current.test.mjs fails when the committed file differs from
// what this script generates. The hand-written rest of the API (Core, run,
// describe, NlTensor, ...) is web/core/normlab.d.ts, which re-exports this file.
//
// The registry says everything the types need: which outputs hold integers
// and which come only with optional inputs (outputSpecs), which attributes the
// op does without (optional, with a note), and a string attribute's values.
// checkSpecs() confirms those flags against the core with small probe calls
// before anything is written.
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadCore, loadTrainer } from '../web/core/normlab.js';

/** Where the generated declarations go. */
export const outputPath = fileURLToPath(new URL('../web/core/ops.generated.d.ts', import.meta.url));

// The same spellings as web/core/normlab.js uses for the named functions.
const camel = (s) => s.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
const snake = (s) => s.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());
const pascal = (s) => camel(s).replace(/^./, (c) => c.toUpperCase());

/** An output's flags as the registry declares them (spec.outputSpecs). */
const outputSpec = (s, o) => s.outputSpecs.find((x) => x.name === o) ?? {};
/** The optional inputs an op's conditional outputs come with, in order (none: []). */
const whenGiven = (s) => [...new Set(s.outputSpecs.flatMap((o) => o.when ?? []))];

// Small calls that succeed, for checkSpecs: inputs by shape (filled with 1, 2, 3, ...).
const TFM_PROBE = { vocab: 5, d_model: 2, heads: 1, layers: 1, context: 2, mlp_ratio: 1 };
const PROBES = {
  broadcast_shape: { attrs: { a: [2, 1], b: [3] } },
  reduce_shape: { attrs: { shape: [2, 3], axes: [0] } },
  reduction_group: { attrs: { method: 'layer_norm', shape: [1, 1, 2], index: [0, 0, 0] } },
  batch_norm: { inputs: { x: [2, 1] }, extra: { running_mean: [1], running_var: [1] } },
  conditional_batch_norm: {
    inputs: { x: [2, 1], gamma: [2, 1], beta: [2, 1] },
    extra: { running_mean: [1], running_var: [1] },
  },
  scaled_dot_product_attention: { inputs: { q: [1, 2], k: [1, 2], v: [1, 2] } },
  residual_block: { inputs: { x: [2], W: [2, 2] } },
  score_spread: { attrs: { d_k: 2, count: 4 } },
  standardize_rows: { inputs: { x: [2, 3] } },
  train_init: { attrs: { depth: 1, width: 2 } },
  // depth 1, width 2: 34 parameters; labels must be 0 or 1 (zeros)
  train_grad: { inputs: { params: [34], x: [2, 2], labels: [2] }, attrs: { depth: 1, width: 2 }, zeros: ['labels'] },
  train_predict: { inputs: { params: [34], points: [2, 2] }, attrs: { depth: 1, width: 2 } },
  train_step: {
    inputs: { params: [34], state: [69], x: [2, 2], labels: [2] },
    attrs: { depth: 1, width: 2, lr: 0 },
    zeros: ['labels'],
  },
  // vocab 5, d_model 2, 1 head, 1 layer, context 2, mlp_ratio 1: 69 parameters; tokens 1, 2 (filled)
  tfm_init: { attrs: TFM_PROBE },
  tfm_grad: { inputs: { params: [69], tokens: [1, 2], targets: [1, 2] }, attrs: TFM_PROBE },
  tfm_step: { inputs: { params: [69], state: [139], tokens: [1, 2], targets: [1, 2] }, attrs: { ...TFM_PROBE, lr: 0 } },
  tfm_sample: { inputs: { params: [69], prompt: [1] }, attrs: { ...TFM_PROBE, count: 2 } },
};

const filled = (shape) => {
  const n = shape.reduce((a, b) => a * b, 1);
  return { shape, data: Float32Array.from({ length: n }, (_, i) => i + 1) };
};

function probe(core, op, { inputs = {}, attrs = {}, zeros = [] } = {}, more = {}) {
  const ins = {};
  for (const [name, shape] of Object.entries({ ...inputs, ...more })) ins[name] = filled(shape);
  for (const name of zeros) ins[name].data.fill(0);
  return core.run(op, ins, attrs);
}

/**
 * Check the registry's flags by small calls (PROBES): integer outputs hold
 * integers, conditional outputs come exactly with their inputs, optional
 * attributes may be left out, listed string values are taken and others
 * refused. Throws on the first mismatch.
 */
export function checkSpecs(core) {
  const fail = (msg) => {
    throw new Error(`gen-types: ${msg} — the op's table row (cpp/src/ops_*.cpp) and the core disagree`);
  };
  const ran = (op, call, more) => {
    if (!PROBES[op]) fail(`no probe call for ${op} in scripts/gen-types.mjs`);
    try {
      return probe(core, op, call, more);
    } catch (e) {
      return fail(`the probe call of ${op} fails: ${e.message}`);
    }
  };
  for (const op of core.ops) {
    const s = core.spec(op);
    const ints = s.outputSpecs.filter((o) => o.integer).map((o) => o.name);
    const when = whenGiven(s);
    const optional = s.attrs.filter((a) => a.optional);
    const strings = s.attrs.filter((a) => a.values);
    if (!ints.length && !when.length && !optional.length && !strings.length) continue;
    if (ints.length) {
      for (const [n, o] of Object.entries(ran(op, PROBES[op])))
        if (Array.isArray(o.data) !== ints.includes(n))
          fail(`${op}.${n} ${Array.isArray(o.data) ? 'holds' : 'does not hold'} integers`);
    }
    if (when.length) {
      for (const n of when)
        if (!s.inputs.find((i) => i.name === n)?.optional) fail(`${op} has no optional input '${n}'`);
      const without = ran(op, PROBES[op]);
      const withInputs = ran(op, PROBES[op], PROBES[op].extra);
      for (const o of s.outputSpecs.filter((x) => x.when)) {
        if (o.name in without) fail(`${op} gives ${o.name} without ${o.when.join(', ')}`);
        if (!(o.name in withInputs)) fail(`${op} does not give ${o.name} with ${o.when.join(', ')}`);
      }
    }
    for (const a of optional) {
      if (PROBES[op]?.attrs && a.name in PROBES[op].attrs) fail(`the probe call of ${op} gives ${a.name}`);
      ran(op, PROBES[op]);
    }
    for (const a of strings) {
      if (a.kind !== 'string') fail(`${op}.${a.name} lists values but is not a string`);
      const call = (v) => ({ ...PROBES[op], attrs: { ...PROBES[op]?.attrs, [a.name]: v } });
      if (Array.isArray(a.values)) for (const v of a.values) ran(op, call(v));
      else if (a.values !== 'described') fail(`${op}.${a.name}: values must be a list or 'described'`);
      let refused = false;
      try {
        probe(core, op, call('not-a-value'));
      } catch {
        refused = true;
      }
      if (!refused) fail(`${op} takes any ${a.name}, not only the listed values`);
    }
  }
}

// ---- writing the declarations ----------------------------------------------------

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for ' +
    'function if import in instanceof new null return super switch this throw true try typeof var void while with yield ' +
    'let static implements interface package private protected public await'
  ).split(' '),
);
// Core's own members: a named function of the same name would hide them (normlab.js defines them per instance).
const CORE_MEMBERS = new Set([
  'run',
  'describe',
  'spec',
  'tensor',
  'ops',
  'heapBytes',
  'memoryBytes',
  'attention',
  'constructor',
]);

const lit = (v) => (typeof v === 'string' ? `'${v.replace(/[\\']/g, '\\$&')}'` : JSON.stringify(v));
const key = (name) => (IDENT.test(name) ? name : lit(name));
const union = (values) => values.map(lit).join(' | ');

/**
 * Both modules' registries as one: every op (the core's, then the training
 * module's), `training` (the training module's op names), and spec and run
 * sent to the module that holds the op.
 */
export async function bothModules() {
  const [core, trainer] = await Promise.all([loadCore(), loadTrainer()]);
  const of = (op) => (trainer.ops.includes(op) ? trainer : core);
  return {
    ops: [...core.ops, ...trainer.ops],
    training: trainer.ops,
    spec: (op) => of(op).spec(op),
    run: (op, ...args) => of(op).run(op, ...args),
  };
}

/** The TypeScript text of web/core/ops.generated.d.ts for the registries of both modules (bothModules()). */
export async function generateTypes(core) {
  core ??= await bothModules();
  checkSpecs(core);
  const specs = core.ops.map((op) => core.spec(op));
  const byName = Object.fromEntries(specs.map((s) => [s.name, s]));
  const described = specs.filter((s) => s.described).map((s) => s.name);
  const isInt = (op, o) => Boolean(outputSpec(byName[op], o).integer);
  const conditional = (op, o) => Boolean(outputSpec(byName[op], o).when);
  const attrNote = (op, a) => (a.optional ? a.note : undefined);
  const attrOptional = (op, a) => !a.required;

  const attrType = (op, a) => {
    if (a.kind === 'boolean') return 'boolean';
    if (a.kind === 'integers') return 'readonly number[]';
    if (a.kind === 'string') {
      const v = a.values;
      return v === 'described' ? 'DescribedOpName' : v ? union(v) : 'string';
    }
    return 'number';
  };
  const attrDoc = (op, a) => {
    const parts = [];
    if (a.kind === 'integer') parts.push('An integer');
    if (a.kind === 'integers') parts.push('Integers');
    if ('default' in a) parts.push(`${parts.length ? 'default' : 'Default'} ${lit(a.default)}`);
    else if (attrNote(op, a)) parts.push(`${parts.length ? 'optional' : 'Optional'}: ${attrNote(op, a)}`);
    return parts.length ? `/** ${parts.join(', ')}. */` : '';
  };

  // The names a named function's options use must come back to the registry's names
  // the way normlab.js reads them.
  const checkNames = (s) => {
    const seen = new Set();
    const claim = (k, what) => {
      if (seen.has(k)) throw new Error(`gen-types: ${s.name}: option '${k}' would mean two things (${what})`);
      seen.add(k);
    };
    if (s.inputs.length) claim('shape', "the first input's shape");
    s.outputs.forEach((o, i) => {
      if (i === 0) return claim('out', `output ${o}`);
      const k = `out${pascal(o)}`;
      if (snake(k.slice(3)).replace(/^_/, '') !== o)
        throw new Error(`gen-types: ${s.name}: output ${o} cannot be named as an option`);
      claim(k, `output ${o}`);
    });
    for (const { name } of [...s.inputs.slice(1), ...s.attrs]) {
      const k = camel(name);
      if (snake(k) !== name && k !== name)
        throw new Error(`gen-types: ${s.name}: '${name}' does not come back from '${k}'`);
      if (/^out[A-Z]/.test(k) || k === 'out')
        throw new Error(`gen-types: ${s.name}: option '${k}' reads as an output target`);
      claim(k, name);
    }
    if (s.inputs[0] && (!IDENT.test(s.inputs[0].name) || RESERVED.has(s.inputs[0].name))) {
      throw new Error(`gen-types: ${s.name}: input ${s.inputs[0].name} is not a parameter name`);
    }
    if (new Set(s.outputs.map(camel)).size !== s.outputs.length)
      throw new Error(`gen-types: ${s.name}: two outputs share a camelCase name`);
    const method = camel(s.name);
    if (CORE_MEMBERS.has(method)) throw new Error(`gen-types: op ${s.name} would hide core.${method}`);
  };

  const L = [];
  const out = (line = '') => L.push(line);
  out("// Generated by scripts/gen-types.mjs from the core's registry (core.spec of every op). Do not edit:");
  out('// after changing an operation, rebuild (bash build-wasm.sh) and run `node scripts/gen-types.mjs`.');
  out('// tests/js/types-current.test.mjs checks that this file is current.');
  out("import type { IntOutput, NlTensor, OutTarget, RunInput, TensorOutput, XInput } from './normlab.js';");
  out();
  out('/** Names of every operation of the core. */');
  out(`export type OpName =\n${specs.map((s) => `  | ${lit(s.name)}`).join('\n')};`);
  out();
  out("/** Operations of the training module (loadTrainer); the others are the core's (loadCore). */");
  out(`export type TrainingOpName =\n${core.training.map((n) => `  | ${lit(n)}`).join('\n')};`);
  out('export type CoreOpName = Exclude<OpName, TrainingOpName>;');
  out();
  out("/** Operations with a description (core.describe, reduction_group's method). */");
  out(`export type DescribedOpName =\n${described.map((n) => `  | ${lit(n)}`).join('\n')};`);
  out();
  out('/** What an op takes when it has no inputs (or no attributes). */');
  out('export type NoArgs = { readonly [name: string]: never };');
  out();

  out('/** Outputs of every operation by name, as core.run returns them. */');
  out('export interface OpOutputs {');
  for (const s of specs) {
    const fields = s.outputs.map(
      (o) => `${key(o)}${conditional(s.name, o) ? '?' : ''}: ${isInt(s.name, o) ? 'IntOutput' : 'TensorOutput'}`,
    );
    out(`  ${key(s.name)}: { ${fields.join('; ')} };`);
  }
  out('}');
  out();

  out(
    '/** Inputs of every operation by name, as core.run takes them (null or absent: an optional input not given). */',
  );
  out('export interface OpInputs {');
  for (const s of specs) {
    if (!s.inputs.length) {
      out(`  ${key(s.name)}: NoArgs;`);
      continue;
    }
    const fields = s.inputs.map((i) => `${key(i.name)}${i.optional ? '?: RunInput | null' : ': RunInput'}`);
    const line = `  ${key(s.name)}: { ${fields.join('; ')} };`;
    if (line.length <= 120) out(line);
    else {
      out(`  ${key(s.name)}: {`);
      for (const f of fields) out(`    ${f};`);
      out('  };');
    }
  }
  out('}');
  out();

  out('/** Attributes of every operation by name, as core.run takes them. */');
  out('export interface OpAttrs {');
  for (const s of specs) {
    if (!s.attrs.length) {
      out(`  ${key(s.name)}: NoArgs;`);
      continue;
    }
    out(`  ${key(s.name)}: {`);
    for (const a of s.attrs) {
      const doc = attrDoc(s.name, a);
      if (doc) out(`    ${doc}`);
      out(`    ${key(a.name)}${attrOptional(s.name, a) ? '?' : ''}: ${attrType(s.name, a)};`);
    }
    out('  };');
  }
  out('}');
  out();

  // ---- the named functions
  const methods = [];
  for (const s of specs) {
    checkNames(s);
    const name = pascal(s.name);
    const floatOuts = s.outputs.filter((o) => !isInt(s.name, o));
    const generic = s.outputs.length > 1 && floatOuts.length > 0;
    const tp = (o) => `T${pascal(o)}`;
    const params = floatOuts.map((o) => `${tp(o)} extends OutTarget = OutTarget`).join(', ');
    out(
      `/** Options of core.${camel(s.name)}${s.name === 'scaled_dot_product_attention' ? ' and core.attention' : ''}. */`,
    );
    const head = `export interface ${name}Options${generic ? `<${params}>` : ''} {`;
    if (head.length <= 120) out(head);
    else {
      out(`export interface ${name}Options<`);
      for (const o of floatOuts) out(`  ${tp(o)} extends OutTarget = OutTarget,`);
      out('> {');
    }
    if (s.inputs.length) {
      out(`  /** Shape of ${s.inputs[0].name} when it is given as a flat array. */`);
      out('  shape?: readonly number[];');
    }
    for (const i of s.inputs.slice(1)) out(`  ${key(camel(i.name))}${i.optional ? '?: XInput | null' : ': XInput'};`);
    for (const a of s.attrs) {
      const doc = attrDoc(s.name, a);
      if (doc) out(`  ${doc}`);
      out(`  ${key(camel(a.name))}${attrOptional(s.name, a) ? '?' : ''}: ${attrType(s.name, a)};`);
    }
    s.outputs.forEach((o, k) => {
      if (isInt(s.name, o)) return;
      const opt = k === 0 ? 'out' : `out${pascal(o)}`;
      out(`  /** Where ${o} goes: a Float32Array of its length, or a resident tensor (returned as it is). */`);
      out(`  ${opt}?: ${generic ? tp(o) : 'OutTarget'} | null;`);
    });
    out('}');
    out();
    methods.push({ s, name, floatOuts, generic, tp });
  }

  const interfaceOf = (title, name, list) => {
    out(title);
    out(`export interface ${name} {`);
    for (const m of list) {
      for (const line of signatures(camel(m.s.name), m)) put(line);
      if (m.s.name === 'scaled_dot_product_attention') {
        const [, ...rest] = signatures('attention', m);
        put('/** Runs scaled_dot_product_attention (core.scaledDotProductAttention); returns { out, weights }. */');
        for (const line of rest) put(line);
      }
    }
    out('}');
  };
  const signatures = (method, { s, name, floatOuts, generic, tp }) => {
    const first = s.inputs[0];
    const required = s.inputs.slice(1).some((i) => !i.optional) || s.attrs.some((a) => !attrOptional(s.name, a));
    const x = first ? `${first.name}: XInput, ` : '';
    const opts = (extra) => `options${required ? '' : '?'}: ${name}Options${extra}`;
    const optsReq = (extra) => `options: ${name}Options${extra}`;
    const lines = [];
    if (s.outputs.length === 1) {
      const o = s.outputs[0];
      lines.push(`/** Runs ${s.name}; returns ${o}${isInt(s.name, o) ? ' (integers)' : ''}. */`);
      if (isInt(s.name, o)) lines.push(`${method}(${x}${opts('')}): number[];`);
      else {
        lines.push(`${method}(${x}${optsReq(' & { out: NlTensor }')}): NlTensor;`);
        lines.push(`${method}(${x}${opts(' & { out?: Float32Array | null }')}): Float32Array;`);
        lines.push(`${method}(${x}${opts('')}): Float32Array | NlTensor;`);
      }
      return lines;
    }
    const when = whenGiven(s);
    const field = (o, present) =>
      `${key(camel(o))}${!present && conditional(s.name, o) ? '?' : ''}: ${isInt(s.name, o) ? 'number[]' : generic ? tp(o) : 'Float32Array'}`;
    const result = (present) => `{ ${s.outputs.map((o) => field(o, present)).join('; ')} }`;
    const tps = generic ? `<${floatOuts.map((o) => `${tp(o)} extends OutTarget = Float32Array`).join(', ')}>` : '';
    const args = generic ? `<${floatOuts.map(tp).join(', ')}>` : '';
    const listed = s.outputs.map((o) => camel(o) + (conditional(s.name, o) ? '?' : '')).join(', ');
    lines.push(`/** Runs ${s.name}; returns { ${listed} }. */`);
    if (when.length) {
      const given = when.map((i) => `${camel(i)}: XInput`).join('; ');
      lines.push(`${method}${tps}(${x}${optsReq(`${args} & { ${given} }`)}): ${result(true)};`);
    }
    lines.push(`${method}${tps}(${x}${opts(args)}): ${result(false)};`);
    return lines;
  };
  // A signature too long for one line goes as `name<...>(\n params,\n): result;`.
  const put = (line) => {
    if (line.length <= 118 || line.startsWith('/**')) return out(`  ${line}`);
    const open = line.indexOf('(');
    const close = line.lastIndexOf('): ');
    const params = line.slice(open + 1, close).split(/, (?=[A-Za-z_$][\w$]*\??: )/);
    const head = line.slice(0, open + 1);
    const lt = head.indexOf('<');
    if (head.length <= 118 || lt < 0) out(`  ${head}`);
    else {
      out(`  ${head.slice(0, lt + 1)}`);
      for (const t of head.slice(lt + 1, -2).split(', ')) out(`    ${t},`);
      out('  >(');
    }
    for (const p of params) out(`    ${p},`);
    out(`  ${line.slice(close)}`);
  };
  const trains = (m) => core.training.includes(m.s.name);
  interfaceOf(
    '/** One function per operation of the core: the first input positional, the rest options (camelCase names). */',
    'NamedFunctions',
    methods.filter((m) => !trains(m)),
  );
  out();
  interfaceOf(
    "/** One function per operation of the training module (loadTrainer), spelled as the core's. */",
    'TrainingFunctions',
    methods.filter(trains),
  );
  return L.join('\n') + '\n';
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const text = await generateTypes();
  writeFileSync(outputPath, text);
  console.log(
    `wrote ${fileURLToPath(new URL('../web/core/ops.generated.d.ts', import.meta.url))} (${text.split('\n').length - 1} lines)`,
  );
}
