// MkDocs Material: load once with `extra_javascript` (type module). Custom
// elements upgrade by themselves whenever Material's instant navigation swaps
// in a page that contains them, so defining them once is all the
// re-initialization needed; the subscription below only restores the page
// language on every navigation.
import { defineElements, elements } from '../../../web/elements.js'; // in a real site: a copy of normlab's web/ folder, or a CDN-free path you host

defineElements();

const setLanguage = () => {
  const lang = document.documentElement.lang?.startsWith('zh') ? 'zh' : 'en';
  for (const el of document.querySelectorAll(Object.keys(elements).join(','))) el.setAttribute('lang', lang);
};
if (window.document$?.subscribe) window.document$.subscribe(setLanguage); // Material's navigation observable
else setLanguage();
