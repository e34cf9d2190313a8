// The layout-shift watch the page tests and bench/figures.mjs put in a page before it loads.

/**
 * For `page.addInitScript(watchLayoutShift)`: runs in the page. Sums every layout shift not caused by the
 * reader's input in `window.__cls` and lists each in `window.__shifts` ("0.0012 at 340 ms nl-adaln,div": its
 * value, its time and the elements that moved).
 */
export function watchLayoutShift() {
  window.__cls = 0;
  window.__shifts = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.hadRecentInput) continue;
      window.__cls += e.value;
      const moved = e.sources?.map((s) => s.node?.localName ?? s.node?.nodeName).join(',');
      window.__shifts.push(`${e.value.toFixed(4)} at ${e.startTime.toFixed(0)} ms ${moved}`);
    }
  }).observe({ type: 'layout-shift', buffered: true });
}
