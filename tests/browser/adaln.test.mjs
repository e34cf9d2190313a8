// <nl-adaln> as a reader uses it: the classes, the zero projection, typed and
// dragged x, typed s, b, g. Expected values are derived by hand below from the
// formulas y = (1 + s) ⊙ LN₀(x) + b, h = x + g ⊙ F(y), and for the classes from
// the weights the figure lists under its picture (read from that table, then
// multiplied out here with this file's own SiLU).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onArticlePage } from './helpers.mjs';

const TAG = 'nl-adaln';
const fig = onArticlePage(TAG);
const snap = () => fig.snap();
const close = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);
const closeAll = (as, bs, tol, what) => {
  assert.equal(as.length, bs.length, what);
  as.forEach((a, i) => close(a, bs[i], tol, `${what}[${i}]`));
};
const set = (attrs) =>
  fig.page.evaluate(
    ([t, a]) => {
      const f = document.querySelector(t);
      for (const [k, v] of Object.entries(a)) f.setAttribute(k, v);
    },
    [TAG, attrs],
  );
const f3 = (v) => new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 }).format(v);
const L = (vs) => `(${vs.map(f3).join(', ')})`;
/** AdaLN-Zero's toggle pressed (or not) as a reader does. */
async function setProjection(projection) {
  const b = fig.page.locator(`${TAG} >> button.zero-toggle`);
  if ((await b.getAttribute('aria-pressed')) !== String(projection === 'zero')) await b.click();
}
/** Type a number into a box as a reader does: fill it, then Tab away (the box's change). */
async function typeIn(name, value) {
  // the boxes sit behind the "Type x, s, b and g" disclosure: open it as a reader does
  const box = fig.page.locator(`${TAG} >> details.numbers-box`);
  if (!(await box.evaluate((d) => d.open))) await box.locator('summary').click();
  await fig.page.getByRole('spinbutton', { name, exact: true }).fill(value);
  await fig.page.keyboard.press('Tab');
}

// x = (1, −2, 5, 2): mean 6/4 = 1.5, deviations (−0.5, −3.5, 3.5, 0.5), variance
// (0.25 + 12.25 + 12.25 + 0.25)/4 = 6.25, σ = 2.5, so LN₀(x) = (−0.2, −1.4, 1.4, 0.2).
const X = [1, -2, 5, 2];
const LN0 = [-0.2, -1.4, 1.4, 0.2];

test('the default: x is not normalized, and LN₀ changes it; the three classes end in three places', async () => {
  const sn = await snap();
  assert.equal(sn.error, '');
  assert.deepEqual(sn.bad, []);
  assert.deepEqual(sn.state.features, X);
  assert.equal(sn.state.condition, 'cat');
  closeAll(sn.state.normalized, LN0, 1e-6, 'LN₀(x)');
  assert.ok(sn.desc.includes(`LN₀ takes x = (1, -2, 5, 2) to (-0.2, -1.4, 1.4, 0.2)`), sn.desc);
  const outs = sn.state.classes.map((c) => L(c.output));
  assert.equal(new Set(outs).size, 3, 'three different h for one x');
  // the idea first: the text opens on the three classes, the picture on their h
  assert.ok(
    sn.desc.startsWith(
      `The same x ends in different places: ${outs[0]} for cat; ${outs[1]} for dog; ${outs[2]} for ship.`,
    ),
    sn.desc,
  );
  // the other half of the idea in the same default view: AdaLN-Zero's initialization returns x
  assert.deepEqual(sn.state.zero.output, X, 'the final projection at zero: gate 0, h = x exactly');
  assert.deepEqual([...sn.state.zero.scale, ...sn.state.zero.shift, ...sn.state.zero.gate], Array(12).fill(0));
  assert.ok(
    sn.desc.includes(
      'For comparison, at AdaLN-Zero’s initialization: with the final projection at zero every gate is 0, so h = (1, -2, 5, 2), x itself, and every arrow would have no length.',
    ),
    sn.desc,
  );
  // what the picture says by default: h of the selected class at the right of its row; the steps wait behind
  // their disclosure, and open to the selected class's values
  for (const v of sn.state.output) assert.ok(sn.svg.includes(f3(v)), `chart value ${v}`);
  const steps = fig.page.locator(`${TAG} >> details.steps`);
  assert.equal(await steps.evaluate((d) => d.open), false, 'the steps are closed at first');
  await steps.locator('summary').click();
  const opened = await snap();
  for (const v of [...sn.state.modulated, ...sn.state.branch]) assert.ok(opened.svg.includes(f3(v)), `step value ${v}`);
  await steps.locator('summary').click();
});

test('the comparison: x’s tick on top, a marker per class in its own sub-lane under it, the x handles 44 px', async () => {
  const r = await fig.page.evaluate((t) => {
    const root = document.querySelector(t).shadowRoot;
    const svgEl = root.querySelector('svg');
    const centre = (e) => {
      const b = e.getBoundingClientRect();
      return [b.x + b.width / 2, b.y + b.height / 2];
    };
    const marks = (cls) => [...svgEl.querySelectorAll(`.mk.${cls}`)].filter((e) => !e.closest('.legend')).map(centre);
    const handles = [...svgEl.querySelectorAll('g.xh')].map((g) => {
      const b = g.getBoundingClientRect();
      return { c: centre(g.querySelector('.knob')), w: b.width, h: b.height };
    });
    return {
      circle: marks('circle'),
      square: marks('square'),
      triangle: marks('triangle'),
      kinds: [...new Set([...svgEl.querySelectorAll('.mk')].map((e) => e.getAttribute('class').split(' ')[1]))],
      handles,
    };
  }, TAG);
  // three marker kinds besides x's tick (four in all, as the brief of the figure allows), one per feature each
  assert.deepEqual(r.kinds, ['circle', 'square', 'triangle']);
  for (const k of ['circle', 'square', 'triangle']) assert.equal(r[k].length, 4, k);
  for (let f = 0; f < 4; f++) {
    // x's tick, cat, dog, ship from the top down, each in its own sub-lane
    const ys = [r.handles[f].c[1], ...['circle', 'square', 'triangle'].map((k) => r[k][f][1])];
    for (let j = 1; j < ys.length; j++) assert.ok(ys[j] - ys[j - 1] >= 12, `feature ${f + 1}: sub-lanes ${ys}`);
  }
  for (const h of r.handles) assert.ok(h.w >= 44 && h.h >= 44, `handle ${h.w}×${h.h}`);
});

test('the classes: s, b, g are the listed network (E, SiLU, W with bias) applied to the class', async () => {
  // the weights as the reader sees them, in the tables under the picture
  const tables = await fig.page.evaluate(
    (t) =>
      [...document.querySelector(t).shadowRoot.querySelectorAll('details.weights table')].map((tb) =>
        [...tb.querySelectorAll('tr')]
          .slice(1)
          .map((tr) => [...tr.querySelectorAll('td')].map((td) => Number(td.textContent))),
      ),
    TAG,
  );
  const [E, W] = tables; // E [3 hidden × 3 classes], W [12 × (3 + bias)]
  assert.equal(E.length, 3);
  assert.equal(W.length, 12);
  const silu = (z) => z / (1 + Math.exp(-z));
  const sn = await snap();
  sn.state.classes.forEach((c, k) => {
    const a = E.map((row) => silu(row[k]));
    const m = W.map((row) => row[0] * a[0] + row[1] * a[1] + row[2] * a[2] + row[3]);
    closeAll(c.scale, m.slice(0, 4), 1e-5, `${c.name} s`);
    closeAll(c.shift, m.slice(4, 8), 1e-5, `${c.name} b`);
    closeAll(c.gate, m.slice(8, 12), 1e-5, `${c.name} g`);
  });
  // one by hand: cat's embedding is E's first column (2, 0, 1); SiLU gives (2σ(2), 0, σ(1)) =
  // (1.761594, 0, 0.731059); W's first row (0.5, 0, −0.5, bias 0) makes s₁ = 0.5 · (1.761594 − 0.731059) = 0.515268
  close(sn.state.classes[0].scale[0], 0.515268, 1e-5, 'cat s1');
  // the boxes show the class's s, b, g as written
  const boxes = await fig.page.evaluate(
    (t) => [...document.querySelector(t).shadowRoot.querySelectorAll('.grid input')].map((b) => b.value),
    TAG,
  );
  assert.deepEqual(boxes.slice(0, 4), ['1', '-2', '5', '2']);
  assert.equal(boxes[4], '0.515');
});

test('your own s, b, g by typing: y, F(y) and h as derived by hand', async () => {
  await set({ condition: 'custom', scale: '1,0,0,0', shift: '0,3,0,0', gate: '1,1,1,1' });
  let sn = await snap();
  // y = (1 + s) ⊙ LN₀(x) + b = (2 · −0.2, −1.4 + 3, 1.4, 0.2) = (−0.4, 1.6, 1.4, 0.2)
  closeAll(sn.state.modulated, [-0.4, 1.6, 1.4, 0.2], 1e-6, 'y');
  // F's rows (1, .5, 0, 0), (0, 1, .5, 0), (0, 0, 1, .5), (.5, 0, 0, 1):
  // F(y) = (−0.4 + 0.8, 1.6 + 0.7, 1.4 + 0.1, −0.2 + 0.2) = (0.4, 2.3, 1.5, 0)
  closeAll(sn.state.branch, [0.4, 2.3, 1.5, 0], 1e-6, 'F(y)');
  // h = x + 1 · F(y) = (1.4, 0.3, 6.5, 2)
  closeAll(sn.state.output, [1.4, 0.3, 6.5, 2], 1e-6, 'h');
  // a gate typed in its box: g = 0.5 everywhere gives h = x + F(y)/2 = (1.2, −0.85, 5.75, 2)
  for (let i = 1; i <= 4; i++) {
    await typeIn(`gate g${i}`, '0.5');
  }
  sn = await snap();
  assert.deepEqual(sn.state.gate, [0.5, 0.5, 0.5, 0.5]);
  closeAll(sn.state.output, [1.2, -0.85, 5.75, 2], 1e-6, 'h at gate 0.5');
  // s and b typed too
  await typeIn('shift b2', '1');
  sn = await snap();
  close(sn.state.modulated[1], -0.4, 1e-6, 'y2 = −1.4 + 1');
  await typeIn('scale s3', '-1');
  sn = await snap();
  assert.equal(sn.state.modulated[2], 0, 'y3 = (1 − 1) · 1.4 + 0');
  // gate 0: the block returns x exactly
  await set({ gate: '0,0,0,0' });
  sn = await snap();
  assert.deepEqual(sn.state.output, X, 'a zero gate returns x exactly');
  assert.ok(sn.desc.includes('A zero gate returns x unchanged, and it blocks the branch’s gradient too'), sn.desc);
  assert.ok(sn.desc.includes(`∂h/∂g = F(y) = ${L(sn.state.branch)}`), sn.desc);
});

test('typing s while a class is chosen makes it your own, starting from the class’s values as shown', async () => {
  await set({ condition: 'dog', scale: '0,0,0,0', shift: '0,0,0,0', gate: '1,1,1,1' });
  const before = await snap();
  const dog = before.state.classes[1];
  await typeIn('scale s1', '2');
  const sn = await snap();
  assert.equal(sn.state.condition, 'custom');
  assert.equal(sn.state.scale[0], 2);
  for (const key of ['shift', 'gate']) closeAll(sn.state[key], dog[key], 6e-3, `${key} copied from dog (3 digits)`);
  // y₁ = (1 + 2) · (−0.2) + b₁
  close(sn.state.modulated[0], -0.6 + sn.state.shift[0], 1e-6, 'y1');
});

test('AdaLN-Zero initialization: the final projection at zero gives s = b = g = 0 for every class, and h = x', async () => {
  await set({ condition: 'ship', projection: 'zero' });
  const sn = await snap();
  for (const c of sn.state.classes) {
    assert.deepEqual([...c.scale, ...c.shift, ...c.gate], Array(12).fill(0), c.name);
    assert.deepEqual(c.output, X, `${c.name}: h = x exactly`);
    closeAll(c.modulated, LN0, 1e-6, `${c.name}: y = LN₀(x)`);
  }
  // F(LN₀(x)) = (−0.2 − 0.7, −1.4 + 0.7, 1.4 + 0.1, 0.2 − 0.1) = (−0.9, −0.7, 1.5, 0.1): the gate's gradient
  closeAll(sn.state.branch, [-0.9, -0.7, 1.5, 0.1], 1e-6, 'F(y)');
  assert.ok(sn.desc.includes('With the final projection W at zero, as AdaLN-Zero initializes it'), sn.desc);
  assert.ok(sn.desc.includes('∂h/∂g = F(y) = (-0.9, -0.7, 1.5, 0.1)'), sn.desc);
  assert.ok(
    sn.desc.startsWith(
      'Every class ends at h = x = (1, -2, 5, 2): the arrows have no length, each marker sits under x’s tick, and the condition has no effect yet.',
    ),
    sn.desc,
  );
  await set({ projection: 'trained', condition: 'cat' });
});

test('x by drag and by the arrow keys; the axis holds still during a drag', async () => {
  await set({ features: '1,-2,5,2', condition: 'cat' });
  const handle = fig.page.getByRole('slider', { name: 'x3: drag, or use the arrow keys' });
  await handle.focus();
  await fig.page.keyboard.press('ArrowRight');
  let sn = await snap();
  assert.deepEqual(sn.state.features, [1, -2, 5.5, 2]);
  await fig.page.keyboard.press('PageDown');
  sn = await snap();
  assert.deepEqual(sn.state.features, [1, -2, 3.5, 2]);
  // drag the knob to the axis's 0 tick
  const box = await handle.boundingBox();
  const zero = await fig.page.evaluate((t) => {
    const r = document.querySelector(t).shadowRoot;
    const tick = [...r.querySelectorAll('svg .axis text')].find((x) => x.textContent === '0');
    const b = tick.getBoundingClientRect();
    return b.x + b.width / 2;
  }, TAG);
  const domain = sn.state.domain;
  await fig.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await fig.page.mouse.down();
  await fig.page.mouse.move(zero, box.y + box.height / 2, { steps: 4 });
  const mid = await snap();
  assert.deepEqual(mid.state.domain, domain, 'the axis does not move under the pointer');
  await fig.page.mouse.up();
  sn = await snap();
  assert.equal(sn.state.features[2], 0, 'dropped on 0');
  assert.equal(sn.error, '');
  // LN₀ of (1, −2, 0, 2): mean 0.25, deviations (0.75, −2.25, −0.25, 1.75), variance
  // (0.5625 + 5.0625 + 0.0625 + 3.0625)/4 = 2.1875; LN₀₁ = 0.75/√2.1875 = 0.507093
  close(sn.state.normalized[0], 0.507093, 1e-5, 'LN₀ after the drag');
  await set({ features: '1,-2,5,2' });
});

test('bad attributes: a localized message, the last good drawing kept', async () => {
  await set({ features: '1,-2,5,2', condition: 'cat' });
  const good = (await snap()).state;
  for (const [attrs, message] of [
    [{ features: '1,2,3' }, 'features must be a comma-separated list of 4 numbers (got "1,2,3").'],
    [{ gate: 'a,b,c,d' }, 'gate must be a comma-separated list of 4 numbers (got "a,b,c,d").'],
    [{ condition: 'horse' }, 'condition must be one of cat, dog, ship, custom (got "horse").'],
  ]) {
    await set(attrs);
    const sn = await snap();
    assert.equal(sn.error, message);
    assert.deepEqual(sn.state.output, good.output);
    await set({ features: '1,-2,5,2', gate: '1,1,1,1', condition: 'cat' });
  }
  // equal features have no spread: with eps 0 the core refuses; the drawing stays
  await set({ features: '2,2,2,2' });
  const sn = await snap();
  assert.notEqual(sn.error, '');
  assert.deepEqual(sn.state.output, good.output);
  assert.deepEqual(sn.bad, []);
  await set({ features: '1,-2,5,2' });
  assert.equal((await snap()).error, '');
  assert.deepEqual(fig.problems, []);
});

test('every condition button × both projections: the text and the numbers line follow the state', async () => {
  await set({ features: '1,-2,5,2', scale: '0.5,0,0,0', shift: '0,0,1,0', gate: '0,1,1,1' });
  const names = { cat: 'cat', dog: 'dog', ship: 'ship', custom: 'your own s, b, g' };
  for (const projection of ['trained', 'zero']) {
    for (const c of ['cat', 'dog', 'ship', 'custom']) {
      await fig.page.locator(`${TAG} >> .conds button`).filter({ hasText: names[c] }).click();
      // the projection applies to the classes (its toggle is hidden for your own values)
      if (c !== 'custom') await setProjection(projection);
      const sn = await snap();
      const s = sn.state;
      assert.equal(s.condition, c);
      assert.equal(sn.error, '');
      const m = s.modulation;
      if (c === 'custom') {
        // your own values, whatever the projection
        assert.ok(
          sn.desc.includes(
            `With your own s = ${L(m.scale)} (the scale is 1 + s), shift b = ${L(m.shift)} and gate g = ${L(m.gate)}, y = (1 + s) ⊙ LN₀(x) + b = ${L(s.modulated)}.`,
          ),
          sn.desc,
        );
      } else {
        const k = ['cat', 'dog', 'ship'].indexOf(c);
        assert.deepEqual(m.scale, s.classes[k].scale);
        assert.deepEqual(s.output, s.classes[k].output);
        if (projection === 'zero') assert.deepEqual([...m.scale, ...m.shift, ...m.gate], Array(12).fill(0));
        const lead =
          projection === 'zero'
            ? `the class ${c} gets s = ${L(m.scale)}`
            : `maps the class ${c} to s = ${L(m.scale)} (the scale is 1 + s)`;
        assert.ok(sn.desc.includes(lead), `${c} ${projection}: ${sn.desc}`);
      }
      assert.ok(
        sn.desc.includes(`F(y) = ${L(s.branch)}, and the block outputs h = x + g ⊙ F(y) = ${L(s.output)}.`),
        sn.desc,
      );
      const numbers = await fig.page.evaluate(
        (t) => document.querySelector(t).shadowRoot.querySelector('.numbers').textContent,
        TAG,
      );
      assert.equal(
        numbers,
        `For ${names[c]}: s = ${L(m.scale)}, b = ${L(m.shift)}, g = ${L(m.gate)}; h = ${L(s.output)}.`,
      );
      // a zero gate somewhere is named; feature 1's own gate 0 gives h₁ = x₁
      if (m.gate.every((g) => g === 0)) assert.ok(sn.desc.includes('A zero gate returns x unchanged'));
      else if (m.gate[0] === 0) {
        assert.ok(sn.desc.includes('The gate is 0 on feature 1: there h equals x.'), sn.desc);
        assert.equal(s.output[0], s.features[0]);
      }
      assert.deepEqual(sn.bad, []);
    }
  }
  await fig.page.locator(`${TAG} >> .conds button`).filter({ hasText: 'cat' }).click();
  await setProjection('trained');
});

test('idea first: the three classes on top, the AdaLN-Zero toggle one press, the number boxes behind a disclosure', async () => {
  await set({ features: '1,-2,5,2', condition: 'cat', projection: 'trained' });
  const r = await fig.page.evaluate((t) => {
    const root = document.querySelector(t).shadowRoot;
    const labels = [...root.querySelectorAll('svg text.row-label')]
      .filter((e) => e.checkVisibility())
      .map((e) => [e.textContent, e.getBoundingClientRect().top]);
    const toggle = root.querySelector('button.zero-toggle');
    return {
      labels,
      // a new element, as a reader first meets it
      gridOpen: (() => {
        const f = document.createElement(t);
        document.body.append(f);
        const open = f.shadowRoot.querySelector('details.numbers-box').open;
        f.remove();
        return open;
      })(),
      toggle: [toggle.textContent, toggle.getAttribute('aria-pressed'), toggle.checkVisibility()],
    };
  }, TAG);
  const byTop = [...r.labels].sort((p, q) => p[1] - q[1]).map(([text]) => text);
  assert.equal(byTop[0], 'From the same x to each class’s h', 'the comparison is drawn first, at the top');
  assert.equal(byTop[1], 'h = x + g ⊙ F(y)', 'then the chosen class’s h; its steps behind a disclosure');
  assert.equal(byTop.length, 2, 'no step is drawn until the disclosure opens');
  assert.equal(r.gridOpen, false, 'the grid of numbers is closed at first');
  assert.deepEqual(r.toggle, ['Initialize as AdaLN-Zero: every gate 0 (W = 0)', 'false', true]);
  await fig.page.locator(`${TAG} >> button.zero-toggle`).click();
  let sn = await snap();
  assert.equal(sn.state.projection, 'zero');
  for (const c of sn.state.classes) assert.deepEqual(c.output, X, `${c.name}: the zero gate returns x`);
  assert.equal(
    await fig.page.locator(`${TAG} >> button.zero-toggle`).getAttribute('aria-pressed'),
    'true',
    'the toggle shows it is on',
  );
  await fig.page.locator(`${TAG} >> button.zero-toggle`).click();
  sn = await snap();
  assert.equal(sn.state.projection, 'trained');
  assert.equal(new Set(sn.state.classes.map((c) => c.output.join())).size, 3, 'and the classes part again');
  assert.deepEqual(fig.problems, []);
});

/**
 * The main picture as drawn: each legend's entries (series, swatch classes, paint, text), the markers, arrows and
 * bars, each axis's numbers; boxes in CSS pixels, plus the drawn coordinates (user units) of the arrows and ticks.
 */
const drawn = () =>
  fig.page.evaluate((t) => {
    const root = document.querySelector(t).shadowRoot;
    const svgEl = root.querySelector('svg');
    const paint = (e) => {
      const c = getComputedStyle(e);
      return `${c.fill} ${c.fillOpacity} ${c.stroke}`;
    };
    const box = (e) => {
      const b = e.getBoundingClientRect();
      return { l: b.left, r: b.right, t: b.top, b: b.bottom, cx: b.x + b.width / 2, cy: b.y + b.height / 2 };
    };
    // the shaft of an arrow, as its path starts: "M x1,y L x2,y"
    const shaft = (e) => {
      const [x1, y, x2] = e
        .getAttribute('d')
        .match(/-?\d+(\.\d+)?/g)
        .map(Number);
      return { x1, y, x2 };
    };
    const legend = (which) =>
      [...svgEl.querySelectorAll(`g.legend.${which} g.entry`)].map((g) => {
        const sw = g.firstElementChild;
        const mk = sw.querySelector('.mk') ?? sw;
        return {
          series: g.dataset.series,
          cls: mk.getAttribute('class'),
          paint: paint(mk),
          arrow: sw.querySelector('.arrow') && paint(sw.querySelector('.arrow')),
          text: g.querySelector('text').textContent,
          box: box(g),
        };
      });
    // outside the legends: what the chart itself draws
    const chart = (sel) => [...svgEl.querySelectorAll(sel)].filter((e) => !e.closest('.legend'));
    const axis = (which) =>
      [...svgEl.querySelectorAll(`.axis.${which} text`)].map((e) => ({
        text: e.textContent,
        x: Number(e.getAttribute('x')),
        ...box(e),
      }));
    return {
      compare: legend('compare'),
      bars: legend('bars'),
      marks: Object.fromEntries(
        ['circle', 'square', 'triangle'].map((k) => [
          k,
          chart(`.mk.${k}`).map((e) => ({ cls: e.getAttribute('class'), paint: paint(e), ...box(e) })),
        ]),
      ),
      arrows: chart('g.h-arrow').map((g) => ({
        series: g.dataset.series,
        feature: Number(g.dataset.feature),
        ...shaft(g.querySelector('.arrow')),
        paint: paint(g.querySelector('.arrow')),
        mark: box(g.querySelector('.mk')),
        markCls: g.querySelector('.mk').getAttribute('class'),
      })),
      knobs: [...svgEl.querySelectorAll('g.xh .knob')].map((e) => ({ paint: paint(e), ...box(e) })),
      knobX: [...svgEl.querySelectorAll('g.xh')].map((g) =>
        Number(g.getAttribute('transform').match(/translate\((-?[\d.]+)/)[1]),
      ),
      chartBars: Object.fromEntries(
        ['b-base', 'b-gated', 'h-mark'].map((c) => [c, chart(`.${c}`).map((e) => ({ paint: paint(e), ...box(e) }))]),
      ),
      ticks: Object.fromEntries(axis('bars').map((e) => [e.text, e.cx])),
      compareTicks: axis('compare'),
      svgBox: box(svgEl),
      texts: [...svgEl.querySelectorAll('text')].map((e) => ({ text: e.textContent, ...box(e) })),
      // what a marker must not sit on: every visible mark, each with the group it belongs to
      glyphs: [
        ...[...svgEl.querySelectorAll('.mk')].map((e) => ({ kind: 'marker', own: e.parentNode, e })),
        ...[...svgEl.querySelectorAll('.arrow')].map((e) => ({ kind: 'stem', own: e.parentNode, e })),
        ...[...svgEl.querySelectorAll('.knob, .knob-key')].map((e) => ({ kind: 'stem', own: e, e })),
      ].map((g, i, all) => ({
        kind: g.kind,
        group: all.findIndex((o) => o.own === g.own),
        ...box(g.e),
      })),
      toggle: root.querySelector('button.zero-toggle').getAttribute('aria-pressed'),
    };
  }, TAG);

/** Overlap of two boxes by more than `by` px both ways (a box `pad` px wider each side, for a stroke). */
const overlaps = (a, b, pad = 0, by = 0.5) =>
  Math.min(a.r + pad, b.r + pad) - Math.max(a.l - pad, b.l - pad) > by &&
  Math.min(a.b + pad, b.b + pad) - Math.max(a.t - pad, b.t - pad) > by;

test('the legends: one entry per series, each swatch drawn with its series’ classes, in English and Chinese', async () => {
  await set({ features: '1,-2,5,2', condition: 'cat', projection: 'trained' });
  let d = await drawn();
  // the comparison: x's tick (where AdaLN-Zero's initialization leaves h), then each class's arrow and marker: four kinds
  assert.deepEqual(
    d.compare.map((e) => [e.series, e.text]),
    [
      ['x', 'x (drag); at AdaLN-Zero’s initialization h stays here'],
      ['cat', 'cat'],
      ['dog', 'dog'],
      ['ship', 'ship'],
    ],
  );
  const shapeOf = { cat: 'circle', dog: 'square', ship: 'triangle' };
  for (const e of d.compare.slice(1)) {
    const marks = d.marks[shapeOf[e.series]];
    assert.equal(marks.length, 4, `${e.series}: a marker per feature`);
    for (const m of marks) {
      assert.equal(e.cls, m.cls, `${e.series}: the swatch is the marker`);
      assert.equal(e.paint, m.paint, `${e.series}: painted alike`);
    }
    for (const a of d.arrows.filter((a) => a.series === e.series))
      assert.equal(e.arrow, a.paint, `${e.series}: the swatch's arrow is the chart's`);
  }
  // cat is chosen: its swatch and markers filled, the others hollow
  assert.match(d.compare[1].cls, /\bon\b/);
  assert.doesNotMatch(d.compare[2].cls, /\bon\b/);
  assert.equal(d.compare[0].paint.split(' ')[0], d.knobs[0].paint.split(' ')[0], 'x’s swatch is filled as its tick');
  // h's chart: the residual x (faint), the gated branch, the tick at h
  assert.deepEqual(
    d.bars.map((e) => [e.series, e.cls, e.text]),
    [
      ['base', 'b-base', 'x, the residual'],
      ['gated', 'b-gated', 'g ⊙ F(y), the gated branch'],
      ['h', 'h-mark', 'h'],
    ],
  );
  for (const e of d.bars) {
    const bars = d.chartBars[e.cls];
    assert.equal(bars.length, 4, `${e.cls}: one per feature`);
    for (const b of bars) assert.equal(e.paint, b.paint, `${e.cls}: painted as the bars`);
  }
  // and the legend says what the bars are: from the axis's own ticks (0 and 2), the faint bar spans 0 to x, the
  // gated bar x to h, the tick sits at h (h of cat from the state; x by hand)
  const sn = await snap();
  const px = (v) => d.ticks['0'] + ((d.ticks['2'] - d.ticks['0']) / 2) * v;
  [1, -2, 5, 2].forEach((xf, f) => {
    const hf = sn.state.output[f];
    const base = d.chartBars['b-base'][f],
      gated = d.chartBars['b-gated'][f],
      mark = d.chartBars['h-mark'][f];
    close(base.l, Math.min(px(0), px(xf)), 1, `x${f + 1} bar left`);
    close(base.r, Math.max(px(0), px(xf)), 1, `x${f + 1} bar right`);
    close(gated.l, Math.min(px(xf), px(hf)), 1, `branch ${f + 1} left`);
    close(gated.r, Math.max(px(xf), px(hf)), 1, `branch ${f + 1} right`);
    close(mark.cx, px(hf), 1, `h${f + 1} tick`);
    // the branch runs in its own stripe under the residual: where it turns back over x (h1 of cat) it cannot hide it
    assert.ok(gated.t >= base.b - 0.5, `h${f + 1}: branch ${gated.t} starts below the residual bar's bottom ${base.b}`);
  });
  // the key sits above the bars it names
  const keyBottom = Math.max(...d.bars.map((e) => e.box.b));
  for (const b of d.chartBars['b-base']) assert.ok(keyBottom <= b.t, `key ${keyBottom} above bar ${b.t}`);
  // in Chinese, the same entries
  await set({ lang: 'zh' });
  d = await drawn();
  assert.deepEqual(
    d.bars.map((e) => [e.series, e.cls, e.text]),
    [
      ['base', 'b-base', 'x：residual'],
      ['gated', 'b-gated', 'g ⊙ F(y)：乘上 gate 的分支'],
      ['h', 'h-mark', 'h'],
    ],
  );
  assert.deepEqual(
    d.compare.map((e) => e.text),
    ['x（可拖动）；AdaLN-Zero 初始化时 h 停在这里', '猫', '狗', '船'],
  );
  await set({ lang: 'en' });
});

test('the comparison’s own axis: its numbers are the state’s ticks, over its lanes', async () => {
  await set({ features: '1,-2,5,2', condition: 'cat', projection: 'trained' });
  const d = await drawn();
  const sn = await snap();
  assert.deepEqual(
    d.compareTicks.map((e) => e.text),
    sn.state.ticks.map(f3),
    'one number per tick of the state, written as the state has it',
  );
  assert.ok(sn.state.ticks.length >= 4, `${sn.state.ticks}`);
  // the numbers sit between the comparison's key and its first lane: under the key, above x's first tick
  const keyBottom = Math.max(...d.compare.map((e) => e.box.b));
  for (const e of d.compareTicks) {
    assert.ok(e.t >= keyBottom, `"${e.text}" under the key`);
    assert.ok(e.b <= d.knobs[0].t, `"${e.text}" above the first row`);
  }
  // in order, left to right, and at the same places as the bars' numbers below (one scale for both)
  for (let i = 1; i < d.compareTicks.length; i++) assert.ok(d.compareTicks[i].cx > d.compareTicks[i - 1].cx);
  for (const e of d.compareTicks) close(e.cx, d.ticks[e.text], 0.6, `tick ${e.text}`);
});

test('an arrow per class per row, from x’s tick to that class’s h, on the axis’s scale', async () => {
  await set({ features: '1,-2,5,2', condition: 'cat', projection: 'trained' });
  const d = await drawn();
  const sn = await snap();
  // the scale, from two of the comparison's own numbers where they are drawn (user units)
  const [t0, t1] = [d.compareTicks[0], d.compareTicks.at(-1)];
  const [v0, v1] = [Number(t0.text), Number(t1.text)];
  const px = (v) => t0.x + ((v - v0) * (t1.x - t0.x)) / (v1 - v0);
  assert.equal(d.arrows.length, 3 * 4, 'three classes × four features');
  for (let f = 0; f < 4; f++) {
    const row = d.arrows.filter((a) => a.feature === f);
    assert.deepEqual(
      row.map((a) => a.series),
      ['cat', 'dog', 'ship'],
      `row ${f + 1}: one arrow per class`,
    );
    close(d.knobX[f], px(X[f]), 0.3, `x${f + 1}'s tick at x`);
    for (const a of row) {
      const c = sn.state.classes.find((q) => q.name === a.series);
      close(a.x1, px(X[f]), 0.3, `${a.series} ${f + 1}: starts at x`);
      close(a.x2, px(c.output[f]), 0.3, `${a.series} ${f + 1}: ends at h`);
      // the class's marker at the arrow's end (screen px: the svg's left edge plus user units, 1:1)
      close(a.mark.cx, d.svgBox.l + px(c.output[f]), 0.6, `${a.series} ${f + 1}: its marker at h`);
      close(a.mark.cy, d.svgBox.t + a.y, 0.6, `${a.series} ${f + 1}: its marker on its arrow`);
    }
  }
  // by hand, feature 1 (x₁ = 1, LN₀(x) = (−0.2, −1.4, …); F(y)₁ = y₁ + y₂/2; a = SiLU of E's column):
  //   cat  a = (1.761594, 0, 0.731059): s₁ = 0.515268, b₁ = 0, g₁ = 1.130797, s₂ = 0.365529, b₂ = −1.396065;
  //        y₁ = −0.303054, y₂ = −3.307805, F₁ = −1.956956, h₁ = 1 − 2.212920 = −1.212920
  //   dog  a = (0, 1.761594, −0.268941): s₁ = 0.134470, b₁ = 1.761594, g₁ = 0.470199, s₂ = −1.015268, b₂ = −0.134470;
  //        y₁ = 1.534700, y₂ = −0.113095, F₁ = 1.478152, h₁ = 1 + 0.695025 = 1.695025
  //   ship a = (−0.268941, 0.731059, 1.761594): s₁ = −1.015268, b₁ = 0.731059, g₁ = 0.206912, s₂ = 0.515268,
  //        b₂ = 1.149738; y₁ = 0.734113, y₂ = −0.971637, F₁ = 0.248294, h₁ = 1 + 0.051375 = 1.051375
  // so on row 1 cat's arrow points left, dog's and ship's right, ship's the shortest: cat < x < ship < dog
  const h1 = { cat: -1.21292, dog: 1.695025, ship: 1.051375 };
  for (const c of sn.state.classes) close(c.output[0], h1[c.name], 1e-4, `${c.name} h₁`);
  const row1 = Object.fromEntries(d.arrows.filter((a) => a.feature === 0).map((a) => [a.series, a]));
  assert.ok(row1.cat.x2 < row1.cat.x1, 'cat: to the left of x');
  assert.ok(row1.dog.x2 > row1.ship.x2 && row1.ship.x2 > row1.ship.x1, 'ship, then dog, to the right of x');
});

test('the toggle says what pressing it does, and its state is what the markers show', async () => {
  await set({ features: '1,-2,5,2', condition: 'cat', projection: 'trained' });
  // off: the classes' arrows leave x (cat's first by 2.2, as derived above); x's key says AdaLN-Zero's h is at x
  let d = await drawn();
  assert.equal(d.toggle, 'false');
  assert.equal(d.compare[0].text, 'x (drag); at AdaLN-Zero’s initialization h stays here');
  for (const k of ['circle', 'square', 'triangle'])
    assert.ok(
      d.marks[k].some((m, f) => Math.abs(m.cx - d.knobs[f].cx) > 3),
      `${k}: off x while the toggle is off`,
    );
  // on: every class's marker right under x's tick, its arrow of no length
  await setProjection('zero');
  d = await drawn();
  assert.equal(d.toggle, 'true');
  for (const k of ['circle', 'square', 'triangle'])
    d.marks[k].forEach((m, f) => close(m.cx, d.knobs[f].cx, 0.6, `${k} ${f + 1} under x's tick`));
  for (const a of d.arrows) close(a.x2, a.x1, 0.1, `${a.series} ${a.feature + 1}: no length`);
  const sn = await snap();
  assert.ok(sn.desc.includes('the arrows have no length, each marker sits under x’s tick'), sn.desc);
  assert.ok(
    !sn.desc.includes('For comparison, at AdaLN-Zero’s initialization'),
    'no second sentence on AdaLN-Zero’s start',
  );
  await setProjection('trained');
});

test('at 360 px, in both languages and states: no text overlaps a text or a marker, no marker another’s stem', async () => {
  const viewport = fig.page.viewportSize();
  await fig.page.setViewportSize({ width: 360, height: 800 });
  try {
    for (const lang of ['en', 'zh'])
      for (const projection of ['trained', 'zero']) {
        await set({ features: '1,-2,5,2', condition: 'cat', projection, lang });
        await fig.page.waitForTimeout(100);
        const d = await drawn();
        const what = `${lang} ${projection}`;
        const ts = d.texts.filter((t) => t.text && t.r > t.l);
        for (const t of ts)
          assert.ok(t.l >= d.svgBox.l - 0.5 && t.r <= d.svgBox.r + 0.5, `${what}: "${t.text}" inside the picture`);
        for (let i = 0; i < ts.length; i++)
          for (let j = i + 1; j < ts.length; j++)
            assert.ok(!overlaps(ts[i], ts[j]), `${what}: "${ts[i].text}" overlaps "${ts[j].text}"`);
        const markers = d.glyphs.filter((g) => g.kind === 'marker');
        const stems = d.glyphs.filter((g) => g.kind === 'stem');
        assert.equal(markers.length, 3 + 3 * 4, `${what}: the key's three markers and the chart's twelve`);
        assert.equal(stems.length, 3 + 1 + 3 * 4 + 4, `${what}: arrows and x's ticks`);
        for (const t of ts)
          for (const m of markers) assert.ok(!overlaps(t, m), `${what}: "${t.text}" overlaps a marker`);
        for (const m of markers) {
          // a shaft's box is its line; its stroke (1.5 px) reaches 0.75 px beyond
          for (const st of stems)
            if (st.group !== m.group)
              assert.ok(!overlaps(m, st, 0.75, 0), `${what}: a marker at (${m.cx}, ${m.cy}) on a stem`);
          for (const o of markers)
            if (o !== m) assert.ok(!overlaps(m, o, 0, 0), `${what}: markers at ${m.cy} and ${o.cy} overlap`);
        }
      }
  } finally {
    await set({ lang: 'en', projection: 'trained' });
    await fig.page.setViewportSize(viewport);
  }
});

test('the block is named above the picture in two lines, every symbol the picture uses; the residual bars keep 3:1 in dark', async () => {
  const r = await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    const p = f.shadowRoot.querySelector('p.pipeline');
    const first = f.shadowRoot.querySelector('svg');
    return {
      lines: [...p.querySelectorAll('span')].map((s) => s.textContent),
      above: p.getBoundingClientRect().bottom <= first.getBoundingClientRect().top + 1,
    };
  }, TAG);
  assert.equal(r.lines.length, 2);
  assert.ok(r.above, 'named before the picture');
  for (const sym of ['s', 'b', 'g', 'LN₀(x)', 'y', 'h', 'F(y)', '⊙'])
    assert.ok(r.lines.join(' ').includes(sym), `${sym} named: ${r.lines.join(' / ')}`);
  // dark: the residual x's bar, the input colour at its opacity over the figure's background (WCAG ratio)
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('theme', 'dark'), TAG);
  const c = await fig.page.evaluate((t) => {
    const root = document.querySelector(t).shadowRoot;
    const bar = root.querySelector('rect.b-base:not(.legend)') ?? root.querySelector('.b-base');
    const cs = getComputedStyle(bar);
    const bg = getComputedStyle(root.querySelector('[part=figure]') ?? root.firstElementChild).backgroundColor;
    return { fill: cs.fill, opacity: Number(cs.fillOpacity), bg };
  }, TAG);
  await fig.page.evaluate((t) => document.querySelector(t).removeAttribute('theme'), TAG);
  const rgb = (s) =>
    s
      .match(/[\d.]+/g)
      .slice(0, 3)
      .map(Number);
  const lum = (v) =>
    v
      .map((x) => ((x /= 255) <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4))
      .reduce((a, x, i) => a + [0.2126, 0.7152, 0.0722][i] * x, 0);
  const bg = rgb(c.bg);
  const mixed = rgb(c.fill).map((x, i) => c.opacity * x + (1 - c.opacity) * bg[i]);
  const [hi, lo] = [lum(mixed), lum(bg)].sort((a, b) => b - a);
  assert.ok(
    (hi + 0.05) / (lo + 0.05) >= 3,
    `residual bar ${c.fill} at ${c.opacity} on ${c.bg}: ${((hi + 0.05) / (lo + 0.05)).toFixed(2)}:1`,
  );
});
