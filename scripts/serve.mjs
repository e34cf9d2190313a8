// A small static server for the article page: localhost only, no network,
// correct MIME types (application/wasm), and the strict Content-Security-Policy
// the figures are meant to work under. With `compress` (the command line's
// default) it sends brotli or gzip as the request accepts, as a static host does,
// each file compressed once per version.
//   node scripts/serve.mjs [--port 8080] [--no-compress]
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const ownRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));
// Text and WASM compress; pictures and fonts are compressed already.
const compressible = new Set(['.html', '.js', '.mjs', '.css', '.wasm', '.json', '.svg']);
const compressed = new Map(); // `${file} ${mtime} ${encoding}` → bytes
function encode(file, mtime, body, encoding) {
  const key = `${file} ${mtime} ${encoding}`;
  if (!compressed.has(key))
    compressed.set(
      key,
      encoding === 'br'
        ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })
        : gzipSync(body, { level: 9 }),
    );
  return compressed.get(key);
}
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
};
export const CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; font-src 'self'";
// The article carries its stylesheets inline (scripts/build-web.mjs): its policy names each <style>
// block by its hash, so nothing else inline is allowed.
const hashed = new Map(); // `${file} ${mtime}` → the article's policy
function policyFor(file, mtime, body) {
  const key = `${file} ${mtime}`;
  if (!hashed.has(key)) {
    const hashes = [...body.toString('utf8').matchAll(/<style>([\s\S]*?)<\/style>/g)].map(
      ([, css]) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`,
    );
    hashed.set(key, CSP.replace("style-src 'self'", ["style-src 'self'", ...hashes].join(' ')));
  }
  return hashed.get(key);
}
// Only these folders are served; everything else is 404.
const served = ['web', 'dist'];
// The article page is sent as built (dist/index.html: math typeset at build
// time, scripts/build-web.mjs) at the address of its source, web/index.html,
// so its relative links hold.

// `root`: the tree to serve (another checkout, for a bench of two builds side by side).
export function startServer({ port = 8080, host = '127.0.0.1', headers = {}, compress = false, root = ownRoot } = {}) {
  root = resolve(root);
  const article = join(root, 'dist', 'index.html');
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://localhost');
      const path = decodeURIComponent(url.pathname);
      if (path === '/' || path === '/index.html') {
        res.writeHead(302, { Location: '/web/index.html' });
        return res.end();
      }
      const file = path === '/web/index.html' ? article : normalize(join(root, path));
      const rel = file.slice(root.length + 1);
      if (!file.startsWith(root + sep) || !served.some((d) => rel === d || rel.startsWith(d + sep)))
        throw new Error('not served');
      const info = await stat(file);
      if (!info.isFile()) throw new Error('not a file');
      let body = await readFile(file);
      const policy = file === article ? policyFor(file, info.mtimeMs, body) : CSP;
      const accepted = String(req.headers['accept-encoding'] ?? '');
      const encoding =
        !compress || !compressible.has(extname(file))
          ? null
          : /\bbr\b/.test(accepted)
            ? 'br'
            : /\bgzip\b/.test(accepted)
              ? 'gzip'
              : null;
      if (encoding) body = encode(file, info.mtimeMs, body, encoding);
      res.writeHead(200, {
        'Content-Type': types[extname(file)] ?? 'application/octet-stream',
        'Content-Security-Policy': policy,
        'Cache-Control': 'no-cache',
        ...(encoding ? { 'Content-Encoding': encoding, Vary: 'Accept-Encoding' } : {}),
        'Content-Length': body.length,
        ...headers,
      });
      res.end(body);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('not found');
    }
  });
  return new Promise((resolvePromise, reject) => {
    const tryListen = (p, attempts) => {
      server.once('error', (e) => {
        if (e.code === 'EADDRINUSE' && attempts > 0) tryListen(p + 1, attempts - 1);
        else reject(e);
      });
      server.listen(p, host, () => resolvePromise({ server, url: `http://${host}:${server.address().port}/` }));
    };
    tryListen(port, port === 0 ? 0 : 20);
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--port');
  const port = Number(i > 0 ? process.argv[i + 1] : (process.env.PORT ?? 8080));
  const { url } = await startServer({ port, compress: !process.argv.includes('--no-compress') });
  console.log(`normlab: serving the article at ${url}web/index.html (Ctrl-C to stop)`);
}
