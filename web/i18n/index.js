// String catalogs by language, then by figure. English and Chinese ship with
// the package; registerLocale adds another language without forking it.
import en from './en.js';
import zh from './zh.js';

export const catalogs = { en, zh };
const numberLocales = { en: 'en-US', zh: 'zh-CN' };
const listeners = new Set();

/** The languages figures can speak now. */
export const languages = () => Object.keys(catalogs);

/**
 * Add (or replace) a language: `catalog` has the shape of web/i18n/en.js
 * ({ common: {...}, barCompare: {...}, ... }); a key it lacks falls back to
 * English. Figures whose `lang` (or nearest ancestor's) is `lang`, or a
 * regional form of it ("fr-CA" for "fr"), switch at once. Numbers are
 * formatted for `numberLocale` (default: `lang`).
 */
export function registerLocale(lang, catalog, { numberLocale } = {}) {
  if (typeof lang !== 'string' || !/^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i.test(lang)) {
    throw new TypeError(
      `registerLocale: lang must be a language tag like "fr" or "pt-BR" (got ${JSON.stringify(String(lang)).slice(0, 40)})`,
    );
  }
  if (!catalog || typeof catalog !== 'object')
    throw new TypeError('registerLocale: catalog must be an object of figure sections');
  const key = lang.toLowerCase();
  catalogs[key] = catalog;
  numberLocales[key] = numberLocale ?? lang;
  for (const f of listeners) f(key);
}

/** The catalog a language tag uses: itself, else its primary language, else English. */
export function resolveLanguage(tag) {
  const t = String(tag || 'en').toLowerCase();
  if (catalogs[t]) return t;
  const base = t.split('-')[0];
  return catalogs[base] ? base : 'en';
}

/** The Intl locale numbers are written in for a resolved language. */
export const numberLocale = (lang) => numberLocales[lang] ?? 'en-US';

/** Called with a language when it is registered (figures re-render). */
export function onLocale(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}
