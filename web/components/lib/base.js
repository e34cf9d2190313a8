// Shared base of every normlab figure.
//
// Nothing here touches a DOM global at import time: the base class falls back
// to a plain class where HTMLElement does not exist (Node, server rendering).
// A figure builds its DOM once, starts work when it scrolls into view, asks the
// one shared core for every number, and re-renders from its state.
import { loadCore, loadTrainer, short } from '../../core/normlab.js';
import { lookup, numberLocale, onLocale, resolveLanguage } from '../../i18n/index.js';
import { DARK, LIGHT, applyTheme, unwatchTheme, watchTheme } from './theme.js';

/**
 * Where no HTMLElement exists (Node, server rendering) the figures extend this
 * plain class. `normlab/render` gives it the behaviour of its small document's
 * elements (web/render/dom.js), so a figure module imported before the renderer
 * still draws there.
 */
export class NodeBase {
  constructor() {
    NodeBase.adopt?.(this);
  }
}
const Base = typeof HTMLElement === 'undefined' ? NodeBase : HTMLElement;

const sheets = new Map();
/** One constructed stylesheet per figure class (allowed under a strict CSP). */
export function sheet(key, css) {
  if (!sheets.has(key)) {
    const s = new CSSStyleSheet();
    s.replaceSync(css);
    sheets.set(key, s);
  }
  return sheets.get(key);
}

/** The styles every figure shares: theme properties, controls, focus, motion. */
/**
 * When a finger is the likely pointer: a narrow screen (600 px or less) or a coarse pointer. The one touch-target
 * rule below and the figures' hit areas drawn in script (lib/handles.js) read this same query.
 */
export const TOUCH_MEDIA = '(max-width: 600px), (pointer: coarse)';

/** Whether TOUCH_MEDIA holds now (false where there is no window: Node, server rendering). */
export const touchSized = () => globalThis.matchMedia?.(TOUCH_MEDIA).matches ?? false;

export const baseCss = `
:host {
  /* One palette: a colour means one thing in every figure (README, "Colours"; theme.js). */
  ${LIGHT}
  --nl-font: system-ui, -apple-system, "Segoe UI", "Noto Sans", "PingFang SC", "Microsoft YaHei", sans-serif;
  --nl-label-size: 12px; --nl-small-size: 11px; --nl-title-size: 13px;
  --nl-gap: 10px;
  --nl-radius: 8px;
  display: block; color: var(--nl-fg); background: var(--nl-bg); font-family: var(--nl-font);
  border: 1px solid var(--nl-grid); border-radius: var(--nl-radius); padding: 12px; box-sizing: border-box;
  container-type: inline-size; position: relative;
}
/* "Loading…" floats over the figure, so its coming and going moves nothing. */
.status { position: absolute; top: 6px; right: 12px; margin: 0; padding: 2px 8px; border-radius: 6px;
  background: var(--nl-bg); font-size: var(--nl-small-size); pointer-events: none; z-index: 1; }
.status:empty { display: none; }
@media (prefers-color-scheme: dark) {
  :host {${DARK}
  }
}
:host([hidden]) { display: none; }
[hidden] { display: none !important; }
* { box-sizing: border-box; }
svg { display: block; width: 100%; height: auto; overflow: visible; }
svg text { fill: var(--nl-fg); font-family: var(--nl-font); }
.muted { color: var(--nl-muted); }
button, input, select {
  font: inherit; color: var(--nl-fg); background: var(--nl-bg);
  border: 1px solid var(--nl-grid); border-radius: 6px; min-height: 32px;
}
button { padding: 4px 12px; cursor: pointer; }
input[type=range] { max-width: 36vw; }
/* The one touch-target rule: on a narrow screen (600 px or less) or a coarse pointer (a finger), every button,
   select, number box and range slider is at least 44 px tall, whatever a figure's own sheet sets for wider screens
   and fine pointers; a checkbox or radio keeps its own size inside a label at least 44 px tall, the label being
   its target. Figures do not repeat it. */
@media ${TOUCH_MEDIA} {
  button, select, input:not([type=checkbox]):not([type=radio]) { min-height: 44px !important; }
  label:has(> input[type=checkbox], > input[type=radio]) { min-height: 44px; min-width: 44px; }
}
label { max-width: 100%; }
button:hover { border-color: var(--nl-muted); }
:focus-visible { outline: 2px solid var(--nl-focus); outline-offset: 2px; }
.error { color: var(--nl-error); font-weight: 600; min-height: 1.2em; margin: 4px 0; overflow-wrap: anywhere; }
.error:empty { display: none; }
.description { font-size: 0.9em; color: var(--nl-muted); margin: 6px 0 0; }
@media (prefers-reduced-motion: no-preference) {
  .animated { transition: y 160ms ease-out, height 160ms ease-out; }
}
`;

/** Locale-aware number formatting, `digits` significant digits. */
// Formatters are costly to make (tens of microseconds): one per locale and digits.
const formatters = new Map();
// A space between two CJK characters or full-width punctuation marks (docs/glossary.md: none belongs there).
const CJK = '\\u3000-\\u303f\\u4e00-\\u9fff\\uff00-\\uffef';
const CJK_GAP = new RegExp(`([${CJK}]) +(?=[${CJK}])`, 'g');
/** Lines joined for one line of text: a space between them, none after a CJK character or mark. */
const CJK_END = new RegExp(`[${CJK}]$`);
export const joinLines = (lines) => lines.reduce((a, l) => a + (CJK_END.test(a) ? '' : ' ') + l);

// Formatting itself costs microseconds a number, and a figure formats the same tick labels and values at every
// input: the last results are kept, at most FORMATTED_MAX of them over all formatters (a figure's update formats
// ~100 numbers; a training figure's numbers change with its timing, so a per-formatter bound of 4096 let a page
// keep ~600 KB of strings it would not show again).
const formatted = new Map();
const FORMATTED_MAX = 1024;
let formattedCount = 0;
export function formatNumber(value, lang, digits = 4, notation = 'standard') {
  const locale = numberLocale(lang);
  const key = `${locale}:${digits}:${notation}`;
  let f = formatters.get(key);
  if (!f) {
    formatters.set(key, (f = new Intl.NumberFormat(locale, { maximumSignificantDigits: digits, notation })));
    formatted.set(key, new Map());
  }
  if (Object.is(value, -0)) return f.format(value); // (a Map takes -0 for 0; Intl writes it "-0")
  const seen = formatted.get(key);
  let text = seen.get(value);
  if (text === undefined) {
    if (++formattedCount > FORMATTED_MAX) {
      for (const m of formatted.values()) m.clear();
      formattedCount = 1;
    }
    seen.set(value, (text = f.format(value)));
  }
  return text;
}

const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
/**
 * A number in scientific notation as a reader writes it, `digits` significant digits: 5.96 × 10⁻⁸, 10⁻⁴
 * (Intl's own digits, only respelled: no arithmetic on the value).
 */
export function formatPower(value, lang, digits = 3) {
  formatNumber(value, lang, digits, 'scientific'); // makes the formatter
  const f = formatters.get(`${numberLocale(lang)}:${digits}:scientific`);
  const parts = f.formatToParts(value);
  const at = parts.findIndex((q) => q.type === 'exponentSeparator');
  const mantissa = parts
    .slice(0, at)
    .map((q) => q.value)
    .join('');
  const exponent = parts
    .slice(at + 1)
    .map((q) => q.value)
    .join('')
    .replace(/[−-]/, '-');
  const power = `10${[...exponent].map((c) => SUPERSCRIPT[c] ?? c).join('')}`;
  if (exponent === '0') return mantissa;
  return mantissa === '1' ? power : mantissa === '-1' ? `−${power}` : `${mantissa} × ${power}`;
}

/** Create an element (HTML or SVG) with attributes and text, never parsing markup. */
const svgTags = new Set(['svg', 'g', 'rect', 'line', 'text', 'path', 'circle', 'title', 'polyline', 'ellipse']);
export function el(tag, attrs = {}, text) {
  const node = svgTags.has(tag)
    ? document.createElementNS('http://www.w3.org/2000/svg', tag)
    : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** What counts as a reader using a figure: pointer presses, keys and control input inside it. */
const USE_EVENTS = ['pointerdown', 'keydown', 'input'];

export class NlElement extends Base {
  /** The events a figure fires (the figure manifest lists them). */
  static events = ['change'];

  /**
   * Public properties that mirror attributes: `props` maps a property name to
   * [attribute, read], where read(element) gives the current value. Reading
   * returns it (a copy for lists); writing sets the attribute (lists joined by
   * commas), which then goes through the element's own parsing.
   */
  static attributeProperties(props) {
    for (const [name, [attr, read]] of Object.entries(props)) {
      Object.defineProperty(this.prototype, name, {
        get() {
          const v = read(this);
          return Array.isArray(v) ? [...v] : v;
        },
        set(v) {
          this.setAttribute(attr, Array.isArray(v) || ArrayBuffer.isView(v) ? Array.from(v).join(',') : String(v));
        },
        configurable: true,
      });
    }
    return this;
  }

  /**
   * The figure's current numbers and error (read-only). An update still queued
   * (see requestUpdate) is done first, so a value set a moment ago is in it.
   */
  get state() {
    this._flushUpdate();
    return this._state;
  }

  /**
   * Ask for an update: property, attribute and language changes made in one
   * task share it. It runs once, in a microtask (before the browser paints),
   * recomputing when any of the requests asked for it (`compute`), else only
   * drawing again. A reader's own input updates at once (updateNow).
   */
  requestUpdate(compute = true) {
    this._pendingCompute ||= compute;
    if (this._pending) return;
    this._pending = true;
    this._updated = new Promise((resolve) =>
      queueMicrotask(() => {
        this._flushUpdate();
        resolve(true);
      }),
    );
  }

  /** Resolves once no update is queued (true): await it after setting values, as with Lit. */
  get updateComplete() {
    return this._pending ? this._updated : Promise.resolve(true);
  }

  /** Recompute and draw now, folding in any queued update. */
  updateNow() {
    this._pending = false;
    this._pendingCompute = false;
    this.performUpdate();
  }

  _flushUpdate() {
    if (!this._pending) return;
    const compute = this._pendingCompute;
    this._pending = false;
    this._pendingCompute = false;
    if (compute) this.performUpdate();
    else this.render();
  }

  /** Compute the state and draw it (subclasses); refresh() queues it. */
  performUpdate() {}

  /** Queue a recompute and a drawing (see requestUpdate). */
  refresh() {
    this.requestUpdate(true);
  }

  constructor() {
    super();
    this._core = null;
    this._started = false;
    this._built = false;
    this._observer = null;
  }

  /**
   * The figure's language: its own `lang`, else the nearest ancestor's, as one
   * of the registered catalogs (a regional tag uses its primary language;
   * anything unknown is English).
   */
  get lang() {
    return resolveLanguage(this.getAttribute('lang') || this.closest?.('[lang]')?.getAttribute('lang') || 'en');
  }

  set lang(v) {
    this.setAttribute('lang', v);
  }

  /** The `theme` attribute: 'light' | 'dark' fix the palette; 'auto' or null follow the site, then the system. */
  get theme() {
    const v = this.getAttribute('theme');
    return v === 'light' || v === 'dark' || v === 'auto' ? v : null;
  }

  set theme(v) {
    if (v == null) this.removeAttribute('theme');
    else this.setAttribute('theme', v);
  }

  /** Text for this figure in the current language: its class's own `strings`, a registered catalog, `common`. */
  t(key, vars = {}) {
    let s = lookup(this.lang, this.constructor.catalog, this.constructor.strings, key) ?? key;
    // {value} is what a reader or page gave: quoted shortened, so a long one cannot flood the error line
    for (const [k, v] of Object.entries(vars)) s = s.split(`{${k}}`).join(k === 'value' ? short(v) : String(v));
    // A value put next to Chinese text brings the space its placeholder had ("为 {gate}" with
    // gate "无（恒为 1）"): no space stays between two CJK characters or full-width marks.
    return s.replace(CJK_GAP, '$1');
  }

  /**
   * A core error in the reader's language: the catalog's `error_<code>` with
   * the error's fields ({op}, {argument}, …), else a generic sentence around
   * the core's own (English) message.
   */
  coreMessage(e) {
    const key = e?.code ? `error_${e.code}` : '';
    const fields = {
      op: e?.op ?? '',
      argument: e?.argument ?? '',
      message: e?.message ?? String(e),
      ...(e?.detail ?? {}),
    };
    const own = key && this.t(key, fields);
    return own && own !== key ? own : this.t('coreError', fields);
  }

  fmt(v, digits) {
    return formatNumber(v, this.lang, digits);
  }

  /**
   * `digits` significant digits however small or large: plain from 0.001 to 10⁶ (0.0123), in powers of ten
   * outside (5.96 × 10⁻⁸), never a row of zeros. 0 is 0.
   */
  fmtSig(v, digits = 3) {
    const a = Math.abs(v);
    return a !== 0 && (a < 1e-3 || a >= 1e6) ? formatPower(v, this.lang, digits) : this.fmt(v, digits);
  }

  connectedCallback() {
    // A language registered later reaches the figures that speak it.
    this._offLocale ??= onLocale((lang) => lang === this.lang && this._built && this.applyLanguage());
    if (!this._built) {
      this._built = true;
      const root = this.attachShadow({ mode: 'open' });
      root.adoptedStyleSheets = [sheet('base', baseCss), sheet(this.localName, this.constructor.css ?? '')];
      this.build(root);
      // The reader's first use releases the height the page reserved for the default state (normlab.css)
      const used = () => {
        this.setAttribute('data-used', '');
        for (const type of USE_EVENTS) this.removeEventListener(type, used, true);
      };
      for (const type of USE_EVENTS) this.addEventListener(type, used, true);
    }
    watchTheme(this); // the site's light/dark toggle, live
    this.setAttribute('role', 'figure');
    // A figure moved (or reconnected by a framework) draws again only if its language changed
    // with the move: its numbers and width are unchanged (the ResizeObserver sees a new width).
    this.applyLanguage(this._drawnLang !== undefined && this._drawnLang === this.lang);
    if (this._started) return;
    // Start work when the figure scrolls into view.
    if (typeof IntersectionObserver !== 'undefined') {
      this._observer = new IntersectionObserver(
        (entries) => {
          if (entries.some((e) => e.isIntersecting)) this.start();
        },
        { rootMargin: '200px' },
      );
      this._observer.observe(this);
    } else this.start();
  }

  disconnectedCallback() {
    this._observer?.disconnect();
    this._observer = null;
    this._offLocale?.();
    this._offLocale = null;
    unwatchTheme(this);
  }

  start() {
    this._observer?.disconnect();
    this._observer = null;
    if (this._started) return;
    this._started = true;
    this.showStatus(this.t('loading'));
    // A figure that trains (static trainer = true) also loads the training module, a separate download;
    // one with data of its own to fetch first (static preload(), a promise) waits for that too.
    Promise.all([loadCore(), this.constructor.trainer ? loadTrainer() : null, this.constructor.preload?.()]).then(
      ([core, trainer]) => {
        this._trainer = trainer;
        this._core = core;
        this.showStatus('');
        this.updateNow();
      },
      (err) => {
        this._started = false;
        this._loadError = err.message;
        this.showStatus(this.t('loadFailed', { reason: err.message }));
      },
    );
  }

  attributeChangedCallback(name, oldValue, value) {
    if (oldValue === value || !this._built || this._reflecting) return;
    if (name === 'theme') return void applyTheme(this);
    if (name === 'lang') this.applyLanguage();
    this.attributeChanged(name, value);
  }

  /** React to an attribute: parse it (subclasses define _parseAttribute), then recompute. */
  attributeChanged(name, value) {
    this._parseAttribute?.(name, value);
    this.refresh();
  }

  /** Subclasses: set every text from the catalog. */
  applyLanguage(drawn = false) {
    this.setAttribute('aria-label', this.t('name'));
    if (this._loadError) this.showStatus(this.t('loadFailed', { reason: this._loadError }));
    else if (this._started && !this._core) this.showStatus(this.t('loading'));
    if (this._core && !drawn) this.refresh();
  }

  showStatus(text) {
    if (this._status) this._status.textContent = text;
  }

  /** Mirror a value the reader changed into its attribute, without re-parsing it. */
  reflect(name, value) {
    this._reflecting = true;
    try {
      this.setAttribute(name, String(value));
    } finally {
      this._reflecting = false;
    }
  }

  /** Fire `change` (only for what a user did, never for programmatic sets). */
  emitChange() {
    this.dispatchEvent(new CustomEvent('change', { bubbles: true, composed: true, detail: this.state }));
  }

  /**
   * Where the figure stands, for code that draws it outside a page
   * (normlab/render) and must not read private fields:
   *   loadError — why the core did not load, else null;
   *   error     — the message the figure shows for a refused input, else '';
   *   busy      — true while it still fetches something that changes the drawing;
   *   description — its text description ('' until drawn or while in error).
   * Subclasses extend it (NlFigure adds the shown error and description).
   */
  renderState() {
    return { loadError: this._loadError ?? null, error: '', busy: false, description: '' };
  }
}
