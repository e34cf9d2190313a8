// <nl-axis-cube> — the elements of a [B, T, D] tensor that share statistics
// with one chosen element, for BatchNorm, LayerNorm, RMSNorm, InstanceNorm and
// GroupNorm, drawn as a rotatable 3-D block of cells (one small cube per
// element) with the group's cells a solid outlined block, and below it the four methods of the GroupNorm paper's Figure 2 side
// by side as small multiples (one [T × D] sheet per b).
//
// Attributes: shape ("3,4,6" = sizes of the three axes; whole numbers 1..12;
//   the default's last axis has the divisors 1, 2, 3, 6, so GroupNorm has
//   several G to show), method (batch_norm | layer_norm | rms_norm |
//   instance_norm | group_norm; layer_norm), num-groups (G for GroupNorm,
//   1..12; 1; one the core refuses for this shape keeps the last good drawing
//   with a localized message naming the G it accepts), index ("0,1,2": the
//   chosen element, each 0..11; clamped into the shape), reading (sequence:
//   axes [B, T, D] = sequences, tokens, features | image: axes [N, HW, C] =
//   images, flattened positions, channels), lang (en | zh).
// Properties: shape, method, numGroups, index, reading (lists as number[]);
//   state (read-only, frozen): {shape, method, numGroups, index (clamped),
//   reading, members ([b, t, d] triples, sorted, from the core), axes (the
//   three axis names of the reading), varying (axes along which members
//   differ), partial (those of them the group covers only in part), geometry
//   ('point' | 'line' | 'plane' | 'block'), groupCount (how many such groups
//   the tensor has), groupSize (members per group), channelsPerGroup
//   (GroupNorm's D/G, else null), measure ('mean_var' | 'mean_square'),
//   groupChoices (the G the core accepts for this D), multiples ({method,
//   numGroups (GroupNorm's G, else null), members} for batch_norm,
//   layer_norm, instance_norm, group_norm: the small multiples' groups of the
//   same element, from the core; GroupNorm's G is the figure's while GroupNorm
//   is shown or while it is an accepted G above 1, else the smallest accepted
//   G above 1), yaw, pitch (degrees; -18 and 30 at first and after "Reset
//   view"), error}.
// Events: change — after the reader picks a method (also by a small multiple),
//   G, reading or element, rotates the view or resets it (never after
//   programmatic sets).
// Keyboard: the view is focusable; arrow keys rotate it (Shift: small steps).
//   Method, G (only the values the core accepts) and reading are selects;
//   the element is three number inputs (arrow keys step them); "Reset view"
//   restores the angle (animated unless prefers-reduced-motion); each small
//   multiple is a button (aria-pressed when it is the method shown above).
// Pointer: a horizontal drag on the view turns the block (mouse: vertical drag
//   tilts it); on touch, vertical swipes scroll the page (touch-action: pan-y
//   on the view only). Clicking or tapping a cell chooses it (the front-most
//   cell under the pointer, else the nearest within a finger's reach).
// Drawing: the lattice's box (hidden edges dashed) and one cell per element, a
//   small cube whose faces towards the reader are one path, in depth order,
//   far to near (painter's order). The group's cells fill their whole slots,
//   so they join into one solid block ruled into cells, its side faces shaded
//   and its box's edges outlined (hidden ones dashed behind the cells);
//   the other cells are glass, smaller and fainter the farther they are (and
//   fainter in a larger tensor, so the glass in front never hides the group).
//   The chosen element last, outlined, so no cell hides it. The axis arrows start at the lattice's
//   corner at index (0, 0, 0) and run along its edges; each label sits by its
//   arrow's tip, placed so that no two labels overlap at any angle.
// CSS custom properties: --nl-group (members of the chosen element's group),
//   --nl-chosen (the chosen element), --nl-reference (the other elements),
//   --nl-muted (axes), --nl-fg (the group's outline), and the shared --nl-* theme.
// Parts: figure, controls, select, number, button, view, point (each element's
//   cell, a <g> of its faces), multiples,
//   multiple, description, error.
// Ops used: reduction_group (the members, once for the view and once per
//   small multiple), core.describe (group count and size, the statistics
//   measured, GroupNorm's channels per group), and reduction_group probes for
//   the G choices (the G the core accepts). No group is computed here: the
//   view is presentation only (a rotation, an orthographic projection, and the
//   box the core's members fill).
import { el } from '../lib/base.js';
import { NlFigure, figureCss } from '../lib/figure.js';
import { onDrag } from '../lib/handles.js';

const METHODS = ['batch_norm', 'layer_norm', 'rms_norm', 'instance_norm', 'group_norm'];
// The small multiples: the four cubes of Wu & He's GroupNorm paper (its Figure 2).
const MULTIPLES = ['batch_norm', 'layer_norm', 'instance_norm', 'group_norm'];
const VIEW = { yaw: -18, pitch: 30 };
const MAX_SIDE = 12;
const AXES = { sequence: ['B', 'T', 'D'], image: ['N', 'HW', 'C'] }; // D: the hidden width, as the article and `shape` name it
// core.describe takes each op's own layout: LayerNorm and RMSNorm reduce the
// last axis of [B, T, D]; the channel norms read [N, C, spatial].
const DESCRIBE_LAYOUT = {
  layer_norm: 'btd',
  rms_norm: 'btd',
  batch_norm: 'bdt',
  instance_norm: 'bdt',
  group_norm: 'bdt',
};

// ---- geometry of the drawing (presentation only: boxes around the core's members, label places) ----
const bit = (corner, a, lo, hi) => (corner ? hi[a] : lo[a]);
const others = (a) => [0, 1, 2].filter((k) => k !== a);
/** The eight corners of an axis-aligned box in index coordinates. */
function boxCorners(lo, hi) {
  return [0, 1, 2, 3, 4, 5, 6, 7].map((k) => [bit(k & 1, 0, lo, hi), bit(k & 2, 1, lo, hi), bit(k & 4, 2, lo, hi)]);
}
/** A face with outward side `side` (0: low, 1: high) along `a` faces the reader when `towards` says so. */
const faces = (a, side, towards) => (side ? 1 : -1) * towards[a] > 1e-9;
/** The six faces of a box, corners in order around each, and whether each faces the reader. */
function boxFaces(lo, hi, towards) {
  const out = [];
  for (const a of [0, 1, 2])
    for (const side of [0, 1]) {
      const [u, w] = others(a);
      const corners = [
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 1],
      ].map(([bu, bw]) => {
        const c = [0, 0, 0];
        c[a] = bit(side, a, lo, hi);
        c[u] = bit(bu, u, lo, hi);
        c[w] = bit(bw, w, lo, hi);
        return c;
      });
      out.push({ axis: a, side, corners, visible: faces(a, side, towards) });
    }
  return out;
}
/** The twelve edges of a box; an edge is hidden when neither face it joins faces the reader. */
function boxEdges(lo, hi, towards) {
  const out = [];
  for (const a of [0, 1, 2]) {
    const [u, w] = others(a);
    for (const [bu, bw] of [
      [0, 0],
      [1, 0],
      [0, 1],
      [1, 1],
    ]) {
      const from = [0, 0, 0];
      from[u] = bit(bu, u, lo, hi);
      from[w] = bit(bw, w, lo, hi);
      const to = [...from];
      from[a] = lo[a];
      to[a] = hi[a];
      out.push({ axis: a, from, to, hidden: !faces(u, bu, towards) && !faces(w, bw, towards) });
    }
  }
  return out;
}
/** The index box the members fill ({lo, hi}, inclusive), or null when they do not fill one. */
function memberBox(members) {
  if (!members.length) return null;
  const lo = [0, 1, 2].map((a) => Math.min(...members.map((m) => m[a])));
  const hi = [0, 1, 2].map((a) => Math.max(...members.map((m) => m[a])));
  const cells = (hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) * (hi[2] - lo[2] + 1);
  return cells === new Set(members.map((m) => m.join(','))).size ? { lo, hi } : null;
}
const overlaps = (a, b, m = 0) => a.x0 < b.x1 + m && b.x0 < a.x1 + m && a.y0 < b.y1 + m && b.y0 < a.y1 + m;
/** Does the segment p–q cross the rectangle r? (Liang–Barsky clipping.) */
function segmentHitsBox(p, q, r) {
  let t0 = 0,
    t1 = 1;
  const dx = q.x - p.x,
    dy = q.y - p.y;
  for (const [pp, qq] of [
    [-dx, p.x - r.x0],
    [dx, r.x1 - p.x],
    [-dy, p.y - r.y0],
    [dy, r.y1 - p.y],
  ]) {
    if (pp === 0) {
      if (qq < 0) return false;
      continue;
    }
    const t = qq / pp;
    if (pp < 0) {
      if (t > t1) return false;
      if (t > t0) t0 = t;
    } else {
      if (t < t0) return false;
      if (t < t1) t1 = t;
    }
  }
  return true;
}
/** The convex hull of points on screen (monotone chain). */
function convexHull(points) {
  const p = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  if (p.length < 3) return p;
  const cross = (o, a, b) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const half = (list) => {
    const out = [];
    for (const q of list) {
      while (out.length >= 2 && cross(out[out.length - 2], out[out.length - 1], q) <= 1e-9) out.pop();
      out.push(q);
    }
    out.pop();
    return out;
  };
  return [...half(p), ...half([...p].reverse())];
}
/** Distance from (x, y) to a convex polygon (0 inside). */
function distToPolygon(x, y, poly) {
  if (poly.length < 3) return Math.min(Infinity, ...poly.map((q) => Math.hypot(q.x - x, q.y - y)));
  let pos = 0,
    neg = 0,
    best = Infinity;
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i],
      b = poly[(i + 1) % poly.length];
    const ex = b.x - a.x,
      ey = b.y - a.y;
    const side = ex * (y - a.y) - ey * (x - a.x);
    if (side > 0) pos++;
    else if (side < 0) neg++;
    const l2 = ex * ex + ey * ey || 1;
    const k = Math.max(0, Math.min(1, ((x - a.x) * ex + (y - a.y) * ey) / l2));
    best = Math.min(best, Math.hypot(a.x + k * ex - x, a.y + k * ey - y));
  }
  return pos === 0 || neg === 0 ? 0 : best;
}
/** Does the rectangle r meet the convex polygon poly? */
function boxHitsPolygon(r, poly) {
  if (poly.length < 3) return false;
  if (distToPolygon((r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2, poly) === 0) return true;
  for (let i = 0; i < poly.length; i++) if (segmentHitsBox(poly[i], poly[(i + 1) % poly.length], r)) return true;
  return false;
}
/** Set an attribute only when its value changes (null removes it): most of a drawing stays as it was. */
function put(node, name, value) {
  const seen = (node.__attrs ??= {});
  if (seen[name] === value) return;
  seen[name] = value;
  if (value === null) node.removeAttribute(name);
  else node.setAttribute(name, value);
}
let syncStamp = 0;
/**
 * Make `nodes` the children of `parent`, in order, moving only the nodes out of place (a new
 * element or method moves a cell or two, not all of them). Without sibling links (the Node
 * renderer's small document) the children are replaced.
 */
function syncChildren(parent, nodes) {
  if (!('nextSibling' in parent)) return parent.replaceChildren(...nodes);
  const stamp = ++syncStamp;
  for (const n of nodes) n.__keep = stamp;
  let cur = parent.firstChild;
  for (const n of nodes) {
    while (cur && cur !== n && cur.__keep !== stamp) {
      const next = cur.nextSibling;
      cur.remove();
      cur = next;
    }
    if (cur === n) cur = cur.nextSibling;
    else parent.insertBefore(n, cur);
  }
  while (cur) {
    const next = cur.nextSibling;
    cur.remove();
    cur = next;
  }
}
const TURNS = [0, 30, -30, 60, -60, 90, -90, 120, -120, 150, -150, 180];
/**
 * Each label beside its anchor (an arrow's tip), on the side its arrow points to when that is
 * free: candidates turn away from that side and move out step by step; the first inside the
 * W × H box, clear of every label placed before, of every arrow and of the lattice (the convex
 * polygon `hull`) wins (then clear of labels and arrows, then of labels only, farther out).
 * Sets cx, cy (the label's centre) and box on each label.
 */
function placeLabels(labels, W, H, segments, hull = []) {
  const placed = [];
  for (const L of labels) {
    const base = Math.atan2(L.dir.y, L.dir.x);
    let best = null;
    for (const [strict, clearOfLattice, gaps] of [
      [true, true, [4, 10, 18, 28, 40]],
      [true, false, [4, 10, 18, 28]],
      [false, false, [4, 10, 18, 28, 40, 56, 76, 100, 130]],
    ]) {
      for (const g of gaps) {
        for (const deg of TURNS) {
          const ang = base + (deg * Math.PI) / 180;
          const ux = Math.cos(ang),
            uy = Math.sin(ang);
          const reach = g + (Math.abs(ux) * L.w) / 2 + (Math.abs(uy) * L.h) / 2;
          const cx = L.x + ux * reach,
            cy = L.y + uy * reach;
          const box = { x0: cx - L.w / 2, x1: cx + L.w / 2, y0: cy - L.h / 2, y1: cy + L.h / 2 };
          if (box.x0 < 1 || box.y0 < 1 || box.x1 > W - 1 || box.y1 > H - 1) continue;
          if (placed.some((o) => overlaps(o, box, 3))) continue;
          if (strict && segments.some(([p, q]) => segmentHitsBox(p, q, box))) continue;
          if (clearOfLattice && boxHitsPolygon(box, hull)) continue;
          best = { cx, cy, box };
          break;
        }
        if (best) break;
      }
      if (best) break;
    }
    if (!best) {
      // Nowhere free (a box too small to hold three labels): at the tip, kept inside.
      const cx = Math.max(L.w / 2 + 1, Math.min(W - L.w / 2 - 1, L.x)),
        cy = Math.max(L.h / 2 + 1, Math.min(H - L.h / 2 - 1, L.y));
      best = { cx, cy, box: { x0: cx - L.w / 2, x1: cx + L.w / 2, y0: cy - L.h / 2, y1: cy + L.h / 2 } };
    }
    placed.push(best.box);
    Object.assign(L, best);
  }
}

export class NlAxisCube extends NlFigure {
  static catalog = 'axisCube';
  static summary = 'The reduction group of one element of a [B, T, D] tensor, in 3-D.';
  static minHeight = 776; // px kept by normlab/styles.css (measured at 960 px, default attributes)
  static phoneMinHeight = { en: 1207, zh: 1063 }; // px kept up to 600 px wide (measured at 360 px, default attributes)
  static stateDoc =
    '`members` ([b, t, d] each), `axes`, `varying`, `partial`, `geometry`, `groupCount`, `groupSize`, `channelsPerGroup`, `measure`, `groupChoices`, `multiples` ({method, numGroups, members} for BatchNorm, LayerNorm, InstanceNorm, GroupNorm), `yaw`, `pitch`'; // `state` keys beyond the attributes (README)
  static params = {
    shape: {
      attr: 'shape',
      kind: 'vector',
      length: 3,
      default: [3, 4, 6],
      doc: 'B, T, D, each 1 to 12; D = 6 lets GroupNorm show G = 1, 2, 3 and 6',
    },
    method: {
      attr: 'method',
      kind: 'choice',
      choices: METHODS,
      default: 'layer_norm',
      control: 'select',
      doc: 'the normalization whose group is shown',
    },
    numGroups: {
      attr: 'num-groups',
      kind: 'number',
      integer: true,
      min: 1,
      max: MAX_SIDE,
      default: 1,
      doc: 'G for GroupNorm; the select offers only the G the core accepts, and a refused one keeps the last drawing with a message naming them',
    },
    index: {
      attr: 'index',
      kind: 'vector',
      length: 3,
      default: [0, 1, 2],
      doc: 'the chosen element (b, t, d), clamped into the shape',
    },
    reading: {
      attr: 'reading',
      kind: 'choice',
      choices: ['sequence', 'image'],
      default: 'sequence',
      control: 'select',
      doc: 'sequence ([B, T, d]: tokens, hidden width) or image ([N, HW, C]: positions, channels); the labels follow',
    },
  };
  static css = `${figureCss}
.controls { gap: 8px 14px; }
.control select { min-height: 36px; max-width: 100%; }
.index { flex-wrap: wrap; }
.steppers { display: inline-flex; gap: 6px; }
.control.index input { width: 56px; min-height: 36px; padding: 2px 6px; }
button { min-height: 36px; }
/* On a phone every control is a finger's size. */
.view { touch-action: pan-y; cursor: grab; border-radius: 6px; user-select: none; -webkit-user-select: none; }
.view:active { cursor: grabbing; }
.view svg { max-width: 560px; margin: 0 auto; }
.voxel { stroke-width: 0.8; stroke-linejoin: round; cursor: pointer; }
.voxel.other { fill: var(--nl-reference); stroke: var(--nl-reference); }
.voxel.member { fill: var(--nl-group); stroke: var(--nl-bg); stroke-opacity: 0.7; }
.voxel.chosen { fill: var(--nl-chosen); stroke: var(--nl-group); stroke-width: 2; stroke-opacity: 1; }
.group-shade { fill: #000000; stroke: none; pointer-events: none; }
.group-shade.s1 { fill-opacity: 0.14; }
.group-shade.s2 { fill-opacity: 0.3; }
.halo { fill: none; stroke: var(--nl-bg); stroke-width: 6; stroke-linejoin: round; pointer-events: none; }
.frame { stroke: var(--nl-muted); stroke-width: 1; stroke-opacity: 0.55; pointer-events: none; }
.frame.hidden { stroke-dasharray: 3 4; stroke-opacity: 0.35; }
.group-edge { stroke: var(--nl-fg); stroke-width: 1.6; stroke-linecap: round; pointer-events: none; }
.group-edge.hidden { stroke-dasharray: 3 3; stroke-opacity: 0.5; stroke-width: 1.2; }
.axis-line { stroke: var(--nl-muted); stroke-width: 1.6; pointer-events: none; }
.axis-label { font-size: var(--nl-label-size); fill: var(--nl-fg); font-weight: 600; pointer-events: none;
  paint-order: stroke; stroke: var(--nl-bg); stroke-width: 4px; stroke-linejoin: round; }
.hint { font-size: var(--nl-small-size); color: var(--nl-muted); margin: 2px 0 0; }
.wrap:not(.drawn) > .multiples { visibility: hidden; }
.has-error .multiples { opacity: 0.35; }
.multiples { margin-top: 10px; container-type: inline-size; }
.multiples-title { font-size: var(--nl-small-size); color: var(--nl-muted); margin: 0 0 6px; }
.multiples-grid { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 8px; }
@container (min-width: 560px) { .multiples-grid { grid-template-columns: repeat(4, minmax(0, 1fr)); } }
.multiple { position: relative; padding: 6px; border: 1px solid var(--nl-grid); border-radius: 8px; }
.multiple:hover { border-color: var(--nl-muted); }
.multiple.pressed { border: 2px solid var(--nl-group); padding: 5px; }
.multiple .pick { position: absolute; inset: 0; width: 100%; height: 100%; min-height: 44px; padding: 0; margin: 0;
  background: transparent; border: none; border-radius: 8px; }
.multiple-name { font-weight: 600; font-size: var(--nl-label-size); fill: var(--nl-fg); }
.multiple-count { font-size: var(--nl-small-size); fill: var(--nl-muted); }
.mini { overflow: visible; }
.sheet { fill: var(--nl-reference); fill-opacity: 0.1; stroke: var(--nl-muted); stroke-width: 1; stroke-opacity: 0.7; }
.sheet-grid { fill: none; stroke: var(--nl-reference); stroke-width: 0.6; stroke-opacity: 0.45; }
.post { stroke: var(--nl-muted); stroke-width: 0.8; stroke-dasharray: 2 3; stroke-opacity: 0.6; }
.cell { fill: var(--nl-group); fill-opacity: 0.85; stroke: var(--nl-group); stroke-width: 0.5; }
.cells-outline { fill: none; stroke: var(--nl-fg); stroke-width: 1.3; stroke-linejoin: round; }
.mini-chosen { fill: var(--nl-chosen); stroke: var(--nl-bg); stroke-width: 1; }
.mini-axis { fill: none; stroke: var(--nl-muted); stroke-width: 1.2; }
.mini-label { font-size: var(--nl-small-size); fill: var(--nl-muted); font-weight: 600; }
`;

  constructor() {
    super();
    this._yaw = VIEW.yaw;
    this._pitch = VIEW.pitch;
    this._choiceCache = new Map();
    this._placed = [];
    this._anim = 0;
  }

  // ---- parameters --------------------------------------------------------------
  /** shape and index are three whole numbers: say so in the reader's language. */
  parseValue(key, text) {
    const r = super.parseValue(key, text);
    if (key !== 'shape' && key !== 'index') return r;
    if (r.error && text.split(',', 4).length > 3) return r; // the base's "at most" message
    const bad =
      r.error ||
      r.value.some(
        (n) => !Number.isInteger(n) || n < (key === 'shape' ? 1 : 0) || n > (key === 'shape' ? MAX_SIDE : MAX_SIDE - 1),
      );
    if (bad)
      return {
        error: this.t(key === 'shape' ? 'badShape' : 'badIndex', {
          value: text,
          max: key === 'shape' ? MAX_SIDE : MAX_SIDE - 1,
        }),
      };
    return r;
  }

  /** The G the core accepts for a channel count D (asked once per D). */
  groupChoices(core, D) {
    if (!this._choiceCache.has(D)) {
      const ok = [];
      for (let g = 1; g <= D; g++) {
        try {
          core.run('reduction_group', {}, { method: 'group_norm', shape: [1, 1, D], index: [0, 0, 0], num_groups: g });
          ok.push(g);
        } catch {
          /* not a valid G for this D */
        }
      }
      this._choiceCache.set(D, ok);
    }
    return this._choiceCache.get(D);
  }

  /**
   * A core error in the reader's language. A G the core refuses for this D
   * (code not_divisible) is named with the G it accepts; anything else goes
   * the base's way (error_<code>, coreError).
   */
  coreMessage(e) {
    const v = this._values;
    if (this._core && e?.code === 'not_divisible' && v.method === 'group_norm') {
      const choices = this.groupChoices(this._core, v.shape[2]);
      if (!choices.includes(v.numGroups)) {
        return this.t('groupsInvalid', {
          g: this.fmt(v.numGroups),
          d: this.fmt(v.shape[2]),
          axis: this.axisNames(v.reading)[2],
          choices: this.list(choices),
        });
      }
    }
    return super.coreMessage(e);
  }

  axisNames(reading) {
    return AXES[reading] ?? AXES.sequence;
  }

  list(values) {
    return values.map((v) => this.fmt(v)).join(this.t('listSep'));
  }

  // ---- computation: every group comes from the core --------------------------------
  /** The members of element `index`'s group under `method`, as [b, t, d] triples (reduction_group). */
  members(core, method, shape, index, numGroups) {
    const attrs = { method, shape, index };
    if (method === 'group_norm') attrs.num_groups = numGroups;
    // The core's answer for the same question is kept (the last 256): a new element asks again,
    // an unchanged group is the same array, so the drawing can tell it has not changed.
    const key = `${method}|${shape}|${index}|${attrs.num_groups ?? ''}`;
    const cache = (this._memberCache ??= new Map());
    const hit = cache.get(key);
    if (hit) {
      cache.delete(key);
      cache.set(key, hit);
      return hit;
    }
    const flat = core.run('reduction_group', {}, attrs).members.data;
    const out = [];
    for (let i = 0; i + 2 < flat.length; i += 3) out.push(Object.freeze([flat[i], flat[i + 1], flat[i + 2]]));
    Object.freeze(out);
    cache.set(key, out);
    if (cache.size > 256) cache.delete(cache.keys().next().value);
    return out;
  }

  /**
   * The G of the GroupNorm small multiple: the figure's own while GroupNorm is shown (or while
   * it is a G above 1 the core accepts), else the smallest G above 1 the core accepts for D, so
   * that the small cube shows groups between LayerNorm's and InstanceNorm's (1 when D = 1).
   */
  multipleGroups(core, v, D) {
    const choices = this.groupChoices(core, D);
    if (v.method === 'group_norm' || (v.numGroups > 1 && choices.includes(v.numGroups))) return v.numGroups;
    return choices.find((g) => g > 1) ?? 1;
  }

  compute(core, v) {
    const shape = [...v.shape];
    const index = v.index.map((i, a) => Math.min(i, shape[a] - 1));
    const members = this.members(core, v.method, shape, index, v.numGroups);
    const [B, T, D] = shape;
    const dShape = DESCRIBE_LAYOUT[v.method] === 'btd' ? [B, T, D] : [B, D, T];
    const desc = core.describe(v.method, {
      shape: dShape,
      attrs: v.method === 'group_norm' ? { num_groups: v.numGroups } : {},
    });
    // Presentation of the core's set: along which axes its members differ.
    const spread = [0, 1, 2].map((a) => new Set(members.map((m) => m[a])).size);
    const varying = [0, 1, 2].filter((a) => spread[a] > 1);
    const partial = varying.filter((a) => spread[a] < shape[a]);
    return {
      shape,
      index,
      members,
      axes: this.axisNames(v.reading),
      varying,
      partial,
      geometry: ['point', 'line', 'plane', 'block'][varying.length],
      groupCount: desc.group.count,
      groupSize: desc.group.size,
      // GroupNorm's layout splits C into [G, C/G]: the channels in one group.
      channelsPerGroup: v.method === 'group_norm' ? desc.group.layout[2] : null,
      measure: desc.measure,
      groupChoices: this.groupChoices(core, D),
      // The four methods side by side, each group from its own reduction_group call.
      multiples: MULTIPLES.map((method) => {
        const g = method === 'group_norm' ? this.multipleGroups(core, v, D) : null;
        return { method, numGroups: g, members: this.members(core, method, shape, index, g) };
      }),
      yaw: this._yaw,
      pitch: this._pitch,
    };
  }

  // ---- DOM -----------------------------------------------------------------------
  buildControls(box) {
    const method = this.select('method');
    // G: a select of the values the core accepts for the current D.
    this._gLabel = el('label', { class: 'control groups' });
    this._gText = el('span');
    this._gSelect = el('select', { part: 'select' });
    this._gSelect.addEventListener('change', () => this.setByUser('numGroups', this._gSelect.value));
    this._gLabel.append(this._gText, this._gSelect);
    // The chosen element: one stepper per axis.
    const indexBox = el('span', { class: 'control index', role: 'group' });
    this._indexLabel = el('span');
    // the three steppers wrap as one (at 360 px the third one fell alone onto the next line)
    const steppers = el('span', { class: 'steppers' });
    indexBox.append(this._indexLabel, steppers);
    this._indexInputs = [0, 1, 2].map((axis) => {
      const input = el('input', { type: 'number', min: 0, step: 1, inputmode: 'numeric', part: 'number' });
      input.addEventListener('change', () => {
        const n = Number(input.value);
        const s = this._state;
        if (!s || input.value.trim() === '' || !Number.isInteger(n)) return this._syncIndex();
        const idx = [...s.index];
        idx[axis] = Math.max(0, Math.min(s.shape[axis] - 1, n));
        this.setByUser('index', idx);
      });
      steppers.append(input);
      return input;
    });
    const reading = this.select('reading');
    this._resetBtn = el('button', { type: 'button', part: 'button' });
    this._resetBtn.addEventListener('click', () => this._resetView());
    box.append(method, this._gLabel, indexBox, reading, this._resetBtn);
  }

  buildView(view) {
    view.setAttribute('tabindex', '0');
    view.setAttribute('role', 'img');
    this._svg = el('svg', { class: 'main', viewBox: '0 0 460 340', 'aria-hidden': 'true' });
    // Back to front: arrows along hidden edges, the lattice's and the group's hidden edges, the cells
    // in depth order (all but the chosen one), then over them the lattice's visible edges, the group's
    // shading and visible edges and the chosen cell, then the arrows along visible edges and the labels.
    this._axesBackG = el('g');
    this._backG = el('g');
    this._pointsG = el('g');
    this._axesG = el('g');
    this._labels = [0, 1, 2].map((a) =>
      el('text', { class: 'axis-label', 'data-axis': a, 'text-anchor': 'middle', 'dominant-baseline': 'central' }),
    );
    this._svg.append(this._axesBackG, this._backG, this._pointsG, this._axesG);
    view.append(this._svg);
    this._hint = el('p', { class: 'hint' });
    view.after(this._hint); // the base placed the view in the figure already
    this._buildMultiples();
    this._hint.after(this._multBox);
    this._wireView(view);
  }

  /** The small multiples: one button per method, a stack of [T × d] sheets in each. */
  _buildMultiples() {
    this._multBox = el('div', { class: 'multiples', part: 'multiples' });
    this._multTitle = el('p', { class: 'multiples-title' });
    const grid = el('div', { class: 'multiples-grid', role: 'group' });
    this._multGrid = grid;
    this._mults = MULTIPLES.map((method) => {
      // A card: the drawing (with its name, so a picture drawn without JavaScript keeps it) and,
      // over the whole card, the button that shows the method above.
      const card = el('div', { class: 'multiple', part: 'multiple' });
      card.dataset.method = method;
      const svgEl = el('svg', { class: 'mini', viewBox: '0 0 150 100', 'aria-hidden': 'true' });
      const name = el('text', { class: 'multiple-name', 'text-anchor': 'middle' });
      const count = el('text', { class: 'multiple-count', 'text-anchor': 'middle' });
      const btn = el('button', { type: 'button', class: 'pick', part: 'button' });
      btn.addEventListener('click', () => this._pickMultiple(method));
      card.append(svgEl, btn);
      grid.append(card);
      return { method, card, btn, svg: svgEl, name, count };
    });
    this._multBox.append(this._multTitle, grid);
  }

  /** A small multiple chosen: its method (and GroupNorm's G) goes to the large view. */
  _pickMultiple(method) {
    const s = this._state;
    if (!s || !this._core) return;
    const g = s.multiples.find((m) => m.method === method);
    this.setValues(method === 'group_norm' ? { method, numGroups: g.numGroups } : { method });
    this.updateNow();
    this.emitChange();
  }

  _wireView(v) {
    v.addEventListener('keydown', (e) => {
      const step = e.shiftKey ? 2 : 10;
      const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
      if (!moves[e.key] || !this._state) return;
      e.preventDefault();
      this._rotate(...moves[e.key]);
      this.emitChange();
    });
    // A drag turns the grid; a tap (under 5 px of travel) chooses the element under it.
    let drag = null;
    onDrag(
      v,
      (e) => {
        if (!this._state) return null;
        drag = {
          x: e.clientX,
          y: e.clientY,
          x0: e.clientX,
          y0: e.clientY,
          moved: false,
          touch: e.pointerType !== 'mouse',
        };
        return (ev) => {
          if (!drag.moved && Math.hypot(ev.clientX - drag.x0, ev.clientY - drag.y0) > 5) drag.moved = true;
          const dx = ev.clientX - drag.x,
            dy = ev.clientY - drag.y;
          drag.x = ev.clientX;
          drag.y = ev.clientY;
          // Touch: only the horizontal part turns the grid (vertical swipes scroll the page).
          if (drag.moved) this._rotate(dx * 0.6, drag.touch ? 0 : -dy * 0.6);
        };
      },
      (e, cancelled) => {
        const d = drag;
        drag = null;
        if (d.moved) return this.emitChange();
        if (cancelled) return;
        const hit = this._pointAt(e.clientX, e.clientY, d.touch);
        if (hit) this.setByUser('index', hit);
      },
    );
  }

  /** The element under a pointer: the front-most cell drawn there, else the nearest within reach. */
  _pointAt(clientX, clientY, touch) {
    const box = this._svg.getBoundingClientRect();
    const vb = this._svg.viewBox.baseVal;
    if (!box.width || !vb?.width) return null;
    const x = ((clientX - box.left) * vb.width) / box.width,
      y = ((clientY - box.top) * vb.height) / box.height;
    let under = null,
      near = null,
      nearDist = touch ? 22 : 10;
    for (const p of this._placed) {
      const dist = Math.hypot(p.x - x, p.y - y);
      if (dist <= p.r && (!under || p.order > under.order)) under = p;
      if (dist < nearDist) ((near = p), (nearDist = dist));
    }
    const hit = under ?? near;
    return hit ? [hit.b, hit.t, hit.d] : null;
  }

  _rotate(dYaw, dPitch) {
    cancelAnimationFrame(this._anim);
    this._setAngles(((this._yaw + dYaw + 540) % 360) - 180, Math.max(-89, Math.min(89, this._pitch + dPitch)));
  }

  /** The view angle is part of the state: replace it, then draw from the new state. */
  _setAngles(yaw, pitch) {
    this._yaw = Math.round(yaw * 100) / 100;
    this._pitch = Math.round(pitch * 100) / 100;
    if (!this._state) return;
    this._state = Object.freeze({ ...this._state, yaw: this._yaw, pitch: this._pitch });
    this._turning = true;
    try {
      this.draw(this._state);
    } finally {
      this._turning = false;
    }
  }

  _resetView() {
    if (!this._state) return;
    const from = { yaw: this._yaw, pitch: this._pitch };
    const reduce = typeof matchMedia !== 'undefined' && matchMedia('(prefers-reduced-motion: reduce)').matches;
    const done = () => {
      this._setAngles(VIEW.yaw, VIEW.pitch);
      this.emitChange();
    };
    cancelAnimationFrame(this._anim);
    if (reduce) return done();
    const t0 = performance.now();
    const frame = (now) => {
      const k = Math.min(1, (now - t0) / 300);
      const ease = 1 - (1 - k) ** 3;
      if (k < 1) {
        this._setAngles(from.yaw + (VIEW.yaw - from.yaw) * ease, from.pitch + (VIEW.pitch - from.pitch) * ease);
        this._anim = requestAnimationFrame(frame);
      } else done();
    };
    this._anim = requestAnimationFrame(frame);
  }

  languageChanged() {
    this._gText.textContent = this.t('numGroups');
    this._gSelect.setAttribute('aria-label', this.t('numGroups'));
    this._resetBtn.textContent = this.t('resetView');
    this._hint.textContent = this.t('hint');
    this._multGrid.setAttribute('aria-label', this.t('multiplesLabel'));
    this._syncIndex();
    this._syncGroups();
  }

  _syncControls() {
    super._syncControls();
    this._gLabel.hidden = this._values.method !== 'group_norm';
    this._syncIndex();
    this._syncGroups();
  }

  /** The index steppers follow the state (clamped into its shape) and name the reading's axes. */
  _syncIndex() {
    const s = this._state;
    const shape = this._attrErrors.has('shape') && s ? s.shape : this._values.shape;
    const index = s && !this._attrErrors.has('index') ? s.index : this._values.index;
    const names = this.axisNames(this._attrErrors.has('reading') && s ? s.reading : this._values.reading);
    // the boxes' order in words: (b, t, d) in the sequence reading (a reader guessed what the three boxes were)
    this._indexLabel.textContent = this.t('element', { axes: names.map((n) => n.toLowerCase()).join(', ') });
    this._indexInputs.forEach((input, a) => {
      input.max = String(shape[a] - 1);
      input.setAttribute('aria-label', this.t('indexAxis', { axis: names[a], max: this.fmt(shape[a] - 1) }));
      if (this.shadowRoot.activeElement !== input || input.value === '')
        input.value = String(Math.min(index[a], shape[a] - 1));
    });
  }

  /** G offers what the core accepts for the current D; a G it refuses stays visible, marked. */
  _syncGroups() {
    if (!this._core || this._attrErrors.has('shape')) return;
    const D = this._values.shape[2],
      G = this._values.numGroups;
    const choices = this.groupChoices(this._core, D);
    const sel = this._gSelect;
    // (rebuilt only when D, G or the language changes: most inputs change neither)
    const key = `${D}|${G}|${this._attrErrors.has('numGroups')}|${this.lang}`;
    if (this._groupsKey === key) return;
    this._groupsKey = key;
    const opts = choices.map((g) => el('option', { value: g }, this.fmt(g)));
    if (!choices.includes(G) && !this._attrErrors.has('numGroups')) {
      opts.unshift(el('option', { value: G, disabled: '' }, this.t('groupsInvalidOption', { g: this.fmt(G) })));
    }
    sel.replaceChildren(...opts); // at most 13 options
    sel.value = String(G);
  }

  render() {
    super.render();
    this._syncIndex();
    this._syncGroups();
  }

  // ---- drawing -------------------------------------------------------------------------
  draw(s) {
    this._drawCube(s);
    // The small multiples do not turn with the view: a rotation redraws the cube only.
    if (!this._turning || !this._multDrawn) this._drawMultiples(s);
  }

  /** The label font size in px (the text's computed style; 12 where there is none). */
  _labelFont() {
    if (!this._fs) {
      const px = typeof getComputedStyle === 'function' ? parseFloat(getComputedStyle(this._labels[0]).fontSize) : NaN;
      if (px > 0) this._fs = px;
    }
    return this._fs || 12;
  }

  /** A label's width in px: measured once per text where the browser lays text out, else a generous estimate. */
  _labelWidth(node, fs) {
    const key = `${node.textContent}|${fs}`;
    this._textW ??= new Map();
    if (this._textW.has(key)) return this._textW.get(key);
    let w;
    try {
      w = node.getComputedTextLength?.() ?? 0;
    } catch {
      w = 0; // not laid out (hidden): estimate
    }
    if (w > 0) this._textW.set(key, w);
    return w > 0 ? w : node.textContent.length * fs * 0.64;
  }

  _drawCube(s) {
    const svg = this._svg;
    // The width is measured once and kept by the base (a layout of the article
    // page costs milliseconds); the base redraws on width changes.
    if (!this._turning || !this._size) {
      const w0 = this.widthOf(svg) || 460;
      const H = Math.round(Math.min(340, Math.max(240, w0 * 0.74)));
      this._size = { W: this.fit(svg, 460, H), H };
    }
    const { W, H } = this._size;
    const fs = this._labelFont();
    // What depends on the angle and the shape only (the projection, the cells' places and order, the
    // lattice, the arrows) is worked out once per view; a method or an element changes colours.
    const geoKey = `${s.shape}|${s.yaw}|${s.pitch}|${W}|${H}|${fs}`;
    const turned = this._geo?.key !== geoKey;
    if (turned) this._geo = this._cubeView(s, W, H, fs, geoKey);
    const G = this._geo;
    const { at, towards, o, near, f } = G;
    const [B, T, D] = s.shape;

    // The group's outline: the box its members fill (each member's whole cell), its edges on
    // the reader's side over the cells, the hidden ones dashed behind them. A member set that is
    // not a box (no method here gives one) keeps the colours only.
    const gBox = memberBox(s.members);
    const groupFront = [],
      groupBack = [];
    const shades = [];
    let hull = null,
      farMember = Infinity;
    if (gBox) {
      const glo = gBox.lo.map((v) => v - 0.5),
        ghi = gBox.hi.map((v) => v + 0.5);
      boxEdges(glo, ghi, towards).forEach((e, i) => {
        const p = at(e.from),
          q = at(e.to);
        const line = this._groupLines[i];
        put(line, 'class', `group-edge${e.hidden ? ' hidden' : ''}`);
        put(line, 'x1', f(p.x));
        put(line, 'y1', f(p.y));
        put(line, 'x2', f(q.x));
        put(line, 'y2', f(q.y));
        (e.hidden ? groupBack : groupFront).push(line);
      });
      // The group block's faces across t and across d, shaded over its cells (the faces across b
      // keep the group's colour): each its own shade, so the block reads as a solid.
      for (const face of boxFaces(glo, ghi, towards)) {
        if (face.axis === 0 || !face.visible) continue;
        const node = this._shades[face.axis - 1];
        put(node, 'd', `M${face.corners.map((c) => `${f(at(c).x)},${f(at(c).y)}`).join('L')}Z`);
        shades.push(node);
      }
      // The block on screen (the hull of its corners) and the depth of its farthest cell: a glass
      // cell drawn after that one and over the block lies in front of part of it.
      hull = convexHull(boxCorners(glo, ghi).map((c) => at(c)));
      for (const c of boxCorners(gBox.lo, gBox.hi))
        farMember = Math.min(farMember, o.depth + c[0] * towards[0] + c[1] * towards[1] + c[2] * towards[2]);
    }

    // The cells: one small cube per element, its faces that face the reader drawn as one path,
    // far to near (painter's order; for equal cubes on a grid the depth of the centre orders
    // every pair that overlaps on screen). The group's cells fill their whole slots, so they
    // join into one solid block; the others are glass, smaller and fainter the farther they
    // are, and fainter still where they lie in front of the group, so it is never hidden behind
    // them. The chosen element last, on top, so no cell hides it.
    const inGroup = new Uint8Array(B * T * D);
    for (const [b, t, d] of s.members) inGroup[(b * T + t) * D + d] = 1;
    const chosenId = (s.index[0] * T + s.index[1]) * D + s.index[2];
    // A larger tensor puts more glass in front of the group: each cell the fainter (the default [3, 4, 6] at 1).
    const glass = Math.min(1, (13 / (B + T + D)) ** 1.5);
    let chosen = null;
    for (const cell of G.order) {
      const isChosen = cell.id === chosenId,
        isMember = inGroup[cell.id] === 1;
      const k = near(cell.depth);
      // Half the cube's side, in index steps: a member's (and the chosen one's) fills its slot.
      const h = isChosen || isMember ? 0.5 : 0.3 + 0.08 * k;
      const c = cell.c;
      if (cell.h !== h || cell.geo !== geoKey) {
        cell.h = h;
        cell.geo = geoKey;
        cell.path = G.cubePath(cell.x, cell.y, h);
        c.setAttribute('d', cell.path);
      }
      cell.r = h * G.reach * 0.95;
      const front =
        !isMember &&
        !isChosen &&
        hull !== null &&
        cell.depth > farMember + 1e-9 &&
        distToPolygon(cell.x, cell.y, hull) <= h * G.cornerReach;
      const cls = `voxel ${isMember ? 'member' : 'other'}${isChosen ? ' chosen' : ''}${front ? ' front' : ''}`;
      put(c, 'class', cls);
      if (isChosen) {
        put(c, 'fill-opacity', null);
        put(c, 'stroke-opacity', null);
        chosen = cell;
      } else if (isMember) {
        put(c, 'fill-opacity', (0.8 + 0.2 * k).toFixed(2));
        put(c, 'stroke-opacity', null);
      } else if (front) {
        put(c, 'fill-opacity', (glass * 0.04).toFixed(3));
        put(c, 'stroke-opacity', (glass * 0.12).toFixed(3));
      } else {
        put(c, 'fill-opacity', (glass * (0.1 + 0.22 * k)).toFixed(3));
        put(c, 'stroke-opacity', (glass * (0.18 + 0.45 * k)).toFixed(3));
      }
    }
    // The lattice's visible edges, the group's shading and outline, the halo and the chosen cell over
    // every other cell (a cell can never lie in front of an edge of the convex box that holds it).
    const over = [...G.frameFront, ...shades, ...groupFront];
    if (chosen) {
      put(this._halo, 'd', chosen.path);
      over.push(this._halo, chosen.c);
    }
    const cells = chosen ? G.order.filter((c) => c !== chosen) : G.order;
    const nodes = [...cells.map((c) => c.c), ...over];
    if (turned) this._pointsG.replaceChildren(...nodes);
    else {
      // A newly chosen cell leaves its place among the others first (one move, not all that follow it).
      const pc = chosen?.c;
      if (pc && pc.parentNode === this._pointsG && pc !== this._pointsG.lastChild) pc.remove();
      syncChildren(this._pointsG, nodes);
    }
    syncChildren(this._backG, [...G.frameBack, ...groupBack]);
    // Hit testing, front-most last.
    this._placed = [...cells, ...(chosen ? [chosen] : [])].map((c, order) => ({
      x: c.x,
      y: c.y,
      r: c.r + 1,
      order,
      b: c.b,
      t: c.t,
      d: c.d,
    }));

    // The labels: placed once per view and text.
    const texts = [0, 1, 2].map((a) => `${s.axes[a]} (${this.fmt(s.shape[a])})`);
    const labelKey = `${geoKey}|${texts}`;
    if (this._labelKey !== labelKey) {
      this._labelKey = labelKey;
      const labels = G.arrows.map((ar) => {
        const node = this._labels[ar.a];
        node.textContent = texts[ar.a];
        return {
          node,
          x: ar.tip.x,
          y: ar.tip.y,
          dir: { x: ar.ux, y: ar.uy },
          w: this._labelWidth(node, fs),
          h: fs * 1.25,
        };
      });
      placeLabels(
        labels,
        W,
        H,
        G.arrows.map((ar) => [ar.from, ar.tip]),
        G.hull,
      );
      for (const L of labels) {
        L.node.setAttribute('x', f(L.cx));
        L.node.setAttribute('y', f(L.cy));
      }
    }
    if (turned) {
      this._axesBackG.replaceChildren(...G.axisBack);
      this._axesG.replaceChildren(...G.axisFront, ...this._labels);
      this._view.setAttribute(
        'aria-label',
        this.t('viewLabel', { yaw: this.fmt(Math.round(s.yaw)), pitch: this.fmt(Math.round(s.pitch)) }),
      );
    }
  }

  /** The lattice's nodes, made once: its twelve edges, the group's twelve, the three arrows, the shades. */
  _cubeNodes() {
    if (this._frameLines) return;
    this._frameLines = Array.from({ length: 12 }, () => el('line', { class: 'frame' }));
    this._groupLines = Array.from({ length: 12 }, () => el('line', { class: 'group-edge' }));
    this._arrowLines = [0, 1, 2].map((a) => el('line', { class: 'axis-line', 'data-axis': a }));
    this._arrowHeads = [0, 1, 2].map(() => el('path', { class: 'axis-line', fill: 'none' }));
    this._halo = el('path', { class: 'halo', 'aria-hidden': 'true' });
    this._shades = [1, 2].map((a) => el('path', { class: `group-shade s${a}` }));
  }

  /**
   * One view of the lattice (shape, angle, size): the projection, each cell's centre, depth and
   * place in the painter's order, the lattice's edges and the axis arrows, written to their nodes.
   */
  _cubeView(s, W, H, fs, key) {
    this._cubeNodes();
    const sizes = s.shape;
    const [B, T, D] = sizes;
    const yaw = (s.yaw * Math.PI) / 180,
      pitch = (s.pitch * Math.PI) / 180;
    const cy = Math.cos(yaw),
      sy = Math.sin(yaw),
      cp = Math.cos(pitch),
      sp = Math.sin(pitch);
    // Grid coordinates: d to the right, b downward, t into the screen: one horizontal [T × D] sheet per b,
    // as the small multiples below draw them (and the GroupNorm paper's cubes).
    const rot = (b, t, d) => {
      const X = d - (D - 1) / 2,
        Y = (B - 1) / 2 - b,
        Z = (T - 1) / 2 - t;
      const x1 = cy * X + sy * Z,
        z1 = -sy * X + cy * Z;
      return { x: x1, y: -(cp * Y - sp * z1), depth: sp * Y + cp * z1 };
    };
    // The lattice's box (the outer cells' faces) and its corner at index (0, 0, 0),
    // where the three axis arrows start.
    const lo = [-0.5, -0.5, -0.5],
      hi = sizes.map((n) => n - 0.5);
    // (room past the box's far corners for the labels)
    const ends = [0, 1, 2].map((a) => {
      const c = [...lo];
      c[a] = hi[a] + 0.8;
      return c;
    });
    const fitPts = [...boxCorners(lo, hi), ...ends].map((c) => rot(...c));
    const xs = fitPts.map((c) => c.x),
      ys = fitPts.map((c) => c.y);
    const minX = Math.min(...xs),
      maxX = Math.max(...xs),
      minY = Math.min(...ys),
      maxY = Math.max(...ys);
    const padX = 8 + fs * 4.2,
      padY = 10 + fs * 1.6;
    const unit = Math.min((W - 2 * padX) / Math.max(maxX - minX, 1), (H - 2 * padY) / Math.max(maxY - minY, 1), 64);
    const cx = W / 2 - ((minX + maxX) / 2) * unit,
      cyy = H / 2 - ((minY + maxY) / 2) * unit;
    const px = (p) => ({ x: cx + p.x * unit, y: cyy + p.y * unit, depth: p.depth });
    const at = (c) => px(rot(...c));
    const f = (v) => v.toFixed(1);
    // Depth cue: 0 at the lattice's farthest corner, 1 at its nearest.
    const cornerDepths = boxCorners(lo, hi).map((c) => rot(...c).depth);
    const dMin = Math.min(...cornerDepths),
      dSpan = Math.max(...cornerDepths) - dMin || 1;
    const near = (depth) => Math.max(0, Math.min(1, (depth - dMin) / dSpan));
    // Which way each index axis points in depth (> 0: towards the reader).
    const o = rot(0, 0, 0);
    const towards = [rot(1, 0, 0), rot(0, 1, 0), rot(0, 0, 1)].map((p) => p.depth - o.depth);

    // The lattice's edges: hidden ones dashed behind every cell, visible ones over them.
    const lattice = boxEdges(lo, hi, towards);
    const frameBack = [],
      frameFront = [];
    lattice.forEach((e, i) => {
      const p = at(e.from),
        q = at(e.to);
      const line = this._frameLines[i];
      put(line, 'class', `frame${e.hidden ? ' hidden' : ''}`);
      put(line, 'x1', f(p.x));
      put(line, 'y1', f(p.y));
      put(line, 'x2', f(q.x));
      put(line, 'y2', f(q.y));
      (e.hidden ? frameBack : frameFront).push(line);
    });

    const o0 = at([0, 0, 0]);
    const steps = [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ].map((c) => {
      const p = at(c);
      return { x: p.x - o0.x, y: p.y - o0.y };
    });
    // Along each axis the side that faces the reader (none when that face is seen edge-on).
    const quads = [0, 1, 2]
      .filter((a) => Math.abs(towards[a]) > 1e-3)
      .map((a) => {
        const [u, w] = others(a);
        return { a, s: towards[a] > 0 ? 1 : -1, u, w };
      });
    // A cube's visible faces as one path: each face's four corners relative to the cube's centre,
    // for half-side 1 (in index steps), computed once per view.
    const shape = quads.map(({ a, s: side, u, w }) =>
      [
        [-1, -1],
        [1, -1],
        [1, 1],
        [-1, 1],
      ].map(([bu, bw]) => ({
        x: side * steps[a].x + bu * steps[u].x + bw * steps[w].x,
        y: side * steps[a].y + bu * steps[u].y + bw * steps[w].y,
      })),
    );
    const r1 = (v) => Math.round(v * 10) / 10;
    const cubePath = (x, y, h) => {
      let d = '';
      for (const q of shape)
        d += `M${r1(x + h * q[0].x)},${r1(y + h * q[0].y)}L${r1(x + h * q[1].x)},${r1(y + h * q[1].y)}L${r1(x + h * q[2].x)},${r1(y + h * q[2].y)}L${r1(x + h * q[3].x)},${r1(y + h * q[3].y)}Z`;
      return d;
    };
    const shapeKey = sizes.join('x');
    if (this._cellsKey !== shapeKey) {
      this._cellsKey = shapeKey;
      this._cells = [];
      for (let b = 0; b < B; b++)
        for (let t = 0; t < T; t++)
          for (let d = 0; d < D; d++) {
            const c = el('path', { part: 'point' });
            Object.assign(c.dataset, { b: String(b), t: String(t), d: String(d) });
            this._cells.push({ c, b, t, d, id: (b * T + t) * D + d });
          }
    }
    for (const cell of this._cells) {
      // (the centre on screen: the projection is affine, so o0 plus whole steps along each axis)
      cell.x = o0.x + cell.b * steps[0].x + cell.t * steps[1].x + cell.d * steps[2].x;
      cell.y = o0.y + cell.b * steps[0].y + cell.t * steps[1].y + cell.d * steps[2].y;
      cell.depth = o.depth + cell.b * towards[0] + cell.t * towards[1] + cell.d * towards[2];
    }
    const order = [...this._cells].sort((a, b) => a.depth - b.depth);
    const reach = Math.max(...steps.map((v) => Math.hypot(v.x, v.y)));
    // How far a cube of half-side 1 reaches from its centre on screen (its farthest corner).
    const [s0, s1, s2] = steps;
    const cornerReach = Math.max(
      ...[
        [1, 1, 1],
        [1, 1, -1],
        [1, -1, 1],
        [-1, 1, 1],
      ].map(([i, j, k]) => Math.hypot(i * s0.x + j * s1.x + k * s2.x, i * s0.y + j * s1.y + k * s2.y)),
    );

    // Axes: from the corner at index (0, 0, 0) along the lattice's three edges there, the way the
    // index grows, each ending at the edge's far corner (on the lattice, never out in the empty
    // space past it); only an edge shorter than an arrowhead on screen gets a longer arrow, and one
    // seen end-on points outward from the middle of the picture. Each label beside its arrow's tip,
    // placed clear of the other labels, the arrows and the lattice. An arrow along a hidden edge is
    // drawn behind the cells.
    const origin = at(lo);
    const centre = px({ x: (minX + maxX) / 2, y: (minY + maxY) / 2 });
    const MIN_ARROW = 16;
    const arrows = [0, 1, 2].map((a) => {
      const end = [...lo];
      end[a] = hi[a];
      const E = at(end);
      let ux = E.x - origin.x,
        uy = E.y - origin.y;
      const len = Math.hypot(ux, uy);
      if (len > 6) ((ux /= len), (uy /= len));
      else {
        const ox = origin.x - centre.x,
          oy = origin.y - centre.y,
          ol = Math.hypot(ox, oy) || 1;
        ux = ox / ol;
        uy = oy / ol;
      }
      const reachLen = len > 6 ? Math.max(len, MIN_ARROW) : MIN_ARROW;
      const tip = { x: origin.x + ux * reachLen, y: origin.y + uy * reachLen };
      const edge = lattice.find((e) => e.axis === a && e.from.every((v, i) => v === lo[i]));
      return { a, from: origin, tip, ux, uy, len, hidden: edge?.hidden };
    });
    const axisBack = [],
      axisFront = [];
    for (const ar of arrows) {
      const line = this._arrowLines[ar.a],
        head = this._arrowHeads[ar.a];
      put(line, 'x1', f(ar.from.x));
      put(line, 'y1', f(ar.from.y));
      put(line, 'x2', f(ar.tip.x));
      put(line, 'y2', f(ar.tip.y));
      const ax = ar.tip.x - ar.ux * 7,
        ay = ar.tip.y - ar.uy * 7;
      put(
        head,
        'd',
        `M${f(ax - ar.uy * 4)},${f(ay + ar.ux * 4)}L${f(ar.tip.x)},${f(ar.tip.y)}L${f(ax + ar.uy * 4)},${f(ay - ar.ux * 4)}`,
      );
      (ar.hidden ? axisBack : axisFront).push(line, head);
    }
    const hull = convexHull(boxCorners(lo, hi).map((c) => at(c)));
    return {
      key,
      at,
      f,
      near,
      o,
      o0,
      towards,
      steps,
      cubePath,
      order,
      reach,
      cornerReach,
      frameBack,
      frameFront,
      arrows,
      axisBack,
      axisFront,
      hull,
    };
  }

  /**
   * The four methods of the GroupNorm paper's figure side by side, for the chosen element:
   * each a stack of sheets, one [T × D] sheet per b, the group's cells shaded and outlined.
   */
  _drawMultiples(s) {
    this._multDrawn = true;
    const names = s.axes;
    const title = this.t('multiplesTitle', {
      index: s.index.map((i) => this.fmt(i)).join(', '),
      B: names[0],
      sheet: `${names[1]} × ${names[2]}`,
    });
    if (this._multTitle.textContent !== title) this._multTitle.textContent = title;
    const f = (v) => v.toFixed(1);
    const indexKey = s.index.join(',');
    for (const m of this._mults) {
      const g = s.multiples.find((x) => x.method === m.method);
      const lay = this._multLayout(m, s, this.widthOf(m.svg) || 150);
      const label =
        m.method === 'group_norm' ? this.t('groupNormG', { g: this.fmt(g.numGroups) }) : this.t(`choice_${m.method}`);
      const count = this.t('cells', { n: this.fmt(g.members.length) });
      // The group's cells, their outline and the chosen cell change with the members and the
      // element only (the core's members of an unchanged group are the same array: see members()).
      if (m.drawn?.lay !== lay || m.drawn.members !== g.members || m.drawn.index !== indexKey) {
        m.drawn = { lay, members: g.members, index: indexKey };
        const { P, quad, sheets } = lay;
        const inGroup = new Set(g.members.map((x) => x.join(',')));
        const perSheet = sheets.map(() => []);
        const outlines = sheets.map(() => '');
        let used = 0;
        for (const [mb, mt, md] of g.members) {
          const cell = (m.pool[used] ??= el('path', { class: 'cell' }));
          used++;
          put(cell, 'd', quad(mb, mt, md, mt + 1, md + 1));
          const id = `${mb},${mt},${md}`;
          if (cell.__id !== id) {
            cell.__id = id;
            Object.assign(cell.dataset, { b: String(mb), t: String(mt), d: String(md) });
          }
          perSheet[mb].push(cell);
          // The outline of their union: an edge where a neighbour is not in it.
          const side = (dt, dd, p0, p1) => {
            if (inGroup.has(`${mb},${mt + dt},${md + dd}`)) return;
            const a = P(mb, ...p0),
              z = P(mb, ...p1);
            outlines[mb] += `M${f(a.x)},${f(a.y)}L${f(z.x)},${f(z.y)}`;
          };
          side(-1, 0, [mt, md], [mt, md + 1]);
          side(1, 0, [mt + 1, md], [mt + 1, md + 1]);
          side(0, -1, [mt, md], [mt + 1, md]);
          side(0, 1, [mt, md + 1], [mt + 1, md + 1]);
        }
        sheets.forEach((sh, b) => {
          syncChildren(sh.cells, perSheet[b]);
          put(sh.outline, 'd', outlines[b]);
          sh.outline.style.display = perSheet[b].length ? '' : 'none';
        });
        const [ib, it, id] = s.index;
        put(m.chosen, 'd', quad(ib, it, id, it + 1, id + 1));
        if (m.chosen.parentNode !== sheets[ib].g) sheets[ib].g.append(m.chosen);
      }
      if (m.name.textContent !== label) m.name.textContent = label;
      if (m.count.textContent !== count) m.count.textContent = count;
      const pressed = s.method === m.method && (m.method !== 'group_norm' || s.numGroups === g.numGroups);
      put(m.btn, 'aria-pressed', String(pressed));
      m.card.classList.toggle('pressed', pressed);
      put(m.btn, 'aria-label', this.t('multipleLabel', { method: label, n: this.fmt(g.members.length) }));
    }
  }

  /**
   * One small multiple's stack of sheets for a shape, width and reading: the layout and the
   * nodes that stay while the method or the element changes (sheets, their rulings, the posts
   * between them, the axis names), made once.
   */
  _multLayout(m, s, w0) {
    const [B, T, D] = s.shape;
    const names = s.axes;
    const key = `${s.shape}|${w0}|${names}`;
    if (m.lay?.key === key) return m.lay;
    // (the last few layouts are kept: switching the reading back and forth reuses their nodes)
    m.layouts ??= new Map();
    const kept = m.layouts.get(key);
    if (kept) {
      m.lay = kept;
      this._showMultLayout(m, kept);
      return kept;
    }
    const fs = 11;
    const f = (v) => v.toFixed(1);
    // Layout (px): d to the right, t leaning back (down-right), the sheets b stacked downward.
    const lm = 6 + names[1].length * fs * 0.7,
      rm = 12 + names[0].length * fs * 0.8,
      tm = fs + 6,
      bm = 4;
    let cw = Math.min(22, (w0 - lm - rm) / (D + 0.5 * T));
    const maxH = 190;
    let sheetH = T * 0.42 * cw;
    let gap = Math.max(4, 0.45 * cw);
    if (tm + B * sheetH + (B - 1) * gap + bm > maxH) {
      // Tall tensors: the sheets overlap (the upper one drawn over the lower), then cells shrink.
      gap = Math.max(-sheetH * 0.65, (maxH - tm - bm - B * sheetH) / Math.max(B - 1, 1));
      if (tm + B * sheetH + (B - 1) * gap + bm > maxH) {
        cw = (maxH - tm - bm) / (T * 0.42 * (B - (B - 1) * 0.65));
        sheetH = T * 0.42 * cw;
        gap = -sheetH * 0.65;
      }
    }
    const step = sheetH + gap;
    const sheetsBottom = tm + B * sheetH + (B - 1) * gap + bm;
    const H = Math.ceil(sheetsBottom + 36); // and the name and count below
    // One user unit per CSS pixel, as fit() does, but for a cube narrower than fit's 160 px floor.
    const W = w0;
    const x0 = lm + Math.max(0, (W - lm - rm - (D + 0.5 * T) * cw) / 2);
    const P = (b, t, d) => ({ x: x0 + d * cw + t * 0.5 * cw, y: tm + b * step + t * 0.42 * cw });
    const quad = (b, t0, d0, t1, d1) => {
      const q = [P(b, t0, d0), P(b, t0, d1), P(b, t1, d1), P(b, t1, d0)];
      return `M${q.map((p) => `${f(p.x)},${f(p.y)}`).join('L')}Z`;
    };
    const nodes = [];
    // Dashed posts join the sheets' corners: the stack reads as one block.
    if (B > 1)
      for (const [t, d] of [
        [0, 0],
        [0, D],
        [T, 0],
        [T, D],
      ]) {
        const a = P(0, t, d),
          z = P(B - 1, t, d);
        nodes.push(el('line', { class: 'post', x1: f(a.x), y1: f(a.y), x2: f(z.x), y2: f(z.y) }));
      }
    // One group per sheet, bottom sheet first: the sheet, its rulings, the group's cells in it and
    // their outline (and the chosen cell in its own sheet), so an upper sheet covers a lower one.
    const sheets = [];
    for (let b = 0; b < B; b++) {
      let grid = '';
      for (let t = 1; t < T; t++) {
        const a = P(b, t, 0),
          z = P(b, t, D);
        grid += `M${f(a.x)},${f(a.y)}L${f(z.x)},${f(z.y)}`;
      }
      for (let d = 1; d < D; d++) {
        const a = P(b, 0, d),
          z = P(b, T, d);
        grid += `M${f(a.x)},${f(a.y)}L${f(z.x)},${f(z.y)}`;
      }
      const sh = { g: el('g'), cells: el('g'), outline: el('path', { class: 'cells-outline', d: '' }) };
      sh.g.append(el('path', { class: 'sheet', d: quad(b, 0, 0, T, D) }));
      if (grid) sh.g.append(el('path', { class: 'sheet-grid', d: grid }));
      sh.g.append(sh.cells, sh.outline);
      sheets.push(sh);
    }
    for (let b = B - 1; b >= 0; b--) nodes.push(sheets[b].g);
    // Axis names: d above the top sheet, t beside its leaning edge, b by an arrow down the stack.
    const top = P(0, 0, D / 2);
    const left = P(0, T / 2, 0);
    const rightTop = P(0, T / 2, D),
      rightLow = P(B - 1, T / 2, D);
    const xr = P(0, T, D).x + 6; // right of every sheet's far corner
    nodes.push(
      el('text', { class: 'mini-label', x: f(top.x), y: f(top.y - 4), 'text-anchor': 'middle' }, names[2]),
      // (left of the edge's front corner, its leftmost point, so the name never reaches into the sheet)
      el(
        'text',
        {
          class: 'mini-label',
          x: f(Math.min(left.x, P(0, 0, 0).x) - 4),
          y: f(left.y + fs * 0.35),
          'text-anchor': 'end',
        },
        names[1],
      ),
    );
    if (B > 1) {
      const y1 = rightTop.y - sheetH * 0.2,
        y2 = rightLow.y + sheetH * 0.2;
      nodes.push(
        el('path', {
          class: 'mini-axis',
          d: `M${f(xr)},${f(y1)}L${f(xr)},${f(y2)}M${f(xr - 3)},${f(y2 - 5)}L${f(xr)},${f(y2)}L${f(xr + 3)},${f(y2 - 5)}`,
        }),
        el('text', { class: 'mini-label', x: f(xr + 4), y: f((y1 + y2) / 2 + fs * 0.35) }, names[0]),
      );
    } else {
      nodes.push(el('text', { class: 'mini-label', x: f(xr), y: f(rightTop.y + fs * 0.35) }, `${names[0]} = 1`));
    }
    m.chosen ??= el('path', { class: 'mini-chosen' });
    m.pool ??= [];
    m.lay = { key, P, quad, sheets, nodes, W, H, textY: sheetsBottom };
    m.layouts.set(key, m.lay);
    if (m.layouts.size > 4) m.layouts.delete(m.layouts.keys().next().value);
    this._showMultLayout(m, m.lay);
    return m.lay;
  }

  /** Put a small multiple's layout in its svg: its nodes, size, and the name and count under it. */
  _showMultLayout(m, lay) {
    const f = (v) => v.toFixed(1);
    m.svg.setAttribute('viewBox', `0 0 ${lay.W} ${lay.H}`);
    m.name.setAttribute('x', f(lay.W / 2));
    m.name.setAttribute('y', f(lay.textY + 16));
    m.count.setAttribute('x', f(lay.W / 2));
    m.count.setAttribute('y', f(lay.textY + 31));
    m.svg.replaceChildren(...lay.nodes, m.name, m.count);
    m.svg.style.height = `${lay.H}px`;
  }

  // ---- text --------------------------------------------------------------------------------
  describe(s) {
    const names = s.axes;
    const method = this.t(`choice_${s.method}`);
    const count = s.members.length;
    const where = this.t('elementAt', { index: s.index.map((i) => this.fmt(i)).join(', '), axes: names.join(', ') });
    const axisText = s.varying.map((a) =>
      s.partial.includes(a)
        ? this.t('partOf', {
            axis: names[a],
            k: this.fmt(new Set(s.members.map((m) => m[a])).size),
            n: this.fmt(s.shape[a]),
          })
        : this.t('wholeAxis', { axis: names[a], n: this.fmt(s.shape[a]) }),
    );
    const summary =
      count === 1
        ? this.t('summary_alone', { method, where })
        : this.t('summary', {
            method,
            where,
            count: this.fmt(count),
            geometry: this.t(`geometry_${s.geometry}`, { axes: axisText.join(this.t('and')) }),
          });
    const stats = this.t(s.measure === 'mean_square' ? 'stat_mean_square' : 'stat_mean_var');
    const groups =
      s.groupCount === 1
        ? this.t('groups_one', { shape: s.shape.map((n) => this.fmt(n)).join(', '), stats })
        : this.t('groups', { shape: s.shape.map((n) => this.fmt(n)).join(', '), n: this.fmt(s.groupCount), stats });
    const meaning = this.t(`meaning_${s.reading}_${s.method}`, {
      g: this.fmt(s.numGroups),
      size: this.fmt(s.channelsPerGroup ?? s.shape[2]),
    });
    const side = this.t('multiplesSentence', {
      list: s.multiples
        .map((m) =>
          this.t('multipleItem', {
            method:
              m.method === 'group_norm'
                ? this.t('groupNormG', { g: this.fmt(m.numGroups) })
                : this.t(`choice_${m.method}`),
            n: this.fmt(m.members.length),
          }),
        )
        .join(this.t('listSep')),
    });
    return [summary, groups, meaning, side].join(this.t('sentenceSep'));
  }
}
NlAxisCube.defineProperties();

// The figure's strings, English and Chinese (t(key); a language added with registerLocale overrides them).
NlAxisCube.strings = {
  en: {
    name: 'Axis cube: which elements of a tensor share normalization statistics',
    method: 'Method',
    choice_batch_norm: 'BatchNorm',
    choice_layer_norm: 'LayerNorm',
    choice_rms_norm: 'RMSNorm',
    choice_instance_norm: 'InstanceNorm',
    choice_group_norm: 'GroupNorm',
    numGroups: 'Groups G',
    groupsInvalidOption: '{g} (not allowed)',
    groupsInvalid:
      'GroupNorm splits {axis} = {d} into G equal groups, so G must divide {d}; G = {g} does not. Choose G from {choices}.',
    error_not_divisible: 'GroupNorm needs the number of groups G to divide the number of channels.',
    reading: 'Reading',
    choice_sequence: 'sequence [B, T, D]',
    choice_image: 'image [N, HW, C]',
    element: 'Element ({axes})',
    indexAxis: 'index along {axis} (0 to {max})',
    resetView: 'Reset view',
    viewLabel: '3-D view of the tensor, turned {yaw}° and tilted {pitch}°; arrow keys rotate it',
    hint: 'Drag sideways or use the arrow keys to rotate; click or tap a cell to choose the element.',
    badShape: 'shape must be three whole numbers from 1 to {max}, like "3,4,6" (got "{value}").',
    badIndex: 'index must be three whole numbers from 0 to {max}, like "0,1,2" (got "{value}").',
    listSep: ', ',
    elementAt: 'element ({index}) of [{axes}]',
    summary: '{method}: {count} cells share statistics with {where}, {geometry}.',
    summary_alone: '{method}: {where} shares its statistics with no other element; its group is that element alone.',
    geometry_line: 'a line along {axes}',
    geometry_plane: 'a plane over {axes}',
    geometry_block: 'a block over {axes}',
    wholeAxis: '{axis} (all {n})',
    partOf: 'part of {axis} ({k} of {n})',
    and: ' and ',
    sentenceSep: ' ',
    stat_mean_var: 'mean and variance',
    stat_mean_square: 'mean square (no mean is subtracted)',
    groups: 'The tensor [{shape}] splits into {n} such groups, each with its own {stats}.',
    groups_one: 'The whole tensor [{shape}] is this one group: one {stats} for all of it.',
    meaning_sequence_batch_norm:
      'Sequence reading: one feature, pooled over every token of every sequence in the batch.',
    meaning_sequence_layer_norm:
      "Sequence reading: one token's hidden vector; its D features are centered and scaled together.",
    meaning_sequence_rms_norm:
      "Sequence reading: one token's hidden vector, as in LayerNorm, but only its mean square is measured.",
    meaning_sequence_instance_norm:
      'Sequence reading: one feature of one sequence, pooled over that sequence’s tokens.',
    meaning_sequence_group_norm:
      'Sequence reading: {size} consecutive features of one sequence (D/G with G = {g}), pooled over its tokens.',
    meaning_image_batch_norm: 'Image reading: one channel, pooled over all positions of all images in the batch.',
    meaning_image_layer_norm: 'Image reading: the C channels of one position (channels-last LayerNorm).',
    meaning_image_rms_norm: 'Image reading: the C channels of one position, measured by their mean square.',
    meaning_image_instance_norm: 'Image reading: one channel of one image, pooled over its positions.',
    meaning_image_group_norm:
      'Image reading: {size} channels of one image (C/G with G = {g}), pooled over all its positions.',
    multiplesTitle:
      'Four methods for the same element ({index}), as in the GroupNorm paper: one [{sheet}] sheet per {B}; the shaded cells share one mean and variance. Choose one to show it above.',
    multiplesLabel: 'The same element under four methods',
    multipleLabel: '{method}: {n} cells share statistics with the element; show it above',
    groupNormG: 'GroupNorm (G = {g})',
    cells: '{n} cells',
    multiplesSentence: 'Below, the same element under four methods: {list}.',
    multipleItem: '{method} pools {n} cells',
  },
  zh: {
    name: '坐标轴立方体：tensor 中哪些元素共享 normalization 的统计量',
    method: '方法',
    choice_batch_norm: 'BatchNorm',
    choice_layer_norm: 'LayerNorm',
    choice_rms_norm: 'RMSNorm',
    choice_instance_norm: 'InstanceNorm',
    choice_group_norm: 'GroupNorm',
    numGroups: '组数 G',
    groupsInvalidOption: '{g}（不可用）',
    groupsInvalid:
      'GroupNorm 把 {axis} = {d} 均分成 G 组，所以 G 必须整除 {d}；G = {g} 不能。请从 {choices} 中选择 G。',
    error_not_divisible: 'GroupNorm 要求组数 G 整除 channels 数。',
    reading: '解读',
    choice_sequence: '序列 [B, T, D]',
    choice_image: '图像 [N, HW, C]',
    element: '元素（{axes}）',
    indexAxis: '沿 {axis} 的下标（0 到 {max}）',
    resetView: '重置视角',
    viewLabel: 'tensor 的三维视图，水平转动 {yaw}°，俯仰 {pitch}°；方向键可旋转',
    hint: '左右拖动或用方向键旋转；点击或轻触一个格子来选择元素。',
    badShape: 'shape 需要三个 1 到 {max} 的整数，例如“3,4,6”（收到的是“{value}”）。',
    badIndex: 'index 需要三个 0 到 {max} 的整数，例如“0,1,2”（收到的是“{value}”）。',
    listSep: '、',
    elementAt: '[{axes}] 的元素 ({index})',
    summary: '{method}：{count} 个格子与 {where} 共享统计量，{geometry}。',
    summary_alone: '{method}：{where} 不与任何其他元素共享统计量，它的组只有它自己。',
    geometry_line: '构成一条线，沿 {axes}',
    geometry_plane: '构成一个面，跨 {axes}',
    geometry_block: '构成一个块，跨 {axes}',
    wholeAxis: '{axis} 的全部 {n} 个位置',
    partOf: '{axis} 的 {n} 个位置中的 {k} 个',
    and: '与 ',
    sentenceSep: '',
    stat_mean_var: 'mean 与 variance',
    stat_mean_square: '均方（不减去 mean）',
    groups: 'tensor [{shape}] 共分成 {n} 个这样的组，每组各有自己的统计量：{stats}。',
    groups_one: '整个 tensor [{shape}] 就是这一个组，全体共用同一组统计量：{stats}。',
    meaning_sequence_batch_norm: '序列解读：同一个 feature，跨 batch 中所有序列的所有 tokens 汇集。',
    meaning_sequence_layer_norm: '序列解读：一个 token 的 hidden vector；它的 D 个 features 一起做 centering 与缩放。',
    meaning_sequence_rms_norm: '序列解读：与 LayerNorm 一样是一个 token 的 hidden vector，但只测量均方。',
    meaning_sequence_instance_norm: '序列解读：一条序列中的一个 feature，跨这条序列的 tokens 汇集。',
    meaning_sequence_group_norm: '序列解读：一条序列中连续 {size} 个 features（D/G，G = {g}），跨其 tokens 汇集。',
    meaning_image_batch_norm: '图像解读：一个 channel，跨 batch 中所有图像的所有位置汇集。',
    meaning_image_layer_norm: '图像解读：一个位置上的 C 个 channels（channels-last 的 LayerNorm）。',
    meaning_image_rms_norm: '图像解读：一个位置上的 C 个 channels，用它们的均方来度量。',
    meaning_image_instance_norm: '图像解读：一张图像的一个 channel，跨它的所有位置汇集。',
    meaning_image_group_norm: '图像解读：一张图像中的 {size} 个 channels（C/G，G = {g}），跨其所有位置汇集。',
    multiplesTitle:
      '同一元素 ({index}) 在四种方法下的组，与 GroupNorm 论文的图一样：每个 {B} 一层 [{sheet}]；着色的格子共用一组 mean 与 variance。点选一个，上方的大图就换成它。',
    multiplesLabel: '同一元素在四种方法下的组',
    multipleLabel: '{method}：{n} 个格子与该元素共享统计量；在上方显示',
    groupNormG: 'GroupNorm（G = {g}）',
    cells: '{n} 个格子',
    multiplesSentence: '下方是同一元素在四种方法下的组：{list}。',
    multipleItem: '{method} 汇集 {n} 个格子',
  },
};
