// Defines the figures once. Custom elements upgrade by themselves whenever
// Material's instant navigation swaps in a page that contains them, so that is
// all the re-initialization there is; the subscription only carries the
// page's language to the figures after each navigation.
import { defineElements, elements } from './normlab/web/elements.js';

defineElements();

const setLanguage = () => {
  const lang = document.documentElement.lang || 'en';
  for (const el of document.querySelectorAll(Object.keys(elements).join(','))) el.setAttribute('lang', lang);
};
if (window.document$ && window.document$.subscribe)
  window.document$.subscribe(setLanguage); // Material's page observable
else setLanguage();
