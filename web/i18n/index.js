import en from './en.js';
import zh from './zh.js';

/** String catalogs by language, then by figure. */
export const catalogs = { en, zh };
export const languages = Object.keys(catalogs);
