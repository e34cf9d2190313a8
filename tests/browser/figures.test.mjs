// The article's other figures in Chromium: each one's key numbers (the
// article's worked values) in `state` and on screen, keyboard operation and
// the language switch.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { figureHelpers, openPage, setAttributes, setup, shotsDir } from './helpers.mjs';

let env, page, problems;
before(async () => {
  env = await setup();
  ({ page, problems } = await openPage(env.browser, env.url + 'web/index.html'));
});
after(() => env.close());

const { ready, state } = figureHelpers(() => page);
const text = (tag, sel) => page.locator(tag).locator(sel).first().textContent();
const close = (a, b, tol, msg) => assert.ok(Math.abs(a - b) <= tol, `${msg ?? ''} ${a} vs ${b}`);
const set = (tag, attrs) => setAttributes(page, tag, attrs);

test('softmax sharpness: the page opens at scale 3; (1,0) gives (0.731, 0.269), scale 10 gives (0.99995, 0.00005), key 1 stays on top', async () => {
  const fig = await ready('nl-softmax-sharpness');
  let s = await state('nl-softmax-sharpness');
  close(s.weights[0], 0.95257, 5e-5, 'page instance at factor 3: 1/(1 + e⁻³)');
  await fig.getByRole('button', { name: 'Scale 1', exact: true }).click();
  s = await state('nl-softmax-sharpness');
  close(s.weights[0], 0.7311, 5e-4);
  close(s.weights[1], 0.2689, 5e-4);
  await fig.getByRole('button', { name: 'Scale 10' }).click();
  s = await state('nl-softmax-sharpness');
  close(s.weights[0], 0.99995, 5e-6);
  close(s.weights[1], 0.0000454, 1e-6);
  assert.equal(s.top, 0);
  assert.equal(s.gap, 10);
  assert.match(await text('nl-softmax-sharpness', '.numbers'), /0\.99995/);
  // keyboard: the slider moves the scale down by one step
  await fig.getByRole('slider', { name: 'Query scale' }).focus();
  await page.keyboard.press('ArrowLeft');
  close((await state('nl-softmax-sharpness')).factor, 9.9, 1e-9);
  // the curve is a sigmoid of the gap: its marker sits at (gap, weight of key 1)
  assert.equal(await fig.locator('circle.marker').count(), 1);
});

test('residual turn: 45 degrees for (1,0)+(0,1), about 5.7 for (10,0)+(0,1)', async () => {
  const fig = await ready('nl-residual-turn');
  const s = await state('nl-residual-turn');
  close(s.small.angle, 45, 1e-4);
  close(s.large.angle, 5.7106, 1e-3);
  assert.deepEqual(s.large.end, [10, 1]);
  assert.match(await fig.locator('svg').nth(0).textContent(), /45°/);
  assert.match(await fig.locator('svg').nth(1).textContent(), /5\.71°/);
  // u is a few pixels on the second panel's ±20 axis: that panel, and only it, repeats its tip magnified
  assert.equal(await fig.locator('svg').nth(0).locator('.inset').count(), 0);
  assert.equal(await fig.locator('svg').nth(1).locator('.inset').count(), 1);
  assert.equal(await fig.locator('svg').nth(1).locator('.inset .arrow').count(), 3);
  await fig.getByRole('slider').focus();
  await page.keyboard.press('End');
  close((await state('nl-residual-turn')).large.angle, 2.8624, 1e-3); // (20,0)+(0,1)
});

test('d_k scaling: unscaled spread about 4 at 16 and 8 at 64; scaled near 1; QK-Norm g/sqrt(d_k); reproducible draws', async () => {
  const fig = await ready('nl-dk-scaling');
  const s = await state('nl-dk-scaling');
  const at = (d) => s.series.dks.indexOf(d);
  // std of q·k for unit normals is sqrt(d_k); 500 draws: within 15 %
  close(s.series.raw[at(16)], 4, 0.6, 'raw 16');
  close(s.series.raw[at(64)], 8, 1.2, 'raw 64');
  for (const v of s.series.scaled) close(v, 1, 0.25, 'scaled');
  close(s.series.qk_norm[at(64)], 1, 0.15, 'QK-Norm g=8 at 64 (g/sqrt(d_k))');
  // at d_k = 1 cos is ±1: scores ±g, std g·sqrt(1 - m²) for the sample mean m
  // of the signs (|m| < 0.2 for 500 draws, so at most 2 % below g)
  const qk1 = s.series.qk_norm[at(1)];
  assert.ok(qk1 <= 8 + 1e-4 && qk1 >= 8 * Math.sqrt(1 - 0.04), `QK-Norm at d_k = 1: ${qk1}`);
  const again = s.std;
  await set('nl-dk-scaling', { seed: '1' });
  assert.equal(
    await page.evaluate(() => document.querySelector('nl-dk-scaling').state.std),
    again,
    'same seed, same draw',
  );
  await fig.getByRole('slider', { name: 'Head width d_k' }).focus();
  await page.keyboard.press('ArrowLeft');
  assert.equal((await state('nl-dk-scaling')).dk, 63);
  await page.keyboard.press('ArrowRight');
  await fig.getByRole('combobox', { name: 'Detail' }).selectOption('raw');
  const raw = await state('nl-dk-scaling');
  close(raw.std, 8, 1.2, 'raw at 64');
  await fig.getByRole('button', { name: 'New draw' }).click();
  assert.equal((await state('nl-dk-scaling')).seed, 2);
  await set('nl-dk-scaling', { seed: '1', mode: 'scaled' });
});

test('batch dependence: the article batch (1,10),(3,20),(5,30); training output depends on the companions, evaluation does not; the update step', async () => {
  const fig = await ready('nl-batch-dependence');
  // the article page still passes the old `example` attribute: set the figure's own defaults explicitly
  await set('nl-batch-dependence', { batch: '1,10,3,20,5,30', companions: '-3,16,2,4', chosen: '0', momentum: '0.1' });
  await fig.getByRole('button', { name: 'Reset running statistics' }).click();
  let s = await state('nl-batch-dependence');
  // feature 1 over (1,3,5): mean 3, biased variance 8/3 -> (-2, 0, 2)/sqrt(8/3) = (-1.2247, 0, 1.2247); feature 2 alike
  const k = 2 / Math.sqrt(8 / 3);
  [
    [-k, -k],
    [0, 0],
    [k, k],
  ].forEach((row, i) => row.forEach((v, f) => close(s.train[0][i][f], v, 1e-4, `train row ${i} feature ${f}`)));
  // batch 2 = (1,10), (-3,16), (2,4): feature 1 mean 0, variance 14/3 -> 1/sqrt(14/3) = 0.46291; feature 2 mean 10 -> 0
  close(s.chosenTrain[1][0], 0.46291, 1e-4);
  close(s.chosenTrain[1][1], 0, 1e-6);
  assert.deepEqual(s.chosenEval[0], s.chosenEval[1], 'eval outputs are the same');
  // before any update the running statistics are mean 0, variance 1: evaluation returns about the raw input
  close(s.chosenEval[0][0], 1, 1e-4);
  close(s.chosenEval[0][1], 10, 1e-3);
  assert.match(
    await fig.locator('[part=description]').textContent(),
    /start at mean \(0, 0\) and variance \(1, 1\).*about the raw input: \(1, 10\)/,
  );
  close(s.batchStats[0].mean[1], 20, 1e-5);
  close(s.batchStats[0].var[0], 8 / 3, 1e-5);
  close(s.batchStats[0].unbiased[1], 100, 1e-4);
  const domain = s.domain;
  await fig.getByRole('button', { name: 'Training step on batch 1' }).click();
  s = await state('nl-batch-dependence');
  assert.equal(s.steps, 1);
  close(s.running.mean[1], 2, 1e-5, 'running mean = 0.9 * 0 + 0.1 * 20');
  close(s.running.var[1], 0.9 + 0.1 * 100, 1e-4, 'unbiased variance of (10,20,30) is 100');
  close(s.chosenEval[0][0], 0.7 / Math.sqrt(1.3 + 1e-5), 1e-4);
  assert.deepEqual(s.chosenEval[0], s.chosenEval[1]);
  assert.deepEqual(s.domain, domain, 'a training step does not rescale the axis');
  await fig.getByRole('button', { name: 'Reset running statistics' }).click();
  assert.equal((await state('nl-batch-dependence')).steps, 0);
});

test('batch dependence at 360 and 1280 px: every label whole inside its picture, none cut by the frame of the example, the table unscrolled', async () => {
  const fig = await ready('nl-batch-dependence');
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(150); // the redraw at the new width
    const bad = await fig.evaluate((f) => {
      const out = [];
      const svg = f.shadowRoot.querySelector('svg'),
        sb = svg.getBoundingClientRect();
      const frames = [...svg.querySelectorAll('rect.chosen-frame')].map((x) => x.getBoundingClientRect());
      for (const t of svg.querySelectorAll('text')) {
        const b = t.getBoundingClientRect();
        if (b.left < sb.left - 0.5 || b.right > sb.right + 0.5 || b.top < sb.top - 0.5 || b.bottom > sb.bottom + 0.5)
          out.push(`"${t.textContent}" outside the picture`);
        for (const fr of frames)
          for (const edge of [fr.top + 1, fr.bottom - 1])
            if (edge > b.top + 1 && edge < b.bottom - 1 && b.right > fr.left && b.left < fr.right)
              out.push(`"${t.textContent}" cut by the frame`);
      }
      const wrap = f.shadowRoot.querySelector('.table-wrap');
      if (wrap.scrollWidth > wrap.clientWidth + 1) out.push('the table scrolls sideways');
      return { out, labels: svg.querySelectorAll('text').length, frames: frames.length };
    });
    assert.ok(bad.labels >= 24 && bad.frames === 4, `${width} px: ${bad.labels} labels, ${bad.frames} frames`);
    assert.deepEqual(bad.out, [], `${width} px`);
  }
  await page.setViewportSize({ width: 1100, height: 900 });
});

test('spectral: diag(3,1) has singular values 3 and 1; power iteration converges to 3; normalized axes 1 and 1/3', async () => {
  const fig = await ready('nl-spectral');
  await set('nl-spectral', { matrix: '3,0,0,1', steps: '1' });
  let s = await state('nl-spectral');
  close(s.singular[0], 3, 1e-5);
  close(s.singular[1], 1, 1e-5);
  assert.ok(s.sigma < 2.99, `one step is not converged yet: ${s.sigma}`);
  assert.match(await text('nl-spectral', '.description'), /Not converged yet/); // W/σ reaches 3/√8.2 = 1.048
  for (let i = 0; i < 5; i++) await fig.getByRole('button', { name: 'Next step' }).click();
  s = await state('nl-spectral');
  assert.equal(s.steps, 6);
  close(s.sigma, 3, 1e-4);
  close(s.normalizedSingular[0], 1, 1e-4);
  close(s.normalizedSingular[1], 1 / 3, 1e-4);
  assert.match(await text('nl-spectral', '.readout'), /σ ≈ 3/);
  assert.match(await text('nl-spectral', '.description'), /Converged/);
});

test('L2 Jacobian: delta (1,0) at x (3,4) splits into (0.36,0.48) along and (0.64,-0.48) across; J delta = across/5, gain 1/5', async () => {
  const fig = await ready('nl-l2-jacobian');
  await set('nl-l2-jacobian', { x: '3,4', delta: '1,0' });
  const s = await state('nl-l2-jacobian');
  [0.36, 0.48].forEach((v, i) => close(s.along[i], v, 1e-6));
  [0.64, -0.48].forEach((v, i) => close(s.across[i], v, 1e-6));
  [0.128, -0.096].forEach((v, i) => close(s.dy[i], v, 1e-6));
  close(s.norm, 5, 1e-6);
  close(s.gain, 0.2, 1e-6);
  // keyboard: the δ handle moves up by 0.1
  await fig.getByRole('application', { name: /^δ = / }).focus();
  await page.keyboard.press('ArrowUp');
  close((await state('nl-l2-jacobian')).delta[1], 0.1, 1e-9);
});

test('Pre/Post-Norm: Post-Norm and the final norm hold the stream at sqrt(16) = 4; Pre-Norm grows with depth', async () => {
  const fig = await ready('nl-prepost-norm');
  const s = await state('nl-prepost-norm');
  assert.equal(s.layers, 12);
  assert.equal(s.pre.norms.length, 13);
  for (const v of s.post.norms.slice(1)) close(v, 4, 1e-3, 'Post-Norm');
  close(s.finalNorm, 4, 1e-3, 'final norm');
  assert.ok(s.pre.norms[12] > 2 * s.pre.norms[0], 'Pre-Norm grows');
  assert.match(await text('nl-prepost-norm', '.description'), /grows from norm/);
  await fig.getByRole('combobox', { name: 'Normalization N' }).selectOption('rms_norm');
  assert.equal((await state('nl-prepost-norm')).norm, 'rms_norm');
  await fig.getByRole('combobox', { name: 'Normalization N' }).selectOption('layer_norm');
  await fig.getByRole('slider', { name: 'Layers L' }).focus();
  await page.keyboard.press('End');
  assert.equal((await state('nl-prepost-norm')).layers, 32);
  await page.keyboard.press('Home');
  assert.equal((await state('nl-prepost-norm')).layers, 1);
  await set('nl-prepost-norm', { layers: '12' });
});

test('whitening: z-scored variances 1 with the correlation kept; whitened covariance is the identity', async () => {
  const fig = await ready('nl-whitening');
  const s = await state('nl-whitening');
  const [a, b, , d] = s.covariance.zscore;
  close(a, 1, 1e-4);
  close(d, 1, 1e-4);
  assert.ok(Math.abs(b) > 0.5, `correlation kept: ${b}`);
  const w = s.covariance.whitened;
  close(w[0], 1, 1e-3);
  close(w[3], 1, 1e-3);
  close(w[1], 0, 1e-3);
  await fig.getByRole('slider').focus();
  await page.keyboard.press('Home');
  assert.equal((await state('nl-whitening')).mixing, -1.5);
});

test('the language switch reaches every figure; Chinese screenshots; no page errors', async () => {
  await page.click('[data-set-lang="zh"]');
  for (const tag of [
    'nl-softmax-sharpness',
    'nl-residual-turn',
    'nl-dk-scaling',
    'nl-batch-dependence',
    'nl-adaln',
    'nl-spectral',
    'nl-l2-jacobian',
    'nl-prepost-norm',
    'nl-whitening',
  ]) {
    await ready(tag);
    assert.equal(await page.evaluate((t) => document.querySelector(t).getAttribute('lang'), tag), 'zh');
    assert.match(await text(tag, '.description'), /[\u4e00-\u9fff]/, `${tag} describes itself in Chinese`);
    await page.locator(tag).screenshot({ path: join(shotsDir, `${tag}-zh.png`) });
  }
  await page.click('[data-set-lang="en"]');
  assert.deepEqual(problems, []);
  assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
});

test('figures start their work only when they scroll into view', async () => {
  const fresh = await env.browser.newPage({ viewport: { width: 1100, height: 700 } });
  await fresh.goto(env.url + 'web/index.html');
  await fresh.locator('nl-softmax-sharpness').scrollIntoViewIfNeeded();
  await fresh.waitForFunction(() => document.querySelector('nl-softmax-sharpness')?.state);
  assert.equal(
    // no state: not started (on the article it is not even defined yet: its code loads near the view)
    await fresh.evaluate(() => document.querySelector('nl-whitening').state ?? null),
    null,
    'far below the fold: not started',
  );
  await fresh.locator('nl-whitening').scrollIntoViewIfNeeded();
  await fresh.waitForFunction(() => document.querySelector('nl-whitening')?.state);
  await fresh.close();
});
