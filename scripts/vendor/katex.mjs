// KaTeX as one ES module for the article page (math typesetting, no CDN).
// katex.render builds DOM nodes and sets styles through the CSSOM, so it works
// under a style-src 'self' Content-Security-Policy.
export { default } from 'katex';
