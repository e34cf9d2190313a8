// Bundle the third-party code the figures use into dist/vendor/ as ES
// modules, so pages need no bundler and no CDN. Skips when up to date.
import { build } from 'esbuild';
import { apparatus } from './apparatus.mjs';
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundles = [{ entry: 'scripts/vendor/prism.cjs', out: 'dist/vendor/prism.js' }];

for (const { entry, out } of bundles) {
  const target = root + out;
  const inputs = [root + entry, root + 'package-lock.json', fileURLToPath(import.meta.url)];
  if (existsSync(target) && inputs.every((f) => statSync(f).mtimeMs <= statSync(target).mtimeMs)) continue;
  await build({
    entryPoints: [root + entry],
    outfile: target,
    bundle: true,
    format: 'esm',
    minify: true,
    legalComments: 'eof',
    target: 'es2020',
    logLevel: 'warning',
  });
  console.log(`build-web: ${out} (${statSync(target).size} bytes)`);
}

// KaTeX's stylesheet and fonts, next to its module, for the article page.
const katexDir = root + 'dist/vendor/katex/';
if (!existsSync(katexDir + 'katex.min.css')) {
  cpSync(root + 'node_modules/katex/dist/katex.min.css', katexDir + 'katex.min.css');
  cpSync(root + 'node_modules/katex/dist/fonts', katexDir + 'fonts', { recursive: true });
  console.log('build-web: dist/vendor/katex/ (stylesheet and fonts)');
}

// The single-file build: every figure and the WASM core (inlined as base64) in
// one classic script, for pages opened straight from disk (file://).
const single = root + 'dist/normlab.single.js';
const webFiles = [
  root + 'dist/normlab-core.wasm',
  root + 'dist/normlab-train.wasm',
  root + 'dist/normlab-core.mjs',
  root + 'dist/vendor/prism.js',
];
const newest = (dir) => {
  let t = 0;
  for (const f of readdirRecursive(dir)) t = Math.max(t, statSync(f).mtimeMs);
  return t;
};
function readdirRecursive(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? readdirRecursive(`${dir}/${e.name}`) : [`${dir}/${e.name}`],
  );
}
const inputTime = Math.max(
  newest(root + 'web'),
  ...webFiles.map((f) => statSync(f).mtimeMs),
  statSync(fileURLToPath(import.meta.url)).mtimeMs,
);
// One bundle of the web sources, rebuilt when any input is newer than it.
async function bundleWeb(entry, out, options) {
  if (existsSync(out) && statSync(out).mtimeMs >= inputTime) return;
  await build({
    entryPoints: [root + entry],
    outfile: out,
    bundle: true,
    minify: true,
    target: 'es2020',
    logLevel: 'error',
    ...options,
  });
  console.log(`build-web: ${out.slice(root.length)} (${statSync(out).size} bytes)`);
}

// The training worker's script (web/core/train-worker.js and what it imports, one classic script): started
// from its address beside the package, or as a Blob worker from its text (the single-file build carries it).
const workerOut = root + 'dist/normlab-worker.js';
await bundleWeb('web/core/train-worker.js', workerOut, {
  format: 'iife',
  banner: { js: '/* normlab training worker: the training module behind postMessage (web/core/train-worker.js). */' },
});

// Both modules as base64 (the training module too: a page opened from disk cannot fetch it later).
const inlineModules = {
  __NORMLAB_INLINE_WORKER__: JSON.stringify(readFileSync(workerOut, 'utf8')),
  __NORMLAB_INLINE_WASM__: JSON.stringify(readFileSync(root + 'dist/normlab-core.wasm').toString('base64')),
  __NORMLAB_INLINE_TRAIN_WASM__: JSON.stringify(readFileSync(root + 'dist/normlab-train.wasm').toString('base64')),
};
await bundleWeb('web/auto.js', single, {
  format: 'iife',
  define: inlineModules,
  banner: { js: '/* normlab single-file build: the figures and the WASM core in one classic script. */' },
});

// The article page as minified modules split per figure: dist/page.js (the
// page script and the core's loader) and dist/page/, one chunk per figure plus
// the code they share, each imported when its figure nears the view (web/page.js).
// Prism stays a separate file, loaded when needed.
const pageChunks = root + 'dist/page/';
if (!existsSync(root + 'dist/page.js') || statSync(root + 'dist/page.js').mtimeMs < inputTime) {
  rmSync(pageChunks, { recursive: true, force: true }); // no chunk of an earlier build stays behind
  const result = await build({
    entryPoints: [root + 'web/page.js'],
    outdir: root + 'dist',
    entryNames: '[name]',
    chunkNames: 'page/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    target: 'es2020',
    metafile: true,
    absWorkingDir: root, // the metafile's paths: dist/…
    logLevel: 'warning', // an import dropped as free of side effects is a warning
    plugins: [
      {
        name: 'vendor-external',
        setup(b) {
          // every chunk that imports it sits in dist/page/
          b.onResolve({ filter: /dist\/vendor\/prism\.js$/ }, (a) => ({
            path: '../vendor/' + a.path.split('/').pop(),
            external: true,
          }));
        },
      },
    ],
    banner: { js: '/* normlab article page: the page script and the figures (source: web/page.js). */' },
  });
  // The files each figure's chunk and the page script import (the chunks they share): the article
  // links the page's and its first figure's for an early fetch, with no round trip per import.
  const outputs = result.metafile.outputs;
  const closure = (file) => {
    const seen = new Set([file]);
    const walk = (f) => {
      for (const i of outputs[f]?.imports ?? [])
        if (i.kind === 'import-statement' && !i.external && !seen.has(i.path)) {
          seen.add(i.path);
          walk(i.path);
        }
    };
    walk(file);
    return [...seen].map((f) => f.slice('dist/'.length));
  };
  const chunkOf = { page: closure('dist/page.js') };
  for (const [file, o] of Object.entries(outputs)) {
    const m = o.entryPoint?.match(/^web\/define\/(nl-[a-z0-9-]+)\.js$/);
    if (m) chunkOf[m[1]] = closure(file);
  }
  if (Object.keys(chunkOf).length < 2) throw new Error('build-web: no figure chunk in the split page bundle');
  writeFileSync(root + 'dist/page-chunks.json', JSON.stringify(chunkOf, null, 1) + '\n');
  const size = Object.keys(outputs).reduce((n, f) => n + statSync(root + f).size, 0);
  console.log(`build-web: dist/page.js + dist/page/ (${Object.keys(outputs).length} files, ${size} bytes)`);
}

// The article page, typeset: web/index.html with every TeX span rendered by
// KaTeX here, in Node (HTML + MathML), and line breaks between Chinese
// characters removed (a browser would show each as a space). The server sends
// this file for /web/index.html, so the page carries no KaTeX script and never
// shows TeX source. A TeX error stops the build.
async function buildArticle() {
  const src = root + 'web/index.html',
    out = root + 'dist/index.html',
    space = root + 'dist/figure-space.css';
  const inputs = [
    src,
    root + 'web/styles/page.css', // inlined
    fileURLToPath(import.meta.url),
    root + 'package-lock.json',
    root + 'scripts/build-fallbacks.mjs',
    root + 'dist/page-chunks.json', // the chunks it links
  ];
  // Up to date when the page is newer than its sources and its fallbacks newer than the figures' code.
  if (
    existsSync(out) &&
    existsSync(space) &&
    inputs.every((f) => statSync(f).mtimeMs <= statSync(out).mtimeMs) &&
    statSync(root + 'dist/page.js').mtimeMs <= statSync(space).mtimeMs
  )
    return;
  const { default: katex } = await import('katex');
  const decode = (s) =>
    s
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
  let html = readFileSync(src, 'utf8');
  let count = 0;
  // KaTeX sizes its boxes with style attributes, which the page's strict CSP
  // (no 'unsafe-inline') would drop: each distinct style becomes a class in a
  // generated stylesheet instead.
  const styles = new Map();
  const classOf = (style) => {
    if (!styles.has(style)) styles.set(style, `kx${styles.size}`);
    return styles.get(style);
  };
  const unstyle = (markup) =>
    markup.replace(/<(\w+)([^>]*?) style="([^"]*)"([^>]*)>/g, (_, tag, before, style, after) => {
      const cls = classOf(style);
      const all = `${before}${after}`;
      return /class="/.test(all)
        ? `<${tag}${all.replace(/class="([^"]*)"/, `class="$1 ${cls}"`)}>`
        : `<${tag}${all} class="${cls}">`;
    });
  html = html.replace(/<(span|div) class="math( display)?">([\s\S]*?)<\/\1>/g, (_, tag, display, tex) => {
    count++;
    const rendered = katex.renderToString(decode(tex), {
      displayMode: !!display,
      throwOnError: true,
      output: 'htmlAndMathml',
    });
    return `<${tag} class="math${display ?? ''}">${unstyle(rendered)}</${tag}>`;
  });
  writeFileSync(root + 'dist/math.css', [...styles].map(([style, cls]) => `.${cls}{${style}}`).join('\n') + '\n');
  // A segment break between two CJK characters (or CJK punctuation) is no space.
  const cjk = '\\u3000-\\u303f\\u3400-\\u9fff\\uff00-\\uffef';
  html = html.replace(new RegExp(`([${cjk}])[ \\t]*\\n\\s*(?=(?:<[^>]+>)*[${cjk}])`, 'g'), '$1'); // tags between count for nothing
  // The list of figures names each figure as the figure names itself (its catalog's `name`).
  const { elements } = await import('../web/elements.js');
  const { catalogs } = await import('../web/i18n/index.js');
  // (a figure's own strings, or a section of its language's catalog: either layout)
  html = apparatus(
    html,
    (tag, lang) => catalogs[lang]?.[elements[tag]?.catalog]?.name ?? elements[tag]?.strings?.[lang]?.name ?? null,
  );
  html = html.replace(
    '</head>',
    '  <link rel="stylesheet" href="../dist/vendor/katex/katex.min.css">\n  <link rel="stylesheet" href="../dist/math.css">\n</head>',
  );
  html = html.replace(
    '<!doctype html>',
    '<!doctype html>\n<!-- Built from web/index.html by scripts/build-web.mjs: math typeset by KaTeX at build time. -->',
  );
  // The page script runs async (the core starts compiling while the page is parsed), and so does the
  // article's first figure, a module of its own that defines it: it upgrades as soon as it is parsed.
  // The modules both import are fetched at once beside them: without these links each import is
  // found only when the one before it has arrived.
  const chunks = JSON.parse(readFileSync(root + 'dist/page-chunks.json', 'utf8'));
  const first = html.match(/<figure class="figure" id="[^"]+">\s*<(nl-[a-z0-9-]+)/)?.[1];
  if (!chunks[first]) throw new Error(`build-web: no chunk for the first figure (${first})`);
  const [firstChunk, ...shared] = chunks[first];
  const preload = [...new Set([...chunks.page, ...shared])].filter((f) => f !== 'page.js');
  html = html.replace(
    '<script type="module" async src="../dist/page.js"></script>',
    (tag) =>
      `${tag}\n` +
      `  <script type="module" async src="../dist/${firstChunk}"></script>` +
      preload.map((f) => `\n  <link rel="modulepreload" href="../dist/${f}">`).join(''),
  );
  if (!html.includes('rel="modulepreload"')) throw new Error('build-web: the page script tag moved');
  writeFileSync(out, html);
  const { buildFallbacks } = await import('./build-fallbacks.mjs');
  const figures = await buildFallbacks();
  inlineStyles();
  console.log(
    `build-web: dist/index.html (${count} formulas typeset; ${figures} figures drawn for readers without JavaScript)`,
  );
}

// The page's four stylesheets (its own, KaTeX's, the typeset math's boxes and the figures' reserved
// heights, 10 KB gzip together) go inside it: on the phone profile each was one more request the first
// paint waited for, behind the core and the figure code on a 1.6 Mbit/s link (first paint 1.08 -> 0.84 s,
// bench/figures.mjs --cold). KaTeX's font addresses are rewritten from its folder's to the page's.
// The servers of this repository send, for the article, the hashes of these <style> blocks in its
// Content-Security-Policy (scripts/serve.mjs), so the policy stays free of 'unsafe-inline'.
function inlineStyles() {
  const out = root + 'dist/index.html';
  const sheets = {
    'styles/page.css': [root + 'web/styles/page.css', ''],
    '../dist/vendor/katex/katex.min.css': [katexDir + 'katex.min.css', '../dist/vendor/katex/'],
    '../dist/math.css': [root + 'dist/math.css', ''],
    '../dist/figure-space.css': [root + 'dist/figure-space.css', ''],
  };
  let html = readFileSync(out, 'utf8');
  for (const [href, [file, base]] of Object.entries(sheets)) {
    const link = `<link rel="stylesheet" href="${href}">`;
    if (!html.includes(link)) throw new Error(`build-web: dist/index.html has no ${link}`);
    const css = readFileSync(file, 'utf8')
      .replace(/url\((?!data:)([^)]+)\)/g, (_, u) => `url(${base}${u})`)
      .trim();
    if (css.includes('</style')) throw new Error(`build-web: ${href} would end its <style> block`);
    html = html.replace(link, () => `<style>${css}</style>`);
  }
  if (/<link rel="stylesheet"/.test(html)) throw new Error('build-web: a stylesheet of the article is still linked');
  writeFileSync(out, html);
}

await buildArticle();

// The article as a folder to copy anywhere (a static host, a USB stick) and
// open straight from disk: dist/site/ holds the typeset page, its styles and
// math fonts, and one classic script with the figures and the WASM core
// inlined (file:// pages may not load module scripts or fetch files).
async function buildSite() {
  const dir = root + 'dist/site/';
  const script = dir + 'page.js';
  await bundleWeb('web/page.js', script, {
    format: 'iife',
    define: inlineModules,
    plugins: [
      {
        name: 'inline-core',
        setup(b) {
          // The page's early start of the core, without a .wasm address: the core is inlined.
          b.onResolve({ filter: /start-core\.js$/ }, () => ({ path: 'start-core', namespace: 'site' }));
          b.onLoad({ filter: /.*/, namespace: 'site' }, () => ({
            contents: "import { loadCore } from './core/normlab.js'; loadCore().catch(() => {});",
            resolveDir: root + 'web',
          }));
        },
      },
    ],
    banner: { js: '/* normlab article page, self-contained: the figures and the WASM core (source: web/page.js). */' },
  });
  const html = readFileSync(root + 'dist/index.html', 'utf8')
    .replace('<script type="module" async src="../dist/page.js"></script>', '<script defer src="page.js"></script>')
    .replace(/\s*<script type="module" async src="\.\.\/dist\/page\/[^"]*"><\/script>/, '')
    .replace(/\s*<link rel="preload" href="\.\.\/dist\/normlab-core\.wasm"[^>]*>/, '')
    .replace(/\s*<link rel="modulepreload" href="\.\.\/dist\/[^"]*">/g, '')
    .replaceAll('url(../dist/vendor/katex/', 'url(katex/')
    .replaceAll('src="../dist/figures/', 'src="figures/');
  if (/\.\.\/dist\/|type="module"/.test(html))
    throw new Error('build-web: dist/site/index.html still points outside its folder');
  writeFileSync(dir + 'index.html', html);
  cpSync(root + 'dist/figures', dir + 'figures', { recursive: true });
  cpSync(root + 'dist/vendor/katex', dir + 'katex', { recursive: true });
}
await buildSite();
