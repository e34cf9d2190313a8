// <nl-causal-leak> as a reader drives it: it opens with token 6's first
// feature already edited (1.5 → 5), Undo the edit and Reset; by keyboard, every position of both
// sliders, and after each one the outputs against float64 oracles written from
// the definitions here (BatchNorm per feature over the six tokens, LayerNorm
// and RMSNorm per token), the promise bit for bit (LayerNorm and RMSNorm
// outputs of earlier tokens never change, BatchNorm's do), and every sentence
// against the state it came from. Plus Reset, the language switch and bad
// attributes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onArticlePage } from './helpers.mjs';

const TAG = 'nl-causal-leak';
const fig = onArticlePage(TAG);

const T = 6,
  D = 3;
// ---- oracles, from the definitions (population variance, eps inside the root) ----
function batchNorm(x, eps = 1e-5) {
  const y = new Array(T * D);
  for (let f = 0; f < D; f++) {
    let m = 0;
    for (let t = 0; t < T; t++) m += x[t * D + f];
    m /= T;
    let v = 0;
    for (let t = 0; t < T; t++) v += (x[t * D + f] - m) ** 2;
    v /= T;
    for (let t = 0; t < T; t++) y[t * D + f] = (x[t * D + f] - m) / Math.sqrt(v + eps);
  }
  return y;
}
function perToken(x, fn) {
  const y = [];
  for (let t = 0; t < T; t++) y.push(...fn(x.slice(t * D, t * D + D)));
  return y;
}
const layerNorm = (x, eps = 1e-5) =>
  perToken(x, (r) => {
    const m = r.reduce((a, b) => a + b) / D;
    const v = r.reduce((a, b) => a + (b - m) ** 2, 0) / D;
    return r.map((a) => (a - m) / Math.sqrt(v + eps));
  });
const rmsNorm = (x, eps = 1e-6) =>
  perToken(x, (r) => {
    const ms = r.reduce((a, b) => a + b * b, 0) / D;
    return r.map((a) => a / Math.sqrt(ms + eps));
  });
const ORACLE = { batch_norm: batchNorm, layer_norm: layerNorm, rms_norm: rmsNorm };

const snap = () => fig.snap();

const fmt = (v) => new Intl.NumberFormat('en-US', { maximumSignificantDigits: 4 }).format(v);

/** Every check of one position. `first` holds the outputs at the very start (nothing edited). */
function check(sn, first, where) {
  const s = sn.state;
  assert.equal(sn.error, '', where);
  assert.deepEqual(sn.bad, [], `${where}: no NaN in the drawing`);
  const input = [...s.tokens];
  input[(s.edit - 1) * D] = s.value;
  assert.deepEqual(s.input, input, `${where}: the edit is feature 1 of token ${s.edit}`);
  assert.equal(s.original, s.tokens[(s.edit - 1) * D]);
  for (const [m, fn] of Object.entries(ORACLE)) {
    fn(input).forEach((v, i) =>
      assert.ok(Math.abs(s.outputs[m][i] - v) <= 1e-5, `${where}: ${m}[${i}] ${s.outputs[m][i]} vs ${v}`),
    );
  }
  const edited = !Object.is(s.value, s.original);
  for (let t = 0; t < s.edit - 1; t++) {
    for (const m of ['layer_norm', 'rms_norm']) {
      for (let f = 0; f < D; f++) {
        assert.ok(
          Object.is(s.outputs[m][t * D + f], first[m][t * D + f]),
          `${where}: ${m} of earlier token ${t + 1} is unchanged, bit for bit`,
        );
      }
    }
    const bnMoved = [0, 1, 2].some((f) => !Object.is(s.outputs.batch_norm[t * D + f], first.batch_norm[t * D + f]));
    assert.equal(
      bnMoved,
      edited,
      `${where}: BatchNorm of earlier token ${t + 1} changed exactly when the later token did`,
    );
  }
  assert.equal(s.earlierChanged.layer_norm, 0);
  assert.equal(s.earlierChanged.rms_norm, 0);
  assert.equal(s.earlierChanged.batch_norm, edited ? s.edit - 1 : 0, where);
  // the words
  const last = s.edit - 1;
  if (!edited) {
    assert.equal(
      sn.desc,
      `Token ${s.edit} still has its own feature 1, ${fmt(s.original)}: every output is as it was. Move the value to edit this later token and watch tokens 1 to ${last}.`,
    );
    assert.ok(
      sn.svg.filter((x) => x === 'earlier tokens: unchanged').length === 3,
      `${where}: three panels say unchanged`,
    );
  } else {
    assert.ok(
      sn.desc.startsWith(`Feature 1 of token ${s.edit} moved from ${fmt(s.original)} to ${fmt(s.value)}.`),
      `${where}: ${sn.desc}`,
    );
    assert.ok(
      sn.desc.includes(`BatchNorm pooled over the sequence changed the outputs of all ${last} earlier tokens`),
      `${where}: ${sn.desc}`,
    );
    assert.ok(
      sn.desc.endsWith(
        `LayerNorm and RMSNorm left the outputs of tokens 1 to ${last} exactly as they were, bit for bit: their statistics stay inside each token. Undo the edit and every ≠ below the panels turns back into =.`,
      ),
      where,
    );
    assert.ok(
      sn.svg.includes(last === 1 ? '1 earlier token changed' : `${last} earlier tokens changed`),
      `${where}: the BatchNorm panel counts them`,
    );
    assert.equal(sn.svg.filter((x) => x === '≠').length, last, `${where}: one ≠ under each earlier BatchNorm token`);
  }
}

const button = (name) => fig.page.locator(TAG).getByRole('button', { name, exact: true });
const undo = () => button('Undo the edit').click();

test('it opens on the leak: token 6 edited from 1.5 to 5, five ≠ under BatchNorm; Undo the edit clears them all', async () => {
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('lang', 'en'), TAG);
  let sn = await snap();
  assert.equal(sn.state.edit, 6);
  assert.equal(sn.state.value, 5);
  assert.equal(sn.state.original, 1.5);
  assert.equal(sn.state.edited, true);
  // feature 1 over the six tokens goes from (1, 0, 2, −1, 0.5, 1.5) to (…, 5): its mean moves from 4/6 to 7.5/6,
  // so every earlier token's BatchNorm output moves, and nothing inside tokens 1..5 does
  assert.deepEqual(sn.state.earlierChanged, { batch_norm: 5, layer_norm: 0, rms_norm: 0 });
  assert.equal(sn.svg.filter((x) => x === '≠').length, 5, 'five ≠, all under BatchNorm');
  assert.equal(sn.svg.filter((x) => x === '=').length, 10, 'ten =, under LayerNorm and RMSNorm');
  assert.ok(sn.desc.startsWith('Feature 1 of token 6 moved from 1.5 to 5.'), sn.desc);
  await undo();
  sn = await snap();
  assert.equal(sn.state.value, 1.5, 'the token has its own value back');
  assert.equal(sn.state.edited, false);
  assert.deepEqual(sn.state.outputs, sn.state.baseline, 'every output as it was');
  assert.equal(sn.svg.filter((x) => x === '≠').length, 0);
  assert.equal(
    sn.desc,
    'Token 6 still has its own feature 1, 1.5: every output is as it was. Move the value to edit this later token and watch tokens 1 to 5.',
  );
  // undoing twice changes nothing
  await undo();
  assert.deepEqual((await snap()).state.outputs, sn.state.outputs);
  await button('Reset').click();
  sn = await snap();
  assert.equal(sn.state.value, 5, 'Reset: the edit the page opened with');
  assert.equal(sn.state.edited, true);
  assert.deepEqual(fig.problems, []);
});

test("the value slider by keyboard, 40 positions at every edited token: earlier LayerNorm/RMSNorm outputs never change, BatchNorm's always do", async () => {
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('lang', 'en'), TAG);
  const sliders = fig.page.locator(`${TAG} >> input[type=range]`);
  check(await snap(), (await snap()).state.baseline, 'opening, edited');
  await undo();
  const first = (await snap()).state.outputs;
  check(await snap(), first, 'start');
  let positions = 0;
  for (let edit = 6; edit >= 2; edit--) {
    // choose the token with the keyboard: the edit slider, arrow keys; the value comes along
    await sliders.nth(0).focus();
    const carried = (await snap()).state.value;
    while ((await snap()).state.edit > edit) await fig.page.keyboard.press('ArrowLeft');
    const s0 = await snap();
    assert.equal(s0.state.edit, edit);
    assert.equal(s0.state.value, carried, 'another token takes the same value');
    check(s0, first, `edit ${edit}, start`);
    await sliders.nth(1).focus();
    for (let i = 0; i < 8; i++) {
      await fig.page.keyboard.press(i < 4 ? 'ArrowRight' : 'PageDown');
      check(await snap(), first, `edit ${edit}, key ${i}`);
      positions++;
    }
  }
  // the whole range by Home and End
  for (const key of ['Home', 'End']) {
    await fig.page.keyboard.press(key);
    const sn = await snap();
    assert.equal(sn.state.value, key === 'Home' ? -6 : 6);
    check(sn, first, key);
    positions++;
  }
  assert.ok(positions >= 40, `${positions} positions`);
  await button('Reset').click();
  assert.deepEqual([(await snap()).state.edit, (await snap()).state.value], [6, 5], 'Reset');
  assert.deepEqual(fig.problems, []);
});

test('hand-derived: with feature 1 of the tokens 1..6 and the last set to −1, BatchNorm of token 1 is −4/√35', async () => {
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('tokens', '1,0,0, 2,0,0, 3,0,0, 4,0,0, 5,0,0, 6,0,0');
    f.setAttribute('edit', '6');
    f.setAttribute('value', '-1');
  }, TAG);
  const s = (await snap()).state;
  // feature 1 is (1, 2, 3, 4, 5, −1): mean 14/6 = 7/3, variance (16 + 1 + 4 + 25 + 64 + 100)/9/6 = 210/54 = 35/9,
  // so token 1 gets (1 − 7/3)/√(35/9) = −4/√35 = −0.67612 (eps 1e-5 changes the 6th digit);
  // unedited (…, 6) the mean is 3.5 and the variance 35/12: (1 − 3.5)/√(35/12) = −1.46385
  assert.equal(s.value, -1);
  assert.ok(Math.abs(s.outputs.batch_norm[0] - -4 / Math.sqrt(35)) < 1e-5, `${s.outputs.batch_norm[0]}`);
  assert.ok(Math.abs(s.baseline.batch_norm[0] - -2.5 / Math.sqrt(35 / 12)) < 1e-5, `${s.baseline.batch_norm[0]}`);
  // LayerNorm of token 1 = (1, 0, 0): mean 1/3, variance 2/9: (2/3)/√(2/9) = √2 = 1.41421 either way
  assert.ok(Math.abs(s.outputs.layer_norm[0] - Math.SQRT2) < 1e-4);
  assert.ok(Object.is(s.outputs.layer_norm[0], s.baseline.layer_norm[0]));
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.removeAttribute('tokens');
    f.removeAttribute('value');
  }, TAG);
});

test('the language switch rewrites every word, bad attributes keep the last drawing with a message', async () => {
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('lang', 'zh'), TAG);
  let sn = await snap();
  assert.ok(sn.svg.includes('前面有 5 个 tokens 改变'), 'the opening edit, in Chinese');
  assert.ok(sn.desc.endsWith('撤销修改后，各图下方的 ≠ 全部变回 =。'), sn.desc);
  await button('撤销修改').click();
  sn = await snap();
  assert.equal(sn.state.edited, false);
  assert.match(sn.desc, /^Token 6 的 feature 1 仍是原值 1\.5/);
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('value', '4');
    f.setAttribute('lang', 'zh');
  }, TAG);
  sn = await snap();
  assert.match(sn.desc, /^Token 6 的 feature 1 从 1\.5 变为 4。/);
  assert.match(sn.desc, /LayerNorm 与 RMSNorm 让 tokens 1 到 5 的输出与原来逐位完全相同/);
  assert.ok(sn.svg.includes('前面有 5 个 tokens 改变'));
  const good = sn.state;
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('tokens', '1,2,3'), TAG);
  sn = await snap();
  assert.match(sn.error, /tokens/);
  assert.deepEqual(sn.state.outputs, good.outputs, 'the last good drawing stays');
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('value', '99'), TAG);
  sn = await snap();
  assert.match(sn.error, /value/);
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.removeAttribute('tokens');
    f.removeAttribute('value');
    f.setAttribute('lang', 'en');
  }, TAG);
  sn = await snap();
  assert.equal(sn.error, '');
  assert.deepEqual(fig.problems, []);
});
