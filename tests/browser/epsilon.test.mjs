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
  // where each curve departs: the first spread whose output (from the float64 oracle) is more than 1% from
  // the widest row's; it keeps it down to the spread before
  for (const [place, oracle] of [
    ['inside', inside],
    ['outside', outside],
  ]) {
    const ys = st.spreads.map((s) => oracle(s, eps));
    const out = ys.findIndex((v) => Math.abs(v / ys[0] - 1) > 0.01);
    const kept = out === -1 ? st.spreads.at(-1) : st.spreads[out - 1];
    const departs = out === -1 ? null : st.spreads[out];
    const collapsed = st.spreads.find((s, i) => ys[i] < 0.1) ?? null;
    assert.deepEqual(st.summary[place], { kept, departs, collapsed }, `${where} ${place}`);
  }
  const e =
    st.eps === '0'
      ? '0'
      : `10⁻${{ 12: '¹²', 8: '⁸', 6: '⁶', 5: '⁵', 4: '⁴', 3: '³', 2: '²', 1: '¹' }[st.eps.slice(3)]}`;
  const { kept: ki, departs: di, collapsed: ci } = st.summary.inside;
  const ref = f4(st.reference);
  assert.ok(
    sn.desc.startsWith(
      di === null
        ? `With ε = ${e} inside the root, every row, down to spread ${LABEL[ki]}, comes out within 1% of the widest row (${ref}).`
        : ci === null
          ? `With ε = ${e} inside the root, rows down to spread ${LABEL[ki]} come out within 1% of the widest row (${ref}); from spread ${LABEL[di]} down ε lowers the output.`
          : `With ε = ${e} inside the root, rows down to spread ${LABEL[ki]} come out within 1% of the widest row (${ref}); from spread ${LABEL[ci]} down the output is below 0.1`,
    ),
    `${where}: ${sn.desc}`,
  );
  const o = st.summary.outside;
  const outRef = f4(st.outside[0]);
  const outText =
    o.departs === null
      ? `Outside the root every row, down to spread ${LABEL[o.kept]}, stays within 1% of ${outRef}.`
      : `rows down to ${LABEL[o.kept]} stay within 1% of ${outRef}, and from ${LABEL[o.collapsed ?? o.departs]} down the output ${o.collapsed === null ? 'drops' : 'is below 0.1'}.`;
  assert.ok(sn.desc.includes(outText), `${where}: "${outText}" in ${sn.desc}`);
  if (eps === 0) {
    assert.equal(st.constant, null);
    assert.match(st.constantError, /standardize_rows/);
    assert.ok(sn.desc.includes('With ε = 0 the constant row has nothing to divide by, so there is no output:'), where);
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
  assert.match(zh.desc, /ε = 0 时常数行没有可除的量，因此没有输出：/);
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

test('ε = 10⁻⁸: the text names the spread where each curve leaves its widest row (hand-derived), and the select does not repeat "ε"', async () => {
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('eps', '1e-8'), TAG);
  const sn = await snap();
  // outside: s/(s·√(2/3) + 10⁻⁸) is 1.2099 at s = 10⁻⁶, 1.2% below √1.5 = 1.2247; at 3·10⁻⁶, 1.2197 (−0.4%)
  assert.deepEqual(sn.state.summary.outside, { kept: 3e-6, departs: 1e-6, collapsed: null });
  assert.ok(
    sn.desc.includes('rows down to 3·10⁻⁶ stay within 1% of 1.225, and from 10⁻⁶ down the output drops.'),
    sn.desc,
  );
  // inside: s/√(2s²/3 + 10⁻⁸) is 1.2156 at s = 10⁻³ (−0.7%), 1.1338 at 3·10⁻⁴ (−7%), 0.0995 at 10⁻⁵
  assert.deepEqual(sn.state.summary.inside, { kept: 0.001, departs: 3e-4, collapsed: 1e-5 });
  assert.ok(!/10⁻⁴ keep/.test(sn.desc), sn.desc);
  const options = await fig.page.evaluate(
    (t) => [...document.querySelector(t).shadowRoot.querySelectorAll('select option')].map((o) => o.textContent),
    TAG,
  );
  assert.deepEqual(options, ['0', '10⁻¹²', '10⁻⁸', '10⁻⁶', '10⁻⁵', '10⁻⁴', '10⁻³', '10⁻²', '10⁻¹']);
  const label = await fig.page.evaluate(
    (t) => document.querySelector(t).shadowRoot.querySelector('label.control').textContent,
    TAG,
  );
  assert.equal((label.match(/ε/g) ?? []).length, 1, `one ε in the control: "${label}"`);
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('eps', '1e-5'), TAG);
  assert.deepEqual(fig.problems, []);
});
