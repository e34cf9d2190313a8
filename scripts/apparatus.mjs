// The article page's publication apparatus, applied by scripts/build-web.mjs
// to the page source: figure numbers, references to figures, numbered
// citations with previews, and the list of figures.

/**
 * The publication apparatus, written into the built page: figures numbered in
 * the order they appear ("Figure 3." / "图 3：" at the start of each caption),
 * references to them in the text (`<a href="#fig-x">Figure</a>` or `…>图</a>`
 * become "Figure 3" / "图 3"), citations (`<a class="cite" href="#ref-x"></a>`)
 * numbered by the references list with a preview of the work that shows on
 * hover and keyboard focus, and a list of figures (each figure's own name,
 * `titleOf(tag, lang)`) before the references.
 * A reference to a figure or work that does not exist stops the build.
 */
export function apparatus(html, titleOf = () => null) {
  const ids = [...html.matchAll(/<figure class="figure" id="(fig-[\w-]+)">/g)].map((m) => m[1]);
  const number = new Map(ids.map((id, i) => [id, i + 1]));
  const captions = new Map();
  html = html.replace(
    /(<figure class="figure" id="(fig-[\w-]+)">[\s\S]*?<figcaption>\s*)<span data-lang="en">([\s\S]*?)<\/span>(\s*)<span data-lang="zh" hidden>([\s\S]*?)<\/span>/g,
    (_, head, id, en, gap, zh) => {
      const n = number.get(id);
      captions.set(id, { en, zh });
      return `${head}<span data-lang="en"><b class="fig-num">Figure ${n}.</b> ${en}</span>${gap}<span data-lang="zh" hidden><b class="fig-num">图 ${n}：</b>${zh}</span>`;
    },
  );
  html = html.replace(/<a href="#(fig-[\w-]+)">(Figure|图)<\/a>/g, (_, id, word) => {
    if (!number.has(id)) throw new Error(`build-web: a reference to a missing figure #${id}`);
    return `<a class="figref" href="#${id}">${word} ${number.get(id)}</a>`;
  });
  // citations, numbered in the order of the references list
  const refs = [...html.matchAll(/<li id="(ref-[\w-]+)">([\s\S]*?)<\/li>/g)].map((m) => [m[1], m[2]]);
  const refNumber = new Map(refs.map(([id], i) => [id, i + 1]));
  const plain = (s) =>
    s
      .replace(/<[^>]+>/g, '')
      .replace(/\s+/g, ' ')
      .trim();
  let k = 0; // one preview id per citation: a work cited twice keeps ids unique
  html = html.replace(/<a class="cite" href="#(ref-[\w-]+)"><\/a>/g, (_, id) => {
    if (!refNumber.has(id)) throw new Error(`build-web: a citation of a missing reference #${id}`);
    const text = plain(refs[refNumber.get(id) - 1][1]);
    const pid = `${id}-preview-${++k}`;
    return `<a class="cite" href="#${id}" aria-describedby="${pid}">[${refNumber.get(id)}]<span class="cite-preview" id="${pid}" role="tooltip">${text}</span></a>`;
  });
  // the list of figures
  const firstSentence = (s, lang) => {
    const t = plain(s);
    const m = lang === 'zh' ? /^.*?[。！？]/.exec(t) : /^.*?[.!?](?=\s|$)/.exec(t);
    return (m ? m[0] : t).replace(/&/g, '&amp;');
  };
  const tagOf = new Map(
    [...html.matchAll(/<figure class="figure" id="(fig-[\w-]+)">\s*<(nl-[\w-]+)/g)].map((m) => [m[1], m[2]]),
  );
  const title = (id, lang) => titleOf(tagOf.get(id), lang) ?? firstSentence(captions.get(id)?.[lang] ?? '', lang);
  const list = (lang) =>
    ids
      .map(
        (id) =>
          `<li><a href="#${id}">${lang === 'zh' ? `图 ${number.get(id)}` : `Figure ${number.get(id)}`}</a>${lang === 'zh' ? '　' : ' — '}${title(id, lang)}</li>`,
      )
      .join('\n            ');
  html = html.replace(
    '<!-- list of figures -->',
    `<div data-lang="en">
          <h2>Figures</h2>
          <ul class="figure-list">
            ${list('en')}
          </ul>
        </div>
        <div data-lang="zh" hidden>
          <h2>图目录</h2>
          <ul class="figure-list">
            ${list('zh')}
          </ul>
        </div>`,
  );
  return html;
}
