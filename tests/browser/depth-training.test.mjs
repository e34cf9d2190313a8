// <nl-depth-training> as a reader uses it: Step and Play by keyboard, the
// three presets played to the end, Pause, leaving the screen, Reset and a bad
// attribute. Every outcome is checked against the PyTorch run of the same
// preset (tests/conformance/training-presets.json, from
// scripts/gen_training_references.py): same seeded start, same data, float64
// steps with float32 storage between them, as train_step documents.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { onArticlePage } from './helpers.mjs';

const TAG = 'nl-depth-training';
const REF = JSON.parse(readFileSync(new URL('../conformance/training-presets.json', import.meta.url), 'utf8'));
const fig = onArticlePage(TAG);
const snap = () => fig.snap();
const CHANCE = Math.log(2);
const NAMES = { none: 'No norm', post: 'Post-Norm', pre: 'Pre-Norm', pre_final: 'Pre-Norm + final norm' };
const f3 = (v) => new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 }).format(v);

const button = (label) => fig.page.locator(`${TAG} >> button`).filter({ hasText: new RegExp(`^${label}$`) });
// The settings are behind a closed disclosure: a reader opens it to reach a preset or a Compare box.
async function openSettings() {
  const open = await fig.page.evaluate((t) => document.querySelector(t).shadowRoot.querySelector('details').open, TAG);
  if (!open) await fig.page.locator(`${TAG} >> summary`).click();
}
async function press(label) {
  if (!(await button(label).isVisible())) await openSettings();
  await button(label).focus();
  await fig.page.keyboard.press('Enter');
}
async function playToEnd() {
  await press('Play');
  await fig.page.waitForFunction(
    (t) => {
      const s = document.querySelector(t).state;
      return !s.playing && s.variants.every((v) => v.status !== 'training');
    },
    TAG,
    { timeout: 420_000 },
  );
  return snap();
}

// One variant's outcome class, and its sentence in the description.
function outcome(loss, diverged) {
  if (diverged || loss > 1e3) return 'blown up';
  if (loss > 0.9 * CHANCE) return 'stuck';
  return 'trained';
}

function checkDescription(sn, where) {
  const s = sn.state;
  for (const v of s.variants) {
    const name = NAMES[v.placement],
      last = v.loss.at(-1),
      k = v.loss.length,
      steps = k === 1 ? '1 step' : `${k} steps`;
    if (v.status === 'diverged')
      assert.ok(sn.desc.includes(`${name} diverged: its step ${v.loss.length + 1} would`), `${where}: ${name}`);
    else if (last > 10 * s.chance) assert.ok(sn.desc.includes(`${name}’s loss has blown up to `), `${where}: ${name}`);
    // stuck: near a coin flip after at least 50 steps; before that, only the loss so far
    else if (last > 0.9 * s.chance && k >= 50)
      assert.ok(
        sn.desc.includes(`${name} is stuck near a coin flip’s loss ${f3(s.chance)}: ${f3(last)} after ${steps}`),
        `${where}: ${name}`,
      );
    else
      assert.ok(
        sn.desc.includes(`${name} reaches loss ${f3(last)} after ${steps} (accuracy ${f3(v.accuracy)})`),
        `${where}: ${name}: ${sn.desc}`,
      );
  }
}

test('the settings open closed, their summary naming the values the curves were trained with', async () => {
  const r = await fig.page.evaluate((t) => {
    const d = document.querySelector(t).shadowRoot.querySelector('details');
    const depth = d.querySelector('input[type=range]');
    return { open: d.open, summary: d.querySelector('summary').textContent, depthShown: depth.checkVisibility() };
  }, TAG);
  assert.equal(r.open, false, 'closed at 1280 px too: the charts come first');
  assert.equal(r.depthShown, false);
  // the defaults of the header comment: 24 blocks, SGD with momentum 0.9, lr 0.06, LayerNorm
  assert.equal(r.summary, 'Settings: 24 blocks, SGD, momentum 0.9, learning rate 0.06, LayerNorm');
});

let opening; // the recorded run the figure opens on, as drawn
test('the default opens on its recorded run, drawn without Play: PyTorch’s outcome for each copy', async () => {
  const sn = await snap();
  opening = sn;
  assert.equal(sn.error, '');
  assert.deepEqual(sn.bad, []);
  assert.ok(Math.abs(sn.state.chance - CHANCE) < 1e-6, 'a coin flip loses ln 2');
  const { settings, runs } = REF.presets.default; // the figure's defaults, trained in PyTorch
  for (const [k, v] of Object.entries(settings)) assert.equal(sn.state[k], v, `default ${k}`);
  assert.equal(sn.state.recorded, true);
  assert.equal(sn.state.playing, false);
  assert.equal(sn.state.step, 300, 'the whole run, without pressing Play');
  // the four loss curves are drawn, and the map of the shown copy
  const drawn = await fig.page.evaluate((t) => {
    const r = document.querySelector(t).shadowRoot;
    const panel = r.querySelectorAll('svg')[0];
    return {
      curves: [...panel.querySelectorAll('path.series')].map((p) => p.getAttribute('d').split('L').length),
      cells: r.querySelectorAll('svg')[3].querySelectorAll('rect.cell').length,
      note: r.querySelector('.recorded').textContent,
    };
  }, TAG);
  assert.deepEqual(drawn.curves, [300, 300, 300, 300], 'a line of 300 points per copy');
  assert.equal(drawn.cells, 400);
  assert.match(drawn.note, /^Recorded run of these settings, 300 steps, drawn when the page opened\./);
  assert.ok(sn.svg.includes('Training loss, step 300'));
  // PyTorch: no norm blows up (6.3e17), Post-Norm stays at a coin flip (0.664), both Pre-Norms fit (1e-5)
  for (const v of sn.state.variants) {
    const r = runs[v.placement];
    assert.equal(outcome(v.loss.at(-1), v.status === 'diverged'), outcome(r.final_loss, r.diverged), v.placement);
    if (outcome(r.final_loss, r.diverged) !== 'blown up')
      assert.ok(Math.abs(v.loss.at(-1) - r.final_loss) <= 1e-4 + 1e-3 * r.final_loss, `${v.placement} final loss`);
  }
  assert.equal(outcome(runs.none.final_loss, runs.none.diverged), 'blown up');
  assert.equal(outcome(runs.post.final_loss, false), 'stuck');
  assert.ok(runs.pre.final_loss < 1e-3 && runs.pre_final.final_loss < 1e-3);
  // the lowest at the end is Pre-Norm, in PyTorch as in the figure
  const lowest = Object.entries(runs).sort((a, b) => a[1].final_loss - b[1].final_loss)[0][0];
  assert.equal(lowest, 'pre');
  checkDescription(sn, 'opening');
  assert.ok(sn.desc.includes('This is the recorded run of these settings; Play trains it again, step for step.'));
  assert.ok(
    sn.desc.includes(
      'Without a norm the loss blows up at this step size, while Pre-Norm and Pre-Norm + final norm train.',
    ),
  );
  assert.ok(sn.desc.endsWith(`Lowest loss at the end: Pre-Norm, ${f3(sn.state.variants[2].loss.at(-1))}.`), sn.desc);
});

// Colour-blind vision simulated (Machado et al. 2009, severity 1, on linear RGB) and CIELAB distance (CIE76).
const CVD = {
  normal: [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
  protan: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deutan: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  tritan: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
};
function seenAs(rgbText, mode) {
  const lin = (c) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const c = rgbText.match(/\d+/g).slice(0, 3).map(Number).map(lin);
  const [r, g, b] = CVD[mode].map((row) => Math.min(1, Math.max(0, row[0] * c[0] + row[1] * c[1] + row[2] * c[2])));
  const f = (t) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  const X = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
    Y = 0.2126 * r + 0.7152 * g + 0.0722 * b,
    Z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  return [116 * f(Y) - 16, 500 * (f(X) - f(Y)), 200 * (f(Y) - f(Z))];
}

test('gradient and stream RMS on log axes; four copies in four colours, apart in light, dark and colour-blind vision', async () => {
  const read = () =>
    fig.page.evaluate((t) => {
      const el = document.querySelector(t);
      const svgs = el.shadowRoot.querySelectorAll('svg');
      const ys = (p) => [...p.getAttribute('d').matchAll(/[ML][\d.-]+,([\d.-]+)/g)].map((m) => Number(m[1]));
      return {
        ticks: [1, 2].map((i) => [...svgs[i].querySelectorAll('.axis text')].map((x) => x.textContent)),
        act: Object.fromEntries(
          [...svgs[2].querySelectorAll('path.series')].map((p) => [p.getAttribute('class').split('v-')[1], ys(p)]),
        ),
        colours: Object.fromEntries(
          [...svgs[0].querySelectorAll('path.series')].map((p) => [
            p.getAttribute('class').split('v-')[1],
            getComputedStyle(p).stroke,
          ]),
        ),
      };
    }, TAG);
  const { state } = await snap();
  const light = await read();
  // both per-layer panels label their y ticks as powers of ten (the y axis of panel 3 spans 10⁻¹ to 10¹¹)
  for (const ticks of light.ticks) {
    assert.ok(ticks.length >= 6, ticks.join(' '));
    // the x axis counts layers (0, 5, …); every other label is a power of ten, none a plain number like 5E9
    const powers = ticks.filter((x) => /^10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+$/.test(x)),
      layers = ticks.filter((x) => /^\d+$/.test(x));
    assert.ok(powers.length >= 3 && powers.length + layers.length === ticks.length, ticks.join(' '));
  }
  // the stream's RMS: height on the picture linear in log10 of the state's value, so a Pre-Norm stream of
  // RMS about 1 is not a flat line at zero beside No norm's 10⁹
  const none = state.variants[0].actNorm,
    pre = state.variants[2].actNorm;
  const perDecade = (light.act.none[0] - light.act.pre[0]) / (Math.log10(pre[0]) - Math.log10(none[0]));
  assert.ok(perDecade > 5, `${perDecade} px a decade`);
  for (const [key, vals] of [
    ['none', none],
    ['pre', pre],
  ])
    vals.forEach((a, l) => {
      const want = light.act[key][0] - perDecade * (Math.log10(a) - Math.log10(vals[0]));
      assert.ok(Math.abs(light.act[key][l] - want) < 0.6, `${key} layer ${l}: y ${light.act[key][l]} vs ${want}`);
    });
  const span = Math.max(...light.act.pre) - Math.min(...light.act.pre);
  assert.ok(span > 10, `Pre-Norm's stream spans ${span} px`);
  // four colours, in both themes, apart under every simulated vision
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('theme', 'dark'), TAG);
  const dark = await read();
  await fig.page.evaluate((t) => document.querySelector(t).removeAttribute('theme'), TAG);
  for (const [theme, { colours }] of Object.entries({ light, dark })) {
    const keys = Object.keys(colours);
    assert.deepEqual(keys, ['none', 'post', 'pre', 'pre_final']);
    for (const mode of Object.keys(CVD))
      keys.forEach((a, i) =>
        keys.slice(i + 1).forEach((b) => {
          const [p, q] = [seenAs(colours[a], mode), seenAs(colours[b], mode)];
          const d = Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
          assert.ok(d >= 20, `${theme}, ${mode}: ${a} ${colours[a]} and ${b} ${colours[b]} only ${d.toFixed(1)} apart`);
        }),
      );
  }
});

// WCAG relative luminance and contrast ratio of two rgb() colours (arrays of 0..255)
const luminance = (rgb) =>
  rgb
    .map((c) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
    .reduce((a, c, i) => a + [0.2126, 0.7152, 0.0722][i] * c, 0);
const contrast = (a, b) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};
const rgb = (text) => text.match(/\d+/g).slice(0, 3).map(Number);

test('the map: class 0 a ring, class 1 a filled dot, each 3:1 against the lightest and darkest cell in light and dark', async () => {
  const read = () =>
    fig.page.evaluate((t) => {
      const map = document.querySelector(t).shadowRoot.querySelectorAll('svg')[3];
      const style = (sel) => getComputedStyle(map.querySelector(sel));
      const opacities = [...map.querySelectorAll('rect.cell')].map((r) => Number(r.getAttribute('fill-opacity')));
      return {
        ring: { fill: style('circle.pt0:not(.key-mark)').fill, stroke: style('circle.pt0:not(.key-mark)').stroke },
        dot: { fill: style('circle.pt1:not(.key-mark)').fill, stroke: style('circle.pt1:not(.key-mark)').stroke },
        keyRing: style('circle.pt0.key-mark').stroke,
        keyDot: style('circle.pt1.key-mark').fill,
        cell: style('rect.cell').fill,
        shades: [Math.min(...opacities), Math.max(...opacities)],
      };
    }, TAG);
  const light = await read();
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('theme', 'dark'), TAG);
  const dark = await read();
  await fig.page.evaluate((t) => document.querySelector(t).removeAttribute('theme'), TAG);
  for (const [theme, m] of Object.entries({ light, dark })) {
    // the ring is hollow (the background inside), the dot filled: two marks, not one
    const bg = rgb(m.ring.fill);
    assert.notDeepEqual(rgb(m.dot.fill), bg, `${theme}: the dot is filled`);
    assert.equal(m.keyRing, m.ring.stroke, `${theme}: the key's ring is the data's`);
    assert.equal(m.keyDot, m.dot.fill, `${theme}: the key's dot is the data's`);
    // the map is confident somewhere: its cells span light to dark
    assert.ok(m.shades[1] - m.shades[0] > 0.15, `${theme}: shades ${m.shades}`);
    for (const shade of m.shades) {
      const cell = rgb(m.cell).map((c, i) => shade * c + (1 - shade) * bg[i]);
      for (const [name, c] of [
        ['ring', m.ring.stroke],
        ['dot', m.dot.fill],
      ]) {
        const r = contrast(rgb(c), cell);
        assert.ok(r >= 3, `${theme}: ${name} ${c} on a cell of shade ${shade}: ${r.toFixed(2)}:1`);
      }
    }
  }
});

test('Play on the recorded run trains it again live, and ends on the very same curves', async () => {
  const sn = await playToEnd();
  assert.equal(sn.state.recorded, false);
  for (const [i, v] of sn.state.variants.entries()) {
    assert.equal(v.status, opening.state.variants[i].status, v.placement);
    assert.deepEqual(v.loss, opening.state.variants[i].loss, `${v.placement}: the same losses, step for step`);
    assert.deepEqual(v.gradFirst, opening.state.variants[i].gradFirst, `${v.placement}: first-step gradients`);
    assert.deepEqual(v.actNorm, opening.state.variants[i].actNorm, `${v.placement}: stream RMS`);
  }
  assert.deepEqual(sn.state.map, opening.state.map, 'the same decision map');
  assert.equal(
    sn.desc,
    opening.desc.replace(
      'This is the recorded run of these settings; Play trains it again, step for step.',
      'These curves were trained here, in your browser, step for step.',
    ),
  );
  // the note above the curves says so too, in the line the recorded run's note had
  assert.equal(
    await fig.page.evaluate((t) => document.querySelector(t).shadowRoot.querySelector('.recorded').textContent, TAG),
    'Trained here, in your browser: step 300 of 300. Reset shows the recorded run, where there is one.',
  );
  await press('Reset');
  assert.equal((await snap()).state.recorded, true, 'Reset returns to the recorded run');
});

test('Step by keyboard takes one step of every variant: PyTorch’s first losses', async () => {
  await press('Step');
  const sn = await snap();
  const ref = REF.presets.default.runs; // Step leaves the recorded run for a live one of the same settings
  assert.deepEqual(sn.bad, []);
  for (const v of sn.state.variants) {
    assert.equal(v.loss.length, 1, v.placement);
    assert.ok(
      Math.abs(v.loss[0] - ref[v.placement].first_loss) <= 1e-5 * ref[v.placement].first_loss,
      `${v.placement}: ${v.loss[0]} vs ${ref[v.placement].first_loss}`,
    );
    assert.equal(v.gradFirst.length, 25, 'a gradient norm per layer boundary, 0..24');
    assert.ok(v.gradFirst.every((g) => g > 0 && Number.isFinite(g)));
    assert.equal(v.actNorm.length, 25);
  }
  assert.ok(sn.svg.includes('Training loss, step 1'));
  checkDescription(sn, 'after one step');
  // a line of one point draws nothing: each copy's first loss is a dot in the loss panel
  const dots = await fig.page.evaluate((t) => {
    const panel = document.querySelector(t).shadowRoot.querySelectorAll('svg')[0];
    return [...panel.querySelectorAll('circle')].map((c) => c.getAttribute('class'));
  }, TAG);
  assert.deepEqual(
    dots.sort(),
    sn.state.variants
      .filter((v) => v.enabled)
      .map((v) => `f-${v.placement}`)
      .sort(),
  );
});

for (const [preset, label] of [
  ['deep', 'Deep, Adam'],
  ['zeroGate', 'Deep, zero gate'],
  ['sgd', 'SGD, large step'],
]) {
  test(`the "${label}" preset played to the end gives PyTorch’s outcomes`, async () => {
    await press(label);
    let sn = await snap();
    const { settings, runs } = REF.presets[preset];
    for (const [k, v] of Object.entries(settings)) assert.equal(sn.state[k], v, `${preset} sets ${k}`);
    assert.equal(sn.state.step, 0, 'a preset starts a new run');
    sn = await playToEnd();
    assert.equal(sn.error, '');
    assert.deepEqual(sn.bad, []);
    for (const v of sn.state.variants) {
      const r = runs[v.placement],
        last = v.loss.at(-1);
      const want = outcome(r.final_loss, r.diverged),
        got = outcome(last, v.status === 'diverged');
      assert.equal(got, want, `${preset} ${v.placement}: ${last} (${v.status}) against PyTorch's ${r.final_loss}`);
      if (want !== 'blown up') {
        // not chaotic: the same run, step for step
        assert.equal(v.loss.length, r.steps, `${preset} ${v.placement}: steps`);
        assert.ok(
          Math.abs(last - r.final_loss) <= 1e-4 + 1e-3 * r.final_loss,
          `${preset} ${v.placement}: final loss ${last} vs ${r.final_loss}`,
        );
        assert.ok(
          Math.abs(v.accuracy - r.accuracy) <= 1 / 128 + 1e-9,
          `${preset} ${v.placement}: accuracy ${v.accuracy} vs ${r.accuracy}`,
        );
      }
    }
    checkDescription(sn, preset);
    assert.equal(
      sn.state.mapStep,
      sn.state.variants.find((v) => v.placement === sn.state.show).loss.length,
      'the map is of the last step',
    );
    assert.ok(sn.svg.includes(`Pre-Norm: the two spirals, step ${sn.state.mapStep}`));
  });
}

test('the decision map follows the chosen copy without stopping or restarting its training', async () => {
  const before = await snap();
  assert.equal(before.state.show, 'pre', 'the map opens on a copy that learns');
  assert.equal(before.state.map.length, 400, 'a 20 x 20 grid');
  assert.ok(before.state.map.every((p) => p >= 0 && p <= 1));
  await fig.page.locator(`${TAG} >> select`).last().selectOption('pre_final');
  const after = await snap();
  assert.equal(after.state.show, 'pre_final');
  assert.equal(after.state.step, before.state.step, 'choosing a map does not restart training');
  assert.notDeepEqual(after.state.map, before.state.map);
  assert.ok(after.svg.includes(`Pre-Norm + final norm: the two spirals, step ${after.state.step}`));
  // the trained Pre-Norm + final copy (SGD preset: loss 0.17) is confident over much of the plane
  assert.ok(after.state.map.filter((p) => p < 0.1 || p > 0.9).length > 200, 'confident cells');
});

test('a zero gate starts every block as the identity, and the text says so at the first step', async () => {
  await press('Deep, zero gate');
  await press('Step');
  const sn = await snap();
  // each branch adds 0: without norms and in Pre-Norm the stream is h_0 at every layer; Post-Norm normalizes it
  // once (h_1 = Norm(h_0)) and then passes it on unchanged
  for (const v of sn.state.variants) {
    const from = v.placement === 'post' ? 1 : 0;
    // (Norm of a normalized stream is itself up to eps: 1/sqrt(1 + 1e-5) a layer)
    const tol = v.placement === 'post' ? 1e-3 : 1e-6;
    for (const a of v.actNorm.slice(from))
      assert.ok(
        Math.abs(a - v.actNorm[from]) <= tol * v.actNorm[from],
        `${v.placement}: the same stream from layer ${from} on`,
      );
  }
  const post = sn.state.variants.find((v) => v.placement === 'post');
  assert.ok(Math.abs(post.actNorm[1] - 1) < 1e-3, 'a LayerNorm output with gamma 1, beta 0 has RMS 1');
  const rms = sn.state.variants[0].actNorm[0];
  assert.ok(
    sn.desc.includes(
      `With the gate at zero each branch adds nothing at first: at the first step No norm, Pre-Norm and Pre-Norm + final norm keep the residual stream at RMS ${f3(rms)} through every layer.`,
    ),
    sn.desc,
  );
  await press('Step');
  assert.ok(!(await snap()).desc.includes('adds nothing at first'), 'said of the first step only');
});

test('warm-up: the setting reaches the core and the text', async () => {
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('warmup', '100'), TAG);
  await press('Step');
  const sn = await snap();
  assert.equal(sn.state.warmup, 100);
  assert.ok(sn.desc.includes('learning rate 0.01 reached after a linear warm-up of 100 steps'), sn.desc);
  await fig.page.evaluate((t) => document.querySelector(t).removeAttribute('warmup'), TAG);
});

test('the promises of the text: deep Post-Norm stalls where Pre-Norm trains; a zero gate fixes it; large SGD steps blow up without norms', () => {
  const p = REF.presets;
  assert.ok(
    p.deep.runs.post.final_loss > 0.9 * CHANCE &&
      p.deep.runs.pre.final_loss < 1e-3 &&
      p.deep.runs.pre_final.final_loss < 1e-3,
  );
  assert.ok(p.zeroGate.runs.post.final_loss < 1e-3);
  assert.ok(p.sgd.runs.none.final_loss > 1e3 && p.sgd.runs.pre_final.final_loss < 0.9 * CHANCE);
});

test('Pause stops training; leaving the screen pauses it; Reset starts over', async () => {
  await press('Deep, Adam');
  await press('Play');
  await fig.page.waitForFunction((t) => document.querySelector(t).state.step >= 3, TAG);
  await press('Pause');
  const a = (await snap()).state.step;
  await fig.page.waitForTimeout(300);
  const b = await snap();
  assert.equal(b.state.step, a, 'no step after Pause');
  assert.equal(b.state.playing, false);
  await press('Play');
  await fig.page.waitForFunction(([t, k]) => document.querySelector(t).state.step > k, [TAG, a]);
  await fig.page.evaluate(() => window.scrollTo(0, 0));
  await fig.page.waitForFunction((t) => !document.querySelector(t).state.playing, TAG);
  const c = (await snap()).state.step;
  await fig.page.waitForTimeout(300);
  assert.equal((await snap()).state.step, c, 'no step while off screen');
  await fig.page.locator(TAG).scrollIntoViewIfNeeded();
  await press('Reset');
  const d = await snap();
  assert.equal(d.state.step, 0);
  assert.ok(d.desc.endsWith('None has trained yet.'));
});

test('Compare: an unticked copy stops training and leaves the charts; the others go on', async () => {
  await press('Reset');
  await press('Step');
  const box = fig.page.locator(`${TAG} >> input[type=checkbox][value=post]`);
  await openSettings();
  await box.focus();
  await fig.page.keyboard.press('Space');
  await press('Step');
  let sn = await snap();
  const post = sn.state.variants.find((v) => v.placement === 'post');
  assert.equal(post.enabled, false);
  assert.equal(post.loss.length, 1, 'Post-Norm took no step while unticked');
  assert.ok(sn.state.variants.filter((v) => v.placement !== 'post').every((v) => v.loss.length === 2));
  assert.ok(sn.svg.includes('Post-Norm: not shown'));
  assert.ok(sn.desc.includes('Not shown and not trained: Post-Norm.'));
  assert.ok(!/Post-Norm (reaches|is stuck)/.test(sn.desc));
  await box.focus();
  await fig.page.keyboard.press('Space');
  await press('Step');
  sn = await snap();
  assert.deepEqual(
    sn.state.variants.map((v) => v.loss.length),
    [3, 2, 3, 3],
    'ticked again, it goes on from where it stopped',
  );
});

test('Compare while playing: the unticked copy stops at once, the others play on', async () => {
  await press('Reset');
  await press('Play');
  await fig.page.waitForFunction((t) => document.querySelector(t).state.step >= 2, TAG);
  await openSettings();
  await fig.page.locator(`${TAG} >> input[type=checkbox][value=none]`).click();
  const at = (await snap()).state.variants[0].loss.length;
  await fig.page.waitForFunction(([t, k]) => document.querySelector(t).state.step >= k + 6, [TAG, at]);
  await press('Pause');
  const sn = await snap();
  assert.equal(sn.state.variants[0].enabled, false);
  assert.ok(
    sn.state.variants[0].loss.length <= at + 3,
    `no norm stopped: ${sn.state.variants[0].loss.length} after ${at}`,
  );
  assert.ok(
    sn.state.variants.slice(1).every((v) => v.loss.length >= at + 5),
    'the others went on',
  );
  await fig.page.locator(`${TAG} >> input[type=checkbox][value=none]`).click();
});

test('a bad attribute is named, and the figure keeps working', async () => {
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('depth', '40'), TAG);
  let sn = await snap();
  assert.match(sn.error, /depth must be a number from 1 to 32 \(got "40"\)/);
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('depth', '3'), TAG);
  sn = await snap();
  assert.equal(sn.error, '');
  await press('Step');
  sn = await snap();
  assert.equal(sn.state.depth, 3);
  assert.ok(sn.state.variants.every((v) => v.loss.length === 1 && v.gradFirst.length === 4));
});
