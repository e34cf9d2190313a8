// The article page: defines the figures and switches every text and figure
// between English and Chinese together, remembering the choice.
import './start-core.js'; // first: the core loads while the figures are defined
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

const initial = stored() ?? (navigator.language?.toLowerCase().startsWith('zh') ? 'zh' : 'en');
setLanguage(initial, false);
for (const b of document.querySelectorAll('[data-set-lang]')) {
  b.addEventListener('click', () => setLanguage(b.dataset.setLang, true));
}

// The math is typeset when the page is built (scripts/build-web.mjs): no KaTeX runs here.
