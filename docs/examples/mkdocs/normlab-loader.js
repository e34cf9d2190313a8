// MkDocs: a classic script (extra_javascript) that loads normlab as a module
// from the folder next to it, docs/javascripts/normlab/ (a copy of the
// package's web/ and dist/ folders: see README, "Docs sites"). Addresses are
// taken from this script's own URL, so the site may live under a sub-path.
(function () {
  var here = document.currentScript && document.currentScript.src;
  if (!here || window.__normlabLoader) return; // once, whatever instant navigation does
  window.__normlabLoader = true;
  var s = document.createElement('script');
  s.type = 'module';
  s.src = new URL('normlab-mkdocs.js', here).href;
  document.head.appendChild(s);
})();
