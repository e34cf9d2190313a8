// <nl-axis-cube> swept through its real controls: every method, both readings,
// every G the select offers, every element reached with the index steppers'
// arrow keys. After each position every sentence the figure writes is checked
// against rules written here (the group by its definition, its geometry by
// method, the number of groups by counting), never against the figure's code.
// Then: invalid G in Chinese, bad attributes, and a 360 px phone.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cubeGroup, openPage, setAttributes, setup } from './helpers.mjs';

let env, page, problems;
before(async () => {
  env = await setup();
  ({ page, problems } = await openPage(env.browser, env.url + 'web/index.html'));
  await page.locator('nl-axis-cube').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('nl-axis-cube')?.state?.members?.length);
});
after(() => env.close());

const METHODS = ['batch_norm', 'layer_norm', 'rms_norm', 'instance_norm', 'group_norm'];
const NAME = {
  batch_norm: 'BatchNorm',
  layer_norm: 'LayerNorm',
  rms_norm: 'RMSNorm',
  instance_norm: 'InstanceNorm',
  group_norm: 'GroupNorm',
};
const AXES = { sequence: ['B', 'T', 'D'], image: ['N', 'HW', 'C'] };
const divisors = (n) => [...Array(n).keys()].map((i) => i + 1).filter((g) => n % g === 0);

// The group by definition: which (b, t, d) share statistics with `index`.
const group = cubeGroup;

// Which axes a method's group runs along, and how much of each (by the method's definition).
function extent(method, [B, T, D], G) {
  const along = {
    batch_norm: [
      [0, B],
      [1, T],
    ],
    layer_norm: [[2, D]],
    rms_norm: [[2, D]],
    instance_norm: [[1, T]],
    group_norm: [
      [1, T],
      [2, D / G],
    ],
  }[method];
  return along.filter(([, k]) => k > 1);
}

/** The sentences the figure must write (English), by the rules above. */
function expectedText(method, reading, shape, index, G) {
  const names = AXES[reading];
  const members = group(method, shape, index, G);
  const count = members.length;
  const where = `element (${index.join(', ')}) of [${names.join(', ')}]`;
  const ext = extent(method, shape, G);
  assert.equal(
    count,
    ext.reduce((p, [, k]) => p * k, 1),
    'the rules agree with the definition',
  );
  const axisText = ext.map(([a, k]) =>
    k === shape[a] ? `${names[a]} (all ${shape[a]})` : `part of ${names[a]} (${k} of ${shape[a]})`,
  );
  const shapeWord = ['', 'a line along', 'a plane over', 'a block over'][ext.length];
  const summary =
    count === 1
      ? `${NAME[method]}: ${where} shares its statistics with no other element; its group is that element alone.`
      : `${NAME[method]}: ${count.toLocaleString('en-US')} cells share statistics with ${where}, ${shapeWord} ${axisText.join(' and ')}.`;
  const total = shape[0] * shape[1] * shape[2];
  const nGroups = total / count;
  const stats = method === 'rms_norm' ? 'mean square (no mean is subtracted)' : 'mean and variance';
  const groups =
    nGroups === 1
      ? `The whole tensor [${shape.join(', ')}] is this one group: one ${stats} for all of it.`
      : `The tensor [${shape.join(', ')}] splits into ${nGroups.toLocaleString('en-US')} such groups, each with its own ${stats}.`;
  return { members, summary, groups, count, nGroups };
}

const cube = () => page.locator('nl-axis-cube');
const set = (attrs) => setAttributes(page, 'nl-axis-cube', attrs);

/**
 * Everything one position shows (state, text, drawing facts). With `steps`,
 * first moves the index steppers in the page — stepUp/stepDown and the input
 * and change events a browser fires — and returns one snapshot per position.
 */
function inPage(steps) {
  const f = document.querySelector('nl-axis-cube');
  const root = f.shadowRoot;
  const snap = () => {
    const svg = root.querySelector('svg.main');
    const circles = [...svg.querySelectorAll('path.voxel')];
    const pts = svg.querySelector('path.voxel').parentNode;
    const nan = [...svg.querySelectorAll('*')].flatMap((n) =>
      [...n.attributes].filter((a) => /NaN|Infinity|undefined/.test(a.value)).map((a) => `${n.tagName}.${a.name}`),
    );
    return {
      state: JSON.parse(JSON.stringify(f.state)),
      description: root.querySelector('[part=description]').textContent,
      error: root.querySelector('.error').textContent,
      drawn: circles
        .filter((c) => c.classList.contains('member'))
        .map((c) => [+c.dataset.b, +c.dataset.t, +c.dataset.d])
        .sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]),
      chosen: circles
        .filter((c) => c.classList.contains('chosen'))
        .map((c) => [+c.dataset.b, +c.dataset.t, +c.dataset.d]),
      lastIsChosen: pts.lastElementChild.classList.contains('chosen'),
      labels: [...svg.querySelectorAll('text')].map((t) => t.textContent),
      multiples: [...root.querySelectorAll('.multiple')].map((b) => ({
        method: b.dataset.method,
        name: b.querySelector('.multiple-name').textContent,
        pressed: b.querySelector('button').getAttribute('aria-pressed'),
        cells: [...b.querySelectorAll('path.cell')]
          .map((c) => [+c.dataset.b, +c.dataset.t, +c.dataset.d])
          .sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]),
        labels: [...b.querySelectorAll('svg text.mini-label')].map((t) => t.textContent),
      })),
      gOptions: [...root.querySelectorAll('.groups option')].map((o) => ({ value: o.value, disabled: o.disabled })),
      indexLabels: [...root.querySelectorAll('.index input')].map((i) => i.getAttribute('aria-label')),
      stepperValues: [...root.querySelectorAll('.index input')].map((i) => Number(i.value)),
      nan,
    };
  };
  if (!steps) return snap();
  const inputs = [...root.querySelectorAll('.index input')];
  return steps.map((step) => {
    if (step) {
      const [axis, dir] = step;
      inputs[axis].focus();
      if (dir > 0) inputs[axis].stepUp();
      else inputs[axis].stepDown();
      inputs[axis].dispatchEvent(new Event('input', { bubbles: true }));
      inputs[axis].dispatchEvent(new Event('change', { bubbles: true }));
    }
    return snap();
  });
}
const snapshot = () => page.evaluate(inPage);

function check(snap, { method, reading, shape, index, G }) {
  const tag = `${method} ${reading} G=${G} ${shape} @${index}`;
  const exp = expectedText(method, reading, shape, index, G);
  const s = snap.state;
  assert.equal(s.error, null, `${tag}: ${s.error}`);
  assert.equal(snap.error, '', tag);
  assert.deepEqual(s.index, index, `${tag}: index`);
  assert.deepEqual(s.members, exp.members, `${tag}: state members`);
  assert.deepEqual(snap.drawn, exp.members, `${tag}: drawn members`);
  assert.deepEqual(snap.chosen, [index], `${tag}: one chosen point, the index`);
  assert.ok(snap.lastIsChosen, `${tag}: chosen point drawn last (on top)`);
  assert.deepEqual(snap.nan, [], `${tag}: no NaN in the drawing`);
  const names = AXES[reading];
  assert.deepEqual(
    snap.labels,
    names.map((n, a) => `${n} (${shape[a]})`),
    `${tag}: axis labels of the reading`,
  );
  snap.indexLabels.forEach((l, a) =>
    assert.equal(l, `index along ${names[a]} (0 to ${shape[a] - 1})`, `${tag}: index label`),
  );
  // Every sentence, generated from state, must be the one the rules give.
  const d = snap.description;
  assert.ok(d.startsWith(exp.summary), `${tag}: summary\n  got  ${d}\n  want ${exp.summary}`);
  assert.ok(d.includes(exp.groups), `${tag}: groups sentence\n  got  ${d}\n  want ${exp.groups}`);
  const other = AXES[reading === 'image' ? 'sequence' : 'image'];
  assert.ok(!d.includes(`[${other.join(', ')}]`), `${tag}: no axes of the other reading`);
  assert.ok(d.includes(reading === 'image' ? 'Image reading:' : 'Sequence reading:'), `${tag}: meaning of the reading`);
  if (method === 'group_norm') {
    const per = shape[2] / G;
    assert.ok(
      d.includes(
        reading === 'image'
          ? `${per} channels of one image (C/G with G = ${G})`
          : `${per} consecutive features of one sequence (D/G with G = ${G})`,
      ),
      `${tag}: GroupNorm size`,
    );
  }
  // The small multiples: BatchNorm, LayerNorm, InstanceNorm, GroupNorm, each shading its group of the same
  // element, by the definition; GroupNorm's G is the figure's while it shows GroupNorm or while that G is above 1
  // and divides D, else the smallest divisor of D above 1.
  const nG = s.numGroups;
  const gm =
    method === 'group_norm' || (nG > 1 && shape[2] % nG === 0) ? nG : (divisors(shape[2]).find((g) => g > 1) ?? 1);
  assert.deepEqual(
    snap.multiples.map((m) => m.method),
    ['batch_norm', 'layer_norm', 'instance_norm', 'group_norm'],
    tag,
  );
  for (const m of snap.multiples) {
    const want = group(m.method, shape, index, m.method === 'group_norm' ? gm : 1);
    assert.deepEqual(m.cells, want, `${tag}: small multiple ${m.method}`);
    assert.equal(m.pressed, String(m.method === method), `${tag}: ${m.method} pressed`);
    assert.ok(m.labels.includes(names[1]) && m.labels.includes(names[2]), `${tag}: small multiple axis names`);
  }
  assert.equal(snap.multiples[3].name, `GroupNorm (G = ${gm})`, tag);
  assert.ok(
    d.endsWith(
      `Below, the same element under four methods: BatchNorm pools ${shape[1] * shape[0]} cells, LayerNorm pools ${shape[2]} cells, InstanceNorm pools ${shape[1]} cells, GroupNorm (G = ${gm}) pools ${(shape[1] * shape[2]) / gm} cells.`,
    ),
    `${tag}: the small multiples' sentence\n  got  ${d}`,
  );
  if (exp.count === 1) assert.ok(!/cells share/.test(d), `${tag}: a single element is not "cells"`);
  if (exp.nGroups === 1) assert.ok(!/splits into/.test(d), tag);
  assert.equal(s.groupCount, exp.nGroups, `${tag}: groupCount`);
}

/** Walk every element with the index steppers (arrow keys), snake order, checking each. */
async function walkIndices(config, limit = Infinity, keys = false) {
  const [B, T, D] = config.shape;
  const inputs = [0, 1, 2].map((a) => cube().locator('.index input').nth(a));
  // Start from (0, 0, 0) through the steppers too.
  for (const a of [0, 1, 2]) {
    await inputs[a].fill('0');
    await inputs[a].dispatchEvent('change');
  }
  // A snake through the grid: consecutive elements differ by one step on one axis.
  const order = [];
  for (let b = 0; b < B; b++)
    for (let i = 0; i < T; i++) {
      const t = b % 2 === 0 ? i : T - 1 - i;
      for (let j = 0; j < D; j++) order.push([b, t, (b * T + i) % 2 === 0 ? j : D - 1 - j]);
    }
  if (limit < order.length) {
    // The first `limit` steps of the snake, then along B: every stepper moves.
    order.length = limit;
    const last = order.at(-1);
    for (let b = last[0] + 1; b < B; b++) order.push([b, last[1], last[2]]);
  }
  const steps = order.map((p, k) => {
    if (k === 0) return null;
    const a = [0, 1, 2].find((x) => p[x] !== order[k - 1][x]);
    assert.equal(Math.abs(p[a] - order[k - 1][a]), 1);
    return [a, p[a] - order[k - 1][a]];
  });
  let positions = 0;
  if (keys) {
    // The keyboard: focus a stepper, press an arrow key.
    for (let k = 0; k < order.length; k++) {
      if (steps[k]) {
        await inputs[steps[k][0]].focus();
        await page.keyboard.press(steps[k][1] > 0 ? 'ArrowUp' : 'ArrowDown');
      }
      check(await snapshot(), { ...config, index: order[k] });
      positions++;
    }
  } else {
    const snaps = await page.evaluate(inPage, steps);
    snaps.forEach((snap, k) => {
      check(snap, { ...config, index: order[k] });
      assert.deepEqual(snap.stepperValues, order[k], 'the steppers show the element');
      positions++;
    });
  }
  return positions;
}

test('sweep: methods × readings × every G offered × elements through the index steppers, sentences checked against state', async () => {
  const shape = [3, 4, 6];
  await set({ shape: shape.join(','), index: '0,0,0', 'num-groups': '1', method: 'layer_norm', reading: 'sequence' });
  let total = 0;
  for (const reading of ['sequence', 'image']) {
    await cube().getByRole('combobox', { name: 'Reading' }).selectOption(reading);
    for (const method of METHODS) {
      await cube().getByRole('combobox', { name: 'Method' }).selectOption(method);
      const Gs = method === 'group_norm' ? divisors(shape[2]) : [1];
      if (method === 'group_norm') {
        const offered = (await snapshot()).gOptions;
        assert.deepEqual(
          offered,
          divisors(shape[2]).map((g) => ({ value: String(g), disabled: false })),
          'G offers exactly the divisors of 6',
        );
      }
      for (const G of Gs) {
        if (method === 'group_norm') await cube().getByRole('combobox', { name: 'Groups G' }).selectOption(String(G));
        // Every element (72) through the steppers' events once per method (sequence reading; GroupNorm
        // with G = 2); for the other 11 settings 26 elements (the snake's first 24 steps, all of d and T
        // of the first item, then along B: every value of every index). Membership is one condition per
        // axis and the reading changes only the words, which every position checks. Two settings again
        // with the keyboard (26 steps).
        const full = reading === 'sequence' && (method === 'group_norm' ? G === 2 : true);
        let n = await walkIndices({ method, reading, shape, G }, full ? Infinity : 24);
        assert.equal(n, full ? 72 : 26);
        total += n;
        if (
          (reading === 'sequence' && method === 'layer_norm') ||
          (reading === 'image' && method === 'group_norm' && G === 2)
        ) {
          n = await walkIndices({ method, reading, shape, G }, 24, true);
          assert.equal(n, 26);
        }
      }
    }
  }
  assert.equal(total, 5 * 72 + 11 * 26);
  assert.deepEqual(problems, []);
});

test('sweep: G for every channel count 1..12 (the select offers the divisors; each one checked)', async () => {
  let positions = 0;
  await cube().getByRole('combobox', { name: 'Method' }).selectOption('group_norm');
  for (const reading of ['sequence', 'image']) {
    await cube().getByRole('combobox', { name: 'Reading' }).selectOption(reading);
    for (let D = 1; D <= 12; D++) {
      const shape = [2, 3, D];
      const index = [1, 2, D - 1 - (D > 2 ? 1 : 0)];
      await set({ shape: shape.join(','), index: index.join(','), 'num-groups': '1' });
      const snap = await snapshot();
      assert.deepEqual(
        snap.gOptions.map((o) => o.value),
        divisors(D).map(String),
        `D = ${D}: G choices`,
      );
      for (const G of divisors(D)) {
        await cube().getByRole('combobox', { name: 'Groups G' }).selectOption(String(G));
        check(await snapshot(), { method: 'group_norm', reading, shape, index, G });
        assert.equal(await cube().getAttribute('num-groups'), String(G), 'reflected');
        positions++;
      }
    }
  }
  assert.ok(positions >= 20, `${positions} G positions`);
});

test('sweep: shapes from 1 to 12 along each axis keep the text true (single elements, whole-tensor groups)', async () => {
  let positions = 0;
  await cube().getByRole('combobox', { name: 'Reading' }).selectOption('sequence');
  for (const method of METHODS) {
    await cube().getByRole('combobox', { name: 'Method' }).selectOption(method);
    for (const shape of [
      [1, 1, 1],
      [1, 1, 4],
      [1, 5, 1],
      [4, 1, 1],
      [2, 2, 2],
      [12, 1, 1],
      [1, 12, 12],
      [12, 12, 12],
      [5, 7, 3],
      [1, 3, 8],
    ]) {
      const G = method === 'group_norm' ? (divisors(shape[2]).at(-2) ?? 1) : 1;
      const index = shape.map((n) => n - 1);
      await set({ shape: shape.join(','), index: index.join(','), 'num-groups': String(G) });
      check(await snapshot(), { method, reading: 'sequence', shape, index, G });
      positions++;
    }
  }
  assert.ok(positions >= 20);
});

test('a G that does not divide the channel count: a Chinese message in Chinese, the last good drawing kept', async () => {
  await set({
    shape: '3,4,6',
    index: '0,1,2',
    method: 'group_norm',
    'num-groups': '3',
    reading: 'sequence',
    lang: 'zh',
  });
  const good = await snapshot();
  assert.equal(good.state.error, null);
  for (const [G, reading] of [
    [4, 'sequence'],
    [5, 'image'],
    [7, 'sequence'],
    [12, 'image'],
  ]) {
    await set({ reading, 'num-groups': String(G) });
    const snap = await snapshot();
    const axis = reading === 'image' ? 'C' : 'D';
    assert.equal(
      snap.error,
      `GroupNorm 把 ${axis} = 6 均分成 G 组，所以 G 必须整除 6；G = ${G} 不能。请从 1、2、3、6 中选择 G。`,
    );
    assert.doesNotMatch(snap.error, /must|divide|channel count|num_groups/, 'no English core message');
    assert.equal(snap.state.error, snap.error);
    assert.deepEqual(snap.state.members, good.state.members, 'last good state kept');
    assert.equal(snap.description, '', 'no description for a state that is not shown');
    assert.deepEqual(snap.nan, []);
    assert.deepEqual(snap.gOptions[0], { value: String(G), disabled: true }, 'the refused G stays visible, marked');
    const text = await cube().locator('.groups option').first().textContent();
    assert.equal(text, `${G}（不可用）`);
  }
  // The old case: G = 2 and a shape whose last axis is 5.
  await set({ reading: 'sequence', 'num-groups': '2', shape: '3,4,5' });
  assert.equal(
    (await snapshot()).error,
    'GroupNorm 把 D = 5 均分成 G 组，所以 G 必须整除 5；G = 2 不能。请从 1、5 中选择 G。',
  );
  await set({ lang: 'en' });
  assert.equal(
    (await snapshot()).error,
    'GroupNorm splits D = 5 into G equal groups, so G must divide 5; G = 2 does not. Choose G from 1, 5.',
  );
  await set({ 'num-groups': '5' });
  const fixed = await snapshot();
  assert.equal(fixed.error, '');
  assert.equal(fixed.state.members.length, 4);
  await page.evaluate(() => document.querySelector('nl-axis-cube').removeAttribute('lang'));
  assert.deepEqual(problems, []);
});

test('bad attributes: localized message, last good state kept, no NaN, no console error', async () => {
  await set({ shape: '3,4,6', index: '0,1,2', method: 'layer_norm', 'num-groups': '1', reading: 'sequence' });
  const good = (await snapshot()).state;
  for (const [attr, bad, pattern] of [
    ['shape', '1,2,3,4', /shape takes at most 3 numbers/],
    ['shape', '0,3,4', /shape must be three whole numbers from 1 to 12/],
    ['shape', '2.5,3,4', /shape must be three whole numbers/],
    ['shape', '13,3,4', /shape must be three whole numbers/],
    ['shape', Array(5000).fill('1').join(','), /shape takes at most 3 numbers/],
    ['index', 'a,b,c', /index must be three whole numbers from 0 to 11/],
    ['index', '-1,0,0', /index must be three whole numbers/],
    ['method', 'batchnorm', /method must be one of batch_norm/],
    ['reading', 'video', /reading must be one of sequence, image/],
    ['num-groups', '0', /num-groups must be a number from 1 to 12/],
    ['num-groups', '1.5', /num-groups must be a number from 1 to 12/],
  ]) {
    await set({ [attr]: bad });
    const snap = await snapshot();
    assert.match(snap.error, pattern, `${attr}=${bad.slice(0, 20)}`);
    assert.equal(snap.error.length < 200, true, 'the message does not echo a huge value back');
    assert.deepEqual(snap.state.members, good.members, 'last good state');
    assert.deepEqual(snap.nan, []);
    await set({
      [attr]: { shape: '3,4,6', index: '0,1,2', method: 'layer_norm', reading: 'sequence', 'num-groups': '1' }[attr],
    });
    assert.equal((await snapshot()).error, '', `${attr} recovers`);
  }
  // In Chinese too.
  await set({ lang: 'zh', shape: '0,1,2' });
  assert.match((await snapshot()).error, /shape 需要三个 1 到 12 的整数/);
  await set({ shape: '3,4,6' });
  await page.evaluate(() => document.querySelector('nl-axis-cube').removeAttribute('lang'));
  assert.deepEqual(problems, []);
});

test('360 px phone: labels >= 10 px, nothing wider than the screen, controls touch-sized, in both readings and languages', async () => {
  const {
    page: phone,
    context,
    problems: phoneProblems,
  } = await openPage(env.browser, env.url + 'web/index.html', {
    viewport: { width: 360, height: 740 },
    hasTouch: true,
    isMobile: true,
  });
  const f = phone.locator('nl-axis-cube');
  await f.scrollIntoViewIfNeeded();
  await phone.waitForFunction(() => document.querySelector('nl-axis-cube')?.state?.members?.length);
  for (const [lang, reading, shape, method] of [
    ['en', 'sequence', '3,4,6', 'group_norm'],
    ['zh', 'image', '3,4,6', 'batch_norm'],
    ['en', 'image', '12,12,12', 'layer_norm'],
    ['zh', 'sequence', '1,1,1', 'rms_norm'],
  ]) {
    await phone.evaluate(
      ([l, r, s, m]) => {
        const el = document.querySelector('nl-axis-cube');
        el.setAttribute('lang', l);
        el.setAttribute('reading', r);
        el.setAttribute('shape', s);
        el.setAttribute('method', m);
        el.setAttribute('num-groups', '2');
      },
      [lang, reading, shape, method],
    );
    await phone.waitForTimeout(80);
    const m = await phone.evaluate(() => {
      const el = document.querySelector('nl-axis-cube');
      const root = el.shadowRoot;
      const texts = [...root.querySelectorAll('svg.main text, svg.mini text')].map((t) => ({
        text: t.textContent,
        main: !!t.closest('svg.main'),
        px: t.getScreenCTM().a * parseFloat(getComputedStyle(t).fontSize),
        right: t.getBoundingClientRect().right,
        left: t.getBoundingClientRect().left,
      }));
      const html = [...root.querySelectorAll('p, span, label, option, button')]
        .filter((n) => n.textContent.trim() && n.getClientRects().length)
        .map((n) => parseFloat(getComputedStyle(n).fontSize));
      const controls = [...root.querySelectorAll('select, input, button')]
        .filter((n) => n.getClientRects().length)
        .map((n) => ({ h: n.getBoundingClientRect().height, right: n.getBoundingClientRect().right }));
      const wrap = root.querySelector('.wrap');
      return {
        texts,
        html,
        controls,
        error: el.state.error,
        box: el.getBoundingClientRect().right,
        scroll: document.documentElement.scrollWidth,
        wrapOverflow: wrap.scrollWidth - wrap.clientWidth,
        svgRight: root.querySelector('svg').getBoundingClientRect().right,
        touchAction: getComputedStyle(root.querySelector('.view')).touchAction,
      };
    });
    const tag = `${lang} ${reading} ${shape} ${method}`;
    assert.equal(m.error, null, tag);
    assert.equal(m.texts.filter((t) => t.main).length, 3, tag);
    for (const t of m.texts) {
      assert.ok(t.px >= 10, `${tag}: "${t.text}" is ${t.px.toFixed(1)} px`);
      assert.ok(
        t.left >= 0 && t.right <= 360,
        `${tag}: "${t.text}" inside the screen (${t.left.toFixed(0)}..${t.right.toFixed(0)})`,
      );
    }
    for (const px of m.html) assert.ok(px >= 10, `${tag}: HTML text ${px} px`);
    for (const c of m.controls) {
      assert.ok(c.h >= 44, `${tag}: control ${c.h} px tall (a finger's size)`);
      assert.ok(c.right <= 360, `${tag}: control inside the screen`);
    }
    assert.ok(m.box <= 360 && m.svgRight <= 360, `${tag}: figure inside 360 px`);
    assert.ok(m.scroll <= 360, `${tag}: the page does not scroll sideways (${m.scroll})`);
    assert.ok(m.wrapOverflow <= 0, `${tag}: nothing overflows the figure`);
    assert.equal(m.touchAction, 'pan-y', 'vertical swipes scroll the page');
  }
  assert.deepEqual(phoneProblems, []);
  await context.close();
});
