// The transformer's ops in the WASM training module, loaded through the
// public loader, against the PyTorch references of
// scripts/gen_transformer_references.py (float64 torch.autograd and
// torch.optim.AdamW): every configuration's loss, gradients and measures, the
// 20-step runs, the seeded start and sampling. Prints the largest absolute and
// relative errors per op and output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const cases = JSON.parse(readFileSync(new URL('../conformance/cases/transformer.json', import.meta.url), 'utf8'));
const { loadCore, loadTrainer, NormlabError } = await import('normlab');
const trainer = await loadTrainer();
const core = await loadCore();

const decode = (t) => ({ shape: t.shape, data: t.data });

test('the transformer ops live in the training module only', () => {
  for (const op of ['tfm_init', 'tfm_grad', 'tfm_step', 'tfm_sample']) {
    assert.ok(trainer.ops.includes(op), op);
    assert.ok(!core.ops.includes(op), op);
  }
});

test('every configuration matches PyTorch within float32 tolerance', () => {
  const worst = new Map(); // "op output" -> {abs, rel}
  let good = 0;
  for (const c of cases.filter((k) => k.expect.outputs)) {
    const inputs = Object.fromEntries(Object.entries(c.inputs).map(([k, v]) => [k, decode(v)]));
    const out = trainer.run(c.op, inputs, c.attrs);
    const tol = c.tol ?? 1e-4;
    for (const [name, want] of Object.entries(c.expect.outputs)) {
      const got = out[name];
      assert.ok(got, `${c.id}: no output ${name}`);
      assert.deepEqual(got.shape, want.shape, `${c.id}: shape of ${name}`);
      const key = `${c.op} ${name}`;
      const w = worst.get(key) ?? { abs: 0, rel: 0 };
      for (let i = 0; i < want.data.length; i++) {
        const g = Number(got.data[i]),
          e = want.data[i];
        const abs = Math.abs(g - e);
        w.abs = Math.max(w.abs, abs);
        if (Math.abs(e) > 1e-3) w.rel = Math.max(w.rel, abs / Math.abs(e));
        assert.ok(abs <= tol + tol * Math.abs(e), `${c.id}: ${name}[${i}] = ${g}, torch ${e} (tol ${tol})`);
      }
      worst.set(key, w);
    }
    good++;
  }
  assert.ok(good >= 59, `${good} cases`);
  console.log(
    [...worst]
      .map(([k, w]) => `${k}: max abs ${w.abs.toExponential(2)}, max rel ${w.rel.toExponential(2)} (|ref| > 1e-3)`)
      .join('\n'),
  );
});

test('bad input is refused with the op and argument named, and the module goes on', () => {
  for (const c of cases.filter((k) => k.expect.error)) {
    const inputs = Object.fromEntries(Object.entries(c.inputs).map(([k, v]) => [k, decode(v)]));
    assert.throws(
      () => trainer.run(c.op, inputs, c.attrs),
      (e) => e instanceof NormlabError && c.expect.error.every((n) => e.message.includes(n)),
      c.id,
    );
  }
  const init = trainer.run('tfm_init', {}, { vocab: 5, d_model: 4, heads: 2, layers: 1, context: 3 });
  assert.equal(init.params.shape[0] * 2 + 1, init.state.shape[0]);
});
