// A small document for drawing figures in Node (`normlab render`), holding
// exactly what the figures' drawing code uses: elements and text, attributes,
// classList, dataset, style, a shadow root with adopted stylesheets, events
// (dispatched, never delivered by a user), and serialization to markup.
//
// It has no layout: getBoundingClientRect() answers zero sizes, so every chart
// is drawn at its design size (the `ideal` of NlFigure.fit). It is not a
// browser and is not meant to be one; a real DOM library would add megabytes to
// every install for a command most users run a few times.
const SVG_NS = 'http://www.w3.org/2000/svg';
const HTML_NS = 'http://www.w3.org/1999/xhtml';

class Node {
  constructor(doc) {
    this.ownerDocument = doc;
    this.parentNode = null;
    this.childNodes = [];
  }

  get parentElement() {
    return this.parentNode instanceof Element ? this.parentNode : null;
  }

  get firstChild() {
    return this.childNodes[0] ?? null;
  }

  get lastChild() {
    return this.childNodes[this.childNodes.length - 1] ?? null;
  }

  get children() {
    return this.childNodes.filter((n) => n instanceof Element);
  }

  get isConnected() {
    let n = this;
    while (n.parentNode) n = n.parentNode;
    return n instanceof ShadowRoot ? n.host.isConnected : n === this.ownerDocument;
  }

  get textContent() {
    return this.childNodes.map((n) => n.textContent).join('');
  }

  set textContent(v) {
    this.replaceChildren(...(v === null || v === undefined || v === '' ? [] : [String(v)]));
  }

  _adopt(items) {
    const out = [];
    for (const item of items) {
      const n = item instanceof Node ? item : new Text(this.ownerDocument, String(item));
      if (n instanceof DocumentFragment) {
        out.push(...n.childNodes);
        for (const c of n.childNodes) c.parentNode = null;
        n.childNodes = [];
      } else {
        n.remove?.();
        out.push(n);
      }
    }
    for (const n of out) n.parentNode = this;
    return out;
  }

  append(...items) {
    this.childNodes.push(...this._adopt(items));
  }

  appendChild(n) {
    this.append(n);
    return n;
  }

  prepend(...items) {
    this.childNodes.unshift(...this._adopt(items));
  }

  insertBefore(n, ref) {
    const nodes = this._adopt([n]);
    const i = ref ? this.childNodes.indexOf(ref) : -1;
    this.childNodes.splice(i < 0 ? this.childNodes.length : i, 0, ...nodes);
    return n;
  }

  removeChild(n) {
    n.remove();
    return n;
  }

  replaceChildren(...items) {
    for (const c of this.childNodes) c.parentNode = null;
    this.childNodes = [];
    this.append(...items);
  }

  remove() {
    const p = this.parentNode;
    if (!p) return;
    p.childNodes.splice(p.childNodes.indexOf(this), 1);
    this.parentNode = null;
  }

  before(...items) {
    const p = this.parentNode;
    if (!p) return;
    const nodes = p._adopt(items.filter((n) => n !== this));
    p.childNodes.splice(p.childNodes.indexOf(this), 0, ...nodes);
  }

  after(...items) {
    const p = this.parentNode;
    if (!p) return;
    const nodes = p._adopt(items.filter((n) => n !== this));
    p.childNodes.splice(p.childNodes.indexOf(this) + 1, 0, ...nodes);
  }

  contains(n) {
    for (; n; n = n.parentNode) if (n === this) return true;
    return false;
  }

  getRootNode() {
    let n = this;
    while (n.parentNode) n = n.parentNode;
    return n;
  }

  addEventListener(type, fn) {
    ((this._listeners ??= {})[type] ??= []).push(fn);
  }

  removeEventListener(type, fn) {
    const list = this._listeners?.[type];
    if (list) list.splice(list.indexOf(fn) >>> 0, 1);
  }

  dispatchEvent(e) {
    for (const fn of [...(this._listeners?.[e.type] ?? [])]) fn.call(this, e);
    return !e.defaultPrevented;
  }
}

class Text extends Node {
  constructor(doc, data) {
    super(doc);
    this.data = data;
  }

  get textContent() {
    return this.data;
  }

  set textContent(v) {
    this.data = String(v);
  }

  get nodeValue() {
    return this.data;
  }
}

class DocumentFragment extends Node {}

class ShadowRoot extends DocumentFragment {
  constructor(host) {
    super(host.ownerDocument);
    this.host = host;
    this.adoptedStyleSheets = [];
    this.activeElement = null;
  }
}

/** Parses a viewBox attribute the way SVGSVGElement.viewBox.baseVal reads it. */
function viewBoxOf(el) {
  const v = (el.getAttribute('viewBox') ?? '')
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  const [x, y, width, height] = v.length === 4 && v.every(Number.isFinite) ? v : [0, 0, 0, 0];
  return { baseVal: { x, y, width, height } };
}

class Element extends Node {
  constructor(doc, localName, namespaceURI = HTML_NS) {
    super(doc);
    initElement(this, localName, namespaceURI);
  }

  _writeStyle() {
    const text = [...this.style._props].map(([k, v]) => `${k}: ${v}`).join('; ');
    if (text) this._attrs.set('style', text);
    else this._attrs.delete('style');
  }

  get tagName() {
    return this.namespaceURI === HTML_NS ? this.localName.toUpperCase() : this.localName;
  }

  get attributes() {
    return [...this._attrs].map(([name, value]) => ({ name, value }));
  }

  getAttribute(name) {
    return this._attrs.has(name) ? this._attrs.get(name) : null;
  }

  hasAttribute(name) {
    return this._attrs.has(name);
  }

  setAttribute(name, value) {
    const old = this.getAttribute(name);
    value = String(value);
    this._attrs.set(name, value);
    if (name === 'style') {
      this.style._props.clear();
      for (const decl of value.split(';')) {
        const i = decl.indexOf(':');
        if (i > 0) this.style._props.set(decl.slice(0, i).trim(), decl.slice(i + 1).trim());
      }
    }
    this._changed(name, old, value);
  }

  removeAttribute(name) {
    if (!this._attrs.has(name)) return;
    const old = this._attrs.get(name);
    this._attrs.delete(name);
    this._changed(name, old, null);
  }

  toggleAttribute(name, force) {
    const on = force ?? !this.hasAttribute(name);
    if (on) this.setAttribute(name, '');
    else this.removeAttribute(name);
    return on;
  }

  _changed(name, old, value) {
    if (this.constructor.observedAttributes?.includes(name) && this.attributeChangedCallback) {
      this.attributeChangedCallback(name, old, value);
    }
  }

  get id() {
    return this.getAttribute('id') ?? '';
  }

  get hidden() {
    return this.hasAttribute('hidden');
  }

  set hidden(v) {
    this.toggleAttribute('hidden', Boolean(v));
  }

  get part() {
    return { add: (p) => this.setAttribute('part', `${this.getAttribute('part') ?? ''} ${p}`.trim()) };
  }

  get value() {
    if (this.localName === 'select') return this._value ?? this.options[0]?.getAttribute('value') ?? '';
    return this._value ?? this.getAttribute('value') ?? '';
  }

  set value(v) {
    this._value = String(v);
  }

  get options() {
    return this.children.filter((c) => c.localName === 'option');
  }

  get viewBox() {
    return this.localName === 'svg' ? viewBoxOf(this) : undefined;
  }

  attachShadow() {
    this.shadowRoot = new ShadowRoot(this);
    return this.shadowRoot;
  }

  closest(selector) {
    // Only the forms the figures use: [attr] and a tag name.
    const m = /^\[([\w-]+)\]$/.exec(selector);
    for (let n = this; n instanceof Element; n = n.parentNode) {
      if (m ? n.hasAttribute(m[1]) : n.localName === selector) return n;
    }
    return null;
  }

  getBoundingClientRect() {
    return { x: 0, y: 0, left: 0, top: 0, right: 0, bottom: 0, width: 0, height: 0 };
  }

  getClientRects() {
    return [];
  }

  focus() {
    const root = this.getRootNode();
    if (root instanceof ShadowRoot) root.activeElement = this;
  }

  blur() {}

  setPointerCapture() {}

  releasePointerCapture() {}

  hasPointerCapture() {
    return false;
  }

  scrollIntoView() {}

  get scrollWidth() {
    return 0;
  }

  get clientWidth() {
    return 0;
  }

  get offsetWidth() {
    return 0;
  }

  get offsetHeight() {
    return 0;
  }
}

/** An element's own state (attributes, style, dataset, classList), for Element and for an adopted figure. */
function initElement(el, localName, namespaceURI = HTML_NS) {
  el.localName = localName;
  el.namespaceURI = namespaceURI;
  el.ownerDocument ??= doc;
  el.parentNode ??= null;
  el.childNodes ??= [];
  el._attrs = new Map();
  el.shadowRoot = null;
  const style = {
    _props: new Map(),
    setProperty(name, value) {
      if (value === null || value === '') style._props.delete(name);
      else style._props.set(name, String(value));
      el._writeStyle();
    },
    getPropertyValue(name) {
      return style._props.get(name) ?? '';
    },
    removeProperty(name) {
      style._props.delete(name);
      el._writeStyle();
    },
  };
  el.style = new Proxy(style, {
    get: (t, k) => (k in t || typeof k !== 'string' ? t[k] : (t._props.get(kebab(k)) ?? '')),
    set: (t, k, v) => (t.setProperty(kebab(k), v), true),
  });
  el.dataset = new Proxy(
    {},
    {
      get: (_, k) => (typeof k === 'string' ? (el.getAttribute(`data-${kebab(k)}`) ?? undefined) : undefined),
      set: (_, k, v) => (el.setAttribute(`data-${kebab(k)}`, v), true),
      deleteProperty: (_, k) => (el.removeAttribute(`data-${kebab(k)}`), true),
    },
  );
  const classes = () => (el.getAttribute('class') ?? '').split(/\s+/).filter(Boolean);
  const write = (list) => el.setAttribute('class', list.join(' '));
  el.classList = {
    contains: (c) => classes().includes(c),
    add: (...cs) => write([...new Set([...classes(), ...cs])]),
    remove: (...cs) => write(classes().filter((c) => !cs.includes(c))),
    toggle: (c, force) => {
      const on = force ?? !classes().includes(c);
      if (on) el.classList.add(c);
      else el.classList.remove(c);
      return on;
    },
  };
}

const kebab = (s) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

class Document extends Node {
  constructor() {
    super(null);
    this.ownerDocument = this;
  }

  createElement(tag) {
    const Cls = registry.get(tag.toLowerCase());
    if (Cls) return new Cls();
    return new Element(this, tag.toLowerCase());
  }

  createElementNS(ns, tag) {
    return new Element(this, tag, ns);
  }

  createTextNode(data) {
    return new Text(this, String(data));
  }

  createDocumentFragment() {
    return new DocumentFragment(this);
  }
}

const registry = new Map();
let doc = null;

const tagOf = (el) => {
  for (const [name, Cls] of registry) if (el.constructor === Cls) return name;
  return 'div';
};

/** The element base class the figures extend here: an Element of this document. */
class HTMLElement extends Element {
  constructor() {
    super(doc, 'div');
    this.localName = tagOf(this);
  }
}

class CSSStyleSheet {
  constructor() {
    this.cssText = '';
  }

  replaceSync(text) {
    this.cssText = String(text);
  }

  replace(text) {
    this.replaceSync(text);
    return Promise.resolve(this);
  }
}

class Event {
  constructor(type, init = {}) {
    this.type = type;
    this.bubbles = Boolean(init.bubbles);
    this.defaultPrevented = false;
  }

  preventDefault() {
    this.defaultPrevented = true;
  }

  stopPropagation() {}
}

class CustomEvent extends Event {
  constructor(type, init = {}) {
    super(type, init);
    this.detail = init.detail ?? null;
  }
}

const customElements = {
  define(name, Cls) {
    registry.set(name, Cls);
  },
  get(name) {
    return registry.get(name);
  },
};

/**
 * Put this document's classes into the global scope (only names that are not
 * there already), before the figures' modules are imported: their base class
 * extends HTMLElement when it exists. Returns the document.
 */
export function installDom(scope = globalThis, nodeBase = null) {
  doc ??= new Document();
  // Figures whose modules were loaded before any DOM existed extend a plain class
  // (NodeBase in components/lib/base.js): give it this document's element behaviour.
  if (nodeBase && !(nodeBase.prototype instanceof Element)) {
    Object.setPrototypeOf(nodeBase.prototype, HTMLElement.prototype);
    nodeBase.adopt = (el) => {
      initElement(el, 'div');
      el.localName = tagOf(el);
    };
  }
  const names = { document: doc, HTMLElement, CSSStyleSheet, Event, CustomEvent, customElements, Node, Element, Text };
  for (const [k, v] of Object.entries(names)) if (!(k in scope)) scope[k] = v;
  return doc;
}

export { Document, Element, ShadowRoot, Text, SVG_NS };
