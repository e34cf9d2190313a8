// The article page as a reader gets it: math typeset at build time (no TeX
// source, no KaTeX script), inline math no Tab stop, wide equations scroll
// inside themselves, Chinese text without stray spaces, nothing wider than a
// phone, and figures that keep their place while they load.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, setup, waitDrawn } from './helpers.mjs';
import { watchLayoutShift } from '../../scripts/layout-shift.mjs';

let env;
before(async () => {
  env = await setup();
});
after(() => env.close());

test('math is typeset when the page is built: no TeX source, no KaTeX script, no CSP violation', async () => {
  const requests = [];
  const { page, context, problems } = await openPage(env.browser, env.url + 'web/index.html', {}, (p) =>
    p.on('request', (r) => requests.push(r.url())),
  );
  const info = await page.evaluate(() => {
    const spans = [...document.querySelectorAll('.math')];
    // What a reader sees: the text of each formula without its MathML annotation.
    const visible = spans.map((s) => [...s.querySelectorAll('.katex-html')].map((k) => k.textContent).join(''));
    return {
      count: spans.length,
      typeset: spans.filter((s) => s.querySelector('.katex .katex-html') && s.querySelector('math annotation')).length,
      tex: visible.filter((t) => /\\[a-z]+|[_^]\{/.test(t)),
      styleAttrs: document.querySelectorAll('.math [style]').length,
      csp: window.__cspViolations,
    };
  });
  assert.ok(info.count >= 60, `formulas on the page: ${info.count}`);
  assert.equal(info.typeset, info.count, 'every formula is typeset HTML with MathML');
  assert.deepEqual(info.tex, [], 'no TeX source is visible');
  assert.deepEqual(info.csp, []);
  assert.ok(
    !requests.some((u) => /katex(\.min)?\.js/.test(u)),
    `no KaTeX script is fetched: ${requests.filter((u) => /katex/.test(u))}`,
  );
  assert.deepEqual(problems, []);
  await context.close();
});

test('inline math is no Tab stop; wide display equations scroll inside their box at 360 px', async () => {
  const { page, context } = await openPage(env.browser, env.url + 'web/index.html', {
    viewport: { width: 360, height: 740 },
    isMobile: true,
    hasTouch: true,
  });
  const r = await page.evaluate(() => {
    const inline = [...document.querySelectorAll('.math:not(.display)')];
    const scrollBoxes = inline.filter((s) => getComputedStyle(s).overflowX !== 'visible');
    const display = [...document.querySelectorAll('[data-lang="en"] .math.display')];
    const wide = display.filter((d) => d.scrollWidth > d.clientWidth + 1);
    return {
      inline: inline.length,
      scrollBoxes: scrollBoxes.length,
      wideScrolls: wide.every(
        (d) => getComputedStyle(d).overflowX === 'auto' && getComputedStyle(d).backgroundImage.includes('gradient'),
      ),
      docWidth: document.documentElement.scrollWidth,
    };
  });
  assert.ok(r.inline > 30);
  assert.equal(r.scrollBoxes, 0, 'inline formulas are not scroll containers (Chrome makes those Tab stops)');
  assert.ok(r.wideScrolls, 'a display formula wider than the column scrolls and shows a scroll shadow');
  assert.ok(r.docWidth <= 360, `the page is ${r.docWidth} px wide at a 360 px viewport`);
  // Tab through the opening sections: focus never lands on a formula.
  await page.evaluate(() => document.querySelector('[data-set-lang="zh"]').focus());
  for (let i = 0; i < 25; i++) {
    await page.keyboard.press('Tab');
    const onMath = await page.evaluate(() => !!document.activeElement?.closest?.('.math:not(.display)'));
    assert.equal(onMath, false, `Tab stop ${i} is an inline formula`);
  }
  await context.close();
});

test('Chinese prose: no space between two Chinese characters or after Chinese punctuation, a space between Chinese and Latin letters or digits', async () => {
  const { page, context } = await openPage(env.browser, env.url + 'web/index.html');
  await page.click('[data-set-lang="zh"]');
  const found = await page.evaluate(() => {
    const out = { stray: [], tight: [] };
    for (const block of document.querySelectorAll('[data-lang="zh"]')) {
      const copy = block.cloneNode(true);
      // a formula or code counts as one Latin letter, so the spacing around it is checked too
      for (const m of copy.querySelectorAll('.math, code, pre')) m.replaceWith('x');
      // rendered (off screen), so innerText shows what a reader sees: a line break inside a paragraph as a space
      copy.style.position = 'absolute';
      copy.style.left = '-10000px';
      copy.style.width = '700px';
      document.body.append(copy);
      const text = copy.innerText;
      copy.remove();
      for (const m of text.matchAll(
        /[\u4e00-\u9fff\u3001-\u3011\uff01-\uff1f][ \t]+[\u4e00-\u9fff]|[\u4e00-\u9fff][ \t]+[\u3001-\u3011\uff01-\uff1f]|[\u3001-\u3011\uff01-\uff1f][ \t]+[A-Za-z0-9(]/g,
      ))
        out.stray.push(text.slice(Math.max(0, m.index - 6), m.index + 8));
      for (const m of text.matchAll(/[\u4e00-\u9fff][A-Za-z0-9]|[A-Za-z0-9][\u4e00-\u9fff]/g))
        out.tight.push(text.slice(Math.max(0, m.index - 6), m.index + 8));
    }
    return out;
  });
  assert.deepEqual(found.stray, [], 'stray spaces between CJK characters');
  assert.deepEqual(found.tight, [], 'Chinese next to Latin letters or digits without a space');
  await context.close();
});

test('without JavaScript every figure is a picture with its description (with it, the pictures are never fetched: below)', async () => {
  const off = await env.browser.newContext({ javaScriptEnabled: false, viewport: { width: 1100, height: 900 } });
  const page = await off.newPage();
  await page.goto(env.url + 'web/index.html');
  const figures = await page.locator('figure.figure[id] > :first-child').all();
  assert.ok(figures.length >= 12);
  for (const f of figures) {
    await f.scrollIntoViewIfNeeded();
    const r = await f.evaluate(async (el) => {
      const img = el.querySelector('img.nl-fallback');
      if (img && !img.complete) await new Promise((res) => img.addEventListener('load', res, { once: true }));
      return {
        tag: el.localName,
        img: img ? img.naturalWidth : -1,
        alt: img?.alt ?? '',
        text: el.querySelector('p.nl-fallback')?.textContent ?? '',
        shown: el.getBoundingClientRect().height,
      };
    });
    assert.ok(r.text.length > 30, `${r.tag}: a description for readers without JavaScript`);
    // every figure, the code figure too, is drawn by normlab render (scripts/build-fallbacks.mjs)
    assert.ok(r.img > 100, `${r.tag}: its picture loads (${r.img} px wide)`);
    assert.equal(r.alt, r.text, `${r.tag}: the picture's alt text is the description`);
    assert.ok(r.shown > 50, `${r.tag} takes its place`);
  }
  await off.close();
});

/**
 * The article at `width` scrolled through figure by figure, each waited for until it has drawn: the layout
 * shifts (not after input) and the URLs requested while they start.
 */
async function scrollThrough(width, height, { onPage } = {}) {
  const context = await env.browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  onPage?.(page);
  await page.addInitScript(watchLayoutShift);
  await page.goto(env.url + 'web/index.html');
  // scroll through the whole page: each figure starts, loads and draws; then two frames for its layout shift
  for (const f of await page.locator('figure.figure[id] > :first-child').all()) {
    await f.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await f.evaluate(
      (el) =>
        new Promise((resolve) => {
          const c = () =>
            el.state
              ? Promise.resolve(el.updateComplete).then(() =>
                  requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
                )
              : setTimeout(c, 25);
          c();
        }),
    );
  }
  const { cls, shifts } = await page.evaluate(() => ({ cls: window.__cls, shifts: window.__shifts }));
  return { context, page, requests, cls, shifts };
}

// One scroll through the article at 1280 px checks three things a reader's visit depends on (three visits
// took ~45 s of the tier): no layout shift, no fallback picture fetched, no console warning or error.
test('every figure started (1280 px): cumulative layout shift < 0.01, the fallback pictures never fetched, no console warning or error', async () => {
  const logged = [];
  const { context, page, requests, cls, shifts } = await scrollThrough(1280, 900, {
    onPage: (p) => {
      p.on('console', (m) => ['warning', 'error'].includes(m.type()) && logged.push(`${m.type()}: ${m.text()}`));
      p.on('pageerror', (e) => logged.push(`pageerror: ${e.message}`));
    },
  });
  assert.ok(cls < 0.01, `layout shift ${cls.toFixed(4)}: ${shifts.join(' | ')}`);
  assert.deepEqual(
    requests.filter((u) => /\/figures\//.test(u)),
    [],
    'the pictures stay unfetched when the figures run',
  );
  // every figure element on the page (some are not the first child of a numbered figure) has drawn
  const tags = await page.evaluate(() => [
    ...new Set([...document.querySelectorAll('*')].map((e) => e.localName).filter((n) => n.startsWith('nl-'))),
  ]);
  assert.ok(tags.length >= 22, `figures on the page: ${tags.length}`);
  for (const tag of tags) await page.locator(tag).first().scrollIntoViewIfNeeded();
  await page.waitForFunction(
    (ts) => ts.every((t) => [...document.querySelectorAll(t)].every((e) => e.state && !e.state.error)),
    tags,
  );
  assert.deepEqual(logged, []);
  await context.close();
});

test('figures keep their place while they load (360 px): cumulative layout shift < 0.01', async () => {
  const { context, cls, shifts } = await scrollThrough(360, 740);
  assert.ok(cls < 0.01, `layout shift ${cls.toFixed(4)}: ${shifts.join(' | ')}`);
  await context.close();
});

// A phone reader goes straight to the first figure, which sits below the table of contents: the page scrolled to
// it at first paint, as bench/figures.mjs --cold loads it, moves less than 0.01 until a second after it drew.
test('a 360 px load scrolled to the first figure at first paint: layout shift < 0.01 until it is interactive', async () => {
  const context = await env.browser.newContext({
    viewport: { width: 360, height: 740 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  await page.addInitScript(watchLayoutShift);
  await page.addInitScript(() => {
    new PerformanceObserver((list, observer) => {
      if (!list.getEntriesByName('first-contentful-paint').length) return;
      observer.disconnect();
      const go = () => {
        const f = document.querySelector('figure.figure > :first-child');
        if (f) f.scrollIntoView();
        else setTimeout(go, 10);
      };
      go();
    }).observe({ type: 'paint', buffered: true });
  });
  await page.goto(env.url + 'web/index.html', { waitUntil: 'commit' });
  const first = page.locator('figure.figure > :first-child').first();
  await waitDrawn(first);
  await page.waitForTimeout(1000);
  const { cls, shifts, top } = await page.evaluate(() => ({
    cls: window.__cls,
    shifts: window.__shifts,
    top: document.querySelector('figure.figure > :first-child').getBoundingClientRect().top,
  }));
  assert.ok(top >= 0 && top < 200, `the first figure is in view at the top (${top.toFixed(0)} px)`);
  assert.ok(cls < 0.01, `layout shift ${cls.toFixed(4)}: ${shifts.join(' | ')}`);
  await context.close();
});

// The language switch works through web/page.js: without it there is no switch to press; with it the switch
// appears (after the first paint, page.css) in a header that keeps its height, with 44 px buttons on a phone.
test('the language switch: absent without JavaScript, shown with it in a header of the same height, 44 px on a phone', async () => {
  const measure = async (javaScriptEnabled, width) => {
    const context = await env.browser.newContext({ javaScriptEnabled, viewport: { width, height: 800 } });
    const page = await context.newPage();
    await page.goto(env.url + 'web/index.html');
    if (javaScriptEnabled) await page.locator('.lang-switch.live').waitFor();
    const r = await page.evaluate(() => ({
      header: document.querySelector('header.site').getBoundingClientRect().height,
      buttons: [...document.querySelectorAll('[data-set-lang]')].map((b) => {
        const r = b.getBoundingClientRect();
        return [Math.round(r.width), Math.round(r.height)];
      }),
    }));
    await context.close();
    return r;
  };
  for (const width of [1280, 360]) {
    const off = await measure(false, width);
    const on = await measure(true, width);
    assert.deepEqual(
      off.buttons,
      [
        [0, 0],
        [0, 0],
      ],
      `${width} px without JavaScript: no switch`,
    );
    assert.equal(on.header, off.header, `${width} px: the header's height does not change as the switch appears`);
    for (const [w, h] of on.buttons) {
      assert.ok(h >= 32 && w >= 44, `${width} px: a ${w} x ${h} px language button`);
      if (width === 360) assert.ok(h >= 44, `360 px: a ${w} x ${h} px language button (a phone's touch target)`);
    }
  }
});

test('the apparatus: numbered figures referenced from the text, a list of figures, citations with previews, references, print', async () => {
  const { page, context, problems } = await openPage(env.browser, env.url + 'web/index.html');
  const info = await page.evaluate(() => {
    const figs = [...document.querySelectorAll('figure.figure[id]')];
    const numberOf = new Map(figs.map((f, i) => [f.id, i + 1]));
    return {
      ids: figs.map((f) => f.id),
      captions: figs.map((f) => [
        f.querySelector('figcaption [data-lang=en] .fig-num')?.textContent,
        f.querySelector('figcaption [data-lang=zh] .fig-num')?.textContent,
      ]),
      refs: [...document.querySelectorAll('a.figref')].map((a) => {
        const n = numberOf.get(a.getAttribute('href').slice(1));
        const zh = a.closest('[data-lang]')?.dataset.lang === 'zh';
        return [a.textContent, n ? (zh ? `图 ${n}` : `Figure ${n}`) : 'missing'];
      }),
      list: [...document.querySelectorAll('#figures-list [data-lang=en] li a')].map((a) =>
        a.getAttribute('href').slice(1),
      ),
      references: [...document.querySelectorAll('ol.references > li')].map((li) => ({
        id: li.id,
        text: li.textContent.replace(/\s+/g, ' ').trim(),
        href: li.querySelector('a')?.href,
      })),
      cites: [...document.querySelectorAll('a.cite')].map((a) => ({
        href: a.getAttribute('href').slice(1),
        label: a.firstChild.textContent,
        preview: a.querySelector('.cite-preview')?.textContent,
        describedBy: a.getAttribute('aria-describedby'),
        en: a.closest('[data-lang]')?.dataset.lang === 'en',
      })),
      uniqueIds:
        new Set([...document.querySelectorAll('[id]')].map((e) => e.id)).size ===
        document.querySelectorAll('[id]').length,
    };
  });
  assert.ok(info.ids.length >= 14, `${info.ids.length} figures`);
  info.captions.forEach(([en, zh], i) =>
    assert.deepEqual([en, zh], [`Figure ${i + 1}.`, `图 ${i + 1}：`], `caption of ${info.ids[i]}`),
  );
  assert.ok(info.refs.length >= 4, 'the text refers to figures by number');
  for (const [text, expected] of info.refs) assert.equal(text, expected);
  assert.deepEqual(info.list, info.ids, 'the list of figures has every figure, in order');
  // every work the article names: the 32 entries listed in web/index.html, each cited from the text
  assert.ok(info.references.length >= 32, `${info.references.length} references`);
  for (const r of info.references) {
    assert.match(
      r.href,
      /^https:\/\/(arxiv\.org\/abs\/\d{4}\.\d{4,5}|papers\.nips\.cc\/paper_files\/\S+|jmlr\.org\/papers\/\S+|pytorch\.org\/docs\/stable\/\S+|github\.com\/[\w-]+\/[\w-]+)$/,
      `${r.id} links to the paper (or, for software, its documentation or code)`,
    );
    assert.ok(
      info.cites.some((c) => c.href === r.id),
      `${r.id} is cited from the text`,
    );
  }
  // numbered in the order the English text first cites them
  const firstCited = [...new Set(info.cites.filter((c) => c.en).map((c) => c.href))];
  assert.deepEqual(
    firstCited,
    info.references.map((r) => r.id).slice(0, firstCited.length),
    'numbered by first citation',
  );
  for (const id of ['ref-layernorm', 'ref-rmsnorm', 'ref-batchnorm', 'ref-dit'])
    assert.ok(
      info.cites.some((c) => c.href === id),
      `the article's own citation ${id} is cited`,
    );
  for (const c of info.cites) {
    const k = info.references.findIndex((r) => r.id === c.href);
    assert.ok(k >= 0, `${c.href} exists`);
    assert.equal(c.label, `[${k + 1}]`, `${c.href} is numbered by the list`);
    assert.equal(c.preview, info.references[k].text, `${c.href}: the preview is the reference`);
  }
  assert.ok(info.uniqueIds, 'ids stay unique with previews');
  // terms: defined on first use by a link to the glossary, which defines each one in both languages
  const terms = await page.evaluate(() => ({
    links: [...document.querySelectorAll('a.term')].map((a) => a.getAttribute('href').slice(1)),
    entries: [...document.querySelectorAll('dl.glossary dt')].map((dt) => ({
      id: dt.id,
      en: dt.nextElementSibling.querySelector('[data-lang=en]')?.textContent.trim(),
      zh: dt.nextElementSibling.querySelector('[data-lang=zh]')?.textContent.trim(),
    })),
  }));
  const ids = new Set(terms.entries.map((e) => e.id));
  assert.ok(terms.entries.length >= 6, `${terms.entries.length} glossary entries`);
  for (const l of terms.links) assert.ok(ids.has(l), `term link #${l} has a glossary entry`);
  for (const e of terms.entries) {
    assert.ok(e.en && e.zh && /[\u4e00-\u9fff]/.test(e.zh), `${e.id} is defined in English and Chinese`);
    assert.ok(
      terms.links.filter((l) => l === e.id).length >= 2,
      `${e.id} is linked where the text first uses it, in both languages`,
    );
  }
  // the preview shows on keyboard focus and not otherwise
  const cite = page.locator('a.cite:visible').first();
  const shown = () => cite.evaluate((a) => getComputedStyle(a.querySelector('.cite-preview')).display);
  assert.equal(await shown(), 'none');
  await cite.scrollIntoViewIfNeeded();
  await cite.focus(); // :focus-visible needs a keyboard focus: leave by Tab and come back
  await page.keyboard.press('Tab');
  await page.keyboard.press('Shift+Tab');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'cite');
  assert.equal(await shown(), 'block', 'keyboard focus shows the preview');
  // print: no table of contents, no language switch, no figure controls; figures keep their drawing
  await page.emulateMedia({ media: 'print' });
  const print = await page.evaluate(() => ({
    toc: getComputedStyle(document.querySelector('.toc')).display,
    header: getComputedStyle(document.querySelector('header.site')).display,
    controls: getComputedStyle(document.querySelector('nl-bar-compare').shadowRoot.querySelector('[part=controls]'))
      .display,
    view: getComputedStyle(document.querySelector('nl-bar-compare').shadowRoot.querySelector('[part=view]')).display,
  }));
  assert.deepEqual(print, { toc: 'none', header: 'none', controls: 'none', view: 'block' });
  assert.deepEqual(problems, []);
  await context.close();
});
