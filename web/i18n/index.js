// String catalogs by language. Each figure carries its own English and Chinese
// strings (`NlName.strings = { en: {...}, zh: {...} }` at the end of its
// module; `static catalog` names its section), so a page bundles only the
// strings of the figures it imports; en.js and zh.js hold the strings every figure shares (`common`).
// registerLocale adds another language, or overrides one, without forking.
import en from './en.js';
import zh from './zh.js';

export const catalogs = { en, zh };
const numberLocales = { en: 'en-US', zh: 'zh-CN' };
const listeners = new Set();

/** The languages figures can speak now. */
export const languages = () => Object.keys(catalogs);

/**
 * Add (or replace) a language: `catalog` is { common: {...}, barCompare: {...},
 * ... }, a section per figure named by the figure's `static catalog`
 * (collectCatalog('en', figureClasses) gives every English string in this
 * shape); a key it lacks falls back to the figure's own strings in that
 * language, then to English. Figures whose `lang` (or nearest ancestor's) is `lang`, or a
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

/**
 * One string: in `lang`, the catalog's section (a registered language overrides
 * a figure's own strings), the figure's own strings (`own`, its class's
 * `strings`), then the catalog's `common`; failing all, the same in English.
 * undefined when no table has `key`.
 */
export function lookup(lang, section, own, key) {
  const cat = catalogs[lang] ?? catalogs.en;
  return (
    cat[section]?.[key] ??
    own?.[lang]?.[key] ??
    cat.common?.[key] ??
    catalogs.en[section]?.[key] ??
    own?.en?.[key] ??
    catalogs.en.common?.[key]
  );
}

/**
 * Every string of `lang` as one catalog ({ common, barCompare, ... }): the
 * shared ones and those of each figure class given (normlab/elements'
 * `elements`), a registered language's own sections before a figure's. A
 * start for a translation, or for checking one.
 */
export function collectCatalog(lang, figureClasses = []) {
  const cat = catalogs[lang] ?? {};
  const out = { ...cat };
  for (const Cls of figureClasses) {
    const section = Cls.catalog;
    if (!section) continue;
    const own = Cls.strings?.[lang];
    if (own || cat[section]) out[section] = { ...own, ...cat[section] };
  }
  return out;
}
