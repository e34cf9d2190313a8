// The article page loads fast (issue 24, item 6): a figure's code arrives only
// as its section nears the view (one chunk per figure, web/page.js), and
// sections out of view are not laid out (content-visibility: auto in
// page.css) — without breaking the table of contents' jumps, find-in-page,
// the language switch or print.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { FIGURE_TAGS, openPage, setup } from './helpers.mjs';

let env;
before(async () => {
  env = await setup();
});
after(() => env.close());

// The figure a chunk defines: dist/page/<tag>-<hash>.js (shared chunks are chunk-<hash>.js).
const chunkTag = (u) => new URL(u).pathname.match(/^\/dist\/page\/(nl-[a-z0-9-]+)-[A-Z0-9]+\.js$/)?.[1];

const drawn = (page, tag) =>
  page.waitForFunction((t) => document.querySelector(t)?.state && !document.querySelector(t).state.error, tag);

test('the first screen loads only the code of the figures near it; scrolling to the end loads and draws every figure', async () => {
  const requests = [];
  const { page, context, problems } = await openPage(env.browser, 'about:blank');
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(env.url + 'web/index.html');
  const first = await page.evaluate(() => document.querySelector('figure.figure > :first-child').localName);
  await drawn(page, first);
  await page.waitForTimeout(500); // whatever the first screen asks for has been asked for
  // The figures whose section starts within the view and one and a half screens below it: the
  // ones the page is to load (rootMargin 150% in web/page.js), read from the layout.
  const near = await page.evaluate(() =>
    [...document.querySelectorAll('figure.figure > :first-child')]
      .filter((el) => el.closest('section').getBoundingClientRect().top < innerHeight * 2.5)
      .map((el) => el.localName),
  );
  const early = requests.map(chunkTag).filter(Boolean);
  assert.ok(near.includes(first) && near.length < FIGURE_TAGS.length / 4, `near the first screen: ${near}`);
  assert.deepEqual([...early].sort(), [...new Set(near)].sort(), 'figure chunks fetched before scrolling');
  const undefinedTags = await page.evaluate(
    (tags) => tags.filter((t) => !customElements.get(t)),
    FIGURE_TAGS.filter((t) => !near.includes(t)),
  );
  assert.equal(undefinedTags.length, FIGURE_TAGS.length - new Set(near).size, 'the other figures are not defined');

  // Scroll to the end, a screen at a time, as a reader does: every figure loads its code and draws.
  // Each screen waits until the figures on it have drawn.
  await page.evaluate(async () => {
    const shown = () =>
      [...document.querySelectorAll('figure.figure > :first-child')].filter((el) => {
        const r = el.getBoundingClientRect();
        return r.bottom > 0 && r.top < innerHeight;
      });
    for (;;) {
      const t0 = performance.now();
      while (!shown().every((el) => el.state) && performance.now() - t0 < 20000)
        await new Promise((r) => setTimeout(r, 25));
      if (scrollY + innerHeight >= document.documentElement.scrollHeight - 1) break;
      scrollBy(0, innerHeight * 0.8);
    }
  });
  const all = requests.map(chunkTag).filter(Boolean);
  assert.deepEqual([...all].sort(), [...FIGURE_TAGS].sort(), 'each figure chunk is fetched once');
  const states = await page.evaluate(() =>
    [...document.querySelectorAll('figure.figure > :first-child')].map((el) => [el.localName, !!el.state]),
  );
  assert.equal(states.length, FIGURE_TAGS.length);
  for (const [tag, has] of states) assert.ok(has, `${tag} computed a state`);
  assert.deepEqual(problems, []);
  await context.close();
});

for (const lang of ['en', 'zh'])
  test(`the table of contents' jumps land and stay put while figures load (${lang})`, async () => {
    const { page, context, problems } = await openPage(env.browser, env.url + 'web/index.html', {
      viewport: { width: 1100, height: 800 },
    });
    if (lang === 'zh') await page.click('[data-set-lang="zh"]');
    // the last section (the page cannot scroll its top up to the header) and one in the middle
    for (const id of ['references', 'attention', 'scale']) {
      await page.click(`nav.toc a[href="#${id}"] [data-lang="${lang}"]`);
      const where = () =>
        page.evaluate((id) => {
          const s = document.getElementById(id);
          const heading = [...s.querySelectorAll('h2')].find((x) => x.getClientRects().length);
          const r = heading.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + 4, r.top + r.height / 2);
          return {
            top: r.top,
            header: document.querySelector('header.site').getBoundingClientRect().bottom,
            atBottom: scrollY + innerHeight >= document.documentElement.scrollHeight - 1,
            headingShown: !!hit && heading.contains(hit),
            headingText: heading.innerText,
          };
        }, id);
      await page.waitForTimeout(300);
      const landed = await where();
      // the figures on screen load and draw; nothing may move the heading meanwhile
      await page.waitForFunction(() =>
        [...document.querySelectorAll('figure.figure > :first-child')]
          .filter((el) => {
            const r = el.getBoundingClientRect();
            return r.bottom > 0 && r.top < innerHeight;
          })
          .every((el) => el.state),
      );
      await page.waitForTimeout(300);
      const settled = await where();
      assert.ok(settled.headingShown, `#${id}: its heading "${settled.headingText}" is on screen`);
      // under the sticky header, near the top (where it landed before sections skipped their layout:
      // 120 px, the page's scroll padding and the sections' scroll margin), unless the page ends first
      assert.ok(
        settled.atBottom ? settled.top > settled.header && settled.top < 800 : Math.abs(settled.top - 120) <= 2,
        `#${id}: the heading lands under the header (top ${settled.top}, header ${settled.header})`,
      );
      assert.ok(Math.abs(settled.top - landed.top) <= 1, `#${id} stays put: ${landed.top} → ${settled.top}`);
      assert.equal(/[\u4e00-\u9fff]/.test(settled.headingText), lang === 'zh', `#${id}: heading in ${lang}`);
    }
    assert.deepEqual(problems, []);
    await context.close();
  });

test('find-in-page reaches text in sections not yet rendered; print renders every section', async () => {
  const { page, context, problems } = await openPage(env.browser, env.url + 'web/index.html');
  const found = await page.evaluate(() => {
    const target = document.getElementById('ref-preln');
    const before = target.closest('section').getBoundingClientRect().top > innerHeight * 3; // far off screen
    const hit = window.find('On Layer Normalization in the Transformer Architecture');
    const sel = getSelection();
    return { before, hit, inTarget: target.contains(sel.anchorNode) };
  });
  assert.ok(found.before, 'the reference list starts far below the first screen');
  assert.ok(found.hit && found.inTarget, `find reaches the reference list: ${JSON.stringify(found)}`);
  await page.emulateMedia({ media: 'print' });
  const print = await page.evaluate(() =>
    [...document.querySelectorAll('article > section')].map((s) => getComputedStyle(s).contentVisibility),
  );
  assert.ok(
    print.every((v) => v === 'visible'),
    `print lays out every section: ${print}`,
  );
  // a figure whose code has not arrived prints as its picture
  const undefinedFig = await page.evaluate(() => {
    const el = document.querySelector('figure.figure > :not(:defined)');
    return el ? getComputedStyle(el.querySelector('img.nl-fallback')).display : null;
  });
  assert.equal(undefinedFig, 'block');
  assert.deepEqual(problems, []);
  await context.close();
});
