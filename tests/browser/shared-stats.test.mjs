// <nl-shared-stats> as a reader uses it: every cell chosen with the arrow keys
// and by a click, γ₁ and β₁ moved by keyboard; after each step the statistics,
// the normalized tokens and the outputs against the article's worked numbers
// and float64 oracles written here, the highlighted row and column, and every
// sentence against the state. Plus tokens that differ by more than a scale,
// Chinese and a bad cell.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onArticlePage } from './helpers.mjs';

const TAG = 'nl-shared-stats';
const fig = onArticlePage(TAG);
const close = (a, b, tol, msg) => assert.ok(Math.abs(a - b) <= tol, `${msg}: ${a} vs ${b}`);
const f4 = (v) => new Intl.NumberFormat('en-US', { maximumSignificantDigits: 4 }).format(v);
const list = (vs) => `(${vs.map(f4).join(', ')})`;
const snap = () =>
  fig.page.evaluate((t) => {
    const f = document.querySelector(t),
      r = f.shadowRoot;
    const cls = (k) => [...r.querySelectorAll(`rect.cell.${k}`)].map((c) => c.dataset.cell).sort();
    return {
      state: JSON.parse(JSON.stringify(f.state)),
      desc: r.querySelector('[part=description]').textContent,
      error: r.querySelector('[part=error]').textContent,
      chosen: cls('chosen'),
      stats: cls('stats'),
      params: cls('params'),
    };
  }, TAG);
// LN₀ of a row, and γ ⊙ LN₀ + β (eps 0, population variance)
const ln0 = (r) => {
  const m = r.reduce((a, b) => a + b) / r.length,
    sd = Math.sqrt(r.reduce((a, b) => a + (b - m) ** 2, 0) / r.length);
  return r.map((v) => (v - m) / sd);
};

function check(sn, where) {
  const s = sn.state;
  assert.equal(sn.error, '', where);
  const rows = [s.a, s.b];
  rows.forEach((r, t) => {
    const m = r.reduce((a, b) => a + b) / 3;
    close(s.stats[t].mean, m, 1e-5 * Math.abs(m) + 1e-6, `${where} mean ${t}`);
    ln0(r).forEach((v, i) => close(s.normalized[t][i], v, 1e-5, `${where} LN₀ ${t},${i}`));
    ln0(r).forEach((v, i) =>
      close(
        s.output[t][i],
        s.gamma[i] * v + s.beta[i],
        1e-5 * Math.max(1, Math.abs(s.gamma[i])),
        `${where} output ${t},${i}`,
      ),
    );
  });
  const [t, i] = s.cell;
  assert.deepEqual(sn.chosen, [`${t},${i}`], where);
  assert.deepEqual(
    sn.stats,
    [0, 1, 2]
      .filter((j) => j !== i)
      .map((j) => `${t},${j}`)
      .sort(),
    `${where}: the row shares statistics`,
  );
  assert.deepEqual(sn.params, [`${1 - t},${i}`], `${where}: the column shares parameters`);
  const name = 'AB'[t],
    other = 'AB'[1 - t],
    sub = '₁₂₃'[i];
  assert.ok(
    sn.desc.startsWith(
      `Coordinate ${i + 1} of token ${name} (${f4(rows[t][i])}) shares its statistics (μ = ${f4(s.stats[t].mean)}, σ = ${f4(s.stats[t].std)}) ` +
        `with the other coordinates of ${name}, and its parameters (γ${sub} = ${f4(s.gamma[i])}, β${sub} = ${f4(s.beta[i])}) with coordinate ${i + 1} of token ${other}.`,
    ),
    `${where}: ${sn.desc}`,
  );
  if (list(s.normalized[0]) === list(s.normalized[1])) {
    assert.ok(
      sn.desc.includes(
        `Normalized, both tokens read ${list(s.normalized[0])}; with γ = ${list(s.gamma)} and β = ${list(s.beta)} both become ${list(s.output[0])}.`,
      ),
      `${where}: ${sn.desc}`,
    );
  } else assert.ok(sn.desc.includes('These two tokens differ by more than a scale and a shift'), where);
}

test("the article's tokens: A's statistics 2 and 2/3, B's 20 and 200/3, both (−1.2247, 0, 1.2247) before γ and β", async () => {
  const s = (await snap()).state;
  close(s.stats[0].mean, 2, 1e-6, 'μ_A');
  close(s.stats[0].std ** 2, 2 / 3, 1e-6, 'σ²_A');
  close(s.stats[1].mean, 20, 1e-5, 'μ_B');
  close(s.stats[1].std ** 2, 200 / 3, 1e-4, 'σ²_B');
  for (const t of [0, 1]) [-1.2247, 0, 1.2247].forEach((v, i) => close(s.normalized[t][i], v, 1e-4, `token ${t}`));
  assert.deepEqual(s.output[0].map(f4), s.output[1].map(f4), 'the same γ and β keep A and B equal');
});

test('every cell by arrow keys and a click; γ₁ and β₁ by keyboard: rows, columns, numbers and words follow', async () => {
  await fig.page.locator(`${TAG} >> svg.grid`).focus();
  let n = 0;
  for (const key of [
    'ArrowRight',
    'ArrowRight',
    'ArrowRight',
    'ArrowDown',
    'ArrowLeft',
    'ArrowLeft',
    'ArrowUp',
    'ArrowDown',
  ]) {
    await fig.page.keyboard.press(key);
    check(await snap(), `cell ${key} ${n}`);
    n++;
  }
  await fig.page.locator(`${TAG} >> rect[data-cell="0,2"]`).click();
  const c = await snap();
  assert.deepEqual(c.state.cell, [0, 2]);
  check(c, 'click');
  const sliders = fig.page.locator(`${TAG} >> input[type=range]`);
  for (const k of [0, 1]) {
    await sliders.nth(k).focus();
    for (const key of ['Home', 'PageUp', 'ArrowRight', 'End', 'PageDown', 'ArrowLeft']) {
      await fig.page.keyboard.press(key);
      const sn = await snap();
      check(sn, `${k ? 'β₁' : 'γ₁'} ${key}`);
      n++;
    }
  }
  assert.ok(n >= 20, `${n} positions`);
  assert.deepEqual(fig.problems, []);
});

test('tokens that differ by more than a scale; Chinese; a bad cell', async () => {
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('b', '10,30,20'), TAG);
  check(await snap(), 'B = (10, 30, 20)');
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('b', '10,20,30');
    f.setAttribute('cell', '1,0');
    f.setAttribute('lang', 'zh');
  }, TAG);
  const zh = await snap();
  assert.match(
    zh.desc,
    /^Token B 的第 1 个坐标（10）与 B 的其他坐标共享统计量（μ = 20，σ = 8\.165），与 token A 的第 1 个坐标共享参数/,
  );
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('cell', '2,0'), TAG);
  assert.match((await snap()).error, /^cell 必须是一个 token/);
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('cell', '0,0');
    f.setAttribute('lang', 'en');
  }, TAG);
  assert.equal((await snap()).error, '');
  assert.deepEqual(fig.problems, []);
});

test('wide: labels at least 12 px, the drawing uses the width, and the legend is keyed to the cells’ colours', async () => {
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('cell', '0,0'), TAG);
  const r = await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    void f.state;
    const root = f.shadowRoot,
      svgEl = root.querySelector('svg');
    const box = svgEl.getBoundingClientRect();
    const texts = [...svgEl.querySelectorAll('text')].filter((x) => x.textContent.trim());
    const sizes = texts.map((x) => [x.textContent, parseFloat(getComputedStyle(x).fontSize)]);
    const right = Math.max(
      ...[...svgEl.querySelectorAll('text, rect.cell')].map((x) => x.getBoundingClientRect().right),
    );
    const paint = (el) => {
      const s = getComputedStyle(el);
      return `${s.fill} ${s.stroke}`;
    };
    const keys = [...svgEl.querySelectorAll('rect.cell-key')].map((k) => {
      const kind = ['chosen', 'stats', 'params'].find((c) => k.classList.contains(c));
      const cell = svgEl.querySelector(`rect.cell.${kind}`);
      return { kind, key: paint(k), cell: cell && paint(cell), label: k.nextElementSibling?.textContent };
    });
    return { width: box.width, left: box.left, right, sizes, keys };
  }, TAG);
  assert.ok(r.width > 800, `a wide figure (${r.width} px)`);
  const small = r.sizes.filter(([, px]) => px < 12);
  assert.deepEqual(small, [], 'no label under 12 px');
  assert.ok(r.right - r.left > 0.85 * r.width, `drawing ends at ${(r.right - r.left).toFixed(0)} of ${r.width} px`);
  assert.deepEqual(
    r.keys.map((k) => k.kind),
    ['chosen', 'stats', 'params'],
  );
  for (const k of r.keys) {
    assert.equal(k.key, k.cell, `${k.kind}: the swatch is painted as the cells it names`);
    assert.ok(k.label, `${k.kind}: a label follows its swatch`);
  }
  assert.deepEqual(fig.problems, []);
});
