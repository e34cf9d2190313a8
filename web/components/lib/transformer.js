// The experiment of <nl-transformer-training>, one run at a time: the model, its batches and its
// schedule, driven through any `run(op, inputs, attrs)` that returns a promise (a Worker's, the training
// module's on the main thread, or Node's in scripts/gen-transformer-opening.mjs). Every number is the
// core's (tfm_init, tfm_step, tfm_grad, tfm_sample); this file only cuts the article's text into
// windows and hands them over. scripts/gen_transformer_sweep.py trains the same runs in PyTorch.
import { CORPUS } from '../data/transformer-corpus.js';

/** The figure's model (tfm_* attributes besides vocab and the variant's three). */
export const MODEL = Object.freeze({
  d_model: 32,
  heads: 2,
  context: 32,
  mlp_ratio: 4,
  activation: 'gelu',
  tied: true,
  eps: 1e-5,
  z_loss: 0,
});
/** AdamW as torch.optim.AdamW with warm-up, cosine decay to lr_min x lr and clipping. */
export const OPTIMIZER = Object.freeze({
  beta1: 0.9,
  beta2: 0.95,
  weight_decay: 0.1,
  warmup: 30,
  lr_min: 0.1,
  clip: 1,
});
/** The four variants the reader compares: the norm's placement, the norm, and QK-Norm. */
export const VARIANTS = Object.freeze({
  post_ln: { placement: 'post', norm: 'layer_norm', qk_norm: 'none' },
  pre_ln: { placement: 'pre_final', norm: 'layer_norm', qk_norm: 'none' },
  pre_rms: { placement: 'pre_final', norm: 'rms_norm', qk_norm: 'none' },
  pre_rms_qk: { placement: 'pre_final', norm: 'rms_norm', qk_norm: 'rms_norm' },
});
export const LRS = Object.freeze([0.001, 0.003, 0.01, 0.03, 0.1, 0.3]);
export const BATCH = 8,
  CHUNK = 10; // steps per call; the validation loss after each
/** The prompt whose attention the figure draws and after which it samples, per language. */
export const PROMPT = { en: 'the mean and the variance of the', zh: '一个 token 的 hidden state 会被' };

const tokenCache = new Map();
/** The language's text as token ids (its own vocabulary; an unseen character is the last entry, a stand-in). */
export function tokens(lang) {
  if (!tokenCache.has(lang)) {
    const c = CORPUS[lang] ?? CORPUS.en;
    const index = new Map(c.vocab.map((ch, i) => [ch, i]));
    const ids = (text) => Float32Array.from(text, (ch) => index.get(ch) ?? c.vocab.length - 1);
    tokenCache.set(lang, { vocab: c.vocab, train: ids(c.train), val: ids(c.val), ids });
  }
  return tokenCache.get(lang);
}

/** Windows of `context` ids at `offsets`, and the ids one position on: tokens and targets [K, B, T]. */
function windows(ids, offsets, k, T) {
  const tok = new Float32Array(offsets.length * T),
    tgt = new Float32Array(offsets.length * T);
  offsets.forEach((o, i) => {
    tok.set(ids.subarray(o, o + T), i * T);
    tgt.set(ids.subarray(o + 1, o + T + 1), i * T);
  });
  const shape = [k, offsets.length / k, T];
  return { tokens: { shape, data: tok }, targets: { shape, data: tgt } };
}

/** Steps `from` to `from + count - 1` (from 0): step k reads the windows at ((B k + b) x 7919) mod (N - T - 1). */
export function trainBatches(ids, from, count, T = MODEL.context) {
  const span = ids.length - T - 1,
    offsets = [];
  for (let k = from; k < from + count; k++)
    for (let b = 0; b < BATCH; b++) offsets.push(((k * BATCH + b) * 7919) % span);
  return windows(ids, offsets, count, T);
}

/** The held-out windows the validation loss reads: B of them, evenly spaced. */
export function valBatch(ids, T = MODEL.context) {
  const gap = Math.floor((ids.length - T - 1) / BATCH);
  const w = windows(
    ids,
    Array.from({ length: BATCH }, (_, b) => b * gap),
    1,
    T,
  );
  return {
    tokens: { shape: w.tokens.shape.slice(1), data: w.tokens.data },
    targets: { shape: w.targets.shape.slice(1), data: w.targets.data },
  };
}

/** The tfm_* attributes of one run. */
export function config({ variant, layers = 2, lang = 'en' }) {
  return { vocab: tokens(lang).vocab.length, ...MODEL, layers, ...VARIANTS[variant] };
}

/**
 * One run: starts from the seeded weights and takes CHUNK steps a call, yielding after each
 * {step, loss: [...], maxLogit: [[layer...]...], entropy, val, status}; `steps` in all.
 */
export async function* train(run, { variant, lr, layers = 2, lang = 'en', steps = 300, seed = 0 }) {
  const c = config({ variant, layers, lang });
  const data = tokens(lang);
  const val = valBatch(data.val, c.context);
  let { params, state } = await run('tfm_init', {}, { ...c, seed });
  const opt = { ...OPTIMIZER, lr, total: steps };
  for (let step = 0; step < steps;) {
    const n = Math.min(CHUNK, steps - step);
    const batch = trainBatches(data.train, step, n, c.context);
    const out = await run('tfm_step', { params, state, ...batch }, { ...c, ...opt, steps: n });
    params = out.params;
    state = out.state;
    const taken = out.loss.data.length;
    step += taken;
    const rows = (t) =>
      Array.from({ length: taken }, (_, i) => Array.from(t.data.subarray(i * layers, (i + 1) * layers)));
    const chunk = {
      step,
      loss: Array.from(out.loss.data),
      maxLogit: rows(out.max_logit),
      entropy: rows(out.entropy),
      status: out.status.data[0] === 1 ? 'diverged' : step >= steps ? 'done' : 'training',
      params,
    };
    if (taken === n && step % CHUNK === 0) {
      const v = await run('tfm_grad', { params, ...val }, c);
      chunk.val = v.loss.data[0];
    }
    yield chunk;
    if (chunk.status === 'diverged') return;
  }
}

/** What the trained weights do on the language's prompt: every head's attention and a sampled continuation. */
export async function probe(
  run,
  params,
  { variant, layers = 2, lang = 'en', count = 40, temperature = 0.6, seed = 0 },
) {
  const c = config({ variant, layers, lang });
  const data = tokens(lang);
  const ids = data.ids(PROMPT[lang] ?? PROMPT.en).slice(0, c.context);
  const T = ids.length;
  const shape = [1, T];
  const g = await run('tfm_grad', { params, tokens: { shape, data: ids }, targets: { shape, data: ids } }, c);
  const s = await run('tfm_sample', { params, prompt: { shape: [T], data: ids } }, { ...c, count, temperature, seed });
  return {
    attention: Array.from(g.attention.data), // [layers, 1, heads, T, T]
    T,
    sample: Array.from(s.tokens.data, (i) => data.vocab[i]).join(''),
  };
}
