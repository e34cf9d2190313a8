// The figures' light and dark palettes, and which one a figure uses.
//
// A figure follows, in order: its own `theme` attribute ("light" | "dark";
// "auto" or none goes on), the theme its site marks on an ancestor by the
// conventions of common docs frameworks, a single `color-scheme` the page
// sets, and last the reader's system setting (prefers-color-scheme). A site's
// toggle is followed live: one MutationObserver watches <html> and <body>.
// Where nothing is marked, a page that paints its own background gets the
// theme of that background.
// Nothing here touches the DOM at import time.

/** The palette by role: a colour means one thing in every figure. */
export const LIGHT = `
  --nl-fg: #1d2330; --nl-bg: #ffffff; --nl-muted: #5b6475; --nl-grid: #d9dde5;
  --nl-input: #1c64b0;      /* the input x, data points */
  --nl-reference: #6f7682;  /* reference, original, "before" (gray) */
  --nl-l2: #0a7d61;         /* L2 normalization */
  --nl-layer-norm: #c2410c; /* LayerNorm */
  --nl-rms-norm: #9b3a87;   /* RMSNorm */
  --nl-batch-norm: #5b7a06; /* BatchNorm */
  --nl-chosen: #1d2330;     /* the element the reader chose */
  --nl-group: #9a6200;      /* members of the chosen element's group */
  --nl-update: #6741d9;     /* an update, a step, δ */
  --nl-focus: #1c6dd0; --nl-error: #b3261e;`;

export const DARK = `
    --nl-fg: #e6e9ef; --nl-bg: #161a22; --nl-muted: #a3abba; --nl-grid: #394152;
    --nl-input: #74b3ff; --nl-reference: #8e96a4; --nl-l2: #38d0a5; --nl-layer-norm: #ff9152;
    --nl-rms-norm: #f08ad2; --nl-batch-norm: #a8d65c; --nl-chosen: #ffffff; --nl-group: #ffc53d;
    --nl-update: #b197fc; --nl-focus: #7cb4ff; --nl-error: #ff8a80;`;

/**
 * How docs frameworks mark their theme on <html>, <body> or a wrapper, as
 * [attribute, value -> 'light' | 'dark']. A value not listed (e.g. "auto")
 * says nothing and the search goes on.
 */
const MARKERS = [
  // Docusaurus, Furo (on <body>), pydata-sphinx-theme, Starlight, Sphinx Book Theme
  ['data-theme', { light: 'light', dark: 'dark' }],
  // MkDocs Material: palette schemes "default" and "slate"
  ['data-md-color-scheme', { default: 'light', slate: 'dark' }],
  // Bootstrap 5.3
  ['data-bs-theme', { light: 'light', dark: 'dark' }],
  // GitHub Primer
  ['data-color-mode', { light: 'light', dark: 'dark' }],
];
const WATCHED = ['class', 'style', ...MARKERS.map(([a]) => a)];

// A site that marks dark with class="dark" on <html> and light by its absence
// (VitePress, Tailwind): once the class has been seen, its absence means light.
let classSite = false;

/** 'light' or 'dark' from a computed background colour, or null when it is (nearly) transparent. */
function backgroundTheme(color) {
  const m = /rgba?\(([\d.]+),?\s*([\d.]+),?\s*([\d.]+)(?:,?\s*\/?\s*([\d.]+))?/.exec(color ?? '');
  if (!m || (m[4] !== undefined && Number(m[4]) < 0.5)) return null;
  const lin = (c) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const luminance = 0.2126 * lin(+m[1]) + 0.7152 * lin(+m[2]) + 0.0722 * lin(+m[3]);
  return luminance < 0.18 ? 'dark' : 'light';
}

/** The theme an element's surroundings mark: 'light', 'dark' or null (the system's). */
export function siteTheme(el) {
  const up = (n) => n.parentElement ?? n.getRootNode?.().host;
  for (let n = up(el); n; n = up(n)) {
    for (const [attr, values] of MARKERS) {
      const v = n.getAttribute?.(attr);
      if (v && values[v]) return values[v];
    }
    const cls = n.classList;
    if (cls?.contains('dark')) {
      if (n.localName === 'html') classSite = true;
      return 'dark';
    }
    if (cls?.contains('light')) return 'light';
  }
  if (classSite) return 'light';
  const doc = el.ownerDocument;
  const style = doc?.defaultView?.getComputedStyle;
  if (!style) return null;
  // A page that fixes one color-scheme (not "light dark", not "normal") has chosen.
  const scheme = style(doc.documentElement).colorScheme?.trim();
  if (scheme === 'dark' || scheme === 'light') return scheme;
  // Else the page's own background, where it paints one: a dark page gets dark figures.
  for (let n = up(el); n; n = up(n)) {
    const t = n.nodeType === 1 ? backgroundTheme(style(n).backgroundColor) : null;
    if (t) return t;
  }
  return null;
}

/** The theme a figure draws in: its own attribute, else its site's, else null (the system's). */
export function themeOf(el) {
  const own = el.getAttribute('theme');
  return own === 'light' || own === 'dark' ? own : siteTheme(el);
}

// One constructed sheet per forced theme; shared by every figure.
let forced = null;
function forcedSheets() {
  if (!forced) {
    forced = { light: new CSSStyleSheet(), dark: new CSSStyleSheet() };
    forced.light.replaceSync(`:host { ${LIGHT} color-scheme: light; }`);
    forced.dark.replaceSync(`:host { ${DARK} color-scheme: dark; }`);
  }
  return forced;
}

/**
 * Give a figure's shadow root the palette of its theme: the forced sheet goes
 * last (it wins over the base sheet's prefers-color-scheme rule); none for the
 * system's. Returns the theme applied.
 */
export function applyTheme(el) {
  const root = el.shadowRoot;
  if (!root || typeof CSSStyleSheet === 'undefined') return null;
  const theme = themeOf(el);
  if (el._theme === theme) return theme; // unchanged: setting the sheets again would restyle the figure
  const sheets = forcedSheets();
  const rest = root.adoptedStyleSheets.filter((s) => s !== sheets.light && s !== sheets.dark);
  root.adoptedStyleSheets = theme ? [...rest, sheets[theme]] : rest;
  el._theme = theme;
  return theme;
}

// The connected figures, and one observer of the site's markers for all of them.
const figures = new Set();
let observer = null;

/** Follow the site's theme from now on (a figure calls this when connected). */
export function watchTheme(el) {
  figures.add(el);
  if (!observer && typeof MutationObserver !== 'undefined') {
    observer = new MutationObserver(() => {
      for (const f of figures) if (themeOf(f) !== f._theme) applyTheme(f);
    });
    const doc = el.ownerDocument;
    for (const n of [doc.documentElement, doc.body])
      if (n) observer.observe(n, { attributes: true, attributeFilter: WATCHED });
  }
  // In a microtask (still before the browser paints): reading the page's computed color-scheme
  // makes the browser restyle the page, once per connection. A figure moved several times in
  // one task (a framework's re-render, the leak test's thousands of connections) pays it once,
  // and not at all if it is no longer connected.
  if (el._themeQueued) return;
  el._themeQueued = true;
  queueMicrotask(() => {
    el._themeQueued = false;
    if (figures.has(el) && el.isConnected) applyTheme(el);
  });
}

/** Stop following it (disconnected). */
export function unwatchTheme(el) {
  figures.delete(el);
}
