// <nl-epsilon> as a reader uses it: every ε chosen with the keyboard, and after
// each the outputs of every row, with ε inside and outside the root, against
// float64 oracles written here from the definitions; where each curve keeps
// and loses the widest row's value; the constant row (0, or the core's refusal
// at ε = 0); and the sentences against the state. Plus Chinese.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onArticlePage } from './helpers.mjs';

const TAG = 'nl-epsilon';
const fig = onArticlePage(TAG);
const snap = () => fig.snap();
const close = (a, b, tol, msg) => assert.ok(Math.abs(a - b) <= tol, `${msg}: ${a} vs ${b}`);
const f4 = (v) => new Intl.NumberFormat('en-US', { maximumSignificantDigits: 4 }).format(v);
const LABEL = {
  10: '10',
  3: '3',
  1: '1',
  0.3: '0.3',
  0.1: '0.1',
  0.03: '0.03',
  0.01: '0.01',
  0.003: '0.003',
  0.001: '0.001',
  3e-4: '3·10⁻⁴',
  1e-4: '10⁻⁴',
  3e-5: '3·10⁻⁵',
  1e-5: '10⁻⁵',
  3e-6: '3·10⁻⁶',
  1e-6: '10⁻⁶',
};

// (−s, 0, s): mean 0, variance 2s²/3; the last coordinate is s / denominator
const inside = (s, eps) => s / Math.sqrt((2 * s * s) / 3 + eps);
const outside = (s, eps) => s / (s * Math.sqrt(2 / 3) + eps);

function check(sn, where) {
  const st = sn.state,
    eps = Number(st.eps);
  assert.equal(sn.error, '', where);
  assert.deepEqual(sn.bad, [], where);
  st.spreads.forEach((s, i) => {
    close(st.inside[i], inside(s, eps), 2e-5 * Math.max(1, inside(s, eps)), `${where} inside at ${s}`);
    close(st.outside[i], outside(s, eps), 2e-5 * Math.max(1, outside(s, eps)), `${where} outside at ${s}`);
  });
  close(st.reference, inside(10, eps), 1e-5, `${where}: the widest row`);
  for (const place of ['inside', 'outside']) {
    const ys = st[place];
    const kept = st.spreads.filter((s, i) => f4(ys[i]) === f4(ys[0])).at(-1);
    const collapsed = st.spreads.find((s, i) => ys[i] < 0.1) ?? null;
    assert.deepEqual(st.summary[place], { kept, collapsed }, `${where} ${place}`);
  }
  const e =
    st.eps === '0'
      ? '0'
      : `10⁻${{ 12: '¹²', 8: '⁸', 6: '⁶', 5: '⁵', 4: '⁴', 3: '³', 2: '²', 1: '¹' }[st.eps.slice(3)]}`;
  const { kept: ki, collapsed: ci } = st.summary.inside;
  assert.ok(
    sn.desc.startsWith(
      ci === null
        ? `With ε = ${e} inside the root, every row down to spread ${LABEL[ki]} comes out as the widest row does (${f4(st.reference)}).`
        : `With ε = ${e} inside the root, rows down to spread ${LABEL[ki]} come out as the widest row does (${f4(st.reference)}); from spread ${LABEL[ci]} down the output is below 0.1`,
    ),
    `${where}: ${sn.desc}`,
  );
  if (eps === 0) {
    assert.equal(st.constant, null);
    assert.match(st.constantError, /standardize_rows/);
    assert.ok(
      sn.desc.includes('With ε = 0 the constant row has nothing to divide by, and the core refuses it:'),
      where,
    );
    assert.ok(sn.svg.includes('constant row (s = 0): refused, nothing to divide by'));
  } else {
    assert.deepEqual([st.constant.inside, st.constant.outside], [0, 0], `${where}: (5, 5, 5) standardizes to 0`);
    assert.ok(sn.desc.endsWith('The constant row comes out as 0: ε keeps its division finite.'), where);
  }
}

test('every ε by keyboard: both curves, the constant row and the words', async () => {
  const select = fig.page.locator(`${TAG} >> select`);
  await select.focus();
  await fig.page.keyboard.press('Home');
  const seen = [];
  for (let i = 0; i < 9; i++) {
    if (i) await fig.page.keyboard.press('ArrowDown');
    const sn = await snap();
    seen.push(sn.state.eps);
    check(sn, `ε ${sn.state.eps}`);
  }
  assert.deepEqual(seen, ['0', '1e-12', '1e-8', '1e-6', '1e-5', '1e-4', '1e-3', '1e-2', '1e-1']);
  assert.ok(seen.length * 15 * 2 >= 20, 'every row at every ε, two placements');
  assert.deepEqual(fig.problems, []);
});

test('hand-derived: at ε = 10⁻² the row of spread 0.1 gives 0.1/√(0.02/3 + 0.01) inside and 0.1/(0.1·√(2/3) + 0.01) outside; Chinese', async () => {
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('eps', '1e-2'), TAG);
  const st = (await snap()).state;
  const i = st.spreads.indexOf(0.1);
  close(st.inside[i], 0.7745967, 1e-5, 'inside'); // 0.1/√(1/60) = √0.6
  close(st.outside[i], 1.09111, 1e-4, 'outside'); // 0.1/(0.0816497 + 0.01) = 0.1/0.0916497
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('eps', '0');
    f.setAttribute('lang', 'zh');
  }, TAG);
  const zh = await snap();
  assert.match(zh.desc, /ε = 0 时常数行没有可除的量，核心拒绝计算：/);
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('eps', 'tiny'), TAG);
  assert.match((await snap()).error, /eps/);
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('eps', '1e-5');
    f.setAttribute('lang', 'en');
  }, TAG);
  assert.equal((await snap()).error, '');
  assert.deepEqual(fig.problems, []);
});
