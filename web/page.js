// The article page: defines the figures and switches every text and figure
// between English and Chinese together, remembering the choice.
import { core } from './start-core.js'; // first: the core loads while the figures are defined
import './auto.js';
import { elements } from './elements.js';

const FIGURES = Object.keys(elements).join(',');

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
  for (const fig of document.querySelectorAll(FIGURES)) fig.setAttribute('lang', lang);
  for (const b of document.querySelectorAll('[data-set-lang]')) b.setAttribute('aria-pressed', String(b.dataset.setLang === lang));
  document.title = lang === 'zh' ? '用图理解 normalization — normlab' : 'Normalization, figure by figure — normlab';
  if (remember) {
    try {
      localStorage.setItem(KEY, lang);
    } catch {
      /* private mode: the choice lasts for this visit */
    }
  }
}

const initial = stored() ?? (navigator.language?.toLowerCase().startsWith('zh') ? 'zh' : 'en');
setLanguage(initial, false);
for (const b of document.querySelectorAll('[data-set-lang]')) {
  b.addEventListener('click', () => setLanguage(b.dataset.setLang, true));
}

// Typeset the math with KaTeX (shipped in dist/vendor, no CDN). It builds DOM
// nodes and sets styles through the CSSOM, so the strict CSP holds; without it
// the TeX source stays readable. It starts once the core is ready (its 260 KB
// would otherwise hold the main thread while the first figures wait).
const afterCore = () => new Promise((resolve) => {
  const go = () => requestAnimationFrame(() => setTimeout(resolve, 0));
  core.then(go, go);
});
// KaTeX's stylesheet comes with it (not in the page head, where it would hold
// back the page script until it loaded).
function katexStyles() {
  return new Promise((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = new URL('../dist/vendor/katex/katex.min.css', import.meta.url).href;
    link.addEventListener('load', resolve);
    link.addEventListener('error', resolve);
    document.head.append(link);
  });
}
afterCore()
  .then(() => Promise.all([import('../dist/vendor/katex.js'), katexStyles()]))
  .then(([{ default: katex }]) => {
    for (const node of document.querySelectorAll('.math')) {
      const tex = node.textContent;
      node.dataset.tex = tex;
      katex.render(tex, node, { displayMode: node.classList.contains('display'), throwOnError: false, output: 'htmlAndMathml' });
    }
  }, () => {});
