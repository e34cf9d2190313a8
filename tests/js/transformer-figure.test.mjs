// <nl-transformer-training>'s recorded runs (web/components/data/transformer-opening.js, written by
// scripts/gen-transformer-opening.mjs with the WASM training module) against PyTorch: the same 24 runs
// trained by scripts/gen_transformer_sweep.py (float64 autograd, torch.optim.AdamW, the figure's batches
// and schedule; tests/conformance/transformer-sweep.json). Float32 and float64 part ways after a few
// hundred steps at the largest rates, so what is compared there is the outcome each run has, as the figure's
// text names it; the first steps are compared number for number. Then two runs are trained again through
// the figure's own driver and must give the recorded numbers exactly (the file is current).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { OPENING } from '../../web/components/data/transformer-opening.js';
import { LRS, VARIANTS, train } from '../../web/components/lib/transformer.js';

const torch = JSON.parse(readFileSync(new URL('../conformance/transformer-sweep.json', import.meta.url), 'utf8'));
const NAMES = { 'Post-LN': 'post_ln', 'Pre-LN': 'pre_ln', 'Pre-RMS': 'pre_rms', 'Pre-RMS + QK-Norm': 'pre_rms_qk' };
const ours = (variant, lr) => OPENING.en.find((r) => r.variant === variant && r.lr === lr);
// block 1's largest attention logit over a run, every 10 steps (step 10, 20, ...) as the figure records it
const peak1 = (rows) => Math.max(...rows.map((r) => r[0]));
const torchRows = (t) => t.max_logit.filter((_, i) => (i + 1) % 10 === 0);
// what the figure's text and rubric say of a run: its logits stay small (< 15), grow (> 30), or neither
const logitClass = (p) => (p < 15 ? 'small' : p > 30 ? 'grown' : 'between');
// its held-out loss at the end: within 0.25 of the best rate's of its variant, or worse (the sweep's shape)
const lossClasses = (runs, val) => {
  const best = {};
  for (const r of runs) best[r.variant] = Math.min(best[r.variant] ?? Infinity, val(r));
  return (r) => (val(r) > best[r.variant] + 0.25 ? 'worse' : 'near best');
};
const r4 = (v) => Number(v.toPrecision(4));
const pairs = torch.runs.map((t) => ({ t, w: ours(NAMES[t.variant], t.lr), name: `${t.variant} lr ${t.lr}` }));

test('the recorded sweep has every run of the torch sweep, with the same schedule', () => {
  assert.equal(OPENING.steps, torch.steps);
  assert.deepEqual([...LRS], torch.lrs);
  assert.equal(Object.keys(VARIANTS).length * LRS.length, torch.runs.length);
  for (const { w, t, name } of pairs) {
    assert.ok(w, `${name}: not recorded`);
    assert.equal(w.loss.length, t.loss.length, `${name}: steps taken`);
    assert.equal(w.val.length, t.val.length, `${name}: validation points`);
    assert.equal(w.status === 'diverged' ? 1 : 0, t.status, `${name}: status`);
  }
});

test('the first 20 steps of every run match PyTorch (float32 against float64)', () => {
  let worst = 0;
  for (const { w, t, name } of pairs) {
    for (let i = 0; i < 20; i++) {
      const e = Math.abs(w.loss[i] - t.loss[i]);
      worst = Math.max(worst, e);
      assert.ok(e < 2e-3, `${name}: step ${i + 1} loss ${w.loss[i]} vs torch ${t.loss[i]}`);
    }
    // the first validation loss (step 10)
    assert.ok(Math.abs(w.val[0] - t.val[0]) < 2e-3, `${name}: validation at step 10 ${w.val[0]} vs ${t.val[0]}`);
  }
  console.log(`largest difference in the first 20 losses: ${worst.toExponential(2)}`);
});

test('every run has the outcome PyTorch gives it: logits small or grown, held-out loss near its best or worse', () => {
  const torchLoss = lossClasses(torch.runs, (r) => r.val.at(-1));
  const ourLoss = lossClasses(OPENING.en, (r) => r.val.at(-1));
  const table = [];
  for (const { w, t, name } of pairs) {
    const tp = peak1(torchRows(t)),
      wp = peak1(w.maxLogit);
    assert.equal(logitClass(wp), logitClass(tp), `${name}: block 1 peak ${wp} vs torch ${tp}`);
    assert.equal(ourLoss(w), torchLoss(t), `${name}: held-out ${w.val.at(-1)} vs torch ${t.val.at(-1)}`);
    table.push(
      `${name}: peak ${wp} (torch ${tp.toFixed(1)}), held-out ${w.val.at(-1)} (torch ${t.val.at(-1).toFixed(3)})`,
    );
  }
  console.log(table.join('\n'));
  // the shape the figure's text describes: with QK-Norm small at every rate; without it grown from 0.1 on
  for (const { w, t, name } of pairs) {
    const qk = t.variant === 'Pre-RMS + QK-Norm';
    if (qk) assert.equal(logitClass(peak1(torchRows(t))), 'small', name);
    else if (t.lr >= 0.1) assert.equal(logitClass(peak1(torchRows(t))), 'grown', name);
    void w;
  }
});

test("two recorded runs trained again through the figure's driver give the recorded numbers (the file is current)", async () => {
  const { trainerWorker } = await import('normlab');
  const worker = await trainerWorker(); // in Node: the calls on this thread
  assert.equal(worker.where, 'main');
  for (const [lang, variant, lr, chunks] of [
    ['en', 'pre_rms_qk', 0.1, 30],
    ['zh', 'post_ln', 0.1, 3],
  ]) {
    const want = OPENING[lang].find((r) => r.variant === variant && r.lr === lr);
    const got = { loss: [], val: [], maxLogit: [] };
    let n = 0;
    for await (const c of train(worker.run, { variant, lr, lang, steps: OPENING.steps })) {
      got.loss.push(...c.loss.map(r4));
      got.val.push(r4(c.val));
      got.maxLogit.push(c.maxLogit.at(-1).map(r4));
      if (++n === chunks) break;
    }
    const k = got.loss.length;
    assert.deepEqual(got.loss, want.loss.slice(0, k), `${lang} ${variant}: losses`);
    assert.deepEqual(got.val, want.val.slice(0, k / 10), `${lang} ${variant}: held-out losses`);
    assert.deepEqual(got.maxLogit, want.maxLogit.slice(0, k / 10), `${lang} ${variant}: largest logits`);
  }
});
