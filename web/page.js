// The article page: starts the core, loads each figure's code as its place
// nears the view, and switches every text and figure between English and
// Chinese together, remembering the choice.
import './start-core.js'; // first: the core downloads and compiles while the rest of the page arrives

// Every figure's place on the page (the element before its code has defined it).
const places = () => document.querySelectorAll('figure.figure > :first-child');

// One chunk per figure (scripts/build-web.mjs splits the bundle; the single-file site inlines them all).
const loading = new Map();
function defineFigure(tag) {
  if (!/^nl-[a-z0-9-]+$/.test(tag)) return Promise.reject(new TypeError(`not a figure: ${tag}`));
  if (!loading.has(tag)) loading.set(tag, import(`./define/${tag}.js`));
  return loading.get(tag);
}

/** Load and define figures now: `tags`, else every figure on the page (tests, tools, print). */
export function defineAll(tags = [...places()].map((el) => el.localName)) {
  return Promise.all([...new Set(tags)].map(defineFigure));
}

// A figure's code is fetched when its section comes within one and a half screens of the view, ahead
// of the reader. The section is watched, not the figure: an off-screen section is not laid out
// (content-visibility: auto in page.css), so a figure inside it has no box to intersect yet.
function watchPlaces() {
  const bySection = new Map();
  for (const el of places()) {
    const at = el.closest('section') ?? el;
    if (!bySection.has(at)) bySection.set(at, []);
    bySection.get(at).push(el.localName);
  }
  const sections = document.querySelectorAll('article > section');
  if (typeof IntersectionObserver === 'undefined') {
    for (const s of sections) s.classList.add('near');
    return void defineAll();
  }
  const observer = new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        if (!e.isIntersecting) continue;
        observer.unobserve(e.target);
        // near the view for good: rendered from now on like any element (page.css skips a section's
        // rendering only until then; a section skipped when scrolled to left its buttons unclickable)
        if (e.target.matches('article > section')) e.target.classList.add('near');
        if (bySection.has(e.target)) defineAll(bySection.get(e.target)).catch(() => {}); // a failed chunk leaves the figure's fallback text
      }
    },
    { rootMargin: '150% 0px' },
  );
  for (const at of new Set([...sections, ...bySection.keys()])) observer.observe(at);
}

const KEY = 'normlab-lang';

function stored() {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

function setLanguage(lang, remember) {
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  for (const node of document.querySelectorAll('[data-lang]')) node.hidden = node.dataset.lang !== lang;
  for (const fig of places()) fig.setAttribute('lang', lang);
  for (const b of document.querySelectorAll('[data-set-lang]'))
    b.setAttribute('aria-pressed', String(b.dataset.setLang === lang));
  document.title = lang === 'zh' ? '用图理解 normalization — normlab' : 'Normalization, figure by figure — normlab';
  if (remember) {
    try {
      localStorage.setItem(KEY, lang);
    } catch {
      /* private mode: the choice lasts for this visit */
    }
  }
}

// The article loads this script async: it may run before the page is parsed (the core has started
// above); the rest waits for the whole page.
function start() {
  const initial = stored() ?? (navigator.language?.toLowerCase().startsWith('zh') ? 'zh' : 'en');
  setLanguage(initial, false);
  for (const b of document.querySelectorAll('[data-set-lang]')) {
    b.addEventListener('click', () => setLanguage(b.dataset.setLang, true));
  }
  document.querySelector('.lang-switch')?.classList.add('live'); // shown once it works (page.css)
  watchPlaces();
  // A page printed before the reader scrolled: the figures still to load print as their pictures
  // (page.css), and load now for the next look.
  addEventListener('beforeprint', () => defineAll().catch(() => {}));
}
if (globalThis.document?.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
else if (globalThis.document) start();

// The math is typeset when the page is built (scripts/build-web.mjs): no KaTeX runs here.
